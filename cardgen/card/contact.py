"""The person's contact details as a vCard 3.0, the payload of the front panel's QR code.

Values are escaped as RFC 2426 and RFC 6350 ask (backslash, comma, semicolon; a line
break in the address as ``\\n``). Any other control character is refused: a carriage
return would end the property early and let a field inject properties of its own.
"""

from __future__ import annotations

from dataclasses import fields

from cardgen.card.config import Person
from cardgen.chars import character_name, control_character
from cardgen.errors import CardgenError, shorten

MULTILINE = {"address"}


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


def vcard(person: Person) -> str:
    """A vCard 3.0 for the person (CRLF line ends, as RFC 2426 asks)."""
    _check(person)
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
