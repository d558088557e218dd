"""Which games an analysis plays: a tournament of named tables on duplicate deals.

For each table size, every deal (a seed for the game's chance, shared by every table of that
size and by both rulesets of a comparison) is played at:

- the **metrics table**: every seat the same bot (``--player``, default ``greedy``), each seat
  its own instance (its own seed), the deal played once as it sits. The figures of seat
  advantage, endings, duration, branching, the lead and Ludii's metrics come from these games.
- one **ladder table** for each two neighbours on the ladder (``--bots``, weakest first): the
  stronger bot in one seat and the weaker in all the others, the deal replayed under every
  rotation, so the stronger sits in every seat once; at a solitaire each bot plays the deal
  alone. Skill depth compares them deal by deal, and luck is the share of the variance
  that the hand a seat was dealt explains when bots of different strength play it.

Entrants are bot instances named ``BOT#K`` (the K-th seat a bot takes at one table), in the
order the tables need them, smallest table first, so an analysis grown to larger tables or
more deals (the same command with more ``--seats`` or ``--deals`` and the same ``--output``)
keeps every game already played. A bot that cannot play the ruleset is left off the ladder,
with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from contack_core.engine.bots import Budget, PlayerSpecError, installed_players, make_player, parse_seat
from contack_core.engine.rules import Rules
from contack_core.language.documents import shipped_example
from tournaments.config import Entrant, TournamentConfig
from tournaments.schedule import Table

#: The most deals an analysis takes (a schedule past this is not an analysis of minutes).
MAX_DEALS = 100_000


class PlanError(ValueError):
    """An analysis that cannot be planned (a bot unknown or mis-written, a table size the ruleset does not allow)."""


@attrs.frozen
class Rung:
    """Two neighbours on the ladder: is ``stronger`` stronger than ``weaker``?"""

    weaker: str
    stronger: str

    @property
    def label(self) -> str:
        return f"{self.stronger} over {self.weaker}"


#: Ludii's default ideal range of a game's length (IdealDuration: 0 to 1,000 turns), in decisions.
IDEAL_DECISIONS = (0, 1000)


@attrs.frozen
class AnalysisPlan:
    """An analysis as the tournament runner plays it, and what the figures need to read its games."""

    config: TournamentConfig
    player: str
    ladder: tuple[str, ...]  # the bots on the ladder that play the ruleset, weakest first
    refused: Mapping[str, str]  # a bot on the ladder that cannot play the ruleset -> why
    rungs: tuple[Rung, ...]
    bot_of: Mapping[int, str]  # entrant index -> the bot it is an instance of
    #: The length of game the designer wants, in decisions (least, most): Ludii's ideal duration.
    ideal: tuple[int, int] = IDEAL_DECISIONS

    @property
    def seats(self) -> tuple[int, ...]:
        return self.config.seats


def resolve_ruleset(reference: str) -> str:
    """A ruleset id or shipped example as given; a file as an absolute path (workers may run elsewhere)."""
    if (reference.endswith((".yaml", ".yml")) or "/" in reference) and shipped_example(reference) is None:
        return str(Path(reference).resolve())
    return reference


def check_bot(spec: str, rules: Rules, available: Mapping[str, Any]) -> str | None:
    """Why the bot ``spec`` names cannot play ``rules`` (None: it can); a spec that names no bot, or
    gives it parameters it does not take, is a PlanError."""
    try:
        player = make_player(spec, 0, available, None)
    except PlayerSpecError as error:
        raise PlanError(str(error)) from None
    player.close()
    if not player.timed:
        raise PlanError(f"{spec} waits for a person at the keyboard; an analysis needs bots")
    try:
        make_player(spec, 0, available, rules).close()
    except PlayerSpecError as error:
        return str(error)
    return None


def build_plan(rules: Rules, ruleset: str, options: Mapping[str, Any], seats: Sequence[int], bots: Sequence[str],
               player: str, deals: int, seed: int, output: Path, opening: int = 0,
               ideal: tuple[int, int] = IDEAL_DECISIONS) -> AnalysisPlan:
    """The tournament an analysis plays (see the module's docstring), checked against the ruleset."""
    low, high = rules.players
    for size in seats:
        if not low <= size <= high:
            raise PlanError(f"{rules.id} is {rules.for_players()}, not tables of {size}")
        try:
            rules.match.teams(size)
        except ValueError as error:
            raise PlanError(f"tables of {size}: {error}") from None
    if not 1 <= deals <= MAX_DEALS:
        raise PlanError(f"deals must be from 1 to {MAX_DEALS:,}, not {deals}")
    if opening < 0:
        raise PlanError(f"--opening takes a number of decisions, 0 or more, not {opening}")
    if not 0 <= ideal[0] <= ideal[1] or ideal[1] < 1:
        raise PlanError(f"--ideal-decisions takes LEAST-MOST, 0 <= LEAST <= MOST and MOST >= 1, not "
                        f"{ideal[0]}-{ideal[1]}")
    if len(set(bots)) != len(bots):
        raise PlanError(f"a bot appears twice on the ladder: {', '.join(bots)}")
    available = installed_players()
    why = check_bot(player, rules, available)
    if why is not None:
        raise PlanError(f"the bot of the metrics games cannot play {rules.id}: {why}; choose another with --player")
    refused: dict[str, str] = {}
    ladder = []
    for bot in bots:
        reason = check_bot(bot, rules, available)
        if reason is None:
            ladder.append(bot)
        else:
            refused[bot] = reason
    rungs = tuple(Rung(weaker, stronger) for weaker, stronger in zip(ladder, ladder[1:]))

    entrants: list[tuple[str, int]] = []  # (bot, instance number)

    def instance(bot: str, number: int) -> int:
        if (bot, number) not in entrants:
            entrants.append((bot, number))
        return entrants.index((bot, number))

    tables: dict[int, tuple[Table, ...]] = {}
    for size in sorted(seats):
        named: list[Table] = [Table(tuple(instance(player, k) for k in range(1, size + 1)), rotate=False)]
        for rung in rungs:
            if size == 1:
                named += [Table((instance(rung.weaker, 1),), rotate=False),
                          Table((instance(rung.stronger, 1),), rotate=False)]
            else:
                named.append(Table((instance(rung.stronger, 1),
                                    *(instance(rung.weaker, k) for k in range(1, size)))))
        unique = []
        for table in named:  # at a solitaire the metrics bot and the ladder's may play the same games
            if table not in unique:
                unique.append(table)
        tables[size] = tuple(unique)

    config = TournamentConfig(
        name=f"analysis-{rules.id}", ruleset=ruleset, options=dict(options),
        entrants=tuple(_entrant(bot, number) for bot, number in entrants), seats=tuple(sorted(seats)),
        deals=deals, seed=seed, budget=Budget(), fault_policy="pass", output=output, source="contack analyze",
        tables=tables, measure=True, opening=opening)
    return AnalysisPlan(config, player, tuple(ladder), refused, rungs,
                        {index: bot for index, (bot, _) in enumerate(entrants)}, ideal)


def _entrant(bot: str, number: int) -> Entrant:
    name, params = parse_seat(bot) if not bot.startswith("exec:") else ("exec", {"command": bot[len("exec:"):]})
    return Entrant(f"{bot}#{number}", name, params)


def has_chance(rules: Rules, seats: int) -> bool:
    """Whether a game of ``rules`` starts with chance (a shuffle, a deal): without it, and with
    deterministic bots, every deal would be the same game."""
    from contack_core.engine.referee import RefereedGame

    return bool(RefereedGame(rules, seats).is_chance_node())
