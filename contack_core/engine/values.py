"""The named values a ruleset's expressions read at play time, and where each comes from.

Every name is the engine's own Python expression over the state (``_state``) and the seat the
expression is about (``_seat``: the seat to act in a turn's ``when``, the seat whose action it
was in what follows an event, each seat in turn at the end of a hand or game). The compiled
programs of :mod:`contack_core.language.programs` inline these expressions where a ruleset's
formula reads the name, so reading a value costs what computing it costs and nothing more.

One vocabulary for every place, so a house rule can read the same things wherever it is
written; docs/house-rules.md lists them. Names come from the ruleset's own zones and
counters, made into identifiers (a zone ``discard-2`` is read as ``discard_2_count``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from contack_core.boards.grid import PieceBoard
from contack_core.boards.lattice import cells_around, cells_at, corners, figure_of, line_lengths

if TYPE_CHECKING:
    from contack_core.engine.events import Moved, Played
    from contack_core.engine.slots import Board, Zone
    from contack_core.engine.state import GameState

#: Values of the game as a whole.
GAME_VALUES: Mapping[str, str] = {
    "seats": "_state.seat_count",
    "hand_number": "_state.hand_number",
    "hands_played": "len(_state.hand_results)",
    "turns": "_state.turns",
    "passes": "_state.passes",
    "drawn": "_state.drawn",
    "figure_tiles": "len(_state.figure.tile_at)",
}

#: What each value of :data:`GAME_VALUES` means, for the docs and error messages.
MEANINGS: Mapping[str, str] = {
    "seats": "the number of seats",
    "hand_number": "the hand being played (1 for the first)",
    "hands_played": "hands finished so far",
    "turns": "decisions taken so far in the game",
    "passes": "passes in a row",
    "drawn": "tiles the seat to act has drawn this turn",
    "figure_tiles": "tiles in the figure",
    "open_next_to_last": "empty cells next to the last tile played (0: it is closed in on every side)",
    "openings": "empty cells touching enough tiles for an opportunity play",
    "last_hand_score": "the seat's net score in the last hand (in the match's counter; 0 in the first hand)",
    "won_last_hand": "1 when the seat won the last hand (the match's hand_winner says who wins a hand), else 0",
    "went_out_last": "1 when the seat played its last tile in the last hand, else 0",
    "hands_won": "hands the seat has won so far (the match's hand_winner says who wins a hand)",
    "contact_distance": "(a board of pieces) the fewest single steps between the seat's side and a piece of another "
                        "side (0 when either has none left)",
    "went_out": "(at a hand's end) 1 for the seat that played its last tile, else 0",
    "hand_score": "(at a hand's end) the seat's net score this hand in the match's counter, as it stands",
    "won_hand": "(at a hand's end) 1 when the seat wins this hand as it stands (the match's hand_winner)",
}

#: Values about each seat in the hands already played: the last hand's result, hands won so far.
#: The set-up of a hand (who leads it) and every other formula read them; before the first
#: hand has ended each is 0.
PAST_HAND_VALUES: Mapping[str, str] = {
    "last_hand_score": "_last_hand_score(_state, _seat)",
    "won_last_hand": "_won_last_hand(_state, _seat)",
    "went_out_last": "_went_out_last(_state, _seat)",
    "hands_won": "_hands_won(_state, _seat)",
}


def last_hand_score(state: GameState, seat: int) -> int:
    """``seat``'s net score in the hand played last (the match's counter), 0 before any."""
    results = state.hand_results
    return results[-1].scores[seat] if results else 0


def went_out_last(state: GameState, seat: int) -> int:
    """1 when ``seat`` played its last tile in the hand played last."""
    results = state.hand_results
    return int(bool(results) and results[-1].went_out == seat)


def won_last_hand(state: GameState, seat: int) -> int:
    """1 when ``seat`` is among the winners of the hand played last (see ``hand_winners``)."""
    results = state.hand_results
    return int(bool(results) and seat in state.rules.match.hand_winners(state, results[-1]))


def hand_score_now(state: GameState, seat: int) -> int:
    """``seat``'s net score in the hand being ended, in the match's counter, as it stands."""
    return state.hand_gains[state.rules.match.counter][seat]


def won_hand_now(state: GameState, seat: int) -> int:
    """1 when ``seat`` wins the hand being ended as it stands (see ``hand_winners``): read at
    the end of a hand, after the match's counter has been worked out (a counter reading it says
    ``after: [<that counter>]``)."""
    match = state.rules.match
    scores = tuple(state.hand_gains[match.counter])
    return int(seat in match.winners_of_hand(scores, tuple(state.tiles_held()), state.went_out))


def hands_won(state: GameState, seat: int) -> int:
    """How many of the hands played so far ``seat`` won (ties: every tied seat wins)."""
    winners = state.rules.match.hand_winners
    return sum(1 for result in state.hand_results if seat in winners(state, result))


def identifier(key: str) -> str:
    """``key`` made a name a formula can spell: ``discard-2`` -> ``discard_2``."""
    name = re.sub(r"\W", "_", key)
    return name if name[:1].isalpha() else f"_{name}" if name else "_"


def zone_values(zones: Mapping[str, Zone]) -> dict[str, str]:
    """``<zone>_count`` for every zone: a shared pile's size, a per-seat zone's for ``_seat``."""
    values = {}
    for key, zone in zones.items():
        where = f"_state.seat_zones[{key!r}][_seat]" if zone.per_seat else f"_state.zones[{key!r}]"
        values[f"{identifier(key)}_count"] = f"len({where})"
    return values


def house_book(key: str) -> str:
    """The state's ledger book where the house action ``key`` counts each seat's uses: (hand, seat)
    -> times, the hand 0 for a rule limited per game (or not at all)."""
    return f"turn.{key}"


def house_uses(state: GameState, seat: int, key: str) -> int:
    """How many times ``seat`` has taken the house action ``key`` in the game so far."""
    return sum(times for (_, who), times in state.ledger.get(house_book(key), {}).items() if who == seat)


def house_values(house_actions: Iterable[str]) -> dict[str, str]:
    """``<rule>_uses`` for every house action: how many times ``_seat`` has taken it this game."""
    return {f"{identifier(key)}_uses": f"_house_uses(_state, _seat, {key!r})" for key in house_actions}


def house_event_values(house_actions: Iterable[str]) -> dict[str, str]:
    """``<rule>_action`` for every house action: 1 when a house event is that rule's action, else 0
    (so one counter can price, or count, each house action apart)."""
    return {f"{identifier(key)}_action": f"_int(_event.rule == {key!r})" for key in house_actions}


def held_value(zones: Mapping[str, Zone]) -> str:
    """``tiles_held``: every tile ``_seat`` holds in its own zones."""
    own = [f"len(_state.seat_zones[{key!r}][_seat])" for key, zone in zones.items() if zone.per_seat]
    return " + ".join(own) or "0"


def counter_values(counters: Iterable[str]) -> dict[str, str]:
    """For each counter C: ``C`` (``_seat``'s running total: the total of the hands ended plus
    this hand's gains so far), ``highest_C`` and ``lowest_C`` (the same over every seat)."""
    values = {}
    for key in counters:
        name = identifier(key)
        values[name] = f"(_state.totals[{key!r}][_seat] + _state.hand_gains[{key!r}][_seat])"
        values[f"highest_{name}"] = f"_running_extreme(_state, {key!r}, max)"
        values[f"lowest_{name}"] = f"_running_extreme(_state, {key!r}, min)"
    return values


def running_extreme(state: GameState, counter: str, extreme: Callable[[Iterable[int]], int]) -> int:
    """The highest (``max``) or lowest (``min``) running total of ``counter`` over the seats."""
    totals, gains = state.totals[counter], state.hand_gains[counter]
    return extreme(totals[seat] + gains[seat] for seat in range(state.seat_count))


def contact_distance(state: GameState, seat: int) -> int:
    """On a board of pieces, the fewest single steps between a piece of ``seat``'s side and a piece
    of another side (0 when either has none left)."""
    board = state.figure
    assert isinstance(board, PieceBoard)  # read only where the board is one (SquareGrid.state_values)
    return board.contact_distances()[0][seat]


#: What the sources above call, bound into every compiled program that inlines them.
VALUE_BINDINGS: Mapping[str, Callable[..., object]] = {
    "_running_extreme": running_extreme, "_last_hand_score": last_hand_score, "_won_last_hand": won_last_hand,
    "_went_out_last": went_out_last, "_hands_won": hands_won, "_hand_score_now": hand_score_now,
    "_won_hand_now": won_hand_now, "_contact_distance": contact_distance, "_house_uses": house_uses}

#: What a formula at the end of a hand reads besides the state (see :data:`MEANINGS`).
HAND_END_VALUES: Mapping[str, str] = {
    "went_out": "_int(_state.went_out == _seat)",
    "hand_score": "_hand_score_now(_state, _seat)",
    "won_hand": "_won_hand_now(_state, _seat)",
}

#: The values that read the match's counter as it stands this hand: a counter reading one at the
#: end of a hand reads the match's counter (and must say whether before or after it).
READS_MATCH_COUNTER = frozenset({"hand_score", "won_hand"})


def state_values(zones: Mapping[str, Zone], counters: Iterable[str], per_seat: bool = True,
                 board: Board | None = None, house_actions: Iterable[str] = ()) -> dict[str, str]:
    """Every value of the state about ``_seat``: the game's values, what the board offers
    (``board.state_values()``: the triangle lattice's ``open_next_to_last``, say), the zones'
    counts, the tiles ``_seat`` holds, the counters and how often ``_seat`` has taken each house
    action. ``per_seat=False`` leaves out what needs a seat (for a formula about the whole game,
    such as when it ends)."""
    values = dict(GAME_VALUES)
    if board is not None:
        values.update(board.state_values())
    values.update(zone_values(zones))
    values["tiles_held"] = held_value(zones)
    values.update(PAST_HAND_VALUES)
    values.update(counter_values(counters))
    values.update(house_values(house_actions))
    if not per_seat:
        values = {name: source for name, source in values.items() if "_seat" not in source}
    return values


# --------------------------------------------------------------------------- what an event adds
@attrs.frozen
class PlayFacts:
    """What a play's contacts were, worked out from the figure after it (only for formulas
    that read more than the play's points, contacts and whether it was an opportunity play)."""

    counting: int
    matching: int
    high_pair: int
    low_pair: int
    pair: Mapping[str, int]
    #: How many of the play's contacts are of each of the placement's ``kinds``.
    kinds: Mapping[str, int]


def play_facts(state: GameState, event: Played) -> PlayFacts:
    """The facts of the play ``event`` (just applied to ``state``)."""
    placement = state.rules.placement
    if placement is None:  # a ruleset without a placement rule lays no tile: nothing to count
        return PlayFacts(counting=0, matching=0, high_pair=0, low_pair=0, pair={}, kinds={})
    contacts = placement.contacts_of(figure_of(state.figure), event.cell)
    sums = [c["mine"] + c["theirs"] for c in contacts]
    pair: dict[str, int] = {}
    for contact, total in zip(contacts, sums):
        pair[contact["colour"]] = pair.get(contact["colour"], 0) + total
    counting = sum(1 for c in contacts if c["counting"])
    matching = sum(1 for c in contacts if c["mine"] == c["theirs"] and not c["counting"])
    kinds = {name: sum(bool(table[c["mine"]][c["theirs"]]) for c in contacts)
             for name, table in placement.kind_tables.items()}
    return PlayFacts(counting=counting, matching=matching, high_pair=max(sums, default=0),
                     low_pair=min(sums, default=0), pair=pair, kinds=kinds)


@attrs.frozen
class PlayShape:
    """The figure around a play: see :data:`EVENT_MEANINGS` (``line``, ``around``,
    ``hexagons``, ``enclosed``)."""

    line: int
    around: int
    hexagons: int
    enclosed: int


def play_shape(state: GameState, event: Played) -> PlayShape:
    """What the play ``event`` (just applied to ``state``) made of the figure around it."""
    figure = figure_of(state.figure)  # a play lays a tile on the lattice's figure
    laid = figure.tile_at
    enclosed = sum(1 for cell in figure.neighbours(event.cell)
                   if cell not in laid and all(side in laid for side in figure.neighbours(cell)))
    return PlayShape(line=max(line_lengths(event.cell, laid.__contains__)),
                     around=sum(1 for cell in cells_around(event.cell) if cell in laid),
                     hexagons=sum(all(cell in laid for cell in cells_at(point)) for point in corners(event.cell)),
                     enclosed=enclosed)


def shapes_completed(state: GameState, event: Played, shape: str) -> int:
    """How many of the placement's shape ``shape`` the play ``event`` completes."""
    placement = state.rules.placement
    # Only a ruleset whose placement names the shape has a formula reading it.
    assert placement is not None
    return placement.shapes[shape].completed(event.cell, figure_of(state.figure).tile_at.__contains__)


def play_values(colours: Iterable[str], kinds: Iterable[str] = (), shapes: Iterable[str] = ()) -> dict[str, str]:
    """What a formula about a play reads, besides the state: see :data:`EVENT_MEANINGS`
    (``kinds``: the placement's kinds of contact, each counted as ``<kind>_contacts``;
    ``shapes``: its named shapes, each counted as ``<shape>_shapes``)."""
    values = {
        "points": "_event.points",
        "contacts": "_event.contacts",
        "opportunity": "_event.opportunity",
        "counting": "_play_facts(_state, _event).counting",
        "matching": "_play_facts(_state, _event).matching",
        "high_pair": "_play_facts(_state, _event).high_pair",
        "low_pair": "_play_facts(_state, _event).low_pair",
        "tile_total": "_tile_total(_state, _event.tile)",
    }
    for colour in colours:
        values[f"{identifier(colour)}_pair"] = f"_play_facts(_state, _event).pair.get({colour!r}, 0)"
    for kind in kinds:
        values[f"{kind}_contacts"] = f"_play_facts(_state, _event).kinds[{kind!r}]"
    for shape in shapes:
        values[f"{shape}_shapes"] = f"_shapes_completed(_state, _event, {shape!r})"
    for shape in ("line", "around", "hexagons", "enclosed"):
        values[shape] = f"_play_shape(_state, _event).{shape}"
    return values


#: The values that are true/false, not numbers (a formula giving a score may not be one).
TRUE_FALSE_VALUES = frozenset({"opportunity"})


def tile_total(state: GameState, tile: int) -> int:
    """The sum of a tile's printed numbers."""
    return sum(state.rules.tiles.values[tile])


#: What a formula about each kind of action's event reads besides the state (a play's are
#: :func:`play_values`, which depend on the tile set's colours).
EVENT_VALUES: Mapping[str, Mapping[str, str]] = {
    "draw": {},
    "pass": {},
    "discard": {"tile_total": "_tile_total(_state, _event.tile)"},
    "move": {"captured": "_captured(_state, _event)", "lost": "_lost(_state, _event)",
             "flipped": "_int(_event.flipped)", "contacts": "len(_event.contacts)",
             "friends_around": "_move_geometry(_state, _event)[0]", "enemies_around": "_move_geometry(_state, _event)[1]",
             "nearest_enemy": "_move_geometry(_state, _event)[2]", "advance": "_move_geometry(_state, _event)[3]",
             "ringed": "_move_geometry(_state, _event)[4]"},
    "house": {"returned": "len(_event.returned)", "drawn": "len(_event.drawn)", "taken": "len(_event.taken)"},
}

EVENT_MEANINGS: Mapping[str, str] = {
    "points": "the play's points (what its counting contacts score)",
    "contacts": "how many tiles the new tile touches (a move: how many pieces it met corner to corner)",
    "opportunity": "true when the play touches two or more tiles",
    "counting": "how many of its contacts are counting contacts",
    "matching": "how many of its contacts match without counting",
    "high_pair": "the largest sum of two touching numbers (0: none)",
    "low_pair": "the smallest sum of two touching numbers (0: none)",
    "<colour>_pair": "the sum of the two numbers touching on that colour's edge (0: that edge touches nothing)",
    "tile_total": "the sum of the numbers on the tile played or laid aside",
    "<kind>_contacts": "how many of its contacts are of that kind (the placement's `kinds`)",
    "line": "the longest unbroken line of tiles through the play, along any of the lattice's three directions",
    "around": "tiles in the twelve cells sharing a side or a corner with the play",
    "hexagons": "hexagons of six tiles the play completes (corners of its cell now closed round)",
    "enclosed": "empty cells the play closes in (each now touching three tiles)",
    "captured": "opponents' pieces the move removed",
    "lost": "the mover's own pieces the move removed",
    "flipped": "1 when the moved piece was turned over",
    "friends_around": "pieces of the mover's side on the eight points around where the piece ended (0 if it was lost)",
    "enemies_around": "pieces of other sides on the eight points around where the piece ended (0 if it was lost)",
    "nearest_enemy": "the fewest single steps from where the piece ended to a piece of another side (0: none left)",
    "advance": "how many lines from its home edge the piece ended (0 on it)",
    "ringed": "1 when the piece ended on one of the ringed points where the mover's pieces are turned over",
    "returned": "how many tiles a house rule's own action returned to a pile",
    "drawn": "how many tiles a house rule's own action drew",
    "taken": "how many tiles a house rule's own action took back off the figure",
}


def lost(state: GameState, event: Moved) -> int:
    """1 when the moved piece itself left the board (it is listed last among the removed)."""
    end = event.path[-1] if event.path else event.origin
    return int(bool(event.removed) and event.removed[-1] == end)


def move_geometry(state: GameState, event: Moved) -> tuple[int, int, int, int, int]:
    """Where a move left its piece, for formulas: its side's pieces and other sides' around it, the
    steps to the nearest piece of another side, its lines from its home edge, and whether it stands
    on its ringed points (all 0 when the piece itself was lost)."""
    if lost(state, event):
        return 0, 0, 0, 0, 0
    board = state.figure
    assert isinstance(board, PieceBoard)  # a move is made on a board of pieces
    end = event.path[-1] if event.path else event.origin
    owner = board.owner[event.piece]  # a partner's piece, where partners move each other's
    side = board.side[owner]
    own, others = board.around(end, side)
    return own, others, board.nearest_opponent(end, side), board.advance(owner, end), int(end in board.ringed[owner])


def captured(state: GameState, event: Moved) -> int:
    """Opponents' pieces the move removed (every removed piece but the mover's own)."""
    return len(event.removed) - lost(state, event)


#: What the event values call, bound into the programs that inline them.
EVENT_BINDINGS: Mapping[str, Callable[..., object]] = {
    "_play_facts": play_facts, "_play_shape": play_shape, "_shapes_completed": shapes_completed, "_tile_total": tile_total, "_captured": captured,
    "_lost": lost, "_move_geometry": move_geometry, "_int": int}


# --------------------------------------------------------------------------- seats a rule names
#: How a rule names the seats it concerns, relative to a seat (the one whose action it was, or
#: each seat in turn at the end of a hand or game): ``bank`` is nobody (points from or to
#: nowhere), ``partner`` every other seat of its side (nobody without partners), ``went_out``
#: the seat that played its last tile this hand (nobody if none did).
RELATIONS: Mapping[str, str] = {
    "self": "the seat itself",
    "next": "the seat after it in the direction of play (round the table until a reverse turns it)",
    "previous": "the seat before it in the direction of play",
    "partner": "its partners (every other seat of its side)",
    "others": "every other seat",
    "all": "every seat",
    "went_out": "the seat that played its last tile this hand",
    "bank": "nobody: points come from, or go to, nowhere",
}


def related_seats(state: GameState, seat: int, relation: str) -> list[int]:
    """The seats ``relation`` (one of :data:`RELATIONS`) names, seen from ``seat``."""
    count = state.seat_count
    if relation == "self":
        return [seat]
    if relation == "next":  # in the direction of play as it stands (a reverse by this event comes after)
        return [(seat + state.direction) % count]
    if relation == "previous":
        return [(seat - state.direction) % count]
    if relation == "others":
        return [other for other in range(count) if other != seat]
    if relation == "all":
        return list(range(count))
    if relation == "partner":
        return [other for team in state.rules.match.teams(count) if seat in team for other in team if other != seat]
    if relation == "went_out":
        return [] if state.went_out is None else [state.went_out]
    if relation == "bank":
        return []
    raise ValueError(f"unknown seat relation {relation!r}")


def transfer(gains: list[int], state: GameState, seat: int, amount: int, payers: str, payees: str) -> None:
    """Move ``amount`` from each seat ``payers`` names to each seat ``payees`` names (both seen
    from ``seat``; ``bank`` on either side makes or takes points), in ``gains``."""
    if not amount:
        return
    sources = related_seats(state, seat, payers) if payers != "bank" else [None]
    targets = related_seats(state, seat, payees) if payees != "bank" else [None]
    for payer in sources:
        for payee in targets:
            if payer == payee:
                continue
            if payer is not None:
                gains[payer] -= amount
            if payee is not None:
                gains[payee] += amount
