"""Golden hashes: every output of a set of command lines, recorded, so that an unintended
change to what cardgen prints is noticed.

Each scenario runs the real command line in process, in a fresh folder holding the test
images and configs, and records:

- ``exit``, ``stdout`` and ``stderr``;
- ``model``: a digest of every page description handed to the renderers (positions,
  text, fonts, colours, image sizes; not image pixels). It depends only on cardgen, so it
  is compared everywhere;
- ``files``: the SHA-256 of every file written. Their bytes also depend on reportlab,
  Pillow, fontTools, svgwrite and zlib, so they are compared only when those versions
  are the ones the hashes were recorded with (``toolchain``); otherwise the test says so
  and checks the rest.

After an intended change, look at the output, then record the new hashes:

    .venv/bin/python -m tests.golden --update

``python -m tests.golden`` alone checks and prints every difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any

from tests.helpers import BASE_CONFIG, DATA, cli

HASHES = Path(__file__).resolve().parent / "golden" / "hashes.json"
ID1, ID2 = "R1:B2B8E4I2I8-B4E2E8H4I9", "R1:C5D9E2H5I9-B3C9F7I2I9"

PORTRAIT_CONFIG = BASE_CONFIG + """\
tagline = "Games on paper."
[images]
portrait = "portrait.png"
logo = "logo.png"
"""
CUSTOM_CONFIG = """\
[card]
width_mm = 95
height_mm = 60
theme = "light"
qr = false
[person]
name = "Zoë Ångström-Lee"
title = "Art Director"
company = "Bright Tables"
email = "zoe@bright.example"
address = "4 Quay Road, Bristol BS1 4QA"
tagline = "Cards that play back."
"""

# name -> command line; every output goes under out/.
SCENARIOS: dict[str, list[str]] = {
    "card-default": ["card", "-o", "out"],
    "card-us-light": ["card", "--preset", "us", "--theme", "light", "-f", "pdf,svg", "-o",
                      "out"],
    "card-portrait-logo": ["card", "portrait.toml", "--dpi", "72", "-o", "out"],
    "card-portrait-us-light-nomarks-rgb": ["card", "portrait.toml", "--preset", "us",
                                           "--theme", "light", "--no-marks", "--rgb", "-f",
                                           "pdf", "-o", "out"],
    "card-custom-size": ["card", "custom.toml", "-f", "pdf,svg", "-o", "out"],
    "card-us-dieline-layer": ["card", "--preset", "us", "--dieline", "layer", "-f", "pdf,svg",
                              "-o", "out"],
    "card-portrait-varnish": ["card", "portrait.toml", "--varnish", "layer", "--dieline", "layer",
                              "-f", "pdf,png", "--dpi", "72", "-o", "out"],
    "sheet-a4-long": ["sheet", "-o", "out"],
    "sheet-letter-short-us-offset": ["sheet", "--paper", "letter", "--flip", "short",
                                     "--preset", "us", "--offset=0.5,-0.3", "-o", "out"],
    "sheet-portrait-nomarks-rgb": ["sheet", "portrait.toml", "--no-marks", "--rgb", "-o",
                                   "out"],
    "registration-a4-long": ["sheet", "--registration", "-o", "out"],
    "registration-letter-short-offset": ["sheet", "--registration", "--paper", "letter",
                                         "--flip", "short", "--offset=1,-2", "-o", "out"],
    "rotator-generate-easy": ["rotator", "generate", "--seed", "7", "--count", "3",
                              "--difficulty", "easy", "--json", "--jobs", "1", "-o",
                              "out", "--name", "boards"],
    "rotator-generate-large-letter": ["rotator", "generate", "--seed", "5", "--count", "2",
                                      "--difficulty", "easy", "--size", "large",
                                      "--paper", "letter", "--jobs", "1", "-o",
                                      "out", "--name", "boards"],
    "rotator-print-key-all-formats": ["rotator", "print", ID1, "--key", "-f", "pdf,svg,png",
                                      "--dpi", "100", "-o", "out"],
    "rotator-print-two-card-size": ["rotator", "print", ID1, ID2, "--size", "card",
                                    "--paper", "letter", "-o", "out", "--name",
                                    "boards"],
    "rotator-show": ["rotator", "show", ID1],
    "rotator-solve-json": ["rotator", "solve", ID1, "--json"],
    "rotator-solve-quick-text": ["rotator", "solve", ID2, "--quick", "--budget", "3000"],
    "rules-book": ["rules", "all", "-o", "out"],
    "rules-booklet-letter-creep": ["rules", "all", "--booklet", "--paper", "letter",
                                   "--creep", "0.5", "-o", "out"],
    "rules-reflector-svg": ["rules", "reflector", "-f", "svg", "-o", "out"],
    "playsheet-reflector-us-letter": ["playsheet", "reflector", "--preset", "us", "--paper",
                                      "letter", "-o", "out"],
    "playsheet-deflector-4": ["playsheet", "deflector", "--players", "4", "-o", "out"],
    "playsheet-defector": ["playsheet", "defector", "-o", "out"],
    "ladder-mat": ["ladder", "mat", "-o", "out"],
    "ladder-mat-4-letter": ["ladder", "mat", "--rows", "4", "--paper", "letter", "-o", "out"],
    "ladder-rules": ["ladder", "rules", "-o", "out"],
    "connector-show-rotator": ["connector", "show", "rotator", "-f", "pdf,svg", "-o", "out"],
    "connector-show-reflector-us": ["connector", "show", "reflector", "--preset", "us", "-f",
                                    "pdf", "-o", "out"],
    "connector-show-deflector": ["connector", "show", "deflector", "-f", "pdf", "-o", "out"],
    "connector-show-defector": ["connector", "show", "defector", "-f", "pdf,png", "-o", "out"],
}

TOOLCHAIN_PACKAGES = ("reportlab", "pillow", "fonttools", "svgwrite")


def toolchain() -> dict[str, str]:
    """The versions that file bytes depend on besides cardgen itself."""
    versions = {name: metadata.version(name) for name in TOOLCHAIN_PACKAGES}
    versions["zlib"] = zlib.ZLIB_RUNTIME_VERSION
    return versions


def _num(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def canonical(document: Any) -> Iterator[str]:
    """A page description as lines of text: every page, layer and item with every
    property, numbers to a millionth of a millimetre."""
    from cardgen.draw.page import Group, Image, Line, Rect, Text
    from cardgen.draw.page import Path as PathItem

    def color(c: Any) -> str:
        return "none" if c is None else (f"cmyk({_num(c.c)},{_num(c.m)},{_num(c.y)},"
                                         f"{_num(c.k)})rgb{c.rgb}spot={c.spot}"
                                         + (" overprint" if c.overprint else ""))

    def stroke(s: Any) -> str:
        if s is None:
            return "none"
        return f"{color(s.color)} w{_num(s.width)} dash{[_num(d) for d in s.dash]} {s.cap}"

    def box(b: Any) -> str:
        return "none" if b is None else " ".join(_num(v) for v in (b.x, b.y, b.w, b.h))

    def items(entries: list[Any], depth: int) -> Iterator[str]:
        pad = "  " * depth
        for item in entries:
            if isinstance(item, Rect):
                yield f"{pad}rect {box(item)} fill={color(item.fill)} stroke={stroke(item.stroke)}"
            elif isinstance(item, Line):
                yield (f"{pad}line {_num(item.x1)} {_num(item.y1)} {_num(item.x2)} "
                       f"{_num(item.y2)} {stroke(item.stroke)}")
            elif isinstance(item, PathItem):
                ops = " ".join(type(op).__name__ + ",".join(
                    _num(getattr(op, f)) for f in op.__slots__) for op in item.ops)
                yield f"{pad}path {ops} fill={color(item.fill)} stroke={stroke(item.stroke)}"
            elif isinstance(item, Text):
                yield (f"{pad}text {_num(item.x)} {_num(item.y)} {item.text!r} "
                       f"{item.font.name}/{Path(item.font.path).name} {_num(item.size)} "
                       f"{color(item.color)} {item.anchor} {_num(item.rotation)} {item.name}")
            elif isinstance(item, Image):
                r = item.raster
                yield (f"{pad}image {_num(item.x)} {_num(item.y)} {_num(item.w)} "
                       f"{_num(item.h)} {r.size} cmyk={r.cmyk is not None} "
                       f"mask={None if r.mask is None else r.mask.size} {item.name}")
            elif isinstance(item, Group):
                t = item.transform
                yield (f"{pad}group {item.name} [{' '.join(_num(v) for v in t.as_tuple)}] "
                       f"clip={box(item.clip)}")
                yield from items(item.items, depth + 1)
            else:
                raise TypeError(f"unknown item {item!r}")

    yield f"document {document.title!r} {document.subject!r}"
    for page in document.pages:
        yield (f"page {page.name} {_num(page.width)} {_num(page.height)} trim {box(page.trim)} "
               f"bleed {box(page.bleed)}")
        for layer in page.layers:
            yield f" layer {layer.name}" + (" print-only" if layer.print_only else "")
            yield from items(layer.items, 2)


@contextmanager
def recorded_documents() -> Iterator[list[str]]:
    """Record a digest of every document the command line hands to the renderers."""
    import cardgen.render as render_module

    digests: list[str] = []
    original: Callable[..., Any] = render_module.render

    def recording(document: Any, *args: Any, **kwargs: Any) -> Any:
        text = "\n".join(canonical(document))
        digests.append(hashlib.sha256(text.encode("utf-8")).hexdigest())
        return original(document, *args, **kwargs)

    render_module.render = recording
    try:
        yield digests
    finally:
        render_module.render = original


def run_scenario(name: str, folder: Path) -> dict[str, Any]:
    """Run one scenario in ``folder`` and return what it produced."""
    folder.mkdir(parents=True, exist_ok=True)
    for image in ("portrait.png", "logo.png"):
        shutil.copy(DATA / image, folder / image)
    (folder / "portrait.toml").write_text(PORTRAIT_CONFIG, encoding="utf-8")
    (folder / "custom.toml").write_text(CUSTOM_CONFIG, encoding="utf-8")
    with recorded_documents() as digests:
        result = cli(*SCENARIOS[name], cwd=folder)
    out = folder / "out"
    files = {}
    if out.exists():
        files = {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
                 for p in sorted(out.rglob("*")) if p.is_file()}
    return {"exit": result.returncode, "stdout": result.stdout, "stderr": result.stderr,
            "model": digests, "files": files}


def run_all(names: list[str] | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        return {name: run_scenario(name, Path(tmp) / name) for name in names or SCENARIOS}


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(HASHES.read_text(encoding="utf-8"))
    return data


def differences(name: str, got: dict[str, Any], want: dict[str, Any],
                compare_files: bool) -> list[str]:
    """What differs between a scenario's run and its recording, in words."""
    out = []
    for key in ("exit", "stdout", "stderr", "model"):
        if got[key] != want[key]:
            out.append(f"{name}: {key} differs: {want[key]!r:.300} -> {got[key]!r:.300}")
    if compare_files:
        for file in sorted(set(got["files"]) | set(want["files"])):
            if got["files"].get(file) != want["files"].get(file):
                out.append(f"{name}: {file} differs "
                           f"({want['files'].get(file, 'absent')} -> "
                           f"{got['files'].get(file, 'absent')})")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check or record cardgen's golden hashes.")
    parser.add_argument("--update", action="store_true",
                        help="record the current outputs as the golden ones")
    args = parser.parse_args(argv)
    results = run_all()
    if args.update:
        HASHES.parent.mkdir(parents=True, exist_ok=True)
        HASHES.write_text(json.dumps({"toolchain": toolchain(), "scenarios": results},
                                     indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        print(f"recorded {len(results)} scenarios in {HASHES}")
        return 0
    recorded = load()
    same_tools = recorded["toolchain"] == toolchain()
    problems = [p for name, got in results.items()
                for p in differences(name, got, recorded["scenarios"][name], same_tools)]
    for p in problems:
        print(p)
    if not same_tools:
        print(f"file bytes not compared: recorded with {recorded['toolchain']}, "
              f"this is {toolchain()}")
    print("golden: no differences" if not problems else f"golden: {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
