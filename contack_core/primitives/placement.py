"""Placement primitives: where a tile may be laid and what its contacts score."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from contack_core.boards.lattice import (
    MAX_EDGE_COLOURS,
    MAX_EDGE_VALUE,
    NO_OPENINGS,
    SIDE_BITS,
    Cell,
    Figure,
    decode_demand,
    edge_code,
    place_source,
    sides_touched,
)
from contack_core.engine.actions import Play
from contack_core.engine.events import Played, make_played
from contack_core.language.limits import MAX_FIGURE, shown_number
from contack_core.language.programs import Source, define_from
from contack_core.language.quick import construction_source
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

class ContactPlacement(Primitive):
    """Lay a tile so that every edge it touches makes a contact.

    Legal cells, as ``cells`` lists them: ``next-to-last``, the empty cells next to the last
    tile played, and ``openings``, every empty cell touching at least
    ``opening_min_contacts`` tiles, wherever it is (1: any exposed side of the figure).
    Default: both (Parker's ordinary play and its Opportunity Plays); ``[next-to-last]``
    alone allows no opportunity play. ``after_pass``: a pass leaves the target the last tile
    played (``last-tile``, the default), or frees it (``any-exposed-side``: until the next
    play, every empty cell touching the figure counts as next to the last tile).

    Each touching pair of edges must have the same colour (``colours_must_match``) and
    satisfy ``contact`` (``a`` is the new tile's number, ``b`` the touched one's); a pair
    satisfying ``counting`` scores ``points``. Expressions are tabulated over the tile
    numbers at load, and each empty cell's demand is kept incrementally, so finding the
    legal plays is a few dictionary lookups per cell.
    """

    name = "contact-placement"
    slot = "placement"
    schema = {
        "type": "object",
        "required": ["contact", "points"],
        "properties": {
            "cells": {"type": "array", "items": {"enum": ["next-to-last", "openings"]}, "minItems": 1,
                      "uniqueItems": True},
            "opening_min_contacts": {"type": ["integer", "string"]},
            "after_pass": {"enum": ["last-tile", "any-exposed-side"]},
            "colours_must_match": {"type": "boolean"},
            "contact": {"type": ["string", "boolean"]},
            "counting": {"type": ["string", "boolean"]},
            "points": {"type": ["string", "integer"]},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        if context.tiles is None:
            raise PrimitiveError("contact-placement needs a tile set in components", "contact")
        tiles = context.tiles
        domain = {value for values in tiles.values for value in values}  # the printed numbers
        if any(len(values) != 3 for values in tiles.values) or len(tiles.colours) > MAX_EDGE_COLOURS \
                or max(domain) > MAX_EDGE_VALUE:
            # A cell's demand packs each side's edge code into SIDE_BITS (lattice.edge_code).
            raise PrimitiveError(f"contact-placement lays triangular tiles: three edges each, at most "
                                 f"{MAX_EDGE_COLOURS} colours, values 0 to {MAX_EDGE_VALUE}", "contact")
        cells = self.params.get("cells", ["next-to-last", "openings"])
        self.last_played: bool = "next-to-last" in cells
        self.opening_min: int = context.constant(self.params.get("opening_min_contacts", 2), "opening_min_contacts")
        if not isinstance(self.opening_min, int) or not 1 <= self.opening_min <= 3:
            raise PrimitiveError("opening_min_contacts must be 1, 2 or 3 (a cell has three sides)",
                                 "opening_min_contacts")
        if "openings" not in cells:
            self.opening_min = NO_OPENINGS
        self.pass_frees_target = self.params.get("after_pass", "last-tile") == "any-exposed-side"
        self.colours_must_match: bool = self.params.get("colours_must_match", True)
        self.contact_ok = context.table(self.params["contact"], domain, "contact")
        self.counting = context.table(self.params.get("counting", False), domain, "counting")
        self.pair_points = context.table(self.params["points"], domain, "points", whole_number=True)
        for a, row in enumerate(self.pair_points):  # a play's points go into records and totals: bounded
            for b, value in enumerate(row):
                if isinstance(value, int) and abs(value) > MAX_FIGURE:
                    raise PrimitiveError(f"points gives {shown_number(value)} for a={a}, b={b}: a play scores at "
                                         f"most {MAX_FIGURE:,} either way (MAX_FIGURE)", "points")
        self.tiles = tiles
        # side_codes[tile][rotation][side]: the edge code the tile shows on that side,
        # shifted to the side's bits of a demand (see lattice.Figure).
        self.side_codes = [
            [tuple(edge_code(colours[(side - rotation) % 3], values[(side - rotation) % 3]) << (SIDE_BITS * side)
                   for side in range(3)) for rotation in range(3)]
            for values, colours in zip(tiles.values, tiles.edge_colours)
        ]
        # Compiled lookups, filled as demands are met: demand -> {tile: (rotation, points, contacts)}
        # and demand -> a flag per tile, true if it fits; (side, edge code) -> bitmask over
        # tile * 3 + rotation of the turned tiles that may touch that edge on that side.
        self._fits: dict[int, dict[int, tuple[int, int, int]]] = {}
        self._fit_flags: dict[int, tuple[bool, ...]] = {}
        self._side_masks: dict[tuple[int, int], int] = {}
        self._play_objects: dict[Cell, list[Play | None]] = {}
        #: ``play_from(state, seat, zone, tile, cell) -> Played | None``, compiled from
        #: :meth:`play_source`: the play if legal, else None and no change.
        self.play_from: Callable[[GameState, int, list[int], int, Cell], Played | None] = define_from(
            "play_from", ["_state", "_seat", "_zone", "_tile", "_cell"], self.play_source())

    def any_contact(self) -> bool:
        """Whether some edge of one tile of the set may ever touch an edge of another: the
        same colour (where colours must match) and ``contact`` true for the two numbers. When
        none may, no tile can be laid against any other, whatever the deal: validate refuses it."""
        holders: dict[tuple[int, int], set[int]] = {}  # each (colour, number) an edge shows: two tiles showing it
        for tile, (values, colours) in enumerate(zip(self.tiles.values, self.tiles.edge_colours)):
            for value, colour in zip(values, colours):
                found = holders.setdefault((colour, value), set())
                if len(found) < 2:
                    found.add(tile)
        contact_ok, colours_must_match = self.contact_ok, self.colours_must_match
        for (colour, value), new in holders.items():
            for (touched_colour, touched), laid in holders.items():
                if (colour == touched_colour or not colours_must_match) and contact_ok[value][touched] \
                        and any(a != b for a, b in itertools.product(new, laid)):
                    return True
        return False

    # ------------------------------------------------------------------ compiled lookups
    def _compute_fits(self, demand: int) -> dict[int, tuple[int, int, int]]:
        """Fill both tables for ``demand`` (the tiles that may fill a cell with it: tile ->
        (rotation, points, contacts), ``contacts`` being the number of tiles the cell
        touches): intersect the side masks, then score the few (tile, rotation) pairs left,
        keeping each tile's best-scoring rotation (the first of equals). A Contack tile fits a
        cell one way at most; a tile that repeats a colour may fit two ways, and is laid the
        way that scores more."""
        sides = [(side, need) for side, need in enumerate(decode_demand(demand)) if need is not None]
        candidates = -1
        for side, (colour, value) in sides:
            candidates &= self._side_mask(side, colour, value)
        found: dict[int, tuple[int, int, int]] = {}
        values, pair_points = self.tiles.values, self.pair_points
        while candidates > 0:
            lowest = candidates & -candidates
            candidates ^= lowest
            tile, rotation = divmod(lowest.bit_length() - 1, 3)
            points = sum(pair_points[values[tile][(side - rotation) % 3]][value] for side, (_, value) in sides)
            if tile not in found or points > found[tile][1]:
                found[tile] = (rotation, points, len(sides))
        self._fits[demand] = found
        self._fit_flags[demand] = tuple(tile in found for tile in range(len(values)))
        return found

    def _side_mask(self, side: int, colour: int, value: int) -> int:
        """The turned tiles whose edge on ``side`` may touch a ``colour`` edge worth ``value``."""
        key = (side, edge_code(colour, value))
        mask = self._side_masks.get(key)
        if mask is None:
            mask = 0
            for tile, (values, colours) in enumerate(zip(self.tiles.values, self.tiles.edge_colours)):
                for rotation in range(3):
                    edge = (side - rotation) % 3
                    colour_fits = not self.colours_must_match or colours[edge] == colour
                    if colour_fits and self.contact_ok[values[edge]][value]:
                        mask |= 1 << (tile * 3 + rotation)
            self._side_masks[key] = mask
        return mask

    def _play_row(self, cell: Cell) -> list[Play | None]:
        row = self._play_objects.get(cell)
        if row is None:
            row = self._play_objects[cell] = [None] * len(self.tiles)
        return row

    def play_object(self, tile: int, cell: Cell) -> Play:
        """The interned :class:`Play` for ``tile`` on ``cell`` (saves allocations in playouts)."""
        row = self._play_row(cell)
        play = row[tile]
        if play is None:
            play = row[tile] = Play(tile, cell)
        return play

    # ------------------------------------------------------------------ queries on a figure
    def legal_cells(self, figure: Figure) -> list[Cell]:
        """Cells a tile may go to now: the empty cells next to the last tile, and every
        opening (cached on the figure until the next placement)."""
        cells = figure.legal_cells
        if cells is None:
            cells = list(figure.free_next_to_last) if self.last_played else []
            for cell in figure.openings:
                if cell not in cells:
                    cells.append(cell)
            figure.legal_cells = cells
        return cells

    def effect_source(self, kind: str, prefix: str) -> Source:
        """What follows an event of ``kind`` on the figure, as statements over ``_state`` (for
        the ruleset's compiled program): with ``after_pass: any-exposed-side``, a pass makes
        every exposed cell one the next play may go to."""
        if kind != "pass" or not self.pass_frees_target or not self.last_played:
            return Source("")
        return Source("_state.figure.free_next_to_last = _list(_state.figure.demands)\n"
                      "_state.figure.legal_cells = None", {"_list": list})

    def sealed_source(self) -> Source:
        """"No legal cell is left" as a Python expression over ``_state``, for compiled
        programs (the no-legal-cell ending): nothing free next to the last tile, no opening."""
        if self.last_played:
            return Source("not (_state.figure.free_next_to_last or _state.figure.openings)")
        return Source("not _state.figure.openings")

    def plays(self, figure: Figure, tiles: list[int]) -> list[Play]:
        """Every legal play of ``tiles`` on ``figure`` (the innermost loop of a playout):
        per cell, each tile held looked up in the flags of the tiles that fit its demand.
        (Plain indexing, as the hand is a handful of tiles: bitmask arithmetic on 36-bit
        ints runs through more of the interpreter's code, and callgrind's cache simulation
        counted it among the largest sources of instruction-cache misses.)"""
        cells = figure.legal_cells
        if cells is None:  # legal_cells(figure) spelt out: it costs a call per placement
            cells = list(figure.free_next_to_last) if self.last_played else []
            for cell in figure.openings:
                if cell not in cells:
                    cells.append(cell)
            figure.legal_cells = cells
        demands = figure.demands
        fit_flags = self._fit_flags
        rows = self._play_objects
        out: list[Play] = []
        for cell in cells:
            fits = fit_flags.get(demands[cell])
            if fits is None:
                self._compute_fits(demands[cell])
                fits = fit_flags[demands[cell]]
            row = None
            for tile in tiles:
                if fits[tile]:
                    if row is None:
                        row = rows.get(cell) or self._play_row(cell)
                    out.append(row[tile] or self.play_object(tile, cell))
        return out

    def play_source(self) -> Source:
        """Moving ``_tile`` from ``_zone`` (a list that holds it) onto ``_cell`` for ``_seat``,
        as Python statements over ``_state``: they return None, changing nothing, if the play
        is not legal, else the :class:`Played`. Every play of a playout runs them, so the
        figure's placement (:func:`contack_core.boards.lattice.place_source`, specialised to this
        rule's openings) and the event's construction are inlined; :attr:`play_from` is
        compiled from them, and a play rule may inline them in turn."""
        legal_cell = "_cell in _figure.openings"
        if self.last_played:
            legal_cell += " or _cell in _figure.free_next_to_last"
        played = construction_source(Played, "_event", ["_seat", "_tile", "_cell", "_points", "_contacts",
                                                        "_contacts >= 2", "None"])
        lines = [
            "_figure = _state.figure",
            f"if not ({legal_cell}):",
            "    return None",
            "_demand = _figure.demands[_cell]",
            "_fits = _fits_by_demand.get(_demand)",
            "_fit = (_fits if _fits is not None else _compute_fits(_demand)).get(_tile)",
            "if _fit is None:",
            "    return None",
            "_zone.remove(_tile)",
            "_rotation, _points, _contacts = _fit",
            "_codes = _side_codes[_tile][_rotation]",
            *place_source(self.opening_min),
            *played.code.splitlines(),
            "return _event",
        ]
        return Source("\n".join(lines), {"_fits_by_demand": self._fits, "_compute_fits": self._compute_fits,
                                          "_side_codes": self.side_codes, "sides_touched": sides_touched,
                                          **played.bindings})

    def agreed_play(self, state: GameState, seat: int, zone: list[int], tile: int, cell: Cell) -> Played | None:
        """``tile`` from ``zone`` laid on ``cell`` although its numbers make no contact there, or the
        cell is not one the next play may go to: a play the people at the table let stand. It is
        turned the way its colours meet (where colours must match), the way that scores most, and
        scores the counting contacts it does make. None, changing nothing, if the cell is taken or
        touches no tile, or no turn of the tile meets the colours."""
        figure = state.figure
        demand = figure.demands.get(cell)
        if not demand or cell in figure.tile_at:
            return None
        sides = [(side, need) for side, need in enumerate(decode_demand(demand)) if need is not None]
        values, colours = self.tiles.values[tile], self.tiles.edge_colours[tile]
        best: tuple[int, int] | None = None
        for rotation in range(3):
            edges = [((side - rotation) % 3, need) for side, need in sides]
            if self.colours_must_match and any(colours[edge] != need[0] for edge, need in edges):
                continue
            points = sum(self.pair_points[values[edge]][need[1]] for edge, need in edges)
            if best is None or points > best[1]:
                best = (rotation, points)
        if best is None:
            return None
        zone.remove(tile)
        return self.place(state, seat, tile, cell, *best)

    def place(self, state: GameState, seat: int, tile: int, cell: Cell, rotation: int, points: int) -> Played:
        figure = state.figure
        contacts = figure.touching(cell)
        figure.place(tile, cell, rotation, self.side_codes[tile][rotation])
        return make_played(seat, tile, cell, points, contacts, contacts >= 2, None)

    def contacts_of(self, figure: Figure, cell: Cell) -> list[dict[str, Any]]:
        """The contacts a placed tile makes with its neighbours (for narration and pictures)."""
        tile, rotation = figure.tile_at[cell], figure.rotation(cell)
        out = []
        for side, neighbour in enumerate(figure.neighbours(cell)):
            other = figure.tile_at.get(neighbour)
            if other is None:
                continue
            edge = (side - rotation) % 3
            other_edge = (side - figure.rotation(neighbour)) % 3
            mine, theirs = self.tiles.values[tile][edge], self.tiles.values[other][other_edge]
            out.append({
                "colour": self.tiles.edge_colour(tile, edge),
                "mine": mine,
                "theirs": theirs,
                "counting": bool(self.counting[mine][theirs]),
                "points": self.pair_points[mine][theirs],
                "contact": bool(self.contact_ok[mine][theirs]),  # false only where the table let a misfit stand
                "neighbour": neighbour,
            })
        return out

    def explain_misfit(self, figure: Figure, tile: int, cell: Cell) -> str:
        """Why ``tile`` may not go on ``cell`` (slow path, for error messages)."""
        if cell in figure.tile_at:
            return f"cell {list(cell)} is already taken"
        if cell not in figure.demands:
            return f"cell {list(cell)} touches no tile of the figure"
        if cell not in self.legal_cells(figure):
            if self.opening_min == NO_OPENINGS:
                return f"cell {list(cell)} is not next to the last tile played (this ruleset has no opportunity plays)"
            if not self.last_played:
                return f"cell {list(cell)} is not an opening touching {self.opening_min} tiles"
            return (f"cell {list(cell)} is neither next to the last tile played nor an opening "
                    f"touching {self.opening_min} tiles")
        demand = decode_demand(figure.demands[cell])
        tiles = self.tiles
        values, colours = tiles.values[tile], tiles.edge_colours[tile]
        # The turn that matches the most colours, to name the edges that then fail.
        rotation = max(range(3), key=lambda r: sum(need is not None and colours[(side - r) % 3] == need[0]
                                                   for side, need in enumerate(demand)))
        for side, need in enumerate(demand):
            if need is None:
                continue
            edge = (side - rotation) % 3
            mine, theirs = tiles.colours[colours[edge]], tiles.colours[need[0]]
            if self.colours_must_match and colours[edge] != need[0]:
                return f"the {mine} edge would touch a {theirs} edge: colours must match"
            if not self.contact_ok[values[edge]][need[1]]:
                return f"{mine} {values[edge]} against {theirs} {need[1]} neither matches nor counts"
        return f"tile does not fit cell {list(cell)}"
