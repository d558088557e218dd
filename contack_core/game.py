"""Playing a whole game: chance from one seeded RNG, decisions from the seats' players.

Observers receive every step as it happens (the narrator and the record writer are
observers), so a game is played once and told or recorded on the way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from contack_core.actions import Shuffle
from contack_core.bots import Player
from contack_core.events import Event, HandResult
from contack_core.rules import Rules
from contack_core.state import GameState


class Observer(Protocol):
    def hand_started(self, state: GameState, number: int) -> None: ...
    def event(self, state: GameState, event: Event) -> None: ...
    def hand_ended(self, state: GameState, result: HandResult) -> None: ...
    def game_ended(self, state: GameState) -> None: ...


def seat_seed(seed: int | None, seat: int) -> int | None:
    """The seed a seat's player gets: derived from the game seed, different per seat."""
    return None if seed is None else seed * 16 + seat + 1


def play_game(rules: Rules, players: Sequence[Player], seed: int | None,
              observers: Sequence[Any] = ()) -> GameState:
    """Play one complete game and return its final state."""
    rng = random.Random(seed)
    state = GameState(rules, len(players))
    hand = 0
    results_seen = 0
    while not state.is_over():
        if state.hand_number != hand:
            hand = state.hand_number
            for observer in observers:
                observer.hand_started(state, hand)
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            action = players[state.current_seat()].choose(state)
        event = state.apply(action)
        if not isinstance(action, Shuffle):
            for observer in observers:
                observer.event(state, event)
        if state.effects:
            for effect in state.effects:
                for observer in observers:
                    observer.event(state, effect)
            state.effects.clear()
        while results_seen < len(state.hand_results):
            result = state.hand_results[results_seen]
            results_seen += 1
            for observer in observers:
                observer.hand_ended(state, result)
    for observer in observers:
        observer.game_ended(state)
    return state
