"""Schemas for TOML data: what keys a file may hold, of what type, with what default.

A schema is a :class:`Table` of fields. :func:`check` walks the data once and collects
*every* problem (unknown keys with the closest valid name suggested, wrong types, values
out of range or not among the choices, required keys missing) before it raises one
:class:`~cardgen.errors.ConfigError` that lists them all: table by table in the order the
file gives them, each table's missing keys after its other problems. What it returns is the data
with every default filled in and every value converted (numbers to float or int,
choices to their enum member, custom fields through their parser).

The card config, themes, the card layout, product text and Rotator board files all use
it, so their messages are worded alike.

Each field also says what it accepts as JSON Schema (:meth:`Field.json_schema`), so that
the schemas of the input files (``cardgen schema``) are made from the same code that
checks the files, never written apart from it.

Imports only ``cardgen.errors`` and ``cardgen.chars``.
"""

from __future__ import annotations

import datetime
import difflib
import enum
import json
import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardgen.chars import (
    CONTROL_CHARACTERS,
    character_name,
    control_character,
    invisible_problem,
)
from cardgen.errors import ConfigError, ConfigProblem, number, shorten
from cardgen.errors import Problem as Coded


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # the default of a field that must be given
JSON = dict[str, Any]  # a JSON Schema, or a part of one


class Problem(Exception):
    """Raised by a field's converter: the rest of a sentence after the key's name, and
    the kind of problem it is."""

    def __init__(self, message: str, code: ConfigProblem = ConfigProblem.INVALID) -> None:
        super().__init__(message)
        self.code = code


class Field:
    """One value. ``default`` is used when the key is absent; a field without one is
    required, and ``missing`` is what is said when it is absent."""

    kind = "a value"

    def __init__(self, help: str = "", *, default: Any = MISSING, missing: str = "") -> None:
        self.help = help
        self.default = default
        self.missing = missing

    @property
    def required(self) -> bool:
        return self.default is MISSING

    def convert(self, value: Any) -> Any:
        """The checked value; raises :class:`Problem` when it is not acceptable."""
        return value

    def wrong_type(self, value: Any) -> Problem:
        return Problem(f"must be {self.kind}, not {describe(value)}.", ConfigProblem.WRONG_TYPE)

    def json_schema(self, defs: dict[str, JSON]) -> JSON:
        """What :meth:`convert` accepts, as JSON Schema (draft 2020-12) says it, as far as
        it can: the type, the choices, the range, the length; the help as its
        description and the default (when it is a value a file could hold). Shared
        definitions go in ``defs`` (the document's ``$defs``), which references to
        ``#/$defs/NAME`` point at. ``cardgen.api.schemas`` makes the documents."""
        out = self.json_value(defs)
        if self.help:
            out["description"] = self.help
        default = json_default(self.default)
        if default is not None:
            out["default"] = default
        return out

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        """The JSON Schema of the values this kind of field accepts (without the help and
        the default): any value, for a field that says nothing more."""
        return {}


class Text(Field):
    """A string, stripped of surrounding spaces; ``nonempty`` refuses ``""``. With
    ``printed`` it is text for the card: control characters are refused, except line
    breaks where ``multiline`` allows them (CR LF and CR become LF), and so are
    invisible characters (``cardgen.chars.is_invisible``), and it is put in
    Unicode normal form C (composed accents). ``max_length`` caps its length in
    characters."""

    kind = "text in quotes"

    def __init__(self, help: str = "", *, default: Any = MISSING, missing: str = "",
                 nonempty: bool = False, strip: bool = True, printed: bool = False,
                 multiline: bool = False, max_length: int | None = None) -> None:
        super().__init__(help, default=default, missing=missing)
        self.max_length = max_length
        self.nonempty = nonempty
        self.strip = strip
        self.printed = printed
        self.multiline = multiline

    def convert(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise self.wrong_type(value)
        text = value.strip() if self.strip else value
        if self.printed:
            if self.multiline:
                text = "\n".join(line.strip() for line in
                                 text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
            bad = control_character(text, "\n" if self.multiline else "")
            if bad is not None:
                where = "" if self.multiline else " (it is printed on one line)"
                raise Problem(f"must not contain control characters: {shorten(text)} has "
                              f"{character_name(bad)}{where}.", ConfigProblem.BAD_CHARACTER)
            invisible = invisible_problem(text)
            if invisible is not None:
                raise Problem(f"must not contain invisible characters: {shorten(text)} "
                              f"{invisible}", ConfigProblem.BAD_CHARACTER)
            text = unicodedata.normalize("NFC", text)
        if self.nonempty and not text:
            raise Problem(self.missing or "must not be empty.", ConfigProblem.MISSING)
        if self.max_length is not None and len(text) > self.max_length:
            raise Problem(f"is {len(text)} characters long: {shorten(text)}; at most "
                          f"{self.max_length} fit, so shorten it.", ConfigProblem.TOO_LONG)
        return text

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        out: JSON = {"type": "string"}
        if self.nonempty:
            out["minLength"] = 1
        if self.max_length is not None:
            out["maxLength"] = self.max_length  # (of the text as written, ends and all)
        if self.printed:  # no control character (but line breaks) once its ends are trimmed
            banned = char_class(c for c in CONTROL_CHARACTERS
                                if not (self.multiline and c in "\r\n"))
            inner = f"[^{banned}\\s](?:[^{banned}]*[^{banned}\\s])?"
            out["pattern"] = (f"^\\s*{inner}\\s*$" if self.nonempty
                              else f"^\\s*(?:{inner})?\\s*$")
        elif self.nonempty and self.strip:
            out["pattern"] = "\\S"
        return out


LARGEST = 2 ** 63 - 1  # TOML's integers are 64-bit; no number cardgen reads is near this


class Number(Field):
    """An int or float (never a boolean) within ``low``..``high``; ``integer`` refuses
    fractions and returns an int, otherwise a float is returned."""

    def __init__(self, help: str = "", *, default: Any = MISSING, missing: str = "",
                 low: float | None = None, high: float | None = None,
                 integer: bool = False) -> None:
        super().__init__(help, default=default, missing=missing)
        self.low, self.high, self.integer = low, high, integer
        self.kind = "a whole number" if integer else "a number"

    def convert(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.wrong_type(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise Problem(f"must be a finite number, not {number(value)}.",
                          ConfigProblem.OUT_OF_RANGE)
        if isinstance(value, int) and not -LARGEST <= value <= LARGEST and (
                self.low is None or self.high is None):
            # (With both bounds, the range below is what is said.)
            raise Problem(f"must be {self.kind} from {-LARGEST} to {LARGEST}, not "
                          f"{number(value)}.", ConfigProblem.OUT_OF_RANGE)
        if self.integer and value != int(value):
            raise self.wrong_type(value)
        if self.low is not None and self.high is not None and not self.low <= value <= self.high:
            raise Problem(f"must be {self.kind} from {number(self.low)} to {number(self.high)}, "
                          f"not {number(value)}.", ConfigProblem.OUT_OF_RANGE)
        if self.low is not None and value < self.low:
            raise Problem(f"must be at least {number(self.low)}, not {number(value)}.",
                          ConfigProblem.OUT_OF_RANGE)
        if self.high is not None and value > self.high:
            raise Problem(f"must be at most {number(self.high)}, not {number(value)}.",
                          ConfigProblem.OUT_OF_RANGE)
        return int(value) if self.integer else float(value)

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        out: JSON = {"type": "integer" if self.integer else "number"}
        if self.low is not None:
            out["minimum"] = self.low
        if self.high is not None:
            out["maximum"] = self.high
        return out


class Flag(Field):
    kind = "true or false"

    def convert(self, value: Any) -> Any:
        if not isinstance(value, bool):
            raise self.wrong_type(value)
        return value

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        return {"type": "boolean"}


class Choice(Field):
    """One of the values of an enum (written as the member's value). With ``flags``, true
    and false are accepted too and stand for ``flags[value]``: a flag that stands for a
    member is an old spelling of it and goes unmentioned in messages; one that stands
    for anything else (false for "none") is listed among the choices. A value close to a
    choice gets it suggested."""

    kind = "text in quotes"

    def __init__(self, choices: Iterable[enum.Enum], help: str = "", *,
                 default: Any = MISSING, missing: str = "",
                 flags: Mapping[bool, Any] | None = None) -> None:
        super().__init__(help, default=default, missing=missing)
        self.choices = tuple(choices)  # an enum, or some of its members
        self.flags = dict(flags or {})
        self.names = [str(m.value) for m in self.choices]
        shown = [str(flag).lower() for flag, meaning in self.flags.items()
                 if meaning not in self.choices]
        self.listed = ", ".join(self.names)  # for "must be one of …"
        if shown:
            self.kind = _either([f'"{name}"' for name in self.names] + shown)
            self.listed = _either(self.names + shown)

    def convert(self, value: Any) -> Any:
        if isinstance(value, bool) and value in self.flags:
            return self.flags[value]
        if not isinstance(value, str):
            raise self.wrong_type(value)
        for member in self.choices:
            if member.value == value:
                return member
        match = nearest(value.lower(), self.names)
        hint = f"; did you mean {match}?" if match is not None else "."
        raise Problem(f"must be one of {self.listed}, not {shorten(value)}{hint}",
                      ConfigProblem.NOT_A_CHOICE)

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        # Every flag is accepted, the old spellings of a choice too.
        values: list[Any] = [m.value for m in self.choices] + list(self.flags)
        if not self.flags:
            return {"type": "string", "enum": values}
        return {"enum": values}


def _either(words: list[str]) -> str:
    """``a, b or c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class Custom(Field):
    """A value read by ``parse``, which raises ``ValueError`` with the reason it is not
    acceptable; ``kind`` says what is expected. ``schema`` is what ``parse`` accepts as
    JSON Schema (or a function that makes it when asked, for one that reads a data file),
    written beside the parser and tested against it; with ``define``, it is also the
    document's definition of that name (``$defs``), which it refers to itself (a colour
    inside a colour). Without one the JSON Schema says only ``kind``."""

    def __init__(self, parse: Callable[[Any], Any], kind: str, help: str = "", *,
                 default: Any = MISSING, missing: str = "",
                 schema: JSON | Callable[[], JSON] | None = None,
                 define: str | None = None) -> None:
        super().__init__(help, default=default, missing=missing)
        self.parse = parse
        self.kind = kind
        self.schema = schema
        self.define = define

    def convert(self, value: Any) -> Any:
        try:
            return self.parse(value)
        except ValueError as exc:
            raise Problem(f"{exc}.") from None

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        if self.schema is None:
            return {"$comment": f"{self.kind}: checked by cardgen, not described here"}
        made = dict(self.schema() if callable(self.schema) else self.schema)
        if self.define is not None:
            defs.setdefault(self.define, dict(made))
        return made  # (inline: no keyword beside a $ref, which older drafts ignore)


class ListOf(Field):
    """A list of values of one field, at least ``min_items`` of them."""

    def __init__(self, item: Field, help: str = "", *, default: Any = MISSING,
                 missing: str = "", min_items: int = 0) -> None:
        super().__init__(help, default=default, missing=missing)
        self.item = item
        self.min_items = min_items
        self.kind = f"a list of {item.kind}"

    def convert(self, value: Any) -> Any:
        if not isinstance(value, list):
            raise self.wrong_type(value)
        if len(value) < self.min_items:
            raise Problem(f"needs at least {self.min_items} "
                          f"item{'' if self.min_items == 1 else 's'}, not {len(value)}.",
                          ConfigProblem.ITEM_COUNT)
        out = []
        for i, item in enumerate(value):
            try:
                out.append(self.item.convert(item))
            except Problem as exc:
                raise Problem(f"item {i + 1} {exc}", exc.code) from None
        return out

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        out: JSON = {"type": "array", "items": self.item.json_schema(defs)}
        if self.min_items:
            out["minItems"] = self.min_items
        return out


class Table(Field):
    """A TOML table of named fields (which may be tables themselves)."""

    kind = "a table of keys"

    def __init__(self, fields: Mapping[str, Field], help: str = "", *,
                 optional: bool = True) -> None:
        super().__init__(help, default={} if optional else MISSING)
        self.fields = dict(fields)

    @property
    def holds_sections(self) -> bool:
        """True when every field is a table: unknown keys are then called sections."""
        return bool(self.fields) and all(isinstance(f, Table) for f in self.fields.values())

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        out: JSON = {"type": "object",
                     "properties": {key: field.json_schema(defs)
                                    for key, field in self.fields.items()},
                     "additionalProperties": False}
        required = [key for key, field in self.fields.items() if needed(field)]
        if required:
            out["required"] = required
        return out


class Records(Field):
    """An array of tables (``[[name]]`` in TOML), each checked against ``table``; at
    least ``min_items`` and at most ``max_items`` of them. Problems name the entry:
    ``card[3].rotation``."""

    kind = "an array of tables"

    def __init__(self, table: Table, help: str = "", *, min_items: int = 0,
                 max_items: int = 1000, missing: str = "") -> None:
        super().__init__(help, default=[] if min_items == 0 else MISSING, missing=missing)
        self.table, self.min_items, self.max_items = table, min_items, max_items

    def json_value(self, defs: dict[str, JSON]) -> JSON:
        out: JSON = {"type": "array", "items": self.table.json_schema(defs),
                     "maxItems": self.max_items}
        if self.min_items:
            out["minItems"] = self.min_items
        return out


def needed(field: Field) -> bool:
    """Does :func:`check` say a problem when the key of ``field`` is absent? A required
    field; an optional table only when a key of its own is needed (``[person]`` is
    optional, but its ``name`` is not)."""
    if isinstance(field, Table) and not field.required:
        return any(needed(f) for f in field.fields.values())
    return field.required


def describe(value: Any) -> str:
    """A value as a user wrote it, for a message."""
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({number(value)})"
    if isinstance(value, str):
        return f"text ({shorten(value)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, datetime.datetime):  # (before date: a datetime is a date too)
        local = "" if value.tzinfo is not None else "local "
        return f"a {local}date-time ({value.isoformat()})"
    if isinstance(value, datetime.date):
        return f"a date ({value.isoformat()})"
    if isinstance(value, datetime.time):
        return f"a time ({value.isoformat()})"
    return type(value).__name__


def key_text(key: str) -> str:
    """A key of the user's as a message names it: unquoted, but on one line (a line break
    or other control character escaped as in a string) and cut short if long."""
    return shorten(key)[1:-1] if len(key) > 40 or not key.isprintable() else key


def nearest(word: str, options: Sequence[str]) -> str | None:
    """The option ``word`` most likely misspells (difflib's similarity at least 0.6), or
    None: the one "did you mean" of cardgen, whose callers word the hint. A word more
    than twice as long as every option (plus 10) is compared with none: it cannot reach
    0.6 against an option under 30 characters, and difflib's time grows with its length."""
    longest = max((len(o) for o in options), default=0)
    if len(word) > 2 * longest + 10:
        return None
    match = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return match[0] if match else None


def closest(word: str, options: list[str], shown: list[str]) -> str:
    """A "did you mean" for the nearest option, or the list of the valid ones."""
    match = nearest(word, options)
    if match is not None:
        return f"; did you mean {shown[options.index(match)]}?"
    return f"; valid: {', '.join(shown)}."


def check(schema: Table, data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """``data`` checked against ``schema``, defaults filled in; raises a ConfigError
    naming ``source`` and listing every problem found."""
    problems: list[str] = []
    values = _check_table(schema, data, "", problems)
    if problems:
        raise ConfigError(source, problems)
    return values


def _check_table(table: Table, data: Mapping[str, Any], path: str,
                 problems: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{path}.{key}" if path else key
        field = table.fields.get(key)
        if field is None:
            options = list(table.fields)
            name = key_text(key)
            if table.holds_sections and not path:
                problems.append(Coded(f"unknown section [{name}]" + closest(
                    key, options, [f"[{o}]" for o in options]), ConfigProblem.UNKNOWN_SECTION,
                    field=dotted))
            else:
                shown = [f"{path}.{o}" if path else o for o in options]
                problems.append(Coded(f"unknown key {path + '.' if path else ''}{name}"
                                      + closest(key, options, shown), ConfigProblem.UNKNOWN_KEY,
                                      field=dotted))
            continue
        if isinstance(field, Table):
            if not isinstance(value, dict):
                problems.append(Coded(f"{dotted} must be a [{dotted}] table of keys.",
                                      ConfigProblem.WRONG_TYPE, field=dotted))
                continue
            values[key] = _check_table(field, value, dotted, problems)
            continue
        if isinstance(field, Records):
            values[key] = _check_records(field, value, dotted, problems)
            continue
        try:
            values[key] = field.convert(value)
        except Problem as exc:
            problems.append(Coded(f"{dotted} {exc}", exc.code, field=dotted))
    for key, field in table.fields.items():
        if key in values or key in data:
            continue
        dotted = f"{path}.{key}" if path else key
        if isinstance(field, Table):
            if field.required:
                problems.append(Coded(f"missing the [{dotted}] table.", ConfigProblem.MISSING,
                                      field=dotted))
            else:
                values[key] = _check_table(field, {}, dotted, problems)
        elif field.required:
            problems.append(Coded(f"{dotted} {field.missing}" if field.missing
                                  else f"{dotted} is missing ({field.help or field.kind}).",
                                  ConfigProblem.MISSING, field=dotted))
        else:
            values[key] = field.default
    return values


def _check_records(field: Records, value: Any, dotted: str, problems: list[str]) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.append(Coded(f"{dotted} must be an array of tables ([[{dotted}]] entries).",
                              ConfigProblem.WRONG_TYPE, field=dotted))
        return []
    if len(value) < field.min_items:
        problems.append(Coded(field.missing or f"{dotted} needs at least {field.min_items} "
                              f"[[{dotted}]] entr{'y' if field.min_items == 1 else 'ies'}, "
                              f"not {len(value)}.", ConfigProblem.ITEM_COUNT))
        return []
    if len(value) > field.max_items:
        problems.append(Coded(f"{dotted} may have at most {field.max_items} [[{dotted}]] "
                              f"entries, not {len(value)}.", ConfigProblem.ITEM_COUNT))
        return []
    return [_check_table(field.table, item, f"{dotted}[{i + 1}]", problems)
            for i, item in enumerate(value)]


# --- JSON Schema ----------------------------------------------------------------------------
# Each kind of field says its own JSON Schema (Field.json_schema); these put the parts
# together. Patterns are written for every regular-expression dialect JSON Schema tools
# use (ECMA-262, Python's re, Rust's regex): no look-around, no flags, characters outside
# ASCII as \uXXXX escapes.


def json_default(value: Any) -> Any:
    """A default as a file would write it (an enum member as its value, a tuple as a
    list), or None when it is no value a file could hold (None: "not set"; a table)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple) and value:
        items = [json_default(v) for v in value]
        return None if any(v is None for v in items) else items
    return None


def char_class(chars: Iterable[str]) -> str:
    """The inside of a regular expression's character class matching ``chars``, as
    ranges of ``\\uXXXX`` escapes (code points up to U+FFFF)."""
    codes = sorted({ord(c) for c in chars})
    parts: list[str] = []
    start = 0
    while start < len(codes):
        end = start
        while end + 1 < len(codes) and codes[end + 1] == codes[end] + 1:
            end += 1
        low, high = codes[start], codes[end]
        if high > 0xFFFF:
            raise ValueError(f"U+{high:04X} is beyond what a \\uXXXX escape says")
        parts.append(f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}")
        start = end + 1
    return "".join(parts)


_SYNTAX = set("^$\\.*+?()[]{}|/")


def literal(text: str, *, any_case: bool = False) -> str:
    """``text`` as a regular expression matching it exactly (with ``any_case``, in any
    case of its ASCII letters, ``[Ee][Uu]``: JSON Schema's patterns take no flags)."""
    out = []
    for ch in text:
        if any_case and ch.isascii() and ch.isalpha():
            out.append(f"[{ch.upper()}{ch.lower()}]")
        elif ch in _SYNTAX:
            out.append("\\" + ch)
        elif not ch.isascii() or not ch.isprintable():
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def words_pattern(words: Iterable[str] = (), *, any_case: Iterable[str] = (),
                  empty: bool = False) -> str:
    """A pattern for text that, trimmed of white space, is one of ``words`` as written or
    one of ``any_case`` in any case (or, with ``empty``, nothing), as cardgen reads it."""
    alternatives = "|".join([*(literal(w) for w in words),
                             *(literal(w, any_case=True) for w in any_case)])
    return f"^\\s*(?:{alternatives}){'?' if empty else ''}\\s*$"


def json_table(tables: Sequence[Table], defs: dict[str, JSON]) -> JSON:
    """The JSON Schema of data that :func:`check` accepts against one of ``tables``, the
    one a file's keys choose (a theme with or without its ``[front_portrait]``; an
    attack's ``[defender]`` card or ``[[defender]]`` team). They must differ in one key
    at most, so that one schema says exactly the same: that key takes the value of
    either, and is required only if both require it."""
    schemas = [table.json_schema(defs) for table in tables]
    if len(schemas) == 1:
        return schemas[0]
    keys = list(dict.fromkeys(k for s in schemas for k in s["properties"]))
    differ = [k for k in keys if len({_same(s["properties"].get(k)) for s in schemas}) > 1
              or len({k in s.get("required", ()) for s in schemas}) > 1]
    if len(differ) > 1:
        raise ValueError(f"the tables differ in {', '.join(differ)}: one key at most")
    merged = dict(schemas[0])
    properties: JSON = {}
    for key in keys:
        found: list[JSON] = []
        for schema in schemas:
            value = schema["properties"].get(key)
            if value is not None and all(_same(value) != _same(f) for f in found):
                found.append(value)
        properties[key] = found[0] if len(found) == 1 else {"anyOf": found}
    merged["properties"] = properties
    required = [k for k in keys if all(k in s.get("required", ()) for s in schemas)]
    merged.pop("required", None)
    if required:
        merged["required"] = required
    return merged


def _same(schema: JSON | None) -> str:
    """A schema as text, to compare it with another."""
    return json.dumps(schema, sort_keys=True)
