"""The Ray backend, for real: a local Ray started by the test, a small tournament on it,
the same results as the local process pool."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.config import load_config
from tournaments.runner import run_tournament
from tournaments.store import Store

pytest.importorskip("ray", reason="the ray extra is part of the test extra; `make test` installs it")
# Local Ray sessions, one at a time: every test that starts one runs on the same xdist worker.
pytestmark = pytest.mark.xdist_group("ray")

CONFIG = """\
format: contack-tournament/1
name: on-ray
ruleset: parker-1939
entrants:
  - {name: a, player: random}
  - {name: b, player: random}
  - {name: c, player: random}
seats: [2, 3]
deals: 3
seed: 99
"""


def outcome(folder: Path) -> list[tuple]:
    with Store.open_existing(folder) as store:
        return [(g.key, g.scores, g.ranks, g.status, g.faults) for g in store.games()]


def test_a_tournament_on_a_local_ray_gives_the_local_results(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(CONFIG, encoding="utf-8")
    config = load_config(str(tmp_path / "c.yaml"))
    on_ray = run_tournament(config, tmp_path / "ray", workers=2, backend="ray", quiet=True)
    local = run_tournament(config, tmp_path / "local", workers=2, quiet=True)
    assert on_ray.played == local.played == on_ray.total == 27
    assert on_ray.statuses == {"ok": 27}
    assert outcome(tmp_path / "ray") == outcome(tmp_path / "local")
    ray_records = {p.name: p.read_text() for p in (tmp_path / "ray" / "records").glob("*.jsonl")}
    local_records = {p.name: p.read_text() for p in (tmp_path / "local" / "records").glob("*.jsonl")}
    assert ray_records == local_records and len(ray_records) == 27


def test_sigkill_of_a_run_on_a_local_ray_leaves_no_ray_process(tmp_path: Path) -> None:
    """Ray's own processes (its agents) outlive a killed driver by a minute or more; the run's
    watchdog kills them within seconds."""
    import signal

    from processes import GONE, HANG, contack, started, survivors, wait_for
    from test_run_survives import RANDOM_FOUR, stored

    (tmp_path / "four.yaml").write_text(RANDOM_FOUR.replace("deals: 300", "deals: 3000"), encoding="utf-8")
    out = tmp_path / "out"
    with started(contack("tournament", "run", tmp_path / "four.yaml", "--output", out, "--workers", "2",
                         "--backend", "ray", "--quiet")) as run:
        assert wait_for(lambda: stored(out) > 0, within=HANG), run.process.stderr
        processes = run.snapshot()
        assert len(processes) >= 4, processes  # Ray's servers, agents and two workers, at least
        run.process.send_signal(signal.SIGKILL)
        run.process.wait()
        left = survivors(run.tracked, within=GONE)
    print(f"SIGKILL of a run on a local Ray: {len(left)} of {len(processes)} processes below it left after 5 s")
    assert left == [], f"{len(left)} of {len(processes)} Ray processes outlived the driver by 5 s"


def test_ctrl_c_of_a_run_on_a_local_ray_stops_at_once_stores_what_is_done_and_leaves_no_process(
        tmp_path: Path) -> None:
    import signal
    import time

    from processes import GONE, HANG, contack, started, survivors, wait_for
    from test_run_survives import RANDOM_FOUR, keys, records, stored

    config = tmp_path / "four.yaml"
    config.write_text(RANDOM_FOUR.replace("deals: 300", "deals: 3000"), encoding="utf-8")
    out = tmp_path / "out"
    with started(contack("tournament", "run", config, "--output", out, "--workers", "2",
                         "--backend", "ray")) as run:
        assert wait_for(lambda: stored(out) > 0, within=HANG), run.process.stderr
        run.snapshot()
        asked = time.monotonic()
        run.process.send_signal(signal.SIGINT)
        stdout, stderr = run.process.communicate(timeout=HANG)
        took = time.monotonic() - asked
        left = survivors(run.tracked, within=GONE)
    print(f"Ctrl-C of a run on a local Ray: stopped in {took:.2f} s, {len(left)} processes left")
    assert left == [], f"{len(left)} Ray processes outlived the run by 5 s"
    assert run.process.returncode == 128 + signal.SIGINT, stderr
    done = stored(out)
    assert records(out) == keys(out), "every record on disk has its row, and every row its record"
    assert f"stopped by SIGINT: {done} of " in stderr and "resume with: contack tournament run " in stderr


#: ENOSPC from the fsync of Ray's worker processes only (a sitecustomize on their path), after
#: CONTACK_TEST_FSYNC_FAILS_AFTER calls each: their records cannot be written, as on a full disk.
RAY_WORKERS_DISK_FULL = """\
import errno, os, sys
_limit = int(os.environ.get("CONTACK_TEST_FSYNC_FAILS_AFTER", "-1"))
if _limit >= 0 and "default_worker" in (sys.argv[0] if sys.argv else ""):
    _real, _calls = os.fsync, [0]
    def fsync(fd):
        _calls[0] += 1
        if _calls[0] > _limit:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return _real(fd)
    os.fsync = fsync
"""


def test_a_full_disk_under_ray_tasks_is_one_message_and_no_game_is_stored_as_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33, item 5: a storage error inside a Ray task stops the run with one message (as on the
    local backend), instead of being taken for a worker that died, which stored every game as an
    ``error`` with a stub record; a rerun then plays every game, with the local backend's results."""
    import os
    import re

    from helpers import run_cli
    from test_run_survives import keys, records

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(RAY_WORKERS_DISK_FULL, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("CONTACK_TEST_FSYNC_FAILS_AFTER", "5")
    (tmp_path / "c.yaml").write_text(CONFIG, encoding="utf-8")
    out = tmp_path / "ray"
    result = run_cli("tournament", "run", tmp_path / "c.yaml", "--output", out, "--workers", "2", "--backend", "ray",
                     "--quiet")
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "No space left on device" in errors[0], result.output
    assert re.search(r"the run stopped with \d+ of 27 games stored", errors[0]), errors[0]
    assert "error" not in result.output.replace(errors[0], "") and "Traceback" not in result.output
    with Store.open_existing(out) as store:
        assert all(game.status == "ok" for game in store.games())
    assert records(out) == keys(out), "every stored row has its record, and no record is without its row"
    monkeypatch.delenv("CONTACK_TEST_FSYNC_FAILS_AFTER")
    again = run_cli("tournament", "run", tmp_path / "c.yaml", "--output", out, "--workers", "2", "--backend", "ray",
                    "--quiet")
    assert again.exit_code == 0, again.output
    local = run_tournament(load_config(str(tmp_path / "c.yaml")), tmp_path / "local", workers=2, quiet=True)
    assert local.statuses == {"ok": 27}
    assert outcome(out) == outcome(tmp_path / "local")


def test_ray_that_cannot_start_is_one_line_naming_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's own exceptions can carry a traceback from its processes: the run's message keeps
    the last line of it, not the whole text."""
    ray = pytest.importorskip("ray")
    from tournaments.runner import RayBackend, RunError

    def refuse(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Traceback (most recent call last):\n  File \"gcs.py\", line 9\n"
                              "ConnectionError: could not reach the GCS at 10.0.0.9:6379")

    monkeypatch.setattr(ray, "init", refuse)
    with pytest.raises(RunError) as caught:
        RayBackend(2, "10.0.0.9:6379")
    assert str(caught.value) == ("cannot start or reach Ray at 10.0.0.9:6379: "
                                 "ConnectionError: could not reach the GCS at 10.0.0.9:6379")
