"""The local backend and the run loop: every worker warm before the clock starts, batches
that come back as ready-made rows, and CPU accounting that adds up."""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from tournaments.config import Budget, Entrant, TournamentConfig
from tournaments.play import RECORDS_FOLDER, play_batch
from tournaments.runner import LocalBackend, make_plan, run_tournament
from tournaments.schedule import schedule


def random_config(deals: int) -> TournamentConfig:
    entrants = tuple(Entrant(f"r{i}", "random") for i in range(3))
    return TournamentConfig(name="runner", ruleset="parker-1939", options={}, entrants=entrants, seats=(3,),
                            deals=deals, seed=5, budget=Budget(), fault_policy="pass", output=Path("unused"),
                            source="<test>")


def test_start_returns_only_once_every_worker_has_answered_warm(tmp_path: Path) -> None:
    backend = LocalBackend(2)
    try:
        backend.start(make_plan(random_config(1), tmp_path))
        assert len(backend.warm) == 2 and os.getpid() not in backend.warm
    finally:
        backend.close()


def test_a_batch_comes_back_as_rows_and_outcomes_with_records_written(tmp_path: Path) -> None:
    config = random_config(1)
    (tmp_path / RECORDS_FOLDER).mkdir()
    plan = make_plan(config, tmp_path)
    games = schedule(3, (3,), 1, seed=5)
    batch = play_batch(plan, games)
    assert batch.records is None and batch.cpu_seconds > 0
    assert [row[0] for row in batch.rows] == [game.key for game in games]
    assert [outcome.seating for outcome in batch.outcomes] == [game.seating for game in games]
    for row, outcome in zip(batch.rows, batch.outcomes):
        assert row[10] == outcome.status == "ok" and row[12] == f"{RECORDS_FOLDER}/{row[0]}.jsonl"
        assert (tmp_path / row[12]).is_file()


def test_without_a_shared_disk_the_records_travel_with_the_rows(tmp_path: Path) -> None:
    plan = make_plan(random_config(1), tmp_path, workers_share_disk=False)
    batch = play_batch(plan, schedule(3, (3,), 1, seed=5))
    assert batch.records is not None and len(batch.records) == len(batch.rows) == 3
    assert all(text.startswith("{") and "game_end" in text for text in batch.records)
    assert not (tmp_path / RECORDS_FOLDER).exists()


def test_a_run_accounts_for_the_cpu_of_workers_and_main(tmp_path: Path) -> None:
    summary = run_tournament(random_config(4), tmp_path / "out", workers=2, quiet=True)
    assert summary.played == 12 and summary.statuses == {"ok": 12}
    assert summary.worker_cpu > 0 and summary.main_cpu >= 0


def test_the_time_left_is_estimated_from_the_first_finished_game() -> None:
    from rich.progress import Progress

    from tournaments.runner import TimeLeftColumn

    progress = Progress()
    task_id = progress.add_task("games", total=10)
    task = progress.tasks[task_id]
    column = TimeLeftColumn()
    assert column.render(task).plain == "-:--:--"
    task.start_time = task.get_time() - 2.0  # two seconds in, the first of ten games done
    progress.update(task_id, completed=1)
    assert column.render(task).plain in ("0:00:18", "0:00:17", "0:00:19")


def test_each_game_reaches_the_main_process_as_it_finishes_and_the_schedule_is_stated_first(tmp_path: Path) -> None:
    import io
    import sys

    from rich.console import Console

    from tournaments.config import Entrant

    bot = Path(__file__).resolve().parent.parent / "examples" / "external-bots" / "first_bot.py"
    config = attrs.evolve(random_config(4), entrants=(
        Entrant("first", "exec", {"command": f"{sys.executable} {bot}"}), Entrant("r", "random")), seats=(2,))
    arrivals: list[int] = []

    def watch(batch: object) -> None:
        arrivals.append(len(batch.rows))  # type: ignore[attr-defined]

    screen = io.StringIO()
    summary = run_tournament(config, tmp_path / "out", workers=1, console=Console(file=screen, width=120),
                             monitor=watch)
    assert summary.played == 8 and sum(arrivals) == 8
    assert len(arrivals) >= 6, f"games arrived in lumps of {arrivals}"  # one batch of 8, reported game by game
    assert screen.getvalue().startswith("runner: 8 games in the schedule (2 a deal x 4 deals); 0 already done, "
                                        "8 to play on 1 local worker")
