"""The library's parameter errors said with a command's option names.

The library names its parameters as Python does (``budget``, ``formats``); a command
calls it inside :func:`as_options`, which words a :class:`~cardgen.errors.ParameterError`
with the option the user typed (``--budget``, ``--format``), so that its line on stderr
and its ``--json`` field name the option, as for the checks the command makes itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from cardgen.errors import ParameterError


@contextlib.contextmanager
def as_options(**names: str) -> Iterator[None]:
    """Run the block; a ParameterError from it names the option instead of the
    parameter: ``names[parameter]`` when given (``formats="--format"``), else the
    parameter with two dashes in front and dashes for underscores."""
    try:
        yield
    except ParameterError as exc:
        if exc.parameter.startswith("-"):
            raise
        option = names.get(exc.parameter) or "--" + exc.parameter.replace("_", "-")
        raise ParameterError(option, exc.problem, value=exc.value) from None
