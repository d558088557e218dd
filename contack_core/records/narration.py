"""Telling a game as it is played, in the ruleset's own words (its ``terms``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from contack_core.engine.events import Discarded, Drew, Event, HandResult, Moved, Passed, Played
from contack_core.engine.notation import event_to_string, hand_to_string, winners_to_string
from contack_core.engine.referee import Fault, RefereedGame
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState


class Narrator:
    """A game observer that writes one line per event through ``write``.

    With ``events=False`` it tells only the final standings.
    """

    def __init__(self, seat_names: Sequence[str], write: Callable[[str], None] = print, events: bool = True) -> None:
        self.seat_names = list(seat_names)
        self.write = write
        self.events = events
        #: The match counter's running totals as last told, and the hands ended by then: what
        #: an event changed besides a play's own points (a pass that pays, a doubled play) is
        #: told beside it.
        self._running: list[int] | None = None
        self._hands_seen = 0
        #: The direction of play last told, and in which hand (a turn-order effect may reverse it).
        self._direction = (0, 1)

    def follow(self, state: GameState) -> None:
        """Take ``state`` as told so far: a game rebuilt from its record (an undo, a fix, a resume) was
        replayed untold, so what the next event changed is measured from it, not from the game last told."""
        counter = state.rules.match.counter
        self._running = [total + gain for total, gain in zip(state.totals[counter], state.hand_gains[counter])]
        self._hands_seen = len(state.hand_results)
        self._direction = (state.hand_number, state.direction)

    def who(self, seat: int, rules: Rules) -> str:
        return f"{self.seat_names[seat]} ({rules.term('seat')} {seat})"

    def hand_started(self, state: GameState, number: int) -> None:
        if not self.events:
            return
        self.write(f"== {hand_to_string(state.rules, number)} ==")

    def event(self, state: GameState, event: Event) -> None:
        if not self.events:
            return
        changed = self._changes(state, event)
        self._tell(state, event)
        if changed:
            self.write(f"   {state.rules.term('score')}: {changed}")
        if state.rules.turn_order and isinstance(event, (Played, Passed, Moved, Drew, Discarded)):
            self._tell_turn(state, event)

    def _tell_turn(self, state: GameState, event: Played | Passed | Moved | Drew | Discarded) -> None:
        """What the ruleset's turn-order effects did after ``event``: another turn, a direction
        reversed, seats passed over (nothing when the hand or game ended with it). After a draw or
        a discard the turn goes on: only a reversal shows then, the rest when the turn ends."""
        if state.over or state.chance or state.setup_step is not None:
            return
        rules, count = state.rules, state.seat_count
        seen_hand, seen = self._direction
        if seen_hand == state.hand_number and seen != state.direction:
            self.write(f"   {rules.term('reversed')}")
        self._direction = (state.hand_number, state.direction)
        if isinstance(event, (Drew, Discarded)):
            return
        if state.given:  # a seat chosen by a next-seat effect: told when it is not the one the turn passes to anyway
            following = (event.seat + state.direction) % count
            while not (state.figure.every_seat_in_play or state.figure.seat_in_play(following)) \
                    and following != event.seat:
                following = (following + state.direction) % count
            if state.current != following:
                self.write(f"   {self.who(state.current, rules)} {rules.term('given')}")
            return
        if state.current == event.seat:
            self.write(f"   {self.who(event.seat, rules)} {rules.term('again')}")
            return
        seat = (event.seat + state.direction) % count
        passed: list[int] = []
        while seat != state.current and len(passed) < count:
            if state.figure.every_seat_in_play or state.figure.seat_in_play(seat):
                passed.append(seat)
            seat = (seat + state.direction) % count
        for skipped in passed:
            self.write(f"   {self.who(skipped, rules)} {rules.term('skipped')}")

    def _changes(self, state: GameState, event: Event) -> str:
        """What the event changed in the match counter's running totals, as ``seat 1 +5, seat
        0 -5``; empty when that is just a play's own points, or nothing, or a hand ended (the
        hand's end tells its scores)."""
        counter = state.rules.match.counter
        running = [total + gain for total, gain in zip(state.totals[counter], state.hand_gains[counter])]
        before, self._running = self._running, running
        ended, self._hands_seen = len(state.hand_results) > self._hands_seen, len(state.hand_results)
        if before is None or ended or len(before) != len(running):
            return ""
        deltas = [after - earlier for after, earlier in zip(running, before)]
        if isinstance(event, Played) and deltas == [event.points if seat == event.seat else 0
                                                    for seat in range(len(deltas))]:
            return ""
        rules = state.rules
        return ", ".join(f"{self.who(seat, rules)} {delta:+d}" for seat, delta in enumerate(deltas) if delta)

    def _tell(self, state: GameState, event: Event) -> None:
        rules = state.rules
        told = event_to_string(state, event, lambda seat: self.who(seat, rules))
        if told is not None:
            self.write(told)

    def hand_ended(self, state: GameState, result: HandResult) -> None:
        if not self.events:
            return
        rules = state.rules
        self.write(f"-- {hand_to_string(rules, result.number, result.reason)} "
                   f"({len(result.figure.tile_at)} {rules.term('placed')})")
        for seat, score in enumerate(result.scores):
            held = f" ({result.held[seat]} {rules.term('held')})" if rules.zones else ""  # no hands: nothing held
            self.write(f"   {self.who(seat, rules)}: {score:+d}{held}")

    def fault(self, state: GameState, fault: Fault) -> None:
        """A player's fault (:class:`contack_core.engine.referee.Fault`), told even in quiet mode."""
        if fault.kind == "resigned":  # not a failure: the player left (the forfeit is told at the game's end)
            self.write(f"{self.who(fault.seat, state.rules)} resigns: {fault.reason}")
            return
        cost = {"pass": "the move is forfeited", "forfeit": "the game is forfeited"}.get(fault.penalty, "noted")
        self.write(f"{self.who(fault.seat, state.rules)} FAULT ({fault.kind}): {fault.reason}; {cost}")

    def game_ended(self, state: GameState) -> None:
        refereed = state if isinstance(state, RefereedGame) else None
        if refereed is not None and refereed.ruleset_error is not None:
            return  # the game stopped mid-action: no standings to tell (the caller reports the error)
        rules = state.rules
        totals = state.scores()
        forfeited = None if refereed is None else refereed.forfeited_by
        if forfeited is not None:
            self.write(f"{self.who(forfeited, rules)} forfeits the game (hand {state.hand_number})")
        self.write(f"== {rules.term('total').capitalize()} ==")
        if rules.match.measure_texts:  # decided by an ordered list of measures: ranked by them, each shown
            keys, values = rules.match.ranking_keys(state), rules.match.measure_values(state)
            order = sorted(range(len(totals)), key=lambda s: (tuple(-k for k in keys[s]), s))
            texts = rules.match.measure_texts
            shown = [" (" + ", ".join(f"{text} {value}" for text, value in zip(texts, values[s])) + ")"
                     for s in range(len(totals))]
        else:
            order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
            shown = [""] * len(totals)
        for rank, seat in enumerate(order, start=1):
            self.write(f"{rank}. {self.who(seat, rules)}: {totals[seat]}{shown[seat]}")
        teams = rules.match.teams(state.seat_count)
        partners = any(len(team) > 1 for team in teams)
        if partners:
            for team, pooled in zip(teams, rules.match.team_totals(state)):
                self.write(f"   {rules.term('partners')} {' + '.join(self.who(s, rules) for s in team)}: {pooled}")
        final = state.final_gains.get(rules.match.counter) or []
        if any(final):
            added = ", ".join(f"{self.who(seat, rules)} {gain:+d}" for seat, gain in enumerate(final) if gain)
            self.write(f"   ({rules.term('game_end')}: {added})")
        self.write(winners_to_string(rules, state.winners(), totals, teams, lambda seat: self.who(seat, rules)))
