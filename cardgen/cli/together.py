"""Options that only mean something together with another one (``rules --creep`` only
with ``--booklet``, ``--dpi`` only when PNG files are written): one typed without the
other would do nothing, so it is refused as a usage error (exit status 2) in one
sentence that names the option, what it needs and the fix, instead of being accepted
silently. Only what the user typed counts: an option left at its default is never
refused. The checks read the command being run from Click's current context, so a
command calls them with its values only; outside a command they check nothing."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from cardgen.api.common import Format


def _context() -> typer.Context | None:
    """The context of the command being run (Typer 0.2x vendors its own Click, older
    Typer uses Click's), or None outside a command."""
    for name in ("typer._click.globals", "click.globals"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        context: typer.Context | None = module.get_current_context(silent=True)
        return context
    return None


def typed(ctx: typer.Context, name: str) -> bool:
    """Did the user give the parameter ``name`` (its Python name, ``creep``) on the
    command line, rather than leave it at its default?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT", "PROMPT")


def option_name(ctx: typer.Context, name: str) -> str:
    """The option of the parameter ``name`` as the user types it: its long form
    (``--format``, not ``-f``), and for an on/off flag the form whose value it has
    (``--no-marks``)."""
    for param in ctx.command.params:
        if param.name == name:
            secondary: list[str] = list(getattr(param, "secondary_opts", []))
            if secondary and ctx.params.get(name) is False:
                return max(secondary, key=len)
            return str(max(param.opts, key=len))
    return name  # (every caller names a parameter of its command)


def _listed(options: Sequence[str]) -> str:
    if len(options) == 1:
        return options[0]
    return ", ".join(options[:-1]) + " and " + options[-1]


def _fail(ctx: typer.Context, message: str) -> NoReturn:
    ctx.fail(message)
    raise AssertionError("unreachable: Context.fail raises")  # (for the type checker)


def only_with(names: Sequence[str], *, present: bool, needs: str, fix: str) -> None:
    """Refuse the options of ``names`` the user typed when ``present`` is false: each
    only applies ``needs`` ("to --booklet"); ``fix`` is how to give it ("add
    --booklet"). "--creep only applies to --booklet; add --booklet, or leave --creep
    out." """
    ctx = _context()
    if present or ctx is None:
        return
    given = [option_name(ctx, name) for name in names if typed(ctx, name)]
    if not given:
        return
    verb = "applies" if len(given) == 1 else "apply"
    them = given[0] if len(given) == 1 else "them"
    _fail(ctx, f"{_listed(given)} only {verb} {needs}; {fix}, or leave {them} out.")


def not_with(names: Sequence[str], *, present: bool, other: str, why: str) -> None:
    """Refuse the options of ``names`` the user typed when ``present`` is true: with
    ``other`` ("--registration") they do nothing, ``why`` says why ("the test page
    prints no card")."""
    ctx = _context()
    if not present or ctx is None:
        return
    given = [option_name(ctx, name) for name in names if typed(ctx, name)]
    if not given:
        return
    verb = "does" if len(given) == 1 else "do"
    them = given[0] if len(given) == 1 else "them"
    _fail(ctx, f"{_listed(given)} {verb} nothing with {other} ({why}); leave {them} out, "
               f"or leave out {other}.")


def dpi_needs_png(formats: Sequence[Format]) -> None:
    """``--dpi`` is the resolution of PNG files: refused when no PNG is written."""
    only_with(["dpi"], present="png" in formats, needs="to PNG files",
              fix="add png to --format")
