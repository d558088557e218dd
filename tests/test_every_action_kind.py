"""Humans and external bots play every ruleset: each kind of action (a Klauber move with its path,
a discard, a take from a stack, plays, draws, passes, a house rule's own exchange) is shown, typed or
sent, and accepted, through
whole games that audit sound."""

from __future__ import annotations

import io
import json
import random
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import read_lines, run_cli

from contack_core import GameState, load_rules
from contack_core.engine.actions import Discard, Draw, HouseAction, Move, Pass, Play
from contack_core.engine.referee import play_game
from contack_core.records.audit import audit_record
from players.human import HumanPlayer
from players.protocol import action_json, event_json, find_action, legal_json, position_json
from players.random_player import RandomPlayer

RULESETS = ["klauber-1937", "solitaire-1", "solitaire-2", "parker-1939", "exchange-once-a-hand"]


def typed(state: GameState, action: object) -> str:
    """An action as a person types it, written from the help text (not from the bot's own listing)."""
    names = state.rules.tiles.names
    if isinstance(action, Play):
        return f"play {names[action.tile]} {action.cell[0]},{action.cell[1]}"
    if isinstance(action, Discard):
        return f"discard {names[action.tile]} {action.zone}" if action.zone else f"discard {names[action.tile]}"
    if isinstance(action, Move):
        return "move " + " ".join(f"{x},{y}" for x, y in (action.origin, *action.path))
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, HouseAction):
        return f"{action.rule} {names[action.tile]}" if action.tile is not None else action.rule
    assert isinstance(action, Pass)
    return "pass"


class Typist(io.StringIO):
    """A person at the keyboard: types a random legal action of the position on show, as text."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.state: GameState | None = None
        self.kinds: set[str] = set()

    def readline(self, *args: object) -> str:
        assert self.state is not None
        action = self.rng.choice(self.state.legal_actions())
        self.kinds.add(type(action).__name__.lower())
        return typed(self.state, action) + "\n"


class TypingHuman(HumanPlayer):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.input = self.typist = Typist(seed)
        self.output = io.StringIO()

    def choose(self, state: GameState):  # type: ignore[no-untyped-def]
        self.typist.state = state
        return super().choose(state)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_person_types_every_kind_of_action_through_a_whole_game(ruleset: str) -> None:
    rules = load_rules(ruleset)
    seats = rules.players[0]
    person = TypingHuman(5)
    state = play_game(rules, [person] + [RandomPlayer(seat) for seat in range(1, seats)], 5)
    assert state.is_over() and not state.faults, state.faults
    shown = person.output.getvalue()
    assert "not understood" not in shown and "the legal actions are" not in shown
    expected = {"klauber-1937": {"move"}, "solitaire-1": {"draw", "discard", "play"},
                "solitaire-2": {"play"}, "parker-1939": {"play", "draw"},
                "exchange-once-a-hand": {"play", "houseaction"}}[ruleset]
    assert expected <= person.typist.kinds
    if ruleset == "klauber-1937":
        assert "tiles left by seat" in shown and " 1. move " in shown
    if ruleset == "solitaire-2":
        assert "4 hidden, then " in shown and " from pile-" in shown  # a stack shows its top only


def test_a_person_is_told_what_a_move_does_and_why_a_bad_one_is_refused() -> None:
    rules = load_rules("klauber-1937")
    state = GameState(rules, 2)
    person = HumanPlayer(0)
    legal = state.legal_actions()
    assert person.interpret("move 2,0 2,1", state, legal)[0] == Move((2, 0), ((2, 1),))
    action, answer = person.interpret("move 2,0 9,9", state, legal)
    assert action is None and "no legal move goes from [2, 0]" in answer
    action, answer = person.interpret("move 2,0", state, legal)
    assert action is None and "move 5,0 5,1 6,1" in answer


# ------------------------------------------------------------------------ the protocol
def test_every_action_kind_goes_over_the_wire_and_back() -> None:
    for ruleset in RULESETS:
        rules = load_rules(ruleset)
        state, rng = GameState(rules, rules.players[0]), random.Random(1)
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            wire = json.loads(json.dumps(legal_json(rules, legal)))
            for entry, action in zip(wire, legal):
                reply = {"type": "action", "action": {k: v for k, v in entry.items() if k != "index"}}
                assert find_action(rules, legal, reply) == action
            position = json.loads(json.dumps(position_json(state)))
            assert position["to_move"] == state.current
            event = state.apply(rng.choice(legal))
            json.dumps(event_json(rules, event))
    move = action_json(load_rules("klauber-1937"), Move((5, 0), ((5, 1), (6, 1))))
    assert move == {"action": "move", "origin": [5, 0], "path": [[5, 1], [6, 1]]}


def test_a_position_shows_the_board_and_only_the_top_of_a_stack() -> None:
    klauber = GameState(load_rules("klauber-1937"), 2)
    board = position_json(klauber)["board"]
    assert board["size"] == 17 and board["left"] == [12, 12] and len(board["pieces"]) == 24
    piece = board["pieces"][0]
    assert set(piece) == {"piece", "point", "seat", "colour", "kind", "corners", "flipped"}
    stacks, rng = GameState(load_rules("solitaire-2"), 1), random.Random(2)
    while stacks.is_chance_node():
        stacks.apply(stacks.sample_chance(rng))
    zones = position_json(stacks)["zones"]
    assert zones["pile-1"] == {"kind": "pile", "count": 5, "top": load_rules("solitaire-2").tiles.names[
        stacks.zones["pile-1"][-1]]}


BOT = textwrap.dedent('''\
    import json, random, sys
    rng = random.Random(7)
    kinds = set()
    for line in sys.stdin:
        m = json.loads(line)
        t = m["type"]
        if t == "hello":
            print(json.dumps({"type": "hello", "protocol": "contack-bot/1", "rulesets": ["*"]}), flush=True)
        elif t == "new_game":
            print(json.dumps({"type": "ready"}), flush=True)
        elif t == "position":
            choice = dict(rng.choice(m["legal"]))
            choice.pop("index")
            kinds.add(choice["action"])
            print(json.dumps({"type": "action", "action": choice}), flush=True)
        elif t == "quit":
            break
    open(sys.argv[1], "w").write(json.dumps(sorted(kinds)))
''')


@pytest.mark.parametrize("ruleset, kinds", [("klauber-1937", ["move"]), ("solitaire-1", ["discard", "draw", "play"]),
                                            ("solitaire-2", ["play"]),
                                            ("exchange-once-a-hand", ["houseaction", "play"])])
def test_an_external_bot_plays_a_whole_game_by_naming_its_actions(ruleset: str, kinds: list[str],
                                                                   tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    seen = tmp_path / "kinds.json"
    seats = ",".join([f"exec:{sys.executable} {bot} {seen}"] + ["random"] * (load_rules(ruleset).players[0] - 1))
    record = tmp_path / "game.jsonl"
    result = run_cli("play", ruleset, "--seats", seats, "--seed", "3", "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    assert not [line for line in read_lines(record) if line.get("event") == "fault"]
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished, verdict
    assert set(kinds) <= set(json.loads(seen.read_text()))
