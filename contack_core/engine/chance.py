"""Chance sampling from a caller's seeded RNG.

:func:`shuffled` orders the items by independent uniform random keys, with the keys
drawn and the sort done in C. ``random.shuffle`` asks the generator once a position
through Python code; a hand's set-up shuffles on every hand of every playout, so this
costs about half as much. Two keys tie with probability under ``n**2 / 2**53``, so every
order is equally likely to within that.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import repeat, starmap
from typing import TypeVar

T = TypeVar("T")


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A uniformly random permutation of ``items``, reproducible from ``rng``'s state."""
    keys = list(starmap(rng.random, repeat((), len(items))))
    return list(map(items.__getitem__, sorted(range(len(items)), key=keys.__getitem__)))
