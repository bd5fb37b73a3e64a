"""The person's contact details as a vCard 3.0, the payload of the front panel's QR code."""

from __future__ import annotations

from cardgen.card.config import Person


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
