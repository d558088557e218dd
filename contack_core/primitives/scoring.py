"""Scoring primitives: per-seat counters and what changes them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from contack_core.engine.events import ChipsMoved, Played
from contack_core.language.programs import Source, compile_per_seat
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

#: Names an ``on_play`` expression may read.
PLAY_VALUES = ("points", "contacts", "opportunity")
def hand_end_sources(seat_zones: list[str]) -> dict[str, str]:
    """The names an ``on_hand_end`` expression may read, each as the engine's expression over
    ``_state`` and ``_seat``, for :func:`contack_core.language.programs.compile_per_seat`."""
    held = " + ".join(f"len(_state.seat_zones[{zone!r}][_seat])" for zone in seat_zones) or "0"
    return {"tiles_held": held, "went_out": "_int(_state.went_out == _seat)", "seats": "_state.seat_count",
            "figure_tiles": "len(_state.figure.tile_at)"}


class ScoreKeeper(Primitive):
    """A scoring primitive: a number kept per seat, changed by plays and at hand ends."""

    slot = "scoring"
    initial: int = 0

    def on_play(self, state: GameState, event: Played) -> None:
        """What a play adds (nothing unless a subclass says)."""

    def on_hand_end(self, state: GameState) -> None:
        """What the end of a hand adds (nothing unless a subclass says)."""

    def on_play_source(self, prefix: str) -> Source:
        """:meth:`on_play` as Python statements over ``_state`` and ``_event``, for the
        compiled consequences of a play (see :mod:`contack_core.language.programs`); empty when a
        play changes nothing."""
        if type(self).on_play is ScoreKeeper.on_play:
            return Source("")
        return Source(f"{prefix}_on_play(_state, _event)", {f"{prefix}_on_play": self.on_play})


class Counter(ScoreKeeper):
    """A number kept per seat (a score, chips): ``initial`` at the start of the game,
    ``on_play`` added to the seat that plays (over the play's ``points``, ``contacts``,
    ``opportunity``), ``on_hand_end`` added to every seat when a hand ends (over its
    ``tiles_held``, ``went_out`` (1 for the seat that played out, else 0), ``seats`` and
    ``figure_tiles``, the number of tiles in the figure).
    """

    name = "counter"
    schema = {
        "type": "object",
        "properties": {
            "initial": {"type": ["integer", "string"]},
            "on_play": {"type": ["integer", "string"]},
            "on_hand_end": {"type": ["integer", "string"]},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.initial = context.constant(self.params.get("initial", 0), "initial")
        self.play_gain = context.expression(self.params.get("on_play", 0), PLAY_VALUES, "on_play")
        seat_zones = [name for name, zone in context.zones.items() if zone.per_seat]
        try:
            #: ``hand_end_values(state)``: what ``on_hand_end`` gives each seat as the hand stands
            #: (compiled: a hand's end runs cold, so one call and no dict of values per seat).
            self.hand_end_values: Callable[[GameState], list[int]] = compile_per_seat(
                "hand_end_values", self.params.get("on_hand_end", 0), hand_end_sources(seat_zones), context.options)
        except ValueError as error:
            raise PrimitiveError(str(error), "on_hand_end") from None
        # The common case, "on_play: points", skips the call in the hot loop.
        self._gain_is_points = self.play_gain.source.strip() == "points"

    def on_play_source(self, prefix: str) -> Source:
        if type(self).on_play is Counter.on_play and self._gain_is_points:
            return Source(f"if _event.points:\n    _state.hand_gains[{self.key!r}][_event.seat] += _event.points")
        return super().on_play_source(prefix)

    def on_play(self, state: GameState, event: Played) -> None:
        if self._gain_is_points:
            gain = event.points
        else:
            gain = self.play_gain.evaluate(
                {"points": event.points, "contacts": event.contacts, "opportunity": event.opportunity})
        if gain:
            state.hand_gains[self.key][event.seat] += gain

    def on_hand_end(self, state: GameState) -> None:
        gains = state.hand_gains[self.key]
        for seat, gain in enumerate(self.hand_end_values(state)):
            gains[seat] += gain


class CollectFromOthers(Counter):
    """Chips that change hands: on each play, every other seat pays the player
    ``collect_on_play`` chips (an expression over the play's ``points``, ``contacts``,
    ``opportunity``); ``on_hand_end`` as for a counter.

    A payer who runs short (``when_short``) either pays what he has (``pay-what-you-have``)
    or borrows the rest (``borrow``) from the ``lender``: the ``bank``, or among the
    ``players`` the other seat holding most chips (the bank when nobody else has any).
    A seat's total is what it holds plus what it is owed minus what it owes, so debts are
    settled in the totals at the end. A negative ``on_hand_end`` (a penalty for tiles
    held, say) is paid to the bank under the same ``when_short`` rule. Every payment and
    loan is an effect the record keeps.
    """

    name = "collect-from-others"
    schema = {
        "type": "object",
        "required": ["collect_on_play"],
        "properties": {
            "initial": {"type": ["integer", "string"]},
            "collect_on_play": {"type": ["integer", "string"]},
            "on_hand_end": {"type": ["integer", "string"]},
            "when_short": {"enum": ["pay-what-you-have", "borrow"]},
            "lender": {"enum": ["bank", "players"]},
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.collect = context.expression(self.params["collect_on_play"], PLAY_VALUES, "collect_on_play")
        self.borrow = self.params.get("when_short", "pay-what-you-have") == "borrow"
        self.lend_from_players = self.params.get("lender", "bank") == "players"

    def held(self, state: GameState, seat: int) -> int:
        """Chips ``seat`` holds now (its total so far plus this hand's gains, less debts)."""
        debts = state.ledger.get(self.key)
        owed = 0 if not debts else sum(amount for (debtor, _), amount in debts.items() if debtor == seat) \
            - sum(amount for (_, lender), amount in debts.items() if lender == seat)
        # Once the game is over the last hand's gains are in the totals already.
        gains = 0 if state.over else state.hand_gains[self.key][seat]
        return state.totals[self.key][seat] + gains + owed

    def on_play(self, state: GameState, event: Played) -> None:
        count = self.collect.evaluate(
            {"points": event.points, "contacts": event.contacts, "opportunity": event.opportunity})
        if count <= 0:
            return
        gains = state.hand_gains[self.key]
        for payer in range(state.seat_count):
            if payer == event.seat:
                continue
            paid = count
            short = count - max(self.held(state, payer), 0)
            if short > 0:
                if self.borrow:
                    self._lend(state, payer, event.seat, short)
                else:
                    paid = count - short
            if paid:
                gains[payer] -= paid
                gains[event.seat] += paid
                state.effects.append(ChipsMoved(payer=payer, payee=event.seat, count=paid, reason="collect"))

    def on_hand_end(self, state: GameState) -> None:
        """``on_hand_end`` as for a counter, except that a cost (a negative value, paid to the
        bank) is a payment like any other: a seat short of chips pays what it has or borrows
        the rest, as ``when_short`` says, and the payment is an effect the record keeps."""
        gains = state.hand_gains[self.key]
        for seat, gain in enumerate(self.hand_end_values(state)):
            if gain >= 0:
                gains[seat] += gain
                continue
            due = -gain
            short = due - max(self.held(state, seat), 0)
            if short > 0:
                if self.borrow:
                    self._lend(state, seat, None, short)
                else:
                    due -= short
            if due:
                gains[seat] -= due
                state.effects.append(ChipsMoved(payer=seat, payee=None, count=due, reason="penalty"))

    def _lend(self, state: GameState, borrower: int, payee: int | None, amount: int) -> None:
        lender: int | None = None
        if self.lend_from_players:
            others = [s for s in range(state.seat_count) if s not in (borrower, payee)]
            richest = max(others, key=lambda s: (self.held(state, s), -s), default=None)
            if richest is not None and self.held(state, richest) >= amount:
                lender = richest
        # A loan moves chips into the borrower's hands and a debt onto his account: it
        # leaves every seat's total (held + owed - owing) unchanged.
        debts = state.ledger.setdefault(self.key, {})
        debts[(borrower, lender)] = debts.get((borrower, lender), 0) + amount
        state.effects.append(ChipsMoved(payer=lender, payee=borrower, count=amount, reason="loan"))
