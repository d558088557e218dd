"""Turn primitives: the actions a seat may take on its turn, each allowed by a ``when``.

A turn rule's ``when`` is an expression over the turn values (see
:data:`contack_core.engine.rules.TURN_VALUES`), the option values, and ``can_<rule>`` for every
turn rule listed before it (true when that rule offers at least one action now).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal

import attrs

from contack_core.boards.lattice import figure_of
from contack_core.engine.actions import DRAW, PASS, Action, Discard, Draw, HouseAction, IllegalAction, Pass, Play
from contack_core.engine.chance import ShuffleDue
from contack_core.engine.events import Discarded, Drew, Event, HouseActed, Played, make_drew
from contack_core.engine.slots import ActionT, SomeTurnRule
from contack_core.engine.values import house_book
from contack_core.language.programs import Source, define_from
from contack_core.language.quick import construction_source
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.features import Feature
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


class TurnRule(Primitive, Generic[ActionT]):
    """Base of turn rules offering actions of kind ``ActionT`` (the contract:
    :class:`contack_core.engine.slots.TurnRule`)."""

    slot = "turn"
    action_type: type[ActionT]
    ends_turn: bool = True

    @property
    def allowed_key(self) -> type | str:
        """What ``state._allowed`` maps to this rule when it offers actions: its action type (one
        rule a kind), or, for a kind several rules may offer (house actions), the rule's own key."""
        return self.action_type

    def explain(self, state: GameState, action: Action) -> str | None:
        """Why this rule refuses ``action`` now, in words, where it knows better than its ``when``
        (None: the caller says what the seat may still do)."""
        return None

    def features(self, state: GameState) -> Mapping[str, Feature]:
        """What a bot may weigh of what this rule's actions can do now (pieces a move could take):
        nothing unless a rule says."""
        return {}

    def distinct_actions(self, tile_count: int) -> Sequence[Action] | None:
        """Every action it can ever offer, for a fixed action space: None (they depend on the
        board) unless a rule lists them."""
        return None

    def build(self, context: BuildContext) -> None:
        when = self.params.get("when")
        self.when: Expression | None = (
            None if when is None else context.expression(when, context.turn_values(self.key), "when")
        )
        self.can_name = f"can_{self.key}"

    def generate(self, state: GameState) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: GameState, action: ActionT) -> Event | None:
        """Apply ``action`` (the state applies a pass itself: a rule that only allows one has no effect)."""
        raise NotImplementedError

    def apply_agreed(self, state: GameState, action: ActionT) -> Event | None:
        """An agreed action: as :meth:`apply` (the state lifts the turn's conditions)."""
        return self.apply(state, action)

    def apply_source(self, refuse: str) -> Source | None:
        """None: the compiled state calls :meth:`apply` (a rule on the hot path spells it out)."""
        return None

    def generator_source(self, prefix: str) -> Source:
        """This rule's legal actions as a Python expression over ``_state`` (the names it
        binds start with ``prefix``), for the compiled turn program. The default calls
        :meth:`generate`; a rule on the hot path of playouts spells its generator out."""
        return Source(f"{prefix}_generate(_state)", {f"{prefix}_generate": self.generate})


class PlayTile(TurnRule[Play]):
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
        """Lay tiles with ``placement``: :meth:`apply` and :meth:`tiles` are compiled for this
        rule's zones, the placement's play inlined (``play_source``): every playout's step. :meth:`readable_apply` and
        :meth:`readable_tiles` say the same plainly, and tests hold the two to each other."""
        self.placement = placement
        body = self.apply_source("return None")
        assert body is not None  # attached
        self.apply = define_from("apply", ["_state", "_action"],  # type: ignore[method-assign]
                                 Source(body.code + "\nreturn _event", body.bindings))
        if self.single_zone is None:
            self.tiles = define_from("tiles", ["_state"],  # type: ignore[method-assign]
                                     Source(f"{self._tiles_statements()}\nreturn _tiles"))

    def apply_source(self, refuse: str) -> Source | None:
        """:meth:`readable_apply` as statements (see the contract), the placement's play inlined:
        the zone holding the tile is found by a chain of tests, one a zone (a hand holds it; a
        pile shows it on top), each zone named in the source. None until a placement is attached."""
        placement = self.placement
        if placement is None:
            return None
        lines = ["_seat = _state.current", "_tile = _action.tile"]
        if self.single_zone is not None:
            play = placement.play_source(refuse=refuse, returns=False)
            lines += [f"_zone = _state.seat_zones[{self.single_zone!r}][_seat]", "if _tile not in _zone:",
                      f"    {refuse}"]
        else:
            play = placement.play_source("_source", refuse=refuse, returns=False)
            lines.append("_zones = _state.zones")
            tests = [f"_tile in (_zone := _state.seat_zones[{zone!r}][_seat])" for zone in self.hand_zones]
            tests += [f"(_zone := _zones[{zone!r}]) and _zone[-1] == _tile" for zone in self.pile_zones]
            for index, (zone, test) in enumerate(zip([*self.hand_zones, *self.pile_zones], tests)):
                lines += [f"{'if' if index == 0 else 'elif'} {test}:", f"    _source = {zone!r}"]
            lines += ["else:", f"    {refuse}"]
        lines += ["_cell = _action.cell", play.code]
        return Source("\n".join(lines), play.bindings)

    def _tiles_statements(self) -> str:
        """:meth:`readable_tiles` for several zones as Python statements over ``_state`` leaving
        the tiles in ``_tiles``: no call, each pile's top appended when it has one."""
        hands = [f"*_state.seat_zones[{zone!r}][_state.current]" for zone in self.hand_zones]
        lines = [f"_tiles = [{', '.join(hands)}]", "_piles = _state.zones"]
        for zone in self.pile_zones:
            lines += [f"_pile = _piles[{zone!r}]", "if _pile:", "    _tiles.append(_pile[-1])"]
        return "\n".join(lines)

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

    def _attached(self) -> Placement:
        """The placement :meth:`attach` gave (the loader attaches one to every play rule)."""
        if self.placement is None:
            raise RuntimeError(f"turn rule {self.key!r} lays tiles, but no placement was attached to it")
        return self.placement

    def generate(self, state: GameState) -> list[Action]:
        if self.single_zone is not None:
            return self._attached().plays(figure_of(state.figure), state.seat_zones[self.single_zone][state.current])
        return self._attached().plays(figure_of(state.figure), self.tiles(state))

    def generator_source(self, prefix: str) -> Source:
        if self.placement is None:
            return super().generator_source(prefix)
        tiles = self._tiles_statements() if self.single_zone is None else \
            f"_tiles = _state.seat_zones[{self.single_zone!r}][_state.current]"
        return self.placement.plays_source(tiles)  # statements, inlined in the turn program

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
        event = self._attached().play_from(state, seat, tiles, tile, action.cell)
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
        event = None if self.placement is None else self.placement.agreed_play(state, seat, tiles, action.tile,
                                                                             action.cell)
        if event is not None and self.single_zone is None:  # as apply tells it: a zone where there are several
            event.source = zone
        return event


class DrawTile(TurnRule[Draw]):
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

    def distinct_actions(self, tile_count: int) -> Sequence[Action]:
        return [DRAW]

    def generator_source(self, prefix: str) -> Source:
        return Source(f"[{prefix}_draw] if _state.zones[{self.source!r}] else []", {f"{prefix}_draw": DRAW})

    def apply_source(self, refuse: str) -> Source | None:
        """The top tile drawn, spelt out; a named tile (a record's draw) through :meth:`apply`."""
        drew = construction_source(Drew, "_event", ["_state.current", "_tile"])
        return Source("\n".join([
            "if _action.tile is None:",
            f"    _tile = _state.zones[{self.source!r}].pop()",
            f"    _state.seat_zones[{self.target!r}][_state.current].append(_tile)",
            *("    " + line for line in drew.code.splitlines()),
            "else:",
            f"    _event = _{self.key}_apply(_state, _action)",
        ]), {**drew.bindings, f"_{self.key}_apply": self.apply})

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


class DiscardTile(TurnRule[Discard]):
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

    def distinct_actions(self, tile_count: int) -> Sequence[Action]:
        return [Discard(tile, None if self.target is not None else zone) for zone in self.targets
                for tile in range(tile_count)]

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


class PassTurn(TurnRule[Pass]):
    """Give up the turn; nothing on the table changes (the target stays the last tile)."""

    name = "pass"
    action_type = Pass
    schema = {"type": "object", "properties": {"when": _WHEN}, "additionalProperties": False}

    def generate(self, state: GameState) -> list[Action]:
        return [PASS]

    def distinct_actions(self, tile_count: int) -> Sequence[Action]:
        return [PASS]

    def generator_source(self, prefix: str) -> Source:
        return Source(f"[{prefix}_pass]", {f"{prefix}_pass": PASS})


_ZONE = {"type": "string", "minLength": 1}
_COUNT = {"type": ["integer", "string"]}


@attrs.frozen
class ReturnEffect:
    """Return the chosen tile (``one``) or every tile of ``zone`` (a seat's own, or a shared pile when
    ``shared``) onto ``pile``, at its ``at`` end."""

    one: bool
    zone: str
    pile: str
    at: Literal["top", "bottom"]
    shared: bool


@attrs.frozen
class DrawEffect:
    """Draw ``count`` tiles (None: as many as the action has returned so far) from the top of ``pile``
    into the seat's ``zone``."""

    count: int | None
    pile: str
    zone: str


@attrs.frozen
class TakeBackEffect:
    """Lift the tile laid last off the figure into the seat's ``zone``, or onto the pile ``zone`` (when
    ``shared``) at its ``at`` end."""

    zone: str
    shared: bool
    at: Literal["top", "bottom"]


HouseEffect = ReturnEffect | DrawEffect | TakeBackEffect


class HouseActionRule(TurnRule[HouseAction]):
    """An action of the ruleset's own, built from effects on zones, done in order:

    - ``return`` the tile the seat chooses (``chosen``) or every tile (``all``) of its own zone
      ``from`` (or, for ``all``, of a shared pile) to the pile ``to``, at its ``top`` or
      ``bottom`` (default);
    - ``draw`` N tiles from the top of the pile ``from`` into the seat's zone ``to`` (N a number,
      an option, or ``returned``: as many as the action has returned so far);
    - ``take_back`` the tile laid last off the figure, into the seat's zone or onto a pile ``to``
      (the figure is then as if it had never been laid; the points it scored stand);
    - ``shuffle`` a face-down pile, the last effect (chance then decides the pile's new order
      before play goes on).

    ``when`` says when it is offered (a formula over the turn values, as any turn rule's);
    ``limit`` how often each seat may take it (``times``, default 1, ``per`` ``hand`` or
    ``game``, the default; no limit: as often as ``when`` allows); ``cost`` adds ``amount``
    (negative: a cost) to the seat's ``counter``; ``ends_turn`` (default false) passes the turn
    on after it. It is offered only when each draw can be made in full and each take-back leaves
    a tile on the figure. Its key names it: in typed text (``exchange 03-04-05``), records (a
    ``house`` line) and the wire; several may be declared in one ruleset.

    It cannot draw after a shuffle (the draw would need the order chance has not yet decided)."""

    name = "house-action"
    action_type = HouseAction
    ends_turn = False
    schema = {
        "type": "object",
        "required": ["effects"],
        "properties": {
            "effects": {"type": "array", "minItems": 1, "items": {
                "type": "object",
                "description": "return (the chosen tile, or every tile, of the seat's own zone onto a pile, at its "
                               "top or bottom; or every tile of a shared pile), draw (N tiles from the top of a pile "
                               "into the seat's own zone), take_back (the tile laid last, off the figure into the "
                               "seat's own zone or onto a pile) or shuffle (a face-down pile, the last effect)",
                "properties": {"return": {"enum": ["chosen", "all"]}, "draw": _COUNT, "shuffle": _ZONE,
                               "take_back": {"enum": ["last"]},
                               "from": _ZONE, "to": _ZONE, "at": {"enum": ["top", "bottom"]}},
                "additionalProperties": False}},
            "when": _WHEN,
            "limit": {"type": "object", "properties": {"times": _COUNT, "per": {"enum": ["hand", "game"]}},
                      "additionalProperties": False},
            "cost": {"type": "object", "required": ["counter", "amount"],
                     "properties": {"counter": {"type": "string"}, "amount": _COUNT}, "additionalProperties": False},
            "ends_turn": {"type": "boolean"},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        #: The effects on zones, in order (a shuffle, the last, is ``shuffle_due``).
        self.effects: list[HouseEffect] = []
        self.chosen_zone: str | None = None
        #: The chance node a ``shuffle`` effect leaves the state at, None without one.
        self.shuffle_due: ShuffleDue | None = None
        #: The placement that lays tiles on the figure, which a ``take_back`` lifts one off.
        self.placement: Placement | None = None
        effects = self.params["effects"]
        for i, effect in enumerate(effects):
            where = f"effects.{i}"
            kinds = [kind for kind in ("return", "draw", "take_back", "shuffle") if kind in effect]
            if len(kinds) != 1:
                raise PrimitiveError("an effect is a return (return: chosen or all, from a zone to a pile), a draw "
                                     "(draw: N, from a pile to a zone), a take-back (take_back: last, to a zone) or a "
                                     "shuffle (shuffle: PILE)", where)
            if "shuffle" in effect:
                self.shuffle_due = self._shuffle_due(context, effect, where, last=i == len(effects) - 1)
                continue
            if "take_back" in effect:
                self.effects.append(self._take_back(context, effect, where))
                continue
            for needed in ("from", "to"):
                if needed not in effect:
                    raise PrimitiveError(f"a {kinds[0]} says where its tiles come from and go to: {needed} is missing",
                                         where)
            if "draw" in effect and "at" in effect:
                raise PrimitiveError("a draw takes from a pile's top: 'at' belongs to a return", f"{where}.at")
            if "return" in effect:
                chosen = effect["return"] == "chosen"
                source = context.zone(effect["from"], f"{where}.from", ("hand",) if chosen else ("hand", "pile"))
                zone, shared = source.key, source.kind == "pile"
                pile = context.zone(effect["to"], f"{where}.to", ("pile",)).key
                if pile == zone:
                    raise PrimitiveError(f"a return moves tiles from one zone to another, not onto {zone} itself",
                                         f"{where}.to")
                if chosen:
                    if self.chosen_zone is not None:
                        raise PrimitiveError("an action returns one chosen tile at most", f"{where}.return")
                    self.chosen_zone = zone
                self.effects.append(ReturnEffect(chosen, zone, pile, effect.get("at", "bottom"), shared))
            else:
                pile = context.zone(effect["from"], f"{where}.from", ("pile",)).key
                zone = context.zone(effect["to"], f"{where}.to", ("hand",)).key
                count = None if effect["draw"] == "returned" else context.constant(effect["draw"], f"{where}.draw")
                if count is not None and (not isinstance(count, int) or count < 0):
                    raise PrimitiveError(f"a draw takes a whole number of tiles (0 or more), or 'returned'; "
                                         f"found {count!r}", f"{where}.draw")
                self.effects.append(DrawEffect(count, pile, zone))
        limit = self.params.get("limit")
        self.times: int | None = None
        self.per = "game"
        if limit is not None:
            self.times = context.constant(limit.get("times", 1), "limit.times")
            if not isinstance(self.times, int) or self.times < 1:
                raise PrimitiveError(f"limit.times is a whole number of 1 or more, found {self.times!r}", "limit.times")
            self.per = limit.get("per", "game")
        cost = self.params.get("cost")
        self.counter: str | None = None
        self.amount = 0
        if cost is not None:
            if cost["counter"] not in context.counters:
                known = ", ".join(sorted(context.counters)) or "none"
                raise PrimitiveError(f"no counter named {cost['counter']!r} (counters: {known})", "cost.counter")
            self.counter = cost["counter"]
            self.amount = context.constant(cost["amount"], "cost.amount")
        self.ends_turn = self.params.get("ends_turn", False)
        self.book = house_book(self.key)
        self.plain = HouseAction(self.key)

    def _take_back(self, context: BuildContext, effect: Mapping[str, Any], where: str) -> TakeBackEffect:
        if context.placement is None:
            raise PrimitiveError("take_back lifts the tile laid last off the figure: this ruleset lays no tiles "
                                 "(it has no placement)", f"{where}.take_back")
        self.placement = context.placement
        if "from" in effect:
            raise PrimitiveError("a take-back takes from the figure: 'from' belongs to a return or a draw",
                                 f"{where}.from")
        if "to" not in effect:
            raise PrimitiveError("a take-back says where the tile goes: to is missing", where)
        target = context.zone(effect["to"], f"{where}.to", ("hand", "pile"))
        if target.kind == "hand" and "at" in effect:
            raise PrimitiveError("a tile taken back into a seat's zone lies nowhere in particular: 'at' belongs to "
                                 "a pile", f"{where}.at")
        return TakeBackEffect(target.key, target.kind == "pile", effect.get("at", "bottom"))

    @staticmethod
    def _shuffle_due(context: BuildContext, effect: Mapping[str, Any], where: str, last: bool) -> ShuffleDue:
        extra = sorted(key for key in effect if key != "shuffle")
        if extra:
            raise PrimitiveError(f"a shuffle names its pile alone (shuffle: PILE), not {', '.join(extra)}",
                                 f"{where}.{extra[0]}")
        pile = context.zone(effect["shuffle"], f"{where}.shuffle", ("pile",))
        if pile.face_up:
            raise PrimitiveError(f"pile {pile.key!r} lies face up: a shuffle mixes a face-down pile, whose order "
                                 f"nobody sees (a record never states it)", f"{where}.shuffle")
        if not last:
            raise PrimitiveError("a shuffle is an action's last effect: chance decides the new order once the "
                                 "action is done, so nothing after it could draw from it", f"{where}.shuffle")
        return ShuffleDue(pile.key)

    @property
    def allowed_key(self) -> type | str:
        return self.key

    @property
    def draws(self) -> bool:
        """Whether the action draws tiles (then a record names them)."""
        return any(isinstance(effect, DrawEffect) and effect.count != 0 for effect in self.effects)

    # ------------------------------------------------------------------ the limit
    def _used_key(self, state: GameState, seat: int) -> tuple[int, int]:
        return (state.hand_number if self.per == "hand" else 0, seat)

    def used(self, state: GameState, seat: int) -> int:
        """How often ``seat`` has taken this action in the limit's span (this hand, or the game)."""
        return state.ledger.get(self.book, {}).get(self._used_key(state, seat), 0)

    def spent(self, state: GameState, seat: int) -> bool:
        return self.times is not None and self.used(state, seat) >= self.times

    def limit_words(self) -> str:
        times = {1: "once", 2: "twice"}.get(self.times or 0, f"{self.times} times")
        return f"{times} a {self.per}"

    # ------------------------------------------------------------------ offering and applying
    def _feasible(self, state: GameState, chosen: bool) -> bool:
        """Whether every draw can be made in full (counting what the returns put on the piles)."""
        seat = state.current
        sizes = {name: len(tiles) for name, tiles in state.zones.items()}
        held = {name: len(per_seat[seat]) for name, per_seat in state.seat_zones.items()}
        returned = 0
        figure_tiles = len(state.figure.tile_at)
        for effect in self.effects:
            if isinstance(effect, ReturnEffect):
                zone = effect.zone
                count = (1 if chosen else 0) if effect.one else sizes[zone] if effect.shared else held[zone]
                if effect.shared:
                    sizes[zone] -= count
                else:
                    held[zone] -= count
                sizes[effect.pile] += count
                returned += count
            elif isinstance(effect, TakeBackEffect):
                figure_tiles -= 1
                if figure_tiles < 1:  # the figure keeps a tile to play to
                    return False
                if effect.shared:
                    sizes[effect.zone] += 1
                else:
                    held[effect.zone] += 1
            else:
                count = returned if effect.count is None else effect.count
                if sizes[effect.pile] < count:
                    return False
                sizes[effect.pile] -= count
                held[effect.zone] += count
        return True

    def generate(self, state: GameState) -> list[Action]:
        seat = state.current
        if self.spent(state, seat):
            return []
        if self.chosen_zone is None:
            return [self.plain] if self._feasible(state, False) else []
        tiles = state.seat_zones[self.chosen_zone][seat]
        if not tiles or not self._feasible(state, True):
            return []
        return [HouseAction(self.key, tile) for tile in tiles]

    def distinct_actions(self, tile_count: int) -> Sequence[Action]:
        return [self.plain] if self.chosen_zone is None else [HouseAction(self.key, tile) for tile in range(tile_count)]

    def explain(self, state: GameState, action: Action) -> str | None:
        """Why ``action`` is refused now, when this rule can say (its limit, its chosen tile)."""
        if not isinstance(action, HouseAction):
            return None
        seat = state.current
        who = state.who(seat)
        if self.spent(state, seat):
            return f"{self.key} may be taken {self.limit_words()}: {who} has taken it already"
        names = state.rules.tiles.names
        if self.chosen_zone is None and action.tile is not None:
            return f"{self.key} chooses no tile (it returns every tile of the zone): name none"
        if self.chosen_zone is not None:
            if action.tile is None:
                held = state.seat_zones[self.chosen_zone][seat]
                return f"{self.key} returns a tile {who} chooses: name it ({self.key} {names[held[0] if held else 0]})"
            if action.tile not in state.seat_zones[self.chosen_zone][seat]:
                return (f"tile {names[action.tile]} is not in {who}'s {self.chosen_zone} "
                        f"(it is in {state.locate(action.tile)})")
        return None

    def apply(self, state: GameState, action: HouseAction) -> HouseActed:
        """Do the effects in order; :class:`IllegalAction` (and nothing changed) if the chosen or
        named tiles are not where the rule takes them from."""
        seat = state.current
        problem = self.explain(state, action)
        if problem is not None:
            raise IllegalAction(problem)
        named = list(action.drawn) if action.drawn is not None else None
        if named is not None:
            self._check_named(state, action, named)
        returned: list[int] = []
        drawn: list[int] = []
        lifted: list[int] = []
        for effect in self.effects:
            if isinstance(effect, TakeBackEffect):
                assert self.placement is not None  # built with the take-back
                _, tile = self.placement.lift_last(figure_of(state.figure))
                if not effect.shared:
                    state.seat_zones[effect.zone][seat].append(tile)
                elif effect.at == "top":
                    state.zones[effect.zone].append(tile)
                else:
                    state.zones[effect.zone].insert(0, tile)
                lifted.append(tile)
            elif isinstance(effect, ReturnEffect):
                tiles = state.zones[effect.zone] if effect.shared else state.seat_zones[effect.zone][seat]
                moving = _returning(action, effect.one, tiles)
                for tile in moving:
                    tiles.remove(tile)
                target = state.zones[effect.pile]
                if effect.at == "top":
                    target.extend(moving)
                else:
                    target[:0] = reversed(moving)
                returned.extend(moving)
            else:
                count = len(returned) if effect.count is None else effect.count
                source = state.zones[effect.pile]
                if named is None:
                    taken = [source.pop() for _ in range(count)]
                else:
                    taken, named = named[:count], named[count:]
                    for tile in taken:
                        source.remove(tile)
                state.seat_zones[effect.zone][seat].extend(taken)
                drawn.extend(taken)
        book = state.ledger.setdefault(self.book, {})
        key = self._used_key(state, seat)
        book[key] = book.get(key, 0) + 1
        if self.counter is not None:
            state.hand_gains[self.counter][seat] += self.amount
        if self.shuffle_due is not None:
            state._await_chance(self.shuffle_due)
        return HouseActed(seat=seat, rule=self.key, tile=action.tile, returned=tuple(returned), drawn=tuple(drawn),
                          amount=self.amount, shuffled=None if self.shuffle_due is None else self.shuffle_due.zone,
                          taken=tuple(lifted))

    def _check_named(self, state: GameState, action: HouseAction, named: list[int]) -> None:
        """Named drawn tiles (a record's) must be what the draws can take: as many as they draw,
        each unseen in its pile, and the tiles this action put on a pile's top taken first, those it
        put at the bottom only once the draw reaches them (the order of the rest is hidden)."""
        seat = state.current
        names = state.rules.tiles.names
        if len(set(named)) != len(named):
            twice = next(tile for tile in named if named.count(tile) > 1)
            raise IllegalAction(f"tile {names[twice]} is named twice among the tiles drawn")
        piles = {name: list(tiles) for name, tiles in state.zones.items()}
        known: dict[str, list[int]] = {name: [] for name in piles}  # tiles this action put on each pile
        held = {name: list(per_seat[seat]) for name, per_seat in state.seat_zones.items()}
        returned = 0
        rest = list(named)
        lifted = list(state.figure.tile_at.values())  # the tiles a take-back lifts, the last laid first
        for effect in self.effects:
            if isinstance(effect, TakeBackEffect):
                tile, zone = lifted.pop(), effect.zone
                if not effect.shared:
                    held[zone].append(tile)
                else:
                    piles[zone] = piles[zone] + [tile] if effect.at == "top" else [tile, *piles[zone]]
                    known[zone].append(tile)
                continue
            if isinstance(effect, ReturnEffect):
                pile = effect.pile
                source = piles[effect.zone] if effect.shared else held[effect.zone]
                moving = _returning(action, effect.one, source)
                for tile in moving:
                    source.remove(tile)
                piles[pile] = piles[pile] + moving if effect.at == "top" else list(reversed(moving)) + piles[pile]
                known[pile].extend(moving)
                returned += len(moving)
                continue
            pile, zone = effect.pile, effect.zone
            count = returned if effect.count is None else effect.count
            if len(rest) < count:
                raise IllegalAction(f"{self.key} draws {count} tile{'s' if count != 1 else ''} from {pile}: "
                                    f"name {'them' if count != 1 else 'it'} (only {len(rest)} named)")
            taken, rest = rest[:count], rest[count:]
            reached = piles[pile][len(piles[pile]) - count:] if count else []
            due = [tile for tile in reached if tile in known[pile]]
            for tile in due:
                if tile not in taken:
                    raise IllegalAction(f"the draw from {pile} takes {names[tile]} (just returned on it), "
                                        f"not {', '.join(names[t] for t in taken if t not in due)}")
            for tile in taken:
                if tile not in piles[pile]:
                    raise IllegalAction(f"tile {names[tile]} cannot be drawn: it is not unseen in {pile}, "
                                        f"it is in {state.locate(tile)}")
                if tile in known[pile] and tile not in due:
                    raise IllegalAction(f"tile {names[tile]} cannot be drawn: {self.key} has just returned it to "
                                        f"{pile}, where the draw does not reach it")
                piles[pile].remove(tile)
                held[zone].append(tile)
        if rest:
            count = len(named) - len(rest)
            raise IllegalAction(f"{self.key} draws {count} tile{'s' if count != 1 else ''}, not {len(named)}")


def _returning(action: HouseAction, one: bool, held: list[int]) -> list[int]:
    """The tiles a ``return`` effect moves from ``held``: the one the seat chose (``one``; the
    rule's ``explain`` has refused an action naming none), or every tile held."""
    return [action.tile] if one and action.tile is not None else list(held)


def check_turn_rules(rules: list[SomeTurnRule]) -> None:
    """Each action kind may be offered by one turn rule only (house actions, each its own kind,
    are told apart by their keys)."""
    seen: dict[type, str] = {}
    for rule in rules:
        if rule.allowed_key is not rule.action_type:
            continue
        if rule.action_type in seen:
            raise PrimitiveError(f"turn rules {seen[rule.action_type]!r} and {rule.key!r} both offer "
                                 f"{rule.action_type.__name__.lower()} actions", rule.key)
        seen[rule.action_type] = rule.key
