"""Generic features of a position (``GameState.features``) and the bots that weigh them: on
Klauber's board the built-in bots close in, take, and finish games well before the move cap,
knowing nothing of the variant."""

from __future__ import annotations

import random

import pytest
from test_klauber import TWO, position

from contack_core import Feature, GameState, load_rules
from contack_core.engine.actions import Move
from contack_core.engine.bots import make_player
from contack_core.engine.referee import play_game, seat_seed
from players.evaluation import feature_score, lead, leads, measure, standing, worth
from players.greedy import GreedyPlayer
from players.mcts import MctsPlayer

#: Red (seat 0) on (4, 4) takes the blue piece on (3, 7) by moving to (4, 6); blue on (3, 7) can take back.
CAPTURE = [(0, "red", TWO, (4, 4), 0), (0, "red", TWO, (10, 4), 0), (0, "red", TWO, (12, 8), 0),
           (1, "blue", TWO, (3, 7), 0), (1, "blue", TWO, (15, 15), 0)]


def test_a_board_of_pieces_exports_distances_and_pieces_under_attack():
    features = position(CAPTURE).features()
    assert list(features) == ["under_attack", "contact_distance", "total_distance"]
    # (4, 4) to (3, 7): 1 + 3 steps, the nearest pair of either side.
    assert features["contact_distance"].values == (4, 4)
    # Red: 4 from (4, 4), 10 from (10, 4) to (3, 7), 10 from (12, 8) to either; blue: 4, and 3 + 7 from (15, 15).
    assert features["total_distance"].values == (24, 14)
    assert features["under_attack"].values[1] == 1  # the blue piece on (3, 7)
    assert features["under_attack"].contested and not features["contact_distance"].contested
    assert all(f.better == "lower" for f in features.values())


def test_under_attack_counts_only_what_a_move_can_take():
    far = position([(0, "red", TWO, (2, 2), 0), (1, "blue", TWO, (12, 12), 0)]).features()
    assert far["under_attack"].values == (0, 0)
    assert far["contact_distance"].values == (20, 20) and far["total_distance"].values == (20, 20)


def test_features_are_signed_so_that_more_is_better():
    feature = Feature((3.0, 5.0), "lower", "steps")
    assert feature.good(0) == -3.0 and feature.good(1) == -5.0
    assert Feature((3.0, 5.0), "higher", "pieces").good(1) == 5.0


def test_a_ruleset_without_features_is_judged_by_its_count_alone():
    state = GameState(load_rules("parker-1939"), 2)
    assert state.features() == {}
    assert feature_score(state, 0) == 0.0


def test_the_features_of_the_mover_lead_a_greedy_bot_towards_contact_where_random_wanders():
    state = position([(0, "red", TWO, (8, 2), 0), (1, "blue", TWO, (8, 14), 0)])
    before = state.features()["contact_distance"].values[0]

    def distance_after(action: Move) -> int:
        after = state.clone()
        after.apply(action)
        return after.features()["contact_distance"].values[0]

    chosen = GreedyPlayer(seed=0).choose(state)
    assert distance_after(chosen) == before - 2 == min(map(distance_after, state.legal_actions()))
    picks = [make_player("random", seed=s).choose(state) for s in range(20)]
    assert any(distance_after(p) > before - 2 for p in picks), "random should not always close in"


def test_greedy_takes_the_piece_it_can_take():
    state = position(CAPTURE)
    chosen = GreedyPlayer(seed=0).choose(state)
    assert state.clone().apply(chosen).removed == ((3, 7),)


def test_mcts_playouts_are_led_by_the_lead_not_the_movers_own_count():
    """A capture leaves the mover's own count of pieces where a quiet move leaves it: only the lead
    tells them apart, so a playout step takes the capture whatever its coin."""
    state = position(CAPTURE)
    legal = state.legal_actions()
    capture = Move((4, 4), ((4, 5), (4, 6)))
    quiet = [a for a in legal if a != capture and not state.clone().apply(a).removed]
    assert capture in legal and quiet
    mine = [measure(_after(state, a))[0] for a in (capture, *quiet)]
    assert len(set(mine)) == 1  # the mover's own count cannot choose
    for seed in range(10):
        bot = MctsPlayer(seed=seed)
        assert bot._greedy_pick(state, [capture, *quiet]) == capture


def _after(state: GameState, action) -> GameState:
    after = state.clone()
    after.apply(action)
    return after


def test_a_game_tied_by_the_move_cap_ranks_below_playing_on_with_a_lead():
    rules = load_rules("klauber-1937", {"move_cap": "50"})
    state = position([(0, "red", TWO, (2, 2), 0), (0, "red", TWO, (4, 2), 0), (1, "blue", TWO, (12, 12), 0)],
                     rules=rules)
    state.turns = 49
    action = state.legal_actions()[0]
    capped = _after(state, action)
    assert capped.is_over() and not capped.winners()
    going_on = state.clone()
    going_on.turns = 10
    going_on = _after(going_on, action)
    assert not going_on.is_over()
    assert worth(capped, 0) < worth(going_on, 0)  # the side ahead keeps playing
    assert worth(capped, 1) > worth(going_on, 1)  # the side behind is glad of the tie
    assert standing(going_on, 0, 0) == standing(capped, 0, 0) == 0.5


@pytest.mark.parametrize("deal", [0, 1])
def test_greedy_finishes_klauber_games_against_random_well_before_the_cap(deal):
    """Seeded, both seatings: the game ends with one side left, greedy's, in under half the cap."""
    rules = load_rules("klauber-1937")
    for greedy_seat in (0, 1):
        specs = ["random", "random"]
        specs[greedy_seat] = "greedy"
        players = [make_player(spec, seat_seed(deal, seat), rules=rules) for seat, spec in enumerate(specs)]
        state = play_game(rules, players, deal)
        assert state.hand_results[-1].reason == "one_side_left"
        assert state.winners() == [greedy_seat]
        assert state.turns < 500


def test_bots_do_not_change_the_state_they_judge():
    state = position(CAPTURE)
    before = str(state)
    for spec in ("greedy", "cautious", "mcts:iterations=10"):
        make_player(spec, seed=1).choose(state)
    assert str(state) == before  # the features are read, never written


def test_a_playout_begun_below_its_depth_takes_no_action():
    """``depth`` counts the tree's actions too: a playout starting two actions down a tree with
    depth 1 plays nothing (it used to play on to the end of the game, every step tried greedily)."""
    state = position(CAPTURE)
    bot = MctsPlayer(seed=1, depth=1)
    world = state.clone()
    bot._playout(world, world.hand_number, 2)
    assert world.turns == state.turns
    bot._playout(world, world.hand_number, 0)
    assert world.turns == state.turns + 1


def test_a_small_mcts_finishes_klauber_games_against_random_well_before_the_cap():
    rules = load_rules("klauber-1937")
    for mcts_seat in (0, 1):
        specs = ["random", "random"]
        specs[mcts_seat] = "mcts:iterations=20,depth=2"
        players = [make_player(spec, seat_seed(3, seat), rules=rules) for seat, spec in enumerate(specs)]
        state = play_game(rules, players, 3)
        assert state.hand_results[-1].reason == "one_side_left"
        assert state.winners() == [mcts_seat]
        assert state.turns < 500


@pytest.mark.parametrize(("ruleset", "options", "seats"), [
    ("parker-1939", {}, 3), ("contactack", {"partnerships": "on"}, 4), ("solitaire-1", {}, 1), ("klauber-1937", {}, 2)])
def test_one_seats_lead_is_its_entry_of_every_seats_leads(ruleset: str, options: dict[str, str], seats: int) -> None:
    """lead(state, seat), the playouts' and greedy choices' shortcut, says what leads(state) says."""
    rules = load_rules(ruleset, options)
    rng = random.Random(5)
    state = GameState(rules, seats)
    checked = 0
    while not state.is_over() and checked < 60:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        assert [lead(state, seat) for seat in range(seats)] == leads(state)
        checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked
