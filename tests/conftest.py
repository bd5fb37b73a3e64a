"""Fixtures shared by the tests: the built-in example card, built and rendered once."""

from __future__ import annotations

import io

import pytest


@pytest.fixture(scope="session")
def example_build():
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config

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
