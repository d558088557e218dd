"""Scores only: a game kept as each hand's results, with the arithmetic the rules allow checked.

Score-keeping apps take a tap per player per hand and check nothing; ``contack keep
--scores-only`` takes one line per hand (each seat's net score or chips for the hand, or a
points game's ``POINTS/HELD``: the points made and the tiles still held) and checks what can
be told without the play, all of it read off the compiled ruleset, never its name:

- each hand's figures are whole numbers, one per seat, and the game has as many hands as its
  match allows (it ends where the match says: a fixed number of hands, a goal reached);
- a points game whose plays score their contacts' points: the points made are multiples of
  the contacts' step (5 in every Contack ruleset), a hand's net score is the points made plus
  what the ruleset's own hand-end formula gives for the tiles held (so a penalty is a multiple
  of the per-tile penalty), and a net score typed alone is a multiple of what those allow;
- a game scored by the tiles placed (the hand-end formula reads only the tiles in the figure): a
  hand's figure is one the formula gives for a figure holding at least the tiles the set-up lays
  and at most the whole set, and every seat's is the same;
- a chips game whose chips change hands between the players: the chips each hand moves add up
  to what the bank took (the tile penalties; none: the chips are conserved);
- the totals are the sums of the hands (from each seat's starting chips), and the winners the
  seats the match ranks first.

What it cannot check is said as plainly (:meth:`Arithmetic.unchecked`): no play, draw or pass
is recorded, so whose turn, which tiles, which contacts, and who went out are taken on trust.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from typing import Any

import attrs

from contack_core.boards.lattice import figure_of
from contack_core.engine.actions import IllegalAction
from contack_core.engine.events import HandResult
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ScoresOnlyUnsupported(ValueError):
    """A ruleset whose result is not a score per hand (a game decided on the board)."""


@attrs.frozen
class HandFigures:
    """One hand as typed: each seat's net figure, and (a points game) the points made and tiles held."""

    scores: tuple[int, ...]
    points: tuple[int, ...] | None = None
    held: tuple[int, ...] | None = None


class Arithmetic:
    """What the rules allow a hand's results to be, as far as they can be told without the play."""

    def __init__(self, rules: Rules, seats: int) -> None:
        match = rules.match
        if not match.scored_by_hands:
            raise ScoresOnlyUnsupported(f"{rules.id} is not scored by hands (its result is decided on the board): "
                                        f"keep it entry by entry, without --scores-only")
        self.rules = rules
        self.seats = seats
        self.counter_name = match.counter
        counter = rules.counters[self.counter_name]
        self.counter = counter
        self.word = rules.term(self.counter_name)
        self.start = counter.starting_total(seats)
        gains = counter.gains
        transfers = bool(counter.transfers)
        constants = set(counter.constants)
        #: Chips change hands on a play (collected from the others): the hand's changes add up to the bank's take.
        self.transfers = counter.collects_from_others
        self.loans = self.transfers and counter.borrow
        hand_end = gains.get("hand_end", 0)
        reads = {name for name in _NAME.findall(str(hand_end))} - constants
        #: The hand-end formula reads only the tiles held: what it gives for each count is known.
        self.penalty_known = reads <= {"tiles_held"} and not transfers
        step = rules.placement.points_step if rules.placement is not None else None
        #: Points made come only from the contacts' points: they are multiples of this (None: unknown).
        self.points_step = step if (
            not self.transfers and not transfers and str(gains.get("play", "")).strip() == "points"
            and set(gains) <= {"play", "hand_end"}) else None
        self.most_held = len(rules.tiles)
        #: A count of tiles placed: the hand's figure is the hand-end formula of the tiles in the figure
        #: alone, so it is the same for every seat and one of these (figure -> the counts that give it).
        self.placed: dict[int, list[int]] | None = None
        if (reads == {"figure_tiles"} and set(gains) == {"hand_end"} and not transfers and not self.transfers
                and self.points_step is None):
            self.fewest_placed = self._placed_by_setup()
            self.placed = {}
            for count in range(self.fewest_placed, self.most_held + 1):
                self.placed.setdefault(self._figure_for(count), []).append(count)
        self._penalties: dict[int, int] = {}
        self.per_tile = -self.penalty(1) if self.penalty_known else None
        #: How messages name the seats (the players' names, once known).
        self.names: list[str] = [f"seat {seat}" for seat in range(seats)]

    # ------------------------------------------------------------------ what the rules give
    def penalty(self, held: int) -> int:
        """What the ruleset's hand-end formula adds for ``held`` tiles held (worked out by the formula itself)."""
        found = self._penalties.get(held)
        if found is None:
            state = GameState(self.rules, self.seats)
            zone = next(iter(state.seat_zones), None)
            if zone is not None:
                state.seat_zones[zone][0] = list(range(held))
            found = self._penalties[held] = self.counter.hand_end_values(state)[0]
        return found

    def _placed_by_setup(self) -> int:
        """How many tiles a hand's set-up lays on the figure before anyone acts (an opening tile): the
        fewest a hand can end with."""
        state = GameState(self.rules, self.seats)
        rng = random.Random(0)
        while not state.is_over() and state.setup_step is not None:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            if not actions:
                break
            state.apply(actions[0])
        return len(state.figure.tile_at)

    def _figure_for(self, count: int) -> int:
        """What the ruleset's hand-end formula gives a seat when the figure holds ``count`` tiles."""
        state = GameState(self.rules, self.seats)
        figure_of(state.figure).tile_at = {(x, 0): 0 for x in range(count)}  # only their number is read
        return self.counter.hand_end_values(state)[0]

    def _placed_words(self) -> str:
        values = sorted(self.placed or ())
        if values == list(range(values[0], values[-1] + 1)):
            return f"from {values[0]} to {values[-1]}"
        return "one of " + ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")

    @property
    def net_step(self) -> int | None:
        """A net score typed alone is a multiple of this (points made and penalties both are)."""
        if self.points_step is None or not self.penalty_known or self.per_tile is None:
            return None
        return math.gcd(self.points_step, self.per_tile)

    def checked(self) -> list[str]:
        """What the audit and the keeper check of a scores-only record of this ruleset, in words."""
        found = [f"one whole number per seat each hand, and {self.hands_words()}"]
        if self.points_step is not None:
            found.append(f"points made are multiples of {self.points_step} (every contact scores so)")
            if self.penalty_known:
                found.append(f"a hand's score is the points made {self._penalty_words()} for each tile held, as "
                             f"the ruleset counts it; a score typed alone is a multiple of {self.net_step}")
        if self.placed is not None:
            found.append(f"a hand's {self.word} is {self._placed_words()}: what the ruleset counts of the tiles in "
                         f"the figure, which holds at least the {self.fewest_placed} the set-up lays and at most the "
                         f"{self.most_held} of the set" + (", the same for every seat" if self.seats > 1 else ""))
        if self.transfers and not self.loans:
            found.append(f"the {self.word} a hand moves add up to what the bank takes" + (
                " (nothing: the chips are conserved)" if self.penalty_known and self.per_tile == 0 else
                f" ({self._penalty_words()} for each tile held)" if self.penalty_known else ""))
        found.append(f"the totals are the sums of the hands (from {self.start} each), and the winners are the seats "
                     f"the match ranks first")
        return found

    def unchecked(self) -> list[str]:
        """What it cannot check, in words."""
        found = ["any play, draw or pass (none is recorded): whose turn, which tiles, the contacts, who went out"]
        if self.placed is not None:
            found.append("which tiles were placed, and whether the stock's order let that many be placed")
        elif self.points_step is None and not self.transfers:
            found.append(f"how a hand's {self.word} is made (this ruleset's formulas read more than the contacts "
                         f"and the tiles held)")
        elif self.transfers and self.loans:
            found.append(f"that the {self.word} are conserved (a player short of them borrows)")
        elif not self.penalty_known:
            found.append("the penalty for tiles held (the ruleset's formula reads more than the tiles held)")
        return found

    def hands_words(self) -> str:
        hands = self.rules.match.hands
        return f"at most {hands} hand{'s' if hands != 1 else ''}, ending where the match ends"

    def _penalty_words(self) -> str:
        per_tile = self.per_tile or 0
        return f"less {per_tile}" if per_tile >= 0 else f"plus {-per_tile}"

    # ------------------------------------------------------------------ checking a hand
    def check(self, hand: HandFigures) -> None:
        """:class:`IllegalAction` saying what does not add up in ``hand``."""
        seats = self.seats
        if len(hand.scores) != seats:
            raise IllegalAction(f"a hand has {seats} {self.word} figure{'s' if seats != 1 else ''}, one per seat; "
                                f"{len(hand.scores)} given")
        for what, values in (("points", hand.points), ("held", hand.held)):
            if values is not None and len(values) != seats:
                raise IllegalAction(f"{what} has {len(values)} figures; a hand has one per seat")
        if (hand.points is not None or hand.held is not None) and self.points_step is None:
            raise IllegalAction(f"points made and tiles held can be told apart only in a game scored by its "
                                f"contacts' points: give each seat's {self.word} for the hand")
        names = self.names
        if hand.held is not None:
            for seat, held in enumerate(hand.held):
                if not 0 <= held <= self.most_held:
                    raise IllegalAction(f"{names[seat]} cannot hold {held} tiles (the set has {self.most_held})")
        if hand.points is not None and self.points_step is not None:
            for seat, points in enumerate(hand.points):
                if points < 0 or points % self.points_step:
                    raise IllegalAction(f"{names[seat]} made {points} points: points made are multiples of "
                                        f"{self.points_step}, and never below 0")
        if hand.points is not None and hand.held is not None and self.penalty_known:
            for seat in range(seats):
                due = hand.points[seat] + self.penalty(hand.held[seat])
                if hand.scores[seat] != due:
                    raise IllegalAction(f"{names[seat]}'s score is {due} ({hand.points[seat]} points made, "
                                        f"{hand.held[seat]} tiles held at {self.per_tile} each), not "
                                        f"{hand.scores[seat]}")
        if self.placed is not None:
            for seat, score in enumerate(hand.scores):
                if score not in self.placed:
                    raise IllegalAction(f"{names[seat]}'s {self.word} cannot be {score}: it is {self._placed_words()} "
                                        f"(the figure holds at least the {self.fewest_placed} the set-up lays, at most "
                                        f"the {self.most_held} of the set)")
            if len(set(hand.scores)) > 1:
                raise IllegalAction(f"every player's {self.word} is the same (the tiles in the one figure): "
                                    + ", ".join(f"{names[s]} {score}" for s, score in enumerate(hand.scores)))
        step = self.net_step
        if step:
            for seat, score in enumerate(hand.scores):
                if score % step:
                    raise IllegalAction(f"{names[seat]}'s {score} cannot be a hand's score: points made and tile "
                                        f"penalties are multiples of {step}")
        if self.transfers and not self.loans:
            moved = sum(hand.scores)
            if hand.held is not None and self.penalty_known:
                taken = sum(self.penalty(held) for held in hand.held)
                if moved != taken:
                    raise IllegalAction(f"the {self.word} moved add up to {moved}, not to {taken} (what the bank "
                                        f"takes for the tiles held): {self.word} change hands, none are made")
            elif self.penalty_known and self.per_tile == 0 and moved != 0:
                raise IllegalAction(f"the {self.word} moved add up to {moved:+d}: they only change hands, so a "
                                    f"hand's gains and losses add up to 0")
            elif self.penalty_known and self.per_tile and (moved > 0 or moved % self.per_tile):
                raise IllegalAction(f"the {self.word} moved add up to {moved:+d}: only the bank takes any (a "
                                    f"multiple of {self.per_tile} for tiles held), so they add up to 0 or less")

    def complete(self, hand: HandFigures) -> HandFigures:
        """``hand`` with its net scores, worked out from the points made and tiles held where only they are given."""
        if hand.scores or hand.points is None or hand.held is None:
            return hand
        if self.points_step is None or not self.penalty_known:
            raise IllegalAction(f"points made and tiles held can be told apart only in a game scored by its "
                                f"contacts' points: give each seat's {self.word} for the hand")
        return attrs.evolve(hand, scores=tuple(p + self.penalty(h) for p, h in zip(hand.points, hand.held)))


class ScoresGame:
    """The game a scores-only record states so far: the hands' figures, and what the match makes of them."""

    def __init__(self, arithmetic: Arithmetic, names: Sequence[str] | None = None) -> None:
        self.arithmetic = arithmetic
        self.state = GameState(arithmetic.rules, arithmetic.seats)
        if names is not None:
            self.state.seat_names = tuple(names)
            arithmetic.names = list(names)
        counter = arithmetic.counter_name
        self.state.totals[counter] = [arithmetic.start] * arithmetic.seats
        self.hands: list[HandFigures] = []
        self.ended_early = False

    def is_over(self) -> bool:
        return self.ended_early or bool(self.hands) and bool(self.arithmetic.rules.match.game_over(self.state))

    def add(self, hand: HandFigures) -> HandFigures:
        """Take one hand's figures (checked: :class:`IllegalAction`, nothing changed, if they do not add up)."""
        if self.is_over():
            raise IllegalAction(f"the game is over after {len(self.hands)} hand{'s' if len(self.hands) != 1 else ''}")
        hand = self.arithmetic.complete(hand)
        self.arithmetic.check(hand)
        counter = self.arithmetic.counter_name
        state = self.state
        state.totals[counter] = [total + score for total, score in zip(state.totals[counter], hand.scores)]
        held = hand.held or (0,) * len(hand.scores)
        state.hand_results.append(HandResult(len(self.hands) + 1, "scores", tuple(hand.scores), tuple(held), None,
                                             state.figure))
        self.hands.append(hand)
        return hand

    def totals(self) -> list[int]:
        return self.state.scores()

    def game_end_line(self) -> dict[str, Any]:
        """The record's ``game_end`` object for the hands so far."""
        from contack_core.records.format import game_end_line

        return game_end_line(self.state)


def hand_line(number: int, hand: HandFigures) -> dict[str, Any]:
    """The ``hand_end`` line of a scores-only record."""
    line: dict[str, Any] = {"event": "hand_end", "number": number, "scores": list(hand.scores)}
    if hand.points is not None:
        line["points"] = list(hand.points)
    if hand.held is not None:
        line["held"] = list(hand.held)
    return line


def figures_of(line: dict[str, Any]) -> HandFigures:
    """The figures a ``hand_end`` line of a scores-only record states."""
    points, held = line.get("points"), line.get("held")
    return HandFigures(tuple(line["scores"]), tuple(points) if points is not None else None,
                       tuple(held) if held is not None else None)


def read_hand(text: str, seats: Sequence[str]) -> HandFigures:
    """A hand as typed: each seat's figure in seat order (``35 -20 10``) or by name (``bob -20, alice 35,
    carol 10``); a figure is a net score or ``POINTS/HELD`` (``55/2``: 55 points made, 2 tiles held)."""
    text = text.strip()
    words = [w for w in re.split(r"[\s,;:=]+", text) if w]
    lowered = [name.lower() for name in seats]
    figures: list[str | None]
    if words and not _FIGURE.fullmatch(words[0]):
        figures = [None] * len(seats)
        if len(words) % 2:
            raise ValueError(f"{text!r}: write each player's name then the figure (alice 35, bob -20), or the figures "
                             f"in seat order")
        for name, figure in zip(words[::2], words[1::2]):
            if name.lower() not in lowered:
                raise ValueError(f"no player {name!r}: the players are {', '.join(seats)}")
            seat = lowered.index(name.lower())
            if figures[seat] is not None:
                raise ValueError(f"{seats[seat]} is named twice")
            figures[seat] = figure
        missing = [seats[s] for s, figure in enumerate(figures) if figure is None]
        if missing:
            raise ValueError(f"no figure for {', '.join(missing)}: every player's is needed")
    else:
        figures = list(words)
        if len(figures) != len(seats):
            raise ValueError(f"{len(figures)} figure{'s' if len(figures) != 1 else ''} for {len(seats)} "
                             f"player{'s' if len(seats) != 1 else ''} ({', '.join(seats)}, in that order)")
    parsed = []
    for seat, figure in enumerate(figures):
        assert figure is not None
        found = _FIGURE.fullmatch(figure)
        if found is None:
            raise ValueError(f"{figure!r} for {seats[seat]} is not a figure: a score (35, -20) or points made and "
                             f"tiles held (55/2)")
        parsed.append(found)
    detailed = [bool(found.group(2)) for found in parsed]
    if any(detailed) and not all(detailed):
        raise ValueError("give every player's points and tiles held (55/2), or every player's score alone")
    if all(detailed):
        points = tuple(int(found.group(1)) for found in parsed)
        held = tuple(int(found.group(2)) for found in parsed)
        return HandFigures((), points, held)
    return HandFigures(tuple(int(found.group(1)) for found in parsed))


_FIGURE = re.compile(r"([+-]?\d{1,7})(?:/(\d{1,3}))?")
