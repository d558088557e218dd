"""An analysis's results: every figure per table size with its 95% interval over deals, and the
comparison of two rulesets on the same deals, figure by figure, with paired intervals and verdicts.

A comparison's verdicts come from paired permutation tests (:func:`tournaments.statistics.paired_difference`),
adjusted together over every figure compared by the max-T method (:func:`tournaments.statistics.max_t`):
when the two rulesets do not differ, the chance that *any* figure is called higher or lower is
at most 5% (checked by simulation in ``tests/test_analysis_error_rates.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from contack_core.engine.rules import Rules
from tournaments.analysis.figures import SHARE, Aggregates, Figure, figures, ratio
from tournaments.analysis.plan import AnalysisPlan
from tournaments.statistics import ERROR_RATE, Interval, max_t, paired_difference, resample_counts, swaps
from tournaments.store import GameRow

#: Bootstrap resamples and permutations behind every interval and p-value, unless told otherwise.
RESAMPLES = 1000
PERMUTATIONS = 4000


@attrs.frozen
class FigureValue:
    """One figure of one table size: its value with its 95% interval, or why it does not apply."""

    key: str
    group: str
    label: str
    unit: str
    about: str
    value: Interval
    deals: int
    na: str | None = None
    verdict: str | None = None  # a paired comparison of two bots (skill depth)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "group": self.group, "label": self.label, "unit": self.unit, "about": self.about,
                **self.value.to_json(), "deals": self.deals, "na": self.na,
                **({"verdict": self.verdict} if self.verdict is not None else {})}


@attrs.frozen
class SizeAnalysis:
    """The figures of one table size."""

    size: int
    games: int
    deals: int  # deals whose metrics game finished
    figures: tuple[FigureValue, ...]

    @property
    def levels(self) -> int | None:
        """Ai Ai's levels of play: the rungs of the ladder whose stronger bot is ahead (95%), plus one."""
        rungs = [f for f in self.figures if f.group == "skill depth" and f.na is None]
        if not rungs:
            return None
        return 1 + sum(1 for f in rungs if f.value.low is not None and f.value.low > 0.5)

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.size, "games": self.games, "deals": self.deals, "levels_of_play": self.levels,
                "figures": [f.to_json() for f in self.figures]}


@attrs.frozen
class Analysis:
    """One ruleset analysed: what was played and every figure of every table size."""

    ruleset: str  # as given (an id, an example, a file)
    rules_id: str
    counter: str  # the counter the match is decided on (the unit of scores)
    options: dict[str, Any]
    seed: int
    deals: int
    player: str
    ladder: tuple[str, ...]
    refused: dict[str, str]
    resamples: int
    statuses: dict[str, int]
    sizes: tuple[SizeAnalysis, ...]
    #: The games not yet played (a run stopped early): every figure covers only those stored.
    missing: int = 0
    #: The first decisions of every game drawn at random (seeded by the deal), and why.
    opening: int = 0
    opening_why: str = ""
    #: Each table size's figures before they were summarised (a comparison pairs them deal by deal).
    raw: dict[int, list[Figure]] = attrs.field(factory=dict, eq=False, repr=False)

    @property
    def opening_sentence(self) -> str | None:
        """What the random openings are and why, when the games have them."""
        if not self.opening:
            return None
        return (f"Random openings: the first {self.opening} decisions of every game are drawn at random, seeded by "
                f"the deal, so that each deal is a game of its own ({self.opening_why}).")

    @property
    def label(self) -> str:
        options = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.ruleset}" + (f" ({options})" if options else "")

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "id": self.rules_id, "options": self.options, "counter": self.counter,
                "seed": self.seed,
                "deals": self.deals, "player": self.player, "ladder": list(self.ladder),
                "not_on_the_ladder": self.refused, "bootstrap_resamples": self.resamples,
                "games": self.statuses, "games_missing": self.missing,
                "random_opening": {"decisions": self.opening, "why": self.opening_why or None},
                "table_sizes": [size.to_json() for size in self.sizes]}


def analyse(plan: AnalysisPlan, rules: Rules, ruleset: str, rows: Sequence[GameRow], resamples: int = RESAMPLES,
            scheduled: int | None = None) -> Analysis:
    """Every figure of every table size of ``plan`` from its stored games ``rows``."""
    rng = np.random.default_rng(plan.config.seed)
    drawn: dict[int, np.ndarray] = {}

    def counts(deals: int) -> np.ndarray:
        if deals not in drawn:
            drawn[deals] = resample_counts(deals, resamples, rng)
        return drawn[deals]

    sizes, raw = [], {}
    for size in plan.seats:
        found = figures(plan, rules, size, rows)
        raw[size] = found
        values = []
        for figure in found:
            interval, verdict = figure.summarise(counts)
            na = figure.na if figure.na is not None or interval.value is not None else figure.empty
            values.append(FigureValue(figure.key, figure.group, figure.label, figure.unit, figure.about, interval,
                                      len(figure.deals), na, verdict))
        deals = max((len(f.deals) for f in found if f.group == "seat advantage"), default=0)
        sizes.append(SizeAnalysis(size, sum(1 for row in rows if row.table_size == size), deals, tuple(values)))
    statuses = dict(sorted(Counter(row.status for row in rows).items()))
    missing = max(0, (scheduled or 0) - len(rows))
    return Analysis(ruleset, rules.id, rules.match.counter, dict(plan.config.options), plan.config.seed,
                    plan.config.deals, plan.player, plan.ladder, dict(plan.refused), resamples, statuses,
                    tuple(sizes), missing, raw=raw)


# --------------------------------------------------------------------------- comparing two rulesets
@attrs.frozen
class FigureDifference:
    """A figure under both rulesets on the same deals: each side's value, the difference (first less
    second) with its paired 95% interval, its p-value (alone, and adjusted over every figure compared) and the
    verdict."""

    key: str
    group: str
    label: str
    unit: str
    about: str
    first: Interval
    second: Interval
    difference: Interval
    deals: int
    p_value: float | None = None
    adjusted: float | None = None
    na: str | None = None
    identical: bool = False  # the same on every deal (the rules changed nothing it measures)

    @property
    def significant(self) -> bool | None:
        return None if self.adjusted is None else self.adjusted < ERROR_RATE

    @property
    def verdict(self) -> str:
        if self.na is not None:
            return "n/a"
        if self.identical:
            return "the same on every deal"
        if self.significant is None:
            return "too few deals"
        if not self.significant:
            return "no clear difference"
        return "higher" if (self.difference.value or 0) > 0 else "lower"

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "group": self.group, "label": self.label, "unit": self.unit, "about": self.about,
                "first": self.first.to_json(), "second": self.second.to_json(),
                "difference": self.difference.to_json(), "deals": self.deals, "p_value": self.p_value,
                "p_value_adjusted": self.adjusted, "significant": self.significant, "verdict": self.verdict,
                "na": self.na}


@attrs.frozen
class SizeComparison:
    size: int
    differences: tuple[FigureDifference, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.size, "figures": [d.to_json() for d in self.differences]}


@attrs.frozen
class Comparison:
    """Two rulesets on the same deals: each analysed alone, and every figure compared."""

    first: Analysis
    second: Analysis
    same_tiles: bool  # the same tile set, so the same deals are the same shuffles
    permutations: int
    sizes: tuple[SizeComparison, ...]
    #: --null: one ruleset against itself on independent deals (the second side's from another seed).
    independent: bool = False
    #: Both sides run the same rules (the same digest) on the same deals: their games are the same games.
    same_rules: bool = False

    @property
    def deals_clause(self) -> str:
        """How the two sides' deals relate: the same shuffles, the same seeds, or independent (--null)."""
        if self.independent:
            return (f"--null: the same ruleset on independent deals (seeds {self.first.seed} and {self.second.seed}), "
                    f"so every difference is chance and a verdict other than 'no clear difference' a false one")
        return ("the same shuffles (the same tiles)" if self.same_tiles else
                "the same deal seeds, but the tile sets differ, so the shuffles do too")

    @property
    def same_rules_sentence(self) -> str | None:
        """A warning that the comparison tells nothing, when both sides run the same rules on the same deals."""
        if not self.same_rules:
            return None
        return ("The same rules on both sides (the same digest): on the same deals they play the same games, so "
                "every figure is identical and the comparison tells nothing; --null compares a ruleset with itself "
                "on independent deals.")

    @property
    def tests(self) -> int:
        return sum(1 for size in self.sizes for d in size.differences if d.p_value is not None)

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first.to_json(), "second": self.second.to_json(), "same_tiles": self.same_tiles,
                "independent_deals": self.independent, "same_rules": self.same_rules,
                "error_rate": ERROR_RATE, "permutations": self.permutations, "figures_tested": self.tests,
                "table_sizes": [size.to_json() for size in self.sizes]}


def paired_figures(first: Sequence[Figure], second: Sequence[Figure]
                   ) -> list[tuple[Figure, Figure | None, list[int], str | None]]:
    """Each figure of one table size with its counterpart, the deals both measured, or why they cannot be
    compared. A mechanism one side's rules do not have (``zero_elsewhere``) is 0 on that side, over its games."""
    theirs = {figure.key: figure for figure in second}
    mine = {figure.key for figure in first}

    def pair(figure: Figure, other: Figure) -> tuple[Figure, Figure | None, list[int], str | None]:
        reason = figure.na or other.na
        deals = sorted(set(figure.deals) & set(other.deals)) if reason is None else []
        if reason is None and not deals:
            reason = "no deal measured on both sides"
        return figure, other, deals, reason

    pairs: list[tuple[Figure, Figure | None, list[int], str | None]] = []
    for figure in first:
        other = theirs.get(figure.key) or _nothing_for(figure, second)
        if other is None:
            pairs.append((figure, None, [], "the other ruleset has no such figure"))
            continue
        pairs.append(pair(figure, other))
    for figure in second:
        if figure.key in mine:
            continue
        counterpart = _nothing_for(figure, first)
        pairs.append(pair(counterpart, figure) if counterpart is not None else
                     (figure, None, [], "the first ruleset has no such figure"))
    return pairs


def _nothing_for(figure: Figure, side: Sequence[Figure]) -> Figure | None:
    """``figure`` as 0 on every deal of ``side``'s games (a mechanism its rules do not have), if it may be."""
    if not figure.zero_elsewhere or figure.na is not None:
        return None
    denominator = figure.columns[-1]
    source = next((f.source for f in side if f.source is not None and denominator in f.source.columns), None)
    if source is None:
        return None
    return attrs.evolve(figure, source=Aggregates(source.deals, {denominator: source.columns[denominator]}))


def compare_figures(size: int, pairs: Sequence[tuple[Figure, Figure | None, list[int], str | None]],
                    counts: Callable[[int], np.ndarray], flips: Callable[[int, Sequence[int]], np.ndarray]
                    ) -> list[tuple[FigureDifference, np.ndarray | None]]:
    """Each pair of figures of one table size compared over the deals both sides measured, with its
    differences under the swaps (p-values not yet adjusted)."""
    out: list[tuple[FigureDifference, np.ndarray | None]] = []
    blank = Interval(None, None, None)
    for mine, other, deals, reason in pairs:
        if reason is not None or other is None or mine.statistic is None:
            out.append((FigureDifference(mine.key, mine.group, mine.label, mine.unit, mine.about, blank, blank, blank,
                                         0, na=reason or "no statistic"), None))
            continue
        a, b = mine.per_deal(deals), other.per_deal(deals)
        shared = counts(len(deals))  # each side alone as the analysis shows it, on the deals both measured
        sides = (mine.interval(a, shared), other.interval(b, shared))
        # The difference of a share is built from each side's Wilson interval; of a mean, studentised deal
        # by deal (tournaments.statistics.paired_difference); any other figure's is the BCa bootstrap's.
        share = mine.statistic is ratio and mine.unit == SHARE and not mine.mean_share
        paired = paired_difference(mine.statistic, a, b, shared, flips(size, deals), sides if share else None,
                                   mean=mine.statistic is ratio and not share)
        if paired.first.value is None or paired.second.value is None:
            why = mine.empty if paired.first.value is None else other.empty
            out.append((FigureDifference(mine.key, mine.group, mine.label, mine.unit, mine.about, paired.first,
                                         paired.second, blank, paired.deals, na=why), None))
            continue
        out.append((FigureDifference(mine.key, mine.group, mine.label, mine.unit, mine.about, *sides,
                                     paired.difference, paired.deals, paired.p_value,
                                     identical=bool(np.array_equal(a, b))), paired.null))
    return out


def compare_analyses(first: Analysis, second: Analysis, same_tiles: bool, resamples: int = RESAMPLES,
                     permutations: int = PERMUTATIONS, independent: bool = False, same_rules: bool = False
                     ) -> Comparison:
    """Every figure of every table size both analysed, compared deal by deal, verdicts adjusted together.

    Every figure is tested on the same random swaps of the two sides, deal by deal (a deal is a
    table size and a deal index), so that the max-T adjustment sees how the figures move together.
    """
    rng = np.random.default_rng(first.seed)
    sizes = [size for size in first.raw if size in second.raw]
    pairs = {size: paired_figures(first.raw[size], second.raw[size]) for size in sizes}
    units = sorted({(size, deal) for size in sizes for _, _, deals, _ in pairs[size] for deal in deals})
    where = {unit: index for index, unit in enumerate(units)}
    swapped = swaps(len(units), permutations, rng)
    drawn: dict[int, np.ndarray] = {}

    def counts(deals: int) -> np.ndarray:
        if deals not in drawn:  # figures over as many deals share their resamples
            drawn[deals] = resample_counts(deals, resamples, rng)
        return drawn[deals]

    def flips(size: int, deals: Sequence[int]) -> np.ndarray:
        return swapped[:, [where[(size, deal)] for deal in deals]]

    compared = {size: compare_figures(size, pairs[size], counts, flips) for size in sizes}
    flat = [entry for size in sizes for entry in compared[size]]
    adjusted = iter(max_t([d.difference.value if d.p_value is not None else None for d, _ in flat],
                          [null for _, null in flat]))
    result = [SizeComparison(size, tuple(attrs.evolve(d, adjusted=next(adjusted)) for d, _ in compared[size]))
              for size in sizes]
    return Comparison(first, second, same_tiles, permutations, tuple(result), independent, same_rules)

