"""Bad input to the `contack` command line: one clear message, the right exit code, never a traceback.

Rulesets: `file:line:column`, the key path and what is wrong (DESIGN.md section 3).
Records: exit 1 naming the first bad line (the header is line 1), exit 2 when the file is
not a record at all (DESIGN.md section 5). Fixtures live in this file.
"""

from __future__ import annotations

import io
import json
import random
import resource
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import run_cli as run
from processes import HANG
from typer.testing import Result

from contack_core.engine.actions import Draw, Play, Shuffle
from contack_core.engine.state import GameState
from contack_core.primitives.loading import load_rules
from contack_core.records.format import RecordWriter

REPO = Path(__file__).resolve().parent.parent
PARKER_FILE = REPO / "rulesets" / "parker-1939.yaml"


# ----------------------------------------------------------------------------- helpers
def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def validate(*files: Path) -> Result:
    return run("rulesets", "validate", *files)


def assert_located(result: Result, file: Path, line: int, column: int | None = None, *needles: str) -> None:
    """Exit 1 and a message `file:line:column: ...` containing every needle (case-insensitive)."""
    assert result.exit_code == 1, result.output
    prefix = f"{file}:{line}:" + (f"{column}:" if column is not None else "")
    hits = [text for text in result.output.splitlines() if text.startswith(prefix)]
    assert hits, f"no message at {prefix}\n{result.output}"
    message = hits[0].lower()
    for needle in needles:
        assert needle.lower() in message, f"{needle!r} not in {hits[0]!r}"


# ----------------------------------------------------------------------------- rulesets: YAML
def test_bad_indentation(tmp_path: Path) -> None:
    bad = write(tmp_path / "indent.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
          players: {min: 2, max: 7}
        """)
    assert_located(validate(bad), bad, 4, None, "YAML")


def test_unclosed_bracket(tmp_path: Path) -> None:
    bad = write(tmp_path / "bracket.yaml", """\
        extends: parker-1939
        id: bad
        players: {min: 2, max: 7
        title: Bad
        """)
    result = validate(bad)
    assert result.exit_code == 1
    # the parser notices on line 4 (where the mapping should have closed); line 3 is also fair
    assert f"{bad}:3:" in result.output or f"{bad}:4:" in result.output, result.output
    assert "YAML" in result.output


def test_tab_indentation(tmp_path: Path) -> None:
    bad = tmp_path / "tab.yaml"
    bad.write_text("extends: parker-1939\nid: bad\n\ttitle: Bad\n", encoding="utf-8")
    assert_located(validate(bad), bad, 3, None, "YAML")


def test_duplicate_key(tmp_path: Path) -> None:
    bad = write(tmp_path / "dup.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        id: worse
        """)
    assert_located(validate(bad), bad, 4, None, "duplicate", "id")


def test_nul_character_in_yaml(tmp_path: Path) -> None:
    """A control character the YAML reader refuses: a located message, not a ReaderError traceback."""
    bad = tmp_path / "nul.yaml"
    bad.write_text("extends: parker-1939\nid: bad\x00\ntitle: Bad\n", encoding="utf-8")
    result = validate(bad)
    assert result.exit_code == 1
    assert f"{bad}:2:" in result.output, result.output


def test_python_tags_are_not_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    bad = write(tmp_path / "tag.yaml", f"""\
        extends: parker-1939
        id: !!python/object/apply:os.system ["touch {marker}"]
        title: Bad
        """)
    result = validate(bad)
    assert result.exit_code == 1
    assert not marker.exists()
    assert f"{bad}:2:" in result.output


@pytest.mark.parametrize("content", ["", "# only a comment\n", "- a\n- b\n", "just a string\n"])
def test_not_a_mapping(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "notmap.yaml"
    bad.write_text(content, encoding="utf-8")
    result = validate(bad)
    assert result.exit_code == 1
    assert str(bad) in result.output and "mapping" in result.output


def test_unreadable_ruleset_files(tmp_path: Path) -> None:
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    missing = tmp_path / "missing.yaml"
    result = validate(binary, missing, tmp_path)
    assert result.exit_code == 1
    for path in (binary, missing, tmp_path):
        assert str(path) in result.output


def test_validate_reports_each_bad_file_and_still_passes_good_ones(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        players: {min: "two", max: 7}
        """)
    result = validate(PARKER_FILE, bad)
    assert result.exit_code == 1
    assert f"{PARKER_FILE}: valid" in result.output
    assert f"{bad}:4:" in result.output


# ----------------------------------------------------------------------------- rulesets: schema
def test_players_formula_reads_only_options(tmp_path: Path) -> None:
    bad = write(tmp_path / "players.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        players: {min: "two", max: 7}
        """)
    # players.min may be a formula over the options (and tile_count): a word is a name it does not know.
    assert_located(validate(bad), bad, 4, 11, "players.min", "unknown name 'two'", "tile_count")


def test_schema_wrong_type(tmp_path: Path) -> None:
    bad = write(tmp_path / "players.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        players: {min: [2], max: 7}
        """)
    assert_located(validate(bad), bad, 4, 11, "players.min", "[2]")


def test_schema_unknown_nested_key_is_located_at_the_key(tmp_path: Path) -> None:
    lines = PARKER_FILE.read_text(encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(lines, 1) if text.startswith("  hand_size:"))
    lines.insert(number, "    colour: blue")  # an option key the schema does not know
    bad = tmp_path / "whole.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert_located(validate(bad), bad, number + 1, 5, "options.hand_size", "colour")


def test_schema_unknown_top_level_key_in_a_variant(tmp_path: Path) -> None:
    """The message points at the unknown key in the variant, not at the parent ruleset."""
    bad = write(tmp_path / "unknown.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        flavour: vanilla
        """)
    result = validate(bad)
    assert_located(result, bad, 4, 1, "flavour")
    assert str(PARKER_FILE) not in result.output


def test_schema_unknown_top_level_key_in_a_whole_file(tmp_path: Path) -> None:
    lines = PARKER_FILE.read_text(encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(lines, 1) if text.startswith("players:")) + 1
    lines.insert(number - 1, "flavour: vanilla")
    bad = tmp_path / "unknown-whole.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert_located(validate(bad), bad, number, 1, "flavour")


def test_schema_missing_required_key(tmp_path: Path) -> None:
    text = PARKER_FILE.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("title:")]
    bad = tmp_path / "notitle.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = validate(bad)
    assert result.exit_code == 1
    assert f"{bad}:" in result.output and "title" in result.output and "required" in result.output
    first_key = next(i for i, line in enumerate(lines, 1) if line and not line.startswith("#"))
    assert f"{bad}:{first_key}:1:" in result.output, result.output  # the mapping that lacks it


def test_schema_missing_required_nested_key(tmp_path: Path) -> None:
    text = PARKER_FILE.read_text(encoding="utf-8").replace('players: {min: 2, max: "min(7, tile_count // hand_size)"}',
                                                           "players: {min: 2}")
    bad = tmp_path / "nomax.yaml"
    bad.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("players:"))
    assert_located(validate(bad), bad, line, None, "players", "max", "required")


def test_override_error_is_located_in_the_variant(tmp_path: Path) -> None:
    """players.min > players.max, written in the variant: the variant's line, not parker-1939's."""
    bad = write(tmp_path / "range.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        players: {min: 8, max: 2}
        """)
    result = validate(bad)
    assert_located(result, bad, 4, None, "players")
    assert str(PARKER_FILE) not in result.output


def test_bad_option_default_in_variant_is_located_in_the_variant(tmp_path: Path) -> None:
    bad = write(tmp_path / "optdefault.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        options:
          hands: {default: zero}
        """)
    result = validate(bad)
    assert_located(result, bad, 5, None, "options.hands", "zero")
    assert str(PARKER_FILE) not in result.output


def test_options_given_as_a_list(tmp_path: Path) -> None:
    bad = write(tmp_path / "optlist.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        options: [hands, hand_size]
        """)
    assert_located(validate(bad), bad, 4, None, "options")


def test_option_choices_given_as_a_list(tmp_path: Path) -> None:
    bad = write(tmp_path / "choices.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        options:
          mode: {default: a, choices: [a, b]}
        """)
    assert_located(validate(bad), bad, 5, None, "options.mode")


# ----------------------------------------------------------------------------- rulesets: meaning
def test_contact_placement_refuses_tiles_that_are_not_triangles(tmp_path: Path) -> None:
    bad = write(tmp_path / "squares.yaml", """\
        extends: parker-1939
        id: squares
        title: Square pieces laid as triangles
        players: {min: 2, max: 4}
        components:
          tiles: null
          pieces:
            primitive: corner-tiles
            colours: [red, blue]
            kinds:
              two-step: {face: [1, 2, 3, 4], reverse: [4, 4, 4, 4], steps: 2}
        setup:
          open: null
        """)
    result = validate(bad)
    assert result.exit_code == 1
    assert "contact-placement lays triangular tiles: three edges each, at most 7 colours" in result.output, result.output


def test_unknown_primitive_lists_known_ones(tmp_path: Path) -> None:
    bad = write(tmp_path / "prim.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        board:
          primitive: hexagonal-lattice
        """)
    assert_located(validate(bad), bad, 5, 3, "board.primitive", "hexagonal-lattice", "triangular-lattice")


def test_unknown_zone_primitive_lists_known_ones(tmp_path: Path) -> None:
    bad = write(tmp_path / "zprim.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        zones:
          stock: {primitive: heap}
        """)
    assert_located(validate(bad), bad, 5, None, "zones.stock.primitive", "heap", "pile", "hand")


def _expression_file(tmp_path: Path, expression: str) -> Path:
    return write(tmp_path / "expr.yaml", f"""\
        extends: parker-1939
        id: bad
        title: Bad
        placement:
          contact: {json.dumps(expression)}
        """)


@pytest.mark.parametrize(
    ("expression", "needles"),
    [
        ("a == c", ["unknown name", "'c'", "a, b"]),
        ("a.__class__ == b", ["attribute"]),
        ('__import__("os") == a', ["call"]),
        ('open("x") == a', ["call"]),
        ("[x for x in (a, b)] == b", ["comprehension"]),
        ("(lambda: a)() == b", ["lambda"]),
        ("a == _b", ["_b"]),
        ('a == "x"', ["constant"]),
        ("a ==", ["parse"]),
    ],
)
def test_bad_expression(tmp_path: Path, expression: str, needles: list[str]) -> None:
    bad = _expression_file(tmp_path, expression)
    assert_located(validate(bad), bad, 5, 3, "placement.contact", *needles)


def test_unknown_name_in_turn_condition(tmp_path: Path) -> None:
    bad = write(tmp_path / "when.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        turn:
          draw:
            when: "not can_play and hand_cuont < hand_size"
        """)
    assert_located(validate(bad), bad, 6, 5, "turn.draw.when", "hand_cuont", "hand_count")


def test_unknown_name_in_score_formula(tmp_path: Path) -> None:
    bad = write(tmp_path / "score.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        scoring:
          score:
            on_hand_end: "-tile_penalty * tiles_helt"
        """)
    assert_located(validate(bad), bad, 6, 5, "scoring.score.on_hand_end", "tiles_helt", "tiles_held")


def test_expression_that_divides_by_zero(tmp_path: Path) -> None:
    """Contact tables are computed at load: an expression failing there is a clean, located error."""
    bad = write(tmp_path / "zero.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        placement:
          points: "a // 0"
        """)
    assert_located(validate(bad), bad, 5, None, "placement.points")


def test_zone_that_does_not_exist(tmp_path: Path) -> None:
    bad = write(tmp_path / "zone.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        turn:
          draw:
            from: nowhere
        """)
    assert_located(validate(bad), bad, 6, 5, "turn.draw.from", "nowhere", "stock", "hand")


def test_counter_that_does_not_exist(tmp_path: Path) -> None:
    bad = write(tmp_path / "counter.yaml", """\
        extends: parker-1939
        id: bad
        title: Bad
        match:
          counter: goals
        """)
    assert_located(validate(bad), bad, 5, 3, "match.counter", "goals", "score")


# ----------------------------------------------------------------------------- rulesets: extends
def test_extends_unknown_ruleset(tmp_path: Path) -> None:
    bad = write(tmp_path / "ext.yaml", """\
        id: bad
        title: Bad
        extends: parker-1492
        """)
    assert_located(validate(bad), bad, 3, 1, "extends", "parker-1492", "parker-1939")


def test_extends_not_a_string(tmp_path: Path) -> None:
    bad = write(tmp_path / "ext5.yaml", """\
        id: bad
        extends: [parker-1939]
        """)
    assert_located(validate(bad), bad, 2, 1, "extends")


def test_extends_cycle(tmp_path: Path) -> None:
    first = write(tmp_path / "first.yaml", """\
        extends: second.yaml
        id: first
        """)
    second = write(tmp_path / "second.yaml", """\
        id: second
        title: Second
        extends: first.yaml
        """)
    result = validate(first)
    assert result.exit_code == 1
    assert "cycle" in result.output
    # either end of the loop is a fair place to name, at its extends line
    assert (f"{first}:1:1: at extends" in result.output
            or f"{second.resolve()}:3:1: at extends" in result.output
            or f"{second}:3:1: at extends" in result.output), result.output


def test_extends_itself(tmp_path: Path) -> None:
    bad = write(tmp_path / "self.yaml", """\
        id: self
        extends: self.yaml
        """)
    assert_located(validate(bad), bad, 2, 1, "extends", "cycle")


def test_error_in_parent_file_is_located_in_the_parent(tmp_path: Path) -> None:
    parent = write(tmp_path / "parent.yaml", """\
        extends: parker-1939
        id: parent
        title: Parent
        placement:
          contact: "a == z"
        """)
    child = write(tmp_path / "child.yaml", """\
        extends: parent.yaml
        id: child
        title: Child
        """)
    result = validate(child)
    assert result.exit_code == 1
    assert f"{parent}:5:3:" in result.output or f"{parent.resolve()}:5:3:" in result.output, result.output
    assert "'z'" in result.output


# ----------------------------------------------------------------------------- rulesets: hostile input
# Each case is refused with one message at its place, promptly and in little memory, whatever
# the file holds: the limits of contack_core/language/limits.py (docs/house-rules.md, Limits).
# The CPU-time and memory bounds below are generous on purpose: they catch a hang or a blow-up
# (unbounded, these ran 48-120 s and up to 3.8 GB), not a slow machine; they count the child's
# own CPU time, so a busy machine does not trip them (the wall clock only guards against a hang).
HOSTILE_CPU_SECONDS = 20
HOSTILE_BYTES = 1 << 30
HEAD = "extends: parker-1939\nid: bad\ntitle: Bad\n"


def validate_in_child(path: Path) -> subprocess.CompletedProcess[str]:
    """`contack rulesets validate PATH` in a child process under a CPU-time and memory limit."""

    def limit() -> None:  # pragma: no cover - runs in the child
        resource.setrlimit(resource.RLIMIT_AS, (HOSTILE_BYTES, HOSTILE_BYTES))
        resource.setrlimit(resource.RLIMIT_CPU, (HOSTILE_CPU_SECONDS, HOSTILE_CPU_SECONDS + 5))

    try:
        child = subprocess.run([sys.executable, "-m", "contack_core.cli", "rulesets", "validate", str(path)],
                               capture_output=True, text=True, timeout=HANG, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"validating {path.name} did not end in {HANG:.0f} s (a hang)")
    if child.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        pytest.fail(f"validating {path.name} used more than {HOSTILE_CPU_SECONDS} CPU-seconds")
    return child


def assert_refused(path: Path, where: str, *needles: str) -> None:
    """Refused (exit 1) with one message starting ``where`` and holding every needle, no traceback."""
    child = validate_in_child(path)
    output = child.stdout + child.stderr
    assert "Traceback" not in output and "MemoryError" not in output, output[-800:]
    assert child.returncode == 1, output[-800:]
    messages = [line for line in output.splitlines() if line.strip()]
    assert len(messages) == 1, output[-800:]
    assert messages[0].startswith(where), messages[0]
    for needle in needles:
        assert needle in messages[0], messages[0]


def _laughs(levels: int = 10, width: int = 9) -> str:
    lines = ["lol0: &lol0 [" + ", ".join(["lol"] * width) + "]"]
    lines += [f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    """Nine levels of nine aliases each: a billion items from 500 bytes."""
    bad = tmp_path / "laughs.yaml"
    bad.write_text(HEAD + _laughs(), encoding="utf-8")
    assert_refused(bad, f"{bad}:", "MAX_YAML_NODES")


def test_billion_laughs_through_merge_keys_is_refused(tmp_path: Path) -> None:
    """Merge keys (``<<``) copy a mapping's keys in: nine of the previous level at each level."""
    lines = ["defs:", "  - &m0 {" + ", ".join(f"k{i}: 1" for i in range(9)) + "}"]
    lines += [f"  - &m{i} {{<<: [" + ", ".join([f"*m{i - 1}"] * 9) + "]}" for i in range(1, 10)]
    bad = tmp_path / "merges.yaml"
    bad.write_text(HEAD + "\n".join(lines) + "\n<<: *m9\n", encoding="utf-8")
    assert_refused(bad, f"{bad}:", "MAX_YAML_NODES")


def test_too_many_aliases_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "aliases.yaml"
    bad.write_text(HEAD + "one: &one 1\nmany: [" + ", ".join(["*one"] * 300) + "]\n", encoding="utf-8")
    assert_refused(bad, f"{bad}:5:", "MAX_YAML_ALIASES")


def test_an_alias_inside_itself_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "loop.yaml"
    bad.write_text(HEAD + "loop: &loop [1, *loop]\n", encoding="utf-8")
    assert_refused(bad, f"{bad}:4:17:", "*loop is inside what it names")


def test_aliases_count_towards_the_depth_limit(tmp_path: Path) -> None:
    """Each list is 20 deep, within the limit; the alias puts one inside the other, 40 deep."""
    deep = "[" * 20 + "1" + "]" * 20
    bad = tmp_path / "alias-depth.yaml"
    bad.write_text(HEAD + f"terms:\n  one: &one {deep}\n  two: {'[' * 20}*one{']' * 20}\n", encoding="utf-8")
    assert_refused(bad, f"{bad}:6:", "MAX_YAML_DEPTH")


def test_the_limits_section_of_the_docs_lists_every_limit() -> None:
    """docs/house-rules.md, Limits: its table lists every limit with its value (its
    billion-laughs transcript is run by tests/test_docs.py)."""
    from contack_core.language.limits import LIMITS

    docs = (REPO / "docs" / "house-rules.md").read_text(encoding="utf-8")
    section = docs[docs.index("### Limits"):]
    section = section[:section.index("\n## ")]
    for name, (value, what) in LIMITS.items():
        assert f"| `{name}` | {value:,} | {what} |" in section, name


@pytest.mark.parametrize(("name", "nest"), [("lists", ("[", "]")), ("mappings", ("{a: ", "}"))])
def test_deep_nesting_is_refused_where_it_goes_too_deep(tmp_path: Path, name: str, nest: tuple[str, str]) -> None:
    bad = tmp_path / f"deep-{name}.yaml"
    bad.write_text(HEAD + "terms:\n  deep: " + nest[0] * 100_000 + "1" + nest[1] * 100_000 + "\n", encoding="utf-8")
    assert_refused(bad, f"{bad}:5:", "MAX_YAML_DEPTH")


@pytest.mark.parametrize(("name", "body"), [
    ("200000-keys", "terms:\n" + "".join(f"  k{i}: v\n" for i in range(200_000))),  # 2.5 MB
    ("10mb-list", "terms:\n  big: [" + ",".join(["1"] * 5_000_000) + "]\n"),
    ("50mb-comment", ("# " + "x" * 98 + "\n") * 500_000),
])
def test_an_over_large_file_is_refused_before_it_is_parsed(tmp_path: Path, name: str, body: str) -> None:
    bad = tmp_path / f"{name}.yaml"
    bad.write_text(HEAD + body, encoding="utf-8")
    assert_refused(bad, f"{bad}:1:1:", "MAX_RULESET_BYTES")


@pytest.mark.parametrize(("name", "body"), [
    ("keys", "terms: {" + ", ".join(f"k{i}: v" for i in range(60_000)) + "}\n"),
    ("items", "terms: {big: [" + ",".join(["1"] * 120_000) + "]}\n"),
])
def test_too_many_keys_or_items_within_the_size_limit_are_refused(tmp_path: Path, name: str, body: str) -> None:
    bad = tmp_path / f"many-{name}.yaml"
    bad.write_text(HEAD + body, encoding="utf-8")
    assert bad.stat().st_size < 1_000_000
    assert_refused(bad, f"{bad}:4:", "MAX_YAML_NODES")


def test_the_size_limit_counts_the_files_extended(tmp_path: Path) -> None:
    """Each file is under the limit; together they are over it."""
    filler = "# " + "x" * 98 + "\n"
    write(tmp_path / "parent.yaml", "extends: parker-1939\nid: parent\ntitle: Parent\n" + filler * 6_000)
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\nid: child\ntitle: Child\n" + filler * 6_000, encoding="utf-8")
    assert_refused(child, f"{(tmp_path / 'parent.yaml').resolve()}:1:1:", "MAX_RULESET_BYTES", "extends")


def test_a_long_extends_chain_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "v0.yaml", "extends: parker-1939\nid: v0\ntitle: V0\n")
    for i in range(1, 20):
        write(tmp_path / f"v{i}.yaml", f"extends: v{i - 1}.yaml\nid: v{i}\ntitle: V{i}\n")
    assert_refused(tmp_path / "v19.yaml", "", "MAX_EXTENDS_CHAIN")


def test_merging_a_large_variant_over_its_parent_is_linear(tmp_path: Path) -> None:
    """20,000 keys laid over 20,000 (a 380 KB pair): merging walked every mark per key (51 s);
    now it is one pass. It is a valid ruleset, and every key keeps its own line."""
    write(tmp_path / "parent.yaml", "extends: parker-1939\nid: parent\ntitle: Parent\nterms:\n"
          + "".join(f"  k{i}: v\n" for i in range(20_000)))
    child = write(tmp_path / "child.yaml", "extends: parent.yaml\nid: child\ntitle: Child\nterms:\n"
                  + "".join(f"  k{i}: w{i}\n" for i in range(20_000)) + "  k20000: [1]\n")
    child_run = validate_in_child(child)
    output = child_run.stdout + child_run.stderr
    assert child_run.returncode == 1, output[-800:]  # the last key is not a string: found at its own line
    assert f"{child}:20005:" in output and "terms.k20000" in output, output[-800:]


@pytest.mark.parametrize(("name", "key", "formula", "needle"), [
    ("100000-terms", "points", "+".join(["a"] * 100_000), "MAX_EXPRESSION_CHARS"),
    ("1000-terms", "points", "+".join(["a"] * 1_000), "MAX_EXPRESSION_DEPTH"),
    ("700-nodes", "points", "max(" + ",".join(["a"] * 700) + ")", "MAX_EXPRESSION_NODES"),
    ("deep-minus", "points", "-" * 1_999 + "a", "MAX_EXPRESSION_DEPTH"),
    # Powers in a predicate (a score refuses a power it cannot prove whole before it is worked out).
    ("huge-exponent", "contact", "(a+99)**99**9 == b", "MAX_EXPONENT"),
    ("huge-exponent-2", "contact", "a ** 99 ** 99 == b", "MAX_EXPONENT"),
    ("large-base", "contact", "(((a+99)**64)**64)**64 == b", "MAX_POWER_BITS"),
    ("folded-constants", "contact", "a + 99**99**99**99 == b", "MAX_EXPONENT"),
])
def test_formulas_too_large_or_too_costly_are_refused(tmp_path: Path, name: str, key: str, formula: str,
                                                       needle: str) -> None:
    bad = tmp_path / f"{name}.yaml"
    bad.write_text(HEAD + f"placement:\n  {key}: {json.dumps(formula)}\n", encoding="utf-8")
    assert_refused(bad, f"{bad}:5:3: at placement.{key}:", needle)


# ----------------------------------------------------------------------------- play / show / bench
def _play(*extra: object) -> Result:
    return run("play", *extra)


@pytest.mark.parametrize("count", [1, 8])
def test_play_wrong_seat_count(tmp_path: Path, count: int) -> None:
    record = tmp_path / "never.jsonl"
    result = _play("parker-1939", "--seats", ",".join(["random"] * count), "--seed", "1", "--record", record)
    assert result.exit_code != 0
    assert "2" in result.stderr and "7" in result.stderr and str(count) in result.stderr
    assert not record.exists() or record.read_text() == ""


def test_play_unknown_player_lists_installed_ones() -> None:
    result = _play("parker-1939", "--seats", "random,nobody", "--seed", "1")
    assert result.exit_code != 0
    assert "nobody" in result.stderr and "random" in result.stderr and "installed" in result.stderr


def test_play_empty_seat() -> None:
    result = _play("parker-1939", "--seats", "random,,random")
    assert result.exit_code != 0 and "seat" in result.stderr


def test_play_player_parameters_it_does_not_take() -> None:
    result = _play("parker-1939", "--seats", "random:depth=3,random")
    assert result.exit_code != 0 and "depth" in result.stderr


def test_play_unknown_option_lists_allowed_ones() -> None:
    result = _play("parker-1939", "--seats", "random,random", "--option", "foo=1")
    assert result.exit_code != 0
    for name in ("foo", "hands", "hand_size", "tile_penalty"):
        assert name in result.stderr


@pytest.mark.parametrize(("value", "needles"), [("zero", ["zero", "whole number"]), ("0", ["1", "20"]),
                                                ("21", ["1", "20"]), ("", ["whole number"])])
def test_play_bad_option_value_says_what_is_allowed(value: str, needles: list[str]) -> None:
    result = _play("parker-1939", "--seats", "random,random", "--option", f"hands={value}")
    assert result.exit_code != 0
    assert "hands" in result.stderr
    for needle in needles:
        assert needle in result.stderr


def test_play_option_without_value() -> None:
    result = _play("parker-1939", "--seats", "random,random", "--option", "hands")
    assert result.exit_code != 0 and "KEY=VALUE" in result.stderr


def test_play_unknown_ruleset() -> None:
    result = _play("nosuch", "--seats", "random,random")
    assert result.exit_code != 0
    assert "nosuch" in result.stderr and "parker-1939" in result.stderr


def test_play_broken_ruleset_file_is_reported_not_played(tmp_path: Path) -> None:
    bad = _expression_file(tmp_path, "a == c")
    result = _play(bad, "--seats", "random,random")
    assert result.exit_code != 0
    assert f"{bad}:5:3:" in result.stderr
    assert " plays " not in result.stdout


def test_play_record_in_missing_directory(tmp_path: Path) -> None:
    result = _play("parker-1939", "--seats", "random,random", "--record", tmp_path / "no" / "such" / "g.jsonl")
    assert result.exit_code != 0 and "cannot write" in result.stderr


def test_play_bad_seed_is_a_usage_error() -> None:
    result = _play("parker-1939", "--seats", "random,random", "--seed", "seven")
    assert result.exit_code == 2


def test_show_errors() -> None:
    assert run("rulesets", "show", "nosuch").exit_code != 0
    result = run("rulesets", "show", "parker-1939", "--option", "hands=99")
    assert result.exit_code != 0 and "hands" in result.stderr


def test_bench_errors() -> None:
    result = run("bench", "parker-1939", "--games", "2", "--players", "9")
    assert result.exit_code != 0 and "9" in result.stderr
    assert run("bench", "nosuch", "--games", "2").exit_code != 0
    assert run("bench", "parker-1939", "--games", "0").exit_code == 2


# ----------------------------------------------------------------------------- records
@pytest.fixture(scope="module")
def base_record(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """A sound, finished three-seat game, as a list of line objects (index 0 = line 1)."""
    path = tmp_path_factory.mktemp("base") / "base.jsonl"
    result = run("play", "parker-1939", "--seats", "random,random,random", "--seed", "5", "--record", path)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    kinds = {line.get("event") for line in lines}
    assert {"play", "draw", "pass", "hand_end", "game_end"} <= kinds  # the cases below need them all
    return lines


def dump(tmp_path: Path, lines: list[dict | str], name: str = "record.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def audit_verdict(path: Path) -> tuple[Result, dict]:
    result = run("audit", "--json", path)
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert len(objects) == 1, result.output
    return result, objects[0]


def assert_unsound_at(path: Path, line: int, *needles: str) -> dict:
    result, verdict = audit_verdict(path)
    assert result.exit_code == 1, verdict
    assert verdict["valid"] is False and verdict["line"] == line, verdict
    for needle in needles:
        assert needle.lower() in verdict["error"].lower(), verdict["error"]
    text = run("audit", path)
    assert text.exit_code == 1
    assert f"{path}:{line}:" in text.output and "unsound" in text.output
    return verdict


def index_of(lines: list[dict], kind: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines) if line.get("event") == kind][nth]


def test_base_record_is_sound_and_contains_forced_draws(base_record: list[dict], tmp_path: Path) -> None:
    result, verdict = audit_verdict(dump(tmp_path, base_record))
    assert result.exit_code == 0 and verdict["valid"] and verdict["finished"], verdict


def test_record_line_not_json(base_record: list[dict], tmp_path: Path) -> None:
    lines: list[dict | str] = list(base_record)
    lines[6] = '{"event": "play", "seat": 1,'
    assert_unsound_at(dump(tmp_path, lines), 7, "JSON")


def test_record_line_not_an_object(base_record: list[dict], tmp_path: Path) -> None:
    lines: list[dict | str] = list(base_record)
    lines[5] = "[1, 2]"
    assert_unsound_at(dump(tmp_path, lines), 6, "object")


def test_record_deeply_nested_json_line(base_record: list[dict], tmp_path: Path) -> None:
    lines: list[dict | str] = list(base_record)
    lines[5] = "[" * 100_000 + "]" * 100_000
    assert_unsound_at(dump(tmp_path, lines), 6)


def test_record_unknown_event(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    lines[5] = {"event": "jump", "seat": 0}
    assert_unsound_at(dump(tmp_path, lines), 6, "jump", "play")


def test_record_unknown_tile_name(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    lines[i]["tile"] = "11-12-13"
    assert_unsound_at(dump(tmp_path, lines), i + 1, "11-12-13")


def test_record_malformed_tile_name(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "draw")
    lines[i]["tile"] = "9-2-8"
    assert_unsound_at(dump(tmp_path, lines), i + 1, "9-2-8")


def test_record_unknown_tile_in_a_deal(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "deal", 1)
    lines[i]["tiles"] = ["11-12-13", *lines[i]["tiles"][1:]]
    assert_unsound_at(dump(tmp_path, lines), i + 1, "11-12-13")


@pytest.mark.parametrize("cell", ["0,0", [0], [0, 0, 0], ["0", "0"], [0.5, 0], None])
def test_record_malformed_cell(base_record: list[dict], tmp_path: Path, cell: object) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    lines[i]["cell"] = cell
    assert_unsound_at(dump(tmp_path, lines), i + 1, "cell")


def test_record_play_on_an_illegal_cell(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    lines[i]["cell"] = [40, 40]
    assert_unsound_at(dump(tmp_path, lines), i + 1)


def test_record_play_by_the_wrong_seat(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    lines[i]["seat"] = (lines[i]["seat"] + 1) % 3
    assert_unsound_at(dump(tmp_path, lines), i + 1, "turn")


def test_record_play_of_a_tile_not_held(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    seat = lines[i]["seat"]
    other = next(line for line in lines if line.get("event") == "deal" and line["seat"] != seat)
    lines[i]["tile"] = other["tiles"][-1]
    assert_unsound_at(dump(tmp_path, lines), i + 1, other["tiles"][-1])


def test_record_draw_of_a_tile_in_someones_hand(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "draw")
    hand_start = max(j for j in range(i) if lines[j].get("event") == "hand")
    played = {line["tile"] for line in lines[hand_start:i] if line.get("event") == "play"}
    held = next(tile for line in lines[hand_start:i] if line.get("event") == "deal"
                for tile in line["tiles"] if tile not in played)
    lines[i]["tile"] = held
    assert_unsound_at(dump(tmp_path, lines), i + 1, held, "hand")


def test_record_deal_of_a_tile_dealt_already(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "deal", 1)
    lines[i]["tiles"] = [lines[i - 1]["tiles"][0], *lines[i]["tiles"][1:]]
    assert_unsound_at(dump(tmp_path, lines), i + 1, lines[i - 1]["tiles"][0])


def test_record_wrong_points(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    lines[i]["points"] += 5
    assert_unsound_at(dump(tmp_path, lines), i + 1, "points", str(lines[i]["points"]))


def test_record_points_as_a_string(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "play", 1)
    lines[i]["points"] = str(lines[i]["points"])
    assert_unsound_at(dump(tmp_path, lines), i + 1, "points")


def test_record_play_without_points_is_fine(base_record: list[dict], tmp_path: Path) -> None:
    lines = [{k: v for k, v in line.items() if k != "points"} for line in base_record]
    result, verdict = audit_verdict(dump(tmp_path, lines))
    assert result.exit_code == 0 and verdict["valid"] and verdict["finished"], verdict


def test_record_wrong_hand_end_score(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "hand_end", 1)
    lines[i]["scores"] = [lines[i]["scores"][0] + 10, *lines[i]["scores"][1:]]
    assert_unsound_at(dump(tmp_path, lines), i + 1, "hand 2", "scores")


def test_record_hand_end_in_the_wrong_place(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "hand_end")
    early = index_of(lines, "play", 2)
    moved = lines.pop(i)
    lines.insert(early, moved)
    assert_unsound_at(dump(tmp_path, lines), early + 1, "hand 1")


def test_record_wrong_totals_and_winners(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    lines[-1]["totals"] = [0] * 3
    assert_unsound_at(dump(tmp_path, lines, "totals.jsonl"), len(lines), "totals")
    lines = [dict(line) for line in base_record]
    lines[-1]["winners"] = [seat for seat in range(3) if seat not in base_record[-1]["winners"]][:1]
    assert_unsound_at(dump(tmp_path, lines, "winners.jsonl"), len(lines), "winners")


@pytest.mark.parametrize("extra", [{"event": "pass", "seat": 0}, {"event": "hand", "number": 4}, "game_end"])
def test_record_events_after_game_end(base_record: list[dict], tmp_path: Path, extra: object) -> None:
    lines = [dict(line) for line in base_record]
    lines.append(dict(base_record[-1]) if extra == "game_end" else extra)  # type: ignore[arg-type]
    assert_unsound_at(dump(tmp_path, lines), len(lines), "game_end")


def test_record_game_end_before_the_game_is_over(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    i = index_of(lines, "hand_end")
    lines.insert(i + 1, dict(base_record[-1]))
    assert_unsound_at(dump(tmp_path, lines), i + 2, "not over")


def assert_cannot_audit(path: Path, *needles: str) -> dict:
    """Exit 2: the record's ruleset cannot be found or loaded, so it cannot be audited at all."""
    result, verdict = audit_verdict(path)
    assert result.exit_code == 2 and verdict["ruleset_unavailable"] is True and verdict["valid"] is False, verdict
    for needle in needles:
        assert needle in verdict["error"], verdict["error"]
    text = run("audit", path)
    assert text.exit_code == 2 and text.output.startswith(f"{path}: cannot audit: "), text.output
    assert "Traceback" not in text.output
    return verdict


def test_record_header_names_an_unknown_ruleset(base_record: list[dict], tmp_path: Path) -> None:
    """The header's ruleset cannot be found: exit 2, saying so and how to point at it."""
    lines = [dict(line) for line in base_record]
    lines[0]["ruleset"] = "nosuch"
    assert_cannot_audit(dump(tmp_path, lines), "cannot find or load the ruleset 'nosuch'", "--ruleset FILE")


def test_record_header_names_a_broken_ruleset_file(base_record: list[dict], tmp_path: Path) -> None:
    """It cannot be loaded: exit 2, saying so as for a file that is not there (a record must not
    tell which files exist), quoting nothing of it."""
    broken = write(tmp_path / "broken.yaml", """\
        extends: parker-1939
        id: broken
        placement:
          contact: "a == c"
        """)
    lines = [dict(line) for line in base_record]
    lines[0]["ruleset"] = "broken.yaml"
    verdict = assert_cannot_audit(dump(tmp_path, lines), "cannot find or load the ruleset 'broken.yaml'")
    assert "a == c" not in verdict["error"] and "'c'" not in verdict["error"]
    broken.unlink()
    assert assert_cannot_audit(dump(tmp_path, lines))["error"] == verdict["error"]


def test_auditing_a_record_never_echoes_the_file_its_header_names(base_record: list[dict], tmp_path: Path) -> None:
    """A record may come from anyone and name any YAML file: the audit says that it does not
    load and where, and nothing it holds (a schema message would quote the value)."""
    secret = tmp_path / "settings.yaml"
    secret.write_text("extends: parker-1939\nid: x\ntitle: X\nplayers: hunter2-password\n"
                      "token: 8f14e45fceea167a\n", encoding="utf-8")
    lines = [dict(line) for line in base_record]
    lines[0]["ruleset"] = str(secret)  # an absolute path: found wherever the record is
    (tmp_path / "elsewhere").mkdir()
    record = dump(tmp_path / "elsewhere", lines)
    verdict = assert_cannot_audit(record, f"cannot find or load the ruleset {str(secret)!r}")
    text = run("audit", record).output + json.dumps(verdict)
    assert "hunter2" not in text and "8f14e45" not in text and "token" not in text


def test_record_header_names_a_ruleset_that_crashes_the_loader(base_record: list[dict], tmp_path: Path) -> None:
    write(tmp_path / "zero.yaml", """\
        extends: parker-1939
        id: zero
        placement:
          points: "a // 0"
        """)
    lines = [dict(line) for line in base_record]
    lines[0]["ruleset"] = "zero.yaml"
    verdict = assert_cannot_audit(dump(tmp_path, lines), "zero.yaml")
    assert "a // 0" not in verdict["error"]


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"seats": ["solo"]}, "2 to 7"),
        ({"seats": ["s"] * 8}, "2 to 7"),
        ({"seats": []}, "seats"),
        ({"seats": "abc"}, "seats"),
        ({"options": {"hands": "zero"}}, "hands"),
        ({"options": {"foo": 1}}, "foo"),
        ({"surprise": True}, "surprise"),
        ({"seed": "seven"}, "seed"),
    ],
)
def test_record_bad_header(base_record: list[dict], tmp_path: Path, change: dict, needle: str) -> None:
    lines = [dict(line) for line in base_record]
    lines[0].update(change)
    assert_unsound_at(dump(tmp_path, lines), 1, needle)


def test_record_header_without_seats(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(line) for line in base_record]
    del lines[0]["seats"]
    assert_unsound_at(dump(tmp_path, lines), 1, "seats")


def test_record_header_only_is_sound_and_unfinished(base_record: list[dict], tmp_path: Path) -> None:
    result, verdict = audit_verdict(dump(tmp_path, base_record[:1]))
    assert result.exit_code == 0 and verdict["valid"] is True and verdict["finished"] is False


def test_record_play_before_the_deal(base_record: list[dict], tmp_path: Path) -> None:
    lines = [dict(base_record[0]), dict(base_record[1]), dict(base_record[index_of(base_record, "play")])]
    assert_unsound_at(dump(tmp_path, lines), 3, "deal")


# ----------------------------------------------------------------------------- unreadable records
@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("empty", b""),
        ("blank", b"\n\n  \n"),
        ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfd"),
        ("nul", b"\x00\x01\x02garbage"),
        ("text", b"hello, this is not a record\n"),
        ("event-first", b'{"event": "hand", "number": 1}\n'),
        ("other-format", b'{"record": "contack-record/2", "ruleset": "parker-1939", "options": {}, "seats": ["a"]}\n'),
        ("json-array", b"[1, 2, 3]\n"),
    ],
)
def test_unreadable_record(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(content)
    result = run("audit", path)
    assert result.exit_code == 2, result.output
    assert str(path) in result.output
    as_json = run("audit", "--json", path)
    assert as_json.exit_code == 2
    verdict = json.loads(as_json.stdout)
    assert verdict["valid"] is False and verdict["line"] is None and verdict["error"] and verdict["finished"] is False


def test_unreadable_record_missing_file_and_directory(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.jsonl", tmp_path):
        result = run("audit", path)
        assert result.exit_code == 2
        assert str(path) in result.output


def test_unreadable_deeply_nested_header(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = run("audit", path)
    assert result.exit_code == 2


# ----------------------------------------------------------------------------- voluntary draw
def _record_until_voluntary_draw_is_possible(seed: int) -> tuple[list[str], int, str] | None:
    """Play random games with the engine until the seat to act holds a legal play, fewer than
    hand_size tiles and the stock is not empty: the only thing forbidding a draw is the play."""
    rules = load_rules("parker-1939")
    rng = random.Random(seed)
    state = GameState(rules, 3)
    buffer = io.StringIO()
    writer = RecordWriter(buffer, {"ruleset": "parker-1939", "options": {}, "seats": ["a", "b", "c"], "seed": seed})
    hand = 0
    while not state.is_over():
        if state.hand_number != hand:
            hand = state.hand_number
            writer.hand_started(state, hand)
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            seat = state.current_seat()
            legal = state.legal_actions()
            stock = state.zone("stock")
            if (any(isinstance(a, Play) for a in legal) and not any(isinstance(a, Draw) for a in legal)
                    and len(state.zone("hand", seat)) < 5 and stock):
                return buffer.getvalue().splitlines(), seat, rules.tiles.names[stock[0]]
            action = rng.choice(legal)
        event = state.apply(action)
        if not isinstance(action, Shuffle):
            writer.event(state, event)
    return None


def test_voluntary_draw_is_unsound_under_parker(tmp_path: Path) -> None:
    found = next(filter(None, (_record_until_voluntary_draw_is_possible(seed) for seed in range(50))))
    lines, seat, tile = found
    # the record so far is sound (a control: the fault below is the draw alone)
    prefix = dump(tmp_path, list(lines), "prefix.jsonl")
    result, verdict = audit_verdict(prefix)
    assert result.exit_code == 0 and verdict["valid"], verdict
    drawn = dump(tmp_path, [*lines, json.dumps({"event": "draw", "seat": seat, "tile": tile})], "drawn.jsonl")
    verdict = assert_unsound_at(drawn, len(lines) + 1, "draw")
    assert "play" in verdict["error"]
