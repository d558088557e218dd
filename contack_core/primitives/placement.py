"""Placement primitives: where a tile may be laid and what its contacts score."""

from __future__ import annotations

import math
import itertools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from contack_core.boards.lattice import (
    MAX_EDGE_COLOURS,
    MAX_EDGE_VALUE,
    NO_OPENINGS,
    Pattern,
    SIDE_BITS,
    Cell,
    Figure,
    decode_demand,
    edge_code,
    figure_of,
    place_source,
    sides_touched,
)
from contack_core.engine.actions import Action, Play
from contack_core.engine.events import Played, make_played
from contack_core.language.expressions import Expression
from contack_core.language.limits import MAX_FIGURE, shown_number
from contack_core.language.programs import Source, define_from
from contack_core.language.quick import construction_source
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.slots import Contact
    from contack_core.engine.state import GameState

#: What a placement's ``legal`` and ``play_points`` read about a tile in a cell (besides the
#: options, and ``<kind>_contacts`` for each of its ``kinds``).
FIT_MEANINGS: Mapping[str, str] = {
    "contacts": "how many tiles the cell touches",
    "off_colour": "contacts whose two edges differ in colour",
    "failing": "contacts whose two numbers fail `contact`",
    "counting": "contacts whose two numbers satisfy `counting`",
    "points": "the pairs' points added up (what the play scores without `play_points`)",
}


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

    A house rule may weigh a play's contacts together instead (:data:`FIT_MEANINGS` lists
    what these formulas read): ``kinds`` names kinds of contact by a formula over ``a`` and
    ``b`` (each then counted as ``<kind>_contacts``, here and in every formula about a play);
    ``legal`` replaces the all-or-nothing rule above (a tile may go where ``legal`` is true,
    so one contact off colour may be allowed, or a play touching three tiles required to
    count twice); ``play_points`` replaces the sum of the pairs' points (a price on an
    exception, a bonus for a kind). Worked out once per kind of cell, like the tables.

    ``shapes`` names shapes of cells, each drawn once as its cells (``[x, y]``, as records
    name cells; all joined side to side); every formula about a play then reads
    ``<shape>_shapes``, how many of that shape (in any turn or mirror image) the play
    completes. Each shape's placements are worked out at load for an up and a down cell.
    """

    name = "contact-placement"
    slot = "placement"
    colours_must_match: bool
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
            "kinds": {"type": "object", "propertyNames": {"pattern": "^[A-Za-z][A-Za-z0-9_]*(?!\\n)$"},
                      "additionalProperties": {"type": ["string", "boolean"]}, "maxProperties": 8},
            "shapes": {"type": "object", "propertyNames": {"pattern": "^[A-Za-z][A-Za-z0-9_]*(?!\\n)$"},
                       "additionalProperties": {
                           "type": "array", "minItems": 2, "maxItems": 24, "uniqueItems": True,
                           "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
                       "maxProperties": 8},
            "legal": {"type": ["string", "boolean"]},
            "play_points": {"type": ["string", "integer"]},
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
        scoreless = next(((a, b) for a in sorted(domain) for b in sorted(domain)
                          if self.counting[a][b] and self.contact_ok[a][b] and not self.pair_points[a][b]), None)
        if scoreless is not None:  # a counting contact worth nothing: `counting` changed without `points`
            a, b = scoreless
            raise PrimitiveError(f"counting makes {a} against {b} a counting contact, but points gives it 0: it "
                                 f"would score nothing (change points with counting, as examples/threes does)",
                                 "counting")
        self.tiles = tiles
        self._build_fit_formulas(context, domain)
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

    def _build_fit_formulas(self, context: BuildContext, domain: set[int]) -> None:
        """``kinds``, ``legal`` and ``play_points``, compiled and checked over every count
        a cell's three sides allow."""
        kinds = self.params.get("kinds", {})
        #: ``kind_tables[name][a][b]``: whether two touching numbers make a contact of that kind.
        self.kind_tables: dict[str, list[list[Any]]] = {
            name: context.table(source, domain, f"kinds.{name}") for name, source in kinds.items()}
        #: The named shapes a play may complete (``<shape>_shapes`` in formulas about a play).
        self.shapes: dict[str, Pattern] = {}
        for name, cells in self.params.get("shapes", {}).items():
            shape = Pattern.of((x, y) for x, y in cells)
            if not shape.joined():
                raise PrimitiveError(f"shape {name} is not one piece: each cell must share a side with "
                                     f"another of its cells", f"shapes.{name}")
            self.shapes[name] = shape
        names = [*FIT_MEANINGS, *(f"{name}_contacts" for name in kinds)]
        counts: dict[str, Any] = {name: range(4) for name in names}
        pair_values = [value for row in self.pair_points for value in row if value is not None]
        counts["points"] = range(3 * min(0, *pair_values), 3 * max(0, *pair_values) + 1)
        self.legal: Expression | None = None
        self.fit_points: Expression | None = None
        if "legal" in self.params:
            self.legal = context.expression(self.params["legal"], names, "legal")
            context.check_over(self.legal, {**counts, "contacts": range(1, 4)}, "legal")
        if "play_points" in self.params:
            self.fit_points = context.expression(self.params["play_points"], names, "play_points", whole_number=True)
            context.check_over(self.fit_points, {**counts, "contacts": range(1, 4)}, "play_points", MAX_FIGURE)

    def fit_facts(self, tile: int, rotation: int, sides: list[tuple[int, tuple[int, int]]]) -> dict[str, int]:
        """What ``legal`` and ``play_points`` read of ``tile`` turned by ``rotation`` in a cell
        whose touched ``sides`` demand (colour, value): see :data:`FIT_MEANINGS`."""
        values, colours = self.tiles.values[tile], self.tiles.edge_colours[tile]
        facts = dict.fromkeys(FIT_MEANINGS, 0)
        facts.update((f"{name}_contacts", 0) for name in self.kind_tables)
        facts["contacts"] = len(sides)
        for side, (colour, value) in sides:
            edge = (side - rotation) % 3
            mine = values[edge]
            facts["off_colour"] += colours[edge] != colour
            facts["failing"] += not self.contact_ok[mine][value]
            facts["counting"] += bool(self.counting[mine][value])
            facts["points"] += self.pair_points[mine][value]
            for name, table in self.kind_tables.items():
                facts[f"{name}_contacts"] += bool(table[mine][value])
        return facts

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
                if not any(a != b for a, b in itertools.product(new, laid)):
                    continue
                if self.legal is not None:
                    tile = next(iter(new))
                    edge = next(e for e, (v, c) in enumerate(zip(self.tiles.values[tile], self.tiles.edge_colours[tile]))
                                if (c, v) == (colour, value))
                    if self.legal.evaluate(self.fit_facts(tile, 0, [(edge, (touched_colour, touched))])):
                        return True
                elif (colour == touched_colour or not colours_must_match) and contact_ok[value][touched]:
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
        values, pair_points = self.tiles.values, self.pair_points
        if self.legal is None:
            candidates = -1
            for side, (colour, value) in sides:
                candidates &= self._side_mask(side, colour, value)
        else:  # every turned tile, each weighed by the rule's own formula
            candidates = (1 << (3 * len(values))) - 1
        found: dict[int, tuple[int, int, int]] = {}
        while candidates > 0:
            lowest = candidates & -candidates
            candidates ^= lowest
            tile, rotation = divmod(lowest.bit_length() - 1, 3)
            if self.legal is None and self.fit_points is None:
                points = sum(pair_points[values[tile][(side - rotation) % 3]][value] for side, (_, value) in sides)
            else:
                facts = self.fit_facts(tile, rotation, sides)
                if self.legal is not None and not self.legal.evaluate(facts):
                    continue
                points = facts["points"] if self.fit_points is None else self.fit_points.evaluate(facts)
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

    @property
    def points_step(self) -> int | None:
        steps = {value for row in self.pair_points for value in row if value}
        return math.gcd(*steps) if steps and self.fit_points is None else None

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

    def plays(self, figure: Figure, tiles: list[int]) -> list[Action]:
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
        out: list[Action] = []
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

    def plays_source(self, tiles: str) -> Source:
        """:meth:`plays` of the tiles the statements ``tiles`` leave in ``_tiles``, on ``_state.figure``, as
        Python statements leaving the plays in ``_found``: the compiled turn program runs them
        in its own frame, a call a decision fewer. :meth:`plays` is the readable version, and
        tests compare the two at every decision of random games."""
        lines = [
            "_fig = _state.figure",
            "_cells = _fig.legal_cells",
            "if _cells is None:",
            "    _cells = _list(_fig.free_next_to_last)" if self.last_played else "    _cells = []",
            "    for _cell in _fig.openings:",
            "        if _cell not in _cells:",
            "            _cells.append(_cell)",
            "    _fig.legal_cells = _cells",
            *tiles.splitlines(),
            "_demands = _fig.demands",
            "_found = []",
            "for _cell in _cells:",
            "    _fits = _fit_flags.get(_demands[_cell])",
            "    if _fits is None:",
            "        _compute_fits(_demands[_cell])",
            "        _fits = _fit_flags[_demands[_cell]]",
            "    _row = None",
            "    for _tile in _tiles:",
            "        if _fits[_tile]:",
            "            if _row is None:",
            "                _row = _rows.get(_cell) or _play_row(_cell)",
            "            _found.append(_row[_tile] or _play_object(_tile, _cell))",
        ]
        return Source("\n".join(lines), {"_list": list, "_fit_flags": self._fit_flags,
                                          "_compute_fits": self._compute_fits, "_rows": self._play_objects,
                                          "_play_row": self._play_row, "_play_object": self.play_object})

    def play_source(self, source: str = "None", refuse: str = "return None", returns: bool = True) -> Source:
        """Moving ``_tile`` from ``_zone`` (a list that holds it) onto ``_cell`` for ``_seat``,
        as Python statements over ``_state``: they run ``refuse`` (by default, return None),
        changing nothing, if the play is not legal, else return the :class:`Played` (its
        ``source``: the expression ``source``), or with ``returns=False`` leave it in ``_event``.
        Every play of a playout runs them, so the figure's placement
        (:func:`contack_core.boards.lattice.place_source`, specialised to this rule's openings)
        and the event's construction are inlined; :attr:`play_from` is compiled from them, and
        a play rule may inline them in turn."""
        legal_cell = "_cell in _figure.openings"
        if self.last_played:
            legal_cell += " or _cell in _figure.free_next_to_last"
        played = construction_source(Played, "_event", ["_seat", "_tile", "_cell", "_points", "_contacts",
                                                        "_contacts >= 2", source])
        lines = [
            "_figure = _state.figure",
            f"if not ({legal_cell}):",
            f"    {refuse}",
            "_demand = _figure.demands[_cell]",
            "_fits = _fits_by_demand.get(_demand)",
            "_fit = (_fits if _fits is not None else _compute_fits(_demand)).get(_tile)",
            "if _fit is None:",
            f"    {refuse}",
            "_zone.remove(_tile)",
            "_rotation, _points, _contacts = _fit",
            "_codes = _side_codes[_tile][_rotation]",
            *place_source(self.opening_min),
            *played.code.splitlines(),
            *(["return _event"] if returns else []),
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
        figure = figure_of(state.figure)
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
        figure = figure_of(state.figure)
        contacts = figure.touching(cell)
        figure.place(tile, cell, rotation, self.side_codes[tile][rotation])
        return make_played(seat, tile, cell, points, contacts, contacts >= 2, None)

    def lift_last(self, figure: Figure) -> tuple[Cell, int]:
        return figure.lift_last(self.side_codes)

    def contacts_of(self, figure: Figure, cell: Cell) -> list[Contact]:
        """The contacts a placed tile makes with its neighbours (for narration, pictures and
        the formulas about a play)."""
        tile, rotation = figure.tile_at[cell], figure.rotation(cell)
        out: list[Contact] = []
        for side, neighbour in enumerate(figure.neighbours(cell)):
            other = figure.tile_at.get(neighbour)
            if other is None:
                continue
            edge = (side - rotation) % 3
            other_edge = (side - figure.rotation(neighbour)) % 3
            mine, theirs = self.tiles.values[tile][edge], self.tiles.values[other][other_edge]
            counting = bool(self.counting[mine][theirs])
            same_colour = self.tiles.edge_colours[tile][edge] == self.tiles.edge_colours[other][other_edge]
            out.append({
                "colour": self.tiles.edge_colour(tile, edge),
                "mine": mine,
                "theirs": theirs,
                "counting": counting,
                # what the contact is: "counting", "matching", or "missed" (numbers that fail
                # `contact`, or colours that differ, which a house rule's `legal` may allow)
                "kind": "counting" if counting else "matching" if self.contact_ok[mine][theirs] and same_colour
                else "missed",
                "points": self.pair_points[mine][theirs],
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
        if self.legal is not None:
            sides = [(side, need) for side, need in enumerate(demand) if need is not None]
            facts = min((self.fit_facts(tile, rotation, sides) for rotation in range(3)),
                        key=lambda f: (f["off_colour"] + f["failing"], f["off_colour"]))
            return (f"touching {facts['contacts']} tile{'s' if facts['contacts'] > 1 else ''} with "
                    f"{facts['off_colour']} off colour and {facts['failing']} whose numbers fail, at best, "
                    f"the play breaks legal: {self.params['legal']}")
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
