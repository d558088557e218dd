"""Properties of random games of every shipped ruleset, for every seat count it allows.

The foundation's property tests (test_properties.py) check Parker 1939 against a reference
model; these check what must hold whatever the ruleset: every tile is somewhere exactly
once, apply() accepts exactly the legal actions, chips are neither made nor lost, records
written while playing audit sound with the game's totals, and clones are independent.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from helpers import loaded_rules, play_recorded_game, random_playout, read_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import Draw, GameState, IllegalAction, Pass, Play
from contack_core.engine.actions import Discard
from contack_core.engine.rules import Rules
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from contack_core.primitives.scoring import CollectFromOthers
from contack_core.records.audit import audit_record

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Option sets worth exploring together besides one option at a time: they switch rules on.
EXTRA_OPTIONS: dict[str, list[dict[str, str]]] = {
    "club-contack": [{"timed": "on", "chips_per_player": "2", "timed_hands": "2"},
                     {"timed": "on", "lender": "players", "chips_per_player": "3", "clock_turns": "60"},
                     {"chips_per_player": "2", "tile_penalty_chips": "1"},
                     {"timed": "on", "lender": "players", "chips_per_player": "2", "tile_penalty_chips": "2",
                      "timed_hands": "2"}],
}


def rules_for(ruleset_id: str, options: dict[str, str]) -> Rules:
    return loaded_rules(ruleset_id, **options)


#: Every shipped ruleset and house-rule example.
RULESETS = [*shipped_ruleset_ids(), *shipped_example_ids()]


def option_variants(ruleset_id: str, bounds: bool) -> list[dict[str, str]]:
    """Each declared option set away from its default, one at a time (with what it
    ``requires``): every other value of a choice or on/off option, and, with ``bounds``, an
    integer option's least and greatest values."""
    declared = rules_for(ruleset_id, {}).document.get("options") or {}
    variants = []
    for name, spec in declared.items():
        kind = spec.get("type", "choice")
        if kind == "choice":
            values = [str(choice) for choice in spec["choices"] if str(choice) != str(spec["default"])]
        elif kind == "boolean":
            values = ["off" if spec["default"] in (True, "on") else "on"]
        else:
            values = [str(v) for v in (spec.get("min"), spec.get("max")) if bounds and v is not None
                      and v != spec["default"]]
        for value in values:
            variants.append({**{k: str(v) for k, v in (spec.get("requires") or {}).items()}, name: value})
    return variants


def _configurations(every_seat_count: bool, bounds: bool = False) -> list[Any]:
    """(ruleset id, options, seats): every shipped ruleset and example with its defaults at every
    seat count it allows (or, with ``every_seat_count`` false, the fewest, four and the most
    seats); each option away from its default (see :func:`option_variants`) and the extra
    option sets at one seat count (to stay fast)."""
    found = []
    for ruleset_id in RULESETS:
        low, high = rules_for(ruleset_id, {}).players
        counts = range(low, high + 1) if every_seat_count else sorted({low, min(max(low, 4), high), high})
        for seats in counts:
            found.append(pytest.param(ruleset_id, {}, seats, id=f"{ruleset_id}-{seats}seats"))
        for options in [*option_variants(ruleset_id, bounds), *EXTRA_OPTIONS.get(ruleset_id, [])]:
            low, high = rules_for(ruleset_id, options).players
            seats = min(max(low, 3), high)
            label = "-".join([ruleset_id, *(f"{k}={v}" for k, v in options.items()), f"{seats}seats"])
            found.append(pytest.param(ruleset_id, options, seats, id=label))
    return found


CONFIGURATIONS = _configurations(every_seat_count=True)
SOME_SEAT_COUNTS = _configurations(every_seat_count=False, bounds=True)
def test_every_shipped_ruleset_and_example_is_covered() -> None:
    covered = {param.values[0] for param in CONFIGURATIONS}
    assert covered == set(shipped_ruleset_ids()) | set(shipped_example_ids())
    assert {"examples/threes", "examples/two-colours"} <= covered
    assert {"parker-1939", "spanish-edition", "contactack", "club-contack", "solitaire-1", "solitaire-2"} <= covered


# --------------------------------------------------------------------------- invariants
def all_tiles(state: GameState) -> list[int]:
    tiles = list(state.figure.tile_at.values())
    for pile in state.zones.values():
        tiles.extend(pile)
    for per_seat in state.seat_zones.values():
        for own in per_seat:
            tiles.extend(own)
    return tiles


def assert_conserved(state: GameState) -> None:
    if state.rules.placement is None:
        return  # a board of pieces: captured pieces leave the game (tests/test_klauber.py checks its board)
    tiles = all_tiles(state)
    assert sorted(tiles) == list(range(len(state.rules.tiles))), "a tile is lost or in two places"


def chip_counters(state: GameState) -> list[CollectFromOthers]:
    return [c for c in state.rules.counters.values() if isinstance(c, CollectFromOthers)]


def assert_chips_conserved(state: GameState, penalties_paid: int) -> None:
    """Chips only change hands: net worths add up to what was dealt less the tile penalties
    paid to the bank; nobody holds fewer than none; the chips in hand are that plus what the
    bank has lent (a loan between players moves chips without making any)."""
    for counter in chip_counters(state):
        seats = state.seat_count
        net = [state.totals[counter.key][s] + (0 if state.over else state.hand_gains[counter.key][s])
               for s in range(seats)]
        assert sum(net) == seats * counter.starting_total(seats) - penalties_paid
        held = [counter.held(state, s) for s in range(seats)]
        assert min(held) >= 0, held
        bank_loans = sum(amount for (_, lender), amount in state.ledger.get(counter.key, {}).items() if lender is None)
        assert sum(held) == seats * counter.starting_total(seats) - penalties_paid + bank_loans


def view(state: GameState) -> dict[str, Any]:
    """Everything observable about a state, copied."""
    return {
        "seat": state.current_seat(), "legal": list(state.legal_actions()),
        "zones": {k: list(v) for k, v in state.zones.items()},
        "seat_zones": {k: [list(t) for t in v] for k, v in state.seat_zones.items()},
        "figure": dict(state.figure.tile_at), "last": state.figure.last,
        "totals": {k: list(v) for k, v in state.totals.items()},
        "gains": {k: list(v) for k, v in state.hand_gains.items()},
        "ledger": {k: dict(v) for k, v in state.ledger.items()},
        "results": len(state.hand_results), "hand": state.hand_number, "turns": state.turns,
        "over": state.is_over(), "chance": state.is_chance_node(),
    }


def candidates(state: GameState, rng: random.Random) -> list[Any]:
    """A few actions, legal or not, to probe that apply() accepts exactly the legal ones."""
    count = len(state.rules.tiles)
    cells = list(state.figure.tile_at) or [state.rules.board.origin]
    out: list[Any] = [Draw(), Pass(), Discard(rng.randrange(count))]
    for _ in range(3):
        x, y = rng.choice(cells)
        out.append(Play(rng.randrange(count), (x + rng.choice((-1, 0, 1)), y + rng.choice((-1, 0, 1)))))
    return out


def penalty_paid(state: GameState) -> int:
    """Chips that left the table when the last hand ended (tile penalties, paid to the bank):
    collections only move chips, so they are what the hand's scores sum to, negated."""
    return -sum(state.hand_results[-1].scores)


@pytest.mark.parametrize(("ruleset_id", "options", "seats"), CONFIGURATIONS)
@given(seed=SEEDS)
@FEW
def test_random_games_keep_the_invariants(ruleset_id: str, options: dict[str, str], seats: int, seed: int) -> None:
    rules = rules_for(ruleset_id, options)
    rng = random.Random(seed)
    state = GameState(rules, seats)
    penalties = 0
    initial = {name: counter.starting_total(seats) for name, counter in rules.counters.items()}
    assert_conserved(state)
    while not state.is_over():
        if state.is_chance_node():
            assert state.legal_actions() == []
            state.apply(state.sample_chance(rng))
            assert_conserved(state)
            continue
        legal = list(state.legal_actions())
        assert legal, "a seat to act always has an action"
        assert len(set(legal)) == len(legal)
        # apply() accepts exactly what legal_actions() lists, and a refusal changes nothing.
        for candidate in candidates(state, rng):
            probe = state.clone()
            before = view(probe)
            if candidate in legal:
                probe.apply(candidate)
            else:
                with pytest.raises(IllegalAction):
                    probe.apply(candidate)
                assert view(probe) == before
        results = len(state.hand_results)
        state.apply(legal[rng.randrange(len(legal))])
        state.effects.clear()
        assert_conserved(state)
        if len(state.hand_results) > results and chip_counters(state):
            penalties += penalty_paid(state)
        assert_chips_conserved(state, penalties)
    assert state.legal_actions() == []
    # Totals are the initial values plus the hands' scores, plus what the game's end added.
    counter = rules.match.counter
    assert state.scores() == [initial[counter] + sum(r.scores[s] for r in state.hand_results)
                              + state.final_gains[counter][s] for s in range(seats)]
    assert 1 <= len(state.hand_results) <= getattr(rules.match, "hands", 1)
    winners = state.winners()
    assert winners == sorted(set(winners)) and all(0 <= s < seats for s in winners)


@pytest.mark.parametrize(("ruleset_id", "options", "seats"), SOME_SEAT_COUNTS)
@given(seed=SEEDS)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_recorded_games_audit_sound_with_their_totals(ruleset_id: str, options: dict[str, str], seats: int,
                                                       seed: int) -> None:
    rules = rules_for(ruleset_id, options)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "game.jsonl"
        state = play_recorded_game(seats, seed, path, rules=rules)
        verdict = audit_record(path)
        assert verdict.valid and verdict.finished, verdict
        assert verdict.ruleset == rules.id
        assert verdict.totals == state.scores() and verdict.winners == state.winners()
        assert verdict.hands == len(state.hand_results)
        lines = read_lines(path)
        assert [tuple(ln["scores"]) for ln in lines if ln.get("event") == "hand_end"] == \
            [r.scores for r in state.hand_results]
        assert lines[-1]["event"] == "game_end" and lines[-1]["totals"] == state.scores()


@pytest.mark.parametrize(("ruleset_id", "options", "seats"), SOME_SEAT_COUNTS)
@given(seed=SEEDS, steps=st.integers(min_value=0, max_value=80))
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_clone_is_independent(ruleset_id: str, options: dict[str, str], seats: int, seed: int, steps: int) -> None:
    state = GameState(rules_for(ruleset_id, options), seats)
    random_playout(state, random.Random(seed), steps)
    original = view(state)
    twin = state.clone()
    assert view(twin) == original
    random_playout(twin, random.Random(seed + 1), 150)
    assert view(state) == original
    frozen = state.clone()
    frozen_view = view(frozen)
    random_playout(state, random.Random(seed + 2), 60)
    assert view(frozen) == frozen_view
