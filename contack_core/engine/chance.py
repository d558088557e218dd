"""Chance sampling from a caller's seeded RNG.

:func:`shuffled` orders the items by independent uniform random keys, with the keys
drawn and the sort done in C. ``random.shuffle`` asks the generator once a position
through Python code; a hand's set-up shuffles on every hand of every playout, so this
costs about half as much. Two keys tie with probability under ``n**2 / 2**53``, so every
order is equally likely to within that.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from itertools import repeat, starmap
from typing import TypeVar

T = TypeVar("T")


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A uniformly random permutation of ``items``, reproducible from ``rng``'s state."""
    keys = list(starmap(rng.random, repeat((), len(items))))
    return list(map(items.__getitem__, sorted(range(len(items)), key=keys.__getitem__)))


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
