"""Words for people at the table (issue 30 item 3, the rest): a slip in an earlier entry traced back to
that entry, a left-out draw put back with ``insert N ENTRY``, and Ctrl-C at a terminal clearing the
line rather than quitting."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli
from keeping import entries_for, played_lines, record_lines
from processes import HANG

from contack_core import load_rules
from contack_core.engine.actions import Play
from contack_core.engine.notation import action_to_string
from contack_core.engine.rules import Rules
from contack_core.records.keeper import Keeper
from contack_core.records.table import Table

DEAL = ["06-02-05 08-09-10 08-09-06 05-09-10 07-03-06", "05-06-07 09-10-01 07-08-02 07-08-09 06-07-04",
        "08-09-03 09-05-08 06-07-08 10-03-09 02-09-10"]


def keep(tmp_path: Path, *entries: str) -> tuple[int, str, Path]:
    script = tmp_path / "entries.txt"
    script.write_text("\n".join(entries) + "\n", encoding="utf-8")
    path = tmp_path / "game.jsonl"
    result = run_cli("keep", "parker-1939", "--seats", "alice,bob,carol", "--record", path, "--input", script)
    return result.exit_code, result.output, path


def test_a_tile_mistyped_in_a_deal_found_at_the_next_deal_names_that_deal(tmp_path: Path) -> None:
    """carol is dealt a tile the keeper has in alice's hand: one of the two deals was misread, and the
    refusal names the earlier one's line, for a fix."""
    code, out, path = keep(tmp_path, DEAL[0], DEAL[1], DEAL[2].replace("08-09-03", "06-02-05"))
    assert "refused: tile 06-02-05 cannot be dealt: it is in alice's hand, not in stock" in out
    assert ("  06-02-05 is in alice's hand since line 3 (alice dealt 06-02-05 08-09-10 08-09-06 05-09-10 07-03-06): "
            "if that entry was a slip, fix it: fix 3 ENTRY") in out


def test_a_tile_mistyped_in_a_play_found_when_it_is_played_names_that_play(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "893 1,1", "8-9-10 2,1", "789 3,1")
    assert "refused: tile 07-08-09 is not in bob's hand (it is in the figure)" in out
    assert ("  07-08-09 is in the figure since line 7 (bob 07-08-09 on [1, 0]): if that entry was a slip, fix it: fix 7 "
            "ENTRY") in out


def test_a_draw_left_out_earlier_is_traced_and_put_back_with_insert(tmp_path: Path) -> None:
    """Contactack lets a player draw instead of playing: ben's draw of 01-08-09 (line 8) is not entered,
    and nothing goes wrong until he plays it, 19 lines later. The keeper says where the draw fits;
    insert puts it back, and the game goes on to the very record of the game."""
    rules = load_rules("contactack", {"hands": "1"})
    source = played_lines(rules, 2, seed=2)
    assert source[7] == {"event": "draw", "seat": 1, "tile": "01-08-09"}
    entries = entries_for(rules, source, ["ann", "ben"], tmp_path, seed=2)
    path = tmp_path / "kept.jsonl"
    keeper = Keeper.start(rules, ["ann", "ben"], path, lambda text: None)
    said: list[str] = []
    fed = iter(entries)
    queued: list[str] = []
    skipped = False
    last = ""

    def ask(prompt: str) -> str | None:
        nonlocal skipped, last
        if any(text.startswith("refused: tile 01-08-09") for text in said[-3:]) and not queued \
                and not last.startswith("insert") and not any(text.startswith("inserted") for text in said):
            queued.extend(["insert 8 draw 01-08-09", last])
        if queued:
            last = queued.pop(0)
            return last
        if len(record_lines(path)) == 7 and not skipped:
            skipped = True
            next(fed)  # the draw, not entered
        last = next(fed, None) or ""
        return last or None

    try:
        Table(keeper, ask, said.append, interactive=False).run()
    finally:
        keeper.close()
    refusal = next(text for text in said if text.startswith("refused: tile 01-08-09"))
    assert "if ben drew 01-08-09 earlier and it was not entered: insert N draw 01-08-09" in refusal
    assert re.search(r"it fits before lines 8, ", refusal)
    assert any(text.startswith("inserted before line 8: ben draws 01-08-09; ") for text in said)
    assert record_lines(path)[1:] == source[1:]


def _typed_to_the_end_of_hand_one(rules: Rules, entries: list[str], folder: Path) -> int:
    """How many of ``entries`` keep the game to the end of its first hand."""
    keeper = Keeper.start(rules, ["ann", "ben"], folder / "hand-one.jsonl", lambda text: None)
    fed = iter(entries)
    count = 0

    def ask(prompt: str) -> str | None:
        nonlocal count
        if keeper.state.hand_results:
            return None
        count += 1
        return next(fed)

    try:
        Table(keeper, ask, lambda text: None, interactive=False).run()
    finally:
        keeper.close()
    return count


@pytest.fixture(scope="module")
def two_hands(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], list[str], int]:
    """Two hands of Parker for ann and ben (the record), the entries that keep them, and how many of
    those keep the first hand."""
    rules = load_rules("parker-1939", {"hands": "2"})
    source = played_lines(rules, 2, seed=5)
    folder = tmp_path_factory.mktemp("two-hands")
    entries = entries_for(rules, source, ["ann", "ben"], folder, seed=5)
    return source, entries, _typed_to_the_end_of_hand_one(rules, entries, folder)


def keep_two_hands(tmp_path: Path, *entries: str) -> tuple[str, Path]:
    script = tmp_path / "entries.txt"
    script.write_text("\n".join(entries) + "\n", encoding="utf-8")
    path = tmp_path / "game.jsonl"
    result = run_cli("keep", "parker-1939", "--seats", "ann,ben", "--option", "hands=2", "--record", path,
                     "--input", script)
    return result.output, path


def test_a_turn_typed_at_the_next_deal_names_the_entry_that_ended_the_hand(tmp_path: Path, two_hands) -> None:
    """The table plays on where the keeper has ended hand 1 (a slip made it end there): the entry typed at
    hand 2's deal is refused naming the entry that ended hand 1, for a fix."""
    source, entries, hand_one = two_hands
    out, path = keep_two_hands(tmp_path, *entries[:hand_one], entries[hand_one - 1], "pass")
    lines = record_lines(path)
    end = next(i for i, line in enumerate(lines) if line.get("event") == "hand_end")  # the line after the last entry's
    last = lines[end - 1]
    assert last["event"] == "play" and last["seat"] == 1
    hint = (f"  hand 1 ended with line {end} (ben {last['tile']} on {last['cell']}: played out) and hand 2 is being "
            f"dealt. If hand 1 goes on at the table, that entry or one before it was a slip: fix {end} ENTRY "
            f"(entries lists them), or undo")
    assert out.count(hint) == 2, out
    assert lines[-1] == {"event": "hand", "number": 2}  # nothing written


def test_a_deal_typed_while_the_hand_goes_on_says_whose_turn_it_still_is(tmp_path: Path, two_hands) -> None:
    """hand 1's last play is left out: hand 2's deal, typed next, is refused saying hand 1 goes on."""
    source, entries, hand_one = two_hands
    out, path = keep_two_hands(tmp_path, *entries[:hand_one - 1], entries[hand_one])
    assert ("  that reads as a deal of 5 tiles, but hand 1 is not over: ben can still play (1 tile fits). If it ended "
            "at the table, an entry of it was left out or mistyped: entries lists them (fix N ENTRY, insert N ENTRY)"
            in out), out


def test_tiles_are_traced_within_their_hand(tmp_path: Path, two_hands) -> None:
    """Every hand begins with all the tiles gathered, so a tile of hand 1 is never traced from hand 2: ben
    dealt one of ann's hand-2 tiles names ann's deal of hand 2, though hand 1 named that tile too."""
    source, entries, hand_one = two_hands
    start = next(i for i, line in enumerate(source) if line.get("event") == "hand" and line["number"] == 2)
    ann, ben = source[start + 1]["tiles"], source[start + 2]["tiles"]
    earlier = [tile for tile in ann if any(tile == line.get("tile") or tile in line.get("tiles", ())
                                           for line in source[:start])]
    assert earlier, "ann is dealt in hand 2 a tile hand 1 named"
    out, path = keep_two_hands(tmp_path, *entries[:hand_one], " ".join(ann), " ".join([earlier[0], *ben[1:]]))
    ann_line = len(record_lines(path))
    assert record_lines(path)[-1]["tiles"] == ann  # hand 2's deal holds tiles of hand 1: accepted
    assert f"refused: tile {earlier[0]} cannot be dealt: it is in ann's hand, not in stock" in out
    assert (f"  {earlier[0]} is in ann's hand since line {ann_line} (ann dealt {' '.join(ann)}): if that entry "
            f"was a slip, fix it: fix {ann_line} ENTRY") in out
    assert out.count(f"{earlier[0]} is in ") == 1  # no line of hand 1 named


def test_a_turn_typed_once_the_game_is_over_names_the_entry_that_ended_it(tmp_path: Path, two_hands) -> None:
    source, entries, hand_one = two_hands
    out, path = keep_two_hands(tmp_path, *entries, entries[-1])
    lines = record_lines(path)
    assert lines[-1]["event"] == "game_end"
    end = len(lines) - 2  # the last entry's line, before hand_end and game_end
    assert (f"refused: the game is over: nothing more can be entered\n  hand 2 ended with line {end} (" in out), out
    assert f"and the game is over. If hand 2 goes on at the table, that entry or one before it was a slip: fix {end}" \
        in out


def _controlling_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pseudo-terminal on its
    stdin, so that Ctrl-C typed there is a SIGINT, as at a real terminal."""
    import fcntl
    import termios

    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # A test runner's worker may ignore SIGINT; Python keeps an ignored SIGINT ignored, so the keeper
    # would never see Ctrl-C. A terminal's program starts with the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_until_reading(pid: int) -> None:
    """Until the keeper sleeps in the line editor's wait for a key. A Ctrl-C is noticed only there:
    Python's readline waits in select() and looks at signals when select is interrupted, so a SIGINT
    that lands while it still handles the last key (its echo already written) waits for the next
    key. No person types that fast; a test does, and on a busy machine it waited for ever."""
    wchan = Path(f"/proc/{pid}/wchan")
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        try:
            waiting = wchan.read_text()
        except OSError:  # no /proc: a pause instead
            time.sleep(0.5)
            return
        if "poll" in waiting or "select" in waiting:
            return
        time.sleep(0.01)
    raise AssertionError("the keeper never waited for a key")


class _Terminal:
    """``contack keep ARGS`` at a pseudo-terminal of its own: what it shows, and keys typed to it."""

    def __init__(self, *args: object) -> None:
        import pty

        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "dumb", "COLUMNS": "120"}
        self.child = subprocess.Popen([sys.executable, "-m", "contack_core.cli", "keep", *map(str, args)],
                                      stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                      preexec_fn=_controlling_terminal)
        os.close(slave)

    def read_until(self, pattern: bytes) -> bytes:
        import select

        seen = bytearray()
        deadline = time.monotonic() + HANG
        while not re.search(pattern, bytes(seen), re.S):
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    seen.extend(os.read(self.master, 65536))
                except OSError:
                    break
        return bytes(seen)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def ctrl_c(self, after: str) -> None:
        """Type ``after`` (half an entry), then Ctrl-C once the keeper waits for the next key."""
        self.type(after)
        self.read_until(re.escape(after.encode()) + b"$")
        _wait_until_reading(self.child.pid)
        self.type("\x03")

    def close(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
        os.close(self.master)


def test_ctrl_c_at_the_terminal_clears_the_line_and_twice_stops(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    terminal = _Terminal("parker-1939", "--seats", "alice,bob,carol", "--record", record)
    try:
        terminal.read_until(rb"deal to alice \(5 tiles\)> $")
        terminal.ctrl_c("06-02-05 08-09")  # half an entry, then Ctrl-C (the terminal sends SIGINT)
        terminal.read_until(rb"the line is cleared.*deal to alice \(5 tiles\)> $")
        assert terminal.child.poll() is None
        terminal.type(DEAL[0] + "\n")
        terminal.read_until(rb"deal to bob \(5 tiles\)> $")
        assert record_lines(record)[-1]["tiles"] == DEAL[0].split()  # the line typed after the cleared one
        terminal.ctrl_c("x")
        terminal.read_until(rb"the line is cleared.*deal to bob \(5 tiles\)> $")
        terminal.ctrl_c("y")
        terminal.read_until(rb"stopped; the record so far is")
        assert terminal.child.wait(timeout=HANG) == 0
    finally:
        terminal.close()
    assert len(record_lines(record)) == 3  # the header, the hand, alice's deal


def test_ctrl_c_in_the_middle_of_an_entry_drops_it(tmp_path: Path) -> None:
    """ann is to draw; the draw is picked from the list, and the keeper asks which tile: a Ctrl-C there
    drops the entry (nothing written), and the game goes on from what the record holds."""
    record = tmp_path / "game.jsonl"
    script = tmp_path / "entries.txt"
    script.write_text("07-03-06 06-07-04 03-07-08 03-04-01 06-02-05\n09-10-01 05-01-04 07-08-02 03-04-05 01-08-09\n"
                      "514 -1,0\n", encoding="utf-8")
    result = run_cli("keep", "parker-1939", "--seats", "ann,bob", "--option", "hands=1", "--record", record,
                     "--input", script)
    assert result.exit_code == 0 and "ann (seat 0) to draw" in result.output, result.output
    before = record.read_bytes()
    terminal = _Terminal("--resume", record)
    try:
        terminal.read_until(rb"ann> $")
        terminal.type("?\n")
        terminal.read_until(rb"1\. draw.*ann> $")
        terminal.type("1\n")
        terminal.read_until(rb"which tile was drawn\? $")
        terminal.ctrl_c("04-05")
        terminal.read_until(rb"\^C: the entry is dropped.*ann \(seat 0\) to draw.*ann> $")
        assert record.read_bytes() == before
        terminal.type("draw 4-5-6\n")
        terminal.read_until(rb"ann \(seat 0\) draws 04-05-06.*ann \[Enter: pass\]> $")
        terminal.type("quit\n")
        assert terminal.child.wait(timeout=HANG) == 0
    finally:
        terminal.close()
    assert record_lines(record)[-1] == {"event": "draw", "seat": 0, "tile": "04-05-06"}


def test_ctrl_c_once_an_entry_is_written_says_so_and_undo_takes_it_back(tmp_path: Path) -> None:
    """A Ctrl-C that lands after the entry is on the disk (while it is being told) does not drop it: the
    keeper says it was written and reads the game back from the record."""
    path = tmp_path / "game.jsonl"
    typed = iter([*DEAL, "789 1,0", "undo"])
    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if "plays 07-08-09" in text:
            raise KeyboardInterrupt

    keeper = Keeper.start(load_rules("parker-1939"), ["alice", "bob", "carol"], path, say)
    try:
        Table(keeper, lambda prompt: next(typed, None), say, interactive=False).run()
    finally:
        keeper.close()
    assert "^C: the entry had been written already (undo takes it back)" in said
    assert "taken back: bob 07-08-09 on [1, 0]" in said
    assert len(record_lines(path)) == 6


def test_ctrl_c_as_a_fix_replaces_the_record_waits_for_the_keeper_to_take_the_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fix renames the new record over the old; a Ctrl-C landing just after the rename is noticed once
    the keeper writes to the new file (else the next entries went to the old one, no longer the record,
    and the fix was said to be dropped)."""
    path = tmp_path / "game.jsonl"
    keeper = Keeper.start(load_rules("parker-1939"), ["alice", "bob", "carol"], path, lambda text: None)
    rename = os.replace

    def replace_then_ctrl_c(*args: object) -> None:
        rename(*args)  # type: ignore[arg-type]
        monkeypatch.setattr(os, "replace", rename)
        os.kill(os.getpid(), signal.SIGINT)

    typed = iter([*DEAL, "789 1,0", "fix 7 782 1,0"])
    said: list[str] = []

    def ask(prompt: str) -> str | None:
        entry = next(typed, None)
        if entry is not None and entry.startswith("fix"):
            monkeypatch.setattr(os, "replace", replace_then_ctrl_c)
        if entry is None and not any(text.startswith("taken back") for text in said):
            if keeper.state.current == 2 and len(record_lines(path)) == 7:
                play = next(a for a in keeper.state.legal_actions() if isinstance(a, Play))
                return action_to_string(keeper.state, play)
            return "undo"
        return entry

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # a test runner's worker may ignore it
    try:
        Table(keeper, ask, said.append, interactive=False).run()
        assert os.fstat(keeper.stream.fileno()).st_ino == os.stat(path).st_ino  # it writes to the record
    finally:
        signal.signal(signal.SIGINT, previous)
        keeper.close()
    assert "^C: the entry had been written already (undo takes it back)" in said
    lines = record_lines(path)
    assert lines[6] == {"event": "play", "seat": 1, "tile": "07-08-02", "cell": [1, 0], "points": 10}  # fixed
    assert any(text.startswith("taken back: carol ") for text in said)  # carol's play was in the record
    assert len(lines) == 7
