"""Faulty players: raising, illegal, cheating and hanging bots never stop the game or the process."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import pytest
from helpers import RULES, read_lines, run_cli

from contack_core.engine.actions import Draw, Pass, Play
from contack_core.engine.bots import Budget, Player
from contack_core.engine.referee import play_game
from contack_core.records.audit import audit_record
from contack_core.records.format import RecordWriter, header_for
from players.random_player import RandomPlayer


class Raising(Player):
    name = "raising"

    def choose(self, state):
        raise RuntimeError("my model file is missing")


class RaisingWhenItCouldDraw(RandomPlayer):
    """Plays at random, but raises whenever the rules offer a draw or a pass."""

    name = "raising-on-draw"

    def choose(self, state):
        if any(isinstance(a, Draw | Pass) for a in state.legal_actions()):
            raise ValueError("cannot decide")
        return super().choose(state)


class Illegal(Player):
    name = "illegal"

    def choose(self, state):
        hand = state.seat_zones["hand"][state.current_seat()]
        held = set(hand)
        stranger = next(t for t in range(len(state.rules.tiles)) if t not in held)
        return Play(stranger, (40, 40))


class Cheater(Player):
    """Names the tile it wants from the pile."""

    name = "cheater"

    def choose(self, state):
        legal = state.legal_actions()
        if any(isinstance(a, Draw) for a in legal):
            return Draw(state.zones["stock"][0])
        return legal[0]


class Hanging(RandomPlayer):
    """Hangs (until released) whenever it could draw; otherwise random."""

    name = "hanging"

    def __init__(self, seed, release: threading.Event, always: bool = False) -> None:
        super().__init__(seed)
        self.release = release
        self.always = always

    def choose(self, state):
        if self.always or any(isinstance(a, Draw | Pass) for a in state.legal_actions()):
            self.release.wait(60)
        return super().choose(state)


class BadObserver(RandomPlayer):
    name = "bad-observer"

    def observe(self, seat, action, event):
        raise KeyError("lost track")


def play_recorded(tmp_path: Path, players, **kwargs):
    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer = RecordWriter(stream, header_for(RULES, [p.name for p in players], 11))
        state = play_game(RULES, players, 11, [writer], **kwargs)
    return state, path


def fault_lines(path: Path) -> list[dict]:
    return [line for line in read_lines(path) if line.get("event") == "fault"]


def test_a_bot_that_raises_forfeits_the_game_when_no_pass_is_allowed(tmp_path):
    state, path = play_recorded(tmp_path, [Raising(), RandomPlayer(seed=1)])
    assert state.is_over() and state.forfeited_by == 0 and state.winners() == [1]
    assert state.faults[0].kind == "raised" and "RuntimeError: my model file is missing" in state.faults[0].reason
    verdict = audit_record(path)
    assert verdict.valid and not verdict.finished
    [line] = fault_lines(path)
    assert line["seat"] == 0 and line["penalty"] == "forfeit" and "my model file is missing" in line["reason"]


def test_under_the_pass_policy_a_faulty_move_becomes_the_draw_or_pass_and_the_game_goes_on(tmp_path):
    state, path = play_recorded(tmp_path, [RaisingWhenItCouldDraw(seed=2), RandomPlayer(seed=1), RandomPlayer(seed=3)])
    assert state.over and state.forfeited_by is None
    assert state.faults and all(f.penalty == "pass" and f.seat == 0 for f in state.faults)
    lines = read_lines(path)
    for index, line in enumerate(lines):
        if line.get("event") == "fault":
            assert lines[index + 1]["event"] in ("draw", "pass") and lines[index + 1]["seat"] == 0
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished


def test_under_the_forfeit_policy_the_first_fault_ends_the_game(tmp_path):
    state, path = play_recorded(tmp_path, [RaisingWhenItCouldDraw(seed=2), RandomPlayer(seed=1)],
                                fault_policy="forfeit")
    assert state.forfeited_by == 0 and len(state.faults) == 1 and state.winners() == [1]
    assert audit_record(path).valid


def test_an_illegal_action_is_a_fault_naming_the_action(tmp_path):
    state, path = play_recorded(tmp_path, [RandomPlayer(seed=4), Illegal()])
    assert state.forfeited_by == 1
    fault = state.faults[0]
    # named as a person types it (the notation), then why the rules refuse it
    assert fault.kind == "illegal" and re.match(r"illegal action \d\d-\d\d-\d\d 40,40: ", fault.reason), fault.reason
    assert audit_record(path).valid


def test_a_bot_may_not_choose_the_tile_it_draws(tmp_path):
    state, _ = play_recorded(tmp_path, [Cheater(), RandomPlayer(seed=4)])
    assert state.faults and state.faults[0].kind == "illegal" and "draws blind" in state.faults[0].reason


def test_a_hanging_bot_is_timed_out_and_the_game_finishes(tmp_path):
    release = threading.Event()
    try:
        state, path = play_recorded(tmp_path, [Hanging(5, release), RandomPlayer(seed=1), RandomPlayer(seed=2)],
                                    budget=Budget(time_per_move=0.05))
    finally:
        release.set()
    assert state.is_over()
    assert state.faults and {f.kind for f in state.faults} == {"timeout"} and {f.seat for f in state.faults} == {0}
    lines = fault_lines(path)
    assert lines and "time limit of 0.05 s" in lines[0]["reason"]
    verdict = audit_record(path)
    assert verdict.valid, verdict.error


def test_a_bot_that_hangs_on_every_move_forfeits(tmp_path):
    release = threading.Event()
    try:
        state, path = play_recorded(tmp_path, [RandomPlayer(seed=1), Hanging(5, release, always=True)],
                                    budget=Budget(time_per_move=0.05), fault_policy="forfeit")
    finally:
        release.set()
    assert state.forfeited_by == 1 and state.winners() == [0]
    assert audit_record(path).valid


def test_a_timed_bot_that_answers_in_time_plays_as_usual():
    untimed = play_game(RULES, [RandomPlayer(seed=1), RandomPlayer(seed=2)], 5)
    timed = play_game(RULES, [RandomPlayer(seed=1), RandomPlayer(seed=2)], 5, budget=Budget(time_per_move=5.0))
    assert not timed.faults and timed.scores() == untimed.scores()


def test_a_bot_whose_observe_raises_is_noted_and_the_game_goes_on():
    state = play_game(RULES, [BadObserver(seed=1), RandomPlayer(seed=2)], 5)
    assert state.over and state.faults and {f.penalty for f in state.faults} == {"none"}


def test_an_unknown_fault_policy_is_refused():
    with pytest.raises(ValueError, match="choose one of pass, forfeit"):
        play_game(RULES, [RandomPlayer(), RandomPlayer()], 1, fault_policy="ignore")


def test_the_audit_refuses_a_fault_of_a_seat_that_does_not_exist(tmp_path):
    _, path = play_recorded(tmp_path, [Raising(), RandomPlayer(seed=1)])
    text = path.read_text(encoding="utf-8").replace('"event": "fault", "seat": 0', '"event": "fault", "seat": 7')
    path.write_text(text, encoding="utf-8")
    verdict = audit_record(path)
    assert not verdict.valid and "there is no seat 7" in verdict.error


def test_cli_play_takes_time_limit_and_fault_policy(tmp_path):
    record = tmp_path / "g.jsonl"
    result = run_cli("play", "parker-1939", "--seats", "greedy,cautious", "--seed", 3, "--time-limit", 2,
                     "--fault", "forfeit", "--quiet", "--record", record)
    assert result.exit_code == 0, result.output
    assert audit_record(record).valid and audit_record(record).finished
    bad = run_cli("play", "parker-1939", "--seats", "greedy,greedy", "--fault", "ignore")
    assert bad.exit_code == 2 and "--fault takes one of pass, forfeit" in bad.output


def test_the_narrator_tells_a_fault():
    from contack_core.records.narration import Narrator

    out = io.StringIO()
    narrator = Narrator(["bad", "good"], lambda line: out.write(line + "\n"), events=False)
    play_game(RULES, [Raising(), RandomPlayer(seed=1)], 3, [narrator])
    assert "bad (seat 0) FAULT (raised): choose raised RuntimeError" in out.getvalue()
    assert "bad (seat 0) forfeits the game" in out.getvalue()
