"""Turn-order primitives: who acts next, as effects a ruleset triggers (Ludii's ``(moveAgain)``
and ``(set NextPlayer ...)`` in a ``(then (if ...))``).

Play passes round the table one seat at a time. Each primitive of the ``turn_order`` slot
changes that after an event of the kinds listed in ``after`` (``play``, ``pass``, ``move``, the
actions that end a turn, or ``draw``, ``discard``, which do not; default ``[play]``) when its
``when`` holds:

- ``another-turn``: the seat whose action it was acts again at once;
- ``skip-next``: the turn passes over the next seat (in the direction of play) to the one after;
- ``reverse``: the direction of play turns round (the turn then passes to the seat before);
- ``next-seat``: the turn goes to the seat a list of measures chooses (the lowest score, say).

``when`` reads what a counter's formula after that event reads: the state about the seat
whose action it was (its counters already updated by the event) and, with one kind in
``after``, what the event did (a play's ``points``, ``counting``, ``opportunity``...). Every
effect is worked out from the record's events, so a replay or an audit follows the same turns.
The direction of play starts clockwise at every hand (unless a ``reverse`` says its turn lasts
the game: ``lasts: game``); skips and another turn apply to the turn
that ends with the event, and a hand that ends with it forgets them. After a draw or a discard
the seat's turn goes on, so what the effect asks for waits for the turn to end (by a play, a pass
or a move): another turn then gives the seat a further turn once this one is over, a skip passes
over the next seat then, and a reverse turns the direction at once (so ``next`` in a transfer
follows it straight away) and the turn passes the other way when it ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.engine.values import EVENT_BINDINGS, VALUE_BINDINGS
from contack_core.language.programs import Source, compile_per_seat, formula
from contack_core.primitives.registry import BuildContext, Primitive

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

#: The kinds of event after which the turn passes on.
TURN_ENDING_KINDS = ("play", "pass", "move")
#: The kinds a turn-order effect may follow: those, and the draw and the discard, after which the
#: turn goes on (the effect waits for it to end).
EFFECT_KINDS = ("play", "draw", "discard", "pass", "move")


class TurnEffect(Primitive):
    """What every turn-order effect shares: ``after`` (the kinds of event it follows) and
    ``when`` (the condition, true by default); :attr:`statement` is what it does to the state."""

    slot = "turn_order"
    #: The Python statement over ``_state`` that makes the effect (the engine's own text).
    statement: ClassVar[str]
    #: Whether the direction of play it leaves is kept from one hand to the next.
    keeps_direction = False
    schema = {
        "type": "object",
        "properties": {
            "after": {"type": "array", "items": {"enum": list(EFFECT_KINDS)}, "minItems": 1,
                      "uniqueItems": True},
            "when": {"type": ["string", "boolean"],
                     "description": "a condition, a formula such as \"points >= 20\""},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.kinds = tuple(self.params.get("after", ["play"]))
        self.values: dict[str, str] = context.state_values()
        if len(self.kinds) == 1:
            self.values.update(context.event_values(self.kinds[0]))
        self.constants = context.constants
        self.when = self.params.get("when", True)
        context.expression(self.when, self.values, "when")  # refused here, with its line

    def effect_source(self, kind: str, prefix: str) -> Source:
        """The effect after an event of ``kind`` as Python statements for the compiled consequences
        of that kind of event (empty when it does not follow such events)."""
        if kind not in self.kinds:
            return Source("")
        statement, bindings = self.statement_for(prefix)
        if self.when is True:
            return Source(statement, bindings)
        condition = formula(f"{prefix}_when", self.when, self.values, self.constants,
                            {**VALUE_BINDINGS, **EVENT_BINDINGS})
        return Source(f"if {prefix}_when:\n    {statement}", {**condition.bindings, **bindings}, condition.trees,
                      condition.texts)

    def statement_for(self, prefix: str) -> tuple[str, dict[str, Any]]:
        """The statement that makes the effect, and the objects it names."""
        return self.statement, {}


class AnotherTurn(TurnEffect):
    """Another turn now: after the event, the seat whose action it was acts again (a play that
    scores 20 or more earns another play: ``when: "points >= 20"``). A seat with nothing left to
    do on its new turn draws or passes as the turn rules say. After a draw or a discard, which do
    not end the turn, the seat gets a further turn once the turn under way ends."""

    name = "another-turn"
    statement = "_state.again = True"


class SkipNext(TurnEffect):
    """Skip the next seat: the turn passes over the seat that would act next (in the direction of
    play) to the one after it. Two skips in one turn pass over two seats (two draws that each
    skip, say); at a table of two, the seat that skips the other acts again."""

    name = "skip-next"
    statement = "_state.skips += 1"


class Reverse(TurnEffect):
    """Reverse the direction of play: from this turn on, the turn passes to the seat before
    instead of the one after, until a reverse turns it round again or the hand ends (each hand
    starts clockwise); ``lasts: game`` keeps the direction from one hand to the next (the next
    hand's opener then passes the turn the way play went at the end of the last). At a table of
    two it changes nothing."""

    name = "reverse"
    statement = "_state.direction = -_state.direction"
    schema = {**TurnEffect.schema,
              "properties": {**TurnEffect.schema["properties"],
                             "lasts": {"enum": ["hand", "game"],
                                       "description": "how long the direction it leaves holds: the hand (the "
                                                      "next starts clockwise) or the game"}}}

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.keeps_direction = self.params.get("lasts", "hand") == "game"


class NextSeat(TurnEffect):
    """Give the turn to a chosen seat: when the turn ends, the seat best by ``seat``, a list of
    measures (each ``{lowest: formula}`` or ``{highest: formula}`` about each seat, read after the
    event: ``lowest: score`` gives the turn to the lowest total), acts next. A tie on one measure
    goes to the next; seats still tied go by the order of play, the first met going round from
    the seat after the one whose action it was (in the direction of play), that seat itself
    last. ``among: others`` leaves that seat out (default ``all``: it may be chosen, and then
    acts again). Only seats still in play are chosen. The chosen seat takes the place of the
    seat the turn would pass to: skips and another turn asked for in the same turn are passed
    over; a reverse still turns the direction for the turns after."""

    name = "next-seat"
    schema = {
        "type": "object",
        "required": ["seat"],
        "properties": {
            **TurnEffect.schema["properties"],
            "seat": {"type": "array", "minItems": 1, "items": {
                "oneOf": [{"type": "object", "required": ["lowest"], "additionalProperties": False,
                           "properties": {"lowest": {"type": "string"}}},
                          {"type": "object", "required": ["highest"], "additionalProperties": False,
                           "properties": {"highest": {"type": "string"}}}]}},
            "among": {"enum": ["all", "others"]},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        values = context.state_values()
        #: (each seat's value, lowest first?) for each measure, in order.
        self.measures: list[tuple[Callable[[GameState], list[int]], bool]] = []
        for i, measure in enumerate(self.params["seat"]):
            lowest = "lowest" in measure
            source = measure["lowest" if lowest else "highest"]
            key = f"seat.{i}.{'lowest' if lowest else 'highest'}"
            context.expression(source, values, key, whole_number=True)  # refused here, with its line
            self.measures.append((compile_per_seat(f"next_seat{i}", source, values, context.constants,
                                                   VALUE_BINDINGS), lowest))
        self.others = self.params.get("among", "all") == "others"

    def statement_for(self, prefix: str) -> tuple[str, dict[str, Any]]:
        return f"_state.chosen = {prefix}_choose(_state, _event.seat)", {f"{prefix}_choose": self.choose}

    def choose(self, state: GameState, seat: int) -> int:
        """The seat the measures choose, after ``seat``'s action."""
        count, step = state.seat_count, state.direction
        in_play = None if state.figure.every_seat_in_play else state.figure.seat_in_play
        seats = [(seat + step * k) % count for k in range(1, count + 1)]  # round from the next, ``seat`` last
        seats = [other for other in seats if in_play is None or in_play(other)]
        if self.others and len(seats) > 1:
            seats = [other for other in seats if other != seat]
        for values, lowest in self.measures:
            column = values(state)
            best = (min if lowest else max)(column[other] for other in seats)
            seats = [other for other in seats if column[other] == best]
        return seats[0] if seats else seat
