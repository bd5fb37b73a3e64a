"""Assembly files: which game, which card size, and where each copy of the card lies.

```toml
game = "reflector"   # rotator | reflector | deflector | defector
preset = "eu"        # the card size the placements are for (eu | us)
[[card]]             # in stacking order, bottom first
x = 0.0              # mm: centre of the folded card on the table, y pointing down
y = 0.0
rotation = 0         # degrees clockwise: 0, 90, 180 or 270
tabs = "open"        # "open" or "folded"
```

:func:`read_assembly` checks a file against this schema and reports every problem in
one :class:`~cardgen.errors.ConfigError`; :func:`assembly_toml` writes the same schema
back, byte for byte the same for the same assembly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.connector.model import Assembly, Placement, Tabs
from cardgen.datafile import read_toml
from cardgen.errors import number, quoted
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import Preset
from cardgen.resources import templates_dir
from cardgen.schema import Choice, Custom, Number, Records, Table, check

MAX_CARDS = 24  # far more than any game needs players
MAX_OFFSET = 2000.0  # mm: no card lies further than this from the table's origin


def _rotation(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value not in ROTATIONS:
        shown = number(value) if isinstance(value, int | float) and not isinstance(
            value, bool) else quoted(value)
        raise ValueError(f"must be 0, 90, 180 or 270 (degrees clockwise), not {shown}")
    return int(value)


ROTATIONS = (0, 90, 180, 270)

CARD = Table({
    "x": Number("centre, mm to the right", low=-MAX_OFFSET, high=MAX_OFFSET),
    "y": Number("centre, mm down", low=-MAX_OFFSET, high=MAX_OFFSET),
    "rotation": Custom(_rotation, "0, 90, 180 or 270", "degrees clockwise", default=0,
                       schema={"enum": list(ROTATIONS)}),
    "tabs": Choice(Tabs, '"open" or "folded"', default=Tabs.OPEN),
})

ASSEMBLY = Table({
    "game": Choice(CONNECTOR_GAMES, "the game whose description the cards spell"),
    "preset": Choice(Preset, "the card size the placements are for", default=Preset.EU),
    "card": Records(CARD, "the cards, bottom first", min_items=1, max_items=MAX_CARDS,
                    missing="needs at least one [[card]] entry (the cards, bottom first)."),
})


def shipped_assembly_path(game: GameName, preset: Preset) -> Path:
    """The assembly cardgen ships for a game and card size (not read by the validator or
    the solver: ``connector show`` draws them, tests check them)."""
    suffix = "" if preset is Preset.EU else f"-{preset.value}"
    return templates_dir() / "connector" / f"{game.value}{suffix}.toml"


def read_assembly(path: Path) -> Assembly:
    """The assembly in ``path``; a ConfigError naming every problem."""
    return assembly_from_data(read_toml(path, "assembly file"), str(path))


def assembly_from_data(data: dict[str, Any], label: str) -> Assembly:
    """The assembly in parsed TOML data (see :func:`read_assembly`); errors name
    ``label``."""
    values = check(ASSEMBLY, data, label)
    return Assembly(values["game"], values["preset"].value, tuple(
        Placement(c["x"], c["y"], c["rotation"], c["tabs"]) for c in values["card"]))


def assembly_toml(assembly: Assembly, comment: str = "") -> str:
    """The assembly as an assembly file (``comment`` lines first, each with ``# ``)."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines += [f'game = "{assembly.game.value}"', f'preset = "{assembly.preset}"']
    for card in assembly.cards:
        lines += ["", "[[card]]", f"x = {_mm(card.x)}", f"y = {_mm(card.y)}",
                  f"rotation = {card.rotation}", f'tabs = "{card.tabs.value}"']
    return "\n".join(lines) + "\n"


def _mm(value: float) -> str:
    text = f"{round(value, 3):.3f}".rstrip("0")
    text = text + "0" if text.endswith(".") else text
    return "0.0" if text in ("-0.0", "0.0") else text
