"""The player interface and the built-in bots: parameters, rulesets, legality, choices."""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

import pytest
from helpers import RULES, random_playout, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import GameState, load_rules
from contack_core.engine.actions import Draw, Pass, Play
from contack_core.engine.bots import (
    Budget,
    Parameter,
    Player,
    PlayerSpecError,
    make_player,
    parse_seat,
    rulesets_note,
)
from contack_core.engine.referee import play_game
from players.cautious import CautiousPlayer
from players.greedy import GreedyPlayer
from players.mcts import MctsPlayer

BUILT_IN = ("random", "greedy", "cautious", "mcts", "human")


def points_of(state: GameState, action) -> int:
    """Reference: the points a play makes, read from the event the engine returns."""
    if not isinstance(action, Play):
        return 0
    return state.clone().apply(action).points


def mid_game(seed: int, seats: int, steps: int) -> GameState:
    state = GameState(RULES, seats)
    random_playout(state, random.Random(seed), steps)
    while state.is_chance_node():
        state.apply(state.sample_chance(random.Random(seed)))
    return state


# ------------------------------------------------------------------------------ interface
class Tunable(Player):
    name = "tunable"
    parameters: ClassVar[dict[str, Parameter]] = {
        "depth": Parameter("depth", int, 2, "how deep"),
        "rate": Parameter("rate", float, 0.5, "how fast"),
        "loud": Parameter("loud", bool, False, "talk"),
        "style": Parameter("style", str, "calm", "manner"),
    }

    def choose(self, state):
        return state.legal_actions()[0]


class OtherGamesOnly(Tunable):
    name = "elsewhere"
    supports = frozenset({"klauber-1937"})


AVAILABLE = {"tunable": Tunable, "elsewhere": OtherGamesOnly}


def test_parameters_are_parsed_from_text_with_defaults_for_the_rest():
    player = make_player("tunable:depth=5,loud=on,rate=2", seed=1, available=AVAILABLE)
    assert player.params == {"depth": 5, "rate": 2.0, "loud": True, "style": "calm"}
    assert make_player("tunable", seed=1, available=AVAILABLE).params["depth"] == 2


def test_parameters_from_a_config_keep_their_types_and_ints_widen_to_floats():
    assert Tunable(seed=0, depth=3, rate=1, loud=False).params == {"depth": 3, "rate": 1.0, "loud": False,
                                                                    "style": "calm"}
    with pytest.raises(PlayerSpecError, match=r"depth takes a whole number, not 2.5 \(float\)"):
        Tunable(seed=0, depth=2.5)


@pytest.mark.parametrize("spec, expected", [
    ("tunable:depth=deep", "depth takes a whole number, not 'deep'"),
    ("tunable:loud=maybe", r"loud takes true/false \(on/off\), not 'maybe'"),
    ("tunable:rate=fast", "rate takes a number"),
])
def test_a_bad_value_says_what_the_parameter_takes(spec, expected):
    with pytest.raises(PlayerSpecError, match=expected):
        make_player(spec, seed=1, available=AVAILABLE)


def test_play_game_refuses_a_player_that_does_not_play_the_ruleset():
    """Through the API too, not only by name: a bot written for Klauber is refused a Parker game."""
    with pytest.raises(PlayerSpecError, match="seat 1: player 'elsewhere' does not play parker-1939"):
        play_game(RULES, [Tunable(seed=0), OtherGamesOnly(seed=0)], 1)
    assert play_game(load_rules("klauber-1937"), [OtherGamesOnly(seed=0), OtherGamesOnly(seed=1)], 1,
                     budget=None).turns > 0


def test_an_unknown_parameter_lists_the_parameters_with_defaults():
    with pytest.raises(PlayerSpecError) as error:
        make_player("tunable:width=3", seed=1, available=AVAILABLE)
    message = str(error.value)
    assert "no parameter 'width'" in message
    assert "depth (default 2)" in message and "style (default calm)" in message


def test_an_unknown_player_lists_the_installed_ones():
    with pytest.raises(PlayerSpecError, match=r"unknown player 'nobody' \(installed players: .*greedy.*mcts"):
        make_player("nobody", seed=1)


def test_a_bot_refuses_a_ruleset_it_does_not_support():
    with pytest.raises(PlayerSpecError, match="'elsewhere' does not play parker-1939.*klauber-1937"):
        make_player("elsewhere", seed=1, available=AVAILABLE, rules=RULES)
    assert make_player("tunable", seed=1, available=AVAILABLE, rules=RULES)


def test_a_variant_that_extends_a_supported_ruleset_is_supported(tmp_path: Path):
    variant = tmp_path / "gentle.yaml"
    variant.write_text("format: contack-ruleset/1\nid: gentle\ntitle: Gentle\nextends: parker-1939\n"
                       "options:\n  tile_penalty: {default: 5}\n", encoding="utf-8")
    rules = load_rules(variant)
    for name in ("greedy", "cautious", "mcts"):
        assert make_player(name, seed=1, rules=rules).supports_rules(rules)


def test_seat_specifications_split_into_name_and_parameters():
    assert parse_seat("mcts:iterations=400,c=1.4") == ("mcts", {"iterations": "400", "c": "1.4"})


def test_players_list_shows_package_parameters_defaults_and_rulesets():
    result = run_cli("players", "list")
    assert result.exit_code == 0
    for name in BUILT_IN:
        assert f"{name}  (from contack)" in result.output
    assert "iterations=400" in result.output and "weight=1.0" in result.output
    lines = result.output.splitlines()
    for name in ("random", "greedy", "cautious", "mcts", "human"):
        heading = next(i for i, line in enumerate(lines) if line.startswith(f"{name}  (from contack)"))
        assert lines[heading + 1] == "    rulesets: every ruleset", name


def test_a_bot_that_cannot_play_a_ruleset_says_why_from_its_features():
    class BoardsOnly(Tunable):
        name = "boards-only"

        @classmethod
        def cannot_play(cls, rules):
            return None if rules.board.name == "square-grid" else "it moves pieces on a square grid only"

    everything = [load_rules(r) for r in ("parker-1939", "klauber-1937", "solitaire-1")]
    assert rulesets_note(BoardsOnly, everything) == ("every ruleset but parker-1939 (it moves pieces on a square "
                                                     "grid only); solitaire-1 (it moves pieces on a square grid only)")
    with pytest.raises(PlayerSpecError, match=r"does not play parker-1939 \(it moves pieces on a square grid"):
        make_player("boards-only", 1, available={"boards-only": BoardsOnly}, rules=RULES)
    assert rulesets_note(Tunable, everything) == "every ruleset"
    assert rulesets_note(OtherGamesOnly, everything) == "klauber-1937 and the rulesets that extend them"


@pytest.mark.parametrize("seats, expected", [
    ("greedy,mcts:iterations=lots", "iterations takes a whole number, not 'lots'"),
    ("greedy,mcts:breadth=3", "no parameter 'breadth'"),
    ("greedy,wizard", "unknown player 'wizard'"),
    ("greedy,mcts:rollout=smart", "rollout is 'random' or 'greedy'"),
])
def test_cli_play_rejects_bad_seats_cleanly(seats, expected):
    result = run_cli("play", "parker-1939", "--seats", seats)
    assert result.exit_code == 1
    assert expected in result.output


# ------------------------------------------------------------------------------ every bot is legal
BOT_SPECS = ("random", "greedy", "cautious", "cautious:weight=0.5", "mcts:iterations=20",
             "mcts:iterations=20,rollout=random")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 7), steps=st.integers(0, 120),
       spec=st.sampled_from(BOT_SPECS))
def test_every_bot_returns_a_legal_action(seed, seats, steps, spec):
    state = mid_game(seed, seats, steps)
    if state.is_over():
        return
    player = make_player(spec, seed=seed, rules=RULES)
    player.start_game(RULES, state.current_seat(), seats)
    before = state.clone()
    assert player.choose(state) in state.legal_actions()
    assert state.figure.tile_at == before.figure.tile_at and state.zones == before.zones, "the bot changed the state"


def test_the_random_bot_picks_as_random_choice_does_from_its_seed():
    """Its spelt-out pick is ``Random(seed).choice(legal)``: uniform, the same stream."""
    bot, reference = make_player("random", seed=11, rules=RULES), random.Random(11)
    state = GameState(RULES, 4)
    chance = random.Random(5)
    picks = 0
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(chance))
            continue
        legal = state.legal_actions()
        chosen = bot.choose(state)
        assert chosen is reference.choice(legal)
        state.apply(chosen)
        picks += 1
    assert picks > 50


@pytest.mark.parametrize("spec", ["greedy", "cautious", "mcts:iterations=30"])
@pytest.mark.parametrize("seats", [2, 4, 7])
def test_whole_games_between_bots_finish(spec, seats):
    players = [make_player(spec if s % 2 == 0 else "random", seed=s, rules=RULES) for s in range(seats)]
    state = play_game(RULES, players, seed=seats)
    assert state.is_over() and not state.faults and len(state.hand_results) == 3


# ------------------------------------------------------------------------------ greedy
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 5), steps=st.integers(0, 80))
def test_greedy_takes_the_highest_immediate_score(seed, seats, steps):
    state = mid_game(seed, seats, steps)
    if state.is_over():
        return
    legal = state.legal_actions()
    chosen = GreedyPlayer(seed=0).choose(state)
    assert points_of(state, chosen) == max(points_of(state, a) for a in legal)


def test_greedy_breaks_ties_by_shedding_the_heaviest_tile():
    # Hunt positions whose best plays tie on points with different tiles: the heaviest wins.
    values = RULES.tiles.values
    checked = 0
    for seed in range(200):
        state = mid_game(seed, 3, seed % 40)
        plays = [a for a in state.legal_actions() if isinstance(a, Play)] if not state.is_over() else []
        if not plays:
            continue
        top = max(points_of(state, a) for a in plays)
        best = [a for a in plays if points_of(state, a) == top]
        if len({sum(values[a.tile]) for a in best}) < 2:
            continue
        chosen = GreedyPlayer(seed=0).choose(state)
        assert sum(values[chosen.tile]) == max(sum(values[a.tile]) for a in best)
        checked += 1
    assert checked >= 3, "too few tied positions found to test the tie-break"


# ------------------------------------------------------------------------------ cautious
def immediate_worth(state: GameState, action) -> int:
    """What an action is worth to the seat taking it in Parker 1939, from the rule book: a play's
    points, and each tile let go spares the 10 a tile held costs at the hand's end; a draw costs a
    tile more; a pass nothing."""
    penalty = RULES.options["tile_penalty"]
    if isinstance(action, Play):
        return points_of(state, action) + penalty
    return -penalty if isinstance(action, Draw) else 0


def reference_cautious_value(state: GameState, action, weight: float) -> float:
    """The action's worth minus ``weight`` times the next seat's best immediate reply."""
    me = state.current_seat()
    after = state.clone()
    gained = immediate_worth(state, action)
    after.apply(action)
    if after.is_over() or after.is_chance_node() or after.current_seat() == me:
        return gained
    replies = [immediate_worth(after, reply) for reply in after.legal_actions()]
    return gained - weight * max(replies, default=0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 5), steps=st.integers(0, 80))
def test_cautious_maximises_points_minus_the_next_seats_best_reply(seed, seats, steps):
    state = mid_game(seed, seats, steps)
    if state.is_over():
        return
    chosen = CautiousPlayer(seed=0).choose(state)
    values = [reference_cautious_value(state, a, 1.0) for a in state.legal_actions()]
    assert reference_cautious_value(state, chosen, 1.0) == max(values)


def test_cautious_gives_up_points_to_deny_the_next_player_more():
    found = 0
    for seed in range(300):
        state = mid_game(seed, 2, seed % 50)
        if state.is_over() or len(state.legal_actions()) < 2:
            continue
        greedy, cautious = GreedyPlayer(seed=0).choose(state), CautiousPlayer(seed=0).choose(state)
        if greedy == cautious:
            continue
        assert points_of(state, cautious) <= points_of(state, greedy)
        careful, grabbing = (reference_cautious_value(state, a, 1.0) for a in (cautious, greedy))
        assert careful >= grabbing
        found += careful > grabbing
    assert found >= 3, "no position found where looking one ply ahead changes the play"


# ------------------------------------------------------------------------------ mcts
def test_mcts_is_deterministic_given_seed_and_iterations():
    def game(seed: int) -> tuple[list[int], list]:
        players = [MctsPlayer(seed=seed, iterations=40), make_player("greedy", seed=1)]
        state = play_game(RULES, players, seed=9)
        return state.scores(), [r.scores for r in state.hand_results]

    assert game(3) == game(3)


def test_mcts_never_reads_the_pile_order():
    for seed in range(8):
        state = mid_game(seed, 3, 10 + seed * 5)
        if state.is_over() or len(state.legal_actions()) < 2:
            continue
        reordered = state.clone()
        random.Random(seed).shuffle(reordered.zones["stock"])
        first = MctsPlayer(seed=5, iterations=60)
        second = MctsPlayer(seed=5, iterations=60)
        first.start_game(RULES, state.current_seat(), 3)
        second.start_game(RULES, state.current_seat(), 3)
        assert first.choose(state) == second.choose(reordered)


def test_mcts_stops_at_the_lower_of_its_own_and_the_games_iteration_limit(monkeypatch):
    calls = []
    original = MctsPlayer._iterate
    monkeypatch.setattr(MctsPlayer, "_iterate", lambda self, *args: (calls.append(1), original(self, *args)))
    state = next(s for s in (mid_game(seed, 2, 6) for seed in range(50)) if len(s.legal_actions()) > 1)
    bot = MctsPlayer(seed=1, iterations=50)
    bot.choose(state)
    assert len(calls) == 50
    calls.clear()
    bot.budget = Budget(iterations=7)
    bot.choose(state)
    assert len(calls) == 7


def test_mcts_stops_on_its_time_limit_before_its_iterations():
    state = next(s for s in (mid_game(seed, 4, 6) for seed in range(50)) if len(s.legal_actions()) > 1)
    bot = MctsPlayer(seed=1, iterations=10**9, time=0.05)
    assert bot.choose(state) in state.legal_actions()


def test_mcts_rejects_a_zero_iteration_budget():
    with pytest.raises(PlayerSpecError, match="iterations must be at least 1"):
        make_player("mcts:iterations=0", seed=1)


def test_the_draw_and_pass_of_a_forced_turn_are_returned_as_they_are():
    # A seat with no play has exactly one legal action (draw or pass): every bot returns it.
    for seed in range(100):
        state = mid_game(seed, 4, 30 + seed)
        if state.is_over():
            continue
        legal = state.legal_actions()
        if len(legal) == 1 and isinstance(legal[0], Draw | Pass):
            for spec in ("greedy", "cautious", "mcts:iterations=5"):
                assert make_player(spec, seed=1).choose(state) is legal[0]
            return
    pytest.fail("no forced draw or pass found")


def test_mcts_on_a_board_of_many_moves_tries_the_one_that_gains_most_first():
    """Where a position offers more moves than ``width``, a node's untried moves are expanded
    in the order of what they gain at once (then widened progressively): with one iteration
    the capture among some thirty quiet moves is the one tried, whatever the seed."""
    from test_klauber import TWO, position

    state = position([(0, "red", TWO, (4, 4), 0), (0, "red", TWO, (10, 4), 0), (0, "red", TWO, (12, 8), 0),
                      (1, "blue", TWO, (3, 7), 0), (1, "blue", TWO, (15, 15), 0)])
    assert len(state.legal_actions()) > MctsPlayer.parameters["width"].default
    for seed in range(5):
        bot = MctsPlayer(seed=seed, iterations=1)
        bot.start_game(state.rules, 0, 2)
        after = state.clone()
        after.apply(bot.choose(state))
        assert (3, 7) not in after.figure.tile_at, f"seed {seed}: the capture was not tried first"
