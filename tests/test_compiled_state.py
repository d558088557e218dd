"""The state compiled for a ruleset (contack_core/engine/compiled.py) does what the readable
GameState does: random games of every shipped ruleset and example, each option set away from its
default, are played by a compiled and a readable state side by side, and at every decision both
list the same actions, apply the one chosen to the same event and the same position, and refuse
the same wrong actions with the same words, changing nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_properties_variants import EXTRA_OPTIONS, RULESETS, option_variants, rules_for

from contack_core import Discard, Draw, GameState, IllegalAction, Pass, Play
from contack_core.engine.compiled import compiled_state_class
from contack_core.engine.rules import Rules

#: A game's decisions compared at most (a board game of pieces can run to its move cap).
MOST_STEPS = 300


def _snapshot(state: GameState) -> dict[str, Any]:
    """Everything a state holds, its position's slots included (its caches of look-ups left out)."""
    seen: dict[str, Any] = {}
    for name in GameState.__slots__:
        value = getattr(state, name, None)
        if name == "figure":
            value = {slot: getattr(value, slot, None) for slot in type(value).__slots__
                     if slot not in ("neighbour_cache", "moves_cache", "neighbours")}
        elif name in ("rules", "_legal", "_sampled"):
            continue
        seen[name] = value
    return seen


def _wrong_actions(state: GameState, rng: random.Random) -> list[Any]:
    """Actions worth trying beside the legal ones: tiles and cells picked at random, and every
    kind of action without a tile."""
    tiles = len(state.rules.tiles)
    cells = sorted(getattr(state.figure, "demands", {})) or [(0, 0)]
    tried: list[Any] = [Play(rng.randrange(tiles), rng.choice(cells)) for _ in range(2)]
    held = [tile for per_seat in state.seat_zones.values() for tile in per_seat[state.current]]
    if held:
        tried.append(Play(rng.choice(held), rng.choice(cells)))
    return [*tried, Pass(), Draw(), Discard(held[0]) if held else Discard(0)]


def _apply_both(fast: GameState, slow: GameState, action: Any) -> None:
    try:
        expected = slow.apply(action)
    except IllegalAction as error:
        before = _snapshot(fast)
        with pytest.raises(IllegalAction) as raised:
            fast.apply(action)
        assert str(raised.value) == str(error)
        assert _snapshot(fast) == before
        return
    assert fast.apply(action) == expected


def _compare_games(rules: Rules, seats: int, games: int, seed: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        fast, slow = GameState(rules, seats), GameState.readable(rules, seats)
        assert type(fast) is rules.state_class and type(slow) is GameState
        steps = 0
        while not slow.over and steps < MOST_STEPS:
            if slow.chance:
                drawn_from = rng.getstate()
                outcome = slow.sample_chance(rng)
                if rng.random() < 0.5:  # the fast state's own draw, applied unchecked by each
                    rng.setstate(drawn_from)
                    own = fast.sample_chance(rng)
                    assert own == outcome
                    assert fast.apply(own) == slow.apply(outcome)
                else:  # the other state's draw, checked as a recorded outcome is
                    assert fast.apply(outcome) == slow.apply(outcome)
                continue
            steps += 1
            legal = slow.legal_actions()
            assert fast.legal_actions() == legal
            assert fast._allowed == slow._allowed
            for action in _wrong_actions(slow, rng):
                _apply_both(fast.clone(), slow.clone(), action)
            _apply_both(fast, slow, legal[rng.randrange(len(legal))])
            assert _snapshot(fast) == _snapshot(slow)
            compared += 1
        assert fast.over == slow.over
    return compared


CASES = [(ruleset, options) for ruleset in RULESETS
         for options in [{}, *option_variants(ruleset, bounds=False), *EXTRA_OPTIONS.get(ruleset, [])]]


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=[f"{r}-{o}" if o else r for r, o in CASES])
def test_the_compiled_state_plays_as_the_readable_one(ruleset: str, options: dict[str, str]) -> None:
    rules = rules_for(ruleset, options)
    low, high = rules.players
    seat_counts = sorted({low, min(high, 4)})
    compared = sum(_compare_games(rules, seats, 4 // len(seat_counts), seed) for seed, seats in enumerate(seat_counts))
    assert compared > 30


def test_a_deal_that_leaves_no_play_ends_the_hand_as_it_is_set_up() -> None:
    """Seed 2949's deal of Solitaire No. 2 leaves no pile top a cell once the opening tile is laid
    (about one deal in a thousand): the set-up's last outcome, each state's own draw, ends the hand
    as blocked, in the compiled state as in the readable one."""
    rules = rules_for("solitaire-2", {})
    ended = []
    for state in (GameState(rules, 1), GameState.readable(rules, 1)):
        rng = random.Random(2949)
        while state.chance:
            state.apply(state.sample_chance(rng))
        assert state.over
        ended.append(state.hand_results)
    assert ended[0] == ended[1] and ended[0][0].reason == "blocked"


def test_every_ruleset_compiles_its_hot_paths() -> None:
    """What the compiled methods spell out for the ruleset, not a call of the readable ones."""
    for ruleset in ("parker-1939", "solitaire-2", "club-contack", "contactack"):
        cls = rules_for(ruleset, {}).state_class
        assert cls.legal_actions is not GameState.legal_actions and cls.apply is not GameState.apply
        names = cls.apply.__code__.co_names
        assert "_play_rule" in names and "_fits_by_demand" in names  # the play rule's statements, inlined


def test_a_name_one_part_assigns_cannot_hide_another_parts_binding() -> None:
    """Two parts of a compiled method share one frame: a local of one must not shadow what another binds."""
    from contack_core.language.programs import Program, build_function

    with pytest.raises(RuntimeError, match="_helper assigned in one part hides"):
        build_function("f", ["_state"], ["_helper = 1", "return _helper"], [Program((), {"_helper": len})])
    with pytest.raises(RuntimeError, match="bound to two different objects"):
        build_function("f", [], ["return _x"], [Program((), {"_x": len}), Program((), {"_x": abs})])


def test_the_class_is_made_once_for_a_ruleset() -> None:
    rules = rules_for("parker-1939", {})
    assert type(GameState(rules, 2)) is type(GameState(rules, 3)) is rules.state_class
    assert compiled_state_class(rules) is not rules.state_class  # made anew only when asked
    state = GameState(rules, 2)
    assert type(state.clone()) is rules.state_class
    assert type(GameState.readable(rules, 2).clone()) is GameState
