"""Tournament configs: the schema and the checks after it give located, clear errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import run_cli

from tournaments.config import ConfigError, load_config

GOOD = """\
format: contack-tournament/1
name: small
ruleset: parker-1939
entrants:
  - {name: a, player: random}
  - {name: b, player: random}
  - {name: c, player: random}
seats: 2
deals: 2
seed: 4
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(str(path))
    return [str(p) for p in caught.value.problems]


def test_a_good_config_loads_with_defaults(tmp_path: Path) -> None:
    config = load_config(str(write(tmp_path, GOOD)))
    assert [e.name for e in config.entrants] == ["a", "b", "c"]
    assert config.seats == (2,) and config.deals == 2 and config.seed == 4
    assert config.fault_policy == "pass" and config.budget.time_per_move is None
    assert config.output == Path("tournament-small")


def test_the_shipped_demo_loads_by_name() -> None:
    config = load_config("demo")
    assert config.name == "demo" and config.ruleset == "parker-1939"
    assert len(config.entrants) == 4 and config.seats == (3, 4)


@pytest.mark.parametrize(("text", "where", "says"), [
    (GOOD.replace("deals: 2", "deals: two"), ":9:1:", 'deals: expected a whole number of deals per meeting (1 to '
     '1,000,000), found "two"'),
    (GOOD.replace("seats: 2", "seats: 9"), ":8:1:", "seats is a table size 1-7"),
    (GOOD.replace("seed: 4", "seed: 4\ncolour: red"), ":11:1:", "allowed keys"),
    (GOOD.replace("{name: b, player: random}", "{name: b, player: random, speed: 3}"), ":6:31:", "speed"),
    (GOOD.replace("{name: b, player: random}", "{name: a, player: random}"), ":6:6:",
     "'a' is already used by entrant 0"),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: nobody}"), ":7:5:", "unknown player 'nobody'"),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: 'random:x=1'}"), ":7:", "params"),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: random, params: {depth: 2}}"), ":7:5:",
     "takes no parameters"),
    (GOOD.replace("ruleset: parker-1939", "ruleset: parker-2000"), ":3:1:", "no ruleset 'parker-2000'"),
    (GOOD.replace("seats: 2", "seats: 4"), ":8:1:", "tables of 4 need at least 4 entrants"),
    (GOOD.replace("seats: 2", "seats: 1"), ":8:1:", "not tables of 1"),
    (GOOD.replace("deals: 2", "deals: [2"), ":", "not valid YAML"),
    (GOOD.replace("format: contack-tournament/1", "format: contack-tournament/9"), ":1:1:",
     'format: expected "contack-tournament/1", found "contack-tournament/9"'),
    ("- just\n- a list\n", ":1:1:", "a YAML mapping"),
    (GOOD.replace("seed: 4", "seed: 4\nfault_policy: ignore"), ":11:1:",
     'fault_policy: expected one of pass, forfeit; found "ignore"'),
    (GOOD.replace("seed: 4", "seed: 4\nbudget: {time_per_move: 0}"), ":11:10:",
     "budget.time_per_move: expected a number of seconds above 0 and at most 86400 (null for no limit), found 0"),
    (GOOD.replace("seed: 4", "seed: 4\nbudget: {time_per_move: .nan}"), ":11:10:",
     "budget.time_per_move: time_per_move is a number of seconds above 0 and at most 86400 (null for no limit), "
     "not nan"),
    (GOOD.replace("seed: 4", "seed: 4\nbudget: {time_per_move: .inf}"), ":11:10:",
     "budget.time_per_move: expected a number of seconds above 0 and at most 86400 (null for no limit), "
     "found Infinity"),
    (GOOD.replace("seed: 4", "seed: 4\nbudget: {time_per_move: 1.0e+300}"), ":11:10:", "found 1e+300"),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: 'exec:python3 bot.py'}"), ":7:15:",
     'an external bot is written player: exec, params: {command: "python3 bot.py"}'),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: exec}"), ":7:5:",
     "an exec entrant needs params: {command:"),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: exec, params: {command: nobot, move_time: 2}}"),
     ":7:54:", "takes one parameter, command, not move_time"),
    (GOOD.replace("{name: c, player: random}", "{name: c, player: exec, params: {command: nobot}}"), ":7:38:",
     "no program 'nobot' on PATH or at that path (relative paths start in "),
    # A name is letters, digits and _.+- only: a line feed at its end is not (Python's $ matches before it).
    (GOOD.replace("{name: c, player: random}", '{name: "c\\n", player: random}'), ":7:6:",
     '"c\\n" is not a name: letters, digits and _.+- only'),
    (GOOD.replace("name: small", 'name: "small\\n"'), ":2:1:", '"small\\n" is not a name'),
])
def test_bad_configs_name_the_place_and_the_reason(tmp_path: Path, text: str, where: str, says: str) -> None:
    found = problems(tmp_path, text)
    assert any(where in p and says in p and p.startswith(str(tmp_path / "t.yaml")) for p in found), found


@pytest.mark.parametrize(("options", "where", "says"), [
    ("options: {handz: 2}\n", ":11:11: at options.handz: ", "unknown option 'handz' (options of this ruleset: "),
    ("options: {hands: 0}\n", ":11:11: at options.hands: ", "option hands must be between 1 and 20, not 0"),
    ("options:\n  hand_size: 5\n  hands: 0\n", ":13:3: at options.hands: ", "option hands must be between"),
])
def test_an_option_is_blamed_at_its_own_line_not_at_the_ruleset(tmp_path: Path, options: str, where: str,
                                                                  says: str) -> None:
    """The ruleset loader cannot know where a config chose an option; the config does."""
    found = problems(tmp_path, GOOD + options)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 't.yaml'}{where}{says}"), found


def test_schema_errors_come_in_line_order_in_the_words_of_ruleset_errors(tmp_path: Path) -> None:
    """Not jsonschema's wording (\"'two' is not of type 'integer'\"), and not in the order of the key paths."""
    found = problems(tmp_path, GOOD.replace("seats: 2", "seats: eight").replace("deals: 2", "deals: two")
                     .replace("seed: 4", "seed: 4\ndeal: 3"))
    path = tmp_path / "t.yaml"
    assert found == [
        f'{path}:8:1: at seats: seats is a table size 1-7 or a list of them, not "eight"',
        f'{path}:9:1: at deals: expected a whole number of deals per meeting (1 to 1,000,000), found "two"',
        f"{path}:11:1: at deal: unexpected key 'deal'; allowed keys: budget, deals, entrants, fault_policy, format, "
        f"name, options, output, ruleset, seats, seed",
    ]


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    found = problems(tmp_path, GOOD.replace("deals: 2", "deals: 0").replace("seats: 2", "seats: 0"))
    assert len(found) == 2, found


def test_the_cli_prints_located_errors_and_exits_1_without_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("deals: 2", "deals: -1"))
    result = run_cli("tournament", "run", path, "--output", tmp_path / "out", "--quiet")
    assert result.exit_code == 1
    assert f"{path}:9:1: at deals: expected a whole number of deals per meeting (1 to 1,000,000), found -1" \
        in result.output
    assert not (tmp_path / "out").exists(), "nothing runs on a bad config"


def test_a_missing_config_is_one_clear_message(tmp_path: Path) -> None:
    result = run_cli("tournament", "run", tmp_path / "none.yaml")
    assert result.exit_code == 1
    assert "cannot read" in result.output and "demo" in result.output


def test_a_ruleset_file_is_found_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.yaml").write_text(
        "format: contack-ruleset/1\nid: mine\ntitle: Mine\nextends: parker-1939\n", encoding="utf-8")
    config = load_config(str(write(tmp_path, GOOD.replace("ruleset: parker-1939", "ruleset: rules/mine.yaml"))))
    assert config.ruleset == str((tmp_path / "rules" / "mine.yaml").resolve())


def test_a_shipped_example_is_named_examples_slash_its_name(tmp_path: Path) -> None:
    config = load_config(str(write(tmp_path, GOOD.replace("ruleset: parker-1939", "ruleset: examples/threes"))))
    assert config.ruleset == "examples/threes"


def test_an_address_without_the_ray_backend_is_refused(tmp_path: Path) -> None:
    result = run_cli("tournament", "run", write(tmp_path, GOOD), "--output", tmp_path / "out", "--address",
                     "10.0.0.1:6379", "--quiet")
    assert result.exit_code == 1 and "--address is for the ray backend" in result.output
    assert not (tmp_path / "out").exists()


def test_an_unknown_backend_is_refused(tmp_path: Path) -> None:
    result = run_cli("tournament", "run", write(tmp_path, GOOD), "--output", tmp_path / "out", "--backend", "spark")
    assert result.exit_code == 1 and "unknown backend 'spark' (backends: local, ray)" in result.output


def test_a_schedule_too_large_to_run_is_refused_at_its_deals_line(tmp_path: Path) -> None:
    entrants = "".join(f"  - {{name: e{i}, player: random}}\n" for i in range(40))
    text = GOOD.replace("  - {name: a, player: random}\n  - {name: b, player: random}\n  - {name: c, player: random}\n",
                        entrants).replace("deals: 2", "deals: 1000000")
    found = problems(tmp_path, text)
    assert found == [f"{tmp_path / 't.yaml'}:46:1: at deals: the schedule would hold 1,560,000,000 games (1,560 a "
                     f"deal x 1,000,000 deals), more than the 1,000,000 a run may hold: use fewer deals, entrants or "
                     f"table sizes (a finished run can grow later)"]


def test_an_external_bot_that_does_not_play_the_ruleset_is_refused_at_its_entrant(tmp_path: Path) -> None:
    (tmp_path / "chess.py").write_text(
        "import json, sys\nsys.stdin.readline()\nprint(json.dumps({'type': 'hello', 'protocol': 'contack-bot/1', "
        "'name': 'chessy', 'rulesets': ['chess']}), flush=True)\nsys.stdin.readline()\n", encoding="utf-8")
    entrant = f"{{name: c, player: exec, params: {{command: {sys.executable} chess.py}}}}"
    found = problems(tmp_path, GOOD.replace("{name: c, player: random}", entrant))
    assert len(found) == 1 and ":7:38: at entrants.2.params.command: " in found[0], found
    # Issue item 4: the entrant by its name in the config (c), the program by its own (chessy).
    assert f"entrant 'c', external bot 'chessy' ({sys.executable} chess.py), does not play parker-1939 (its " \
           "handshake lists: chess)" in found[0], found


def test_an_external_bot_that_does_not_start_is_refused_by_its_entrants_name(tmp_path: Path) -> None:
    (tmp_path / "mute.py").write_text("import sys\nsys.exit(4)\n", encoding="utf-8")
    entrant = f"{{name: c, player: exec, params: {{command: {sys.executable} mute.py}}}}"
    [found] = problems(tmp_path, GOOD.replace("{name: c, player: random}", entrant))
    assert ":7:38: at entrants.2.params.command: entrant 'c' did not start: external bot (" in found, found
    assert 'exited with code 4 while "hello" was awaited' in found


def without(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """As if ``module`` were not installed: importing it fails, and ``importlib.util.find_spec`` finds nothing."""
    monkeypatch.setitem(sys.modules, module, None)


def test_without_matplotlib_a_report_plot_is_refused_before_the_report(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    assert run_cli("tournament", "run", write(tmp_path, GOOD), "--output", out, "--quiet", "--workers", "1"
                   ).exit_code == 0
    without(monkeypatch, "matplotlib")
    result = run_cli("tournament", "report", out, "--plot", tmp_path / "p.png")
    assert result.exit_code == 1
    assert result.output == "error: --plot needs matplotlib, which is not installed: pip install 'contack[plot]'\n"


def test_without_ray_the_ray_backend_is_refused_before_anything_is_made(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "ray")
    out = tmp_path / "out"
    result = run_cli("tournament", "run", write(tmp_path, GOOD), "--output", out, "--backend", "ray")
    assert result.exit_code == 1
    assert result.output == "error: the ray backend needs Ray: pip install 'contack[ray]'\n"
    assert not out.exists(), "no results folder, lock or database"
