"""Output intents: the registered printing conditions a print file can be prepared for.

A PDF/X file names the press and paper its CMYK values were prepared for (its *output
intent*). The conditions cardgen offers are data, in ``templates/print/output_intents.toml``:
each is registered with the ICC, so the file names it by its identifier ("FOGRA39")
without embedding a profile. Which one a piece uses by default depends on where its size
comes from (``eu``, ``us`` or a custom size); a piece sized by its paper takes the
condition of that paper's size (:func:`paper_intent`).
"""

from __future__ import annotations

import enum
from functools import cache

from cardgen.datafile import read_toml
from cardgen.draw.page import OutputIntent
from cardgen.errors import CardgenError, shorten
from cardgen.prepress.paper import Paper
from cardgen.resources import templates_dir
from cardgen.schema import (
    Choice,
    ListOf,
    Table,
    Text,
    check,
    closest,
    describe,
    words_pattern,
)

ICC_REGISTRY = "http://www.color.org"


class Coating(enum.StrEnum):
    """The kind of paper a printing condition is for."""

    COATED = "coated"
    UNCOATED = "uncoated"


INTENTS = Table({
    "defaults": Table({
        key: Text(f"The condition for {what}.", nonempty=True)
        for key, what in (("eu", "eu cards"), ("us", "us cards"), ("custom", "custom sizes"))
    }, "The condition each kind of size uses when the config names none.", optional=False),
    "conditions": ListOf(Table({
        "id": Text("The registered identifier.", nonempty=True),
        "condition": Text("What the condition is, in words.", nonempty=True),
        "paper": Choice(Coating, "The kind of paper it is for."),
    }), "The registered conditions.", min_items=1),
})


@cache
def _registry() -> tuple[dict[str, OutputIntent], dict[str, str]]:
    path = templates_dir() / "print" / "output_intents.toml"
    values = check(INTENTS, read_toml(path, "data file", str(path)), str(path))
    intents = {entry["id"]: OutputIntent(entry["id"], entry["condition"], ICC_REGISTRY)
               for entry in values["conditions"]}
    defaults = dict(values["defaults"])
    for kind, key in defaults.items():
        if key not in intents:
            raise ValueError(f"{path}: defaults.{kind} names {key!r}, which is not a condition")
    return intents, defaults


def output_intents() -> dict[str, OutputIntent]:
    """Every condition cardgen knows, by identifier, in the data file's order."""
    return _registry()[0]


def default_intent(kind: str) -> OutputIntent:
    """The condition for a size of ``kind`` (``"eu"``, ``"us"`` or ``"custom"``)."""
    intents, defaults = _registry()
    return intents[defaults[kind]]


def paper_intent(paper: Paper) -> OutputIntent:
    """The condition for a piece printed on ``paper`` whose size says nothing else (a
    rules sheet, a puzzle book, a play sheet or mat, the duplex test): A4 is the paper of
    the places that print to FOGRA39 (the ``eu`` default), Letter of those that print
    to GRACoL (the ``us`` default)."""
    return default_intent("eu" if paper is Paper.A4 else "us")


def intent_named(name: object) -> OutputIntent:
    """The condition called ``name`` (any case); a ValueError says what is wrong, with the
    closest identifier or the list of them."""
    if not isinstance(name, str):
        raise ValueError(f"must be text in quotes, the name of a printing condition such as "
                         f'"FOGRA39", not {describe(name)}')
    intents = output_intents()
    for key, intent in intents.items():
        if key.lower() == name.strip().lower():
            return intent
    known = list(intents)
    hint = closest(name.strip().upper(), [k.upper() for k in known], known)
    raise ValueError(f"{shorten(name)} is not a printing condition cardgen knows{hint} Ask "
                     "your print shop which one they print to")


def intent_json_schema() -> dict[str, object]:
    """The names :func:`intent_named` reads, as JSON Schema (draft 2020-12): one of the
    identifiers (offered as they are written), in any case, white space around it
    trimmed."""
    names = list(output_intents())
    return {"type": "string", "anyOf": [
        {"enum": names}, {"pattern": words_pattern(any_case=names)}]}


def find_intent(name: str, where: str) -> OutputIntent:
    """:func:`intent_named`, with an error that names ``where`` (the option)."""
    try:
        return intent_named(name)
    except ValueError as exc:
        raise CardgenError(f"{where}: {exc}.", value=name) from None
