"""Primitives of board games with pieces that move: a square grid, corner-valued square
pieces laid out on start points, moves of a set number of single steps, a turn after each
move, corner contacts settled by comparing numbers, pieces turned over on ringed points,
and the game won by the last side with pieces on the board.

The position is a :class:`contack_core.boards.grid.PieceBoard`, owned by the board primitive
(``GameState.figure`` holds it, as it holds the triangle games' figure).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contack_core.boards.grid import (DIRECTION_NAMES, DIRECTIONS, PieceBoard, PieceKind, Square, Verdict,
                                       diamond_codes, on_grid, point_code)
from contack_core.boards.tiles import TileSet
from contack_core.engine.actions import Action, IllegalAction, Move
from contack_core.engine.events import Event, Moved, make_moved
from contack_core.engine.features import Feature
from contack_core.primitives.board import Board
from contack_core.primitives.endings import HandEnding
from contack_core.primitives.match import SidesMatch
from contack_core.language.limits import MAX_STEPS, MAX_TILES, shown_number as _shown
from contack_core.language.programs import Source
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError
from contack_core.primitives.scoring import ScoreKeeper
from contack_core.primitives.setup import SetupStep
from contack_core.primitives.turn import TurnRule

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

_CORNERS = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 99}, "minItems": 4, "maxItems": 4}
_EDGES = ("south", "west", "north", "east")
#: The way a piece starting on each edge faces (a direction index, north = 0, clockwise):
#: also the quarter turns that bring its first two printed corners to the front.
_FACING = {"south": 0, "west": 1, "north": 2, "east": 3}
_OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}
_NOWHERE: frozenset[Square] = frozenset()


def edge_points(edge: str, size: int, start: int, count: int) -> list[Square]:
    """``count`` points along ``edge`` from coordinate ``start`` (west to east, south to north)."""
    last = size - 1
    along = range(start, start + count)
    if edge == "south":
        return [(i, 0) for i in along]
    if edge == "north":
        return [(i, last) for i in along]
    if edge == "west":
        return [(0, i) for i in along]
    return [(last, i) for i in along]


def require_square_grid(context: BuildContext, name: str) -> SquareGrid:
    """The ruleset's square grid; refused at load, for a primitive of pieces, on a board that is
    not one (it would fail at the first move otherwise)."""
    if not isinstance(context.board, SquareGrid):
        found = context.board.name if context.board is not None else None
        raise PrimitiveError(f"{name} works on a square-grid board of pieces; this ruleset's board is "
                             f"{'a ' + found if found else 'missing'}")
    return context.board


def pieces_of(position: object) -> PieceBoard:
    """``position`` (a state's figure) as the board of pieces a primitive of pieces works on:
    :func:`require_square_grid` saw to it at load that the ruleset's board makes one."""
    if not isinstance(position, PieceBoard):
        raise TypeError(f"a primitive of pieces works on a board of pieces, not on a {type(position).__name__}")
    return position


#: One end of a walk: its point's :func:`point_code`, the move, and whether the walk comes back to
#: where it began (its point is then the piece's own, free to end on).
_End = tuple[int, Move, bool]


class _WalkTable:
    """Every one- or two-step walk from every point of a ``size`` board, worked out once per
    rule and board size: for a point and the set of its first steps that are blocked (off the
    board, taken, or to be avoided on the way), the ends in the order :meth:`PieceBoard.walks`
    finds them, each with its move; points by :func:`point_code`, as the board's :attr:`PieceBoard.piece_at`
    and side counts are keyed. Each point also carries the two reaches a piece's memo entry is
    checked against (:attr:`PieceBoard.moves_cache`), so that making an entry asks no cache of its
    own for them."""

    def __init__(self, size: int, steps: int, straight: bool) -> None:
        self.size, self.steps, self.straight = size, steps, straight
        #: point -> (the bits of the directions whose first step leaves the board; each first step on
        #: the board as (its code, its direction's bit); blocked mask -> ends; the codes of the points
        #: within ``steps`` and within ``steps + 1`` single steps)
        self.points: dict[Square, tuple[int, tuple[tuple[int, int], ...], dict[int, list[_End]],
                                        frozenset[int], frozenset[int]]] = {}
        for x in range(size):
            for y in range(size):
                off, firsts = 0, []
                for direction, (dx, dy) in enumerate(DIRECTIONS):
                    if on_grid(size, (x + dx, y + dy)):
                        firsts.append((point_code(x + dx, y + dy), 1 << direction))
                    else:
                        off |= 1 << direction
                self.points[(x, y)] = (off, tuple(firsts), {}, diamond_codes((x, y), steps),
                                       diamond_codes((x, y), steps + 1))

    def ends(self, origin: Square, blocked: int) -> list[_End]:
        """The ends of the walks from ``origin`` whose first step is not in ``blocked`` (a bit a
        direction), first found first, as :meth:`PieceBoard._short_walks` finds them."""
        found: dict[Square, _End] = {}
        for direction, (dx, dy) in enumerate(DIRECTIONS):
            if blocked >> direction & 1:
                continue
            first = (origin[0] + dx, origin[1] + dy)
            if self.steps == 1:
                found[first] = (point_code(*first), Move(origin, (first,)), False)
                continue
            for ex, ey in DIRECTIONS:
                if self.straight and (ex == 0) != (dx == 0):
                    continue
                second = (first[0] + ex, first[1] + ey)
                if on_grid(self.size, second) and second not in found:
                    found[second] = (point_code(*second), Move(origin, (first, second)), second == origin)
        return list(found.values())


class CornerTiles(Primitive):
    """Square pieces numbered at their four corners, in ``colours``, of the ``kinds`` listed.

    Each kind lists its ``face`` numbers clockwise (the first two are the front corners when
    a piece starts on its edge), the ``reverse`` numbers shown once it is turned over, and
    the ``steps`` it moves. Kinds are named in rulesets and records by their key; the tile
    set the narration uses names each face as its numbers (``03-04-05-06``).

    ``supply`` (optional) is how many pieces of each kind every colour has in the box, so
    that a start layout asking for more is refused when the ruleset loads; without it the
    box is bottomless.
    """

    name = "corner-tiles"
    slot = "components"
    tiles: TileSet
    schema = {
        "type": "object",
        "required": ["colours", "kinds"],
        "properties": {
            "colours": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
            "kinds": {
                "type": "object", "minProperties": 1,
                "additionalProperties": {
                    "type": "object", "required": ["face", "reverse", "steps"],
                    "properties": {"face": _CORNERS, "reverse": _CORNERS,
                                   "steps": {"type": ["integer", "string"]}},
                    "additionalProperties": False,
                },
            },
            "supply": {"type": "object",
                       "additionalProperties": {"type": "object",
                                                "additionalProperties": {"type": "integer", "minimum": 0}}},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.colours = tuple(self.params["colours"])
        kinds = []
        for name, spec in self.params["kinds"].items():
            steps = context.constant(spec["steps"], f"kinds.{name}.steps")
            if not isinstance(steps, int) or steps < 1:
                raise PrimitiveError(f"steps must be a whole number of at least 1, found {steps!r}",
                                     f"kinds.{name}.steps")
            if steps > MAX_STEPS:  # every step of a move is searched over the board
                raise PrimitiveError(f"steps is {_shown(steps)}: a move takes at most {MAX_STEPS} steps (MAX_STEPS)",
                                     f"kinds.{name}.steps")
            kinds.append(PieceKind(name, tuple(spec["face"]), tuple(spec["reverse"]), steps))
        self.kinds = tuple(kinds)
        self.kind_index = {kind.name: i for i, kind in enumerate(self.kinds)}
        #: (colour, kind name) -> pieces in the box; None when the ruleset sets no limit.
        self.supply: dict[tuple[str, str], int] | None = None
        if "supply" in self.params:
            self.supply = {}
            for colour, counts in self.params["supply"].items():
                if colour not in self.colours:
                    raise PrimitiveError(f"no colour {colour!r} (colours: {', '.join(self.colours)})",
                                         f"supply.{colour}")
                for kind, count in counts.items():
                    if kind not in self.kind_index:
                        raise PrimitiveError(f"no kind {kind!r} (kinds: {', '.join(self.kind_index)})",
                                             f"supply.{colour}.{kind}")
                    if count > MAX_TILES:
                        raise PrimitiveError(f"the supply holds {_shown(count)} pieces of {kind!r}: at most "
                                             f"{MAX_TILES} (MAX_TILES)", f"supply.{colour}.{kind}")
                    self.supply[(colour, kind)] = count
        faces = {kind.face: None for kind in kinds} | {kind.reverse: None for kind in kinds}
        self.tiles = TileSet(colours=("north-west", "north-east", "south-east", "south-west"), values=tuple(faces))


class SquareGrid(Board):
    """A square board of ``size`` x ``size`` points ``[x, y]`` (0 at the south-west corner).

    ``ringed`` marks points on the edges (``south``, ``west``, ``north``, ``east``), each
    edge a run of ``count`` points from coordinate ``start``: a piece that reaches a ringed
    point on the edge opposite its home edge may be turned over (see the ``move`` rule).
    """

    name = "square-grid"
    schema = {
        "type": "object",
        "required": ["size"],
        "properties": {
            "size": {"type": ["integer", "string"]},
            "ringed": {"type": "object", "propertyNames": {"enum": list(_EDGES)},
                       "additionalProperties": {
                           "type": "object", "required": ["start", "count"],
                           "properties": {"start": {"type": ["integer", "string"]},
                                          "count": {"type": ["integer", "string"]}},
                           "additionalProperties": False}},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.size = context.constant(self.params["size"], "size")
        if not isinstance(self.size, int) or not 2 <= self.size <= 99:
            raise PrimitiveError(f"size must be a whole number from 2 to 99, found {self.size!r}", "size")
        self.ringed: dict[str, frozenset[Square]] = {}
        for edge, run in (self.params.get("ringed") or {}).items():
            start = context.constant(run["start"], f"ringed.{edge}.start")
            count = context.constant(run["count"], f"ringed.{edge}.count")
            if not (isinstance(start, int) and isinstance(count, int) and start >= 0 and count >= 0
                    and start + count <= self.size):
                raise PrimitiveError(f"the ringed points of the {edge} edge run off the board", f"ringed.{edge}")
            self.ringed[edge] = frozenset(edge_points(edge, self.size, start, count))
        self.components: CornerTiles | None = None
        pieces = [c for c in context.components.values() if isinstance(c, CornerTiles)]
        self.components = pieces[0] if pieces else None

    def state_values(self) -> dict[str, str]:
        """What formulas may read of the position (see :mod:`contack_core.engine.values`)."""
        return {"contact_distance": "_contact_distance(_state, _seat)"}

    def features(self, state: GameState) -> dict[str, Feature]:
        """``contact_distance``: the fewest single steps between a piece of each seat's side and a
        piece of another side (0 when either has none left): pieces take by touching, so a side
        that does not close this distance never takes anything."""
        board = pieces_of(state.figure)
        nearest, total = board.contact_distances()
        return {"contact_distance": Feature(tuple(nearest), "lower",
                                            "steps between the seat's side and the nearest opposing piece"),
                "total_distance": Feature(tuple(total), "lower", "the steps of each piece of the seat's side "
                                          "to its nearest opposing piece, summed")}

    def new_position(self, rules: Rules, seat_count: int) -> PieceBoard:
        """An empty board; the set-up lays the pieces out."""
        teams = rules.match.teams(seat_count)
        side = [0] * seat_count
        for index, team in enumerate(teams):
            for seat in team:
                side[seat] = index
        kinds = self.components.kinds if self.components is not None else ()
        return PieceBoard(self.size, kinds, side)


class StartPositions(SetupStep[Action]):
    """Lay every seat's pieces out on its home edge before the first move (no chance).

    ``layouts`` gives, per number of seats (``"2"``, ``"3"``...), one row per seat: the
    ``edge`` it starts from, the coordinate along the edge of its first point (``start``),
    and its ``pieces`` in order along the edge (west to east, south to north), each written
    ``"<colour> <kind>"``. Pieces face the middle of the board: the first two printed
    corners of each kind lie at the front. A seat's flip targets are the ringed points of
    the edge opposite its home edge. ``max_pieces`` (optional) caps the pieces laid out in
    any one layout.

    Everything is checked when the ruleset loads, not when a game begins: every seat count
    the ruleset's ``players`` allows has a layout, each lays out every seat once, pieces stay
    on the board and never share a point, and no layout uses more pieces of a colour and
    kind than the components' ``supply`` holds.
    """

    name = "start-positions"
    chance = False
    accepts: tuple[type, ...] = ()
    schema = {
        "type": "object",
        "required": ["layouts"],
        "properties": {
            "layouts": {
                "type": "object", "minProperties": 1, "propertyNames": {"pattern": "^[1-9][0-9]?(?!\n)$"},
                "additionalProperties": {
                    "type": "array", "minItems": 1,
                    "items": {"type": "object", "required": ["seat", "edge", "start", "pieces"],
                              "properties": {"seat": {"type": "integer", "minimum": 0},
                                             "edge": {"enum": list(_EDGES)},
                                             "start": {"type": "integer", "minimum": 0},
                                             "pieces": {"type": "array", "minItems": 1,
                                                        "items": {"type": "string"}}},
                              "additionalProperties": False},
                },
            },
            "max_pieces": {"type": "integer", "minimum": 1},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        pieces = [c for c in context.components.values() if isinstance(c, CornerTiles)]
        if not pieces:
            raise PrimitiveError("start-positions needs corner-tiles in components", "layouts")
        grid = require_square_grid(context, self.name)
        #: The grid's ringed points, by edge: a seat's flip targets are those opposite its home edge.
        self.ringed = grid.ringed
        self.layouts: dict[int, list[tuple[int, str, int, list[tuple[str, int]]]]] = {}
        for count, rows in self.params["layouts"].items():
            self.layouts[int(count)] = self._layout(int(count), rows, pieces[0], grid.size)
        if context.players is not None:
            low, high = context.players
            missing = [str(n) for n in range(low, high + 1) if n not in self.layouts]
            if missing:
                raise PrimitiveError(
                    f"players allows {low} to {high} seats, but there is no layout for {', '.join(missing)} "
                    f"seat{'s' if missing != ['1'] else ''} (layouts for: {', '.join(map(str, sorted(self.layouts)))})",
                    "layouts")

    def _layout(self, count: int, rows: list[dict[str, Any]], components: CornerTiles,
                size: int) -> list[tuple[int, str, int, list[tuple[str, int]]]]:
        """One layout's rows checked and compiled: every seat once, every piece known, on the
        board, alone on its point, and no more pieces than the box holds."""
        laid = []
        seats_seen: dict[int, int] = {}  # seat -> its row
        taken: dict[Square, int] = {}  # point -> the seat whose piece lies there
        used: dict[tuple[str, str], int] = {}
        for i, row in enumerate(rows):
            where = f"layouts.{count}.{i}"
            seat = row["seat"]
            if seat >= count:
                raise PrimitiveError(f"there is no seat {seat} in a game of {count} seats "
                                     f"(seats 0 to {count - 1})", f"{where}.seat")
            if seat in seats_seen:
                raise PrimitiveError(f"seat {seat} is laid out twice (rows {seats_seen[seat]} and {i})",
                                     f"{where}.seat")
            seats_seen[seat] = i
            listed = []
            for j, spec in enumerate(row["pieces"]):
                colour, _, kind = spec.partition(" ")
                if colour not in components.colours or kind not in components.kind_index:
                    raise PrimitiveError(
                        f"a piece is written '<colour> <kind>' with a colour of {list(components.colours)} "
                        f"and a kind of {list(components.kind_index)}; found {spec!r}", f"{where}.pieces.{j}")
                listed.append((colour, components.kind_index[kind]))
                used[(colour, kind)] = used.get((colour, kind), 0) + 1
            last = row["start"] + len(listed) - 1
            if last >= size:
                raise PrimitiveError(
                    f"{len(listed)} pieces from point {row['start']} of the {row['edge']} edge run off the board: "
                    f"the last would be on point {last}, and the board's points go 0 to {size - 1}",
                    f"{where}.pieces")
            for point in edge_points(row["edge"], size, row["start"], len(listed)):
                if point in taken:
                    owner = "its own" if taken[point] == seat else f"seat {taken[point]}'s"
                    raise PrimitiveError(f"seat {seat}'s piece on {list(point)} would lie on {owner} piece "
                                         f"there: two pieces never share a point", f"{where}.start")
                taken[point] = seat
            laid.append((seat, row["edge"], row["start"], listed))
        missing = [str(seat) for seat in range(count) if seat not in seats_seen]
        if missing:
            raise PrimitiveError(f"a layout for {count} seats must lay out every seat; "
                                 f"seat{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                                 f"{'have' if len(missing) > 1 else 'has'} no row", f"layouts.{count}")
        most = self.params.get("max_pieces")
        if most is not None and len(taken) > most:
            raise PrimitiveError(f"{len(taken)} pieces are laid out; at most {most} are used at one time "
                                 f"(max_pieces)", f"layouts.{count}")
        for (colour, kind), number in used.items():
            have = None if components.supply is None else components.supply.get((colour, kind), 0)
            if have is not None and number > have:
                raise PrimitiveError(f"{number} {colour} {kind} pieces are laid out, but the components' "
                                     f"supply has {have}", f"layouts.{count}")
        return laid

    def enter(self, state: GameState) -> None:
        board = pieces_of(state.figure)
        layout = self.layouts.get(state.seat_count)
        if layout is None:
            raise IllegalAction(f"this ruleset lays out no start position for {state.seat_count} seats "
                                f"(it has {', '.join(map(str, sorted(self.layouts)))})")
        ringed = self.ringed
        for seat, edge, start, listed in layout:
            points = edge_points(edge, board.size, start, len(listed))
            for point, (colour, kind) in zip(points, listed):
                board.add(seat, colour, kind, point, _FACING[edge])
            board.home_edge[seat] = edge
            board.ringed[seat] = ringed.get(_OPPOSITE[edge], frozenset())
        state._setup_step_done()

    def explain(self, state: GameState) -> str:
        return "the pieces are being laid out"


class MovePiece(TurnRule[Move]):
    """Move one piece: exactly its kind's ``steps`` single steps along the lines, over and
    onto empty points (coming back to where it began is allowed); then turn it
    ``turn_after`` quarter turns to the right; then settle its corner contacts; then turn
    it over if it reached one of its ringed points for the first time.

    ``may_turn``: whether the steps of one move may change line. ``no_side_contact``: a
    move may not end side by side with an opponent's piece; ``side_contact_checked``:
    ``end`` (only where it ends) or ``every-point`` (nor on a point it passes on the way).
    ``contact_sums``: ``pooled`` (every opponent piece touched counts against the mover
    together) or ``per-opponent``. ``flip_on_ringed``: turn pieces over on their ringed
    points. ``partners_move``: a seat may also move its partner's pieces ``never``,
    ``always``, or ``to-save-or-take`` (only to take an opponent's piece, or to move a
    partner's piece that is in danger to where it is not); ``danger_from``: a piece is in
    danger when one move of ``any-opponent`` could take it, or (``before-its-owner``) one
    move of an opponent who plays before the piece's owner next does (the owner can save
    it himself after that). ``endgame_steps``: when just two pieces of different sides are
    left, both face up and of one kind, every move is this many steps instead (0: no such
    endgame); ``endgame_lasts``: ``to-the-end`` of the game, or ``while-alike`` (only while
    both pieces still show the same face: once one is turned over, the usual steps again
    and no endgame count). ``mover_goes`` and ``others_go``: who leaves the board when pieces
    meet, as formulas over ``mine`` and ``theirs`` (the touching numbers summed, the moved
    piece's and the opponent's); by default ``mine <= theirs`` and ``mine >= theirs``: the
    higher stays, the lower goes, equal both go.
    """

    name = "move"
    action_type = Move
    schema = {
        "type": "object",
        "properties": {
            "turn_after": {"type": ["integer", "string"]},
            "may_turn": {"type": ["boolean", "string"]},
            "no_side_contact": {"type": "boolean"},
            "side_contact_checked": {"enum": ["end", "every-point"]},
            "contact_sums": {"enum": ["pooled", "per-opponent"]},
            "flip_on_ringed": {"type": "boolean"},
            "partners_move": {"enum": ["never", "always", "to-save-or-take"]},
            "danger_from": {"enum": ["any-opponent", "before-its-owner"]},
            "endgame_steps": {"type": ["integer", "string"]},
            "endgame_lasts": {"enum": ["to-the-end", "while-alike"]},
            "mover_goes": {"type": ["string", "boolean"]},
            "others_go": {"type": ["string", "boolean"]},
            "when": {"type": "string"},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        require_square_grid(context, self.name)
        self.turn_after = context.constant(self.params.get("turn_after", 1), "turn_after")
        may_turn = self.params.get("may_turn", True)
        may_turn = context.constant(may_turn, "may_turn", whole_number=False) if isinstance(may_turn, str) else may_turn
        self.straight = not may_turn
        self.no_side_contact: bool = self.params.get("no_side_contact", True)
        self.no_side_contact_on_the_way = (self.no_side_contact
                                           and self.params.get("side_contact_checked", "end") == "every-point")
        self.pooled = self.params.get("contact_sums", "pooled") == "pooled"
        self.flip_on_ringed: bool = self.params.get("flip_on_ringed", True)
        self.partners_move: str = self.params.get("partners_move", "never")
        self.danger_from_any_opponent = self.params.get("danger_from", "any-opponent") == "any-opponent"
        self.endgame_to_the_end = self.params.get("endgame_lasts", "to-the-end") == "to-the-end"
        self.endgame_steps: int = context.constant(self.params.get("endgame_steps", 0), "endgame_steps")
        self.verdict = self._verdict(context)
        #: (board size, steps) -> every walk of that many steps from every point.
        self._walk_tables: dict[tuple[int, int], _WalkTable] = {}
        for key, value in (("turn_after", self.turn_after), ("endgame_steps", self.endgame_steps)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise PrimitiveError(f"{key} must be a whole number, found {value!r}", key)
        if self.endgame_steps < 0:
            raise PrimitiveError(f"endgame_steps must be 0 (no endgame) or more, found {self.endgame_steps}",
                                 "endgame_steps")
        if self.endgame_steps > MAX_STEPS:
            raise PrimitiveError(f"endgame_steps is {_shown(self.endgame_steps)}: a move takes at most {MAX_STEPS} "
                                 f"steps (MAX_STEPS)", "endgame_steps")

    def _verdict(self, context: BuildContext) -> Verdict | None:
        """``mover_goes`` and ``others_go`` as tables over every sum of touching numbers a
        piece's four corners can make (None: the default, higher stays, lower goes)."""
        if "mover_goes" not in self.params and "others_go" not in self.params:
            return None
        values = {value for faces in (context.tiles.values if context.tiles is not None else ()) for value in faces}
        sums = {0}
        for _ in range(4):  # a piece touches at most four others, one at each corner
            sums |= {total + value for total in sums for value in values}
        size = max(sums) + 1
        tables = []
        for key, default in (("mover_goes", "mine <= theirs"), ("others_go", "mine >= theirs")):
            expression = context.expression(self.params.get(key, default), ("mine", "theirs"), key)
            table = [[False] * size for _ in range(size)]
            for mine in sums:
                for theirs in sums:
                    table[mine][theirs] = bool(context.evaluate(expression, {"mine": mine, "theirs": theirs}, key))
            tables.append(table)
        return Verdict(mover_goes=tables[0], others_go=tables[1])

    # ------------------------------------------------------------------ what may move
    def steps(self, board: PieceBoard, piece: int) -> int:
        if board.endgame_moves is not None:
            return self.endgame_steps
        return board.kinds[board.kind[piece]].steps

    def movable(self, board: PieceBoard, seat: int) -> list[tuple[int, bool]]:
        """(piece, is a partner's) for every piece ``seat`` may move."""
        own = [(p, False) for p in board.pieces_of(seat)]
        if self.partners_move == "never":
            return own
        mine = board.side[seat]
        partners = [s for s in range(len(board.side)) if s != seat and board.side[s] == mine]
        return own + [(p, True) for s in partners for p in board.pieces_of(s)]

    def generate(self, state: GameState) -> list[Action]:
        """Every legal move, piece by piece in piece order.

        A piece's own moves depend only on the points within its steps plus one (where it passes,
        ends, or would end beside an opponent): they are kept on the board
        (:attr:`PieceBoard.moves_cache`) until something changes there, so a turn works out again
        only the pieces near the last moves, not some fifty moves. A partner's piece, whose moves
        depend on threats from anywhere, is worked out every time."""
        board = pieces_of(state.figure)
        cache = board.moves_cache
        moves: list[Action] = []
        seat = state.current
        if self.partners_move == "never":  # the seat's own pieces only: the loop below, without partners
            for piece in board.pieces_of(seat):
                entry = cache.get(piece)
                moves.extend(entry[3] if entry is not None else self.own_moves(board, piece))
            return moves
        for piece, partners in self.movable(board, seat):
            if not partners:
                entry = cache.get(piece)
                if entry is not None:
                    moves.extend(entry[3])
                else:
                    moves.extend(self.own_moves(board, piece))
                continue
            steps = self.endgame_steps if board.endgame_moves is not None else board.kinds[board.kind[piece]].steps
            origin = board.square[piece]
            assert origin is not None
            moves.extend(self._moves(state, board, piece, origin, steps, partners))
        return moves

    def own_moves(self, board: PieceBoard, piece: int) -> list[Move]:
        """The moves of ``piece`` by its owner, from the board's memo or worked out and kept there."""
        entry = board.moves_cache.get(piece)
        if entry is not None:
            return entry[3]
        endgame = board.endgame_moves is not None
        steps = self.endgame_steps if endgame else board.kinds[board.kind[piece]].steps
        origin = board.square[piece]
        assert origin is not None
        if steps <= 2:
            return self._short_moves(board, piece, origin, steps)
        found = self._moves(None, board, piece, origin, steps, False)
        board.moves_cache[piece] = (board.side[board.owner[piece]], diamond_codes(origin, steps),
                                    diamond_codes(origin, steps + 1), found)
        return found

    # ------------------------------------------------------------------ what a bot may weigh
    def features(self, state: GameState) -> dict[str, Feature]:
        """``under_attack``: each seat's pieces that a piece of another side could take with one
        move of its own now (whoever moves next; a partner's moves are not counted)."""
        board = pieces_of(state.figure)
        piece_at, touching, sides, owner, square = board.piece_at, board.touching, board.side, board.owner, board.square
        taken: set[int] = set()
        for piece in board.on_board_pieces():
            mine = sides[owner[piece]]
            turn = board.turn[piece] + self.turn_after
            for move in self.own_moves(board, piece):
                end = move.path[-1]
                for code in touching[end]:  # a move ends on the board
                    other = piece_at.get(code)
                    if other is not None and other != piece and sides[owner[other]] != mine:
                        break
                else:
                    continue  # touches no opponent there: takes nothing
                for gone in board.settle(piece, end, turn, self.pooled, self.verdict).removed:
                    if gone != piece:
                        taken.add(gone)
        attacked = [0] * state.seat_count
        for piece in taken:
            if square[piece] is not None:
                attacked[owner[piece]] += 1
        return {"under_attack": Feature(tuple(attacked), "lower",
                                        "the seat's pieces another side could take with one move now", contested=True)}

    def _moves(self, state: GameState | None, board: PieceBoard, piece: int, origin: Square, steps: int,
               partners: bool) -> list[Move]:
        """The moves of one piece, any number of steps (a partner's: only those that save or take)."""
        in_danger: bool | None = None  # worked out once per partner's piece, when needed
        attackers: list[int] = []
        walks = board.walks(piece, steps, self.straight, self.avoid(board, piece))
        no_side_contact, side_contact = self.no_side_contact, board.side_contact
        found = []
        for end, walk in walks.items():
            if no_side_contact and side_contact(piece, end) is not None:
                continue
            if partners and self.partners_move == "to-save-or-take":
                if in_danger is None:
                    assert state is not None
                    attackers = self.attackers(state, piece)
                    in_danger = self.threatened(board, piece, attackers)
                if not self.saves_or_takes(board, piece, end, attackers, in_danger):
                    continue
            found.append(Move(origin, walk))
        return found

    def _short_moves(self, board: PieceBoard, piece: int, origin: Square, steps: int) -> list[Move]:
        """:meth:`_moves` of a piece's own one- or two-step moves, from a table of every walk from
        every point built once (the same moves in the same order, no walk searched, no move built),
        kept in the board's memo as :meth:`own_moves` keeps them."""
        table = self._walk_tables.get((board.size, steps))
        if table is None:
            table = self._walk_tables[(board.size, steps)] = _WalkTable(board.size, steps, self.straight)
        taken = board.piece_at
        # Where an opponent stands side by side with a point, the other sides' counts say.
        side = board.side[board.owner[piece]]
        others = board.beside_others[side]
        blocked, firsts, by_blocked, near, far = table.points[origin]
        if steps > 1 and self.no_side_contact_on_the_way:  # a first step beside an opponent is blocked too: avoid()
            for first, bit in firsts:
                if first in taken:
                    blocked |= bit
                    continue
                for counts in others:
                    if first in counts:
                        blocked |= bit
                        break
        else:
            for first, bit in firsts:
                if first in taken:
                    blocked |= bit
        ends = by_blocked.get(blocked)
        if ends is None:
            ends = by_blocked[blocked] = table.ends(origin, blocked)
        if not self.no_side_contact:  # a move may end beside an opponent
            others = []
        found = []
        if len(others) == 1:  # one other side (two seats, or partners): one look-up an end
            forbidden = others[0]
            for end, move, back in ends:
                if (back or end not in taken) and end not in forbidden:
                    found.append(move)
        else:
            for end, move, back in ends:
                if not back and end in taken:
                    continue
                for counts in others:
                    if end in counts:
                        break
                else:
                    found.append(move)
        board.moves_cache[piece] = (side, near, far, found)
        return found

    def avoid(self, board: PieceBoard, piece: int) -> frozenset[Square]:
        """The points ``piece`` may not pass on its way (side by side with an opponent, when
        that is checked on the way too)."""
        return board.side_points(piece) if self.no_side_contact_on_the_way else _NOWHERE

    # ------------------------------------------------------------------ the partners' condition
    def outcome(self, board: PieceBoard, piece: int, end: Square) -> tuple[int, ...]:
        """The pieces that would leave the board if ``piece`` moved to ``end``."""
        return board.settle(piece, end, board.turn[piece] + self.turn_after, self.pooled, self.verdict).removed

    def attackers(self, state: GameState, piece: int) -> list[int]:
        """The opponent seats whose next move could put ``piece`` in danger: every one in
        play, or only those who play before the piece's owner next does."""
        board = pieces_of(state.figure)
        owner = board.owner[piece]
        opponents = [seat for seat, count in enumerate(board.alive) if count and board.side[seat] != board.side[owner]]
        if self.danger_from_any_opponent:
            return opponents
        before = []
        for offset in range(1, state.seat_count):
            seat = (state.current + offset) % state.seat_count
            if seat == owner:
                break
            if seat in opponents:
                before.append(seat)
        return before

    def threatened(self, board: PieceBoard, piece: int, attackers: list[int]) -> bool:
        """Whether one of the ``attackers`` could take ``piece`` with one of his own moves now."""
        square = board.square[piece]
        assert square is not None
        for seat in attackers:
            for other in board.pieces_of(seat):
                at = board.square[other]
                assert at is not None
                steps = self.steps(board, other)
                if abs(at[0] - square[0]) + abs(at[1] - square[1]) > steps + 2:
                    continue  # too far to end corner to corner with it
                for end in board.walks(other, steps, self.straight, self.avoid(board, other)):
                    if self.no_side_contact and board.side_contact(other, end) is not None:
                        continue
                    if piece in self.outcome(board, other, end):
                        return True
        return False

    def saves_or_takes(self, board: PieceBoard, piece: int, end: Square, attackers: list[int],
                       in_danger: bool | None = None) -> bool:
        """Whether moving a partner's ``piece`` to ``end`` takes an opponent's piece, or
        saves it: one of the ``attackers`` could take it where it stands, and none where it goes."""
        removed = self.outcome(board, piece, end)
        if any(board.opponents(piece, other) for other in removed if other != piece):
            return True
        if piece in removed:
            return False
        if not (self.threatened(board, piece, attackers) if in_danger is None else in_danger):
            return False
        after = board.clone()
        after.move(piece, end, board.turn[piece] + self.turn_after)
        for other in removed:
            after.remove(other)
        return not self.threatened(after, piece, attackers)

    # ------------------------------------------------------------------ applying a move
    def fault(self, state: GameState, action: Move) -> str | None:
        """Why ``action`` is not a legal move now (None when it is)."""
        board = pieces_of(state.figure)
        piece = board.tile_at.get(action.origin)
        if piece is None:
            return f"no piece stands on {list(action.origin)}"
        seat = state.current
        partners = board.owner[piece] != seat
        if partners and (self.partners_move == "never" or board.side[board.owner[piece]] != board.side[seat]):
            return (f"the piece on {list(action.origin)} is {state.who(board.owner[piece])}'s, "
                    f"not {state.who(seat)}'s")
        why = board.walk_fault(piece, action.path, self.steps(board, piece), self.straight, self.avoid(board, piece))
        if why is not None:
            return why
        end = action.path[-1]
        if self.no_side_contact:
            other = board.side_contact(piece, end)
            if other is not None:
                return (f"it would end on {list(end)} side by side with an opponent's piece on "
                        f"{list(board.square[other] or ())}: opponents touch corner to corner only")
        if (partners and self.partners_move == "to-save-or-take"
                and not self.saves_or_takes(board, piece, end, self.attackers(state, piece))):
            return ("a partner's piece may be moved only to take an opponent's piece or to save it "
                    "from being taken")
        return None

    def apply(self, state: GameState, action: Move) -> Moved:
        board = pieces_of(state.figure)
        piece = board.tile_at.get(action.origin)
        entry = board.moves_cache.get(piece) if piece is not None and board.owner[piece] == state.current else None
        # A move taken from the memo of the mover's own piece (the very object: what legal_actions
        # offered) is legal as it stands; any other is checked rule by rule.
        offered = entry[3] if entry is not None else ()
        for move in offered:
            if move is action:
                break
        else:
            why = self.fault(state, action)
            if why is not None:
                raise IllegalAction(why)
        assert piece is not None  # an offered move's piece stands on its point; fault() refuses an empty one
        return self._moved(state, board, action, piece)

    def apply_agreed(self, state: GameState, action: Move) -> Moved:
        """A move the table let stand although the rules refuse it: how many steps it takes and which
        way (a turn, a step diagonally across a square), where it ends (side by side with an
        opponent) and a partner's piece moved when the partners' condition does not hold are lifted,
        as a play's contacts are; the piece is turned, its contacts settled and it is turned over as
        after any move. What cannot be done at all is still refused: no piece on the point, another
        side's piece, a path a hand cannot walk (a jump, off the board, over or onto a piece)."""
        board = pieces_of(state.figure)
        if self.fault(state, action) is None:
            return self.apply(state, action)
        piece = board.tile_at.get(action.origin)
        if piece is None:
            raise IllegalAction(f"no piece stands on {list(action.origin)}")
        seat, owner = state.current, board.owner[piece]
        if board.side[owner] != board.side[seat]:
            raise IllegalAction(f"the piece on {list(action.origin)} is {state.who(owner)}'s, not "
                                f"{state.who(seat)}'s to move")
        why = board.path_fault(piece, action.path)
        if why is not None:
            raise IllegalAction(why)
        return self._moved(state, board, action, piece)

    def _moved(self, state: GameState, board: PieceBoard, action: Move, piece: int) -> Moved:
        """Make the move ``action`` (checked already) of ``piece`` on ``board``, the state's: turn the piece,
        settle its contacts, turn it over on a ringed point, count the endgame."""
        endgame_move = board.endgame_moves is not None
        end = action.path[-1]
        turn = (board.turn[piece] + self.turn_after) % 4
        settlement = board.settle(piece, end, turn, self.pooled, self.verdict)
        board.move(piece, end, turn)
        removed: tuple[Square, ...] = ()
        if settlement.removed:  # the points of the pieces settled off, each still on its point until removed
            removed = tuple(point for p in settlement.removed if (point := board.square[p]) is not None)
            for other in settlement.removed:
                board.remove(other)
        flipped = (self.flip_on_ringed and board.square[piece] is not None and not board.flipped[piece]
                   and end in board.ringed[board.owner[piece]])
        if flipped:
            board.flipped[piece] = True
        if endgame_move:
            if self.endgame_to_the_end or self._endgame_begins(board):
                board.endgame_moves = (board.endgame_moves or 0) + 1
            else:  # one of the two is turned over: the endgame's moves and count are over
                board.endgame_moves = None
                board.moves_cache.clear()  # worked out for the endgame's steps
        elif self.endgame_steps and sum(board.alive) == 2 and self._endgame_begins(board):
            board.endgame_moves = 0
            board.moves_cache.clear()  # worked out for the usual steps
        return make_moved(state.current, piece, action.origin, tuple(action.path), turn, settlement.contacts,
                          removed, flipped)

    @staticmethod
    def _endgame_begins(board: PieceBoard) -> bool:
        if sum(board.alive) != 2:  # the count first: listing the pieces is the slow part
            return False
        left = board.on_board_pieces()
        if len(left) != 2 or not board.opponents(*left):
            return False
        a, b = left
        return not board.flipped[a] and not board.flipped[b] and board.kind[a] == board.kind[b]


class OneSideLeft(HandEnding):
    """The game ends when the pieces left on the board all belong to one side (or none are left)."""

    name = "one-side-left"
    after = (Moved,)

    def build(self, context: BuildContext) -> None:
        require_square_grid(context, self.name)

    def ends_hand(self, state: GameState, event: Event) -> bool:
        if type(event) is Moved and not event.removed:  # only a piece leaving the board can leave one side
            return False
        return len(pieces_of(state.figure).sides_left()) <= 1

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        # Checked after a move only: the sides are counted only when the move took a piece off.
        return Source(f"_event.removed and {prefix}_ends(_state, _event)", {f"{prefix}_ends": self.ends_hand})


class TwoPieceTie(HandEnding):
    """With just two pieces of different sides left: a tie at once when both are turned
    over and show the same number, or once the endgame (see the ``move`` rule's
    ``endgame_steps``) has lasted ``turns`` moves for each of the two."""

    name = "two-piece-tie"
    after = (Moved,)
    schema = {"type": "object", "properties": {"turns": {"type": ["integer", "string"]}},
              "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        require_square_grid(context, self.name)
        self.turns = context.constant(self.params.get("turns", 10), "turns")
        if not isinstance(self.turns, int) or self.turns < 1:
            raise PrimitiveError(f"turns must be a whole number of at least 1, found {self.turns!r}", "turns")

    def ends_hand(self, state: GameState, event: Event) -> bool:
        board = pieces_of(state.figure)
        if sum(board.alive) != 2:
            return False
        left = board.on_board_pieces()
        if len(left) != 2 or not board.opponents(*left):
            return False
        a, b = left
        if board.flipped[a] and board.flipped[b] and set(board.values(a)) == set(board.values(b)) \
                and len(set(board.values(a))) == 1:
            return True
        return board.endgame_moves is not None and board.endgame_moves >= 2 * self.turns

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        # The count of pieces first, without a call: two pieces are left only at the very end.
        return Source(f"_sum(_state.figure.alive) == 2 and {prefix}_ends(_state, _event)",
                      {f"{prefix}_ends": self.ends_hand, "_sum": sum})


class PiecesLeft(ScoreKeeper):
    """Each seat's count of its pieces still on the board, taken when the game ends."""

    name = "pieces-left"
    schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        require_square_grid(context, self.name)
        self.initial = 0

    def on_hand_end(self, state: GameState) -> None:
        gains = state.hand_gains[self.key]
        board = pieces_of(state.figure)
        for seat in range(state.seat_count):
            gains[seat] += board.alive[seat]

    def hand_end_values(self, state: GameState) -> list[int]:
        board = pieces_of(state.figure)
        return board.alive[:state.seat_count]


class LastSideStanding(SidesMatch):
    """One game: the side with the last pieces on the board wins (every seat of it); when
    it ends with more than one side left (a tie, a blocked board, a move cap), nobody wins.

    ``counter`` is the scoring counter holding each seat's pieces left; ``teams:
    opposite`` makes partners of seats sitting opposite (an even number of seats).
    """

    name = "last-side-standing"
    scored_by_hands = False
    schema = {
        "type": "object",
        "required": ["counter"],
        "properties": {"counter": {"type": "string"}, "teams": {"enum": ["none", "opposite"]}},
        "additionalProperties": False,
    }

    def game_over(self, state: GameState) -> bool:
        return bool(state.hand_results)

    def winners(self, state: GameState) -> list[int]:
        if not state.hand_results:
            return []
        teams = self.teams(state.seat_count)
        standing = [team for team, total in zip(teams, self.team_totals(state)) if total > 0]
        return sorted(standing[0]) if len(standing) == 1 else []


__all__ = ["CornerTiles", "LastSideStanding", "MovePiece", "OneSideLeft", "PiecesLeft", "SquareGrid",
           "StartPositions", "TwoPieceTie", "DIRECTION_NAMES"]
