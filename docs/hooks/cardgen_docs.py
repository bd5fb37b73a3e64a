"""MkDocs hook of the user guide: what is generated at build time, never committed.

- The configuration reference: every key of every file cardgen reads, walked from the
  schemas the readers check them with (``cardgen.schema.Table``), so a key added to a
  schema appears in the guide by itself.
- The command-line reference: every command and option, walked from the Click command
  tree behind the Typer app (``cardgen.cli.app``).
- Pictures of every product: cardgen runs in this process into a temporary folder, and
  pypdfium2 renders the PDF pages it writes to PNG; the terminal game is drawn as an SVG
  of what it printed.

A page asks for a reference with a line ``<!-- cardgen:config -->`` or
``<!-- cardgen:cli -->``; pictures are linked as ``img/gen/NAME`` (the names in
:data:`PICTURES`). mkdocs.yml lists this file under ``hooks:``.
"""

from __future__ import annotations

import contextlib
import enum
import html
import io
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GENERATED = "img/gen"  # where the pictures go in the site
BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"
CONFIG_MARK = "<!-- cardgen:config -->"
CLI_MARK = "<!-- cardgen:cli -->"


# --- running cardgen ------------------------------------------------------------------


def cardgen(*args: str | Path, stdin: str | None = None) -> str:
    """Run ``cardgen ARGS`` in this process; its stdout. A failed run stops the build."""
    from cardgen.cli import run

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run([str(a) for a in args])
    finally:
        sys.stdin = saved
    if code != 0:
        raise RuntimeError(f"cardgen {' '.join(map(str, args))} exited {code}: "
                           f"{err.getvalue().strip()}")
    return out.getvalue()


def pages(pdf: Path, numbers: list[int], dpi: float = 90) -> list[Any]:
    """Pages of ``pdf`` (1-based numbers) as PIL images, rendered by PDFium."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return [document[n - 1].render(scale=dpi / 72).to_pil().convert("RGB")
                for n in numbers]
    finally:
        document.close()


def written(folder: Path) -> Path:
    """The one PDF a run wrote into ``folder``, whatever its name."""
    found = sorted(folder.glob("*.pdf"))
    if len(found) != 1:
        raise RuntimeError(f"expected one PDF in {folder}, found {[p.name for p in found]}")
    return found[0]


def side_by_side(images: list[Any], target: Path, gap: int = 16) -> None:
    """The images in a row on a light grey ground, saved as PNG."""
    from PIL import Image

    width = sum(im.width for im in images) + gap * (len(images) + 1)
    height = max(im.height for im in images) + 2 * gap
    sheet = Image.new("RGB", (width, height), (236, 238, 242))
    x = gap
    for im in images:
        sheet.paste(im, (x, gap))
        x += im.width + gap
    sheet.save(target, optimize=True)


def _card_with_logo(work: Path, target: Path) -> None:
    data = ROOT / "tests" / "data"
    config = work / "logo-card.toml"
    config.write_text(
        '[person]\nname = "Ada Example"\ntitle = "Puzzle Designer"\n'
        'company = "Example Games"\nemail = "ada@example.org"\nphone = "+1 555 0100"\n'
        'web = "example.org"\n[images]\n'
        f'logo = "{(data / "logo.png").as_posix()}"\n'
        f'portrait = "{(data / "portrait.png").as_posix()}"\n'
        "portrait_focus = [0.5, 0.47]\n", encoding="utf-8")
    cardgen("card", config, "-f", "pdf", "--no-marks", "-o", f"{work}/card/")
    side_by_side(pages(work / "card" / "card.pdf", [1, 2], dpi=110), target)


def _puzzle_book(work: Path) -> Path:
    if not (work / "puzzles").exists():
        cardgen("rotator", "generate", "--seed", "7", "--count", "6", "--no-rules",
                "--jobs", "1", "-o", f"{work}/puzzles/")
    return written(work / "puzzles")


def _puzzle_page(work: Path, target: Path) -> None:
    side_by_side(pages(_puzzle_book(work), [1], dpi=60), target)


def _puzzle_key(work: Path, target: Path) -> None:
    side_by_side(pages(_puzzle_book(work), [2], dpi=60), target)


def _rules_book(work: Path) -> Path:
    if not (work / "rules").exists():
        cardgen("rules", "rotator", "-o", f"{work}/rules/")
    return written(work / "rules")


def _book_spread(work: Path, target: Path) -> None:
    side_by_side(pages(_rules_book(work), [2, 3], dpi=70), target, gap=8)


def _booklet_sheet(work: Path, target: Path) -> None:
    cardgen("rules", "ladder", "--booklet", "-o", f"{work}/booklet/")
    side_by_side(pages(written(work / "booklet"), [1], dpi=60), target)


def _play_sheet(work: Path, target: Path) -> None:
    cardgen("playsheet", "reflector", "-o", f"{work}/playsheet/")
    side_by_side(pages(written(work / "playsheet"), [1], dpi=60), target)


def _ladder_mat(work: Path, target: Path) -> None:
    cardgen("ladder", "mat", "-o", f"{work}/mat/")
    side_by_side(pages(written(work / "mat"), [1], dpi=45), target)


def terminal_svg(text: str, title: str) -> str:
    """A terminal window showing ``text`` (monospaced, one cell per character)."""
    lines = text.rstrip("\n").splitlines()
    cell_w, cell_h, pad = 8.4, 17, 14
    columns = max(80, *(len(line) for line in lines))
    width, height = columns * cell_w + 2 * pad, len(lines) * cell_h + 2 * pad + 24
    rows = "\n".join(
        f'<text x="{pad}" y="{24 + pad + (i + 1) * cell_h - 4}" xml:space="preserve">'
        f"{html.escape(line)}</text>" for i, line in enumerate(lines))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{html.escape(title)}">\n'
        f'<rect width="100%" height="100%" rx="8" fill="#1e1f26"/>\n'
        f'<rect width="100%" height="24" rx="8" fill="#3a3c47"/>\n'
        f'<text x="{width / 2:.0f}" y="16" fill="#c9cbd6" font-family="sans-serif" '
        f'font-size="12" text-anchor="middle">{html.escape(title)}</text>\n'
        f'<g fill="#e8e8e8" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        f'font-size="14">\n{rows}\n</g>\n</svg>\n')


def _terminal_game(work: Path, target: Path) -> None:
    # The 80 x 24 screen a terminal shows after the first move from column E (the
    # game's own screen drawer, as `rotator play` draws it on a terminal).
    from cardgen.api.rotator import play_rotator
    from cardgen.cli.rotator_play import CLEAR, ScreenView

    session = play_rotator(BOARD, start="E")
    session.play(session.options()[0])
    frames: list[str] = []
    ScreenView(session, colour=False, write=frames.append).prompt()
    text = frames[-1].removeprefix(CLEAR)
    target.write_text(terminal_svg(text, f"cardgen rotator play {BOARD} --start E"),
                      encoding="utf-8")


# name in img/gen -> what draws it into the given file (from a work folder)
PICTURES: dict[str, Callable[[Path, Path], None]] = {
    "card-logo.png": _card_with_logo,
    "puzzle-page.png": _puzzle_page,
    "puzzle-key.png": _puzzle_key,
    "book-spread.png": _book_spread,
    "booklet-sheet.png": _booklet_sheet,
    "play-sheet.png": _play_sheet,
    "ladder-mat.png": _ladder_mat,
    "rotator-play.svg": _terminal_game,
}


# --- the configuration reference ------------------------------------------------------


def schemas() -> list[tuple[str, str, Any]]:
    """(heading, what the file is, schema) for every file a user writes."""
    from cardgen.card.config import CONFIG
    from cardgen.card.themes import THEME
    from cardgen.connector.assembly import ASSEMBLY
    from cardgen.connector.layout import LAYOUT as CONNECTOR_LAYOUT
    from cardgen.games.nodes.recordfile import _record_schema
    from cardgen.games.rotator.board import BOARD_FILE
    from cardgen.ladder.attack import _schema as attack_schema

    return [
        ("Card config", "The file `cardgen card`, `cardgen sheet` and `cardgen init` use "
         "(a `--batch` CSV names the same keys in its header).", CONFIG),
        ("Theme", "A theme file, named by `card.theme` or `--theme`. Colours are CMYK "
         'percentages `[c, m, y, k]`, `"#rrggbb"`, or `{cmyk = [...], rgb = "#rrggbb"}`.',
         THEME),
        ("Rotator board file", "A board given as a file instead of a board ID.", BOARD_FILE),
        ("Connector assembly", "Where each copy of the card lies, for "
         "`cardgen connector validate`.", ASSEMBLY),
        ("Connector layout", "The puzzle's layout, for `cardgen connector check` and the "
         "card's back (`templates/connector/layout.toml`).", CONNECTOR_LAYOUT),
        ("Corporate Ladder attack", "An attack for `cardgen ladder attack`.",
         attack_schema(False)),
        ("Corporate Ladder counter-attack", "A defence's counter-attack: the attacking "
         "team is given as `[[defender]]` tables.", attack_schema(True)),
        ("Node-game record", "A game of Reflector, Deflector or Defector for "
         "`cardgen referee` (players `P1`, `P2` … as the record names them).",
         _record_schema(["P1", "P2"])),
    ]


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _default(field: Any) -> str:
    from cardgen.schema import MISSING

    value = field.default
    if value is MISSING:
        return "required"
    if value is None or value == "" or value == [] or value == {}:
        return ""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'`"{_cell(value)}"`'
    if isinstance(value, tuple | list):
        return "`[" + ", ".join(str(v) for v in value) + "]`"
    return f"`{_cell(str(value))}`"


def _kind(field: Any) -> str:
    from cardgen.schema import Choice

    if isinstance(field, Choice):
        return "one of " + ", ".join(f"`{name}`" for name in field.listed.replace(
            " or ", ", ").split(", "))
    return _cell(field.kind)


def _rows(table: Any, prefix: str) -> Iterator[tuple[str, str, str, str]]:
    from cardgen.schema import Records, Table

    for name, field in table.fields.items():
        key = f"{prefix}{name}"
        if isinstance(field, Table):
            if field.help:
                yield f"`[{key}]`", "a table", "", _cell(field.help)
            yield from _rows(field, f"{key}.")
        elif isinstance(field, Records):
            yield (f"`[[{key}]]`", f"{field.min_items} to {field.max_items} tables", "",
                   _cell(field.help))
            yield from _rows(field.table, f"{key}[].")
        else:
            yield f"`{key}`", _kind(field), _default(field), _cell(field.help)


def config_reference() -> str:
    """The configuration reference in Markdown, one section per file kind."""
    out: list[str] = []
    for heading, about, schema in schemas():
        out += [f"## {heading}", "", about, "", "| key | value | default | meaning |",
                "| --- | --- | --- | --- |"]
        out += [f"| {key} | {kind} | {default} | {meaning} |"
                for key, kind, default, meaning in _rows(schema, "")]
        out.append("")
    return "\n".join(out)


# --- the command-line reference -------------------------------------------------------


def commands() -> Iterator[tuple[str, Any]]:
    """(full name, Click command) for the app and every command under it, depth first."""
    import typer

    from cardgen.cli import app

    # Duck-typed: Typer brings its own copy of Click, so no Click class is named here.
    def walk(name: str, command: Any) -> Iterator[tuple[str, Any]]:
        yield name, command
        if hasattr(command, "list_commands"):
            ctx = command.context_class(command, info_name=name)
            for sub in command.list_commands(ctx):
                child = command.get_command(ctx, sub)
                if child is not None and not child.hidden:
                    yield from walk(f"{name} {sub}", child)

    yield from walk("cardgen", typer.main.get_command(app))


def _plain(text: str | None) -> str:
    """Help text as plain Markdown: Rich markup left as written, Markdown specials
    escaped so that brackets and stars print as they are."""
    if not text:
        return ""
    text = text.split("\f", 1)[0]
    for char in "\\`*_[]<>|":
        text = text.replace(char, "\\" + char)
    return text.strip()


def _param_type(param: Any, ctx: Any) -> str:
    """What an option or argument takes, as its help screen names it: nothing for a
    flag, ``[a|b]`` for choices, else its metavar or its type."""
    if getattr(param, "is_flag", False):
        return ""
    kind = getattr(param, "type", None)
    choices = getattr(kind, "choices", None)
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    descriptor = getattr(param, "type_descriptor", None)
    if choices is None and getattr(descriptor, "is_choice", False):
        choices = list(descriptor.choices or ())
    if choices is not None:
        choices = [c.value if isinstance(c, enum.Enum) else c for c in choices]
    if not choices and isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        choices = [member.value for member in annotation]
    if choices:
        return "\\[" + "\\|".join(str(c) for c in choices) + "\\]"
    metavar = getattr(param, "metavar", None)
    if metavar:
        return _plain(metavar)
    shown = getattr(param, "display_type", None)
    with contextlib.suppress(TypeError):
        shown = shown(ctx) if callable(shown) else shown
    if isinstance(shown, str) and shown.strip("<>"):
        return _plain(shown.strip("<>").upper())
    return _plain(getattr(kind, "name", "value").upper())


def anchor(name: str) -> str:
    """The anchor of a command's heading (what MkDocs' toc makes of it)."""
    return name.replace(" ", "-")


def cli_reference() -> str:
    """The command-line reference in Markdown: one section per command."""
    out: list[str] = []
    for name, command in commands():
        depth = min(name.count(" ") + 2, 4)
        out += [f"{'#' * depth} {name}", ""]
        ctx = command.context_class(command, info_name=name)
        usage = " ".join(command.collect_usage_pieces(ctx))
        out += [f"```\n{name} {usage}\n```", ""]
        helptext = _plain(command.help)
        if helptext:
            out += ["\n\n".join(" ".join(p.split()) for p in helptext.split("\n\n")), ""]
        arguments = [p for p in command.params if p.param_type_name == "argument"]
        options = [p for p in command.get_params(ctx)
                   if p.param_type_name == "option" and not getattr(p, "hidden", False)]
        if arguments:
            out += ["| argument | value | meaning |", "| --- | --- | --- |"]
            out += [f"| `{(p.metavar or p.name).upper()}` | {_param_type(p, ctx)} | "
                    f"{_cell(_plain(getattr(p, 'help', '')))} |" for p in arguments]
            out.append("")
        if options:
            out += ["| option | value | default | meaning |", "| --- | --- | --- | --- |"]
            for p in options:
                names = ", ".join(f"`{o}`" for o in sorted([*p.opts, *p.secondary_opts], key=len))
                value = p.default.value if isinstance(p.default, enum.Enum) else p.default
                default = ("" if p.is_flag or value in (None, "", ()) or callable(value)
                           else f"`{_cell(str(value))}`")
                out.append(f"| {names} | {_param_type(p, ctx)} | {default} | "
                           f"{_cell(_plain(p.help))} |")
            out.append("")
        if hasattr(command, "list_commands"):
            subs = command.list_commands(ctx)
            out += ["Commands: " + ", ".join(
                f"[{name} {s}](#{anchor(f'{name} {s}')})" for s in subs), ""]
    return "\n".join(out)


# --- MkDocs events --------------------------------------------------------------------

_work: list[Path] = []


def on_files(files: Any, config: Any) -> Any:
    """Draw the pictures into a temporary folder and add them to the site's files."""
    from mkdocs.structure.files import File

    work = Path(tempfile.mkdtemp(prefix="cardgen-docs-"))
    _work.append(work)
    for name, draw in PICTURES.items():
        target = work / name
        draw(work, target)
        files.append(File.generated(config, f"{GENERATED}/{name}", abs_src_path=str(target)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if CONFIG_MARK in markdown:
        markdown = markdown.replace(CONFIG_MARK, config_reference())
    if CLI_MARK in markdown:
        markdown = markdown.replace(CLI_MARK, cli_reference())
    return markdown


# A Sphinx role in a docstring (cardgen's docstrings cross-reference that way), as the
# Python API's reference (docs/api.md, made by mkdocstrings) renders it: the role's name
# before the name in code. Shown as the name alone, the last part of it after a "~".
SPHINX_ROLE = re.compile(
    r":(?:class|func|meth|data|attr|mod|exc|obj):\s*<code>(~?)([\w.]+)</code>")


def _role(match: re.Match[str]) -> str:
    name = match.group(2).rsplit(".", 1)[-1] if match.group(1) else match.group(2)
    return f"<code>{name}</code>"


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return SPHINX_ROLE.sub(_role, html)


def on_post_build(config: Any) -> None:
    while _work:
        shutil.rmtree(_work.pop(), ignore_errors=True)
