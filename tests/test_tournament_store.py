"""What a run stores: one row per game with its identity and outcome, records beside it, WAL,
a changed config refused, and games whose bots fail stored with their faults."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from helpers import read_lines, run_cli

from contack_core.records.audit import audit_record
from players.random_player import RandomPlayer
from tournaments import play
from tournaments.config import Entrant, load_config
from tournaments.play import Plan, competition_ranks, play_one
from tournaments.schedule import schedule
from tournaments.store import DATABASE_NAME, Store, StoreError

CONFIG = """\
format: contack-tournament/1
name: small
ruleset: parker-1939
entrants:
  - {name: ann, player: random}
  - {name: bob, player: random}
  - {name: cid, player: random}
seats: [2, 3]
deals: 2
seed: 21
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("small")
    config = folder / "small.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run_cli("tournament", "run", config, "--output", folder / "out", "--workers", "2", "--quiet")
    assert result.exit_code == 0, result.output
    return config, folder / "out", result.output


def rows(out: Path) -> list[dict]:
    connection = sqlite3.connect(out / DATABASE_NAME)
    connection.row_factory = sqlite3.Row
    return [dict(row) for row in connection.execute("SELECT * FROM games")]


def test_one_row_per_scheduled_game_keyed_by_identity(small: tuple[Path, Path, str]) -> None:
    config_path, out, output = small
    config = load_config(str(config_path))
    games = schedule(3, config.seats, config.deals, config.seed)
    stored = rows(out)
    assert len(games) == 18 and len(stored) == 18
    assert {r["key"] for r in stored} == {g.key for g in games}
    assert "18 games in the schedule, 0 already done, 18 played now (18 ok)" in output
    for game in games:
        row = next(r for r in stored if r["key"] == game.key)
        assert row["deal_seed"] == game.deal_seed and json.loads(row["seating"]) == list(game.seating)
        assert json.loads(row["names"]) == [["ann", "bob", "cid"][e] for e in game.seating]
        assert row["table_size"] == len(game.seating) and row["deal_index"] == game.deal_index


def test_rows_agree_with_their_records_which_audit_sound(small: tuple[Path, Path, str]) -> None:
    _, out, _ = small
    for row in rows(out):
        record = out / row["record"]
        lines = read_lines(record)
        header, end = lines[0], lines[-1]
        assert header["seed"] == row["deal_seed"] and header["seats"] == json.loads(row["names"])
        assert end["event"] == "game_end" and end["totals"] == json.loads(row["scores"])
        ranks = json.loads(row["ranks"])
        assert ranks == list(competition_ranks(end["totals"]))
        assert [s for s, r in enumerate(ranks) if r == 1] == end["winners"]
        assert row["status"] == "ok" and json.loads(row["faults"]) == [] and row["duration"] > 0
        verdict = audit_record(record)
        assert verdict.valid and verdict.finished, (record, verdict)


def test_the_database_is_in_wal_mode_and_holds_the_config(small: tuple[Path, Path, str]) -> None:
    _, out, _ = small
    connection = sqlite3.connect(out / DATABASE_NAME)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    meta = dict(connection.execute("SELECT key, value FROM meta"))
    assert json.loads(meta["config"])["entrants"][0] == {"name": "ann", "player": "random", "params": {}}
    assert meta["fingerprint"].startswith("sha256:")


def test_a_rerun_skips_every_finished_game(small: tuple[Path, Path, str]) -> None:
    config, out, _ = small
    before = rows(out)
    result = run_cli("tournament", "run", config, "--output", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert "18 already done, 0 played now" in result.output
    assert rows(out) == before


def test_a_changed_config_is_refused_saying_what_changed(small: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, out, _ = small
    changed = tmp_path / "changed.yaml"
    changed.write_text(CONFIG.replace("deals: 2", "deals: 3").replace("name: cid", "name: cy"), encoding="utf-8")
    result = run_cli("tournament", "run", changed, "--output", out, "--quiet")
    assert result.exit_code == 1
    assert "differs in ways that would make its games incomparable" in result.output
    assert "deals: 2 -> 3" in result.output and 'entrants.2.name: "cid" -> "cy"' in result.output
    assert len(rows(out)) == 18


def test_a_grown_config_keeps_the_stored_games_and_plays_only_the_new_ones(small: tuple[Path, Path, str],
                                                                          tmp_path: Path) -> None:
    _, out, _ = small
    grown_out = tmp_path / "out"
    import shutil

    shutil.copytree(out, grown_out)
    before = {row["key"]: row for row in rows(grown_out)}
    grown = tmp_path / "grown.yaml"
    grown.write_text(CONFIG.replace("deals: 2", "deals: 3").replace(
        "  - {name: cid, player: random}\n", "  - {name: cid, player: random}\n  - {name: dan, player: greedy}\n"),
        encoding="utf-8")
    result = run_cli("tournament", "run", grown, "--output", grown_out, "--quiet")
    assert result.exit_code == 0, result.output
    total = len(schedule(4, (2, 3), 3, 21))
    assert f"{total} games in the schedule, 18 already done, {total - 18} played now" in result.output
    assert "the tournament grew: deals: 2 -> 3; entrants added: dan" in result.output
    after = {row["key"]: row for row in rows(grown_out)}
    assert len(after) == total and all(after[key] == row for key, row in before.items())
    with Store.open_existing(grown_out) as store:
        assert store.config_document()["deals"] == 3 and len(store.config_document()["entrants"]) == 4


@pytest.mark.parametrize(("change", "says"), [
    (("deals: 2", "deals: 1"), "deals: 2 -> 1 (deals can be added, not taken away)"),
    (("  - {name: bob, player: random}\n  - {name: cid, player: random}\n",
      "  - {name: cid, player: random}\n  - {name: dan, player: random}\n"), 'entrants.1.name: "bob" -> "cid"'),
    (("seats: [2, 3]", "seats: [3]"), "table sizes can be added, not removed"),
    (("{name: bob, player: random}", "{name: bob, player: greedy}"), 'entrants.1.player: "random" -> "greedy"'),
    (("seed: 21", "seed: 22"), "seed: 21 -> 22"),
])
def test_a_change_that_would_make_stored_games_incomparable_is_refused(
        small: tuple[Path, Path, str], tmp_path: Path, change: tuple[str, str], says: str) -> None:
    _, out, _ = small
    changed = tmp_path / "changed.yaml"
    changed.write_text(CONFIG.replace(*change), encoding="utf-8")
    result = run_cli("tournament", "run", changed, "--output", out, "--quiet")
    assert result.exit_code == 1 and says in result.output, result.output
    assert len(rows(out)) == 18


def test_the_report_cannot_open_a_folder_without_results(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no tournament results"):
        Store.open_existing(tmp_path)
    result = run_cli("tournament", "report", tmp_path)
    assert result.exit_code == 1 and "no tournament results" in result.output


# ----------------------------------------------------------------------------- bot faults
class CrashingPlayer(RandomPlayer):
    """Raises on its third decision."""

    name = "crashing"

    def choose(self, state):  # type: ignore[no-untyped-def]
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 3:
            raise ZeroDivisionError("bad arithmetic")
        return super().choose(state)


class IllegalPlayer(RandomPlayer):
    """Passes when it may not."""

    name = "illegal"

    def choose(self, state):  # type: ignore[no-untyped-def]
        from contack_core.engine.actions import Pass

        return Pass()


@pytest.fixture
def faulty_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "_player_classes",
                        lambda: {"random": RandomPlayer, "crashing": CrashingPlayer, "illegal": IllegalPlayer})


@pytest.mark.parametrize(("bot", "kind", "reason"), [("crashing", "raised", "ZeroDivisionError: bad arithmetic"),
                                                      ("illegal", "illegal", "illegal")])
def test_a_failing_bot_forfeits_its_game_and_the_fault_is_kept(faulty_bots: None, tmp_path: Path, bot: str,
                                                               kind: str, reason: str) -> None:
    entrants = [Entrant("good", "random"), Entrant("bad", bot)]
    plan = Plan("parker-1939", {}, ("good", "bad"), tuple(e.spec() for e in entrants), "parker-1939",
                fault_policy="forfeit")
    game = schedule(2, [2], 1, seed=3)[0]
    result = play_one(plan, game)
    bad_seat = game.seating.index(1)
    assert result.status == "forfeit" and result.scores is None
    assert result.ranks == tuple(2 if s == bad_seat else 1 for s in range(2))
    assert result.faults[0]["seat"] == bad_seat and result.faults[0]["kind"] == kind
    assert reason in result.faults[0]["reason"]
    record = tmp_path / "game.jsonl"
    record.write_text(result.record or "", encoding="utf-8")
    verdict = audit_record(record)
    assert verdict.valid and not verdict.finished, "the record of a forfeited game is sound as far as it goes"


def test_an_engine_error_is_stored_as_the_games_status(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("engine on fire")

    monkeypatch.setattr(play, "play_game", broken)
    plan = Plan("parker-1939", {}, ("a", "b"), ("random", "random"), "parker-1939")
    result = play_one(plan, schedule(2, [2], 1, seed=3)[0])
    assert result.status == "error" and result.ranks is None
    assert result.faults == ({"seat": None, "kind": "error", "reason": "RuntimeError: engine on fire"},)
