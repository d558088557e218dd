"""Who sees what: visibility as ruleset data, observations, and states resampled from them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import permute_hidden, random_playout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import GameState, RulesetError, load_rules
from contack_core.engine.information import Visibility
from contack_core.engine.rules import Rules
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CLOSED_HANDS = """\
format: contack-ruleset/1
id: closed-hands
title: Parker 1939 with each hand seen by its owner only
extends: parker-1939
zones:
  hand: {primitive: hand, visible: owner}
"""


@pytest.fixture(scope="module")
def closed_hands(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    path = tmp_path_factory.mktemp("rules") / "closed-hands.yaml"
    path.write_text(CLOSED_HANDS)
    return load_rules(str(path))


def every_ruleset() -> list[str]:
    return [*shipped_ruleset_ids(), *shipped_example_ids()]


def mid_game(rules: Rules, seed: int) -> GameState:
    """A decision point of a random game of ``rules`` with the fewest seats (not over, not chance)."""
    rng = random.Random(seed)
    seats = max(rules.players[0], 2) if rules.players[1] >= 2 else 1
    while True:
        state = GameState(rules, seats)
        random_playout(state, rng, rng.randrange(1, 60))
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        if not state.is_over():
            return state


def hidden_tiles(state: GameState, observer: int) -> list[int]:
    runs = Visibility.of(state.rules).hidden_runs(state, observer)
    return sorted(tile for tiles, hidden in runs for tile in tiles[:hidden])


# ------------------------------------------------------------------------ what the rulesets say
def test_each_shipped_ruleset_states_who_sees_what() -> None:
    assert Visibility.of(load_rules("parker-1939")).describe() == {
        "stock": "only how many tiles", "hand": "every tile, to every seat"}
    assert Visibility.of(load_rules("solitaire-1")).describe() == {
        "stock": "only how many tiles", "discard": "every tile, to every seat", "hand": "every tile, to every seat"}
    solitaire_2 = Visibility.of(load_rules("solitaire-2")).describe()
    assert {solitaire_2[f"pile-{n}"] for n in range(1, 7)} == {"the top tile; of the rest only how many"}
    assert solitaire_2["six-pile"] == "the top tile; of the rest only how many"
    klauber = Visibility.of(load_rules("klauber-1937"))
    assert klauber.describe() == {} and not klauber.hides_anything  # the whole board, seen by all


def test_a_face_down_pile_seen_by_anyone_is_refused_at_load(tmp_path: Path) -> None:
    path = tmp_path / "peek.yaml"
    path.write_text("format: contack-ruleset/1\nid: peek\ntitle: t\nextends: parker-1939\n"
                    "zones:\n  stock: {primitive: pile, visible: top}\n")
    with pytest.raises(RulesetError, match=r"zones\.stock\.visible.*face-down pile is seen by nobody"):
        load_rules(str(path))


def test_visible_is_checked_by_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text("format: contack-ruleset/1\nid: odd\ntitle: t\nextends: parker-1939\n"
                    "zones:\n  hand: {primitive: hand, visible: sometimes}\n")
    with pytest.raises(RulesetError, match="sometimes"):
        load_rules(str(path))


# ------------------------------------------------------------------------ observations
def test_an_observation_shows_what_the_seat_sees_and_hides_the_rest(closed_hands: Rules) -> None:
    state = mid_game(closed_hands, 3)
    seat = state.current
    seen = state.observation(seat)
    assert seen["stock"] == (None,) * len(state.zones["stock"])
    for owner, tiles in enumerate(state.seat_zones["hand"]):
        assert seen["hand"][owner] == (tuple(tiles) if owner == seat else (None,) * len(tiles))
    stacks = mid_game(load_rules("solitaire-2"), 4)
    for key, tiles in stacks.zones.items():
        view = stacks.observation(0)[key]
        assert view == ((None,) * (len(tiles) - 1) + (tiles[-1],) if tiles else ())


# ------------------------------------------------------------------------ resampling
@pytest.mark.parametrize("ruleset", every_ruleset())
@PROPERTY
@given(seed=SEEDS, draw=SEEDS)
def test_a_resampled_state_looks_the_same_to_its_observer(ruleset: str, seed: int, draw: int) -> None:
    state = mid_game(load_rules(ruleset), seed)
    seat = state.current
    world = state.resample(seat, random.Random(draw))
    assert world.observation(seat) == state.observation(seat)
    assert world.figure.tile_at == state.figure.tile_at
    assert world.legal_actions() == state.legal_actions()
    assert hidden_tiles(world, seat) == hidden_tiles(state, seat)  # the same tiles, redrawn among the places


@PROPERTY
@given(seed=SEEDS, draw=SEEDS)
def test_closed_hands_are_redrawn_with_the_pile_and_keep_their_sizes(closed_hands: Rules, seed: int,
                                                                      draw: int) -> None:
    state = mid_game(closed_hands, seed)
    seat = state.current
    world = state.resample(seat, random.Random(draw))
    assert world.observation(seat) == state.observation(seat)
    assert [len(h) for h in world.seat_zones["hand"]] == [len(h) for h in state.seat_zones["hand"]]
    assert world.seat_zones["hand"][seat] == state.seat_zones["hand"][seat]
    assert hidden_tiles(world, seat) == hidden_tiles(state, seat)
    assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("ruleset", ["parker-1939", "solitaire-1", "solitaire-2", "club-contack"])
@PROPERTY
@given(seed=SEEDS, draw=SEEDS, shuffle=SEEDS)
def test_a_resampled_state_does_not_depend_on_where_the_hidden_tiles_truly_lie(
        ruleset: str, seed: int, draw: int, shuffle: int) -> None:
    state = mid_game(load_rules(ruleset), seed)
    seat = state.current
    permuted = permute_hidden(state, seat, random.Random(shuffle))
    a, b = state.resample(seat, random.Random(draw)), permuted.resample(seat, random.Random(draw))
    assert a.zones == b.zones and a.seat_zones == b.seat_zones


def test_resampling_draws_every_hidden_order_and_keeps_the_true_one_out_of_reach() -> None:
    state = mid_game(load_rules("parker-1939"), 11)
    seat = state.current
    tops = {state.resample(seat, random.Random(draw)).zones["stock"][-1] for draw in range(400)}
    assert tops == set(state.zones["stock"])  # any unseen tile may come next
    klauber = mid_game(load_rules("klauber-1937"), 2)
    world = klauber.resample(klauber.current, random.Random(0))
    assert world.figure.tile_at == klauber.figure.tile_at and world.legal_actions() == klauber.legal_actions()
