"""A replayed play (a record's, applied with no list of legal actions asked for first) is
judged exactly as a chosen one: the same event and state when legal, the same refusal when
not. Where the play rule has no condition, the engine then skips listing every legal action."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import GameState, IllegalAction, Play, load_rules
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids

RULES = {ruleset: load_rules(ruleset) for ruleset in [*shipped_ruleset_ids(), *shipped_example_ids()]}
TILE_RULESETS = [ruleset for ruleset, rules in RULES.items() if rules.placement is not None]


def _outcome(state: GameState, action: Play, listed_first: bool) -> tuple:
    if listed_first:
        state.legal_actions()
    try:
        event = state.apply(action)
    except IllegalAction as error:
        return ("refused", str(error))
    return ("applied", event, state.scores(), sorted(state.figure.tile_at.items()), state.current,
            {name: list(tiles) for name, tiles in state.zones.items()},
            {name: [list(tiles) for tiles in per_seat] for name, per_seat in state.seat_zones.items()})


def test_parker_plays_skip_the_list_of_legal_actions() -> None:
    assert RULES["parker-1939"].unconditional_play is not None


def _compare_along_a_game(ruleset: str, seed: int) -> int:
    """Play a random game; at every decision try replaying plays (legal ones and random ones)
    both ways on copies. Returns how many plays were compared."""
    rules = RULES[ruleset]
    rng = random.Random(seed)
    state = GameState(rules, max(rules.players[0], min(3, rules.players[1])))
    compared = 0
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        unlisted = state.clone()  # before anyone asks for the legal actions (a copy keeps them)
        legal = state.legal_actions()
        cells = sorted(set(state.figure.tile_at) | {(0, 0), (1, 0), (0, 1), (-1, 0)})
        candidates = [Play(rng.randrange(len(rules.tiles)), rng.choice(cells))]
        placeable = next(rule for rule in rules.turn if rule.action_type is Play).generate(state)  # whatever its when
        candidates += rng.sample(placeable, min(2, len(placeable)))
        for action in candidates:
            assert _outcome(unlisted.clone(), action, False) == _outcome(unlisted.clone(), action, True), action
            compared += 1
        state.apply(rng.choice(legal))
    return compared


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(TILE_RULESETS), seed=st.integers(0, 10_000))
def test_a_replayed_play_is_judged_as_a_chosen_one(ruleset: str, seed: int) -> None:
    _compare_along_a_game(ruleset, seed)


@pytest.mark.parametrize("ruleset", TILE_RULESETS)
def test_every_tile_ruleset_compares_plays_along_a_game(ruleset: str) -> None:
    assert _compare_along_a_game(ruleset, 7) > 20


def test_a_play_rule_with_a_condition_is_judged_with_the_list(tmp_path: Path) -> None:
    """Where the play rule has a ``when``, the condition is worked out as for a chosen play."""
    variant = tmp_path / "careful.yaml"
    variant.write_text("extends: parker-1939\nid: careful\nturn:\n  play:\n    when: \"hand_count > 3\"\n",
                       encoding="utf-8")
    RULES["careful"] = load_rules(variant)
    assert RULES["careful"].unconditional_play is None
    assert _compare_along_a_game("careful", 3) > 20
