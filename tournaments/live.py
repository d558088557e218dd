"""The live leaderboard under the progress bar: OpenSkill ratings updated as games arrive.

An online Bayesian rating (``openskill``'s Plackett-Luce model: a skill ``mu`` and its
uncertainty ``sigma`` per entrant, ranked by the ordinal ``mu - 3 sigma``) is cheap to
update one game at a time, so it can follow the run; the report's batch fit over every
game is still the result to quote. A solitaire game is not a contest by itself: the games
of one deal are rated together once every entrant has played it, ranked by score, as the
report does.

Rating a game costs the main process tens of microseconds, as much as storing it, on a
core the workers need. So at most ``games_per_second`` contests are rated (a token
bucket; the others are counted, not rated): a fast run of random bots rates a sample, a
run of slow bots rates every game. Which games make the sample depends on timing, so
the live figures may differ from run to run; the stored results never do.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
from openskill.models import PlackettLuce
from rich.console import Group
from rich.table import Table
from rich.text import Text

from tournaments.play import ERROR, Outcome
from tournaments.render import shown

#: Contests rated per second at most (about 1% of a core at 60 microseconds each).
LIVE_GAMES_PER_SECOND = 150.0
#: Entrants shown under the progress bar.
LIVE_TOP = 8


@attrs.frozen
class LiveStanding:
    name: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: a skill the entrant has with high confidence
    contests: int


class LiveLeaderboard:
    """OpenSkill ratings of a tournament's entrants, fed with outcomes as batches arrive."""

    def __init__(self, names: Sequence[str], games_per_second: float | None = LIVE_GAMES_PER_SECOND,
                 top: int = LIVE_TOP) -> None:
        """``games_per_second``: the most contests rated per second (None: every one)."""
        self.names = tuple(names)
        self.model = PlackettLuce()
        self.ratings = [self.model.rating(name=name) for name in self.names]
        self.contests = [0] * len(self.names)
        self.games_per_second = games_per_second
        self.top = top
        self.allowance = games_per_second or 0.0
        self.last = time.monotonic()
        self.rated = 0
        self.seen = 0
        self.solitaires: dict[int, list[tuple[int, int | None]]] = defaultdict(list)

    def add(self, outcomes: Iterable[Outcome]) -> None:
        """Take the outcomes of a batch of games (solitaire games wait for the rest of their deal)."""
        for outcome in outcomes:
            if outcome.status == ERROR:
                continue
            if len(outcome.seating) == 1:
                deal = self.solitaires[outcome.deal_seed]
                deal.append((outcome.seating[0], outcome.scores[0] if outcome.scores is not None else None))
                if len(deal) == len(self.names):
                    del self.solitaires[outcome.deal_seed]
                    self._contest([entrant for entrant, _ in deal], _solitaire_ranks([s for _, s in deal]))
            elif outcome.ranks is not None:
                self._contest(list(outcome.seating), list(outcome.ranks))

    def _contest(self, entrants: list[int], ranks: list[int]) -> None:
        self.seen += 1
        if not self._may_rate():
            return
        rated = self.model.rate([[self.ratings[e]] for e in entrants], ranks=ranks)
        for entrant, (rating,) in zip(entrants, rated):
            self.ratings[entrant] = rating
            self.contests[entrant] += 1
        self.rated += 1

    def _may_rate(self) -> bool:
        if self.games_per_second is None:
            return True
        now = time.monotonic()
        self.allowance = min(self.games_per_second, self.allowance + (now - self.last) * self.games_per_second)
        self.last = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    def standings(self) -> list[LiveStanding]:
        """Every entrant, best ordinal first."""
        rows = [LiveStanding(name, rating.mu, rating.sigma, rating.ordinal(), contests)
                for name, rating, contests in zip(self.names, self.ratings, self.contests)]
        return sorted(rows, key=lambda row: -row.ordinal)

    def __rich__(self) -> Any:
        """The top entrants as a table (rich renders it under the bar on every refresh)."""
        table = Table(box=None, pad_edge=False)
        for column in ("#", "entrant", "mu", "sigma", "mu-3sigma", "games"):
            table.add_column(column, justify="left" if column == "entrant" else "right")
        for place, row in enumerate(self.standings()[:self.top], start=1):
            table.add_row(str(place), shown(row.name), f"{row.mu:.1f}", f"{row.sigma:.1f}", f"{row.ordinal:.1f}",
                          str(row.contests))
        return Group(Text(f"live openskill ratings, {self.rated} of {self.seen} games rated", style="italic"), table)


def _solitaire_ranks(scores: Sequence[int | None]) -> list[int]:
    """Competition ranks by score, best first; a game that did not finish ranks below every finished one."""
    values = [float("-inf") if score is None else float(score) for score in scores]
    return [1 + sum(other > value for other in values) for value in values]
