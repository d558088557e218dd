"""``contack keep``, the score keeper: entries read forgivingly, checked at once, written at once.

The game kept in most tests is a real one: played by random players and recorded, then typed
back in entry by entry (``keeping.py``); the keeper must write the very same record, through a
pipe, a file and a terminal (a pseudo-terminal), for every shipped ruleset and option.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import run_cli
from keeping import entries_for, played_lines, record_lines
from processes import HANG

from contack_core import load_rules
from contack_core.records.audit import audit_record
from contack_core.engine.notation import NotationError as EntryError, action_from_record, read_cell, read_points, \
    read_tile, read_tiles
from contack_core.records.keeper import Keeper
from contack_core.records.table import Table

PARKER = load_rules("parker-1939")
TILES = PARKER.tiles
SEATS = ["alice", "bob", "carol"]


def contack(*args: object) -> list[str]:
    return [sys.executable, "-m", "contack_core.cli", *map(str, args)]


@pytest.fixture(scope="module")
def parker_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], list[str]]:
    """A 3-player Parker game of three hands (its record), and the entries that keep it."""
    source = played_lines(PARKER, 3, seed=11)
    assert sum(line.get("event") == "hand_end" for line in source) == 3
    return source, entries_for(PARKER, source, SEATS, tmp_path_factory.mktemp("typed"), seed=11)


# ---------------------------------------------------------------------------- reading entries
@pytest.mark.parametrize("text", ["09-02-08", "9-2-8", "9 2 8", "928", "9.2.8", "9/2/8", " 09-2-08 "])
def test_a_tile_reads_in_any_reasonable_spelling(text: str) -> None:
    assert TILES.names[read_tile(text, TILES)] == "09-02-08"


def test_a_tile_read_from_another_colour_is_taken_when_only_one_tile_reads_so() -> None:
    assert TILES.names[read_tile("2-8-9", TILES)] == "09-02-08"  # red, gold, blue: 09-02-08 turned


def test_a_tile_with_two_digit_values_reads_without_dashes() -> None:
    assert TILES.names[read_tile("1039", TILES)] == "10-03-09"
    assert TILES.names[read_tile("10 3 9", TILES)] == "10-03-09"


@pytest.mark.parametrize(("text", "message"), [
    ("9-2-9", "no tile '9-2-9' in this set (blue-red-gold values); the nearest are 09-02-08"),
    ("banana", "'banana' is not a tile: name one by its blue-red-gold values, like 01-02-03 or 123"),
    ("92", "no tile '92'"),
])
def test_a_tile_that_is_not_one_is_refused_saying_why(text: str, message: str) -> None:
    with pytest.raises(EntryError, match=re.escape(message)):
        read_tile(text, TILES)


def test_a_spelling_that_could_name_two_tiles_is_refused_with_both() -> None:
    from contack_core.boards.tiles import TileSet
    tiles = TileSet(("a", "b", "c"), ((1, 12, 3), (11, 2, 3)))
    with pytest.raises(EntryError, match="'1123' could be 01-12-03 or 11-02-03: write it with dashes"):
        read_tile("1123", tiles)


def test_a_tile_set_of_its_own_reads_by_name_and_by_values() -> None:
    from contack_core.boards.tiles import TileSet
    tiles = TileSet(("red", "blue"), ((1, 2, 3), (1, 2, 3), (4, 5, 6)), ((0, 0, 1), (1, 1, 0), (0, 1, 0)),
                    ("Ace", "Deuce", "Trey"))
    assert read_tile("ace", tiles) == 0 and read_tile("TREY", tiles) == 2
    assert read_tile("4-5-6", tiles) == read_tile("564", tiles) == 2
    with pytest.raises(EntryError, match="'123' could be Ace or Deuce: write it by its name"):
        read_tile("123", tiles)


def test_a_deal_reads_tiles_in_mixed_spellings() -> None:
    tiles = read_tiles("09-02-08 1 2 3 456 7-8-9 10 3 9", TILES)
    assert [TILES.names[t] for t in tiles] == ["09-02-08", "01-02-03", "04-05-06", "07-08-09", "10-03-09"]
    assert [TILES.names[t] for t in read_tiles("9 2 8, 1 2 3", TILES)] == ["09-02-08", "01-02-03"]
    with pytest.raises(EntryError, match="'1 2' is not a whole tile: a tile has 3 numbers"):
        read_tiles("928 1 2", TILES)


def test_cells_and_points_read_as_typed() -> None:
    assert read_cell("1,0") == read_cell("[1, 0]") == read_cell("(1 0)") == read_cell("1 0") == (1, 0)
    assert read_cell("-1,-2") == (-1, -2)
    assert read_cell("left") is None
    assert read_points("6,0 6,1 6,2") == [(6, 0), (6, 1), (6, 2)]
    assert read_points("[6, 0] -> [6, 2]") == read_points("6,0 to 6,2") == [(6, 0), (6, 2)]
    assert read_points("6,0 banana") is None


# ---------------------------------------------------------------------------- the done-when
def test_a_three_hand_parker_game_is_kept_from_a_pipe(parker_game, tmp_path: Path) -> None:
    source, entries = parker_game
    record = tmp_path / "game.jsonl"
    done = subprocess.run(contack("keep", "parker-1939", "--seats", ",".join(SEATS), "--record", record),
                          input="\n".join(entries) + "\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert record_lines(record)[1:] == source[1:]
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished and verdict.hands == 3, verdict
    out = done.stdout
    assert "refused" not in out
    assert "the game is over; its record is" in out
    # the book's Score Keeper's columns, with each hand's score and the totals
    totals = source[-1]["totals"]
    assert re.search(r"^total\s+" + r"\s+".join(map(str, totals)) + "$", out, re.M), out[-1500:]
    # the running scores, the tiles held and whose turn it is, before every entry
    assert "hand 1 | score: alice 0 (0 held), bob 0 (0 held), carol 0 (0 held) | stock 36" in out
    assert re.search(r"^hand 3 \| score: alice -?\d+ \(\d held\), bob -?\d+ \(\d held\), carol -?\d+ \(\d held\) \| "
                     r"stock \d+$", out, re.M)
    assert re.search(r"^(alice|bob|carol) \(seat \d\) to play", out, re.M)


def _read_until(fd: int, pattern: re.Pattern[bytes], seen: bytearray, deadline: float) -> None:
    while not pattern.search(seen):
        if time.monotonic() > deadline:
            raise AssertionError(f"no {pattern.pattern!r} in the terminal; it shows:\n{seen[-2000:].decode()}")
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal closed: the program ended
                raise AssertionError(f"the program ended early:\n{seen[-2000:].decode()}") from None
            seen.extend(chunk)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_three_hand_parker_game_is_kept_at_a_terminal(parker_game, tmp_path: Path) -> None:
    """The same game typed at a (pseudo-)terminal: a prompt, an entry, the next prompt."""
    import pty

    source, entries = parker_game
    record = tmp_path / "game.jsonl"
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "120"}
    child = subprocess.Popen(contack("keep", "parker-1939", "--seats", ",".join(SEATS), "--record", record),
                             stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    prompt = re.compile(rb"> $")
    try:
        for entry in entries:
            seen = bytearray()
            _read_until(master, prompt, seen, time.monotonic() + HANG)
            assert b"refused" not in seen, seen.decode()
            os.write(master, entry.encode() + b"\n")
        seen = bytearray()
        _read_until(master, re.compile(rb"the game is over; its record is"), seen, time.monotonic() + HANG)
        assert child.wait(timeout=HANG) == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(master)
    assert record_lines(record)[1:] == source[1:]
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished and verdict.hands == 3, verdict


# ---------------------------------------------------------------------------- every ruleset
@pytest.mark.parametrize(("ruleset", "options", "seats"), [
    ("parker-1939", {}, 2),
    ("parker-1939", {"hands": "1", "hand_size": "7"}, 5),
    ("spanish-edition", {}, 4),
    ("contactack", {}, 3),
    ("contactack", {"partnerships": "on"}, 4),
    ("club-contack", {}, 3),
    ("club-contack", {"timed": "on", "chips_per_player": "3", "tile_penalty_chips": "1", "lender": "players"}, 3),
    ("club-contack", {"timed": "on", "clock_turns": "30"}, 4),
    ("solitaire-1", {}, 1),
    ("solitaire-2", {}, 1),
    ("klauber-1937", {"move_cap": "40"}, 2),
    ("klauber-1937", {"move_cap": "40"}, 3),
    ("klauber-1937", {"move_cap": "40", "partners": "on"}, 4),
])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_ruleset_and_option_is_kept_line_for_line(ruleset: str, options: dict, seats: int, seed: int,
                                                        tmp_path: Path) -> None:
    rules = load_rules(ruleset, options)
    source = played_lines(rules, seats, seed)
    entries_for(rules, source, [f"player{s}" for s in range(seats)], tmp_path, seed)  # asserts the same record
    assert audit_record(tmp_path / "typed.jsonl").valid


def test_entries_from_a_file_with_comments(parker_game, tmp_path: Path) -> None:
    source, entries = parker_game
    script = tmp_path / "entries.txt"
    script.write_text("# the game of seed 11\n" + "\n".join(entries) + "\n", encoding="utf-8")
    result = run_cli("keep", "parker-1939", "--seats", ",".join(SEATS), "--record", tmp_path / "g.jsonl",
                     "--input", script)
    assert result.exit_code == 0, result.output[-2000:]
    assert record_lines(tmp_path / "g.jsonl")[1:] == source[1:]


def test_an_entries_file_that_cannot_be_read_leaves_no_record_behind(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    for scores_only in ((), ("--scores-only",)):
        result = run_cli("keep", "parker-1939", "--seats", "alice,bob", "--record", record, "--input",
                         tmp_path / "nope.txt", *scores_only)
        assert result.exit_code == 2
        assert f"cannot read {tmp_path / 'nope.txt'}: No such file or directory" in result.output
        assert not record.exists()  # so the same command, the file mended, starts the game


# ---------------------------------------------------------------------------- refusals
def keep(tmp_path: Path, *entries: str, seats: str = "alice,bob,carol", ruleset: str = "parker-1939",
         record: str = "game.jsonl") -> tuple[int, str, Path]:
    script = tmp_path / "entries.txt"
    script.write_text("\n".join(entries) + "\n", encoding="utf-8")
    path = tmp_path / record
    args = ["keep", ruleset, "--seats", seats, "--record", path, "--input", script] if ruleset else \
        ["keep", "--resume", path, "--input", script]
    result = run_cli(*args)
    return result.exit_code, result.output, path


DEAL = ["06-02-05 08-09-10 08-09-06 05-09-10 07-03-06", "05-06-07 09-10-01 07-08-02 07-08-09 06-07-04",
        "08-09-03 09-05-08 06-07-08 10-03-09 02-09-10"]


def test_an_illegal_play_is_refused_with_the_rule_and_the_nearest_legal_plays(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 2,0")
    assert "alice (seat 0) opens the hand with 06-02-05 at [0, 0]" in out
    assert "refused: cell [2, 0] touches no tile of the figure" in out
    assert "nearest legal: 1. 07-08-09 on [1, 0] (right of 06-02-05): 10 points" in out
    assert code == 1 and "1 entry was refused" in out
    kinds = [line.get("event", "record") for line in record_lines(path)]
    assert kinds == ["record", "hand", "deal", "deal", "deal", "play"]  # nothing written for the refused entry


def test_a_refused_entrys_alternative_is_taken_by_its_number(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 2,0", "1")
    assert "bob (seat 1) plays 07-08-09 at [1, 0]" in out
    assert record_lines(path)[-1] == {"event": "play", "seat": 1, "tile": "07-08-09", "cell": [1, 0], "points": 10}


@pytest.mark.parametrize(("entry", "message"), [
    ("carol: 789 1,0", "refused: it is bob's turn, not carol's"),
    ("893 1,0", "refused: tile 08-09-03 is not in bob's hand (it is in carol's hand)"),
    ("893", "refused: 08-09-03 is not bob's to play: it is in carol's hand"),
    ("draw 123", "refused: bob may not draw now: bob can still play (4 tiles fit)"),
    ("draw", "refused: bob may not draw now: bob can still play (4 tiles fit)"),
    ("pass", "refused: bob may not pass now: bob can still play (4 tiles fit)"),
    ("789 above 06-02-05", "refused: 06-02-05 on [0, 0] points up: nothing lies above it; its sides are left, "
                           "right, below"),
    ("789 below 06-02-05", "refused: blue 7 against blue 6 neither matches nor counts"),
    ("789 left of 893", "refused: 08-09-03 is not in the figure"),
    ("dave: pass", "refused: no seat 'dave': the seats are alice, bob, carol"),
    ("3", "refused: there is no list to pick from: ? lists the legal moves"),
])
def test_entries_breaking_a_rule_are_refused_and_nothing_is_written(tmp_path: Path, entry: str,
                                                                   message: str) -> None:
    code, out, path = keep(tmp_path, *DEAL, entry)
    assert message in out, out
    assert code == 1 and len(record_lines(path)) == 6


def test_a_deal_breaking_a_rule_is_refused(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, DEAL[0], DEAL[0], "928 123 456 789", "928 928 123 456 789")
    assert "refused: tile 06-02-05 cannot be dealt: it is in alice's hand, not in stock" in out
    assert "refused: each seat is dealt 5 tiles; 4 given" in out
    assert "refused: tile 09-02-08 is dealt twice" in out
    assert len(record_lines(path)) == 3


def test_a_tile_alone_lists_where_it_fits_and_a_number_picks(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "?", "7 8 2", "1")
    assert "bob> ?\n  1. 09-10-01 on [0, -1] (below 06-02-05): 15 points\n  2. 06-07-04 on [0, -1]" in out
    assert "07-08-02 fits: 1. [1, 0] (right of 06-02-05): 10 points (type its number)" in out
    assert record_lines(path)[-1] == {"event": "play", "seat": 1, "tile": "07-08-02", "cell": [1, 0], "points": 10}
    assert code == 0


def test_a_forced_draw_takes_a_tile_alone_and_the_only_action_is_named(tmp_path: Path) -> None:
    source = played_lines(PARKER, 3, seed=11)
    drawn = next(line for line in source if line.get("event") == "draw")
    entries = entries_for(PARKER, source[:source.index(drawn) + 1], SEATS, tmp_path)
    code, out, path = keep(tmp_path, *entries[:-1], drawn["tile"], record="forced.jsonl")
    assert record_lines(path)[-1] == drawn
    assert f"{SEATS[drawn['seat']]} (seat {drawn['seat']}) to draw" in out


# ---------------------------------------------------------------------------- undo, resume, kill
def test_undo_takes_back_the_last_entry_and_what_followed(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "undo", "789 -1,0", "undo", "undo", "undo", "undo", "undo",
                           "undo")
    assert "taken back: bob 07-08-09 on [1, 0]" in out
    assert "taken back: carol dealt 08-09-03 09-05-08 06-07-08 10-03-09 02-09-10; alice 06-02-05 on [0, 0]" in out
    assert "nothing to undo" in out
    assert [line.get("event", "record") for line in record_lines(path)] == ["record", "hand"]
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "undo", "782 1,0", record="again.jsonl")
    assert record_lines(path)[-1]["tile"] == "07-08-02" and len(record_lines(path)) == 7


def test_undo_across_the_end_of_a_hand(parker_game, tmp_path: Path) -> None:
    source, entries = parker_game
    first_end = next(i for i, line in enumerate(source) if line.get("event") == "hand_end")
    path = tmp_path / "g.jsonl"
    keeper = Keeper.start(PARKER, SEATS, path, lambda text: None)
    fed = iter(entries)
    table = Table(keeper, lambda prompt: next(fed) if len(record_lines(path)) <= first_end else None,
                  lambda text: None, interactive=False)
    table.run()
    assert record_lines(path)[1:] == source[1:first_end + 2]  # the hand's end, and the next hand begun
    assert keeper.state.hand_number == 2
    removed = keeper.undo()
    assert removed is not None and removed[1:] == source[first_end:first_end + 2]
    assert keeper.state.hand_number == 1 and keeper.state.hand_results == []
    assert record_lines(path)[1:] == source[1:first_end - 1]
    keeper.close()


def test_resume_carries_on_an_unfinished_record(parker_game, tmp_path: Path) -> None:
    source, entries = parker_game
    half = len(entries) // 2
    code, out, path = keep(tmp_path, *entries[:half])
    assert code == 0 and "stopped; the record so far is" in out and "contack keep --resume" in out
    assert audit_record(path).valid and not audit_record(path).finished
    code, out, path = keep(tmp_path, *entries[half:], ruleset="")
    assert code == 0, out[-2000:]
    assert "carrying on" in out
    assert record_lines(path)[1:] == source[1:]
    code, out, path = keep(tmp_path, "pass", ruleset="")
    assert "the game is over" in out


def test_a_record_is_never_overwritten(tmp_path: Path) -> None:
    keep(tmp_path, DEAL[0])
    result = run_cli("keep", "parker-1939", "--seats", "a,b", "--record", tmp_path / "game.jsonl")
    assert result.exit_code == 2
    assert "exists already: carry it on with --resume" in result.output


def test_resume_refuses_an_unsound_record_naming_the_line(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0")
    lines = path.read_text().splitlines()
    lines[-1] = lines[-1].replace("[1, 0]", "[2, 0]")
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("keep", "--resume", path)
    assert result.exit_code == 1
    assert f"{path}:7: unsound: cell [2, 0] touches no tile of the figure" in result.output
    assert 'did you mean: {"event": "play", "seat": 1, "tile": "07-08-09", "cell": [1, 0], "points": 10}' \
        in result.output


def test_resume_drops_a_last_line_cut_short(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL)
    with path.open("a") as stream:
        stream.write('{"event": "play", "seat": 1, "ti')
    code, out, path = keep(tmp_path, "789 1,0", ruleset="")
    assert "was cut short" in out
    assert record_lines(path)[-1]["tile"] == "07-08-09" and audit_record(path).valid


def test_killing_the_keeper_loses_no_accepted_entry(parker_game, tmp_path: Path) -> None:
    source, entries = parker_game
    record = tmp_path / "game.jsonl"
    child = subprocess.Popen(contack("keep", "parker-1939", "--seats", ",".join(SEATS), "--record", record),
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    assert child.stdin is not None
    fed = entries[:40]
    for entry in fed:
        child.stdin.write(entry + "\n")
    child.stdin.flush()
    deadline = time.monotonic() + HANG
    expected = entries_written(source, entries, 40, tmp_path)
    while (not record.exists() or len(record_lines(record)) < expected) and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert record_lines(record)[1:] == source[1:expected]
    assert audit_record(record).valid
    code, out, path = keep(tmp_path, *entries[40:], ruleset="")
    assert record_lines(path)[1:] == source[1:]


def entries_written(source: list[dict], entries: list[str], count: int, folder: Path) -> int:
    """How many lines of ``source`` the first ``count`` entries make the keeper write."""
    script = folder / "part.txt"
    script.write_text("\n".join(entries[:count]) + "\n")
    run_cli("keep", "parker-1939", "--seats", ",".join(SEATS), "--record", folder / "part.jsonl", "--input", script)
    return len(record_lines(folder / "part.jsonl"))


# ---------------------------------------------------------------------------- the command line
@pytest.mark.parametrize(("args", "message"), [
    (["keep"], "give a ruleset and --seats NAME,NAME,... (or --resume FILE)"),
    (["keep", "parker-1939"], "give a ruleset and --seats"),
    (["keep", "parker-1939", "--seats", "a"], "parker-1939 is for 2 to 7 players; --seats names 1"),
    (["keep", "parker-1939", "--seats", "a,a"], "--seats names each seat once, none blank: a, a"),
    (["keep", "parker-1939", "--seats", "a,b", "--option", "hands=0"], "option hands must be between"),
    (["keep", "nonesuch", "--seats", "a,b"], "nonesuch"),
    (["keep", "parker-1939", "--resume", "x.jsonl"], "--resume FILE carries on a record as its header says"),
    (["keep", "--resume", "missing.jsonl"], "missing.jsonl"),
])
def test_bad_command_lines_are_one_clear_message(args: list[str], message: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.exit_code in (1, 2)
    assert message in result.output


def test_the_record_schema_is_printed() -> None:
    from contack_core.language.schema import shipped_schema

    result = run_cli("record", "schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == shipped_schema("record.schema.json")


def test_at_a_terminal_enter_takes_the_only_action_there_is(parker_game, tmp_path: Path) -> None:
    source, entries = parker_game
    passes = [i for i, entry in enumerate(entries) if entry.endswith(("pass", "p"))]
    assert passes, "the game has a pass"
    typed = [*entries[:passes[0]], ""]  # Enter, where the seat can only pass
    path = tmp_path / "g.jsonl"
    keeper = Keeper.start(PARKER, SEATS, path, lambda text: None)
    prompts: list[str] = []
    fed = iter(typed)

    def ask(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(fed, None)

    Table(keeper, ask, lambda text: None, interactive=True).run()
    keeper.close()
    assert prompts[passes[0]].endswith("[Enter: pass]> ")
    written = record_lines(path)
    assert written[-1]["event"] == "pass" and written[1:] == source[1:len(written)]


TWO_PILES = """\
format: contack-ruleset/1
id: two-piles
title: Solitaire No. 1 with two discard piles
extends: solitaire-1
zones:
  discard: null
  left: {primitive: pile, starts_with: nothing, face: up}
  right: {primitive: pile, starts_with: nothing, face: up}
turn:
  play: {from: [hand, left, right]}
  discard: {to: [left, right]}
hand_end:
  completed: {zones: [stock, hand, left, right]}
"""


def test_a_house_rule_with_two_discard_piles_is_kept(tmp_path: Path) -> None:
    """A ruleset file, not a shipped id; a discard names its pile (refused without one, where it must)."""
    ruleset = tmp_path / "two-piles.yaml"
    ruleset.write_text(TWO_PILES, encoding="utf-8")
    rules = load_rules(ruleset)
    source = played_lines(rules, 1, seed=3)
    entries = entries_for(rules, source, ["sol"], tmp_path, seed=3)  # the same record, line for line
    assert any(entry.startswith("discard") and entry.endswith((" to left", " to right")) for entry in entries)
    discard = next(i for i, line in enumerate(source) if line.get("event") == "discard")
    path = tmp_path / "kept.jsonl"
    keeper = Keeper.start(rules, ["sol"], path, lambda text: None)
    said: list[str] = []
    fed = iter(entries)
    bare = f"discard {source[discard]['tile']}"
    asked = iter([bare])

    def ask(prompt: str) -> str | None:
        return next(fed) if len(record_lines(path)) < discard else next(asked, None)

    Table(keeper, ask, said.append, interactive=False).run()
    keeper.close()
    assert record_lines(path)[0]["ruleset"] == "two-piles.yaml"
    assert "refused: say which pile the tile is laid on: left, right" in said
    assert any(text.startswith(f"nearest legal: 1. lays aside {source[discard]['tile']} on ") for text in said)
    assert len(record_lines(path)) == discard  # nothing written for it


def test_an_entry_is_told_back_only_once_it_is_synced_to_the_record(parker_game, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33 item 6: the keeper showed an entry as accepted (narrated it) before writing and syncing
    it, so a kill in between lost an acknowledged entry. Every word said about an entry must come
    after the entry's lines are in the file and fsync'd."""
    source, entries = parker_game
    path = tmp_path / "g.jsonl"
    synced: list[int] = []  # the file's size at each fsync
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(os, "fsync", fsync)
    said: list[tuple[str, int, int]] = []  # what was said while an entry was entered: (text, size, size synced)
    entering = [False]

    def say(text: str) -> None:
        if entering[0]:
            said.append((text, path.stat().st_size, synced[-1] if synced else -1))

    keeper = Keeper.start(PARKER, SEATS, path, say)
    enter = keeper.enter
    told = calls = 0

    def entered(action: object) -> None:
        nonlocal told, calls
        calls += 1
        said.clear()
        entering[0] = True
        try:
            enter(action)  # type: ignore[arg-type]
        finally:
            entering[0] = False
        size = path.stat().st_size
        for text, seen, last_synced in said:
            assert seen == size, f"{text!r} was said with {seen} of the record's {size} bytes written"
            assert last_synced == size, f"{text!r} was said before the record was synced"
        told += len(said)

    keeper.enter = entered  # type: ignore[method-assign]
    fed = iter(entries[:40])
    Table(keeper, lambda prompt: next(fed, None), say, interactive=False).run()
    keeper.close()
    assert calls >= 30 and told >= calls  # every entry was told back, each only once synced


# ---------------------------------------------------------------------------- words for people
def test_a_mistyped_command_gets_did_you_mean(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "undi", "sheeet", "bord")
    assert "refused: 'undi' is not an entry: did you mean undo? (help lists the entries)" in out
    assert "refused: 'sheeet' is not an entry: did you mean sheet?" in out
    assert "refused: 'bord' is not an entry: did you mean board?" in out
    assert code == 1 and len(record_lines(path)) == 6  # nothing written, nothing undone


def test_resume_shows_the_last_entry(tmp_path: Path) -> None:
    keep(tmp_path, record="empty.jsonl")
    code, out, path = keep(tmp_path, ruleset="", record="empty.jsonl")
    assert "\nthe last entry: none yet\n" in out
    keep(tmp_path, *DEAL, "789 1,0")
    code, out, path = keep(tmp_path, ruleset="")
    assert out.splitlines()[1] == "the last entry: bob 07-08-09 on [1, 0]", out
    keep(tmp_path, "undo", ruleset="")
    code, out, path = keep(tmp_path, ruleset="")
    assert out.splitlines()[1] == ("the last entry: carol dealt 08-09-03 09-05-08 06-07-08 10-03-09 02-09-10; "
                                   "alice 06-02-05 on [0, 0]"), out


def test_a_tile_typed_in_another_rotation_is_recognised(tmp_path: Path) -> None:
    """07-08-09 read from its red or gold corner (9-7-8, 897) is the same tile turned."""
    code, out, path = keep(tmp_path, *DEAL, "9-7-8 1,0", "undo", "897 1,0")
    assert code == 0, out
    assert record_lines(path)[-1] == {"event": "play", "seat": 1, "tile": "07-08-09", "cell": [1, 0], "points": 10}


def test_a_covered_tile_of_a_stack_is_not_on_top_of_its_pile(tmp_path: Path) -> None:
    rules = load_rules("solitaire-2")
    source = played_lines(rules, 1, seed=3)
    deals = [line for line in source if line.get("event") == "deal"]
    opening = next(line for line in source if line.get("event") == "play")
    pile = deals[0]
    bottom, top = pile["tiles"][0], pile["tiles"][-1]
    code, out, path = keep(tmp_path, *(" ".join(line["tiles"]) for line in deals), opening["tile"], bottom,
                           f"{bottom} 0,-1", seats="sol", ruleset="solitaire-2")
    message = f"{bottom} is not on top of its pile ({pile['zone']}): only {top}, on top, may be played from it"
    assert f"refused: {message}" in out
    assert f"refused: tile {message}" in out
    assert code == 1 and record_lines(path)[-1]["tile"] == opening["tile"]


def test_klauber_entries_get_move_messages(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, "draw 123", "01-02-03", "pass", "6 0 6 1", seats="ann,ben",
                           ruleset="klauber-1937")
    assert "refused: no tile is drawn in this game, pieces move on the board: ann can still move " \
           "(write a move by its points: 6,0 6,1)" in out
    assert "refused: not a move: '01-02-03' (write the points: 6,0 6,1 6,2, or 6,0 to 6,2; ? lists the moves)" in out
    assert "refused: ann may not pass now: ann can still move" in out
    assert "no tile" not in out.replace("no tile is drawn", "")
    assert record_lines(path)[-1] == {**record_lines(path)[-1], "event": "move", "seat": 0, "from": [6, 0],
                                      "path": [[6, 1]]}


def test_a_board_game_sheet_and_status_show_the_pieces_left_as_the_game_counts_them(tmp_path: Path) -> None:
    """Klauber counts the pieces left on the board, a counter only the game's end changes: mid-game the
    sheet and the status show it as if the game ended now, not its total of 0 until then."""
    rules = load_rules("klauber-1937", {})
    source = played_lines(rules, 2, seed=3)
    capture = next(index for index, line in enumerate(source) if line.get("removed"))
    keeper = Keeper.start(rules, ["ann", "ben"], tmp_path / "klauber.jsonl", lambda text: None)
    try:
        for line in source[2:capture + 1]:
            action = action_from_record(rules.tiles, line)
            assert action is not None
            keeper.enter(action)
        left = [keeper.state.figure.pieces_on_board(seat) for seat in range(2)]
        assert sorted(left) == [11, 12]
        table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
        assert table.status().splitlines()[0] == f"game 1 | score: ann {left[0]} ({left[0]} tiles), " \
                                                 f"ben {left[1]} ({left[1]} tiles)"
        assert keeper.sheet.text(keeper.state).splitlines()[-1].split() == ["tiles", "left", *map(str, left)]
        assert keeper.running_totals() == left
    finally:
        keeper.close()


def test_help_lists_only_the_entries_the_ruleset_has(tmp_path: Path) -> None:
    """Help is derived from the ruleset's actions: Klauber's board takes moves and passes, no deal, play, draw
    or discard; Parker's takes no move; a house rule's own action is listed by its name."""
    code, out, path = keep(tmp_path, "help", seats="ann,ben", ruleset="klauber-1937")
    shown = out[out.index("ann> help\n"):]
    entries = [line.split()[0] for line in shown.splitlines()[2:] if line.startswith("  ") and line[2] != " "]
    assert entries[:2] == ["pass", "X,Y"] and "? X,Y: that piece's moves" in shown
    assert not {"deal", "TILE", "draw", "discard"} & set(entries) and "? TILE" not in shown, shown
    assert "an entry left out (a move)" in shown
    code, out, path = keep(tmp_path, "help", record="parker.jsonl")
    shown = out[out.index("> help\n"):]
    entries = [line.split()[0] for line in shown.splitlines()[2:] if line.startswith("  ") and line[2] != " "]
    assert entries[:7] == ["deal", "TILE", "TILE", "TILE", "draw", "pass", "NAME:"], shown
    assert "X,Y X,Y" not in shown and "? TILE: where that tile fits)" in shown
    from contack_core.records.table import help_text

    exchange = Path(__file__).parent.parent / "rulesets" / "examples" / "exchange-once-a-hand.yaml"
    assert "  exchange TILE   a house rule's own action" in help_text(load_rules(exchange))


def test_board_draws_the_figure_as_the_replay_does(tmp_path: Path) -> None:
    code, out, path = keep(tmp_path, *DEAL, "789 1,0", "board")
    shown = out[out.index("carol> board\n"):]
    assert shown.splitlines()[1:7] == [
        "Triangles (2):", "  | ·", "  |▲*·", "  (x 0..2 left to right, y 1..0 top to bottom)",
        "  ▲ [  0,  0] 06-02-05: Blue 6 (bottom), Red 2 (right), Orange 5 (left)",
        "  ▼ [  1,  0] 07-08-09: Blue 7 (top), Red 8 (left), Orange 9 (right)  <- last"]
    assert "in the order laid" not in out and code == 0
