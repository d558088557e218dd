"""A person at the terminal: the position, the numbered legal actions, and a prompt.

Accepts the number of an action, or the action typed out (``play 01-02-03 0,-1``,
``draw``, ``pass``), ``?`` for help, and ``quit``. Bad input is answered and asked again;
it never crashes. When the input ends (end of file) or the person quits, ``choose``
raises :class:`PlayerLeft`, which the game's referee records as a fault of that seat.
"""

from __future__ import annotations

import re
import sys
from typing import IO, TYPE_CHECKING, Any

from contack_core.engine.actions import Draw, Pass, Play
from contack_core.engine.bots import Player
from players.common import immediate_gain, running_scores

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.state import GameState

HELP = """\
Type the number of an action from the list, or the action itself:
  play TILE X,Y   lay a tile (named by its values, like 01-02-03) on cell [X, Y]
  draw            draw a tile from the pile
  pass            give up the turn
  ?               this help
  quit            leave the game (the seat is then handled as a faulty player)"""

_PLAY = re.compile(r"^play\s+(\S+)\s+\[?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\]?$")


class PlayerLeft(Exception):
    """The person stopped playing: the input ended or they typed quit."""


class HumanPlayer(Player):
    """Plays from the terminal: shows the position and numbered legal actions."""

    name = "human"
    description = "a person at the terminal: numbered legal actions, typed actions, '?' for help"
    timed = False  # a person thinks at their own pace; no clock runs on this seat

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        #: Where the person types and reads; tests give their own streams.
        self.input: IO[str] = sys.stdin
        self.output: IO[str] = sys.stdout

    def say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        self.say(self.describe(state, legal))
        while True:
            self.output.write(f"seat {state.current}, your move [1-{len(legal)}, ? for help]: ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                self.say("")
                raise PlayerLeft("the input ended")
            action, answer = self.interpret(line.strip(), state, legal)
            if action is not None:
                return action
            self.say(answer)

    # ------------------------------------------------------------------ reading the answer
    def interpret(self, text: str, state: GameState, legal: list[Action]) -> tuple[Action | None, str]:
        """The action ``text`` stands for, or None and what to tell the person."""
        lowered = text.lower()
        if lowered in ("?", "help", "h"):
            return None, HELP + "\n" + self.list_actions(state, legal)
        if lowered in ("quit", "exit", "resign"):
            raise PlayerLeft("the person quit")
        if not lowered:
            return None, "type a number from the list, or ? for help"
        if lowered.isascii() and lowered.isdigit():  # str.isdigit also accepts '¹', which int() refuses
            number = int(lowered)
            if 1 <= number <= len(legal):
                return legal[number - 1], ""
            return None, f"there is no action {number}: choose 1 to {len(legal)}"
        if lowered in ("draw", "pass"):
            wanted = Draw if lowered == "draw" else Pass
            found = next((a for a in legal if type(a) is wanted), None)
            if found is None:
                return None, f"you may not {lowered} now; the legal actions are:\n" + self.list_actions(state, legal)
            return found, ""
        match = _PLAY.match(lowered)
        if match is None:
            return None, f"not understood: {text!r}; type ? for help"
        tiles = state.rules.tiles
        try:
            tile = tiles.tile(match.group(1))
        except ValueError as error:
            return None, str(error)
        cell = (int(match.group(2)), int(match.group(3)))
        for action in legal:
            if type(action) is Play and action.tile == tile and action.cell == cell:
                return action, ""
        return None, f"{tiles.names[tile]} cannot go on {list(cell)} now; the legal actions are:\n" + \
            self.list_actions(state, legal)

    # ------------------------------------------------------------------ showing the position
    def action_text(self, state: GameState, action: Action) -> str:
        if type(action) is Play:
            gain, _ = immediate_gain(state, action, state.current)
            return f"play {state.rules.tiles.names[action.tile]} {action.cell[0]},{action.cell[1]}  ({gain:+d})"
        return type(action).__name__.lower()

    def list_actions(self, state: GameState, legal: list[Action]) -> str:
        return "\n".join(f"  {number:>2}. {self.action_text(state, action)}" for number, action in enumerate(legal, 1))

    def describe(self, state: GameState, legal: list[Action]) -> str:
        names = state.rules.tiles.names
        figure = state.figure
        placed = " ".join(f"{names[t]}@{x},{y}" for (x, y), t in sorted(figure.tile_at.items())) or "(empty)"
        last = f" (last played at {list(figure.last)})" if getattr(figure, "last", None) is not None else ""
        lines = [f"--- hand {state.hand_number}; scores {running_scores(state)}",
                 f"figure{last}: {placed}"]
        for zone, per_seat in state.seat_zones.items():
            for seat, tiles in enumerate(per_seat):
                marker = " <- you" if seat == state.current else ""
                lines.append(f"{zone} of seat {seat}: {' '.join(names[t] for t in sorted(tiles)) or '(none)'}{marker}")
        for zone, tiles in state.zones.items():
            lines.append(f"{zone}: {len(tiles)} tiles")
        lines.append(self.list_actions(state, legal))
        return "\n".join(lines)
