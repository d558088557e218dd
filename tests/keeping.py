"""Helpers for the score keeper's tests: games to keep, and the entries a person would type for them.

A game is played by random players and recorded; :func:`entries_for` then keeps the same game
with the keeper, typing each line of that record the way a person at the table might (tiles
in every spelling, cells as coordinates, as the number of a listed cell, or beside a tile),
and returns what was typed. Fed to ``contack keep`` again (through a pipe, a file or a
terminal), the entries must give back the very same record.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from contack_core.boards.lattice import Figure
from contack_core.engine.actions import Discard, Play
from contack_core.engine.bots import make_player
from contack_core.engine.referee import play_game, seat_seed
from contack_core.engine.rules import Rules
from contack_core.records.format import RecordWriter, header_for
from contack_core.records.keeper import Keeper
from contack_core.records.table import SIDES, Table

#: Lines the keeper writes itself: what follows from the table's actions.
DERIVED = ("hand", "hand_end", "game_end", "chips")


def played_lines(rules: Rules, seats: int, seed: int) -> list[dict[str, Any]]:
    """The record of a game of random players, line by line (the header first)."""
    stream = io.StringIO()
    players = [make_player("random", seat_seed(seed, seat), rules=rules) for seat in range(seats)]
    play_game(rules, players, seed, [RecordWriter(stream, header_for(rules, [f"p{s}" for s in range(seats)], seed))])
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def record_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def spellings(name: str) -> list[str]:
    """The ways a person may write the tile ``name``."""
    values = [int(v) for v in name.split("-")]
    return [name, "-".join(map(str, values)), "".join(map(str, values)), " ".join(map(str, values)),
            ".".join(map(str, values))]


class Typist:
    """Types a recorded game into a keeper, one entry per prompt, varying how each is written."""

    def __init__(self, source: list[dict[str, Any]], seats: list[str], seed: int) -> None:
        self.source = source
        self.seats = seats
        self.rng = random.Random(seed)
        self.typed: list[str] = []
        self.pending: Play | None = None  # a play whose cell is picked from the list just shown
        self.table: Table | None = None
        self.written = 1  # lines of the source the keeper has written (the header)

    def ask(self, prompt: str) -> str | None:
        assert self.table is not None
        keeper = self.table.keeper
        if self.pending is not None:
            text = str(self.table.choices.index(self.pending) + 1)
            self.pending = None
        else:
            self.written = len(record_lines(keeper.path))
            if self.written >= len(self.source):
                return None
            text = self.entry(self.source[self.written], keeper)
        self.typed.append(text)
        return text

    def entry(self, line: dict[str, Any], keeper: Keeper) -> str:
        kind = line["event"]
        assert kind not in DERIVED, f"the keeper should have written {line}"
        rng = self.rng
        spell = lambda name: rng.choice(spellings(name))  # noqa: E731
        if kind == "deal":
            return " ".join(rng.choice(spellings(t)[:4]) for t in line["tiles"])
        if kind == "draw":
            return f"{rng.choice(['draw', 'd'])} {spell(line['tile'])}"
        if kind == "discard":
            piles = {a.zone for a in keeper.state.legal_actions() if type(a) is Discard}
            named = piles != {None} or rng.random() < 0.5
            return f"discard {spell(line['tile'])}" + (f" to {line['to']}" if named else "")
        if kind == "pass":
            return rng.choice(["pass", "p", f"{self.seats[line['seat']]}: pass"])
        if kind == "move":
            return " ".join(f"{x},{y}" for x, y in [line["from"], *line["path"]])
        assert kind == "play"
        tile = keeper.rules.tiles.tile(line["tile"])
        cell = tuple(line["cell"])
        if keeper.due().kind == "open":
            return spell(line["tile"])
        style = rng.choice(["cell", "cell", "pick", "number", "beside"])
        figure = keeper.state.figure
        if style == "beside" and isinstance(figure, Figure):
            for neighbour in figure.neighbours(cell):
                if neighbour in figure.tile_at:
                    offset = (cell[0] - neighbour[0], cell[1] - neighbour[1])
                    side = next(name for name, step in SIDES.items() if step == offset)
                    other = keeper.rules.tiles.names[figure.tile_at[neighbour]]
                    return f"{spell(line['tile'])} {side} of {spell(other)}"
        fits = [a for a in keeper.state.legal_actions() if type(a) is Play and a.tile == tile]
        if style == "pick":
            self.pending = next(a for a in fits if a.cell == cell)
            return spell(line["tile"])
        if style == "number":
            return f"{spell(line['tile'])} {[a.cell for a in fits].index(cell) + 1}"
        return f"{spell(line['tile'])} {cell[0]},{cell[1]}"


def entries_for(rules: Rules, source: list[dict[str, Any]], seats: list[str], folder: Path,
                seed: int = 0) -> list[str]:
    """What a person types to keep the game of ``source``; checks the keeper writes it back exactly."""
    path = folder / "typed.jsonl"
    path.unlink(missing_ok=True)
    keeper = Keeper.start(rules, seats, path, lambda text: None)
    typist = Typist(source, seats, seed)
    typist.table = Table(keeper, typist.ask, lambda text: None, interactive=False)
    try:
        assert typist.table.run() == 0
    finally:
        keeper.close()
    assert record_lines(path)[1:] == source[1:]
    return typist.typed
