"""The markup rules texts are written in (``templates/rules/*.md``): a small, strict
subset of Markdown, so that one text can be set as a sheet, a booklet or a web page.

The whole markup:

- ``# Title`` — the first line of the file, once: the game's name.
- ``## Section`` — a section heading (a booklet lists these in its contents).
- ``### Subsection`` — a heading inside a section.
- A **paragraph** is one or more lines of text; consecutive lines join with a space, and
  paragraphs are separated by blank lines.
- ``- item`` — a bullet item. An item continues on following lines indented by exactly
  two spaces. Consecutive items form a list; a blank line or a heading ends it.
- ``**bold**`` — a bold run inside a paragraph, an item, a caption or a table cell
  (typically its lead-in), on one line or across a line break. Headings are bold already
  and take none.
- ``@figure NAME`` or ``@figure NAME: Caption.`` — a diagram that cardgen draws (NAME is
  lower-case letters, digits and hyphens; which names exist is up to the program that sets
  the text, see :mod:`cardgen.rules.figures`), with an optional caption set under it. It
  stands on its own line.
- A **table**: consecutive lines that start and end with ``|``: a header row, a separator
  row of dashes (``| --- | --- |``, colons allowed for alignment but ignored), then at least
  one body row, every row with as many cells as the header. Cells hold text and bold runs.

Nothing else is markup, and anything that looks like other markup is an error rather
than text printed by accident: deeper headings (``####``), other list markers (``*``,
``+``, ``1.``), quotes (``>``), code (backticks, indented lines), links (``[text](url)``),
HTML (``<tag>``), rules (``---``), any other ``@`` directive, tabs, a lone ``*``, an
unclosed or empty ``**``. Every problem is reported, each naming its line.

Imports ``cardgen.datafile`` and ``cardgen.errors``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from cardgen.datafile import MAX_BYTES, path_text, read_input
from cardgen.errors import Code, Problem, ProblemsError, shorten


class MarkupProblem(Code):
    """A rule of the rules-text markup that a line breaks."""

    NOT_TEXT = "markup.not-text"  # not UTF-8
    CHARACTER = "markup.character"  # a control character
    LINE = "markup.line"  # a line the markup does not have (a tab, a link, a quote …)
    BOLD = "markup.bold"
    HEADING = "markup.heading"
    BULLET = "markup.bullet"
    INDENT = "markup.indent"
    PARAGRAPH = "markup.paragraph"  # a paragraph glued to a bullet item
    EMPTY = "markup.empty"  # a block without text
    TABLE = "markup.table"
    FIGURE = "markup.figure"  # a figure no game draws


class MarkupError(ProblemsError):
    """A rules text that breaks the markup: every problem, each naming its line, and
    its :class:`MarkupProblem` code."""

    default_code = MarkupProblem.LINE


@dataclass(frozen=True)
class Span:
    """A run of text, bold or regular."""

    text: str
    bold: bool = False


@dataclass(frozen=True)
class Title:
    text: str
    line: int


@dataclass(frozen=True)
class Section:
    text: str
    line: int


@dataclass(frozen=True)
class Subsection:
    text: str
    line: int


@dataclass(frozen=True)
class FigureRef:
    """Where a figure goes: its name and its caption (no spans when it has none)."""

    name: str
    caption: tuple[Span, ...]
    line: int


@dataclass(frozen=True)
class Table:
    """A table: the header's cells, then each body row's; every cell is bold and regular
    runs."""

    header: tuple[tuple[Span, ...], ...]
    rows: tuple[tuple[tuple[Span, ...], ...], ...]
    line: int


@dataclass(frozen=True)
class Paragraph:
    spans: tuple[Span, ...]
    line: int

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.spans)


@dataclass(frozen=True)
class Bullet:
    spans: tuple[Span, ...]
    line: int

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.spans)


Block = Title | Section | Subsection | Paragraph | Bullet | FigureRef | Table

_HEADING = re.compile(r"(#+)(\s*)(.*)")
_NUMBERED = re.compile(r"\d+[.)]\s")
_RULE = re.compile(r"(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,}|=+")
_FIGURE = re.compile(r"@figure (?P<name>[a-z0-9]+(?:-[a-z0-9]+)*)(?:: (?P<caption>\S.*))?")
_SEPARATOR = re.compile(r":?-{3,}:?")
_LINK = re.compile(r"\]\(|!\[")
_HTML = re.compile(r"</?[A-Za-z][^>]*>|<!--")
BULLET = "- "
CONTINUATION = "  "


def _line_problem(text: str) -> str | None:
    """What is wrong with a line of text (after its marker) as text, if anything."""
    if "\t" in text:
        return "contains a tab; use spaces"
    if "`" in text:
        return "contains a backtick; code is not part of the markup"
    if _LINK.search(text):
        return "contains a link or an image; links are not part of the markup"
    if _HTML.search(text):
        return "contains an HTML tag; HTML is not part of the markup"
    return None


def _start_problem(line: str) -> str | None:
    """What is wrong with the way a line begins, if anything."""
    stripped = line.lstrip(" ")
    if line.startswith(" ") and stripped:
        return "is indented; only a bullet item's continuation takes two spaces"
    if _RULE.fullmatch(stripped.rstrip()):
        return "is a horizontal rule or an underline; they are not part of the markup"
    if stripped[:2] in ("* ", "+ ") or _NUMBERED.match(stripped):
        return "starts a list with another marker; bullet items start with '- '"
    if stripped.startswith(">"):
        return "is a quote ('>'); quotes are not part of the markup"
    if stripped.startswith("@"):
        return ("is a directive other than '@figure NAME' or '@figure NAME: Caption.'; "
                "figure names are lower-case letters, digits and hyphens")
    if stripped == "-":
        return "is an empty bullet item"
    if stripped.startswith("-") and not stripped.startswith(BULLET):
        return "starts with '-' but is not a bullet item ('- ' and the text)"
    return None


def _spans(text: str, line: int, problems: list[str], starts: list[tuple[int, int]],
           ) -> tuple[Span, ...]:
    """The bold and regular runs of a paragraph's joined text. ``starts`` maps offsets
    in the text to the source lines they came from (offset, line)."""

    def at(offset: int) -> int:
        found = line
        for start, number in starts:
            if start <= offset:
                found = number
        return found

    spans: list[Span] = []
    pos, bold = 0, False
    opened = 0
    for match in re.finditer(r"\*+", text):
        stars = match.group()
        if stars != "**":
            problems.append(Problem(f"line {at(match.start())}: {stars!r} is not markup; a bold "
                            "run is **text** and a lone * is not allowed.", MarkupProblem.BOLD))
            continue
        piece = text[pos:match.start()]
        if bold and not piece.strip():
            problems.append(Problem(f"line {at(opened)}: an empty bold run (**).",
                                    MarkupProblem.BOLD))
        elif bold and piece != piece.strip():
            problems.append(Problem(f"line {at(opened)}: a bold run starts or ends with a space; "
                            "write **text** with the spaces outside.", MarkupProblem.BOLD))
        if piece:
            spans.append(Span(piece, bold))
        if not bold:
            opened = match.start()
        bold, pos = not bold, match.end()
    if bold:
        problems.append(Problem(f"line {at(opened)}: a bold run is opened with ** and never "
                        "closed.", MarkupProblem.BOLD))
    if text[pos:]:
        spans.append(Span(text[pos:], bold))
    merged: list[Span] = []
    for span in spans:
        if merged and merged[-1].bold == span.bold:
            merged[-1] = Span(merged[-1].text + span.text, span.bold)
        else:
            merged.append(span)
    return tuple(merged)


@dataclass
class _Open:
    """The paragraph or item being read: its kind, first line and lines of text."""

    kind: type[Paragraph] | type[Bullet]
    line: int
    parts: list[tuple[int, str]]


def parse(text: str, source: str) -> tuple[Block, ...]:
    """The blocks of a rules text, in order. ``source`` (the file) starts the error
    message, which lists every problem, each with its line number."""
    problems: list[str] = []
    blocks: list[Block] = []
    current: _Open | None = None

    table: list[tuple[int, str]] = []

    def close() -> None:
        nonlocal current
        if table:
            blocks.extend(_table(table, problems))
            table.clear()
        if current is None:
            return
        joined, starts, offset = [], [], 0
        for number, part in current.parts:
            starts.append((offset, number))
            joined.append(part)
            offset += len(part) + 1
        spans = _spans(" ".join(joined), current.line, problems, starts)
        blocks.append(current.kind(spans, current.line))
        current = None

    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(" \r")
        control = next((ch for ch in line if ch != "\t" and unicodedata.category(ch) == "Cc"),
                       None)
        if control is not None:
            problems.append(Problem(f"line {number}: contains the control character "
                            f"U+{ord(control):04X}; remove it.", MarkupProblem.CHARACTER))
            continue
        if not line:
            close()
            continue
        body_problem = _line_problem(line)
        if body_problem:
            problems.append(Problem(f"line {number}: {body_problem}.", MarkupProblem.LINE))
            continue
        if line.startswith("|"):
            if current is not None:
                close()
            table.append((number, line))
            continue
        if table:
            close()
        figure = _FIGURE.fullmatch(line)
        if figure:
            close()
            caption = figure.group("caption") or ""
            spans = _spans(caption, number, problems, [(0, number)]) if caption else ()
            blocks.append(FigureRef(figure.group("name"), spans, number))
            continue
        heading = _HEADING.fullmatch(line)
        if heading:
            close()
            marks, space, words = heading.groups()
            if len(marks) > 3:
                problems.append(Problem(f"line {number}: {marks!r} headings are not part of the "
                                "markup; use '# ' for the title, '## ' for a section and "
                                "'### ' for a subsection.", MarkupProblem.HEADING))
            elif not space or not words.strip():
                problems.append(Problem(f"line {number}: a heading is {marks!r}, a space and its "
                                "text.", MarkupProblem.HEADING))
            elif "*" in words:
                problems.append(Problem(f"line {number}: a heading takes no bold markup (it is "
                                "bold already).", MarkupProblem.HEADING))
            elif len(marks) == 1:
                if blocks or number != 1:
                    problems.append(Problem(f"line {number}: the title ('# ') comes once, on the "
                                    "first line.", MarkupProblem.HEADING))
                blocks.append(Title(words.strip(), number))
            elif len(marks) == 2:
                blocks.append(Section(words.strip(), number))
            else:
                blocks.append(Subsection(words.strip(), number))
            continue
        if line.startswith(CONTINUATION) and not line.startswith(CONTINUATION + " "):
            if current is not None and current.kind is Bullet:
                rest = line.strip()
                nested = _start_problem(rest)
                if rest.startswith(("-", "#")):
                    problems.append(Problem(f"line {number}: a bullet item's continuation starts "
                                    f"with {rest[0]!r}; nested lists and headings inside "
                                    "items are not part of the markup.", MarkupProblem.BULLET))
                elif nested:
                    problems.append(Problem(f"line {number}: a bullet item's continuation "
                                            f"{nested}.", MarkupProblem.BULLET))
                else:
                    current.parts.append((number, line.strip()))
                continue
            problems.append(Problem(f"line {number}: is indented, but only a bullet item's "
                            "continuation takes two spaces.", MarkupProblem.INDENT))
            continue
        start_problem = _start_problem(line)
        if start_problem:
            problems.append(Problem(f"line {number}: {start_problem}.", MarkupProblem.LINE))
            continue
        if line.startswith(BULLET):
            close()
            item = line[len(BULLET):].strip()
            if not item:
                problems.append(Problem(f"line {number}: an empty bullet item.",
                                        MarkupProblem.BULLET))
                continue
            current = _Open(Bullet, number, [(number, item)])
            continue
        if current is not None and current.kind is Bullet:
            problems.append(Problem(f"line {number}: a paragraph right after a bullet item; "
                            "separate them with a blank line, or indent the item's "
                            "continuation by two spaces.", MarkupProblem.PARAGRAPH))
            continue
        if current is None:
            current = _Open(Paragraph, number, [])
        current.parts.append((number, line))
    close()
    if not blocks or not isinstance(blocks[0], Title):
        problems.insert(0, "line 1: a rules text starts with its title ('# ' and the "
                        "game's name).")
    for block, after in zip(blocks, [*blocks[1:], None], strict=False):
        content = Paragraph | Bullet | FigureRef | Table
        if ((isinstance(block, Subsection) and not isinstance(after, content))
                or (isinstance(block, Section) and not isinstance(after, content | Subsection))):
            kind = "section" if isinstance(block, Section) else "subsection"
            problems.append(Problem(f"line {block.line}: the {kind} {shorten(block.text)} has "
                                    "no text.", MarkupProblem.EMPTY))
    if problems:
        raise MarkupError(source, problems)
    return tuple(blocks)


def _cells(line: str) -> list[str]:
    """The cells of a table row (its text between the outer bars)."""
    inner = line.strip()[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    return [cell.strip() for cell in inner.split("|")]


def _table(lines: list[tuple[int, str]], problems: list[str]) -> list[Table]:
    """The table made of ``lines`` (each starting with '|'), its problems added."""
    first = lines[0][0]
    found = len(problems)
    for number, line in lines:
        if not line.rstrip().endswith("|") or len(line.strip()) < 2:
            problems.append(Problem(f"line {number}: a table row starts and ends with '|'.",
                                    MarkupProblem.TABLE))
    if len(lines) < 3:
        problems.append(Problem(f"line {first}: a table is a header row, a separator row "
                        "('| --- | --- |') and at least one row.", MarkupProblem.TABLE))
    if len(problems) > found:
        return []
    header = _cells(lines[0][1])
    separator_line, separator = lines[1]
    if not all(_SEPARATOR.fullmatch(cell) for cell in _cells(separator)):
        problems.append(Problem(f"line {separator_line}: the table's second row separates the "
                        "header from the rows: '| --- |' for each column.", MarkupProblem.TABLE))
    if any(not cell for cell in header):
        problems.append(Problem(f"line {first}: a table's header has an empty cell.",
                                MarkupProblem.TABLE))
    rows: list[tuple[tuple[Span, ...], ...]] = []
    for number, line in [lines[1], *lines[2:]]:
        cells = _cells(line)
        if len(cells) != len(header):
            problems.append(Problem(f"line {number}: the row has {len(cells)} cells and the "
                            f"header {len(header)}.", MarkupProblem.TABLE))
        elif number != separator_line:
            rows.append(tuple(_spans(cell, number, problems, [(0, number)]) if cell else ()
                              for cell in cells))
    if len(problems) > found:
        return []
    head = tuple(_spans(cell, first, problems, [(0, first)]) for cell in header)
    return [Table(head, tuple(rows), first)]


def load(path: Path) -> tuple[Block, ...]:
    """The blocks of a rules file (UTF-8)."""
    raw = read_input(path, "rules file", max_bytes=MAX_BYTES)
    label = path_text(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise MarkupError(label, ["not a text file (expected UTF-8)."], value=path,
                          code=MarkupProblem.NOT_TEXT) from None
    return parse(text, label)
