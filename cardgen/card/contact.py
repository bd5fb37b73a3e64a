"""What the front panel's QR code holds: the person's contact details as a compact
vCard 3.0 (RFC 2426), or only their web address.

The vCard is kept short, because every byte makes the QR code's modules finer and a
finer code scans worse from paper:

- only the properties a contact needs: VERSION, N and FN (which vCard 3.0 requires),
  then ORG, TITLE, TEL, EMAIL, URL and ADR for the fields that are set. The tagline is
  printed, not encoded.
- no TYPE parameters. None is needed: RFC 2426 already reads a TEL as a voice number
  and an EMAIL as an internet address, and all a TYPE adds is the label a phone files
  the entry under (Android says "home" for an untyped number or address), which the
  user changes in one tap. ``TEL;TYPE=WORK,VOICE``, ``EMAIL;TYPE=INTERNET`` and
  ``ADR;TYPE=WORK`` cost 40 bytes.
- structured values (N, ADR) end at their last non-empty component: the grammar of
  RFC 2426 allows the trailing semicolons to be left out, and the vCard parsers of
  Android and ZXing fill in the missing components.
- lines end in CRLF, as RFC 2426 requires. The phones' readers (Android's vCard parser,
  ZXing) take LF alone too, but strict vCard readers (Outlook, some contact libraries)
  do not, and LF would save only a byte a line: 10 bytes for the built-in example,
  version 8 instead of 9, whose 0.41 mm modules already scan.

Values are escaped as RFC 2426 asks (backslash, comma, semicolon; a line break in the
address as ``\\n``). Any other control character is refused: a carriage return would
end the property early and let a field inject properties of its own.
"""

from __future__ import annotations

from dataclasses import fields

from cardgen.card.config import Person, QRContent
from cardgen.chars import character_name, control_character, invisible_problem
from cardgen.errors import CardgenError, shorten

MULTILINE = {"address"}
CRLF = "\r\n"


def _escape(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\n", "\\n"))


def _check(person: Person) -> None:
    for f in fields(person):
        value = getattr(person, f.name)
        bad = control_character(value, "\n" if f.name in MULTILINE else "")
        if bad is not None:
            raise CardgenError(f"person.{f.name}: {shorten(value)} contains "
                               f"{character_name(bad)}, which a vCard cannot hold; remove it.",
                               value=value)
        invisible = invisible_problem(value)
        if invisible is not None:  # the QR code would hold what the card does not show
            raise CardgenError(f"person.{f.name}: {shorten(value)} {invisible}", value=value)


def _structured(*components: str) -> str:
    """Escaped components joined by semicolons, the empty ones at the end left out."""
    parts = [_escape(c) for c in components]
    while len(parts) > 1 and not parts[-1]:
        parts.pop()
    return ";".join(parts)


def web_url(web: str) -> str:
    """The web address as a link: ``https://`` is put in front unless it has a scheme."""
    return web if "://" in web else f"https://{web}"


def vcard(person: Person) -> str:
    """The compact vCard 3.0 for the person (see the module's docstring)."""
    _check(person)
    parts = person.name.split()
    family = parts[-1] if parts else ""
    given = " ".join(parts[:-1])
    lines = [
        "BEGIN:VCARD",
        "VERSION:3.0",
        f"N:{_structured(family, given)}",
        f"FN:{_escape(person.name)}",
    ]
    if person.company:
        lines.append(f"ORG:{_escape(person.company)}")
    if person.title:
        lines.append(f"TITLE:{_escape(person.title)}")
    if person.phone:
        lines.append(f"TEL:{_escape(person.phone)}")
    if person.email:
        lines.append(f"EMAIL:{_escape(person.email)}")
    if person.web:
        lines.append(f"URL:{_escape(web_url(person.web))}")
    if person.address:  # post-office box and extended address empty, all in the street
        lines.append(f"ADR:{_structured('', '', person.address)}")
    lines.append("END:VCARD")
    return CRLF.join(lines) + CRLF


def qr_text(person: Person, content: QRContent) -> str:
    """What the QR code encodes: the vCard, or the web address alone."""
    if content is QRContent.VCARD:
        return vcard(person)
    if not person.web:
        raise CardgenError('card.qr = "url" encodes the web address, but person.web is not '
                           'set; add person.web or set qr = "vcard".')
    _check(Person(name="-", web=person.web))
    return web_url(person.web)
