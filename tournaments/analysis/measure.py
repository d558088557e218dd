"""What one game shows about its rules, measured as it is played (an observer of the referee).

A tournament worker playing an analysis game (``Plan.measure``) attaches a :class:`GameMeasure`
and stores its :meth:`~GameMeasure.summary` with the game: for each hand, how it ended, who
opened it, each seat's score in it and the decisions of each kind; for the game, how many
legal actions each decision offered, and how the lead went. The lead is read after every
decision from the standings as the ruleset would count them if the hand ended now (the bots'
own measure, :func:`players.evaluation.measure`: points made less the tiles held in Parker,
pieces left on Klauber's board), pooled by side (partners together), so a summary of the lead
needs nothing the worker throws away.

Ludii's board metrics read a :class:`Snapshot` of the position at each decision and at the end
(:class:`BoardMeasure`): repetition, board coverage and the pieces on the board.

Clarity (Ludii's ClarityNarrowness and ClarityVariance, ``Evaluation/src/metrics/single/
stateEvaluation/clarity``) needs every legal action of a decision judged, not only the one played:
at a sample of the decisions that offer a choice, each legal action is tried on a copy of the state
and judged by the mover's lead after it (:func:`action_values`; Ludii judges each move by a short
UCT search instead). The sample is every decision with a choice until :data:`CLARITY_DECISIONS`
are judged, then every second, fourth... of them (the stride doubles and the sample is thinned to
it), so a long game costs about as much as a short one and its sample still spans the whole game.

Everything here is a plain function of what the referee reports, so each figure can be
checked on a game made by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import attrs

from contack_core.engine.events import ChipsMoved, Discarded, Drew, Event, HandResult, HouseActed, Moved, Passed, Played
from contack_core.engine.referee import RefereedGame
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from players.evaluation import leads, measure

#: The most decisions with a choice whose every legal action is judged (clarity) before the sample thins.
CLARITY_DECISIONS = 16
#: Ludii's threshold of a good action: the mean of the actions' values plus this share of the way to the best.
NEAR_THE_BEST = 0.75

#: The kind of decision each event stands for, as the summary counts them.
KINDS: dict[type, str] = {Played: "plays", Drew: "draws", Passed: "passes", Discarded: "discards", Moved: "moves",
                          HouseActed: "house actions"}


@attrs.frozen
class Snapshot:
    """What Ludii's board metrics read of a state at a decision: ``position``, what lies where and how
    it is turned (Ludii's positional state); ``situation``, the position with the seat to act, the
    direction of play and every zone's tiles in order (Ludii's full state); ``occupied``, the points
    something lies on; ``sites``, how many points the board has (None: a board without edge)."""

    position: Hashable
    situation: Hashable
    occupied: frozenset[tuple[int, int]]
    sites: int | None


def snapshot(state: GameState) -> Snapshot:
    """The :class:`Snapshot` of a game's state."""
    figure = state.figure
    position = figure.layout()
    zones = tuple(tuple(tiles) for tiles in state.zones.values())
    seat_zones = tuple(tuple(tuple(tiles) for tiles in per_seat) for per_seat in state.seat_zones.values())
    return Snapshot(position, (position, state.current, state.direction, zones, seat_zones),
                    frozenset(figure.tile_at), figure.sites)


class BoardMeasure:
    """Ludii's metrics of the board over one game, from a :class:`Snapshot` at each decision and at the
    game's end: the share of states whose position (or whole situation) came earlier in the same hand
    (positional and situational repetition; a new hand's fresh deal repeats nothing); the share of the
    board's points something lay on at some time, and on average over the states (board coverage);
    the pieces on the board, their mean change from one state to the next within a hand."""

    def __init__(self) -> None:
        self.seen_at: tuple[int, int] | None = None  # (hand, decisions so far) of the last snapshot
        self.positions: set[Hashable] = set()  # this hand's
        self.situations: set[Hashable] = set()
        self.states = 0
        self.position_repeats = 0
        self.situation_repeats = 0
        self.covered: set[tuple[int, int]] = set()
        self.sites: int | None = None
        self.occupied_share = 0.0  # summed over the states
        self.pieces_change = 0  # summed over the hands: the pieces at a hand's last state less at its first
        self.piece_steps = 0  # summed over the hands: its states less one
        self.hand_pieces: tuple[int, int, int] | None = None  # this hand's (first, last, states)

    def new_hand(self) -> None:
        self.positions.clear()
        self.situations.clear()
        self._close_hand()

    def see(self, shot: Snapshot) -> None:
        self.states += 1
        self.position_repeats += shot.position in self.positions
        self.positions.add(shot.position)
        self.situation_repeats += shot.situation in self.situations
        self.situations.add(shot.situation)
        self.covered |= shot.occupied
        self.sites = shot.sites
        if shot.sites:
            self.occupied_share += len(shot.occupied) / shot.sites
        pieces = len(shot.occupied)
        first, _, states = self.hand_pieces or (pieces, pieces, 0)
        self.hand_pieces = (first, pieces, states + 1)

    def _close_hand(self) -> None:
        if self.hand_pieces is not None:
            first, last, states = self.hand_pieces
            self.pieces_change += last - first
            self.piece_steps += states - 1
            self.hand_pieces = None

    def summary(self) -> dict[str, float | None]:
        self._close_hand()
        states, sites = self.states, self.sites
        return {"positional_repetition": self.position_repeats / states if states else None,
                "situational_repetition": self.situation_repeats / states if states else None,
                "coverage": len(self.covered) / sites if sites and states else None,
                "coverage_mean": self.occupied_share / states if sites and states else None,
                "pieces_change": self.pieces_change / self.piece_steps if self.piece_steps else None}


class GameMeasure:
    """The referee's observer that measures one game (see the module's docstring).

    ``standing_of`` reads each seat's standing from a state (default: the bots' measure); a test
    may give its own, with states made by hand. ``action_values`` judges every legal action of a
    decision for clarity (a game played for an analysis: :func:`action_values`); None measures no
    clarity. ``snapshot_of`` reads the position at each decision for the board's metrics (a game
    played for an analysis: :func:`snapshot`); None measures none.
    """

    def __init__(self, rules: Rules, seat_count: int,
                 standing_of: Callable[[Any], Sequence[float]] = measure,
                 action_values: Callable[[Any], Sequence[float]] | None = None,
                 clarity_decisions: int = CLARITY_DECISIONS,
                 snapshot_of: Callable[[Any], Snapshot] | None = None) -> None:
        self.sides = rules.match.teams(seat_count)  # the match's sides: partners, or each seat alone
        self.lowest_wins = not rules.match.highest
        self.standing_of = standing_of
        self.hands: list[dict[str, Any]] = []
        self.turns = 0  # the state's decision count at the last event seen
        self.pending: int | None = None  # legal actions offered at the decision to come
        self.legal = 0
        self.legal_squares = 0  # for the spread of the legal actions a decision (branching spread)
        self.choices = 0
        self.unseen = 0  # decisions whose legal actions could not be counted (none expected)
        self.lead: list[tuple[int, tuple[float, ...]]] = []  # (decisions so far, each side's standing)
        self.outcome: dict[str, Any] = {}
        self.action_values = action_values
        self.clarity_decisions = clarity_decisions
        self.judged_at: tuple[int, int] | None = None  # (hand, decisions so far) of the last decision judged
        self.choice_index = 0  # decisions with a choice so far (the sample's clock)
        self.stride = 1
        self.clarity: list[tuple[int, float, float]] = []  # (choice index, narrowness, spread) of the sample
        self.legal_max = 0
        self.legal_first: int | None = None  # the legal actions of the first decision counted
        self.legal_last = 0  # and of the last
        self.choice_legal = 0  # legal actions summed over the decisions with a choice
        self.move_steps = 0  # the steps of every move (a board of pieces)
        self.moves = 0
        self.final_gap: float | None = None  # the best side's final standing less the runner-up's
        self.snapshot_of = snapshot_of
        self.board = BoardMeasure()

    # ----------------------------------------------------------------- the referee's calls
    def hand_started(self, state: Any, number: int) -> None:
        self.hands.append({"number": number, "reason": None, "opener": None, "scores": None, "decisions": 0,
                           **{kind: 0 for kind in KINDS.values()}})
        if not self.lead:
            self.lead.append((0, self._sides(state)))
        self.board.new_hand()
        self._expect_decision(state)  # a hand with no chance (a board laid out) starts at a decision

    def event(self, state: Any, event: Event) -> None:
        hand = self.hands[-1]
        if hand["opener"] is None and type(event) in (Played, Moved):
            hand["opener"] = event.seat
        if type(event) is Moved:
            self.move_steps += len(event.path)
            self.moves += 1
        if state.turns != self.turns:  # a seat's decision (chance and what follows a decision are not)
            self.turns = state.turns
            hand["decisions"] += 1
            kind = KINDS.get(type(event))
            if kind is not None:
                hand[kind] += 1
            if self.pending is None:
                self.unseen += 1
            else:
                self.legal += self.pending
                self.legal_squares += self.pending ** 2
                self.choices += self.pending > 1
                self.choice_legal += self.pending if self.pending > 1 else 0
                self.legal_max = max(self.legal_max, self.pending)
                if self.legal_first is None:
                    self.legal_first = self.pending
                self.legal_last = self.pending
            self.lead.append((self.turns, self._sides(state)))
        elif type(event) is ChipsMoved and state.turns:  # what the last decision led to: chips changing hands
            self.lead[-1] = (state.turns, self._sides(state))
        self._expect_decision(state)

    def hand_ended(self, state: Any, result: HandResult) -> None:
        hand = self.hands[-1]
        hand["reason"] = result.reason
        hand["scores"] = list(result.scores)

    def game_ended(self, state: GameState) -> None:
        finished = not isinstance(state, RefereedGame) or (state.forfeited_by is None and state.ruleset_error is None)
        if finished and state.is_over():
            self.lead.append((state.turns, self._sides(state, final=True)))
            final = sorted(self.lead[-1][1], reverse=True)
            self.final_gap = final[0] - final[1] if len(final) > 1 else None
            if self.snapshot_of is not None:
                self.board.see(self.snapshot_of(state))
            winners = set(state.winners())
            winning = {index for index, side in enumerate(self.sides) if winners.intersection(side)}
            self.outcome = lead_summary(self.lead, winning, state.turns)
        else:
            self.outcome = lead_summary([], set(), 0)

    def _expect_decision(self, state: Any) -> None:
        """Count the legal actions of the decision to come, if the state is at one."""
        self.pending = None
        if not state.is_over() and not state.is_chance_node():
            self.pending = len(state.legal_actions())
            if self.snapshot_of is not None and self.board.seen_at != (len(self.hands), state.turns):
                self.board.seen_at = (len(self.hands), state.turns)
                self.board.see(self.snapshot_of(state))
            if self.pending > 1 and self.action_values is not None:
                self._judge(state)

    def _judge(self, state: Any) -> None:
        """Clarity at a decision with a choice, if the sample takes it (once a decision, however many
        events come before it is taken)."""
        key = (len(self.hands), state.turns)
        if key == self.judged_at:
            return
        self.judged_at = key
        index, self.choice_index = self.choice_index, self.choice_index + 1
        if index % self.stride or self.action_values is None:
            return
        values = self.action_values(state)
        self.clarity.append((index, *clarity([-v for v in values] if self.lowest_wins else values)))
        if len(self.clarity) > self.clarity_decisions:
            self.stride *= 2
            self.clarity = [entry for entry in self.clarity if entry[0] % self.stride == 0]

    # ----------------------------------------------------------------- the result
    def summary(self) -> dict[str, Any]:
        """What the game measured, as JSON (stored with the game)."""
        judged = len(self.clarity)
        counted = sum(hand["decisions"] for hand in self.hands) - self.unseen
        return {"hands": [hand for hand in self.hands if hand["reason"] is not None or hand["decisions"]],
                "legal": self.legal, "legal_squares": self.legal_squares, "choices": self.choices,
                "unseen": self.unseen, "sides": len(self.sides),
                "legal_max": self.legal_max, "choice_legal": self.choice_legal,
                "legal_change": (self.legal_last - (self.legal_first or 0)) / (counted - 1) if counted > 1 else None,
                "move_steps": self.move_steps, "moves_measured": self.moves, "final_gap": self.final_gap,
                **({} if self.snapshot_of is None else self.board.summary()),
                **self.outcome,
                **({} if self.action_values is None else {
                    "clarity_judged": judged,
                    "clarity": sum(n for _, n, _ in self.clarity) / judged if judged else None,
                    "clarity_spread": sum(s for _, _, s in self.clarity) / judged if judged else None})}

    def _sides(self, state: Any, final: bool = False) -> tuple[float, ...]:
        values = [float(v) for v in state.scores()] if final else self.standing_of(state)
        sign = -1.0 if self.lowest_wins else 1.0
        return tuple(sign * sum(values[seat] for seat in side) for side in self.sides)


def action_values(state: Any) -> list[float]:
    """Every legal action of the decision at ``state``, judged as the greedy bot judges it: the mover's
    side's lead (:func:`players.evaluation.leads`, the ruleset's own count) on a copy of the state
    after it. The copy is the referee's whole state: clarity is a property of the game, not of what
    the mover can see."""
    seat = state.current
    values = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        values.append(leads(after)[seat])
    return values


def clarity(values: Sequence[float]) -> tuple[float, float]:
    """Clarity of one decision from its legal actions' values: (narrowness, spread).

    - narrowness (Ludii's ClarityNarrowness): the share of the actions whose value reaches the mean
      plus :data:`NEAR_THE_BEST` of the way to the best, so 1/n when one action stands out and 1
      when all are alike (no action is clearly better: Ludii counts actions strictly above the
      threshold, so all alike gives 0 there, and its integer division rounds every share but 1 to 0);
    - spread (Ludii's ClarityVariance, as a standard deviation so that it is in the counter's units):
      how far the actions' values lie from their mean (over n).
    """
    n = len(values)
    mean = sum(values) / n
    best = max(values)
    threshold = mean + NEAR_THE_BEST * (best - mean)
    near = sum(1 for value in values if value >= threshold - 1e-9 * max(1.0, abs(threshold)))
    spread = math.sqrt(sum((value - mean) ** 2 for value in values) / n)
    return near / n, spread


def leader(values: Sequence[float]) -> int | None:
    """The side strictly ahead of every other, or None when the best are level."""
    best = max(values)
    ahead = [index for index, value in enumerate(values) if value == best]
    return ahead[0] if len(ahead) == 1 else None


def lead_summary(points: Sequence[tuple[int, Sequence[float]]], winning: set[int], decisions: int
                 ) -> dict[str, Any]:
    """How the lead went over a game, from its standings after each decision (``points``: the
    decisions taken so far and each side's standing, higher better; the first at the start).

    - ``lead_changes``: how often the side strictly ahead of all others changed (a level
      lead has no leader: it changes nothing until a new side goes ahead);
    - ``drama``: the furthest the eventual winner (the best of the winning sides) fell behind
      the leader, in the counter's units; ``trailed``: whether it ever did (nearly every winner
      does, at the start); ``behind_at_half``: whether it was behind the leader once half the
      game's decisions were taken (a comeback: the half-time leader did not win);
    - ``decided_at``: the share of the game's decisions taken when the winner went ahead of
      every losing side for good (0: it led from the start; 1: only the last decision did it).

    Ludii's metrics of the lead, each a share of the game's *widest gap* (the furthest any side
    was ahead of any other, at any point), so that games scored in tens and in hundreds compare:

    - ``uncertainty``: the mean over the points of how close the leader was to the runner-up,
      1 less their gap over the widest gap (1: level throughout; Ludii's uncertainty, Browne);
    - ``instability``: the mean over the decisions of how far a side's standing relative to the
      others' mean moved, the mean over sides, over the widest gap (0: nothing moved; Ludii's
      stability is the variance of a side's evaluation over the game, which a steady rise
      inflates as much as a swing; the change move to move measures only the swing);
    - ``drama_share``: ``drama`` over the widest gap (0: the winner never trailed; 1: it came
      back from the widest gap of the game);
    - ``margin``: the winner's final standing less the best loser's, over the widest gap.

    A game whose sides were level throughout has uncertainty 1 and instability 0 (and no
    widest gap to share the others by: its drama and margin are 0).

    With one side, or no winner, or every side winning, drama, trailed, behind_at_half,
    decided_at, drama_share and margin are None; with one side, everything is.
    """
    leaders = [leader(values) for _, values in points if len(values) > 1]
    known = [side for side in leaders if side is not None]
    changes = sum(1 for before, after in zip(known, known[1:]) if before != after)
    sided = bool(points) and len(points[0][1]) > 1
    summary: dict[str, Any] = {"lead_changes": changes if sided else None,
                               "drama": None, "trailed": None, "behind_at_half": None, "decided_at": None,
                               "uncertainty": None, "instability": None, "drama_share": None, "margin": None}
    widest = max((max(values) - min(values) for _, values in points), default=0.0) if sided else 0.0
    if sided:
        gaps = [sorted(values, reverse=True) for _, values in points]
        summary["uncertainty"] = (1.0 - sum(v[0] - v[1] for v in gaps) / len(gaps) / widest) if widest else 1.0
        relative = [[value - (sum(values) - value) / (len(values) - 1) for value in values] for _, values in points]
        moves = [sum(abs(a - b) for a, b in zip(after, before)) / len(after)
                 for before, after in zip(relative, relative[1:])]
        summary["instability"] = (sum(moves) / len(moves) / widest) if moves and widest else 0.0
    if not points or len(points[0][1]) < 2 or not winning or len(winning) == len(points[0][1]) or not decisions:
        return summary
    deficits, ahead = [], []
    for _, values in points:
        best_winner = max(values[side] for side in winning)
        best_loser = max(value for side, value in enumerate(values) if side not in winning)
        deficits.append(max(values) - best_winner)
        ahead.append(best_winner > best_loser)
    drama = max(deficits)
    kept_from = len(points)
    while kept_from > 0 and ahead[kept_from - 1]:
        kept_from -= 1
    taken = points[kept_from][0] if kept_from < len(points) else decisions
    final = points[-1][1]
    margin = max(final[side] for side in winning) - max(v for side, v in enumerate(final) if side not in winning)
    half = max(index for index, (taken_so_far, _) in enumerate(points) if taken_so_far <= decisions / 2)
    summary.update(drama=drama, trailed=drama > 0, behind_at_half=deficits[half] > 0,
                   decided_at=min(1.0, taken / decisions),
                   drama_share=drama / widest if widest else 0.0, margin=margin / widest if widest else 0.0)
    return summary
