"""``heavy``: lays the heaviest tile it can (or, with ``lightest=true``, the lightest)."""

from __future__ import annotations

from typing import Any, ClassVar

from contack_core.engine.actions import Action, Play
from contack_core.engine.bots import Parameter, Player
from contack_core.engine.state import GameState


class HeavyFirst(Player):
    """Sheds the tile with the highest sum of numbers first: fewer points lost if stuck."""

    name = "heavy"
    description = "plays its heaviest tile first (an example plugin bot)"
    supports = frozenset({"parker-1939"})
    parameters: ClassVar[dict[str, Parameter]] = {"lightest": Parameter("lightest", bool, False, "play the lightest tile first instead")}

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self.sign = -1 if self.params["lightest"] else 1

    def choose(self, state: GameState) -> Action:
        values = state.rules.tiles.values
        return max(state.legal_actions(),
                   key=lambda a: self.sign * sum(values[a.tile]) if type(a) is Play else -1000)
