"""The move clock costs nothing when nobody overruns: a bot whose ``choose`` keeps the deadline
itself (``@keeps_deadline``: every built-in in-process bot) is called directly under a clock, on
the game's own state, with ``deadline`` set; a late answer is still a timeout fault. A bot without
the mark (a plugin, or a subclass that overrides ``choose``) runs in a clocked thread as before;
tests/test_faults.py checks that a hanging one cannot hang the game."""

from __future__ import annotations

import threading
import time

from helpers import RULES

from contack_core import load_rules
from contack_core.engine.actions import Draw, Pass
from contack_core.engine.bots import Budget, keeps_deadline
from contack_core.engine.referee import play_game
from players.cautious import CautiousPlayer
from players.greedy import GreedyPlayer
from players.mcts import MctsPlayer
from players.random_player import RandomPlayer
from tournaments.play import OpeningPlayer, WatchedPlayer


class Witness(RandomPlayer):
    """A random bot that notes, at each decision, its thread, the state it is given and its deadline."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[tuple[threading.Thread, int, float | None, float]] = []

    @keeps_deadline
    def choose(self, state):  # type: ignore[no-untyped-def]
        self.seen.append((threading.current_thread(), id(state), self.deadline, time.perf_counter()))
        return super().choose(state)


class UnmarkedWitness(Witness):
    def choose(self, state):  # type: ignore[no-untyped-def]
        self.seen.append((threading.current_thread(), id(state), self.deadline, time.perf_counter()))
        return RandomPlayer.choose(self, state)


class LateOnce(RandomPlayer):
    """Keeps the deadline, it says, but answers late the first time it could draw or pass."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.late = True

    @keeps_deadline
    def choose(self, state):  # type: ignore[no-untyped-def]
        if self.late and any(isinstance(a, Draw | Pass) for a in state.legal_actions()):
            self.late = False
            time.sleep(0.2)
        return super().choose(state)


def test_a_bot_that_keeps_the_deadline_is_called_directly_on_the_games_state_with_the_deadline_set():
    witness = Witness(3)
    state = play_game(RULES, [witness, RandomPlayer(seed=2)], 5, budget=Budget(time_per_move=30.0))
    assert state.over and not state.faults and witness.seen
    assert {thread for thread, *_ in witness.seen} == {threading.main_thread()}
    assert {state_id for _, state_id, *_ in witness.seen} == {id(state)}  # no copy
    assert all(deadline is not None and 0 < deadline - at <= 30.0 for *_, deadline, at in witness.seen)
    assert witness.deadline is None  # set for a move only


def test_a_bot_without_the_mark_still_runs_in_a_thread_on_a_copy_with_the_deadline_set():
    witness = UnmarkedWitness(3)
    assert not witness.keeps_deadline and RandomPlayer(1).keeps_deadline
    state = play_game(RULES, [witness, RandomPlayer(seed=2)], 5, budget=Budget(time_per_move=30.0))
    assert state.over and not state.faults
    assert threading.main_thread() not in {thread for thread, *_ in witness.seen}
    assert id(state) not in {state_id for _, state_id, *_ in witness.seen}
    assert all(deadline is not None for *_, deadline, _ in witness.seen)


def test_the_clock_changes_no_choice_of_a_bot_that_answers_in_time():
    free = play_game(RULES, [Witness(1), GreedyPlayer(2), CautiousPlayer(3)], 5)
    clocked = play_game(RULES, [Witness(1), GreedyPlayer(2), CautiousPlayer(3)], 5, budget=Budget(time_per_move=60.0))
    assert not clocked.faults and clocked.scores() == free.scores() and clocked.turns == free.turns


def test_a_bot_that_keeps_the_deadline_but_answers_late_is_charged_a_timeout_and_the_game_goes_on():
    state = play_game(RULES, [LateOnce(1), RandomPlayer(seed=2)], 5, budget=Budget(time_per_move=0.05))
    assert state.over and state.forfeited_by is None
    [fault] = state.faults
    assert fault.seat == 0 and fault.kind == "timeout" and "answered late" in fault.reason


def test_mcts_stops_its_search_at_the_referees_deadline(monkeypatch):
    rules = load_rules("parker-1939")
    state = play_until_a_choice(rules)
    bot = MctsPlayer(seed=1, iterations=50)
    bot.start_game(rules, state.current, state.seat_count)
    iterations = []
    real = MctsPlayer._iterate
    monkeypatch.setattr(MctsPlayer, "_iterate", lambda self, *a: (iterations.append(1), real(self, *a)))
    bot.deadline = time.perf_counter() - 1.0  # already past: one iteration, then stop
    bot.choose(state)
    assert len(iterations) == 1
    bot.deadline = None
    bot.choose(state)
    assert len(iterations) == 1 + 50


def test_cautious_stops_weighing_replies_at_the_deadline_and_judges_as_greedy(monkeypatch):
    import players.cautious as cautious

    rules = load_rules("parker-1939")
    state = play_until_a_choice(rules)
    calls = []
    real = cautious.best_reply_gain
    monkeypatch.setattr(cautious, "best_reply_gain", lambda s: (calls.append(1), real(s))[1])
    bot = CautiousPlayer(seed=1)
    bot.budget = Budget(time_per_move=1.0)
    bot.deadline = time.perf_counter() - 1.0
    assert bot.choose(state) == GreedyPlayer(seed=1).choose(state) and not calls
    bot.deadline = None
    bot.choose(state)
    assert calls


def test_the_tournament_wrappers_carry_the_mark_and_the_deadline():
    state = play_until_a_choice(load_rules("parker-1939"))
    for inner in (Witness(1), UnmarkedWitness(1)):
        for wrapper in (WatchedPlayer(inner, 0, lambda seat, method: None), OpeningPlayer(inner, 2, 7)):
            assert wrapper.keeps_deadline == inner.keeps_deadline
            wrapper.deadline = 12.5
            wrapper.choose(state)
            assert inner.seen[-1][2] == 12.5  # the wrapped bot's choose saw the referee's deadline
            wrapper.deadline = None


def play_until_a_choice(rules) -> object:  # type: ignore[no-untyped-def]
    """A decision of a seeded random 2-seat game with several legal actions, some turns in."""
    import random

    from contack_core import GameState

    rng = random.Random(4)
    state = GameState(rules, 2)
    while True:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if state.turns > 6 and len(legal) > 3:
            return state
        state.apply(legal[rng.randrange(len(legal))])




def test_bench_clock_prints_what_the_clock_leaves_of_the_speed_by_wall_clock_and_by_processor_time():
    import json

    from helpers import run_cli

    result = run_cli("bench", "parker-1939", "--games", "4", "--players", "3", "--clock", "30", "--bot", "greedy",
                     "--rounds", "2", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["clock_bot"] == "greedy" and figures["clock_seconds_per_move"] == 30 and figures["rounds"] == 2
    assert figures["clock_faults"] == 0
    assert figures["clock_ratio"] == round(figures["clocked_games_per_s"] / figures["refereed_games_per_s"], 3)
    assert figures["clock_ratio_cpu"] == round(figures["refereed_cpu_seconds"] / figures["clocked_cpu_seconds"], 3)
    assert figures["clock_ratio_of_totals"] > 0


def test_bench_clock_refuses_a_bad_clock_or_bot_in_one_line():
    from helpers import run_cli

    for args, says in ((["--clock", "0"], "--clock takes seconds above 0"), (["--clock", "nan"], "--clock takes"),
                       (["--clock", "1", "--bot", "nosuch"], "--bot: unknown player 'nosuch'")):
        result = run_cli("bench", "parker-1939", "--games", "2", *args)
        assert result.exit_code != 0 and says in result.stderr and "Traceback" not in result.output, result.output
