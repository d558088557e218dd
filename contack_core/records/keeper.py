"""The score keeper's game and its record: every accepted entry checked, applied and written at once.

A :class:`Keeper` holds a game kept at a real table. What the table does comes in as engine
actions (the tiles dealt, each play, draw, pass, discard or move); each is applied to the
game state, which refuses an illegal one and changes nothing, and everything that follows
from it (chips changing hands, a hand's end, the next hand, the game's end) is worked out
by the engine and written to the record with it, in one write, flushed and synced: a kill
loses nothing accepted. What the entry did is told (narrated) only after the sync, so nothing
is shown as accepted before it is on the disk. Shuffles are the table's own (a record never states one), and a
set-up step that leaves no choice (the lowest tile opens) is taken at once.

Undo and resume read the record back: the game is replayed from its lines, so the state
is always exactly what the record says. So does a fix (:meth:`Keeper.fix`): an earlier entry
is replaced in place and every entry after it replayed, up to the first that no longer holds.
An entry the table agreed to let stand although the rules refuse it is applied with the turn's
conditions lifted (:meth:`GameState.apply_agreed`) and its line marked ``"agreed": true``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import attrs

from contack_core.boards.lattice import Cell
from contack_core.engine.actions import Action, Deal, IllegalAction, Play, Shuffle
from contack_core.engine.events import Played
from contack_core.engine.notation import action_from_record, event_to_record, hand_end_record
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from contack_core.language.documents import find_ruleset
from contack_core.language.problems import RulesetError
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import RulesetUnavailable, audit_record
from contack_core.records.format import UnreadableRecord, game_end_line, header_for, seat_labels
from contack_core.records.lock import RecordInUse, hold, release
from contack_core.records.narration import Narrator
from contack_core.records.sheet import ScoreSheet


#: What stops a keeper typed at its prompt (the web table, served until Ctrl-C, says how it is stopped instead).
STOP_WORDS = ("quit", "q", "exit")

#: The longest seat name a record's header may hold (its schema's limit).
MAX_SEAT_NAME = 4096  # as long as a player's spec: contack play names a seat by it (an exec: command and its paths)


class KeeperError(Exception):
    """A record that cannot be started or carried on; ``code`` is the exit status (1, or 2 unreadable)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def open_held(path: Path, new: bool) -> BinaryIO:
    """The record at ``path`` opened for one keeper to write (``new``: created, and refused if it
    exists), held against any other writer (a second keeper is refused, naming the first)."""
    try:
        stream = path.open("x+b" if new else "r+b")
    except FileExistsError:
        raise KeeperError(f"{path} exists already: carry it on with --resume {path}, or name another record",
                          2) from None
    except OSError as error:
        raise KeeperError(f"cannot {'write' if new else 'open'} {path}: {error.strerror or error}", 2) from None
    try:
        hold(stream, path)
    except RecordInUse as error:  # another keeper holds it, or came upon the new file before this one locked it
        stream.close()
        raise KeeperError(str(error)) from None
    return stream


def check_sound(path: Path) -> None:
    """Refuse to carry on the record at ``path`` unless it audits sound, saying where it is not."""
    try:
        verdict = audit_record(path)
    except UnreadableRecord as error:
        raise KeeperError(f"{path}: unreadable: {error}", 2) from None
    except RulesetUnavailable as error:
        raise KeeperError(f"{path}: cannot carry it on: {error}", 2) from None
    if not verdict.valid:
        meant = "".join(f"\n  did you mean: {json.dumps(line)}" for line in verdict.suggestions)
        raise KeeperError(f"{path}:{verdict.line}: unsound: {verdict.error}{meant}\n"
                          f"only a sound record can be carried on: mend that line, or cut the record there")


def rules_of(header: dict[str, Any], path: Path) -> Rules:
    """The rules a record's ``header`` names (a path relative to the record's folder), loaded."""
    try:
        return load_rules(find_ruleset(header["ruleset"], path.parent), header.get("options") or {})
    except RulesetError as error:
        raise KeeperError(f"{path}: ruleset {header['ruleset']!r}: {error}") from None


@attrs.frozen
class Fixed:
    """What a fix changed: the entries replayed after the fixed one, the first that no longer
    held (its line, what it was, why) with those after it taken out, and the running totals
    before and after."""

    line: int
    replaced: dict[str, Any]
    replayed: int
    broken: tuple[int, dict[str, Any], str] | None
    dropped: list[dict[str, Any]]
    totals_before: list[int]
    totals_after: list[int]


@attrs.frozen
class Due:
    """What the table does next: ``deal`` (``count`` tiles to ``seat``, or onto ``zone``),
    ``open`` (the tile chance turns up, laid on ``cell``), ``turn`` (``seat`` acts) or ``over``."""

    kind: str
    seat: int | None = None
    zone: str | None = None
    count: int = 0
    cell: Cell | None = None


class Keeper:
    """One game kept at a table, written to its record as it goes."""

    def __init__(self, rules: Rules, seats: Sequence[str], path: Path, stream: BinaryIO,
                 say: Callable[[str], None]) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.path = path
        self.stream = stream
        self.say = say
        self.state = self._new_game()
        self.sheet = ScoreSheet(self.seats)
        #: Where each entry the person made begins in the file (what undo takes back).
        self.entries: list[int] = []
        self.size = 0
        #: Counts the changes to the file (entries, undos, fixes): a view of the game is of one revision.
        self.revision = 0
        #: The record as it was before the last fix, while nothing has been entered since (what undo restores).
        self._before_fix: bytes | None = None
        #: The files a fix renamed a new record over, still open and held (see :meth:`_replace`).
        self._replaced: list[BinaryIO] = []
        self._results_seen = 0
        #: What the narrator said of lines not yet synced: told only once they are on the disk.
        self._untold: list[str] = []
        self._narrator = Narrator(self.seats, self._untold.append)

    # ------------------------------------------------------------------ starting, resuming
    @classmethod
    def start(cls, rules: Rules, seats: Sequence[str], path: Path, say: Callable[[str], None]) -> Keeper:
        """A new record at ``path`` (which must not exist: an unfinished one is resumed instead)."""
        if len(set(seats)) != len(seats) or not all(name.strip() for name in seats):
            raise KeeperError(f"--seats names each seat once, none blank: {', '.join(seats)}", 2)
        if any(len(name) > MAX_SEAT_NAME for name in seats):
            raise KeeperError(f"a seat's name is at most {MAX_SEAT_NAME} characters (as a record's header holds it)", 2)
        low, high = rules.players
        if not low <= len(seats) <= high:
            raise KeeperError(f"{rules.id} is {rules.for_players()}; --seats names {len(seats)}")
        stream = open_held(path, new=True)
        keeper = cls(rules, seats, path, stream, say)
        header = {"record": "contack-record/1", **header_for(rules, list(seats), None, None, path)}
        keeper._write([header])
        keeper._write([{"event": "hand", "number": 1}, *keeper._advance()])
        return keeper

    @classmethod
    def resume(cls, path: Path, say: Callable[[str], None]) -> Keeper:
        """Carry on the record at ``path``: it must audit sound (a last line cut short by a kill is dropped)
        and no other process may be writing it (a second keeper is refused, naming the first)."""
        stream = open_held(path, new=False)
        try:
            return cls._resume(path, stream, say)
        except BaseException:
            release(stream, path)
            raise

    @classmethod
    def _resume(cls, path: Path, stream: BinaryIO, say: Callable[[str], None]) -> Keeper:
        replacement_path(Path(os.path.realpath(path))).unlink(missing_ok=True)  # a fix's, cut short by a kill
        _drop_unfinished_line(path, say)
        check_sound(path)
        lines = _read_lines(path)
        header = lines[0][1]
        keeper = cls(rules_of(header, path), header["seats"], path, stream, say)
        keeper.size = keeper.stream.seek(0, os.SEEK_END)  # where the next entry begins (what its undo cuts back to)
        keeper._rebuild(lines)
        return keeper

    def _new_game(self) -> GameState:
        """A new game of the table, its messages naming the players."""
        state = GameState(self.rules, len(self.seats))
        state.seat_names = seat_labels(self.seats)
        return state

    # ------------------------------------------------------------------ what comes next
    def due(self) -> Due:
        state = self.state
        if state.is_over():
            return Due("over")
        if state.is_chance_node():
            outcome = state.clone().sample_chance(random.Random(0))
            if isinstance(outcome, Deal):
                return Due("deal", outcome.seat, outcome.zone, len(outcome.tiles))
            assert isinstance(outcome, Play), outcome
            return Due("open", state.current, state.locate(outcome.tile), cell=outcome.cell)
        return Due("turn", state.current)

    # ------------------------------------------------------------------ entries
    def enter(self, action: Action, agreed: bool = False, seat: int | None = None) -> None:
        """Apply the table's ``action`` and write what follows; :class:`IllegalAction` (the
        rule it breaks) and nothing written or changed if it is not allowed. ``agreed``: the
        table lets it stand although the rules refuse it (for ``seat``, default the seat to act)."""
        cap = self.rules.turn_cap
        if self.state.turns >= cap and not self.state.is_chance_node():  # the header states it: the audit holds to it
            raise IllegalAction(f"the game has taken {cap:,} decisions, the ruleset's turn cap: no more may be entered")
        if agreed and self.broken_rule(action, seat) is None:
            raise IllegalAction("this entry breaks no rule: type it without agreed")
        lines = self._apply(action, agreed=agreed, seat=seat)
        lines.extend(self._advance())
        self.entries.append(self.size)
        self._before_fix = None
        self._write(lines)

    def broken_rule(self, action: Action, seat: int | None = None) -> str | None:
        """The rule ``action`` (by ``seat``, default the seat to act) breaks now, in words, or None."""
        state = self.state
        if seat is not None and seat != state.current and not state.is_chance_node() and not state.is_over():
            return f"it is {state.who(state.current)}'s turn, not {state.who(seat)}'s"
        try:
            state.clone().apply(action)
        except IllegalAction as error:
            return str(error)
        return None

    # ------------------------------------------------------------------ fixing an earlier entry
    def numbered(self) -> list[tuple[int, int, dict[str, Any]]]:
        """Each line of the record: (its line number counted from 1, its byte offset, its object)."""
        found, offset = [], 0
        for number, raw in enumerate(self.path.read_bytes().split(b"\n"), 1):
            if raw.strip():
                found.append((number, offset, json.loads(raw)))
            offset += len(raw) + 1
        return found

    def numbered_line(self, line: int) -> dict[str, Any]:
        """The object on line ``line`` of the record (an empty one past its end)."""
        return next((data for number, _, data in self.numbered() if number == line), {})

    def entry_lines(self) -> list[tuple[int, dict[str, Any]]]:
        """The entries made so far, each as (line number, the line that states it)."""
        starts = set(self.entries)
        return [(number, data) for number, offset, data in self.numbered() if offset in starts]

    def state_before(self, line: int) -> GameState:
        """The game just before the entry on ``line`` (:class:`IllegalAction` if no entry begins there)."""
        rows = self._entry_row(line)
        saved = (self.state, self.sheet, self.entries, self._results_seen)
        try:
            self._replay([(offset, data) for _, offset, data in self.numbered() if offset < rows[1]])
            return self.state
        finally:
            self.state, self.sheet, self.entries, self._results_seen = saved

    def _entry_row(self, line: int) -> tuple[int, int, dict[str, Any]]:
        rows = self.numbered()
        starts = set(self.entries)
        row = next((r for r in rows if r[0] == line), None)
        if row is None or line == 1:
            numbers = [n for n, offset, _ in rows if offset in starts]
            where = f"lines {numbers[0]} to {numbers[-1]}" if numbers else "none yet"
            raise IllegalAction(f"no entry on line {line} (the entries are on {where}; entries lists them)")
        if row[1] not in starts:
            owner = max((r for r in rows if r[1] in starts and r[1] < row[1]), key=lambda r: r[1], default=None)
            what = row[2].get("event", "the header")
            after = f": it follows from the entry on line {owner[0]}" if owner else ": the keeper wrote it"
            raise IllegalAction(f"line {line} ({what}) is not an entry{after}, which is the one to fix")
        return row

    def fix(self, line: int, action: Action, agreed: bool = False, seat: int | None = None,
            insert: bool = False) -> Fixed:
        """Replace the entry on ``line`` by ``action`` (``insert``: put ``action`` before it) and replay
        every entry after it, as far as they still hold: the first that no longer does, and those
        after it, are taken out (the :class:`Fixed` says which, and why). The new record replaces
        the old at once (:meth:`_replace`); :meth:`undo` right after puts it back as it was.
        :class:`IllegalAction`, nothing changed, if the new entry itself is refused."""
        number, start, replaced = self._entry_row(line)
        before_totals = self.running_totals()
        old = self.path.read_bytes()
        lines, broken, dropped, replayed = self._replayed(start, action, agreed, seat, insert)
        tail = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in lines).encode("utf-8")
        with _ctrl_c_held():  # the new record, and the keeper's knowing it replaced the old, go together
            self._replace(old[:start] + tail)
            self._before_fix = old
        self._rebuild(_read_lines(self.path))
        self._untold.clear()
        return Fixed(number, {} if insert else replaced, replayed, broken, dropped, before_totals,
                     self.running_totals())

    def would_hold(self, line: int, action: Action, then: Action | None = None) -> bool:
        """Whether ``action`` inserted before the entry on ``line`` leaves every later entry holding, and
        ``then`` (the entry refused now) too: nothing is written or changed."""
        _, start, _ = self._entry_row(line)
        saved = (self.state, self.sheet, self.entries, self._results_seen)
        try:
            _, broken, _, _ = self._replayed(start, action, False, None, True)
            if broken is not None:
                return False
            if then is not None:
                self.state.clone().apply(then)
            return True
        except IllegalAction:
            return False
        finally:
            self.state, self.sheet, self.entries, self._results_seen = saved

    def _replayed(self, start: int, action: Action, agreed: bool, seat: int | None, insert: bool
                  ) -> tuple[list[dict[str, Any]], tuple[int, dict[str, Any], str] | None, list[dict[str, Any]], int]:
        """The game replayed to the entry beginning at byte ``start``, ``action`` applied there (in its place,
        or before it), then the later entries: the lines from ``start`` on, the first entry that no longer
        held (line, object, why), it and those after it, how many held. The keeper's game is left at the end."""
        rows = self.numbered()
        starts = set(self.entries)
        later = [(n, data) for n, offset, data in rows if offset in starts and (offset > start or
                                                                               (insert and offset == start))]
        saved = (self.state, self.sheet, self.entries, self._results_seen)
        try:
            self._replay([(offset, data) for _, offset, data in rows if offset < start])
            if agreed and self.broken_rule(action, seat) is None:
                raise IllegalAction("this entry breaks no rule: type it without agreed")
            lines = self._apply(action, quiet=True, agreed=agreed, seat=seat) + self._advance()
            broken, dropped, replayed = self._replay_later(later, lines)
        except BaseException:
            self.state, self.sheet, self.entries, self._results_seen = saved
            raise
        return lines, broken, dropped, replayed

    def _replay_later(self, later: list[tuple[int, dict[str, Any]]], lines: list[dict[str, Any]]
                      ) -> tuple[tuple[int, dict[str, Any], str] | None, list[dict[str, Any]], int]:
        """Apply the entries ``later`` in turn, adding their lines to ``lines``, up to the first
        that no longer holds: (it, its line number and why; it and those after it; how many held)."""
        for index, (number, data) in enumerate(later):
            action = action_from_record(self.rules.tiles, data)
            assert action is not None
            marked = bool(data.get("agreed"))
            try:
                if marked and self.broken_rule(action, data.get("seat")) is None:
                    marked = False  # the fix made it legal: no longer an exception
                if not marked and "seat" in data and data["event"] != "deal" and data["seat"] != self.state.current \
                        and not self.state.is_chance_node():
                    raise IllegalAction(f"it is {self.state.who(self.state.current)}'s turn now, not "
                                        f"{self.state.who(data['seat'])}'s")
                lines += self._apply(action, quiet=True, agreed=marked, seat=data.get("seat") if marked else None)
            except IllegalAction as error:
                return (number, data, str(error)), [row for _, row in later[index:]], index
            lines += self._advance()
        return None, [], len(later)

    def running_totals(self) -> list[int]:
        """Each seat's score so far, the hand under way included."""
        return self.state.running_scores()

    def _replace(self, data: bytes) -> None:
        """The record becomes ``data`` at once (a fix, or its undo): ``data`` is written to a new file
        beside the record, synced, held as the record is, and renamed over it. A rename is all or
        nothing, so a kill or a power cut at any moment leaves the old record or the new one, never a
        mix (a write in place could be cut short: Linux ends a write at a page boundary once the
        process is being killed). The old file stays open and held until the keeper closes, so a
        writer that opened it just before the rename is refused as any other."""
        target = Path(os.path.realpath(self.path))
        fresh = replacement_path(target)
        mode = stat.S_IMODE(os.fstat(self.stream.fileno()).st_mode)
        descriptor = os.open(fresh, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
        stream = os.fdopen(descriptor, "r+b")
        try:
            hold(stream, self.path)
            os.fchmod(descriptor, mode)
            written = 0
            while written < len(data):
                written += os.write(descriptor, data[written:])
            os.fsync(descriptor)
            os.replace(fresh, target)
        except BaseException:
            stream.close()
            fresh.unlink(missing_ok=True)
            raise
        _sync_folder(target.parent)
        self._replaced.append(self.stream)
        self.stream = stream
        self.size = stream.seek(0, os.SEEK_END)
        self.revision += 1

    def undo(self) -> list[dict[str, Any]] | None:
        """Take back the last entry (and what followed from it): the lines removed, or None."""
        if self._before_fix is not None:  # the last change was a fix: the record as it was before it
            with _ctrl_c_held():
                self._replace(self._before_fix)
                self._before_fix = None
            self._rebuild(_read_lines(self.path))
            return [{"event": "fix"}]
        if not self.entries:
            return None
        start = self.entries[-1]
        self.stream.flush()
        self.stream.seek(start)
        removed = [json.loads(line) for line in self.stream.read().split(b"\n") if line.strip()]
        self.stream.truncate(start)
        self.stream.seek(start)
        self._sync()
        self._rebuild(_read_lines(self.path))
        return removed

    def last_entry(self) -> list[dict[str, Any]]:
        """The lines of the last entry (what undo would take back), or none before the first."""
        if not self.entries:
            return []
        with self.path.open("rb") as stream:
            stream.seek(self.entries[-1])
            return [json.loads(line) for line in stream.read().split(b"\n") if line.strip()]

    def reload(self) -> None:
        """Read the game back from the record (after an entry was interrupted, say): the state is what
        the file holds, whatever the interruption left half done in memory."""
        self.stream.flush()
        self.size = self.stream.seek(0, os.SEEK_END)
        self._untold.clear()
        self._rebuild(_read_lines(self.path))

    def close(self) -> None:
        """Stop writing: the record is let go, for another keeper to carry on."""
        for replaced in self._replaced:
            replaced.close()
        release(self.stream, self.path)

    # ------------------------------------------------------------------ the game
    def _apply(self, action: Action, quiet: bool = False, agreed: bool = False,
               seat: int | None = None) -> list[dict[str, Any]]:
        """Apply ``action`` (``agreed``: with the turn's conditions lifted); the record lines it and
        its consequences make."""
        state = self.state
        hand = state.hand_number
        event = state.apply_agreed(action, seat) if agreed else state.apply(action)
        lines: list[dict[str, Any]] = []
        for happened in (event, *state.effects):
            line = event_to_record(state, happened)
            if line is not None:
                if agreed and not lines:
                    line["agreed"] = True
                lines.append(line)
            if not quiet:
                self._narrator.event(state, happened)
            if isinstance(happened, Played) and happened.points:
                self.sheet.count(hand, happened.seat, happened.points)
        state.effects.clear()
        while self._results_seen < len(state.hand_results):
            result = state.hand_results[self._results_seen]
            self._results_seen += 1
            self.sheet.close(result)
            lines.append(hand_end_record(result))
            if not quiet:
                self._narrator.hand_ended(state, result)
        if state.is_over():
            lines.append(game_end_line(state))
            if not quiet:
                self._narrator.game_ended(state)
        elif state.hand_number != hand:
            lines.append({"event": "hand", "number": state.hand_number})
            if not quiet:
                self._narrator.hand_started(state, state.hand_number)
        return lines

    def _advance(self, openings: bool = True) -> list[dict[str, Any]]:
        """Make the shuffles due, and (``openings``) the set-up plays that leave no choice."""
        lines: list[dict[str, Any]] = []
        while not self.state.is_over():
            if self.state.is_chance_node():
                outcome = self.state.clone().sample_chance(random.Random(0))
                if not isinstance(outcome, Shuffle):
                    break
                self.state.apply(outcome)
            elif openings and self._choice_left_to_nobody():
                lines.extend(self._apply(self.state.legal_actions()[0]))
            else:
                break
        return lines

    def _choice_left_to_nobody(self) -> bool:
        """Whether the hand's set-up is at a step with a single action (the opening play)."""
        state = self.state
        return state.setup_step is not None and not state.is_chance_node() and len(state.legal_actions()) == 1

    def _rebuild(self, lines: list[tuple[int, dict[str, Any]]]) -> None:
        """Replay the record's lines (after its header) from the start of the game, and write the
        set-up plays due after them. The narrator follows the game rebuilt (it saw none of it replayed):
        what it tells next is measured from here."""
        self._replay(lines)
        self._narrator.follow(self.state)
        due = self._advance()
        if due:
            self._write(due)

    def _replay(self, lines: list[tuple[int, dict[str, Any]]]) -> None:
        """Replay the record's lines (after its header) from the start of the game, writing nothing."""
        self.state = self._new_game()
        self.sheet = ScoreSheet(self.seats)
        self.entries = []
        self._results_seen = 0
        self._advance(openings=False)
        tiles = self.rules.tiles
        for offset, data in lines[1:]:
            action = action_from_record(tiles, data)
            if action is None:
                continue
            if not self._choice_left_to_nobody():
                self.entries.append(offset)
            agreed = bool(data.get("agreed"))
            self._apply(action, quiet=True, agreed=agreed, seat=data.get("seat") if agreed else None)
            self._advance(openings=False)

    # ------------------------------------------------------------------ the file
    def _write(self, lines: list[dict[str, Any]]) -> None:
        """Write and sync ``lines``, then tell what the narrator said of them: an entry is shown as
        accepted only once a kill can no longer lose it."""
        told, self._untold[:] = list(self._untold), []
        if lines:
            data = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")
            with _ctrl_c_held():  # written and synced, or not begun: a Ctrl-C never leaves it in the buffer
                self.stream.write(data)
                self._sync()
        for text in told:
            self.say(text)

    def _sync(self) -> None:
        self.stream.flush()
        os.fsync(self.stream.fileno())
        self.size = self.stream.tell()
        self.revision += 1


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) waits while the record is replaced: it is noticed once the keeper writes to the
    new file and knows what it replaced (stopped between the rename and that, it would go on writing to
    the old file, which no longer is the record). Python stops only its main thread on a Ctrl-C."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous is None:
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            signal.raise_signal(signal.SIGINT)  # as it would have been, now


def replacement_path(record: Path) -> Path:
    """Where a fix writes the new record before renaming it over ``record``."""
    return record.with_name(record.name + ".new")


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` last (its entry synced), where the system allows it."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _read_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """Each line of the record with the byte offset it begins at (blank lines left out)."""
    found, offset = [], 0
    for raw in path.read_bytes().split(b"\n"):
        if raw.strip():
            found.append((offset, json.loads(raw)))
        offset += len(raw) + 1
    return found


def _drop_unfinished_line(path: Path, say: Callable[[str], None]) -> None:
    """A kill in the middle of a write can leave the last line cut short: drop it, saying so."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise KeeperError(f"cannot read {path}: {error.strerror or error}", 2) from None
    if not raw or raw.endswith(b"\n"):
        return
    cut = raw.rfind(b"\n") + 1
    try:
        json.loads(raw[cut:])
    except ValueError:
        if cut == 0:
            return  # not even a header: the audit says what is wrong
        with path.open("r+b") as stream:
            stream.truncate(cut)
        say(f"the last line of {path} was cut short (the keeper was stopped while writing it): dropped")
        return
    with path.open("ab") as stream:
        stream.write(b"\n")
