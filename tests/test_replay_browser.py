"""The HTML replay in a real headless browser: Debian's chromium driven by Playwright.

The ``browser`` fixture (tests/conftest.py) is chromium, or a skip saying why. Set
CONTACK_REPLAY_SCREENSHOT=path to keep the screenshot (docs/replay.png is made so).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from helpers import play_recorded_game, read_lines, run_cli


def table_rows(page) -> dict[str, list[int]]:  # type: ignore[no-untyped-def]
    rows = {}
    for row in page.query_selector_all("#scores tbody tr"):
        label = row.query_selector("th").inner_text()
        rows[label] = [int(cell.inner_text()) for cell in row.query_selector_all("td")]
    return rows


def test_html_replay_steps_to_the_end_and_shows_the_records_scores(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "game.jsonl"
    play_recorded_game(4, 7, record)
    lines = read_lines(record)
    page_file = tmp_path / "replay.html"
    assert run_cli("replay", record, "--html", page_file).exit_code == 0
    last = len(lines) - 1

    page = browser.new_page(viewport={"width": 1300, "height": 820})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    assert page.inner_text("#position").endswith(f" 0 of {last}")

    for _ in range(12):  # step by the button: one event each
        page.click("#next")
    assert page.get_attribute("body", "data-step") == "12"
    assert page.inner_text("#status") == page.inner_text('#events li[data-step="12"]').split(None, 1)[1]
    shown_tiles = page.eval_on_selector_all("#figure polygon.tile", "els => els.filter(e => e.getClientRects().length).length")
    plays_so_far = sum(1 for line in lines[1:13] if line.get("event") == "play")
    assert shown_tiles == plays_so_far

    page.click("#end")
    assert page.get_attribute("body", "data-step") == str(last)
    rows = table_rows(page)
    hand_ends = [line for line in lines if line.get("event") == "hand_end"]
    game_end = lines[-1]
    assert game_end["event"] == "game_end"
    for hand_end in hand_ends:
        assert rows[f"Hand {hand_end['number']}"] == hand_end["scores"]
    assert rows["Total"] == game_end["totals"]

    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("body", "data-step") == str(last - 1)
    page.click("#end")
    assert not errors, errors
    assert all(url.startswith("file:") for url in requests), requests

    # The picture: the last counting play before the end, with its open cells and highlight.
    counting = max(i for i, line in enumerate(lines[:-3]) if line.get("event") == "play" and line["points"] > 0)
    page.click(f'#events li[data-step="{counting}"]')
    assert page.get_attribute("body", "data-step") == str(counting)
    assert page.eval_on_selector_all("#figure line.counting", "els => els.filter(e => e.getClientRects().length).length") > 0
    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    keep = os.environ.get("CONTACK_REPLAY_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)
    page.close()


def test_unsound_record_page_shows_the_audits_message(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "game.jsonl"
    play_recorded_game(3, 2, record)
    lines = read_lines(record)
    bad_at = next(i for i, line in enumerate(lines) if line.get("event") == "play" and i > 10)
    lines[bad_at]["cell"] = [40, 40]
    from helpers import write_lines

    write_lines(record, lines[: bad_at + 1])
    page_file = tmp_path / "replay.html"
    assert run_cli("replay", record, "--html", page_file).exit_code == 1
    page = browser.new_page()
    page.goto(page_file.as_uri())
    page.click("#end")
    message = page.inner_text("#error")
    assert page.is_visible("#error") and f"line {bad_at + 1}" in message and "[40, 40]" in message
    page.click("#back")
    assert not page.is_visible("#error")
    page.close()
