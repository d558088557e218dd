"""A person at the terminal: the position as the seat sees it, the numbered legal actions, a prompt.

Accepts the number of an action, or the action typed out, of whatever kind the ruleset offers:
``play 01-02-03 0,-1`` (a tile from the hand, or the top of a face-up pile or stack), ``discard
01-02-03``, ``draw``, ``pass``, ``move 5,0 5,1 6,1`` (a piece on a board: the point it stands on,
then each point of its path), ``?`` for help, and ``quit``. Bad input is answered and asked again;
it never crashes. When the input ends (end of file) or the person quits, ``choose`` raises
:class:`PlayerLeft`, which the game's referee records as a fault of that seat.

The person is shown what the seat sees (:meth:`GameState.observation`): a face-down pile or a
hand the ruleset hides only as a count.
"""

from __future__ import annotations

import random
import re
import sys
from typing import IO, TYPE_CHECKING, Any

from contack_core.boards.grid import PieceBoard, board_text
from contack_core.engine.actions import Discard, Draw, Move, Pass, Play
from contack_core.engine.bots import Player
from contack_core.engine.events import Moved, Played

if TYPE_CHECKING:
    from collections.abc import Callable

    from contack_core.engine.actions import Action
    from contack_core.engine.state import GameState

HELP = """\
Type the number of an action from the list, or the action itself:
  play TILE X,Y         lay a tile (named by its values, like 01-02-03) on cell [X, Y]:
                        from your hand, or the top tile of a face-up pile
  discard TILE [PILE]   lay a tile of your hand aside, face up (on PILE, where there are several)
  draw                  draw a tile from the pile
  move X,Y X,Y [X,Y..]  move the piece standing on the first point along the points after it
  pass                  give up the turn
  ?                     this help
  quit                  leave the game (the seat is then handled as a faulty player)"""

_POINT = r"\[?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\]?"
_PLAY = re.compile(rf"^play\s+(\S+)\s+{_POINT}$")
_DISCARD = re.compile(r"^discard\s+(\S+)(?:\s+(?:on\s+|to\s+)?(\S+))?$")
_MOVE = re.compile(r"^move\s+(.+)$")
_POINTS = re.compile(_POINT)


def running(state: GameState, counter: str) -> list[int]:
    """Each seat's count so far, the hand under way included."""
    if state.over:
        return list(state.totals[counter])
    return [total + gain for total, gain in zip(state.totals[counter], state.hand_gains[counter])]


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
        #: Draws the figure as ``contack replay`` does (each tile with its numbers where they lie), or
        #: None; the command line gives it (the replay's drawings sit in a layer above the engine).
        self.picture: Callable[[GameState], list[str] | None] | None = None

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
                return None, self.not_now(f"you may not {lowered} now", state, legal)
            return found, ""
        for reader in (self._read_play, self._read_discard, self._read_move):
            answer = reader(lowered, state, legal)
            if answer is not None:
                return answer
        return None, f"not understood: {text!r}; type ? for help"

    def not_now(self, why: str, state: GameState, legal: list[Action]) -> str:
        return f"{why}; the legal actions are:\n" + self.list_actions(state, legal)

    def _tile(self, state: GameState, name: str) -> tuple[int | None, str]:
        try:
            return state.rules.tiles.tile(name), ""
        except ValueError as error:
            return None, str(error)

    def _read_play(self, text: str, state: GameState, legal: list[Action]) -> tuple[Action | None, str] | None:
        match = _PLAY.match(text)
        if match is None:
            return None
        tile, why = self._tile(state, match.group(1))
        if tile is None:
            return None, why
        cell = (int(match.group(2)), int(match.group(3)))
        for action in legal:
            if type(action) is Play and action.tile == tile and action.cell == cell:
                return action, ""
        name = state.rules.tiles.names[tile]
        return None, self.not_now(f"{name} cannot go on {list(cell)} now", state, legal)

    def _read_discard(self, text: str, state: GameState, legal: list[Action]) -> tuple[Action | None, str] | None:
        match = _DISCARD.match(text)
        if match is None:
            return None
        tile, why = self._tile(state, match.group(1))
        if tile is None:
            return None, why
        pile = match.group(2)
        found = [a for a in legal if type(a) is Discard and a.tile == tile
                 and (pile is None or getattr(a, "zone", None) == pile)]
        if not found:
            where = "" if pile is None else f" on {pile}"
            return None, self.not_now(f"you may not lay {state.rules.tiles.names[tile]} aside{where} now", state, legal)
        if len(found) > 1:
            piles = ", ".join(str(getattr(a, "zone", "")) for a in found)
            return None, f"name the pile to lay it on: discard {match.group(1)} PILE (one of {piles})"
        return found[0], ""

    def _read_move(self, text: str, state: GameState, legal: list[Action]) -> tuple[Action | None, str] | None:
        match = _MOVE.match(text)
        if match is None:
            return None
        rest = match.group(1)
        points = [(int(x), int(y)) for x, y in _POINTS.findall(rest)]
        if len(points) < 2 or _POINTS.sub("", rest).strip(" ,"):
            return None, "a move is typed as the point the piece stands on, then each point of its path: " \
                         "move 5,0 5,1 6,1"
        origin, path = points[0], tuple(points[1:])
        for action in legal:
            if type(action) is Move and action.origin == origin and tuple(action.path) == path:
                return action, ""
        return None, self.not_now(f"no legal move goes from {list(origin)} along "
                                  f"{' '.join(f'{x},{y}' for x, y in path)}", state, legal)

    # ------------------------------------------------------------------ showing the position
    def action_text(self, state: GameState, action: Action) -> str:
        """An action as the person would type it, with what it leads to at once."""
        names = state.rules.tiles.names
        kind = type(action)
        if kind is Play:
            where = state.locate(action.tile)  # type: ignore[union-attr]
            source = "" if where.endswith(f"of seat {state.current}") else f" from {where}"
            cell = action.cell  # type: ignore[union-attr]
            return f"play {names[action.tile]} {cell[0]},{cell[1]}{source}{self._result(state, action)}"  # type: ignore[union-attr]
        if kind is Discard:
            pile = getattr(action, "zone", None)
            return f"discard {names[action.tile]}" + (f" {pile}" if pile else "")  # type: ignore[union-attr]
        if kind is Move:
            points = " ".join(f"{x},{y}" for x, y in (action.origin, *action.path))  # type: ignore[union-attr]
            return f"move {points}{self._result(state, action)}"
        return kind.__name__.lower()

    def _result(self, state: GameState, action: Action) -> str:
        """What the action does at once, tried on a copy resampled for the seat (so it reveals nothing
        hidden): the points a play makes, the pieces a move removes."""
        after = state.resample(state.current, random.Random(0))
        event = after.apply(action)
        if type(event) is Played:
            counter = state.rules.match.counter
            seat = state.current
            gain = running(after, counter)[seat] - running(state, counter)[seat]
            return f"  ({gain:+d})" if gain else ""
        if type(event) is Moved and event.removed:
            mine = event.path[-1] in event.removed
            taken = len(event.removed) - mine
            parts = ([f"takes {taken}"] if taken else []) + (["is taken"] if mine else [])
            return f"  ({', '.join(parts)})"
        return ""

    def list_actions(self, state: GameState, legal: list[Action]) -> str:
        return "\n".join(f"  {number:>2}. {self.action_text(state, action)}" for number, action in enumerate(legal, 1))

    def describe(self, state: GameState, legal: list[Action]) -> str:
        """The position as the seat to move sees it, then the numbered legal actions."""
        rules = state.rules
        names = rules.tiles.names
        seat = state.current
        figure = state.figure
        scores = "" if isinstance(figure, PieceBoard) else \
            f"; {rules.term('score')} {running(state, rules.match.counter)}"
        lines = [f"--- {rules.term('hand')} {state.hand_number}{scores}"]
        if isinstance(figure, PieceBoard):
            lines.extend(board_text(figure))
            lines.append(f"tiles left by seat: {figure.alive[:state.seat_count]}")
        elif self.picture is not None and (drawn := self.picture(state)):
            lines.extend(drawn)
        else:
            placed = " ".join(f"{names[t]}@{x},{y}" for (x, y), t in sorted(figure.tile_at.items())) or "(empty)"
            last = f" (last played at {list(figure.last)})" if getattr(figure, "last", None) is not None else ""
            lines.append(f"figure{last}: {placed}")
        for zone, views in state.observation(seat).items():
            if zone in state.seat_zones:
                for owner, view in enumerate(views):
                    marker = " <- you" if owner == seat else ""
                    lines.append(f"{zone} of seat {owner}: {self._tiles_text(state, view)}{marker}")
            else:
                lines.append(f"{zone}: {self._tiles_text(state, views)}")  # type: ignore[arg-type]
        lines.append(self.list_actions(state, legal))
        return "\n".join(lines)

    @staticmethod
    def _tiles_text(state: GameState, view: tuple[int | None, ...]) -> str:
        """Seen tiles by name (a pile bottom to top), hidden ones only counted."""
        names = state.rules.tiles.names
        seen = [names[t] for t in view if t is not None]
        hidden = len(view) - len(seen)
        if not view:
            return "(none)"
        if not seen:
            return f"{hidden} tiles"
        text = " ".join(seen)
        return f"{hidden} hidden, then {text} (top last)" if hidden else text
