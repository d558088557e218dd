"""The tournament schedule: every meeting, balanced seats, duplicate deals (unit, property, scenario)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.config import Entrant
from tournaments.play import Plan, play_one
from tournaments.schedule import deal_seed, schedule, seatings


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, list[int], int, int]:
    entrants = draw(st.integers(2, 7))
    sizes = draw(st.lists(st.integers(1, entrants), min_size=1, max_size=3, unique=True))
    return entrants, sorted(sizes), draw(st.integers(1, 5)), draw(st.integers(0, 2**40))


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_every_combination_meets_on_every_deal_in_every_rotation(case: tuple[int, list[int], int, int]) -> None:
    entrants, sizes, deals, seed = case
    games = schedule(entrants, sizes, deals, seed)
    expected_meetings = {m for size in sizes for m in combinations(range(entrants), size)}
    assert {g.meeting for g in games} == expected_meetings
    per_meeting = Counter(g.meeting for g in games)
    assert all(per_meeting[m] == deals * len(m) for m in expected_meetings)
    assert len({g.key for g in games}) == len(games), "a game identity repeats"


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_each_entrant_sits_in_each_seat_once_per_deal_of_a_meeting(case: tuple[int, list[int], int, int]) -> None:
    entrants, sizes, deals, seed = case
    by_deal: dict[tuple, list] = {}
    for game in schedule(entrants, sizes, deals, seed):
        by_deal.setdefault((game.meeting, game.deal_index), []).append(game)
    for (meeting, _), games in by_deal.items():
        assert len(games) == len(meeting)
        assert len({g.deal_seed for g in games}) == 1, "the rotations of a deal must replay the same deal"
        for seat in range(len(meeting)):
            assert sorted(g.seating[seat] for g in games) == sorted(meeting)


def test_three_seat_tables_see_every_seating_over_two_deals() -> None:
    orders = set(seatings((0, 1, 2), 0)) | set(seatings((0, 1, 2), 1))
    assert len(orders) == 6


def test_deal_seeds_are_shared_by_meetings_and_differ_between_deals() -> None:
    games = schedule(4, [3], 3, seed=5)
    seeds_by_deal = {}
    for game in games:
        seeds_by_deal.setdefault(game.deal_index, set()).add(game.deal_seed)
    assert all(len(s) == 1 for s in seeds_by_deal.values())
    assert len({next(iter(s)) for s in seeds_by_deal.values()}) == 3
    assert deal_seed(5, 3, 0) != deal_seed(6, 3, 0) != deal_seed(5, 4, 0)
    assert schedule(4, [3], 3, seed=5) == games, "the schedule is a function of its inputs"


def test_solitaire_puts_every_entrant_alone_on_the_same_deals() -> None:
    games = schedule(3, [1], 2, seed=1)
    assert len(games) == 6
    for deal in (0, 1):
        same_deal = [g for g in games if g.deal_index == deal]
        assert sorted(g.seating for g in same_deal) == [(0,), (1,), (2,)]
        assert len({g.deal_seed for g in same_deal}) == 1


def _deals(record: str) -> list[tuple[int, list[str]]]:
    lines = [json.loads(line) for line in record.splitlines()]
    return [(line["seat"], line["tiles"]) for line in lines if line.get("event") == "deal"]


def test_rotations_of_a_deal_get_identical_tiles_seat_by_seat_in_every_hand() -> None:
    entrants = [Entrant(n, "random") for n in ("a", "b", "c")]
    plan = Plan("parker-1939", {}, tuple(e.name for e in entrants), tuple(e.spec() for e in entrants), "parker-1939")
    games = [g for g in schedule(3, [3], 1, seed=11)]
    results = [play_one(plan, g) for g in games]
    assert all(r.status == "ok" for r in results)
    dealt = [_deals(r.record or "") for r in results]
    assert len(dealt[0]) == 9, "three hands of three deals"
    assert dealt[0] == dealt[1] == dealt[2]
    # ... while the games themselves differ: the bots sit elsewhere, so play differs.
    assert len({r.record.split("\n", 1)[1] for r in results}) == 3


def test_a_game_depends_only_on_its_identity() -> None:
    entrants = [Entrant(n, "random") for n in ("a", "b", "c", "d")]
    plan = Plan("parker-1939", {}, tuple(e.name for e in entrants), tuple(e.spec() for e in entrants), "parker-1939")
    game = schedule(4, [2], 2, seed=3)[5]
    first, second = play_one(plan, game), play_one(plan, game)
    assert (first.scores, first.ranks, first.record) == (second.scores, second.ranks, second.record)


def test_schedule_of_the_shipped_demo_matches_its_description() -> None:
    from tournaments.config import load_config

    config = load_config("demo")
    games = schedule(len(config.entrants), config.seats, config.deals, config.seed)
    assert len(games) == config.deals * (4 * 3 + 1 * 4)
    assert Path(config.output).name == "demo-tournament"


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 5000), st.integers(1, 8))
def test_batches_cover_every_game_once_in_order_and_shrink_towards_the_end(games: int, workers: int) -> None:
    from tournaments.runner import MAX_BATCH, MIN_BATCH, split

    specs = list(range(games))  # split only counts: any items stand for the games
    batches = list(split(iter(specs), len(specs), workers))
    assert [g for batch in batches for g in batch] == specs
    sizes = [len(b) for b in batches]
    assert all(size <= MAX_BATCH for size in sizes)
    assert all(size >= MIN_BATCH for size in sizes[:-1])
    assert sizes == sorted(sizes, reverse=True)


def test_named_tables_rotate_or_play_as_they_sit() -> None:
    """An analysis names its tables: one played once as it sits, one under every rotation (the odd deal
    from the reversed order), every table of a size on the deal that size shares."""
    from tournaments.schedule import Table, games_per_deal

    tables = {3: (Table((0, 1, 2), rotate=False), Table((0, 3, 4)))}
    games = schedule(5, [3], 2, seed=7, tables=tables)
    assert games_per_deal(5, [3], tables) == 4 and len(games) == 8
    assert [g.seating for g in games] == [(0, 1, 2), (0, 3, 4), (3, 4, 0), (4, 0, 3),
                                          (0, 1, 2), (4, 3, 0), (3, 0, 4), (0, 4, 3)]
    assert len({g.deal_seed for g in games[:4]}) == 1 and games[0].deal_seed != games[4].deal_seed
