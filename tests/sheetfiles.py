"""Spreadsheet files for the tests, written from code: an .xlsx (Office Open XML) or an .ods
(OpenDocument) workbook is a zip archive of a few XML parts, and these helpers write the
smallest ones a spreadsheet program opens, so that no binary fixture is kept in the
repository and every odd case (a formula whose saved value differs from what it computes,
a hidden sheet, merged cells, an error value) is written exactly.

A cell is given as a Python value: ``str`` (text), ``int``/``float`` (a number), ``bool``,
``None`` (no cell), or a :class:`Cell` for anything else (a formula with or without its
saved value, a date, an error, a merged area).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

XLSX_TYPES = ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml")
ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"


@dataclass(frozen=True)
class Cell:
    """A cell beyond a plain value: ``formula`` (without the ``=``) with its saved
    ``value`` (None: no saved value); ``kind`` one of "number", "text", "bool", "date",
    "error"; ``across``/``down``: a merged area that starts here."""

    value: object = None
    formula: str | None = None
    kind: str = ""
    across: int = 1
    down: int = 1


Row = Sequence[object]


@dataclass(frozen=True)
class Sheet:
    name: str
    rows: Sequence[Row]
    hidden: bool = False
    first_row: int = 1  # the row the first of ``rows`` is written in (1-based)
    first_column: int = 1


def letter(column: int) -> str:
    """The letters of a 1-based column number (1 -> A, 27 -> AA)."""
    text = ""
    while column:
        column, rest = divmod(column - 1, 26)
        text = chr(65 + rest) + text
    return text


def _zip(parts: dict[str, bytes], *, stored_first: str = "") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name == stored_first \
                else zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out.getvalue()


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return "text"


# --- .xlsx -------------------------------------------------------------------------------

def xlsx_parts(sheets: Sequence[Sheet]) -> dict[str, bytes]:
    """The XML parts of an .xlsx workbook (by part name), for a test that changes one."""
    strings: list[str] = []
    index: dict[str, int] = {}

    def shared(text: str) -> int:
        if text not in index:
            index[text] = len(strings)
            strings.append(text)
        return index[text]

    parts: dict[str, bytes] = {}
    entries, rels, overrides = [], [], []
    for n, sheet in enumerate(sheets, 1):
        state = ' state="hidden"' if sheet.hidden else ""
        entries.append(f'<sheet name={quoteattr(sheet.name)} sheetId="{n}"{state} '
                       f'r:id="rId{n}"/>')
        rels.append(f'<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/'
                    f'officeDocument/2006/relationships/worksheet" '
                    f'Target="worksheets/sheet{n}.xml"/>')
        overrides.append(f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType='
                         '"application/vnd.openxmlformats-officedocument.spreadsheetml.'
                         'worksheet+xml"/>')
        rows_xml, merges = [], []
        for r, row in enumerate(sheet.rows, sheet.first_row):
            cells = []
            for c, value in enumerate(row, sheet.first_column):
                if value is None:
                    continue
                ref = f"{letter(c)}{r}"
                cell = value if isinstance(value, Cell) else Cell(value, kind=_kind(value))
                if cell.across > 1 or cell.down > 1:
                    merges.append(f'<mergeCell ref="{ref}:{letter(c + cell.across - 1)}'
                                  f'{r + cell.down - 1}"/>')
                kind = cell.kind or _kind(cell.value)
                formula = f"<f>{escape(cell.formula)}</f>" if cell.formula is not None else ""
                style = ' s="1"' if kind == "date" else ""
                if cell.value is None:
                    cells.append(f'<c r="{ref}"{style}>{formula}</c>')
                elif kind == "text" and cell.formula is not None:
                    cells.append(f'<c r="{ref}" t="str">{formula}<v>{escape(str(cell.value))}'
                                 "</v></c>")
                elif kind == "text":
                    cells.append(f'<c r="{ref}" t="s"><v>{shared(str(cell.value))}</v></c>')
                elif kind == "bool":
                    cells.append(f'<c r="{ref}" t="b">{formula}<v>{int(bool(cell.value))}'
                                 "</v></c>")
                elif kind == "error":
                    cells.append(f'<c r="{ref}" t="e">{formula}<v>{cell.value}</v></c>')
                else:  # a number, or a date as its serial number
                    cells.append(f'<c r="{ref}"{style}>{formula}<v>{cell.value!r}</v></c>')
            rows_xml.append(f'<row r="{r}">{"".join(cells)}</row>')
        merged = (f'<mergeCells count="{len(merges)}">{"".join(merges)}</mergeCells>'
                  if merges else "")
        parts[f"xl/worksheets/sheet{n}.xml"] = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'<sheetData>{"".join(rows_xml)}</sheetData>{merged}</worksheet>').encode()
    parts["xl/sharedStrings.xml"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{len(strings)}" uniqueCount="{len(strings)}">'
        + "".join(f'<si><t xml:space="preserve">{escape(s)}</t></si>' for s in strings)
        + "</sst>").encode()
    parts["xl/styles.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b'<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/>'
        b"</cellXfs></styleSheet>")
    parts["xl/workbook.xml"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        f'<sheets>{"".join(entries)}</sheets></workbook>').encode()
    n = len(sheets)
    parts["xl/_rels/workbook.xml.rels"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(rels)
        + f'<Relationship Id="rId{n + 1}" Type="http://schemas.openxmlformats.org/'
          'officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
        + f'<Relationship Id="rId{n + 2}" Type="http://schemas.openxmlformats.org/'
          'officeDocument/2006/relationships/styles" Target="styles.xml"/>'
        + "</Relationships>").encode()
    parts["_rels/.rels"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    parts["[Content_Types].xml"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{XLSX_TYPES}"/>'
        + "".join(overrides)
        + '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
          'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
          '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-'
          'officedocument.spreadsheetml.styles+xml"/></Types>').encode()
    return parts


def xlsx(*sheets: Sheet) -> bytes:
    """An .xlsx workbook of ``sheets``."""
    return zip_parts(xlsx_parts(sheets))


def zip_parts(parts: dict[str, bytes]) -> bytes:
    """The parts as a zip archive (an .ods's ``mimetype`` first and stored, as the
    format asks)."""
    return _zip(parts, stored_first="mimetype")


# --- .ods --------------------------------------------------------------------------------

_ODS_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
           'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
           'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
           'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:'
           'calcext:1.0" '
           'office:version="1.3"')


def _ods_cell(cell: Cell, repeat: str = "") -> str:
    kind = cell.kind or _kind(cell.value)
    attrs = repeat
    if cell.formula is not None:
        attrs += f" table:formula={quoteattr('of:=' + cell.formula)}"
    if cell.across > 1:
        attrs += f' table:number-columns-spanned="{cell.across}"'
    if cell.down > 1:
        attrs += f' table:number-rows-spanned="{cell.down}"'
    if cell.value is None:
        return f"<table:table-cell{attrs}/>"
    shown = escape(str(cell.value))
    if kind == "number":
        attrs += f' office:value-type="float" office:value="{cell.value!r}"'
    elif kind == "bool":
        attrs += (f' office:value-type="boolean" office:boolean-value='
                  f'"{str(bool(cell.value)).lower()}"')
        shown = "TRUE" if cell.value else "FALSE"
    elif kind == "date":
        attrs += f' office:value-type="date" office:date-value="{cell.value}"'
    elif kind == "error":  # as LibreOffice writes an error: a string value, and its text
        attrs += (' office:value-type="string" office:string-value="" '
                  'calcext:value-type="error"')
    else:
        attrs += ' office:value-type="string"'
    return f"<table:table-cell{attrs}><text:p>{shown}</text:p></table:table-cell>"


def ods_content(sheets: Sequence[Sheet]) -> bytes:
    """The content.xml of an .ods workbook of ``sheets``."""
    tables = []
    for sheet in sheets:
        style = ' table:style-name="hidden"' if sheet.hidden else ""
        rows = []
        if sheet.first_row > 1:
            rows.append(f'<table:table-row table:number-rows-repeated="{sheet.first_row - 1}">'
                        "<table:table-cell/></table:table-row>")
        covered: set[tuple[int, int]] = set()
        for r, row in enumerate(sheet.rows):
            cells = []
            if sheet.first_column > 1:
                cells.append(f'<table:table-cell table:number-columns-repeated='
                             f'"{sheet.first_column - 1}"/>')
            for c, value in enumerate(row):
                if (r, c) in covered:
                    cells.append("<table:covered-table-cell/>")
                    continue
                if value is None:
                    cells.append("<table:table-cell/>")
                    continue
                cell = value if isinstance(value, Cell) else Cell(value, kind=_kind(value))
                covered |= {(r + i, c + j) for i in range(cell.down) for j in range(cell.across)
                            } - {(r, c)}
                cells.append(_ods_cell(cell))
            rows.append(f"<table:table-row>{''.join(cells)}</table:table-row>")
        tables.append(f"<table:table table:name={quoteattr(sheet.name)}{style}>"
                      f"<table:table-column/>{''.join(rows)}</table:table>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<office:document-content {_ODS_NS}><office:automatic-styles>"
            '<style:style style:name="hidden" style:family="table">'
            '<style:table-properties table:display="false"/></style:style>'
            "</office:automatic-styles><office:body><office:spreadsheet>"
            f"{''.join(tables)}</office:spreadsheet></office:body>"
            "</office:document-content>").encode()


def ods_parts(sheets: Sequence[Sheet], content: bytes | None = None) -> dict[str, bytes]:
    """The parts of an .ods workbook: its ``mimetype``, manifest and content.xml
    (``content``: another content.xml)."""
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                f"<manifest:manifest {_ODS_NS}>"
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODS_MIME}"/>'
                '<manifest:file-entry manifest:full-path="content.xml" '
                'manifest:media-type="text/xml"/></manifest:manifest>')
    return {"mimetype": ODS_MIME.encode(), "META-INF/manifest.xml": manifest.encode(),
            "content.xml": content if content is not None else ods_content(sheets)}


def ods(*sheets: Sheet) -> bytes:
    """An .ods workbook of ``sheets``."""
    return zip_parts(ods_parts(sheets))


def workbook(suffix: str, *sheets: Sheet) -> bytes:
    """An .xlsx or .ods workbook (by ``suffix``) of ``sheets``."""
    return xlsx(*sheets) if suffix == ".xlsx" else ods(*sheets)


# --- hostile workbooks ------------------------------------------------------------------

def bomb() -> bytes:
    """A valid workbook whose sheet holds 64 MB of spaces (twice what cardgen unpacks),
    deflated to a few dozen KB."""
    parts = xlsx_parts([Sheet("S", [["name"], ["Ada"]])])
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b"<sheetData>", b"<sheetData>" + b" " * 64_000_000)
    return zip_parts(parts)


def wide_ods() -> bytes:
    """An .ods whose one value is repeated over 10^6 columns of 10^3 rows."""
    content = ods_content([Sheet("S", [["name"]])]).replace(
        b"<table:table-row>", b'<table:table-row table:number-rows-repeated="1000">').replace(
        b'office:value-type="string">',
        b'office:value-type="string" table:number-columns-repeated="1000000">')
    return zip_parts(ods_parts([], content))


def encrypted_ooxml() -> bytes:
    """The start of an OLE compound file holding an EncryptedPackage stream, as Excel
    saves a workbook with a password."""
    return (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
            + "EncryptionInfo".encode("utf-16-le") + bytes(50)
            + "EncryptedPackage".encode("utf-16-le") + bytes(1000))
