"""The one notation of actions and events: as a person types and reads them, as a record's
lines state them (``contack-record/1``, docs/records.md) and as the bot protocol sends them
(``contack-bot/1``, docs/external-bots.md).

Everything that turns an action or an event into text or JSON, or back, is here, so that the
score keeper, the human player, the audit and its suggestions, the protocol and the narration
never disagree on how a tile, a cell or a move is written (python-chess's ``san`` and
``parse_san`` are the model):

- tiles are named by their values in the set's colour order, two digits each (``09-02-08``,
  :func:`contack_core.boards.tiles.tile_name`), and read in any reasonable spelling
  (``9-2-8``, ``9 2 8``, ``928``; :func:`read_tile`), never guessed at: a spelling that could
  name two tiles is refused with both;
- a cell or point is typed ``x,y`` (:func:`point_to_string`) and stated ``[x, y]`` in records
  and on the wire;
- :func:`action_to_string` and :func:`parse_action` are an action as typed, and
  :func:`event_to_string` an event as the narrator tells it, in the ruleset's words;
  :func:`action_to_record`, :func:`action_from_record` and :func:`event_to_record` are record
  lines; :func:`action_to_json`, :func:`action_from_json`, :func:`event_to_json` and
  :func:`event_from_json` the wire.

Nothing here names a variant: tiles by the ruleset's tile set, zones by its zone names, words
by its terms.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, get_args

import attrs

from contack_core.boards.grid import Contact, PieceBoard
from contack_core.boards.lattice import figure_of
from contack_core.boards.tiles import TileSet, tile_name
from contack_core.engine.actions import Action, Deal, Discard, Draw, HouseAction, Move, Pass, Play
from contack_core.engine.events import (
    ChipsMoved,
    Dealt,
    Discarded,
    Drew,
    Event,
    HandResult,
    HouseActed,
    Moved,
    Passed,
    Played,
)
from contack_core.language.quick import quick_constructor

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

__all__ = ["MAX_ENTRY_CHARS", "NotationError", "Unfinished", "action_from_json", "action_from_record",
           "action_to_json", "action_to_record", "action_to_string", "chips_to_record", "contact_words",
           "event_from_json", "event_to_json", "event_to_record", "event_to_string", "hand_end_record", "move_words",
           "name_distance", "nearest_tiles", "parse_action", "piece_name", "point_to_string", "read_cell",
           "read_points", "read_tile", "read_tiles", "recorded_action", "tile_name", "tile_readings"]


class NotationError(ValueError):
    """Text that names no action, or names it wrongly; the message says how to write it."""


class Unfinished(NotationError):
    """Text that names part of an action: a tile with no cell (``tile``; ``pick``, the number of a
    cell it does not fit), or a piece's point with no path (``origin``). The caller lists the ways
    to finish it (or says why there are none)."""

    def __init__(self, message: str, tile: int | None = None, origin: tuple[int, int] | None = None,
                 pick: int | None = None) -> None:
        super().__init__(message)
        self.tile = tile
        self.origin = origin
        self.pick = pick


# ---------------------------------------------------------------------- tiles, cells, points
_SEPARATED = re.compile(r"^\d{1,2}(?:[-\s./_]+\d{1,2})+$")
_RUN = re.compile(r"^\d+$")
_CELL = re.compile(r"^[\[(]?\s*(-?\d+)\s*(?:,\s*|\s+)(-?\d+)\s*[\])]?$")
_POINT = re.compile(r"[\[(]?\s*(-?\d+)\s*,\s*(-?\d+)\s*[\])]?")
#: A number typed to pick from a numbered list (``3``, ``#3``).
PICK = re.compile(r"^#?\s*(\d{1,2})$")

#: The most characters an entry may hold: a deal of every tile of a large set, written out in
#: full, takes a few hundred. Longer entries are refused before anything reads them.
MAX_ENTRY_CHARS = 1000

#: Where a cell lies from a tile it touches, on the triangle lattice (:mod:`contack_core.boards.lattice`).
SIDES = {"left": (-1, 0), "right": (1, 0), "above": (0, 1), "below": (0, -1)}
_SIDE_WORDS = {"left": "left", "right": "right", "above": "above", "over": "above", "top": "above", "up": "above",
               "below": "below", "under": "below", "bottom": "below", "down": "below"}


def point_to_string(point: Sequence[int]) -> str:
    """A cell or point as typed: ``1,0``."""
    return f"{point[0]},{point[1]}"


def _splits(digits: str, parts: int) -> list[tuple[int, ...]]:
    """Every way to cut a run of digits into ``parts`` numbers of one or two digits."""
    if parts == 0:
        return [()] if not digits else []
    found: list[tuple[int, ...]] = []
    for width in (1, 2):
        if len(digits) >= width:
            head = int(digits[:width])
            found.extend((head, *rest) for rest in _splits(digits[width:], parts - 1))
    return found


def _rotations(values: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [values[k:] + values[:k] for k in range(1, len(values))]


def tile_readings(text: str, tiles: TileSet) -> list[int]:
    """The tiles ``text`` may name, exact readings first (empty if none): a tile's own name (any
    case), or its values in order, or else read from another edge."""
    text = text.strip()
    named = [t for t, name in enumerate(tiles.names) if name.lower() == text.lower()]
    if named:
        return named
    width = len(tiles.values[0])
    if _SEPARATED.match(text):
        candidates = [tuple(int(part) for part in re.split(r"[-\s./_]+", text))]
    elif _RUN.match(text):
        candidates = _splits(text, width)
    else:
        return []
    by_values: dict[tuple[int, ...], list[int]] = {}
    for tile, values in enumerate(tiles.values):
        by_values.setdefault(values, []).append(tile)
    exact = sorted({t for values in candidates for t in by_values.get(values, [])})
    if exact:
        return exact
    return sorted({t for candidate in candidates if len(candidate) == width
                   for values in _rotations(candidate) for t in by_values.get(values, [])})


def read_tile(text: str, tiles: TileSet) -> int:
    """The one tile ``text`` names, or :class:`NotationError` saying why not."""
    found = tile_readings(text, tiles)
    if len(found) == 1:
        return found[0]
    colours = "-".join(tiles.colours) if tiles.classic else "edges'"
    if len(found) > 1:
        options = " or ".join(tiles.names[t] for t in found)
        numbered = all(tiles.names[t] == tile_name(tiles.values[t]) for t in found)
        raise NotationError(f"{text!r} could be {options}: write it {'with dashes' if numbered else 'by its name'}")
    if not (_SEPARATED.match(text.strip()) or _RUN.match(text.strip())):
        raise NotationError(f"{text!r} is not a tile: name one by its {colours} values, like {tiles.names[0]} or "
                            f"{''.join(str(v) for v in tiles.values[0])}")
    near = nearest_tiles(text, tiles)
    hint = f"; the nearest are {', '.join(tiles.names[t] for t in near)}" if near else ""
    raise NotationError(f"no tile {text.strip()!r} in this set ({colours} values){hint}")


def nearest_tiles(text: str, tiles: TileSet, count: int = 3) -> list[int]:
    """The tiles whose names differ least from ``text``, digit by digit."""
    digits = re.sub(r"\D", "", text)
    spelt = [tile_name(values) for values in _splits(digits, len(tiles.values[0]))] or [text]

    def distance(tile: int) -> int:
        return min(name_distance(candidate, tiles.names[tile]) for candidate in spelt)

    ranked = sorted(range(len(tiles)), key=lambda t: (distance(t), t))
    return [t for t in ranked[:count] if distance(t) <= 2]


def name_distance(a: str, b: str, limit: int = 8) -> int:
    """Characters to change, insert or delete to turn ``a`` into ``b`` (Levenshtein), or ``limit + 1``
    when their lengths alone differ by more than ``limit``: a name typed a megabyte long costs no
    more to rank than one typed right (the full table would take its length times the other's)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        previous = current
    return previous[-1]


def read_tiles(text: str, tiles: TileSet) -> list[int]:
    """Several tiles: separated by commas or semicolons, or by blanks, each written in one piece
    (``928 1-2-3``) or as its numbers alone (``9 2 8 1 2 3``, taken a tile's worth at a time)."""
    text = text.strip()
    if re.search(r"[,;]", text):
        return [read_tile(word, tiles) for word in re.split(r"\s*[,;]\s*", text) if word]
    width = len(tiles.values[0])
    found: list[int] = []
    numbers: list[str] = []
    for word in text.split():
        if re.fullmatch(r"\d{1,2}", word):
            numbers.append(word)
            if len(numbers) == width:
                found.append(read_tile(" ".join(numbers), tiles))
                numbers = []
            continue
        if numbers:
            break
        found.append(read_tile(word, tiles))
    if numbers:
        raise NotationError(f"{' '.join(numbers)!r} is not a whole tile: a tile has {width} numbers")
    return found


def read_cell(text: str) -> tuple[int, int] | None:
    """A cell or point ``[x, y]`` as typed (``1,0``, ``[1, 0]``, ``(1 0)``, ``1 0``), or None."""
    found = _CELL.match(text.strip())
    return None if found is None else (int(found.group(1)), int(found.group(2)))


def read_points(text: str) -> list[tuple[int, int]] | None:
    """Points written one after another (``6,0 6,1 6,2``, ``[6, 0] -> [6, 2]``, ``6,0 to 6,2``),
    or None if anything else is in the way."""
    points = [(int(x), int(y)) for x, y in _POINT.findall(text)]
    rest = re.sub(r"->|>|\bto\b|,|\s", "", _POINT.sub("", text))
    return points if points and not rest else None


def _pairs(text: str) -> list[tuple[int, int]] | None:
    """Points written as bare numbers, two a point (``6 0 6 1``), or None."""
    numbers = text.split()
    if numbers and len(numbers) % 2 == 0 and all(re.fullmatch(r"-?\d{1,2}", n) for n in numbers):
        values = [int(n) for n in numbers]
        return list(zip(values[::2], values[1::2]))
    return None


def _straight_way(start: tuple[int, int], end: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The points from ``start`` to ``end`` (``start`` left out) when they lie on one line or diagonal,
    a step at a time (``6,0 to 6,3``, no legal move joining them, is read as the three steps a person
    sees); else ``end`` alone, as typed."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(abs(dx), abs(dy))
    if length <= 1 or dx and dy and abs(dx) != abs(dy):
        return (end,)
    ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return tuple((start[0] + ux * i, start[1] + uy * i) for i in range(1, length + 1))


# ---------------------------------------------------------------------- actions as typed
def action_to_string(state: GameState, action: Action) -> str:
    """``action`` as a person types it when ``state`` is due: ``09-02-08 1,0`` (a play),
    ``draw 09-02-08`` (``draw`` when the tile is not named yet), ``discard 09-02-08 to pile``,
    ``pass``, ``6,0 6,1`` (a move: the point it leaves, then each point it steps to); a deal is its
    tiles (``09-02-08 01-02-03``); a house rule's own action is its rule's name, the tile it returns
    and the tiles it draws when they are named (``exchange 03-04-05 drawing 01-02-03``).
    :func:`parse_action` reads it back to ``action``."""
    names = state.rules.tiles.names
    if isinstance(action, HouseAction):
        words = [action.rule] + ([names[action.tile]] if action.tile is not None else [])
        if action.drawn is not None:
            words.extend(["drawing", *(names[tile] for tile in action.drawn)])
        return " ".join(words)
    if isinstance(action, Play):
        return f"{names[action.tile]} {point_to_string(action.cell)}"
    if isinstance(action, Draw):
        return "draw" if action.tile is None else f"draw {names[action.tile]}"
    if isinstance(action, Discard):
        return f"discard {names[action.tile]}" + (f" to {action.zone}" if action.zone else "")
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Move):
        return " ".join(point_to_string(p) for p in (action.origin, *action.path))
    if isinstance(action, Deal):
        return " ".join(names[tile] for tile in action.tiles)
    raise ValueError("a shuffle is never typed: the keeper takes the tiles as they are dealt")


def parse_action(state: GameState, text: str) -> Action:
    """The action ``text`` names when ``state`` is due, as :func:`action_to_string` writes it or
    in any of the forgiving forms a person types (tiles in any spelling; ``play`` before a play;
    ``d``, ``x``, ``p``, ``m`` for draw, discard, pass, move; ``NAME:`` before it, checked
    against whose turn it is; a cell as ``1,0``, ``[1, 0]``, ``1 0``, the number of a cell in the
    list of where the tile fits, or beside a tile laid: ``left of 06-02-05``; a move by its
    points, or by its start and end where one legal way joins them). It is not checked against
    the rules (the state does that when it is applied); :class:`Unfinished` when it names only a
    tile or a piece's point, :class:`NotationError` when it names nothing."""
    if len(text) > MAX_ENTRY_CHARS:  # refused before any reading or matching, whose cost grows with it
        raise NotationError(f"an entry is at most {MAX_ENTRY_CHARS:,} characters; this one has more")
    return _Reader(state).action(text.strip())


def seat_named(state: GameState, name: str) -> int:
    """The seat a person names: by its name (any case) or its number."""
    seats = list(state.seat_names or (f"seat {seat}" for seat in range(state.seat_count)))
    lowered = [seat.lower() for seat in seats]
    if name.lower() in lowered:
        return lowered.index(name.lower())
    if name.isdigit() and int(name) < len(lowered):
        return int(name)
    raise NotationError(f"no seat {name!r}: the seats are {', '.join(seats)}")


class _Reader:
    """Reading one entry against one state."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.tiles = state.rules.tiles

    def action(self, text: str) -> Action:
        state = self.state
        if state.is_over():
            raise NotationError("the game is over: no action is due")
        if state.is_chance_node():
            return self.chance_action(text)
        return self.turn_action(text)

    def chance_action(self, text: str) -> Action:
        """The tiles dealt, or the tile chance turns up to open the figure."""
        outcome = self.state.clone().sample_chance(random.Random(0))
        if isinstance(outcome, Deal):
            return Deal(outcome.seat, tuple(read_tiles(text, self.tiles)), outcome.zone)
        if isinstance(outcome, Play):
            tile, where = self.split_tile(text)
            cell = read_cell(where) if where else outcome.cell
            if cell != outcome.cell:
                raise NotationError(f"the tile turned up lies on {list(outcome.cell)}, not on {where}")
            return Play(tile, outcome.cell)
        raise NotationError(f"{text!r} cannot be read here: the position is at a shuffle, which is never typed "
                            f"(the tiles are taken as they are dealt; in code, apply state.sample_chance(rng) first)")

    def turn_action(self, text: str) -> Action:
        """The action a turn's entry states."""
        state = self.state
        named = re.match(r"^([^:,\[\]()]+):\s*(.*)$", text)
        if named:
            seat = self.seat_named(named.group(1).strip())
            if seat != state.current:
                raise NotationError(f"it is {state.who(state.current)}'s turn, not {state.who(seat)}'s")
            text = named.group(2)
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        turn_kinds = {rule.action_type for rule in state.rules.turn}
        if Move in turn_kinds and not turn_kinds & {Play, Draw, Discard}:
            return self.board_action(verb, rest, text)
        kinds = {type(action) for action in state.legal_actions()}
        house = {rule.key.lower(): rule.key for rule in state.rules.turn if rule.action_type is HouseAction}
        if verb in house:
            return self.house_action(house[verb], rest)
        if verb in ("pass", "p"):
            return Pass()
        if verb in ("draw", "d"):
            return Draw(read_tile(rest, self.tiles)) if rest.strip() else Draw()
        if verb in ("discard", "x"):
            return self.discard_action(rest)
        if verb in ("move", "m"):
            return self.move_action(rest)
        if verb == "play":
            text = rest
        points = read_points(text)
        if points is not None and Move in kinds:
            return self.move_action(text)
        tile, where = self.split_tile(text)
        if not where and Play not in kinds and Draw in kinds:
            return Draw(tile)  # drawing is all there is to do: a tile alone is the one drawn
        return self.play_action(tile, where)

    def house_action(self, rule: str, rest: str) -> HouseAction:
        """A house rule's own action: its name, then the tile it returns (where the seat chooses one),
        then, optionally, ``drawing`` and the tiles drawn (as a table names them)."""
        parts = re.split(r"\bdrawing\b", rest, maxsplit=1, flags=re.I)
        returned = parts[0].strip()
        tile = read_tile(returned, self.tiles) if returned else None
        if len(parts) == 1:
            return HouseAction(rule, tile)
        if not parts[1].strip():
            raise NotationError(f"name the tiles drawn after 'drawing': {rule} ... drawing {self.tiles.names[0]}")
        return HouseAction(rule, tile, tuple(read_tiles(parts[1], self.tiles)))

    def seat_named(self, name: str) -> int:
        return seat_named(self.state, name)

    def split_tile(self, text: str) -> tuple[int, str]:
        """The tile an entry begins with, and the rest of it."""
        tiles = self.tiles
        words = text.split()
        if not words:
            raise NotationError("type a tile, or ? for the legal moves")
        if tile_readings(words[0], tiles):
            return read_tile(words[0], tiles), " ".join(words[1:])
        width = len(tiles.values[0])
        if len(words) >= width and all(re.fullmatch(r"\d{1,2}", w) for w in words[:width]):
            return read_tile(" ".join(words[:width]), tiles), " ".join(words[width:])
        return read_tile(words[0], tiles), " ".join(words[1:])

    def discard_action(self, rest: str) -> Discard:
        state = self.state
        if rest.strip():
            tile, pile = self.split_tile(rest)
            pile = re.sub(r"^(to|on|onto)\s+", "", pile.strip(), flags=re.I)
            if pile and pile not in state.zones:  # a pile's name in any case
                pile = next((zone for zone in state.zones if zone.lower() == pile.lower()), pile)
            if pile and pile not in state.zones:
                raise NotationError(f"no pile {pile!r}: the piles are {', '.join(state.zones)}")
            return Discard(tile, pile or None)
        discards = [a for a in state.legal_actions() if type(a) is Discard]
        if len(discards) == 1:
            return discards[0]
        raise NotationError("name the tile laid aside: discard 09-02-08 (and the pile, where there are several: "
                            "discard 09-02-08 to pile-1)")

    def fits(self, tile: int) -> list[Play]:
        return [a for a in self.state.legal_actions() if type(a) is Play and a.tile == tile]

    def play_action(self, tile: int, where: str) -> Play:
        """A play of ``tile``: on the cell ``where`` names (a cell, a number in the list of where the
        tile fits, or a side of a tile laid)."""
        names = self.tiles.names
        if not where:
            raise Unfinished(f"name the cell to lay {names[tile]} on: {names[tile]} X,Y", tile=tile)
        picked = PICK.match(where)
        if picked:
            number = int(picked.group(1))
            fits = self.fits(tile)
            if not fits:
                raise Unfinished(f"{names[tile]} fits nowhere now", tile=tile, pick=number)
            if not 1 <= number <= len(fits):
                raise NotationError(f"{names[tile]} fits {len(fits)} cell{'s' if len(fits) != 1 else ''} now, "
                                    f"not {number}")
            return fits[number - 1]
        cell = read_cell(where)
        if cell is None:
            cell = self.cell_beside(where)
        return Play(tile, cell)

    def cell_beside(self, where: str) -> tuple[int, int]:
        """The cell ``where`` names by a tile of the figure and a side: ``left of 06-02-05``."""
        from contack_core.boards.lattice import Figure  # noqa: PLC0415 - only for a cell named by a side

        state = self.state
        figure = state.figure
        if not isinstance(figure, Figure):
            raise NotationError(f"not a cell: {where!r}")
        words = [w for w in where.replace(",", " ").split() if w.lower() not in ("of", "the", "at", "on")]
        side = next((_SIDE_WORDS[w.lower()] for w in words if w.lower() in _SIDE_WORDS), None)
        rest = " ".join(w for w in words if w.lower() not in _SIDE_WORDS)
        if side is None or not rest:
            raise NotationError(f"not a cell: {where!r} (write X,Y, a number from the list, or a side and a tile: "
                                f"left of 06-02-05)")
        other = read_tile(rest, self.tiles)
        names = self.tiles.names
        at = next((cell for cell, tile in figure.tile_at.items() if tile == other), None)
        if at is None:
            raise NotationError(f"{names[other]} is not in the figure")
        dx, dy = SIDES[side]
        cell = (at[0] + dx, at[1] + dy)
        if cell not in figure.neighbours(at):
            sides = [name for name, (ox, oy) in SIDES.items() if (at[0] + ox, at[1] + oy) in figure.neighbours(at)]
            raise NotationError(f"{names[other]} on {list(at)} points {'up' if side == 'above' else 'down'}: "
                                f"nothing lies {side} it; its sides are {', '.join(sides)}")
        return cell

    def board_action(self, verb: str, rest: str, text: str) -> Action:
        """A turn's entry where pieces move on a board and no tile is played, drawn or laid aside:
        every entry is read as a move (or a pass), and what is not one is told so in moves' words."""
        if verb in ("pass", "p"):
            return Pass()
        if verb in ("move", "m"):
            return self.move_action(rest)
        state = self.state
        if verb in ("draw", "d", "discard", "x", "play"):
            done = {"d": "drawn", "draw": "drawn", "x": "laid aside", "discard": "laid aside"}.get(verb, "played")
            raise NotationError(f"no tile is {done} in this game, pieces move on the board: {state.who(state.current)} "
                                f"{state.rules.still_possible(state)} (write a move by its points: 6,0 6,1)")
        return self.move_action(text)

    def move_action(self, text: str) -> Move:
        """A move: its points, or its start and end when one legal way joins them."""
        points = read_points(text) or _pairs(text)
        if not points:
            raise NotationError(f"not a move: {text!r} (write the points: 6,0 6,1 6,2, or 6,0 to 6,2; ? lists the "
                                f"moves)")
        origin = points[0]
        if len(points) == 1:
            raise Unfinished("a move is typed as the point the piece stands on, then each point of its path: "
                             "move 5,0 5,1 6,1", origin=origin)
        if len(points) == 2:
            ending = [a for a in self.state.legal_actions()
                      if type(a) is Move and a.origin == origin and a.path[-1] == points[1]]
            if len(ending) == 1:
                return ending[0]
            return Move(origin, _straight_way(origin, points[1]))
        return Move(origin, tuple(points[1:]))


# ---------------------------------------------------------------------- events as a person reads them
#: Words used when a ruleset's ``terms`` leave them out.
MOVE_TERMS: Mapping[str, str] = {
    "moves": "moves", "turns_to": "turns a quarter right, corners NW-NE-SE-SW now", "removed": "removed",
    "flipped": "reaches a ringed spot and is turned over", "contact": "contact",
}


def _term(rules: Rules, key: str) -> str:
    return str(rules.terms.get(key, MOVE_TERMS.get(key, key)))


def piece_name(rules: Rules, board: PieceBoard, piece: int) -> str:
    """``red two-step``, in the ruleset's colour words."""
    return f"{rules.colour_term(board.colour[piece])} {board.kinds[board.kind[piece]].name}"


def corners_text(board: PieceBoard, piece: int) -> str:
    """The corner numbers as the piece lies, clockwise from north-west: ``4-1-2-3``."""
    return "-".join(str(v) for v in board.corners(piece))


def move_words(rules: Rules, board: PieceBoard, event: Moved, who: str) -> str:
    """One move told in full: the walk, the quarter turn, each contact and who went, the flip.

    ``board`` is the position after the move (removed pieces keep their colour and kind)."""
    piece = event.piece
    walk = " -> ".join(str(list(point)) for point in (event.origin, *event.path))
    kind = board.kinds[board.kind[piece]]
    values = kind.face
    turned = "-".join(str(values[(c - event.turn) % 4]) for c in range(4))
    parts = [f"{who} {_term(rules, 'moves')} {piece_name(rules, board, piece)} {walk}, "
             f"{_term(rules, 'turns_to')} {turned}" if not _was_flipped_before(board, event)
             else f"{who} {_term(rules, 'moves')} {piece_name(rules, board, piece)} {walk}"]
    if event.contacts:
        touches = ", ".join(f"{c.mine} against {piece_name(rules, board, c.other)} {c.theirs} at {list(c.square)}"
                            for c in event.contacts)
        summed = ""
        if len(event.contacts) > 1:
            summed = (f" (sums {sum(c.mine for c in event.contacts)} against "
                      f"{sum(c.theirs for c in event.contacts)})")
        gone = ", ".join(str(list(point)) for point in event.removed) or "none"
        parts.append(f"{_term(rules, 'contact')}: {touches}{summed}; {_term(rules, 'removed')}: {gone}")
    if event.flipped:
        parts.append(f"{_term(rules, 'flipped')} ({corners_text(board, piece)})")
    return "; ".join(parts)


def _was_flipped_before(board: PieceBoard, event: Moved) -> bool:
    """A piece already face down shows the same number on every corner: its turn says nothing."""
    return board.flipped[event.piece] and not event.flipped


def event_to_string(state: GameState, event: Event, who: Callable[[int], str] | None = None) -> str | None:
    """``event`` (just applied to ``state``) as one line in the ruleset's words, as the narrator
    tells it: ``alice (seat 0) plays 09-02-08 at [0, -1]: blue 9+1 counting = 10 -> 10 points``.
    ``who`` names a seat (default: :meth:`GameState.who`). None for a shuffle (nothing to tell)."""
    rules = state.rules
    names = rules.tiles.names
    name = who or state.who
    if isinstance(event, Dealt):
        return deal_to_string(names, event, name)
    if isinstance(event, Played):
        return _played_words(state, event, name(event.seat))
    if isinstance(event, Drew):
        return f"{name(event.seat)} {rules.term('draw')} {names[event.tile]}"
    if isinstance(event, Discarded):
        return f"{name(event.seat)} {rules.term('discards')} {names[event.tile]} ({event.zone})"
    if isinstance(event, ChipsMoved):
        payer = rules.term("bank") if event.payer is None else name(event.payer)
        payee = rules.term("bank") if event.payee is None else name(event.payee)
        reason = "" if event.reason == "collect" else f" ({rules.term(event.reason)})"
        return f"   {payer} -> {payee}: {event.count} {rules.term('chips')}{reason}"
    if isinstance(event, Passed):
        return f"{name(event.seat)} {rules.term('pass')}"
    if isinstance(event, HouseActed):
        return _house_words(state, event, name(event.seat))
    if isinstance(event, Moved):
        board = state.figure
        assert isinstance(board, PieceBoard)
        return move_words(rules, board, event, name(event.seat))
    return None


def hand_to_string(rules: Rules, number: int, reason: str | None = None) -> str:
    """A hand named, and how it ended when ``reason`` (a hand ending's key) is given, in the
    ruleset's words: ``Hand 2``, ``Hand 2: went out``."""
    named = f"{rules.term('hand').capitalize()} {number}"
    return f"{named}: {rules.term(reason)}" if reason else named


def winners_to_string(rules: Rules, winners: Sequence[int], totals: Sequence[int], teams: Sequence[Sequence[int]],
                      who: Callable[[int], str]) -> str:
    """Who won the game, in the ruleset's words: nobody (a tie, or nothing left to anyone), a side of
    partners together, one seat, or several; ``who`` names a seat."""
    if not winners:
        return rules.term("none_left" if not any(totals) else "nobody_wins")
    side = next((team for team in teams if winners[0] in team), ())
    if len(side) > 1 and len(winners) == len(side):
        return f"{' + '.join(who(seat) for seat in winners)} {rules.term('partners_win')}"
    if len(winners) == 1:
        return f"{who(winners[0])} {rules.term('winner')}"
    return f"{', '.join(who(seat) for seat in winners)} {rules.term('winners')}"


def deal_to_string(names: Sequence[str], deal: Deal | Dealt, who: Callable[[int], str]) -> str:
    """A deal told: ``alice (seat 0): 06-02-05 08-09-10`` (``who`` names the seat dealt to), or
    ``pile-1: ...`` for tiles laid face up on a shared zone (a stack)."""
    owner = str(deal.zone) if deal.seat is None else who(deal.seat)
    return f"{owner}: {' '.join(names[t] for t in deal.tiles)}"


def _house_words(state: GameState, event: HouseActed, who: str) -> str:
    """A house rule's own action told: ``alice (seat 0) exchange: returns 03-04-05, draws 01-02-03``,
    in the ruleset's words for the rule (its ``terms``, else its key); its cost is told by the
    counter it changes, as every score is."""
    rules = state.rules
    names = rules.tiles.names
    parts = []
    if event.taken:
        parts.append(f"takes back {' '.join(names[t] for t in event.taken)}")
    if event.returned:
        parts.append(f"returns {' '.join(names[t] for t in event.returned)}")
    if event.drawn:
        parts.append(f"{rules.term('draw')} {' '.join(names[t] for t in event.drawn)}")
    if event.shuffled is not None:
        parts.append(f"{rules.term('shuffles')} {event.shuffled}")
    return f"{who} {rules.term(event.rule)}: {', '.join(parts) or 'nothing changes'}"


def contact_words(rules: Rules, colour: str, mine: int, theirs: int, kind: str, points: int) -> str:
    """One contact of a play in the ruleset's words: ``blue 9+1 counting = 10``, ``red 4+4
    matching``; ``kind`` is ``counting``, ``matching`` or ``missed`` (a contact a house rule's
    ``legal`` lets through although it fails)."""
    worth = f" = {points}" if kind == "counting" else ""
    return f"{rules.colour_term(colour)} {mine}+{theirs} {rules.term(kind)}{worth}"


def _played_words(state: GameState, event: Played, who: str) -> str:
    """A play told with each contact it made (colour, the two numbers, matching or counting)."""
    rules = state.rules
    names = rules.tiles.names
    figure = figure_of(state.figure)
    if figure.tile_at.get(event.cell) != event.tile:  # the play ended the hand
        figure = figure_of(state.hand_results[-1].figure)
    contacts = rules.placement.contacts_of(figure, event.cell) if rules.placement is not None else []
    if not contacts:
        return f"{who} {rules.term('opens')} {names[event.tile]} {rules.term('at')} {list(event.cell)}"
    parts = [contact_words(rules, c["colour"], c["mine"], c["theirs"], c["kind"], c["points"]) for c in contacts]
    extra = f" [{rules.term('opportunity')}]" if event.opportunity else ""
    source = f" ({event.source})" if event.source else ""
    return (f"{who} {rules.term('plays')} {names[event.tile]}{source} {rules.term('at')} "
            f"{list(event.cell)}: {'; '.join(parts)} -> {event.points} {rules.term('points')}{extra}")


# ---------------------------------------------------------------------- record lines
_make_play = quick_constructor(Play)
_make_draw = quick_constructor(Draw)
_make_deal = quick_constructor(Deal)


def action_to_record(state: GameState, action: Action) -> dict[str, Any]:
    """The record line an action of the seat to act states, before its results are known (no
    points): what a person typed, as the audit and its suggestions compare it. A draw whose tile
    is not named yet states the tile ``""``."""
    names = state.rules.tiles.names
    seat = state.current
    if isinstance(action, Play):
        return {"event": "play", "seat": seat, "tile": names[action.tile], "cell": list(action.cell)}
    if isinstance(action, Draw):
        return {"event": "draw", "seat": seat, "tile": "" if action.tile is None else names[action.tile]}
    if isinstance(action, Discard):
        line: dict[str, Any] = {"event": "discard", "seat": seat, "tile": names[action.tile]}
        return {**line, "to": action.zone} if action.zone else line
    if isinstance(action, Move):
        return {"event": "move", "seat": seat, "from": list(action.origin), "path": [list(p) for p in action.path]}
    if isinstance(action, Deal):
        return _deal_record(names, action.seat, action.tiles, action.zone)
    if isinstance(action, Pass):
        return {"event": "pass", "seat": seat}
    if isinstance(action, HouseAction):
        house: dict[str, Any] = {"event": "house", "seat": seat, "rule": action.rule}
        if action.tile is not None:
            house["tile"] = names[action.tile]
        if action.drawn is not None:
            house["drawn"] = [names[t] for t in action.drawn]
        return house
    raise ValueError("a record never states a shuffle: the pile is just the unseen tiles")


def _tile(tiles: TileSet, name: object) -> int:
    """The tile a line names (the tile set words what is wrong with a name it does not know)."""
    tile = tiles.by_name.get(name) if name.__class__ is str else None
    return tiles.tile(name) if tile is None else tile


def play_from_record(tiles: TileSet, line: dict[str, Any]) -> Play:
    """The play a ``play`` line states (a line its schema accepts): :func:`recorded_action` for a
    caller that knows the line is a play (the audit, at every play of a record)."""
    name, cell = line["tile"], line["cell"]
    tile = tiles.by_name.get(name) if name.__class__ is str else None  # _tile spelt out: a call fewer a line
    return _make_play(tiles.tile(name) if tile is None else tile, (cell[0], cell[1]))


def _draw_from_record(tiles: TileSet, line: dict[str, Any]) -> Action:
    name = line["tile"]
    tile = tiles.by_name.get(name) if name.__class__ is str else None  # as in a play's
    return _make_draw(tiles.tile(name) if tile is None else tile)


def _discard_from_record(tiles: TileSet, line: dict[str, Any]) -> Action:
    return Discard(_tile(tiles, line["tile"]), line.get("to"))


def _pass_from_record(tiles: TileSet, line: dict[str, Any]) -> Action:
    return Pass()


def _move_from_record(tiles: TileSet, line: dict[str, Any]) -> Action:
    start = line["from"]
    return Move((start[0], start[1]), tuple((point[0], point[1]) for point in line["path"]))


def _house_from_record(tiles: TileSet, line: dict[str, Any]) -> Action:
    tile = line.get("tile")
    drawn = line.get("drawn")
    return HouseAction(line["rule"], None if tile is None else _tile(tiles, tile),
                       None if drawn is None else tuple([_tile(tiles, name) for name in drawn]))


def _deal_from_record(tiles: TileSet, line: dict[str, Any]) -> Action:
    names = line["tiles"]  # names, as the schema says: each looked up in C, and told by _tile if one is unknown
    dealt = tuple(map(tiles.by_name.get, names))
    if None in dealt:
        dealt = tuple([_tile(tiles, name) for name in names])
    return _make_deal(line.get("seat"), dealt, line.get("zone"))


#: The action each kind of record line states (a line the schema has checked).
_FROM_RECORD = {"play": play_from_record, "draw": _draw_from_record, "discard": _discard_from_record,
                "pass": _pass_from_record, "move": _move_from_record, "deal": _deal_from_record,
                "house": _house_from_record}


def action_from_record(tiles: TileSet, line: dict[str, Any]) -> Action | None:
    """The action a record line states (a line its schema accepts), or None for a line that states
    results (a hand's start or end, chips, the game's end, a fault). A tile the set does not
    know raises :class:`contack_core.boards.tiles.UnknownTile`, saying why."""
    kind = line.get("event")
    reader = _FROM_RECORD.get(kind) if isinstance(kind, str) else None
    return None if reader is None else reader(tiles, line)


def recorded_action(tiles: TileSet, line: dict[str, Any]) -> Action:
    """The action of a line that states one (a play, draw, discard, pass, move or deal), as
    :func:`action_from_record` reads it; a ValueError for a line that states none."""
    kind = line.get("event")
    reader = _FROM_RECORD.get(kind) if kind.__class__ is str else None  # action_from_record without its call
    if reader is None:
        raise ValueError(f"a {kind} line states no action")
    return reader(tiles, line)


def _bank_or(seat: int | None) -> int | str:
    return "bank" if seat is None else seat


def event_to_record(state: GameState, event: Event) -> dict[str, Any] | None:
    """The record line of an event applied to ``state`` (None for a shuffle: a record never
    states one). A move names its piece by colour and kind, as the board after it holds it."""
    names = state.rules.tiles.names
    if isinstance(event, Played):
        line: dict[str, Any] = {"event": "play", "seat": event.seat, "tile": names[event.tile],
                                "cell": list(event.cell), "points": event.points}
        if event.source is not None:
            line["from"] = event.source
        return line
    if isinstance(event, Drew):
        return {"event": "draw", "seat": event.seat, "tile": names[event.tile]}
    if isinstance(event, Discarded):
        return {"event": "discard", "seat": event.seat, "tile": names[event.tile], "to": event.zone}
    if isinstance(event, Passed):
        return {"event": "pass", "seat": event.seat}
    if isinstance(event, HouseActed):
        house: dict[str, Any] = {"event": "house", "seat": event.seat, "rule": event.rule}
        if event.tile is not None:
            house["tile"] = names[event.tile]
        house["returned"] = [names[t] for t in event.returned]
        if event.taken:
            house["taken"] = [names[t] for t in event.taken]
        house["drawn"] = [names[t] for t in event.drawn]
        if event.amount:
            house["amount"] = event.amount
        return house
    if isinstance(event, Moved):
        board = state.figure
        assert isinstance(board, PieceBoard)
        piece = f"{board.colour[event.piece]} {board.kinds[board.kind[event.piece]].name}"
        return {"event": "move", "seat": event.seat, "piece": piece, "from": list(event.origin),
                "path": [list(point) for point in event.path], "turn": event.turn,
                "removed": [list(point) for point in event.removed], "flipped": event.flipped}
    if isinstance(event, ChipsMoved):
        return chips_to_record(event)
    if isinstance(event, Dealt):
        return _deal_record(names, event.seat, event.tiles, event.zone)
    return None


def _deal_record(names: Sequence[str], seat: int | None, tiles: Sequence[int], zone: str | None) -> dict[str, Any]:
    """A ``deal`` line: the tiles dealt to a seat, or laid face up on a shared zone (a stack)."""
    named = [names[t] for t in tiles]
    if zone is not None:
        return {"event": "deal", "zone": zone, "tiles": named}
    return {"event": "deal", "seat": seat, "tiles": named}


def chips_to_record(event: ChipsMoved) -> dict[str, Any]:
    """The ``chips`` line of chips changing hands (``"bank"`` where no seat pays or is paid)."""
    return {"event": "chips", "from": _bank_or(event.payer), "to": _bank_or(event.payee), "count": event.count,
            "reason": event.reason}


def hand_end_record(result: HandResult) -> dict[str, Any]:
    """The ``hand_end`` line of a hand's result: its number, the end rule that fired, the scores."""
    return {"event": "hand_end", "number": result.number, "reason": result.reason, "scores": list(result.scores)}


# ---------------------------------------------------------------------- the wire
#: Every kind of action and of event by its name on the wire (a new kind joins by joining its union).
_ACTIONS: dict[str, type[Action]] = {kind.__name__.lower(): kind for kind in get_args(Action)}
_EVENTS: dict[str, type[Event]] = {kind.__name__.lower(): kind for kind in get_args(Event)}
#: What a wire object is read back into (an action, an event, a move's contact).
Built = TypeVar("Built", bound=attrs.AttrsInstance)
#: The fields that hold several tiles, named on the wire.
_TILE_LISTS = frozenset({"tiles", "returned", "drawn"})


def _json_value(rules: Rules, name: str, value: object) -> object:
    """One field on the wire: tiles by name, tuples (cells, points, paths) as lists, nested values
    (a move's contacts) as objects of their fields."""
    if name == "tile" and isinstance(value, int):
        return rules.tiles.names[value]
    if name in _TILE_LISTS and isinstance(value, tuple):
        return [rules.tiles.names[t] for t in value]
    if isinstance(value, (tuple, list)):
        return [_json_value(rules, "", item) for item in value]
    kind = type(value)
    if attrs.has(kind):
        return {field.name: _json_value(rules, field.name, getattr(value, field.name)) for field in attrs.fields(kind)}
    return value


def _fields_json(rules: Rules, value: attrs.AttrsInstance, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with each field of ``value`` that is set (not None) and compared (not a picture)."""
    for field in attrs.fields(type(value)):
        item = getattr(value, field.name)
        if item is not None and field.eq:
            data[field.name] = _json_value(rules, field.name, item)
    return data


def action_to_json(rules: Rules, action: Action) -> dict[str, Any]:
    """``Play(3, (0, -1))`` -> ``{"action": "play", "tile": "01-05-06", "cell": [0, -1]}``;
    ``Move((5, 0), ((5, 1), (6, 1)))`` -> ``{"action": "move", "origin": [5, 0], "path": [[5, 1], [6, 1]]}``.

    Fields that are None (a draw whose tile is not known yet) are left out. Whatever kind the
    action is, it is ``{"action": <its kind>, <its fields>}``, so a new kind needs no change here.
    """
    return _fields_json(rules, action, {"action": type(action).__name__.lower()})


def event_to_json(rules: Rules, event: Event) -> dict[str, Any]:
    """An engine event on the wire: ``{"kind": "played", "seat": 1, "tile": ..., "points": 10, ...}``."""
    return _fields_json(rules, event, {"kind": type(event).__name__.lower()})


def _from_json(rules: Rules, name: str, value: object, what: str) -> object:
    """One field back from the wire: a tile by its name, lists as tuples, a contact as itself."""
    if name == "tile" and isinstance(value, str):
        return rules.tiles.tile(value)
    if name in _TILE_LISTS and isinstance(value, list):
        return tuple(rules.tiles.tile(item) for item in value)
    if name == "contacts" and isinstance(value, list):
        return tuple(_contact(item, what) for item in value)
    if isinstance(value, list):
        return tuple(_from_json(rules, "", item, what) for item in value)
    return value


def _contact(value: object, what: str) -> Contact:
    if not isinstance(value, dict):
        raise ValueError(f"{what}: a contact is an object of its fields; found {value!r}")
    return _build(Contact, {str(key): _from_json_plain(item) for key, item in value.items()}, what)


def _from_json_plain(value: object) -> object:
    return tuple(_from_json_plain(item) for item in value) if isinstance(value, list) else value


def _build(kind: type[Built], fields: dict[str, object], what: str) -> Built:
    known = {field.name for field in attrs.fields(kind)}
    for field in attrs.fields(kind):  # a field that may be None is left out on the wire when it is
        if field.name not in fields and field.default is attrs.NOTHING and "None" in str(field.type):
            fields[field.name] = None
    unknown = sorted(set(fields) - known)
    if unknown:
        raise ValueError(f"{what} has no field {unknown[0]!r} (its fields: {', '.join(sorted(known)) or 'none'})")
    try:
        return kind(**fields)
    except TypeError:
        missing = sorted(field.name for field in attrs.fields(kind)
                         if field.default is attrs.NOTHING and field.name not in fields)
        raise ValueError(f"{what} lacks {', '.join(repr(name) for name in missing)}") from None


def _read_json(rules: Rules, data: object, key: str, kinds: Mapping[str, type[Built]], noun: str) -> Built:
    """The action or event (``noun``) a wire object names by its ``key``, each field read back."""
    if not isinstance(data, dict) or not isinstance(data.get(key), str):
        raise ValueError(f'an {noun} on the wire is {{"{key}": KIND, FIELD: VALUE, ...}}')
    kind = kinds.get(data[key])
    if kind is None:
        raise ValueError(f"no {noun} {data[key]!r} ({noun}s: {', '.join(kinds)})")
    what = f"a {data[key]} {noun}"
    return _build(kind, {name: _from_json(rules, name, value, what) for name, value in data.items() if name != key},
                  what)


def action_from_json(rules: Rules, data: object) -> Action:
    """The action a wire object names (:func:`action_to_json` read back), or ValueError saying why
    it names none (a tile unknown to the set, a kind or field no action has)."""
    return _read_json(rules, data, "action", _ACTIONS, "action")


def event_from_json(rules: Rules, data: object) -> Event:
    """The event a wire object tells (:func:`event_to_json` read back), or ValueError saying why not."""
    return _read_json(rules, data, "kind", _EVENTS, "event")
