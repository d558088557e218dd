"""Klauber's 1937 Contact (rulesets/klauber-1937.yaml): scenarios from the source's sentences,
the readings its options choose between, and properties of random games and their records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import play_recorded_game, read_lines, run_cli, write_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import GameState, IllegalAction, load_rules
from contack_core.boards.grid import CORNER_OFFSETS, DIRECTIONS, Contact, PieceBoard
from contack_core.engine.actions import Move
from contack_core.engine.events import Moved
from contack_core.records.audit import audit_record

RULES = load_rules("klauber-1937")
ONE, TWO = "one-step", "two-step"


def kind_index(board: PieceBoard, name: str) -> int:
    return next(i for i, kind in enumerate(board.kinds) if kind.name == name)


def position(pieces: list[tuple[int, str, str, tuple[int, int], int]], seats: int = 2, rules=RULES,
             to_move: int = 0) -> GameState:
    """A game whose board holds only ``pieces`` (seat, colour, kind, point, quarter turns)."""
    state = GameState(rules, seats)
    board: PieceBoard = state.figure
    for piece in board.on_board_pieces():
        board.remove(piece)
    for seat, colour, kind, point, turn in pieces:
        board.add(seat, colour, kind_index(board, kind), point, turn)
    state.current = to_move
    state._legal = None
    return state


def move(state: GameState, origin, *path) -> Moved:
    action = Move(tuple(origin), tuple(tuple(p) for p in path))
    assert action in state.legal_actions() or any(
        a.origin == action.origin and a.path[-1] == action.path[-1] for a in state.legal_actions()), \
        f"{action} is not legal: {state.legal_actions()}"
    event = state.apply(action)
    assert isinstance(event, Moved)
    return event


def ends(state: GameState) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    return {(a.origin, a.path[-1]) for a in state.legal_actions() if isinstance(a, Move)}


# ------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_start_positions_follow_the_sets_of_the_source(seats: int) -> None:
    """"Each player uses a set of six tiles of the same color"; two players have 12 tiles each
    (Diagram 3); "never more than 24 tiles are used at one time"."""
    board: PieceBoard = GameState(RULES, seats).figure
    pieces = board.on_board_pieces()
    assert len(pieces) <= 24
    per_seat = {seat: [p for p in pieces if board.owner[p] == seat] for seat in range(seats)}
    if seats == 2:
        assert all(len(mine) == 12 for mine in per_seat.values())
        made = sorted((board.colour[p], board.kinds[board.kind[p]].name) for p in per_seat[0])
        assert made.count(("red", ONE)) == 4 and made.count(("green", ONE)) == 3
        assert made.count(("red", TWO)) == 2 and made.count(("green", TWO)) == 3
    else:
        for mine in per_seat.values():
            assert len(mine) == 6 and len({board.colour[p] for p in mine}) == 1
            assert sorted(board.kinds[board.kind[p]].name for p in mine) == [ONE] * 3 + [TWO] * 3
    # Lowest corners facing forward: the south seat's pieces show their two lowest numbers north.
    for p in per_seat[0]:
        nw, ne, se, sw = board.corners(p)
        assert {nw, ne} == set(sorted(board.values(p))[:2])


def test_a_one_step_tile_moves_to_the_next_corner_only_and_never_diagonally() -> None:
    state = position([(0, "red", ONE, (8, 8), 0), (1, "blue", ONE, (1, 15), 0)])
    assert ends(state) - {((1, 15), e) for e in []} >= {((8, 8), (8 + dx, 8 + dy)) for dx, dy in DIRECTIONS}
    assert {e for o, e in ends(state) if o == (8, 8)} == {(8 + dx, 8 + dy) for dx, dy in DIRECTIONS}
    with pytest.raises(IllegalAction, match="diagonally"):
        state.apply(Move((8, 8), ((9, 9),)))
    with pytest.raises(IllegalAction, match="exactly 1 step"):
        state.apply(Move((8, 8), ((8, 9), (8, 10))))


def test_a_two_step_tile_moves_two_corners_and_may_come_back() -> None:
    """"It may be an advantage to sometimes move the 1, 2, 3, 4 tile only one corner and for the
    second step to return to the corner." The tile still makes its quarter spin."""
    state = position([(0, "red", TWO, (8, 8), 0), (1, "blue", ONE, (1, 15), 0)])
    reach = {e for o, e in ends(state) if o == (8, 8)}
    assert reach == {(8, 8), (8, 10), (10, 8), (8, 6), (6, 8), (9, 9), (7, 9), (9, 7), (7, 7)}
    event = move(state, (8, 8), (8, 9), (8, 8))
    assert event.turn == 1 and state.figure.corners(state.figure.tile_at[(8, 8)]) == (4, 1, 2, 3)


def test_with_two_step_turns_off_the_second_step_keeps_to_the_line() -> None:
    rules = load_rules("klauber-1937", {"two_step_turns": "off"})
    state = position([(0, "red", TWO, (8, 8), 0), (1, "blue", ONE, (1, 15), 0)], rules=rules)
    assert {e for o, e in ends(state) if o == (8, 8)} == {(8, 8), (8, 10), (10, 8), (8, 6), (6, 8)}
    with pytest.raises(IllegalAction, match="one line"):
        state.apply(Move((8, 8), ((8, 9), (9, 9))))


def test_a_tile_moves_only_over_and_onto_empty_points() -> None:
    state = position([(0, "red", TWO, (8, 8), 0), (0, "red", ONE, (8, 9), 0), (1, "blue", ONE, (1, 15), 0)])
    with pytest.raises(IllegalAction, match="taken"):
        state.apply(Move((8, 8), ((8, 9), (8, 10))))
    assert ((8, 8), (8, 10)) not in ends(state)


def test_every_move_ends_with_a_quarter_spin_to_the_right() -> None:
    """"always give the tile a QUARTER SPIN to the RIGHT": the north-west number goes north-east."""
    state = position([(0, "red", ONE, (8, 8), 0), (1, "blue", ONE, (1, 15), 0)])
    board = state.figure
    before = board.corners(board.tile_at[(8, 8)])
    move(state, (8, 8), (8, 9))
    nw, ne, se, sw = board.corners(board.tile_at[(8, 9)])
    assert (ne, se, sw, nw) == before


# ------------------------------------------------------------------------------ contacts
def test_the_higher_corner_removes_the_lower_diagram_4() -> None:
    """"The tile with the lower number on the contacting corner is then removed from board."
    Red 1-2-3-4 steps two north to [4, 6] and turns: its north-west corner shows 4; the blue
    tile at [3, 7] touches it with its south-east corner, 3. The Blue tile is removed."""
    state = position([(0, "red", TWO, (4, 4), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", ONE, (15, 15), 0)])
    blue = state.figure.tile_at[(3, 7)]
    event = move(state, (4, 4), (4, 5), (4, 6))
    assert event.contacts == (Contact(blue, (3, 7), 4, 3),)
    assert event.removed == ((3, 7),) and (3, 7) not in state.figure.tile_at and (4, 6) in state.figure.tile_at


def test_the_decision_is_made_after_the_quarter_spin() -> None:
    """Unturned, red's north-west corner would show 1 and lose to 3; turned, it shows 4 and wins."""
    state = position([(0, "red", TWO, (4, 4), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", ONE, (15, 15), 0)])
    assert state.figure.corner_value(state.figure.tile_at[(4, 4)], 0) == 1
    assert move(state, (4, 4), (4, 5), (4, 6)).removed == ((3, 7),)


def test_a_lower_mover_is_removed_itself() -> None:
    state = position([(0, "red", TWO, (4, 4), 0), (1, "blue", ONE, (3, 7), 0), (1, "blue", ONE, (15, 15), 0)])
    event = move(state, (4, 4), (4, 5), (4, 6))  # red 4 against blue's south-east 5
    assert event.contacts[0].mine == 4 and event.contacts[0].theirs == 5
    assert event.removed == ((4, 6),) and (3, 7) in state.figure.tile_at and (4, 6) not in state.figure.tile_at


def test_equal_corners_remove_both_diagram_5() -> None:
    """"In case the two contacting corners have the same numbers, both tiles are removed"."""
    state = position([(0, "red", TWO, (4, 4), 0), (1, "blue", TWO, (3, 7), 3), (1, "blue", ONE, (15, 15), 0),
                      (0, "red", ONE, (15, 1), 0)])
    event = move(state, (4, 4), (4, 5), (4, 6))
    assert [(c.mine, c.theirs) for c in event.contacts] == [(4, 4)]
    assert set(event.removed) == {(3, 7), (4, 6)}
    assert (3, 7) not in state.figure.tile_at and (4, 6) not in state.figure.tile_at


def test_one_tile_against_two_compares_the_sums_diagram_6() -> None:
    """"the numerical sum of each player's two contacting numbers is the deciding factor. The one
    tile may destroy the two tiles" — Diagram 6: "The two Blue tiles are removed from the board."
    Red 3-4-5-6 steps to [4, 6] and turns: 6 north-west, 3 north-east (sum 9); the blue tiles
    touch with 3 and 3 (sum 6). Alone, red's 3 against blue's 3 would remove both."""
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", TWO, (5, 7), 1),
                      (1, "blue", ONE, (15, 15), 0)])
    event = move(state, (4, 5), (4, 6))
    assert sorted((c.mine, c.theirs) for c in event.contacts) == [(3, 3), (6, 3)]
    assert set(event.removed) == {(3, 7), (5, 7)}
    assert (4, 6) in state.figure.tile_at


def test_per_opponent_contact_sums_settle_each_opponent_apart() -> None:
    rules = load_rules("klauber-1937", {"contact_sums": "per-opponent"})
    pieces = [(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (2, "green", TWO, (5, 7), 1),
              (1, "blue", ONE, (15, 15), 0), (2, "green", ONE, (15, 10), 0)]
    event = move(position(pieces, seats=3, rules=rules), (4, 5), (4, 6))
    assert set(event.removed) == {(3, 7), (5, 7), (4, 6)}  # 6 beats blue's 3; 3 ties green's 3
    pooled = move(position(pieces, seats=3), (4, 5), (4, 6))
    assert set(pooled.removed) == {(3, 7), (5, 7)}  # 9 against 6 together


def test_no_move_may_end_side_by_side_with_an_opponent() -> None:
    """"in no case can opponents contact side by side any place on the board"; "Tiles of same
    color may lay along side of each other"."""
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", ONE, (5, 6), 0), (0, "green", ONE, (3, 6), 0)])
    assert ((4, 5), (4, 6)) not in ends(state)
    with pytest.raises(IllegalAction, match="side by side"):
        state.apply(Move((4, 5), ((4, 6),)))
    # Alongside one's own tiles is allowed: [4, 4] lies beside nothing of blue's.
    assert ((3, 6), (3, 5)) in ends(state)  # green next to red's [4, 5]


def test_tiles_on_the_starting_line_can_be_attacked() -> None:
    """"No place on the board is safe. Tiles can be attacked on the starting line"."""
    state = position([(0, "red", ONE, (5, 0), 0), (1, "blue", TWO, (6, 3), 2), (1, "blue", ONE, (15, 15), 0)], to_move=1)
    event = move(state, (6, 3), (6, 2), (6, 1))  # blue ends at [6, 1], corner to corner with red [5, 0]
    assert event.contacts and event.contacts[0].square == (5, 0)


# ------------------------------------------------------------------------------ ringed spots
def test_a_tile_reaching_a_ringed_spot_opposite_is_turned_over() -> None:
    """"When a tile first arrives at a ringed spot on the opposite side of the board, it is
    turned over and all corners have the same value; either all are 4 or all are 5."""
    state = position([(0, "red", TWO, (8, 14), 0), (1, "blue", ONE, (1, 1), 0)])
    event = move(state, (8, 14), (8, 15), (8, 16))
    assert event.flipped and state.figure.corners(state.figure.tile_at[(8, 16)]) == (4, 4, 4, 4)


def test_own_ringed_spots_do_not_turn_a_tile_over() -> None:
    state = position([(0, "red", ONE, (8, 1), 0), (1, "blue", ONE, (1, 15), 0)])
    assert not move(state, (8, 1), (8, 0)).flipped


def test_contacts_on_a_ringed_spot_are_settled_before_turning_over() -> None:
    """"If a contact is made at this spot, be sure to remove the tile with the lower numbered
    corner before turning the tile over." Red arrives with 2 on its south-east corner against
    blue's 3: face up it loses (turned over, its 4 would have won)."""
    state = position([(0, "red", TWO, (8, 14), 0), (1, "blue", ONE, (9, 15), 0), (1, "blue", ONE, (1, 1), 0),
                      (0, "red", ONE, (15, 1), 0)])
    event = move(state, (8, 14), (8, 15), (8, 16))
    assert [(c.mine, c.theirs) for c in event.contacts] == [(2, 3)]
    assert event.removed == ((8, 16),) and not event.flipped


def test_whole_edge_reading_turns_over_anywhere_on_the_opposite_edge() -> None:
    rules = load_rules("klauber-1937", {"ringed": "whole-edge"})
    state = position([(0, "red", ONE, (1, 15), 0), (1, "blue", ONE, (15, 1), 0)], rules=rules)
    assert move(state, (1, 15), (1, 16)).flipped
    state = position([(0, "red", ONE, (1, 15), 0), (1, "blue", ONE, (15, 1), 0)])
    assert not move(state, (1, 15), (1, 16)).flipped


# ------------------------------------------------------------------------------ the end
def test_the_last_side_on_the_board_wins() -> None:
    state = position([(0, "red", TWO, (4, 4), 0), (1, "blue", TWO, (3, 7), 0)])
    move(state, (4, 4), (4, 5), (4, 6))
    assert state.is_over() and state.hand_results[-1].reason == "one_side_left"
    assert state.winners() == [0] and state.scores() == [1, 0]


def test_two_tiles_turned_over_alike_are_a_tie() -> None:
    """"If only two opponent's tiles are left ... both have all corners No. 4 ... the game is a tie.""" 
    state = position([(0, "red", TWO, (8, 14), 0), (1, "blue", TWO, (2, 2), 0)])
    state.figure.flipped[state.figure.tile_at[(2, 2)]] = True
    move(state, (8, 14), (8, 15), (8, 16))
    assert state.is_over() and state.hand_results[-1].reason == "endgame_tie" and state.winners() == []


def test_two_tiles_of_one_face_move_seven_steps_and_tie_after_ten_turns_each() -> None:
    """"If, however, both tiles have the 1, 2, 3, 4 face upward, or both tiles have the 3, 4, 5, 6
    face upward, each tile moves seven steps ... After ten turns for each player, the game is a
    tie if both tiles succeed in staying on the board." Red takes the third tile, leaving two
    one-step tiles face up."""
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", ONE, (13, 13), 0)])
    move(state, (4, 5), (4, 6))
    assert not state.is_over() and state.figure.endgame_moves == 0
    for turn in range(20):
        legal = state.legal_actions()
        assert legal and all(len(a.path) == 7 for a in legal)
        board = state.figure
        other = next(board.square[p] for p in board.on_board_pieces() if board.owner[p] != state.current)
        # keep away from the other tile, so both stay on the board
        action = max(legal, key=lambda a: (abs(a.path[-1][0] - other[0]) + abs(a.path[-1][1] - other[1]), a.path))
        state.apply(action)
        assert state.is_over() == (turn == 19)
    assert state.hand_results[-1].reason == "endgame_tie" and state.winners() == []


def test_different_faces_play_on_with_the_usual_steps() -> None:
    state = position([(0, "red", ONE, (4, 5), 0), (1, "blue", TWO, (3, 7), 0), (1, "blue", TWO, (13, 13), 0)])
    move(state, (4, 5), (4, 6))
    assert state.figure.endgame_moves is None
    assert {len(a.path) for a in state.legal_actions()} == {2}


def test_the_move_cap_ends_a_game_as_a_tie() -> None:
    rules = load_rules("klauber-1937", {"move_cap": 7})
    state = GameState(rules, 3)
    random_moves(state, random.Random(1))
    assert state.hand_results[-1].reason == "move_cap" and state.turns == 7 and state.winners() == []


# ------------------------------------------------------------------------------ partners
def partners_position(rules=None) -> GameState:
    rules = rules or load_rules("klauber-1937", {"partners": "on"})
    return position([(0, "red", ONE, (15, 1), 0), (1, "blue", TWO, (7, 10), 0), (1, "blue", ONE, (10, 9), 0),
                     (2, "green", ONE, (8, 8), 0), (3, "yellow", ONE, (1, 1), 0)], seats=4, rules=rules)


def test_partners_may_move_each_others_tiles_only_to_save_or_take() -> None:
    """"each may move the others tiles instead of his own ... if in so doing he prevents the
    partner's tile from being taken or if he can remove an opponent's tile from the board."
    Green on [8, 8] can be taken by blue's [10, 9] (its 5 against green's 4). North it takes blue's
    [7, 10]; south it is safe; east it would be taken at once; west blue could still take it."""
    state = partners_position()
    assert {e for o, e in ends(state) if o == (8, 8)} == {(8, 9), (8, 7)}
    with pytest.raises(IllegalAction, match="save it"):
        state.apply(Move((8, 8), ((7, 8),)))
    assert move(state, (8, 8), (8, 9)).removed == ((7, 10),)


def test_partner_moves_always_and_never() -> None:
    loose = partners_position(load_rules("klauber-1937", {"partners": "on", "partner_moves": "always"}))
    assert {e for o, e in ends(loose) if o == (8, 8)} == {(8, 9), (8, 7), (9, 8), (7, 8)}
    alone = partners_position(load_rules("klauber-1937"))
    assert not {e for o, e in ends(alone) if o == (8, 8)}
    with pytest.raises(IllegalAction, match="seat 2's, not seat 0's"):
        alone.apply(Move((8, 8), ((8, 9),)))


def test_partners_win_together() -> None:
    state = random_game(4, 3, {"partners": "on"})
    assert state.winners() in ([], [0, 2], [1, 3])


# ------------------------------------------------------------------------------ random games
def random_moves(state: GameState, rng: random.Random) -> list[Moved]:
    events = []
    while not state.is_over():
        legal = state.legal_actions()
        event = state.apply(legal[rng.randrange(len(legal))])
        if isinstance(event, Moved):
            events.append(event)
        check_invariants(state.figure)
    return events


def random_game(seats: int, seed: int, options: dict | None = None) -> GameState:
    state = GameState(load_rules("klauber-1937", {"move_cap": 300, **(options or {})}), seats)
    random_moves(state, random.Random(seed))
    return state


def check_invariants(board: PieceBoard) -> None:
    on = board.on_board_pieces()
    assert len({board.square[p] for p in on}) == len(on) == len(board.tile_at)
    assert all(board.tile_at[board.square[p]] == p for p in on)
    for p in on:
        x, y = board.square[p]
        for dx, dy in (*DIRECTIONS, *CORNER_OFFSETS):
            other = board.tile_at.get((x + dx, y + dy))
            # opponents never lie side by side, and every corner contact has been settled
            assert other is None or not board.opponents(p, other)
    assert [sum(1 for p in on if board.owner[p] == s) for s in range(len(board.side))] == board.alive


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), seed=st.integers(0, 10_000),
       options=st.sampled_from([{}, {"two_step_turns": "off"}, {"contact_sums": "per-opponent"},
                                {"layout": "centred", "ringed": "whole-edge"}, {"corner_numbering": "crossed"},
                                {"two_players_tiles": "6"}]))
def test_random_games_end_with_legal_moves_and_no_overlap(seats: int, seed: int, options: dict) -> None:
    state = random_game(seats, seed, options)
    assert state.is_over()
    reason = state.hand_results[-1].reason
    assert reason in ("one_side_left", "endgame_tie", "all_passed", "move_cap")
    if reason == "one_side_left":
        assert len(state.winners()) >= 1
    else:
        assert state.winners() == []


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seats=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_every_record_audits_sound(seats: int, seed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("k") / "game.jsonl"
    play_recorded_game(seats, seed, path, rules=load_rules("klauber-1937", {"move_cap": 200}))
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished, verdict
    assert any(line.get("event") == "move" for line in read_lines(path))


# ------------------------------------------------------------------------------ records and audit
@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    play_recorded_game(2, 3, path, rules=load_rules("klauber-1937", {"move_cap": 300}))
    return path


def tamper(record: Path, change) -> tuple[int, dict]:
    lines = read_lines(record)
    index = change(lines)
    write_lines(record, lines)
    return index + 1, audit_record(record).to_json()


def test_a_record_with_removals_audits_each_one(record: Path) -> None:
    lines = read_lines(record)
    assert any(line.get("removed") for line in lines), "pick a seed whose game has a capture"

    def wrong_removal(lines):
        index = next(i for i, line in enumerate(lines) if line.get("removed"))
        lines[index]["removed"] = []
        return index

    line, verdict = tamper(record, wrong_removal)
    assert not verdict["valid"] and verdict["line"] == line and "remove" in verdict["error"]


def test_the_audit_checks_the_turn_the_path_and_the_seat(record: Path) -> None:
    original = record.read_text()

    def first_move(lines):
        return next(i for i, line in enumerate(lines) if line.get("event") == "move")

    def bad_turn(lines):
        i = first_move(lines)
        lines[i]["turn"] = (lines[i]["turn"] + 1) % 4
        return i

    def bad_path(lines):
        i = first_move(lines)
        x, y = lines[i]["from"]
        lines[i]["path"] = [[x + 1, y + 1]]
        return i

    def bad_seat(lines):
        i = first_move(lines)
        lines[i]["seat"] = 1
        return i

    for change, words in ((bad_turn, "turned"), (bad_path, "step"), (bad_seat, "turn")):
        record.write_text(original)
        line, verdict = tamper(record, change)
        assert not verdict["valid"] and verdict["line"] == line and words in verdict["error"], verdict


def test_a_move_line_breaking_the_schema_is_named(record: Path) -> None:
    def no_path(lines):
        i = next(i for i, line in enumerate(lines) if line.get("event") == "move")
        del lines[i]["path"]
        return i

    line, verdict = tamper(record, no_path)
    assert not verdict["valid"] and verdict["line"] == line and "path" in verdict["error"]


# ------------------------------------------------------------------------------ command line
def test_play_narrates_moves_turns_and_contacts(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = run_cli("play", "klauber-1937", "--seats", "random,random", "--seed", "5", "--record", out)
    assert result.exit_code == 0, result.output
    assert "moves red" in result.output and "turns a quarter right" in result.output
    assert "contact:" in result.output and "removed:" in result.output
    assert run_cli("audit", out).exit_code == 0
    replay = run_cli("replay", out, "--to", "3")
    assert replay.exit_code == 0 and " o" in replay.output and "seat 0 (12)" in replay.output


@pytest.mark.parametrize("seats,options", [("random,random,random", []),
                                           ("random,random,random,random", ["--option", "partners=on"])])
def test_play_three_and_four_seats(seats: str, options: list[str]) -> None:
    result = run_cli("play", "klauber-1937", "--seats", seats, "--seed", "2", "--quiet", *options)
    assert result.exit_code == 0, result.output


def test_partners_need_four_seats() -> None:
    result = run_cli("play", "klauber-1937", "--seats", "random,random", "--option", "partners=on")
    assert result.exit_code != 0 and "klauber-1937 is for 4 players" in result.output


def test_bench_reports_moves_per_second() -> None:
    result = run_cli("bench", "klauber-1937", "--games", "1", "--players", "2", "--json",
                     "--option", "move_cap=50")
    data = json.loads(result.output)
    assert data["moves"] == 50 and data["moves_per_s"] > 0 and data["games_per_s"] > 0


def test_the_primitives_are_documented() -> None:
    output = run_cli("rulesets", "primitives").output
    for name in ("corner-tiles", "square-grid", "start-positions", "move", "one-side-left", "two-piece-tie",
                 "pieces-left", "last-side-standing"):
        assert f"] {name}(" in output
