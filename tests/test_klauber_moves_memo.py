"""The move rule's memo of each piece's moves (``PieceBoard.moves_cache``): the same moves, in the
same order, as working every piece out afresh, for much less work a turn."""

from __future__ import annotations

import random

import pytest

from contack_core import GameState, load_rules
from contack_core.boards.grid import DIRECTIONS, point_code
from contack_core.engine.actions import IllegalAction, Move
from contack_core.primitives.pieces import MovePiece

CASES = [
    (2, {}),
    (3, {}),
    (4, {"partners": "on"}),
    (4, {"partners": "on", "partner_moves": "always"}),
    (2, {"two_step_turns": "false"}),
    (2, {"side_contact": "every-point"}),
    (2, {"two_players_tiles": "6", "move_cap": "0"}),  # plays on to the seven-step endgame
    (3, {"move_cap": "0", "endgame_lasts": "while-alike"}),
]


def afresh(state: GameState) -> list:
    """The legal moves worked out with the memo emptied."""
    copy = state.clone()
    copy.figure.moves_cache.clear()
    copy._legal = None
    return copy.legal_actions()


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_the_memo_offers_the_moves_a_fresh_board_offers(seats, options):
    rules = load_rules("klauber-1937", options)
    for seed in range(2):
        rng = random.Random(seed)
        state = GameState(rules, seats)
        while not state.is_over() and state.turns < 1500:
            legal = state.legal_actions()
            assert legal == afresh(state), f"seed {seed}, turn {state.turns}"
            state.apply(legal[rng.randrange(len(legal))])


def test_a_turn_works_out_again_only_the_pieces_near_the_last_moves(monkeypatch):
    """Twelve pieces a seat: without the memo every turn works all twelve out."""
    worked = []
    for name in ("_short_moves", "_moves"):
        original = getattr(MovePiece, name)
        monkeypatch.setattr(MovePiece, name, lambda self, *args, _f=original: (worked.append(1), _f(self, *args))[1])
    rules = load_rules("klauber-1937")
    rng = random.Random(1)
    state = GameState(rules, 2)
    turns = 0
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        turns += 1
    assert len(worked) / turns < 3


def test_a_move_the_memo_does_not_offer_is_checked_rule_by_rule():
    rules = load_rules("klauber-1937")
    state = GameState(rules, 2)
    legal = state.legal_actions()
    copy = Move(legal[0].origin, legal[0].path)  # equal, not the object offered: checked, and legal
    assert copy is not legal[0]
    state.clone().apply(copy)
    with pytest.raises(IllegalAction, match="one step along a line"):
        state.apply(Move(legal[0].origin, ((legal[0].origin[0] + 1, legal[0].origin[1] + 1),)))


def counted_afresh(board) -> dict[int, dict]:
    """How many pieces of each side stand side by side with each point of the board (by its code),
    counted round the board."""
    counts: dict[int, dict] = {side: {} for side in board.side}
    for piece, square in enumerate(board.square):
        if square is not None:
            side_counts = counts[board.side[board.owner[piece]]]
            for dx, dy in DIRECTIONS:
                near = (square[0] + dx, square[1] + dy)
                if board.on_board(near):
                    code = point_code(*near)
                    side_counts[code] = side_counts.get(code, 0) + 1
    return counts


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_the_tabled_moves_are_the_walks_and_the_board_counts_its_sides_right(seats, options):
    """A piece's one- and two-step moves from the walk tables and the board's counts of who stands
    beside each point are the moves the board's own walks and side-contact look find."""
    rules = load_rules("klauber-1937", options)
    rule = next(r for r in rules.turn if isinstance(r, MovePiece))
    for seed in range(2):
        rng = random.Random(seed)
        state = GameState(rules, seats)
        while not state.is_over() and state.turns < 600:
            board = state.figure
            assert board.beside == counted_afresh(board), f"seed {seed}, turn {state.turns}"
            assert board.piece_at == {point_code(*point): piece for point, piece in board.tile_at.items()}, \
                f"seed {seed}, turn {state.turns}"
            assert board.clone().beside == board.beside
            assert board.clone().piece_at == board.piece_at
            for piece in board.pieces_of(state.current):
                steps = rule.steps(board, piece)
                origin = board.square[piece]
                if steps <= 2:
                    assert rule._short_moves(board, piece, origin, steps) == \
                        rule._moves(None, board, piece, origin, steps, False), f"seed {seed}, turn {state.turns}"
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("change", ["begins", "ends"])
def test_the_memo_is_emptied_when_the_endgame_changes_the_steps(change):
    """Worked out for a piece's own steps, a memo kept into the seven-step endgame would offer the
    wrong moves, and one worked out for seven steps kept after it ends (once a piece is turned over):
    the turns after it begins (or ends) in random games are checked against a fresh board, six times.
    In the endgame every piece's moves are worked out each turn (``features``, as a bot that weighs
    the position asks), so that the other side's are kept when it ends."""
    rules = load_rules("klauber-1937", {"move_cap": "0", "endgame_lasts": "while-alike"})
    rule = next(r for r in rules.turn if isinstance(r, MovePiece))
    changes = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = GameState(rules, 3)
        in_endgame = False
        following = 0  # turns still to check after a change
        while not state.is_over() and state.turns < 3000:
            if in_endgame:
                rule.features(state)
            legal = state.legal_actions()
            if following:
                assert legal == afresh(state), f"seed {seed}, turn {state.turns}"
                following -= 1
            state.apply(legal[rng.randrange(len(legal))])
            now = state.figure.endgame_moves is not None
            if now != in_endgame and now == (change == "begins") and not state.is_over():
                changes += 1
                following = 3
            in_endgame = now
        if changes >= 6:
            return
    pytest.fail(f"the endgame {change} only {changes} times in 300 games")
