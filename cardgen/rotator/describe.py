"""A played line in words and as plain data (for answer keys, ``solve`` and JSON)."""

from __future__ import annotations

from cardgen.rotator.board import card_name
from cardgen.rotator.engine import GRAVITY, TurnReport

# Gravity as arrows on the card opened flat, grid A away from the player.
ARROWS = {(0, 1): "↓", (1, 0): "→", (0, -1): "↑", (-1, 0): "←"}
GRAVITY_WORDS = {(0, 1): "down", (1, 0): "right", (0, -1): "up", (-1, 0): "left"}
assert set(ARROWS) == set(GRAVITY)


def _names(cells: list[tuple[int, int]]) -> list[str]:
    return [card_name(c) for c in cells]


def turn_text(report: TurnReport, nodes: tuple[tuple[int, int], ...]) -> str:
    """One turn in words, e.g. "Turn 3 ↑: fall 2, drill A:C5, boost 1 (A:C6)"."""
    parts = []
    if report.start is not None:
        parts.append(f"start from {card_name(report.start)}")
    if report.fall:
        parts.append(f"fall {len(report.fall)}")
    if report.lost:
        parts.append(f"{card_name(report.end)} collapses under you: lost")
    if report.drill is not None:
        parts.append(f"drill {card_name(report.drill)}")
    if report.boosted:
        parts.append(f"boost {len(report.boosted)} ({', '.join(_names(report.boosted))})")
    if report.captured is not None:
        parts.append(f"capture the Node at {card_name(nodes[report.captured])}")
    if report.fall_after:
        parts.append(f"fall {len(report.fall_after)}")
    if not parts:
        parts.append("no move")
    text = f"Turn {report.turn} {ARROWS[report.gravity]}: " + ", ".join(parts)
    if report.won:
        text += f"; reach the far Row 10 at {card_name(report.end)}: won"
    return text


def turn_record(report: TurnReport, nodes: tuple[tuple[int, int], ...]) -> dict:
    """One turn as JSON-ready data in card notation."""
    return {
        "turn": report.turn,
        "gravity": GRAVITY_WORDS[report.gravity],
        "start": card_name(report.start) if report.start is not None else None,
        "fall": _names(report.fall),
        "drill": card_name(report.drill) if report.drill is not None else None,
        "boost": _names(report.boosted),
        "capture": card_name(nodes[report.captured]) if report.captured is not None else None,
        "fall_after": _names(report.fall_after),
        "end": card_name(report.end),
        "won": report.won,
        "text": turn_text(report, nodes),
    }
