"""Match primitives: how many hands make a game and who wins it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.engine.values import VALUE_BINDINGS
from contack_core.language.limits import MAX_HANDS, shown_number
from contack_core.language.programs import compile_value
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.state import GameState


class SidesMatch(Primitive):
    """What every match rule shares: the ``counter`` it decides on, and its sides (``teams:
    opposite`` pairs each seat with the one sitting opposite; otherwise each seat alone)."""

    slot = "match"

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
        best = max(pooled) if self.highest else min(pooled)
        if self.goal is not None and (best < self.goal if self.highest else best > self.goal):
            return []
        return sorted(seat for team, total in zip(teams, pooled) if total == best for seat in team)
