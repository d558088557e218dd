"""Telling the moves of a board of pieces in a ruleset's words, and picturing the board as text.

Used by the narrator (as a game is played) and by the replay (from a record); both read the
same :class:`contack_core.boards.grid.PieceBoard` the game state holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from contack_core.boards.grid import PieceBoard, board_legend, board_text

if TYPE_CHECKING:
    from contack_core.engine.events import Moved
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: Words used when a ruleset's ``terms`` leave them out.
MOVE_TERMS: Mapping[str, str] = {
    "moves": "moves", "turns_to": "turns a quarter right, corners NW-NE-SE-SW now", "removed": "removed",
    "flipped": "reaches a ringed spot and is turned over", "contact": "contact",
}


def _term(rules: Rules, key: str) -> str:
    return str(rules.terms.get(key, MOVE_TERMS.get(key, key)))


def piece_name(rules: Rules, board: PieceBoard, piece: int) -> str:
    """``red two-step``, in the ruleset's colour words."""
    return f"{rules.colour_term(board.colour[piece])} {board.kinds[board.kind[piece]].name}"


def corners_text(board: PieceBoard, piece: int) -> str:
    """The corner numbers as the piece lies, clockwise from north-west: ``4-1-2-3``."""
    return "-".join(str(v) for v in board.corners(piece))


def move_words(rules: Rules, board: PieceBoard, event: Moved, who: str) -> str:
    """One move told in full: the walk, the quarter turn, each contact and who went, the flip.

    ``board`` is the position after the move (removed pieces keep their colour and kind)."""
    piece = event.piece
    walk = " -> ".join(str(list(point)) for point in (event.origin, *event.path))
    kind = board.kinds[board.kind[piece]]
    values = kind.face
    turned = "-".join(str(values[(c - event.turn) % 4]) for c in range(4))
    parts = [f"{who} {_term(rules, 'moves')} {piece_name(rules, board, piece)} {walk}, "
             f"{_term(rules, 'turns_to')} {turned}" if not _was_flipped_before(board, event)
             else f"{who} {_term(rules, 'moves')} {piece_name(rules, board, piece)} {walk}"]
    if event.contacts:
        touches = ", ".join(f"{c.mine} against {piece_name(rules, board, c.other)} {c.theirs} at {list(c.square)}"
                            for c in event.contacts)
        summed = ""
        if len(event.contacts) > 1:
            summed = (f" (sums {sum(c.mine for c in event.contacts)} against "
                      f"{sum(c.theirs for c in event.contacts)})")
        gone = ", ".join(str(list(point)) for point in event.removed) or "none"
        parts.append(f"{_term(rules, 'contact')}: {touches}{summed}; {_term(rules, 'removed')}: {gone}")
    if event.flipped:
        parts.append(f"{_term(rules, 'flipped')} ({corners_text(board, piece)})")
    return "; ".join(parts)


def _was_flipped_before(board: PieceBoard, event: Moved) -> bool:
    """A piece already face down shows the same number on every corner: its turn says nothing."""
    return board.flipped[event.piece] and not event.flipped


def position_lines(rules: Rules, board: PieceBoard) -> list[str]:
    """The board as text (see :func:`contack_core.boards.grid.board_text`), then each seat's pieces left."""
    initials = {colour: rules.colour_term(colour)[:1] for colour in set(board.colour)}
    lines = board_text(board, initials)
    for seat, count in enumerate(board.alive):
        lines.append(f"seat {seat}: {count} {rules.term('tiles')} on the board")
    lines.extend(board_legend({colour: rules.colour_term(colour) for colour in set(board.colour)}))
    return lines


def state_board_text(state: GameState) -> str:
    """The position of a game on a board of pieces as text (what ``contack replay`` shows)."""
    board: Any = state.figure
    if not isinstance(board, PieceBoard):
        raise TypeError("this game's board is not a board of pieces")
    return "\n".join(position_lines(state.rules, board)) + "\n"
