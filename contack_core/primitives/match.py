"""Match primitives: how many hands make a game and who wins it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from contack_core.engine.values import VALUE_BINDINGS
from contack_core.language.limits import MAX_HANDS, shown_number
from contack_core.language.programs import compile_per_seat, compile_value
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.events import HandResult
    from contack_core.engine.state import GameState
    from contack_core.language.expressions import Expression

#: What ``hand_winner`` reads about each seat of a hand just played, besides the options.
HAND_WINNER_VALUES = ("hand_score", "highest_hand_score", "lowest_hand_score", "went_out", "held", "seats")
#: A measure of ``decided_by``: a formula (the highest value ranks first), or one under
#: ``highest`` or ``lowest``.
_MEASURE = {"oneOf": [{"type": "string"},
                      {"type": "object", "properties": {"highest": {"type": "string"}}, "required": ["highest"],
                       "additionalProperties": False},
                      {"type": "object", "properties": {"lowest": {"type": "string"}}, "required": ["lowest"],
                       "additionalProperties": False}]}


class SidesMatch(Primitive):
    """What every match rule shares: the ``counter`` it decides on, and its sides (``teams:
    opposite`` pairs each seat with the one sitting opposite; otherwise each seat alone), and
    who wins a hand (``hand_winner``)."""

    slot = "match"
    #: True when the seats with the highest total win (False: the lowest).
    highest: bool = True
    #: The most hands a game takes (one unless the match says more).
    hands: int = 1
    #: True when the result adds up hands' scores (False: it is decided on the board).
    scored_by_hands: bool = True
    #: Hand endings that end the game at once (``ends_game_on``): none unless the match says.
    final_endings: frozenset[str] = frozenset()
    #: ``decided_by``: (each seat's value, highest first?) for each measure, in order, and each
    #: measure's formula as written (for the narration): none unless the match says.
    measures: Sequence[tuple[Callable[[GameState], list[int]], bool]] = ()
    measure_texts: Sequence[str] = ()

    def build_hand_winner(self, context: BuildContext) -> None:
        """``hand_winner``: a formula about each seat of a hand just played, true for the seats
        that won it. It reads ``hand_score`` (the seat's net score in the hand, in ``counter``),
        ``highest_hand_score``, ``lowest_hand_score``, ``went_out`` (1 for the seat that played
        its last tile), ``held`` (tiles it still held), ``seats`` and the options. The default:
        the best hand score (highest, or lowest when ``winner: lowest``), every tied seat."""
        default = "hand_score == highest_hand_score" if self.highest else "hand_score == lowest_hand_score"
        self.hand_winner: Expression = context.expression(self.params.get("hand_winner", default),
                                                          HAND_WINNER_VALUES, "hand_winner")

    def winners_of_hand(self, scores: tuple[int, ...], held: tuple[int, ...], went_out: int | None) -> list[int]:
        """The seats that won a hand that ended with these net ``scores``, tiles ``held`` and seat
        gone out."""
        if not scores:
            return []
        values: dict[str, Any] = {"highest_hand_score": max(scores), "lowest_hand_score": min(scores),
                                  "seats": len(scores)}
        won = []
        for seat, score in enumerate(scores):
            values["hand_score"] = score
            values["went_out"] = int(went_out == seat)
            values["held"] = held[seat] if seat < len(held) else 0
            if self.hand_winner.evaluate(values):
                won.append(seat)
        return won

    def hand_winners(self, state: GameState, result: HandResult) -> list[int]:
        """The seats that won the hand ``result`` tells."""
        return self.winners_of_hand(result.scores, result.held, result.went_out)

    def build(self, context: BuildContext) -> None:
        self.counter = self.params["counter"]
        if self.counter not in context.counters:
            known = ", ".join(sorted(context.counters)) or "none"
            raise PrimitiveError(f"no counter named {self.counter!r} in scoring (counters: {known})", "counter")
        self.opposite_teams = self.params.get("teams", "none") == "opposite"
        low, high = context.players or (0, -1)
        odd = [n for n in range(low, high + 1) if n % 2]
        if self.opposite_teams and odd:
            raise PrimitiveError(f"partners sit opposite each other, so the seats must pair up; players allows "
                                 f"{', '.join(map(str, odd))} seat{'s' if odd != [1] else ''}", "teams")
        self.build_hand_winner(context)

    def measure_values(self, state: GameState) -> list[tuple[int, ...]]:
        """Each seat's values of ``decided_by``'s measures, in order (empty tuples without it)."""
        columns = [values(state) for values, _ in self.measures]
        return [tuple(column[seat] for column in columns) for seat in range(state.seat_count)]

    def ranking_keys(self, state: GameState) -> list[tuple[int, ...]]:
        """Each seat's ``decided_by`` values made so that the larger key ranks first."""
        return [tuple(value if highest else -value for value, (_, highest) in zip(values, self.measures))
                for values in self.measure_values(state)]

    def teams(self, seat_count: int) -> list[list[int]]:
        """The sides of the game: partners sitting opposite, or each seat alone."""
        if not self.opposite_teams:
            return [[seat] for seat in range(seat_count)]
        if seat_count % 2:
            raise ValueError(f"partners sit opposite each other: {seat_count} seats cannot pair up")
        half = seat_count // 2
        return [[seat, seat + half] for seat in range(half)]

    def team_totals(self, state: GameState) -> list[int]:
        totals = state.totals[self.counter]
        return [sum(totals[seat] for seat in team) for team in self.teams(state.seat_count)]


class FixedHands(SidesMatch):
    """A game of ``hands`` hands; the seats with the ``highest`` (or ``lowest``) total
    of ``counter`` win, every tied seat among them.

    ``teams: opposite`` pairs each seat with the one sitting opposite (an even number of
    seats): partners pool their totals and win or lose together. ``goal``: a seat must
    reach this total to win at all (a solitaire is won only with every tile laid).
    ``ends_game_on`` lists hand endings that end the whole game at once (a time limit).
    ``ends_when``: the game ends at the first hand's end where this holds (``highest_score
    >= 200``: play to 200), ``hands`` then being the most hands it may last. It reads the
    state of the whole game: ``hands_played``, ``highest_<counter>``, ``lowest_<counter>``,
    ``turns``, ``seats``...

    ``hand_winner`` says who wins a hand (a formula about each seat of a hand just played; by
    default the best hand score in ``counter``, ties all winning): formulas read it as
    ``hands_won``, ``won_last_hand`` and, at a hand's end, ``won_hand``. ``decided_by`` ranks
    the sides at the end by an ordered list of measures instead of ``counter`` alone: each a
    formula about a seat at the game's end (``hands_won``, ``score``...), the highest first, or
    ``{lowest: formula}``; a tie on one measure goes to the next, and the sides still tied after
    the last all win. A side's measure is the sum of its seats'.
    """

    name = "fixed-hands"
    schema = {
        "type": "object",
        "required": ["hands", "counter"],
        "properties": {
            "hands": {"type": ["integer", "string"]},
            "winner": {"enum": ["highest", "lowest"]},
            "counter": {"type": "string"},
            "teams": {"enum": ["none", "opposite"]},
            "goal": {"type": ["integer", "string", "null"]},
            "ends_game_on": {"type": "array", "items": {"type": "string"}},
            "ends_when": {"type": ["string", "boolean"]},
            "hand_winner": {"type": ["string", "boolean"]},
            "decided_by": {"type": "array", "items": _MEASURE, "minItems": 1},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.hands = context.constant(self.params["hands"], "hands")
        if not isinstance(self.hands, int) or self.hands < 1:
            raise PrimitiveError(f"hands must be a whole number of at least 1, found {self.hands!r}", "hands")
        if self.hands > MAX_HANDS:  # a game of 10**30 hands never ends
            raise PrimitiveError(f"hands is {shown_number(self.hands)}: a game lasts at most {MAX_HANDS:,} hands "
                                 f"(MAX_HANDS)", "hands")
        self.highest = self.params.get("winner", "highest") == "highest"
        super().build(context)
        values = context.state_values()
        measures: list[tuple[Callable[[GameState], list[int]], bool]] = []
        texts: list[str] = []
        self.measures, self.measure_texts = measures, texts
        for i, measure in enumerate(self.params.get("decided_by", ())):
            source, highest = (measure, True) if isinstance(measure, str) else (
                (measure["highest"], True) if "highest" in measure else (measure["lowest"], False))
            context.expression(source, values, f"decided_by.{i}", whole_number=True)  # refused here, with its line
            texts.append(str(source))
            measures.append((compile_per_seat(f"measure{i}", source, values, context.constants,
                                                   VALUE_BINDINGS), highest))
        goal = self.params.get("goal")
        self.goal = None if goal is None else context.constant(goal, "goal")
        self.final_endings = frozenset(self.params.get("ends_game_on", ()))
        ends_when = self.params.get("ends_when")
        self.ends_when = None
        if ends_when is not None:
            values = context.state_values(per_seat=False)
            context.expression(ends_when, values, "ends_when")  # refused here, with its line
            self.ends_when = compile_value("ends_when", ends_when, values, context.constants, VALUE_BINDINGS)

    def game_over(self, state: GameState) -> bool:
        results = state.hand_results
        if len(results) >= self.hands or (bool(results) and results[-1].reason in self.final_endings):
            return True
        return self.ends_when is not None and bool(self.ends_when(state))

    def winners(self, state: GameState) -> list[int]:
        teams = self.teams(state.seat_count)
        pooled = self.team_totals(state)
        if self.measures:
            return self._ranked_first(state, teams, pooled)
        best = max(pooled) if self.highest else min(pooled)
        if self.goal is not None and (best < self.goal if self.highest else best > self.goal):
            return []
        return sorted(seat for team, total in zip(teams, pooled) if total == best for seat in team)

    def _ranked_first(self, state: GameState, teams: list[list[int]], pooled: list[int]) -> list[int]:
        """The seats of the sides best by ``decided_by`` (each measure in turn breaks the ties of
        the one before), if the best side reaches ``goal``."""
        per_seat = self.measure_values(state)
        keys = []
        for team in teams:
            sums = [sum(per_seat[seat][i] for seat in team) for i in range(len(self.measures))]
            keys.append(tuple(value if highest else -value for value, (_, highest) in zip(sums, self.measures)))
        best = max(keys)
        if self.goal is not None:
            total = max(total for total, key in zip(pooled, keys) if key == best)
            if total < self.goal if self.highest else total > self.goal:
                return []
        return sorted(seat for team, key in zip(teams, keys) if key == best for seat in team)
