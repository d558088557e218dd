"""Picturing a board of pieces as text, as ``contack replay`` and the score keeper show it.

(A move told in words is :func:`contack_core.engine.notation.move_words`, with every other event.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contack_core.boards.grid import PieceBoard, board_legend, board_text

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

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
