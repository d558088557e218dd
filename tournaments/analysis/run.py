"""``contack analyze``: plan the games, play them on the tournament engine, and read the figures.

Each ruleset of an analysis is a tournament (:mod:`tournaments.analysis.plan`) played by
:func:`tournaments.runner.run_tournament` into a folder of its own under ``--output``: the
local worker pool or Ray, every game stored as it ends, a stopped run resumed by the same
command. Without ``--output`` the games are played into a temporary folder, removed at the end.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
from rich.console import Console

from contack_core.language.problems import RulesetError
from contack_core.primitives.loading import load_rules
from tournaments.analysis import (
    DEFAULT_DEALS,
    DEFAULT_LADDER,
    DEFAULT_OPENING,
    DEFAULT_PLAYER,
    DEFAULT_SEED,
    NULL_SEED_OFFSET,
)
from tournaments.analysis.plan import IDEAL_DECISIONS, AnalysisPlan, PlanError, build_plan, has_chance, resolve_ruleset
from tournaments.analysis.report import PERMUTATIONS, RESAMPLES, Analysis, Comparison, analyse, compare_analyses
from tournaments.play import ERROR
from tournaments.schedule import games_per_deal
from tournaments.store import ConfigChanged, Store


#: The results database's note of the flags that made its games (see :func:`_flags`).
FLAGS = "analysis flags"


class AnalysisError(ValueError):
    """An analysis that cannot be made (a ruleset, option, bot or table size that does not do)."""


class AnalysisStopped(Exception):
    """A stop signal ended the games early; what was played is kept in ``--output``, if given."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@attrs.frozen
class Request:
    """What ``contack analyze`` was asked."""

    ruleset: str
    options: Mapping[str, str] = attrs.field(factory=dict)
    against: str | None = None
    against_options: Mapping[str, str] = attrs.field(factory=dict)
    seats: tuple[int, ...] | None = None  # None: the smallest table both rulesets allow
    bots: tuple[str, ...] = DEFAULT_LADDER
    player: str = DEFAULT_PLAYER
    deals: int = DEFAULT_DEALS
    seed: int = DEFAULT_SEED
    workers: int | None = None
    backend: str = "local"
    address: str | None = None
    output: Path | None = None
    resamples: int = RESAMPLES
    permutations: int = PERMUTATIONS
    quiet: bool = False
    #: Decisions drawn at random at the start of every game; None: DEFAULT_OPENING for a ruleset without
    #: chance, else none.
    opening: int | None = None
    #: Compare the ruleset with itself on independent deals (what no difference looks like).
    null: bool = False
    #: The length of game the designer wants, in decisions (least, most): Ludii's ideal duration.
    ideal: tuple[int, int] = IDEAL_DECISIONS


def folder_name(ruleset: str, options: Mapping[str, str]) -> str:
    """The folder of one ruleset's games under ``--output``: its name and options, as a file name."""
    name = Path(ruleset).stem if ruleset.endswith((".yaml", ".yml")) else ruleset
    text = name + "".join(f"+{key}={value}" for key, value in sorted(options.items()))
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "-", text).strip("-") or "ruleset"


def _load(ruleset: str, options: Mapping[str, str], against: tuple[str, str, Mapping[str, str]] | None = None) -> Any:
    """The rules of one side. A failure with options names the ruleset; in a comparison (``against``:
    this side's flag, --option-a or --option-b, then the other ruleset and its options) it says which
    flag gives an option to one ruleset alone."""
    try:
        return load_rules(resolve_ruleset(ruleset), dict(options))
    except RulesetError as error:
        message = "\n".join(str(problem) for problem in error.problems)
        if not options or not _loads(ruleset):  # the ruleset itself is at fault, not the options
            raise AnalysisError(message) from None
        raise AnalysisError(f"{ruleset}: {message}{_option_hint(ruleset, options, against)}") from None


def _loads(ruleset: str, options: Mapping[str, str] | None = None) -> bool:
    try:
        load_rules(resolve_ruleset(ruleset), dict(options or {}))
    except RulesetError:
        return False
    return True


def _option_hint(ruleset: str, options: Mapping[str, str], against: tuple[str, str, Mapping[str, str]] | None
                 ) -> str:
    """Where an option belongs in a comparison: an option only the other ruleset has goes to its flag;
    a failing option given to both (by --option) may go to one alone. One given to this ruleset alone
    gets no hint: the user chose its flag, and the problem says what the ruleset takes."""
    if against is None:
        return ""
    flag, other, other_options = against
    other_flag = "--option-b" if flag == "--option-a" else "--option-a"
    try:
        mine = set(load_rules(resolve_ruleset(ruleset), {}).options)
        theirs = set(load_rules(resolve_ruleset(other), {}).options)
    except (RulesetError, AnalysisError):
        mine, theirs = set(), set()
    for key, value in options.items():
        if key not in mine and key in theirs:
            return f" ({key} is an option of {other} only: give it with {other_flag} {key}={value})"
    failing = [key for key in options if not _loads(ruleset, {key: options[key]})] or list(options)
    if all(other_options.get(key) != options[key] for key in failing):  # each given with this ruleset's flag
        return ""
    return (f" (--option gives an option to both rulesets; {flag} KEY=VALUE to {ruleset} alone, "
            f"{other_flag} KEY=VALUE to {other} alone)")


def analyze(request: Request, resume: str | None = None, console: Console | None = None) -> Analysis | Comparison:
    """Play what the request needs (what ``--output`` already holds is kept) and work out its figures.

    Both rulesets' plans are checked before a game is played. ``resume``: the command that goes
    on with a stopped run (said when a signal stops it).
    """
    if request.null and request.against is not None:
        raise AnalysisError("--null compares the ruleset with itself on independent deals: leave out --against")
    sides = [(request.ruleset, request.options, request.seed)]
    if request.against is not None:
        sides.append((request.against, request.against_options, request.seed))
    if request.null:
        sides.append((request.ruleset, request.options, request.seed + NULL_SEED_OFFSET))
    if request.against is not None:
        first, second = sides
        loaded = [_load(first[0], first[1], ("--option-a", second[0], second[1])),
                  _load(second[0], second[1], ("--option-b", first[0], first[1]))]
    else:
        loaded = [_load(ruleset, options) for ruleset, options, _ in sides]
    seats = request.seats or (max(rules.players[0] for rules in loaded),)
    opening, why = _opening(request, loaded, sides, seats)
    temporary = None if request.output is not None else tempfile.mkdtemp(prefix="contack-analysis-")
    output = request.output or Path(str(temporary))
    try:
        plans = []
        for (ruleset, options, seed), rules in zip(sides, loaded):
            folder = folder_name(ruleset, options) + (f"+seed={seed}" if seed != request.seed else "")
            try:
                plans.append(build_plan(rules, resolve_ruleset(ruleset), options, seats, request.bots,
                                        request.player, request.deals, seed, output / folder, opening,
                                        request.ideal))
            except PlanError as error:
                raise AnalysisError(str(error) if len(sides) == 1 else f"{ruleset}: {error}") from None
        analyses = [attrs.evolve(_play_and_analyse(request, plan, rules, ruleset, resume, temporary is not None,
                                                   console, _flags(request, ruleset, seats, opening)),
                                 opening=opening, opening_why=why)
                    for plan, rules, (ruleset, _, _) in zip(plans, loaded, sides)]
        if len(analyses) == 1:
            return analyses[0]
        return compare_analyses(analyses[0], analyses[1], _same_tiles(*loaded), request.resamples,
                                request.permutations, independent=request.null,
                                same_rules=not request.null and loaded[0].digest() == loaded[1].digest())
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


def _opening(request: Request, loaded: list[Any], sides: list[tuple[str, Any, int]], seats: tuple[int, ...]
             ) -> tuple[int, str]:
    """How many decisions open every game at random, and why (the same for both sides, so deals stay paired)."""
    if request.opening is not None:
        return request.opening, "--opening" if request.opening else ""
    without = [ruleset for (ruleset, _, _), rules in zip(sides, loaded)  # a size the ruleset refuses: the plan says
               if rules.players[0] <= min(seats) <= rules.players[1] and not has_chance(rules, min(seats))]
    if not without:
        return 0, ""
    return DEFAULT_OPENING, f"{' and '.join(dict.fromkeys(without))} has no chance, so deals would not differ"


def _flags(request: Request, ruleset: str, seats: tuple[int, ...], opening: int) -> dict[str, str]:
    """What decides one side's games, as flags the user types: kept with the games, so that a run its
    folder cannot take says which flags differ rather than how the tournament built from them does."""
    return {"ruleset": resolve_ruleset(ruleset), "--bots": ",".join(request.bots), "--player": request.player,
            "--seats": ",".join(map(str, seats)), "--deals": str(request.deals), "--seed": str(request.seed),
            "--opening": str(opening)}


def _refusal(folder: Path, refused: ConfigChanged, flags: Mapping[str, str]) -> str:
    """Why ``folder`` cannot take this run, in the flags that made it and those given now; the
    tournament's own terms for a folder that kept no flags (made by ``contack tournament run``)."""
    try:
        made = json.loads(refused.meta.get(FLAGS, "{}"))
    except ValueError:
        made = {}
    if not made:
        return str(refused)
    changed = [flag for flag, given in flags.items()
               if made.get(flag) != given and not _grows(flag, made.get(flag), given)]
    if not changed:
        if json.loads(refused.meta.get("config", "{}")).get("ruleset_digest") != refused.config.get("ruleset_digest"):
            return (f"{folder} was made with other rules of {flags['ruleset']} (its file, or contack, changed "
                    f"since): use another --output")
        return str(refused)
    same = [flag for flag in changed if flag != "--deals"]
    advice = [f"the same {_and(same)}"] if same else []
    if "--deals" in changed:
        advice.append(f"--deals {made['--deals']} or more")
    return (f"{folder} was made with {' '.join(f'{flag} {made.get(flag)}' for flag in changed)}; this run asks "
            f"for {' '.join(f'{flag} {flags[flag]}' for flag in changed)}: use {', and '.join(advice)} "
            f"(or another --output)")


def _grows(flag: str, made: str | None, given: str) -> bool:
    """Whether ``given`` only grows what ``made`` played: more deals, or table sizes added above the
    largest (their bots are added after the others'), which the tournament takes."""
    if made is None:
        return False
    if flag == "--deals":
        return int(given) > int(made)
    if flag == "--seats":
        old, new = {int(size) for size in made.split(",")}, {int(size) for size in given.split(",")}
        return old < new and min(new - old) > max(old)
    return False


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _same_tiles(first: Any, second: Any) -> bool:
    a, b = getattr(first, "tiles", None), getattr(second, "tiles", None)
    return a is not None and b is not None and list(a.names) == list(b.names)


def _play_and_analyse(request: Request, plan: AnalysisPlan, rules: Any, ruleset: str, resume: str | None,
                      temporary: bool, console: Console | None, flags: Mapping[str, str]) -> Analysis:
    from tournaments.runner import RunError, run_tournament
    from tournaments.store import StoreError

    folder = plan.config.output
    try:
        summary = run_tournament(plan.config, folder, request.workers, request.backend, request.address,
                                 request.quiet, console=console, leaderboard=False,
                                 meta={"resume": resume or "", FLAGS: json.dumps(flags)})
    except ConfigChanged as refused:
        raise AnalysisError(_refusal(folder, refused, flags)) from None
    except (RunError, StoreError) as error:
        raise AnalysisError(str(error)) from None
    if summary.stopped:
        keep = ("; nothing is kept without --output DIR, which lets the same command resume" if temporary else
                f"; resume with: {resume}" if resume else "")
        raise AnalysisStopped(f"{summary.stopped}: {summary.done} of {summary.total} games of {ruleset} done{keep}",
                              128 + (summary.stop_signal or 2))
    with Store.open_existing(folder) as store:
        rows = list(store.games())
    if rows and all(row.status == ERROR for row in rows):
        reasons = sorted({str(fault.get("reason", "")) for row in rows[:20] for fault in row.faults})
        raise AnalysisError(f"every game of {ruleset} ended in an error, e.g. {reasons[0][:300] if reasons else '?'}")
    scheduled = games_per_deal(len(plan.config.entrants), plan.config.seats, plan.config.tables) * plan.config.deals
    return analyse(plan, rules, ruleset, rows, request.resamples, scheduled)
