"""Turn primitives: the actions a seat may take on its turn, each allowed by a ``when``.

A turn rule's ``when`` is an expression over the turn values (see
:data:`contack_core.rules.TURN_VALUES`), the option values, and ``can_<rule>`` for every
turn rule listed before it (true when that rule offers at least one action now).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from contack_core.actions import DRAW, PASS, Action, Draw, IllegalAction, Pass, Play
from contack_core.events import Drew, Played
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.expressions import Expression
    from contack_core.state import GameState

_WHEN = {"type": "string"}


class TurnRule(Primitive):
    slot = "turn"
    action_type: ClassVar[type]
    ends_turn: ClassVar[bool] = True

    def build(self, context: BuildContext) -> None:
        when = self.params.get("when")
        self.when: Expression | None = (
            None if when is None else context.expression(when, context.turn_names(self.key), "when")
        )
        self.can_name = f"can_{self.key}"

    def generate(self, state: GameState) -> list[Action]:
        raise NotImplementedError


class PlayTile(TurnRule):
    """Lay one tile from the listed zones on the figure, where the placement rule allows."""

    name = "play"
    action_type = Play
    schema = {
        "type": "object",
        "required": ["from"],
        "properties": {"from": {"type": "array", "items": {"type": "string"}, "minItems": 1}, "when": _WHEN},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.zones = [context.zone(name, f"from.{i}", ("hand",)).key for i, name in enumerate(self.params["from"])]
        self.single_zone = self.zones[0] if len(self.zones) == 1 else None
        self.placement: Any = None  # set by Rules once the placement primitive is built

    def tiles(self, state: GameState) -> list[int]:
        if len(self.zones) == 1:
            return state.seat_zones[self.zones[0]][state.current]
        return [tile for zone in self.zones for tile in state.seat_zones[zone][state.current]]

    def generate(self, state: GameState) -> list[Action]:
        if self.single_zone is not None:
            return self.placement.plays(state.figure, state.seat_zones[self.single_zone][state.current])
        return self.placement.plays(state.figure, self.tiles(state))  # type: ignore[return-value]

    def apply(self, state: GameState, action: Play) -> Played | None:
        """Lay the tile, or return None (changing nothing) if this play is not legal."""
        seat = state.current
        for zone in self.zones:
            tiles = state.seat_zones[zone][seat]
            if action.tile in tiles:
                break
        else:
            return None
        return self.placement.play_from(state, seat, tiles, action.tile, action.cell)


class DrawTile(TurnRule):
    """Draw one tile from a pile into the seat's zone; the turn goes on after it."""

    name = "draw"
    action_type = Draw
    ends_turn = False
    schema = {
        "type": "object",
        "required": ["from", "to"],
        "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "when": _WHEN},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.source = context.zone(self.params["from"], "from", ("pile",)).key
        self.target = context.zone(self.params["to"], "to", ("hand",)).key

    def generate(self, state: GameState) -> list[Action]:
        return [DRAW] if state.zones[self.source] else []

    def apply(self, state: GameState, action: Draw) -> Drew:
        pile = state.zones[self.source]
        if action.tile is None:
            tile = pile.pop()
        else:
            tile = action.tile
            if tile not in pile:
                name = state.rules.tiles.names[tile]
                raise IllegalAction(f"tile {name} cannot be drawn: it is not unseen, it is in {state.locate(tile)}")
            pile.remove(tile)
        state.seat_zones[self.target][state.current].append(tile)
        return Drew(seat=state.current, tile=tile)


class PassTurn(TurnRule):
    """Give up the turn; nothing on the table changes (the target stays the last tile)."""

    name = "pass"
    action_type = Pass
    schema = {"type": "object", "properties": {"when": _WHEN}, "additionalProperties": False}

    def generate(self, state: GameState) -> list[Action]:
        return [PASS]


def check_turn_rules(rules: list[TurnRule]) -> None:
    """Each action kind may be offered by one turn rule only."""
    seen: dict[type, str] = {}
    for rule in rules:
        if rule.action_type in seen:
            raise PrimitiveError(f"turn rules {seen[rule.action_type]!r} and {rule.key!r} both offer "
                                 f"{rule.action_type.__name__.lower()} actions", rule.key)
        seen[rule.action_type] = rule.key
