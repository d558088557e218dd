"""Turn primitives: the actions a seat may take on its turn, each allowed by a ``when``.

A turn rule's ``when`` is an expression over the turn values (see
:data:`contack_core.engine.rules.TURN_VALUES`), the option values, and ``can_<rule>`` for every
turn rule listed before it (true when that rule offers at least one action now).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from contack_core.engine.actions import DRAW, PASS, Action, Discard, Draw, IllegalAction, Pass, Play
from contack_core.engine.events import Discarded, Drew, Event, Played, make_drew
from contack_core.language.programs import Source, define_from
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.slots import Placement
    from contack_core.engine.state import GameState
    from contack_core.language.expressions import Expression

_WHEN = {"type": "string", "description": "a condition, a formula such as \"not can_play and stock_count > 0\""}
#: The parameters of a rule moving a tile from one zone to another.
_FROM_TO = {
    "type": "object",
    "required": ["from", "to"],
    "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "when": _WHEN},
    "additionalProperties": False,
}


class TurnRule(Primitive):
    slot = "turn"
    action_type: ClassVar[type]
    ends_turn: ClassVar[bool] = True

    def build(self, context: BuildContext) -> None:
        when = self.params.get("when")
        self.when: Expression | None = (
            None if when is None else context.expression(when, context.turn_values(self.key), "when")
        )
        self.can_name = f"can_{self.key}"

    def generate(self, state: GameState) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: GameState, action: Action) -> Event | None:
        """Apply ``action`` (the state applies a pass itself: a rule that only allows one has no effect)."""
        raise NotImplementedError

    def apply_agreed(self, state: GameState, action: Action) -> Event | None:
        """An agreed action: as :meth:`apply` (the state lifts the turn's conditions)."""
        return self.apply(state, action)

    def generator_source(self, prefix: str) -> Source:
        """This rule's legal actions as a Python expression over ``_state`` (the names it
        binds start with ``prefix``), for the compiled turn program. The default calls
        :meth:`generate`; a rule on the hot path of playouts spells its generator out."""
        return Source(f"{prefix}_generate(_state)", {f"{prefix}_generate": self.generate})


class PlayTile(TurnRule):
    """Lay one tile on the figure, where the placement rule allows: any tile of the seat's
    own zones (hands) listed in ``from``, or the top tile of a listed face-up pile (a
    discard pile, a stack)."""

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
        zones = [context.zone(name, f"from.{i}", ("hand", "pile")) for i, name in enumerate(self.params["from"])]
        for i, zone in enumerate(zones):
            if zone.kind == "pile" and not zone.face_up:
                raise PrimitiveError(f"zone {zone.key!r} is face down: only a face-up pile's top can be played",
                                     f"from.{i}")
        self.zones = [zone.key for zone in zones]
        self.hand_zones = [zone.key for zone in zones if zone.per_seat]
        self.pile_zones = [zone.key for zone in zones if not zone.per_seat]
        self.single_zone = self.zones[0] if self.hand_zones == self.zones and len(self.zones) == 1 else None
        self.placement: Placement | None = None  # set by attach() once the placement primitive is built

    def attach(self, placement: Placement) -> None:
        """Lay tiles with ``placement``. Where the placement offers its play as source (see
        ``play_source``), :meth:`apply` and :meth:`tiles` are compiled for this rule's zones,
        the play inlined: every playout's step. :meth:`readable_apply` and
        :meth:`readable_tiles` say the same plainly, and tests hold the two to each other."""
        self.placement = placement
        if not hasattr(placement, "play_source"):
            return
        if self.single_zone is not None:
            play = placement.play_source()
            body = Source("\n".join([
                "_seat = _state.current",
                "_tile = _action.tile",
                f"_zone = _state.seat_zones[{self.single_zone!r}][_seat]",
                "if _tile not in _zone:",
                "    return None",
                "_cell = _action.cell",
                play.code,
            ]), play.bindings)
            self.apply = define_from("apply", ["_state", "_action"], body)  # type: ignore[method-assign]
            return
        # Several zones: the zone holding the tile found by a chain of tests, one a zone (a
        # hand holds it; a pile shows it on top), each zone named in the source.
        play = placement.play_source("_source")
        lines = ["_seat = _state.current", "_tile = _action.tile", "_zones = _state.zones"]
        tests = [f"_tile in (_zone := _state.seat_zones[{zone!r}][_seat])" for zone in self.hand_zones]
        tests += [f"(_zone := _zones[{zone!r}]) and _zone[-1] == _tile" for zone in self.pile_zones]
        for index, (zone, test) in enumerate(zip([*self.hand_zones, *self.pile_zones], tests)):
            lines += [f"{'if' if index == 0 else 'elif'} {test}:", f"    _source = {zone!r}"]
        lines += ["else:", "    return None", "_cell = _action.cell", play.code]
        self.apply = define_from("apply", ["_state", "_action"],  # type: ignore[method-assign]
                                 Source("\n".join(lines), play.bindings))
        self.tiles = define_from("tiles", ["_state"],  # type: ignore[method-assign]
                                 Source(f"return {self._tiles_expression()}"))

    def _tiles_expression(self) -> str:
        """:meth:`readable_tiles` for several zones as one Python expression over ``_state``
        (no call: a pile's top is its last tile sliced, nothing when it is empty)."""
        parts = [f"*_state.seat_zones[{zone!r}][_state.current]" for zone in self.hand_zones]
        parts += [f"*_state.zones[{zone!r}][-1:]" for zone in self.pile_zones]
        return f"[{', '.join(parts)}]"

    def tiles(self, state: GameState) -> list[int]:
        """The tiles the current seat may play (compiled at :meth:`attach` for several zones)."""
        return self.readable_tiles(state)

    def readable_tiles(self, state: GameState) -> list[int]:
        """The tiles the current seat may play: its hand zones, and each listed pile's top."""
        if self.single_zone is not None:
            return state.seat_zones[self.single_zone][state.current]
        tiles = [tile for zone in self.hand_zones for tile in state.seat_zones[zone][state.current]]
        tiles.extend(state.zones[zone][-1] for zone in self.pile_zones if state.zones[zone])
        return tiles

    def generate(self, state: GameState) -> list[Action]:
        if self.single_zone is not None:
            return self.placement.plays(state.figure, state.seat_zones[self.single_zone][state.current])
        return self.placement.plays(state.figure, self.tiles(state))

    def generator_source(self, prefix: str) -> Source:
        if self.placement is None:
            return super().generator_source(prefix)
        tiles = self._tiles_expression() if self.single_zone is None else \
            f"_state.seat_zones[{self.single_zone!r}][_state.current]"
        if hasattr(self.placement, "plays_source"):
            return self.placement.plays_source(tiles)  # statements, inlined in the turn program
        return Source(f"{prefix}_plays(_state.figure, {tiles})", {f"{prefix}_plays": self.placement.plays})

    def apply(self, state: GameState, action: Play) -> Played | None:
        """Lay the tile, or return None (changing nothing) if this play is not legal
        (compiled at :meth:`attach` where the placement offers its play as source)."""
        return self.readable_apply(state, action)

    def readable_apply(self, state: GameState, action: Play) -> Played | None:
        """Lay the tile, or return None (changing nothing) if this play is not legal."""
        seat = state.current
        tile = action.tile
        for zone in self.hand_zones:
            tiles = state.seat_zones[zone][seat]
            if tile in tiles:
                break
        else:
            for zone in self.pile_zones:
                tiles = state.zones[zone]
                if tiles and tiles[-1] == tile:
                    break
            else:
                return None
        event = self.placement.play_from(state, seat, tiles, tile, action.cell)
        if event is not None:
            event.source = zone
        return event

    def apply_agreed(self, state: GameState, action: Play) -> Played | None:
        """:meth:`apply`, or, where the placement refuses the cell, the tile laid there all the same
        (:meth:`ContactPlacement.agreed_play`): a play the table let stand. None if the tile is not
        the seat's to play, or cannot lie there at all."""
        event = self.apply(state, action)
        if event is not None:
            return event
        seat = state.current
        for zone in self.hand_zones:
            tiles = state.seat_zones[zone][seat]
            if action.tile in tiles:
                break
        else:
            for zone in self.pile_zones:
                tiles = state.zones[zone]
                if tiles and tiles[-1] == action.tile:
                    break
            else:
                return None
        lay = getattr(self.placement, "agreed_play", None)
        event = None if lay is None else lay(state, seat, tiles, action.tile, action.cell)
        if event is not None and self.single_zone is None:  # as apply tells it: a zone where there are several
            event.source = zone
        return event


class DrawTile(TurnRule):
    """Draw one tile from a pile into the seat's zone; the turn goes on after it."""

    name = "draw"
    action_type = Draw
    ends_turn = False
    schema = _FROM_TO

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.source = context.zone(self.params["from"], "from", ("pile",)).key
        self.target = context.zone(self.params["to"], "to", ("hand",)).key

    def generate(self, state: GameState) -> list[Action]:
        return [DRAW] if state.zones[self.source] else []

    def generator_source(self, prefix: str) -> Source:
        return Source(f"[{prefix}_draw] if _state.zones[{self.source!r}] else []", {f"{prefix}_draw": DRAW})

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
        return make_drew(state.current, tile)


class DiscardTile(TurnRule):
    """Lay a tile of the seat's own zone aside, face up on a pile; the turn goes on. ``to``
    names the pile, or lists several for the seat to choose from (two discard piles, say)."""

    name = "discard"
    action_type = Discard
    ends_turn = False
    schema = {
        "type": "object",
        "required": ["from", "to"],
        "properties": {"from": {"type": "string"},
                       "to": {"oneOf": [{"type": "string"},
                                        {"type": "array", "items": {"type": "string"}, "minItems": 1,
                                         "uniqueItems": True}]},
                       "when": _WHEN},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.source = context.zone(self.params["from"], "from", ("hand",)).key
        listed = self.params["to"]
        names = [listed] if isinstance(listed, str) else listed
        self.targets: list[str] = []
        for i, name in enumerate(names):
            key = "to" if isinstance(listed, str) else f"to.{i}"
            target = context.zone(name, key, ("pile",))
            if not target.face_up:
                raise PrimitiveError(f"zone {target.key!r} is face down: discards are laid face up", key)
            self.targets.append(target.key)
        #: The pile a discard naming none goes to (a rule with one pile), else None.
        self.target = self.targets[0] if len(self.targets) == 1 else None

    def generate(self, state: GameState) -> list[Action]:
        tiles = state.seat_zones[self.source][state.current]
        if self.target is not None:
            return [Discard(tile) for tile in tiles]
        return [Discard(tile, zone) for tile in tiles for zone in self.targets]

    def apply(self, state: GameState, action: Discard) -> Discarded:
        tiles = state.seat_zones[self.source][state.current]
        if action.tile not in tiles:
            name = state.rules.tiles.names[action.tile]
            raise IllegalAction(f"tile {name} cannot be discarded: it is not in {state.who(state.current)}'s "
                                f"{self.source} (it is in {state.locate(action.tile)})")
        zone = action.zone or self.target
        if zone is None:
            raise IllegalAction(f"say which pile the tile is laid on: {', '.join(self.targets)}")
        if zone not in self.targets:
            raise IllegalAction(f"a discard goes onto {' or '.join(self.targets)}, not {zone}")
        tiles.remove(action.tile)
        state.zones[zone].append(action.tile)
        return Discarded(seat=state.current, tile=action.tile, zone=zone)


class PassTurn(TurnRule):
    """Give up the turn; nothing on the table changes (the target stays the last tile)."""

    name = "pass"
    action_type = Pass
    schema = {"type": "object", "properties": {"when": _WHEN}, "additionalProperties": False}

    def generate(self, state: GameState) -> list[Action]:
        return [PASS]

    def generator_source(self, prefix: str) -> Source:
        return Source(f"[{prefix}_pass]", {f"{prefix}_pass": PASS})


def check_turn_rules(rules: list[TurnRule]) -> None:
    """Each action kind may be offered by one turn rule only."""
    seen: dict[type, str] = {}
    for rule in rules:
        if rule.action_type in seen:
            raise PrimitiveError(f"turn rules {seen[rule.action_type]!r} and {rule.key!r} both offer "
                                 f"{rule.action_type.__name__.lower()} actions", rule.key)
        seen[rule.action_type] = rule.key
