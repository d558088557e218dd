"""Scenarios from the 1939 Parker rule book (rules-sources/000_1bcf1a059fd9b701.txt) and
DESIGN.md section 4, each built by a legal sequence of plays from hands and a stock order
chosen here. Cells follow DESIGN.md 4: an up cell (x+y even) touches [x, y-1] blue to
blue, [x+1, y] red to red and [x-1, y] gold to gold; a down cell touches [x, y+1] blue,
[x-1, y] red and [x+1, y] gold. "Orange" in the rule book is the gold colour.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers import (
    ORIGIN,
    RULES,
    deal_hand,
    hand_of,
    name,
    new_game,
    play,
    ref_fit,
    ref_legal_cells,
    ref_neighbours,
    ref_plays,
    tile,
)

from contack_core import CHANCE, Deal, Draw, GameState, IllegalAction, Pass, Play, Shuffle, load_rules
from contack_core.boards.lattice import neighbours
from contack_core.engine.events import Drew, Passed
from contack_core.records.audit import audit_record


def legal_plays(state):
    return {(name(a.tile), a.cell) for a in state.legal_actions() if isinstance(a, Play)}


def snapshot(state):
    return (state.current_seat(), list(state.legal_actions()), [list(h) for h in state.seat_zones["hand"]],
            dict(state.figure.tile_at), list(state.zones["stock"]), state.scores(), len(state.hand_results))


# =========================================================================== the encyclopedia example
def test_encyclopedia_example_blue_count_then_gold_match():
    # 003 / DESIGN.md 5: "01-02-03" opens on [0, 0]; "09-02-08" on [0, -1] scores 10
    # (blue 9 against blue 1). Then 09-05-08 beside it matches gold 8 to gold 8: no score.
    state = new_game([["01-02-03", "09-05-08", "06-07-08", "07-08-09", "08-09-10"],
                      ["09-02-08", "10-06-09", "09-10-07", "05-09-10", "06-07-04"]])
    assert state.current_seat() == 0
    assert state.legal_actions() == [Play(tile("01-02-03"), ORIGIN)]
    opened = play(state, "01-02-03", (0, 0))
    assert (opened.points, opened.contacts, opened.opportunity) == (0, 0, False)
    first = play(state, "09-02-08", (0, -1))
    assert (first.seat, first.points, first.contacts, first.opportunity) == (1, 10, 1, False)
    # [0, -1] points down: its right side (gold 8) faces [1, -1], its left side (red 2)
    # faces [-1, -1]. 09-05-08 on [1, -1] puts its gold 8 on gold 8: a Matching Contact.
    second = play(state.clone(), "09-05-08", (1, -1))
    assert (second.seat, second.points, second.contacts, second.opportunity) == (0, 0, 1, False)
    # On [-1, -1] its red 5 would touch red 2: neither matches nor counts.
    with pytest.raises(IllegalAction, match="neither matches nor counts"):
        state.apply(Play(tile("09-05-08"), (-1, -1)))
    assert state.apply(Play(tile("09-05-08"), (1, -1))).points == 0


# =========================================================================== opportunity plays
def test_two_sided_opportunity_10_blue_10_blue_and_9_orange_1_orange_scores_30():
    # "Two Sided - Both Scoring: 10 Blue + 10 Blue = 20; 9 Orange + 1 Orange = 10".
    # The figure goes round the top vertex of [0, 0] and leaves [-1, 0] (a down cell) open
    # between 03-04-01 (gold 1 on its right) and 10-06-09 (blue 10 above it).
    state = new_game([["03-04-01", "05-06-03", "10-06-09", "10-03-09", "04-08-09"],
                      ["05-01-04", "02-06-07", "01-08-09", "07-08-09", "09-10-07"]])
    assert play(state, "03-04-01", (0, 0)).points == 0
    # "the numbers so joined must add to a multiple of five as, for example, 5": red 1 + red 4.
    assert play(state, "05-01-04", (1, 0)).points == 5
    # "5,5 and 10,10 are both matching and counting Contacts": blue 5 on blue 5 scores 10.
    assert play(state, "05-06-03", (1, 1)).points == 10
    assert play(state, "02-06-07", (0, 1)).points == 10          # gold 7 + gold 3
    assert play(state, "10-06-09", (-1, 1)).points == 0          # red 6 matches red 6
    assert play(state, "01-08-09", (-2, 1)).points == 0          # gold 9 matches gold 9
    hole = (-1, 0)
    last = state.figure.last
    assert last == (-2, 1) and hole not in neighbours(last)
    # "A player who sees an opening ... so that two or three sides of this Triangle will
    # match in color all the Triangles which it touches ... may play such a Triangle."
    assert hole in {cell for _, cell in legal_plays(state)}
    # "the numbers on all touching sides will form Matching or Counting Contacts":
    # 04-08-09 would count gold 9 + gold 1 but put blue 4 against blue 10.
    with pytest.raises(IllegalAction, match="blue 4 against blue 10 neither matches nor counts"):
        state.apply(Play(tile("04-08-09"), hole))
    event = play(state, "10-03-09", hole)
    assert (event.seat, event.points, event.contacts, event.opportunity) == (0, 30, 2, True)
    # "After such a play, the following player must play to the Opportunity Triangle":
    # the only open side of the hole tile is its left (red) side, [-2, 0].
    assert state.figure.last == hole
    assert ref_legal_cells(state.figure.tile_at, hole) == {(-2, 0)}
    # Seat 1's 07-08-09 and 09-10-07 show red 8 and red 10 to red 3 there: no play, so it draws.
    assert ref_plays(state.figure.tile_at, hole, state.seat_zones["hand"][1]) == set()
    assert state.legal_actions() == [Draw()]


def test_two_sided_opportunity_4_blue_matches_and_10_red_5_red_scores_15():
    # "Two Sided - Matching & Scoring: 4 Blue Matches 4 Blue; 10 Red + 5 Red = 15".
    # Round the bottom-left vertex of [0, 0]; the hole [0, -1] (down) has 04-05-02's blue 4
    # above it and 09-10-01's red 10 on its left.
    state = new_game([["04-05-02", "06-07-01", "09-10-01", "04-05-06", "08-09-10"],
                      ["07-08-02", "06-07-04", "01-08-09", "07-08-09", "09-10-07"]])
    assert [play(state, n, c).points for n, c in [
        ("04-05-02", (0, 0)), ("07-08-02", (-1, 0)), ("06-07-01", (-2, 0)), ("06-07-04", (-2, -1)),
        ("09-10-01", (-1, -1)), ("01-08-09", (-1, -2))]] == [0, 0, 15, 0, 5, 10]
    hole = (0, -1)
    assert hole not in neighbours(state.figure.last)
    event = play(state, "04-05-06", hole)
    assert (event.seat, event.points, event.contacts, event.opportunity) == (0, 15, 2, True)


THREE_SIDED_HANDS = [["05-06-03", "02-06-07", "07-08-02", "10-03-09", "09-10-01"],
                     ["08-01-07", "08-09-03", "01-08-09", "05-06-07", "09-02-08"]]
THREE_SIDED_PLAYS = [("05-06-03", (0, 0), 0), ("08-01-07", (-1, 0), 10), ("02-06-07", (-1, 1), 10),
                     ("08-09-03", (0, 1), 15), ("07-08-02", (1, 1), 5), ("01-08-09", (2, 1), 0),
                     ("10-03-09", (3, 1), 0), ("05-06-07", (3, 0), 15)]


def test_three_sided_opportunity_scores_50_and_seals_the_hand():
    # "THREE SIDED OPPORTUNITY PLAY ... 8 Blue + 7 Blue = 15, 10 Orange + 10 Orange = 20,
    # 9 Red + 6 Red = 15, Total Score 50. As this play leaves no side open on which to
    # play the hand ends."
    # The figure rings the down cell [1, 0]: 05-06-03 (red 6) on its left, 07-08-02
    # (blue 7) above, 02-09-10 (gold 10) on its right. 09-10-01 and 09-02-08 are kept back
    # and fit nowhere, so each seat has to draw its last tile (the stock order is set).
    state = new_game(THREE_SIDED_HANDS, stock_top=["02-09-10", "08-09-10"])
    for tile_name, cell, points in THREE_SIDED_PLAYS:
        assert play(state, tile_name, cell).points == points
    # Seat 0 holds only 09-10-01, which fits nowhere: "he must draw a Triangle".
    assert state.current_seat() == 0 and hand_of(state, 0) == ["09-10-01"]
    assert state.legal_actions() == [Draw()]
    drew = state.apply(Draw())
    assert isinstance(drew, Drew) and name(drew.tile) == "02-09-10"
    assert all(isinstance(a, Play) and name(a.tile) == "02-09-10" for a in state.legal_actions())
    assert play(state, "02-09-10", (2, 0)).points == 15
    # Seat 1 holds only 09-02-08: it draws 08-09-10 and fills the hole.
    assert state.current_seat() == 1 and state.legal_actions() == [Draw()]
    assert name(state.apply(Draw()).tile) == "08-09-10"
    hole = (1, 0)
    assert all(n in state.figure.tile_at for n in neighbours(hole))
    event = play(state, "08-09-10", hole)
    assert (event.seat, event.points, event.contacts, event.opportunity) == (1, 50, 3, True)
    # No other opening exists, so the hand has ended.
    [result] = state.hand_results
    assert result.reason == "sealed"
    assert result.went_out is None
    assert result.held == (1, 1)
    # Seat 0: 10 + 5 + 15 = 30, less 10 for 09-10-01; seat 1: 10 + 15 + 15 + 50 = 90, less 10.
    assert result.scores == (20, 80)
    assert state.scores() == [20, 80]
    figure = result.figure.tile_at
    assert not ref_legal_cells(figure, hole)
    # The next hand is being set up.
    assert state.hand_number == 2 and state.is_chance_node() and not state.is_over()


# =========================================================================== legal cells
WENT_OUT_HANDS = [["01-02-03", "01-08-09", "01-05-06", "09-10-01", "03-04-01"],
                  ["02-09-10", "03-04-05", "03-07-08", "05-09-10", "08-09-10"]]
WENT_OUT_PLAYS = [("01-02-03", (0, 0), 0), ("01-08-09", (1, 0), 10), ("01-05-06", (2, 0), 15),
                  ("09-10-01", (3, 0), 15), ("03-04-01", (4, 0), 0)]


def test_only_cells_next_to_the_last_tile_or_openings_are_legal():
    # "Each player must play his Triangle to the Triangle which was last played by the
    # player whose turn preceded his" (with the Opportunity Play the only exception).
    state = new_game(WENT_OUT_HANDS)
    play(state, "01-02-03", (0, 0))
    assert state.legal_actions() == [Pass()]           # seat 1: five tiles, none fits
    state.apply(Pass())
    play(state, "01-08-09", (1, 0))
    state.apply(Pass())
    # Last tile: [1, 0] (down): its empty neighbours are [1, 1] and [2, 0].
    cells = {cell for _, cell in legal_plays(state)}
    assert cells <= {(1, 1), (2, 0)}
    assert legal_plays(state) == {(name(p.tile), p.cell) for p in
                                  ref_plays(state.figure.tile_at, (1, 0), state.seat_zones["hand"][0])}
    # [0, -1] touches only [0, 0], and 01-05-06 would match its blue 1 there: still illegal.
    assert ref_fit(state.figure.tile_at, tile("01-05-06"), (0, -1)) == 0
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="neither next to the last tile played nor an opening"):
        state.apply(Play(tile("01-05-06"), (0, -1)))
    assert snapshot(state) == before
    with pytest.raises(IllegalAction, match="already taken"):
        state.apply(Play(tile("01-05-06"), (1, 0)))
    with pytest.raises(IllegalAction, match="touches no tile"):
        state.apply(Play(tile("01-05-06"), (5, 5)))
    assert snapshot(state) == before


def test_every_touching_edge_must_match_or_count():
    # "He must always match color" and the numbers must match or add to a multiple of five.
    state = new_game(WENT_OUT_HANDS)
    play(state, "01-02-03", (0, 0))
    state.apply(Pass())
    # [1, 0] (down) shows its red edge to [0, 0]'s red 2. 03-04-01 has red 4: 4 + 2 = 6.
    assert ref_fit(state.figure.tile_at, tile("03-04-01"), (1, 0)) is None
    with pytest.raises(IllegalAction, match="red 4 against red 2 neither matches nor counts"):
        state.apply(Play(tile("03-04-01"), (1, 0)))
    # 01-08-09 shows red 8: 8 + 2 = 10 counts.
    assert play(state, "01-08-09", (1, 0)).points == 10


# =========================================================================== counting contacts
def test_5_5_is_a_counting_contact_scoring_10():
    # "Note: 5,5 and 10,10 are both matching and counting Contacts, but both should be
    # considered as Counting Contacts and added to the score of the player who makes them."
    state = new_game([["04-05-02", "07-08-09", "08-09-10", "09-10-07", "10-06-09"],
                      ["04-05-06", "05-09-10", "06-07-08", "09-05-08", "07-08-05"]])
    play(state, "04-05-02", (0, 0))
    event = play(state, "04-05-06", (1, 0))            # red 5 on red 5
    assert (event.points, event.contacts) == (10, 1)


def test_10_10_is_a_counting_contact_scoring_20_and_a_plain_match_scores_nothing():
    state = new_game([["09-10-01", "10-03-09", "05-09-10", "07-08-09", "04-08-09"],
                      ["09-10-04", "09-10-07", "02-09-10", "08-09-10", "10-06-09"]])
    play(state, "09-10-01", (0, 0))
    # "A Matching Contact scores nothing": blue 9 on blue 9 (18 is no multiple of five).
    assert play(state.clone(), "09-10-04", (0, -1)).points == 0
    assert play(state, "09-10-04", (1, 0)).points == 20  # red 10 on red 10


# =========================================================================== the opener
def test_holder_of_the_lowest_tile_opens_with_it_on_the_origin():
    # "The player who is found to have the lowest Triangle plays it to the center of the
    # table ... the one with the three numbers which add up to the lowest total."
    state = new_game([["02-03-04", "09-10-07", "08-09-10", "07-08-09", "05-09-10"],
                      ["06-07-08", "03-04-01", "10-06-09", "09-10-04", "08-09-06"],
                      ["04-05-02", "06-07-04", "10-03-09", "02-09-10", "07-08-05"]])
    # Sums: 02-03-04 = 9, 03-04-01 = 8, 04-05-02 = 11: seat 1 opens with 03-04-01.
    assert state.current_seat() == 1
    assert state.legal_actions() == [Play(tile("03-04-01"), ORIGIN)]
    with pytest.raises(IllegalAction, match="opens with seat 1"):
        state.apply(Play(tile("06-07-08"), ORIGIN))
    with pytest.raises(IllegalAction):
        state.apply(Play(tile("03-04-01"), (1, 0)))
    event = state.apply(Play(tile("03-04-01"), ORIGIN))
    assert (event.seat, event.cell, event.points) == (1, ORIGIN, 0)
    # "Play passes to the left clockwise around the table": the next seat.
    assert state.current_seat() == 2


def test_equal_sums_in_one_hand_the_smaller_lowest_number_is_lower():
    # DESIGN.md 4: "Of two tiles of equal sum in one hand, the lower is the one with the
    # smaller lowest number." 08-09-03 and 09-10-01 both add up to 20.
    state = new_game([["10-03-09", "08-09-03", "09-10-01", "08-09-10", "07-08-09"],
                      ["04-08-09", "06-07-08", "09-05-08", "09-10-04", "05-09-10"]])
    assert state.current_seat() == 0
    assert state.legal_actions() == [Play(tile("09-10-01"), ORIGIN)]


def test_tie_between_players_is_broken_by_next_lowest_tiles():
    # DESIGN.md 4: "A tie between players compares their next-lowest tiles, and so on
    # (Contactack's rule: 'If a tie the next smallest, etc.'), then the lower seat number."
    # Both lowest tiles add up to 20; seat 1's next-lowest (04-08-09 = 21) is lower than
    # seat 0's (10-03-09 = 22), so seat 1 opens, with its lowest tile 08-09-03.
    state = new_game([["09-10-01", "10-03-09", "08-09-10", "07-08-09", "09-10-07"],
                      ["08-09-03", "04-08-09", "09-05-08", "09-10-04", "05-09-10"]])
    assert state.current_seat() == 1
    assert state.legal_actions() == [Play(tile("08-09-03"), ORIGIN)]


def test_tie_between_players_with_equal_sums_throughout_goes_to_the_lower_seat():
    # Sums 20, 21, 22, 23, 24 in both hands: a tie all the way, so the lower seat (0) opens
    # with its lowest tile, 08-09-03 - even though seat 1's 09-10-01 has a smaller lowest
    # number (that reading is for two tiles of one hand).
    state = new_game([["08-09-03", "04-08-09", "09-05-08", "08-09-06", "07-08-09"],
                      ["09-10-01", "06-07-08", "10-03-09", "09-10-04", "05-09-10"]])
    assert state.current_seat() == 0
    assert state.legal_actions() == [Play(tile("08-09-03"), ORIGIN)]


def test_tie_broken_by_next_lowest_when_readings_agree():
    # Seat 0's lowest 09-10-01 (20) ties seat 1's 07-08-05 (20); next-lowest 02-09-10 (21)
    # against 08-09-10 (27): seat 0 opens.
    state = new_game([["09-10-01", "02-09-10", "09-10-07", "10-06-09", "07-08-09"],
                      ["07-08-05", "08-09-10", "09-10-04", "05-09-10", "08-09-06"]])
    assert state.current_seat() == 0
    assert state.legal_actions() == [Play(tile("09-10-01"), ORIGIN)]


# =========================================================================== forced draw
DRAW_HANDS = [["01-02-03", "02-09-10", "07-08-02", "09-02-08", "04-08-09"],
              ["06-02-05", "05-09-10", "08-09-06", "06-07-08", "09-10-07"]]


def _draw_position(stock_top):
    # 01-02-03 [0,0]; 06-02-05 [1,0] (red 2 = red 2); 02-09-10 [2,0] (gold 10 + gold 5);
    # 05-09-10 [3,0] (red 9 = red 9). The open cells are then [3, 1] (wants blue 5 or 10)
    # and [4, 0] (wants gold 10 or 5); seat 0's 07-08-02, 09-02-08, 04-08-09 fit neither.
    state = new_game(DRAW_HANDS, stock_top=stock_top)
    assert [play(state, n, c).points for n, c in [
        ("01-02-03", (0, 0)), ("06-02-05", (1, 0)), ("02-09-10", (2, 0)), ("05-09-10", (3, 0))]] == [0, 0, 15, 0]
    return state


def test_forced_draw_until_five_then_pass():
    # "In the event that a player is unable to make any Contact whatsoever, and provided he
    # has less than five Triangles in his hand, he must draw ... he should draw one
    # Triangle at a time ... until the total number of Triangles in his possession is five
    # ... If he cannot play one of the five Triangles in his possession he loses his turn."
    state = _draw_position(["03-07-08", "09-10-04", "10-03-09"])
    assert state.current_seat() == 0 and len(state.seat_zones["hand"][0]) == 3
    assert state.legal_actions() == [Draw()]
    before = snapshot(state)
    for forbidden in (Pass(), Play(tile("07-08-02"), (3, 1))):
        with pytest.raises(IllegalAction):
            state.apply(forbidden)
    assert snapshot(state) == before
    assert name(state.apply(Draw()).tile) == "03-07-08"
    assert state.current_seat() == 0 and state.legal_actions() == [Draw()]
    assert name(state.apply(Draw()).tile) == "09-10-04"
    assert len(state.seat_zones["hand"][0]) == 5
    # "after which he can draw no more": five tiles, nothing fits.
    assert state.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction, match="may not draw"):
        state.apply(Draw())
    event = state.apply(Pass())
    assert isinstance(event, Passed) and event.seat == 0
    # "A pass changes nothing: the target stays the last tile played" - seat 1 (3 tiles,
    # none fitting [3, 1] or [4, 0]) must draw, and the drawn 10-03-09 fits [3, 1] only.
    assert state.current_seat() == 1 and state.figure.last == (3, 0)
    assert state.legal_actions() == [Draw()]
    assert name(state.apply(Draw()).tile) == "10-03-09"
    assert legal_plays(state) == {("10-03-09", (3, 1))}
    assert state.legal_actions() == [Play(tile("10-03-09"), (3, 1))]
    assert play(state, "10-03-09", (3, 1)).points == 15   # blue 10 + blue 5


def test_a_drawn_tile_that_can_be_played_must_be_played_at_once():
    # "If he can play this, he must do so at once."
    state = _draw_position(["05-06-07", "03-07-08"])
    assert state.legal_actions() == [Draw()]
    state.apply(Draw())
    assert state.current_seat() == 0
    actions = state.legal_actions()
    assert actions and all(isinstance(a, Play) and name(a.tile) == "05-06-07" for a in actions)
    assert {a.cell for a in actions} == {(3, 1)}            # blue 5 on blue 5
    with pytest.raises(IllegalAction, match="may not draw"):
        state.apply(Draw())
    with pytest.raises(IllegalAction):
        state.apply(Pass())
    assert play(state, "05-06-07", (3, 1)).points == 10


def test_drawing_when_a_play_exists_is_illegal():
    # "a player must always play if possible"
    state2 = new_game(DRAW_HANDS)
    play(state2, "01-02-03", (0, 0))
    assert any(isinstance(a, Play) for a in state2.legal_actions())
    before = snapshot(state2)
    with pytest.raises(IllegalAction, match=r"may not draw now: seat \d can still play \(\d tiles? fits?\)$"):
        state2.apply(Draw())
    with pytest.raises(IllegalAction, match=r"may not pass now: seat \d can still play \(\d tiles? fits?\)$"):
        state2.apply(Pass())
    assert snapshot(state2) == before


def test_named_draw_must_name_an_unseen_tile():
    state = _draw_position([])
    with pytest.raises(IllegalAction, match="cannot be drawn"):
        state.apply(Draw(tile("01-02-03")))          # on the figure
    with pytest.raises(IllegalAction, match="cannot be drawn"):
        state.apply(Draw(tile("08-09-06")))          # in seat 1's hand
    assert name(state.apply(Draw(tile("10-06-09"))).tile) == "10-06-09"


def test_with_an_empty_stock_a_player_without_a_play_passes():
    # "If all the Triangles are exhausted from the draw pile ... play continues as long as
    # possible." Seven seats leave one tile in the stock; find such a moment in seeded
    # random play.
    checked = 0
    for seed in range(50):
        rng = random.Random(seed)
        state = GameState(RULES, 7)
        while not state.is_over() and checked < 5:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            hand = state.seat_zones["hand"][state.current_seat()]
            if state.hand_number and not state.zones["stock"] and len(hand) < 5 and state.figure.tile_at:
                if not any(isinstance(a, Play) for a in legal):
                    assert legal == [Pass()]
                    with pytest.raises(IllegalAction):
                        state.apply(Draw())
                    checked += 1
            state.apply(legal[rng.randrange(len(legal))])
        if checked >= 5:
            break
    assert checked >= 5


# =========================================================================== passes
def test_a_pass_leaves_the_target_the_last_played_tile():
    # DESIGN.md 4: "A pass changes nothing: the target stays the last tile played."
    # "If a player is compelled to pass he may still play on his next turn."
    state = new_game(WENT_OUT_HANDS)
    play(state, "01-02-03", (0, 0))
    state.apply(Pass())
    play(state, "01-08-09", (1, 0))
    before = dict(state.figure.tile_at)
    state.apply(Pass())
    assert state.figure.tile_at == before and state.figure.last == (1, 0)
    # Seat 0 plays next to [1, 0] again (the tile it laid itself).
    expected = ref_plays(state.figure.tile_at, (1, 0), state.seat_zones["hand"][0])
    assert set(state.legal_actions()) == expected and expected
    assert {p.cell for p in expected} <= set(ref_neighbours((1, 0)))


# =========================================================================== end of the hand
def test_hand_ends_when_a_player_plays_out():
    # "As soon as one player has been able to play all of his Triangles ... the hand ends";
    # "all players must deduct from their score a count of 10 for each Triangle which
    # remains in their possession".
    state = new_game(WENT_OUT_HANDS)
    for i, (tile_name, cell, points) in enumerate(WENT_OUT_PLAYS):
        assert state.current_seat() == 0
        assert play(state, tile_name, cell).points == points
        if i < len(WENT_OUT_PLAYS) - 1:
            assert state.current_seat() == 1 and state.legal_actions() == [Pass()]
            state.apply(Pass())
    [result] = state.hand_results
    assert result.reason == "went_out" and result.went_out == 0
    assert result.held == (0, 5)
    assert result.scores == (40, -50)
    assert state.scores() == [40, -50]
    assert state.is_chance_node() and state.hand_number == 2


ALL_PASS_HANDS = [["01-02-03", "03-04-01", "05-01-04", "06-07-01", "02-09-10"],
                  ["03-04-05", "03-07-08", "06-07-04", "05-09-10", "06-07-08"]]


def _all_pass_hand(state):
    deal_hand(state, ALL_PASS_HANDS, stock_top=["08-09-06"])
    play(state, "01-02-03", (0, 0))
    assert state.legal_actions() == [Pass()]       # seat 1: five tiles, nothing fits
    state.apply(Pass())
    assert state.legal_actions() == [Draw()]       # seat 0: four tiles, nothing fits
    state.apply(Draw())
    assert state.legal_actions() == [Pass()]
    state.apply(Pass())


def test_hand_ends_when_everyone_passes_in_turn():
    # "the play does not stop until all players have passed and nobody is able to make a play"
    state = GameState(RULES, 2)
    _all_pass_hand(state)
    [result] = state.hand_results
    assert result.reason == "all_passed" and result.went_out is None
    assert result.held == (5, 5) and result.scores == (-50, -50)


def test_passes_must_be_consecutive_to_end_the_hand():
    # A play between passes starts the count again.
    state = new_game(WENT_OUT_HANDS)
    play(state, "01-02-03", (0, 0))
    for tile_name, cell, _ in WENT_OUT_PLAYS[1:4]:
        state.apply(Pass())
        assert not state.hand_results
        play(state, tile_name, cell)
    assert not state.hand_results


def test_three_hands_make_a_game_and_the_highest_total_wins():
    # "Three hands constitute a game and the player having the highest total score when
    # these three hands are completed Wins the Game."
    state = new_game(WENT_OUT_HANDS)
    for i, (tile_name, cell, _) in enumerate(WENT_OUT_PLAYS):
        play(state, tile_name, cell)
        if i < len(WENT_OUT_PLAYS) - 1:
            state.apply(Pass())
    assert not state.is_over()
    _all_pass_hand(state)
    assert not state.is_over() and state.hand_number == 3
    _all_pass_hand(state)
    assert state.is_over()
    assert [r.reason for r in state.hand_results] == ["went_out", "all_passed", "all_passed"]
    assert state.scores() == [40 - 50 - 50, -50 - 50 - 50]
    assert state.winners() == [0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(Pass())


def test_a_tie_makes_every_tied_seat_a_winner():
    state = GameState(RULES, 2)
    for _ in range(3):
        _all_pass_hand(state)
    assert state.is_over()
    assert state.scores() == [-150, -150]
    assert state.winners() == [0, 1]


def test_the_hands_option_changes_the_game_length():
    rules = load_rules("parker-1939", options={"hands": 1})
    state = GameState(rules, 2)
    deal_hand(state, ALL_PASS_HANDS, stock_top=["08-09-06"])
    play(state, "01-02-03", (0, 0))
    state.apply(Pass())
    state.apply(Draw())
    state.apply(Pass())
    assert state.is_over() and state.winners() == [0, 1]


# =========================================================================== illegal actions
def test_playing_a_tile_of_another_seat_is_illegal_and_says_whose_it_is():
    state = new_game(WENT_OUT_HANDS)
    play(state, "01-02-03", (0, 0))
    assert state.current_seat() == 1
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"not in seat 1's hand.*hand of seat 0"):
        state.apply(Play(tile("01-08-09"), (1, 0)))
    with pytest.raises(IllegalAction, match=r"not in seat 1's hand.*figure"):
        state.apply(Play(tile("01-02-03"), (1, 0)))
    assert snapshot(state) == before


def test_chance_outcomes_are_refused_outside_the_set_up():
    state = new_game(WENT_OUT_HANDS)
    with pytest.raises(IllegalAction):
        state.apply(Deal(1, (tile("08-09-06"),)))
    with pytest.raises(IllegalAction):
        state.apply(Shuffle("stock", tuple(state.zones["stock"])))
    fresh = GameState(RULES, 2)
    assert fresh.current_seat() == CHANCE and fresh.legal_actions() == []
    with pytest.raises(IllegalAction, match="expected a chance outcome"):
        fresh.apply(Pass())


def test_deals_must_go_to_the_seats_in_order_and_name_stock_tiles():
    state = GameState(RULES, 2)
    state.apply(Shuffle("stock", tuple(state.zones["stock"])))
    hand = tuple(tile(n) for n in WENT_OUT_HANDS[1])
    with pytest.raises(IllegalAction, match="seat 0"):
        state.apply(Deal(1, hand))
    with pytest.raises(IllegalAction, match="5 tiles"):
        state.apply(Deal(0, hand[:4]))
    with pytest.raises(IllegalAction, match="dealt twice"):
        state.apply(Deal(0, hand[:4] + hand[:1]))
    state.apply(Deal(0, hand))
    with pytest.raises(IllegalAction, match="cannot be dealt"):
        state.apply(Deal(1, hand))


def _record(lines):
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_a_record_playing_out_of_turn_is_rejected_naming_the_seat(tmp_path):
    header = {"record": "contack-record/1", "ruleset": "parker-1939", "options": {}, "seats": ["a", "b"]}
    lines = [header, {"event": "hand", "number": 1},
             {"event": "deal", "seat": 0, "tiles": WENT_OUT_HANDS[0]},
             {"event": "deal", "seat": 1, "tiles": WENT_OUT_HANDS[1]},
             {"event": "play", "seat": 0, "tile": "01-02-03", "cell": [0, 0], "points": 0},
             {"event": "pass", "seat": 1},
             {"event": "play", "seat": 1, "tile": "01-08-09", "cell": [1, 0], "points": 10}]
    path = tmp_path / "r.jsonl"
    path.write_text(_record(lines))
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == 7
    assert verdict.error == "it is a's turn, not b's"  # the seats by their names in the header
    lines[-1]["seat"] = 0
    path.write_text(_record(lines))
    verdict = audit_record(path)
    assert verdict.valid and not verdict.finished
