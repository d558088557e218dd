"""Actions: what a seat (or chance) does. Small immutable value types.

Player actions are :class:`Play`, :class:`Draw`, :class:`Discard`, :class:`Pass`, on a
board of pieces :class:`Move`, and :class:`HouseAction` (an action a ruleset declares for itself);
chance
actions are :class:`Shuffle` and :class:`Deal` (and, where a set-up step opens the figure
with a tile taken at random, a :class:`Play`). ``Draw(None)`` asks to draw the next tile of an
ordered pile; ``Draw(tile)`` names it (as a record typed in at a real table does).
"""

from __future__ import annotations

import attrs

from contack_core.boards.lattice import Cell
from contack_core.language.quick import quick_constructor

#: The seat number :meth:`GameState.current_seat` returns at a chance node.
CHANCE = -1


@attrs.frozen(slots=True, weakref_slot=False)
class Play:
    """Place ``tile`` on ``cell`` of the figure."""

    tile: int
    cell: Cell


@attrs.frozen(slots=True, weakref_slot=False)
class Draw:
    """Draw a tile into the seat's hand (``tile`` is None until it is revealed)."""

    tile: int | None = None


@attrs.frozen(slots=True, weakref_slot=False)
class Discard:
    """Lay ``tile`` aside on a discard pile, face up: on ``zone``, where the rule offers more
    than one pile (None: the rule's only pile)."""

    tile: int
    zone: str | None = None


@attrs.frozen(slots=True, weakref_slot=False)
class Pass:
    """Give up the turn."""


@attrs.frozen(slots=True, weakref_slot=False)
class Move:
    """Move the piece standing on ``origin`` along ``path``, one point per single step
    (a board game's move; the piece then turns as its rules say)."""

    origin: tuple[int, int]
    path: tuple[tuple[int, int], ...]


@attrs.frozen(slots=True, weakref_slot=False)
class HouseAction:
    """An action of the ruleset's own (a ``house-action`` turn rule, named by its key ``rule``):
    ``tile`` is the tile of the seat's zone it returns, where the rule has the seat choose one;
    ``drawn`` names the tiles it draws, as a record typed in at a real table does (None: the top
    of the pile, as a player always draws: a player never names them)."""

    rule: str
    tile: int | None = None
    drawn: tuple[int, ...] | None = None


@attrs.frozen(slots=True, weakref_slot=False)
class Shuffle:
    """Chance: put ``zone`` in the order ``order`` (top of the pile last)."""

    zone: str
    order: tuple[int, ...]


@attrs.frozen(slots=True, weakref_slot=False)
class Deal:
    """Chance: give ``tiles`` from the deal's source zone to ``seat``, or lay them face up
    on the shared ``zone`` (a stack) when ``seat`` is None."""

    seat: int | None
    tiles: tuple[int, ...]
    zone: str | None = None


Action = Play | Draw | Discard | Pass | Move | HouseAction | Shuffle | Deal
PASS = Pass()
DRAW = Draw()


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message says which rule forbids it."""

make_deal = quick_constructor(Deal)
make_shuffle = quick_constructor(Shuffle)
