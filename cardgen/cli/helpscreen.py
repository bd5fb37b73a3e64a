"""The help screens drawn with Rich's light modules: the same screens, byte for byte, as
Typer's ``rich_utils.rich_format_help`` draws in its ``rich`` markup mode (Typer 0.2x),
without importing ``typer.rich_utils``.

Typer's module imports, at its top, what its other uses need: Rich's Markdown (with
markdown-it) for the ``markdown`` markup mode, and Rich's Traceback (with Pygments) for
pretty exceptions. cardgen uses neither (``rich`` markup, pretty exceptions off), and
those imports alone cost more than importing Typer itself: ``cardgen --help`` would take
twice the time of ``import typer``. This module is the help screen part of Typer's,
written out with the same tables, panels and styles; tests/test_help.py draws every
screen both ways (this one, and Typer's kept as the oracle) at several widths, with
colour on and off, and compares the text. :func:`supported` says whether the installed
Typer has what the screens read (else :mod:`cardgen.cli.helptext` uses Typer's own).

Imported only when a help screen is drawn.
"""

from __future__ import annotations

import inspect
import os
import re
from collections import defaultdict
from collections.abc import Iterable
from gettext import gettext as _
from typing import Any, ClassVar

from rich.align import Align
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.highlighter import RegexHighlighter
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.theme import Theme
from typer.core import TyperArgument, TyperGroup, TyperOption

# Typer's styles and words (typer/rich_utils.py), those the help screens use.
STYLE_OPTION = "bold cyan"
STYLE_SWITCH = "bold green"
STYLE_NEGATIVE_OPTION = "bold magenta"
STYLE_NEGATIVE_SWITCH = "bold red"
STYLE_TYPES = "bold yellow"
STYLE_TYPES_SEPARATOR = "dim"
STYLE_USAGE = "yellow"
STYLE_USAGE_COMMAND = "bold"
STYLE_DEPRECATED = "red"
STYLE_DEPRECATED_COMMAND = "dim"
STYLE_HELPTEXT_FIRST_LINE = ""
STYLE_HELPTEXT = "dim"
STYLE_OPTION_HELP = ""
STYLE_OPTION_DEFAULT = "dim"
STYLE_OPTION_ENVVAR = "dim yellow"
STYLE_REQUIRED_SHORT = "red"
STYLE_REQUIRED_LONG = "dim red"
STYLE_PANEL_BORDER = "dim"
STYLE_COMMANDS_TABLE_FIRST_COLUMN = "bold cyan"
DEPRECATED_STRING = _("(deprecated) ")
DEFAULT_STRING = _("[default: {}]")
ENVVAR_STRING = _("[env var: {}]")
REQUIRED_SHORT_STRING = "*"
REQUIRED_LONG_STRING = _("[required]")
RANGE_STRING = " [{}]"
ARGUMENTS_PANEL_TITLE = _("Arguments")
OPTIONS_PANEL_TITLE = _("Options")
COMMANDS_PANEL_TITLE = _("Commands")
PANEL_NAME = "rich_help_panel"
ANSI_PREFIX = "\033["
# Rich's emoji codes (rich/_emoji_replace.py): a text without one, and without markup,
# is the text itself, so Rich's table of emoji need not be loaded for it.
EMOJI_CODE = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")


class OptionHighlighter(RegexHighlighter):
    """Options, switches, types and the usage line, as Typer highlights them."""

    highlights: ClassVar[list[str]] = [
        r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
        r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
        r"(?P<types>\<[^\>]+\>)",
        r"(?P<usage>Usage: )",
    ]


class NegativeOptionHighlighter(RegexHighlighter):
    highlights: ClassVar[list[str]] = [
        r"(^|\W)(?P<negative_switch>\-\w+)(?![a-zA-Z0-9])",
        r"(^|\W)(?P<negative_option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
    ]


class TypesHighlighter(RegexHighlighter):
    """``[ | ]`` and ``< >`` of a value, dimmed."""

    highlights: ClassVar[list[str]] = [
        r"^(?P<types_sep>(\[|<))",
        r"(?P<types_sep>\|)",
        r"(?P<types_sep>(\]|>))(\.\.\.)?$",
    ]


highlighter = OptionHighlighter()
negative_highlighter = NegativeOptionHighlighter()
types_highlighter = TypesHighlighter()


def supported() -> bool:
    """Whether the installed Typer's parameters have what these screens read (Typer 0.2x)."""
    return all(hasattr(TyperOption, name) for name in (
        "display_type_rich", "_extract_default_help_str", "_get_default_string",
        "_get_number_range_help_str")) and hasattr(TyperArgument, "display_name_raw")


def console() -> Console:
    """The console Typer prints its help to (``rich_utils._get_rich_console``)."""
    terminal_width = os.getenv("TERMINAL_WIDTH")
    force_terminal = (True if os.getenv("GITHUB_ACTIONS") or os.getenv("FORCE_COLOR")
                      or os.getenv("PY_COLORS") else None)
    if os.getenv("_TYPER_FORCE_DISABLE_TERMINAL"):
        force_terminal = False
    return Console(
        theme=Theme({"option": STYLE_OPTION, "switch": STYLE_SWITCH,
                     "negative_option": STYLE_NEGATIVE_OPTION,
                     "negative_switch": STYLE_NEGATIVE_SWITCH, "types": STYLE_TYPES,
                     "types_sep": STYLE_TYPES_SEPARATOR, "usage": STYLE_USAGE}),
        highlighter=highlighter,
        color_system="auto",
        force_terminal=force_terminal,
        width=int(terminal_width) if terminal_width else None,
        stderr=False,
    )


def _markup(text: str, style: str = "") -> Text:
    """``Text.from_markup(text, style=style)``: the text itself when it holds no markup
    and no emoji code (so that Rich's table of emoji is loaded only for a text that may
    hold one)."""
    if "[" not in text and not EMOJI_CODE.search(text):
        return Text(text, style=style)
    return Text.from_markup(text, style=style)


def _rich_text(text: str, style: str = "") -> Text:
    """A text of Rich markup, its indentation taken out, highlighted."""
    text = inspect.cleandoc(text)
    if ANSI_PREFIX in text:
        return highlighter(Text.from_ansi(text, style=style))
    return highlighter(_markup(text, style))


def _help_text(obj: Any) -> Group:
    """The command's own help: its first paragraph, then the rest dimmed."""
    return Group(*_help_parts(obj))


def _help_parts(obj: Any) -> Iterable[Text]:
    if obj.deprecated:
        yield Text(DEPRECATED_STRING, style=STYLE_DEPRECATED)
    help_text = inspect.cleandoc(obj.help or "").partition("\f")[0]
    first_line, *remaining_paragraphs = help_text.split("\n\n")
    if not first_line.startswith("\b"):
        first_line = first_line.replace("\n", " ")
    yield _rich_text(first_line.strip(), STYLE_HELPTEXT_FIRST_LINE)
    if remaining_paragraphs:
        yield Text("")
        yield _rich_text("\n\n".join(remaining_paragraphs), STYLE_HELPTEXT)


def _parameter_help(param: Any, ctx: Any) -> Columns:
    """A parameter's help, its environment variable, default and ``[required]``."""
    items: list[Text] = []
    envvar = getattr(param, "envvar", None)
    var_str = ""
    if envvar is None and (getattr(param, "allow_from_autoenv", None)
                           and getattr(ctx, "auto_envvar_prefix", None) is not None
                           and param.name):
        envvar = f"{ctx.auto_envvar_prefix}_{param.name.upper()}"
    if envvar is not None:
        var_str = envvar if isinstance(envvar, str) else ", ".join(str(d) for d in envvar)
    help_value: str | None = getattr(param, "help", None)
    if help_value:
        paragraphs = [x.replace("\n", " ").strip() if not x.startswith("\b")
                      else "{}\n".format(x.strip("\b\n")) for x in help_value.split("\n\n")]
        items.append(_rich_text("\n".join(paragraphs).strip(), STYLE_OPTION_HELP))
    if envvar and getattr(param, "show_envvar", None):
        items.append(Text(ENVVAR_STRING.format(var_str), style=STYLE_OPTION_ENVVAR))
    if isinstance(param, TyperOption | TyperArgument):
        default_value = param._extract_default_help_str(ctx=ctx)
        show_default_is_str = isinstance(param.show_default, str)
        if show_default_is_str or (
                default_value is not None and (param.show_default or ctx.show_default)):
            default_str = param._get_default_string(
                ctx=ctx, show_default_is_str=show_default_is_str,
                default_value=default_value)
            if default_str:
                items.append(Text(DEFAULT_STRING.format(default_str),
                                  style=STYLE_OPTION_DEFAULT))
    if param.required:
        items.append(Text(REQUIRED_LONG_STRING, style=STYLE_REQUIRED_LONG))
    return Columns(items)


def _options_panel(name: str, params: list[Any], ctx: Any, out: Console) -> None:
    options_rows: list[list[RenderableType]] = []
    required_rows: list[str | Text] = []
    for param in params:
        opt_long_strs: list[str] = []
        opt_short_strs: list[str] = []
        secondary_opt_long_strs: list[str] = []
        secondary_opt_short_strs: list[str] = []
        display_name: str | None = None
        if isinstance(param, TyperArgument):
            display_name = param.display_name_raw
            if param.metavar is None and param.nargs != 1:
                display_name += "..."
        for opt_str in param.opts:
            if "--" in opt_str:
                opt_long_strs.append(opt_str)
            else:
                opt_short_strs.append(display_name or opt_str)
        for opt_str in param.secondary_opts:
            if "--" in opt_str:
                secondary_opt_long_strs.append(opt_str)
            else:
                secondary_opt_short_strs.append(display_name or opt_str)
        types_data = Text(style=STYLE_TYPES, overflow="fold")
        display_type_str = param.display_type_rich(ctx=ctx)
        if display_type_str is not None:
            types_data.append(display_type_str)
        range_str = param._get_number_range_help_str()
        if range_str:
            types_data.append(RANGE_STRING.format(range_str))
        required: str | Text = ""
        if param.required:
            required = Text(REQUIRED_SHORT_STRING, style=STYLE_REQUIRED_SHORT)
        required_rows.append(required)
        options_rows.append([
            highlighter(",".join(opt_long_strs)),
            highlighter(",".join(opt_short_strs)),
            negative_highlighter(",".join(secondary_opt_long_strs)),
            negative_highlighter(",".join(secondary_opt_short_strs)),
            types_highlighter(types_data),
            _parameter_help(param, ctx),
        ])
    if not options_rows:
        return
    rows: list[list[RenderableType]] = options_rows
    if any(required_rows):
        rows = [[required, *row] for required, row in zip(required_rows, options_rows,
                                                            strict=True)]
    table = Table(highlight=True, show_header=False, expand=True, box=None,
                  show_lines=False, leading=0, border_style=None, row_styles=None,
                  pad_edge=False, padding=(0, 1))
    for row in rows:
        table.add_row(*row)
    out.print(Panel(table, border_style=STYLE_PANEL_BORDER, title=_markup(name),
                    title_align="left"))


def _commands_panel(name: str, commands: list[Any], out: Console, cmd_len: int) -> None:
    table = Table(highlight=False, show_header=False, expand=True, box=None,
                  show_lines=False, leading=0, border_style=None, row_styles=None,
                  pad_edge=False, padding=(0, 1))
    table.add_column(style=STYLE_COMMANDS_TABLE_FIRST_COLUMN, no_wrap=True, width=cmd_len)
    table.add_column("Description", justify="left", no_wrap=False, ratio=10)
    rows: list[list[RenderableType | None]] = []
    deprecated_rows: list[RenderableType | None] = []
    for command in commands:
        helptext = command.short_help or command.help or ""
        command_name = command.name or ""
        if command.deprecated:
            command_name_text = Text(f"{command_name}", style=STYLE_DEPRECATED_COMMAND)
            deprecated_rows.append(Text(DEPRECATED_STRING, style=STYLE_DEPRECATED))
        else:
            command_name_text = Text(command_name)
            deprecated_rows.append(None)
        rows.append([command_name_text, _command_help(helptext)])
    if any(deprecated_rows):
        rows = [[*row, deprecated] for row, deprecated in zip(rows, deprecated_rows,
                                                               strict=True)]
    for row in rows:
        table.add_row(*row)
    if table.row_count:
        out.print(Panel(table, border_style=STYLE_PANEL_BORDER, title=_markup(name),
                        title_align="left"))


def _command_help(help_text: str) -> Text:
    """A command's line in its group's list: the first paragraph of its help."""
    paragraphs = inspect.cleandoc(help_text).split("\n\n")
    if paragraphs[0].startswith("\b"):
        paragraphs[0] = paragraphs[0].replace("\b\n", "")
    return _rich_text(paragraphs[0].strip(), STYLE_OPTION_HELP)


def format_help(obj: Any, ctx: Any) -> None:
    """Print the help screen of ``obj`` (a command or group) as Typer's
    ``rich_format_help`` does in the ``rich`` markup mode."""
    out = console()
    out.print(Padding(highlighter(obj.get_usage(ctx)), 1), style=STYLE_USAGE_COMMAND)
    if obj.help:
        out.print(Padding(Align(_help_text(obj), pad=False), (0, 1, 1, 1)))
    panel_to_arguments: defaultdict[str, list[Any]] = defaultdict(list)
    panel_to_options: defaultdict[str, list[Any]] = defaultdict(list)
    for param in obj.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        if isinstance(param, TyperArgument):
            panel = getattr(param, PANEL_NAME, None) or ARGUMENTS_PANEL_TITLE
            panel_to_arguments[panel].append(param)
        elif isinstance(param, TyperOption):
            panel = getattr(param, PANEL_NAME, None) or OPTIONS_PANEL_TITLE
            panel_to_options[panel].append(param)
    for title, panels in ((ARGUMENTS_PANEL_TITLE, panel_to_arguments),
                          (OPTIONS_PANEL_TITLE, panel_to_options)):
        _options_panel(title, panels.get(title, []), ctx, out)
        for panel, params in panels.items():
            if panel != title:
                _options_panel(panel, params, ctx, out)
    if isinstance(obj, TyperGroup):
        panel_to_commands: defaultdict[str, list[Any]] = defaultdict(list)
        for command_name in obj.list_commands(ctx):
            command = obj.get_command(ctx, command_name)
            if command and not command.hidden:
                panel = getattr(command, PANEL_NAME, None) or COMMANDS_PANEL_TITLE
                panel_to_commands[panel].append(command)
        max_cmd_len = max((len(command.name or "") for commands in panel_to_commands.values()
                           for command in commands), default=0)
        _commands_panel(COMMANDS_PANEL_TITLE, panel_to_commands.get(COMMANDS_PANEL_TITLE, []),
                        out, max_cmd_len)
        for panel, commands in panel_to_commands.items():
            if panel != COMMANDS_PANEL_TITLE:
                _commands_panel(panel, commands, out, max_cmd_len)
    if obj.epilog:
        epilogue = "\n\n".join(obj.epilog.split("\n\n"))
        out.print(Padding(Align(_rich_text(epilogue), pad=False), 1))
