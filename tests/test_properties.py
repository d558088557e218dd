"""Properties of random Parker 1939 games (2 to 7 seats), checked against the reference
model in helpers.py and against the record auditor."""

from __future__ import annotations

import copy
import random
import tempfile
from pathlib import Path

from helpers import (
    ORIGIN,
    RULES,
    TILES,
    play_recorded_game,
    random_playout,
    read_lines,
    ref_contacts,
    ref_fit,
    ref_legal_cells,
    ref_neighbours,
    ref_plays,
    write_lines,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import Draw, GameState, IllegalAction, Pass, Play
from contack_core.engine.events import Drew, Passed, Played
from contack_core.records.audit import audit_record

SEATS = st.integers(min_value=2, max_value=7)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ALL_TILES = set(range(len(TILES)))


def rank_sum(t):
    return sum(TILES.values[t])


def assert_conserved(state):
    placed = list(state.figure.tile_at.values())
    held = [t for hand in state.seat_zones["hand"] for t in hand]
    stock = list(state.zones["stock"])
    everything = placed + held + stock
    assert len(everything) == len(TILES) == 36
    assert set(everything) == ALL_TILES  # so no duplicates either


def view(state):
    """Everything observable about a state, copied."""
    return {
        "seat": state.current_seat(),
        "legal": list(state.legal_actions()),
        "hands": [list(h) for h in state.seat_zones["hand"]],
        "stock": list(state.zones["stock"]),
        "figure": dict(state.figure.tile_at),
        "last": state.figure.last,
        "scores": state.scores(),
        "results": len(state.hand_results),
        "hand": state.hand_number,
        "over": state.is_over(),
        "chance": state.is_chance_node(),
    }


def _candidate_actions(state, rng):
    """A few actions, legal or not, to probe that apply() accepts exactly the legal ones."""
    seat = state.current_seat()
    hand = state.seat_zones["hand"][seat]
    cells = list(state.figure.tile_at) or [ORIGIN]
    out = [Draw(), Pass()]
    for _ in range(3):
        t = rng.choice(hand) if hand and rng.random() < 0.8 else rng.randrange(len(TILES))
        base = rng.choice(cells)
        cell = rng.choice((*ref_neighbours(base), base, ORIGIN))
        out.append(Play(t, cell))
    return out


@given(seats=SEATS, seed=SEEDS)
@FAST
def test_random_games_follow_the_rules(seats, seed):
    rng = random.Random(seed)
    state = GameState(RULES, seats)
    last = None
    passes = 0
    gained = [0] * seats
    hand_scores = []
    assert_conserved(state)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            assert_conserved(state)
            continue
        seat = state.current_seat()
        legal = list(state.legal_actions())
        assert legal, "a seat to act always has an action"
        assert len(set(legal)) == len(legal)
        hands = [list(h) for h in state.seat_zones["hand"]]
        hand = hands[seat]
        tile_at = dict(state.figure.tile_at)
        stock_before = list(state.zones["stock"])
        if not tile_at:
            # The opening: the holder of a lowest tile (by sum) plays it on [0, 0].
            [opening] = legal
            assert opening.cell == ORIGIN and opening.tile in hand
            assert rank_sum(opening.tile) == min(rank_sum(t) for h in hands for t in h)
            assert min((rank_sum(t), min(TILES.values[t])) for t in hand) == \
                (rank_sum(opening.tile), min(TILES.values[opening.tile]))
        else:
            expected = ref_plays(tile_at, last, hand)
            plays = {a for a in legal if isinstance(a, Play)}
            assert plays == expected
            if expected:
                assert len(legal) == len(plays), "a player must always play if possible"
            elif len(hand) < 5 and stock_before:
                assert legal == [Draw()]
            else:
                assert legal == [Pass()]
        # apply() accepts exactly what legal_actions() lists (probed on clones).
        for candidate in _candidate_actions(state, rng):
            probe = state.clone()
            if candidate in legal:
                probe.apply(candidate)
            else:
                try:
                    probe.apply(candidate)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{candidate} was applied but is not in legal_actions()")
        action = legal[rng.randrange(len(legal))]
        results_before = len(state.hand_results)
        event = state.apply(action)
        if isinstance(event, Played):
            assert (event.seat, event.tile, event.cell) == (seat, action.tile, action.cell)
            if tile_at:
                assert event.points == ref_fit(tile_at, action.tile, action.cell)
            else:
                assert event.points == 0
            assert event.contacts == ref_contacts(tile_at, action.cell)
            assert event.opportunity == (event.contacts >= 2)
            gained[seat] += event.points
            hands[seat].remove(action.tile)
            tile_at[action.cell] = action.tile
            last = action.cell
            passes = 0
        elif isinstance(event, Drew):
            assert event.seat == seat and event.tile == stock_before[-1]
            hands[seat].append(event.tile)
        else:
            assert isinstance(event, Passed) and event.seat == seat
            passes += 1
        if len(state.hand_results) > results_before:
            result = state.hand_results[-1]
            emptied = isinstance(event, Played) and not hands[seat]
            sealed = isinstance(event, Played) and not ref_legal_cells(tile_at, last)
            everyone_passed = isinstance(event, Passed) and passes == seats
            allowed = {"went_out"} if emptied else set()
            if sealed:
                allowed.add("sealed")
            if everyone_passed:
                allowed.add("all_passed")
            assert result.reason in allowed
            assert result.held == tuple(len(h) for h in hands)
            assert result.scores == tuple(gained[s] - 10 * len(hands[s]) for s in range(seats))
            assert result.figure.tile_at == tile_at
            hand_scores.append(result.scores)
            last, passes, gained = None, 0, [0] * seats
        else:
            # None of the ends of a hand has happened.
            if isinstance(event, Played):
                assert hands[seat], "played out but the hand goes on"
                assert ref_legal_cells(tile_at, last), "sealed but the hand goes on"
            if isinstance(event, Passed):
                assert passes < seats
            assert [sorted(h) for h in state.seat_zones["hand"]] == [sorted(h) for h in hands]
            assert state.figure.tile_at == tile_at
        assert_conserved(state)
    assert len(state.hand_results) == 3
    totals = [sum(scores[s] for scores in hand_scores) for s in range(seats)]
    assert state.scores() == totals
    assert state.winners() == [s for s in range(seats) if totals[s] == max(totals)]
    assert state.legal_actions() == []


@given(seats=SEATS, seed=SEEDS, steps=st.integers(min_value=0, max_value=60))
@FAST
def test_clone_is_independent(seats, seed, steps):
    rng = random.Random(seed)
    state = GameState(RULES, seats)
    random_playout(state, rng, steps)
    original = view(state)
    twin = state.clone()
    assert view(twin) == original
    # Play the clone on, past the end of the hand.
    random_playout(twin, random.Random(seed + 1), 150)
    assert view(state) == original
    # And the other way round: the original moves on, a fresh clone stays put.
    frozen = state.clone()
    frozen_view = view(frozen)
    random_playout(state, rng, 40)
    assert view(frozen) == frozen_view


# --------------------------------------------------------------------------- records
def _record(seats, seed, directory):
    path = Path(directory) / "game.jsonl"
    state = play_recorded_game(seats, seed, path)
    return path, state


@given(seats=SEATS, seed=SEEDS)
@FAST
def test_recorded_games_audit_sound_and_their_figures_match(seats, seed):
    with tempfile.TemporaryDirectory() as directory:
        path, state = _record(seats, seed, directory)
        verdict = audit_record(path)
        assert verdict.valid, verdict
        assert verdict.finished and verdict.line is None and verdict.error is None
        assert verdict.totals == state.scores() and verdict.winners == state.winners()
        assert verdict.hands == 3
        lines = read_lines(path)
        hand_ends = [line for line in lines if line.get("event") == "hand_end"]
        assert [line["number"] for line in hand_ends] == [1, 2, 3]
        assert [tuple(line["scores"]) for line in hand_ends] == [r.scores for r in state.hand_results]
        [game_end] = [line for line in lines if line.get("event") == "game_end"]
        assert game_end["totals"] == state.scores()
        assert game_end["winners"] == state.winners()
        assert lines[-1] is game_end
        # Every tile named on a line is a tile of the set.
        for line in lines[1:]:
            for name in line.get("tiles", []) + ([line["tile"]] if "tile" in line else []):
                TILES.tile(name)


ACTION_EVENTS = ("deal", "play", "draw", "pass")


def _annotate(lines):
    """For each line index: the hand it belongs to, that hand's opening tile and seat 0's deal."""
    info = []
    opening, seat0 = None, None
    for line in lines:
        kind = line.get("event")
        if kind == "hand":
            opening, seat0 = None, None
        elif kind == "deal" and line["seat"] == 0:
            seat0 = line["tiles"]
        is_opening = False
        if kind == "play" and opening is None:
            opening, is_opening = line["tile"], True
        info.append({"opening": opening, "is_opening": is_opening, "seat0": seat0})
    return info


def _corrupt(lines, seats, data):
    """Corrupt one line so that the audit must reject it; returns (lines, index, exact)."""
    info = _annotate(lines)
    kinds = ["tile", "cell", "points", "seat", "delete", "hand_score", "total"]
    kind = data.draw(st.sampled_from(kinds), label="corruption")
    lines = copy.deepcopy(lines)

    def pick(predicate):
        indices = [i for i, line in enumerate(lines) if i > 0 and predicate(i, line)]
        return data.draw(st.sampled_from(indices), label="line")

    if kind == "tile":
        i = pick(lambda i, l: (l["event"] in ("play", "draw") and not info[i]["is_opening"])
                 or (l["event"] == "deal" and l["tiles"]))
        line = lines[i]
        if line["event"] in ("play", "draw"):
            # A tile that lies on the figure already: it is in nobody's hand, not unseen.
            line["tile"] = info[i]["opening"]
        elif line["seat"] > 0:
            line["tiles"][0] = info[i]["seat0"][0]     # already dealt to seat 0
        else:
            line["tiles"][-1] = line["tiles"][0]        # the same tile twice in one deal
        return lines, i, True
    if kind == "cell":
        i = pick(lambda i, l: l["event"] == "play")
        line = lines[i]
        if info[i]["is_opening"]:
            line["cell"] = data.draw(st.sampled_from([[0, 1], [1, 0], [0, -1], [5, 5]]))
        else:
            # Taken (the origin) or touching nothing (far away).
            line["cell"] = data.draw(st.sampled_from([[0, 0], [100, -100], [-40, 7]]))
        return lines, i, True
    if kind == "points":
        i = pick(lambda i, l: l["event"] == "play")
        lines[i]["points"] += data.draw(st.sampled_from([-10, -5, -1, 1, 5, 10, 15]))
        return lines, i, True
    if kind == "seat":
        i = pick(lambda i, l: l["event"] in ACTION_EVENTS)
        shift = data.draw(st.integers(min_value=1, max_value=seats - 1))
        lines[i]["seat"] = (lines[i]["seat"] + shift) % seats
        return lines, i, True
    if kind == "delete":
        i = pick(lambda i, l: l["event"] in ACTION_EVENTS)
        del lines[i]
        return lines, i, False
    if kind == "hand_score":
        i = pick(lambda i, l: l["event"] == "hand_end")
        seat = data.draw(st.integers(min_value=0, max_value=seats - 1))
        lines[i]["scores"][seat] += data.draw(st.sampled_from([-10, -1, 1, 5, 10]))
        return lines, i, True
    i = pick(lambda i, l: l["event"] == "game_end")
    if data.draw(st.booleans(), label="totals or winners"):
        seat = data.draw(st.integers(min_value=0, max_value=seats - 1))
        lines[i]["totals"][seat] += data.draw(st.sampled_from([-10, -1, 1, 5, 10]))
    else:
        winners = lines[i]["winners"]
        others = [s for s in range(seats) if s not in winners]
        lines[i]["winners"] = winners[1:] if len(winners) > 1 or not others else sorted(winners + others[:1])
    return lines, i, True


@given(seats=SEATS, seed=SEEDS, data=st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_corrupted_record_is_rejected_at_the_corrupted_line(seats, seed, data):
    with tempfile.TemporaryDirectory() as directory:
        path, _ = _record(seats, seed, directory)
        lines = read_lines(path)
        corrupted, index, exact = _corrupt(lines, seats, data)
        assert corrupted != lines
        write_lines(path, corrupted)
        verdict = audit_record(path)
        assert not verdict.valid, (index, corrupted[index] if index < len(corrupted) else None)
        assert verdict.error
        line_number = index + 1  # the header is line 1
        if exact:
            assert verdict.line == line_number, (verdict, corrupted[index])
        else:
            assert verdict.line >= line_number, verdict
