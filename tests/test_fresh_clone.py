"""What a fresh clone's set-up promises: the files that write the environment (pyproject.toml,
constraints.txt, the Makefile) agree with each other, and the README's commands leave nothing
untracked in the repository."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from processes import HANG

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: The options by which a documented command writes a file or a folder.
WRITES = ("--record", "--output", "--svg", "--html", "--png", "--plot")


def _written_by_the_docs() -> set[str]:
    """Every file or folder a documented ``contack`` command writes, named as the docs name it
    (placeholders such as ``FILE.png`` or ``DIR`` aside)."""
    written = set()
    for document in DOCUMENTS:
        for line in document.read_text(encoding="utf-8").splitlines():
            command = line.strip().removeprefix("$ ").split("  #")[0]
            if not command.startswith("contack "):
                continue
            try:
                words = shlex.split(command)
            except ValueError:
                continue
            for option, value in zip(words, words[1:]):
                if option in WRITES and not re.fullmatch(r"[A-Z_]+(\.\w+)?", value):
                    written.add(value)
    return written


def test_what_the_readme_commands_write_is_ignored_by_git() -> None:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    written = sorted(_written_by_the_docs())
    assert {"game.jsonl", "demo-tournament", "k.html"} <= set(written), written  # the parser finds them
    checked = subprocess.run(["git", "check-ignore", "--no-index", *written, *(f"{w}/x" for w in written)],
                             cwd=ROOT, capture_output=True, text=True, check=False)
    ignored = set(checked.stdout.split())
    missed = [w for w in written if w not in ignored and f"{w}/x" not in ignored]
    assert missed == [], f"the docs' commands write files .gitignore does not ignore: {missed}"


def test_every_extra_a_message_names_exists_and_the_test_extra_takes_them_all() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    named = set()
    for package in ("contack_core", "players", "tournaments"):
        for source in (ROOT / package).rglob("*.py"):
            named.update(re.findall(r"pip install 'contack\[(\w+)\]'", source.read_text(encoding="utf-8")))
    assert named and named <= set(extras), named - set(extras)
    everything = next(d for d in extras["test"] if d.startswith("contack["))
    assert set(everything[len("contack["):-1].split(",")) == set(extras) - {"test"}


def test_the_constraints_pin_every_dependency_of_the_test_install() -> None:
    """make test installs with constraints.txt: every package it names is pinned to one version."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *(d for extra in project["optional-dependencies"].values() for d in extra)]
    names = {re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0]).lower() for d in wanted}
    assert names - {"contack"} <= set(pins), sorted(names - {"contack"} - set(pins))


# --------------------------------------------------------------------------- lean by default
BLOCKER = '''
import importlib.abc, os, sys

BLOCKED = set(os.environ["CONTACK_TEST_BLOCKED"].split(","))


class Absent(importlib.abc.MetaPathFinder):
    """As if the packages only an extra brings were not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Absent())
'''


def _only_in_extras() -> set[str]:
    """The top-level modules of every installed distribution that `pip install .` would not
    bring: neither contack's own requirements nor theirs, followed through (markers of extras
    left out)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    def name(text: str) -> str:
        return re.sub(r"[-_.]+", "-", text).lower()

    base, todo = set(), ["contack"]
    while todo:
        current = todo.pop()
        if current in base:
            continue
        base.add(current)
        try:
            requires = metadata.requires(current) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(name(requirement.name))
    blocked = set()
    for module, distributions in metadata.packages_distributions().items():
        if not {name(d) for d in distributions} & base and not module.startswith("_"):
            blocked.add(module)
    return blocked


def test_the_project_alone_runs_the_demo_and_names_each_extra_it_lacks(tmp_path: Path) -> None:
    """What `make demo` installs (the project and its own requirements) is all the demo needs; a
    command that needs an extra says which `pip install 'contack[...]'` brings it."""
    import os
    import sys

    blocked = _only_in_extras()
    assert {"ray", "matplotlib", "pettingzoo", "playwright", "pytest", "starlette", "uvicorn"} <= blocked, sorted(blocked)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {**os.environ, "CONTACK_TEST_BLOCKED": ",".join(sorted(blocked)), "PYTHONPATH": str(site)}

    def contack(*args: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "contack_core.cli", *map(str, args)], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=HANG, check=False)

    out = tmp_path / "demo-tournament"
    for args in (("tournament", "run", "demo", "--output", out, "--quiet"), ("tournament", "report", out)):
        done = contack(*args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    record = sorted((out / "records").glob("*.jsonl"))[0]
    assert "sound (parker-1939" in contack("audit", record).stdout
    needs = {("tournament", "report", out, "--plot", tmp_path / "p.png"): "pip install 'contack[plot]'",
             ("tournament", "run", "demo", "--output", tmp_path / "r", "--backend", "ray"): "pip install 'contack[ray]'",
             ("keep", "parker-1939", "--seats", "a,b", "--record", tmp_path / "web.jsonl", "--web"):
                 "pip install 'contack[web]'"}
    for args, message in needs.items():
        done = contack(*args)
        assert done.returncode != 0 and message in done.stdout + done.stderr, done.stdout + done.stderr
        assert "Traceback" not in done.stdout + done.stderr
