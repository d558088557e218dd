"""The solitaire solver (players/solve.py): its clairvoyant search against exhaustive play, its
honest player seeing only what the seat sees, and the command's refusals."""

from __future__ import annotations

import random

import pytest
from helpers import permute_hidden

from contack_core import GameState, load_rules
from players.solve import Search, completed, dealt, honest_choice, main, solve_deal

SOLITAIRE_1 = load_rules("solitaire-1")


def every_ending(state: GameState) -> list[bool]:
    """Whether each line of play from ``state`` completes the game: every choice tried."""
    while not state.is_over():
        actions = state.legal_actions()
        if len(actions) > 1:
            endings = []
            for action in actions:
                branch = state.clone()
                branch.apply(action)
                endings += every_ending(branch)
            return endings
        state.apply(actions[0])
    return [completed(state)]


@pytest.mark.parametrize("seed", range(8))
def test_the_clairvoyant_search_finds_a_completion_exactly_when_some_line_of_play_has_one(seed: int) -> None:
    start = dealt(SOLITAIRE_1, seed)
    endings = every_ending(start.clone())
    assert len(endings) > 1  # the deal offers choices
    assert Search(10**6).completable(start.clone()) == any(endings)


def test_the_honest_choice_depends_only_on_what_the_seat_sees() -> None:
    """The same choice when the tiles it cannot see (the stock's order) are put in another order."""
    checked = 0
    for seed in range(40):
        state = dealt(SOLITAIRE_1, seed)
        while not state.is_over() and len(state.legal_actions()) == 1:
            state.apply(state.legal_actions()[0])
        if state.is_over():
            continue
        other = permute_hidden(state, 0, random.Random(seed))
        assert other.zone("stock") != state.zone("stock")
        assert honest_choice(state, 8, random.Random(1), 10**5) == honest_choice(other, 8, random.Random(1), 10**5)
        checked += 1
    assert checked >= 20


def test_honest_play_completes_only_deals_the_clairvoyant_search_can() -> None:
    for seed in range(12):
        bounds = solve_deal("solitaire-1", seed, 4, 10**5)
        assert bounds.clairvoyant or not bounds.honest
        assert not bounds.out_of_budget


def test_the_command_prints_both_shares_with_their_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ruleset", "solitaire-1", "--deals", "3", "--samples", "2", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("solitaire-1: 3 deals, seed 1 (the deals players.strength plays)")
    assert lines[1].startswith("clairvoyant (every hidden tile known): completable: ") and "% [" in lines[1]
    assert lines[2].startswith("honest (what the seat sees): completed: ") and "% [" in lines[2]


@pytest.mark.parametrize(("args", "message"), [
    (["--ruleset", "parker-1939"], "the solver takes a ruleset of one seat"),
    (["--ruleset", "no-such-ruleset"], "no ruleset 'no-such-ruleset'"),
    (["--deals", "0"], "at least 1"),
    (["--ruleset", "examples/solitaire-redeal", "--deals", "2", "--samples", "1", "--workers", "1"],
     "examples/solitaire-redeal: it reaches a chance node after the deal"),
])
def test_the_command_refuses_what_it_cannot_solve(args: list[str], message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err
