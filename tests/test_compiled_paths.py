"""The compiled paths a playout runs hold to the readable code they are compiled from
(docs/performance.md): a play from several zones (a solitaire's piles, a hand and a discard
pile), the tiles such a rule offers, the ending that waits for every listed zone to empty,
the set-up's sampled deals onto stacks and opening from a stack, a chips counter's
collection and the board game's endings. Random games compare the two at every step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from contack_core import load_rules
from contack_core.engine.actions import Deal, Play
from contack_core.engine.events import Played
from contack_core.engine.state import GameState
from contack_core.primitives.endings import ZoneEmptied
from contack_core.primitives.scoring import CollectFromOthers, Counter
from contack_core.primitives.turn import PlayTile


def _play_rule(rules: Any) -> PlayTile:
    return next(rule for rule in rules.turn if isinstance(rule, PlayTile))


def _position(state: GameState) -> tuple[Any, ...]:
    return (state.zones, state.seat_zones, dict(state.figure.tile_at), state.hand_gains, state.totals,
            state.ledger, state.current, state.over, [(r.reason, r.scores) for r in state.hand_results])


@pytest.mark.parametrize("ruleset", ["solitaire-1", "solitaire-2", "examples/two-discard-piles"])
def test_a_play_from_several_zones_is_compiled_and_does_what_the_readable_one_does(ruleset: str) -> None:
    rules = load_rules(ruleset)
    rule = _play_rule(rules)
    assert rule.single_zone is None and "apply" in vars(rule) and "tiles" in vars(rule)  # compiled at load
    low, high = rules.players
    rng = random.Random(5)
    checked = 0
    for game in range(40):
        state = GameState(rules, min(high, low + game % 3))
        while not state.over:
            if state.chance:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if state.setup_step is None:
                assert rule.tiles(state) == rule.readable_tiles(state)
                tried = [action for action in legal if type(action) is Play]
                # Tiles the seat cannot play from here, and cells no tile may go to, too.
                tried += [Play(tile, cell) for tile in rng.sample(range(36), 3)
                          for cell in rng.sample(sorted(state.figure.demands), min(2, len(state.figure.demands)))]
                for action in tried:
                    fast, slow = state.clone(), state.clone()
                    assert rule.apply(fast, action) == rule.readable_apply(slow, action)
                    assert _position(fast) == _position(slow)
                    checked += 1
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000


@pytest.mark.parametrize("ruleset", ["solitaire-1", "solitaire-2"])
def test_the_ending_on_every_listed_zone_emptied_is_compiled_as_it_reads(ruleset: str) -> None:
    rules = load_rules(ruleset)
    ending = next(e for e in rules.hand_end if isinstance(e, ZoneEmptied))
    assert ending.zone is None  # several zones: compiled, not a call of ends_hand
    assert "_ends" not in "".join(rules.consequences[Played].__code__.co_names)
    rng = random.Random(8)
    completed = 0
    for _ in range(300):
        state = GameState(rules, 1)
        while not state.over:
            if state.chance:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            event = state.apply(legal[rng.randrange(len(legal))])
            if type(event) is Played and state.setup_step is None:
                ended = state.over and state.hand_results[-1].reason == ending.key
                assert ended == ending.ends_hand(state, event)
                completed += ended
    assert completed > 0  # the comparison saw the ending fire


@pytest.mark.parametrize("ruleset", ["solitaire-1", "solitaire-2"])
def test_sampled_set_up_outcomes_do_what_the_checked_ones_do(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stack's deal and the opening from a stack, drawn by sample_chance, skip the checks a
    recorded outcome needs; the same outcome as a new object (as a record gives it) is checked."""
    rules = load_rules(ruleset)
    rng = random.Random(3)
    searching, drawing = GameState._take_named, []

    def take_named(state: GameState, source: str, tiles: Any) -> None:
        assert state not in drawing, f"a sampled deal looked for its tiles in {source}"  # the top, as drawn
        searching(state, source, tiles)

    monkeypatch.setattr(GameState, "_take_named", take_named)
    for _ in range(30):
        fast, slow = GameState(rules, 1), GameState(rules, 1)
        drawing[:] = [fast]
        while fast.chance:
            drawn = fast.sample_chance(rng)
            copy = Deal(drawn.seat, drawn.tiles, drawn.zone) if type(drawn) is Deal else \
                type(drawn)(*(getattr(drawn, field) for field in drawn.__slots__ if field != "__weakref__"))
            assert copy is not drawn
            assert fast.apply(drawn) == slow.apply(copy)
            assert _position(fast) == _position(slow)
        assert fast.legal_actions() == slow.legal_actions()


class _Refused:
    """Stands in for the chips formula's evaluator: play must not call it."""

    def evaluate(self, values: Any) -> Any:
        raise AssertionError("the expression evaluator was called in play")


def _club(options: dict[str, str], readable: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        if readable:  # what follows a play calls on_play, the readable collection
            patch.setattr(CollectFromOthers, "effect_source", Counter.effect_source)
        return load_rules("club-contack", options)


CLUB_OPTIONS = [{}, {"short_payer": "owes-the-rest", "chips_per_player": "2"},
                {"chips_per_player": "1"}, {"timed": "on", "lender": "players", "chips_per_player": "3"},
                {"chips_dealt": "box", "chip_box": "7", "tile_penalty_chips": "1"}]


@pytest.mark.parametrize("options", CLUB_OPTIONS)
def test_chips_collected_by_the_compiled_formula_as_by_the_readable_one(options: dict[str, str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    fast_rules, slow_rules = _club(options, False, monkeypatch), _club(options, True, monkeypatch)
    counter = next(c for c in fast_rules.counters.values() if isinstance(c, CollectFromOthers))
    monkeypatch.setattr(counter, "collect", _Refused())  # the compiled path never evaluates it
    moved = 0
    for game in range(12):
        seats = 2 + game % 3
        fast, slow = GameState(fast_rules, seats), GameState(slow_rules, seats)
        chance, picks = random.Random(game), random.Random(100 + game)
        while not fast.over:
            assert not slow.over
            if fast.chance:
                outcome = fast.sample_chance(chance)
                assert fast.apply(outcome) == slow.apply(outcome)
            else:
                legal = fast.legal_actions()
                assert legal == slow.legal_actions()
                action = legal[picks.randrange(len(legal))]
                assert fast.apply(action) == slow.apply(action)
            assert fast.effects == slow.effects
            moved += len(fast.effects)
            fast.effects.clear()
            slow.effects.clear()
            assert _position(fast) == _position(slow)
        assert slow.over and fast.scores() == slow.scores() and fast.winners() == slow.winners()
    assert moved > 50


TILE_RULESETS = ["parker-1939", "contactack", "solitaire-1", "solitaire-2", "examples/no-opportunity-plays",
                 "examples/any-exposed-side", "examples/three-sided-openings", "examples/two-discard-piles"]


@pytest.mark.parametrize("ruleset", TILE_RULESETS)
def test_the_turn_program_lists_the_plays_the_readable_generator_lists(ruleset: str) -> None:
    """The legal plays are compiled into the turn program (no call of ``plays``); at every
    decision of random games they are the plays ``ContactPlacement.plays`` lists, in its order."""
    rules = load_rules(ruleset)
    rule = _play_rule(rules)
    assert rule.when is None
    assert not any("plays" in name for name in rules.turn_program.__code__.co_names)
    low, high = rules.players
    rng = random.Random(11)
    compared = 0
    for game in range(25):
        state = GameState(rules, min(high, low + game % 3))
        while not state.over:
            if state.chance:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if state.setup_step is None:
                state.figure.legal_cells = None  # worked out again by the readable code
                readable = rules.placement.plays(state.figure, rule.readable_tiles(state))
                assert [action for action in legal if type(action) is Play] == readable
                compared += bool(readable)
            state.apply(legal[rng.randrange(len(legal))])
    assert compared > 100


def test_the_board_games_endings_are_compiled_as_they_read() -> None:
    """What follows a move (one side left, the two-piece tie, the move cap) checks each ending as its
    ``ends_hand`` reads: after every move, the first ending that holds is the one that ended the game."""
    reasons: set[str] = set()
    for options in ({}, {"two_players_tiles": "6", "move_cap": "0"}):
        rules = load_rules("klauber-1937", options)
        rng = random.Random(3)
        for game in range(12):
            state = GameState(rules, 2 + game % 2)
            while not state.over:
                legal = state.legal_actions()
                event = state.apply(legal[rng.randrange(len(legal))])
                holding = [ending.key for ending in rules.hand_end
                           if type(event) in ending.after and ending.ends_hand(state, event)]
                assert (state.hand_results[-1].reason if state.over else None) == (holding[0] if holding else None)
            reasons.add(state.hand_results[-1].reason)
    assert reasons == {"one_side_left", "endgame_tie", "move_cap"}  # the comparison saw each ending fire
