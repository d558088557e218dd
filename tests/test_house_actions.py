"""Actions of a house rule's own (the ``house-action`` turn primitive, docs/house-rules.md): the two
examples take effect in played games exactly as their rules say (the exchange, the redraw, their
limits and cost; the redeal's shuffle, chance in the middle of play), their records audit sound and a record that breaks a rule is refused naming the
line, the keeper and the human player take them typed, the wire hides what a seat cannot see,
and two house actions live in one ruleset."""

from __future__ import annotations

import io
import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import play_recorded_game, read_lines, run_cli, write_lines

from contack_core import (
    CHANCE,
    Action,
    Draw,
    GameState,
    HouseActed,
    HouseAction,
    IllegalAction,
    Pass,
    Play,
    Shuffle,
    load_rules,
)
from contack_core.engine.notation import action_to_string, event_to_string, parse_action
from contack_core.engine.rules import Rules
from contack_core.records.audit import audit_record
from contack_core.records.keeper import Keeper
from contack_core.records.table import Refused, Table
from players.human import HumanPlayer
from players.protocol import event_json

EXCHANGE = load_rules("exchange-once-a-hand")
REDRAW = load_rules("redraw-once-a-game")
REDEAL = load_rules("solitaire-redeal")
PARKER = load_rules("parker-1939")


def running(state: GameState, counter: str = "score") -> list[int]:
    return [t + g for t, g in zip(state.totals[counter], state.hand_gains[counter])]


def house_steps(rules: Rules, seats: int, seeds: range) -> list[tuple[GameState, HouseAction, GameState, HouseActed]]:
    """Every house action of random games: the state before, the action, the state after, the event."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GameState(rules, seats)
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            action = rng.choice(state.legal_actions())
            before = state.clone()
            event = state.apply(action)
            if isinstance(action, HouseAction):
                assert isinstance(event, HouseActed)
                found.append((before, action, state.clone(), event))
    return found


def ready(rules: Rules, seats: int, seed: int) -> GameState:
    """A game past its set-up (dealt, the figure opened): the first seat's turn."""
    rng = random.Random(seed)
    state = GameState(rules, seats)
    while state.is_chance_node() or state.setup_step is not None:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    return state


# ---------------------------------------------------------------------------- the exchange
def test_the_exchange_puts_the_chosen_tile_under_the_pile_and_draws_the_top_once_a_hand() -> None:
    steps = house_steps(EXCHANGE, 3, range(6))
    assert len(steps) >= 10, "the random players never exchanged"
    for before, action, after, event in steps:
        seat = before.current
        top = before.zones["stock"][-1]
        hand = list(before.seat_zones["hand"][seat])
        assert action.tile in hand
        hand.remove(action.tile)  # type: ignore[arg-type]
        assert after.seat_zones["hand"][seat] == [*hand, top]
        assert after.zones["stock"] == [action.tile, *before.zones["stock"][:-1]]  # bottom is index 0
        assert (event.returned, event.drawn, event.amount) == ((action.tile,), (top,), 0)
        assert after.current == seat  # the turn goes on: the seat plays on
        assert running(after) == running(before)  # it costs nothing
        # Once a hand: the seat is not offered it again in this hand.
        assert not [a for a in after.legal_actions() if isinstance(a, HouseAction)]
    for seed in range(6):
        game = house_steps(EXCHANGE, 3, range(seed, seed + 1))
        uses = Counter((before.hand_number, before.current) for before, _, _, _ in game)
        assert not uses or max(uses.values()) == 1
    # ...and again in the next hand: seats exchange in more than one hand of a game.
    assert len({before.hand_number for before, _, _, _ in steps}) > 1


def test_the_exchange_is_refused_a_second_time_in_a_hand_and_says_why() -> None:
    state = ready(EXCHANGE, 2, 4)
    seat = state.current
    state.apply(HouseAction("exchange", state.seat_zones["hand"][seat][0]))
    with pytest.raises(IllegalAction, match=r"exchange may be taken once a hand: seat \d has taken it already"):
        state.apply(HouseAction("exchange", state.seat_zones["hand"][seat][0]))
    with pytest.raises(IllegalAction, match="this ruleset has no action 'swap' \\(its own: exchange\\)"):
        state.apply(HouseAction("swap", 0))


def test_the_exchange_is_not_offered_when_the_pile_is_empty() -> None:
    state = ready(EXCHANGE, 2, 4)
    state.zones["stock"].clear()
    state._legal = None
    assert not [a for a in state.legal_actions() if isinstance(a, HouseAction)]


# ---------------------------------------------------------------------------- the redraw
def test_the_redraw_returns_the_whole_hand_draws_as_many_and_costs_10_once_a_game() -> None:
    steps = house_steps(REDRAW, 3, range(6))
    assert len(steps) >= 6, "the random players never redrew"
    for before, action, after, event in steps:
        seat = before.current
        hand = before.seat_zones["hand"][seat]
        stock = before.zones["stock"]
        drawn = list(reversed(stock[len(stock) - len(hand):]))  # the top tiles, top first
        assert action.tile is None and after.seat_zones["hand"][seat] == drawn
        assert after.zones["stock"][: len(hand)] == list(reversed(hand))  # under the pile
        assert event.amount == -10
        gained = [a - b for a, b in zip(running(after), running(before))]
        assert gained == [-10 if s == seat else 0 for s in range(3)]
        assert not [a for a in after.legal_actions() if isinstance(a, HouseAction)]
    # Once a game: each seat redraws at most once in each game.
    for seed in range(6):
        seen = [before.current for before, _, _, _ in house_steps(REDRAW, 3, range(seed, seed + 1))]
        assert len(seen) == len(set(seen)) <= 3


def test_the_cost_follows_its_option() -> None:
    free = load_rules("redraw-once-a-game", {"redraw_cost": 0})
    for before, _, after, event in house_steps(free, 2, range(3)):
        assert event.amount == 0 and running(after) == running(before)


# ---------------------------------------------------------------------------- records
@pytest.mark.parametrize(("rules", "rule"), [(EXCHANGE, "exchange"), (REDRAW, "redraw")], ids=["exchange", "redraw"])
def test_a_record_names_every_tile_and_audits_sound(rules: Rules, rule: str, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    state = play_recorded_game(3, 2, path, rules=rules)
    lines = read_lines(path)
    house = [line for line in lines if line.get("event") == "house"]
    assert house and all(line["rule"] == rule and line["drawn"] for line in house)
    assert all(len(line["returned"]) == len(line["drawn"]) for line in house)
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished and verdict.totals == state.scores(), verdict
    # The keeper's seedless game replays: the header without a seed audits the same.
    lines[0].pop("seed", None)
    write_lines(path, lines)
    assert audit_record(path).valid


def exchange_record(tmp_path: Path) -> tuple[Path, list[dict], int]:
    """A recorded game of the exchange, and the index of its first exchange line."""
    path = tmp_path / "game.jsonl"
    play_recorded_game(2, 3, path, rules=EXCHANGE)
    lines = read_lines(path)
    first = next(i for i, line in enumerate(lines) if line.get("event") == "house")
    return path, lines, first


def verdict_of(path: Path, lines: list[dict]) -> tuple[int | None, str | None]:
    write_lines(path, lines)
    verdict = audit_record(path)
    assert not verdict.valid
    return verdict.line, verdict.error


def test_a_record_that_exchanges_twice_in_a_hand_is_refused_at_that_line(tmp_path: Path) -> None:
    path, lines, first = exchange_record(tmp_path)
    again = dict(lines[first])
    again["tile"] = again["drawn"][0]  # the tile just drawn is in the hand now
    again["returned"] = [again["tile"]]
    again["drawn"] = [lines[first]["returned"][0]]
    line, error = verdict_of(path, lines[: first + 1] + [again] + lines[first + 1:])
    assert line == first + 2  # lines count from 1
    assert error is not None and "exchange may be taken once a hand" in error


def test_a_record_drawing_what_the_exchange_put_under_the_pile_is_refused(tmp_path: Path) -> None:
    path, lines, first = exchange_record(tmp_path)
    bad = dict(lines[first], drawn=lines[first]["returned"])
    line, error = verdict_of(path, lines[:first] + [bad] + lines[first + 1:])
    assert line == first + 1 and error is not None and "where the draw does not reach it" in error


def test_a_record_must_name_the_tiles_drawn_and_state_the_right_cost(tmp_path: Path) -> None:
    path, lines, first = exchange_record(tmp_path)
    unnamed = {k: v for k, v in lines[first].items() if k != "drawn"}
    line, error = verdict_of(path, lines[:first] + [unnamed] + lines[first + 1:])
    assert line == first + 1 and error is not None and "a record names them" in error
    costly = dict(lines[first], amount=-10)
    line, error = verdict_of(path, lines[:first] + [costly] + lines[first + 1:])
    assert line == first + 1 and error is not None and "adds 0 to its counter, not -10" in error
    seen = dict(lines[first], drawn=[lines[first]["tile"]])
    line, error = verdict_of(path, lines[:first] + [seen] + lines[first + 1:])
    assert line == first + 1 and error is not None


def test_a_redraw_record_states_its_cost_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_recorded_game(2, 1, path, rules=REDRAW)
    lines = read_lines(path)
    first = next(i for i, line in enumerate(lines) if line.get("event") == "house")
    assert lines[first]["amount"] == -10
    line, error = verdict_of(path, lines[:first] + [dict(lines[first], amount=-5)] + lines[first + 1:])
    assert line == first + 1 and error is not None and "adds -10 to its counter, not -5" in error


# ---------------------------------------------------------------------------- typed, told, sent
def test_the_notation_writes_and_reads_a_house_action() -> None:
    state = ready(EXCHANGE, 2, 4)
    names = EXCHANGE.tiles.names
    tile = state.seat_zones["hand"][state.current][1]
    action = HouseAction("exchange", tile)
    assert action_to_string(state, action) == f"exchange {names[tile]}"
    assert parse_action(state, f"EXCHANGE {names[tile]}") == action
    named = HouseAction("exchange", tile, (state.zones["stock"][0],))
    assert parse_action(state, action_to_string(state, named)) == named
    event = state.apply(action)
    told = event_to_string(state, event)
    assert told == f"seat 0 exchanges: returns {names[tile]}, draws {names[event.drawn[0]]}".replace(
        "seat 0", state.who(event.seat))


def test_the_keeper_takes_a_typed_exchange_with_the_tile_drawn_named(tmp_path: Path) -> None:
    path = tmp_path / "kept.jsonl"
    keeper = Keeper.start(EXCHANGE, ["ann", "bob"], path, lambda text: None)
    table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
    rng = random.Random(4)
    names = EXCHANGE.tiles.names
    try:
        while keeper.due().kind != "turn" or keeper.state.setup_step is not None:
            state = keeper.state
            keeper.enter(state.clone().sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
        state = keeper.state
        tile = state.seat_zones["hand"][state.current][0]
        due = keeper.due()
        with pytest.raises(Refused, match="name the tiles drawn"):
            table.turn_action(f"exchange {names[tile]}", due)
        unseen = state.zones["stock"][3]  # at a table any unseen tile may come off the pile
        table.take(table.turn_action(f"exchange {names[tile]} drawing {names[unseen]}", due))
        assert unseen in keeper.state.seat_zones["hand"][state.current]
    finally:
        keeper.close()
    house = [line for line in read_lines(path) if line.get("event") == "house"]
    assert house == [{"event": "house", "seat": state.current, "rule": "exchange", "tile": names[tile],
                      "returned": [names[tile]], "drawn": [names[unseen]]}]
    assert audit_record(path).valid


def test_the_human_player_types_an_exchange() -> None:
    state = ready(EXCHANGE, 2, 4)
    person = HumanPlayer(0)
    person.output = io.StringIO()
    legal = state.legal_actions()
    tile = state.seat_zones["hand"][state.current][0]
    name = EXCHANGE.tiles.names[tile]
    assert person.interpret(f"exchange {name}", state, legal) == (HouseAction("exchange", tile), "")
    assert f"exchange {name}" in person.list_actions(state, legal)
    action, answer = person.interpret(f"exchange {name} drawing {name}", state, legal)
    assert action is None and "draws blind" in answer


HIDDEN = """\
format: contack-ruleset/1
id: closed-exchange
title: The exchange with closed hands
extends: examples/exchange-once-a-hand
zones:
  hand: {primitive: hand, visible: owner}
"""


def test_the_wire_and_observations_hide_what_an_exchange_returns_and_draws(tmp_path: Path) -> None:
    (tmp_path / "closed.yaml").write_text(HIDDEN, encoding="utf-8")
    rules = load_rules(tmp_path / "closed.yaml")
    state = ready(rules, 2, 4)
    seat = state.current
    other = 1 - seat
    event = state.apply(HouseAction("exchange", state.seat_zones["hand"][seat][0]))
    own = event_json(rules, event, seat, 2)
    assert own["drawn"] == [rules.tiles.names[event.drawn[0]]] and own["tile"] == rules.tiles.names[event.tile]
    told = event_json(rules, event, other, 2)
    assert told["drawn"] == [None] and told["returned"] == [None] and "tile" not in told
    seen = state.observation(other)
    assert set(seen["hand"][seat]) == {None} and set(seen["stock"]) == {None}  # type: ignore[arg-type]
    # Open hands (the example's own): every seat is told every tile.
    open_state = ready(EXCHANGE, 2, 4)
    opened = open_state.apply(HouseAction("exchange", open_state.seat_zones["hand"][open_state.current][0]))
    assert event_json(EXCHANGE, opened, 1 - open_state.current, 2)["drawn"] == [EXCHANGE.tiles.names[opened.drawn[0]]]


# ---------------------------------------------------------------------------- composing and refusing
BOTH = """\
format: contack-ruleset/1
id: both
title: Exchange once a hand and redraw once a game
extends: examples/exchange-once-a-hand
turn:
  redraw:
    primitive: house-action
    effects:
      - {return: all, from: hand, to: stock, at: top}
      - {draw: 2, from: stock, to: hand}
    limit: {times: 2, per: game}
    cost: {counter: score, amount: 5}
    ends_turn: true
"""


def test_two_house_actions_live_in_one_ruleset_and_both_are_played(tmp_path: Path) -> None:
    (tmp_path / "both.yaml").write_text(BOTH, encoding="utf-8")
    rules = load_rules(tmp_path / "both.yaml")
    steps = house_steps(rules, 2, range(4))
    used = Counter(action.rule for _, action, _, _ in steps)
    assert used["exchange"] and used["redraw"]
    for before, action, after, event in steps:
        if action.rule == "redraw":
            seat = before.current
            hand = before.seat_zones["hand"][seat]
            # Returned on top, so the draw takes back the last two returned (the top first), then the pile's.
            pile = [*before.zones["stock"], *hand]
            assert after.seat_zones["hand"][seat] == list(reversed(pile))[:2]
            assert event.amount == 5
            assert after.current != seat or after.hand_number != before.hand_number  # it ends the turn
    record = tmp_path / "game.jsonl"
    play_recorded_game(2, 1, record, rules=rules)
    assert {line.get("rule") for line in read_lines(record) if line.get("event") == "house"} <= {"exchange", "redraw"}
    assert audit_record(record).valid


@pytest.mark.parametrize(("ruleset", "effects", "message"), [
    ("parker-1939", "[{return: chosen, from: stock, to: stock}]",
     "at turn.swap.effects.0.from: zone 'stock' is a pile; expected hand"),
    ("parker-1939", "[{return: chosen, from: hand, to: stock}, {return: chosen, from: hand, to: stock}]",
     "at turn.swap.effects.1.return: an action returns one chosen tile at most"),
    ("parker-1939", "[{draw: many, from: stock, to: hand}]", "at turn.swap.effects.0.draw: unknown name 'many'"),
    ("parker-1939", "[{return: some, from: hand, to: stock}]", "at turn.swap.effects.0.return:"),
    ("parker-1939", "[{return: all, draw: 1, from: hand, to: stock}]", "at turn.swap.effects.0: an effect is a return"),
    ("parker-1939", "[{return: all, from: hand}]",
     "at turn.swap.effects.0: a return says where its tiles come from and go to: to is missing"),
    ("parker-1939", "[{return: all, from: stock, to: stock}]",
     "at turn.swap.effects.0.to: a return moves tiles from one zone to another, not onto stock itself"),
    ("parker-1939", "[{shuffle: stock, at: top}]", "at turn.swap.effects.0.at: a shuffle names its pile alone"),
    ("parker-1939", "[{shuffle: hand}]", "at turn.swap.effects.0.shuffle: zone 'hand' is a hand; expected pile"),
    ("parker-1939", "[{shuffle: stock}, {draw: 1, from: stock, to: hand}]",
     "at turn.swap.effects.0.shuffle: a shuffle is an action's last effect"),
    ("solitaire-1", "[{shuffle: discard}]",
     "at turn.swap.effects.0.shuffle: pile 'discard' lies face up: a shuffle mixes a face-down pile"),
    ("klauber-1937", "[{take_back: last, to: hand}]",
     "at turn.swap.effects.0.take_back: take_back lifts the tile laid last off the figure: this ruleset "
     "lays no tiles"),
    ("parker-1939", "[{take_back: last, from: hand, to: hand}]",
     "at turn.swap.effects.0.from: a take-back takes from the figure"),
    ("parker-1939", "[{take_back: last, to: hand, at: top}]",
     "at turn.swap.effects.0.at: a tile taken back into a seat's zone lies nowhere in particular"),
    ("parker-1939", "[{take_back: first, to: hand}]", "at turn.swap.effects.0.take_back:"),
])
def test_a_badly_built_house_action_is_one_clear_line(ruleset: str, effects: str, message: str,
                                                      tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"format: contack-ruleset/1\nid: bad\ntitle: Bad\nextends: {ruleset}\nturn:\n  swap:\n"
                   f"    primitive: house-action\n    effects: {effects}\n", encoding="utf-8")
    result = run_cli("rulesets", "validate", bad)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_bot_may_not_choose_the_tiles_it_draws() -> None:
    from contack_core.engine.bots import Player
    from contack_core.engine.referee import play_game
    from players.random_player import RandomPlayer

    class Cheat(Player):
        name = "cheat"

        def choose(self, state: GameState) -> Action:
            legal = state.legal_actions()
            offered = [a for a in legal if isinstance(a, HouseAction)]
            if not offered:
                return legal[0]
            return HouseAction("exchange", offered[0].tile, (state.zones["stock"][0],))  # the bottom tile, chosen

    state = play_game(EXCHANGE, [RandomPlayer(1), Cheat(2)], 3)
    assert state.faults and all("draws blind" in fault.reason for fault in state.faults), state.faults


@pytest.mark.parametrize("bot", ["greedy", "cautious", "mcts:iterations=12,depth=8"])
@pytest.mark.parametrize("example", ["exchange-once-a-hand", "redraw-once-a-game"])
def test_the_bots_take_the_house_actions_unchanged(bot: str, example: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = run_cli("play", example, "--seats", f"{bot},random", "--seed", "11", "--record", record, "--quiet",
                     "--time-limit", "0")
    assert result.exit_code == 0, result.output
    assert [line for line in read_lines(record) if line.get("event") == "house" and line["seat"] == 0]
    assert audit_record(record).valid


def test_the_replay_and_the_keeper_s_undo_tell_a_house_action_in_words(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    play_recorded_game(2, 1, record, rules=REDRAW)
    line = next(line for line in read_lines(record) if line.get("event") == "house")
    replay = run_cli("replay", record)
    assert replay.exit_code == 0, replay.output
    seat = f"p{line['seat']}"
    told = f"returns {' '.join(line['returned'])}, draws {' '.join(line['drawn'])} (-10)"
    assert f"{seat} (seat {line['seat']}) redraws: {told}" in replay.stdout
    from contack_core.records.table import entry_words

    assert entry_words(["p0", "p1"], line) == f"{seat} redraw drawing {' '.join(line['drawn'])}"


COUNTED = """\
format: contack-ruleset/1
id: counted
title: The exchange counted, and the hand ended by it
extends: examples/exchange-once-a-hand
scoring:
  score:
    on_house: "-3 * drawn"
  exchanges:
    primitive: counter
    on_house: 1
hand_end:
  third_exchange:
    primitive: condition
    after: [house]
    when: "exchanges >= 2"
"""


def test_counters_score_a_house_action_and_a_hand_ending_is_checked_after_it(tmp_path: Path) -> None:
    (tmp_path / "counted.yaml").write_text(COUNTED, encoding="utf-8")
    rules = load_rules(tmp_path / "counted.yaml")
    steps = house_steps(rules, 2, range(4))
    assert steps
    ended = 0
    for before, _, after, event in steps:
        seat = before.current
        if len(after.hand_results) == len(before.hand_results):
            assert [a - b for a, b in zip(running(after), running(before))] == [-3 if s == seat else 0 for s in (0, 1)]
            assert running(after, "exchanges")[seat] == running(before, "exchanges")[seat] + 1 < 2
        else:
            ended += 1
            assert after.hand_results[-1].reason == "third_exchange"
    assert ended, "no hand ended at its second exchange"


def test_contack_keep_takes_an_exchange_typed_at_the_table(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from contack_core.cli import app

    entries = ["07-03-06 06-07-04 03-07-08 03-04-01 06-02-05", "09-10-01 05-01-04 07-08-02 03-04-05 01-08-09",
               "exchange 01-08-09", "bob: exchange 1-8-9 drawing 4-5-6", "09-10-01 -1,0"]
    record = tmp_path / "kept.jsonl"
    result = CliRunner().invoke(app, ["keep", "exchange-once-a-hand", "--seats", "ann,bob", "--record", str(record)],
                                input="\n".join(entries) + "\n")
    assert "Traceback" not in result.output
    assert "refused: name the tiles drawn: exchange 01-08-09 drawing" in result.output
    assert "bob (seat 1) exchanges: returns 01-08-09, draws 04-05-06" in result.output
    assert "ann (seat 0) opens the hand with 03-04-01" in result.output  # the opening needs no entry
    assert result.output.count("refused:") == 1, result.output[-800:]
    house = [line for line in read_lines(record) if line.get("event") == "house"]
    assert house == [{"event": "house", "seat": 1, "rule": "exchange", "tile": "01-08-09", "returned": ["01-08-09"],
                      "drawn": ["04-05-06"]}]
    assert audit_record(record).valid


# ---------------------------------------------------------------------------- a shuffle in play
def test_the_redeal_gathers_the_tiles_laid_aside_and_chance_shuffles_them_into_the_pile() -> None:
    """Once the pile is out and nothing plays, the redeal is the one action left; it moves the
    discard pile onto the stock, leaves the game at a chance node whose outcome orders the stock,
    and play goes on with the same seat, drawing from the new pile; never twice a game."""
    taken = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GameState(REDEAL, 1)
        redeals = 0
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if not any(isinstance(action, HouseAction) for action in legal):
                state.apply(rng.choice(legal))
                continue
            assert legal == [HouseAction("redeal")]
            laid_aside = list(state.zones["discard"])
            assert state.zones["stock"] == [] and state.seat_zones["hand"][0] == [] and laid_aside
            event = state.apply(legal[0])
            redeals += 1
            assert isinstance(event, HouseActed)
            assert event.returned == tuple(laid_aside) and event.drawn == () and event.shuffled == "stock"
            assert state.zones["discard"] == [] and sorted(state.zones["stock"]) == sorted(laid_aside)
            assert state.is_chance_node() and state.current_seat() == CHANCE and state.legal_actions() == []
            with pytest.raises(IllegalAction, match="stock is being shuffled"):
                state.apply(Draw())
            outcome = state.sample_chance(rng)
            assert isinstance(outcome, Shuffle) and outcome.zone == "stock"
            assert sorted(outcome.order) == sorted(laid_aside)
            state.apply(outcome)
            assert not state.is_chance_node() and state.current == 0
            assert state.zones["stock"] == list(outcome.order)
            assert state.legal_actions() == [Draw()]
            drew = state.apply(Draw())
            assert drew.tile == outcome.order[-1]  # the top of the order chance chose
        assert redeals <= 1
        taken += redeals
    assert taken >= 6


def test_the_shuffle_in_play_is_chance_s_reproducible_from_its_rng() -> None:
    state = GameState(REDEAL, 1)
    rng = random.Random(0)
    while not state.is_chance_node() or state.setup_step is None or state.setup_step.shuffles != "stock" \
            or state.hand_number != 1 or not state.turns:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    orders = [state.clone().sample_chance(random.Random(seed)) for seed in (1, 1, 2)]
    assert orders[0] == orders[1] != orders[2]
    # A recorded shuffle must hold exactly the pile's tiles.
    wrong = Shuffle("stock", (*orders[0].order[1:], orders[0].order[1]))  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match="must hold exactly its tiles"):
        state.clone().apply(wrong)


def test_a_redeal_record_never_states_the_order_and_audits_sound(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_recorded_game(1, 3, path, rules=REDEAL)
    lines = read_lines(path)
    house = next(i for i, line in enumerate(lines) if line.get("event") == "house")
    assert lines[house]["rule"] == "redeal" and lines[house]["returned"] and lines[house]["drawn"] == []
    assert not any(line.get("event") == "shuffle" for line in lines)
    assert audit_record(path).valid
    # The draw after it names a tile of the new pile: one that lies in the figure is refused there.
    draw = next(i for i in range(house, len(lines)) if lines[i].get("event") == "draw")
    laid = next(line["tile"] for line in lines[:house] if line.get("event") == "play")
    lines[draw]["tile"] = laid
    write_lines(path, lines)
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == draw + 1 and laid in (verdict.error or "")


def test_the_keeper_takes_a_typed_redeal_and_goes_on_drawing(tmp_path: Path) -> None:
    path = tmp_path / "kept.jsonl"
    keeper = Keeper.start(REDEAL, ["ann"], path, lambda text: None)
    table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
    rng = random.Random(3)
    names = REDEAL.tiles.names
    try:
        while not any(isinstance(a, HouseAction) for a in keeper.state.legal_actions()):
            state = keeper.state
            keeper.enter(state.clone().sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        laid_aside = list(keeper.state.zones["discard"])
        table.take(table.turn_action("redeal", keeper.due()))
        assert not keeper.state.is_chance_node()  # the keeper made the shuffle, as at a set-up
        assert sorted(keeper.state.zones["stock"]) == sorted(laid_aside)
        drawn = laid_aside[0]  # at a table any tile of the new pile may come off it
        table.take(table.turn_action(f"draw {names[drawn]}", keeper.due()))
        assert keeper.state.seat_zones["hand"][0] == [drawn]
    finally:
        keeper.close()
    assert audit_record(path).valid


@pytest.mark.parametrize("bot", ["greedy", "cautious", "mcts:iterations=12,depth=8"])
def test_the_bots_play_on_through_a_shuffle_in_play(bot: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = run_cli("play", "solitaire-redeal", "--seats", bot, "--seed", "3", "--record", record, "--quiet",
                     "--time-limit", "0")
    assert result.exit_code == 0, result.output
    assert [line for line in read_lines(record) if line.get("event") == "house"]
    assert audit_record(record).valid


# ---------------------------------------------------------------------------- taking back the last tile
PICKUP = load_rules("pick-up-last-tile")


def test_lifting_the_last_tile_leaves_the_figure_as_before_it_was_laid() -> None:
    """At every play of random games, the figure after the play with that tile lifted is the
    figure before it: the same tiles, turns, demands, openings, last tile and cells next to it."""
    placement = PARKER.placement
    assert placement is not None
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GameState(PARKER, 3)
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            action = rng.choice(state.legal_actions())
            before = state.figure.clone()
            hand = state.hand_number
            state.apply(action)
            if not isinstance(action, Play) or state.hand_number != hand or len(before.tile_at) == 0:
                continue
            after = state.figure.clone()
            assert placement.lift_last(after) == (action.cell, action.tile)
            for field in ("tile_at", "rotation_at", "demands", "openings", "last", "free_next_to_last"):
                assert getattr(after, field) == getattr(before, field), field
            assert placement.legal_cells(after) == placement.legal_cells(before)
            checked += 1
    assert checked > 300


def pickup_steps(seeds: range) -> list[tuple[GameState, HouseAction, GameState, HouseActed]]:
    return house_steps(PICKUP, 3, seeds)


def test_the_pickup_takes_the_last_tile_into_the_hand_for_10_once_a_hand_when_stuck() -> None:
    found = pickup_steps(range(8))
    assert len(found) >= 5
    for before, action, after, event in found:
        seat = before.current
        legal = before.legal_actions()
        assert action == HouseAction("pickup") and {type(a) for a in legal} == {Pass, HouseAction}
        last = before.figure.last
        tile = before.figure.tile_at[last]
        assert event.taken == (tile,) and event.returned == event.drawn == () and event.amount == -10
        assert after.seat_zones["hand"][seat] == [*before.seat_zones["hand"][seat], tile]
        assert last not in after.figure.tile_at and len(after.figure.tile_at) == len(before.figure.tile_at) - 1
        assert running(after)[seat] == running(before)[seat] - 10
        assert after.current == seat and not after.is_chance_node()  # he plays on
        assert HouseAction("pickup") not in after.legal_actions()  # once a hand
    per_hand = Counter((id(before.hand_results), before.hand_number, before.current) for before, *_ in found)
    assert max(per_hand.values()) == 1


def test_a_pickup_record_names_the_tile_taken_back_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_recorded_game(3, 2, path, rules=PICKUP)
    lines = read_lines(path)
    house = next(i for i, line in enumerate(lines) if line.get("event") == "house")
    assert lines[house]["rule"] == "pickup" and len(lines[house]["taken"]) == 1 and lines[house]["amount"] == -10
    assert audit_record(path).valid
    other = next(line["tile"] for line in lines[:house] if line.get("event") == "play"
                 and line["tile"] != lines[house]["taken"][0])
    lines[house]["taken"] = [other]
    line, error = verdict_of(path, lines)
    assert line == house + 1 and error is not None and f"not {other}" in error


def test_the_keeper_takes_a_typed_pickup(tmp_path: Path) -> None:
    path = tmp_path / "kept.jsonl"
    keeper = Keeper.start(PICKUP, ["ann", "bob", "cy"], path, lambda text: None)
    table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
    rng = random.Random(2)
    try:
        while not any(isinstance(a, HouseAction) for a in keeper.state.legal_actions()):
            state = keeper.state
            keeper.enter(state.clone().sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        state = keeper.state
        last_tile = state.figure.tile_at[state.figure.last]
        table.take(table.turn_action("pickup", keeper.due()))
        assert last_tile in keeper.state.seat_zones["hand"][state.current]
    finally:
        keeper.close()
    assert [line["taken"] for line in read_lines(path) if line.get("event") == "house"] == [
        [PICKUP.tiles.names[last_tile]]]
    assert audit_record(path).valid


@pytest.mark.parametrize("bot", ["greedy", "cautious", "mcts:iterations=12,depth=8"])
def test_the_bots_take_the_pickup_unchanged(bot: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = run_cli("play", "pick-up-last-tile", "--seats", f"{bot},random,random", "--seed", "2", "--record", record,
                     "--quiet", "--time-limit", "0")
    assert result.exit_code == 0, result.output
    assert audit_record(record).valid


# ---------------------------------------------------------------------------- telling house actions apart
RISING = load_rules("exchange-at-rising-cost")


def test_one_counter_prices_the_exchange_by_its_uses_and_leaves_the_redraw_at_its_cost() -> None:
    """exchange-at-rising-cost: every exchange costs 5 times the exchanges its seat has made in
    the game (this one included), counted apart from the engine; every redraw costs its 10."""
    made: Counter[tuple[int, int]] = Counter()
    kinds: Counter[str] = Counter()
    for seed in range(10):
        for before, action, after, event in house_steps(RISING, 2, range(seed, seed + 1)):
            seat = before.current
            change = running(after)[seat] - running(before)[seat]
            kinds[action.rule] += 1
            if action.rule == "exchange":
                made[(seed, seat)] += 1
                assert change == -5 * made[(seed, seat)], (seed, seat, change)
            else:
                assert change == -10 and event.amount == -10
    assert kinds["exchange"] >= 10 and kinds["redraw"] >= 3 and max(made.values()) >= 3


def test_uses_bound_a_house_action_and_a_misspelt_or_misplaced_name_is_refused(tmp_path: Path) -> None:
    twice = tmp_path / "twice.yaml"
    twice.write_text("format: contack-ruleset/1\nid: twice\ntitle: Twice\nextends: exchange-once-a-hand\n"
                     "turn:\n  exchange:\n    limit: null\n    when: \"stock_count > 0 and exchange_uses < 2\"\n",
                     encoding="utf-8")
    rules = load_rules(str(twice))
    per_seat = [Counter(before.current for before, *_ in house_steps(rules, 2, range(seed, seed + 1)))
                for seed in range(4)]
    assert max(max(taken.values(), default=0) for taken in per_seat) == 2  # reached in a game, never passed
    bad = tmp_path / "bad.yaml"
    for formula, message in [("exchange_use < 2", "did you mean 'exchange_uses'?"),
                             ("exchange_action == 0", "unknown name 'exchange_action'")]:
        bad.write_text(f"format: contack-ruleset/1\nid: bad\ntitle: Bad\nextends: exchange-once-a-hand\n"
                       f"turn:\n  exchange:\n    when: \"{formula}\"\n", encoding="utf-8")
        result = run_cli("rulesets", "validate", bad)
        assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
