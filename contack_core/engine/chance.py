"""Chance sampling from a caller's seeded RNG, and the chance node a hand may reach in play
(:class:`ShuffleDue`).

:func:`shuffled` orders the items by independent uniform random keys, with the keys
drawn and the sort done in C. ``random.shuffle`` asks the generator once a position
through Python code; a hand's set-up shuffles on every hand of every playout, so this
costs about half as much. Two keys tie with probability under ``n**2 / 2**53``, so every
order is equally likely to within that.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from functools import partial
from itertools import repeat, starmap
from typing import TYPE_CHECKING, TypeVar

import attrs

from contack_core.engine.actions import Action, IllegalAction, Shuffle, make_shuffle

if TYPE_CHECKING:
    from contack_core.engine.events import Shuffled
    from contack_core.engine.state import GameState

T = TypeVar("T")


def shuffled(items: Iterable[T], rng: random.Random) -> list[T]:
    """A uniformly random permutation of ``items``, reproducible from ``rng``'s state: the i-th
    item is sorted by the i-th key drawn (the sort works out every key, in order, before it
    compares any), each key handed over by ``next`` on the stream of draws."""
    return sorted(items, key=partial(next, starmap(rng.random, repeat(()))))


def derived_seed(kind: str, *parts: object) -> int:
    """A seed derived one-way from ``parts`` (a game's seed and a seat, say), labelled by ``kind``
    so that different uses never share a stream: SHA-256 of ``kind/part/part...``, 63 bits (it
    fits SQLite's INTEGER and a record's integer limit).

    One-way so that a bot given a derived seed cannot compute the seed it came from, and so the
    shuffles of its game; seeds derived from neighbouring parts are unrelated. (It can only guess:
    a small seed such as 7 is found by trying seeds one by one, so against untrusted bots the
    game's seed should be unguessable.)
    """
    digest = hashlib.sha256("/".join([kind, *map(str, parts)]).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@attrs.define
class ShuffleDue:
    """A chance node in the middle of a hand: the face-down pile ``zone`` is to be shuffled (a
    house action's ``shuffle`` effect). It keeps the set-up step's contract
    (:class:`contack_core.engine.slots.SetupStep`), so the state, the referee, the bots and the
    record readers treat it as any chance node; once it is applied, play resumes where it was.
    As with a set-up shuffle, the order stays hidden and a record never states it."""

    zone: str
    key: str = "shuffle"
    chance: bool = True
    accepts: tuple[type[Action], ...] = (Shuffle,)

    @property
    def shuffles(self) -> str:
        return self.zone

    def enter(self, state: GameState) -> None:
        """Nothing to prepare: the pile is shuffled as it lies."""

    def sample(self, state: GameState, rng: random.Random) -> Shuffle:
        return make_shuffle(self.zone, tuple(shuffled(state.zones[self.zone], rng)))

    def legal(self, state: GameState) -> list[Action]:
        return []

    def apply(self, state: GameState, action: Action) -> Shuffled:
        if not isinstance(action, Shuffle) or action.zone != self.zone:
            raise IllegalAction(self.explain(state))
        event = state._shuffle(self.zone, action.order)
        state._resume_play()
        return event

    def apply_sampled(self, state: GameState, action: Shuffle) -> Shuffled:
        event = state._shuffle(self.zone, action.order, checked=False)
        state._resume_play()
        return event

    def explain(self, state: GameState) -> str:
        return f"{self.zone} is being shuffled: expected a shuffle of {self.zone}"

    def check_domain(self, hands: int, players: tuple[int, int]) -> None:
        """Nothing read from the hands before."""

    def takes(self, seats: int) -> dict[str, int]:
        return {}

    def gives(self) -> dict[str, int]:
        return {}
