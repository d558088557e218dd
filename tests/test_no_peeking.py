"""No peeking, proven: a bot's choice does not change when the tiles its seat cannot see are put in
another order (same seed), over every ruleset that hides something and every INSTALLED bot (the
entry points of ``contack.players``, plugins included, read when the tests are collected); and a
one-ply bot that looks ahead on a plain clone would be caught by the same check."""

from __future__ import annotations

import random

import pytest
from helpers import loaded_rules, permute_hidden
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import GameState, load_rules
from contack_core.engine.actions import Draw, Play
from contack_core.engine.bots import Player, installed_players, load_player_class, make_player
from contack_core.engine.information import Visibility
from contack_core.engine.rules import Rules
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from players.protocol import legal_json, position_json

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Installed bots checked at settings other than their defaults (cheap enough for a property test),
#: each setting that changes how it looks at the state.
SETTINGS = {"mcts": ["mcts:iterations=25", "mcts:iterations=25,rollout=random"]}
#: Installed bots this in-process check cannot run, and why. They are not unchecked: what an exec
#: bot is sent is checked below (it sees nothing else), and a person sees the narration only.
NOT_IN_PROCESS = {
    "exec": "an external program: its choice can depend only on the messages it is sent, and "
            "test_what_an_exec_bot_is_sent_does_not_depend_on_what_its_seat_cannot_see checks those",
    "human": "a person at a terminal, who is shown the seat's own view",
}


def installed_bot_specs() -> list[object]:
    """A seat specification for every installed bot (several where its settings differ), the ones
    that cannot run here marked skipped with the reason."""
    specs: list[object] = []
    for name in sorted(installed_players()):
        if name in NOT_IN_PROCESS:
            specs.append(pytest.param(name, marks=pytest.mark.skip(reason=f"{name}: {NOT_IN_PROCESS[name]}")))
        else:
            specs.extend(SETTINGS.get(name, [name]))
    return specs


BOTS = installed_bot_specs()


def hiding_rulesets() -> list[str]:
    """Every shipped ruleset and example in which some seat cannot see some tile."""
    return [r for r in [*shipped_ruleset_ids(), *shipped_example_ids()] if Visibility.of(loaded_rules(r)).hides_anything]


def test_the_rulesets_that_hide_something_are_found() -> None:
    found = hiding_rulesets()
    assert {"parker-1939", "solitaire-1", "solitaire-2", "club-contack"} <= set(found)
    assert "klauber-1937" not in found  # the whole board is seen: nothing to peek at


def test_every_installed_bot_is_checked_or_skipped_with_its_reason() -> None:
    checked = {spec.partition(":")[0] for spec in BOTS if isinstance(spec, str)}
    skipped = {param.values[0] for param in BOTS if not isinstance(param, str)}  # type: ignore[attr-defined]
    assert checked | skipped == set(installed_players())
    assert skipped == set(NOT_IN_PROCESS) & set(installed_players())
    assert {"random", "greedy", "cautious", "mcts"} <= checked


def decision_point(rules: Rules, seed: int) -> GameState:
    """A decision of a seeded random game, with more than one legal action, and something hidden."""
    rng = random.Random(seed)
    seats = rules.players[0] if rules.players[1] == 1 else max(2, rules.players[0])
    for _ in range(200):
        state = GameState(rules, seats)
        steps = rng.randrange(0, 60)
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if steps <= 0 and len(state.legal_actions()) > 1 and hidden(state):
                return state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps -= 1
    raise AssertionError("no decision point with something hidden")


def hidden(state: GameState) -> list[tuple[list[int], int]]:
    return Visibility.of(state.rules).hidden_runs(state, state.current)


def choice(spec: str, rules: Rules, state: GameState, seed: int) -> object:
    player = make_player(spec, seed, rules=rules)
    player.start_game(rules, state.current, state.seat_count)
    return player.choose(state)


@pytest.mark.parametrize("ruleset", hiding_rulesets())
@pytest.mark.parametrize("spec", BOTS)
@PROPERTY
@given(seed=SEEDS, shuffle=SEEDS)
def test_a_bots_choice_does_not_depend_on_what_its_seat_cannot_see(ruleset: str, spec: str, seed: int,
                                                                   shuffle: int) -> None:
    rules = loaded_rules(ruleset)
    why = load_player_class(spec.partition(":")[0]).cannot_play(rules)
    if why is not None:
        pytest.skip(f"{spec} does not play {ruleset} ({why})")
    state = decision_point(rules, seed)
    other = permute_hidden(state, state.current, random.Random(shuffle))
    assert other.observation(other.current) == state.observation(state.current)
    assert choice(spec, rules, state, seed) == choice(spec, rules, other, seed)


@pytest.mark.parametrize("ruleset", hiding_rulesets())
@PROPERTY
@given(seed=SEEDS, shuffle=SEEDS)
def test_what_an_exec_bot_is_sent_does_not_depend_on_what_its_seat_cannot_see(ruleset: str, seed: int,
                                                                            shuffle: int) -> None:
    """An exec bot sees only the "position" message (and the observations of decisions, which are
    public): the position and its legal actions, as sent, are the same whatever the hidden order."""
    rules = loaded_rules(ruleset)
    state = decision_point(rules, seed)
    other = permute_hidden(state, state.current, random.Random(shuffle))
    assert position_json(other) == position_json(state)
    assert legal_json(rules, other.legal_actions()) == legal_json(rules, state.legal_actions())


class CloningOnePly(Player):
    """A one-ply bot that looks ahead on a plain ``clone()``: it draws on the copy to see whether the
    drawn tile could be played at once, and draws only then. This is peeking."""

    name = "cloning-one-ply"

    def choose(self, state: GameState) -> object:
        legal = state.legal_actions()
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        if draw is not None:
            ahead = state.clone()
            drawn = ahead.apply(draw).tile
            if any(isinstance(a, Play) and a.tile == drawn for a in ahead.legal_actions()):
                return draw
        return next((a for a in legal if not isinstance(a, Draw)), legal[0])


class ResamplingOnePly(CloningOnePly):
    """The same bot looking ahead on ``resample()``, as a bot must."""

    name = "resampling-one-ply"

    def choose(self, state: GameState) -> object:
        return CloningOnePly.choose(self, state.resample(state.current, random.Random(0)))  # type: ignore[arg-type]


def test_looking_ahead_on_a_clone_is_caught_and_on_a_resampled_state_is_not() -> None:
    """Contactack lets a seat draw while it could still play: the peeking bot's choice follows the
    pile's true order, so permuting what it cannot see changes it; resampled, it never does."""
    rules = load_rules("contactack")
    caught = 0
    for seed in range(150):
        state = decision_point(rules, seed)
        if not any(isinstance(a, Draw) for a in state.legal_actions()):
            continue
        for shuffle in range(6):
            other = permute_hidden(state, state.current, random.Random(shuffle))
            caught += CloningOnePly(0).choose(state) != CloningOnePly(0).choose(other)
            resampling = ResamplingOnePly(0)
            assert resampling.choose(state) == resampling.choose(other)
    assert caught > 0, "the check would not notice a bot that peeks"
