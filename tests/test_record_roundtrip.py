"""Records (DESIGN.md section 5): a game recorded, then audited; a record typed by hand
at a real table; a record that stops mid-game."""

from __future__ import annotations

import pytest
from helpers import play_recorded_game, read_lines, write_lines

from contack_core.records.audit import audit_record
from contack_core.records.format import RECORD_FORMAT

OPTIONAL_HEADER_KEYS = ("seed", "players", "engine", "ruleset_digest")
ACTIONS = ("play", "draw", "pass")


@pytest.fixture(params=[(2, 11), (3, 7), (4, 2024), (7, 5)], ids=lambda p: f"{p[0]}seats-seed{p[1]}")
def recorded(request, tmp_path):
    seats, seed = request.param
    path = tmp_path / "game.jsonl"
    state = play_recorded_game(seats, seed, path)
    return path, state, seats


def test_recorded_game_audits_sound_with_equal_totals(recorded):
    path, state, seats = recorded
    verdict = audit_record(path)
    assert verdict.valid and verdict.finished
    assert verdict.line is None and verdict.error is None
    assert verdict.ruleset == "parker-1939"
    assert verdict.hands == 3
    assert verdict.totals == state.scores()
    assert verdict.winners == state.winners()
    lines = read_lines(path)
    assert lines[0]["record"] == RECORD_FORMAT and len(lines[0]["seats"]) == seats
    assert verdict.events == len(lines) - 1
    totals = [sum(line["scores"][s] for line in lines[1:] if line["event"] == "hand_end")
              for s in range(seats)]
    assert totals == state.scores()


def test_record_lines_follow_the_design(recorded):
    path, state, seats = recorded
    lines = read_lines(path)
    assert lines[1] == {"event": "hand", "number": 1}
    for line in lines[1:]:
        kind = line["event"]
        if kind == "play":
            assert set(line) == {"event", "seat", "tile", "cell", "points"}
            assert isinstance(line["cell"], list) and len(line["cell"]) == 2
        elif kind == "draw":
            assert set(line) == {"event", "seat", "tile"}
        elif kind == "pass":
            assert set(line) == {"event", "seat"}
        elif kind == "deal":
            assert len(line["tiles"]) == 5
    # Each hand: a hand line, the deals in seat order, then the opening play on [0, 0].
    for number in (1, 2, 3):
        start = lines.index({"event": "hand", "number": number})
        deals = lines[start + 1:start + 1 + seats]
        assert [d["event"] for d in deals] == ["deal"] * seats
        assert [d["seat"] for d in deals] == list(range(seats))
        opening = lines[start + 1 + seats]
        assert opening["event"] == "play" and opening["cell"] == [0, 0] and opening["points"] == 0


def _typed_by_hand(lines):
    header = {k: v for k, v in lines[0].items() if k not in OPTIONAL_HEADER_KEYS}
    body = [line for line in lines[1:] if line["event"] not in ("hand_end", "game_end")]
    return [header, *body]


def test_a_record_typed_by_hand_is_sound(recorded, tmp_path):
    # "a seed alone is never enough, because a game played at a real table has none";
    # seed, players, engine and ruleset_digest are optional, as are hand_end and game_end.
    path, state, _ = recorded
    typed = _typed_by_hand(read_lines(path))
    assert "seed" not in typed[0] and all(line.get("event") not in ("hand_end", "game_end") for line in typed)
    assert any(line.get("event") == "draw" for line in typed)
    out = tmp_path / "typed.jsonl"
    write_lines(out, typed)
    verdict = audit_record(out)
    assert verdict.valid, verdict
    assert verdict.finished
    assert verdict.totals == state.scores()
    assert verdict.winners == state.winners()


def test_a_record_without_points_is_sound(recorded, tmp_path):
    # "play: seat, tile, cell; points optional (when present it is audited)".
    path, state, _ = recorded
    lines = read_lines(path)
    for line in lines:
        if line.get("event") == "play":
            del line["points"]
    out = tmp_path / "no-points.jsonl"
    write_lines(out, lines)
    verdict = audit_record(out)
    assert verdict.valid and verdict.finished and verdict.totals == state.scores()


def test_a_typed_draw_must_name_an_unseen_tile(recorded, tmp_path):
    # The audit checks "that a drawn tile was still unseen": name a tile dealt in the same
    # hand instead, and the draw line is the first bad line.
    path, _, _ = recorded
    typed = _typed_by_hand(read_lines(path))
    draws = [i for i, line in enumerate(typed) if line.get("event") == "draw"]
    i = draws[len(draws) // 2]
    dealt = next(line for line in reversed(typed[:i]) if line.get("event") == "deal")
    typed[i] = {**typed[i], "tile": dealt["tiles"][0]}
    out = tmp_path / "typed.jsonl"
    write_lines(out, typed)
    verdict = audit_record(out)
    assert not verdict.valid and verdict.line == i + 1
    assert "cannot be drawn" in verdict.error


def test_a_record_stopped_mid_game_is_sound_and_unfinished(recorded, tmp_path):
    path, state, _ = recorded
    lines = read_lines(path)
    action_indices = [i for i, line in enumerate(lines) if line.get("event") in ACTIONS]
    last_action = action_indices[-1]
    cuts = sorted({1, 2, 3, len(lines) // 3, len(lines) // 2, last_action})  # keep lines[:cut]
    for cut in cuts:
        out = tmp_path / f"cut{cut}.jsonl"
        write_lines(out, lines[:cut])
        verdict = audit_record(out)
        assert verdict.valid, (cut, verdict)
        assert verdict.finished is False, cut
        assert verdict.winners is None
    # Typed by hand and stopped mid-hand, too.
    typed = _typed_by_hand(lines)
    out = tmp_path / "typed-cut.jsonl"
    write_lines(out, typed[: len(typed) // 2])
    verdict = audit_record(out)
    assert verdict.valid and not verdict.finished
    # Up to and including the last action: finished, though no hand_end/game_end follow.
    out = tmp_path / "to-last-action.jsonl"
    write_lines(out, lines[: last_action + 1])
    verdict = audit_record(out)
    assert verdict.valid and verdict.finished and verdict.totals == state.scores()


def test_a_header_only_record_is_sound_and_unfinished(recorded, tmp_path):
    path, _, _ = recorded
    out = tmp_path / "header.jsonl"
    write_lines(out, read_lines(path)[:1])
    verdict = audit_record(out)
    assert verdict.valid and not verdict.finished and verdict.hands == 0


def test_nothing_may_follow_the_end_of_the_game(recorded, tmp_path):
    path, _, _ = recorded
    lines = read_lines(path)
    out = tmp_path / "extra.jsonl"
    write_lines(out, [*lines, {"event": "pass", "seat": 0}])
    verdict = audit_record(out)
    assert not verdict.valid and verdict.line == len(lines) + 1
