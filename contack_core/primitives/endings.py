"""End-of-hand primitives: each says, after an action, whether the hand is over now."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from contack_core.boards.lattice import figure_of
from contack_core.engine.events import Discarded, Drew, Event, HouseActed, Moved, Passed, Played
from contack_core.engine.rules import EVENT_KINDS, EVENT_NAMES, Rules
from contack_core.engine.values import EVENT_BINDINGS, VALUE_BINDINGS
from contack_core.language.programs import Source, formula
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.state import GameState


class HandEnding(Primitive):
    slot = "hand_end"
    #: The events after which this ending is checked.
    after: tuple[type[Event], ...] = (Played,)
    #: True for an ending the state checks when the seat to act has no legal action.
    when_stuck: ClassVar[bool] = False
    #: True when the seat whose action ends the hand this way has gone out.
    went_out: bool = False
    schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def ends_hand(self, state: GameState, event: Event) -> bool:
        raise NotImplementedError

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        """:meth:`ends_hand` as a Python expression over ``_state`` and ``_event``, for the
        compiled consequences of an event (see :mod:`contack_core.language.programs`)."""
        return Source(f"{prefix}_ends(_state, _event)", {f"{prefix}_ends": self.ends_hand})


class ZoneEmptied(HandEnding):
    """The hand ends when a play empties the listed zones: the seat's own ``zone`` (it
    "went out"), or every zone of ``zones`` (own zones of the seat that played, and shared
    piles), as when a solitaire has laid every tile."""

    name = "zone-emptied"
    schema = {
        "type": "object",
        "properties": {"zone": {"type": "string"},
                       "zones": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
        "oneOf": [{"required": ["zone"]}, {"required": ["zones"]}],
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        if "zone" in self.params:
            zones = [context.zone(self.params["zone"], "zone", ("hand",))]
        else:
            zones = [context.zone(name, f"zones.{i}") for i, name in enumerate(self.params["zones"])]
        self.zone = zones[0].key if len(zones) == 1 and zones[0].per_seat else None
        self.own_zones = [zone.key for zone in zones if zone.per_seat]
        self.shared_zones = [zone.key for zone in zones if not zone.per_seat]

    went_out = True

    def ends_hand(self, state: GameState, event: Event) -> bool:
        if type(event) is not Played:
            return False
        if self.zone is not None:  # the common case, one hand zone
            return not state.seat_zones[self.zone][event.seat]
        return not (any(state.seat_zones[zone][event.seat] for zone in self.own_zones)
                    or any(state.zones[zone] for zone in self.shared_zones))

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        if self.zone is not None:
            return Source(f"not _state.seat_zones[{self.zone!r}][_event.seat]")
        # Several zones, each named (compiled into what follows a play, so the event is one).
        held = [f"_state.seat_zones[{zone!r}][_event.seat]" for zone in self.own_zones]
        held += [f"_state.zones[{zone!r}]" for zone in self.shared_zones]
        return Source(f"not ({' or '.join(held)})")


class AllPassed(HandEnding):
    """The hand ends when every player has passed in turn: every seat still in play has passed
    since the last tile was laid (or piece moved). Under turn-order effects after a pass (another
    turn, a skip) passes in a row may come from fewer seats; they end the hand only once each seat
    has passed, or when a seat passes again with nothing laid, drawn or laid aside since its last
    pass (the effects keep the turn among seats that change nothing: it would never end)."""

    name = "all-passed"
    after = (Passed,)

    def ends_hand(self, state: GameState, event: Event) -> bool:
        return type(event) is Passed and state.all_passed()

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        # Compiled into what follows a pass only, so the event is a pass. Without turn-order
        # effects the passes go round the table, and their count in a row says it (inlined).
        if not rules.turn_order:
            return Source("_state.passes >= (_state.seat_count if _state.figure.every_seat_in_play "
                          "else _state.seats_in_play())")
        return Source("_state.all_passed()")


class NoLegalCell(HandEnding):
    """The hand ends at once when a play leaves no cell any tile could go to."""

    name = "no-legal-cell"

    def ends_hand(self, state: GameState, event: Event) -> bool:
        placement = state.rules.placement
        return placement is None or not placement.legal_cells(figure_of(state.figure))

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        if rules.placement is not None:
            return rules.placement.sealed_source()
        return super().condition_source(prefix, rules)


class NoActionLeft(HandEnding):
    """The hand ends (blocked) when the seat to act has no legal action at all, as a
    solitaire ends when nothing can be played, drawn or laid aside."""

    name = "no-action-left"
    after = ()
    #: Checked by the state once the turn has moved on (see GameState._check_stuck).
    when_stuck = True


class Condition(HandEnding):
    """The hand ends when ``when`` holds after an event of the kinds listed in ``after``
    (default: every kind: play, draw, pass, discard, move, house). ``when`` reads the state as it
    stands after the event, about the seat whose action it was (``tiles_held``,
    ``hand_count``, ``stock_count``, ``score``, ``highest_score``, ``turns``...).
    With one kind in ``after``, ``when`` also reads what that event did (after a play:
    its ``points``, ``contacts``, ``counting``...). ``went_out: true`` says that seat went
    out when it ends the hand this way."""

    name = "condition"
    schema = {
        "type": "object",
        "required": ["when"],
        "properties": {
            "when": {"type": ["string", "boolean"]},
            "after": {"type": "array", "items": {"enum": list(EVENT_KINDS)}, "minItems": 1, "uniqueItems": True},
            "went_out": {"type": "boolean"},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        kinds = self.params.get("after", list(EVENT_KINDS))
        self.values = context.state_values()
        if len(kinds) == 1:
            self.values.update(context.event_values(kinds[0]))
        self.constants = context.constants
        self.when = self.params["when"]
        context.expression(self.when, self.values, "when")  # refused here, with its line
        self.after = tuple(kind for kind, name in EVENT_NAMES.items() if name in kinds)
        self.went_out = self.params.get("went_out", False)

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        return formula(f"{prefix}_holds", self.when, self.values, self.constants, {**VALUE_BINDINGS, **EVENT_BINDINGS})


class TurnLimit(HandEnding):
    """The hand (and, with the match's ``ends_game_on``, the game) ends once ``turns``
    decisions have been taken in the game: a clock counted in turns, so a timed game
    reproduces exactly."""

    name = "turn-limit"
    after = (Played, Drew, Discarded, Passed, Moved, HouseActed)
    schema = {"type": "object", "required": ["turns"], "properties": {"turns": {"type": ["integer", "string"]}},
              "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        turns = context.constant(self.params["turns"], "turns")
        if not isinstance(turns, int) or turns < 0:
            raise PrimitiveError(f"turns must be a whole number, found {turns!r}", "turns")
        self.turns = turns

    def ends_hand(self, state: GameState, event: Event) -> bool:
        return 0 < self.turns <= state.turns

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        return Source(f"{self.turns} <= _state.turns" if self.turns > 0 else "False")
