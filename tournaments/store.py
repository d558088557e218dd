"""Tournament results: one SQLite database (WAL) per output folder, records beside it.

One row per finished game, keyed by its identity (deal seed + seating), written after
the game's record is on disk (written to a temporary name and renamed). A process killed
at any moment therefore loses at most the games in flight, and a rerun plays exactly the
games without a row. The database keeps the config that created it. A config may *grow*
the tournament (more deals, entrants added at the end, more table sizes): the stored games
stay as they are and only the new ones are played. Any other change (the ruleset, its
options, the seed, an entrant's bot, the budget, the fault policy) would make stored games
incomparable with new ones, and is refused with the list of what changed.

The records are the truth; the database is an index of them. A record is synced before its
row is committed, and each row keeps its record's size and digest: a resumed run checks
every stored game's record against its row and plays again any game whose record is
missing or damaged. A database damaged on the disk is noticed when it is opened (SQLite's
``quick_check``), and :func:`repair` rebuilds it from the records (``contack tournament
repair``), with the config kept beside it (``tournament.json``). Every storage failure (a
full disk, a damaged file) is one :class:`StoreError` message.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from tournaments.config import differences, fingerprint
from tournaments.lock import write_whole
from tournaments.play import RECORDS_FOLDER, PlayedBatch, StorageFailure, record_fingerprint, write_record
from tournaments.schedule import GameSpec

DATABASE_NAME = "results.sqlite"
STORE_FORMAT = "contack-tournament-results/1"

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,            -- identity: deal seed (hex) and seating
    deal_seed INTEGER NOT NULL,
    deal_index INTEGER NOT NULL,
    table_size INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seating TEXT NOT NULL,           -- JSON: entrant index in each seat
    names TEXT NOT NULL,             -- JSON: entrant name in each seat
    scores TEXT,                     -- JSON: final total of each seat (null if the game did not finish)
    ranks TEXT,                      -- JSON: rank of each seat, 1 best, ties shared (null on error)
    duration REAL NOT NULL,          -- seconds
    status TEXT NOT NULL,            -- ok, faulted, forfeit, error
    faults TEXT NOT NULL,            -- JSON list of {seat, kind, reason}
    record TEXT NOT NULL,            -- the record file, relative to the database's folder
    finished_at REAL NOT NULL,       -- unix time
    winners TEXT,                    -- JSON: the seats the rules declare winners (null if unfinished)
    placed INTEGER,                  -- tiles on the table at the end (null if unknown)
    measures TEXT,                   -- JSON: what an analysis measured in the game (null in a tournament)
    record_size INTEGER,             -- the record's size in bytes (null in rows stored before it was kept)
    record_digest TEXT               -- "sha256:HEX" of the record (null likewise)
);
"""
#: Columns added since the first version of the table, added to an older database on opening.
_ADDED_COLUMNS = {"winners": "TEXT", "placed": "INTEGER", "measures": "TEXT", "record_size": "INTEGER",
                  "record_digest": "TEXT"}
#: The config a results folder was made with, beside its database (what ``repair`` rebuilds it for).
CONFIG_NAME = "tournament.json"
#: Keys of the config document that must not change between runs on one folder.
_FIXED_KEYS = ("ruleset", "ruleset_digest", "options", "seed", "budget", "fault_policy", "measure", "opening")


class StoreError(ValueError):
    """A results folder that cannot be used (unreadable, or made by a different config)."""


class ConfigChanged(StoreError):
    """A results folder made by a config this one cannot grow from. The message is in the config's
    terms; ``meta`` (the folder's stored notes) lets a command that built the config from its own
    flags (``contack analyze``) say it in those."""

    def __init__(self, message: str, meta: Mapping[str, str], config: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.meta = dict(meta)
        self.config = dict(config)  # the config document refused


@attrs.frozen
class GameRow:
    """A stored game, as the report reads it."""

    key: str
    deal_seed: int
    deal_index: int
    table_size: int
    rotation: int
    seating: tuple[int, ...]
    names: tuple[str, ...]
    scores: tuple[int, ...] | None
    ranks: tuple[int, ...] | None
    duration: float
    status: str
    faults: tuple[Mapping[str, Any], ...]
    record: str
    winners: tuple[int, ...] | None = None
    placed: int | None = None
    #: What an analysis measured in the game (:mod:`tournaments.analysis.measure`), None in a tournament.
    measures: Mapping[str, Any] | None = None

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> GameRow:
        """A game from a ready-made database row (a worker's, in the ``games`` column order)."""
        return cls(row[0], row[1], row[2], row[3], row[4], tuple(json.loads(row[5])), tuple(json.loads(row[6])),
                   _tuple(row[7]), _tuple(row[8]), row[9], row[10], tuple(json.loads(row[11])), row[12],
                   _tuple(row[14]), row[15], None if row[16] is None else json.loads(row[16]))


def growth(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """How ``new`` differs from ``old``: (changes that only grow the tournament, changes that are refused).

    Growing keeps every stored game's identity and meaning: deals only added (a deal's seed
    depends on its index), entrants only appended (games name entrants by index), table sizes
    only added, the name changed. Everything that decides how a game is played must stay.
    """
    grown: list[str] = []
    refused: list[str] = [line for key in _FIXED_KEYS for line in differences(old.get(key), new.get(key), key)]
    if old.get("name") != new.get("name"):
        grown.append(f"name: {json.dumps(old.get('name'))} -> {json.dumps(new.get('name'))}")
    old_deals, new_deals = old.get("deals", 0), new.get("deals", 0)
    if new_deals > old_deals:
        grown.append(f"deals: {old_deals} -> {new_deals}")
    elif new_deals < old_deals:
        refused.append(f"deals: {old_deals} -> {new_deals} (deals can be added, not taken away)")
    old_entrants, new_entrants = list(old.get("entrants", [])), list(new.get("entrants", []))
    kept = new_entrants[:len(old_entrants)]
    if kept != old_entrants:
        refused.extend(differences(old_entrants, kept, "entrants"))
        if len(kept) < len(old_entrants):
            refused.append(f"entrants: {len(old_entrants)} -> {len(new_entrants)} (entrants can be added at "
                           f"the end, not removed)")
    elif len(new_entrants) > len(old_entrants):
        added = ", ".join(e.get("name", "?") for e in new_entrants[len(old_entrants):])
        grown.append(f"entrants added: {added}")
    old_tables, new_tables = old.get("tables"), new.get("tables")
    if old_tables is not None or new_tables is not None:
        old_tables, new_tables = old_tables or {}, new_tables or {}
        for size, tables in old_tables.items():
            if new_tables.get(size) != tables:
                refused.append(f"tables of {size}: {json.dumps(tables)} -> {json.dumps(new_tables.get(size))}")
    old_seats, new_seats = set(old.get("seats", [])), set(new.get("seats", []))
    if not old_seats <= new_seats:
        refused.append(f"seats: {sorted(old_seats)} -> {sorted(new_seats)} (table sizes can be added, not removed)")
    elif new_seats > old_seats:
        grown.append(f"seats: {sorted(old_seats)} -> {sorted(new_seats)}")
    return grown, refused


class Store:
    """The results database of one tournament."""

    def __init__(self, directory: Path, connection: sqlite3.Connection) -> None:
        self.directory = directory
        self.connection = connection
        #: What the config opened with changed from the stored one, growing the tournament.
        self.grown: list[str] = []

    # ------------------------------------------------------------------ opening
    @classmethod
    def create_or_resume(cls, directory: Path, config_document: Mapping[str, Any]) -> Store:
        """Open the folder's database for this config: create it, or check the config is unchanged."""
        try:
            (directory / RECORDS_FOLDER).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create {directory}: {error.strerror or error}") from None
        store = cls(directory, _connect(directory / DATABASE_NAME))
        meta = store.meta()
        wanted = fingerprint(config_document)
        if not meta:
            with store.guarded():
                with store.connection:
                    store.connection.executemany("INSERT INTO meta VALUES (?, ?)", [
                        ("format", STORE_FORMAT), ("fingerprint", wanted),
                        ("config", json.dumps(config_document, sort_keys=True)), ("created", str(time.time())),
                    ])
            store.keep_config(config_document)
        elif meta.get("fingerprint") != wanted:
            old = json.loads(meta.get("config", "{}"))
            new = json.loads(json.dumps(config_document))
            grown, refused = growth(old, new)
            if refused or not grown:
                store.close()
                changed = refused or list(differences(old, new)) or ["the format"]
                besides = f" (besides what may grow: {'; '.join(grown)})" if grown and refused else ""
                raise ConfigChanged(f"{directory} holds results of a config that differs in ways that would make "
                                    f"its games incomparable with new ones; refusing to mix them. What changed: "
                                    f"{'; '.join(changed)}{besides}. A config may only grow (more deals, entrants "
                                    f"added at the end, more table sizes). Use another output folder, or restore "
                                    f"the config.", meta, new)
            with store.guarded():
                with store.connection:
                    store.connection.executemany("UPDATE meta SET value = ? WHERE key = ?", [
                        (wanted, "fingerprint"), (json.dumps(config_document, sort_keys=True), "config")])
            store.keep_config(config_document)
            store.grown = grown
        elif not (directory / CONFIG_NAME).is_file():  # a folder made before the config was kept beside it
            store.keep_config(config_document)
        store.remove_partial_records()
        return store

    @classmethod
    def open_existing(cls, directory: Path) -> Store:
        """Open a results folder for reading (the report, an analysis, a sequential test's
        stored deals): read-only, so a copy on a read-only disk or in a folder not the
        reader's own reads as well as the original (see :func:`_connect_to_read`)."""
        path = directory / DATABASE_NAME
        if not path.is_file():
            raise StoreError(f"no tournament results in {directory} (no {DATABASE_NAME})")
        store = cls(directory, _connect_to_read(path))
        if store.meta().get("format") != STORE_FORMAT:
            store.close()
            raise StoreError(f"{path} is not a contack tournament database")
        return store

    def remove_partial_records(self) -> None:
        """Remove the records of games cut off in flight (their ``.tmp`` files): run when no
        worker writes, as the run opens its folder and once its workers are gone."""
        for leftover in (self.directory / RECORDS_FOLDER).glob("*.tmp"):
            leftover.unlink(missing_ok=True)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def guarded(self) -> Iterator[None]:
        """The database's failures (a full disk, a damaged file) as one :class:`StoreError` message."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise StoreError(_failure(self.directory / DATABASE_NAME, error)) from None
        except OSError as error:
            raise StoreError(f"cannot write to {self.directory}: {error.strerror or error}") from None

    def keep_config(self, config_document: Mapping[str, Any]) -> None:
        """Write the config beside the database (whole, synced), for :func:`repair`."""
        path = self.directory / CONFIG_NAME
        try:
            write_whole(path, json.dumps(config_document, sort_keys=True, indent=1))
        except OSError as error:
            raise StoreError(f"cannot write {path}: {error.strerror or error}") from None

    # ------------------------------------------------------------------ reading
    def meta(self) -> dict[str, str]:
        with self.guarded():
            return dict(self.connection.execute("SELECT key, value FROM meta").fetchall())

    def set_meta(self, key: str, value: str) -> None:
        with self.guarded():
            with self.connection:
                self.connection.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def config_document(self) -> dict[str, Any]:
        return json.loads(self.meta()["config"])

    def finished_keys(self) -> set[str]:
        with self.guarded():
            return {key for (key,) in self.connection.execute("SELECT key FROM games")}

    def count(self) -> int:
        with self.guarded():
            return int(self.connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def games(self) -> Iterator[GameRow]:
        with self.guarded():
            cursor = self.connection.execute(
                "SELECT key, deal_seed, deal_index, table_size, rotation, seating, names, scores, ranks, duration, "
                "status, faults, record, winners, placed, measures FROM games ORDER BY deal_index, table_size, key")
            rows = cursor.fetchall()
        for row in rows:
            yield GameRow.from_row((*row[:13], None, *row[13:]))

    def damaged_records(self) -> dict[str, str]:
        """The stored games whose record is missing or is not what the row says: key -> what is wrong.

        A row that keeps its record's size and digest is checked against both; an older row,
        that its record exists and ends with a whole line."""
        with self.guarded():
            rows = self.connection.execute("SELECT key, record, record_size, record_digest FROM games").fetchall()
        damaged = {}
        for key, record, size, digest in rows:
            try:
                data = (self.directory / record).read_bytes()
            except OSError as error:
                damaged[key] = f"{record}: {error.strerror or error}"
                continue
            if size is None:
                if not data.endswith(b"\n"):
                    damaged[key] = f"{record}: its last line is cut short"
            elif (len(data), digest) != record_fingerprint(data):
                damaged[key] = f"{record}: {len(data)} bytes, not the {size} stored, or another digest"
        return damaged

    def forget(self, keys: Iterable[str]) -> None:
        """Drop these games' rows and records: the run plays them again."""
        keys = list(keys)
        with self.guarded():
            with self.connection:
                self.connection.executemany("DELETE FROM games WHERE key = ?", [(key,) for key in keys])
        for key in keys:
            (self.directory / RECORDS_FOLDER / f"{key}.jsonl").unlink(missing_ok=True)

    # ------------------------------------------------------------------ writing
    def record_path(self, game: GameSpec) -> Path:
        return self.directory / RECORDS_FOLDER / f"{game.key}.jsonl"

    def save(self, *batches: PlayedBatch) -> int:
        """Write the batches' records if the workers could not, then their rows in one transaction.

        Returns how many rows were new. The rows come ready-made from the worker, so this
        is all the main process does per game.
        """
        if not any(batch.rows for batch in batches):
            return 0
        records = self.directory / RECORDS_FOLDER
        try:
            for batch in batches:
                if batch.records is not None:
                    for row, text in zip(batch.rows, batch.records):
                        write_record(str(records), row[0], text)
            sync_folder(records)  # the records' names, synced (their contents were, as they were written)
        except StorageFailure as failure:
            raise StoreError(str(failure)) from None
        except OSError as error:
            raise StoreError(f"cannot sync {records}: {error.strerror or error}") from None
        with self.guarded():
            with self.connection:
                before = self.connection.total_changes
                for batch in batches:
                    self.connection.executemany(_INSERT, batch.rows)
                return self.connection.total_changes - before


_INSERT = f"INSERT OR IGNORE INTO games VALUES ({', '.join('?' * 19)})"


def _tuple(text: str | None) -> tuple[Any, ...] | None:
    return None if text is None else tuple(json.loads(text))


def sync_folder(folder: Path) -> None:
    """Sync a folder's entries (the names of files renamed into it) to the disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _failure(path: Path, error: sqlite3.DatabaseError) -> str:
    """One line for a database failure: full, damaged, or otherwise unusable."""
    text = str(error)
    if "full" in text:
        return f"{path}: the disk is full ({text}); free some space and run the same command to go on"
    if "malformed" in text or "not a database" in text or "damaged" in text:
        return (f"{path} is damaged ({text}); rebuild it from the records with: "
                f"contack tournament repair {path.parent}")
    return f"{path} is not a usable SQLite database: {text}"


def _check_pages(connection: sqlite3.Connection) -> None:
    """Every page of the database read and checked: a file damaged mid-way is refused, not half-read."""
    checked = [row[0] for row in connection.execute("PRAGMA quick_check(1)")]
    if checked != ["ok"]:
        detail = " ".join((checked[0] if checked else "no answer").split()).replace("*** in database main *** ", "")
        raise sqlite3.DatabaseError(f"malformed: {detail}")


def _connect_to_read(path: Path) -> sqlite3.Connection:
    """The database opened read-only: it is never written, nor its journal mode set, and no
    file is made beside it. With no write-ahead log beside it (no run has it open: a finished
    folder, a copy, a read-only disk) it is read as immutable, which needs no shared-memory
    file; with one (a run under way), read-only beside that run. A database made before a
    column was added is opened as :func:`_connect` opens it, which adds the column."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        if (path.parent / name).is_symlink():
            raise StoreError(f"{path.parent / name} is a symbolic link: a results folder holds none")
    last: sqlite3.DatabaseError | None = None
    live = (path.parent / f"{path.name}-wal").exists()
    for parameters in ("mode=ro", "mode=ro&immutable=1") if live else ("mode=ro&immutable=1",):
        connection = None
        try:
            connection = sqlite3.connect(f"{path.resolve().as_uri()}?{parameters}", uri=True, timeout=30)
            present = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
            connection.execute("SELECT COUNT(*) FROM meta").fetchone()
            _check_pages(connection)
        except sqlite3.DatabaseError as error:
            if connection is not None:
                connection.close()
            last = error
            continue
        if not present:
            connection.close()
            raise StoreError(f"{path} is not a contack tournament database")
        if any(column not in present for column in _ADDED_COLUMNS):
            connection.close()
            return _connect(path)
        return connection
    raise StoreError(_failure(path, last) if last is not None else f"{path} is not a usable SQLite database")


def _connect(path: Path) -> sqlite3.Connection:
    """Open the database, checking every page first: a file damaged mid-way is refused, not half-read."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        if (path.parent / name).is_symlink():  # SQLite would follow it, and write where it points
            raise StoreError(f"{path.parent / name} is a symbolic link: a run follows none in its folder; "
                             f"remove the link, or use another --output")
    try:
        connection = sqlite3.connect(path, timeout=30)
        try:
            _check_pages(connection)
        except sqlite3.DatabaseError:
            connection.close()
            raise
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.executescript(_TABLES)
        present = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
        for column, kind in _ADDED_COLUMNS.items():
            if column not in present:
                connection.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
    except sqlite3.DatabaseError as error:
        raise StoreError(_failure(path, error)) from None
    return connection


@attrs.frozen
class Repaired:
    """What :func:`repair` did: games rebuilt from their records, records left out (and why), where the old database went."""

    rebuilt: int
    left_out: tuple[str, ...]
    kept_as: Path | None


def repair(directory: Path) -> Repaired:
    """Rebuild the folder's database from its records (the records are the truth).

    The config comes from ``tournament.json`` beside the database (or, for a folder made before
    it was kept, from the old database if its config can still be read). Each record whose
    name is a game of the schedule, whose lines are whole JSON and whose header names that
    game's seats becomes the game's row again: its scores, winners and tiles placed from its
    ``game_end`` and plays, its faults from its fault lines. A record cut short or not of
    this tournament is left out, and the next run plays that game again. What a record does
    not hold is lost: how long the game took (0 in the rebuilt row) and, for an analysis,
    what it measured. The old database is kept beside the new one, renamed.
    """
    from tournaments.play import ERROR, FAULTED, FORFEIT, OK, competition_ranks, forfeit_ranks
    from tournaments.schedule import iter_schedule, tables_from_json

    document = _config_for_repair(directory)
    entrants = document.get("entrants", [])
    names = [entrant["name"] for entrant in entrants]
    games = {game.key: game for game in iter_schedule(len(entrants), document["seats"], document["deals"],
                                                       document["seed"], tables_from_json(document.get("tables")))}
    records = directory / RECORDS_FOLDER
    rows: list[tuple[Any, ...]] = []
    left_out: list[str] = []
    for path in sorted(records.glob("*.jsonl")) if records.is_dir() else []:
        game = games.get(path.stem)
        if game is None:
            left_out.append(f"{path.name}: not a game of this tournament's schedule")
            continue
        try:
            data = path.read_bytes()
            lines = [json.loads(line) for line in data.decode("utf-8").splitlines()]
        except (OSError, ValueError) as error:
            left_out.append(f"{path.name}: unreadable ({error})")
            continue
        seated = [names[entrant] for entrant in game.seating]
        if not data.endswith(b"\n") or not lines or not isinstance(lines[0], dict) or \
                lines[0].get("seats") != seated or not all(isinstance(line, dict) for line in lines):
            left_out.append(f"{path.name}: cut short, or not this game's record")
            continue
        faults = [{"seat": line.get("seat"), "reason": line.get("reason"), "kind": line.get("kind"),
                   "penalty": line.get("penalty", "none")} for line in lines if line.get("event") == "fault"]
        end = next((line for line in lines if line.get("event") == "game_end"), None)
        forfeit = next((f["seat"] for f in faults if f["penalty"] == "forfeit"), None)
        scores = ranks = winners = None
        if end is not None:
            scores, winners = list(end["totals"]), list(end["winners"])
            ranks = list(competition_ranks(scores))
            status = FAULTED if faults else OK
        elif forfeit is not None:
            ranks, status = list(forfeit_ranks(len(seated), forfeit)), FORFEIT
        else:
            status = ERROR
            faults.append({"seat": None, "kind": "error", "reason": "the game stopped before its end (rebuilt "
                                                                     "from its record; the error's words were lost)"})
        last_hand = max((i for i, line in enumerate(lines) if line.get("event") == "hand"), default=0)
        plays = [line for line in lines if line.get("event") == "play"]
        placed = sum(line.get("event") == "play" for line in lines[last_hand:]) if plays else None
        size, digest = record_fingerprint(data)
        rows.append((game.key, game.deal_seed, game.deal_index, game.table_size, game.rotation,
                     json.dumps(list(game.seating)), json.dumps(seated),
                     None if scores is None else json.dumps(scores), None if ranks is None else json.dumps(ranks),
                     0.0, status, json.dumps(faults), f"{RECORDS_FOLDER}/{path.name}", path.stat().st_mtime,
                     None if winners is None else json.dumps(winners), placed, None, size, digest))
    database = directory / DATABASE_NAME
    kept_as = None
    if database.exists():
        kept_as = directory / f"{DATABASE_NAME}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            database.rename(kept_as)
            for suffix in ("-wal", "-shm"):
                Path(f"{database}{suffix}").unlink(missing_ok=True)
        except OSError as error:
            raise StoreError(f"cannot move {database} aside: {error.strerror or error}") from None
    store = Store(directory, _connect(database))
    with store, store.guarded():
        with store.connection:
            store.connection.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("format", STORE_FORMAT), ("fingerprint", fingerprint(document)),
                ("config", json.dumps(document, sort_keys=True)), ("created", str(time.time())),
                ("repaired", str(time.time()))])
            store.connection.executemany(_INSERT, rows)
        store.keep_config(document)
    return Repaired(len(rows), tuple(left_out), kept_as)


def _config_for_repair(directory: Path) -> dict[str, Any]:
    """The folder's config document: ``tournament.json``, else what the old database still holds."""
    kept = directory / CONFIG_NAME
    try:
        return dict(json.loads(kept.read_text(encoding="utf-8")))
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        raise StoreError(f"cannot read {kept}: {error}") from None
    database = directory / DATABASE_NAME
    if database.is_file():
        try:
            connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            try:
                row = connection.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
            finally:
                connection.close()
            if row is not None:
                return dict(json.loads(row[0]))
        except (sqlite3.DatabaseError, ValueError):
            pass
    raise StoreError(f"cannot rebuild {directory}: it holds no {CONFIG_NAME} and its database no longer says "
                     f"which config made it")
