"""Bad input, through the command line (in process, through its error boundary
``cardgen.cli.run``): one clear sentence on stderr that names the field or file, exit
status 1, no traceback, and no half-written output."""

from __future__ import annotations

import io
import os
import re
import struct
import zlib
from pathlib import Path

import pytest

from tests.helpers import BASE_CONFIG, ROOT, Result, cli, error_line, write_config

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# --- helpers ----------------------------------------------------------------------------

def temp_files(folder: Path) -> list[Path]:
    """Leftover staging files of output.write_files (``.NAME.XXXX.tmp``)."""
    if not folder.exists():
        return []
    return sorted(p for p in folder.rglob(".*.tmp"))


def config_with(tmp_path: Path, extra: str = "", **person: str) -> Path:
    """BASE_CONFIG with some [person] values replaced and extra TOML appended."""
    text = BASE_CONFIG
    for key, value in person.items():
        lines = [line for line in text.splitlines() if line.startswith(f"{key} = ")]
        assert len(lines) == 1, key
        text = text.replace(lines[0], f"{key} = {toml_string(value)}")
    return write_config(tmp_path, text + extra)


def toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def card_run(tmp_path: Path, config: Path, *extra: str) -> Result:
    return cli("card", str(config), "-o", str(tmp_path / "out"), "-f", "pdf", *extra)


def fail_and_clean(tmp_path: Path, config: Path, *needles: str) -> str:
    """Run ``card`` on a bad config: one clean error line, nothing (half-)written."""
    result = card_run(tmp_path, config)
    line = error_line(result, *needles)
    out = tmp_path / "out"
    assert temp_files(out) == []
    assert not (out / "card.pdf").exists()
    return line


def make_jpeg(path: Path, size: tuple[int, int] = (600, 400)) -> bytes:
    from PIL import Image

    image = Image.new("RGB", size)
    # Some detail so that the JPEG has a real entropy-coded body to cut.
    for x in range(0, size[0], 7):
        for y in range(0, size[1], 5):
            image.putpixel((x, y), ((x * 3) % 256, (y * 5) % 256, (x + y) % 256))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    data = buffer.getvalue()
    path.write_bytes(data)
    return data


def make_png_bomb(path: Path, width: int, height: int) -> None:
    """A tiny PNG whose IHDR claims ``width`` × ``height`` pixels (with a valid CRC)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (8, 8)).save(buffer, "PNG")
    data = bytearray(buffer.getvalue())
    # Signature (8), then the IHDR chunk: length (4), type (4), 13 data bytes, CRC (4).
    assert data[12:16] == b"IHDR"
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF)
    path.write_bytes(bytes(data))
    assert path.stat().st_size < 200


# --- 1. missing config file -------------------------------------------------------------

def test_missing_config_file(tmp_path):
    missing = tmp_path / "nope.toml"
    line = fail_and_clean(tmp_path, missing, "nope.toml")
    assert "does not exist" in line


def test_config_path_is_a_folder(tmp_path):
    folder = tmp_path / "conf.toml"
    folder.mkdir()
    fail_and_clean(tmp_path, folder, "conf.toml", "folder")


def test_config_not_utf8(tmp_path):
    config = tmp_path / "latin1.toml"
    config.write_bytes('[person]\nname = "Zoë"\n'.encode("latin-1"))
    fail_and_clean(tmp_path, config, "latin1.toml", "UTF-8")


# --- 2. invalid TOML --------------------------------------------------------------------

@pytest.mark.parametrize(("broken", "replacement", "line_no"), [
    ('email = "ada@example.org"', "email = ada@example.org", 9),  # unquoted string
    ("[person]", "[person", 5),  # unclosed table header
    ('title = "Puzzle Designer"', 'name = "Twice"', 7),  # duplicate key
    ('web = "example.org"', 'web = "example.org', 11),  # unterminated string
])
def test_invalid_toml_names_the_line(tmp_path, broken, replacement, line_no):
    assert BASE_CONFIG.splitlines()[line_no - 1] == broken
    config = write_config(tmp_path, BASE_CONFIG.replace(broken, replacement))
    line = fail_and_clean(tmp_path, config, "card.toml", "invalid TOML", f"line {line_no}")
    assert f"line {line_no}," in line or line.rstrip(".").endswith(f"line {line_no})")


# --- 3. unknown keys and sections -------------------------------------------------------

def test_unknown_key_suggests_the_right_one(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG + 'emial = "ada@example.org"\n')
    line = fail_and_clean(tmp_path, config, "card.toml", "person.emial")
    assert "did you mean person.email?" in line


def test_unknown_key_in_card_section(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG.replace('theme = "dark"',
                                                        'theme = "dark"\nthem = "light"'))
    line = fail_and_clean(tmp_path, config, "card.toml", "card.them")
    assert "did you mean card.theme?" in line


def test_unknown_key_without_close_match_is_a_clean_error(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG + 'linkedin = "ada-example"\n')
    fail_and_clean(tmp_path, config, "card.toml", "person.linkedin")


@pytest.mark.parametrize("key", ["linkedin", "zzzzzz"])
def test_unknown_key_without_close_match_lists_valid_keys(tmp_path, key):
    config = write_config(tmp_path, BASE_CONFIG + f'{key} = "?"\n')
    line = fail_and_clean(tmp_path, config, "card.toml", f"person.{key}", "person.email",
                          "person.name")
    assert "did you mean" not in line


def test_unknown_section_suggests_the_right_one(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG.replace("[person]", "[persn]"))
    line = fail_and_clean(tmp_path, config, "card.toml", "[persn]")
    # The suggestion ends that problem's sentence; the other problems this causes (no
    # [person] means no person.name) follow after " Also: ".
    assert re.search(r"did you mean \[?person\]?\?( Also: |$)", line), line


def test_unknown_section_suggestion_is_a_section_header(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG.replace("[person]", "[persn]"))
    fail_and_clean(tmp_path, config, "[persn]", "did you mean [person]?")


# --- 4. wrong types ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "field", "expected"), [
    ('[person]\nname = 42\n', "person.name", "text"),
    ('[card]\nmarks = "yes"\n[person]\nname = "Ada"\n', "card.marks", "true or false"),
    ('[card]\nqr = 1\n[person]\nname = "Ada"\n', "card.qr", '"vcard", "url" or false'),
    ('[card]\nwidth_mm = "85"\nheight_mm = 55\n[person]\nname = "Ada"\n', "card.width_mm",
     "a number"),
    ('[card]\npreset = "a4"\n[person]\nname = "Ada"\n', "card.preset", "eu, us"),
    ('[person]\nname = "Ada"\n[images]\nportrait = true\n', "images.portrait", "text"),
    ('[person]\nname = ["Ada", "Lovelace"]\n', "person.name", "a list"),
    ('person = "Ada"\n', "person", "table"),
])
def test_wrong_type_names_the_field(tmp_path, text, field, expected):
    config = write_config(tmp_path, text)
    fail_and_clean(tmp_path, config, "card.toml", field, expected)


def test_missing_name_is_required(tmp_path):
    config = write_config(tmp_path, '[person]\nemail = "ada@example.org"\n')
    fail_and_clean(tmp_path, config, "card.toml", "person.name", "required")


# --- 5. impossible sizes ----------------------------------------------------------------

def sized_config(tmp_path: Path, card_lines: str) -> Path:
    return write_config(tmp_path, f'[card]\n{card_lines}\n[person]\nname = "Ada Example"\n')


@pytest.mark.parametrize(("width", "height", "field"), [
    (30, 55, "card.width_mm"),
    (200, 55, "card.width_mm"),
    (85, 10, "card.height_mm"),
    (85, 200, "card.height_mm"),
    (-5, 55, "card.width_mm"),
])
def test_size_out_of_bounds(tmp_path, width, height, field):
    config = sized_config(tmp_path, f"width_mm = {width}\nheight_mm = {height}")
    value = width if field == "card.width_mm" else height
    line = fail_and_clean(tmp_path, config, "card.toml", f"{field} = {value}")
    assert "impossible" in line


def _grid_cell(width: float, height: float) -> float:
    from cardgen.board.frame import LABEL_BAND
    from cardgen.physical.card import HINGE_GAP, MIN_TAB

    return min((height - 3.0 - LABEL_BAND) / 10, (width - 2 * (LABEL_BAND + HINGE_GAP + MIN_TAB))
               / 10)


# Inside the bounds (50–150 × 40–120 mm) but with grid squares under MIN_CELL (3.5 mm):
# 60 mm wide leaves (60 - 26) / 10 = 3.4 mm squares, 40 mm high (40 - 6) / 10 = 3.4 mm.
@pytest.mark.parametrize(("width", "height", "field"), [
    (60, 55, "card.width_mm"),
    (85, 40, "card.height_mm"),
])
def test_size_too_small_for_the_grids(tmp_path, width, height, field):
    config = sized_config(tmp_path, f"width_mm = {width}\nheight_mm = {height}")
    line = fail_and_clean(tmp_path, config, "too small", "3.5 mm")
    assert field in line or "card.toml" in line


@pytest.mark.parametrize(("width", "height"), [(60, 55), (85, 40), (50, 40)])
def test_size_too_small_for_the_grids_is_a_clean_error(tmp_path, width, height):
    from cardgen.physical.card import MIN_CELL, SIZE_LIMITS

    assert SIZE_LIMITS["width"][0] <= width <= SIZE_LIMITS["width"][1]
    assert SIZE_LIMITS["height"][0] <= height <= SIZE_LIMITS["height"][1]
    assert _grid_cell(width, height) < MIN_CELL
    config = sized_config(tmp_path, f"width_mm = {width}\nheight_mm = {height}")
    fail_and_clean(tmp_path, config, f"{width} × {height} mm", "too small")


@pytest.mark.parametrize(("given", "missing"), [
    ("width_mm = 85", "card.height_mm"),
    ("height_mm = 55", "card.width_mm"),
])
def test_size_needs_both_dimensions(tmp_path, given, missing):
    config = sized_config(tmp_path, given)
    fail_and_clean(tmp_path, config, "card.toml", missing, "missing")


@pytest.mark.parametrize("command", ["card", "sheet"])
def test_unknown_preset_option(tmp_path, command):
    config = write_config(tmp_path)
    result = cli(command, str(config), "--preset", "xx", "-o", str(tmp_path / "out"))
    error_line(result, "--preset", "'xx'", "eu", "us", status=2)  # not a choice: usage
    assert temp_files(tmp_path / "out") == []


# --- 6. images --------------------------------------------------------------------------

@pytest.fixture(params=["portrait", "logo"])
def image_key(request) -> str:
    return request.param


def image_config(tmp_path: Path, key: str, filename: str) -> Path:
    return config_with(tmp_path, f'\n[images]\n{key} = "{filename}"\n')


def test_image_missing(tmp_path, image_key):
    config = image_config(tmp_path, image_key, "missing.jpg")
    line = fail_and_clean(tmp_path, config, f"images.{image_key}", "missing.jpg")
    assert "does not exist" in line


def test_image_is_a_folder(tmp_path, image_key):
    (tmp_path / "photo.jpg").mkdir()
    config = image_config(tmp_path, image_key, "photo.jpg")
    fail_and_clean(tmp_path, config, f"images.{image_key}", "photo.jpg", "not a file")


def test_image_not_an_image(tmp_path, image_key):
    (tmp_path / "x.png").write_text("this is text, not a PNG\n", encoding="utf-8")
    config = image_config(tmp_path, image_key, "x.png")
    line = fail_and_clean(tmp_path, config, f"images.{image_key}", "x.png")
    assert "not an image" in line


def test_image_empty_file(tmp_path, image_key):
    (tmp_path / "empty.jpg").write_bytes(b"")
    config = image_config(tmp_path, image_key, "empty.jpg")
    fail_and_clean(tmp_path, config, f"images.{image_key}", "empty.jpg")


def test_image_truncated_jpeg(tmp_path, image_key):
    data = make_jpeg(tmp_path / "whole.jpg")
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) // 2])
    config = image_config(tmp_path, image_key, "cut.jpg")
    line = fail_and_clean(tmp_path, config, f"images.{image_key}", "cut.jpg")
    assert "truncated" in line or "damaged" in line


def test_whole_jpeg_is_accepted(tmp_path, image_key):
    """The control for the truncated case: the uncut JPEG renders."""
    make_jpeg(tmp_path / "whole.jpg")
    config = image_config(tmp_path, image_key, "whole.jpg")
    result = card_run(tmp_path, config)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "card.pdf").stat().st_size > 1000


@pytest.mark.parametrize(("width", "height"), [
    (20000, 20000),  # 400 MP: beyond Pillow's own bomb limit
    (10000, 10000),  # 100 MP: Pillow's bomb warning, turned into an error
    (8000, 8000),  # 64 MP: only cardgen's 50 MP limit catches it
])
def test_image_decompression_bomb(tmp_path, monkeypatch, image_key, width, height):
    from PIL import ImageFile

    make_png_bomb(tmp_path / "bomb.png", width, height)
    config = image_config(tmp_path, image_key, "bomb.png")
    decoded: list[str] = []  # refused from the header: not one pixel is decoded
    monkeypatch.setattr(ImageFile.ImageFile, "load",
                        lambda self: decoded.append(str(self.size)))
    line = fail_and_clean(tmp_path, config, f"images.{image_key}", "bomb.png")
    assert decoded == []
    assert "megapixel" in line or "bomb" in line


# --- 7. text that cannot fit ------------------------------------------------------------

def test_long_email_names_the_field(tmp_path):
    email = "a.very.long.mailbox.name." * 4 + "x@example-games.example.org"
    assert len(email) > 110
    config = config_with(tmp_path, email=email)
    line = fail_and_clean(tmp_path, config, "person.email")
    assert "does not fit" in line


@pytest.mark.parametrize("name", [
    " ".join(["Bartholomew"] * 8),
    "W" * 300,
])
def test_huge_name_names_the_field(tmp_path, name):
    config = config_with(tmp_path, name=name)
    line = fail_and_clean(tmp_path, config, "person.name")
    assert "does not fit" in line


def test_name_too_long_for_the_qr_code(tmp_path):
    config = config_with(tmp_path, name="W" * 1500)
    line = fail_and_clean(tmp_path, config)
    assert "person.name" in line or "card.qr" in line


@pytest.mark.parametrize("field", ["title", "name", "company"])
def test_missing_glyph_names_field_and_character(tmp_path, field):
    value = {"title": "Puzzle 漢 Designer", "name": "Ada 漢", "company": "漢 Games"}[field]
    config = config_with(tmp_path, **{field: value})
    line = fail_and_clean(tmp_path, config, f"person.{field}", "漢", "U+6F22")
    assert "glyph" in line


# --- 8. unwritable output folder --------------------------------------------------------

def test_output_folder_under_a_file(tmp_path):
    config = write_config(tmp_path)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("I am a file\n", encoding="utf-8")
    out = blocker / "out"
    result = cli("card", str(config), "-o", str(out), "-f", "pdf")
    error_line(result, str(out), "cannot be created")
    assert blocker.read_text(encoding="utf-8") == "I am a file\n"
    assert temp_files(tmp_path) == []


def test_output_folder_is_a_file(tmp_path):
    config = write_config(tmp_path)
    blocker = tmp_path / "out"
    blocker.write_text("I am a file\n", encoding="utf-8")
    result = cli("card", str(config), "-o", str(blocker), "-f", "pdf")
    error_line(result, str(blocker), "-o is the folder to write into", "--name out",
               status=2)  # -o naming a file: a usage error
    assert blocker.read_text(encoding="utf-8") == "I am a file\n"
    assert temp_files(tmp_path) == []


def test_sheet_output_folder_under_a_file(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    result = cli("sheet", "--registration", "-o", str(blocker / "out"))
    error_line(result, str(blocker / "out"))


@pytest.mark.skipif(IS_ROOT, reason="root can write into read-only folders")
def test_output_folder_read_only(tmp_path):
    config = write_config(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        for out in (locked, locked / "out"):
            result = cli("card", str(config), "-o", str(out), "-f", "pdf")
            error_line(result, str(out))
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


# --- 9. a failed run leaves older output intact -----------------------------------------

BROKEN_RUNS = {
    "missing portrait": '\n[images]\nportrait = "gone.jpg"\n',
    "corrupt logo": '\n[images]\nlogo = "x.png"\n',
    "missing font": '\n[fonts]\nbold = "gone.ttf"\n',
    "unknown key": 'emial = "ada@example.org"\n',
}


@pytest.mark.parametrize("broken", list(BROKEN_RUNS))
def test_failed_run_leaves_older_output_intact(tmp_path, broken):
    out = tmp_path / "out"
    good = write_config(tmp_path, name="good.toml")
    first = cli("card", str(good), "-o", str(out), "-f", "pdf")
    assert first.returncode == 0, first.stderr
    before = (out / "card.pdf").read_bytes()
    listing = sorted(p.name for p in out.iterdir())

    (tmp_path / "x.png").write_text("not a png", encoding="utf-8")
    bad = write_config(tmp_path, BASE_CONFIG + BROKEN_RUNS[broken], name="bad.toml")
    result = cli("card", str(bad), "-o", str(out), "-f", "pdf")
    error_line(result)
    assert (out / "card.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == listing
    assert temp_files(out) == []


def test_failed_rename_leaves_older_output_intact(tmp_path):
    out = tmp_path / "out"
    config = write_config(tmp_path)
    first = cli("card", str(config), "-o", str(out), "-f", "pdf,svg")
    assert first.returncode == 0, first.stderr
    before = (out / "card.pdf").read_bytes()
    # The last file written can no longer be replaced: its name is now a folder.
    (out / "card-dieline.svg").unlink()
    (out / "card-dieline.svg").mkdir()
    result = cli("card", str(config), "-o", str(out), "-f", "pdf,svg", "--rgb")
    line = error_line(result, "card-dieline.svg")
    assert temp_files(out) == []
    assert (out / "card.pdf").read_bytes() == before, "card.pdf was replaced by a failed run"
    assert ".tmp" not in line


# --- 10. init ---------------------------------------------------------------------------

def test_init_refuses_to_overwrite(tmp_path):
    target = tmp_path / "my-card.toml"
    target.write_text("# my precious edits\n", encoding="utf-8")
    result = cli("init", str(target))
    line = error_line(result, str(target), "already exists")
    assert "--force" in line
    assert target.read_text(encoding="utf-8") == "# my precious edits\n"
    assert temp_files(tmp_path) == []

    forced = cli("init", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    assert "Traceback" not in forced.stderr
    assert target.read_bytes() == (ROOT / "templates" / "example.toml").read_bytes()
    assert temp_files(tmp_path) == []


def test_init_writes_a_usable_config(tmp_path):
    result = cli("init", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "my-card.toml").is_file()
    again = cli("init", cwd=tmp_path)
    error_line(again, "my-card.toml", "already exists")


def test_init_under_a_file(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    result = cli("init", str(blocker / "card.toml"))
    error_line(result, str(blocker))


# --- 11. option values ------------------------------------------------------------------

@pytest.mark.parametrize(("args", "needles", "status"), [
    # Not one of an option's choices: a usage error (2); a value that cannot be used, 1.
    (["sheet", "--offset", "abc"], ["--offset", "'abc'"], 1),
    (["sheet", "--offset", "1,2,3"], ["--offset", "'1,2,3'"], 1),
    (["sheet", "--offset=50,0"], ["--offset", "50,0"], 1),
    (["sheet", "--paper", "b5"], ["--paper", "'b5'", "a4", "letter"], 2),
    (["sheet", "--flip", "diagonal"], ["--flip", "'diagonal'"], 2),
    (["sheet", "--margin", "99"], ["--margin"], 1),
    (["card", "--format", "jpg"], ["--format", "'jpg'", "pdf", "svg", "png"], 2),
    (["card", "--format", "pdf,jpg"], ["--format", "'jpg'"], 2),
    (["card", "--format", ","], ["--format"], 2),
    (["card", "--theme", "neon"], ["--theme", "'neon'"], 1),
])
def test_bad_option_values(tmp_path, args, needles, status):
    out = tmp_path / "out"
    result = cli(*args, "-o", str(out))
    error_line(result, *needles, status=status)
    assert temp_files(out) == []
    assert not out.exists() or list(out.iterdir()) == []


# --- 12. fonts --------------------------------------------------------------------------

@pytest.mark.parametrize("style", ["regular", "bold"])
def test_font_missing_file(tmp_path, style):
    config = config_with(tmp_path, f'\n[fonts]\n{style} = "fonts/Nope.ttf"\n')
    line = fail_and_clean(tmp_path, config, f"fonts.{style}", "Nope.ttf")
    assert "does not exist" in line


def test_font_not_a_font(tmp_path):
    (tmp_path / "Fake.ttf").write_text("definitely not a font\n", encoding="utf-8")
    config = config_with(tmp_path, '\n[fonts]\nregular = "Fake.ttf"\n')
    fail_and_clean(tmp_path, config, "fonts.regular", "Fake.ttf")


def test_font_truncated(tmp_path):
    real = (ROOT / "fonts" / "SourceSans3-Regular.ttf").read_bytes()
    (tmp_path / "Half.ttf").write_bytes(real[: len(real) // 2])
    config = config_with(tmp_path, '\n[fonts]\nregular = "Half.ttf"\n')
    fail_and_clean(tmp_path, config, "fonts.regular", "Half.ttf")


def test_font_wrong_extension(tmp_path):
    (tmp_path / "font.woff2").write_bytes(b"wOF2" + b"\0" * 64)
    config = config_with(tmp_path, '\n[fonts]\nregular = "font.woff2"\n')
    fail_and_clean(tmp_path, config, "fonts.regular", "font.woff2", ".ttf")
