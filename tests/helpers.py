"""Shared helpers for the Parker 1939 tests.

Besides set-up shortcuts this module holds a small *reference model* of the Parker
placement rules written straight from DESIGN.md section 4 and the 1939 rule book,
independently of the engine: the lattice neighbours, the contact rule ("matching colors
and numbers" or numbers that "add to a multiple of five"), the score of a contact, and
the legal cells (next to the last tile played, or an opening touching two or three
tiles). Tests compare the engine against it.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from contack_core import CHANCE, Deal, GameState, Play, Shuffle, load_rules
from contack_core.cli import app
from contack_core.engine.events import Played
from contack_core.engine.rules import Rules

RULES = load_rules("parker-1939", options={})
TILES = RULES.tiles
ORIGIN = (0, 0)


@functools.cache
def loaded_rules(reference: str, **options: object) -> Rules:
    """A ruleset with ``options``, loaded once for every test of a worker that plays it: a load
    costs about 20 ms, more than most checks, and play never changes a ruleset."""
    return load_rules(reference, options)


def tile(name: str) -> int:
    return TILES.tile(name)


def name(t: int) -> str:
    return TILES.names[t]


# --------------------------------------------------------------------------- reference model
def ref_neighbours(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """DESIGN.md 4: up cell (x+y even): [x, y-1], [x+1, y], [x-1, y] (sides 0, 1, 2);
    down cell: [x, y+1], [x-1, y], [x+1, y]. Every Parker tile lies unturned, so side s
    of a cell shows colour s (0 blue, 1 red, 2 gold) and touches side s of the neighbour."""
    x, y = cell
    if (x + y) % 2 == 0:
        return ((x, y - 1), (x + 1, y), (x - 1, y))
    return ((x, y + 1), (x - 1, y), (x + 1, y))


def ref_contact(a: int, b: int) -> bool:
    """Matching contact (same number) or counting contact (sum a multiple of five)."""
    return a == b or (a + b) % 5 == 0


def ref_points(a: int, b: int) -> int:
    """A counting contact scores the total of the two numbers (5-5 and 10-10 count)."""
    return a + b if (a + b) % 5 == 0 else 0


def ref_contacts(tile_at: dict, cell) -> int:
    return sum(n in tile_at for n in ref_neighbours(cell))


def ref_fit(tile_at: dict, t: int, cell) -> int | None:
    """Points of tile ``t`` on empty ``cell``, or None if it touches nothing or a touching
    pair neither matches nor counts."""
    if cell in tile_at:
        return None
    total, touching = 0, 0
    for side, n in enumerate(ref_neighbours(cell)):
        if n in tile_at:
            mine, theirs = TILES.values[t][side], TILES.values[tile_at[n]][side]
            if not ref_contact(mine, theirs):
                return None
            total += ref_points(mine, theirs)
            touching += 1
    return total if touching else None


def ref_legal_cells(tile_at: dict, last) -> set:
    """Empty cells next to the last tile played, plus every opening (an empty cell
    touching two or three tiles)."""
    cells = set()
    if last is not None:
        cells.update(n for n in ref_neighbours(last) if n not in tile_at)
    for placed in tile_at:
        for n in ref_neighbours(placed):
            if n not in tile_at and ref_contacts(tile_at, n) >= 2:
                cells.add(n)
    return cells


def ref_plays(tile_at: dict, last, hand: Iterable[int]) -> set:
    cells = ref_legal_cells(tile_at, last)
    return {Play(t, c) for t in hand for c in cells if ref_fit(tile_at, t, c) is not None}


# --------------------------------------------------------------------------- set-up shortcuts
def deal_hand(state: GameState, hands: Sequence[Sequence[str]], stock_top: Sequence[str] = ()) -> None:
    """At the start of a hand: shuffle so that ``stock_top`` is drawn first (in order),
    then deal ``hands`` (tile names) to the seats in seat order."""
    assert state.is_chance_node() and state.current_seat() == CHANCE
    dealt = [tile(n) for h in hands for n in h]
    top = [tile(n) for n in stock_top]
    assert len(set(dealt + top)) == len(dealt) + len(top), "a tile is named twice"
    rest = [t for t in range(len(TILES)) if t not in dealt and t not in top]
    # The shuffle orders every tile of the stock; the top of the pile is the LAST element
    # (draws pop from the end). The deals then take the named tiles out of it.
    state.apply(Shuffle("stock", tuple(dealt + rest + list(reversed(top)))))
    for seat, h in enumerate(hands):
        state.apply(Deal(seat, tuple(tile(n) for n in h)))


def new_game(hands: Sequence[Sequence[str]], stock_top: Sequence[str] = (), rules=RULES) -> GameState:
    state = GameState(rules, len(hands))
    deal_hand(state, hands, stock_top)
    return state


def play(state: GameState, tile_name: str, cell) -> Played:
    """Apply a play that must be legal now; return its event."""
    action = Play(tile(tile_name), tuple(cell))
    assert action in state.legal_actions(), (
        f"{tile_name} on {cell} is not legal for seat {state.current_seat()}: "
        f"{[(name(a.tile), a.cell) if isinstance(a, Play) else a for a in state.legal_actions()]}")
    event = state.apply(action)
    assert isinstance(event, Played)
    return event


def hand_of(state: GameState, seat: int) -> list[str]:
    return sorted(name(t) for t in state.seat_zones["hand"][seat])


# --------------------------------------------------------------------------- records
def play_recorded_game(seats: int, seed: int, path: Path, rules=RULES) -> GameState:
    """Play a random game of ``seats`` random players and write its record to ``path``."""
    from contack_core.engine.referee import play_game
    from contack_core.records.format import RecordWriter, header_for
    from players.random_player import RandomPlayer

    players = [RandomPlayer(seed=f"{seed}:{i}") for i in range(seats)]
    names = [f"p{i}" for i in range(seats)]
    with path.open("w", encoding="utf-8") as stream:
        writer = RecordWriter(stream, header_for(rules, names, seed, ["random"] * seats))
        return play_game(rules, players, seed, [writer])


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_lines(path: Path, lines: Iterable[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def run_cli(*args: object) -> Result:
    """Invoke the CLI in-process; any uncaught exception (a traceback for a user) fails the test."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(
            f"contack {' '.join(map(str, args))} crashed with {result.exception!r} instead of a clean message"
            f"\noutput:\n{result.output}"
        ) from result.exception
    assert "Traceback" not in result.output
    return result


def random_playout(state: GameState, rng: random.Random, steps: int | None = None) -> None:
    """Apply uniformly random legal actions (and sampled chance) until the game ends, or
    for at most ``steps`` actions."""
    taken = 0
    while not state.is_over() and (steps is None or taken < steps):
        taken += 1
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def permute_hidden(state: GameState, observer: int, rng: random.Random) -> GameState:
    """A copy of ``state`` with the tiles hidden from ``observer`` in another order among their
    places (another order for sure, when at least two of them differ)."""
    from contack_core.engine.information import Visibility

    other = state.clone()
    runs = Visibility.of(state.rules).hidden_runs(other, observer)
    tiles = [tile for zone, count in runs for tile in zone[:count]]
    order = tiles[:]
    while len(set(tiles)) > 1 and order == tiles:
        rng.shuffle(order)
    drawn = iter(order)
    for zone, count in runs:
        for index in range(count):
            zone[index] = next(drawn)
    return other
