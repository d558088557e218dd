"""Events: what happened when an action was applied, as narrations and records need it.

Events are made on every action of every playout, so they are slotted attrs classes that
are not frozen (frozen attrs construction costs four times as much, measured); treat them
as read-only values all the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from contack_core.boards.lattice import Cell
from contack_core.language.quick import quick_constructor

if TYPE_CHECKING:
    from contack_core.boards.grid import Contact
    from contack_core.engine.slots import Position


@attrs.define(slots=True, weakref_slot=False)
class Played:
    """A tile laid on the figure. ``opportunity``: it touched two or more tiles."""

    seat: int
    tile: int
    cell: Cell
    points: int
    contacts: int
    opportunity: bool
    #: The zone the tile came from, when the play rule offers more than one.
    source: str | None = None


@attrs.define(slots=True, weakref_slot=False)
class Drew:
    seat: int
    tile: int


@attrs.define(slots=True, weakref_slot=False)
class Discarded:
    seat: int
    tile: int
    zone: str


@attrs.define(slots=True, weakref_slot=False)
class ChipsMoved:
    """Chips changing hands as a consequence of a play: ``payer`` to ``payee`` (None is
    the bank). ``reason`` says why: ``collect`` (a counting contact), ``loan``, or
    ``penalty`` (a cost paid to the bank at the end of a hand)."""

    payer: int | None
    payee: int | None
    count: int
    reason: str


@attrs.define(slots=True, weakref_slot=False)
class Moved:
    """A piece moved on a board of pieces: from ``origin`` along ``path``, then turned to
    ``turn`` quarter turns; ``contacts`` (:class:`contack_core.boards.grid.Contact`) were settled,
    ``removed`` the points whose pieces left the board (the mover's own last, if it went),
    ``flipped``: it was turned over on a ringed point. ``piece``: its id on the board."""

    seat: int
    piece: int
    origin: tuple[int, int]
    path: tuple[tuple[int, int], ...]
    turn: int
    contacts: tuple[Contact, ...]
    removed: tuple[tuple[int, int], ...]
    flipped: bool


@attrs.define(slots=True, weakref_slot=False)
class HouseActed:
    """A ruleset's own action (its turn rule ``rule``) taken by ``seat``: ``tile`` the tile it chose
    to return (None when the rule chooses none), ``returned`` every tile it put back on a pile and
    ``drawn`` every tile it drew, in order, ``amount`` what its cost added to the rule's counter,
    ``shuffled`` the pile it left to be shuffled (None: none; chance then orders it, unrecorded) and
    ``taken`` every tile it took back off the figure."""

    seat: int
    rule: str
    tile: int | None
    returned: tuple[int, ...]
    drawn: tuple[int, ...]
    amount: int = 0
    shuffled: str | None = None
    taken: tuple[int, ...] = ()


@attrs.define(slots=True, weakref_slot=False)
class Passed:
    seat: int


@attrs.define(slots=True, weakref_slot=False)
class Dealt:
    seat: int | None
    tiles: tuple[int, ...]
    zone: str | None = None


@attrs.define(slots=True, weakref_slot=False)
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
    figure: Position = attrs.field(eq=False, repr=False)


Event = Played | Drew | Discarded | ChipsMoved | Moved | HouseActed | Passed | Dealt | Shuffled

make_played = quick_constructor(Played)
make_drew = quick_constructor(Drew)
make_passed = quick_constructor(Passed)
make_dealt = quick_constructor(Dealt)
make_shuffled = quick_constructor(Shuffled)
make_moved = quick_constructor(Moved)
make_hand_result = quick_constructor(HandResult)
make_chipsmoved = quick_constructor(ChipsMoved)
