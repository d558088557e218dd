"""Playing a batch of tournament games in a worker: pure functions of the plan and the games.

Whatever a game does (a bot that raises or returns an illegal action, an engine error), the
batch goes on: the game comes back with a status and the fault, never as an exception, so
a tournament never dies of one game. The result of a game depends only on its identity
(deal seed and seating); timing is reported but decides nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import IO, Any

import attrs

from contack_core.engine.bots import Budget, Player, installed_players, make_player
from contack_core.engine.referee import play_game
from contack_core.primitives.loading import load_rules
from contack_core.records.format import RecordWriter, header_for
from tournaments.analysis.measure import GameMeasure, action_values, snapshot
from tournaments.analysis.mechanisms import MechanismMeasure
from tournaments.lock import write_whole
from tournaments.schedule import GameSpec, bot_seed

#: Where the records are, in a tournament's folder (the store's layout; rows name their record by it).
RECORDS_FOLDER = "records"

#: Game statuses: finished cleanly; finished with bot faults the engine absorbed; forfeited
#: by a seat whose bot failed; stopped by an error that is nobody's seat.
OK, FAULTED, FORFEIT, ERROR = "ok", "faulted", "forfeit", "error"


@attrs.frozen
class Plan:
    """What a worker needs to play any game of a tournament (small, picklable, machine-neutral)."""

    ruleset: str
    options: Mapping[str, Any]
    names: tuple[str, ...]  # display name of each entrant
    specs: tuple[str, ...]  # seat specification of each entrant, as make_player reads it
    record_ruleset: str  # how records name the ruleset (relative to the records folder for a file)
    #: Where workers write records themselves (they share the main's disk); None: records
    #: travel back in the results and the main writes them (workers on other machines).
    records_dir: str | None = None
    budget: Budget = Budget()  # each move's limits, enforced by the game's referee
    fault_policy: str = "pass"  # what a bot's fault costs: the move ("pass") or the game ("forfeit")
    workdir: str | None = None  # where external (exec:) bots run: the config's folder
    #: Measure each game as it is played (an analysis: :mod:`tournaments.analysis.measure`).
    measure: bool = False
    #: The first decisions of every game taken at random, seeded by the deal (:class:`OpeningPlayer`).
    opening: int = 0


@attrs.frozen
class GameResult:
    """A played game: identity, outcome, timing, faults and its record (JSON Lines text)."""

    deal_seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...] | None
    ranks: tuple[int, ...] | None  # 1 = best, ties share a rank
    duration: float
    status: str
    faults: tuple[Mapping[str, Any], ...]
    record: str | None  # the record's text, or None once written to the records folder
    winners: tuple[int, ...] | None = None  # the seats the rules declare winners (a solitaire: won or not)
    placed: int | None = None  # tiles on the table at the end (a solitaire's progress)
    measures: Mapping[str, Any] | None = None  # what the game measured, when the plan asks (an analysis)


def competition_ranks(scores: Sequence[int]) -> tuple[int, ...]:
    """1 for the best score; equal scores share a rank and the next rank skips (1, 1, 3)."""
    return tuple(1 + sum(other > score for other in scores) for score in scores)


@lru_cache(maxsize=4)
def _rules(ruleset: str, options: tuple[tuple[str, Any], ...]) -> Any:
    """Compiled rules, once per worker process (loading costs more than a game)."""
    return load_rules(ruleset, dict(options))


def rules_for(plan: Plan) -> Any:
    return _rules(plan.ruleset, tuple(sorted(plan.options.items())))


@lru_cache(maxsize=1)
def _player_classes() -> dict[str, Any]:
    """The installed players' classes, once per worker process (scanning entry points is slow)."""
    return {name: entry.load() for name, entry in installed_players().items()}


@lru_cache(maxsize=4)
def _header_base(ruleset: str, options: tuple[tuple[str, Any], ...], record_ruleset: str) -> dict[str, Any]:
    """The record header fields every game of a tournament shares (the digest hashes the whole ruleset)."""
    header = header_for(_rules(ruleset, options), [], None)
    header["ruleset"] = record_ruleset
    return header


def record_header(plan: Plan, names: list[str], specs: list[str], deal_seed: int) -> dict[str, Any]:
    base = _header_base(plan.ruleset, tuple(sorted(plan.options.items())), plan.record_ruleset)
    return {"ruleset": base["ruleset"], "options": base["options"], "seats": names, "seed": deal_seed,
            "players": specs, "engine": base["engine"], "ruleset_digest": base["ruleset_digest"]}


def play_one(plan: Plan, game: GameSpec, watch: Callable[[int | None, str | None], None] | None = None,
             stream: IO[str] | None = None) -> GameResult:
    """Play one game; every failure becomes the game's status, never an exception.

    This runs where no signal raises (a worker ignores SIGINT), so whatever a bot raises,
    KeyboardInterrupt included, is the bot's fault. ``watch`` (a worker replaying a game
    that killed its process) is told each bot call before it is made; ``stream`` takes the
    record line by line instead of in memory (GameResult.record is then None).
    """
    start = time.perf_counter()
    memory = stream is None
    stream = io.StringIO() if stream is None else stream
    seats = len(game.seating)
    names = [plan.names[entrant] for entrant in game.seating]
    specs = [plan.specs[entrant] for entrant in game.seating]
    players: list[Any] = []
    try:
        rules = rules_for(plan)
        header = record_header(plan, names, specs, game.deal_seed)
        available = _player_classes()
        for seat, spec in enumerate(specs):
            if watch is not None:
                watch(seat, "make_player")
            player = make_player(spec, bot_seed(game.deal_seed, names[seat]), available, rules, plan.workdir)
            if plan.opening:
                player = OpeningPlayer(player, plan.opening, game.deal_seed)
            players.append(player if watch is None else WatchedPlayer(player, seat, watch))
        if watch is not None:
            watch(None, None)
        observers: list[Any] = [RecordWriter(stream, header)]
        if plan.measure:
            observers += [MechanismMeasure(rules),
                          GameMeasure(rules, seats, action_values=action_values, snapshot_of=snapshot)]
        # The referee inside play_game absorbs bot faults (a raise, an illegal action, an
        # overrun) as the fault policy says and records them; what escapes is the engine's.
        state = play_game(rules, players, game.deal_seed, observers, budget=plan.budget,
                          fault_policy=plan.fault_policy, absorb_interrupts=True)
    except BaseException as error:  # an engine or set-up failure: record it, keep the tournament going
        return _error(game, f"{type(error).__name__}: {error}", start, stream if memory else None)
    finally:
        for player in players:
            try:
                player.close()
            except BaseException:  # a bot that fails to close must not take the batch down
                pass
    if state.ruleset_error is not None:  # a formula of the ruleset failed: nobody's seat is at fault
        return _error(game, str(state.ruleset_error), start, stream)
    faults = tuple(_fault_dict(fault) for fault in state.faults)
    text = stream.getvalue() if memory else None  # type: ignore[attr-defined]
    figure = getattr(state, "figure", None)
    placed = len(figure.tile_at) if figure is not None and hasattr(figure, "tile_at") else None
    if state.forfeited_by is not None:
        return _forfeit(game, seats, state.forfeited_by, faults, start, text)
    scores = tuple(state.scores())
    measures = {**observers[-1].summary(), "mechanisms": observers[-2].summary()} if plan.measure else None
    return GameResult(game.deal_seed, game.seating, scores, competition_ranks(scores),
                      time.perf_counter() - start, FAULTED if faults else OK, faults, text,
                      tuple(state.winners()), placed, measures)


class WrappedPlayer(Player):
    """A player standing for ``inner``: its clock and budget are the inner player's, and every
    call a subclass does not take goes to it."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.timed = inner.timed
        self.keeps_time = inner.keeps_time

    @property  # type: ignore[override]
    def budget(self) -> Budget:
        return self.inner.budget

    @budget.setter
    def budget(self, value: Budget) -> None:
        self.inner.budget = value

    @property
    def keeps_deadline(self) -> bool:
        """The wrapped player's promise: this wrapper adds only bounded work to its ``choose``."""
        return self.inner.keeps_deadline

    def start_game(self, rules: Any, seat: int, seat_count: int) -> None:
        self.inner.start_game(rules, seat, seat_count)

    def choose(self, state: Any) -> Any:
        self.inner.deadline = self.deadline  # a plain copy: cheaper than a property on every decision
        return self.inner.choose(state)

    def observe(self, seat: int, action: Any, event: Any) -> None:
        self.inner.observe(seat, action, event)

    def end_game(self, state: Any) -> None:
        self.inner.end_game(state)

    def close(self) -> None:
        self.inner.close()


class WatchedPlayer(WrappedPlayer):
    """A player whose every call is announced to ``watch(seat, method)`` first, and
    ``watch(None, None)`` after: if the process dies in a call, the watcher knows whose."""

    def __init__(self, inner: Player, seat: int, watch: Callable[[int | None, str | None], None]) -> None:
        super().__init__(inner)
        self.seat = seat
        self.watch = watch

    def _call(self, method: str, *args: Any) -> Any:
        self.watch(self.seat, method)
        try:
            return getattr(self.inner, method)(*args)
        finally:
            self.watch(None, None)

    def start_game(self, rules: Any, seat: int, seat_count: int) -> None:
        self._call("start_game", rules, seat, seat_count)

    def choose(self, state: Any) -> Any:
        self.inner.deadline = self.deadline  # a plain copy: cheaper than a property on every decision
        return self._call("choose", state)

    def observe(self, seat: int, action: Any, event: Any) -> None:
        self._call("observe", seat, action, event)

    def end_game(self, state: Any) -> None:
        self._call("end_game", state)

    def close(self) -> None:
        self._call("close")


class OpeningPlayer(WrappedPlayer):
    """A player whose decisions among the game's first ``moves`` are drawn at random, seeded by the deal
    and the decision's number, and the rest its own.

    A game without chance played by deterministic bots is the same game on every deal; a random
    opening makes each deal a game of its own. Every table of a deal (and both rulesets of a
    comparison, where the same actions are legal) opens alike, so deals stay paired.
    """

    def __init__(self, inner: Player, moves: int, deal_seed: int) -> None:
        super().__init__(inner)
        self.moves = moves
        self.deal_seed = deal_seed

    def choose(self, state: Any) -> Any:
        if state.turns < self.moves:
            legal = list(state.legal_actions())
            return random.Random(f"opening:{self.deal_seed}:{state.turns}").choice(legal)
        self.inner.deadline = self.deadline
        return self.inner.choose(state)


def _fault_dict(fault: Any) -> dict[str, Any]:
    if attrs.has(type(fault)):
        return attrs.asdict(fault)
    return {"reason": str(fault)}


def forfeit_ranks(seats: int, seat: int) -> tuple[int, ...]:
    """The faulty seat is last; the others share first place."""
    return tuple(seats if s == seat else 1 for s in range(seats))


def _forfeit(game: GameSpec, seats: int, seat: int, faults: tuple[Mapping[str, Any], ...], start: float,
             record: str | None) -> GameResult:
    """No scores: the game did not finish."""
    return GameResult(game.deal_seed, game.seating, None, forfeit_ranks(seats, seat), time.perf_counter() - start,
                      FORFEIT, faults, record)


def _error(game: GameSpec, reason: str, start: float, stream: io.StringIO | None) -> GameResult:
    return GameResult(game.deal_seed, game.seating, None, None, time.perf_counter() - start, ERROR,
                      ({"seat": None, "kind": "error", "reason": reason},),
                      stream.getvalue() if stream is not None else None)


def warm_worker(plan: Plan) -> None:
    """Load what every game needs (rules, player classes, header) before the first game."""
    rules_for(plan)
    _player_classes()
    record_header(plan, [], [], 0)


class StorageFailure(Exception):
    """A record that could not be written (a full disk, a folder gone): the run stops, saying so once."""


def write_record(records_dir: str, key: str, text: str) -> None:
    """Write a record under a temporary name, sync it, then rename: a record file is always whole,
    and on the disk before the main process commits its row (it syncs the folder once a
    transaction, :meth:`tournaments.store.Store.save`). :class:`StorageFailure` if it cannot be."""
    path = os.path.join(records_dir, key + ".jsonl")
    try:
        write_whole(path, text)
    except OSError as error:
        raise StorageFailure(f"cannot write the record {path}: {error.strerror or error}") from None


def record_fingerprint(data: bytes) -> tuple[int, str]:
    """A record's size and digest, as its row stores them: a resumed run checks the file against them."""
    return len(data), "sha256:" + hashlib.sha256(data).hexdigest()


#: A game's row in the results database, in the column order of the store's ``games`` table.
Row = tuple[Any, ...]


@attrs.frozen
class Outcome:
    """What the main process needs of a stored game as it arrives (statuses, the live leaderboard)."""

    deal_seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...] | None
    ranks: tuple[int, ...] | None
    status: str


@attrs.frozen
class PlayedBatch:
    """A played batch as it travels back to the main process: ready-made rows, nothing left to compute.

    The worker does all the per-game work (records, JSON columns), so the main process only
    inserts rows: with two workers on two cores, every cycle the main spends is one a worker
    does not get.
    """

    rows: list[Row]
    outcomes: list[Outcome]
    cpu_seconds: float  # the worker's CPU time for the batch: playing and writing records
    #: The record texts, when the workers cannot write them (remote Ray workers); else None.
    records: list[str] | None = None


def game_row(plan: Plan, game: GameSpec, result: GameResult, record: str | bytes | None = None) -> Row:
    """The database row of a played game (the store's ``games`` columns, in order); ``record``: its
    record as written (default: the result's), whose size and digest the row keeps."""
    key = game.key
    record = result.record if record is None else record
    size, digest = (None, None) if record is None else record_fingerprint(
        record.encode("utf-8") if isinstance(record, str) else record)
    return (
        key, game.deal_seed, game.deal_index, game.table_size, game.rotation,
        json.dumps(list(game.seating)), json.dumps([plan.names[e] for e in game.seating]),
        json.dumps(list(result.scores)) if result.scores is not None else None,
        json.dumps(list(result.ranks)) if result.ranks is not None else None,
        result.duration, result.status, json.dumps(list(result.faults), default=str),
        f"{RECORDS_FOLDER}/{key}.jsonl", time.time(),
        json.dumps(list(result.winners)) if result.winners is not None else None, result.placed,
        json.dumps(result.measures) if result.measures is not None else None, size, digest,
    )


def play_batch(plan: Plan, games: Sequence[GameSpec]) -> PlayedBatch:
    """Play games one after another in this process (the unit a Ray task runs; a local worker
    sends each game back as it ends instead, :mod:`tournaments.worker`).

    With ``plan.records_dir`` the records are written here, in parallel, before the
    rows go back; the main process stores a row only after its record exists.
    """
    cpu = time.process_time()
    results = [play_one(plan, game) for game in games]
    rows = [game_row(plan, game, result, result.record or "") for game, result in zip(games, results)]
    outcomes = [Outcome(result.deal_seed, result.seating, result.scores, result.ranks, result.status)
                for result in results]
    if plan.records_dir is None:
        return PlayedBatch(rows, outcomes, time.process_time() - cpu, [result.record or "" for result in results])
    for game, result in zip(games, results):
        write_record(plan.records_dir, game.key, result.record or "")
    return PlayedBatch(rows, outcomes, time.process_time() - cpu)
