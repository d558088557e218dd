"""Plugin discovery end to end: pip-install examples/plugin-bot into a fresh virtual
environment and play with the bot it declares, with no change to contack.

The new environment has no packages of its own; it sees contack, its dependencies, pip
and setuptools through a ``.pth`` file that adds this environment's site-packages, so
nothing is downloaded: pip builds the plugin with that setuptools (the test extra), without
build isolation, and installs it into the new environment only. Takes a few seconds.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import venv
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent.parent / "examples" / "plugin-bot"

# One worker builds the plugin for both tests (each worker would build its own, at once).
pytestmark = [pytest.mark.venv, pytest.mark.xdist_group("plugin")]


def run(*command: object, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=300, cwd=cwd,
                          check=False)


@pytest.fixture(scope="module")
def plugin_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plugin-venv")
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"
    target = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (target / "contack-host.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in ours), encoding="utf-8")
    # Built from a copy: pip builds in the source folder (build/, *.egg-info), which must be neither the
    # repository's nor shared with another build running at the same time.
    source = shutil.copytree(PLUGIN, root / "plugin-bot", ignore=shutil.ignore_patterns("build", "*.egg-info"))
    installed = run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", source, cwd=root)
    assert installed.returncode == 0, installed.stderr
    return python


def test_the_plugin_bot_is_listed_with_its_package_and_parameters(plugin_python: Path):
    listed = run(plugin_python, "-m", "contack_core.cli", "players", "list")
    assert listed.returncode == 0, listed.stderr
    assert "heavy  (from contack-heavy)" in listed.stdout
    assert "lightest=False" in listed.stdout
    assert "greedy  (from contack)" in listed.stdout


def test_the_plugin_bot_plays_a_recorded_game_that_audits_sound(plugin_python: Path, tmp_path: Path):
    record = tmp_path / "plugin-game.jsonl"
    played = run(plugin_python, "-m", "contack_core.cli", "play", "parker-1939", "--seats",
                 "heavy:lightest=true,greedy", "--seed", 4, "--quiet", "--record", record)
    assert played.returncode == 0, played.stderr
    assert "heavy:lightest=true (seat 0)" in played.stdout and "FAULT" not in played.stdout
    audited = run(plugin_python, "-m", "contack_core.cli", "audit", record)
    assert audited.returncode == 0 and "sound" in audited.stdout

