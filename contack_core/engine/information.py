"""Who sees what: a seat's observation of a state, and states resampled from it.

In OpenSpiel's terms a seat's *information state* is everything it has seen; the states
consistent with it form its information set. A ruleset says what is seen zone by zone (the
``visible`` parameter of its zone primitives, see :mod:`contack_core.primitives.zones`), as a
relation between the zone's owner and the seat looking at it: who sees the zone whole, and who
sees its top tile. The relations, narrowest first: ``nobody``, ``owner``, ``partners`` (the owner
and the seats of its side, the match's ``teams``; without teams, the owner alone), ``all``.

- a pile ``none`` (or ``nobody``): how many tiles it holds, never which (a face-down stock);
- a pile ``top``: its top tile, and how many lie beneath (a stack dealt face up);
- a pile ``all``: every tile in order (a discard pile);
- a per-seat zone ``all``: every seat's tiles (open hands, as in the 1939 game); ``owner``: each seat
  its own; ``partners``: each seat its own and its partners'; ``{whole: R, top: T}``: the whole
  zone to the seats in relation R to its owner, its top tile to those in relation T (as
  ``{whole: owner, top: all}``: the last tile drawn shown to the table).

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
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from contack_core.engine.chance import shuffled

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.slots import Zone
    from contack_core.engine.state import GameState

#: What a seat sees of one zone: its tiles bottom to top, ``None`` for each one it cannot see.
ZoneView = tuple[int | None, ...]

#: The relations between a zone's owner and a seat looking at it, narrowest first: each relation
#: holds for every seat the one before it holds for. A shared pile has no owner: only ``nobody``
#: and ``all`` apply to it.
RELATIONS: tuple[str, ...] = ("nobody", "owner", "partners", "all")

#: Who a relation names, in words (for ``describe``).
WHO: Mapping[str, str] = {"nobody": "nobody", "owner": "its owner", "partners": "its owner and the owner's partners",
                          "all": "every seat"}

#: The ``visible`` values written as one word: who sees the whole zone, and who sees its top tile.
#: ``none`` is ``nobody``'s older name; ``top`` shows the top tile to every seat and nothing more.
WORDS: Mapping[str, tuple[str, str]] = {"all": ("all", "all"), "owner": ("owner", "owner"),
                                        "partners": ("partners", "partners"), "nobody": ("nobody", "nobody"),
                                        "none": ("nobody", "nobody"), "top": ("nobody", "all")}

#: The ``visible`` values, and what each shows (the one-word values as the docs name them).
VISIBILITY: Mapping[str, str] = {
    "all": "every tile, to every seat",
    "top": "the top tile; of the rest only how many",
    "none": "only how many tiles",
    "nobody": "only how many tiles",
    "owner": "its own tiles to each seat; of the others' only how many",
    "partners": "its own and its partners' tiles to each seat; of the others' only how many",
}

#: A zone's visibility: who sees it whole, and who sees its top tile (everyone who sees it whole,
#: and maybe more).
Seen = tuple[str, str]


def parse_visible(value: object) -> Seen:
    """A ``visible`` value as (whole, top): one word, or ``{whole: RELATION, top: RELATION}`` (``whole``
    defaults to ``nobody``, ``top`` to ``whole``). Raises ValueError saying why a value is refused."""
    if isinstance(value, str):
        if value not in WORDS:
            raise ValueError(f"visible is one of {', '.join(WORDS)}, or {{whole: RELATION, top: RELATION}}; "
                             f"not {value!r} (a team is the owner's partners: partners)")
        return WORDS[value]
    if not isinstance(value, Mapping):
        raise ValueError(f"visible is a word or a mapping {{whole: RELATION, top: RELATION}}, not {value!r}")
    unknown = sorted(str(key) for key in value if key not in ("whole", "top"))
    if unknown:
        raise ValueError(f"visible has the keys whole and top, not {', '.join(unknown)}")
    whole = value.get("whole", "nobody")
    top = value.get("top", whole)
    for part, relation in (("whole", whole), ("top", top)):
        if relation not in RELATIONS:
            raise ValueError(f"visible.{part} is one of {', '.join(RELATIONS)}, not {relation!r}")
    if RELATIONS.index(top) < RELATIONS.index(whole):
        raise ValueError(f"whoever sees a zone whole sees its top tile: visible.top ({top}) must reach at least "
                         f"as far as visible.whole ({whole})")
    return whole, top


def zone_visibility(zone: Zone) -> Seen:
    """A zone primitive's visibility as (whole, top) (its ``visibility``, which the zone
    contract declares: see :class:`contack_core.engine.slots.Zone`)."""
    return parse_visible(zone.visibility)


def describe_seen(seen: Seen) -> str:
    """A zone's visibility in words."""
    for word in ("all", "top", "none", "owner", "partners"):
        if WORDS[word] == seen:
            return VISIBILITY[word]
    whole, top = seen
    return f"every tile to {WHO[whole]}; the top tile to {WHO[top]}; of the rest only how many"


def relates(relation: str, owner: int, observer: int, teams: list[list[int]] | None) -> bool:
    """True when ``observer`` stands in ``relation`` to ``owner`` (``teams``: the match's sides,
    needed for ``partners`` only)."""
    if relation == "all":
        return True
    if relation == "owner":
        return owner == observer
    if relation == "partners":
        return owner == observer or (teams is not None and any(owner in team and observer in team for team in teams))
    return False


@attrs.frozen
class Visibility:
    """A ruleset's visibility, zone by zone: the shared piles and the per-seat zones, each with
    who sees it whole and who sees its top tile."""

    shared: tuple[tuple[str, str, str], ...]
    per_seat: tuple[tuple[str, str, str], ...]

    @classmethod
    def of(cls, rules: Rules) -> Visibility:
        """The ruleset's visibility, worked out once per ruleset (an observation asks at every decision)."""
        found = _BY_RULES.get(rules)
        if found is None:
            found = _BY_RULES[rules] = cls._of(rules)
        return found

    @classmethod
    def _of(cls, rules: Rules) -> Visibility:
        shared = tuple((key, *zone_visibility(zone)) for key, zone in rules.zones.items() if not zone.per_seat)
        per_seat = tuple((key, *zone_visibility(zone)) for key, zone in rules.zones.items() if zone.per_seat)
        return cls(shared, per_seat)

    @property
    def per_seat_hidden(self) -> bool:
        """True when a seat may be unable to see another seat's tiles (closed hands)."""
        return any(whole != "all" for _, whole, _ in self.per_seat)

    @property
    def hides_anything(self) -> bool:
        """True when some seat may be unable to see some tile (then resampling matters)."""
        return any(whole != "all" for _, whole, _ in self.shared) or self.per_seat_hidden

    def describe(self) -> dict[str, str]:
        """Each zone and what is seen of it, in words (for ``rulesets show`` and the docs)."""
        return {key: describe_seen((whole, top)) for key, whole, top in (*self.shared, *self.per_seat)}

    def _teams(self, state: GameState) -> list[list[int]] | None:
        if any("partners" in (whole, top) for _, whole, top in self.per_seat):
            teams: list[list[int]] = state.rules.match.teams(state.seat_count)
            return teams
        return None

    def hidden_count(self, size: int, whole: str, top: str, owner: int, observer: int,
                     teams: list[list[int]] | None) -> int:
        """How many of a zone's first (bottom) ``size`` tiles ``observer`` cannot see."""
        if relates(whole, owner, observer, teams):
            return 0
        if size and relates(top, owner, observer, teams):
            return size - 1
        return size

    def sees_top(self, rules: Rules, seat_count: int, owner: int, observer: int) -> bool:
        """True when ``observer`` sees the top tile of every per-seat zone of ``owner`` (so the tile
        it has just drawn)."""
        teams: list[list[int]] | None = None
        if any(top == "partners" for _, _, top in self.per_seat):
            teams = rules.match.teams(seat_count)
        return all(relates(top, owner, observer, teams) for _, _, top in self.per_seat)

    def sees_whole(self, rules: Rules, seat_count: int, owner: int, observer: int) -> bool:
        """True when ``observer`` sees every per-seat zone of ``owner`` whole (so every tile a house
        rule's action of ``owner`` returned from them or drew into them)."""
        teams: list[list[int]] | None = None
        if any(whole == "partners" for _, whole, _ in self.per_seat):
            teams = rules.match.teams(seat_count)
        return all(relates(whole, owner, observer, teams) for _, whole, _ in self.per_seat)

    # ------------------------------------------------------------------ the hidden places
    def hidden_runs(self, state: GameState, observer: int) -> list[tuple[list[int], int]]:
        """Where the tiles ``observer`` cannot see lie: each a zone's list and how many of its
        first (bottom) tiles are hidden."""
        runs: list[tuple[list[int], int]] = []
        for key, whole, top in self.shared:
            if whole != "all":
                tiles = state.zones[key]
                hidden = len(tiles) if top != "all" else len(tiles) - 1
                if hidden > 0:
                    runs.append((tiles, hidden))
        if self.per_seat_hidden:
            teams = self._teams(state)
            for key, whole, top in self.per_seat:
                for owner, tiles in enumerate(state.seat_zones[key]):
                    hidden = self.hidden_count(len(tiles), whole, top, owner, observer, teams)
                    if hidden > 0:
                        runs.append((tiles, hidden))
        return runs

    def observation(self, state: GameState, seat: int) -> dict[str, ZoneView | tuple[ZoneView, ...]]:
        """What ``seat`` sees of every zone: shared zones as one view, per-seat zones one per seat."""
        views: dict[str, ZoneView | tuple[ZoneView, ...]] = {}
        for key, whole, top in self.shared:
            tiles = state.zones[key]
            if whole == "all":
                views[key] = tuple(tiles)
            elif top == "all" and tiles:
                views[key] = (None,) * (len(tiles) - 1) + (tiles[-1],)
            else:
                views[key] = (None,) * len(tiles)
        teams = self._teams(state)
        for key, whole, top in self.per_seat:
            seat_views: list[ZoneView] = []
            for owner, tiles in enumerate(state.seat_zones[key]):
                hidden = self.hidden_count(len(tiles), whole, top, owner, seat, teams)
                seat_views.append((None,) * hidden + tuple(tiles[hidden:]))
            views[key] = tuple(seat_views)
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



#: Each ruleset's visibility, kept while the ruleset lives.
_BY_RULES: weakref.WeakKeyDictionary[Rules, Visibility] = weakref.WeakKeyDictionary()
