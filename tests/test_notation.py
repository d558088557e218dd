"""The one notation of actions and events (:mod:`contack_core.engine.notation`): every legal action
of random games of every ruleset survives text, record lines and the wire both ways, every event
the record and the wire; the score keeper and the human player read typed actions with the one
reader, so they take the same inputs."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import contack_core
from contack_core.engine.actions import Action, Deal, Discard, Draw, HouseAction, Move, Pass, Play, Shuffle
from contack_core.engine.events import ChipsMoved, Shuffled
from contack_core.engine.notation import (
    NotationError,
    Unfinished,
    action_from_json,
    action_from_record,
    action_to_json,
    action_to_record,
    action_to_string,
    chips_to_record,
    event_from_json,
    event_to_json,
    event_to_record,
    event_to_string,
    parse_action,
    tile_readings,
)
from contack_core.engine.state import GameState
from contack_core.language.documents import shipped_ruleset_ids
from contack_core.primitives.loading import load_rules
from contack_core.records.keeper import Keeper
from contack_core.records.table import Refused, Table
from players.human import HumanPlayer

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(str(path) for path in (ROOT / "rulesets" / "examples").glob("*.yaml"))
RULESETS = sorted(shipped_ruleset_ids()) + EXAMPLES
_LOADED: dict[str, object] = {}


def rules_of(ruleset: str):  # type: ignore[no-untyped-def]
    if ruleset not in _LOADED:
        _LOADED[ruleset] = load_rules(ruleset)
    return _LOADED[ruleset]


def choices_at(state: GameState, rng: random.Random) -> list[Action]:
    """The actions to try here: every legal action of the seat to act, or chance's outcome."""
    if state.is_chance_node():
        return [state.clone().sample_chance(rng)]
    return list(state.legal_actions())


def check_action(state: GameState, action: Action) -> None:
    """``action`` (legal in ``state``) back from its text, its record line and its wire object."""
    rules = state.rules
    assert action_from_json(rules, action_to_json(rules, action)) == action
    if type(action) is Shuffle:  # never typed, never recorded: the pile is the unseen tiles
        with pytest.raises(ValueError, match="never"):
            action_to_string(state, action)
        with pytest.raises(ValueError, match="never"):
            action_to_record(state, action)
        return
    text = action_to_string(state, action)
    assert parse_action(state, text) == action, (text, action)
    if not (type(action) is Draw and action.tile is None):  # a record names the tile drawn (the event does)
        assert action_from_record(rules.tiles, action_to_record(state, action)) == action


def check_events(before: GameState, after: GameState, action: Action, events: list[object]) -> None:
    """Each event of ``action`` back from the wire; its record line, applied again to the position
    before, makes the very same events (a record keeps what a replay needs)."""
    rules = after.rules
    for event in events:
        assert event_from_json(rules, event_to_json(rules, event)) == event  # type: ignore[arg-type]
        told = event_to_string(after, event)  # type: ignore[arg-type]
        assert (told is None) == (type(event) is Shuffled) and "\n" not in (told or "")
    line = event_to_record(after, events[0])  # type: ignore[arg-type]
    if type(events[0]) is Shuffled:
        assert line is None
        return
    assert line is not None
    again = before.clone()
    replayed = [again.apply(action_from_record(rules.tiles, line))]  # type: ignore[arg-type]
    replayed.extend(again.effects)
    assert replayed == events
    for event in events[1:]:
        if type(event) is ChipsMoved:
            assert event_to_record(after, event) == chips_to_record(event)


def random_game(ruleset: str, seed: int, steps: int) -> None:
    rules = rules_of(ruleset)
    rng = random.Random(seed)
    seats = rules.players[0] + seed % (rules.players[1] - rules.players[0] + 1)  # type: ignore[attr-defined]
    state = GameState(rules, seats)  # type: ignore[arg-type]
    for _ in range(steps):
        if state.is_over():
            break
        actions = choices_at(state, rng)
        for action in actions:
            check_action(state, action)
        chosen = actions[rng.randrange(len(actions))]
        before = state.clone()
        event = state.apply(chosen)
        check_events(before, state, chosen, [event, *state.effects])
        state.effects.clear()


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: Path(r).stem)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_every_action_and_event_of_a_random_game_round_trips(ruleset: str, seed: int) -> None:
    random_game(ruleset, seed, 70)


def test_every_ruleset_is_covered() -> None:
    assert {"parker-1939", "klauber-1937", "solitaire-1", "solitaire-2", "club-contack"} <= set(RULESETS)
    assert len(EXAMPLES) >= 10


# ------------------------------------------------------------------ one reader for the keeper and the human
def spellings(state: GameState, action: Action) -> list[str]:
    """The ways a person may type ``action``: the notation, and the forgiving forms."""
    tiles = state.rules.tiles
    written = action_to_string(state, action)
    found = [written, written.upper()]
    if type(action) in (Play, Discard, Draw) and action.tile is not None:  # type: ignore[union-attr]
        name = tiles.names[action.tile]  # type: ignore[union-attr]
        values = [str(v) for v in tiles.values[action.tile]]  # type: ignore[union-attr]
        for other in ("-".join(values), "".join(values), ".".join(values)):
            if tile_readings(other, tiles) == [action.tile]:  # type: ignore[union-attr]
                found.append(written.replace(name, other, 1))
    if type(action) is Play:
        x, y = action.cell
        found += [f"play {written}", f"{tiles.names[action.tile]} [{x}, {y}]", f"{tiles.names[action.tile]} {x} {y}"]
    if type(action) is Move:
        points = [action.origin, *action.path]
        found += [f"move {written}", f"m {written}", " -> ".join(f"[{x}, {y}]" for x, y in points)]
    if type(action) is Discard:
        found.append(f"x {tiles.names[action.tile]}" + (f" {action.zone}" if action.zone else ""))
    if type(action) is Pass:
        found += ["p", "Pass"]
    return found


@pytest.mark.parametrize(("ruleset", "seats"), [
    ("parker-1939", 3), ("klauber-1937", 2), ("solitaire-1", 1), ("solitaire-2", 1),
    (str(ROOT / "rulesets" / "examples" / "two-discard-piles.yaml"), 1), ("club-contack", 2),
    ("exchange-once-a-hand", 2),
], ids=lambda r: Path(str(r)).stem)
def test_the_keeper_and_the_human_take_the_same_typed_actions(ruleset: str, seats: int, tmp_path: Path) -> None:
    """Every spelling of every legal action, typed at the keeper's table and by the human player,
    is read to that action by both (the keeper asks a draw to name its tile, the human may not)."""
    rules = load_rules(ruleset)
    keeper = Keeper.start(rules, [f"p{seat}" for seat in range(seats)], tmp_path / "game.jsonl", lambda text: None)
    table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
    person = HumanPlayer(0)
    person.output = io.StringIO()
    rng = random.Random(3)
    typed = 0
    try:
        for _ in range(40):
            state, due = keeper.state, keeper.due()
            if due.kind == "over":
                break
            if due.kind != "turn":
                keeper.enter(state.clone().sample_chance(rng))
                continue
            legal = state.legal_actions()
            for action in legal:
                named = action
                if type(action) is Draw and action.tile is None:  # at the table the tile drawn is named
                    named = Draw(state.clone().apply(action).tile)  # type: ignore[union-attr]
                if type(action) is HouseAction:  # so are the tiles a house rule's own action draws
                    drawn = state.clone().apply(action).drawn  # type: ignore[union-attr]
                    named = HouseAction(action.rule, action.tile, drawn)
                for text in spellings(state, action):
                    assert person.interpret(text, state, legal)[0] == action, text
                    assert parse_action(state, text) == action, text
                    typed += 1
                    if named is action:
                        assert table.turn_action(text, due) == action, text
                    else:
                        with pytest.raises(Refused, match="name the tiles? drawn"):
                            table.turn_action(text, due)
                for text in spellings(state, named) if named is not action else ():
                    assert table.turn_action(text, due) == named, text
            chosen = rng.choice(legal)
            if type(chosen) is Draw and chosen.tile is None:
                chosen = Draw(state.clone().apply(chosen).tile)  # type: ignore[union-attr]
            if type(chosen) is HouseAction:
                drawn = state.clone().apply(chosen).drawn  # type: ignore[union-attr]
                chosen = HouseAction(chosen.rule, chosen.tile, drawn)
            keeper.enter(chosen)
    finally:
        keeper.close()
    assert typed > 20


def test_the_human_now_reads_tiles_and_cells_as_the_keeper_does() -> None:
    """Before the one reader the human player took only ``play 09-02-08 0,-1``; a tile spelt
    ``9-2-8`` or ``928``, a cell as ``[0, -1]``, and ``play`` left out were not understood."""
    rules = load_rules("parker-1939")
    rng = random.Random(1)
    state = GameState(rules, 2)
    while state.is_chance_node() or not any(type(a) is Play for a in state.legal_actions()):
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    play = next(a for a in legal if type(a) is Play)
    values = rules.tiles.values[play.tile]
    person = HumanPlayer(0)
    for text in (f"{'-'.join(map(str, values))} {play.cell[0]},{play.cell[1]}",
                 f"play {'.'.join(map(str, values))} [{play.cell[0]}, {play.cell[1]}]"):
        assert person.interpret(text, state, legal)[0] == play, text


# ------------------------------------------------------------------ bad input: one line saying why
def test_bad_typed_actions_are_told_in_one_line() -> None:
    rules = load_rules("parker-1939")
    state = GameState(rules, 2)
    with pytest.raises(NotationError, match="'hello' cannot be read here: the position is at a shuffle"):
        parse_action(state, "hello")  # a new game: nothing is typed before the deal
    rng = random.Random(0)
    while state.is_chance_node() or state.setup_step is not None:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    for text, expected in (("hello", "is not a tile"), ("99-99-99 0,0", "no tile '99-99-99'"),
                           ("01-02-03 nowhere", "not a cell"), ("x" * 2000, "at most 1,000 characters"),
                           ("nobody: pass", "no seat 'nobody'")):
        with pytest.raises(NotationError, match=expected) as caught:
            parse_action(state, text)
        assert "\n" not in str(caught.value)
    tile = state.seat_zones[next(iter(state.seat_zones))][state.current][0]
    with pytest.raises(Unfinished) as unfinished:
        parse_action(state, rules.tiles.names[tile])
    assert unfinished.value.tile == tile


def test_bad_wire_objects_are_told_in_one_line() -> None:
    rules = load_rules("parker-1939")
    for data, expected in (({"action": "fly"}, "no action 'fly'"),
                           ({"action": "play", "tile": "01-02-03"}, "lacks 'cell'"),
                           ({"action": "play", "tile": "99-99-99", "cell": [0, 0]}, "no tile"),
                           ({"action": "pass", "seat": 1}, "has no field 'seat'"), ([], "an action on the wire"),
                           ({"kind": "played", "seat": 0}, "lacks"), ({"kind": "won"}, "no event 'won'")):
        reader = event_from_json if "kind" in data else action_from_json
        with pytest.raises(ValueError, match=expected):
            reader(rules, data)  # type: ignore[operator]


def test_the_public_api_names_and_reads_actions() -> None:
    assert contack_core.action_to_string is action_to_string
    assert contack_core.parse_action is parse_action
    state = GameState(load_rules("klauber-1937"), 2)
    move = next(a for a in state.legal_actions() if type(a) is Move)
    assert contack_core.parse_action(state, contack_core.action_to_string(state, move)) == move
    assert action_to_string(state, move) == " ".join(f"{x},{y}" for x, y in (move.origin, *move.path))
    deal_state = GameState(load_rules("parker-1939"), 2)
    rng = random.Random(0)
    while not isinstance(outcome := deal_state.clone().sample_chance(rng), Deal):
        deal_state.apply(outcome)
    assert parse_action(deal_state, action_to_string(deal_state, outcome)) == outcome


@pytest.mark.parametrize("ruleset", ["parker-1939", "klauber-1937", "club-contack", "spanish-edition"])
def test_the_narrator_tells_each_event_in_the_notation_s_words(ruleset: str) -> None:
    """The narrator of ``contack play`` and of the score keeper says of each event what
    :func:`event_to_string` says (and nothing of a shuffle)."""
    from contack_core.records.narration import Narrator

    rules = load_rules(ruleset)
    said: list[str] = []
    narrator = Narrator(["ann", "bob"], said.append)
    state = GameState(rules, 2)
    rng = random.Random(2)
    for _ in range(80):
        if state.is_over():
            break
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        event = state.apply(action)
        for happened in (event, *state.effects):
            said.clear()
            narrator.event(state, happened)
            told = event_to_string(state, happened, lambda seat: narrator.who(seat, rules))
            assert said[:1] == ([] if told is None else [told])
        state.effects.clear()


def test_the_human_who_names_the_tile_to_draw_is_told_to_draw_blind() -> None:
    """The keeper's table names the tile drawn (``draw 09-02-08``); a person playing draws blind."""
    rules = load_rules("solitaire-1")
    state = GameState(rules, 1)
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    legal = state.legal_actions()
    assert Draw() in legal
    top = state.clone().apply(Draw()).tile  # type: ignore[union-attr]
    action, answer = HumanPlayer(0).interpret(f"draw {rules.tiles.names[top]}", state, legal)
    assert action is None and "you draw blind: type draw" in answer
    assert HumanPlayer(0).interpret("draw", state, legal)[0] == Draw()
