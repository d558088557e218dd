"""The nearest legal events to a line that breaks a rule: what its writer most likely meant.

A record typed in by hand goes wrong by a slip: a digit of a tile mistyped, a neighbouring
cell, the wrong seat. Given the position just before the bad line, every event that could
legally come there is made (each action applied to a copy of the state and written as a
record line) and ranked by how little of the typed line it changes, each kind of slip
weighed by how easily it is made. The score keeper uses the same ranking for the closest
legal alternatives to an entry it refuses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from contack_core.engine.actions import Action, Deal, Draw, IllegalAction, Play, Shuffle
from contack_core.engine.state import GameState
from contack_core.engine.events import Played
from contack_core.engine.notation import event_to_record, hand_end_record, name_distance, recorded_action
from contack_core.records.format import game_end_line

#: What each slip costs; a candidate's cost is the sum over the fields where it differs.
KIND_COST = 10.0  # another kind of event altogether
SEAT_COST = 3.0  # the wrong seat
DIGIT_COST = 2.5  # each digit of a tile's name typed wrong
COORDINATE_COST = 2.5  # each coordinate of a cell or point typed wrong ...
DISTANCE_COST = 0.3  # ... and each step it lies away from the one meant
POINTS_COST = 3.0  # a total worked out or copied wrong
FIELD_COST = 2.0  # any other field

#: The keys every line of a kind states (the rest are optional, shown only if the typed line has them).
_REQUIRED = {"play": ("seat", "tile", "cell"), "draw": ("seat", "tile"), "discard": ("seat", "tile"),
             "house": ("seat", "rule"), "pass": ("seat",), "move": ("seat", "from", "path"),
             "deal": ("seat", "zone", "tiles"), "hand": ("number",), "hand_end": ("number", "scores"),
             "game_end": ("totals", "winners")}


@attrs.frozen
class Candidate:
    """An event that may legally come next: the action behind it (None for a line that only
    states a result) and its record line, with every field filled in."""

    action: Action | None
    line: dict[str, Any]


def next_events(state: GameState, typed: dict[str, Any] | None = None) -> list[Candidate]:
    """Every event that may legally come next from ``state`` (left untouched): the seat's legal
    actions (a draw once for every tile that may be drawn), the opening tiles of a figure opened
    by chance, deals that mend the ``typed`` one, and the results due now."""
    state = _past_shuffles(state.clone())
    candidates: list[Candidate] = []
    kind = (typed or {}).get("event")
    if kind == "hand" and not state.is_over():
        candidates.append(Candidate(None, {"event": "hand", "number": state.hand_number}))
    if kind == "hand_end" and state.hand_results:
        result = state.hand_results[-1]
        candidates.append(Candidate(None, hand_end_record(result)))
    if kind == "game_end" and state.is_over():
        candidates.append(Candidate(None, game_end_line(state)))
    if state.is_over():
        return candidates
    tiles = range(len(state.rules.tiles))
    actions: Iterable[Action]
    if state.is_chance_node():
        try:
            outcome: Action | None = state.clone().sample_chance(random.Random(0))
        except IllegalAction:  # nothing left to deal or open with
            outcome = None
        if isinstance(outcome, Play):  # the figure opens with a tile left to chance
            actions = [Play(tile, outcome.cell) for tile in tiles]
        elif isinstance(outcome, Deal) and kind == "deal":
            actions = _mended_deals(state, outcome, typed or {})
        else:
            actions = []
    else:
        actions = []
        for action in state.legal_actions():
            if type(action) is Draw and action.tile is None:
                actions.extend(Draw(tile) for tile in tiles)
            else:
                actions.append(action)
    for action in actions:
        trial = state.clone()
        try:
            event = trial.apply(action)
        except IllegalAction:
            continue
        line = event_to_record(trial, event)
        if line is not None:
            candidates.append(Candidate(action, line))
    return candidates


def _past_shuffles(state: GameState) -> GameState:
    """The state once the shuffles due are made (a record never states one)."""
    rng = random.Random(0)
    while state.is_chance_node():
        try:
            outcome = state.clone().sample_chance(rng)
        except IllegalAction:
            break
        if not isinstance(outcome, Shuffle):
            break
        state.apply(outcome)
    return state


def _mended_deals(state: GameState, due: Deal, typed: dict[str, Any]) -> list[Deal]:
    """The typed deal sent where the deal is due, each tile that may not be dealt replaced by
    the nearest tiles (by name) that may: a few deals, the likeliest first."""
    tiles = state.rules.tiles
    source = state.locate(due.tiles[0]) if due.tiles else None
    dealable = list(state.zones.get(source, [])) if source else []
    listed = typed.get("tiles")
    named = [name if isinstance(name, str) else "" for name in listed] if isinstance(listed, list) else []
    if len(named) != len(due.tiles):
        return []
    chosen: list[int | None] = []
    for name in named:
        tile = tiles.names.index(name) if name in tiles.names else None
        chosen.append(tile if tile in dealable and tile not in chosen else None)
    bad = [i for i, tile in enumerate(chosen) if tile is None]
    if not bad:
        return [Deal(due.seat, tuple(tile for tile in chosen if tile is not None), due.zone)]  # no tile is None here
    free = [tile for tile in dealable if tile not in chosen]
    deals = []
    for first in sorted(free, key=lambda t: name_distance(named[bad[0]], tiles.names[t]))[:3]:
        mended, left = list(chosen), [t for t in free if t != first]
        mended[bad[0]] = first
        for i in bad[1:]:
            distance = {t: name_distance(named[i], tiles.names[t]) for t in left}
            mended[i] = pick = min(left, key=distance.__getitem__)
            left.remove(pick)
        deals.append(Deal(due.seat, tuple(tile for tile in mended if tile is not None), due.zone))  # every one mended
    return deals


def nearest_events(state: GameState, typed: dict[str, Any], count: int = 3) -> list[dict[str, Any]]:
    """The ``count`` legal events nearest to the ``typed`` line, most likely meant first, each
    written with the optional fields the typed line states (so it can replace it)."""
    return [shown(c.line, typed) for c in ranked(next_events(state, typed), typed)[:count]]


def ranked(candidates: list[Candidate], typed: dict[str, Any]) -> list[Candidate]:
    """``candidates`` cheapest first (a stable sort: ties keep the engine's order)."""
    return sorted(candidates, key=lambda c: line_cost(typed, c.line))


def shown(line: dict[str, Any], typed: dict[str, Any]) -> dict[str, Any]:
    """``line`` with its required fields and the optional ones ``typed`` states."""
    required = _REQUIRED.get(line["event"], ())
    return {key: value for key, value in line.items() if key == "event" or key in required or key in typed}


def line_cost(typed: dict[str, Any], meant: dict[str, Any]) -> float:
    """How unlikely it is that someone meaning ``meant`` typed ``typed``: the sum of the slips."""
    cost = 0.0 if typed.get("event") == meant["event"] else KIND_COST
    for key, value in meant.items():
        if key == "event" or key not in typed or typed[key] == value:
            continue
        given = typed[key]
        if key == "seat":
            cost += SEAT_COST
        elif key == "tile":
            cost += tile_cost(given, value)
        elif key in ("cell", "from") and isinstance(value, list):
            cost += point_cost(given, value)
        elif key == "points":
            cost += POINTS_COST
        elif key in ("tiles", "path", "removed") and isinstance(given, list):
            cost += _list_cost(given, value, tile_cost if key == "tiles" else point_cost)
        else:
            cost += FIELD_COST
    return cost


def tile_cost(typed: object, meant: str) -> float:
    """A tile named wrong: each digit mistyped, or its values read from another colour."""
    if not isinstance(typed, str):
        return 2 * DIGIT_COST
    values, wanted = typed.split("-"), meant.split("-")
    if sorted(values) == sorted(wanted):
        return DIGIT_COST
    return DIGIT_COST * min(name_distance(typed, meant), 3)


def point_cost(typed: object, meant: list[int]) -> float:
    """A cell or point written wrong: the coordinates that differ, and how far it lies."""
    if not (isinstance(typed, list) and len(typed) == len(meant) and all(isinstance(v, int) for v in typed)):
        return 2 * COORDINATE_COST
    coordinates: list[int] = typed
    differing = sum(a != b for a, b in zip(coordinates, meant))
    distance = sum(abs(a - b) for a, b in zip(coordinates, meant))
    return COORDINATE_COST * differing + DISTANCE_COST * min(distance, 10)


def _list_cost(typed: list[object], meant: list[Any], cost: Callable[[object, Any], float]) -> float:
    if len(typed) != len(meant):
        return FIELD_COST * (1 + abs(len(typed) - len(meant)))
    return sum((cost(a, b) for a, b in zip(typed, meant) if a != b), 0.0)


#: How many lines from the bad one on an insertion is tried against: enough, most often, to reach a
#: later move of the piece a left-out move moved (which then starts where that move ended).
INSERTION_REACH = 40


def insertions(state: GameState, lines: list[dict[str, Any]], count: int = 3) -> list[dict[str, Any]]:
    """Lines that, inserted before ``lines[0]`` (the bad line, then those after it), make it hold:
    a left-out move, a forgotten draw. Each legal event of ``state`` is tried; those after which the
    bad line holds are ranked by how many of the lines after it hold too (a left-out move is found
    by the later moves that start where it ended), most first, at most ``count``."""
    base = _past_shuffles(state.clone())
    scored: list[tuple[int, int, dict[str, Any]]] = []
    for order, candidate in enumerate(next_events(base)):
        if candidate.action is None:
            continue
        trial = base.clone()
        try:
            trial.apply(candidate.action)
        except IllegalAction:
            continue
        held = _lines_holding(trial, lines[:INSERTION_REACH])
        if held:
            scored.append((-held, order, candidate.line))
    scored.sort(key=lambda item: item[:2])
    return [line for _, _, line in scored[:count]]


def _lines_holding(state: GameState, lines: list[dict[str, Any]]) -> int:
    """How many of the action ``lines`` hold in turn from ``state`` (changed), stopping at the first
    that does not (lines that state results are passed over, counting nothing)."""
    held = 0
    tiles = state.rules.tiles
    for data in lines:
        kind = data.get("event")
        if kind not in ("deal", "play", "draw", "discard", "pass", "move"):
            continue
        state = _past_shuffles(state)
        try:
            action = recorded_action(tiles, data)
            if kind != "deal" and not state.is_chance_node() and data.get("seat") != state.current:
                return held
            event = state.apply(action)
        except (IllegalAction, ValueError, KeyError, TypeError, IndexError):
            return held
        if isinstance(event, Played) and "points" in data and data["points"] != event.points:
            return held
        if kind == "move":
            stated = event_to_record(state, event) or {}
            if any(key in data and data[key] != stated[key] for key in ("piece", "turn", "removed", "flipped")):
                return held
        held += 1
    return held
