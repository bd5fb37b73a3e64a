"""vCard text and its QR code as a matrix of modules (drawn as vectors by the layout)."""

from __future__ import annotations

from cardgen.config import Person
from cardgen.errors import CardgenError

QUIET_ZONE = 4  # light modules around the symbol, as the QR standard requires


def _escape(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\n", "\\n"))


def vcard(person: Person) -> str:
    """A vCard 3.0 for the person (CRLF line ends, as RFC 2426 asks)."""
    parts = person.name.split()
    family = parts[-1] if parts else ""
    given = " ".join(parts[:-1])
    lines = [
        "BEGIN:VCARD",
        "VERSION:3.0",
        f"N:{_escape(family)};{_escape(given)};;;",
        f"FN:{_escape(person.name)}",
    ]
    if person.company:
        lines.append(f"ORG:{_escape(person.company)}")
    if person.title:
        lines.append(f"TITLE:{_escape(person.title)}")
    if person.phone:
        lines.append(f"TEL;TYPE=WORK,VOICE:{_escape(person.phone)}")
    if person.email:
        lines.append(f"EMAIL;TYPE=INTERNET:{_escape(person.email)}")
    if person.web:
        url = person.web if "://" in person.web else f"https://{person.web}"
        lines.append(f"URL:{_escape(url)}")
    if person.address:
        lines.append(f"ADR;TYPE=WORK:;;{_escape(person.address)};;;;")
    lines.append("END:VCARD")
    return "\r\n".join(lines) + "\r\n"


def qr_matrix(text: str, level: str = "M") -> list[list[bool]]:
    """The QR symbol's modules (True = dark), without the quiet zone."""
    from reportlab.graphics.barcode import qrencoder

    levels = {"L": qrencoder.QRErrorCorrectLevel.L, "M": qrencoder.QRErrorCorrectLevel.M,
              "Q": qrencoder.QRErrorCorrectLevel.Q, "H": qrencoder.QRErrorCorrectLevel.H}
    code = qrencoder.QRCode(None, levels[level])
    code.addData(qrencoder.QR8bitByte(text.encode("utf-8")))
    try:
        code.make()
    except Exception:  # reportlab raises a bare Exception("code length overflow ...")
        raise CardgenError("card.qr: the contact details are too long for a QR code; "
                           "shorten them or set qr = false.") from None
    n = code.getModuleCount()
    return [[bool(code.isDark(r, c)) for c in range(n)] for r in range(n)]


def module_runs(matrix: list[list[bool]]) -> list[tuple[int, int, int]]:
    """Horizontal runs of dark modules as (row, first column, length): fewer shapes and
    no hairline seams between neighbouring modules."""
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((r, start, c - start))
            else:
                c += 1
    return runs
