"""The readings the rule books leave open are options, each citing its sentence: every choice
changes play exactly where its sentence acts, on the same deals and the same moves.

A random Parker game is searched for the position a reading is about; its actions (chance
outcomes included) are then applied to a fresh game under each choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run_cli

from contack_core import GameState, load_rules
from contack_core.engine.actions import Action, IllegalAction, Pass, Play
from contack_core.engine.rules import Rules
from contack_core.primitives.setup import LowestTileOpens

PARKER = load_rules("parker-1939")


def actions_until(rules: Rules, seats: int, found: Callable[[GameState, Action], bool],
                  seeds: range = range(400)) -> list[Action]:
    """The actions of the first random game that reaches ``found`` (checked after each
    decision), up to and including that decision."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GameState(rules, seats)
        taken: list[Action] = []
        while not state.is_over():
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            taken.append(action)
            before = len(state.hand_results)
            state.apply(action)
            if len(state.hand_results) == before and found(state, action):
                return taken
    raise AssertionError("no game reached the position")


def replayed(rules: Rules, seats: int, actions: list[Action]) -> GameState:
    state = GameState(rules, seats)
    for action in actions:
        state.apply(action)
    return state


def closed_in_with_an_opening_left(state: GameState, action: Action) -> bool:
    """A play touching three tiles (no side of it left exposed), other openings remaining."""
    return (isinstance(action, Play) and state.figure.tile_at and not state.figure.free_next_to_last
            and bool(state.figure.openings))


# ------------------------------------------------------------------------- sealed_hand
def test_sealed_hand_after_a_three_sided_play_with_an_opening_left() -> None:
    """000: "the play of the hand ends there unless another Opportunity Opening is available";
    004: "no quedará ... ningún lado expuesto para la jugada siguiente, lo cual terminará el
    juego de esa mano"."""
    actions = actions_until(PARKER, 3, closed_in_with_an_opening_left)
    parker = replayed(PARKER, 3, actions)
    assert not parker.hand_results or parker.hand_results[-1].number < parker.hand_number  # the hand goes on
    assert parker.figure.openings and not parker.is_chance_node()
    spanish = replayed(load_rules("spanish-edition"), 3, actions)
    assert spanish.hand_results[-1].reason == "sealed"
    assert spanish.hand_results[-1].number == parker.hand_number
    at_once = replayed(load_rules("parker-1939", {"sealed_hand": "at-once"}), 3, actions)
    assert at_once.hand_results[-1].scores == spanish.hand_results[-1].scores


def test_spanish_edition_reads_the_hand_as_ended_by_default_and_may_read_it_the_english_way() -> None:
    assert load_rules("spanish-edition").options["sealed_hand"] == "at-once"
    assert PARKER.options["sealed_hand"] == "unless-opening"
    english_way = load_rules("spanish-edition", {"sealed_hand": "unless-opening"})
    assert english_way.digest() != load_rules("spanish-edition").digest()


def test_next_player_must_make_an_opportunity_play_or_the_hand_is_over() -> None:
    """003: "the following player must also play an Opportunity Play, or else the hand is over"."""
    rules = load_rules("parker-1939", {"sealed_hand": "next-player"})

    def next_seat_stuck(state: GameState, action: Action) -> bool:
        if not closed_in_with_an_opening_left(state, action):
            return False
        return not any(isinstance(a, Play) for a in state.legal_actions())

    actions = actions_until(rules, 4, next_seat_stuck)
    state = replayed(rules, 4, actions)
    assert state.legal_actions() == [Pass()]  # no draw instead of the opportunity play
    number = state.hand_number
    state.apply(Pass())
    assert state.hand_results[-1].number == number and state.hand_results[-1].reason == "no_opportunity_play"
    # Parker's player, on the same moves, draws (or passes) and the hand goes on.
    parker = replayed(PARKER, 4, actions)
    parker.apply(parker.legal_actions()[0])
    assert parker.hand_number == number and len(parker.hand_results) == number - 1


# ------------------------------------------------------------------------- opener_ties
def test_opener_ties_next_lowest_or_first_seat() -> None:
    """002: "If a tie the next smallest, etc."; the 1939 book is silent."""
    first_seat = load_rules("parker-1939", {"opener_ties": "first-seat"})
    for seed in range(300):
        rng = random.Random(seed)
        state = GameState(PARKER, 4)
        deals = []
        while state.is_chance_node():
            action = state.sample_chance(rng)
            deals.append(action)
            state.apply(action)
        lowest = [min(PARKER.setup[-1].primary[t] for t in hand) for hand in state.seat_zones["hand"]]
        holders = [seat for seat, low in enumerate(lowest) if low == min(lowest)]
        if len(holders) > 1 and state.current_seat() != holders[0]:
            other = replayed(first_seat, 4, deals)
            assert other.current_seat() == holders[0]
            return
    pytest.fail("no deal where the next-lowest tiles decide against the first seat")


_HIGH_OPENS = """format: contack-ruleset/1
extends: parker-1939
setup:
  open: {primitive: lowest-tile-opens, from: hand, order: ["-max(blue, red, gold)", "blue"], ties: first-seat}
"""


@pytest.fixture(scope="module")
def opening_rules(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rules]:
    path = tmp_path_factory.mktemp("opens") / "high-opens.yaml"
    path.write_text(_HIGH_OPENS, encoding="utf-8")
    return {"next-lowest": PARKER, "first-seat": load_rules("parker-1939", {"opener_ties": "first-seat"}),
            "house rule": load_rules(path)}


def _deal(step: LowestTileOpens, rng: random.Random, seats: int) -> list[list[int]]:
    """Up to six tiles to each seat; every other deal first gives two seats a tile each of one
    value, the rest of the tiles dealt being of higher values (a tie for the lowest tile)."""
    primary = step.primary
    tiles = rng.sample(range(36), 36)
    hands: list[list[int]] = [[] for _ in range(seats)]
    if rng.random() < 0.5:
        value = rng.choice([v for v in set(primary) if list(primary).count(v) > 1])
        first, second = rng.sample([t for t in tiles if primary[t] == value], 2)
        one, other = rng.sample(range(seats), 2)
        hands[one].append(first)
        hands[other].append(second)
        tiles = [t for t in tiles if primary[t] > value]
    for hand in hands:
        hand += [tiles.pop() for _ in range(min(rng.randint(0, 6 - len(hand)), len(tiles)))]
    return hands


@pytest.mark.parametrize("reading", ["next-lowest", "first-seat", "house rule"])
def test_the_opener_found_lowest_tile_first_is_the_one_a_pass_over_every_hand_finds(reading, opening_rules):
    """The opener is found by walking the tiles lowest first to the first one dealt; the pass over
    every tile dealt (which settles a tie between seats) must agree on 3,000 random deals of 2 to 7
    seats holding 0 to 6 tiles each, half of them with a tie for the lowest tile."""
    rules = opening_rules[reading]
    step, rng = rules.setup[-1], random.Random(reading)
    states = {seats: GameState(rules, seats) for seats in range(2, 8)}
    for _ in range(3000):
        state = states[rng.randint(2, 7)]
        state.seat_zones["hand"][:] = _deal(step, rng, state.seat_count)
        if not any(state.seat_zones["hand"]):
            with pytest.raises(IllegalAction, match="nobody holds a tile"):
                step._find_opener(state)
            continue
        assert step._find_opener(state) == step._find_tied_opener(state), state.seat_zones["hand"]


# ------------------------------------------------------------------------- Club Contack's chips
@pytest.mark.parametrize(("seats", "each"), [(2, 75), (3, 50), (4, 37), (7, 21)])
def test_club_chips_from_one_box_divided_equally(seats: int, each: int) -> None:
    """004: "todas las fichas se dividen igualmente entre los jugadores"."""
    rules = load_rules("club-contack", {"chips_dealt": "box", "chip_box": 150})
    assert GameState(rules, seats).scores() == [each] * seats
    assert GameState(load_rules("club-contack"), seats).scores() == [25] * seats


def test_club_short_payer_pays_what_he_has_or_owes_the_rest() -> None:
    short = {"chips_per_player": 1}
    pays = load_rules("club-contack", short)
    owes = load_rules("club-contack", {**short, "short_payer": "owes-the-rest"})

    def short_collection(state: GameState, action: Action) -> bool:
        return isinstance(action, Play) and any(effect.reason == "loan" for effect in state.effects) \
            if state.effects else False

    actions = actions_until(owes, 3, short_collection)
    owing = replayed(owes, 3, actions)
    paying = replayed(pays, 3, actions)
    assert any(e.reason == "loan" for e in owing.effects) and not any(e.reason == "loan" for e in paying.effects)
    collected = [e for e in owing.effects if e.reason == "collect"]
    assert sum(e.count for e in collected) > sum(e.count for e in paying.effects if e.reason == "collect")


def test_an_option_that_needs_another_is_refused_without_it() -> None:
    result = run_cli("play", "club-contack", "--seats", "random,random", "--option", "lender=players")
    assert result.exit_code == 1
    assert "option lender=players does nothing unless timed=on: choose that too (--option timed=on)" in result.output
    assert run_cli("play", "club-contack", "--seats", "random,random", "--option", "lender=players",
                   "--option", "timed=on", "--quiet").exit_code == 0


def test_a_choice_option_is_no_name_a_formula_reads(tmp_path: Path) -> None:
    """A choice's value is a word: it patches the ruleset, and formulas cannot read it."""
    bad = tmp_path / "words.yaml"
    bad.write_text("format: contack-ruleset/1\nid: words\ntitle: Words\nextends: parker-1939\n"
                   "scoring: {score: {on_hand_end: 'sealed_hand'}}\n", encoding="utf-8")
    result = run_cli("rulesets", "validate", bad)
    assert result.exit_code == 1 and "unknown name 'sealed_hand'" in result.output, result.output


# ------------------------------------------------------------------------- target_after_pass
def test_a_pass_leaves_the_target_or_frees_it() -> None:
    """000 says only that a player who cannot play "loses his turn": the target stays the last
    tile played (the default), or, read the other way, the next player may play against any
    exposed side until a tile is played again."""
    freed = load_rules("parker-1939", {"target_after_pass": "any-exposed-side"})
    actions = actions_until(PARKER, 3, lambda state, action: isinstance(action, Pass) and not state.is_chance_node()
                            and state.passes == 1)
    stays, frees = replayed(PARKER, 3, actions), replayed(freed, 3, actions)
    last = stays.figure.free_next_to_last
    assert all(a.cell in last or a.cell in stays.figure.openings for a in stays.legal_actions()
               if isinstance(a, Play))
    assert set(frees.figure.free_next_to_last) == set(frees.figure.demands) > set(last)
    cells = {a.cell for a in frees.legal_actions() if isinstance(a, Play)}
    assert cells <= set(frees.figure.demands)
    # The next play closes the free choice again.
    play = next((a for a in frees.legal_actions() if isinstance(a, Play)), None)
    if play is not None:
        frees.apply(play)
        assert set(frees.figure.free_next_to_last) <= set(frees.figure.neighbours(play.cell))
