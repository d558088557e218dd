"""Hostile strings from records and rulesets: escaped for each HTML/SVG context (no markup or
script injected, checked by parsing and, where chromium is installed, in a real browser), and
shown with their control characters escaped wherever they are printed to a terminal.

The hostile record is a real game, played under a house ruleset beside it whose title, terms
(``language`` included: it goes into ``<html lang>``) and colour names are hostile, with
hostile seat names, ending in a line naming a hostile tile (so the audit's message, which
quotes it, is on the page too), in a file whose name is hostile.
"""

from __future__ import annotations

import io
import json
import os
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from helpers import run_cli

from contack_core.engine.referee import play_game
from contack_core.language.printable import printable
from contack_core.primitives.loading import load_rules
from contack_core.records.format import RecordWriter, header_for

#: Each tries to get out of its context: an attribute, an element's text, a script, a comment,
#: CDATA, a URL; or to drive the terminal (a window title, a colour, a clear screen, a carriage
#: return, a direction override), or to break the encoding (a lone surrogate).
PAYLOADS = [
    '" onmouseover="window.__pwned=1" x="',
    "' onfocus='window.__pwned=1' autofocus='",
    "</script><script>window.__pwned=1</script>",
    "<img src=x onerror=window.__pwned=1>",
    "<svg onload=window.__pwned=1>",
    "--><script>window.__pwned=1</script><!--",
    "]]><script>window.__pwned=1</script>",
    "javascript:window.__pwned=1",
    "\x1b]0;PWNED\x07\x1b[2J\x1b[31mred\r\u202eevil",
    "lone \ud800 surrogate",
]
#: Out of a style element or attribute, into a script or a URL.
CSS = "</style><style>*{background:url(javascript:window.__pwned=1)}</style><script>window.__pwned=1</script>"
ALL = " ".join(PAYLOADS)
IN_YAML = " ".join(PAYLOADS[:-1])  # YAML cannot hold a lone surrogate, even escaped
TERMS = ("language", "tile", "tiles", "score", "hand", "total", "held", "draw", "pass", "plays", "opens", "winner",
         "went_out", "blocked", "points", "game", "placed", "scorekeeper")
RAW_CONTROLS = ["\x1b", "\x07", "\r", "\u202e", "\ud800"]


def hostile_ruleset(folder: Path) -> Path:
    terms = {key: f"{key} {IN_YAML} {CSS}" for key in TERMS}
    terms["language"] = PAYLOADS[0]
    terms["colours"] = {"blue": PAYLOADS[1], "red": PAYLOADS[4], "gold": PAYLOADS[8]}
    path = folder / "house.yaml"
    path.write_text(yaml.safe_dump({
        "format": "contack-ruleset/1", "id": "house", "title": f"House {IN_YAML}", "extends": "parker-1939",
        "terms": terms}, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile record (in its folder, beside its hostile ruleset)."""
    from players.random_player import RandomPlayer

    folder = tmp_path_factory.mktemp("hostile")
    rules = load_rules(hostile_ruleset(folder))
    record = folder / 'game "<b>.jsonl'
    seats = [PAYLOADS[0] + PAYLOADS[8], PAYLOADS[2] + PAYLOADS[9]]
    stream = io.StringIO()
    header = header_for(rules, seats, 5, ["random", "random"], record)
    play_game(rules, [RandomPlayer(seed=f"5:{i}") for i in range(2)], 5, [RecordWriter(stream, header)])
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    # A bad last line: the audit's message quotes its tile (a name within the length a name may
    # have; a longer one is told by its length, tests/test_hostile_lengths.py).
    at = next(i for i, line in enumerate(lines) if line.get("event") == "draw")
    lines[at:] = [{**lines[at], "tile": "\x1b]0;PWNED\x07" + PAYLOADS[2]}]
    # As JSON escapes (a lone surrogate can only be written so), but for the seat names.
    text = "".join(json.dumps(line) + "\n" for line in lines)
    record.write_text(text.replace(json.dumps(PAYLOADS[0] + PAYLOADS[8]),
                                   json.dumps(PAYLOADS[0] + PAYLOADS[8], ensure_ascii=False)), encoding="utf-8")
    return record


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_html_replay_escapes_every_field_for_its_context(hostile: Path, tmp_path: Path) -> None:
    page = tmp_path / "replay.html"
    result = run_cli("replay", hostile, "--html", page)
    assert result.exit_code == 1, result.output  # the last line is unsound: the page shows it
    text = page.read_text(encoding="utf-8")
    parser = _Markup()
    parser.feed(text)
    tags = [tag for tag, _ in parser.tags]
    assert tags.count("script") == 2 and "img" not in tags and tags.count("svg") == 1
    for tag, attributes in parser.tags:
        handlers = [name for name in attributes if name.startswith("on") or name == "autofocus"]
        assert not handlers, (tag, attributes)
        for value in attributes.values():
            assert not (value or "").startswith("javascript:")
    html_tag = next(attributes for tag, attributes in parser.tags if tag == "html")
    assert html_tag == {"lang": PAYLOADS[0]}  # the value, escaped, and read back whole
    data = json.loads(text.split('id="replay-data">', 1)[1].split("</script>", 1)[0])
    assert data["seats"][1] == PAYLOADS[2] + PAYLOADS[9]  # the lone surrogate comes back as itself
    assert PAYLOADS[2] in data["steps"][-1]["error"]


def test_svg_is_well_formed_with_every_hostile_field_as_text(hostile: Path, tmp_path: Path) -> None:
    figure = tmp_path / "figure.svg"
    assert run_cli("replay", hostile, "--svg", figure).exit_code == 1
    root = ET.parse(figure).getroot()  # well formed: nothing got out of its quotes
    elements = list(root.iter())
    assert not [e.tag for e in elements if e.tag.split("}")[-1] in ("script", "img", "foreignObject")]
    assert not [(e.tag, name) for e in elements for name in e.attrib if name.startswith("on")]
    texts = " ".join(e.text or "" for e in elements)
    assert f"House {PAYLOADS[0]}" in texts and PAYLOADS[2] in texts


def test_no_hostile_string_runs_a_script_in_a_real_browser(hostile: Path, tmp_path: Path) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from conftest import ARGS, CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM}: `make browser` installs it (apt-get, as root)")
    page_file, figure = tmp_path / "replay.html", tmp_path / "figure.svg"
    run_cli("replay", hostile, "--html", page_file)
    run_cli("replay", hostile, "--svg", figure)
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 820})
            errors: list[str] = []
            dialogs: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.goto(page_file.as_uri())
            page.click("#end")  # the unsound last step: the audit's message quoting the hostile tile
            page.eval_on_selector_all("*", "els => els.forEach(e => ['mouseover', 'focus', 'click', 'load']"
                                           ".forEach(t => e.dispatchEvent(new Event(t))))")
            page.mouse.move(10, 10)
            page.mouse.move(600, 400)
            assert page.evaluate("window.__pwned") is None
            assert page.get_attribute("html", "lang") == PAYLOADS[0]
            assert PAYLOADS[2] in page.inner_text("#error")
            assert not errors and not dialogs, (errors, dialogs)
            page.goto(figure.as_uri())
            page.eval_on_selector_all("*", "els => els.forEach(e => e.dispatchEvent(new Event('mouseover')))")
            assert page.evaluate("window.__pwned") is None
            assert page.evaluate("document.querySelectorAll('script').length") == 0
        finally:
            browser.close()


# ------------------------------------------------------------------------------ the terminal
def assert_escaped(output: str) -> None:
    for raw in RAW_CONTROLS:
        assert raw not in output, f"{raw!r} reached the terminal raw"


def test_printable_escapes_controls_direction_marks_and_surrogates_only() -> None:
    assert printable("\x1b[31mred\x07\r\u202e\ud800\x9b") == "\\x1b[31mred\\x07\\x0d\\u202e\\ud800\\x9b"
    assert printable("a\tb\nc") == "a\\x09b\\x0ac"
    assert printable("a\tb\nc", lines=True) == "a\tb\nc"
    assert printable("Contack de Aparear · 09-02-08 ñ 中") == "Contack de Aparear · 09-02-08 ñ 中"


def test_audit_shows_hostile_file_names_and_tile_names_escaped(hostile: Path, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    lines = hostile.read_text(encoding="utf-8").splitlines()
    (folder / "\x1b]0;PWNED\x07\u202e.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "house.yaml").write_text((hostile.parent / "house.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "sound \x1b[2J.jsonl").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    for args in ((hostile,), (folder,), (*sorted(folder.glob("*.jsonl")),)):
        result = run_cli("audit", *args)
        assert result.exit_code == 1
        assert_escaped(result.output)
        assert "\\x1b]0;PWNED\\x07" in result.output  # the tile's name, quoted by the message, escaped
    assert "sound \\x1b[2J.jsonl: sound (house" in result.output


def test_replay_in_the_terminal_shows_hostile_names_escaped(hostile: Path) -> None:
    for args in (("--to", "3"), ()):
        result = run_cli("replay", hostile, *args)
        assert result.exit_code == 1
        assert_escaped(result.output)
        assert "\\x1b]0;PWNED\\x07" in result.output and "\\ud800" in result.output


def test_the_stepper_sends_only_its_own_escape_sequence(hostile: Path) -> None:
    from contack_core.replay.terminal import CLEAR, run_stepper
    from contack_core.replay.timeline import build_timeline

    shown: list[str] = []
    run_stepper(build_timeline(hostile), iter(["G", "q"]), shown.append)
    for screen in shown:
        assert screen.startswith(CLEAR)
        assert_escaped(screen[len(CLEAR):])


def test_rulesets_show_and_play_narration_show_hostile_terms_escaped(hostile: Path, tmp_path: Path) -> None:
    ruleset = hostile.parent / "house.yaml"
    shown = run_cli("rulesets", "show", ruleset)
    assert shown.exit_code == 0
    assert_escaped(shown.output)
    assert "# House " in shown.output and "\\x1b]0;PWNED" in shown.output
    played = run_cli("play", ruleset, "--seats", "random,random", "--seed", "2", "--record", tmp_path / "g.jsonl")
    assert played.exit_code == 0
    assert_escaped(played.output)
    assert "\\x1b]0;PWNED" in played.output


def test_the_keeper_shows_a_resumed_records_hostile_names_escaped(hostile: Path, tmp_path: Path) -> None:
    lines = hostile.read_text(encoding="utf-8").splitlines()
    unfinished = hostile.parent / "unfinished.jsonl"
    unfinished.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    entries = tmp_path / "entries.txt"
    entries.write_text("sheet\n", encoding="utf-8")
    result = run_cli("keep", "--resume", unfinished, "--input", entries)
    assert_escaped(result.output)
    assert "\\x1b]0;PWNED" in result.output


def test_replay_shows_a_sound_record_whose_seat_name_is_an_escaped_lone_surrogate(tmp_path: Path) -> None:
    """Issue 33, item 10: the audit calls it sound, so every view of the replay shows it."""
    from helpers import play_recorded_game

    record = tmp_path / "game.jsonl"
    play_recorded_game(2, 9, record)
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["seats"] = ["\ud800", "b\udfff"]
    record.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    assert '"\\ud800"' in record.read_text(encoding="utf-8")
    audited = run_cli("audit", record)
    assert audited.exit_code == 0 and ": sound (" in audited.output
    for args in ((), ("--to", "2"), ("--html", tmp_path / "r.html"), ("--svg", tmp_path / "r.svg")):
        result = run_cli("replay", record, *args)
        assert result.exit_code == 0, result.output
        assert_escaped(result.output)
    assert "\\ud800" in run_cli("replay", record, "--to", "2").output
    ET.parse(tmp_path / "r.svg")


# ------------------------------------------------------------------------------ tournaments
#: Drives a terminal (a window title, a clear screen, a colour, a carriage return, a direction
#: override) and rich's own markup (a style, a hyperlink, a closing tag with no opening one).
RICH = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mred\r\u202e[bold]b[/bold][link=https://example.invalid]l[/link][/i]"
TOURNAMENT = """\
format: contack-tournament/1
name: hostile
ruleset: parker-1939
options: {hands: 1}
entrants:
  - {name: a, player: random}
  - {name: b, player: random}
seats: 2
deals: 2
seed: 5
budget: {time_per_move: null}
"""


def assert_shown_escaped(output: str) -> None:
    """No raw control character (rich adds no style where it does not print to a terminal), and the
    hostile text shown as it is: escaped, its markup as plain brackets."""
    assert_escaped(output)
    assert "\x1b" not in output
    joined = output.replace("\n", "")
    assert "\\x1b]0;PWNED\\x07\\x1b[2J" in joined


@pytest.fixture(scope="module")
def hostile_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament whose database (as if copied from someone else) names the tournament, its
    ruleset, its entrants, their bots' parameters, a fault kind and the resume command in hostile text."""
    import sqlite3

    from tournaments.store import DATABASE_NAME

    folder = tmp_path_factory.mktemp("results")
    (folder / "t.yaml").write_text(TOURNAMENT, encoding="utf-8")
    result = run_cli("tournament", "run", folder / "t.yaml", "--output", folder / "out", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    with sqlite3.connect(folder / "out" / DATABASE_NAME) as connection:
        config = json.loads(connection.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
        config["name"], config["ruleset"] = "T" + RICH, "R" + RICH
        for index, entrant in enumerate(config["entrants"]):
            entrant["name"], entrant["params"] = f"e{index}{RICH}", {"p": RICH}
        connection.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(config),))
        connection.execute("UPDATE meta SET value = ? WHERE key = 'resume'", ("contack " + RICH,))
        key = connection.execute("SELECT key FROM games LIMIT 1").fetchone()[0]
        connection.execute("UPDATE games SET faults = ? WHERE key = ?",
                           (json.dumps([{"seat": 0, "kind": "k" + RICH, "reason": RICH}]), key))
    return folder / "out"


def test_tournament_report_shows_a_hostile_databases_names_escaped_and_its_markup_as_text(
        hostile_results: Path) -> None:
    """Issue 33, item 3: the report's rich tables took names as markup and sent their escapes raw."""
    result = run_cli("tournament", "report", hostile_results, "--bootstrap", "10")
    assert result.exit_code == 0, result.output
    assert_shown_escaped(result.output)
    joined = result.output.replace("\n", "")
    assert "[bold]b[/bold][link=https://example.invalid]l[/link][/i]" in joined  # as text, not as styles
    assert "Faults" in result.output and "k\\x1b]0;PWNED" in joined
    csv = run_cli("tournament", "report", hostile_results, "--csv")
    assert csv.exit_code == 0 and "e0\\x1b]0;PWNED" in csv.output
    assert_escaped(csv.output)


def test_tournament_report_of_an_unfinished_run_shows_its_hostile_resume_command_escaped(
        hostile_results: Path, tmp_path: Path) -> None:
    import shutil
    import sqlite3

    from tournaments.store import DATABASE_NAME

    folder = tmp_path / "unfinished"
    shutil.copytree(hostile_results, folder)
    with sqlite3.connect(folder / DATABASE_NAME) as connection:
        connection.execute("DELETE FROM games WHERE rowid IN (SELECT rowid FROM games LIMIT 1)")
    result = run_cli("tournament", "report", folder, "--bootstrap", "10")
    assert result.exit_code == 0, result.output
    assert "UNFINISHED" in result.output and "`contack \\x1b]0;PWNED" in result.output.replace("\n", "")
    assert_shown_escaped(result.output)


def test_tournament_run_shows_an_external_bots_hostile_error_escaped(tmp_path: Path) -> None:
    """The run's summary quotes a fault's reason: here what an external bot said its error was."""
    import sys
    import textwrap

    (tmp_path / "bot.py").write_text(textwrap.dedent(f"""\
        import json, sys
        def send(m): print(json.dumps(m), flush=True)
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello": send({{"type": "hello", "protocol": "contack-bot/1", "rulesets": ["*"]}})
            elif m["type"] == "new_game": send({{"type": "ready"}})
            elif m["type"] == "position": send({{"type": "error", "message": {json.dumps(RICH)}}})
        """), encoding="utf-8")
    config = TOURNAMENT.replace("{name: a, player: random}",
                                f'{{name: a, player: exec, params: {{command: "{sys.executable} bot.py"}}}}')
    (tmp_path / "t.yaml").write_text(config + "fault_policy: forfeit\n", encoding="utf-8")
    result = run_cli("tournament", "run", tmp_path / "t.yaml", "--output", tmp_path / "out", "--workers", "1",
                     "--quiet")
    assert result.exit_code == 0, result.output
    assert "faults and errors, by bot:" in result.output and "reported an error: " in result.output
    assert_shown_escaped(result.output)


def test_the_live_leaderboard_shows_names_escaped_and_their_markup_as_text() -> None:
    from rich.console import Console

    from tournaments.live import LiveLeaderboard

    screen = io.StringIO()
    Console(file=screen, force_terminal=True, width=200).print(LiveLeaderboard(["a" + RICH, "b"]))
    shown = screen.getvalue()
    assert "\x1b]" not in shown and "\x1b[2J" not in shown and "\x07" not in shown and "\r" not in shown
    assert "a\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mred\\x0d\\u202e[bold]b[/bold]" in shown


# ------------------------------------------------------------------------------ contack analyze
#: A ruleset path as typed, its folders hostile (a path cannot hold "/" in a name, so the closing
#: tags are folders), ending in a terminal escape and a stray rich closing tag.
ANALYSIS_PATH = f"{PAYLOADS[0]}/{PAYLOADS[3]}/{PAYLOADS[2]}/{CSS}/\x1b]0;PWNED\x07[/b].yaml"
#: An option value the ruleset allows (a choice of its own), so that it reaches the label too.
CHOICE = f"{PAYLOADS[1]}{PAYLOADS[4]}javascript:window.__pwned=1"


@pytest.fixture(scope="module")
def hostile_analysis(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """An analysis and a comparison of a ruleset at a hostile path with a hostile option value, run in
    their folder: the folder and each command's output, the HTML pages in it."""
    folder = tmp_path_factory.mktemp("analysis")
    path = folder / ANALYSIS_PATH
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump({
        "format": "contack-ruleset/1", "id": "house", "title": f"House {IN_YAML}", "extends": "parker-1939",
        "options": {"style": {"doc": "a choice that changes nothing", "type": "choice", "default": "plain",
                              "choices": {"plain": {}, CHOICE: {}}}}}, allow_unicode=True), encoding="utf-8")
    here = Path.cwd()
    os.chdir(folder)  # the label is the path as typed
    try:
        outputs = {}
        for name, extra in (("analysis", ()), ("comparison", ("--against", ANALYSIS_PATH))):
            result = run_cli("analyze", ANALYSIS_PATH, "--option-a", f"style={CHOICE}", *extra, "--deals", "2",
                             "--quiet", "--workers", "1", "--bootstrap", "100", "--html", folder / f"{name}.html")
            assert result.exit_code == 0, result.output
            outputs[name] = result.output
    finally:
        os.chdir(here)
    return folder, outputs


def test_analyze_shows_a_hostile_ruleset_path_and_option_escaped(hostile_analysis: tuple[Path, dict[str, str]]
                                                                  ) -> None:
    """Issue 33, item 3: the label went into rich markup as it was (a stray closing tag crashed it)."""
    for output in hostile_analysis[1].values():
        assert_escaped(output)
        assert "\x1b" not in output
        assert "\\x1b]0;PWNED\\x07[/b].yaml (style=" in output.replace("\n", "")


def test_the_analysis_pages_escape_every_field_for_its_context(hostile_analysis: tuple[Path, dict[str, str]]) -> None:
    folder, _ = hostile_analysis
    for name in ("analysis", "comparison"):
        parser = _Markup()
        parser.feed((folder / f"{name}.html").read_text(encoding="utf-8"))
        tags = [tag for tag, _ in parser.tags]
        assert "script" not in tags and "img" not in tags and tags.count("svg") >= 2
        for tag, attributes in parser.tags:
            assert not [a for a in attributes if a.startswith("on") or a == "autofocus"], (tag, attributes)


def _no_script_ran(page) -> None:  # type: ignore[no-untyped-def]
    """Every element's handlers given their chance; then nothing a hostile string carried has run,
    and nothing it carried became an element or an attribute."""
    page.eval_on_selector_all("*", "els => els.forEach(e => ['mouseover', 'focus', 'load', 'error']"
                                   ".forEach(t => e.dispatchEvent(new Event(t))))")
    page.mouse.move(10, 10)
    page.mouse.move(300, 300)
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed, foreignObject').length") == 0
    assert page.evaluate("[...document.querySelectorAll('*')].filter(e => [...e.attributes].some("
                         "a => a.name.startsWith('on') || a.name === 'autofocus' || "
                         "/^\\s*javascript:/i.test(a.value))).map(e => e.outerHTML.slice(0, 200))") == []


def test_no_hostile_string_runs_a_script_on_the_analysis_pages_in_a_real_browser(
        browser, hostile_analysis: tuple[Path, dict[str, str]]) -> None:  # type: ignore[no-untyped-def]
    folder, _ = hostile_analysis
    page = browser.new_page(viewport={"width": 1300, "height": 820})
    try:
        errors: list[str] = []
        dialogs: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for name in ("analysis", "comparison"):
            page.goto((folder / f"{name}.html").as_uri())
            _no_script_ran(page)
            assert page.evaluate("document.scripts.length") == 0
            assert page.evaluate("document.querySelectorAll('style').length") == 1  # its own
            heading = page.inner_text("h1")
            assert PAYLOADS[2] in heading and CHOICE in heading  # shown as text, whole
        assert not errors and not dialogs, (errors, dialogs)
    finally:
        page.close()


# ------------------------------------------------------------------------------ the web table
def test_no_hostile_string_runs_a_script_on_the_web_table_in_a_real_browser(
        browser, hostile: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Hostile seat names and a ruleset whose title, terms and colour names are hostile, kept on the
    web table: the page is opened with its Content-Security-Policy bypassed, so that what is tested
    is the escaping of every fragment the server sends (the policy is a second wall behind it)."""
    from test_web_table import start_server, stop

    seats = [PAYLOADS[0], PAYLOADS[2], PAYLOADS[3] + PAYLOADS[8], CSS]
    process, url = start_server(tmp_path, str(hostile.parent / "house.yaml"), "--seats", ",".join(seats),
                                "--record", "kept.jsonl")
    try:
        context = browser.new_context(viewport={"width": 1000, "height": 900}, bypass_csp=True)
        context.set_default_timeout(60_000)
        page = context.new_page()
        errors: list[str] = []
        dialogs: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(url)
        page.wait_for_selector('body[data-version="0"]', state="attached")
        _no_script_ran(page)
        # A deal kept by tapping: the log, the seats and the sheet now show the names too.
        while page.query_selector("#deal[disabled]") is not None:
            page.click("#picker button.pick:not(.chosen) >> nth=0")
        page.click("#deal")
        page.wait_for_selector('body[data-version="1"]', state="attached")
        page.select_option("#viewer", index=2)  # as a seat sees it
        page.wait_for_selector("#seats section.seat", state="attached")
        page.fill("#entry", PAYLOADS[3])  # refused, and the refusal quotes the entry
        page.click("#entry-form button[type=submit]")
        page.wait_for_selector('body[data-answers="2"]', state="attached")
        _no_script_ran(page)
        assert page.evaluate("document.scripts.length") == 1  # table.js, and nothing else
        names = [page.inner_text(f"#viewer option >> nth={n + 1}") for n in range(4)]
        assert names[:2] == seats[:2] and names[2].startswith(PAYLOADS[3]) and names[3] == CSS
        assert page.evaluate("document.querySelectorAll('style').length") == 0  # table.css is a link
        assert PAYLOADS[0] in page.inner_text("#log") and PAYLOADS[2] in page.inner_text("#sheet")
        assert "House" in page.title() and PAYLOADS[2] in page.title()
        assert not errors and not dialogs, (errors, dialogs)
        context.close()
    finally:
        out, err = stop(process)
    assert "Traceback" not in err, err


def test_the_human_player_shows_a_hostile_rulesets_terms_escaped(hostile: Path) -> None:
    """`contack play house.yaml --seats human,...`: the position the person is shown names the terms."""
    import random

    from helpers import random_playout

    from contack_core import GameState
    from players.human import HumanPlayer

    rules = load_rules(hostile.parent / "house.yaml")
    state = GameState(rules, 2)
    random_playout(state, random.Random(1), 12)
    while state.is_chance_node():
        state.apply(state.sample_chance(random.Random(1)))
    player = HumanPlayer(seed=0)
    player.input, player.output = io.StringIO("?\nhello \x1b[2J\n1\n"), io.StringIO()
    player.choose(state)
    shown = player.output.getvalue()
    assert_escaped(shown)
    assert "\\x1b]0;PWNED\\x07" in shown and "hand of seat 0" in shown


@pytest.mark.parametrize(("field", "value", "line"), [
    ("id", '"house\\n"', 2),
    ("options", '{"sneaky\\n": {doc: x, type: bool, default: false}}', 5),
])
def test_a_ruleset_name_ending_in_a_line_feed_is_refused(tmp_path: Path, field: str, value: str, line: int) -> None:
    """Python's $ (which jsonschema uses) also matches before a last line feed: a name
    pattern that ends there let an id or an option name ending in a line feed through."""
    path = tmp_path / "house.yaml"
    lines = ["format: contack-ruleset/1", "id: house", "title: A house rule", "extends: parker-1939"]
    if field == "id":
        lines[1] = f"id: {value}"
    else:
        lines.append(f"{field}: {value}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1 and f"house.yaml:{line}:" in result.output, result.output
