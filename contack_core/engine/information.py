"""Who sees what: a seat's observation of a state, and states resampled from it.

In OpenSpiel's terms a seat's *information state* is everything it has seen; the states
consistent with it form its information set. A ruleset says what is seen zone by zone (the
``visible`` parameter of its zone primitives, see :mod:`contack_core.primitives.zones`):

- a pile ``none``: how many tiles it holds, never which (a face-down stock);
- a pile ``top``: its top tile, and how many lie beneath (a stack dealt face up);
- a pile ``all``: every tile in order (a discard pile);
- a per-seat zone ``all``: every seat's tiles (open hands, as in the 1939 game); ``owner``: each seat
  its own.

The figure, or the board of pieces, is seen whole by every seat, as are the counters, the hand
number and whose turn it is. Nothing else in a state is hidden: once the tiles a seat cannot see
are known, so is everything.

:meth:`Visibility.observation` (``GameState.observation(seat)``) is what ``seat`` sees, each zone
as a tuple of tiles with ``None`` for a tile it cannot see. :meth:`Visibility.resample`
(``GameState.resample(observer, rng)``) is OpenSpiel's ``resample_from_infostate``: a copy of the state
in which every tile hidden from ``observer`` is redrawn at random among the hidden places, so the
copy looks the same to the observer and is drawn uniformly from its information set (no tile is
ever told apart from another by where it lies). A bot that searches ahead must search such
copies only: a plain ``clone()`` still holds the true order of the pile.

A reading, stated: a ``top`` pile hides the tiles beneath its top whatever happened before, so a
tile laid on such a pile in play is forgotten once covered (no shipped ruleset lays tiles on one).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from contack_core.engine.chance import shuffled

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: What a seat sees of one zone: its tiles bottom to top, ``None`` for each one it cannot see.
ZoneView = tuple[int | None, ...]

#: The ``visible`` values, and what each shows.
VISIBILITY: Mapping[str, str] = {
    "all": "every tile, to every seat",
    "top": "the top tile; of the rest only how many",
    "none": "only how many tiles",
    "owner": "its own tiles to each seat; of the others' only how many",
}


def zone_visibility(zone: object) -> str:
    """A zone primitive's ``visible`` (a primitive from a plugin that states none: face-up zones
    are seen whole, others not at all)."""
    found = getattr(zone, "visibility", None)
    if found is not None:
        return str(found)
    return "all" if getattr(zone, "face_up", False) else "none"


@attrs.frozen
class Visibility:
    """A ruleset's visibility, zone by zone: the shared piles and the per-seat zones."""

    shared: tuple[tuple[str, str], ...]
    per_seat: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, rules: Rules) -> Visibility:
        shared = tuple((key, zone_visibility(zone)) for key, zone in rules.zones.items() if not zone.per_seat)
        per_seat = tuple((key, zone_visibility(zone)) for key, zone in rules.zones.items() if zone.per_seat)
        return cls(shared, per_seat)

    @property
    def per_seat_hidden(self) -> bool:
        """True when a seat may be unable to see another seat's tiles (closed hands)."""
        return any(seen != "all" for _, seen in self.per_seat)

    @property
    def hides_anything(self) -> bool:
        """True when some seat may be unable to see some tile (then resampling matters)."""
        return any(seen != "all" for _, seen in self.shared) or any(seen != "all" for _, seen in self.per_seat)

    def describe(self) -> dict[str, str]:
        """Each zone and what is seen of it, in words (for ``rulesets show`` and the docs)."""
        return {key: VISIBILITY.get(seen, seen) for key, seen in (*self.shared, *self.per_seat)}

    # ------------------------------------------------------------------ the hidden places
    def hidden_runs(self, state: GameState, observer: int) -> list[tuple[list[int], int]]:
        """Where the tiles ``observer`` cannot see lie: each a zone's list and how many of its
        first (bottom) tiles are hidden."""
        runs: list[tuple[list[int], int]] = []
        for key, seen in self.shared:
            if seen != "all":
                tiles = state.zones[key]
                hidden = len(tiles) if seen == "none" else len(tiles) - 1
                if hidden > 0:
                    runs.append((tiles, hidden))
        for key, seen in self.per_seat:
            if seen != "all":
                runs.extend((tiles, len(tiles)) for seat, tiles in enumerate(state.seat_zones[key])
                            if seat != observer and tiles)
        return runs

    def observation(self, state: GameState, seat: int) -> dict[str, ZoneView | tuple[ZoneView, ...]]:
        """What ``seat`` sees of every zone: shared zones as one view, per-seat zones one per seat."""
        views: dict[str, ZoneView | tuple[ZoneView, ...]] = {}
        for key, seen in self.shared:
            tiles = state.zones[key]
            if seen == "all":
                views[key] = tuple(tiles)
            elif seen == "top" and tiles:
                views[key] = (None,) * (len(tiles) - 1) + (tiles[-1],)
            else:
                views[key] = (None,) * len(tiles)
        for key, seen in self.per_seat:
            views[key] = tuple(tuple(tiles) if seen == "all" or owner == seat else (None,) * len(tiles)
                               for owner, tiles in enumerate(state.seat_zones[key]))
        return views

    def resample(self, state: GameState, observer: int, rng: random.Random) -> GameState:
        """A copy of ``state`` with every tile hidden from ``observer`` redrawn among the hidden places.

        The hidden tiles are sorted before they are shuffled, so the copy depends only on what
        ``observer`` sees and on ``rng``, never on where the hidden tiles truly lie.
        """
        world = state.clone()
        runs = self.hidden_runs(world, observer)
        if len(runs) == 1:  # one face-down pile, as in every shipped game of tiles: every playout's path
            tiles, hidden = runs[0]
            tiles[:hidden] = shuffled(sorted(tiles[:hidden]), rng)
        elif runs:
            drawn = iter(shuffled(sorted(tile for tiles, hidden in runs for tile in tiles[:hidden]), rng))
            for tiles, hidden in runs:
                for index in range(hidden):
                    tiles[index] = next(drawn)
        if runs and self.per_seat_hidden:
            world._legal = None  # another seat's tiles changed; what a pile hides never makes an action legal
        return world

