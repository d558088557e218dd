"""Which games a tournament plays: round-robin meetings, each on duplicate deals.

Every combination of entrants of a table size is a *meeting*. Each meeting plays the same
``deals`` shuffles (a deal is a seed for the game's chance: the same seed gives the same
tiles in the same order in every hand, whoever sits where). A deal is replayed under every
cyclic rotation of the meeting's seating, so each entrant sits in each seat exactly once
per deal; odd deals start from the reversed order, so over two deals of a three-seat table
every seating occurs and who-follows-whom is balanced too. Luck of the deal and the seat
order so cancel out. Solitaire tables (size 1) are the same thing: every entrant alone on
the same deals, ranked against the others per deal afterwards.

A game's identity is its deal seed plus its seating; its result depends on nothing else.
Each bot's seed comes from the deal and the entrant (:func:`bot_seed`), not from the seat,
so a bot that follows its own random stream does not replay its neighbour's game when the
seating rotates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb

import attrs


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


def deal_seed(tournament_seed: int, table_size: int, deal_index: int) -> int:
    """The seed of one deal: shared by every meeting of that table size, independent of the others."""
    digest = hashlib.sha256(f"contack-deal/{tournament_seed}/{table_size}/{deal_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits: fits SQLite's INTEGER


def bot_seed(deal_seed_value: int, entrant_name: str) -> int:
    """The seed of an entrant's bot in one deal: the same in every rotation of that deal."""
    digest = hashlib.sha256(f"contack-bot/{deal_seed_value}/{entrant_name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seatings(meeting: Sequence[int], deal_index: int) -> list[tuple[int, ...]]:
    """The balanced rotations a deal is played under: each entrant in each seat once."""
    base = tuple(meeting) if deal_index % 2 == 0 else tuple(reversed(meeting))
    return [base[shift:] + base[:shift] for shift in range(len(base))]


def games_per_deal(entrant_count: int, table_sizes: Sequence[int]) -> int:
    """How many games one deal index stands for: every meeting of every size, under every rotation."""
    return sum(comb(entrant_count, size) * size for size in table_sizes)


def iter_schedule(entrant_count: int, table_sizes: Sequence[int], deals: int, seed: int) -> Iterator[GameSpec]:
    """Every game of the tournament, deal by deal, so a run stopped early is still balanced;
    made as it is consumed, so a long schedule takes no memory."""
    for deal_index in range(deals):
        for size in table_sizes:
            seed_of_deal = deal_seed(seed, size, deal_index)
            for meeting in combinations(range(entrant_count), size):
                for rotation, seating in enumerate(seatings(meeting, deal_index)):
                    yield GameSpec(seed_of_deal, seating, deal_index, meeting, rotation)


def schedule(entrant_count: int, table_sizes: Sequence[int], deals: int, seed: int) -> list[GameSpec]:
    """Every game of the tournament, as a list (see :func:`iter_schedule`)."""
    return list(iter_schedule(entrant_count, table_sizes, deals, seed))
