"""What one game measures (tournaments/analysis/measure.py): a game made by hand, event by event,
whose every figure is worked out by hand below; the lead's summary on hand-made standings; and
every shipped ruleset and example, whose games count every decision's legal actions."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from contack_core import load_rules
from contack_core.engine.events import ChipsMoved, Dealt, Drew, HandResult, Moved, Passed, Played
from contack_core.engine.referee import RefereedGame
from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids
from tournaments.analysis.measure import (
    CLARITY_DECISIONS,
    BoardMeasure,
    GameMeasure,
    Snapshot,
    action_values,
    clarity,
    lead_summary,
    leader,
    snapshot,
)
from tournaments.play import Plan, play_one
from tournaments.schedule import schedule

PARKER = load_rules("parker-1939", {})


class HandMadeState:
    """The little of a state the measure reads, set by the test as the game goes."""

    def __init__(self, seats: int = 2) -> None:
        self.turns = 0
        self.chance = True
        self.over = False
        self.legal = 0
        self.standing = [0.0] * seats
        self.final: list[int] = []
        self.won: list[int] = []
        self.values: list[float] = []  # each legal action's value (clarity), when a test judges them

    def is_over(self) -> bool:
        return self.over

    def is_chance_node(self) -> bool:
        return self.chance

    def legal_actions(self) -> list[Any]:
        return [None] * self.legal

    def scores(self) -> list[int]:
        return self.final

    def winners(self) -> list[int]:
        return self.won


def decide(measure: GameMeasure, state: HandMadeState, event: Any, standing: list[float], legal_next: int | None,
           ) -> None:
    """A seat's decision: the state counts it, stands as given after it, and offers ``legal_next`` actions
    to the next decision (None: the hand ended, the next one is being set up)."""
    state.turns += 1
    state.standing = standing
    state.chance = legal_next is None
    state.legal = legal_next or 0
    measure.event(state, event)


def chance(measure: GameMeasure, state: HandMadeState, event: Any, legal_next: int | None = None) -> None:
    state.chance = legal_next is None
    state.legal = legal_next or 0
    measure.event(state, event)


def test_a_game_made_by_hand() -> None:
    """Two hands of two seats. Hand 1: seat 1 opens; seat 0 plays (3 legal), seat 1 draws (forced: 1),
    seat 1 plays (2), seat 0 plays out (1 legal). Hand 2: seat 0 opens; seat 1 passes (2 legal), seat 0
    plays (4), seat 1 plays out (1). Standings after each decision (seat 0, seat 1): 10-0, 10-0, 10-15,
    20-5 (hand 1 settled), 20-5, 25-5, 15-40; seat 1 wins 15-40."""
    state = HandMadeState()
    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing)
    measure.hand_started(state, 1)
    chance(measure, state, Dealt(0, (1, 2)))
    chance(measure, state, Dealt(1, (3, 4)))
    chance(measure, state, Played(1, 3, (0, 0), 0, 0, False), legal_next=3)  # the opening tile, laid in set-up
    decide(measure, state, Played(0, 1, (1, 0), 10, 1, False), [10, 0], 1)
    decide(measure, state, Drew(1, 5), [10, 0], 2)
    decide(measure, state, Played(1, 5, (0, 1), 15, 1, False), [10, 15], 1)
    decide(measure, state, Played(0, 2, (2, 0), 10, 1, False), [20, 5], None)
    measure.hand_ended(state, HandResult(1, "went_out", (20, 5), (0, 1), 0, None))
    measure.hand_started(state, 2)
    chance(measure, state, Dealt(0, (6, 7)))
    chance(measure, state, Dealt(1, (8, 9)))
    chance(measure, state, Played(0, 6, (0, 0), 0, 0, False), legal_next=2)
    decide(measure, state, Passed(1), [20, 5], 4)
    decide(measure, state, Played(0, 7, (1, 0), 5, 1, False), [25, 5], 1)
    state.over = True
    decide(measure, state, Played(1, 8, (0, 1), 35, 1, False), [15, 40], None)
    measure.hand_ended(state, HandResult(2, "went_out", (-10, 35), (1, 0), 1, None))
    state.final, state.won = [15, 40], [1]
    measure.game_ended(state)

    summary = measure.summary()
    assert summary["hands"] == [
        {"number": 1, "reason": "went_out", "opener": 1, "scores": [20, 5], "decisions": 4, "plays": 3, "draws": 1,
         "passes": 0, "discards": 0, "moves": 0, "house actions": 0},
        {"number": 2, "reason": "went_out", "opener": 0, "scores": [-10, 35], "decisions": 3, "plays": 2, "draws": 0,
         "passes": 1, "discards": 0, "moves": 0, "house actions": 0},
    ]
    assert summary["legal"] == 3 + 1 + 2 + 1 + 2 + 4 + 1
    assert summary["legal_squares"] == 9 + 1 + 4 + 1 + 4 + 16 + 1
    assert summary["choices"] == 4  # the decisions offering 3, 2, 2 and 4 actions
    assert summary["unseen"] == 0
    # Leaders after each point: none (0-0), 0, 0, 1, 0, 0, 0, 1, 1 (final): 0->1, 1->0, 0->1.
    assert summary["lead_changes"] == 3
    # Seat 1, the winner, was 10, 10, 15, 15 and 20 behind: at most 20.
    assert summary["drama"] == 20 and summary["trailed"] is True
    # After 3 of the 7 decisions (half-time: 3.5) seat 1 led 15 to 10: no comeback.
    assert summary["behind_at_half"] is False
    # It went ahead for good with the last decision, the 7th of 7.
    assert summary["decided_at"] == 1.0
    # Ludii's branching metrics: legal actions 3, 1, 2, 1, 2, 4, 1 at the seven decisions.
    assert summary["legal_max"] == 4
    assert summary["choice_legal"] == 3 + 2 + 2 + 4
    assert summary["legal_change"] == pytest.approx((1 - 3) / 6)
    # The final standings 15 to 40: the runner-up 25 behind.
    assert summary["final_gap"] == 25
    assert summary["moves_measured"] == 0 and summary["move_steps"] == 0
    assert "positional_repetition" not in summary  # no snapshot_of: the board is not measured


def test_chips_paid_after_a_decision_count_in_its_standing() -> None:
    """An effect (chips changing hands) is part of the decision that caused it, not a decision of its own."""
    state = HandMadeState()
    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing)
    measure.hand_started(state, 1)
    chance(measure, state, Played(0, 3, (0, 0), 0, 0, False), legal_next=2)
    decide(measure, state, Played(1, 1, (1, 0), 10, 1, False), [0, 10], 2)
    state.standing = [-2, 12]
    measure.event(state, ChipsMoved(0, 1, 2, "collect"))
    assert measure.lead[-1] == (1, (-2.0, 12.0))
    assert sum(hand["decisions"] for hand in measure.hands) == 1


def test_a_decision_whose_legal_actions_went_unseen_is_counted_apart() -> None:
    state = HandMadeState()
    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing)
    measure.hand_started(state, 1)  # still a chance node: nothing to count yet
    decide(measure, state, Passed(0), [0, 0], 1)  # came after a step the referee does not report
    assert measure.summary()["unseen"] == 1 and measure.summary()["legal"] == 0


def test_a_forfeited_game_has_no_lead_figures() -> None:
    state = HandMadeState()
    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing)
    measure.hand_started(state, 1)
    forfeited = RefereedGame(PARKER, 2)
    forfeited.forfeited_by = 0
    measure.game_ended(forfeited)
    assert {key: measure.summary()[key] for key in ("drama", "trailed", "decided_at")} == \
        {"drama": None, "trailed": None, "decided_at": None}


def test_lowest_wins_turns_the_standings_round() -> None:
    rules = SimpleNamespace(match=SimpleNamespace(teams=lambda n: [[s] for s in range(n)], highest=False))
    state = HandMadeState()
    measure = GameMeasure(rules, 2, standing_of=lambda s: s.standing)  # type: ignore[arg-type]
    measure.hand_started(state, 1)
    state.chance = False
    decide(measure, state, Played(0, 1, (0, 0), 0, 0, False), [3, 7], 1)
    assert leader(measure.lead[-1][1]) == 0  # 3 is better than 7 when the lowest wins


# --------------------------------------------------------------------------- the lead's summary
def test_a_level_lead_has_no_leader() -> None:
    points = [(0, (0, 0)), (1, (5, 5)), (2, (6, 5)), (3, (6, 6)), (4, (6, 7))]
    # The widest gap is 1; the leader's gap 0, 0, 1, 0, 1 (uncertainty 1 - 2/5); side 0's standing less
    # side 1's 0, 0, 1, 0, -1 moves 0, 1, 1, 1 (so does side 1's, mirrored); the winner ends 1 ahead.
    assert lead_summary(points, {1}, 4) == {"lead_changes": 1, "drama": 1, "trailed": True, "decided_at": 1.0,
                                            "behind_at_half": True,
                                            "uncertainty": pytest.approx(0.6), "instability": 0.75,
                                            "drama_share": 1.0, "margin": 1.0}


def test_a_winner_that_led_from_its_first_decision() -> None:
    points = [(0, (0, 0)), (1, (0, 3)), (2, (1, 5)), (3, (2, 9))]
    # Widest gap 7; the leader's gaps 0, 3, 4, 7 (mean 3.5); the relative standing 0, -3, -4, -7 moves
    # 3, 1, 3 (mean 7/3); the winner ends the widest gap ahead.
    assert lead_summary(points, {1}, 3) == {"lead_changes": 0, "drama": 0, "trailed": False, "decided_at": 1 / 3,
                                            "behind_at_half": False,
                                            "uncertainty": 0.5, "instability": pytest.approx(1 / 3),
                                            "drama_share": 0.0, "margin": 1.0}


def test_partners_win_together() -> None:
    """Three sides; the last two win together (a shared win): the lasting lead is theirs over side 0."""
    points = [(0, (0, 0, 0)), (2, (9, 1, 0)), (4, (9, 10, 10)), (6, (8, 12, 12))]
    # Widest gap 9 (9 to 0); the leader's gaps 0, 8, 0, 0 (mean 2). Each side's standing less the others'
    # mean: (0, 0, 0), (8.5, -3.5, -5), (-1, 0.5, 0.5), (-4, 2, 2): moves of 17/3, 19/3 and 2 (mean 14/3).
    assert lead_summary(points, {1, 2}, 8) == {"lead_changes": 0, "drama": 8, "trailed": True, "decided_at": 0.5,
                                               "behind_at_half": False,
                                               "uncertainty": pytest.approx(7 / 9),
                                               "instability": pytest.approx(14 / 27),
                                               "drama_share": pytest.approx(8 / 9), "margin": pytest.approx(4 / 9)}


def test_no_winner_or_one_side_leaves_the_winner_figures_out() -> None:
    # Nobody won: the lead's figures still hold (gaps 0, 1, 1; side 0's relative standing 0, 1, -1).
    assert lead_summary([(0, (0, 0)), (1, (1, 0)), (2, (0, 1))], set(), 2) == \
        {"lead_changes": 1, "drama": None, "trailed": None, "decided_at": None, "behind_at_half": None,
         "uncertainty": pytest.approx(1 / 3), "instability": 1.5, "drama_share": None, "margin": None}
    assert lead_summary([(0, (0,)), (1, (5,))], {0}, 1) == \
        {"lead_changes": None, "drama": None, "trailed": None, "decided_at": None, "behind_at_half": None,
         "uncertainty": None, "instability": None, "drama_share": None, "margin": None}


def test_sides_level_throughout_are_as_uncertain_and_stable_as_can_be() -> None:
    assert lead_summary([(0, (0, 0)), (1, (3, 3)), (2, (5, 5))], {0, 1}, 2) == \
        {"lead_changes": 0, "drama": None, "trailed": None, "decided_at": None, "behind_at_half": None,
         "uncertainty": 1.0, "instability": 0.0, "drama_share": None, "margin": None}


# --------------------------------------------------------------------------- clarity
def test_the_clarity_of_one_decision() -> None:
    """Values 10, 0, 0, 0: mean 2.5, the threshold 2.5 + 0.75 * 7.5 = 8.125, one action reaches it (1/4);
    spread sqrt((7.5^2 + 3 * 2.5^2) / 4). All alike: every action is as good as the best (1), spread 0.
    5, 4, 0: threshold 3 + 0.75 * 2 = 4.5, only the 5."""
    narrowness, spread = clarity([10, 0, 0, 0])
    assert narrowness == 0.25 and spread == pytest.approx(18.75 ** 0.5)
    assert clarity([3, 3]) == (1.0, 0.0)
    assert clarity([5, 4, 0])[0] == pytest.approx(1 / 3)
    assert clarity([-5, -5, -20])[0] == pytest.approx(2 / 3), "two actions tie for the best"


def test_a_game_made_by_hand_judges_each_decision_with_a_choice_once() -> None:
    """Decisions offering 3, 1 (forced), 2 and 4 actions, with values set by the test; a chip payment between
    two of them re-reads the same decision, which is judged once. Judged: 3 -> [9, 0, 0] (1/3, spread
    sqrt(18)), 2 -> [1, 1] (1, 0), 4 -> [4, 4, 0, 0] (1/2, 2)."""
    state = HandMadeState()
    offered: list[list[float]] = []

    def judge(s: HandMadeState) -> list[float]:
        offered.append(list(s.values))
        return s.values

    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing, action_values=judge)
    measure.hand_started(state, 1)
    state.values = [9, 0, 0]
    chance(measure, state, Played(1, 3, (0, 0), 0, 0, False), legal_next=3)
    state.values = [7]
    decide(measure, state, Played(0, 1, (1, 0), 10, 1, False), [10, 0], 1)
    state.values = [1, 1]
    decide(measure, state, Drew(1, 5), [10, 0], 2)
    measure.event(state, ChipsMoved(0, 1, 2, "collect"))  # the same decision to come: not judged again
    state.values = [4, 4, 0, 0]
    decide(measure, state, Played(1, 5, (0, 1), 15, 1, False), [10, 15], 4)
    state.over = True
    decide(measure, state, Played(0, 2, (2, 0), 10, 1, False), [20, 5], None)
    summary = measure.summary()
    assert offered == [[9, 0, 0], [1, 1], [4, 4, 0, 0]]
    assert summary["clarity_judged"] == 3
    assert summary["clarity"] == pytest.approx((1 / 3 + 1 + 1 / 2) / 3)
    assert summary["clarity_spread"] == pytest.approx((18 ** 0.5 + 0 + 2) / 3)


def test_a_long_game_judges_a_sample_spread_over_it() -> None:
    """With room for 2 judged decisions, 7 decisions with a choice: judged 0, 1, 2 (one too many: every second
    kept, 0 and 2), then 4 (too many again: every fourth, 0 and 4); 3, 5 and 6 are never judged."""
    state = HandMadeState()
    judged: list[int] = []

    def judge(s: HandMadeState) -> list[float]:
        judged.append(s.turns)
        return [float(s.turns), 0.0]

    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing, action_values=judge, clarity_decisions=2)
    measure.hand_started(state, 1)
    chance(measure, state, Played(1, 3, (0, 0), 0, 0, False), legal_next=2)
    for turn in range(7):
        decide(measure, state, Passed(turn % 2), [0, 0], 2)
    assert judged == [0, 1, 2, 4]
    assert [index for index, _, _ in measure.clarity] == [0, 4]
    # Turn 0 offered [0, 0] (alike: 1); turn 4 offered [4, 0] (1/2).
    assert measure.summary()["clarity"] == pytest.approx(0.75)


def test_no_judge_no_clarity() -> None:
    state = HandMadeState()
    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing)
    measure.hand_started(state, 1)
    chance(measure, state, Played(1, 3, (0, 0), 0, 0, False), legal_next=2)
    assert "clarity" not in measure.summary()


def test_every_legal_action_is_judged_by_the_movers_lead_after_it() -> None:
    """A real position: each legal action's value is the mover's lead on a copy after it, and the state
    itself is left as it was."""
    import random

    from contack_core import GameState
    from players.evaluation import leads

    state, rng = GameState(PARKER, 2), random.Random(7)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    before = state.clone()
    found = action_values(state)
    expected = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        expected.append(leads(after)[state.current])
    assert found == expected and len(found) >= 2
    assert state.legal_actions() == before.legal_actions() and state.turns == before.turns


def test_the_board_measure_on_snapshots_made_by_hand() -> None:
    """A board of 10 points. Hand 1: positions A, A, B, A, the last A's situation the first's; pieces on
    points {1}, {1, 2}, {2}, {2, 3}. Hand 2: position A again (a new hand repeats nothing), pieces {4}.
    Positional repetition 2 of 5 states, situational 1 of 5; coverage 4 of 10 points ever, (1 + 2 + 1 + 2
    + 1) / 10 / 5 on average; pieces 1 -> 2 in hand 1's three steps, none in hand 2's: 1/3 a step."""
    board = BoardMeasure()
    points = [frozenset({(1, 0)}), frozenset({(1, 0), (2, 0)}), frozenset({(2, 0)}), frozenset({(2, 0), (3, 0)})]
    board.new_hand()
    for position, situation, occupied in zip("AABA", ("a1", "a2", "b", "a1"), points):
        board.see(Snapshot(position, situation, occupied, 10))
    board.new_hand()
    board.see(Snapshot("A", "a1", frozenset({(4, 0)}), 10))
    summary = board.summary()
    assert summary["positional_repetition"] == pytest.approx(2 / 5)
    assert summary["situational_repetition"] == pytest.approx(1 / 5)
    assert summary["coverage"] == pytest.approx(4 / 10)
    assert summary["coverage_mean"] == pytest.approx(7 / 10 / 5)
    assert summary["pieces_change"] == pytest.approx(1 / 3)
    unbounded = BoardMeasure()
    unbounded.new_hand()
    unbounded.see(Snapshot("A", "a", frozenset({(0, 0)}), None))
    assert unbounded.summary()["coverage"] is None and unbounded.summary()["coverage_mean"] is None


def test_moves_are_measured_by_their_steps() -> None:
    """Two moves of a board of pieces, of 2 steps and 1: 3 steps in 2 moves (Ludii's move distance)."""
    state = HandMadeState()
    measure = GameMeasure(PARKER, 2, standing_of=lambda s: s.standing)
    measure.hand_started(state, 1)
    chance(measure, state, Dealt(0, (1,)), legal_next=5)
    decide(measure, state, Moved(0, 3, (4, 4), ((4, 5), (4, 6)), 1, (), (), False), [0, 0], 5)
    decide(measure, state, Moved(1, 9, (8, 8), ((8, 7),), 1, (), (), False), [0, 0], 5)
    summary = measure.summary()
    assert (summary["move_steps"], summary["moves_measured"]) == (3, 2)


def test_a_real_games_snapshots_read_its_board() -> None:
    """The snapshot of a real state: the lattice has no edge, Klauber's board has its points; the position
    is what lies where (unchanged by a draw), the situation also the hands (changed by it)."""
    import random

    from contack_core import GameState
    from contack_core.engine.actions import Draw

    state, rng = GameState(PARKER, 2), random.Random(3)
    while state.is_chance_node() or not any(isinstance(a, Draw) for a in state.legal_actions()):
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    before = snapshot(state)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Draw)))
    after = snapshot(state)
    assert before.sites is None and before.occupied == frozenset(state.figure.tile_at)
    assert after.position == before.position and after.situation != before.situation
    klauber = GameState(load_rules("klauber-1937", {}), 2)
    shot = snapshot(klauber)
    assert shot.sites == 17 * 17 and len(shot.occupied) == len(klauber.figure.tile_at) > 0


# --------------------------------------------------------------------------- real games
RULESETS = [*shipped_ruleset_ids(), *shipped_example_ids()]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_decision_of_every_ruleset_is_measured(ruleset: str) -> None:
    """Played games: the decisions counted are the state's, each with its legal actions seen, and each
    hand ends with a reason the ruleset has."""
    rules = load_rules(ruleset, {})
    seats = rules.players[0]
    plan = Plan(ruleset, {}, tuple(f"r{i}" for i in range(seats)), ("random",) * seats, ruleset, measure=True)
    endings = {ending.key for ending in rules.hand_end}
    for game in schedule(seats, [seats], 2, seed=4)[:2]:
        result = play_one(plan, game)
        assert result.status == "ok" and result.measures is not None
        measures = result.measures
        assert measures["unseen"] == 0
        decisions = sum(hand["decisions"] for hand in measures["hands"])
        assert decisions == sum(hand[kind] for hand in measures["hands"]
                                for kind in ("plays", "draws", "passes", "discards", "moves", "house actions"))
        assert measures["legal"] >= decisions > 0
        assert measures["legal_squares"] >= measures["legal"]
        if measures["sides"] > 1:
            assert 0 <= measures["uncertainty"] <= 1 and measures["instability"] >= 0
            assert measures["margin"] is None or 0 <= measures["margin"] <= 1
            assert measures["drama_share"] is None or 0 <= measures["drama_share"] <= 1
        assert all(hand["reason"] in endings for hand in measures["hands"])
        assert measures["legal_max"] * decisions >= measures["legal"]
        assert measures["choice_legal"] >= 2 * measures["choices"]
        assert measures["moves_measured"] == sum(hand["moves"] for hand in measures["hands"])
        assert 0 <= measures["situational_repetition"] <= measures["positional_repetition"] <= 1
        if rules.new_figure(seats).sites is None:
            assert measures["coverage"] is None and measures["coverage_mean"] is None
        else:
            assert 0 < measures["coverage_mean"] <= measures["coverage"] <= 1
        if measures["choices"]:
            assert 1 <= measures["clarity_judged"] <= min(CLARITY_DECISIONS, measures["choices"])
            assert 0 < measures["clarity"] <= 1 and measures["clarity_spread"] >= 0
        record_decisions = sum(1 for line in (result.record or "").splitlines()[1:]
                               if '"event": "play"' in line or '"event": "draw"' in line
                               or '"event": "pass"' in line or '"event": "discard"' in line
                               or '"event": "move"' in line or '"event": "house"' in line)
        # The record also holds each hand's opening tile when set-up lays it (at most one a hand).
        assert 0 <= record_decisions - decisions <= len(measures["hands"])
