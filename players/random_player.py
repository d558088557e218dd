"""The random bot: uniform over the legal actions, from its own seeded RNG."""

from __future__ import annotations

import random
from math import floor
from typing import TYPE_CHECKING, Any

from contack_core.bots import Player

if TYPE_CHECKING:
    from contack_core.actions import Action
    from contack_core.state import GameState


class RandomPlayer(Player):
    """Picks each legal action with equal probability; reproducible given its seed."""

    name = "random"
    description = "uniform over the legal actions"

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        # floor, not int(): the same index, but int() is a class call, a slow path in CPython 3.11.
        return legal[floor(self.rng.random() * len(legal))]
