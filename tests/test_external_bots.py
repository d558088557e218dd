"""External bots (docs/external-bots.md): the protocol's JSON forms, the seat syntax, bots
that hang, crash, talk garbage or leave children behind, and whole games end to end
against the example bots through the CLI, audited."""

from __future__ import annotations

import gc
import json
import os
import random
import shutil
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import RULES, read_lines, run_cli, tile
from processes import GONE

from contack_core import GameState
from contack_core.engine.actions import DRAW, PASS, Play
from contack_core.engine.bots import Budget, PlayerSpecError, installed_players, make_player, split_seats
from contack_core.engine.events import Played
from players.external import (
    DEFAULT_MOVE_TIME,
    DEFAULT_START_TIME,
    BotFailure,
    BotTimeout,
    ExternalPlayer,
    UnsupportedRuleset,
    parse_command,
)
from players.protocol import action_json, find_action, legal_json, position_json

REPO = Path(__file__).resolve().parent.parent
BOTS = REPO / "examples" / "external-bots"
PYTHON = sys.executable


def running(pid: int | None) -> bool:
    """Whether a process exists and is not a zombie (a killed grandchild may linger as one)."""
    if pid is None:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.parent.parent.is_dir() and Path("/proc/self").exists():
        try:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state not in ("Z", "X")
    try:  # pragma: no cover - no /proc
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def gone_soon(pid: int | None, within: float = GONE) -> bool:
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def script(tmp_path: Path, name: str, body: str) -> str:
    """A Python bot for a test: the handshake done, then ``body`` handles each message."""
    path = tmp_path / name
    path.write_text(textwrap.dedent('''\
        import json, os, subprocess, sys, time
        def send(m): print(json.dumps(m), flush=True)
        for line in sys.stdin:
            if os.environ.get("BOT_TRANSCRIPT"):
                open(os.environ["BOT_TRANSCRIPT"], "a").write(line)
            m = json.loads(line)
            t = m["type"]
            if t == "hello":
                send({"type": "hello", "protocol": "contack-bot/1", "name": "%s", "rulesets": ["*"]})
                continue
            if t == "new_game":
                send({"type": "ready"})
                continue
            if t == "quit":
                break
        ''') % name.removesuffix(".py") + textwrap.indent(textwrap.dedent(body), "    "), encoding="utf-8")
    return f"{PYTHON} {path}"


def opened_state(seed: int = 5, seats: int = 2) -> GameState:
    """A game past its set-up, at a seat's decision."""
    state = GameState(RULES, seats)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def drive_game(players: list[ExternalPlayer], seed: int) -> GameState:
    """Play one game calling the whole player interface (start_game, choose, observe, end_game)."""
    rng = random.Random(seed)
    state = GameState(RULES, len(players))
    for seat, player in enumerate(players):
        player.start_game(RULES, seat, len(players))
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_seat()
        action = players[seat].choose(state)
        event = state.apply(action)
        for player in players:
            player.observe(seat, action, event)
    for player in players:
        player.end_game(state)
    return state


# ----------------------------------------------------------------------------- the JSON forms
def test_actions_on_the_wire_name_tiles_and_cells() -> None:
    assert action_json(RULES, Play(tile("09-02-08"), (0, -1))) == {"action": "play", "tile": "09-02-08",
                                                                   "cell": [0, -1]}
    assert action_json(RULES, DRAW) == {"action": "draw"}
    assert action_json(RULES, PASS) == {"action": "pass"}


def test_a_reply_names_an_action_by_index_or_by_its_object() -> None:
    legal = [Play(tile("01-02-03"), (0, 0)), DRAW, PASS]
    assert find_action(RULES, legal, {"type": "action", "index": 1}) is DRAW
    listed = legal_json(RULES, legal)[0]
    assert find_action(RULES, legal, {"type": "action", "action": listed}) == legal[0]
    without_index = {k: v for k, v in listed.items() if k != "index"}
    assert find_action(RULES, legal, {"type": "action", "action": without_index}) == legal[0]


@pytest.mark.parametrize("reply, says", [
    ({"type": "action", "index": 3}, "not one of the 3 legal actions"),
    ({"type": "action", "index": -1}, "not one of the 3"),
    ({"type": "action", "index": True}, "whole number"),
    ({"type": "action", "index": "0"}, "whole number"),
    ({"type": "action", "action": {"action": "play", "tile": "01-02-03", "cell": [5, 5]}}, "not one of"),
    ({"type": "action"}, "neither"),
    ({"type": "move", "index": 0}, '"type": "action"'),
    ([0], '"type": "action"'),
])
def test_a_reply_naming_no_legal_action_says_why(reply: object, says: str) -> None:
    legal = [Play(tile("01-02-03"), (0, 0)), DRAW, PASS]
    with pytest.raises(ValueError, match=says):
        find_action(RULES, legal, reply)


def test_the_position_shows_hands_and_figure_but_never_the_pile_order() -> None:
    state = opened_state()
    state.apply(state.legal_actions()[0])  # the opening play
    position = position_json(state)
    assert position["to_move"] == state.current_seat()
    assert position["pile"] == len(state.zones["stock"]) > 0
    assert [len(hand) for hand in position["hands"]] == [len(h) for h in state.seat_zones["hand"]]
    assert position["figure"] == [{"cell": [0, 0], "tile": RULES.tiles.names[state.figure.tile_at[(0, 0)]],
                                   "rotation": 0}]
    text = json.dumps(position)
    for pile_tile in state.zones["stock"]:
        assert RULES.tiles.names[pile_tile] not in text
    assert position["scores"] == state.scores()


# ----------------------------------------------------------------------------- seat syntax
def test_exec_seats_keep_their_commas_when_quoted() -> None:
    assert split_seats("exec:node bot.js,random") == ["exec:node bot.js", "random"]
    assert split_seats('"exec:python bot.py 1,2",random') == ["exec:python bot.py 1,2", "random"]
    assert split_seats("exec:python bot.py '1,2',random") == ["exec:python bot.py '1,2'", "random"]
    # key=value pieces continue a bot's parameters, but an exec seat takes none.
    assert split_seats("exec:python bot.py,level=3") == ["exec:python bot.py", "level=3"]
    assert split_seats("mcts:iterations=400,c=2,random") == ["mcts:iterations=400,c=2", "random"]


def test_exec_is_an_installed_player_and_builds_an_external_player() -> None:
    assert "exec" in installed_players()
    player = make_player(f"exec:{PYTHON} {BOTS / 'first_bot.py'} '--an arg'", seed=4)
    assert isinstance(player, ExternalPlayer)
    assert player.argv == [PYTHON, str(BOTS / "first_bot.py"), "--an arg"]
    assert player.pid is None  # nothing runs before the game starts


@pytest.mark.parametrize("command, says", [
    ("", "needs a command"),
    ("no-such-program-here --x", "no program 'no-such-program-here'"),
    ("python 'unbalanced", "quotation"),
])
def test_a_bad_exec_command_is_a_seat_error(command: str, says: str) -> None:
    with pytest.raises(PlayerSpecError, match=says):
        parse_command(command)


def test_a_bad_exec_seat_is_one_clear_cli_message() -> None:
    result = run_cli("play", "parker-1939", "--seats", "exec:no-such-program-here,random")
    assert result.exit_code != 0
    assert "no program 'no-such-program-here'" in result.output


# ----------------------------------------------------------------------------- faulty bots
def test_a_hanging_bot_is_killed_at_its_time_limit(tmp_path: Path) -> None:
    player = ExternalPlayer(seed=1, command=script(tmp_path, "hangs.py", '''
        if t == "position":
            time.sleep(600)
        '''), move_time=0.5)
    state = opened_state()
    started = time.monotonic()
    with pytest.raises(BotFailure, match=r"did not answer with \"action\" within 0.5 s; killed") as failure:
        player.choose(state)
    assert time.monotonic() - started < GONE  # a guard: the bot would sleep for 600 s
    assert failure.value.killed
    assert "hangs" in failure.value.reason
    assert gone_soon(player.pid)
    # Later requests fail at once, naming the first failure: no process is started to ask.
    with pytest.raises(BotFailure, match="earlier in this game"):
        player.choose(state)
    assert not running(player.pid)
    player.close()


def test_a_crashing_bot_is_reported_with_its_exit_code_and_stderr(tmp_path: Path) -> None:
    player = ExternalPlayer(seed=1, command=script(tmp_path, "crashes.py", '''
        if t == "position":
            print("my evaluation blew up", file=sys.stderr, flush=True)
            sys.exit(3)
        '''), move_time=5)
    with pytest.raises(BotFailure, match="exited with code 3.*my evaluation blew up"):
        player.choose(opened_state())
    assert gone_soon(player.pid)


def test_a_bot_talking_garbage_is_killed(tmp_path: Path) -> None:
    player = ExternalPlayer(seed=1, command=script(tmp_path, "garbage.py", '''
        if t == "position":
            print("bestmove e2e4", flush=True)
            time.sleep(600)
        '''), move_time=5)
    with pytest.raises(BotFailure, match="'bestmove e2e4', which is not a JSON object"):
        player.choose(opened_state())
    assert gone_soon(player.pid)


def test_a_bot_answering_out_of_turn_is_killed(tmp_path: Path) -> None:
    player = ExternalPlayer(seed=1, command=script(tmp_path, "rude.py", '''
        if t == "position":
            send({"type": "ready"})
        '''), move_time=5)
    with pytest.raises(BotFailure, match='where an "action" message was awaited'):
        player.choose(opened_state())
    assert gone_soon(player.pid)


def test_a_bot_answering_new_game_out_of_turn_is_told_which_message_was_awaited(tmp_path: Path) -> None:
    """Issue item 2: the article before the awaited type was always "a" ('a "action"')."""
    early = tmp_path / "early.py"
    early.write_text('import json\ninput()\nprint(json.dumps({"type": "hello", "protocol": "contack-bot/1", '
                     '"rulesets": ["*"]}), flush=True)\ninput()\nprint(json.dumps({"type": "action", "index": 0}), '
                     'flush=True)\ninput()\n', encoding="utf-8")
    player = ExternalPlayer(seed=1, command=f"{PYTHON} {early}")
    with pytest.raises(BotFailure, match='where a "ready" message was awaited; killed'):
        player.start_game(RULES, 0, 2)
    assert gone_soon(player.pid)


def test_a_bot_choosing_an_illegal_action_fails_the_move_but_keeps_running(tmp_path: Path) -> None:
    player = ExternalPlayer(seed=1, command=script(tmp_path, "illegal.py", '''
        if t == "position":
            send({"type": "action", "index": len(m["legal"]) + 7})
        '''), move_time=5)
    with pytest.raises(BotFailure, match="chose no legal action: index 8") as failure:
        player.choose(opened_state())
    assert not failure.value.killed
    assert running(player.pid)
    player.close()
    assert gone_soon(player.pid)


def test_a_bot_that_never_shakes_hands_is_killed_at_the_start_limit(tmp_path: Path) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text("import time\ntime.sleep(600)\n", encoding="utf-8")
    player = ExternalPlayer(seed=1, command=f"{PYTHON} {silent}", start_time=0.5)
    with pytest.raises(BotFailure, match=r'"hello" within 0.5 s'):
        player.start_game(RULES, 0, 2)
    assert gone_soon(player.pid)


def test_a_bot_that_speaks_another_protocol_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.py"
    other.write_text('import json\ninput()\nprint(json.dumps({"type": "hello", "protocol": "uci", '
                     '"rulesets": ["*"]}), flush=True)\ninput()\n', encoding="utf-8")
    player = ExternalPlayer(seed=1, command=f"{PYTHON} {other}")
    with pytest.raises(BotFailure, match="speaks protocol 'uci'"):
        player.start_game(RULES, 0, 2)
    assert gone_soon(player.pid)


def test_a_bot_that_does_not_play_the_ruleset_is_a_seat_error(tmp_path: Path) -> None:
    picky = tmp_path / "picky.py"
    picky.write_text('import json\ninput()\nprint(json.dumps({"type": "hello", "protocol": "contack-bot/1", '
                     '"name": "picky", "rulesets": ["some-other-game"]}), flush=True)\ninput()\n',
                     encoding="utf-8")
    player = ExternalPlayer(seed=1, command=f"{PYTHON} {picky}")
    with pytest.raises(UnsupportedRuleset, match="does not play parker-1939.*some-other-game") as failure:
        player.start_game(RULES, 0, 2)
    assert isinstance(failure.value, PlayerSpecError)
    assert gone_soon(player.pid)
    # contack play asks before the game: a seat that cannot begin is bad input, and nothing is played.
    record = tmp_path / "g.jsonl"
    result = run_cli("play", "parker-1939", "--seats", f"random,exec:{PYTHON} {picky}", "--record", record)
    assert result.exit_code == 1
    assert "seat 1: external bot" in result.output and "does not play parker-1939" in result.output
    assert "wins" not in result.output and not record.exists()


def test_a_bot_that_cannot_start_is_refused_before_the_game(tmp_path: Path) -> None:
    result = run_cli("play", "parker-1939", "--seats", f"exec:{PYTHON} {tmp_path / 'nosuch_bot.py'},random")
    assert result.exit_code == 1
    assert result.output.startswith("error: seat 0: external bot") and "nosuch_bot.py" in result.output
    assert "FAULT" not in result.output and "wins" not in result.output


def test_a_bot_and_everything_it_started_are_killed(tmp_path: Path) -> None:
    child_pid_file = tmp_path / "child.pid"
    player = ExternalPlayer(seed=1, command=script(tmp_path, "forks.py", f'''
        if t == "position":
            child = subprocess.Popen(["{PYTHON}", "-c", "import time; time.sleep(600)"])
            open({str(child_pid_file)!r}, "w").write(str(child.pid))
            time.sleep(600)
        '''), move_time=1.5)
    with pytest.raises(BotFailure, match="within 1.5 s"):
        player.choose(opened_state())
    child = int(child_pid_file.read_text())
    assert gone_soon(player.pid)
    assert gone_soon(child)


def test_a_bot_that_never_reads_its_input_cannot_block_the_engine(tmp_path: Path) -> None:
    deaf = tmp_path / "deaf.py"
    deaf.write_text('import json, sys, time\nsys.stdin.readline()\nprint(json.dumps({"type": "hello", '
                    '"protocol": "contack-bot/1", "rulesets": ["*"]}), flush=True)\nsys.stdin.readline()\n'
                    'print(json.dumps({"type": "ready"}), flush=True)\ntime.sleep(600)\n', encoding="utf-8")
    player = ExternalPlayer(seed=1, command=f"{PYTHON} {deaf}", quit_time=0.2)
    state = opened_state()
    player.start_game(RULES, 0, 2)
    started = time.monotonic()
    action = state.legal_actions()[0]
    for _ in range(2000):  # megabytes of observations the bot never reads
        player.observe(0, action, None)
    assert time.monotonic() - started < GONE  # a guard: a blocked write would wait 600 s
    player.close()
    assert gone_soon(player.pid)


# ----------------------------------------------------------------------------- lifetime
def test_close_says_quit_and_leaves_no_process() -> None:
    player = ExternalPlayer(seed=1, command=[PYTHON, str(BOTS / "first_bot.py")])
    player.start_game(RULES, 0, 2)
    pid = player.pid
    assert running(pid)
    player.close()
    assert gone_soon(pid)
    player.close()  # twice is harmless


def test_a_player_dropped_without_close_leaves_no_process() -> None:
    player = ExternalPlayer(seed=1, command=[PYTHON, str(BOTS / "first_bot.py")])
    player.start_game(RULES, 0, 2)
    pid = player.pid
    del player
    gc.collect()
    assert gone_soon(pid)


def test_a_killed_bot_is_started_afresh_for_the_next_game(tmp_path: Path) -> None:
    player = ExternalPlayer(seed=1, command=script(tmp_path, "hangs_once.py", f'''
        if t == "position":
            marker = {str(tmp_path / "hung")!r}
            if not os.path.exists(marker):
                open(marker, "w").close()
                time.sleep(600)
            send({{"type": "action", "index": 0}})
        '''), move_time=1)
    with pytest.raises(BotFailure):
        player.choose(opened_state())
    first = player.pid
    player.start_game(RULES, 0, 2)
    assert player.pid != first and running(player.pid)
    state = opened_state()
    assert player.choose(state) in state.legal_actions()
    player.close()


# ----------------------------------------------------------------------------- the game's budget
HANGS_ON_POSITION = '''
    if t == "position":
        time.sleep(600)
    '''


def test_the_move_limit_is_the_games_budget_and_the_start_limit_stays_sensible() -> None:
    player = ExternalPlayer(seed=1, command=f"{PYTHON} -c pass")
    assert (player.move_limit, player.start_limit) == (DEFAULT_MOVE_TIME, DEFAULT_START_TIME)
    player.budget = Budget(time_per_move=0.05)  # a short move budget never shortens the start
    assert (player.move_limit, player.start_limit) == (0.05, DEFAULT_START_TIME)
    player.budget = Budget(time_per_move=30.0)  # a long one lengthens it
    assert (player.move_limit, player.start_limit) == (30.0, 30.0)
    # The player's own limits: a shorter move_time wins over the budget; start_time replaces the default.
    own = ExternalPlayer(seed=1, command=f"{PYTHON} -c pass", move_time=2, start_time=1)
    own.budget = Budget(time_per_move=30.0)
    assert (own.move_limit, own.start_limit) == (2.0, 1.0)
    own.budget = Budget(time_per_move=0.5)
    assert own.move_limit == 0.5


def test_a_hanging_bot_is_killed_at_the_games_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcript = tmp_path / "transcript.jsonl"
    monkeypatch.setenv("BOT_TRANSCRIPT", str(transcript))
    player = ExternalPlayer(seed=1, command=script(tmp_path, "hangs.py", HANGS_ON_POSITION))
    player.budget = Budget(time_per_move=0.01)
    player.start_game(RULES, 0, 2)  # starting Python takes longer than the move budget: still fine
    player.budget = Budget(time_per_move=0.3)
    with pytest.raises(BotTimeout, match=r'did not answer with "action" within 0.3 s; killed'):
        player.choose(opened_state())  # the game's budget, not the default of DEFAULT_MOVE_TIME
    assert gone_soon(player.pid)
    [new_game] = [m for m in read_lines(transcript) if m["type"] == "new_game"]
    assert new_game["time_per_move"] == 0.01  # the bot is told its limit


def _faults(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line.get("event") == "fault"]


def test_contack_play_time_limit_is_the_external_bots_limit(tmp_path: Path) -> None:
    """The fault is the bot's own timeout at --time-limit: it names the bot and says it was killed."""
    slow = script(tmp_path, "slow.py", HANGS_ON_POSITION)
    record = tmp_path / "game.jsonl"
    result = run_cli("play", "parker-1939", "--seats", f"exec:{slow},random", "--seed", 1, "--option", "hands=1",
                     "--time-limit", "0.3", "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    first = _faults(read_lines(record))[0]
    assert first["seat"] == 0 and first["kind"] == "timeout"
    assert first["reason"].startswith("external bot 'slow'")
    assert first["reason"].endswith('did not answer with "action" within 0.3 s; killed')
    assert run_cli("audit", record).exit_code == 0


def test_a_tournament_budget_is_the_external_bots_limit(tmp_path: Path) -> None:
    from tournaments.play import FORFEIT, Plan, play_one
    from tournaments.schedule import GameSpec

    slow = script(tmp_path, "slow.py", HANGS_ON_POSITION)
    plan = Plan(ruleset="parker-1939", options={"hands": 1}, names=("slow", "random"),
                specs=(f"exec:{slow}", "random"), record_ruleset="parker-1939",
                budget=Budget(time_per_move=0.3), fault_policy="forfeit")
    result = play_one(plan, GameSpec(deal_seed=3, seating=(0, 1), deal_index=0, meeting=(0, 1), rotation=0))
    assert result.status == FORFEIT
    [fault] = result.faults
    assert fault["kind"] == "timeout" and fault["seat"] == 0
    assert 'did not answer with "action" within 0.3 s; killed' in fault["reason"]


@pytest.mark.parametrize(("body", "kind", "says"), [
    ('if t == "position":\n    send({"type": "action", "index": 999})\n', "illegal",
     "chose no legal action: index 999 is not one of the"),
    ('if t == "position":\n    print("bestmove e2e4", flush=True)\n', "raised",
     "replied 'bestmove e2e4', which is not a JSON object"),
], ids=["illegal", "garbage"])
def test_an_external_bots_fault_has_its_kind_and_the_bots_own_words(tmp_path: Path, body: str, kind: str,
                                                                      says: str) -> None:
    """Issue item 1: every external fault was kind "raised", worded "choose raised BotFailure: ..."."""
    record = tmp_path / "game.jsonl"
    result = run_cli("play", "parker-1939", "--seats", f"exec:{script(tmp_path, 'mine.py', body)},random",
                     "--seed", 1, "--option", "hands=1", "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    first = _faults(read_lines(record))[0]
    assert first["kind"] == kind and first["reason"].startswith("external bot 'mine' ("), first
    assert says in first["reason"]
    assert "BotFailure" not in result.output + first["reason"] and "choose raised" not in result.output
    assert f"FAULT ({kind}): external bot 'mine'" in result.output
    assert run_cli("audit", record).exit_code == 0


#: A bot that plays the first legal action, but fails as ``how`` says when it could draw or pass.
FAILS_WHEN_IT_COULD_PASS = '''
    if t == "position":
        if any(a["action"] in ("draw", "pass") for a in m["legal"]):
            %s
        send({"type": "action", "index": 0})
    '''


@pytest.mark.parametrize(("how", "kind", "says"), [
    ('print("garbage", flush=True); continue', "raised", "which is not a JSON object"),
    ("sys.exit(3)", "raised", "exited with code 3"),
    ("time.sleep(600)", "timeout", 'did not answer with "action" within 0.5 s'),
], ids=["garbage", "exits", "hangs"])
def test_a_dead_external_bot_forfeits_at_once_under_the_pass_policy(tmp_path: Path, how: str, kind: str,
                                                                     says: str) -> None:
    """Issue item 3: a killed bot's every later move faulted again ("earlier in this game") and
    became a pass or draw, until a turn allowed neither; a dead program cannot go on."""
    command = script(tmp_path, "dies.py", FAILS_WHEN_IT_COULD_PASS % how)
    record = tmp_path / "game.jsonl"
    result = run_cli("play", "parker-1939", "--seats", f"exec:{command},random", "--seed", 1, "--fault", "pass",
                     "--time-limit", "0.5", "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    [fault] = _faults(read_lines(record))
    assert fault["kind"] == kind and fault["penalty"] == "forfeit" and says in fault["reason"], fault
    assert "earlier in this game" not in result.output and "forfeits the game" in result.output
    assert run_cli("audit", record).exit_code == 0


# ----------------------------------------------------------------------------- whole games
def test_the_protocol_transcript_of_a_whole_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message a bot receives, in order, as docs/external-bots.md describes them."""
    transcript = tmp_path / "transcript.jsonl"
    monkeypatch.setenv("BOT_TRANSCRIPT", str(transcript))
    command = script(tmp_path, "recorder.py", '''
        if t == "position":
            send({"type": "log", "message": "thinking"})
            send({"type": "action", "action": {k: v for k, v in m["legal"][-1].items()}})
        ''')
    players = [ExternalPlayer(seed=f"s{seat}", command=command) for seat in range(3)]
    try:
        state = drive_game(players, seed=11)
    finally:
        for player in players:
            player.close()
    messages = read_lines(transcript)
    kinds = [m["type"] for m in messages]
    assert kinds.count("hello") == 3 and kinds.count("quit") == 3 and kinds.count("game_end") == 3
    new_games = sorted((m["seat"], m["seats"], m["seed"], m["ruleset"]) for m in messages if m["type"] == "new_game")
    assert new_games == [(0, 3, "s0", "parker-1939"), (1, 3, "s1", "parker-1939"), (2, 3, "s2", "parker-1939")]
    positions = [m for m in messages if m["type"] == "position"]
    assert positions and all([a["index"] for a in m["legal"]] == list(range(len(m["legal"]))) for m in positions)
    assert all(m["position"]["to_move"] == m["seat"] for m in positions)
    observed = [m for m in messages if m["type"] == "observe"]
    assert len(observed) == 3 * len(positions)  # every seat hears every decision
    plays = [m for m in observed if m["event"]["kind"] == "played"]
    assert all(m["event"]["tile"] == m["action"]["tile"] and "points" in m["event"] for m in plays)
    ends = [m for m in messages if m["type"] == "game_end"]
    assert all(m["scores"] == state.scores() and m["winners"] == state.winners() for m in ends)
    assert all(len(m["hand_scores"]) == 3 for m in ends)


def _play_and_audit(tmp_path: Path, seats: str, seed: int, name: str) -> list[dict]:
    record = tmp_path / name
    result = run_cli("play", "parker-1939", "--seats", seats, "--seed", seed, "--record", record, "--quiet")
    assert result.exit_code == 0, result.output
    verdict = run_cli("audit", "--json", record)
    assert verdict.exit_code == 0, verdict.output
    audited = json.loads(verdict.stdout)
    assert audited["valid"] is True and audited["finished"] is True, audited
    return read_lines(record)


def test_a_python_external_bot_plays_whole_audited_games(tmp_path: Path) -> None:
    seats = f'"exec:{PYTHON} {BOTS / "first_bot.py"}",random,random'
    lines = _play_and_audit(tmp_path, seats, 5, "first.jsonl")
    assert lines[0]["players"][0].startswith("exec:")
    assert lines[-1]["event"] == "game_end"
    # first_bot takes legal[0]: its plays are real plays (not only passes)
    assert any(line.get("event") == "play" and line["seat"] == 0 for line in lines[2:])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH: the Node.js example bot cannot run")
def test_the_node_random_bot_plays_whole_audited_games_reproducibly(tmp_path: Path) -> None:
    seats = f"exec:node {BOTS / 'random_bot.js'},random"
    first = _play_and_audit(tmp_path, seats, 9, "a.jsonl")
    again = _play_and_audit(tmp_path, seats, 9, "b.jsonl")
    assert first == again  # the bot is seeded through new_game
    other = _play_and_audit(tmp_path, seats, 10, "c.jsonl")
    assert other != first
    bots_seat_events = [line for line in first if line.get("seat") == 0 and line.get("event") in ("play", "draw")]
    assert bots_seat_events


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH: the Node.js example bot cannot run")
def test_node_and_python_bots_share_a_table_with_a_builtin_bot(tmp_path: Path) -> None:
    seats = f"exec:node {BOTS / 'random_bot.js'},random,exec:{PYTHON} {BOTS / 'first_bot.py'},random"
    lines = _play_and_audit(tmp_path, seats, 2, "mixed.jsonl")
    assert len(lines[0]["seats"]) == 4


def test_played_events_carry_what_bots_are_told(tmp_path: Path) -> None:
    """The observe message's event is the engine's event: a play's points are the rule's."""
    player = ExternalPlayer(seed=1, command=[PYTHON, str(BOTS / "first_bot.py")])
    state = opened_state()
    player.start_game(RULES, 0, 2)
    event = state.apply(state.legal_actions()[0])
    assert isinstance(event, Played)
    from players.protocol import event_json

    assert event_json(RULES, event) == {"kind": "played", "seat": event.seat, "tile": RULES.tiles.names[event.tile],
                                        "cell": list(event.cell), "points": event.points,
                                        "contacts": event.contacts, "opportunity": event.opportunity}
    player.close()
