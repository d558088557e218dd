"""A square grid of points with square pieces centred on them: the position of a board game.

Points are ``(x, y)``, ``0 <= x, y < size``, ``y`` growing away from the south edge. A piece
centred on a point has its sides parallel to the lines, so a piece on an orthogonal
neighbour touches it side to side and a piece on a diagonal neighbour touches it corner to
corner. Corners are numbered clockwise seen from above: 0 north-west, 1 north-east,
2 south-east, 3 south-west. A piece's printed corner values are listed clockwise; turned
``r`` quarter turns to the right (clockwise), value ``i`` lies on corner ``(i + r) % 4``.

Pieces are small integers; what never changes (owner, colour, kind) is shared by every
clone, what does (square, turn, face) is copied. The module holds only geometry and the
pure questions rules ask of a position (walks, contacts); the rule primitives that use it
are in :mod:`contack_core.primitives.pieces`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

Square = tuple[int, int]

#: Unit steps along the lines: north, east, south, west (direction ``d`` is a turn of ``d`` quarters).
DIRECTIONS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIRECTION_NAMES = ("north", "east", "south", "west")
#: Offsets to the diagonal neighbour touching each corner: NW, NE, SE, SW.
CORNER_OFFSETS: tuple[Square, ...] = ((-1, 1), (1, 1), (1, -1), (-1, -1))
CORNER_NAMES = ("north-west", "north-east", "south-east", "south-west")


def on_grid(size: int, square: Square) -> bool:
    """Whether ``square`` is a point of a ``size`` by ``size`` board."""
    return 0 <= square[0] < size and 0 <= square[1] < size


@functools.lru_cache(maxsize=4096)
def diamond(point: Square, reach: int) -> frozenset[Square]:
    """The points at most ``reach`` single steps from ``point`` (on the board or off it)."""
    x, y = point
    return frozenset((x + dx, y + dy) for dx in range(-reach, reach + 1)
                     for dy in range(abs(dx) - reach, reach - abs(dx) + 1))


#: A point as one integer, for the sets a move's memo is checked against (:func:`diamond_codes`):
#: an int hashes at once where a tuple is hashed item by item at every look-up. Unique for every
#: point a piece's reach can name (coordinates between -512 and 511 off a board of at most 99).
def point_code(x: int, y: int) -> int:
    return x * 1024 + y


@functools.lru_cache(maxsize=4096)
def diamond_codes(point: Square, reach: int) -> frozenset[int]:
    """:func:`diamond` as :func:`point_code` codes."""
    return frozenset(point_code(x, y) for x, y in diamond(point, reach))


def corner_codes(x: int, y: int) -> tuple[int, ...]:
    """The :func:`point_code` codes of the four points touching ``(x, y)`` corner to corner (on the
    board or off it), in :data:`CORNER_OFFSETS` order."""
    return tuple(point_code(x + dx, y + dy) for dx, dy in CORNER_OFFSETS)


@functools.lru_cache(maxsize=16)
def corner_neighbour_codes(size: int) -> dict[Square, tuple[int, ...]]:
    """:func:`corner_codes` of every point of a ``size`` board: worked out once a board size, read
    at every contact settled."""
    return {(x, y): corner_codes(x, y) for x in range(size) for y in range(size)}


@functools.lru_cache(maxsize=16)
def side_neighbour_codes(size: int) -> dict[int, tuple[int, ...]]:
    """For every point of a ``size`` board by its :func:`point_code`, the codes of the points on the
    board side by side with it, in :data:`DIRECTIONS` order: worked out once a board size, read on
    every move."""
    return {point_code(x, y): tuple(point_code(x + dx, y + dy) for dx, dy in DIRECTIONS
                                    if 0 <= x + dx < size and 0 <= y + dy < size)
            for x in range(size) for y in range(size)}


def code_point(code: int) -> Square:
    """The point of a :func:`point_code`, for a point on a board only (``y`` from 0 to 1023)."""
    return (code >> 10, code & 1023)


def parse_square(value: object) -> Square:
    """A point from its record form ``[x, y]``, or a ValueError saying why not."""
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"a point is a list of two integers [x, y]; found {value!r}")
    return (value[0], value[1])


@attrs.frozen
class PieceKind:
    """A kind of piece: its corner values face up and face down (clockwise), and its step count."""

    name: str
    face: tuple[int, int, int, int]
    reverse: tuple[int, int, int, int]
    steps: int


@attrs.frozen
class Contact:
    """One corner-to-corner touch settled after a move: the other piece, and both numbers."""

    other: int
    square: Square
    mine: int
    theirs: int


@attrs.frozen
class Settlement:
    """The outcome of the contacts a moved piece makes: who touches, and who goes."""

    contacts: tuple[Contact, ...]
    removed: tuple[int, ...]  # piece ids, opponents first, the moved piece last if it goes


#: The settlement of a move that touches no opponent (most moves): one object, as it is frozen.
_NO_CONTACT = Settlement((), ())


@attrs.frozen
class Verdict:
    """Who goes when pieces meet corner to corner, as tables over the touching numbers summed
    (``[mine][theirs]``: the moved piece's, and the opponent's): ``mover_goes`` and
    ``others_go`` (a rule's own reading of "the higher stays, the lower goes")."""

    mover_goes: Sequence[Sequence[bool]]
    others_go: Sequence[Sequence[bool]]


class PieceBoard:
    """The pieces on a square grid: where each lies, how it is turned, which face is up.

    ``tile_at`` maps a point to the piece on it (the name every position container shares,
    so zone-agnostic code such as ``GameState.locate`` works on it); ``square[p]`` is piece
    ``p``'s point or None once removed. ``side`` gives each seat's side (partners share one).
    ``endgame_moves`` counts the moves made since a ruleset's endgame began (None before).
    """

    __slots__ = ("size", "kinds", "owner", "colour", "kind", "side", "tile_at", "square", "turn", "flipped",
                 "alive", "endgame_moves", "last", "ringed", "home_edge", "moves_cache", "_owned", "beside",
                 "beside_others", "piece_at", "neighbours", "touching")

    def __init__(self, size: int, kinds: Sequence[PieceKind], side: Sequence[int]) -> None:
        self.size = size
        self.kinds = tuple(kinds)
        self.owner: list[int] = []
        self.colour: list[str] = []
        self.kind: list[int] = []
        self.side = tuple(side)
        self.tile_at: dict[Square, int] = {}
        self.square: list[Square | None] = []
        self.turn: list[int] = []
        self.flipped: list[bool] = []
        self.alive = [0] * len(side)  # pieces on the board per seat
        self.endgame_moves: int | None = None
        self.last: int | None = None  # the piece moved last
        #: Per seat, the points where its pieces are turned over (its flip targets).
        self.ringed: list[frozenset[Square]] = [frozenset()] * len(side)
        #: Per seat, the edge it starts from (a direction name of the edge), or None.
        self.home_edge: list[str | None] = [None] * len(side)
        #: The move rule's memo of each piece's moves: piece -> (side, near, far, moves), emptied when a
        #: ruleset's endgame (with its own steps) begins or ends. An
        #: entry holds while no piece of its own ``side`` comes to or leaves a point of ``near`` (the
        #: points its moves pass and end on) and no other piece one of ``far`` (those and the points
        #: beside them, where an opponent forbids ending), both as :func:`point_code` codes (an int
        #: hashes at once, where a tuple is hashed item by item at each look-up); :meth:`add`,
        #: :meth:`move` and :meth:`remove` drop the entries a change could touch. Between two turns
        #: of a seat most of its pieces stand where nothing changed, so their moves are not worked
        #: out again.
        self.moves_cache: dict[int, tuple[int, frozenset[int], frozenset[int], list[Any]]] = {}
        #: Each seat's pieces on the board (None: to be listed again, after a piece came or went).
        self._owned: list[list[int]] | None = None
        #: What a move reads, by :func:`point_code` (an int hashes at once, where a tuple is hashed item
        #: by item at every look-up), kept by :meth:`add`, :meth:`move` and :meth:`remove`: the piece on
        #: each point (``tile_at`` by code); per side, how many of its pieces stand side by side with
        #: each point of the board, and per side the counts of every other side (where a piece may not
        #: end its move is then a look-up, not a look round the point).
        self.piece_at: dict[int, int] = {}
        self.beside: dict[int, dict[int, int]] = {s: {} for s in self.side}
        self.beside_others = self._others_of(self.beside)
        #: The codes of the points side by side with each point (keyed by the point's code), and of
        #: those corner to corner with it (keyed by the point, as ``settle`` is given it).
        self.neighbours = side_neighbour_codes(size)
        self.touching = corner_neighbour_codes(size)

    def _others_of(self, beside: dict[int, dict[int, int]]) -> dict[int, list[dict[int, int]]]:
        return {s: [counts for other, counts in beside.items() if other != s] for s in beside}

    def clone(self) -> PieceBoard:
        other = PieceBoard.__new__(PieceBoard)
        other.size, other.kinds, other.side = self.size, self.kinds, self.side
        other.neighbours, other.touching = self.neighbours, self.touching
        other.owner, other.colour, other.kind = self.owner, self.colour, self.kind  # fixed once laid out
        other.ringed, other.home_edge = self.ringed, self.home_edge
        other.tile_at = dict(self.tile_at)
        other.square = list(self.square)
        other.turn = list(self.turn)
        other.flipped = list(self.flipped)
        other.alive = list(self.alive)
        other.endgame_moves = self.endgame_moves
        other.last = self.last
        other.moves_cache = dict(self.moves_cache)
        other._owned = self._owned  # never changed in place: dropped when a piece comes or goes
        other.beside = {s: dict(counts) for s, counts in self.beside.items()}
        other.beside_others = other._others_of(other.beside)
        other.piece_at = dict(self.piece_at)
        return other

    # ------------------------------------------------------------------ setting out
    def add(self, owner: int, colour: str, kind: int, square: Square, turn: int) -> int:
        """Lay a new piece on an empty point; its id."""
        if not self.on_board(square):
            raise ValueError(f"point {list(square)} is off the {self.size}x{self.size} board")
        if square in self.tile_at:
            raise ValueError(f"point {list(square)} already holds a piece")
        piece = len(self.square)
        self.owner = [*self.owner, owner]
        self.colour = [*self.colour, colour]
        self.kind = [*self.kind, kind]
        self.square.append(square)
        self.turn.append(turn % 4)
        self.flipped.append(False)
        self.tile_at[square] = piece
        code = point_code(*square)
        self.piece_at[code] = piece
        self.alive[owner] += 1
        self._owned = None
        self._count_beside(self.beside[self.side[owner]], code, 1)
        self._forget_near(code)
        return piece

    def _count_beside(self, counts: dict[int, int], code: int, change: int) -> None:
        """A piece of the side counted in ``counts`` came to (``change`` 1) or left (-1) the point of ``code``."""
        for near in self.neighbours[code]:
            left = counts.get(near, 0) + change
            if left:
                counts[near] = left
            else:
                del counts[near]

    # ------------------------------------------------------------------ questions
    def on_board(self, square: Square) -> bool:
        return on_grid(self.size, square)

    def values(self, piece: int) -> tuple[int, int, int, int]:
        kind = self.kinds[self.kind[piece]]
        return kind.reverse if self.flipped[piece] else kind.face

    def corner_value(self, piece: int, corner: int, turn: int | None = None) -> int:
        """The number on ``corner`` of ``piece`` (turned ``turn`` quarters, default as it lies)."""
        turned = self.turn[piece] if turn is None else turn
        return self.values(piece)[(corner - turned) % 4]

    def corners(self, piece: int) -> tuple[int, int, int, int]:
        """The numbers on the four corners as the piece lies: NW, NE, SE, SW."""
        value = self.corner_value
        return value(piece, 0), value(piece, 1), value(piece, 2), value(piece, 3)

    def opponents(self, a: int, b: int) -> bool:
        """Whether pieces ``a`` and ``b`` belong to different sides."""
        return self.side[self.owner[a]] != self.side[self.owner[b]]

    def pieces_of(self, seat: int) -> Sequence[int]:
        """``seat``'s pieces on the board, in piece order: the board's own list (clones share it,
        and it is listed again, never changed, when a piece comes or goes), so not to be changed."""
        owned = self._owned
        if owned is None:
            owned = self._owned = [[] for _ in self.side]
            for p, square in enumerate(self.square):
                if square is not None:
                    owned[self.owner[p]].append(p)
        return owned[seat]

    def on_board_pieces(self) -> list[int]:
        return [p for p, square in enumerate(self.square) if square is not None]

    #: Seats drop out of a board game (see :meth:`seat_in_play`).
    every_seat_in_play = False

    def seat_in_play(self, seat: int) -> bool:
        """A seat with no piece left on the board is out of the game: the turn order skips it."""
        return self.alive[seat] > 0

    def pieces_on_board(self, seat: int) -> int:
        return self.alive[seat]

    @property
    def sites(self) -> int:
        """The squares of the board."""
        return self.size * self.size

    def wire_fields(self, names: Sequence[str], seats: int) -> dict[str, Any]:
        """``board``: its size, and every piece on it with its owner, colour, kind, the numbers on its
        corners as it lies (north-west, north-east, south-east, south-west) and whether it is turned
        over; each seat's ringed points and pieces left."""
        pieces = [{"piece": piece, "point": list(point), "seat": self.owner[piece], "colour": self.colour[piece],
                   "kind": self.kinds[self.kind[piece]].name, "corners": list(self.corners(piece)),
                   "flipped": self.flipped[piece]}
                  for piece, point in enumerate(self.square) if point is not None]
        return {"board": {"size": self.size, "pieces": pieces, "left": self.alive[:seats],
                          "ringed": [sorted(list(point) for point in points) for points in self.ringed[:seats]],
                          "last_moved": self.last}}

    def layout(self) -> frozenset[tuple[Square, int, int, bool]]:
        """Each piece on the board, where it lies, how it is turned and whether it is turned over."""
        turn, flipped = self.turn, self.flipped
        return frozenset((square, piece, turn[piece], flipped[piece]) for square, piece in self.tile_at.items())

    def plain_lines(self, names: Sequence[str], tiles_word: str, colour_word: Callable[[str], str],
                    open_cells: Sequence[Square] = ()) -> list[str]:
        """The board in plain text (``str(state)``): :func:`board_text`, each piece marked by the
        initial of its colour's word, then :func:`board_legend`, what the marks mean."""
        words = {colour: colour_word(colour) for colour in set(self.colour)}
        return [*board_text(self, {colour: word[:1] for colour, word in words.items()}), *board_legend(words)]

    def side_points(self, piece: int) -> frozenset[Square]:
        """The points where ``piece`` would lie side by side with an opponent's piece."""
        others = self.beside_others[self.side[self.owner[piece]]]
        return frozenset(code_point(code) for counts in others for code in counts)

    def contact_distances(self) -> tuple[list[int], list[int]]:
        """Per seat: the fewest single steps along the lines between a piece of its side and a piece
        of another side, and the sum over its side's pieces of each one's steps to the nearest piece
        of another side (both 0 when nothing of another side, or of its own, is on the board)."""
        by_side: dict[int, list[Square]] = {}
        for piece, square in enumerate(self.square):
            if square is not None:
                by_side.setdefault(self.side[self.owner[piece]], []).append(square)
        nearest = [0] * len(self.side)
        total = [0] * len(self.side)
        for seat in range(len(self.side)):
            side = self.side[seat]
            others = [square for other, squares in by_side.items() if other != side for square in squares]
            if not others or side not in by_side:
                continue
            mine = [min(abs(x - u) + abs(y - v) for u, v in others) for x, y in by_side[side]]
            nearest[seat] = min(mine)
            total[seat] = sum(mine)
        return nearest, total

    def around(self, point: Square, side: int) -> tuple[int, int]:
        """How many pieces of ``side`` and of other sides stand on the eight points around ``point``
        (side to side and corner to corner)."""
        own = others = 0
        for dx, dy in (*DIRECTIONS, *CORNER_OFFSETS):
            piece = self.tile_at.get((point[0] + dx, point[1] + dy))
            if piece is not None:
                if self.side[self.owner[piece]] == side:
                    own += 1
                else:
                    others += 1
        return own, others

    def nearest_opponent(self, point: Square, side: int) -> int:
        """The fewest single steps along the lines from ``point`` to a piece of another side than
        ``side`` (0 when none is left)."""
        x, y = point
        return min((abs(x - u) + abs(y - v) for (u, v), piece in self.tile_at.items()
                    if self.side[self.owner[piece]] != side), default=0)

    def advance(self, seat: int, point: Square) -> int:
        """How many lines ``point`` lies from ``seat``'s home edge (0 on it, or with no home edge)."""
        edge = self.home_edge[seat]
        x, y = point
        far = self.size - 1
        return {"south": y, "north": far - y, "west": x, "east": far - x}.get(edge or "", 0)

    def sides_left(self) -> set[int]:
        return {self.side[seat] for seat, count in enumerate(self.alive) if count}

    def side_contact(self, piece: int, square: Square) -> int | None:
        """An opponent piece that ``piece`` would touch side to side on ``square`` (None if none)."""
        x, y = square
        tile_at = self.tile_at
        mine = self.side[self.owner[piece]]
        for dx, dy in DIRECTIONS:
            other = tile_at.get((x + dx, y + dy))
            if other is not None and other != piece and self.side[self.owner[other]] != mine:
                return other
        return None

    # ------------------------------------------------------------------ walks
    def walks(self, piece: int, steps: int, straight: bool,
              avoid: frozenset[Square] = frozenset()) -> dict[Square, tuple[Square, ...]]:
        """Every point ``piece`` can end on after exactly ``steps`` single steps along the
        lines through empty points (its own point counts as empty once it has left, so it
        may come back), each with one such walk. ``straight``: every step on one line.
        ``avoid``: points a walk may not pass on its way (it may still end there)."""
        start = self.square[piece]
        assert start is not None
        tile_at, size = self.tile_at, self.size
        if steps <= 2:  # the usual moves, unrolled (the hot path of a playout)
            return self._short_walks(start, steps, straight, avoid)
        # Layer by layer: (point, axis) -> the walk that reached it (first found, so deterministic).
        layer: dict[tuple[Square, int], tuple[Square, ...]] = {(start, -1): ()}
        for _ in range(steps):
            following: dict[tuple[Square, int], tuple[Square, ...]] = {}
            for (point, axis), walk in layer.items():
                x, y = point
                for direction, (dx, dy) in enumerate(DIRECTIONS):
                    if straight and axis >= 0 and direction % 2 != axis:
                        continue
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < size and 0 <= ny < size):
                        continue
                    target = (nx, ny)
                    if target != start and target in tile_at:
                        continue
                    if len(walk) + 1 < steps and target in avoid:
                        continue  # a point passed on the way, not the end
                    key = (target, direction % 2 if straight else -1)
                    if key not in following:
                        following[key] = (*walk, target)
            layer = following
        ends: dict[Square, tuple[Square, ...]] = {}
        for (point, _), walk in layer.items():
            ends.setdefault(point, walk)
        return ends

    def _short_walks(self, start: Square, steps: int, straight: bool,
                     avoid: frozenset[Square]) -> dict[Square, tuple[Square, ...]]:
        tile_at, size = self.tile_at, self.size
        x, y = start
        ends: dict[Square, tuple[Square, ...]] = {}
        for dx, dy in DIRECTIONS:
            first = (x + dx, y + dy)
            if not (0 <= first[0] < size and 0 <= first[1] < size) or first in tile_at:
                continue
            if steps == 1:
                ends[first] = (first,)
                continue
            if first in avoid:
                continue
            for ex, ey in DIRECTIONS:
                if straight and (ex == 0) != (dx == 0):
                    continue
                second = (first[0] + ex, first[1] + ey)
                if second == start or (0 <= second[0] < size and 0 <= second[1] < size and second not in tile_at):
                    if second not in ends:
                        ends[second] = (first, second)
        return ends

    def walk_fault(self, piece: int, path: Sequence[Square], steps: int, straight: bool,
                   avoid: frozenset[Square] = frozenset()) -> str | None:
        """Why ``path`` is not a legal walk of ``piece`` (None when it is); ``avoid`` as in :meth:`walks`."""
        start = self.square[piece]
        assert start is not None
        if len(path) != steps:
            return f"this piece moves exactly {steps} step{'s' if steps != 1 else ''}, not {len(path)}"
        point, axis = start, None
        for index, target in enumerate(path):
            dx, dy = target[0] - point[0], target[1] - point[1]
            if (dx, dy) not in DIRECTIONS:
                return (f"{list(point)} to {list(target)} is not one step along a line "
                        f"(never diagonally across a square)")
            why = self._point_fault(start, target)
            if why is not None:
                return why
            step_axis = DIRECTIONS.index((dx, dy)) % 2
            if straight and axis is not None and step_axis != axis:
                return "this piece's steps all go along one line (it may not turn during a move)"
            if index < len(path) - 1 and target in avoid:
                return (f"it would pass {list(target)} side by side with an opponent's piece: opponents "
                        f"touch corner to corner only, on the way as where a move ends")
            point, axis = target, step_axis
        return None

    def path_fault(self, piece: int, path: Sequence[Square]) -> str | None:
        """Why ``piece`` cannot be walked along ``path`` at all, whatever the rules allow (None when it
        can): each step goes to one of the eight points around (along a line or diagonally across a
        square), on the board, over and onto empty points. A move the table agrees to let stand must
        still be one a hand can make on the board; how many steps and which way are the rules' concern
        (:meth:`walk_fault`)."""
        start = self.square[piece]
        assert start is not None
        point = start
        if not path:
            return "a move goes at least one step"
        for target in path:
            if max(abs(target[0] - point[0]), abs(target[1] - point[1])) != 1:
                return (f"{list(point)} to {list(target)} is no step: a piece steps from a point to one next to "
                        f"it, so name every point it passes")
            why = self._point_fault(start, target)
            if why is not None:
                return why
            point = target
        return None

    def _point_fault(self, start: Square, target: Square) -> str | None:
        """Why a piece that left ``start`` cannot step on ``target`` (None when it can)."""
        if not self.on_board(target):
            return f"point {list(target)} is off the board"
        if target != start and target in self.tile_at:
            return f"point {list(target)} is taken: a piece moves only over and onto empty points"
        return None

    # ------------------------------------------------------------------ contacts
    def settle(self, piece: int, square: Square, turn: int, pooled: bool = True,
               verdict: Verdict | None = None) -> Settlement:
        """The corner contacts ``piece`` makes on ``square`` turned ``turn``, and who goes.

        Each opponent piece touching it corner to corner compares its touching number with
        the mover's: by default the higher stays, the lower goes, equal both go (``verdict``,
        when given, says otherwise). Touching several, the numbers are summed: ``pooled``
        sums every opponent together against the mover's touching numbers; otherwise each
        opponent seat is settled apart, and the mover goes if it goes against any of them.
        """
        piece_at = self.piece_at
        mine_side = self.side[self.owner[piece]]
        contacts = []
        for corner, code in enumerate(self.touching.get(square) or corner_codes(*square)):  # or a point off the board
            other = piece_at.get(code)
            if other is None or other == piece or self.side[self.owner[other]] == mine_side:
                continue
            contacts.append(Contact(other, code_point(code), self.corner_value(piece, corner, turn),
                                    self.corner_value(other, (corner + 2) % 4)))
        if not contacts:
            return _NO_CONTACT
        groups: dict[int, list[Contact]] = {}
        for contact in contacts:
            groups.setdefault(0 if pooled else self.owner[contact.other], []).append(contact)
        removed: list[int] = []
        mover_goes = False
        for group in groups.values():
            mine = sum(c.mine for c in group)
            theirs = sum(c.theirs for c in group)
            if verdict is None:
                others_go, mover_loses = mine >= theirs, mine <= theirs
            else:
                mover_loses, others_go = verdict.mover_goes[mine][theirs], verdict.others_go[mine][theirs]
            if others_go:
                removed.extend(c.other for c in group)
            if mover_loses:
                mover_goes = True
        if mover_goes:
            removed.append(piece)
        return Settlement(tuple(contacts), tuple(removed))

    # ------------------------------------------------------------------ changes
    def move(self, piece: int, square: Square, turn: int) -> None:
        old = self.square[piece]
        assert old is not None
        del self.tile_at[old]
        self.tile_at[square] = piece
        self.square[piece] = square
        self.turn[piece] = turn % 4
        self.last = piece
        gone, come = old[0] * 1024 + old[1], square[0] * 1024 + square[1]  # point_code, spelt out
        piece_at = self.piece_at
        del piece_at[gone]
        piece_at[come] = piece
        side = self.side[self.owner[piece]]
        counts = self.beside[side]  # _count_beside for both points, spelt out
        neighbours = self.neighbours
        for beside in neighbours[gone]:
            left = counts[beside] - 1
            if left:
                counts[beside] = left
            else:
                del counts[beside]
        for beside in neighbours[come]:
            counts[beside] = counts.get(beside, 0) + 1
        cache = self.moves_cache
        if cache:  # one pass for both points (what a move changes)
            stale = []
            for p, (own_side, near, far, _) in cache.items():
                if (gone in near or come in near) if own_side == side else (gone in far or come in far):
                    stale.append(p)
            for p in stale:
                del cache[p]

    def remove(self, piece: int) -> None:
        square = self.square[piece]
        if square is None:
            return
        del self.tile_at[square]
        code = point_code(*square)
        del self.piece_at[code]
        self.square[piece] = None
        self.alive[self.owner[piece]] -= 1
        self._owned = None
        self._count_beside(self.beside[self.side[self.owner[piece]]], code, -1)
        self._forget_near(code)

    def _forget_near(self, code: int) -> None:
        """Drop the memo of every piece whose moves a change on the point of ``code`` could alter."""
        cache = self.moves_cache
        if not cache:
            return
        stale = [piece for piece, (_, _, far, _) in cache.items() if code in far]
        for piece in stale:
            del cache[piece]


def board_legend(colour_names: dict[str, str]) -> list[str]:
    """What :func:`board_text`'s marks mean, for a reader who has not seen it before: ``colour_names``
    maps each colour on the board to the word it is shown by (its initial is the mark)."""
    colours = ", ".join(f"{name[:1].lower()} {name}" for name in sorted(colour_names.values()))
    return ["legend: r34 over 65 is a piece (its colour's initial) with its corner numbers as they lie: "
            "north-west 3, north-east 4 above, south-west 6, south-east 5 below; an upper-case initial: turned "
            "over; o: an empty ringed point; .: an empty point; x counts east, y north",
            f"colours: {colours}"]


def board_text(board: PieceBoard, colour_initials: dict[str, str] | None = None) -> list[str]:
    """A compact picture of the board, north at the top, two text lines per row of points.

    A piece shows its colour's initial (upper case once turned over) and its corner numbers
    where they lie: north-west and north-east on the upper line, south-west and south-east
    below. An empty point is ``.``, an empty ringed point ``o``.
    """
    initials = colour_initials or {}
    ringed = frozenset().union(*board.ringed) if board.ringed else frozenset()
    width = len(str(board.size - 1))
    pad = " " * width
    lines = []
    for y in range(board.size - 1, -1, -1):
        upper, lower = [], []
        for x in range(board.size):
            piece = board.tile_at.get((x, y))
            if piece is None:
                upper.append(" o " if (x, y) in ringed else " . ")
                lower.append("   ")
                continue
            letter = (initials.get(board.colour[piece]) or board.colour[piece][:1] or "?")
            letter = letter.upper() if board.flipped[piece] else letter.lower()
            nw, ne, se, sw = board.corners(piece)
            upper.append(f"{letter}{nw}{ne}")
            lower.append(f" {sw}{se}")
        lines.append((f"{y:>{width}} " + " ".join(upper)).rstrip())
        lines.append((f"{pad} " + " ".join(lower)).rstrip())
    lines.append((f"{pad} " + " ".join(f"{x:>2} " for x in range(board.size))).rstrip())
    return lines
