"""Every worked example in the README and docs/ is run, so the docs never drift from what
the commands print.

A fenced block whose first line starts with ``$ `` is a *transcript*: each ``$ contack ...``
line is run in a fresh directory and the lines up to the next ``$`` are what it must print
(stdout and stderr together; spaces at the ends of lines aside). A line ``...`` in the
expected text stands for any number of lines, so a transcript may quote part of a long
output. A fenced block whose info string names a file (```` ```yaml file=bad.yaml ````) is
written to that directory first, so a transcript can read the files its document shows.
Blocks of either kind apply to the transcripts after them in the same document.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: A fenced block, indented or not (a block inside a list item is indented).
_FENCE = re.compile(r"^( *)```([^\n]*)\n(.*?)^\1```\s*$", re.M | re.S)


def _blocks(path: Path) -> list[tuple[int, str, str]]:
    """(line number, info string, body) of every fenced block of ``path``."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in _FENCE.finditer(text):
        indent = len(match.group(1))
        body = "".join(line[indent:] for line in match.group(3).splitlines(keepends=True))
        blocks.append((text.count("\n", 0, match.start()) + 1, match.group(2).strip(), body))
    return blocks


def _file_name(info: str) -> str | None:
    found = re.search(r"\bfile=(\S+)", info)
    return found.group(1) if found else None


def _transcripts() -> list[tuple[Path, int]]:
    return [(path, line) for path in DOCUMENTS for line, _, body in _blocks(path) if body.startswith("$ ")]


def _matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` equals ``actual``, each ``...`` line standing for any run of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(_matches(expected[1:], actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and _matches(expected[1:], actual[1:])


def _commands(body: str) -> list[tuple[str, list[str]]]:
    """The transcript's commands, each with the lines it must print."""
    steps: list[tuple[str, list[str]]] = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


@pytest.mark.parametrize(("document", "line"), _transcripts(),
                         ids=[f"{path.name}:{line}" for path, line in _transcripts()])
def test_transcript_prints_what_the_document_says(document: Path, line: int, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for at, info, body in _blocks(document):
        name = _file_name(info)
        if name is not None and at < line:
            (tmp_path / name).write_text(body, encoding="utf-8")
        if at == line:
            for command, expected in _commands(body):
                words = shlex.split(command)
                assert words[0] == "contack", f"{document.name}:{line}: a transcript runs contack, not {words[0]}"
                result = run_cli(*words[1:])
                actual = result.output.rstrip("\n").split("\n") if result.output.strip() else []
                # Spaces at the end of a line are invisible in a document (and editors drop them).
                expected, actual = [line.rstrip() for line in expected], [line.rstrip() for line in actual]
                assert _matches(expected, actual), (
                    f"{document.name}:{line}: `{command}` printed\n" + "\n".join(actual)
                    + "\n\nwhere the document says\n" + "\n".join(expected))


def test_the_documents_hold_transcripts() -> None:
    """The harness finds what it checks (a renamed fence would otherwise check nothing)."""
    assert len(_transcripts()) >= 3


#: A file outside the repository: the design brief, or a transcription of a rule book by the
#: name it has in the shared folder. A reader of the repository has neither.
_OUTSIDE_FILE = re.compile(r"DESIGN\.md|rules-sources|\d{3}_[0-9a-f]{16}\.txt"
                           # the same files by their number alone: "(003)", "the encyclopedia, 003",
                           # "003's table", "source 002", "the English book 000"
                           r"|\(00[0-4]\)|, 00[0-4]\b|\b00[0-4]'s\b|\bsources? 00[0-4]\b|\bbook 00[0-4]\b")
#: What a reader reads: the documents, the shipped rulesets (their comments, option docs and
#: ``source``, which ``contack rulesets show`` prints) and the package's own docstrings.
_CITING = [*DOCUMENTS, *sorted((ROOT / "rulesets").rglob("*.yaml")),
           *(path for folder in ("contack_core", "players", "tournaments")
             for path in sorted((ROOT / folder).rglob("*.py")))]


@pytest.mark.parametrize("path", _CITING, ids=[str(path.relative_to(ROOT)) for path in _CITING])
def test_no_citation_of_a_file_outside_the_repository(path: Path) -> None:
    """A rule is cited by the book's name and its sentence, not by a file the reader lacks."""
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if _OUTSIDE_FILE.search(line)]
    assert not found, "cites a file that is not in the repository:\n" + "\n".join(found)


def test_the_citation_check_reads_the_rulesets_and_the_docs() -> None:
    """The check covers what it means to (a moved folder would otherwise check nothing)."""
    names = {path.relative_to(ROOT).as_posix() for path in _CITING}
    assert {"README.md", "rulesets/parker-1939.yaml", "rulesets/examples/threes.yaml",
            "contack_core/boards/lattice.py"} <= names
    assert any(name.startswith("docs/") for name in names)


def _python_examples() -> list[tuple[Path, list[tuple[int, str]]]]:
    """Each document with Python examples, and its ```python blocks (line, body) in order."""
    found = []
    for path in DOCUMENTS:
        blocks = [(line, body) for line, info, body in _blocks(path) if info.split(" ")[0] == "python"]
        if blocks:
            found.append((path, blocks))
    return found


#: Runs one document's Python blocks in order in one namespace (as doctest runs a docstring's
#: examples), each compiled under its document and line, so a failure names where it is.
_RUN_BLOCKS = """
import json, sys
namespace = {"__name__": "__main__"}
for where, body in json.load(sys.stdin):
    exec(compile(body, where, "exec"), namespace)
"""


@pytest.mark.parametrize(("document", "blocks"), _python_examples(),
                         ids=[path.name for path, _ in _python_examples()])
def test_python_examples_run(document: Path, blocks: list[tuple[int, str]], tmp_path: Path) -> None:
    """Every ```python block of the README and docs/ runs as written (python-chess doctests its
    README), in a fresh interpreter in an empty folder."""
    examples = json.dumps([(f"{document.name}:{line}", body) for line, body in blocks])
    run = subprocess.run([sys.executable, "-c", _RUN_BLOCKS], input=examples, capture_output=True, text=True,
                         cwd=tmp_path, timeout=300, check=False)
    assert run.returncode == 0, f"a Python example of {document.name} failed:\n{run.stderr[-3000:]}"


def test_the_python_examples_are_found() -> None:
    """The harness finds what it checks: the README's embedding example among them."""
    bodies = [body for _, blocks in _python_examples() for _, body in blocks]
    assert len(bodies) >= 4
    assert any("contack.play_game(" in body and "action_to_string(" in body for body in bodies)
