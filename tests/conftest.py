"""Shared fixtures: the built-in example card built once, helpers to run the CLI."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BASE_CONFIG = """\
[card]
preset = "eu"
theme = "dark"

[person]
name = "Ada Example"
title = "Puzzle Designer"
company = "Example Games"
email = "ada@example.org"
phone = "+1 555 0100"
web = "example.org"
"""


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cardgen ARGS`` and capture its output."""
    return subprocess.run([sys.executable, "-m", "cardgen", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def write_config(folder: Path, text: str = BASE_CONFIG, name: str = "card.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def example_build():
    from cardgen.card import build_card
    from cardgen.config import load_config

    return build_card(load_config(None))


@pytest.fixture(scope="session")
def example_pdf(example_build) -> bytes:
    from cardgen.render.pdf import render_pdf

    return render_pdf(example_build.document)


@pytest.fixture(scope="session")
def example_pdf_reader(example_pdf):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(example_pdf))


@pytest.fixture(scope="session")
def example_plumber(example_pdf):
    import pdfplumber

    with pdfplumber.open(io.BytesIO(example_pdf)) as pdf:
        yield pdf
