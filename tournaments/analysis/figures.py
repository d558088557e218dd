"""The figures of an analysis: what each measures, read from the stored games, deal by deal.

Every figure is a function of sums over deals of per-deal aggregates (wins, scores, hands,
decisions...; :class:`Aggregates`), so one bootstrap over deals gives every figure its 95%
interval and one paired test compares any figure under two rulesets
(:mod:`tournaments.statistics`). A figure that does not apply to a ruleset (a solitaire has
one seat; Klauber's game has no draws) keeps its place with the reason instead of a value.

Per table size:

- **seat advantage**: each seat's win rate (a win shared by k sides counts 1/k) and mean
  final score; the opener's edge, the opener's score in a hand less the mean of the others'
  (the opener: the seat that lays the hand's first tile or makes its first move);
- **balance**: the gap between the highest and the lowest seat's win rate, beside the gap
  chance alone would show over as many games were every seat's chance equal (the gap is never
  below 0, so a few games show one however balanced the rules);
- **endings** (how hands and games end; not Ludii's "completion"): the share of hands that ended
  by each of the ruleset's hand endings; the share of games ended by a turn limit (a move cap or
  a clock) rather than by the rules; the share of games nobody won;
- **duration**: hands a game; decisions, plays, draws, passes, discards and moves a game and a hand;
- **branching**: legal actions a decision, and the share of decisions with more than one;
- **mechanisms**: how often each thing the rules react to happens (opportunity plays, counting
  and matching contacts, pieces captured...), what each counter's rules earn a seat (its
  plays, draws..., the ends of hands, the game's end), and what each fact an event formula
  reads earns (:mod:`tournaments.analysis.mechanisms`);
- **lead**: lead changes a 100 decisions (a count a game would grow with its length); drama,
  the furthest the eventual winner fell behind the leader as a share of the game's widest gap
  (so that rulesets scoring in tens and in hundreds compare); comebacks, how often the winner was
  behind at half-time (behind at some point, nearly every winner is);
  decisiveness, the share of the game played
  before the winner took the lead it kept;
- **Ludii's metrics** (Ludii's Evaluate Game, ``Evaluation/src/metrics``): drawishness, the
  share of games drawn by the rules (nobody won, no turn limit reached); outcome uniformity, 1
  less the variance of a seat's outcome (1 first, -1 last, ranks between evenly), the mean over
  seats; uncertainty, instability, score margin (:func:`tournaments.analysis.measure.lead_summary`);
  duration spread and branching spread, the standard deviation of the decisions a game and of the
  legal actions a decision; clarity narrowness and clarity spread, from every legal action of a
  sample of the decisions judged by the mover's lead after it
  (:func:`tournaments.analysis.measure.clarity`); ideal duration, how near a game's length is
  to the range the designer wants (:func:`ideal_duration`); and the rest of ``Evaluation.java``'s list:
  completion, branching max and change, decision factor, piece number change, score difference
  at the end, board coverage, positional and situational repetition, move distance
  (:class:`tournaments.analysis.measure.BoardMeasure`);
- **skill depth**: for each two neighbours on the ladder, the stronger's share of finishing
  ahead of the weaker on the same hands (a paired comparison over deals, as a tournament
  report's); the levels of play are the rungs it is ahead on, plus one;
- **luck**: the share of the variance of a seat's result (its score less its table's mean;
  a solitaire's score) that the hand it was dealt explains, over every game of the deal
  (one-way random effects, cells = deal and seat).

The figures of seat advantage to lead (mechanisms among them) come from the metrics games (every seat the same
bot); skill depth from the ladder's games; luck from all of them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from contack_core.engine.actions import Discard, Draw, Move, Pass, Play
from contack_core.engine.rules import EVENT_KINDS, Rules
from contack_core.engine.values import EVENT_MEANINGS
from tournaments.analysis.measure import CLARITY_DECISIONS
from tournaments.analysis.mechanisms import COUNTED_FACTS, WHEN_WORDS, counter_whens, formula_parts, passes_to_others
from tournaments.analysis.plan import IDEAL_DECISIONS, AnalysisPlan, Rung
from tournaments.paired import ahead, compare
from tournaments.play import FAULTED, OK
from tournaments.schedule import Table
from tournaments.statistics import Interval, Statistic, bootstrap_interval, mean_of_deals_interval, share_interval
from tournaments.store import GameRow

#: The groups of figures, in the order they are shown.
GROUPS = ("seat advantage", "balance", "endings", "duration", "branching", "mechanisms", "lead", "Ludii's metrics",
          "skill depth", "luck")
#: The decisions a game and a hand counts, with the action that makes each.
DECISION_KINDS = {"decisions": None, "plays": Play, "draws": Draw, "passes": Pass, "discards": Discard, "moves": Move}
#: The kind of event (as counters name them) of each action a turn rule offers.
KIND_OF_ACTION = {Play: "play", Draw: "draw", Pass: "pass", Discard: "discard", Move: "move"}
#: Why a mechanism has no value: its games were stored before mechanisms were measured.
UNMEASURED = ("the games stored were played before mechanisms were measured: play them again (a new --output "
              "folder)")
#: Why clarity has no value: its games were stored before every legal action was judged.
UNJUDGED = ("the games stored were played before clarity was measured: play them again (a new --output folder)")
#: Why a figure of the games won has no value: none was.
WON_BY_SOME = "no game was won by some sides over others (a tie, a move cap: nobody won)"
#: A unit shown as a percentage.
SHARE = "share"
#: Why a metric of Ludii's board and branching has no value: its games were stored before it was measured.
UNMEASURED_BOARD = ("the games stored were played before this metric was measured: play them again (a new --output "
                    "folder)")
#: Ludii's metrics a game measures as one value (None where it does not apply), the mean over games.
LUDII_PER_GAME = ("legal_change", "final_gap", "positional_repetition", "situational_repetition", "coverage",
                  "coverage_mean", "pieces_change")


@attrs.frozen
class Aggregates:
    """Per-deal sums: one row a deal (``deals``, the deal indices), one named column an aggregate."""

    deals: tuple[int, ...]
    columns: Mapping[str, np.ndarray]

    def matrix(self, names: Sequence[str], deals: Sequence[int] | None = None) -> np.ndarray:
        """The named columns, one row a deal (of ``deals``, default all), as a (deals x names) array."""
        rows = slice(None) if deals is None else [self.deals.index(d) for d in deals]
        return np.column_stack([self.columns.get(name, np.zeros(len(self.deals)))[rows] for name in names])


def aggregate(per_deal: Mapping[int, Mapping[str, float]]) -> Aggregates:
    """Aggregates from each deal's sums by name (a name missing from a deal counts 0 there)."""
    deals = tuple(sorted(per_deal))
    names = sorted({name for sums in per_deal.values() for name in sums})
    return Aggregates(deals, {name: np.array([float(per_deal[d].get(name, 0.0)) for d in deals]) for name in names})


@attrs.frozen
class Figure:
    """One figure of one table size: where it comes from and how it is worked out, or why it does not apply."""

    key: str
    group: str
    label: str
    unit: str  # SHARE (shown as a percentage) or the unit of the value
    about: str
    source: Aggregates | None = None
    columns: tuple[str, ...] = ()
    statistic: Statistic | None = None
    na: str | None = None
    #: A paired comparison of two bots (skill depth), from each deal's (results, comparisons): its own
    #: interval and verdict, as a tournament report's.
    verdict: Callable[[np.ndarray, np.ndarray], Any] | None = None
    #: Why it has no value when no game measured it (its denominator is 0: no game was won, say).
    empty: str = "no game measured it"
    #: In a comparison, a ruleset without this figure counts 0 for it (a mechanism its rules do not have).
    zero_elsewhere: bool = False
    #: The least the figure can be (a count: 0): its interval is not drawn below it.
    floor: float | None = None
    #: A share that is a mean of values between 0 and 1 a game (an uncertainty), not a count of successes:
    #: its interval is a mean's (a Wilson interval would take each game for a coin toss, far too wide), kept
    #: within [0, 1].
    mean_share: bool = False

    @property
    def deals(self) -> tuple[int, ...]:
        return () if self.source is None else self.source.deals

    def per_deal(self, deals: Sequence[int] | None = None) -> np.ndarray:
        assert self.source is not None
        return self.source.matrix(self.columns, deals)

    def summarise(self, counts: Callable[[int], np.ndarray]) -> tuple[Interval, str | None]:
        """The figure with its 95% interval over deals (and a verdict, for a comparison of two bots);
        ``counts(deals)``: bootstrap resamples of that many deals."""
        if self.na is not None or self.source is None or self.statistic is None or not self.deals:
            return Interval(None, None, None), None
        if self.verdict is not None:
            per_deal = self.per_deal()
            comparison = self.verdict(per_deal[:, 0], per_deal[:, 1])
            return comparison.share, comparison.verdict
        return self.interval(self.per_deal(), counts(len(self.deals))), None

    def interval(self, per_deal: np.ndarray, counts: np.ndarray) -> Interval:
        """The figure over these deals with its 95% interval: a share (a ratio of counts shown as a
        percentage) by Wilson's interval clustered by deal, a mean (any other ratio) by the studentised
        bootstrap and t interval together, anything else by the BCa bootstrap
        (:mod:`tournaments.statistics`)."""
        assert self.statistic is not None
        if self.statistic is ratio and self.unit == SHARE and not self.mean_share:
            return share_interval(per_deal[:, 0], per_deal[:, 1])
        if self.statistic is ratio:
            found = mean_of_deals_interval(per_deal, counts)
            floor, ceiling = (0.0, 1.0) if self.mean_share else (self.floor, None)
            # The true value is never outside its bounds, so the interval clipped there covers it as often.
            if floor is not None and found.low is not None and found.low < floor:
                found = attrs.evolve(found, low=floor)
            if ceiling is not None and found.high is not None and found.high > ceiling:
                found = attrs.evolve(found, high=ceiling)
            return found
        return bootstrap_interval(self.statistic, per_deal, counts)


def not_applicable(key: str, group: str, label: str, unit: str, about: str, reason: str) -> Figure:
    return Figure(key, group, label, unit, about, na=reason)


# --------------------------------------------------------------------------- statistics of sums
def ratio(sums: np.ndarray) -> np.ndarray:
    """The first column's sum over the second's."""
    return sums[:, 0] / sums[:, 1]


def gap(sums: np.ndarray) -> np.ndarray:
    """The highest less the lowest of the rates (columns: the seats' counts, then the games)."""
    rates = sums[:, :-1] / sums[:, -1:]
    return rates.max(axis=1) - rates.min(axis=1)


def spread(sums: np.ndarray) -> np.ndarray:
    """The standard deviation (n - 1 in the denominator) from the sums of (values, squared values, count)."""
    total, squares, n = sums.T
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(np.clip((squares - total ** 2 / n) / (n - 1), 0.0, None))


def uniformity(sums: np.ndarray) -> np.ndarray:
    """Ludii's outcome uniformity: 1 less each seat's variance of outcome, the mean over seats, from the sums
    of (each seat's outcomes, each seat's squared outcomes, games). The variance is the games' own (over n),
    so that with outcomes between -1 and 1 the figure stays between 0 and 1."""
    n = sums[:, -1:]
    seats = (sums.shape[1] - 1) // 2
    total, squares = sums[:, :seats], sums[:, seats:2 * seats]
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = np.clip((squares - total ** 2 / n) / n, 0.0, None)
    return 1.0 - variance.mean(axis=1)


def ideal_duration(decisions: float, least: int, most: int) -> float:
    """Ludii's IdealDuration of one game: 1 within the range, ``decisions / least`` below it, falling
    linearly from 1 at ``most`` to 0 at twice ``most`` above it."""
    if decisions < least:
        return decisions / least
    if decisions > most:
        return 1.0 - min(1.0, (decisions - most) / most)
    return 1.0


def balanced_gap(seats: int, games: int, draws: int = 20000) -> float:
    """The win-rate gap chance alone shows over ``games`` games were each of ``seats`` seats as likely to win
    (one winner a game), by simulation with a fixed seed: the gap :func:`gap` would show under perfect balance."""
    if seats < 2 or games < 1:
        return 0.0
    wins = np.random.default_rng(0).multinomial(games, [1.0 / seats] * seats, size=draws)
    return float((wins.max(axis=1) - wins.min(axis=1)).mean() / games)


#: The per-deal aggregates of a one-way analysis of variance, in the order :func:`variance_share` reads them.
ANOVA_COLUMNS = ("anova_n", "anova_sum", "anova_squares", "anova_cell_squares", "anova_cells", "anova_cell_sizes")


def variance_share(sums: np.ndarray) -> np.ndarray:
    """The intraclass correlation ICC(1): the share of the variance between cells, from the sums of
    (observations, values, squared values, squared cell sums over cell sizes, cells, squared cell sizes)."""
    n, total, squares, cell_squares, cells, cell_sizes = sums.T
    between = (cell_squares - total ** 2 / n) / (cells - 1)
    within = (squares - cell_squares) / (n - cells)
    size = (n - cell_sizes / n) / (cells - 1)
    share = (between - within) / (between + (size - 1) * within)
    return np.clip(share, 0.0, 1.0)


def anova_sums(cells: Iterable[Sequence[float]]) -> dict[str, float]:
    """One deal's aggregates for :func:`variance_share`: each cell the values observed in it."""
    cells = [list(values) for values in cells if values]
    flat = [value for values in cells for value in values]
    return {"anova_n": len(flat), "anova_sum": sum(flat), "anova_squares": sum(v * v for v in flat),
            "anova_cell_squares": sum(sum(values) ** 2 / len(values) for values in cells),
            "anova_cells": len(cells), "anova_cell_sizes": sum(len(values) ** 2 for values in cells)}


# --------------------------------------------------------------------------- reading the games
FINISHED = (OK, FAULTED)


def finished(row: GameRow) -> bool:
    return row.status in FINISHED and row.scores is not None and row.measures is not None


def games_by_table(plan: AnalysisPlan, size: int, rows: Iterable[GameRow]) -> dict[Table, dict[int, list[GameRow]]]:
    """The stored games of each table of ``size``, by deal index."""
    tables = plan.config.tables[size] if plan.config.tables else ()
    of = {frozenset(table.entrants): table for table in tables}
    found: dict[Table, dict[int, list[GameRow]]] = {table: defaultdict(list) for table in tables}
    for row in rows:
        table = of.get(frozenset(row.seating)) if row.table_size == size else None
        if table is not None:
            found[table][row.deal_index].append(row)
    return found


def complete_deals(table: Table, games: Mapping[int, list[GameRow]]) -> dict[int, list[GameRow]]:
    """The deals every game of which the table finished (a deal half played, or with an error, is left out)."""
    wanted = len(table.entrants) if table.rotate else 1
    return {deal: rows for deal, rows in games.items() if len(rows) == wanted and all(map(finished, rows))}


def win_shares(winners: Sequence[int] | None, sides: Sequence[Sequence[int]], seats: int) -> list[float]:
    """Each seat's share of the win: 1/k for every seat of the k sides that won, else 0 (nobody won: 0)."""
    won = [side for side in sides if set(side) & set(winners or ())]
    shares = [0.0] * seats
    for side in won:
        for seat in side:
            shares[seat] = 1.0 / len(won)
    return shares


def metrics_game_sums(row: GameRow, sides: Sequence[Sequence[int]], limits: frozenset[str],
                      ideal: tuple[int, int] = IDEAL_DECISIONS) -> dict[str, float]:
    """What one metrics game adds to its deal's aggregates (``limits``: the hand endings that are turn limits;
    ``ideal``: the length of game the designer wants, least and most decisions)."""
    measures = row.measures or {}
    hands = measures.get("hands", [])
    seats = row.table_size
    sums: dict[str, float] = defaultdict(float)
    sums["games"] = 1
    if "mechanisms" in measures:  # a game stored before mechanisms were measured counts in none of their figures
        sums["mech_games"] = 1
        sums["mech_seat_games"] = seats
        for name, value in measures["mechanisms"].items():
            sums[f"mech:{name}"] = value
    scores = row.scores or ()
    for seat, share in enumerate(win_shares(row.winners, sides, seats)):
        sums[f"win_{seat}"] = share
        sums[f"score_{seat}"] = scores[seat]
    sums["won"] = 1.0 if row.winners else 0.0
    sums["nobody"] = 1.0 - sums["won"]
    if seats > 1 and row.ranks:
        for seat, rank in enumerate(row.ranks):
            outcome = 1.0 - 2.0 * (rank - 1) / (seats - 1)  # Ludii's: 1 first, -1 last
            sums[f"outcome_{seat}"] = outcome
            sums[f"outcome_squares_{seat}"] = outcome * outcome
    sums["hands"] = len(hands)
    for hand in hands:
        sums[f"reason:{hand['reason']}"] += 1
        for kind in DECISION_KINDS:
            sums[kind] += hand.get(kind, 0)
        opener, hand_scores = hand.get("opener"), hand.get("scores")
        if seats > 1 and opener is not None and hand_scores:
            others = [score for seat, score in enumerate(hand_scores) if seat != opener]
            sums["edge"] += hand_scores[opener] - sum(others) / len(others)
            sums["opened"] += 1
    if hands and hands[-1]["reason"] in limits:
        sums["limited"] = 1
    sums["drawn"] = sums["nobody"] * (1 - sums["limited"])
    sums["decisions_squares"] = sums["decisions"] ** 2
    sums["ideal"] = ideal_duration(sums["decisions"], *ideal)
    sums["seen"] = sums["decisions"] - measures.get("unseen", 0)
    if "legal_squares" in measures:  # stored before the spread was measured: left out of it
        sums["spread_legal"] = measures.get("legal", 0)
        sums["spread_legal_squares"] = measures["legal_squares"]
        sums["spread_seen"] = sums["seen"]
    sums["legal"] = measures.get("legal", 0)
    sums["choices"] = measures.get("choices", 0)
    if measures.get("lead_changes") is not None:
        sums["led"] += 1
        sums["lead_changes"] = measures["lead_changes"]
        sums["led_hundreds"] = sums["decisions"] / 100
    if measures.get("uncertainty") is not None:
        sums["gauged"] = 1
        sums["uncertainty"] = measures["uncertainty"]
        sums["instability"] = measures["instability"]
    if measures.get("clarity") is not None:
        sums["judged"] = 1
        sums["clarity"] = measures["clarity"]
        sums["clarity_spread"] = measures["clarity_spread"]
    if measures.get("drama_share") is not None:
        sums["shared"] = 1
        sums["drama_share"] = measures["drama_share"]
        sums["margin"] = measures["margin"]
    if "legal_max" in measures:  # stored before Ludii's branching and board metrics were measured: left out
        sums["ludii_games"] = 1
        sums["ludii_choices"] = measures["choices"]
        for key in ("legal_max", "choice_legal", "move_steps", "moves_measured"):
            sums[key] = measures[key]
        for key in LUDII_PER_GAME:
            if measures.get(key) is not None:
                sums[key] = measures[key]
                sums[f"{key}:games"] = 1
    if measures.get("drama") is not None:
        sums["decided"] += 1
        sums["drama"] = measures["drama"]
        sums["trailed"] = 1.0 if measures["trailed"] else 0.0
    if measures.get("behind_at_half") is not None:
        sums["halved"] = 1
        sums["behind_at_half"] = 1.0 if measures["behind_at_half"] else 0.0
        sums["decided_at"] = measures["decided_at"]
    return sums


def rung_outcomes(rung: Rung, plan: AnalysisPlan, size: int, by_table: Mapping[Table, Mapping[int, list[GameRow]]]
                  ) -> dict[int, dict[str, float]]:
    """For each deal, the stronger bot's results against the weaker at their table: ``ahead`` (1 ahead,
    1/2 level, 0 behind, summed over every weaker seat of every game) and ``pairs`` (how many)."""
    entrant: dict[str, int] = {}
    for index, bot in sorted(plan.bot_of.items()):
        entrant.setdefault(bot, index)  # a bot's first instance (BOT#1): the one at its ladder tables
    strong, weak = entrant[rung.stronger], entrant[rung.weaker]
    if size == 1:
        alone = {t.entrants[0]: complete_deals(t, games) for t, games in by_table.items() if len(t.entrants) == 1}
        if strong not in alone or weak not in alone:
            return {}
        out = {}
        for deal in sorted(set(alone[strong]) & set(alone[weak])):
            a, b = alone[strong][deal][0], alone[weak][deal][0]
            out[deal] = {"ahead": ahead(_final(a), _final(b)), "pairs": 1.0}
        return out
    table = next(t for t in by_table if t.rotate and t.entrants[0] == strong and weak in t.entrants)
    out = {}
    for deal, rows in complete_deals(table, by_table[table]).items():
        total = pairs = 0.0
        for row in rows:
            seat = row.seating.index(strong)
            assert row.ranks is not None
            for other in range(size):
                if other != seat:
                    total += ahead(-row.ranks[seat], -row.ranks[other])
                    pairs += 1
        out[deal] = {"ahead": total, "pairs": pairs}
    return out


def _final(row: GameRow) -> float:
    return float(row.scores[0]) if row.scores is not None else -math.inf


def luck_sums(size: int, by_table: Mapping[Table, Mapping[int, list[GameRow]]]) -> dict[int, dict[str, float]]:
    """Each deal's ANOVA aggregates over every game of it: cells are the seats (a seat's hand), values
    a seat's score less its table's mean; at a solitaire one cell, the score."""
    cells: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for table, games in by_table.items():
        for deal, rows in complete_deals(table, games).items():
            for row in rows:
                assert row.scores is not None
                mean = sum(row.scores) / size if size > 1 else 0.0
                for seat, score in enumerate(row.scores):
                    cells[deal][seat].append(score - mean)
    return {deal: anova_sums(per_seat.values()) for deal, per_seat in cells.items()}


# --------------------------------------------------------------------------- the figures
def figures(plan: AnalysisPlan, rules: Rules, size: int, rows: Sequence[GameRow]) -> list[Figure]:
    """Every figure of one table size, in the order of GROUPS."""
    by_table = games_by_table(plan, size, rows)
    metrics_table = plan.config.tables[size][0] if plan.config.tables else None  # the plan lists it first
    sides = rules.match.teams(size)
    limits = frozenset(ending.key for ending in rules.hand_end if ending.name == "turn-limit")
    per_deal: dict[int, dict[str, float]] = {}
    if metrics_table is not None:
        for deal, games in complete_deals(metrics_table, by_table[metrics_table]).items():
            per_deal[deal] = metrics_game_sums(games[0], sides, limits, plan.ideal)
    games = aggregate(per_deal)
    out: list[Figure] = []
    out += _seat_figures(rules, size, games)
    out += _ending_figures(rules, games, limits)
    out += _duration_figures(rules, games)
    out += _mechanism_figures(rules, games)
    out += _lead_figures(rules, size, sides, games)
    out += _ludii_figures(rules, size, sides, games, limits, plan.ideal)
    out += _skill_figures(plan, size, by_table)
    out += _luck_figures(plan, size, by_table)
    return out


def _figure(key: str, group: str, label: str, unit: str, about: str, source: Aggregates, columns: Sequence[str],
            statistic: Statistic = ratio, empty: str = "no game measured it", zero_elsewhere: bool = False,
            floor: float | None = None) -> Figure:
    return Figure(key, group, label, unit, about, source, tuple(columns), statistic, empty=empty,
                  zero_elsewhere=zero_elsewhere, floor=floor)


def _seat_figures(rules: Rules, size: int, games: Aggregates) -> list[Figure]:
    counter = rules.match.counter
    one_seat = "one seat: no other seat to have an edge over"
    out = []
    if size == 1:
        out.append(_figure("seat.1.win_rate", "seat advantage", "games won", SHARE,
                           "the share of games the rules declare won (a solitaire completed)", games,
                           ["win_0", "games"]))
        out.append(_figure("seat.1.mean_score", "seat advantage", f"mean {counter}", counter,
                           f"the final {counter}, a game", games, ["score_0", "games"]))
        out.append(not_applicable("opener_edge", "seat advantage", "opener's edge", counter,
                                  "the opener's score in a hand less the others' mean", one_seat))
        out.append(not_applicable("balance", "balance", "win-rate gap between seats", SHARE,
                                  "the highest seat's win rate less the lowest's", one_seat))
        return out
    for seat in range(size):
        out.append(_figure(f"seat.{seat + 1}.win_rate", "seat advantage", f"seat {seat + 1} win rate", SHARE,
                           f"games seat {seat + 1} won (a win shared by k sides counts 1/k)", games,
                           [f"win_{seat}", "games"]))
    for seat in range(size):
        out.append(_figure(f"seat.{seat + 1}.mean_score", "seat advantage", f"seat {seat + 1} mean {counter}", counter,
                           f"seat {seat + 1}'s final {counter}, a game", games, [f"score_{seat}", "games"]))
    out.append(_figure("opener_edge", "seat advantage", f"opener's edge ({counter} a hand)", counter,
                       f"the {counter} of the seat that opened a hand (laid its first tile or made its first move) "
                       f"less the mean of the others', in that hand", games, ["edge", "opened"]))
    played = int(games.columns["games"].sum()) if "games" in games.columns else 0
    chance = balanced_gap(size, played)
    out.append(_figure("balance", "balance", f"win-rate gap between seats (chance alone: {100 * chance:.1f}%)", SHARE,
                       f"the highest seat's win rate less the lowest's: never below 0, so even perfectly balanced "
                       f"rules show a gap; chance alone would show {100 * chance:.1f}% on average over {played} games "
                       f"were every seat as likely to win; a gap well above it is a seat's edge", games,
                       [*(f"win_{seat}" for seat in range(size)), "games"], gap))
    return out


def _ending_figures(rules: Rules, games: Aggregates, limits: frozenset[str]) -> list[Figure]:
    out = []
    endings = [(ending.key, ending.name) for ending in rules.hand_end]
    seen = sorted(name.removeprefix("reason:") for name in games.columns if name.startswith("reason:"))
    endings += [(reason, "?") for reason in seen if reason not in {key for key, _ in endings}]
    for key, primitive in endings:
        out.append(_figure(f"hand_end.{key}", "endings", f"hands ending {key}", SHARE,
                           f"the share of hands ended by {key}, a {primitive} ending ({rules.term(key)})", games,
                           [f"reason:{key}", "hands"]))
    about = "the share of games a turn limit ended (a move cap, a clock) rather than the rules"
    if limits:
        out.append(_figure("games_limited", "endings", f"games ended by a turn limit ({', '.join(sorted(limits))})",
                           SHARE, about, games, ["limited", "games"]))
    else:
        out.append(not_applicable("games_limited", "endings", "games ended by a turn limit", SHARE, about,
                                  f"{rules.id} has no turn limit: every game ends by its rules"))
    out.append(Figure("no_winner", "endings", "games nobody won", SHARE,
                      "the share of games the rules declared no winner (a tie, a blocked board, a move cap)",
                      games, ("nobody", "games"), ratio))
    return out


def _one_hand(rules: Rules) -> bool:
    return rules.match.hands == 1


def _duration_figures(rules: Rules, games: Aggregates) -> list[Figure]:
    offered = {type_ for type_ in DECISION_KINDS.values() if type_ is not None} & {r.action_type for r in rules.turn}
    out = []
    one_hand = _one_hand(rules)
    about = "hands played in a game"
    if one_hand:
        out.append(not_applicable("hands", "duration", "hands a game", "hands", about,
                                  f"a game of {rules.id} is one hand"))
    else:
        out.append(_figure("hands", "duration", "hands a game", "hands", about, games, ["hands", "games"], floor=1.0))
    for per, denominator in (("game", "games"), ("hand", "hands")):
        if per == "hand" and one_hand:
            out.append(not_applicable("a_hand", "duration", "decisions, plays... a hand", "decisions",
                                      "the figures of a game, a hand", "one hand is the game: see the figures a game"))
            continue
        for kind, action in DECISION_KINDS.items():
            label = f"{kind} a {per}"
            what = "decisions (every action a seat takes, forced ones included)" if action is None else \
                f"{kind} (decisions that are {action.__name__.lower()}s)"
            about = f"{what}, a {per}"
            if action is not None and action not in offered:
                out.append(not_applicable(f"{kind}_a_{per}", "duration", label, kind, about,
                                          f"{rules.id} has no {action.__name__.lower()} action"))
            else:
                out.append(_figure(f"{kind}_a_{per}", "duration", label, kind, about, games, [kind, denominator],
                                   floor=0.0))
    out.append(_figure("branching", "branching", "legal actions a decision", "actions",
                       "the legal actions a seat had to choose from, a decision", games, ["legal", "seen"], floor=1.0))
    out.append(_figure("choices", "branching", "decisions with a choice", SHARE,
                       "the share of decisions that offered more than one legal action", games, ["choices", "seen"]))
    return out


def _mechanism_figures(rules: Rules, games: Aggregates) -> list[Figure]:
    """How often each thing the rules react to happens, and what each scoring rule earns
    (:mod:`tournaments.analysis.mechanisms`). A figure one ruleset of a comparison has and the other
    has not (a fact only one of their formulas reads) is 0 on the other side: its rules give nothing for it."""
    offered = {KIND_OF_ACTION[r.action_type] for r in rules.turn if r.action_type in KIND_OF_ACTION}

    def mechanism(key: str, label: str, unit: str, about: str, columns: Sequence[str],
                  floor: float | None = None) -> Figure:
        return _figure(f"mechanism.{key}", "mechanisms", label, unit, about, games, columns, zero_elsewhere=True,
                       empty=UNMEASURED, floor=floor)

    out = []
    for kind, facts in COUNTED_FACTS.items():
        if kind not in offered:
            continue
        for name, what in facts.items():
            out.append(mechanism(f"{kind}.{name}", f"{what} a game", what, f"{what} ({EVENT_MEANINGS[name]}), a game",
                                 [f"mech:fact:{kind}:{name}", "mech_games"], floor=0.0))
    for key, counter in rules.counters.items():
        for when in counter_whens(counter):
            out.append(mechanism(f"{key}.{when}", f"{key} from {WHEN_WORDS[when]} (a seat)", key,
                                 f"what {WHEN_WORDS[when]} changed {key} by, a seat a game"
                                 + (" (the seat whose action it was)" if when in EVENT_KINDS else ""),
                                 [f"mech:gain:{key}:{when}", "mech_seat_games"]))
        for kind in passes_to_others(counter):
            out.append(mechanism(f"{key}.{kind}.others", f"{key} others got from {WHEN_WORDS[kind]} (a seat)", key,
                                 f"what a seat's {WHEN_WORDS[kind]} changed the other seats' {key} by, a seat a game",
                                 [f"mech:gain:{key}:{kind}:others", "mech_seat_games"]))
        for kind, (text, _, without) in formula_parts(counter).items():
            for name in without:
                label = f"{key} for {name} (a seat's {WHEN_WORDS[kind]})"
                if f"mech:unknown:part:{key}:{kind}:{name}" in games.columns:
                    out.append(not_applicable(
                        f"mechanism.{key}.{kind}.{name}", "mechanisms", label, key, f"what {name} earns in on_{kind}",
                        f"on_{kind} '{text}' cannot be worked out with {name} 0, so what {name} earns is unknown"))
                    continue
                out.append(mechanism(f"{key}.{kind}.{name}", label, key,
                                     f"what {name} earns in on_{kind} '{text}': its value less its value were {name} "
                                     f"0, summed over {WHEN_WORDS[kind]}, a seat a game",
                                     [f"mech:part:{key}:{kind}:{name}", "mech_seat_games"]))
    for key, counter in rules.counters.items():
        if counter.name == "collect-from-others":
            for reason in ("collect", "penalty", *(("loan",) if counter.borrow else ())):
                out.append(mechanism(f"chips.{reason}", f"{key} moved by {reason} a game", key,
                                     f"{key} changing hands by {reason}, a game",
                                     [f"mech:chips:{reason}", "mech_games"], floor=0.0))
    return out


def _lead_figures(rules: Rules, size: int, sides: Sequence[Sequence[int]], games: Aggregates) -> list[Figure]:
    counter = rules.match.counter
    specs = [
        ("lead_changes", "lead changes a 100 decisions", "changes",
         "how often the side strictly ahead of every other changed, a 100 decisions (a count a game would grow "
         "with the game's length)", ["lead_changes", "led_hundreds"]),
        ("drama", "drama (share of the widest gap)", SHARE,
         f"drama: the furthest the eventual winner fell behind the leader, as a share of the widest gap between "
         f"any two sides in that game (in {counter}, it would grow with the scale of the scores), a game won",
         ["drama_share", "shared"]),
        ("behind_at_half", "comebacks (winner behind at half-time)", SHARE,
         "the share of games won whose winner was behind the leader once half the game's decisions were taken "
         "(behind at some point says little: nearly every winner is, early on)", ["behind_at_half", "halved"]),
        ("decided_at", "decisiveness (share played before it)", SHARE,
         "decisiveness: the share of a game's decisions taken before the winner went ahead for good "
         "(0: it led throughout)",
         ["decided_at", "decided"]),
    ]
    if len(sides) < 2:
        reason = "one seat: no lead to change" if size == 1 else "one side: no lead to change"
        return [not_applicable(key, "lead", label, unit, about, reason) for key, label, unit, about, _ in specs]
    won = WON_BY_SOME
    return [attrs.evolve(_figure(key, "lead", label, unit, about, games, columns,
                                 empty=won if key != "lead_changes" else "no game measured it"),
                         mean_share=key in ("drama", "decided_at"))
            for key, label, unit, about, columns in specs]


def _ludii_figures(rules: Rules, size: int, sides: Sequence[Sequence[int]], games: Aggregates,
                   limits: frozenset[str], ideal: tuple[int, int] = IDEAL_DECISIONS) -> list[Figure]:
    """Ludii's Evaluate Game metrics (``Evaluation/src/metrics``), each with its definition."""
    group = "Ludii's metrics"
    gap_of = "the widest gap between any two sides in the game"
    specs: list[tuple[str, str, str, str, list[str], Statistic]] = [
        ("drawishness", "drawishness", SHARE,
         "Ludii's drawishness: the share of games the rules ended with nobody winning, a turn limit "
         f"({', '.join(sorted(limits)) or 'none in ' + rules.id}) not counted", ["drawn", "games"], ratio),
        ("outcome_uniformity", "outcome uniformity", "uniformity",
         "Ludii's outcome uniformity: 1 less the variance over games of a seat's outcome (1 first, -1 last, "
         "ranks between evenly), the mean over seats (1: every seat always finishes alike; 0: a coin toss)",
         [*(f"outcome_{s}" for s in range(size)), *(f"outcome_squares_{s}" for s in range(size)), "games"],
         uniformity),
        ("uncertainty", "uncertainty", SHARE,
         f"Ludii's uncertainty: how close the leader was to the runner-up, 1 less their gap over {gap_of}, the "
         "mean over the game's decisions (1: level throughout)", ["uncertainty", "gauged"], ratio),
        ("instability", "instability (1 - stability)", "widest gaps",
         "how far a side's standing less the others' mean moves a decision, the mean over sides and decisions, in "
         f"{gap_of} (0: stable; Ludii's stability takes the variance over the game instead, which a steady rise "
         "inflates as much as a swing)", ["instability", "gauged"], ratio),
        ("margin", "score margin (share of the widest gap)", SHARE,
         f"the winner's final standing less the best loser's, over {gap_of}, a game won", ["margin", "shared"], ratio),
    ]
    out: list[Figure] = []
    for key, label, unit, about, columns, statistic in specs:
        if size == 1 and key != "drawishness":
            out.append(not_applicable(key, group, label, unit, about, "one seat: no other seat to measure against"))
        elif len(sides) < 2 and key != "drawishness":
            out.append(not_applicable(key, group, label, unit, about, "one side: no other side to measure against"))
        elif size == 1:
            out.append(not_applicable(key, group, label, unit, about,
                                      "one seat: a solitaire is won or lost, not drawn"))
        else:
            figure = _figure(key, group, label, unit, about, games, columns, statistic,
                             floor=0.0 if key == "instability" else None,
                             empty=WON_BY_SOME if key == "margin" else "no game measured it")
            out.append(attrs.evolve(figure, mean_share=key in ("uncertainty", "margin")))
    counter = rules.match.counter
    judged = (f"at a sample of a game's decisions with a choice (up to {CLARITY_DECISIONS}, spread over the game), "
              f"every legal action tried on a copy of the game and judged by the mover's lead in {counter} after it")
    specs = [("clarity", "clarity narrowness (actions near the best)", SHARE,
              f"Ludii's clarity narrowness: {judged}; the share of the actions within a quarter of the way from the "
              "best to the mean of them all (above the mean plus 75% of the best's lead over it), the mean over the "
              "sample and over games (low: one or a few actions stand out, a clear choice; 1: all alike)",
              ["clarity", "judged"]),
             ("clarity_spread", f"clarity spread ({counter} between actions)", counter,
              f"Ludii's clarity variance, as a standard deviation: {judged}; how far the actions' values lie from "
              f"their mean, in {counter}, the mean over the sample and over games (0: every action alike)",
              ["clarity_spread", "judged"])]
    for key, label, unit, about, columns in specs:
        figure = _figure(key, group, label, unit, about, games, columns, floor=0.0, empty=UNJUDGED)
        out.append(attrs.evolve(figure, mean_share=key == "clarity"))
    out.append(_figure("duration_spread", group, "duration spread (decisions a game)", "decisions",
                       "the standard deviation of the decisions a game (Ludii's DurationTurnsStdDev)", games,
                       ["decisions", "decisions_squares", "games"], spread))
    out.append(_figure("branching_spread", group, "branching spread (legal actions)", "actions",
                       "the standard deviation of the legal actions a decision", games,
                       ["spread_legal", "spread_legal_squares", "spread_seen"], spread))
    least, most = ideal
    figure = _figure("ideal_duration", group, f"ideal duration ({least}-{most} decisions)", SHARE,
                     f"Ludii's IdealDuration: 1 for a game of {least} to {most} decisions (--ideal-decisions), "
                     f"its share of {least} below, falling to 0 at twice {most} above, the mean over games",
                     games, ["ideal", "games"], floor=0.0)
    out.append(attrs.evolve(figure, mean_share=True))
    return out + _ludii_game_figures(rules, size, sides, games)


def _ludii_game_figures(rules: Rules, size: int, sides: Sequence[Sequence[int]], games: Aggregates) -> list[Figure]:
    """The rest of what Ludii's Evaluate Game reports (``Evaluation.java``'s list: completion, board coverage,
    branching factor max and change, decision factor, piece number change, score difference at the end,
    positional and situational repetition, move distance); balance, durations, timeouts, drawishness, the first
    seat's advantage and decision moves are figures of the groups above. Each is the mean over games of what a
    game measured (Ludii's is the mean over trials too)."""
    group = "Ludii's metrics"
    counter = rules.match.counter
    no_edge = rules.new_figure(size).sites is None
    moves = Move in {r.action_type for r in rules.turn}
    per_game = "the mean over games"
    specs: list[tuple[str, str, str, str, list[str], str | None]] = [
        ("completion", "completion", SHARE,
         "Ludii's completion: the share of games that ended with a winner (not drawn, not stopped by a turn "
         "limit; at a solitaire, completed)", ["won", "games"], None),
        ("branching_max", "branching max (legal actions)", "actions",
         f"Ludii's BranchingFactorMax: the most legal actions any decision of a game offered, {per_game}",
         ["legal_max", "ludii_games"], None),
        ("branching_change", "branching change a decision", "actions",
         "Ludii's BranchingFactorChange: the mean change of the legal actions from one decision to the next (the "
         f"last decision's less the first's, over the steps between), {per_game}",
         ["legal_change", "legal_change:games"], None),
        ("decision_factor", "decision factor (legal actions)", "actions",
         "Ludii's DecisionFactorAvg: the legal actions a decision offered, counting only decisions with a choice",
         ["choice_legal", "ludii_choices"], None),
        ("pieces_change", "pieces on the board: change a decision", "pieces",
         "Ludii's PieceNumberChange: the mean change of the tiles or pieces on the board from one decision to the "
         f"next within a hand, {per_game}", ["pieces_change", "pieces_change:games"],
         None),
        ("score_difference", f"score difference at the end ({counter})", counter,
         f"Ludii's ScoreDifferenceEnd: the best side's final {counter} less the runner-up's, {per_game}",
         ["final_gap", "final_gap:games"],
         "one seat: no runner-up" if size == 1 else "one side: no runner-up" if len(sides) < 2 else None),
        ("coverage", "board coverage (points ever used)", SHARE,
         "Ludii's BoardCoverageTotal: the share of the board's points something lay on at some time in a game, "
         f"{per_game}", ["coverage", "coverage:games"],
         f"{rules.id}'s board has no edge: a figure grows wherever it is laid" if no_edge else None),
        ("coverage_mean", "board coverage (on average)", SHARE,
         "Ludii's BoardCoverageAvg: the share of the board's points something lies on, the mean over the states "
         f"of a game (each decision's and the end), {per_game}", ["coverage_mean", "coverage_mean:games"],
         f"{rules.id}'s board has no edge: a figure grows wherever it is laid" if no_edge else None),
        ("positional_repetition", "positional repetition", SHARE,
         "Ludii's PositionalRepetition: the share of a game's states (each decision's and the end) whose position "
         "(what lies where, as turned) came before in the same hand (Ludii's counts by integer division, which "
         f"makes every share but 0 a 1), {per_game}", ["positional_repetition", "positional_repetition:games"],
         None),
        ("situational_repetition", "situational repetition", SHARE,
         "Ludii's SituationalRepetition: as positional repetition, the seat to act, the direction of play and "
         "every zone's tiles in order counted too", ["situational_repetition", "situational_repetition:games"],
         None),
        ("move_distance", "move distance (steps a move)", "steps",
         "Ludii's MoveDistanceAvg: the steps a piece took, a move", ["move_steps", "moves_measured"],
         None if moves else f"{rules.id} has no move action: nothing moves once laid"),
    ]
    out = []
    for key, label, unit, about, columns, na in specs:
        if na is not None:
            out.append(not_applicable(key, group, label, unit, about, na))
            continue
        figure = _figure(key, group, label, unit, about, games, columns,
                         floor=0.0 if unit in (SHARE, "steps", "actions") and key != "branching_change" else None,
                         empty=UNMEASURED_BOARD if key != "completion" else "no game measured it")
        out.append(attrs.evolve(figure, mean_share=unit == SHARE and key != "completion"))
    return out


def _skill_figures(plan: AnalysisPlan, size: int, by_table: Mapping[Table, Mapping[int, list[GameRow]]]
                   ) -> list[Figure]:
    out = []
    about = ("the stronger bot's share of finishing ahead of the weaker on the same hands (level counts half), "
             "over deals")
    for bot, why in plan.refused.items():
        out.append(not_applicable(f"skill.{bot}", "skill depth", f"{bot} on the ladder", SHARE, about, why))
    if not plan.rungs:
        out.append(not_applicable("skill", "skill depth", "skill depth", SHARE, about,
                                  "the ladder needs two bots that play the ruleset (--bots weakest,...,strongest)"))
    for rung in plan.rungs:
        source = aggregate(rung_outcomes(rung, plan, size, by_table))
        out.append(Figure(f"skill.{rung.stronger}>{rung.weaker}", "skill depth", rung.label, SHARE, about, source,
                          ("ahead", "pairs"), ratio,
                          verdict=lambda ahead, pairs, r=rung: compare(r.stronger, r.weaker, ahead, 0, pairs)))
    return out


def _luck_figures(plan: AnalysisPlan, size: int, by_table: Mapping[Table, Mapping[int, list[GameRow]]]
                  ) -> list[Figure]:
    about = ("the share of the variance of a seat's result (its score less its table's mean; a solitaire's score) "
             "explained by the hand it was dealt, over every game of the deal")
    label = "luck (variance the deal explains)"
    if not plan.rungs:
        return [not_applicable("luck", "luck", label, SHARE, about,
                               "each hand is played once without a ladder: give two bots or more (--bots)")]
    return [Figure("luck", "luck", label, SHARE, about, aggregate(luck_sums(size, by_table)), ANOVA_COLUMNS,
                   variance_share)]
