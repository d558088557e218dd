"""Which games a tournament plays: round-robin meetings, each on duplicate deals.

Every combination of entrants of a table size is a *meeting*. Each meeting plays the same
``deals`` shuffles (a deal is a seed for the game's chance: the same seed gives the same
tiles in the same order in every hand, whoever sits where). A deal is replayed under every
cyclic rotation of the meeting's seating, so each entrant sits in each seat exactly once
per deal; odd deals start from the reversed order, so over two deals of a three-seat table
every seating occurs and who-follows-whom is balanced too. Luck of the deal and the seat
order so cancel out. Solitaire tables (size 1) are the same thing: every entrant alone on
the same deals, ranked against the others per deal afterwards.

A tournament may name its tables instead (:class:`Table`, an analysis does): the entrants
at each, and whether the deal is replayed under every rotation of them or played once as
they sit.

A game's identity is its deal seed plus its seating; its result depends on nothing else.
Each bot's seed comes from the deal and the entrant (:func:`bot_seed`), not from the seat,
so a bot that follows its own random stream does not replay its neighbour's game when the
seating rotates.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from math import comb
from typing import Any

import attrs

from contack_core.engine.chance import derived_seed


@attrs.frozen
class GameSpec:
    """One game to play: its identity (``deal_seed`` + ``seating``) and where it sits in the schedule."""

    deal_seed: int
    seating: tuple[int, ...]  # the entrant (index into the config's entrants) in each seat
    deal_index: int
    meeting: tuple[int, ...]  # the entrants at the table, in their base order
    rotation: int

    @property
    def key(self) -> str:
        """The identity as text: unique in a tournament, and the name of the game's record."""
        return f"{self.deal_seed:016x}-" + ".".join(map(str, self.seating))

    @property
    def table_size(self) -> int:
        return len(self.seating)


@attrs.frozen
class Table:
    """A table a tournament names: its entrants in their base seat order, and whether each deal is
    replayed under every rotation of them (``rotate``) or played once, as they sit."""

    entrants: tuple[int, ...]
    rotate: bool = True

    def to_json(self) -> dict[str, object]:
        return {"entrants": list(self.entrants), "rotate": self.rotate}


#: The tables of each size a tournament names (instead of every combination of its entrants).
Tables = Mapping[int, Sequence[Table]]


def tables_from_json(document: Mapping[str, Any] | None) -> Tables | None:
    """The tables of a stored config document (:meth:`Table.to_json` per size), None where it names none."""
    if document is None:
        return None
    return {int(size): tuple(Table(tuple(t["entrants"]), bool(t["rotate"])) for t in tables)
            for size, tables in document.items()}


def deal_seed(tournament_seed: int, table_size: int, deal_index: int) -> int:
    """The seed of one deal: shared by every meeting of that table size, independent of the others."""
    return derived_seed("contack-deal", tournament_seed, table_size, deal_index)


def bot_seed(deal_seed_value: int, entrant_name: str) -> int:
    """The seed of an entrant's bot in one deal: the same in every rotation of that deal, and one-way
    (:func:`~contack_core.engine.chance.derived_seed`), so the bot cannot recover the deal from it."""
    return derived_seed("contack-bot", deal_seed_value, entrant_name)


def seatings(meeting: Sequence[int], deal_index: int) -> list[tuple[int, ...]]:
    """The balanced rotations a deal is played under: each entrant in each seat once."""
    base = tuple(meeting) if deal_index % 2 == 0 else tuple(reversed(meeting))
    return [base[shift:] + base[:shift] for shift in range(len(base))]


def tables_of(entrant_count: int, size: int, tables: Tables | None = None) -> Sequence[Table]:
    """The tables of one size: those named, or every combination of the entrants, each rotated."""
    if tables is not None:
        return tables.get(size, ())
    return [Table(meeting) for meeting in combinations(range(entrant_count), size)]


def games_per_deal(entrant_count: int, table_sizes: Sequence[int], tables: Tables | None = None) -> int:
    """How many games one deal index stands for: every meeting of every size, under every rotation."""
    if tables is None:
        return sum(comb(entrant_count, size) * size for size in table_sizes)
    return sum(size if table.rotate else 1 for size in table_sizes for table in tables.get(size, ()))


def iter_schedule(entrant_count: int, table_sizes: Sequence[int], deals: int, seed: int,
                  tables: Tables | None = None) -> Iterator[GameSpec]:
    """Every game of the tournament, deal by deal, so a run stopped early is still balanced;
    made as it is consumed, so a long schedule takes no memory."""
    for deal_index in range(deals):
        for size in table_sizes:
            seed_of_deal = deal_seed(seed, size, deal_index)
            for table in tables_of(entrant_count, size, tables):
                if not table.rotate:
                    yield GameSpec(seed_of_deal, table.entrants, deal_index, table.entrants, 0)
                    continue
                for rotation, seating in enumerate(seatings(table.entrants, deal_index)):
                    yield GameSpec(seed_of_deal, seating, deal_index, table.entrants, rotation)


def schedule(entrant_count: int, table_sizes: Sequence[int], deals: int, seed: int,
             tables: Tables | None = None) -> list[GameSpec]:
    """Every game of the tournament, as a list (see :func:`iter_schedule`)."""
    return list(iter_schedule(entrant_count, table_sizes, deals, seed, tables))
