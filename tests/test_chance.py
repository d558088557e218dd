"""Unit tests of the seeded chance sampling."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from contack_core.engine.chance import shuffled


@given(st.lists(st.integers(), max_size=40), st.integers(min_value=0))
def test_a_shuffle_is_a_permutation_reproducible_from_the_seed(items: list[int], seed: int) -> None:
    first = shuffled(items, random.Random(seed))
    assert sorted(first) == sorted(items)
    assert shuffled(items, random.Random(seed)) == first


def test_every_order_of_four_is_about_equally_likely() -> None:
    rng = random.Random(3)
    draws = 24_000
    counts = Counter(tuple(shuffled("abcd", rng)) for _ in range(draws))
    assert set(counts) == set(itertools.permutations("abcd"))
    expected = draws / 24
    chi_square = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi_square < 49.7  # the 0.999 quantile of chi-square with 23 degrees of freedom


def test_each_item_lands_in_each_position_about_equally_often() -> None:
    rng = random.Random(5)
    positions = Counter()
    for _ in range(3_600):
        for place, item in enumerate(shuffled(range(36), rng)):
            if item == 0:
                positions[place] += 1
    assert len(positions) == 36
    assert max(positions.values()) < 2 * min(positions.values())


def test_a_sampled_outcome_is_trusted_only_while_the_state_is_where_it_was_drawn() -> None:
    """apply() skips a chance outcome's checks only for the one sample_chance just drew:
    once another action has been applied, the stale outcome is checked like any other."""
    import pytest

    from contack_core import load_rules
    from contack_core.engine.actions import IllegalAction, Shuffle
    from contack_core.engine.state import GameState

    state = GameState(load_rules("parker-1939"), 4)
    stale = state.sample_chance(random.Random(1))
    other = Shuffle(stale.zone, tuple(reversed(stale.order)))  # a recorded shuffle: a new object
    state.apply(other)
    assert state.zones["stock"] == list(other.order)
    with pytest.raises(IllegalAction, match="not a shuffle"):
        state.apply(stale)  # the table is dealing now
    deal = state.sample_chance(random.Random(2))
    twin = state.clone()
    with pytest.raises(IllegalAction, match="dealt 5 tiles"):
        twin.apply(type(deal)(deal.seat, deal.tiles[:4], deal.zone))
    twin.apply(deal)  # the clone checks it (it did not draw it) and takes it
    state.apply(deal)
    assert state.seat_zones["hand"] == twin.seat_zones["hand"]
