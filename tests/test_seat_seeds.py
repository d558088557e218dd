"""A seat's seed does not reveal the game's: it is a one-way hash of the game seed and the seat,
so a bot (a plugin or an exec program) cannot compute the game seed from its own seed and replay
the shuffles in a shadow game. Checked on the function and on what each way of playing hands out."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from contack_core.engine.chance import derived_seed
from contack_core.engine.referee import seat_seed
from tournaments.schedule import bot_seed, deal_seed

GAME_SEEDS = [0, 1, 2, 7, 8, 100, 2**40 + 3, 2**62, -5]


def test_a_seats_seed_is_a_hash_not_an_arithmetic_function_of_the_game_seed() -> None:
    seeds = {(game, seat): seat_seed(game, seat) for game in GAME_SEEDS for seat in range(7)}
    assert len(set(seeds.values())) == len(seeds)  # every seat of every game has its own
    for (game, seat), seed in seeds.items():
        assert seed == derived_seed("contack-seat", game, seat)
        assert 0 <= seed < 2**63
        assert seed not in (game, game * 16 + seat + 1, game + seat)  # the old, invertible formulas
    # Seeds of neighbouring games and of neighbouring seats are unrelated: no constant difference
    # or ratio links them (an invertible formula would show one).
    across_seats = {seats[1] - seats[0] for seats in ([seat_seed(g, 0), seat_seed(g, 1)] for g in range(50))}
    across_games = {seat_seed(g + 1, 0) - seat_seed(g, 0) for g in range(50)}
    assert len(across_seats) == 50 and len(across_games) == 50
    assert seat_seed(None, 0) is None


def test_the_seed_bits_look_uniform_whatever_the_game_seed() -> None:
    """Small, consecutive game seeds give seeds whose every bit is set about half the time."""
    seeds = [seat_seed(game, 0) for game in range(2000)]
    for bit in range(63):
        share = sum(seed >> bit & 1 for seed in seeds) / len(seeds)
        assert 0.43 < share < 0.57, bit


def test_tournament_seeds_come_from_the_same_function_and_are_unchanged() -> None:
    assert deal_seed(3, 2, 5) == derived_seed("contack-deal", 3, 2, 5)
    assert bot_seed(12345, "mcts") == derived_seed("contack-bot", 12345, "mcts")
    # The values stored tournaments were played with (sha256 of "contack-deal/0/2/0", 63 bits).
    assert deal_seed(0, 2, 0) == int.from_bytes(hashlib.sha256(b"contack-deal/0/2/0").digest()[:8], "big") >> 1


SPY = '''
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "protocol": "contack-bot/1", "name": "spy", "rulesets": ["*"]}), flush=True)
    elif kind == "new_game":
        log.write(json.dumps(message["seed"]) + "\\n"); log.flush()
        print(json.dumps({"type": "ready"}), flush=True)
    elif kind == "position":
        print(json.dumps({"type": "action", "index": message["legal"][0]["index"]}), flush=True)
    elif kind == "quit":
        break
'''


def test_contack_play_hands_each_seat_its_one_way_seed(tmp_path: Path) -> None:
    """An exec bot in seat 1 of `contack play --seed 7` is sent seat_seed(7, 1), nothing it can invert."""
    spy, log = tmp_path / "spy.py", tmp_path / "seeds.log"
    spy.write_text(SPY, encoding="utf-8")
    played = subprocess.run([sys.executable, "-m", "contack_core.cli", "play", "parker-1939", "--seed", "7",
                             "--seats", f"random,exec:{sys.executable} {spy} {log}", "--quiet"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert played.returncode == 0, played.stderr
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sent == [seat_seed(7, 1)]
    assert sent[0] != 7 * 16 + 1 + 1


def test_strength_games_hand_each_seat_its_one_way_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    import players.strength as strength

    given: list[object] = []
    real = strength.make_player

    def recording(spec, seed, **kwargs):  # type: ignore[no-untyped-def]
        given.append(seed)
        return real(spec, seed, **kwargs)

    monkeypatch.setattr(strength, "make_player", recording)
    strength.play_one("parker-1939", ["random", "greedy"], 11)
    assert given == [seat_seed(11, 0), seat_seed(11, 1)]
