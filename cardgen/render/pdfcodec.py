"""Faster, byte-identical stand-ins for two of reportlab's pure-Python encoders.

reportlab writes every number of a content stream through ``rl_accel.fp_str`` and
ASCII85-encodes every compressed page with ``rl_accel.asciiBase85Encode``. Its C
accelerator is not used (its number formatting differs in the last digit, which would
change the bytes of files cardgen has always made), so both run as reportlab's Python
fallbacks, ``_py_fp_str`` and ``_py_asciiBase85Encode``: together the largest share of
the time it takes to write a PDF.

:func:`fp_str` and :func:`ascii85` give exactly what those fallbacks give, for every
input (``tests/test_render_speed.py`` compares them over a sweep of numbers and bytes):

* :func:`fp_str` formats each number the same way (the same ``log(x)/log(10)``
  precision rule, the same stripping of zeros), remembers the text of numbers it has
  formatted (bounded: :data:`MEMO_SIZE`; a number's text depends on its value only)
  and hands anything that is not an ``int`` or ``float`` (and NaN, infinities) to
  reportlab's own function, errors included;
* :func:`ascii85` is :func:`base64.a85encode` (the same alphabet, ``z`` for a zero
  word, the same short last group) followed by reportlab's ``~>``.

:func:`fast_reportlab` puts them in place of the fallbacks in reportlab's modules while
a PDF is written, and puts the originals back afterwards.

Imports reportlab.
"""

from __future__ import annotations

import base64
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from math import log
from typing import Any

from reportlab.lib import rl_accel

MEMO_SIZE = 1 << 16  # numbers whose text is remembered, at most (then forgotten at once)
_LOG_10 = log(10.0)
_FORMATS = ("%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f")
_memo: dict[float, str] = {}


def _pure_python() -> dict[str, Any]:
    """reportlab's pure-Python fallbacks of its accelerated functions, by name, also when
    its optional C accelerator (the ``rl_accel`` package, module ``_rl_accel``) is
    installed: then reportlab defines none of them, so its ``rl_accel`` module is run
    once more, as a copy of its own, with the accelerator hidden (as reportlab's own
    tests hide it). cardgen's files are what these fallbacks write: the C functions
    round some numbers differently in the last place."""
    if "fp_str" in rl_accel._py_funcs:  # no accelerator: reportlab uses them itself
        return dict(rl_accel._py_funcs)
    import importlib.util

    spec = importlib.util.spec_from_file_location("cardgen_reportlab_rl_accel_python",
                                                  rl_accel.__file__)
    if spec is None or spec.loader is None:
        raise ImportError("cannot find reportlab's rl_accel module")
    module = importlib.util.module_from_spec(spec)
    modules: dict[str, Any] = sys.modules  # (None in it hides a module from imports)
    hidden = modules.get("_rl_accel")
    modules["_rl_accel"] = None
    try:
        spec.loader.exec_module(module)
    finally:
        if hidden is None:
            del modules["_rl_accel"]
        else:
            modules["_rl_accel"] = hidden
    return dict(module._py_funcs)


PURE_PYTHON = _pure_python()
# What reportlab's modules bound (its C functions when the accelerator is installed).
_bound_fp_str = rl_accel.fp_str
_bound_a85 = rl_accel.asciiBase85Encode
_plain_fp_str = PURE_PYTHON["fp_str"]
_plain_a85 = PURE_PYTHON["asciiBase85Encode"]


def _number(value: float) -> str:
    """One number as ``_py_fp_str`` writes it (``value`` an int or a finite float)."""
    size = abs(value)
    if size <= 1e-7:
        return "0"
    if size <= 1:
        text = _FORMATS[6] % value
    else:
        places = min(max(0, 6 - int(log(size) / _LOG_10)), 6)
        text = _FORMATS[places] % value
        if not places:
            return text[1:] if text[0] == "0" and len(text) > 1 else text
    text = text.rstrip("0")
    if text[-1] == ".":
        text = text[:-1]
    return text[1:] if text[0] == "0" and len(text) > 1 else text


def _text(value: Any) -> str:
    kind = type(value)
    if kind is float:
        if value - value != 0.0:  # NaN or an infinity: reportlab's own answer (or error)
            return str(_plain_fp_str(value))
    elif kind is not int:
        return str(_plain_fp_str(value))  # bool, numpy, Decimal...: as reportlab does
    text = _memo.get(value)
    if text is None:
        text = _number(value)
        if len(_memo) >= MEMO_SIZE:
            _memo.clear()
        _memo[value] = text
    return text


def fp_str(*values: Any) -> str:
    """reportlab's ``fp_str``: the numbers (separate arguments, or one list or tuple of
    them) as PDF numbers separated by spaces."""
    if len(values) == 1 and isinstance(values[0], (tuple, list)):
        values = tuple(values[0])
    memo = _memo
    out = []
    for value in values:
        text = memo.get(value) if type(value) is float or type(value) is int else None
        out.append(text if text is not None else _text(value))
    return " ".join(out)


def ascii85(data: bytes | str) -> str:
    """reportlab's ``asciiBase85Encode``: ``data`` in ASCII85 with ``~>`` at the end."""
    if isinstance(data, str):
        return str(_plain_a85(data))
    return base64.a85encode(data).decode("latin-1") + "~>"


# reportlab's modules that bound the fallbacks with ``from ... import``, and the names.
_PATCHED = {
    "fp_str": (_bound_fp_str, fp_str),
    "asciiBase85Encode": (_bound_a85, ascii85),
}
_lock = threading.Lock()
_depth = 0
# The namespaces of reportlab's modules that hold one of the fallbacks, found again only
# when modules have been imported since (a test process holds thousands of modules).
_spaces: list[dict[str, Any]] = []
_modules_seen = -1


def _namespaces() -> list[dict[str, Any]]:
    global _modules_seen
    if len(sys.modules) != _modules_seen:
        _spaces[:] = [vars(module) for name, module in list(sys.modules.items())
                      if name.startswith("reportlab") and module is not None
                      and module is not rl_accel
                      and any(attribute in vars(module) for attribute in _PATCHED)]
        _modules_seen = len(sys.modules)
    return _spaces


def _swap(to_fast: bool) -> None:
    for space in _namespaces():
        for attribute, (plain, fast) in _PATCHED.items():
            current = space.get(attribute)
            if to_fast and current is plain:
                space[attribute] = fast
            elif not to_fast and current is fast:
                space[attribute] = plain


@contextmanager
def fast_reportlab() -> Iterator[None]:
    """Within the block, reportlab formats numbers with :func:`fp_str` and encodes
    ASCII85 with :func:`ascii85` (nested and concurrent blocks are counted: the
    originals come back when the last one ends)."""
    global _depth
    with _lock:
        if _depth == 0:
            _swap(True)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _swap(False)
