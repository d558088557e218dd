"""The results of a tournament: what a runner can trust, each figure with its 95% interval.

- **Standings per table size**: a Plackett-Luce fit (``choix``, iterative Luce spectral
  ranking) over the finishing orders of that size's games, shown on an Elo-like scale
  (1500 = average, 400 points = ten times the strength), with mean score and win rate. A
  game whose seats tie is entered twice, once with the tied seats in each order, and every
  other game twice as it is, so all games weigh the same. Where a tournament has several
  table sizes, one *pooled* fit over all of them follows, saying what it pools.
- **Solitaires**: each entrant's completion rate and mean tiles placed; the ranking of
  entrants against each other on each deal is shown apart, and named as such.
- **Paired comparisons** of every two entrants over the deals both played, a cross-table,
  and the variance the duplicate deals save (:mod:`tournaments.paired`).
- **Unfinished runs** are flagged, with the command that finishes them; faults are counted
  per bot with example games; a sequential test run on the folder is reported.

The 95% intervals of ratings, mean scores and win rates are bootstrap percentiles over
*deal groups*: all the games that replayed one deal are resampled together, because they
share its luck.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import attrs
import choix
import numpy as np

from tournaments.paired import DuplicateGain, PairComparison, cross_table, duplicate_gains, paired_comparisons
from tournaments.play import ERROR
from tournaments.schedule import games_per_deal, tables_from_json
from tournaments.sprt import SprtMonitor, SprtSettings, SprtState
from tournaments.statistics import (
    MIN_DEALS,
    Interval,
    bootstrap_draws,
    draw_counts,
    mean_of_deals_interval,
    percentiles,
    resample_counts,
    share_interval,
    no_spread,
    too_few,
)
from tournaments.store import GameRow

#: The rating scale: Elo's, with the field's average at 1500.
RATING_CENTRE, RATING_SCALE = 1500.0, 400.0 / math.log(10.0)
#: Regularisation of the fit (a prior worth a tiny fraction of a game), so that an entrant
#: that always wins or always loses keeps a finite rating.
FIT_ALPHA = 0.01
#: Convergence of the fit, in log-strength: far below what a rating shows (0.0004 Elo points).
FIT_TOLERANCE = 1e-6


@attrs.frozen
class Standing:
    name: str
    player: str
    games: int
    rating: Interval
    mean_score: Interval
    win_rate: Interval
    faults: int


@attrs.frozen
class SeatEffect:
    table_size: int
    seat: int
    games: int
    mean_score: Interval  # over deals (a deal's games together), tournaments.statistics.mean_of_deals_interval
    win_rate: Interval  # Wilson's, clustered by deal


@attrs.frozen
class TableStandings:
    """The standings of one table size, from its games alone."""

    table_size: int
    games: int
    deal_groups: int
    standings: list[Standing]

    def to_json(self) -> list[dict[str, Any]]:
        return [_standing_json(i, s) for i, s in enumerate(self.standings)]


@attrs.frozen
class SolitaireStanding:
    """A solitaire entrant's own results: how often it completed the solitaire, and how far it got."""

    name: str
    games: int
    completed: Interval  # the share of games completed, Wilson interval (each game a deal of its own)
    placed: Interval  # mean tiles placed, tournaments.statistics.mean_of_deals_interval

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "completion_rate": self.completed.to_json(),
                "mean_tiles_placed": self.placed.to_json()}


@attrs.frozen
class Progress:
    """How much of the schedule is stored: an unfinished run is flagged, with the command that finishes it."""

    scheduled: int
    stored: int
    resume: str | None

    #: True when a sequential test stopped the run once it had decided: the schedule was only its limit.
    decided: bool = False

    @property
    def finished(self) -> bool:
        return self.decided or self.stored >= self.scheduled


@attrs.frozen
class SprtReport:
    """A sequential test run on this folder (``contack tournament sprt``), recomputed from the stored games."""

    a: str
    b: str
    state: SprtState
    partial: int  # deals not in the test: played in part, or after it decided

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "partial_deals": self.partial, **self.state.to_json()}


@attrs.frozen
class Report:
    name: str
    ruleset: str
    games: int
    statuses: dict[str, int]
    deal_groups: int
    bootstrap: int
    progress: Progress
    #: The pooled fit over every table size, or the one table size's standings.
    standings: list[Standing]
    #: The table sizes the pooled fit mixes (empty: one table size, nothing is pooled).
    pooled_sizes: list[int]
    by_table_size: list[TableStandings]
    solitaire: list[SolitaireStanding]
    seat_effects: list[SeatEffect]
    names: list[str]  # entrants in config order: the index of the matrices
    head_to_head: list[list[float | None]]  # [a][b]: share of shared games a finished ahead of b
    head_to_head_games: list[list[int]]
    cross_table: list[list[tuple[int, int, int]]]  # [a][b]: a's wins, losses, ties against b
    pairs: list[PairComparison]
    duplicate: list[DuplicateGain]
    faults: dict[str, dict[str, int]]  # entrant -> fault kind -> count
    fault_games: dict[str, list[str]]  # entrant (or "(engine)") -> a few of the games, by key
    engine_errors: int
    sprt: SprtReport | None = None

    def to_json(self) -> dict[str, Any]:
        names = self.names
        return {
            "name": self.name, "ruleset": self.ruleset, "games": self.games, "statuses": self.statuses,
            "scheduled": self.progress.scheduled, "finished": self.progress.finished,
            "resume": None if self.progress.finished else self.progress.resume,
            "deal_groups": self.deal_groups, "bootstrap": self.bootstrap,
            "rating_scale": "Plackett-Luce log-strength on the Elo scale: 1500 average, 400 = 10x",
            "standings": [_standing_json(i, s) for i, s in enumerate(self.standings)],
            "pooled_table_sizes": self.pooled_sizes,
            "by_table_size": {str(t.table_size): t.to_json() for t in self.by_table_size},
            "solitaire": [s.to_json() for s in self.solitaire],
            "seat_effects": [{"table_size": e.table_size, "seat": e.seat, "games": e.games,
                              "mean_score": e.mean_score.to_json(), "win_rate": e.win_rate.to_json()}
                             for e in self.seat_effects],
            "head_to_head": {a: {b: {"ahead": self.head_to_head[i][j], "games": self.head_to_head_games[i][j]}
                                 for j, b in enumerate(names) if i != j} for i, a in enumerate(names)},
            "cross_table": {a: {b: dict(zip(("wins", "losses", "ties"), self.cross_table[i][j]))
                                for j, b in enumerate(names) if i != j} for i, a in enumerate(names)},
            "paired_comparisons": [pair.to_json() for pair in self.pairs],
            "duplicate_deals": [gain.to_json() for gain in self.duplicate],
            "faults": self.faults, "fault_games": self.fault_games, "engine_errors": self.engine_errors,
            "sprt": None if self.sprt is None else self.sprt.to_json(),
        }


def _standing_json(index: int, s: Standing) -> dict[str, Any]:
    return {"rank": index + 1, "name": s.name, "player": s.player, "games": s.games, "rating": s.rating.to_json(),
            "mean_score": s.mean_score.to_json(), "win_rate": s.win_rate.to_json(), "faults": s.faults}


# --------------------------------------------------------------------------- rankings
def orderings(ranks: Sequence[int], entrants: Sequence[int]) -> list[tuple[int, ...]]:
    """Two finishing orders (best first) of one game: tied seats in one order, then the other."""
    seats = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    forward = tuple(entrants[s] for s in seats)
    backward_seats = sorted(range(len(ranks)), key=lambda s: (ranks[s], -s))
    return [forward, tuple(entrants[s] for s in backward_seats)]


def competition_ranks(values: Sequence[float]) -> list[int]:
    return [1 + sum(other > value for other in values) for value in values]


@attrs.frozen
class Outcome:
    """One ranked contest for the fit and the statistics: who took part, their ranks, their scores."""

    group: int  # deal group (the deal seed)
    entrants: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...] | None
    size: int = 0  # the table size (1: a solitaire deal's entrants ranked against each other)


def outcomes(rows: Sequence[GameRow]) -> list[Outcome]:
    """Contests from stored games; solitaire games of one deal make one contest."""
    result = []
    solitaire: dict[int, list[GameRow]] = defaultdict(list)
    for row in rows:
        if row.status == ERROR:
            continue
        if row.table_size == 1:
            solitaire[row.deal_seed].append(row)
        elif row.ranks is not None:
            result.append(Outcome(row.deal_seed, row.seating, row.ranks, row.scores, row.table_size))
    for seed, games in solitaire.items():
        if len(games) < 2:
            continue
        # A solitaire game that did not finish ranks below every finished one.
        finals = [g.scores[0] if g.scores is not None else None for g in games]
        values = [-math.inf if score is None else score for score in finals]
        scores = None if None in finals else tuple(score for score in finals if score is not None)
        result.append(Outcome(seed, tuple(g.seating[0] for g in games), tuple(competition_ranks(values)), scores, 1))
    return result


def fit_ratings(entrant_count: int, contests: Sequence[Outcome], start: np.ndarray | None = None) -> np.ndarray:
    """Plackett-Luce log-strengths (mean 0) from every contest's finishing order.

    ``start`` (the full fit, for a bootstrap resample) saves most of the iterations.
    """
    by_size: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for contest in contests:
        for order in orderings(contest.ranks, contest.entrants):
            by_size[len(order)].append(order)
    if not by_size:
        return np.zeros(entrant_count)
    data = [np.array(orders, dtype=np.intp) for orders in by_size.values()]
    params = start
    for _ in range(500):
        fresh = _lsr_step(entrant_count, data, params)
        done = params is not None and float(np.abs(fresh - params).sum()) < FIT_TOLERANCE
        params = fresh
        if done:
            return params - np.mean(params)
    # No convergence: the direct optimiser is slower but sure.
    params = choix.opt_rankings(entrant_count, [list(o) for orders in data for o in orders], alpha=FIT_ALPHA)
    return np.asarray(params) - np.mean(params)


def _lsr_step(entrant_count: int, data: Sequence[np.ndarray], params: np.ndarray | None) -> np.ndarray:
    """One step of iterative Luce spectral ranking (choix's ``lsr_rankings``, with its regularisation),
    the Markov chain built with array operations: each finishing order (a row, best first, one array
    per table size) adds 1 / (the strength still in the race) to every later entrant's rate towards
    the one placed."""
    weights = np.ones(entrant_count) if params is None else choix.utils.exp_transform(params)
    chain = FIT_ALPHA * np.ones((entrant_count, entrant_count))
    for orders in data:
        still_in = np.cumsum(weights[orders][:, ::-1], axis=1)[:, ::-1]
        for place in range(orders.shape[1] - 1):
            rate = 1.0 / still_in[:, place]
            for later in range(place + 1, orders.shape[1]):
                np.add.at(chain, (orders[:, later], orders[:, place]), rate)
    chain -= np.diag(chain.sum(axis=1))
    return choix.utils.log_transform(choix.utils.statdist(chain))


def to_rating(strength: float) -> float:
    return RATING_CENTRE + RATING_SCALE * strength


# --------------------------------------------------------------------------- the report
def build_report(config: dict[str, Any], rows: Sequence[GameRow], bootstrap: int = 100, seed: int = 0,
                 meta: dict[str, str] | None = None) -> Report:
    """Everything the report shows, from the stored config document, games and (optional) meta keys."""
    import json

    meta = meta or {}
    entrants = config["entrants"]
    n = len(entrants)
    names = [e["name"] for e in entrants]
    rng = np.random.default_rng(seed)
    contests = outcomes(rows)

    fault_counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    fault_games: dict[str, list[str]] = defaultdict(list)
    engine_errors = 0
    for row in rows:
        for fault in row.faults:
            seat = fault.get("seat")
            who = "(engine)" if seat is None else names[row.seating[seat]]
            if seat is None:
                engine_errors += 1
            else:
                fault_counts[who][str(fault.get("kind", "fault"))] += 1
            if len(fault_games[who]) < 3 and row.key not in fault_games[who]:
                fault_games[who].append(row.key)
    faults_of = {name: sum(counter.values()) for name, counter in fault_counts.items()}

    sizes = sorted({row.table_size for row in rows})
    by_size = []
    for size in sizes:
        chosen = [c for c in contests if c.size == size]
        standings = [s for s in _standings(chosen, entrants, bootstrap, rng, faults_of) if s.games]
        by_size.append(TableStandings(size, sum(1 for row in rows if row.table_size == size),
                                      len({c.group for c in chosen}), standings))
    pooled = _standings(contests, entrants, bootstrap, rng, faults_of) if len(sizes) > 1 else \
        (by_size[0].standings if by_size else [])

    matrix, counts = head_to_head(n, contests)
    statuses = Counter(row.status for row in rows)
    seats = config.get("seats") or sizes
    scheduled = games_per_deal(n, seats if isinstance(seats, list) else [seats],
                               tables_from_json(config.get("tables"))) * int(config.get("deals", 0))
    progress = Progress(scheduled, len(rows), meta.get("resume"))
    duplicate = [gain for size in sizes if size > 1 for gain in duplicate_gains(rows, n, size, bootstrap, rng)]
    sprt = None
    if "sprt" in meta:
        test = json.loads(meta["sprt"])
        monitor = SprtMonitor(names.index(test["a"]), names.index(test["b"]), test["comparisons"],
                              SprtSettings(**test["settings"]))
        monitor.add(rows)
        sprt = SprtReport(test["a"], test["b"], monitor.state, monitor.partial)
        progress = attrs.evolve(progress, decided=sprt.state.verdict is not None)
    return Report(config["name"], config["ruleset"], len(rows), dict(sorted(statuses.items())),
                  len({c.group for c in contests}), bootstrap if contests else 0, progress, pooled,
                  sizes if len(sizes) > 1 else [], by_size, solitaire_standings(rows, names, bootstrap, rng),
                  seat_effects(rows, bootstrap, rng),
                  names, matrix, counts, cross_table(rows, n), paired_comparisons(rows, names, sizes), duplicate,
                  {name: dict(counter) for name, counter in fault_counts.items() if counter}, dict(fault_games),
                  engine_errors, sprt)


def _standings(contests: Sequence[Outcome], entrants: Sequence[dict[str, Any]], bootstrap: int,
               rng: np.random.Generator, faults_of: dict[str, int]) -> list[Standing]:
    """Ratings, mean scores and win rates from these contests, with bootstrap intervals over their deal groups."""
    n = len(entrants)
    names = [e["name"] for e in entrants]
    groups = sorted({c.group for c in contests})
    group_index = {g: i for i, g in enumerate(groups)}
    by_group: list[list[Outcome]] = [[] for _ in groups]
    for contest in contests:
        by_group[group_index[contest.group]].append(contest)

    # Per group and entrant: score sums and counts, win shares and contests.
    score_sum = np.zeros((len(groups), n))
    score_count = np.zeros((len(groups), n))
    wins = np.zeros((len(groups), n))
    played = np.zeros((len(groups), n))
    for contest in contests:
        g = group_index[contest.group]
        winners = [e for e, r in zip(contest.entrants, contest.ranks) if r == 1]
        for position, entrant in enumerate(contest.entrants):
            played[g, entrant] += 1
            if contest.ranks[position] == 1:
                wins[g, entrant] += 1 / len(winners)
            if contest.scores is not None:
                score_sum[g, entrant] += contest.scores[position]
                score_count[g, entrant] += 1

    strengths = fit_ratings(n, contests)
    samples = bootstrap_draws(len(groups), bootstrap, rng) if groups and bootstrap else None
    boot_strengths = []
    weights = draw_counts(samples, len(groups)) if samples is not None else np.zeros((0, len(groups)))
    if samples is not None and len(groups) >= MIN_DEALS:
        for sample in samples:
            boot_strengths.append(fit_ratings(n, [c for g in sample for c in by_group[g]], strengths))
    boot_matrix = np.array(boot_strengths) if boot_strengths else None

    standings = []
    total_played = played.sum(0)
    for e in range(n):
        rating = Interval(to_rating(strengths[e]), *_percentiles(boot_matrix, e, to_rating))
        if len(groups) < MIN_DEALS:
            rating = Interval(rating.value, None, None, too_few(len(groups)))
        elif rating.low is not None and rating.high is not None and rating.high - rating.low < 1e-9:
            rating = Interval(rating.value, None, None, no_spread(len(groups)))
        played_in = score_count[:, e] > 0
        standings.append(Standing(
            name=names[e], player=_spec(entrants[e]), games=int(total_played[e]), rating=rating,
            mean_score=mean_of_deals_interval(np.column_stack([score_sum[played_in, e], score_count[played_in, e]]),
                                              weights[:, played_in]),
            win_rate=share_interval(wins[:, e], played[:, e]),
            faults=faults_of[names[e]],
        ))
    standings.sort(key=lambda s: -(s.rating.value or 0))
    return standings


def solitaire_standings(rows: Sequence[GameRow], names: Sequence[str], bootstrap: int = 100,
                        rng: np.random.Generator | None = None) -> list[SolitaireStanding]:
    """Each entrant's solitaire games: the share completed (the rules declare it the winner) and tiles placed.
    An entrant plays each deal once, so its games are its deals."""
    rng = rng or np.random.default_rng(0)
    completed: dict[int, list[bool]] = defaultdict(list)
    placed: dict[int, list[float]] = defaultdict(list)
    for row in rows:
        if row.table_size != 1 or row.status == ERROR:
            continue
        entrant = row.seating[0]
        if row.winners is not None:
            completed[entrant].append(0 in row.winners)
        if row.placed is not None:
            placed[entrant].append(float(row.placed))
    found = []
    for entrant in sorted(set(completed) | set(placed)):
        games = max(len(completed[entrant]), len(placed[entrant]))
        done = np.array(completed[entrant], dtype=float)
        tiles = np.column_stack([np.array(placed[entrant], dtype=float), np.ones(len(placed[entrant]))])
        found.append(SolitaireStanding(names[entrant], games, share_interval(done, np.ones(len(done))),
                                       mean_of_deals_interval(tiles, resample_counts(len(tiles), bootstrap, rng))))
    return sorted(found, key=lambda s: (-(s.completed.value or 0), -(s.placed.value or 0)))


def _spec(entrant: dict[str, Any]) -> str:
    params = entrant.get("params") or {}
    return entrant["player"] + ("(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")


def _percentiles(samples: np.ndarray | None, column: int, transform: Any = float) -> tuple[float | None, float | None]:
    if samples is None:
        return None, None
    low, high = percentiles(samples[:, column])
    return (None, None) if low is None or high is None else (float(transform(low)), float(transform(high)))


def head_to_head(n: int, contests: Sequence[Outcome]) -> tuple[list[list[float | None]], list[list[int]]]:
    """For each pair: in the contests they shared, the share a finished ahead of b (a tie counts half)."""
    ahead = np.zeros((n, n))
    shared = np.zeros((n, n), dtype=int)
    for contest in contests:
        for i, a in enumerate(contest.entrants):
            for j, b in enumerate(contest.entrants):
                if i == j:
                    continue
                shared[a, b] += 1
                ra, rb = contest.ranks[i], contest.ranks[j]
                ahead[a, b] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    matrix = [[float(ahead[a, b] / shared[a, b]) if shared[a, b] else None for b in range(n)] for a in range(n)]
    return matrix, shared.tolist()


def seat_effects(rows: Sequence[GameRow], bootstrap: int = 100, rng: np.random.Generator | None = None
                 ) -> list[SeatEffect]:
    """Mean score and win rate of each seat, per table size (seats are balanced, so this is the seat's edge),
    with intervals over deals: the games of a deal, replayed under each seating, share its luck, so the
    deal, not the game, is the unit (games taken as independent give intervals about half as wide as
    they should be at tables of two)."""
    rng = rng or np.random.default_rng(0)
    per_deal: dict[tuple[int, int], dict[int, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0] * 4))
    games: Counter[tuple[int, int]] = Counter()
    for row in rows:
        if row.table_size < 2 or row.ranks is None:
            continue
        winners = sum(r == 1 for r in row.ranks)
        for seat in range(row.table_size):
            key = (row.table_size, seat)
            games[key] += 1
            sums = per_deal[key][row.deal_seed]  # wins, games, score sum, scored games
            sums[0] += 1 / winners if row.ranks[seat] == 1 else 0.0
            sums[1] += 1
            if row.scores is not None:
                sums[2] += row.scores[seat]
                sums[3] += 1
    effects = []
    for key in sorted(games):
        table = np.array(list(per_deal[key].values()))
        scored = table[table[:, 3] > 0]
        mean = mean_of_deals_interval(scored[:, 2:4], resample_counts(len(scored), bootstrap, rng))
        effects.append(SeatEffect(key[0], key[1], games[key], mean, share_interval(table[:, 0], table[:, 1])))
    return effects
