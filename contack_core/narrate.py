"""Telling a game as it is played, in the ruleset's own words (its ``terms``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from contack_core.events import Dealt, Drew, Event, HandResult, Passed, Played
from contack_core.state import GameState


class Narrator:
    """A game observer that writes one line per event through ``write``.

    With ``events=False`` it tells only the final standings.
    """

    def __init__(self, seat_names: Sequence[str], write: Callable[[str], None] = print, events: bool = True) -> None:
        self.seat_names = list(seat_names)
        self.write = write
        self.events = events

    def who(self, seat: int) -> str:
        return f"{self.seat_names[seat]} (seat {seat})"

    def hand_started(self, state: GameState, number: int) -> None:
        if not self.events:
            return
        self.write(f"== {state.rules.term('hand').capitalize()} {number} ==")

    def event(self, state: GameState, event: Event) -> None:
        if not self.events:
            return
        rules = state.rules
        names = rules.tiles.names
        if isinstance(event, Dealt):
            self.write(f"{self.who(event.seat)}: {' '.join(names[t] for t in event.tiles)}")
        elif isinstance(event, Played):
            figure = state.figure
            if figure.tile_at.get(event.cell) != event.tile:  # the play ended the hand
                figure = state.hand_results[-1].figure
            contacts = rules.placement.contacts_of(figure, event.cell)
            if not contacts:
                self.write(f"{self.who(event.seat)} {rules.term('opens')} {names[event.tile]} at {list(event.cell)}")
                return
            parts = []
            for c in contacts:
                colour = rules.colour_term(c["colour"])
                kind = rules.term("counting") if c["counting"] else rules.term("matching")
                worth = f" = {c['points']}" if c["counting"] else ""
                parts.append(f"{colour} {c['mine']}+{c['theirs']} {kind}{worth}")
            extra = f" [{rules.term('opportunity')}]" if event.opportunity else ""
            self.write(f"{self.who(event.seat)} {rules.term('plays')} {names[event.tile]} at {list(event.cell)}: "
                       f"{'; '.join(parts)} -> {event.points} {rules.term('points')}{extra}")
        elif isinstance(event, Drew):
            self.write(f"{self.who(event.seat)} {rules.term('draw')} {names[event.tile]}")
        elif isinstance(event, Passed):
            self.write(f"{self.who(event.seat)} {rules.term('pass')}")

    def hand_ended(self, state: GameState, result: HandResult) -> None:
        if not self.events:
            return
        rules = state.rules
        self.write(f"-- {rules.term('hand').capitalize()} {result.number}: {rules.term(result.reason)}")
        for seat, score in enumerate(result.scores):
            self.write(f"   {self.who(seat)}: {score:+d} ({result.held[seat]} {rules.term('held')})")

    def fault(self, state: GameState, fault: Any) -> None:
        """A player's fault (:class:`contack_core.game.Fault`), told even in quiet mode."""
        cost = {"pass": "the move is forfeited", "forfeit": "the game is forfeited"}.get(fault.penalty, "noted")
        self.write(f"{self.who(fault.seat)} FAULT ({fault.kind}): {fault.reason}; {cost}")

    def game_ended(self, state: GameState) -> None:
        rules = state.rules
        totals = state.scores()
        forfeited = getattr(state, "forfeited_by", None)
        if forfeited is not None:
            self.write(f"{self.who(forfeited)} forfeits the game (hand {state.hand_number})")
        self.write(f"== {rules.term('total').capitalize()} ==")
        for rank, seat in enumerate(sorted(range(len(totals)), key=lambda s: (-totals[s], s)), start=1):
            self.write(f"{rank}. {self.who(seat)}: {totals[seat]}")
        winners = state.winners()
        if len(winners) == 1:
            self.write(f"{self.who(winners[0])} {rules.term('winner')}")
        else:
            self.write(f"{', '.join(self.who(s) for s in winners)} {rules.term('winners')}")
