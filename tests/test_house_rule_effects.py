"""Each house-rule example of rulesets/examples/ takes effect in played games: random games
are traced step by step (the state before and after every action) and each rule is checked
where it acts, against what the same games do under the ruleset it changes.

(The examples' loading, records and audits are tested in test_house_rules.py for them all.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest
from helpers import run_cli

from contack_core import GameState, load_rules
from contack_core.engine.actions import Action, Deal, Discard, Draw, Move, Pass, Play
from contack_core.engine.ruleset_faults import RulesetFault
from contack_core.boards.grid import PieceBoard
from contack_core.boards.lattice import cells_at, corners, line_lengths, neighbours
from contack_core.engine.events import Moved
from contack_core.engine.rules import Rules

PARKER = load_rules("parker-1939")


@attrs.frozen
class Step:
    before: GameState
    action: Action
    after: GameState

    @property
    def seat(self) -> int:
        return self.before.current_seat()

    def gained(self, counter: str = "score") -> list[int]:
        """What the action changed each seat's running total by (within one hand)."""
        return [(self.after.totals[counter][s] + self.after.hand_gains[counter][s])
                - (self.before.totals[counter][s] + self.before.hand_gains[counter][s])
                for s in range(self.before.seat_count)]

    @property
    def ended_hand(self) -> bool:
        return len(self.after.hand_results) > len(self.before.hand_results)


def traced(rules: Rules, seats: int, seed: int) -> Iterator[Step]:
    """Every decision of one random game (chance steps applied in between, not yielded)."""
    rng = random.Random(seed)
    state = GameState(rules, seats)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        before = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply(action)
        yield Step(before, action, state.clone())


def games(ruleset: str | Rules, seats: int, seeds: range = range(8)) -> list[list[Step]]:
    rules = ruleset if isinstance(ruleset, Rules) else load_rules(ruleset)
    return [list(traced(rules, seats, seed)) for seed in seeds]


def final(steps: list[Step]) -> GameState:
    return steps[-1].after


# ---------------------------------------------------------------------------- 1. play to N
@pytest.mark.parametrize("seats", [2, 4])
def test_play_to_200_stops_at_the_first_hand_end_with_a_total_of_200(seats: int) -> None:
    longer = 0
    for steps in games("play-to-200", seats):
        state = final(steps)
        running = [0] * seats
        for number, result in enumerate(state.hand_results, 1):
            running = [total + score for total, score in zip(running, result.scores)]
            reached = max(running) >= 200
            last = number == len(state.hand_results)
            assert reached == last or (last and number == 30), (number, running)
        assert state.scores() == running
        longer += len(state.hand_results) > 3
    assert longer, "no game went past Parker's three hands"


# ---------------------------------------------------------------------------- 2. which cells
def test_no_opportunity_plays_every_play_goes_next_to_the_last_tile() -> None:
    plays = 0
    for steps in games("no-opportunity-plays", 3):
        for step in steps:
            if isinstance(step.action, Play) and step.before.figure.tile_at:
                plays += 1
                assert step.action.cell in step.before.figure.free_next_to_last, step.action
    assert plays > 50
    # Parker's players, on the same deals, do play into openings away from the last tile.
    away = [step for steps in games(PARKER, 3) for step in steps if isinstance(step.action, Play)
            and step.before.figure.tile_at and step.action.cell not in step.before.figure.free_next_to_last]
    assert away


def test_any_exposed_side_plays_against_single_tiles_away_from_the_last() -> None:
    away = 0
    for steps in games("any-exposed-side", 3):
        for step in steps:
            if isinstance(step.action, Play) and step.before.figure.tile_at:
                touching = step.before.figure.touching(step.action.cell)
                assert touching >= 1
                away += touching == 1 and step.action.cell not in step.before.figure.free_next_to_last
    assert away > 10, "no play went to a lone exposed side away from the last tile"


# ---------------------------------------------------------------------------- 3. events that pay
def test_a_pass_pays_5_to_the_next_seat() -> None:
    passes = 0
    for steps in games("pass-pays-next", 4):
        for step in steps:
            if isinstance(step.action, Pass) and not step.ended_hand:
                passes += 1
                expected = [0] * 4
                expected[step.seat] -= 5
                expected[(step.seat + 1) % 4] += 5
                assert step.gained() == expected
            elif isinstance(step.action, Play):
                assert step.gained()[step.seat] >= 0  # plays score as in Parker
    assert passes > 20


def test_each_draw_costs_the_drawer_2() -> None:
    draws = 0
    for steps in games("draws-cost", 3):
        for step in steps:
            if isinstance(step.action, Draw):
                draws += 1
                expected = [0] * 3
                expected[step.seat] = -2
                assert step.gained() == expected
    assert draws > 20


# ---------------------------------------------------------------------------- 5. what a play made
def test_two_counting_contacts_score_double() -> None:
    rules = load_rules("double-for-two-counts")
    doubled = 0
    for steps in games(rules, 3, range(20)):
        for step in steps:
            if isinstance(step.action, Play) and step.before.figure.tile_at and not step.ended_hand:
                contacts = rules.placement.contacts_of(step.after.figure, step.action.cell)
                counting = sum(c["counting"] for c in contacts)
                points = sum(c["points"] for c in contacts)
                assert step.gained()[step.seat] == (2 * points if counting >= 2 else points)
                doubled += counting >= 2
    assert doubled, "no play made two counting contacts"


def test_the_most_counting_contacts_win_50_at_the_end() -> None:
    rules = load_rules("most-counts-bonus")
    for steps in games(rules, 3):
        state = final(steps)
        made = [0, 0, 0]
        for step in steps:
            if isinstance(step.action, Play) and step.before.figure.tile_at:
                figure = step.after.hand_results[-1].figure if step.ended_hand else step.after.figure
                made[step.seat] += sum(c["counting"] for c in rules.placement.contacts_of(figure, step.action.cell))
        assert state.totals["counts"] == made
        bonus = [50 if count == max(made) else 0 for count in made]
        assert state.final_gains["score"] == bonus
        hands = [sum(result.scores[s] for result in state.hand_results) for s in range(3)]
        assert state.scores() == [h + b for h, b in zip(hands, bonus)]


# ---------------------------------------------------------------------------- hand ends by state
def test_the_hand_ends_once_the_pile_is_drawn_out() -> None:
    ended = 0
    for steps in games("stock-out-ends-hand", 7):
        for step in steps:
            empty = not step.after.zones["stock"] and not step.before.chance
            if isinstance(step.action, (Play, Pass)) and empty and step.after.hand_number == step.before.hand_number \
                    and not step.after.is_over():
                pytest.fail(f"hand {step.before.hand_number} went on with the pile empty")
            if step.ended_hand:
                result = step.after.hand_results[-1]
                if result.reason == "stock_out":
                    ended += 1
                    assert not step.before.zones["stock"] or isinstance(step.action, Play)
    assert ended > 5


# ---------------------------------------------------------------------------- 4. two discard piles
def test_two_discard_piles_both_take_tiles_and_both_tops_play() -> None:
    laid = {"left": 0, "right": 0}
    top_played = {"left": 0, "right": 0}
    for steps in games("two-discard-piles", 1, range(12)):
        for step in steps:
            if isinstance(step.action, Discard):
                assert {a.zone for a in step.before.legal_actions() if isinstance(a, Discard)} == {"left", "right"}
                laid[step.action.zone] += 1
            if isinstance(step.action, Play):
                for pile in laid:
                    if step.before.zones[pile] and step.before.zones[pile][-1] == step.action.tile:
                        top_played[pile] += 1
    assert min(laid.values()) > 10 and min(top_played.values()) > 3, (laid, top_played)


# ---------------------------------------------------------------------------- 6. tile sets
@pytest.mark.parametrize(("example", "colour"), [("two-colours", "red"), ("four-colours", "green")])
def test_tiles_of_a_set_of_its_own_touch_edge_colour_to_edge_colour(example: str, colour: str) -> None:
    rules = load_rules(example)
    tiles = rules.tiles
    seen = 0
    for steps in games(rules, 3):
        for result in final(steps).hand_results:
            figure = result.figure
            for cell, tile in figure.tile_at.items():
                for contact in rules.placement.contacts_of(figure, cell):
                    other = figure.tile_at[contact["neighbour"]]
                    side = figure.neighbours(cell).index(contact["neighbour"])
                    other_edge = (side - figure.rotation(contact["neighbour"])) % 3
                    assert tiles.edge_colour(other, other_edge) == contact["colour"]
                    assert contact["mine"] == contact["theirs"] or (contact["mine"] + contact["theirs"]) % 5 == 0
                    seen += contact["colour"] == colour
    assert seen > 10, f"no {colour} edges met"


def test_two_colours_set_repeats_colours_on_a_tile() -> None:
    tiles = load_rules("two-colours").tiles
    assert len(tiles) == 24 and tiles.colours == ("red", "blue")
    assert all(len(set(colours)) == 2 for colours in tiles.edge_colours)
    assert not tiles.classic


def test_partners_see_each_others_hands_and_only_the_count_of_the_opponents() -> None:
    example = games("partners-see-each-other", 4, range(4))
    open_hands = games(load_rules("contactack", {"partnerships": "on"}), 4, range(4))
    seen = hidden = 0
    for game, same in zip(example, open_hands):
        # Only what is seen changes: the same seeds play the same games.
        assert [s.action for s in game] == [s.action for s in same]
        for step, open_step in zip(game, same):
            me, hands = step.seat, step.before.seat_zones["hand"]
            view = step.before.observation(me)["hand"]
            for owner, tiles in enumerate(hands):
                if owner % 2 == me % 2:  # itself and its partner, sitting opposite
                    assert view[owner] == tuple(tiles)
                    seen += owner != me and bool(tiles)
                else:
                    assert view[owner] == (None,) * len(tiles)
                    hidden += bool(tiles)
            assert open_step.before.observation(me)["hand"] == tuple(map(tuple, hands))  # Contactack: all open
    assert seen > 100 and hidden > 100


# ---------------------------------------------------------------------------- the board in formulas
def plays_made(rules: Rules, seeds: range, seats: int = 3) -> Iterator[tuple[Step, list[dict[str, object]]]]:
    """Every play against the figure that did not end its hand, with the contacts it made."""
    for steps in games(rules, seats, seeds):
        for step in steps:
            if isinstance(step.action, Play) and step.before.figure.tile_at and not step.ended_hand:
                yield step, rules.placement.contacts_of(step.after.figure, step.action.cell)


def parker_contact(contact: dict[str, object]) -> bool:
    a, b = contact["mine"], contact["theirs"]
    assert isinstance(a, int) and isinstance(b, int)
    return a == b or (a + b) % 5 == 0


def test_one_contact_may_miss_the_numbers_for_10() -> None:
    rules = load_rules("one-miss-for-ten")
    missed = 0
    for step, contacts in plays_made(rules, range(12)):
        failing = sum(not parker_contact(c) for c in contacts)
        assert failing <= 1
        points = sum(int(c["points"]) for c in contacts)  # type: ignore[call-overload]
        assert step.gained()[step.seat] == points - 10 * failing
        missed += failing
    assert missed > 10, "no play missed a contact"


def test_an_opportunity_play_must_count() -> None:
    """Every play touching two or three tiles makes a counting contact; and where the book
    would allow one that makes none, the house rule does not offer it."""
    rules = load_rules("opportunity-must-count")
    refused = opportunity = 0
    for steps in games(rules, 3, range(24)):
        for step in steps:
            if not step.before.figure.tile_at or step.before.chance:
                continue
            hand = step.before.seat_zones["hand"][step.seat]
            offered = set(rules.placement.plays(step.before.figure, hand))
            for play in PARKER.placement.plays(step.before.figure, hand):
                after = step.before.clone()
                after.figure.place(play.tile, play.cell, *_fit(PARKER, step.before, play))
                contacts = PARKER.placement.contacts_of(after.figure, play.cell)
                allowed = len(contacts) == 1 or any(c["counting"] for c in contacts)
                assert (play in offered) == allowed
                refused += not allowed
                opportunity += len(contacts) > 1 and allowed
    assert refused >= 3 and opportunity > 10


def _fit(rules: Rules, state: GameState, play: Play) -> tuple[int, tuple[int, int, int]]:
    """How ``play`` lies under ``rules``: its rotation and its side codes."""
    demand = state.figure.demands[play.cell]
    rules.placement.plays(state.figure, [play.tile])  # fills the table for this demand
    rotation = rules.placement._fits[demand][play.tile][0]
    return rotation, rules.placement.side_codes[play.tile][rotation]


Contacts = list[dict[str, object]]


def bonus_made(ruleset: str, game_count: int, bonus: int, made: Callable[[Step, Contacts], int]) -> int:
    """Checks every play of ``game_count`` random games of ``ruleset``: the seat gains the points of its
    contacts plus ``bonus`` for each thing ``made`` counts (worked out apart from the ruleset's
    formula); returns how many were made in all."""
    total = 0
    for step, contacts in plays_made(load_rules(ruleset), range(game_count)):
        points = sum(int(c["points"]) for c in contacts)  # type: ignore[call-overload]
        count = made(step, contacts)
        assert step.gained()[step.seat] == points + bonus * count
        total += count
    return total


def test_doubles_pay_5_a_contact() -> None:
    assert bonus_made("doubles-pay-five", 8, 5, lambda step, contacts: sum(c["mine"] == c["theirs"]
                                                                          for c in contacts)) > 10


def hexagons_completed(step: Step, contacts: Contacts) -> int:
    laid = step.after.figure.tile_at
    return sum(all(cell in laid for cell in cells_at(point)) for point in corners(step.action.cell))  # type: ignore[attr-defined]


def test_a_hexagon_completed_scores_20() -> None:
    assert bonus_made("hexagon-bonus", 20, 20, hexagons_completed) > 5


def big_triangles_completed(step: Step, contacts: Contacts) -> int:
    """Big triangles of four (a tile and the three across its sides) with the play in them,
    found from the neighbours, not from the ruleset's drawn shape."""
    laid, cell = step.after.figure.tile_at, step.action.cell  # type: ignore[attr-defined]
    return sum(centre in laid and all(side in laid for side in neighbours(centre))
               for centre in (cell, *neighbours(cell)))


def test_a_big_triangle_completed_scores_10() -> None:
    assert bonus_made("big-triangle-bonus", 12, 10, big_triangles_completed) > 5


def line_of_five_made(step: Step, contacts: Contacts) -> int:
    cell, laid = step.action.cell, step.after.figure.tile_at  # type: ignore[attr-defined]
    return int(max(line_lengths(cell, laid.__contains__)) == 5)


def test_a_line_of_five_scores_15() -> None:
    assert bonus_made("line-of-five", 8, 15, line_of_five_made) > 5


def test_closing_in_a_cell_pays_the_next_player_10() -> None:
    rules = load_rules("closing-in-pays-next")
    closed = 0
    for step, contacts in plays_made(rules, range(60)):
        figure = step.after.figure
        holes = [cell for cell in figure.neighbours(step.action.cell)  # type: ignore[attr-defined]
                 if cell not in figure.tile_at and all(n in figure.tile_at for n in figure.neighbours(cell))]
        points = sum(int(c["points"]) for c in contacts)  # type: ignore[call-overload]
        expected = [0, 0, 0]
        expected[step.seat] = points - 10 * len(holes)
        expected[(step.seat + 1) % 3] += 10 * len(holes)
        assert step.gained() == expected
        closed += bool(holes)
    assert closed >= 3


# ---------------------------------------------------------------------------- a primitive's own rule
def test_klauber_ties_stand_and_a_capture_needs_2_more() -> None:
    """Every meeting of pieces is settled by the house rule's formulas: the touching numbers
    summed, a side goes only when the other's are higher by 2 or more."""
    rules = load_rules("klauber-ties-stand")
    stood = taken = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GameState(rules, 2)
        while not state.is_over():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            event = state.apply(rng.choice(state.legal_actions()))
            if not isinstance(event, Moved) or not event.contacts:
                continue
            mine, theirs = sum(c.mine for c in event.contacts), sum(c.theirs for c in event.contacts)
            end = event.path[-1] if event.path else event.origin
            others = {c.square for c in event.contacts}
            assert set(event.removed) - {end} == (others if mine >= theirs + 2 else set())
            assert (end in event.removed) == (theirs >= mine + 2)
            stood += abs(mine - theirs) < 2
            taken += mine >= theirs + 2
    assert stood and taken


# ---------------------------------------------------------------------------- the board of pieces in formulas
def _board_round(board: PieceBoard, event: Moved) -> dict[str, int]:
    """What a move's formulas read of the board round its piece, worked out apart from the engine:
    every piece is looked at, its distance to the moved piece's point measured."""
    end = event.path[-1] if event.path else event.origin
    if event.removed and event.removed[-1] == end:
        return dict.fromkeys(("friends_around", "enemies_around", "nearest_enemy", "advance", "ringed"), 0)
    owner = board.owner[event.piece]
    mine = board.side[owner]
    friends = enemies = 0
    distances = []
    for piece, square in enumerate(board.square):
        if square is None or square == end:
            continue
        ours = board.side[board.owner[piece]] == mine
        if max(abs(square[0] - end[0]), abs(square[1] - end[1])) == 1:
            friends += ours
            enemies += not ours
        if not ours:
            distances.append(abs(square[0] - end[0]) + abs(square[1] - end[1]))
    far = board.size - 1
    advance = {"south": end[1], "north": far - end[1], "west": end[0], "east": far - end[0]}[board.home_edge[owner]]
    return {"friends_around": friends, "enemies_around": enemies, "nearest_enemy": min(distances, default=0),
            "advance": advance, "ringed": int(end in board.ringed[owner])}


def test_a_move_s_formulas_read_the_board_round_the_moved_piece(tmp_path: Path) -> None:
    """Counters adding each of a move's board values, in random Klauber games of 2 and 4 seats,
    gain exactly what the board after each move shows; ``contact_distance`` is the state's."""
    names = ("friends_around", "enemies_around", "nearest_enemy", "advance", "ringed", "contact_distance")
    counters = "".join(f"  {name}_seen:\n    primitive: counter\n    on_move: \"{name}\"\n" for name in names)
    ruleset = tmp_path / "board-values.yaml"
    ruleset.write_text("format: contack-ruleset/1\nid: board-values\ntitle: Board values\nextends: klauber-ties-stand\n"
                       f"scoring:\n{counters}", encoding="utf-8")
    rules = load_rules(str(ruleset))
    seen: dict[str, set[int]] = {name: set() for name in names}
    for seats in (2, 4):
        for steps in games(rules, seats, range(2)):
            for step in steps:
                if not isinstance(step.action, Move):
                    continue
                board = step.after.figure
                assert isinstance(board, PieceBoard)
                moved = step.before.clone().apply(step.action)  # the event again (a move has no chance)
                assert isinstance(moved, Moved)
                expected = _board_round(board, moved)
                nearest, _ = board.contact_distances()
                expected["contact_distance"] = nearest[step.seat]
                for name in names:
                    gained = step.gained(f"{name}_seen")
                    assert gained[step.seat] == expected[name], (name, step.action)
                    assert sum(gained) == gained[step.seat]
                    seen[name].add(expected[name])
    assert all(len(values) >= 2 for values in seen.values()), seen


def test_a_capture_close_to_another_enemy_piece_earns_another_move() -> None:
    """klauber-press-on: after a move the same seat moves again exactly when it captured and its
    piece ended within four steps of another enemy piece (worked out from the board apart from the
    engine); otherwise the turn passes."""
    again = passed = 0
    for steps in games("klauber-press-on", 2, range(6)):
        for step in steps:
            if not isinstance(step.action, Move) or step.after.is_over():
                continue
            moved = step.before.clone().apply(step.action)
            assert isinstance(moved, Moved)
            board = step.after.figure
            assert isinstance(board, PieceBoard)
            captured = len(moved.removed) - int(bool(moved.removed) and moved.removed[-1] == moved.path[-1])
            nearest = _board_round(board, moved)["nearest_enemy"]
            earned = captured > 0 and 0 < nearest <= 4
            assert (step.after.current_seat() == step.seat) == earned
            again += earned
            passed += not earned
    assert again and passed


# ---------------------------------------------------------------------------- a deal reading the scores
def test_the_leader_is_dealt_a_tile_fewer_for_every_50_points_ahead() -> None:
    """leader-dealt-fewer: every deal of random games gives its seat min(5, max(3, 5 - (its total
    - the lowest total) // 50)) tiles, the totals read as the hand begins."""
    rules = load_rules("leader-dealt-fewer")
    fewer = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = GameState(rules, 3)
        while not state.is_over():
            if not state.is_chance_node():
                state.apply(rng.choice(state.legal_actions()))
                continue
            outcome = state.sample_chance(rng)
            if isinstance(outcome, Deal):
                totals = state.totals["score"]
                due = min(5, max(3, 5 - (totals[outcome.seat] - min(totals)) // 50))
                assert len(outcome.tiles) == due, (seed, state.hand_number, totals)
                fewer += due < 5
            state.apply(outcome)
    assert fewer >= 3


def test_a_deal_count_reading_scores_is_checked_at_load_and_in_play(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: contack-ruleset/1\nid: bad\ntitle: Bad\nextends: parker-1939\nsetup:\n  deal:\n"
                   "    count: \"hand_size - score // 10\"\n", encoding="utf-8")
    result = run_cli("rulesets", "validate", bad)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "at setup.deal.count: count gives -5 for score=100" in result.output
    # A count that holds for the scores load tries, and fails for one met in play: a fault of the ruleset.
    late = tmp_path / "late.yaml"
    late.write_text("format: contack-ruleset/1\nid: late\ntitle: Late\nextends: parker-1939\nsetup:\n  deal:\n"
                    "    count: \"min(hand_size, hand_size - score // 1000)\"\n", encoding="utf-8")
    rules = load_rules(str(late))
    state = GameState(rules, 2)
    rng = random.Random(0)
    state.apply(state.sample_chance(rng))  # the shuffle
    state.totals["score"][1] = 6000
    due = r"at setup\.deal\.count: formula 'min\(hand_size, hand_size - score // 1000\)': it gives -1 tiles to seat 1"
    with pytest.raises(RulesetFault, match=due):
        state.sample_chance(rng)
