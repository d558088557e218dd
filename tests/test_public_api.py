"""The public API of issue 29 item 3: ``import contack_core`` gives what a program embedding
contack needs, ``str(state)`` draws the position, and ``action_to_string`` names an action in
the notation the score keeper reads back."""

from __future__ import annotations

import random
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from processes import HANG

import contack_core
from contack_core.boards.grid import board_text
from contack_core.engine import actions, events
from contack_core.engine.notation import read_tiles
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from contack_core.records.keeper import Keeper
from contack_core.records.table import Table

#: What the issue names, and what a user needs to run it.
PROMISED = ("load_rules", "GameState", "play_game", "Player", "Budget", "make_player", "RulesetError",
            "IllegalAction", "action_to_string", "Play", "Draw", "Discard", "Pass", "Move", "Shuffle", "Deal")


def test_the_package_exports_what_an_embedder_needs() -> None:
    for name in PROMISED:
        assert name in contack_core.__all__, name
        assert getattr(contack_core, name) is not None
    every_action = typing.get_args(actions.Action)
    every_event = (*typing.get_args(events.Event), events.HandResult)
    for kind in (*every_action, *every_event):
        assert getattr(contack_core, kind.__name__) is kind, kind.__name__
    assert sorted(contack_core.__all__) == sorted([*contack_core._HOMES, "__version__"])  # every name has a home
    for name in contack_core.__all__:
        getattr(contack_core, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        contack_core.nothing  # noqa: B018


def test_a_fresh_interpreter_embeds_through_the_package_alone() -> None:
    """What a user's program does, in its own interpreter: nothing imported but ``contack_core``."""
    program = (
        "import random, contack_core as c\n"
        "rules = c.load_rules('parker-1939')\n"
        "end = c.play_game(rules, [c.make_player('greedy', 1), c.make_player('random', 2)], seed=7,"
        " budget=c.Budget(iterations=10))\n"
        "assert end.is_over() and isinstance(end, c.GameState)\n"
        "state = c.GameState(rules, 2)\n"
        "rng = random.Random(1)\n"
        "while state.is_chance_node():\n"
        "    state.apply(state.sample_chance(rng))\n"
        "action = state.legal_actions()[0]\n"
        "copy = state.clone(); event = copy.apply(action)\n"
        "assert isinstance(event, c.Played) and state.figure.tile_at == {}\n"
        "assert state.observation(1) and state.resample(1, rng).current_seat() == 0\n"
        "print(c.action_to_string(state, action)); print(copy)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=HANG, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "\nTriangles: [0, 0] " in run.stdout and "seat 1 to act" in run.stdout


def _dealt(rules_id: str, seats: int, seed: int) -> contack_core.GameState:
    state = contack_core.GameState(contack_core.load_rules(rules_id), seats)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def test_str_draws_the_figure_and_every_seats_hand() -> None:
    state = _dealt("parker-1939", 3, seed=4)
    names = state.rules.tiles.names
    state.apply(next(a for a in state.legal_actions() if type(a) is contack_core.Play))
    text = str(state)
    assert text.startswith(f"parker-1939 · hand 1 · seat {state.current} to act\n")
    [(cell, tile)] = state.figure.tile_at.items()
    assert f"Triangles: {list(cell)} {names[tile]}\n" in text  # every tile of the figure and where it lies
    for seat in range(3):
        hand = " ".join(names[t] for t in state.seat_zones["hand"][seat])
        assert f"seat {seat}: hand: {hand}\n" in text  # every seat's tiles, as an omniscient observer sees them
    assert f"stock: {len(state.zones['stock'])}" in text  # a face-down pile by its size, never its order


def test_observation_string_hides_what_the_seat_cannot_see() -> None:
    """OpenSpiel's ObservationString: partners see each other's hands, never the opponents'."""
    state = _dealt("rulesets/examples/partners-see-each-other.yaml", 4, seed=3)
    names = state.rules.tiles.names
    text = state.observation_string(0)
    hands = state.seat_zones["hand"]
    for seat in (0, 2):
        assert f"seat {seat}: hand: {' '.join(names[t] for t in hands[seat])}\n" in text
    for seat in (1, 3):
        assert f"seat {seat}: hand: {' '.join('?' * len(hands[seat]))}\n" in text
        assert not any(names[t] in text for t in hands[seat])
    assert text.split("\n")[0] == str(state).split("\n")[0] and f"stock: {len(state.zones['stock'])}" in text


@pytest.mark.parametrize("rules_id", [*shipped_ruleset_ids(), *shipped_example_ids()])
def test_observation_string_shows_exactly_the_observation(rules_id: str) -> None:
    """Every tile the observation hides is a ?, every tile it shows is named (a pile's top too)."""
    rules = contack_core.load_rules(rules_id)
    state = _dealt(rules_id, rules.players[0], seed=5)
    rng = random.Random(5)
    for _ in range(6):
        if state.is_over():
            break
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    for seat in range(state.seat_count):
        views = state.observation(seat)
        text = state.observation_string(seat)
        hidden = sum(owners_view.count(None) for key in state.seat_zones for owners_view in views[key])
        assert sum(line.split(": ", 1)[1].split().count("?") for line in text.splitlines()
                   if line.startswith(tuple(f"{state.who(s)}: " for s in range(state.seat_count)))) == hidden
        names = state.rules.tiles.names
        for key in state.zones:
            seen = [names[t] for t in views[key] if t is not None]
            assert (f"{key}: {len(state.zones[key])} ({' '.join(seen)})" if seen
                    else f"{key}: {len(state.zones[key])}") in text


def test_str_draws_a_board_of_pieces() -> None:
    state = _dealt("klauber-1937", 2, seed=1)
    text = str(state)
    assert text.startswith("klauber-1937 · game 1 · seat 0 to act\n")
    board = board_text(state.figure)
    assert board[0].split()[0] == "16" and board[0] in text and board[-1] in text  # the board, north on top
    seat_lines = [line for line in text.splitlines() if line.startswith(("seat 0: ", "seat 1: "))]
    assert seat_lines == ["seat 0: 12 tiles on the board", "seat 1: 12 tiles on the board"]  # no zones, pieces left
    # the totals as the game counts them if it ended now (pieces left), not the 0 a board game holds until its end
    assert text.splitlines()[-1] == f"{state.rules.term('total').capitalize()}: seat 0 12 · seat 1 12"


def test_str_needs_the_engine_alone() -> None:
    """str(state) needs the engine alone: the replay (a layer above) is never loaded for it."""
    program = (
        "import random, sys\n"
        "from contack_core.engine.state import GameState\n"
        "from contack_core.primitives.loading import load_rules\n"
        "state = GameState(load_rules('parker-1939'), 2); rng = random.Random(2)\n"
        "while state.is_chance_node():\n"
        "    state.apply(state.sample_chance(rng))\n"
        "state.apply(state.legal_actions()[0])\n"
        "assert not any(m.startswith('contack_core.replay') for m in sys.modules)\n"
        "print(state)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=HANG, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "\nTriangles: [0, 0] " in run.stdout and "seat 1 to act" in run.stdout


@pytest.mark.parametrize(("rules_id", "seats", "kinds_met"), [
    ("parker-1939", 2, {"Play", "Draw", "Pass"}),
    ("klauber-1937", 2, {"Move"}),
    ("contactack", 2, {"Play"}),
    ("rulesets/examples/two-discard-piles.yaml", 1, {"Play", "Discard"}),
])
def test_action_to_string_is_read_back_by_the_keeper(rules_id: str, seats: int, kinds_met: set[str],
                                                     tmp_path: Path) -> None:
    """Every legal action of a seeded game, named, is what the score keeper reads from it."""
    root = Path(__file__).resolve().parent.parent
    rules = contack_core.load_rules(str(root / rules_id) if rules_id.endswith(".yaml") else rules_id)
    names = [f"p{seat}" for seat in range(seats)]
    keeper = Keeper.start(rules, names, tmp_path / "game.jsonl", lambda text: None)
    table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
    rng = random.Random(5)
    kinds: set[type] = set()
    try:
        for _ in range(60):
            state, due = keeper.state, keeper.due()
            if due.kind == "over":
                break
            if due.kind == "turn":
                legal = state.legal_actions()
                for action in legal:
                    if type(action) is contack_core.Draw and action.tile is None:
                        action = contack_core.Draw(state.zone("stock")[-1])  # the table names the tile drawn
                    assert table.turn_action(contack_core.action_to_string(state, action), due) == action
                    kinds.add(type(action))
                chosen = rng.choice(legal)
                if type(chosen) is contack_core.Draw and chosen.tile is None:
                    chosen = contack_core.Draw(state.zone("stock")[-1])
            else:
                chosen = state.clone().sample_chance(rng)
                if isinstance(chosen, contack_core.Deal):
                    text = contack_core.action_to_string(state, chosen)
                    assert tuple(read_tiles(text, rules.tiles)) == chosen.tiles
            keeper.enter(chosen)
    finally:
        keeper.close()
    assert kinds_met <= {kind.__name__ for kind in kinds}, kinds


def test_a_shuffle_has_no_typed_name() -> None:
    state = contack_core.GameState(contack_core.load_rules("parker-1939"), 2)
    shuffle = state.sample_chance(random.Random(0))
    assert type(shuffle) is contack_core.Shuffle
    with pytest.raises(ValueError, match="never typed"):
        contack_core.action_to_string(state, shuffle)


#: The hooks through which the rule primitives change a state mid-action: private, so that a
#: program embedding contack changes a state only by ``apply``.
HOOKS = ("setup_step_done", "deal_to", "deal_to_zone", "shuffle", "end_turn", "next_seat")


def test_the_hooks_the_primitives_call_are_private() -> None:
    public = {name for name in dir(contack_core.GameState) if not name.startswith("_")}
    assert public.isdisjoint(HOOKS), sorted(public & set(HOOKS))
    assert all(callable(getattr(contack_core.GameState, f"_{hook}")) for hook in HOOKS)
    state = _dealt("parker-1939", 2, seed=0)  # the set-up ran through the renamed hooks
    assert not state.is_chance_node() and [len(hand) for hand in state.seat_zones["hand"]] == [5, 5]


def test_str_draws_the_figure_as_the_replay_maps_it() -> None:
    """str(state) draws a figure, not only lists it: the lattice map of the replay's terminal view
    (each tile as its cell points, the last one laid starred, the cells open to a play dotted)."""
    from contack_core.replay.terminal import state_picture

    state = _dealt("parker-1939", 2, seed=3)
    rng = random.Random(3)
    while len(state.figure.tile_at) < 3 or state.is_chance_node() or state.is_over():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    picture = state_picture(state)
    assert picture is not None
    rows = [line for line in picture if line.startswith("  |") or line.startswith("  (x ")]
    assert any("*" in row for row in rows) and any("·" in row for row in rows)
    assert "\n".join(rows) in str(state)
