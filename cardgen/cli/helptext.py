"""What the help screens show: ``-h`` and ``--help`` everywhere, the value each option
takes, a one-line summary per command, and examples at the end of every command's help.

Typer 0.2x labels every value with its Python type (``<bool>``, ``<str>``,
``<list[str]>``, ``<path>``): ``TyperOption.display_type_rich`` and
``TyperArgument.display_type_rich`` return ``display_type``, which formats the type
annotation, unless the parameter has a ``metavar`` (options only: an argument's metavar
is its name and the type is printed beside it all the same). Flags get ``<bool>`` too.
:class:`CardgenGroup`, the root group's class, fixes this in one place for every command
when the command tree is built (by ``cardgen`` itself, by a test runner, or by a
documentation generator): :func:`shown_value` is the rule, and the tables below say
what a type alone cannot (the choices a text option takes, a telling name such as
FOLDER or STEM). The same walk puts each paragraph of a command's help on one line (so
that Rich wraps it evenly), adds each command's examples (:data:`EXAMPLES`) as its
epilog, and has each help screen escape Rich markup in the texts it shows (Typer's
``rich`` markup mode would otherwise take ``[defender]`` for a style and print
nothing): help texts are written, and stay, plain. The screens themselves are Typer's,
drawn by :mod:`cardgen.cli.helpscreen` without Typer's ``rich_utils`` (which imports
Rich's Markdown and Pygments, twice the time of importing Typer).

It imports nothing heavy: the choices are written out here (a test checks them against
the enums the commands parse them with), so that ``cardgen --help`` stays fast. For the
same reason the root group makes its commands when first asked for (:class:`CardgenGroup`,
its help listing :data:`SUMMARIES`), and each parameter coerces its usual values without
Typer's Pydantic adapters (:class:`_QuickCoercion`): a command imports its own module and
what its work needs (tests/test_cold_start.py).
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any, get_args, get_origin

from typer import core as typer_core
from typer.core import TyperArgument, TyperGroup

HELP_OPTIONS = ["-h", "--help"]
CONTEXT: dict[str, Any] = {"help_option_names": HELP_OPTIONS}

# The values a text option takes, by option name (one meaning per name across commands).
PRESETS = ("eu", "us")
PAPERS = ("a4", "letter")
CHOICES: dict[str, tuple[str, ...]] = {
    "--preset": PRESETS,
    "--paper": PAPERS,
    "--flip": ("long", "short"),
    "--dieline": ("file", "layer"),
    "--varnish": ("layer", "file"),
    "--size": ("card", "large"),
    "--difficulty": ("easy", "medium", "hard"),
    "--example": ("reflector", "deflector"),
    "--rows": ("3", "4"),
}
# The values a GAME argument takes, by command.
RULES_GAMES = ("rotator", "reflector", "deflector", "defector", "connector", "ladder")
CONNECTOR_GAMES = ("rotator", "reflector", "deflector", "defector")
ARGUMENT_CHOICES: dict[str, tuple[str, ...]] = {
    "rules": (*RULES_GAMES, "all"),
    "playsheet": ("reflector", "deflector", "defector"),
    "connector solve": CONNECTOR_GAMES,
    "connector show": CONNECTOR_GAMES,
    "nodes play": ("reflector", "deflector"),
    "schema": ("card", "theme", "assembly", "attack", "deck", "people"),
}
# A name that says more than the type (the rest: TEXT, INTEGER, FLOAT, FILE).
TELLING: dict[str, str] = {
    "--output": "FOLDER",
    "--source": "FOLDER",
    "--name": "STEM",
    "--format": "FORMATS",
    "--offset": "X,Y",
    "--theme": "THEME",
    "--output-intent": "NAME",
    "--start": "SQUARE",
    "--count": "N",
    "--players": "N",
    "--max-cards": "N",
    "--jobs": "N",
    "--tries": "N",
    "--budget": "N",
    "--batch": "CSV",
    "--dpi": "DPI",
    "--margin": "MM",
    "--creep": "MM",
}
LONGEST_CHOICES = 24  # characters of [a|b|...] shown as an argument's value
BY_TYPE: dict[type, str] = {str: "TEXT", int: "INTEGER", float: "FLOAT", Path: "FILE"}

# Each command's examples: the command line and what it does (it fits 80 columns).
# Every one runs as written, in a folder holding the files they name (tests/test_help).
EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "": (("cardgen init me.toml", "a commented config to edit"),
         ("cardgen card me.toml", "its card, ready to print, in output/"),
         ("cardgen rotator generate --count 4", "a book of Rotator boards")),
    "card": (("cardgen card", "the example card in output/"),
             ("cardgen card me.toml -f pdf --preset us", "only the PDF, US size"),
             ("cardgen card me.toml --dieline layer", "cut lines on the art pages")),
    "init": (("cardgen init me.toml", "write the example config to me.toml"),
             ("cardgen init me.toml --force", "...even over an old one")),
    "sheet": (("cardgen sheet me.toml --paper letter", "cards N-up on Letter"),
              ("cardgen sheet --registration", "a page to check duplex alignment")),
    "rules": (("cardgen rules reflector", "the Reflector rules"),
              ("cardgen rules rotator --booklet", "as a booklet to fold and staple")),
    "playsheet": (("cardgen playsheet deflector --players 4", "grids for four players"),),
    "referee": (("cardgen referee --example deflector", "replay a record cardgen ships"),
                ("cardgen referee --example deflector --json", "...as JSON")),
    "rotator": (("cardgen rotator solve R1:B2B8E4I2I8-B4E2E8H4I9", "solve a board"),
                ("cardgen rotator generate --count 4", "a book of new boards")),
    "rotator show": (("cardgen rotator show R1:B2B8E4I2I8-B4E2E8H4I9", "draw a board"),),
    "rotator play": (("cardgen rotator play R1:B2B8E4I2I8-B4E2E8H4I9", "play a board"),
                     ("cardgen rotator play R1:B2B8E4I2I8-B4E2E8H4I9 --start E",
                      "...from column E")),
    "rotator solve": (("cardgen rotator solve R1:B2B8E4I2I8-B4E2E8H4I9", "its best line"),
                      ("cardgen rotator solve R1:B2B8E4I2I8-B4E2E8H4I9 --json", "...as JSON")),
    "rotator generate": (("cardgen rotator generate --count 4", "4 boards, keys"),
                         ("cardgen rotator generate --seed 7 --count 2 --size large",
                          "a page each")),
    "rotator print": (("cardgen rotator print R1:B2B8E4I2I8-B4E2E8H4I9 --key",
                       "the board and its key"),),
    "connector": (("cardgen connector show reflector", "the Reflector answer, drawn"),
                  ("cardgen connector check", "check the layout")),
    "connector validate": (("cardgen connector validate my-assembly.toml",
                            "does it spell the rules?"),
                           ("cardgen connector validate my-assembly.toml --json",
                            "...as JSON")),
    "connector solve": (("cardgen connector solve reflector", "find an assembly"),),
    "connector check": (("cardgen connector check", "check the layout cardgen ships"),
                        ("cardgen connector check --preset us", "...at US size")),
    "connector show": (("cardgen connector show reflector", "the Reflector answer, drawn"),
                       ("cardgen connector show -f svg", "every game's answer, as SVG")),
    "ladder": (("cardgen ladder deck", "check the example deck"),
               ("cardgen ladder mat --rows 3", "a play mat for six cards")),
    "ladder deck": (("cardgen ladder deck", "check the example deck"),
                    ("cardgen ladder deck my-deck.csv --json", "check a deck, as JSON")),
    "ladder attack": (("cardgen ladder attack", "decide the example attack"),
                      ("cardgen ladder attack my-attack.toml", "decide an attack")),
    "ladder mat": (("cardgen ladder mat --rows 3", "a play mat for six cards"),
                   ("cardgen ladder mat --rows 4 --paper letter", "for ten, on Letter")),
    "ladder rules": (("cardgen ladder rules", "the rules sheet on A4"),
                     ("cardgen ladder rules --paper letter", "...on Letter")),
    "nodes": (("cardgen nodes play reflector", "play Reflector"),),
    "nodes play": (("cardgen nodes play reflector --seed 3", "play Reflector"),
                   ("cardgen nodes play deflector --players 4", "Deflector, four players")),
    "schema": (("cardgen schema card", "the card config's schema, on stdout"),
               ("cardgen schema card -o .", "...as card.schema.json, for an editor"),
               ("cardgen schema people --json", "the people file's, in a JSON object")),
    "studio": (("cardgen studio card.toml", "open the page; it redraws on every save"),
               ("cardgen studio --no-open", "the built-in example; only print the address")),
}


def examples_epilog(examples: Sequence[tuple[str, str]]) -> str:
    """The epilog of a command's help: its examples, one a line, each with what it does
    as a shell comment. (Rich keeps single line breaks in an epilog; the lines are not
    indented, as Typer takes the indentation out.)"""
    width = max(len(line) for line, _ in examples)
    return "Examples:\n" + "\n".join(f"{line:<{width}}  # {what}" for line, what in examples)


def choices_of(param: Any, path: str) -> tuple[str, ...]:
    """The values ``param`` (of the command ``path``) takes, if it takes one of a few."""
    descriptor = getattr(param, "type_descriptor", None)
    choices: Iterable[Any] = ()
    if param.param_type_name == "argument":
        choices = ARGUMENT_CHOICES.get(path, ())
    else:
        names = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
        choices = next((CHOICES[n] for n in names if n in CHOICES), ())
    if not choices and descriptor is not None and descriptor.is_choice:
        choices = descriptor.choices or ()
    return tuple(str(c.value if isinstance(c, enum.Enum) else c) for c in choices)


def shown_value(param: Any, path: str) -> str:
    """What the help shows for the value of ``param`` (of the command ``path``, such as
    ``"rotator generate"``): nothing for a flag, ``[a|b]`` for choices (an argument's
    long list is left to its help text), a telling name, else the type as Click names
    it (TEXT, INTEGER, FLOAT, FILE)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    names = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
    descriptor = getattr(param, "type_descriptor", None)
    choices = choices_of(param, path)
    if choices:
        listed = "[" + "|".join(choices) + "]"
        if len(listed) <= LONGEST_CHOICES or param.param_type_name != "argument":
            return listed
        # A GAME of many: its help text names them, as a list this long would be broken
        # in the middle of a word in the narrow column of values.
    telling = next((TELLING[n] for n in names if n in TELLING), None)
    if telling is not None:
        return telling
    annotation: Any = getattr(descriptor, "annotation", str)
    if get_origin(annotation) is list:
        annotation = get_args(annotation)[0]
    return BY_TYPE.get(annotation, "TEXT")


class _Argument(TyperArgument):
    """An argument that shows :attr:`shown` as its value (Typer shows the type)."""

    shown = "TEXT"

    def display_type_rich(self, ctx: Any) -> str | None:
        return self.shown


_NOT_QUICK = object()


class _QuickCoercion:
    """A parameter's coercion (Typer 0.2x: ``RuntimeParam.coerce``) that answers the
    common values itself and hands the rest to Typer's own, made only then. Typer's makes
    a Pydantic ``TypeAdapter`` for every parameter of a command, defaults included: about
    50 ms of CPU to import Pydantic, more than half of what ``cardgen connector validate``
    costs without it. Answered here, exactly as Typer's would: no value
    (None, or ``()`` for a list), a text for a text, a default of the number's type, a
    path typed for a path (as Typer's, which only makes it a ``Path`` first), and a value
    for a ``parser`` (the parser's result). A ``ValueError`` on the way goes to Typer's,
    which words it. tests/test_cold_start.py checks the values against Typer's own."""

    def __init__(self, descriptor: Any) -> None:
        self.descriptor = descriptor
        self._full: Any = None

    def full(self) -> Any:
        """Typer's own coercion of the parameter."""
        if self._full is None:
            from typer._coercion import build_runtime_param

            self._full = build_runtime_param(self.descriptor)
        return self._full

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        many = param.multiple or param.nargs == -1
        if value is None:
            return () if many else None
        quick = _NOT_QUICK if many else self._quick(value, param, ctx)
        if quick is _NOT_QUICK:
            return self.full().coerce(value, param=param, ctx=ctx)
        return quick

    def _quick(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            from typer._param_types import coerce_cli_path, routes_to_path
        except ImportError:  # another Typer: its own coercion, always
            return _NOT_QUICK
        kind, info = self.descriptor.annotation, self.descriptor.parameter_info
        if self.descriptor.file_annotation is not None:
            return _NOT_QUICK
        if info.parser is not None:
            try:
                return info.parser(value)
            except (ValueError, AssertionError):  # Typer's words them
                return _NOT_QUICK
        bounded = info.min is not None or info.max is not None or info.clamp
        if kind is str and isinstance(value, str):
            return str(value)
        if kind is int and type(value) is int and not bounded:
            return value
        if kind is float and type(value) in (int, float) and not bounded:
            return float(value)
        if isinstance(kind, type) and issubclass(kind, Path) and routes_to_path(kind, info):
            path_type = info.path_type or kind
            if isinstance(path_type, type) and issubclass(path_type, Path) and isinstance(
                    value, str | path_type):
                typed = value if isinstance(value, path_type) else path_type(value)
                try:
                    return coerce_cli_path(typed, info, path_type=path_type, param=param,
                                           ctx=ctx)
                except (ValueError, AssertionError):  # (a NUL byte) Typer's words them
                    return _NOT_QUICK
        return _NOT_QUICK


def _quick_coercion(param: Any) -> None:
    """Give ``param`` a :class:`_QuickCoercion` (with a Typer that coerces this way)."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and getattr(param, "_runtime_param", False) is None:
        param._runtime_param = _QuickCoercion(descriptor)


def _one_line_paragraphs(text: str) -> str:
    return "\n\n".join(" ".join(part.split()) for part in text.strip().split("\n\n"))


def _dress_param(param: Any, path: str) -> None:
    if getattr(param, "_cardgen_dressed", False):
        return
    param._cardgen_dressed = True
    _quick_coercion(param)
    if param.param_type_name == "argument":
        if param.metavar is None:
            param.metavar = param.name.upper()
        if type(param) is TyperArgument and hasattr(param, "display_type_rich"):
            shown = shown_value(param, path)
            param.__class__ = _Argument  # the same object, showing its value as Click would
            setattr(param, "shown", shown)  # noqa: B010 (mypy still sees a TyperArgument)
    else:
        param.metavar = shown_value(param, path)
    # Shell completion offers the choices too (Typer completes only its own choice types).
    choices = choices_of(param, path)
    if choices and getattr(param, "_custom_shell_complete", None) is None:
        param._custom_shell_complete = lambda ctx, param, incomplete: [
            c for c in choices if c.startswith(incomplete.lower())]


def _help_screen(command: Any, format_help: Any) -> Any:
    """``format_help`` of ``command`` drawn by :mod:`cardgen.cli.helpscreen` (Typer's
    screen, without importing Typer's ``rich_utils``; ``format_help``, Typer's own, when
    Rich is off or the installed Typer is not one the screens are written for), showing
    its texts as written under Typer's Rich markup: while the screen is made, each text it
    shows (the command's, its options', its commands' summaries) is escaped, then put
    back. The texts themselves stay plain for everything else that reads them (a reference
    generator, Click's plain help)."""

    def escaped(ctx: Any, formatter: Any) -> Any:
        if not typer_core.HAS_RICH:  # Click's plain help, which shows texts as written
            return format_help(ctx, formatter)
        from cardgen.cli import helpscreen  # only for a help screen, which imports Rich

        if not helpscreen.supported():
            with _escaped_texts(command, ctx):
                return format_help(ctx, formatter)
        with _escaped_texts(command, ctx), _stand_ins(command):
            helpscreen.format_help(command, ctx)
        return None

    return escaped


@contextlib.contextmanager
def _escaped_texts(command: Any, ctx: Any) -> Iterator[None]:
    """Each text the help screen of ``command`` shows escaped for Rich markup, while it
    is drawn."""
    from rich.markup import escape

    shown = [command, *command.get_params(ctx), *_subcommands(command, ctx)]
    kept = [(thing, name, getattr(thing, name, None)) for thing in shown
            for name in ("help", "short_help", "epilog")]
    try:
        for thing, name, text in kept:
            if isinstance(text, str) and "[" in text:
                setattr(thing, name, escape(text))
        yield
    finally:
        for thing, name, text in kept:
            if text is not None:
                setattr(thing, name, text)


@contextlib.contextmanager
def _stand_ins(command: Any) -> Iterator[None]:
    """While the root's help is drawn, its list shows stand-ins for the commands not yet
    made (:meth:`CardgenGroup.listed`); other commands list their own."""
    if not isinstance(command, CardgenGroup):
        yield
        return
    listing, command._listing = command._listing, True
    try:
        yield
    finally:
        command._listing = listing


def _subcommands(command: Any, ctx: Any) -> list[Any]:
    """The commands a group's help screen lists (for the root, without loading any)."""
    if isinstance(command, CardgenGroup):
        return command.listed(ctx)
    return list(getattr(command, "commands", {}).values())


def _dress(command: Any, path: str) -> None:
    """Set up ``command`` (named ``path``) and every command below it for help."""
    command.context_settings.setdefault("help_option_names", HELP_OPTIONS)
    if command.help:
        command.help = _one_line_paragraphs(command.help)
        if command.short_help is None:
            command.short_help = command.help.split("\n\n")[0]
    if getattr(command, "rich_markup_mode", None) == "rich":
        command.format_help = _help_screen(command, command.format_help)
    if path in EXAMPLES and not command.epilog:
        command.epilog = examples_epilog(EXAMPLES[path])
    for param in command.params:
        _dress_param(param, path)
    # The help option is made when it is first needed, then kept: make it now, with the
    # names above, so that it is dressed like the rest.
    help_option = command.get_help_option(
        command.context_class(command, help_option_names=HELP_OPTIONS))
    if help_option is not None:
        _dress_param(help_option, path)
    loaded = command.lazy.loaded if isinstance(command, CardgenGroup) else getattr(
        command, "commands", {})  # the root's commands are dressed when made
    for name, sub in loaded.items():
        _dress(sub, f"{path} {name}".strip())


# The root's commands in the order its help lists them, each with the summary it shows
# there: the root help screen shows them without importing the commands' modules (a test
# checks them against the commands' own).
SUMMARIES: dict[str, str] = {
    "card": "Print the card: PDF, SVG and PNG files, ready for a print shop.",
    "init": "Write a commented example config to edit.",
    "sheet": "Impose cards N-up on A4 or Letter, for a home or office printer.",
    "rules": "Print the rules of a game, or of all six, as a book or a booklet.",
    "playsheet": "Print grids and tallies per player, for a table short of cards.",
    "referee": "Replay a Node game record and say whether every move is legal.",
    "rotator": "Rotator, the one-player game: show, play, solve and make boards.",
    "connector": "Connector, the puzzle on the card's back: validate, solve, show.",
    "ladder": "Corporate Ladder: check a deck, decide an attack, print a mat.",
    "nodes": "The Node games: play Reflector or Deflector against the computer.",
    "schema": "Print an input file's JSON Schema, for editors and validators.",
    "studio": "See the card as you edit it; try the Connector and Rotator.",
}


class _Commands(MutableMapping[str, Any]):
    """The root's commands by name, each made when first looked up (``[name]``, ``get``,
    ``items``, ``values``), by ``make`` and then dressed for help; its names (``keys``,
    iteration, ``in``) need none made. :data:`SUMMARIES` first, in their order."""

    def __init__(self, made: Mapping[str, Any], make: Callable[[str], Any]) -> None:
        self.loaded: dict[str, Any] = dict(made)
        self._make = make

    def __getitem__(self, name: str) -> Any:
        command = self.loaded.get(name)
        if command is None:
            if name not in SUMMARIES:
                raise KeyError(name)
            command = self.loaded[name] = self._make(name)
            _dress(command, name)
        return command

    def __setitem__(self, name: str, command: Any) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        yield from SUMMARIES
        yield from (name for name in self.loaded if name not in SUMMARIES)

    def __len__(self) -> int:
        return len(SUMMARIES) + sum(name not in SUMMARIES for name in self.loaded)

    def __contains__(self, name: object) -> bool:
        return name in SUMMARIES or name in self.loaded


class CardgenGroup(TyperGroup):
    """The ``cardgen`` group: Typer's, with the help screens set up (see the module), and
    its commands made when first asked for (Click's "lazy loading of subcommands"): a
    command line imports the module of the one command it runs, and the root help screen
    none (it lists :data:`SUMMARIES`). :meth:`load` makes a command (a subclass knows how);
    ``commands`` holds them all, each made when looked up (what walks the tree sees the
    whole tree)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._summaries: dict[str, Any] = {}
        self._listing = False
        super().__init__(*args, **kwargs)
        self.commands = self.lazy = _Commands(self.commands, self.load)
        _dress(self, "")

    def load(self, name: str) -> Any:
        """The command ``name`` of :data:`SUMMARIES`, made."""
        raise NotImplementedError(name)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.lazy)  # (Typer's goes through the items, making every command)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if self._listing and cmd_name in SUMMARIES and cmd_name not in self.lazy.loaded:
            return self._summary(cmd_name)
        return super().get_command(ctx, cmd_name)

    def _summary(self, name: str) -> Any:
        """A stand-in for the command ``name`` in the root's list: its name and summary."""
        from typer.core import TyperCommand

        if name not in self._summaries:
            self._summaries[name] = TyperCommand(name=name, help=SUMMARIES[name],
                                                 short_help=SUMMARIES[name])
        return self._summaries[name]

    def listed(self, ctx: Any) -> list[Any]:
        """The commands the help screen lists: those made, and stand-ins for the rest."""
        with _stand_ins(self):
            return [self.get_command(ctx, name) for name in self.list_commands(ctx)]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with _stand_ins(self):
            super().format_help(ctx, formatter)

    def get_params(self, ctx: Any) -> list[Any]:
        # Typer adds --install-completion and --show-completion after making the group.
        params: list[Any] = super().get_params(ctx)
        for param in params:
            _dress_param(param, "")
        return params
