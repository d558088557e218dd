"""Klauber 1937: readings of the source that are options, each alternative against the default.

- side_contact: "in no case can opponents contact side by side any place on the board" --
  where a move ends (default), or also on the point a two-step move passes;
- endgame_lasts: the seven-step endgame lasts to the end (default), or only while both tiles
  show the same face ("During these moves the tile can ... be turned over");
- in_danger: a partner's tile is "prevented from being taken" when one move of any opponent
  could take it (default), or only of an opponent who plays before its owner does.
"""

from __future__ import annotations

import random

import pytest
from test_klauber import ONE, TWO, check_invariants, ends, move, position

from contack_core import GameState, IllegalAction, load_rules
from contack_core.engine.actions import Move


# ------------------------------------------------------------------------------ side_contact
def side_by_side_on_the_way(reading: str) -> GameState:
    """Red's two-step tile on [8, 8]; blue on [7, 9] lies side by side with [8, 9], the point
    red passes going north (to [8, 10]) or north then east (to [9, 9])."""
    rules = load_rules("klauber-1937", {"side_contact": reading})
    return position([(0, "red", TWO, (8, 8), 0), (1, "blue", ONE, (7, 9), 0), (1, "blue", ONE, (15, 15), 0)],
                    rules=rules)


def test_by_default_a_move_may_pass_an_opponent_side_by_side() -> None:
    state = side_by_side_on_the_way("where-it-ends")
    assert {((8, 8), (8, 10)), ((8, 8), (9, 9))} <= ends(state)
    assert move(state, (8, 8), (8, 9), (9, 9)).path == ((8, 9), (9, 9))


def test_every_point_forbids_passing_an_opponent_side_by_side() -> None:
    state = side_by_side_on_the_way("every-point")
    reach = ends(state)
    assert ((8, 8), (8, 10)) not in reach  # only by way of [8, 9]
    assert ((8, 8), (9, 9)) in reach  # still, by way of [9, 8]
    with pytest.raises(IllegalAction, match=r"pass \[8, 9\] side by side"):
        state.apply(Move((8, 8), ((8, 9), (9, 9))))
    assert move(state, (8, 8), (9, 8), (9, 9)).path == ((9, 8), (9, 9))


def test_every_point_applies_to_the_seven_step_endgame_too() -> None:
    """Every point of a seven-step walk but the last keeps clear of the opponent's sides."""
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", ONE, (8, 8), 0)],
                     rules=load_rules("klauber-1937", {"side_contact": "every-point"}))
    move(state, (4, 5), (4, 6))
    assert state.figure.endgame_moves == 0
    red = state.figure.square[next(p for p in state.figure.on_board_pieces() if state.figure.owner[p] == 0)]
    sides = {(red[0] + dx, red[1] + dy) for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))}
    legal = state.legal_actions()
    assert legal and all(len(a.path) == 7 and not sides & set(a.path[:-1]) for a in legal)


def test_random_games_keep_the_every_point_reading() -> None:
    """No move of a random game passes or ends side by side with an opponent."""
    rules = load_rules("klauber-1937", {"side_contact": "every-point", "move_cap": 150})
    state = GameState(rules, 3)
    rng = random.Random(4)
    while not state.is_over():
        board = state.figure
        for action in state.legal_actions():
            if isinstance(action, Move):
                piece = board.tile_at[action.origin]
                assert not set(action.path[:-1]) & board.side_points(piece), action
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        check_invariants(state.figure)


# ------------------------------------------------------------------------------ endgame_lasts
def endgame_with_a_flip(reading: str) -> GameState:
    """Red takes the third tile: two one-step tiles face up, the seven-step endgame begins.
    Blue (home edge north) then walks seven steps onto [9, 0], a ringed spot of the south
    edge, and is turned over."""
    rules = load_rules("klauber-1937", {"endgame_lasts": reading})
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", ONE, (8, 6), 0)],
                     rules=rules)
    move(state, (4, 5), (4, 6))
    assert state.figure.endgame_moves == 0
    event = move(state, (8, 6), (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0), (9, 0))
    assert event.flipped and not state.is_over()
    return state


def test_by_default_the_seven_step_endgame_goes_on_after_a_flip() -> None:
    state = endgame_with_a_flip("to-the-end")
    assert state.figure.endgame_moves == 1
    assert {len(a.path) for a in state.legal_actions()} == {7}


def test_while_alike_the_endgame_stops_once_a_tile_is_turned_over() -> None:
    state = endgame_with_a_flip("while-alike")
    assert state.figure.endgame_moves is None
    assert {len(a.path) for a in state.legal_actions()} == {1}  # red's one-step tile, as usual
    for _ in range(24):  # more than ten turns each, keeping off the edges (and their ringed spots)
        state.apply(next(a for a in state.legal_actions() if 0 < a.path[-1][1] < 16))
    assert not state.is_over() and state.figure.endgame_moves is None


def test_while_alike_the_endgame_still_ties_after_ten_turns_without_a_flip() -> None:
    rules = load_rules("klauber-1937", {"endgame_lasts": "while-alike"})
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", ONE, (13, 13), 0)],
                     rules=rules)
    move(state, (4, 5), (4, 6))
    for _ in range(20):
        board = state.figure
        other = next(board.square[p] for p in board.on_board_pieces() if board.owner[p] != state.current)
        legal = [a for a in state.legal_actions()
                 if not board.flipped[board.tile_at[a.origin]] and a.path[-1][1] not in (0, 16)]
        state.apply(max(legal, key=lambda a: (abs(a.path[-1][0] - other[0]) + abs(a.path[-1][1] - other[1]),
                                              a.path)))
    assert state.is_over() and state.hand_results[-1].reason == "endgame_tie"


# ------------------------------------------------------------------------------ in_danger
def yellow_threatens_green(reading: str) -> GameState:
    """Partners: red (seat 0) and green (seat 2) against blue (1) and yellow (3). Red is to
    move. Yellow's tile on [10, 9] could take green's on [8, 8]; blue's could not. Yellow
    plays after green's owner, blue before."""
    rules = load_rules("klauber-1937", {"partners": "on", "in_danger": reading})
    return position([(0, "red", ONE, (15, 1), 0), (1, "blue", TWO, (7, 10), 0), (1, "blue", ONE, (1, 15), 0),
                     (2, "green", ONE, (8, 8), 0), (3, "yellow", ONE, (10, 9), 0)], seats=4, rules=rules)


def test_by_default_a_tile_any_opponent_could_take_may_be_saved_by_the_partner() -> None:
    state = yellow_threatens_green("any-opponent")
    assert {e for o, e in ends(state) if o == (8, 8)} == {(8, 9), (8, 7)}  # take blue, or save green
    assert move(state, (8, 8), (8, 7)).removed == ()


def test_before_its_owner_a_threat_from_the_later_opponent_is_not_danger() -> None:
    """Green's owner plays before yellow and can move the tile himself: red may only take."""
    state = yellow_threatens_green("before-its-owner")
    assert {e for o, e in ends(state) if o == (8, 8)} == {(8, 9)}
    with pytest.raises(IllegalAction, match="save it"):
        state.apply(Move((8, 8), ((8, 7),)))


def test_before_its_owner_a_threat_from_the_next_opponent_is_danger() -> None:
    rules = load_rules("klauber-1937", {"partners": "on", "in_danger": "before-its-owner"})
    state = position([(0, "red", ONE, (15, 1), 0), (1, "blue", ONE, (10, 9), 0), (1, "blue", ONE, (1, 15), 0),
                      (2, "green", ONE, (8, 8), 0), (3, "yellow", ONE, (1, 1), 0)], seats=4, rules=rules)
    assert (8, 7) in {e for o, e in ends(state) if o == (8, 8)}
    assert move(state, (8, 8), (8, 7)).removed == ()


@pytest.mark.parametrize("option,value", [("side_contact", "every-point"), ("endgame_lasts", "while-alike"),
                                          ("in_danger", "before-its-owner")])
def test_each_reading_is_an_option_that_plays_and_audits(option: str, value: str, tmp_path) -> None:
    from helpers import run_cli

    record = tmp_path / "g.jsonl"
    extra = ["--option", "partners=on"] if option == "in_danger" else []
    seats = "random,random,random,random" if extra else "random,random"
    result = run_cli("play", "klauber-1937", "--seats", seats, "--seed", "2", "--quiet", "--record", record,
                     "--option", f"{option}={value}", "--option", "move_cap=120", *extra)
    assert result.exit_code == 0, result.output
    assert run_cli("audit", record).exit_code == 0
