"""The web table (`contack keep ... --web`) over HTTP: Starlette's TestClient on the app, and the
command itself as a real server (port 0) for the join token and the live stream.

Entries are those a person would type for a game played by random players (tests/keeping.py):
the web table must take them as the terminal keeper does, refuse what it refuses with its very
words, and write the same record, which audits sound."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
from pathlib import Path
from typing import cast

import pytest
from keeping import entries_for, played_lines, record_lines
from processes import GONE, HANG, contack, environment

from contack_core.boards.grid import PieceBoard
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import audit_record
from contack_core.engine.actions import IllegalAction
from contack_core.engine.notation import NotationError as EntryError, action_from_record
from contack_core.records.keeper import Keeper
from contack_core.records.table import Refused, Table

pytest.importorskip("starlette", reason="the web table needs the web extra (pip install -e '.[test]')")
httpx = pytest.importorskip("httpx2", reason="the tests drive the app with httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient

from contack_core.web.app import make_app
from contack_core.web.game import WebGame

TOKEN = "join-me"


def web(rules, seats: list[str], path: Path) -> tuple[WebGame, TestClient]:  # type: ignore[no-untyped-def]
    game = WebGame(Keeper.start(rules, seats, path, lambda text: None))
    return game, TestClient(make_app(game, TOKEN))


def post(client: TestClient, entry: str) -> dict:  # type: ignore[type-arg]
    response = client.post(f"/entry?token={TOKEN}", json={"entry": entry})
    assert response.status_code == 200, response.text
    return response.json()


def terminal_refusal(rules, seats: list[str], path: Path, entries: list[str], bad: str) -> str:  # type: ignore[no-untyped-def]
    """What the terminal keeper says refusing ``bad`` after ``entries``."""
    keeper = Keeper.start(rules, seats, path, lambda text: None)
    table = Table(keeper, lambda prompt: None, lambda text: None, interactive=False)
    try:
        for entry in entries:
            table.handle(entry, keeper.due())
        with pytest.raises((EntryError, Refused)) as refused:
            table.handle(bad, keeper.due())
        return str(refused.value)
    finally:
        keeper.close()


def test_a_whole_game_typed_into_the_web_table_makes_the_same_sound_record(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    seats = ["alice", "bob"]
    source = played_lines(rules, 2, 11)
    typed = entries_for(rules, source, seats, tmp_path)
    path = tmp_path / "web.jsonl"
    game, client = web(rules, seats, path)
    try:
        for entry in typed:
            answer = post(client, entry)
            assert answer["refused"] is None, (entry, answer)
        assert record_lines(path)[1:] == source[1:]
        verdict = audit_record(path)
        assert verdict.valid and verdict.finished, verdict
        view = client.get(f"/state?token={TOKEN}").json()
        assert view["due"] == "over"
        totals = source[-1]["totals"]
        assert re.search(r'class="running"><th>Total</th>' + "".join(f"<td>{t}</td>" for t in totals), view["sheet"])
        winners = source[-1]["winners"]  # the status says who won, as the record's last line does
        won = (f"{seats[winners[0]]} (seat {winners[0]}) wins the game" if len(winners) == 1
               else ", ".join(f"{seats[w]} (seat {w})" for w in winners) + " tie for the win")
        assert view["status"].endswith(f"<div>{won}</div>"), view["status"]
    finally:
        game.keeper.close()


@pytest.mark.parametrize(("ruleset", "options", "seats"), [
    ("spanish-edition", {}, 3),
    ("contactack", {"partnerships": "on"}, 4),
    ("club-contack", {}, 3),
    ("solitaire-1", {}, 1),
    ("solitaire-2", {}, 1),
    ("klauber-1937", {"move_cap": "40", "partners": "on"}, 4),
])
def test_every_kind_of_game_is_kept_through_the_web_table(ruleset: str, options: dict, seats: int,  # type: ignore[type-arg]
                                                          tmp_path: Path) -> None:
    """Deals onto stacks, tiles turned up, discards, chips, partners, moves: the entries a person
    types, each answered and its view drawn, make the played record again."""
    rules = load_rules(ruleset, options)
    names = [f"player{s}" for s in range(seats)]
    source = played_lines(rules, seats, 1)
    typed = entries_for(rules, source, names, tmp_path, 1)
    game, client = web(rules, names, tmp_path / "web.jsonl")
    try:
        for entry in typed:
            answer = post(client, entry)
            assert answer["refused"] is None, (entry, answer)
            assert answer["view"]["version"] == game.version and answer["view"]["board"].startswith("<svg")
        assert record_lines(tmp_path / "web.jsonl")[1:] == source[1:]
        assert audit_record(tmp_path / "web.jsonl").valid
        view = client.get(f"/state?token={TOKEN}").json()
        assert view["due"] == "over"
        totals = source[-1]["totals"]
        assert "".join(f"<td>{t}</td>" for t in totals) in view["sheet"].split('class="running">')[-1]
        if options.get("partnerships") == "on" or options.get("partners") == "on":
            assert view["sheet"].count('class="partners"') == 2
    finally:
        game.keeper.close()


def test_refusals_are_the_terminals_and_change_nothing(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    seats = ["alice", "bob"]
    source = played_lines(rules, 2, 5)
    typed = entries_for(rules, source, seats, tmp_path)
    game, client = web(rules, seats, tmp_path / "web.jsonl")
    try:
        deals = 0
        for entry in typed:  # the two deals; then a play is due
            post(client, entry)
            deals += 1
            if client.get(f"/state?token={TOKEN}").json()["due"] == "turn":
                break
        before = (tmp_path / "web.jsonl").read_bytes()
        version = game.version
        for number, bad in enumerate(("pass", "09-09-09 0,1", "undi", "draw")):
            answer = post(client, bad)
            expected = terminal_refusal(rules, seats, tmp_path / f"terminal-{number}.jsonl", typed[:deals], bad)
            assert answer["refused"] == expected and not answer["accepted"], (bad, answer)
            assert (tmp_path / "web.jsonl").read_bytes() == before and game.version == version
        suggested = post(client, "pass")["choices"]  # the nearest legal actions, each an entry to tap
        assert suggested and all(choice["entry"] or choice["draw"] for choice in suggested)
        taken = next(choice for choice in suggested if choice["entry"])
        assert post(client, taken["entry"])["accepted"]
        assert game.version == version + 1
        undone = post(client, "undo")
        assert undone["accepted"] and (tmp_path / "web.jsonl").read_bytes() == before
        assert audit_record(tmp_path / "web.jsonl").valid
    finally:
        game.keeper.close()


def test_every_request_needs_the_join_token_and_the_page_reaches_only_its_game(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    game, client = web(rules, ["<b>al</b>", "bob & co"], tmp_path / "web.jsonl")
    try:
        for path in ("/", "/state", "/events", "/static/table.js", "/static/table.css"):
            assert client.get(path).status_code == 403, path
            assert client.get(f"{path}?token=wrong").status_code == 403, path
        assert client.post("/entry", json={"entry": "pass"}).status_code == 403
        assert client.post("/entry?token=nope", json={"entry": "pass"}).status_code == 403
        assert (tmp_path / "web.jsonl").read_text(encoding="utf-8").count("\n") == 2  # nothing entered
        page = client.get(f"/?token={TOKEN}")
        assert page.status_code == 200 and "&lt;b&gt;al&lt;/b&gt;" in page.text and "<b>al</b>" not in page.text
        assert "default-src 'none'" in page.headers["content-security-policy"]
        assert 'name="viewport"' in page.text
        assert client.get(f"/static/table.js?token={TOKEN}").status_code == 200
        for path in ("/static/..%2Fgame.py", "/static/game.py", "/web.jsonl", "/static/%2E%2E/app.py"):
            assert client.get(f"{path}?token={TOKEN}").status_code == 404, path
        view = client.get(f"/state?token={TOKEN}").json()
        assert "&lt;b&gt;al&lt;/b&gt;" in view["seats"] and "<b>al</b>" not in view["seats"] + view["sheet"]
        assert "bob &amp; co" in view["sheet"]
        assert client.post(f"/entry?token={TOKEN}", content=b"x" * 20_000).status_code == 413
        assert client.post(f"/entry?token={TOKEN}", content=b"[1]").status_code == 400
        assert client.get(f"/entry?token={TOKEN}").status_code == 405
    finally:
        game.keeper.close()


def test_a_closed_hand_is_shown_to_its_owner_only(tmp_path: Path) -> None:
    """What a seat's view shows of the others' tiles is what the ruleset lets it see (a house rule
    of closed hands here); the score keeper, who typed every deal, sees them all."""
    ruleset = tmp_path / "closed.yaml"
    ruleset.write_text("extends: parker-1939\nid: closed-hands\ntitle: Closed hands\n"
                       "zones:\n  hand: {primitive: hand, visible: owner}\n", encoding="utf-8")
    rules = load_rules(str(ruleset), {"hands": "1"})
    source = played_lines(rules, 2, 3)
    alice, bob = (line["tiles"] for line in source if line.get("event") == "deal")
    game, client = web(rules, ["alice", "bob"], tmp_path / "web.jsonl")
    try:
        post(client, " ".join(alice))
        post(client, " ".join(bob))
        keeper_view = client.get(f"/state?token={TOKEN}").json()["seats"]
        alices_view = client.get(f"/state?token={TOKEN}&seat=0").json()["seats"]
        held = {tile for line in record_lines(tmp_path / "web.jsonl") if line.get("event") == "deal"
                for tile in line["tiles"]} - {line["tile"] for line in record_lines(tmp_path / "web.jsonl")
                                              if line.get("event") == "play"}
        bobs = [tile for tile in bob if tile in held]
        assert bobs and all(tile in keeper_view for tile in bobs)
        assert not any(tile in alices_view for tile in bobs) and 'class="tile hidden"' in alices_view
        assert all(tile in alices_view for tile in alice if tile in held)
    finally:
        game.keeper.close()


# ------------------------------------------------------------------------- the command, served
def start_server(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(contack("keep", *args, "--web", "--port", "0"), cwd=tmp_path, env=environment(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    for _ in range(5):
        line = process.stdout.readline()  # type: ignore[union-attr]
        lines.append(line)
        found = re.search(r"(http://\S+)", line)
        if found:
            return process, found.group(1)
    process.kill()
    raise AssertionError("".join(lines) + process.stderr.read())  # type: ignore[union-attr]


def stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=GONE)
    return out, err


def test_the_command_serves_on_a_free_port_streams_each_accepted_entry_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    source = played_lines(rules, 2, 7)
    deals = [line for line in source if line.get("event") == "deal"][:2]
    process, url = start_server(tmp_path, "parker-1939", "--seats", "alice,bob", "--option", "hands=1",
                                "--record", "kept.jsonl")
    try:
        assert url.startswith("http://127.0.0.1:") and "?token=" in url and ":0/" not in url
        base, token = url.split("?token=")
        with httpx.Client(timeout=HANG) as client:
            assert client.get(base + "state").status_code == 403
            with client.stream("GET", f"{base}events?token={token}") as stream:
                views = stream_views(stream)
                assert next(views)["version"] == 0
                answer = client.post(f"{base}entry?token={token}", json={"entry": " ".join(deals[0]["tiles"])})
                assert answer.json()["accepted"]
                streamed = next(views)  # sent to every page open on the game: this one did not post it
                assert streamed["version"] == 1 and streamed["toAct"] == 1
                assert all(tile in streamed["seats"] for tile in deals[0]["tiles"])
        assert record_lines(tmp_path / "kept.jsonl")[2] == deals[0]  # on the disk before it was answered
    finally:
        out, err = stop(process)
    assert process.returncode == 0 and "Traceback" not in err, out + err
    assert "stopped; the record so far is kept.jsonl" in out
    assert not (tmp_path / "kept.jsonl.lock").exists()
    assert audit_record(tmp_path / "kept.jsonl").valid


def stream_views(stream):  # type: ignore[no-untyped-def]
    """Each view a server-sent event stream carries."""
    event = []
    for line in stream.iter_lines():
        if line:
            event.append(line)
            continue
        data = [part[len("data: "):] for part in event if part.startswith("data: ")]
        event = []
        if data:
            yield json.loads("\n".join(data))


def test_on_the_local_network_the_url_carries_the_token_and_the_record_is_resumed(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    deal = next(line for line in played_lines(rules, 2, 2) if line.get("event") == "deal")
    Keeper.start(rules, ["alice", "bob"], tmp_path / "kept.jsonl", lambda text: None).close()
    process, url = start_server(tmp_path, "--resume", "kept.jsonl", "--host", "0.0.0.0")
    try:
        port = re.search(r":(\d+)/", url).group(1)  # type: ignore[union-attr]
        token = url.split("?token=")[1]
        local = f"http://127.0.0.1:{port}/"
        with httpx.Client(timeout=HANG) as client:
            assert client.get(local).status_code == 403
            assert client.post(local + "entry", json={"entry": " ".join(deal["tiles"])}).status_code == 403
            assert client.get(f"{local}?token={token}").status_code == 200
            assert client.post(f"{local}entry?token={token}", json={"entry": " ".join(deal["tiles"])}).json()["accepted"]
        second = subprocess.run(contack("keep", "--resume", "kept.jsonl", "--web", "--port", "0"), cwd=tmp_path,
                                env=environment(), capture_output=True, text=True, timeout=HANG, check=False)
        assert second.returncode == 1 and "one writer a record" in second.stderr, second.stderr
        with httpx.Client(timeout=HANG) as client, client.stream("GET", f"{local}events?token={token}") as stream:
            views = stream_views(stream)
            assert next(views)["version"] == 1
            out, err = stop(process)  # a page still open does not keep the server from stopping
            assert list(views) == []
    finally:
        if process.poll() is None:
            out, err = stop(process)
    assert process.returncode == 0 and "Traceback" not in err, out + err
    assert record_lines(tmp_path / "kept.jsonl")[2] == deal


def test_the_web_options_are_checked(tmp_path: Path) -> None:
    for args, message in ((["--input", "x.txt"], "--input reads entries"), (["--port", "70000"], "--port takes")):
        done = subprocess.run(contack("keep", "parker-1939", "--seats", "a,b", "--record", "r.jsonl", "--web", *args),
                              cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=HANG, check=False)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert not (tmp_path / "r.jsonl").exists()
    assert os.listdir(tmp_path) == []
    with socket.socket() as busy:  # a port in use is refused before any record is made, for both keepers
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        for scores_only in ((), ("--scores-only",)):
            done = subprocess.run(contack("keep", "parker-1939", "--seats", "a,b", "--record", "r.jsonl", "--web",
                                          "--port", port, *scores_only),
                                  cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=HANG,
                                  check=False)
            assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr, done.stderr
            assert os.listdir(tmp_path) == []


def test_klauber_moves_are_offered_by_piece_and_taken_as_the_terminal_takes_them(tmp_path: Path) -> None:
    """On a board of pieces a tapped piece offers its moves (each the entry the terminal takes); the
    first moves of a played game, taken so, make the same record."""
    rules = load_rules("klauber-1937", {})
    source = played_lines(rules, 2, 4)
    game, client = web(rules, ["ann", "ben"], tmp_path / "web.jsonl")
    try:
        moves = 0
        while moves < 30 and (written := len(record_lines(tmp_path / "web.jsonl"))) < len(source):
            line = source[written]
            assert line["event"] == "move", line
            view = client.get(f"/state?token={TOKEN}").json()
            offered = view["moves"][f"{line['from'][0]},{line['from'][1]}"]
            wanted = " ".join(f"{x},{y}" for x, y in [line["from"], *line["path"]])
            assert wanted in [move["entry"] for move in offered]
            assert post(client, wanted)["accepted"]
            moves += 1
        assert moves == 30
        kept = record_lines(tmp_path / "web.jsonl")
        assert kept[1:] == source[1:len(kept)]
        assert audit_record(tmp_path / "web.jsonl").valid
        refused = post(client, "draw 1-2-3")
        expected = "no tile is drawn in this game, pieces move on the board"
        assert refused["refused"].startswith(expected) and not refused["accepted"]
    finally:
        game.keeper.close()


def test_a_board_of_pieces_carries_its_legend_and_laid_tiles_none(tmp_path: Path) -> None:
    """What the pieces' marks mean sits under Klauber's board, with a swatch named by the ruleset's
    word for each colour on the board, as the replay's page shows it; a figure of laid tiles needs none."""
    rules = load_rules("klauber-1937", {})
    game, client = web(rules, ["ann", "ben"], tmp_path / "klauber.jsonl")
    try:
        board = client.get(f"/state?token={TOKEN}").json()["board"]
        pieces = cast(PieceBoard, game.keeper.state.figure)
        words = {rules.colour_term(colour) for colour in pieces.colour}
    finally:
        game.keeper.close()
    legend = board[board.index("</svg>"):]
    assert legend.startswith('</svg><div class="legend">') and "corner numbers where they lie" in legend
    assert set(re.findall(r'class="swatch".*?</svg>([^<]+)', legend)) == words == {"red", "blue", "green", "yellow"}
    game, client = web(load_rules("parker-1939", {}), ["ann", "ben"], tmp_path / "parker.jsonl")
    try:
        assert client.get(f"/state?token={TOKEN}").json()["board"].endswith("</svg>")
    finally:
        game.keeper.close()


@pytest.mark.parametrize("word", ["quit", "q", "Exit"])
def test_quit_on_the_web_table_says_how_the_table_is_stopped(tmp_path: Path, word: str) -> None:
    """``quit`` stops the keeper at a terminal; the page cannot stop a table served to every phone, and says
    what does (Ctrl-C where it was started), not that ``quit`` is no tile. The scores-only page says the same."""
    from contack_core.records.scores_keeper import ScoresKeeper
    from contack_core.web.scores import WebScores

    stopping = "stops the keeper at a terminal only: the web table is stopped with Ctrl-C where it was started " \
               "(the record is kept; contack keep --resume {} --web carries it on)"
    rules = load_rules("parker-1939", {})
    path = tmp_path / "web.jsonl"
    game, client = web(rules, ["ann", "ben"], path)
    try:
        answer = post(client, word)
        assert not answer["accepted"] and answer["refused"] == f"{word!r} " + stopping.format(path), answer
        assert "not a tile" not in answer["refused"] and record_lines(path)[-1] == {"event": "hand", "number": 1}
    finally:
        game.keeper.close()
    scores = WebScores(ScoresKeeper.start(rules, ["ann", "ben"], tmp_path / "scores.jsonl"))
    try:
        answer = post(TestClient(make_app(scores, TOKEN)), word)
        assert not answer["accepted"] and answer["refused"] == f"{word!r} " + stopping.format(tmp_path / "scores.jsonl")
    finally:
        scores.keeper.close()


def test_a_board_game_sheet_shows_the_pieces_left_as_the_game_counts_them(tmp_path: Path) -> None:
    """Klauber's sheet and seats show the pieces each side has left (what its match counts, at the game's
    end only), as if the game ended now: not the 0 its totals hold until then."""
    rules = load_rules("klauber-1937", {})
    source = played_lines(rules, 2, 3)
    capture = next(index for index, line in enumerate(source) if line.get("removed"))
    game, client = web(rules, ["ann", "ben"], tmp_path / "klauber.jsonl")
    try:
        for line in source[2:capture + 1]:
            action = action_from_record(rules.tiles, line)
            assert action is not None
            game.keeper.enter(action)
        left = [cast(PieceBoard, game.keeper.state.figure).pieces_on_board(seat) for seat in range(2)]
        view = client.get(f"/state?token={TOKEN}").json()
    finally:
        game.keeper.close()
    assert sorted(left) == [11, 12]
    assert '<tr class="running"><th>Tiles left</th>' + "".join(f"<td>{n}</td>" for n in left) in view["sheet"]
    assert re.findall(r'class="score">(\d+)<', view["seats"]) == [str(n) for n in left]


def test_a_record_carried_on_shows_its_last_entry(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    deal = next(line for line in played_lines(rules, 2, 2) if line.get("event") == "deal")
    game, client = web(rules, ["alice", "bob"], tmp_path / "web.jsonl")
    assert post(client, " ".join(deal["tiles"]))["accepted"]
    game.keeper.close()
    resumed = WebGame(Keeper.resume(tmp_path / "web.jsonl", lambda text: None))
    try:
        log = TestClient(make_app(resumed, TOKEN)).get(f"/state?token={TOKEN}").json()["log"]
        assert f"the last entry: alice dealt {' '.join(deal['tiles'])}" in log
    finally:
        resumed.keeper.close()


def test_hostile_seat_names_reach_the_page_escaped_and_a_lone_surrogate_breaks_nothing(tmp_path: Path) -> None:
    rules = load_rules("parker-1939", {"hands": "1"})
    path = tmp_path / "web.jsonl"
    Keeper.start(rules, ["al", "bo"], path, lambda text: None).close()
    header, *rest = path.read_text(encoding="utf-8").splitlines()
    seats = ["a\ud800l", "<img src=x onerror=alert(1)>\u2028"]
    path.write_text(json.dumps({**json.loads(header), "seats": seats}) + "\n" + "\n".join(rest) + "\n", encoding="utf-8")
    game = WebGame(Keeper.resume(path, lambda text: None))
    try:
        client = TestClient(make_app(game, TOKEN))
        page = client.get(f"/?token={TOKEN}")
        assert page.status_code == 200 and "<img" not in page.text and "&lt;img src=x" in page.text
        view = client.get(f"/state?token={TOKEN}")
        assert view.status_code == 200 and view.json()["seatNames"] == seats  # set as text by the page
        assert "<img" not in view.json()["seats"] + view.json()["sheet"] + view.json()["status"]
        assert post(client, "pass")["refused"]
    finally:
        game.keeper.close()


# ------------------------------------------------------------------------- scores only
def test_a_game_kept_as_scores_only_on_the_web_takes_and_refuses_hands_as_the_terminal(tmp_path: Path) -> None:
    """--scores-only --web: each hand's figures go through the terminal's own reader and checks; a
    refused hand gets the terminal's words and changes nothing; the record, finished, audits sound."""
    from contack_core.records.scores_keeper import ScoresKeeper, scores_entry
    from contack_core.web.scores import WebScores

    rules = load_rules("parker-1939", {})
    hands = [line["scores"] for line in played_lines(rules, 2, 3) if line.get("event") == "hand_end"]
    wrong = f"{hands[0][0] + 1} {hands[0][1]}"  # a net score no hand of tens can make
    terminal = ScoresKeeper.start(rules, ["ann", "bob"], tmp_path / "terminal.jsonl")
    try:
        with pytest.raises((ValueError, IllegalAction)) as refused:
            scores_entry(terminal, wrong)
    finally:
        terminal.close()
    game = WebScores(ScoresKeeper.start(rules, ["ann", "bob"], tmp_path / "web.jsonl"))
    client = TestClient(make_app(game, TOKEN))
    try:
        view = client.get(f"/state?token={TOKEN}").json()
        assert view["due"] == "hand" and 'data-act="hand"' in view["buttons"] and view["buttons"].count("<input ") == 2
        answer = post(client, wrong)
        assert not answer["accepted"] and answer["refused"] == str(refused.value)
        for number, scores in enumerate(hands, 1):
            answer = post(client, " ".join(map(str, scores)))
            assert answer["accepted"] and answer["view"]["version"] == number, answer
        assert answer["view"]["due"] == "over" and "the game is over" in answer["view"]["sheet"]
    finally:
        game.keeper.close()
    verdict = audit_record(tmp_path / "web.jsonl")
    assert verdict.valid and verdict.finished and verdict.scores_only, verdict
