"""Scoring primitives: per-seat counters and what changes them.

A counter changes after any kind of event (a play, a draw, a pass, a discard, a move), when a
hand ends and when the game ends, and may move points between seats (the next seat, every
other seat, a partner, the bank...). Every formula reads the values of
:mod:`contack_core.engine.values`, and what follows an event is compiled into the ruleset's
program for that kind of event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import add
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from contack_core.engine.events import ChipsMoved, Played, make_chipsmoved
from contack_core.engine.rules import EVENT_KINDS
from contack_core.engine.values import (
    EVENT_BINDINGS,
    HAND_END_VALUES,
    READS_MATCH_COUNTER,
    RELATIONS,
    VALUE_BINDINGS,
    identifier,
    transfer,
)
from contack_core.engine.ruleset_faults import figure_fault
from contack_core.engine.slots import Transfer
from contack_core.language.expressions import Expression, ExpressionError, check_over_domain
from contack_core.language.limits import MAX_FIGURE, shown_number
from contack_core.language.programs import Source, compile_added_per_seat, compile_per_seat, formula
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

#: When a transfer may happen: after an event of a kind, or at the end of a hand or game.
WHEN = (*EVENT_KINDS, "hand_end", "game_end")
#: Names an ``on_play`` expression of a chips counter may read.
PLAY_VALUES = ("points", "contacts", "opportunity")
_FORMULA = {"type": ["integer", "string"]}
#: ``after`` and ``before``: the counters this one is worked out after (reading their new values)
#: or before (reading their values before they change), where both change at the same moment.
_ORDER = {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
          "description": "a list of counters of this ruleset"}
#: When a counter may change, in the words of an error message.
PHASE_WORDS = {"play": "after a play", "draw": "after a draw", "pass": "after a pass", "discard": "after a discard",
               "move": "after a move", "hand_end": "at the end of a hand", "game_end": "at the end of the game"}


#: What a counter's formulas may call.
_FORMULA_BINDINGS: Mapping[str, Callable[..., object]] = {**VALUE_BINDINGS, **EVENT_BINDINGS}


class ScoreKeeper(Primitive):
    """A scoring primitive: a number kept per seat, changed by events, hand ends and game ends."""

    slot = "scoring"
    initial: int = 0
    #: No formulas, transfers or constants unless a subclass reads them from the ruleset.
    gains: Mapping[str, str | int] = MappingProxyType({})
    transfers: Sequence[Transfer] = ()
    constants: Mapping[str, object] = MappingProxyType({})
    values: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    collects_from_others = False
    borrow = False
    #: For each moment this counter changes (``play``, ``hand_end``...): what its formulas
    #: there read, as ``(parameter, names)`` (see :func:`order_counters`).
    reads: dict[str, list[tuple[str, tuple[str, ...]]]] | None = None

    @property
    def changes_at(self) -> frozenset[str]:
        """The moments this counter changes at: those its formulas are for, or (a counter of
        Python's own) the events and ends its methods handle."""
        if self.reads is not None:
            return frozenset(self.reads)
        kind = type(self)
        moments = {"play"} if kind.on_play is not ScoreKeeper.on_play else set()
        if kind.on_hand_end is not ScoreKeeper.on_hand_end:
            moments.add("hand_end")
        if kind.on_game_end is not ScoreKeeper.on_game_end:
            moments.add("game_end")
        return frozenset(moments)

    def order_params(self) -> tuple[list[str], list[str]]:
        """The counters this one is worked out after, and before (``after``, ``before``)."""
        return list(self.params.get("after", ())), list(self.params.get("before", ()))

    def starting_total(self, seats: int) -> int:
        """Each seat's total when a game of ``seats`` seats begins."""
        return self.initial

    def on_play(self, state: GameState, event: Played) -> None:
        """What a play adds (nothing unless a subclass says)."""

    def on_hand_end(self, state: GameState) -> None:
        """What the end of a hand adds to this hand's gains (nothing unless a subclass says)."""

    @property
    def counts_at_hand_end_only(self) -> bool:
        """True when nothing but a hand's end changes this counter (pieces left, tiles placed): shown
        mid-hand, it is best shown as it would count if the hand ended now."""
        return type(self).on_play is ScoreKeeper.on_play and type(self).effect_source is ScoreKeeper.effect_source

    def hand_end_values(self, state: GameState) -> list[int]:
        """What :meth:`on_hand_end` would add to each seat if the hand ended now, leaving
        ``state`` as it is: a bot's measure of a position mid-hand. This default runs
        :meth:`on_hand_end` on a copy; a counter may say it faster."""
        if type(self).on_hand_end is ScoreKeeper.on_hand_end:
            return [0] * state.seat_count
        copy = state.clone()
        gains = copy.hand_gains[self.key] = [0] * state.seat_count
        self.on_hand_end(copy)
        return gains

    def on_game_end(self, state: GameState) -> None:
        """What the end of the game adds to the totals, into ``state.hand_gains`` (the state
        adds them to the totals; nothing unless a subclass says)."""

    def effect_source(self, kind: str, prefix: str) -> Source:
        """What follows an event of ``kind`` (``play``, ``draw``...) as Python statements over
        ``_state`` and ``_event``, for the compiled consequences of that kind of event (see
        :mod:`contack_core.language.programs`); empty when such an event changes nothing.
        The default calls :meth:`on_play` after a play, if a subclass defines it."""
        if kind != "play" or type(self).on_play is ScoreKeeper.on_play:
            return Source("")
        return Source(f"{prefix}_on_play(_state, _event)", {f"{prefix}_on_play": self.on_play})


class Counter(ScoreKeeper):
    """A number kept per seat (a score, chips): ``initial`` at the start of the game (a
    formula over the options and ``seats``: a box of chips divided equally), then

    - ``on_play``, ``on_draw``, ``on_pass``, ``on_discard``, ``on_move``: added to the seat
      whose action it was, after each such event;
    - ``on_hand_end``: added to every seat when a hand ends (worked out for each seat);
    - ``on_game_end``: added to every seat's total when the game ends;
    - ``transfers``: points moved between seats (``when``: one of the kinds above, or
      ``hand_end``/``game_end``; ``amount``; ``from`` and ``to``: seats named relative to
      the seat whose action it was, or to each seat in turn at a hand's or game's end:
      ``self``, ``next``, ``previous``, ``partner``, ``others``, ``all``, ``went_out``, or
      ``bank`` for nobody).

    Every formula reads the state (see docs/house-rules.md); one about an event also reads
    what the event did (a play's ``points``, ``contacts``, ``counting``...).
    """

    name = "counter"
    schema = {
        "type": "object",
        "properties": {
            "initial": _FORMULA,
            "after": _ORDER,
            "before": _ORDER,
            **{f"on_{kind}": _FORMULA for kind in (*EVENT_KINDS, "hand_end", "game_end")},
            "transfers": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["when", "amount", "from", "to"],
                    "properties": {"when": {"enum": list(WHEN)}, "amount": _FORMULA,
                                   "from": {"enum": list(RELATIONS)}, "to": {"enum": list(RELATIONS)}},
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        initial = self.params.get("initial", 0)
        #: ``initial`` given the number of seats (checked at load for every count the ruleset allows).
        self._initial = context.expression(initial, ["seats"], "initial", whole_number=True)
        low, high = context.players or (1, 1)
        #: ``initial`` worked out for each number of seats the ruleset allows (every new game reads it).
        self._starting: dict[int, int] = {}
        for seats in range(low, high + 1):
            start = context.evaluate(self._initial, {"seats": seats}, "initial")
            if isinstance(start, int) and not -MAX_FIGURE <= start <= MAX_FIGURE:
                raise PrimitiveError(f"initial is {shown_number(start)} for {seats} seats: a total stays within "
                                     f"{MAX_FIGURE:,} either way (MAX_FIGURE)", "initial")
            self._starting[seats] = start
        self.constants = context.constants
        values = {kind: {**context.state_values(), **context.event_values(kind)} for kind in EVENT_KINDS}
        values["hand_end"] = {**context.state_values(), **HAND_END_VALUES}
        values["game_end"] = context.state_values()
        self.values = values
        self.gains = gains = dict[str, str | int]()
        self.reads: dict[str, list[tuple[str, tuple[str, ...]]]] | None = {}
        for when in WHEN:
            source = self.params.get(f"on_{when}")
            if source is not None:
                # Refused here, with its line, unless it always gives a whole number (and where it
                # fails for some value its names can take).
                expression = context.expression(source, self.values[when], f"on_{when}", whole_number=True)
                check_domains(context, f"on_{when}", expression)
                gains[when] = source
                self.reads.setdefault(when, []).append((f"on_{when}", expression.names))
        self.transfers = [Transfer(when=t["when"], amount=t["amount"], payers=t["from"], payees=t["to"])
                          for t in self.params.get("transfers", [])]
        for i, item in enumerate(self.transfers):
            key = f"transfers.{i}.amount"
            expression = context.expression(item.amount, self.values[item.when], key, whole_number=True)
            check_domains(context, key, expression)
            self.reads.setdefault(item.when, []).append((key, expression.names))

        #: ``hand_end_values(state)``: what ``on_hand_end`` gives each seat as the hand stands
        #: (compiled: one call and no dict of values per seat, in place of the method).
        self.hand_end_values = self._per_seat("hand_end", self.gains.get("hand_end", 0))  # type: ignore[assignment]
        #: ``_add_hand_end(state, gains)``: those values added to the hand's gains, as the hand ends.
        self._add_hand_end = compile_added_per_seat(f"{self.key}_hand_end", self.gains.get("hand_end", 0),
                                                    self.values["hand_end"], self.constants, _FORMULA_BINDINGS)
        self._game_end_values = self._per_seat("game_end", self.gains["game_end"]) if "game_end" in self.gains else None
        self._end_transfers = {
            when: [(self._per_seat(when, item.amount), item) for item in self.transfers if item.when == when]
            for when in ("hand_end", "game_end")}
        # The common case, "on_play: points", is compiled to one addition in the hot loop.
        self._gain_is_points = str(self.gains.get("play", "")).strip() == "points"

    def starting_total(self, seats: int) -> int:
        total = self._starting.get(seats)
        if total is None:  # a number of seats the ruleset does not allow, asked by a tool
            total = self._initial.evaluate({"seats": seats})  # a whole number, checked at load
        return total

    @property
    def counts_at_hand_end_only(self) -> bool:
        return type(self) is Counter and set(self.gains) <= {"hand_end", "game_end"} and \
            all(item.when in ("hand_end", "game_end") for item in self.transfers)

    def _per_seat(self, when: str, source: str | int) -> Callable[[GameState], list[int]]:
        return compile_per_seat(f"{self.key}_{when}", source, self.values[when], self.constants, _FORMULA_BINDINGS)

    def effect_source(self, kind: str, prefix: str) -> Source:
        gains = f"_state.hand_gains[{self.key!r}]"
        lines: list[str] = []
        formulas: list[Source] = []
        if kind == "play" and self._gain_is_points:
            lines += ["if _event.points:", f"    {gains}[_event.seat] += _event.points"]
        elif kind in self.gains:
            formulas.append(self._formula(f"{prefix}_gain", kind, self.gains[kind]))
            lines.append(f"{gains}[_event.seat] += _bounded({prefix}_gain)")
        for i, item in enumerate(t for t in self.transfers if t.when == kind):
            formulas.append(self._formula(f"{prefix}_amount{i}", kind, item.amount))
            lines.append(f"_transfer({gains}, _state, _event.seat, _bounded({prefix}_amount{i}), {item.payers!r}, "
                         f"{item.payees!r})")
        if not lines:
            return super().effect_source(kind, prefix)
        trees = {name: tree for source in formulas for name, tree in source.trees.items()}
        texts = {name: text for source in formulas for name, text in source.texts.items()}
        bindings: dict[str, Any] = {"_transfer": transfer}
        for source in formulas:
            bindings.update(source.bindings)
        return Source("\n".join(lines), bindings, trees, texts)

    def _formula(self, placeholder: str, kind: str, source: str | int) -> Source:
        return formula(placeholder, source, self.values[kind], self.constants, _FORMULA_BINDINGS)

    def on_hand_end(self, state: GameState) -> None:
        gains = state.hand_gains[self.key]
        self._add_hand_end(state, gains)
        if self._end_transfers["hand_end"]:
            self._settle(state, "hand_end", gains)

    def on_game_end(self, state: GameState) -> None:
        gains = state.hand_gains[self.key]
        if self._game_end_values is not None:
            gains[:] = map(add, gains, self._game_end_values(state))
        if self._end_transfers["game_end"]:
            self._settle(state, "game_end", gains)

    def _settle(self, state: GameState, when: str, into: list[int]) -> None:
        """The transfers of a hand's or the game's end: each seat in turn the one they are about."""
        for amounts, item in self._end_transfers[when]:
            for seat, amount in enumerate(amounts(state)):
                transfer(into, state, seat, amount, item.payers, item.payees)


def check_domains(context: BuildContext, key: str, expression: Expression) -> None:
    """Work a formula out at load for every value its names can take, where those are few
    and known (tiles held, seats, contacts...), so one that fails on some of them
    (``100 // tiles_held``) is refused now rather than met in play."""
    tiles, players = context.tiles, context.players
    if tiles is None or players is None:
        return
    count, sides = len(tiles.values), max((len(edges) for edges in tiles.values), default=0)
    domains = {"tiles_held": range(count + 1), "figure_tiles": range(count + 1), "went_out": (0, 1),
               "won_hand": (0, 1), "won_last_hand": (0, 1), "went_out_last": (0, 1),
               "seats": range(players[0], players[1] + 1), "contacts": range(sides + 1),
               "counting": range(sides + 1), "matching": range(sides + 1), "opportunity": (False, True)}
    try:
        check_over_domain(expression, domains, MAX_FIGURE)
    except ExpressionError as error:
        raise PrimitiveError(str(error), key) from None


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

    collects_from_others = True
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
            "after": _ORDER,
            "before": _ORDER,
        },
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        super().build(context)
        self.collect = context.expression(self.params["collect_on_play"], PLAY_VALUES, "collect_on_play",
                                          whole_number=True)
        check_domains(context, "collect_on_play", self.collect)
        assert self.reads is not None  # set by Counter.build
        self.reads.setdefault("play", []).append(("collect_on_play", self.collect.names))
        play = context.event_values("play")
        self._play_values = {name: play[name] for name in PLAY_VALUES}
        self._gain_is_points = False  # a chips counter's play is its collection (on_play)
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
        """The readable collection: ``collect_on_play`` through the expression evaluator. Play
        runs the compiled one (:meth:`effect_source`); tests hold the two to each other."""
        count = self.collect.evaluate(
            {"points": event.points, "contacts": event.contacts, "opportunity": event.opportunity})
        self.collect_chips(state, event, count)

    def effect_source(self, kind: str, prefix: str) -> Source:
        """After a play, ``collect_on_play`` compiled into the program like any formula (most
        plays collect nothing, and then nothing more is called); other kinds as a counter's."""
        if kind != "play":
            return super().effect_source(kind, prefix)
        count = formula(f"{prefix}_collect", self.params["collect_on_play"], self._play_values, self.constants)
        code = "\n".join([f"{prefix}_count = {prefix}_collect",
                          f"if {prefix}_count:",
                          f"    {prefix}_collect_chips(_state, _event, {prefix}_count)"])
        return Source(code, {**count.bindings, f"{prefix}_collect_chips": self.collect_chips}, count.trees,
                      count.texts)

    def collect_chips(self, state: GameState, event: Played, count: int) -> None:
        """Every other seat pays the player ``count`` chips, as ``when_short`` says when short."""
        if not -MAX_FIGURE <= count <= MAX_FIGURE:
            raise figure_fault(state.rules, f"{self.key}.collect_on_play", count)
        if count <= 0:
            return
        gains = state.hand_gains[self.key]
        totals = state.totals[self.key]
        payee = event.seat
        for payer in range(state.seat_count):
            if payer == payee:
                continue
            paid = count
            # Without debts (a loan to an earlier payer may have made one), what a seat holds
            # is its total and this hand's gains.
            held = self.held(state, payer) if state.ledger.get(self.key) else totals[payer] + gains[payer]
            short = count - held if held > 0 else count
            if short > 0:
                if self.borrow:
                    self._lend(state, payer, payee, short)
                else:
                    paid = count - short
            if paid:
                gains[payer] -= paid
                gains[payee] += paid
                state.effects.append(make_chipsmoved(payer, payee, paid, "collect"))

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


def order_counters(counters: dict[str, ScoreKeeper], match_counter: str | None) -> list[str]:
    """The order the counters are worked out in at each moment (after a play, at a hand's end...):
    the order they are declared in, except where ``after`` or ``before`` says otherwise.

    A counter whose formula reads another counter that changes at the same moment must say which
    value it reads, ``after: [other]`` (the new one) or ``before: [other]`` (the one before the
    change); otherwise the declaration order would decide silently, and the natural formula could be
    one event off. Raises :class:`PrimitiveError` (its key ``<counter>.<parameter>``) when it does
    not, when ``after``/``before`` name no counter, or when they go round in a circle."""
    keys = list(counters)
    names = {}
    for key in keys:
        name = identifier(key)
        names.update({name: key, f"highest_{name}": key, f"lowest_{name}": key})
    must_follow: dict[str, set[str]] = {key: set() for key in keys}  # key -> counters worked out before it
    for key, counter in counters.items():
        after, before = counter.order_params()
        for field, listed in (("after", after), ("before", before)):
            for i, other in enumerate(listed):
                if other not in counters or other == key:
                    known = ", ".join(k for k in keys if k != key) or "none"
                    what = "itself" if other == key else f"no counter named {other!r}"
                    raise PrimitiveError(f"{field} names {what} (the other counters: {known})", f"{key}.{field}.{i}")
                if other in (after if field == "before" else before):
                    raise PrimitiveError(f"{other!r} is listed in both after and before", f"{key}.{field}.{i}")
        must_follow[key].update(after)
        for other in before:
            must_follow[other].add(key)
        for when, formulas in (counter.reads or {}).items():
            for param, read in formulas:
                for name in read:
                    read_from = (match_counter if when == "hand_end" and name in READS_MATCH_COUNTER
                                 else names.get(name))
                    if read_from is None or read_from == key or read_from in after or read_from in before:
                        continue
                    if when in counters[read_from].changes_at:
                        raise PrimitiveError(
                            f"{param} reads {name!r}, and counter {read_from!r} changes {PHASE_WORDS[when]} too: say "
                            f"which value it reads, after: [{read_from}] (worked out after {read_from}, reading its "
                            f"new value) or before: [{read_from}] (reading its value before {read_from} changes)",
                            f"{key}.{param}")
    order: list[str] = []
    while len(order) < len(keys):
        ready = next((key for key in keys if key not in order and must_follow[key] <= set(order)), None)
        if ready is None:
            circle = [key for key in keys if key not in order]
            raise PrimitiveError(f"after and before go round in a circle among the counters {', '.join(circle)}",
                                 f"{circle[0]}")
        order.append(ready)
    return order
