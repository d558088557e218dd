"""Events: what happened when an action was applied, as narrations and records need it."""

from __future__ import annotations

from typing import Any

import attrs

from contack_core.lattice import Cell


@attrs.frozen(slots=True)
class Played:
    """A tile laid on the figure. ``opportunity``: it touched two or more tiles."""

    seat: int
    tile: int
    cell: Cell
    points: int
    contacts: int
    opportunity: bool


@attrs.frozen(slots=True)
class Drew:
    seat: int
    tile: int


@attrs.frozen(slots=True)
class Passed:
    seat: int


@attrs.frozen(slots=True)
class Dealt:
    seat: int
    tiles: tuple[int, ...]


@attrs.frozen(slots=True)
class Shuffled:
    zone: str


@attrs.frozen
class HandResult:
    """How a hand ended: the end rule that fired, each seat's net score and tiles held,
    and the figure as it lay at the end (for narration and pictures)."""

    number: int
    reason: str
    scores: tuple[int, ...]
    held: tuple[int, ...]
    went_out: int | None
    figure: Any = attrs.field(eq=False, repr=False)


Event = Played | Drew | Passed | Dealt | Shuffled
