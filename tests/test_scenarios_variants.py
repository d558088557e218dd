"""Scenarios for every rule in which a shipped variant differs from Parker 1939.

Each test sets up an exact position (a shuffle and deals chosen here, then legal actions)
and checks the exact outcome; its docstring quotes the source sentence it implements.
Sources (rules-sources/): 002 Contactack, 004 the Spanish edition and its Club Contack,
000 and 003 the two solitaires. Cells follow DESIGN.md 4 (see test_scenarios_parker.py).
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import hand_of, name, new_game, play, ref_plays, run_cli, tile
from test_scenarios_parker import THREE_SIDED_HANDS, THREE_SIDED_PLAYS

from contack_core import Deal, Draw, GameState, IllegalAction, Pass, Play, Shuffle, load_rules
from contack_core.engine.actions import Discard
from contack_core.engine.events import ChipsMoved, Discarded, Drew, Passed, Played
from contack_core.engine.referee import play_game
from contack_core.engine.rules import Rules
from contack_core.records.audit import audit_record
from contack_core.records.format import RecordWriter, header_for
from contack_core.records.narration import Narrator
from players.random_player import RandomPlayer


def rules(ruleset_id: str, **options: object) -> Rules:
    """A shipped ruleset with options given as the command line gives them (strings)."""
    return load_rules(ruleset_id, {key: str(value) for key, value in options.items()})


def chips(state: GameState) -> list[tuple[Any, Any, int, str]]:
    """The chip movements the last action led to, as (from, to, count, reason), and clear them."""
    moved = [(e.payer, e.payee, e.count, e.reason) for e in state.effects if isinstance(e, ChipsMoved)]
    state.effects.clear()
    return moved


def random_game(ruleset: Rules, seats: int, seed: int, observers: list[Any] = ()) -> GameState:  # type: ignore[assignment]
    players = [RandomPlayer(seed=f"{seed}:{i}") for i in range(seats)]
    return play_game(ruleset, players, seed, observers)


# The encyclopedia's two-sided opportunity play, as test_scenarios_parker builds it: seat 0's
# 10-03-09 fills the hole [-1, 0] for 20 (blue 10 + 10) and 10 (gold 9 + 1), 30 in all.
TWO_SIDED_HANDS = [["03-04-01", "05-06-03", "10-06-09", "10-03-09", "04-08-09"],
                   ["05-01-04", "02-06-07", "01-08-09", "07-08-09", "09-10-07"]]
TWO_SIDED_PLAYS = [("03-04-01", (0, 0), 0), ("05-01-04", (1, 0), 5), ("05-06-03", (1, 1), 10),
                   ("02-06-07", (0, 1), 10), ("10-06-09", (-1, 1), 0), ("01-08-09", (-2, 1), 0),
                   ("10-03-09", (-1, 0), 30)]

# Three seats: seat 2 opens with 03-04-01 (the lowest sum, 8); seat 0's 06-07-04 on [-1, 0]
# puts gold 4 on gold 1 (a counting contact of 5); seat 1's 07-08-09 on [-2, 0] puts red 8
# on red 7 (15).
THREE_SEAT_HANDS = [["09-10-07", "06-07-04", "05-01-04", "06-07-08", "08-09-03"],
                    ["07-08-05", "08-04-07", "07-03-06", "07-08-09", "06-02-05"],
                    ["02-06-07", "03-07-08", "08-01-07", "03-04-01", "04-05-02"]]
THREE_SEAT_PLAYS = [("03-04-01", (0, 0), 0), ("06-07-04", (-1, 0), 5), ("07-08-09", (-2, 0), 15)]

# A complete Solitaire: drawn in this order, every Triangle can be laid at once on its cell.
# (Found by a search over the engine's legal plays; each play is checked again below.)
WINNING_ORDER = [
    ("04-08-09", (0, 0)), ("03-07-08", (1, 0)), ("06-07-08", (2, 0)), ("09-10-01", (2, -1)),
    ("05-01-04", (3, -1)), ("08-09-03", (4, -1)), ("09-10-07", (5, -1)), ("06-02-05", (5, -2)),
    ("07-03-06", (4, -2)), ("07-08-02", (4, -3)), ("06-07-04", (3, -3)), ("10-03-09", (3, -2)),
    ("06-07-01", (2, -2)), ("10-06-09", (1, -2)), ("03-04-01", (0, -2)), ("04-05-06", (2, -3)),
    ("04-05-02", (1, -3)), ("01-05-06", (1, -4)), ("07-08-09", (2, -4)), ("08-09-10", (2, -5)),
    ("07-08-05", (3, -5)), ("08-04-07", (3, -6)), ("09-05-08", (4, -6)), ("01-08-09", (4, -7)),
    ("01-02-03", (3, -7)), ("08-01-07", (2, -7)), ("02-06-07", (2, -6)), ("05-06-03", (1, -6)),
    ("08-09-06", (0, -6)), ("09-10-04", (-1, -6)), ("05-09-10", (1, -5)), ("09-02-08", (3, -4)),
    ("05-06-07", (4, -4)), ("02-09-10", (5, -4)), ("03-04-05", (6, -4)), ("02-03-04", (6, -5)),
]


# =========================================================================== spanish-edition
SPANISH = rules("spanish-edition")


def test_spanish_narration_names_contacts_colours_and_the_opportunity_play_in_spanish() -> None:
    """004: "CONTACK DE APAREAR", "CONTACK DE CONTAR", "JUGADA DE OPORTUNIDAD"; the colours
    "10 Azul", "10 Rojo", "9 Naranja"."""
    lines: list[str] = []
    narrator = Narrator(["Ana", "Luis"], lines.append)
    state = new_game(TWO_SIDED_HANDS, rules=SPANISH)
    for tile_name, cell, points in TWO_SIDED_PLAYS:
        event = play(state, tile_name, cell)
        assert event.points == points  # the same rules as Parker's
        narrator.event(state, event)
    assert lines[0] == "Ana (asiento 0) inicia el juego con 03-04-01 en [0, 0]"
    assert lines[1] == "Luis (asiento 1) juega 05-01-04 en [1, 0]: Rojo 1+4 Contack de Contar = 5 -> 5 puntos"
    # Red 6 on red 6 matches.
    assert lines[4] == "Ana (asiento 0) juega 10-06-09 en [-1, 1]: Rojo 6+6 Contack de Aparear -> 0 puntos"
    assert lines[6] == ("Ana (asiento 0) juega 10-03-09 en [-1, 0]: Azul 10+10 Contack de Contar = 20; "
                        "Naranja 9+1 Contack de Contar = 10 -> 30 puntos [Jugada de Oportunidad]")


def test_spanish_end_of_game_narration_speaks_of_tallas() -> None:
    """004: "la talla mas alta", "Talla Total", "Tres manos constituyen una partida"."""
    lines: list[str] = []
    state = random_game(SPANISH, 2, seed=3, observers=[Narrator(["Ana", "Luis"], lines.append)])
    text = "\n".join(lines)
    assert [line for line in lines if line.startswith("== Mano ")] == ["== Mano 1 ==", "== Mano 2 ==", "== Mano 3 =="]
    assert "== Talla total ==" in text
    assert re.search(r"^-- Mano 1: ", text, re.M)
    winners = state.winners()
    last = lines[-1]
    assert last.endswith("gana la partida" if len(winners) == 1 else "empatan en la talla más alta")
    for english in ("Counting Contact", "Matching Contact", "Opportunity Play", "plays", "Blue", "Orange"):
        assert english not in text


def test_spanish_game_is_parkers_game_move_for_move() -> None:
    """004 repeats Parker's rules sentence for sentence: the same seed gives the same game."""
    events = []
    for ruleset in (rules("parker-1939"), SPANISH):
        stream = io.StringIO()
        random_game(ruleset, 3, 11, [RecordWriter(stream, header_for(ruleset, ["a", "b", "c"], 11))])
        events.append([json.loads(line) for line in stream.getvalue().splitlines()[1:]])
    assert events[0] == events[1] and len(events[0]) > 50


def test_rulesets_show_lists_the_spanish_terms() -> None:
    """004: "Contack de Aparear / de Contar", "Jugada de Oportunidad", "Talla", "Encargado de
    Tallas", colours Azul / Naranja / Rojo."""
    result = run_cli("rulesets", "show", "spanish-edition")
    assert result.exit_code == 0, result.output
    for term in ("Contack de Aparear", "Contack de Contar", "Jugada de Oportunidad", "talla",
                 "Encargado de Tallas", "Azul", "Naranja", "Rojo", "Triángulo"):
        assert term in result.stdout, term
    assert "edición española" in result.stdout


# =========================================================================== contactack
CONTACTACK = rules("contactack")
PARKER = rules("parker-1939")


def _after_two_plays(ruleset: Rules) -> GameState:
    """Seat 0 opens 05-06-03, seat 1 plays 08-01-07: seat 0 holds four tiles and 02-06-07 fits."""
    state = new_game(THREE_SIDED_HANDS, stock_top=["06-07-01"], rules=ruleset)
    for tile_name, cell, _ in THREE_SIDED_PLAYS[:2]:
        play(state, tile_name, cell)
    assert state.current_seat() == 0 and len(hand_of(state, 0)) == 4
    assert ("02-06-07", (-1, 1)) in {(name(a.tile), a.cell) for a in state.legal_actions() if isinstance(a, Play)}
    return state


def test_contactack_voluntary_draw_while_a_play_exists() -> None:
    """002: "if he does not wish to make a play on account of benefiting another player, he may
    draw from the reserve, one chip at a time until he can play or until he has 5 chips before
    him. (No player must have more than 5 chips at any one time)." """
    state = _after_two_plays(CONTACTACK)
    assert Draw() in state.legal_actions()
    drew = state.apply(Draw())
    assert isinstance(drew, Drew) and (drew.seat, name(drew.tile)) == (0, "06-07-01")
    # The turn goes on; with five chips no more draws.
    assert state.current_seat() == 0 and len(hand_of(state, 0)) == 5
    assert Draw() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="may not draw now"):
        state.apply(Draw())
    assert all(isinstance(a, Play) for a in state.legal_actions())


def test_parker_forbids_the_voluntary_draw_with_a_message() -> None:
    """000: "a player must always play if possible"; he draws only when "unable to make any
    Contact whatsoever"."""
    state = _after_two_plays(PARKER)
    assert Draw() not in state.legal_actions()
    with pytest.raises(IllegalAction, match=r"^seat 0 may not draw now: seat 0 can still play \(\d tiles? fits?\)$"):
        state.apply(Draw())
    assert len(hand_of(state, 0)) == 4  # nothing changed


def test_contactack_no_pass_while_a_play_exists_or_before_the_allotment_is_drawn() -> None:
    """002: "in no event shall a player pass if he has a possible play or if he has not drawn
    his entire allotment." """
    state = _after_two_plays(CONTACTACK)
    with pytest.raises(IllegalAction, match="may not pass now"):
        state.apply(Pass())
    state = new_game(THREE_SIDED_HANDS, stock_top=["02-09-10", "08-09-10"], rules=CONTACTACK)
    for tile_name, cell, _ in THREE_SIDED_PLAYS:
        play(state, tile_name, cell)
    # Seat 0 holds one chip (09-10-01) that fits nowhere: draw, not pass.
    assert hand_of(state, 0) == ["09-10-01"] and state.legal_actions() == [Draw()]
    with pytest.raises(IllegalAction, match=r"^seat 0 may not pass now: seat 0 can still draw$"):
        state.apply(Pass())


def test_contactack_sealed_figure_does_not_end_the_hand_but_parker_does() -> None:
    """002: "One hand is completed when the first player to play his last chip has played or
    when the game is blocked ... After each have drawn up to their allotment of 5 or all chips
    of the reserve have been drawn and each player in his turn has been forced to pass."
    Parker (000): "As this play leaves no side open on which to play the hand ends." """
    outcomes = {}
    for ruleset in (PARKER, CONTACTACK):
        state = new_game(THREE_SIDED_HANDS, stock_top=["02-09-10", "08-09-10"], rules=ruleset)
        for tile_name, cell, _ in THREE_SIDED_PLAYS:
            play(state, tile_name, cell)
        assert state.apply(Draw()).tile == tile("02-09-10")
        play(state, "02-09-10", (2, 0))
        assert state.apply(Draw()).tile == tile("08-09-10")
        assert play(state, "08-09-10", (1, 0)).points == 50
        outcomes[ruleset.id] = state
    parker, contactack = outcomes["parker-1939"], outcomes["contactack"]
    assert [r.reason for r in parker.hand_results] == ["sealed"]
    assert contactack.hand_results == [] and contactack.hand_number == 1
    # Blocked: each seat draws up to five, one at a time, then must pass.
    for seat in (0, 1):
        assert contactack.current_seat() == seat
        for _ in range(4):
            assert contactack.legal_actions() == [Draw()]
            contactack.apply(Draw())
        assert contactack.legal_actions() == [Pass()]
        assert isinstance(contactack.apply(Pass()), Passed)
    [result] = contactack.hand_results
    assert result.reason == "all_passed" and result.held == (5, 5)
    # 30 and 90 scored, less 10 for each of five chips held.
    assert result.scores == (30 - 50, 90 - 50)


def test_contactack_three_hands_unless_otherwise_agreed() -> None:
    """002: "ONE GAME consists of 3 hands unless otherwise agreed." """
    assert len(random_game(CONTACTACK, 3, seed=5).hand_results) == 3
    assert len(random_game(rules("contactack", hands=1), 3, seed=5).hand_results) == 1
    assert len(random_game(rules("contactack", hands=4), 2, seed=5).hand_results) == 4
    result = run_cli("play", "contactack", "--seats", "random,random", "--seed", "2", "--option", "hands=2")
    assert result.exit_code == 0, result.output
    assert re.findall(r"^== Hand (\d) ==", result.stdout, re.M) == ["1", "2"]


PARTNERS = rules("contactack", partnerships="on")


def test_partnerships_need_exactly_four_seats() -> None:
    """002: "Partners are optional with 4 players." """
    assert PARTNERS.players == (4, 4)
    for seats in (2, 3, 5):
        with pytest.raises(ValueError, match=f"is for 4 players; {seats} seats given"):
            GameState(PARTNERS, seats)
    result = run_cli("play", "contactack", "--seats", "random,random,random", "--option", "partnerships=on")
    assert result.exit_code == 1
    assert "contactack is for 4 players; --seats names 3" in result.stderr
    assert "Traceback" not in result.output


def test_partners_sit_opposite_and_win_or_lose_together() -> None:
    """002: "Partners are optional with 4 players" (partners opposite, their scores pooled)."""
    assert PARTNERS.match.teams(4) == [[0, 2], [1, 3]]
    state = GameState(PARTNERS, 4)
    alone = GameState(CONTACTACK, 4)
    for table in (state, alone):
        table.totals["score"] = [10, 50, 30, 0]
    # Seats 0 and 2 pool 40, seats 1 and 3 pool 50: seat 3 wins with 0, seat 2 loses with 30.
    assert state.winners() == [1, 3]
    assert alone.winners() == [1]
    state.totals["score"] = [20, 10, 20, 30]
    assert state.winners() == [0, 1, 2, 3]


def test_partnership_game_end_records_teams_and_pooled_totals() -> None:
    stream = io.StringIO()
    state = random_game(PARTNERS, 4, seed=8, observers=[RecordWriter(stream, header_for(PARTNERS, list("abcd"), 8))])
    game_end = json.loads(stream.getvalue().splitlines()[-1])
    totals = state.scores()
    assert game_end["teams"] == [[0, 2], [1, 3]]
    assert game_end["team_totals"] == [totals[0] + totals[2], totals[1] + totals[3]]
    best = max(game_end["team_totals"])
    assert game_end["winners"] == sorted(s for team, pooled in zip(game_end["teams"], game_end["team_totals"])
                                         if pooled == best for s in team)
    solo = io.StringIO()
    random_game(CONTACTACK, 4, seed=8, observers=[RecordWriter(solo, header_for(CONTACTACK, list("abcd"), 8))])
    assert "teams" not in json.loads(solo.getvalue().splitlines()[-1])


# =========================================================================== club-contack
def _three_seat_chips(ruleset: Rules) -> tuple[GameState, list[list[tuple[Any, Any, int, str]]]]:
    """THREE_SEAT_PLAYS under ``ruleset``: the state and the chips each play moved."""
    state = new_game(THREE_SEAT_HANDS, rules=ruleset)
    moved = []
    for tile_name, cell, points in THREE_SEAT_PLAYS:
        assert play(state, tile_name, cell).points == points
        moved.append(chips(state))
    return state, moved


def held(state: GameState, seat: int) -> int:
    return state.rules.counters["chips"].held(state, seat)


def test_club_chips_are_divided_equally_at_the_start() -> None:
    """004: "todas las fichas se dividen igualmente entre los jugadores. Cada ficha vale cinco
    puntos." (the number per player is the option chips_per_player)"""
    assert GameState(rules("club-contack"), 3).scores() == [25, 25, 25]
    assert GameState(rules("club-contack", chips_per_player=40), 5).scores() == [40] * 5


def test_club_counting_contact_of_15_collects_3_chips_from_every_other_player() -> None:
    """004: "si un jugador hace un 'Contack de Contar' de 15 inmediatamente debe recibir de cada
    uno de los demás jugadores tres fichas que tienen el valor de cinco puntos cada una." """
    state, moved = _three_seat_chips(rules("club-contack"))
    assert moved == [
        [],                                                          # the opening scores nothing
        [(1, 0, 1, "collect"), (2, 0, 1, "collect")],                # 5: one chip from each
        [(0, 1, 3, "collect"), (2, 1, 3, "collect")],                # 15: three from each
    ]
    assert [held(state, s) for s in range(3)] == [25 + 2 - 3, 25 - 1 + 6, 25 - 1 - 3]


def test_club_opportunity_play_collects_its_points_over_five() -> None:
    """004: the player "recibe de cada uno de los demás jugadores fichas para igualar la cuenta
    de ese Contack de Contar": a two-sided play of 20 + 10 is worth 6 chips."""
    state = new_game(TWO_SIDED_HANDS, rules=rules("club-contack"))
    collected = []
    for tile_name, cell, points in TWO_SIDED_PLAYS:
        assert play(state, tile_name, cell).points == points
        collected.append(chips(state))
    assert collected[-1] == [(1, 0, 6, "collect")]
    assert [c[0][2] if c else 0 for c in collected] == [0, 1, 2, 2, 0, 0, 6]


def test_club_three_sided_play_of_50_collects_10_chips() -> None:
    """000's three-sided play (15 + 20 + 15 = 50) under 004's chips: ten chips."""
    state = new_game(THREE_SIDED_HANDS, stock_top=["02-09-10", "08-09-10"], rules=rules("club-contack"))
    for tile_name, cell, _ in THREE_SIDED_PLAYS:
        play(state, tile_name, cell)
    state.apply(Draw())
    play(state, "02-09-10", (2, 0))
    state.apply(Draw())
    state.effects.clear()
    assert play(state, "08-09-10", (1, 0)).points == 50
    assert chips(state) == [(0, 1, 10, "collect")]


def test_club_a_player_short_of_chips_pays_what_he_has() -> None:
    """004 says nothing of running out in the three-hand game: a payer pays what he holds."""
    state, moved = _three_seat_chips(rules("club-contack", chips_per_player=3))
    # After the 5: seats 1 and 2 hold 2 each. The 15 wants 3 from each: seat 2 pays its 2.
    assert moved[2] == [(0, 1, 3, "collect"), (2, 1, 2, "collect")]
    assert [held(state, s) for s in range(3)] == [2, 7, 0]
    state, moved = _three_seat_chips(rules("club-contack", chips_per_player=1))
    # Seats 1 and 2 are emptied by the 5; seat 2 has nothing to pay, so no chips line.
    assert moved[1] == [(1, 0, 1, "collect"), (2, 0, 1, "collect")]
    assert moved[2] == [(0, 1, 3, "collect")]
    assert [held(state, s) for s in range(3)] == [0, 3, 0]


def test_club_timed_game_borrows_from_the_bank() -> None:
    """004: "Cuando se agotan las fichas de algún jugador, podrá pedir prestado de otro jugador
    o del Banco" and "se saldan todas las cuentas de préstamos": a total is net of debts."""
    ruleset = rules("club-contack", timed="on", chips_per_player=3, clock_turns=3)
    state, moved = _three_seat_chips(ruleset)
    # Seat 2 holds 2 and owes 3: the bank lends the missing chip first.
    assert moved[2] == [(0, 1, 3, "collect"), (None, 2, 1, "loan"), (2, 1, 3, "collect")]
    assert [held(state, s) for s in range(3)] == [2, 8, 0]
    # The clock of three turns ran out with that play: the game ends in the middle of the hand.
    assert state.is_over() and [r.reason for r in state.hand_results] == ["time"]
    # Totals are net worth: seat 2 holds 0 and owes the bank 1.
    assert state.scores() == [2, 8, -1]
    assert sum(state.scores()) == 3 * 3
    assert sum(held(state, s) for s in range(3)) == 3 * 3 + 1  # plus the bank's loan


def test_club_timed_game_borrows_from_the_richest_other_player() -> None:
    """004: "podrá pedir prestado de otro jugador" (option lender=players)."""
    ruleset = rules("club-contack", timed="on", lender="players", chips_per_player=3, clock_turns=3)
    state, moved = _three_seat_chips(ruleset)
    # Seat 0 (2 chips left after paying) lends seat 2 the chip it lacks.
    assert moved[2] == [(0, 1, 3, "collect"), (0, 2, 1, "loan"), (2, 1, 3, "collect")]
    assert [held(state, s) for s in range(3)] == [1, 8, 0]
    assert state.scores() == [2, 8, -1]  # seat 0 is owed the chip it lent
    assert sum(state.scores()) == sum(held(state, s) for s in range(3)) == 9
    # Nobody else can lend three chips: the bank does.
    ruleset = rules("club-contack", timed="on", lender="players", chips_per_player=1, clock_turns=3)
    state, moved = _three_seat_chips(ruleset)
    assert moved[2] == [(0, 1, 3, "collect"), (None, 2, 3, "loan"), (2, 1, 3, "collect")]
    assert state.scores() == [0, 6, -3]


def test_club_timed_game_plays_the_agreed_number_of_hands_without_a_clock() -> None:
    """004: "dejar que corra la partida por un número indefinido de manos" (timed_hands)."""
    state = random_game(rules("club-contack", timed="on", timed_hands=2), 3, seed=4)
    assert len(state.hand_results) == 2
    assert "time" not in {r.reason for r in state.hand_results}
    assert sum(state.scores()) == 3 * 25


def test_club_clock_ends_the_game_mid_hand() -> None:
    """004: "Al cumplirse el plazo ... se saldan todas las cuentas" (the clock counted in turns)."""
    for turns in (1, 2, 5):
        state = random_game(rules("club-contack", timed="on", clock_turns=turns), 3, seed=6)
        assert state.is_over() and state.turns == turns
        [result] = state.hand_results
        assert result.reason == "time" and sum(result.held) > 0
    result = run_cli("play", "club-contack", "--seats", "random,random", "--seed", "1",
                     "--option", "timed=on", "--option", "clock_turns=4")
    assert result.exit_code == 0, result.output
    assert "-- Hand 1: time is up" in result.stdout


def test_club_has_no_tile_penalty_unless_the_table_sets_one() -> None:
    """004: "Se aplican las mismas reglas ... excepto las tocantes a la talla": Parker's 10 per
    tile held is a scoring rule, so by default tiles held cost nothing."""
    for penalty, expected in ((None, (2 - 3, 6 - 1, -1 - 3)), (2, (2 - 3 - 8, 6 - 1 - 8, -1 - 3 - 8))):
        options: dict[str, object] = {"timed": "on", "clock_turns": 3}
        if penalty is not None:
            options["tile_penalty_chips"] = penalty
        state, _ = _three_seat_chips(rules("club-contack", **options))
        [result] = state.hand_results
        assert result.held == (4, 4, 4)
        assert result.scores == expected


def test_club_tile_penalty_is_paid_from_the_chips_a_seat_has() -> None:
    """004 lets a short player borrow only in the timed game; otherwise he pays what he has."""
    state = random_game(rules("club-contack", chips_per_player=2, tile_penalty_chips=1, hands=1), 2, seed=0)
    [result] = state.hand_results
    assert result.held != (0, 0) and result.reason != "time"
    # Without loans a seat's total is the chips it holds: never fewer than none.
    assert min(state.scores()) >= 0, state.scores()


def test_club_tile_penalty_short_of_chips_pays_what_it_has() -> None:
    """The three-hand game: a seat owing more chips for its tiles than it holds pays them all
    to the bank and no more; each payment is a chips effect (reason ``penalty``)."""
    state, _ = _three_seat_chips(rules("club-contack", chips_per_player=5, tile_penalty_chips=2))
    assert [held(state, s) for s in range(3)] == [5 + 2 - 3, 5 - 1 + 6, 5 - 1 - 3]
    state.rules.counters["chips"].on_hand_end(state)  # four tiles held each: 8 chips due from each
    assert chips(state) == [(0, None, 4, "penalty"), (1, None, 8, "penalty"), (2, None, 1, "penalty")]
    assert [held(state, s) for s in range(3)] == [0, 2, 0]
    assert state.hand_gains["chips"] == [2 - 3 - 4, -1 + 6 - 8, -1 - 3 - 1]


def test_club_timed_tile_penalty_borrows_what_a_seat_lacks() -> None:
    """004's timed game: "podrá pedir prestado de otro jugador o del Banco las que necesite":
    the penalty is paid in full, the shortfall lent by the richest other player (or the bank
    when no other player has enough); totals count the debts."""
    state, moved = _three_seat_chips(rules("club-contack", chips_per_player=5, tile_penalty_chips=2, timed="on",
                                           clock_turns=3, lender="players"))
    # Seat 1's 15 leaves them holding 4, 10 and 1; then the clock ends the hand and each owes
    # 8 chips for four tiles held. Seat 0 borrows 4 from seat 1 (the richest); seat 1, left
    # with 6, finds nobody else holding 2 and borrows from the bank, as does seat 2 (short 7).
    assert moved[2] == [(0, 1, 3, "collect"), (2, 1, 3, "collect"),
                        (1, 0, 4, "loan"), (0, None, 8, "penalty"),
                        (None, 1, 2, "loan"), (1, None, 8, "penalty"),
                        (None, 2, 7, "loan"), (2, None, 8, "penalty")]
    [result] = state.hand_results
    assert result.scores == (2 - 3 - 8, -1 + 6 - 8, -1 - 3 - 8)
    assert state.scores() == [5 + score for score in result.scores]


# =========================================================================== solitaire-1
SOLITAIRE_1 = rules("solitaire-1")


def _solitaire_1(draw_order: list[str]) -> GameState:
    """A Solitaire No. 1 whose face-down pile yields ``draw_order`` (the first opens)."""
    state = GameState(SOLITAIRE_1, 1)
    order = [tile(n) for n in draw_order]
    rest = [t for t in range(36) if t not in order]
    state.apply(Shuffle("stock", tuple(rest + order[::-1])))
    opening = state.sample_chance(random.Random(0))
    assert opening == Play(order[0], (0, 0))
    event = state.apply(opening)
    assert isinstance(event, Played) and event.points == 0
    return state


def test_solitaire_1_opens_from_the_pile_then_draws_only_when_nothing_can_be_played() -> None:
    """000: "Now draw one Triangle at random and turn it face up on the table in front of you to
    start the Solitaire." "If a Triangle cannot be played to the figure from the discard pile,
    draw one from those which are face down" """
    names = [n for n, _ in WINNING_ORDER]
    state = _solitaire_1(names)
    assert state.figure.tile_at == {(0, 0): tile("04-08-09")} and len(state.zones["stock"]) == 35
    assert state.legal_actions() == [Draw()]
    assert state.apply(Draw()).tile == tile("03-07-08")
    # It can be played: no draw and no discard now.
    legal = state.legal_actions()
    assert legal and all(isinstance(a, Play) for a in legal)
    with pytest.raises(IllegalAction, match="may not draw now"):
        state.apply(Draw())
    with pytest.raises(IllegalAction, match="may not discard now"):
        state.apply(Discard(tile("03-07-08")))


def test_solitaire_1_discard_only_when_the_drawn_tile_cannot_be_played_and_the_top_is_playable() -> None:
    """000: "adding it to the last Triangle played in the figure if possible, otherwise playing it
    to the top of the discard pile"; "you will have two chances to play": the Triangle drawn, or
    "the top Triangle from the discard pile to any new Triangle which is played to the figure"."""
    names = [n for n, _ in WINNING_ORDER]
    cells = dict(WINNING_ORDER)
    # 05-01-04 fits nowhere next to the opening tile; it goes onto the discard pile.
    state = _solitaire_1([names[0], names[4], *names[1:4], *names[5:]])
    state.apply(Draw())
    assert state.legal_actions() == [Discard(tile("05-01-04"))]
    discarded = state.apply(Discard(tile("05-01-04")))
    assert isinstance(discarded, Discarded) and discarded.zone == "discard"
    assert state.zones["discard"] == [tile("05-01-04")] and state.legal_actions() == [Draw()]
    for tile_name in names[1:4]:
        state.apply(Draw())
        event = play(state, tile_name, cells[tile_name])
        assert event.source == "hand"
    # Next to 09-10-01 on [2, -1], the discard top fits: it must be played, not a new draw.
    assert state.legal_actions() == [Play(tile("05-01-04"), cells["05-01-04"])]
    event = play(state, "05-01-04", cells["05-01-04"])
    assert event.source == "discard" and state.zones["discard"] == []


def test_solitaire_1_won_with_all_36_triangles_in_the_figure() -> None:
    """000: "until you have succeeded in completing the Solitaire by adding all the Triangles to
    the figure"."""
    names = [n for n, _ in WINNING_ORDER]
    cells = dict(WINNING_ORDER)
    state = _solitaire_1(names)
    lines: list[str] = []
    narrator = Narrator(["solo"], lines.append)
    for tile_name in names[1:]:
        assert not state.is_over()
        state.apply(Draw())
        play(state, tile_name, cells[tile_name])
    assert state.is_over()
    [result] = state.hand_results
    assert result.reason == "completed" and len(result.figure.tile_at) == 36
    assert state.scores() == [36] and state.winners() == [0]
    narrator.hand_ended(state, result)
    narrator.game_ended(state)
    assert lines[0] == ("-- Solitaire 1: the Solitaire is completed, every Triangle is in the figure "
                        "(36 Triangles in the figure)")
    assert lines[-1] == "solo (seat 0) has completed the Solitaire"


def test_solitaire_1_blocked_when_the_pile_is_empty_and_nothing_can_be_played() -> None:
    """000: "or until you are blocked, after all Triangles are drawn, by being unable to play the
    Triangles from the discard pile"."""
    # Draw in the set's order, always playing when possible.
    state = _solitaire_1([name(t) for t in range(36)])
    while not state.is_over():
        state.apply(state.legal_actions()[0])  # the rules leave one kind of action at a time
    [result] = state.hand_results
    assert result.reason == "blocked"
    assert state.zones["stock"] == [] and state.seat_zones["hand"][0] == []
    placed = len(result.figure.tile_at)
    assert placed + len(state.zones["discard"]) == 36 and 0 < placed < 36
    assert not ref_plays(result.figure.tile_at, result.figure.last, state.zones["discard"][-1:])
    assert state.scores() == [placed] and state.winners() == []


def test_solitaire_result_narration_says_won_or_blocked_and_tiles_placed() -> None:
    """The issue: "Solitaire results say won or blocked and how many tiles were placed"."""
    for ruleset_id in ("solitaire-1", "solitaire-2"):
        result = run_cli("play", ruleset_id, "--seats", "random", "--seed", "3")
        assert result.exit_code == 0, result.output
        ended = re.search(r"^-- Solitaire 1: blocked, [^(]*\((\d+) Triangles in the figure\)$", result.stdout, re.M)
        assert ended, result.stdout
        assert f"1. random (seat 0): {ended.group(1)}" in result.stdout
        assert result.stdout.rstrip().endswith("the Solitaire is blocked")


# =========================================================================== solitaire-2
SOLITAIRE_2 = rules("solitaire-2")
STACKS = ["pile-1", "pile-2", "pile-3", "pile-4", "pile-5", "pile-6", "six-pile"]


def _solitaire_2(opening: str | None = "04-08-09") -> GameState:
    """Stacks laid so that WINNING_ORDER[1:] comes off them top first: pile-1 holds the 2nd to
    6th Triangles, ..., the six-pile the 32nd to 36th with the opening Triangle at the bottom."""
    state = GameState(SOLITAIRE_2, 1)
    state.apply(Shuffle("stock", tuple(range(36))))
    names = [n for n, _ in WINNING_ORDER]
    stacks = [names[1 + 5 * i: 6 + 5 * i] for i in range(6)] + [names[31:] + [names[0]]]
    for zone, top_first in zip(STACKS, stacks):
        event = state.apply(Deal(None, tuple(tile(n) for n in reversed(top_first)), zone))
        assert (event.seat, event.zone) == (None, zone)
    if opening is not None:
        state.apply(Play(tile(opening), (0, 0)))
    return state


def test_solitaire_2_seven_face_up_stacks_six_of_five_and_one_of_six() -> None:
    """000: "placed face up in seven different piles which will consist of six piles of five
    triangles each, and one pile of six triangles." """
    state = GameState(SOLITAIRE_2, 1)
    rng = random.Random(1)
    while state.is_chance_node() and state.rules.setup[state.step].name != "open-from-zone":
        state.apply(state.sample_chance(rng))
    assert [len(state.zones[z]) for z in STACKS] == [5, 5, 5, 5, 5, 5, 6]
    assert state.zones["stock"] == []
    with pytest.raises(IllegalAction, match="six-pile is dealt 6 tiles; 5 given"):
        _partial = GameState(SOLITAIRE_2, 1)
        _partial.apply(Shuffle("stock", tuple(range(36))))
        for zone in STACKS[:6]:
            _partial.apply(_partial.sample_chance(rng))
        _partial.apply(Deal(None, tuple(_partial.zones["stock"][:5]), "six-pile"))


def test_solitaire_2_opening_is_cut_from_the_six_pile() -> None:
    """000: "To start the play, cut the Six pile at random and take out a Triangle for your first
    play. Place this Triangle on the table face up." """
    state = _solitaire_2(opening=None)
    six = list(state.zones["six-pile"])
    for rng_seed in range(20):
        opening = state.sample_chance(random.Random(rng_seed))
        assert isinstance(opening, Play) and opening.tile in six and opening.cell == (0, 0)
    assert {state.sample_chance(random.Random(s)).tile for s in range(60)} == set(six)
    with pytest.raises(IllegalAction, match=r"tile 03-07-08 cannot open the figure: it is in pile-1, not in six-pile"):
        state.apply(Play(tile("03-07-08"), (0, 0)))
    state.apply(Play(tile("04-08-09"), (0, 0)))
    assert len(state.zones["six-pile"]) == 5 and tile("04-08-09") not in state.zones["six-pile"]


#: Stacks (bottom first) of a deal where no top fits the tile cut from the six-pile
#: (random play, seed 2949): 08-09-03 opens, and blue 3, red 9, gold 8 meet no top.
DEAD_START = {
    "pile-1": ["05-01-04", "09-05-08", "05-09-10", "10-06-09", "04-08-09"],
    "pile-2": ["01-02-03", "09-10-07", "09-02-08", "07-08-02", "06-07-08"],
    "pile-3": ["03-07-08", "05-06-03", "05-06-07", "08-01-07", "06-07-01"],
    "pile-4": ["06-07-04", "02-03-04", "08-09-10", "08-04-07", "01-05-06"],
    "pile-5": ["08-09-06", "07-08-09", "01-08-09", "03-04-01", "10-03-09"],
    "pile-6": ["04-05-06", "02-09-10", "04-05-02", "07-03-06", "03-04-05"],
    "six-pile": ["02-06-07", "09-10-04", "08-09-03", "07-08-05", "06-02-05", "09-10-01"],
}


def test_solitaire_2_blocked_at_once_when_no_top_fits_the_opening_tile(tmp_path: Path) -> None:
    """000: "until you have either completed the Solitaire ... or until you are blocked". A deal
    whose opening tile no top fits is blocked before the first play: over, with one Triangle
    placed, not a state that is neither over nor playable (a random bot looped on it forever)."""
    state = GameState(SOLITAIRE_2, 1)
    state.apply(Shuffle("stock", tuple(range(36))))
    for zone in STACKS:
        state.apply(Deal(None, tuple(tile(n) for n in DEAD_START[zone]), zone))
    state.apply(Play(tile("08-09-03"), (0, 0)))
    assert state.is_over() and state.legal_actions() == []
    [result] = state.hand_results
    assert result.reason == "blocked"
    assert state.scores() == [1] and state.winners() == []
    # The same deal as a random game plays it: recorded, it audits sound (it was refused).
    record = tmp_path / "dead.jsonl"
    assert run_cli("play", "solitaire-2", "--seats", "random", "--seed", 2949, "--record", record).exit_code == 0
    assert [json.loads(line).get("event") for line in record.read_text().splitlines()][-3:] == \
        ["play", "hand_end", "game_end"]
    verdict = audit_record(record)
    assert verdict.valid and verdict.finished and verdict.totals == [1], verdict


def test_solitaire_2_only_the_top_of_a_stack_can_be_played() -> None:
    """000: "with any Triangle showing at the top of any one of the seven piles, do so." """
    state = _solitaire_2()
    tops = {state.zones[z][-1] for z in STACKS}
    legal = state.legal_actions()
    assert legal and {a.tile for a in legal} <= tops
    assert set(legal) == ref_plays(state.figure.tile_at, state.figure.last, tops)
    # 06-07-08 lies under 03-07-08 in pile-1.
    assert state.zones["pile-1"][-2] == tile("06-07-08")
    with pytest.raises(IllegalAction, match=r"^tile 06-07-08 is not on top of its pile \(pile-1\): only 03-07-08, on top, "
                                            r"may be played from it$"):
        state.apply(Play(tile("06-07-08"), (1, 0)))
    event = play(state, "03-07-08", (1, 0))
    assert event.source == "pile-1"


def test_solitaire_2_won_with_every_stack_emptied() -> None:
    """000: "until you have either completed the Solitaire by using all the Triangles" """
    state = _solitaire_2()
    cells = dict(WINNING_ORDER)
    for tile_name, _ in WINNING_ORDER[1:]:
        play(state, tile_name, cells[tile_name])
    [result] = state.hand_results
    assert result.reason == "completed" and all(not state.zones[z] for z in STACKS)
    assert state.scores() == [36] and state.winners() == [0]


def test_solitaire_2_blocked_when_no_top_fits() -> None:
    """000: "or until you are unable to make a Matching or Counting 'Contack' with one of the
    Triangles exposed at the top of the piles." """
    state = _solitaire_2()
    # Play only the first five Triangles of the winning order, from pile-1, then take other
    # tops while any fits.
    cells = dict(WINNING_ORDER)
    for tile_name, _ in WINNING_ORDER[1:6]:
        play(state, tile_name, cells[tile_name])
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    [result] = state.hand_results
    tops = [state.zones[z][-1] for z in STACKS if state.zones[z]]
    assert result.reason == "blocked" and tops
    assert not ref_plays(result.figure.tile_at, result.figure.last, tops)
    placed = len(result.figure.tile_at)
    assert placed + sum(len(state.zones[z]) for z in STACKS) == 36
    assert state.scores() == [placed] and state.winners() == []
