"""The player interface and how the CLI finds players (entry-point group ``contack.players``).

A player is a class with a ``name``, constructed with a ``seed`` and keyword parameters,
whose :meth:`Player.choose` returns one of the legal actions. The full interface (views,
budgets, faults) is the players issue's; this is the part playing and benchmarking need.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from contack_core.actions import Action
    from contack_core.state import GameState

ENTRY_POINT_GROUP = "contack.players"


class Player:
    """Base class of bots: choose one of ``state.legal_actions()`` for the current seat."""

    name: ClassVar[str] = "player"

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        if params:
            raise PlayerSpecError(f"player {self.name!r} takes no parameters; got {', '.join(params)}")
        self.seed = seed

    def choose(self, state: GameState) -> Action:
        raise NotImplementedError


class PlayerSpecError(ValueError):
    """An unknown player or a bad parameter in a seat specification."""


def installed_players() -> dict[str, Any]:
    """Entry points of the ``contack.players`` group, by name."""
    return {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}


#: The seat prefix of an external program: ``exec:COMMAND`` (the player registered as ``exec``).
EXEC = "exec"


def _split_outside_quotes(text: str) -> list[str]:
    """Split at commas that are not inside single or double quotes (the quotes are kept)."""
    pieces, current, quote = [], [], ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            pieces.append("".join(current))
            current = []
            continue
        current.append(char)
    pieces.append("".join(current))
    return pieces


def split_seats(text: str) -> list[str]:
    """``"mcts:iterations=400,c=2,greedy,random"`` -> ["mcts:iterations=400,c=2", "greedy", "random"].

    A comma separates seats; a piece that is only ``key=value`` continues the seat before it
    (but never an ``exec:`` seat, which takes no parameters). A comma inside quotes separates
    nothing, so an external command keeps its commas when the whole seat is quoted
    (``"exec:python bot.py 1,2",random``) or the argument is (``exec:python bot.py "1,2",random``).
    """
    seats: list[str] = []
    for piece in (p.strip() for p in _split_outside_quotes(text)):
        if len(piece) >= 2 and piece[0] == piece[-1] and piece[0] in "'\"":
            piece = piece[1:-1].strip()  # a whole seat in quotes: "exec:python bot.py 1,2"
        if "=" in piece and ":" not in piece and seats and not seats[-1].startswith(EXEC + ":"):
            seats[-1] += "," + piece
        else:
            seats.append(piece)
    return seats


def parse_seat(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=400,c=1.4"`` -> ("mcts", {"iterations": "400", "c": "1.4"})."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise PlayerSpecError(f"seat {spec!r}: parameters are written key=value")
        params[key.strip()] = value.strip()
    if not name:
        raise PlayerSpecError("an empty seat: name a player for every seat")
    return name, params


def make_player(spec: str, seed: int | str | None, available: Mapping[str, Any] | None = None) -> Player:
    """Build the player a seat specification names, or raise PlayerSpecError saying what exists."""
    available = installed_players() if available is None else available
    if spec.strip().startswith(EXEC + ":") and EXEC in available:
        entry = available[EXEC]
        cls = entry.load() if hasattr(entry, "load") else entry
        return cls(seed=seed, command=spec.strip()[len(EXEC) + 1:])
    name, params = parse_seat(spec)
    entry = available.get(name)
    if entry is None:
        known = ", ".join(sorted(available)) or "none installed"
        raise PlayerSpecError(f"unknown player {name!r} (installed players: {known})")
    cls = entry.load() if hasattr(entry, "load") else entry
    return cls(seed=seed, **params)
