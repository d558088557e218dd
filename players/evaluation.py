"""What a position is worth to a seat, read from the ruleset itself.

The built-in bots know no variant. They judge a position by what its ruleset counts: the
counter the match is decided on (``match.counter``: points in Parker, chips in Club Contack,
Triangles placed in a solitaire, pieces left in a board game of pieces), taken as the
ruleset would count it if the hand ended now, and, once the game is over, by the outcome the
match rule declares. Sides are the match's teams (partners pool their counts). A bot judges an
action by applying it to a copy of the state and reading these again; the copy is resampled
(:meth:`GameState.resample`), so what it cannot see stays unseen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from contack_core.engine.actions import Action, Discard, HouseAction, Play

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState


def cannot_judge(rules: Rules) -> str | None:
    """Why a bot judging positions by the ruleset's own count cannot play ``rules`` (None: it can):
    it needs the counter the match is decided on (every match names one: see
    :class:`contack_core.engine.slots.Match`) to be kept by a scoring primitive."""
    counter = rules.match.counter
    if counter not in rules.counters:
        return f"its match is decided on {counter!r}, which no scoring primitive keeps"
    return None


def measure(state: GameState) -> list[int]:
    """Each seat's total of the match's counter as the ruleset would count it if the hand ended now.

    The counters move while a hand is played (points made), and the hand's end adds what the
    ruleset counts then (a penalty for tiles held, the Triangles in a solitaire's figure, the
    pieces left on a board): a bot judging an action needs both, or in a solitaire every play
    would look worthless but the last.
    """
    rules = state.rules
    counter = rules.match.counter
    totals = state.totals[counter]
    if state.over:
        return list(totals)
    gains = state.hand_gains[counter]
    hand_end = rules.counters[counter].hand_end_values(state)
    return [total + gain + end for total, gain, end in zip(totals, gains, hand_end)]


def sides(state: GameState) -> list[list[int]]:
    """The sides of the game: the match's teams (partners, or each seat alone)."""
    return state.rules.match.teams(state.seat_count)


def leads(state: GameState, values: list[int] | None = None) -> list[float]:
    """Each seat's side's pooled measure less the best other side's (with one side: its measure)."""
    values = measure(state) if values is None else values
    teams = sides(state)
    if len(teams) == 1:
        return [float(values[seat]) for seat in range(state.seat_count)]
    pooled = [sum(values[seat] for seat in team) for team in teams]
    result = [0.0] * state.seat_count
    for index, team in enumerate(teams):
        best_other = max(total for other, total in enumerate(pooled) if other != index)
        for seat in team:
            result[seat] = pooled[index] - best_other
    return result


def lead(state: GameState, seat: int) -> float:
    """``seat``'s entry of :func:`leads`, worked out alone (the step a playout or a greedy choice
    weighs once for every action it tries)."""
    values = measure(state)
    teams = sides(state)
    if len(teams) == 1:
        return float(values[seat])
    if len(teams) == state.seat_count:  # each seat alone: its count less the best other's
        return float(values[seat] - max(value for other, value in enumerate(values) if other != seat))
    pooled = [sum(values[member] for member in team) for team in teams]
    mine = next(index for index, team in enumerate(teams) if seat in team)
    return float(pooled[mine] - max(total for index, total in enumerate(pooled) if index != mine))


def feature_score(state: GameState, seat: int) -> float:
    """What the position's features (:meth:`GameState.features`) say for ``seat``, in (-1, 1).

    Each is signed so that more is better for the seat; a contested one (what is good for one
    side is bad for the others) is taken as a lead, the seat's side's value less the best other
    side's, the way the score is. Each is squashed into (-1, 1) and weighs half as much as the one
    before it (the engine lists the most telling first). 0 for a ruleset whose positions have no
    features. A tie-break below the score: it says which way to go while nothing is being scored
    (a board of pieces where no piece touches another), never that a point is worth giving up."""
    score, weight = 0.0, 0.5
    teams = None
    for feature in state.features().values():
        if feature.contested:
            teams = sides(state) if teams is None else teams
            pooled = [sum(feature.good(member) for member in team) for team in teams]
            mine = next(index for index, team in enumerate(teams) if seat in team)
            others = [total for index, total in enumerate(pooled) if index != mine]
            value = pooled[mine] - max(others) if others else pooled[mine]
        else:
            value = feature.good(seat)
        score += weight * value / (1.0 + abs(value))
        weight /= 2
    return score


def outcome(state: GameState, seat: int) -> float:
    """What the finished game gave ``seat``'s side: 1 won alone, 1/k for a win shared by k sides, 0
    lost. When nobody wins, a game of one side is lost and a game of n sides is an n-way tie."""
    winners = set(state.winners())
    teams = sides(state)
    if not winners:
        return 0.0 if len(teams) == 1 else 1.0 / len(teams)
    if seat not in winners:
        return 0.0
    return 1.0 / sum(1 for team in teams if winners.intersection(team))


def standing(state: GameState, seat: int, lead: float) -> float:
    """How a game ``state`` ranks for ``seat`` before its lead is compared: the outcome once it is
    over; while it goes on, what a tie would give (1/2 alone at the table), a little more for a seat
    that leads and a little less for one behind. A game that ends tied (a move cap, a blocked
    board) thus ranks below playing on with a lead, and above playing on behind."""
    if state.over:
        return outcome(state, seat)
    teams = len(sides(state))
    tie = 0.5 if teams == 1 else 1.0 / teams
    return tie + (_EDGE if lead > 0 else -_EDGE if lead < 0 and teams > 1 else 0.0)


#: How much a lead (or a deficit) moves a game still going away from a tie: less than any outcome apart.
_EDGE = 1e-3


def worth(state: GameState, seat: int) -> tuple[float, float]:
    """How good ``state`` is for ``seat``, to compare: (its :func:`standing`; the seat's lead)."""
    lead = leads(state)[seat]
    return standing(state, seat, lead), lead


def tile_weight(state: GameState, action: Action) -> int:
    """How heavy the tile an action lays or lets go is (the sum of its numbers; 0 for no tile):
    a tie-break that sheds the tiles hardest to match first."""
    tile = action.tile if isinstance(action, Play | Discard | HouseAction) else None
    if tile is None:
        return 0
    return sum(state.rules.tiles.values[tile])

