"""A person at the terminal: the position as the seat sees it, the numbered legal actions, a prompt.

Accepts the number of an action, or the action typed out, of whatever kind the ruleset offers:
``play 01-02-03 0,-1`` (a tile from the hand, or the top of a face-up pile or stack), ``discard
01-02-03``, ``draw``, ``pass``, ``move 5,0 5,1 6,1`` (a piece on a board: the point it stands on,
then each point of its path), ``?`` for help, and ``quit``. A typed action is read by
:func:`contack_core.engine.notation.parse_action`, the score keeper's reader too, so both take
the same spellings (``9-2-8`` or ``928`` for ``09-02-08``, ``[0, -1]`` for ``0,-1``, ...). Bad
input is answered and asked again; it never crashes. When the input ends (end of file) or the person quits, ``choose`` raises
:class:`PlayerLeft`, which the game's referee records as a fault of that seat.

The person is shown what the seat sees (:meth:`GameState.observation`): a face-down pile or a
hand the ruleset hides only as a count.
"""

from __future__ import annotations

import random
import sys
from typing import IO, TYPE_CHECKING, Any

from contack_core import printable
from contack_core.engine.actions import Discard, Draw, HouseAction, Move, Play
from contack_core.engine.bots import Player, Resigned
from contack_core.engine.events import Moved, Played
from contack_core.engine.notation import NotationError, action_to_string, parse_action, point_to_string

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.state import GameState

HELP = """\
Type the number of an action from the list, or the action itself:
  play TILE X,Y         lay a tile (named by its values, like 01-02-03) on cell [X, Y]:
                        from your hand, or the top tile of a face-up pile
  discard TILE [PILE]   lay a tile of your hand aside, face up (on PILE, where there are several)
  draw                  draw a tile from the pile
  move X,Y X,Y [X,Y..]  move the piece standing on the first point along the points after it
  RULE [TILE]           an action of the house rules' own, by its name (exchange 01-02-03)
  pass                  give up the turn
  ?                     this help
  quit                  leave the game (the seat is then handled as a faulty player)"""

def running(state: GameState, counter: str) -> list[int]:
    """Each seat's count so far, the hand under way included."""
    if state.over:
        return list(state.totals[counter])
    return [total + gain for total, gain in zip(state.totals[counter], state.hand_gains[counter])]


class PlayerLeft(Resigned):
    """The person stopped playing: the input ended or they typed quit."""


class HumanPlayer(Player):
    """Plays from the terminal: shows the position and numbered legal actions."""

    name = "human"
    description = "a person at the terminal: numbered legal actions, typed actions, '?' for help"
    timed = False  # a person thinks at their own pace; no clock runs on this seat
    shows_position = True

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        #: Where the person types and reads; tests give their own streams.
        self.input: IO[str] = sys.stdin
        self.output: IO[str] = sys.stdout

    def say(self, text: str) -> None:
        """Show ``text``, its control characters escaped: it holds the ruleset's terms and names."""
        self.output.write(printable(text, lines=True) + "\n")
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
        try:
            action = parse_action(state, text)
        except NotationError as error:
            return None, f"not understood: {text!r} ({error}); type ? for help"
        return self.legal_one(action, state, legal)

    def not_now(self, why: str, state: GameState, legal: list[Action]) -> str:
        return f"{why}; the legal actions are:\n" + self.list_actions(state, legal)

    def legal_one(self, action: Action, state: GameState, legal: list[Action]) -> tuple[Action | None, str]:
        """The legal action ``action`` (as typed) is, or None and why it is none: a discard typed
        without its pile is the one legal discard of that tile, if there is one."""
        if action in legal:
            return legal[legal.index(action)], ""
        names = state.rules.tiles.names
        if isinstance(action, Discard):
            found = [a for a in legal if isinstance(a, Discard) and a.tile == action.tile
                     and (action.zone is None or a.zone == action.zone)]
            if len(found) == 1:
                return found[0], ""
            if len(found) > 1:
                piles = ", ".join(str(a.zone) for a in found)
                return None, f"name the pile to lay it on: discard {names[action.tile]} PILE (one of {piles})"
            where = "" if action.zone is None else f" on {action.zone}"
            return None, self.not_now(f"you may not lay {names[action.tile]} aside{where} now", state, legal)
        if isinstance(action, Play):
            return None, self.not_now(f"{names[action.tile]} cannot go on {list(action.cell)} now", state, legal)
        if isinstance(action, Draw) and Draw() in legal:  # a tile named where the person draws blind
            return None, "you draw blind: type draw (which tile comes is not yours to name)"
        if isinstance(action, HouseAction):
            if action.drawn is not None:
                return None, "a player draws blind: name the tile returned, never the tiles drawn"
            return None, self.not_now(state.rules.explain_forbidden(state, action), state, legal)
        if isinstance(action, Move):
            path = " ".join(point_to_string(p) for p in action.path)
            return None, self.not_now(f"no legal move goes from {list(action.origin)} along {path}", state, legal)
        return None, self.not_now(f"you may not {type(action).__name__.lower()} now", state, legal)

    # ------------------------------------------------------------------ showing the position
    def action_text(self, state: GameState, action: Action) -> str:
        """An action as the person would type it (the one notation, a play and a move with their
        verbs), with where a played tile comes from and what the action leads to at once."""
        typed = action_to_string(state, action)
        if isinstance(action, Play):
            where = state.locate(action.tile)
            source = "" if where.endswith(f"of seat {state.current}") else f" from {where}"
            return f"play {typed}{source}{self._result(state, action)}"
        if isinstance(action, Move):
            return f"move {typed}{self._result(state, action)}"
        return typed

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
        pieces_left = [figure.pieces_on_board(owner) for owner in range(state.seat_count)]
        on_board = pieces_left[0] is not None  # a board of pieces, whose counter is the pieces left
        scores = "" if on_board else f"; {rules.term('score')} {running(state, rules.match.counter)}"
        lines = [f"--- {rules.term('hand')} {state.hand_number}{scores}"]
        if self.picture is not None and (drawn := self.picture(state)):
            lines.extend(drawn)
        else:
            lines.extend(figure.plain_lines(names, rules.term("tiles"), rules.colour_term))
        if on_board:
            lines.append(f"tiles left by seat: {pieces_left}")
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
