"""The fuzz campaign of issue 33: record mutants across the seven shipped rulesets, and every
hostile ruleset the tests know, each case bounded in CPU time.

Done when it stays at 0 tracebacks, 0 cases over 2 CPU-seconds and 0 unsound mutants
accepted. CI runs a seeded sample (``CONTACK_FUZZ_MUTANTS``, 3,000 by default: the module
takes about 25 CPU-seconds); the full campaign of 10,000 or more is one command (README,
"Fuzzing the audit and the loader"):

    CONTACK_FUZZ_MUTANTS=10000 .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_fuzz_campaign.py -s

Each case's CPU time is measured with ``resource.getrusage`` around it, and an ``ITIMER_PROF``
alarm (far above the 2 s a case may use) stops one that would never end, so a hang is
counted, never waited for. A mutant is "unsound" for sure when the mutation breaks a rule
the audit checks (a stated figure changed, a decision given to another seat, a tile played
twice in a hand, a cell far from every tile, a value no record field holds, a hand_end stated
twice, a line after a forfeit, a turn cap that is not the ruleset's): such a mutant called
sound is an unsound mutant accepted. Other mutants may describe another legal game (a
different draw, say) and may be sound; they must still get one of the audit's three answers.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from record_mutants import MUTATORS, Lines, played_record
from test_hostile_sizes import ALWAYS_PASS, GROWING_SCORES, SIZE_FIELDS
from typer.testing import CliRunner

from contack_core.cli import app
from contack_core.language.documents import shipped_ruleset_ids
from contack_core.records.audit import RecordAuditor, RulesetUnavailable, UnreadableRecord

#: How many record mutants to run: CI's sample by default; 10,000 or more for the full campaign.
MUTANTS = int(os.environ.get("CONTACK_FUZZ_MUTANTS", "3000"))
#: The campaign's seed: the same seed gives the same mutants.
SEED = int(os.environ.get("CONTACK_FUZZ_SEED", "33"))
#: The most CPU time one case may use (issue 33: 0 hangs over 2 CPU-seconds).
CASE_CPU = 2.0
#: The hang guard: a case still running after this much CPU time is stopped and counted.
GUARD_CPU = 30.0
RULESETS = shipped_ruleset_ids()
#: Seeds of the played records each ruleset's mutants start from.
RECORD_SEEDS = (3, 4)


class Hang(BaseException):
    """A case ran past :data:`GUARD_CPU` seconds of CPU time (a BaseException, so that no
    ``except Exception`` of the code under test can take it for an error of its own)."""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def bounded(figures: dict[str, Any], name: str, guard: float = GUARD_CPU) -> Iterator[None]:
    """Run one case: its CPU time noted in ``figures`` (the most, and each case over
    :data:`CASE_CPU`), a case past :data:`GUARD_CPU` stopped as a hang."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(name)

    previous = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, guard)
    start = _cpu()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        spent = _cpu() - start
        if spent > figures["max_cpu"]:
            figures["max_cpu"], figures["slowest"] = spent, name
        if spent > CASE_CPU:
            figures["over_cpu"].append((name, round(spent, 2)))


def test_the_guard_stops_a_case_that_would_never_end() -> None:
    """The campaign counts a hang rather than waiting for it: a loop that never ends is stopped
    after the guard's CPU time, even inside a handler that takes every Exception."""
    figures: dict[str, Any] = {"max_cpu": 0.0, "slowest": None, "over_cpu": []}
    with pytest.raises(Hang):
        with bounded(figures, "spin", guard=0.2):
            while True:
                try:
                    sum(range(1000))
                except Exception:  # noqa: BLE001, S112 - what an audit's broad handler does
                    continue
    assert figures["slowest"] == "spin" and figures["max_cpu"] > 0.1  # the clocks tick apart by a few ms


# ----------------------------------------------------------------------------- record mutants
@pytest.fixture(scope="module")
def records() -> dict[tuple[str, int], Lines]:
    return {(ruleset, seed): played_record(ruleset, seed) for ruleset in RULESETS for seed in RECORD_SEEDS}


def test_record_mutants_across_the_shipped_rulesets(records: dict[tuple[str, int], Lines], tmp_path: Path) -> None:
    rng = random.Random(SEED)
    auditor = RecordAuditor()
    figures: dict[str, Any] = {"mutants": 0, "max_cpu": 0.0, "slowest": None, "over_cpu": [], "tracebacks": [],
                               "hangs": [], "accepted": [], "claimed": 0,
                               "answers": {"sound": 0, "unsound": 0, "unreadable": 0}}
    keys = sorted(records)
    mutators = [m for m, weight in MUTATORS for _ in range(weight)]
    path = tmp_path / "mutant.jsonl"
    for n in range(MUTANTS):
        key = keys[n % len(keys)]
        mutate = rng.choice(mutators)
        lines, unsound_by = mutate(records[key], rng)
        content = b"\n".join(lines) + (b"\n" if lines and lines[-1] else b"")
        name = f"mutant {n} ({key[0]}, seed {key[1]}, {mutate.__name__[1:]})"
        figures["mutants"] += 1
        figures["claimed"] += unsound_by is not None
        path.write_bytes(content)
        try:
            with bounded(figures, name):
                verdict = auditor.audit(path)
        except Hang:
            figures["hangs"].append(name)
            continue
        except (UnreadableRecord, RulesetUnavailable) as error:  # the third answer: exit 2, one message
            figures["answers"]["unreadable"] += 1
            if not str(error) or "\n" in str(error).strip() or unsound_by is not None:
                figures["accepted"].append(f"{name}: unreadable ({error}) where line {unsound_by} is unsound")
            continue
        except Exception as error:  # noqa: BLE001 - a traceback, counted and shown below
            figures["tracebacks"].append(f"{name}: {type(error).__name__}: {error}"[:400])
            continue
        if verdict.valid:
            figures["answers"]["sound"] += 1
            if unsound_by is not None:
                figures["accepted"].append(f"{name}: sound, but line {unsound_by} is not")
            continue
        figures["answers"]["unsound"] += 1
        lines_in_file = content.count(b"\n") + 1
        if not verdict.error or verdict.line is None or not 1 <= verdict.line <= lines_in_file:
            figures["tracebacks"].append(f"{name}: an unsound verdict with no line of the file: {verdict}")
        elif unsound_by is not None and verdict.line > unsound_by:
            figures["accepted"].append(f"{name}: unsound only at line {verdict.line}, after line {unsound_by}")
    print(f"\nrecord mutants: {figures['mutants']} (seed {SEED}), answers {figures['answers']}, "
          f"known unsound {figures['claimed']}, tracebacks {len(figures['tracebacks'])}, hangs {len(figures['hangs'])}, "
          f"over {CASE_CPU} CPU-s {len(figures['over_cpu'])}, max CPU per case {figures['max_cpu']:.3f} s "
          f"({figures['slowest']}), unsound accepted {len(figures['accepted'])}")
    assert figures["mutants"] == MUTANTS
    assert not figures["tracebacks"], figures["tracebacks"][:5]
    assert not figures["hangs"] and not figures["over_cpu"], (figures["hangs"][:5], figures["over_cpu"][:5])
    assert not figures["accepted"], figures["accepted"][:5]
    assert figures["answers"]["unsound"] > MUTANTS // 3, figures["answers"]  # the mutants do reach the audit


# ----------------------------------------------------------------------------- hostile rulesets
HEAD = "extends: parker-1939\nid: hostile\ntitle: Hostile\n"


def _laughs(levels: int = 10, width: int = 9) -> str:
    lines = ["lol0: &lol0 [" + ", ".join(["lol"] * width) + "]"]
    lines += [f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _hostile_rulesets() -> dict[str, dict[str, str]]:
    """Every hostile ruleset the tests use, by name: the files of each (the one to load first).
    From tests/test_bad_input.py (YAML bombs, nesting, sizes, formulas, extends), tests/test_other_files.py
    (files that are no ruleset) and tests/test_hostile_sizes.py (size fields, growing scores, a game
    that never ends)."""
    cases: dict[str, dict[str, str]] = {
        "billion-laughs": {"main.yaml": HEAD + _laughs()},
        "laughs-through-merge-keys": {"main.yaml": HEAD + "\n".join(
            [f"m0: &m0 {{a: {'x' * 9}}}"] + [f"m{i}: &m{i} {{<<: *m{i - 1}, b{i}: [{', '.join(['*m' + str(i - 1)] * 9)}]}}"
                                            for i in range(1, 10)]) + "\n<<: *m9\n"},
        "300-aliases": {"main.yaml": HEAD + "one: &one 1\nmany: [" + ", ".join(["*one"] * 300) + "]\n"},
        "alias-inside-itself": {"main.yaml": HEAD + "loop: &loop [1, *loop]\n"},
        "deep-lists": {"main.yaml": HEAD + "terms:\n  deep: " + "[" * 100_000 + "1" + "]" * 100_000 + "\n"},
        "deep-mappings": {"main.yaml": HEAD + "terms:\n  deep: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n"},
        "200000-keys": {"main.yaml": HEAD + "terms:\n" + "".join(f"  k{i}: v\n" for i in range(200_000))},
        "60000-keys": {"main.yaml": HEAD + "terms: {" + ", ".join(f"k{i}: v" for i in range(60_000)) + "}\n"},
        "120000-items": {"main.yaml": HEAD + "terms: {big: [" + ",".join(["1"] * 120_000) + "]}\n"},
        "python-tag": {"main.yaml": HEAD + "terms: !!python/object/apply:os.system ['true']\n"},
        "nul": {"main.yaml": "extends: parker-1939\nid: bad\x00\ntitle: Bad\n"},
        "not-a-mapping": {"main.yaml": "- just\n- a list\n"},
        "extends-cycle": {"main.yaml": "extends: other.yaml\nid: a\ntitle: A\n",
                          "other.yaml": "extends: main.yaml\nid: b\ntitle: B\n"},
        "extends-itself": {"main.yaml": "extends: main.yaml\nid: a\ntitle: A\n"},
        "extends-passwd": {"main.yaml": "extends: /etc/passwd\nid: a\ntitle: A\n"},
        "extends-not-a-ruleset": {"main.yaml": "extends: other.yaml\nid: a\ntitle: A\n",
                                  "other.yaml": "root: x:0:0:root:/root:/bin/bash\n"},
        "long-extends-chain": {"main.yaml": "extends: v18.yaml\nid: v19\ntitle: V19\n",
                               "v0.yaml": "extends: parker-1939\nid: v0\ntitle: V0\n",
                               **{f"v{i}.yaml": f"extends: v{i - 1}.yaml\nid: v{i}\ntitle: V{i}\n" for i in range(1, 19)}},
        "huge-exponent": {"main.yaml": HEAD + 'placement: {contact: "a ** 99 ** 99 == b"}\n'},
        "large-base": {"main.yaml": HEAD + 'placement: {contact: "(((a+99)**64)**64)**64 == b"}\n'},
        "folded-constants": {"main.yaml": HEAD + 'placement: {contact: "a + 99**99**99**99 == b"}\n'},
        "float-exponent": {"main.yaml": HEAD + 'placement: {contact: "a + 2 ** 1e31 == b"}\n'},
        "100000-terms": {"main.yaml": HEAD + f'placement: {{points: "{"+".join(["a"] * 100_000)}"}}\n'},
        "1000-terms": {"main.yaml": HEAD + f'placement: {{points: "{"+".join(["a"] * 1_000)}"}}\n'},
        "700-nodes": {"main.yaml": HEAD + f'placement: {{points: "max({",".join(["a"] * 700)})"}}\n'},
        "deep-minus": {"main.yaml": HEAD + f'placement: {{points: "{"-" * 1_999}a"}}\n'},
        "dunder-import": {"main.yaml": HEAD + "placement: {contact: '__import__(\"os\") == a'}\n"},
        "attribute": {"main.yaml": HEAD + "placement: {contact: 'a.__class__ == b'}\n"},
        "divide-by-zero": {"main.yaml": HEAD + 'scoring: {score: {on_play: "100 // (figure_tiles - 3)"}}\n'},
        "divide-by-zero-in-play": {"main.yaml": HEAD + 'scoring: {score: {on_play: "100 // (score - 15)"}}\n'},
        "players-10**30": {"main.yaml": HEAD + 'players: {min: 2, max: "10**30"}\n'},
        "players-10**7": {"main.yaml": HEAD + 'players: {min: 2, max: "10000000"}\n'},
        "terms-language-injection": {"main.yaml": HEAD + "terms: {language: '\" onmouseover=\"alert(1)'}\n"},
        "terminal-escapes": {"main.yaml": "extends: parker-1939\nid: hostile\ntitle: \"\\e]2;owned\\a\\e[2J\\e[31mred\"\n"
                                          "terms: {tile: \"\\e[31mtile\\u202e\", plays: \"\\x9b2J\"}\n"},
        "always-pass": {"main.yaml": HEAD + ALWAYS_PASS},
        "always-pass-capped": {"main.yaml": HEAD + ALWAYS_PASS + "turn_cap: 50\n"},
    }
    for name, (base, body, *_rest) in SIZE_FIELDS.items():
        cases[f"size-{name}"] = {"main.yaml": f"extends: {base}\nid: hostile\ntitle: Hostile\n{body}"}
    for name, body in GROWING_SCORES.items():
        cases[f"growing-{name}"] = {"main.yaml": HEAD + body}
    return cases


HOSTILE = _hostile_rulesets()


def _cli(*args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(app, list(args))
    crashed = result.exception if result.exception is not None and not isinstance(result.exception, SystemExit) \
        else None
    return result.exit_code, result.output, crashed


def test_hostile_rulesets(tmp_path: Path) -> None:
    """Each hostile ruleset validated, reached through a record's header (audit, replay), played
    (when valid) by random seats and its record audited: one message or a game, never a
    traceback, no command over 2 CPU-seconds (each command is a case)."""
    figures: dict[str, Any] = {"max_cpu": 0.0, "slowest": None, "over_cpu": []}
    tracebacks: list[str] = []
    hangs: list[str] = []
    unplaced: list[str] = []
    played = 0

    def case(name: str, *args: str) -> tuple[int, str] | None:
        """One command as a case: its exit code and output, or None (a traceback or a hang, noted)."""
        try:
            with bounded(figures, f"{name}: {args[0]}"):
                code, output, crashed = _cli(*args)
        except Hang:
            hangs.append(f"{name}: {args[0]}")
            return None
        if crashed is not None or "Traceback" in output or "please report" in output:
            tracebacks.append(f"{name}: {' '.join(args)[:80]}: {crashed!r} {output[-300:]}")
            return None
        return code, output

    for name, files in HOSTILE.items():
        folder = tmp_path / name
        folder.mkdir()
        for file, text in files.items():
            (folder / file).write_text(text, encoding="utf-8")
        main = folder / "main.yaml"
        validated = case(name, "rulesets", "validate", str(main))
        if validated is not None and validated[0] != 0 and str(folder) not in validated[1] \
                and not re.search(r"\S:\d+:", validated[1]):
            unplaced.append(f"{name}: {validated[1][-300:]}")  # a refusal names the place it is about
        # A record beside the ruleset, naming it in its header, reaches it too.
        beside = folder / "beside.jsonl"
        beside.write_text(json.dumps({"record": "contack-record/1", "ruleset": "main.yaml", "options": {},
                                      "seats": ["ann", "bob"]}) + "\n", encoding="utf-8")
        case(name, "audit", str(beside))
        case(name, "replay", str(beside))
        if validated is None or validated[0] != 0:
            continue
        played += 1
        record = folder / "game.jsonl"
        case(name, "play", str(main), "--seats", "random,random", "--seed", "1", "--record", str(record))
        if record.exists():
            audited = case(name, "audit", str(record))
            if audited is not None and audited[0] != 0:
                tracebacks.append(f"{name}: play wrote a record its audit refuses: {audited[1][-400:]}")
    print(f"\nhostile rulesets: {len(HOSTILE)} ({played} valid and played), tracebacks {len(tracebacks)}, "
          f"hangs {len(hangs)}, over {CASE_CPU} CPU-s {len(figures['over_cpu'])}, max CPU per command "
          f"{figures['max_cpu']:.3f} s ({figures['slowest']})")
    assert not tracebacks, tracebacks
    assert not hangs and not figures["over_cpu"], (hangs, figures["over_cpu"])
    assert not unplaced, unplaced


def test_the_readme_documents_the_full_campaign() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "CONTACK_FUZZ_MUTANTS=10000" in readme and "tests/test_fuzz_campaign.py" in readme

