"""Klauber 1937: a seat whose tiles are all gone is out of the game. The turn order skips it
after a move and after a pass alike, "every seat passed" counts only the seats still in play,
and the audit refuses a record that gives an eliminated seat a turn, at that line."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import read_lines, write_lines

from contack_core import GameState, load_rules
from contack_core.boards.grid import PieceBoard
from contack_core.engine.actions import PASS, Action, Move, Pass
from contack_core.engine.bots import Player
from contack_core.engine.events import Passed
from contack_core.engine.referee import play_game
from contack_core.records.audit import audit_record
from contack_core.records.format import RecordWriter, header_for

#: Three seats on a board of 3 x 3 points, where a seat can be out within a few moves.
TINY = """\
extends: klauber-1937
id: tiny
title: Klauber on a board of 3 x 3 points
players: {min: 3, max: 3}
board:
  size: 3
  ringed: null
setup:
  start:
    layouts:
      "2": null
      "4": null
      "3":
        - {seat: 0, edge: west, start: 1, pieces: [red two-step]}
        - {seat: 1, edge: east, start: 0, pieces: [blue one-step, blue one-step]}
        - {seat: 2, edge: south, start: 0, pieces: [green one-step, green one-step]}
"""

#: A game on it, move by move (origin, end; None for a pass). Red's only move loses its only
#: tile to blue's corner (1 against 4): seat 0 is out. Blue and green move until green is
#: blocked (both its points are side by side with blue where it could go) and passes; then it
#: is blue's turn again, not red's.
SCRIPT: list[tuple[tuple[int, int], tuple[int, int]] | None] = [
    ((0, 1), (1, 2)),   # seat 0: red leaves the board
    ((2, 1), (2, 2)),   # seat 1
    ((0, 0), (0, 1)),   # seat 2
    ((2, 2), (1, 2)),   # seat 1: blue takes green on [0, 1]
    ((1, 0), (0, 0)),   # seat 2
    ((1, 2), (0, 2)),   # seat 1: green on [0, 0] can go nowhere now
    None,               # seat 2 passes
    ((2, 0), (2, 1)),   # seat 1, whose turn it is again
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tiny") / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    return path


def place(rules, pieces: list[tuple[int, str, tuple[int, int]]], to_move: int) -> GameState:
    """A three-seat game whose board holds only one-step ``pieces`` (seat, colour, point)."""
    state = GameState(rules, 3)
    board: PieceBoard = state.figure
    for piece in board.on_board_pieces():
        board.remove(piece)
    one_step = next(i for i, kind in enumerate(board.kinds) if kind.name == "one-step")
    for seat, colour, point in pieces:
        board.add(seat, colour, one_step, point, 0)
    state.current = to_move
    state._legal = None
    return state


def test_after_a_pass_the_turn_skips_a_seat_with_no_tiles(tiny: Path) -> None:
    """Seat 1 is out. Red and green are each blocked: every empty point next to one of them
    is side by side with the other. Red passes, then green (not seat 1), and with both seats
    still in play having passed in turn the game is blocked."""
    rules = load_rules(tiny)
    state = place(rules, [(0, "red", (0, 0)), (0, "red", (2, 2)), (2, "green", (2, 0)), (2, "green", (0, 2))],
                  to_move=0)
    assert not state.figure.seat_in_play(1)
    assert state.legal_actions() == [PASS]
    assert state.apply(PASS) == Passed(seat=0)
    assert state.current_seat() == 2 and not state.is_over()
    assert state.apply(PASS) == Passed(seat=2)
    assert state.is_over() and state.hand_results[-1].reason == "all_passed" and state.winners() == []


def test_after_a_move_the_turn_skips_a_seat_with_no_tiles() -> None:
    """On the full board: seat 1 has no tiles; after seat 0's move it is seat 2's turn."""
    rules = load_rules("klauber-1937")
    state = place(rules, [(0, "red", (8, 8)), (2, "green", (1, 15))], to_move=0)
    state.apply(Move((8, 8), ((8, 9),)))
    assert state.current_seat() == 2


class Scripted(Player):
    """Plays the moves of a shared script, in order, whichever seat it sits in."""

    name = "scripted"

    def __init__(self, script: list, **params) -> None:
        super().__init__(**params)
        self.script = script

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if not self.script:
            return legal[0]
        step = self.script.pop(0)
        if step is None:
            return next(a for a in legal if isinstance(a, Pass))
        origin, end = step
        return next(a for a in legal if isinstance(a, Move) and a.origin == origin and a.path[-1] == end)


@pytest.fixture
def record(tiny: Path, tmp_path: Path) -> Path:
    """The scripted game's record (a move cap of 10 ends it soon after the script)."""
    rules = load_rules(tiny, {"move_cap": 10})
    script = list(SCRIPT)
    path = tmp_path / "tiny.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer = RecordWriter(stream, header_for(rules, ["a", "b", "c"], 1, ["scripted"] * 3, path))
        play_game(rules, [Scripted(script) for _ in range(3)], 1, [writer])
    return path


def test_the_record_never_gives_the_eliminated_seat_a_turn_and_audits_sound(record: Path) -> None:
    actions = [line for line in read_lines(record) if line.get("event") in ("move", "pass")]
    assert [line["seat"] for line in actions[:8]] == [0, 1, 2, 1, 2, 1, 2, 1]
    assert actions[0]["removed"] == [[1, 2]] and actions[6]["event"] == "pass"
    assert all(line["seat"] != 0 for line in actions[1:])
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished, verdict


def test_the_audit_refuses_a_turn_of_the_eliminated_seat_at_that_line(record: Path) -> None:
    """A record that lets seat 0 (out since its first move) pass after green's pass, as the
    turn order used to, is refused at that line."""
    lines = read_lines(record)
    green_pass = next(i for i, line in enumerate(lines) if line.get("event") == "pass")
    lines.insert(green_pass + 1, {"event": "pass", "seat": 0})
    write_lines(record, lines)
    verdict = audit_record(record)
    assert not verdict.valid and verdict.line == green_pass + 2, verdict
    assert "it is b's turn, not a's" in (verdict.error or ""), verdict
