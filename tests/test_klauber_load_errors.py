"""A user's ruleset built on klauber-1937 whose start positions (or another parameter of the
board-game primitives) make no sense is refused when it loads, with the file, line, column,
key path and what is wrong: by `contack rulesets validate` and by `contack play`, exit code 1,
never a traceback, never at the first move of a game."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from helpers import run_cli
from typer.testing import Result

from contack_core import load_rules
from contack_core.language.problems import RulesetError

SHIPPED = Path(__file__).resolve().parent.parent / "rulesets" / "klauber-1937.yaml"


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def assert_located(result: Result, file: Path, line: int, column: int, *needles: str) -> None:
    """Exit 1, no traceback, and a message `file:line:column: ...` holding every needle."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output, result.output
    prefix = f"{file}:{line}:{column}: "
    hits = [text for text in result.output.splitlines() if text.startswith(prefix)
            or text.startswith(f"error: {prefix}")]
    assert hits, f"no message at {prefix}\n{result.output}"
    for needle in needles:
        assert needle.lower() in hits[0].lower(), f"{needle!r} not in {hits[0]!r}"


def three_seat_layout(tmp_path: Path, name: str, rows: str) -> Path:
    """A variant replacing the three-seat start positions with ``rows`` (rows start on line 8)."""
    head = f"extends: klauber-1937\nid: {name}\ntitle: A bad layout\nsetup:\n  start:\n    layouts:\n      \"3\":\n"
    path = tmp_path / f"{name}.yaml"
    path.write_text(head + textwrap.indent(textwrap.dedent(rows), "        "), encoding="utf-8")
    return path


BAD_LAYOUTS = {
    # name: (rows, line, column, key path, words of the message)
    "overlap": ("""\
        - {seat: 0, edge: south, start: 0, pieces: [red one-step, red two-step]}
        - {seat: 1, edge: west, start: 0, pieces: [blue two-step, blue one-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 9, 33, "setup.start.layouts.3.1.start", ["[0, 0]", "seat 0's piece", "share a point"]),
    "off-the-board": ("""\
        - {seat: 0, edge: south, start: 14, pieces: [red one-step, red two-step, red one-step, red one-step]}
        - {seat: 1, edge: west, start: 6, pieces: [blue two-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 8, 45, "setup.start.layouts.3.0.pieces", ["run off the board", "point 17", "0 to 16"]),
    "unknown-seat": ("""\
        - {seat: 0, edge: south, start: 5, pieces: [red one-step]}
        - {seat: 3, edge: west, start: 6, pieces: [blue two-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 9, 12, "setup.start.layouts.3.1.seat", ["no seat 3", "seats 0 to 2"]),
    "seat-twice": ("""\
        - {seat: 0, edge: south, start: 5, pieces: [red one-step]}
        - {seat: 1, edge: west, start: 6, pieces: [blue two-step]}
        - {seat: 1, edge: north, start: 6, pieces: [green two-step]}
        """, 10, 12, "setup.start.layouts.3.2.seat", ["seat 1 is laid out twice"]),
    "seat-missing": ("""\
        - {seat: 0, edge: south, start: 5, pieces: [red one-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 7, 7, "setup.start.layouts.3", ["every seat", "seat 1 has no row"]),
    "unknown-colour": ("""\
        - {seat: 0, edge: south, start: 5, pieces: [red one-step, purple two-step]}
        - {seat: 1, edge: west, start: 6, pieces: [blue two-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 8, 67, "setup.start.layouts.3.0.pieces.1", ["'purple two-step'", "colour of"]),
    "unknown-kind": ("""\
        - {seat: 0, edge: south, start: 5, pieces: [red one-step]}
        - {seat: 1, edge: west, start: 6, pieces: [blue three-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 9, 52, "setup.start.layouts.3.1.pieces.0", ["'blue three-step'", "kind of"]),
    "too-many-of-a-kind": ("""\
        - {seat: 0, edge: south, start: 2, pieces: [red one-step, red one-step, red one-step, red one-step,
                                                    red one-step]}
        - {seat: 1, edge: west, start: 6, pieces: [blue two-step]}
        - {seat: 2, edge: north, start: 6, pieces: [green two-step]}
        """, 7, 7, "setup.start.layouts.3", ["5 red one-step pieces", "supply has 4"]),
}


@pytest.mark.parametrize("name", sorted(BAD_LAYOUTS))
def test_a_bad_start_layout_is_refused_at_load_where_it_is_written(tmp_path: Path, name: str) -> None:
    rows, line, column, path, words = BAD_LAYOUTS[name]
    bad = three_seat_layout(tmp_path, name, rows)
    validated = run_cli("rulesets", "validate", bad)
    assert_located(validated, bad, line, column, f"at {path}:", *words)
    played = run_cli("play", bad, "--seats", "random,random,random", "--seed", "1")
    assert_located(played, bad, line, column, f"at {path}:", *words)


def test_too_many_pieces_at_one_time_is_refused(tmp_path: Path) -> None:
    """"never more than 24 tiles are used at one time": the shipped ruleset says max_pieces: 24."""
    pieces = ", ".join(["red one-step"] * 4 + ["blue one-step"] * 4 + ["green one-step"] * 3
                       + ["yellow one-step"] * 3 + ["green two-step"] * 3)
    bad = write(tmp_path / "crowd.yaml", f"""\
        extends: klauber-1937
        id: crowd
        title: Crowded
        setup:
          start:
            layouts:
              "4":
                - {{seat: 0, edge: south, start: 0, pieces: [{pieces}]}}
                - {{seat: 1, edge: west, start: 5, pieces: [blue two-step, blue two-step]}}
                - {{seat: 2, edge: north, start: 5, pieces: [yellow two-step, yellow two-step, yellow two-step]}}
                - {{seat: 3, edge: east, start: 5, pieces: [red two-step, red two-step, red two-step]}}
        """)
    assert_located(run_cli("rulesets", "validate", bad), bad, 7, 7, "at setup.start.layouts.4:",
                   "25 pieces are laid out", "at most 24")


def test_a_seat_count_the_players_allow_without_a_layout_is_refused(tmp_path: Path) -> None:
    """Raising players.max to 5 leaves five seats with no start position: said at load, naming
    the layouts there are (which are written in the shipped file)."""
    bad = write(tmp_path / "five.yaml", """\
        extends: klauber-1937
        id: five
        title: Five players
        players: {min: 2, max: 5}
        """)
    result = run_cli("rulesets", "validate", bad)
    layouts_line = next(i for i, text in enumerate(SHIPPED.read_text().splitlines(), 1)
                        if text.strip() == "layouts:")
    assert_located(result, SHIPPED, layouts_line, 5, "at setup.start.layouts:", "players allows 2 to 5",
                   "no layout for 5 seats", "layouts for: 2, 3, 4")


def test_a_layout_removed_by_a_variant_is_missed_at_load(tmp_path: Path) -> None:
    bad = write(tmp_path / "nothree.yaml", """\
        extends: klauber-1937
        id: nothree
        title: No three
        setup:
          start:
            layouts:
              "3": null
        """)
    with pytest.raises(RulesetError, match="no layout for 3 seats"):
        load_rules(bad)


def test_the_supply_names_only_known_colours_and_kinds(tmp_path: Path) -> None:
    bad = write(tmp_path / "supply.yaml", """\
        extends: klauber-1937
        id: supply
        title: Supply
        components:
          tiles:
            supply:
              red: {one-step: 4, three-step: 1}
        """)
    assert_located(run_cli("rulesets", "validate", bad), bad, 7, 26, "at components.tiles.supply.red.three-step:",
                   "no kind 'three-step'")


@pytest.mark.parametrize("section,key,line,column,words", [
    ("match: {teams: opposite}", "match.teams", 4, 9, ["seats must pair up", "3 seats"]),
    ("turn:\n  move: {endgame_steps: -2}", "turn.move.endgame_steps", 5, 10, ["endgame_steps", "-2"]),
])
def test_other_parameters_checked_at_load(tmp_path: Path, section: str, key: str, line: int, column: int,
                                          words: list[str]) -> None:
    """Partners opposite with an odd seat count allowed, and a negative endgame step count,
    failed only once a game began (or at its endgame)."""
    bad = write(tmp_path / "other.yaml", "extends: klauber-1937\nid: other\ntitle: Other\n" + section + "\n")
    assert_located(run_cli("rulesets", "validate", bad), bad, line, column, f"at {key}:", *words)


def test_pieces_primitives_need_a_square_grid(tmp_path: Path) -> None:
    bad = write(tmp_path / "lattice.yaml", """\
        extends: parker-1939
        id: lattice
        title: Moves on a lattice
        turn:
          move: {primitive: move}
        """)
    assert_located(run_cli("rulesets", "validate", bad), bad, 5, 3, "at turn.move:", "square-grid",
                   "triangular-lattice")


def test_the_shipped_ruleset_and_its_options_still_load() -> None:
    for options in ({}, {"layout": "centred"}, {"two_players_tiles": "6"}, {"partners": "on"}):
        assert load_rules("klauber-1937", options).id == "klauber-1937"
