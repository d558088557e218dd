"""Set-up primitives: the steps that begin each hand, in the order the ruleset lists them.

A *chance* step (a shuffle, a deal) is sampled by the caller's RNG or read from a record;
a decision step (the opening play) offers the seat it names its legal actions.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic

from contack_core.boards.lattice import Cell
from contack_core.engine.actions import Action, Deal, IllegalAction, Play, Shuffle, make_deal, make_shuffle
from contack_core.engine.chance import shuffled
from contack_core.engine.events import Dealt, Event, Played, Shuffled, make_dealt
from contack_core.engine.ruleset_faults import RulesetFault, ruleset_name
from contack_core.engine.values import VALUE_BINDINGS, counter_values
from contack_core.engine.slots import ActionT
from contack_core.language.expressions import Expression, ExpressionError, evaluate_safely
from contack_core.language.limits import MAX_DOMAIN_EVALUATIONS, MAX_TILES, shown_number
from contack_core.language.programs import compile_per_seat
from contack_core.primitives.board import TriangularLattice
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.boards.tiles import TileSet
    from contack_core.engine.slots import Placement
    from contack_core.engine.state import GameState


class SetupStep(Primitive, Generic[ActionT]):
    """Base of set-up steps sampling actions of kind ``ActionT`` (the contract:
    :class:`contack_core.engine.slots.SetupStep`)."""

    slot = "setup"
    chance = True
    #: The action types this step takes (a chance step's outcomes, or a decision's actions).
    accepts: tuple[type[Action], ...] = ()
    #: The pile this step shuffles (None: it shuffles none).
    shuffles: str | None = None

    def enter(self, state: GameState) -> None:
        """Called when the set-up reaches this step."""

    def sample(self, state: GameState, rng: random.Random) -> Action:
        """A chance step's outcome; a decision step has none."""
        raise IllegalAction(f"{self.explain(state)}: no chance outcome is due")

    def legal(self, state: GameState) -> list[Action]:
        """A decision step's legal actions; a chance step offers none."""
        return []

    def apply(self, state: GameState, action: Action) -> Event | None:
        """Apply the step's action; a step that takes none refuses every one."""
        raise IllegalAction(self.explain(state))

    def apply_sampled(self, state: GameState, action: ActionT) -> Event | None:
        """Apply an outcome this step's :meth:`sample` drew from the state as it stands: a
        step may skip the checks a recorded outcome needs (the default does not)."""
        return self.apply(state, action)

    def check_domain(self, hands: int, players: tuple[int, int]) -> None:
        """Refuse, as a PrimitiveError, what fails for some game of ``hands`` hands and
        ``players`` seats (nothing unless a step reads the hands before it)."""

    def takes(self, seats: int) -> dict[str, int]:
        """The tiles this step takes from each shared zone with ``seats`` seats (checked at load)."""
        return {}

    def gives(self) -> dict[str, int]:
        """The tiles this step lays on each shared zone."""
        return {}

    def explain(self, state: GameState) -> str:
        """What this step waits for (for error messages)."""
        kinds = " or ".join(t.__name__.lower() for t in self.accepts)
        return f"the hand is being set up ({self.key}): expected a chance outcome ({kinds})"


class ShuffleZone(SetupStep[Shuffle]):
    """Chance: shuffle a pile (its order stays hidden; a record never states it)."""

    name = "shuffle"
    accepts = (Shuffle,)
    schema = {"type": "object", "required": ["zone"], "properties": {"zone": {"type": "string"}},
              "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        self.zone = self.shuffles = context.zone(self.params["zone"], "zone", ("pile",)).key

    def sample(self, state: GameState, rng: random.Random) -> Shuffle:
        return make_shuffle(self.zone, tuple(shuffled(state.zones[self.zone], rng)))

    def apply(self, state: GameState, action: Action) -> Shuffled:
        if not isinstance(action, Shuffle) or action.zone != self.zone:
            raise IllegalAction(f"expected a shuffle of {self.zone}")
        event = state._shuffle(self.zone, action.order)
        state._setup_step_done()
        return event

    def apply_sampled(self, state: GameState, action: Shuffle) -> Shuffled:
        event = state._shuffle(self.zone, action.order, checked=False)
        state._setup_step_done()
        return event


#: What a deal's ``count`` may read about each seat besides the options: the hands before this
#: one, each with a range known at load, so the count is checked there for every value they
#: can take (see :meth:`DealTiles.check_domain`).
DEAL_VALUES = ("hand_number", "hands_played", "seats", "hands_won", "won_last_hand", "went_out_last")
#: The scores a count may read too (``last_hand_score`` and each counter's running totals, as the
#: hand begins), whose range is not known at load: the count is checked there for each of these
#: scores, and in play for the scores met.
SCORE_PROBES = (-500, -100, -50, -10, -1, 0, 1, 10, 50, 100, 500)


class DealTiles(SetupStep[Deal]):
    """Chance: give each seat in turn ``count`` tiles from the top of a pile.

    If the pile runs short (a house rule with big hands and many players), the last
    seats get what is left; ``count`` may be an expression over option values, or a formula
    about each seat reading what happened before the hand: ``hand_number``, ``hands_played``,
    ``seats``, ``hands_won``, ``won_last_hand``, ``went_out_last`` (the last hand's winner is
    dealt a tile more: ``hand_size + won_last_hand``), and the scores as the hand begins:
    ``last_hand_score`` and each counter's ``<counter>``, ``highest_<counter>``,
    ``lowest_<counter>`` (a tile fewer for every 50 points: ``hand_size - score // 50``). Such a
    formula is worked out at load for every value the hands before can take in the match and
    each of :data:`SCORE_PROBES` for a score, and refused where it gives no whole number of tiles
    from 0 to ``MAX_TILES``; a score met in play that makes it do so stops the game there, as a
    fault of the ruleset.
    """

    name = "deal"
    accepts = (Deal,)
    schema = {
        "type": "object",
        "required": ["from", "to", "count"],
        "properties": {"from": {"type": "string"}, "to": {"type": "string"},
                       "count": {"type": ["integer", "string"]}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.source = context.zone(self.params["from"], "from", ("pile",)).key
        self.target = context.zone(self.params["to"], "to", ("hand",)).key
        source = self.params["count"]
        #: Each seat's count this hand, when ``count`` reads the hands before (else None).
        self.count_of: Callable[[GameState], list[int]] | None = None
        self.count_formula: Expression | None = None
        #: The scores a count may read (``last_hand_score``, the counters' running totals).
        self.scores: tuple[str, ...] = ()
        values = context.state_values()
        names = context.expression(source, values, "count").names
        if names:
            self.scores = ("last_hand_score", *counter_values(context.counters))
            readable = (*DEAL_VALUES, *self.scores)
            beyond = [name for name in names if name not in readable]
            if beyond:
                raise PrimitiveError(f"count reads {beyond[0]!r}, whose values are not known before play: a deal's "
                                     f"count may read {', '.join(readable)} and the options", "count")
            self.count_formula = context.expression(source, names, "count", whole_number=True)
            count_of = compile_per_seat("deal_count", source, {name: values[name] for name in readable},
                                        context.constants, VALUE_BINDINGS)
            reads_scores = any(name in self.scores for name in names)
            self.count_of = self._checked_in_play(count_of, str(source)) if reads_scores else count_of
            self.count = MAX_TILES  # the most it can give, until check_domain has worked it out
            return
        self.count = context.constant(source, "count")
        if not isinstance(self.count, int) or self.count < 0:
            raise PrimitiveError(f"count must be a whole number, found {self.count!r}", "count")
        if self.count > MAX_TILES:  # no set holds more: refused here, not as a deal the pile cannot make
            raise PrimitiveError(f"count is {shown_number(self.count)}: a deal gives at most {MAX_TILES} tiles "
                                 f"(MAX_TILES)", "count")

    def _checked_in_play(self, count_of: Callable[[GameState], list[int]], source: str
                         ) -> Callable[[GameState], list[int]]:
        """``count_of``, stopping the game as the ruleset's fault where a score met in play makes the
        count no whole number of tiles from 0 to ``MAX_TILES`` (load checked only some scores)."""
        def checked(state: GameState) -> list[int]:
            counts = count_of(state)
            for seat, count in enumerate(counts):
                if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_TILES:
                    raise RulesetFault(ruleset_name(state.rules), [f"setup.{self.key}.count"], source,
                                       f"it gives {count!r} tiles to {state.who(seat)} in hand {state.hand_number}: "
                                       f"a deal gives each seat a whole number from 0 to {MAX_TILES}")
            return counts
        return checked

    def takes(self, seats: int) -> dict[str, int]:
        return {self.source: self.count * seats}  # a formula's count: the most it gives, to every seat

    def check_domain(self, hands: int, players: tuple[int, int]) -> None:
        """A ``count`` reading the hands before: worked out for every value its names take in a
        match of at most ``hands`` hands at ``players`` seats; refused (PrimitiveError) where it
        is not a whole number from 0 to ``MAX_TILES``. :attr:`count` is then the most it gives."""
        if self.count_formula is None:
            return
        names = self.count_formula.names
        earlier = range(hands)  # hands played or won before a hand: 0 .. hands - 1
        domains: dict[str, Sequence[int]] = {
            "hand_number": range(1, hands + 1), "hands_played": earlier, "hands_won": earlier,
            "won_last_hand": (0, 1), "went_out_last": (0, 1), "seats": range(players[0], players[1] + 1),
            **dict.fromkeys(self.scores, SCORE_PROBES)}
        ranges = [domains[name] for name in names]
        if math.prod(map(len, ranges)) > MAX_DOMAIN_EVALUATIONS:
            raise PrimitiveError(f"count reads {', '.join(names)}: more than {MAX_DOMAIN_EVALUATIONS:,} combinations "
                                 f"of their values to check in a match of {hands} hands (MAX_DOMAIN_EVALUATIONS)",
                                 "count")
        most = 0
        for combination in itertools.product(*ranges):
            named = dict(zip(names, combination))
            if named.get("hand_number", hands) <= max(named.get("hands_played", 0), named.get("hands_won", 0)):
                continue  # more hands before this one than have been played: never met
            if named.get("hand_number") == 1 and (named.get("won_last_hand") or named.get("went_out_last")):
                continue  # no hand before the first
            try:
                value = evaluate_safely(self.count_formula, named)
            except ExpressionError as error:
                raise PrimitiveError(str(error), "count") from None
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_TILES:
                at = ", ".join(f"{name}={value}" for name, value in named.items())
                shown = shown_number(value) if isinstance(value, int) else repr(value)
                raise PrimitiveError(f"count gives {shown} for {at}: a deal gives each seat a whole number of "
                                     f"tiles from 0 to {MAX_TILES} (MAX_TILES)", "count")
            most = max(most, value)
        self.count = most

    def seat_count_now(self, state: GameState) -> int:
        """The tiles due to the seat being dealt to, as ``count`` says (before the pile runs short)."""
        if self.count_of is None:
            return self.count
        return state.once_a_hand(self.key, self.count_of)[state.deal_seat]  # the hands before do not change

    def expected(self, state: GameState) -> int:
        # Not min(): CPython 3.11 parses min's arguments with a format string, on every deal.
        left = len(state.zones[self.source])
        count = self.count if self.count_of is None else self.seat_count_now(state)
        return count if count <= left else left  # noqa: FURB136

    def sample(self, state: GameState, rng: random.Random) -> Deal:
        # The top ``expected`` tiles, top first (as :meth:`expected`, spelt out: every hand deals).
        pile = state.zones[self.source]
        count = self.count if self.count_of is None else self.seat_count_now(state)
        n = count if count <= len(pile) else len(pile)  # noqa: FURB136
        return make_deal(state.deal_seat, tuple(pile[: -n - 1 : -1]), None)

    def apply(self, state: GameState, action: Action) -> Dealt:
        if not isinstance(action, Deal) or action.seat is None:  # a Deal, as ``accepts`` says: one to a stack
            raise IllegalAction("expected a deal to a seat")
        if action.seat != state.deal_seat:
            raise IllegalAction(f"the deal goes to {state.who(state.deal_seat)} now, not {state.who(action.seat)}")
        n = self.expected(state)
        if len(action.tiles) != n:
            if self.count_of is not None:
                raise IllegalAction(f"{state.who(action.seat)} is dealt {n} tiles this hand; {len(action.tiles)} given")
            raise IllegalAction(f"each seat is dealt {n} tiles; {len(action.tiles)} given")
        return self._dealt(state, state._deal_to(action.seat, self.target, action.tiles, self.source))

    def apply_sampled(self, state: GameState, action: Deal) -> Dealt:
        return self._dealt(state, state._deal_to(state.deal_seat, self.target, action.tiles, self.source, True))

    def _dealt(self, state: GameState, event: Dealt) -> Dealt:
        """The deal done: the next seat's turn to be dealt to, or the next step once every seat has been."""
        state.deal_seat += 1
        if state.deal_seat == state.seat_count:
            state._setup_step_done()
        return event


def lattice_origin(context: BuildContext, name: str) -> Cell:
    """The origin of the ruleset's triangular lattice, where an opening tile is laid; refused at
    load when the board is another (the board contract declares no origin)."""
    board = context.board
    if not isinstance(board, TriangularLattice):
        found = board.name if board is not None else "missing"
        raise PrimitiveError(f"{name} lays the opening tile on a triangular-lattice board's origin; this ruleset's "
                             f"board is {found}", "from")
    return board.origin


def opening_placement(state: GameState) -> Placement:
    """The placement an opening tile is laid with: a triangular lattice, which a step opening
    the figure needs (:func:`lattice_origin`), has one (its figure is made with it)."""
    placement = state.rules.placement
    if placement is None:
        raise IllegalAction("the figure cannot be opened: the ruleset has no placement")
    return placement


def tile_value_names(tiles: TileSet) -> list[str]:
    """What a formula about one tile reads: each colour's number, and ``total``, ``lowest``
    and ``highest`` of its numbers."""
    return [*tiles.colours, "total", "lowest", "highest"]


def tile_values(tiles: TileSet, tile: int) -> dict[str, int]:
    values = tiles.values[tile]
    return {**tiles.colour_values(tile), "total": sum(values), "lowest": min(values), "highest": max(values)}


class LowestTileOpens(SetupStep[Play]):
    """The holder of the lowest tile plays it on the board's origin, scoring nothing.

    Seats are compared by the first expression of ``order`` (an expression over the colour
    names, and ``total``, ``lowest``, ``highest`` of the tile's numbers): their lowest values
    first, then (``ties: next-lowest``, the default) the next-lowest, and so on, then the
    lower seat number; ``ties: first-seat`` gives a tie for the lowest value to the first
    such seat in seat order at once. Within the opener's hand, the tile played is the lowest by the whole
    ``order`` list (the later expressions break ties), then the lower tile index.

    ``leader`` says who leads the hand from what happened before it: a list of measures, each
    ``{lowest: formula}`` or ``{highest: formula}`` about each seat as the hand begins (its
    ``last_hand_score``, ``won_last_hand``, ``went_out_last``, ``hands_won``, its totals such as
    ``score``, ``hand_number``...). The seats best by the first measure are kept, a tie goes to
    the next measure, and among the seats still tied the lowest tile decides as above: so in the
    first hand, where every seat's ``last_hand_score`` is 0, the lowest tile opens as usual.
    """

    name = "lowest-tile-opens"
    chance = False
    accepts = (Play,)
    schema = {
        "type": "object",
        "required": ["from", "order"],
        "properties": {"from": {"type": "string"},
                       "order": {"type": "array", "items": {"type": ["string", "integer"]}, "minItems": 1},
                       "ties": {"enum": ["next-lowest", "first-seat"]},
                       "leader": {"type": "array", "minItems": 1, "items": {
                           "oneOf": [{"type": "object", "required": ["lowest"], "additionalProperties": False,
                                      "properties": {"lowest": {"type": "string"}}},
                                     {"type": "object", "required": ["highest"], "additionalProperties": False,
                                      "properties": {"highest": {"type": "string"}}}]}}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.zone = context.zone(self.params["from"], "from", ("hand",)).key
        values = context.state_values()
        #: ``leader``: (each seat's value, lowest first?) for each measure, in order.
        self.leader: list[tuple[Callable[[GameState], list[int]], bool]] = []
        for i, measure in enumerate(self.params.get("leader", ())):
            lowest = "lowest" in measure
            source = measure["lowest" if lowest else "highest"]
            key = f"leader.{i}.{'lowest' if lowest else 'highest'}"
            context.expression(source, values, key, whole_number=True)  # refused here, with its line
            self.leader.append((compile_per_seat(f"leader{i}", source, values, context.constants, VALUE_BINDINGS),
                                lowest))
        self.origin = lattice_origin(context, self.name)
        tiles = context.tiles
        if tiles is None:
            raise PrimitiveError("lowest-tile-opens needs a tile set", "from")
        self.next_lowest = self.params.get("ties", "next-lowest") == "next-lowest"
        keys = []
        for i, source in enumerate(self.params["order"]):
            expression = context.expression(source, tile_value_names(tiles), f"order.{i}")
            keys.append([expression.evaluate(tile_values(tiles, t)) for t in range(len(tiles))])
        self.primary = keys[0]
        rank = [tuple(key[t] for key in keys) for t in range(len(tiles))]
        # Each tile's place in the total order (rank, then tile index): comparing hands is
        # then comparing sorted lists of small ints.
        order = sorted(range(len(tiles)), key=lambda t: (rank[t], t))
        self.position = [0] * len(tiles)
        for place, tile in enumerate(order):
            self.position[tile] = place
        #: The tiles lowest first, each with the other tiles of its lowest value (a tie between seats).
        alike: dict[object, list[int]] = {}
        for tile in order:
            alike.setdefault(self.primary[tile], []).append(tile)
        self.lowest_first = [(tile, tuple(other for other in alike[self.primary[tile]] if other != tile))
                             for tile in order]

    def opener(self, state: GameState) -> tuple[int, int]:
        """(seat, tile) of the opening play (worked out once per hand)."""
        return state.once_a_hand(self.key, self._find_opener)

    def _find_opener(self, state: GameState) -> tuple[int, int]:
        """The tiles walked lowest first: the first one a seat holds opens, unless another seat
        holds a tile of the same value (a tie, which :meth:`_find_tied_opener` settles). Where 20
        of 36 tiles are dealt, the first or second tile walked is usually held. Plain loops, since
        every hand opens and sorting each hand through ``map`` ran twice the instructions."""
        hands = state.seat_zones[self.zone]
        if self.leader:
            return self._find_leader(state)
        for tile, alike in self.lowest_first:
            seat = 0
            for hand in hands:
                if tile in hand:
                    for other in alike:
                        if other not in hand:
                            for held in hands:
                                if other in held:
                                    return self._find_tied_opener(state)
                    return seat, tile
                seat += 1
        return self._find_tied_opener(state)  # nobody holds a tile: refused there

    def _find_tied_opener(self, state: GameState) -> tuple[int, int]:
        """One pass over the tiles dealt finds the lowest value and its holder; when another seat
        holds that value too, whole hands are compared (or the first such seat opens)."""
        primary, hands = self.primary, state.seat_zones[self.zone]
        low, seat, shared = None, -1, False
        for holder, hand in enumerate(hands):
            for tile in hand:
                value = primary[tile]
                if low is None or value < low:
                    low, seat, shared = value, holder, False
                elif value == low and holder != seat:
                    shared = True
        if seat < 0:
            raise IllegalAction("nobody holds a tile to open with")
        if shared and self.next_lowest:
            seat = min((sorted(primary[tile] for tile in hand), holder) for holder, hand in enumerate(hands) if hand)[1]
        position, hand = self.position, hands[seat]
        tile = hand[0]
        for other in hand:
            if position[other] < position[tile]:
                tile = other
        return seat, tile

    def leading_seats(self, state: GameState) -> list[int]:
        """The seats ``leader`` keeps (every seat holding a tile, without it): best by the first
        measure, its ties by the next, and so on."""
        seats = [seat for seat, hand in enumerate(state.seat_zones[self.zone]) if hand]
        for values, lowest in self.leader:
            column = values(state)
            best = (min if lowest else max)(column[seat] for seat in seats)
            seats = [seat for seat in seats if column[seat] == best]
        return seats

    def _find_leader(self, state: GameState) -> tuple[int, int]:
        """The opener among the seats ``leader`` keeps: the lowest tile among them decides, as
        among every seat without a ``leader``; that seat plays its own lowest tile."""
        primary, hands = self.primary, state.seat_zones[self.zone]
        seats = self.leading_seats(state)
        if not seats:
            raise IllegalAction("nobody holds a tile to open with")
        if self.next_lowest:
            seat = min((sorted(primary[tile] for tile in hands[holder]), holder) for holder in seats)[1]
        else:
            seat = min((min(primary[tile] for tile in hands[holder]), holder) for holder in seats)[1]
        position, hand = self.position, hands[seat]
        return seat, min(hand, key=lambda tile: position[tile])

    def enter(self, state: GameState) -> None:
        state.current = self.opener(state)[0]

    def explain(self, state: GameState) -> str:
        seat, tile = self.opener(state)
        return (f"the hand opens with seat {seat} playing its lowest tile "
                f"{state.rules.tiles.names[tile]} on {list(self.origin)}")

    def legal(self, state: GameState) -> list[Action]:
        tile = self.opener(state)[1]
        state._allowed = {Play: self}
        return [opening_placement(state).play_object(tile, self.origin)]

    def apply(self, state: GameState, action: Action) -> Played | None:
        seat, tile = self.opener(state)
        origin = self.origin
        if not isinstance(action, Play) or action.tile != tile or action.cell != origin:
            return None
        state.seat_zones[self.zone][seat].remove(tile)
        event = opening_placement(state).place(state, seat, tile, origin, 0, 0)
        state._setup_step_done()
        return event


class DealToZones(SetupStep[Deal]):
    """Chance: lay tiles from the top of a pile face up onto shared zones (stacks), in the
    order listed, ``counts[i]`` tiles onto ``to[i]``. A record states each stack's tiles."""

    name = "deal-to-zones"
    accepts = (Deal,)
    schema = {
        "type": "object",
        "required": ["from", "to", "counts"],
        "properties": {"from": {"type": "string"},
                       "to": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                       "counts": {"type": "array", "items": {"type": ["integer", "string"]}, "minItems": 1}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.source = context.zone(self.params["from"], "from", ("pile",)).key
        self.targets = [context.zone(name, f"to.{i}", ("pile",)).key for i, name in enumerate(self.params["to"])]
        self.counts = [context.constant(c, f"counts.{i}") for i, c in enumerate(self.params["counts"])]
        if len(self.counts) != len(self.targets):
            raise PrimitiveError(f"counts lists {len(self.counts)} numbers for {len(self.targets)} zones", "counts")
        for i, count in enumerate(self.counts):
            if isinstance(count, int) and count > MAX_TILES:
                raise PrimitiveError(f"counts.{i} is {shown_number(count)}: a deal gives at most {MAX_TILES} tiles "
                                     f"(MAX_TILES)", f"counts.{i}")
            if not isinstance(count, int) or count < 0:
                raise PrimitiveError(f"a count must be a whole number, found {count!r}", f"counts.{i}")

    def takes(self, seats: int) -> dict[str, int]:
        return {self.source: sum(self.counts)}

    def gives(self) -> dict[str, int]:
        return dict(zip(self.targets, self.counts))

    def _due(self, state: GameState) -> tuple[str, int]:
        index = state.deal_seat  # the deal's progress counter, here an index into ``to``
        return self.targets[index], min(self.counts[index], len(state.zones[self.source]))

    def sample(self, state: GameState, rng: random.Random) -> Deal:
        # The top n tiles, top first (as :meth:`_due`, spelt out: every stacked set-up deals).
        index = state.deal_seat
        count, pile = self.counts[index], state.zones[self.source]
        n = count if count <= len(pile) else len(pile)  # noqa: FURB136
        return make_deal(None, tuple(pile[: -n - 1 : -1]), self.targets[index])

    def apply_sampled(self, state: GameState, action: Deal) -> Dealt:
        """The top of the pile, as :meth:`sample` drew it: moved without looking for each tile."""
        pile = state.zones[self.source]
        if action.tiles:
            del pile[-len(action.tiles):]
        state.zones[self.targets[state.deal_seat]].extend(action.tiles)  # the deal's zone: sample's, apply's check
        state.deal_seat += 1
        if state.deal_seat == len(self.targets):
            state._setup_step_done()
        return make_dealt(None, action.tiles, action.zone)

    def apply(self, state: GameState, action: Action) -> Dealt:
        zone, n = self._due(state)
        if not isinstance(action, Deal) or action.zone != zone:
            raise IllegalAction(f"the deal goes onto {zone} now")
        if len(action.tiles) != n:
            raise IllegalAction(f"{zone} is dealt {n} tiles; {len(action.tiles)} given")
        event = state._deal_to_zone(zone, action.tiles, self.source)
        state.deal_seat += 1
        if state.deal_seat == len(self.targets):
            state._setup_step_done()
        return event


class OpenFromZone(SetupStep[Play]):
    """Chance: the figure opens with a tile taken from a zone, ``top`` (the next tile of a
    shuffled pile) or ``random`` (a stack cut at random), laid on the board's origin by
    the first seat, scoring nothing. A record states the tile as a play; any tile still in
    the zone is sound, since which one it is was left to chance."""

    name = "open-from-zone"
    accepts = (Play,)
    schema = {
        "type": "object",
        "required": ["from"],
        "properties": {"from": {"type": "string"}, "pick": {"enum": ["top", "random"]}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.zone = context.zone(self.params["from"], "from", ("pile",)).key
        self.origin = lattice_origin(context, self.name)
        self.pick_random = self.params.get("pick", "top") == "random"

    def takes(self, seats: int) -> dict[str, int]:
        return {self.zone: 1}

    def sample(self, state: GameState, rng: random.Random) -> Play:
        tiles = state.zones[self.zone]
        if not tiles:
            raise IllegalAction(f"{self.zone} is empty: nothing to open with")
        tile = tiles[int(rng.random() * len(tiles))] if self.pick_random else tiles[-1]
        return opening_placement(state).play_object(tile, self.origin)

    def explain(self, state: GameState) -> str:
        return f"the figure opens with a tile from {self.zone} on {list(self.origin)}"

    def apply(self, state: GameState, action: Action) -> Played:
        origin = self.origin
        if not isinstance(action, Play) or action.cell != origin:
            raise IllegalAction(self.explain(state))
        tiles = state.zones[self.zone]
        if action.tile not in tiles:
            name = state.rules.tiles.names[action.tile]
            raise IllegalAction(f"tile {name} cannot open the figure: it is in {state.locate(action.tile)}, "
                                f"not in {self.zone}")
        return self.apply_sampled(state, action)

    def apply_sampled(self, state: GameState, action: Play) -> Played:
        """A tile of the zone on the origin, as :meth:`sample` drew it (no check needed)."""
        state.zones[self.zone].remove(action.tile)
        event = opening_placement(state).place(state, state.current, action.tile, self.origin, 0, 0)
        state._setup_step_done()
        return event
