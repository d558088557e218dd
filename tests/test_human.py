"""The human player, driven by scripted input: it never crashes, whatever is typed."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from helpers import RULES, random_playout
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from contack_core import GameState
from contack_core.engine.actions import Draw, Play
from contack_core.cli import app
from contack_core.engine.referee import play_game
from contack_core.records.audit import audit_record
from players.human import HumanPlayer, PlayerLeft
from players.random_player import RandomPlayer


def human(script: str) -> tuple[HumanPlayer, io.StringIO]:
    player = HumanPlayer(seed=0)
    player.input = io.StringIO(script)
    player.output = io.StringIO()
    return player, player.output


def position_with_plays(minimum: int = 2) -> GameState:
    for seed in range(100):
        state = GameState(RULES, 3)
        random_playout(state, random.Random(seed), 12)
        if not state.is_chance_node() and sum(isinstance(a, Play) for a in state.legal_actions()) >= minimum:
            return state
    raise AssertionError("no position with plays")


def test_a_number_picks_that_action_and_the_position_is_shown():
    state = position_with_plays()
    player, output = human("2\n")
    assert player.choose(state) is state.legal_actions()[1]
    shown = output.getvalue()
    assert "Triangles: [0, 0] " in shown and "hand of seat 0" in shown and "stock: " in shown and "  1. play " in shown


def test_a_typed_play_is_matched_to_the_legal_action():
    state = position_with_plays()
    action = state.legal_actions()[-1]
    typed = f"play {RULES.tiles.names[action.tile]} {action.cell[0]},{action.cell[1]}\n"
    player, _ = human(typed)
    assert player.choose(state) is action
    player, _ = human(f"PLAY {RULES.tiles.names[action.tile]} [{action.cell[0]}, {action.cell[1]}]\n")
    assert player.choose(state) is action


def test_help_garbage_and_wrong_actions_are_answered_then_asked_again():
    state = position_with_plays()
    script = "?\nhello\n0\n999\n\ndraw\nplay 99-99-99 0,0\nplay 01-02-03 50,50\n1\n"
    player, output = human(script)
    assert player.choose(state) is state.legal_actions()[0]
    said = output.getvalue()
    assert "Type the number of an action" in said
    assert "not understood: 'hello'" in said
    assert "there is no action 0" in said and "there is no action 999" in said
    assert "type a number from the list" in said
    assert "you may not draw now" in said
    assert "no tile '99-99-99'" in said
    assert "cannot go on [50, 50] now" in said


def test_draw_and_pass_are_typed_by_name():
    for seed in range(300):
        state = GameState(RULES, 4)
        random_playout(state, random.Random(seed), 40 + seed % 30)
        if not state.is_over() and not state.is_chance_node() and isinstance(state.legal_actions()[0], Draw):
            player, _ = human("draw\n")
            assert player.choose(state) is state.legal_actions()[0]
            return
    raise AssertionError("no forced draw found")


def test_end_of_input_and_quit_make_the_person_leave():
    state = position_with_plays()
    for script in ("", "foo\n", "quit\n"):
        player, _ = human(script)
        try:
            player.choose(state)
        except PlayerLeft:
            continue
        raise AssertionError(f"{script!r} should end the person's game")


def test_a_person_leaving_resigns_and_the_game_ends_at_once():
    for fault_policy in ("pass", "forfeit"):  # leaving forfeits whatever the policy for a bot's faults
        player, _ = human("1\n1\n")
        state = play_game(RULES, [player, RandomPlayer(seed=1)], 3, fault_policy=fault_policy)
        assert state.is_over() and state.forfeited_by == 0 and state.winners() == [1]
        assert [(f.seat, f.kind, f.reason, f.penalty) for f in state.faults] == [(0, "resigned", "the input ended",
                                                                               "forfeit")]


def test_a_person_leaving_is_told_as_a_resignation_and_recorded(tmp_path: Path) -> None:
    record = tmp_path / "left.jsonl"
    result = CliRunner().invoke(app, ["play", "parker-1939", "--seats", "human,random", "--seed", "2", "--record",
                                      str(record)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "human (seat 0) resigns: the person quit\nhuman (seat 0) forfeits the game (hand 1)\n" in result.output
    assert "FAULT" not in result.output and "PlayerLeft" not in result.output
    last = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert last == {"event": "fault", "seat": 0, "reason": "the person quit", "kind": "resigned", "penalty": "forfeit"}
    verdict = audit_record(record)
    assert verdict.valid and not verdict.finished


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
                              max_size=30), max_size=8))
def test_no_input_whatsoever_crashes_it(lines):
    state = position_with_plays()
    player, _ = human("".join(line + "\n" for line in lines))
    try:
        assert player.choose(state) in state.legal_actions()
    except PlayerLeft:
        pass
