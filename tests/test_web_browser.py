"""The web table in a real browser: Debian's chromium driven by Playwright, on a phone-sized page.

A game played by random players is kept again by tapping, as a person at the table would: the
dealt tiles picked from the tiles not seen yet, each play a tile of the hand then a cell of the
board, each draw the draw button then the tile drawn, each pass its button. A second page open
on the same game follows every entry live. The kept record must be the played one and audit
sound. Screenshots go to tmp_path (and to $CONTACK_WEB_SCREENSHOTS, when set, to look at).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from keeping import DERIVED, played_lines, record_lines
from test_web_table import start_server, stop

from contack_core.primitives.loading import load_rules
from contack_core.records.audit import audit_record

TIMEOUT_MS = 60_000  # a guard against a hang only


def counters(page) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The view's version and the number of answers the page has shown (set by its script: the page's
    own policy lets no test script be evaluated in it)."""
    return int(page.get_attribute("body", "data-version")), int(page.get_attribute("body", "data-answers") or 0)


def answered(page, before: tuple[int, int], accepted: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Wait for the answer to the entry just tapped; it must be accepted (the view one version on) or not."""
    version, answers = before
    page.wait_for_selector(f'body[data-answers="{answers + 1}"]', state="attached")
    refused = page.query_selector("#answer .refused")
    if accepted:
        assert not refused, page.inner_text("#answer")
        page.wait_for_selector(f'body[data-version="{version + 1}"]', state="attached")
    else:
        assert refused and counters(page)[0] == version, page.inner_text("#answer")


def tap_entry(page, line: dict) -> None:  # type: ignore[no-untyped-def, type-arg]
    """Tap what the table did in ``line``, then wait for the page to show it accepted."""
    before = counters(page)
    kind = line["event"]
    if kind == "deal":
        for tile in line["tiles"]:
            page.tap(f'#picker button.pick[data-tile="{tile}"]')
        page.tap("#deal")
    elif kind == "play" and page.get_attribute("body", "data-due") == "open":  # the tile turned up
        page.tap(f'#picker button.pick[data-tile="{line["tile"]}"]')
    elif kind == "play":  # a tile of the hand, or the top of a face-up pile
        x, y = line["cell"]
        page.tap(f'#seats button.tile[data-tile="{line["tile"]}"]')
        page.tap(f'#board polygon.open[data-cell="{x},{y}"]')
    elif kind == "discard":
        page.tap(f'#seats button.tile[data-tile="{line["tile"]}"]')
        named = f'#buttons [data-act="discard"][data-zone="{line.get("to", "")}"]'  # one button a pile
        page.tap(named if page.query_selector(named) else '#buttons [data-act="discard"]')
    elif kind == "draw":
        page.tap('#buttons [data-act="draw"]')
        page.tap(f'#picker button.pick[data-tile="{line["tile"]}"]')
    elif kind == "pass":
        page.tap('#buttons [data-entry="pass"]')
    elif kind == "house":  # its button, the tile it returns, then the tiles it draws
        page.tap(f'#buttons [data-act="house"][data-rule="{line["rule"]}"]')
        if "tile" in line:
            # The page answers the button by asking for the tile: that answer counted first, so that
            # the wait below is for the entry's own (two answers in a row, on a busy machine, could
            # otherwise pass the count waited for before the wait begins).
            page.wait_for_selector(f'body[data-answers="{before[1] + 1}"]', state="attached")
            before = counters(page)
            page.tap(f'#seats button.tile[data-tile="{line["tile"]}"]')
        if line["drawn"]:
            for tile in line["drawn"]:
                page.tap(f'#picker button.pick[data-tile="{tile}"]')
            page.tap("#house-done")
    elif kind == "move":
        x, y = line["from"]
        page.tap(f'#board g.piece[data-cell="{x},{y}"]')
        wanted = " ".join(f"{x},{y}" for x, y in [line["from"], *line["path"]])
        page.tap(f'#choices button[data-entry="{wanted}"]')
    else:
        raise AssertionError(f"no tap for {line}")
    answered(page, before)


@contextmanager
def phone_table(chromium, tmp_path: Path, *args: str) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """``contack keep ARGS --web`` served and open on a phone-sized page at its first view; on the
    way out, no error in the page's script, nothing fetched from anywhere but the server, and the
    server stopped by Ctrl-C with a clean exit."""
    process, url = start_server(tmp_path, *args)
    try:
        phone = chromium.new_context(viewport={"width": 412, "height": 915}, has_touch=True, is_mobile=True)
        phone.set_default_timeout(TIMEOUT_MS)
        page = phone.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(url)
        page.wait_for_selector('body[data-version="0"]', state="attached")
        yield page
        assert not errors, errors
        assert all(request.startswith(url.split("?")[0]) for request in requests), requests
        phone.close()
    finally:
        out, err = stop(process)
    assert process.returncode == 0 and "Traceback" not in err, out + err


def tap_a_wrong_cell(page) -> bool:  # type: ignore[no-untyped-def]
    """Tap a tile of the hand, then an open cell it does not fit: refused, with the nearest legal plays to tap."""
    for tile in page.query_selector_all("#seats button.tile.playable"):
        tile.tap()
        wrong = page.query_selector("#board polygon.open:not(.fit)")
        if wrong is not None:
            before = counters(page)
            wrong.tap()
            answered(page, before, accepted=False)
            assert page.query_selector_all("#choices button[data-entry]"), page.inner_text("#choices")
            return True
        tile.tap()
    return False


def test_a_whole_three_player_game_kept_by_tapping_on_a_phone(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rules = load_rules("parker-1939", {"hands": "1"})
    source = played_lines(rules, 3, 6)
    assert {line["event"] for line in source[1:]} >= {"deal", "play", "draw", "pass"}
    record = tmp_path / "kept.jsonl"
    shots = [tmp_path / name for name in ("dealt.png", "playing.png", "over.png")]
    with phone_table(browser, tmp_path, "parker-1939", "--seats", "alice,bob,carol", "--option", "hands=1",
                     "--record", "kept.jsonl") as page:
        other = browser.new_page(viewport={"width": 1280, "height": 900})  # a second device on the game
        other.goto(page.url)
        other.wait_for_selector('body[data-version="0"]', state="attached")

        entries = 0
        refused = undone = False
        while (written := len(record_lines(record))) < len(source):
            line = source[written]
            assert line["event"] not in DERIVED, f"the keeper should have written {line}"
            tap_entry(page, line)
            entries += 1
            if entries == 2:
                page.screenshot(path=str(shots[0]), full_page=True)
            if entries == 5 and not undone:  # the undo button takes it back; it is tapped again next
                before = counters(page)
                page.tap("#undo")
                answered(page, before)
                assert len(record_lines(record)) < written + 1
                undone = True
            if entries >= 6 and not refused:
                refused = tap_a_wrong_cell(page)
            if entries == 8:
                page.tap("#seats button.tile.playable >> nth=0")  # a tile tapped: its cells are marked
                page.screenshot(path=str(shots[1]), full_page=True)
                page.tap("#seats button.tile.selected")
            version = counters(page)[0]
            other.wait_for_selector(f'body[data-version="{version}"]', state="attached")
        assert refused and undone
        page.screenshot(path=str(shots[2]), full_page=True)
        other.screenshot(path=str(tmp_path / "other.png"), full_page=True)

        assert record_lines(record)[1:] == source[1:]
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, verdict
        totals = source[-1]["totals"]
        for shown in (page, other):
            assert shown.get_attribute("body", "data-due") == "over"
            cells = shown.query_selector_all("#sheet-table tr.running >> nth=-1 >> td")
            assert [int(cell.inner_text()) for cell in cells] == totals
        other.close()
    keep = os.environ.get("CONTACK_WEB_SCREENSHOTS")
    for shot in shots:
        assert shot.stat().st_size > 10_000, shot
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(keep) / shot.name)


def test_klauber_moves_kept_by_tapping_a_piece_then_its_move(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The first moves of a played Klauber game, each a piece tapped on the board and one of the moves it offers."""
    rules = load_rules("klauber-1937", {})
    source = played_lines(rules, 2, 4)
    record = tmp_path / "kept.jsonl"
    with phone_table(browser, tmp_path, "klauber-1937", "--seats", "ann,ben", "--record", "kept.jsonl") as page:
        for _ in range(12):
            tap_entry(page, source[len(record_lines(record))])
        page.tap(f'#board g.piece[data-seat="{page.get_attribute("body", "data-to-act")}"] >> nth=0')
        page.screenshot(path=str(tmp_path / "klauber.png"), full_page=True)
        kept = record_lines(record)
        assert kept[1:] == source[1:len(kept)] and sum(line.get("event") == "move" for line in kept) == 12
        assert audit_record(record).valid
    keep = os.environ.get("CONTACK_WEB_SCREENSHOTS")
    if keep:
        shutil.copy(tmp_path / "klauber.png", Path(keep) / "klauber.png")


def test_a_whole_klauber_game_kept_by_tapping(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A Klauber game to its end (its move cap at 40 moves, so a browser taps it in reasonable time):
    every move a piece tapped on the board and one of the moves it offers; the end and the score
    sheet shown; the record the played one, finished and sound."""
    rules = load_rules("klauber-1937", {"move_cap": "40"})
    source = played_lines(rules, 2, 4)
    assert source[-1]["event"] == "game_end"
    record = tmp_path / "kept.jsonl"
    with phone_table(browser, tmp_path, "klauber-1937", "--seats", "ann,ben", "--option", "move_cap=40",
                     "--record", "kept.jsonl") as page:
        while (written := len(record_lines(record))) < len(source):
            tap_entry(page, source[written])
        assert page.get_attribute("body", "data-due") == "over"
        assert "the move cap is reached" in page.inner_text("#log") or "tie" in page.inner_text("#status")
        page.screenshot(path=str(tmp_path / "klauber-over.png"), full_page=True)
        wide = browser.new_context(viewport={"width": 1200, "height": 900})
        desk = wide.new_page()
        desk.goto(page.url)
        desk.wait_for_selector(f'body[data-version="{counters(page)[0]}"]', state="attached")
        desk.screenshot(path=str(tmp_path / "klauber-1200.png"), full_page=True)
        wide.close()
        assert record_lines(record)[1:] == source[1:]
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, verdict
    keep = os.environ.get("CONTACK_WEB_SCREENSHOTS")
    if keep:
        for name in ("klauber-over.png", "klauber-1200.png"):
            shutil.copy(tmp_path / name, Path(keep) / name)


def test_a_whole_solitaire_kept_by_tapping(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The tile turned up to open, draws, plays from the hand and from the face-up pile, discards."""
    rules = load_rules("solitaire-1", {})
    source = played_lines(rules, 1, 1)
    assert {line["event"] for line in source[1:]} >= {"play", "draw", "discard"}
    record = tmp_path / "kept.jsonl"
    with phone_table(browser, tmp_path, "solitaire-1", "--seats", "sol", "--record", "kept.jsonl") as page:
        while (written := len(record_lines(record))) < len(source):
            tap_entry(page, source[written])
        page.screenshot(path=str(tmp_path / "solitaire.png"), full_page=True)
        assert record_lines(record)[1:] == source[1:]
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, verdict


@pytest.mark.parametrize(("ruleset", "options", "seats"), [
    ("exchange-at-rising-cost", {"hands": "1"}, 2),  # a tile chosen, one drawn; a whole hand returned, as many drawn
    ("pick-up-last-tile", {"hands": "1"}, 3),  # a tile taken back off the figure
    ("solitaire-redeal", {}, 1),  # a pile gathered and shuffled: chance in the middle of play
])
def test_a_whole_game_with_house_actions_kept_by_tapping(browser, tmp_path: Path, ruleset: str, options: dict,  # type: ignore[no-untyped-def, type-arg]
                                                         seats: int) -> None:
    """Each house rule's own action is a button: tapped, then its tile, then the tiles it draws."""
    rules = load_rules(ruleset, options)
    source = played_lines(rules, seats, 1)
    assert any(line.get("event") == "house" for line in source)
    names = ",".join(f"p{seat}" for seat in range(seats))
    option_args = [arg for key, value in options.items() for arg in ("--option", f"{key}={value}")]
    record = tmp_path / "kept.jsonl"
    with phone_table(browser, tmp_path, ruleset, "--seats", names, *option_args, "--record", "kept.jsonl") as page:
        while (written := len(record_lines(record))) < len(source):
            tap_entry(page, source[written])
        page.screenshot(path=str(tmp_path / f"{ruleset}.png"), full_page=True)
        assert record_lines(record)[1:] == source[1:]
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, verdict


def test_an_entry_fixed_and_one_let_stand_from_the_entries_list(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The entries list: 'fix' on an earlier play starts 'fix N' in the text box, where the entry is
    typed as it should have been (the keeper replays the rest); 'agreed', then a tile and a cell it
    does not fit, records a play the table lets stand, marked as such."""
    rules = load_rules("parker-1939", {"hands": "1"})
    source = played_lines(rules, 3, 6)
    record = tmp_path / "kept.jsonl"
    with phone_table(browser, tmp_path, "parker-1939", "--seats", "alice,bob,carol", "--option", "hands=1",
                     "--record", "kept.jsonl") as page:
        plays = 0
        while plays < 2:
            line = source[len(record_lines(record))]
            tap_entry(page, line)
            plays += line["event"] == "play" and page.get_attribute("body", "data-due") != "open"
        kept = record_lines(record)
        fixed = max(i for i, line in enumerate(kept) if line.get("event") == "play") + 1  # its line, counted from 1
        play = kept[fixed - 1]
        page.click("#entries-box summary")
        page.tap(f'#entries button[data-fix="{fixed}"]')
        assert page.input_value("#entry") == f"fix {fixed} "
        before = counters(page)
        page.fill("#entry", f"fix {fixed} {play['tile']} {play['cell'][0]},{play['cell'][1]}")
        page.click("#entry-form button[type=submit]")
        answered(page, before)
        assert record_lines(record) == kept  # the same entry again: the record as it was
        page.tap("#agreed")
        assert page.get_attribute("#agreed", "aria-pressed") == "true"
        let_stand = False
        for tile in page.query_selector_all("#seats section.acting button.tile"):
            tile.tap()
            wrong = page.query_selector("#board polygon.open:not(.fit)")
            if wrong is not None:
                before = counters(page)
                wrong.tap()
                answered(page, before)
                let_stand = True
                break
            tile.tap()
        assert let_stand
        last = record_lines(record)[-1]
        assert last["event"] == "play" and last["agreed"] is True, last
        assert "(agreed)" in page.inner_text("#entries")
        assert page.get_attribute("#agreed", "aria-pressed") == "false"  # for one entry only
        verdict = audit_record(record)
        assert verdict.valid, verdict


def test_a_game_kept_as_scores_only_by_filling_in_each_hand(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """contack keep --scores-only --web: each hand a field a player and its button; a hand the
    rules cannot make is refused and changes nothing; the finished record audits sound."""
    rules = load_rules("parker-1939", {})
    hands = [line["scores"] for line in played_lines(rules, 3, 5) if line.get("event") == "hand_end"]
    with phone_table(browser, tmp_path, "parker-1939", "--seats", "ann,bob,cy", "--scores-only",
                     "--record", "scores.jsonl") as page:
        assert page.is_hidden("#entries-box")  # nothing to fix in a game kept as scores only

        def fill_in(scores: list[int], accepted: bool = True) -> None:
            for seat, score in enumerate(scores):
                page.fill(f'#buttons input.figure[data-seat="{seat}"]', str(score))
            before = counters(page)
            page.tap('#buttons [data-act="hand"]')
            answered(page, before, accepted)

        fill_in([hands[0][0] + 3, *hands[0][1:]], accepted=False)
        for scores in hands:
            fill_in(scores)
        assert page.get_attribute("body", "data-due") == "over"
        page.screenshot(path=str(tmp_path / "scores-only.png"), full_page=True)
    verdict = audit_record(tmp_path / "scores.jsonl")
    assert verdict.valid and verdict.finished and verdict.scores_only, verdict
