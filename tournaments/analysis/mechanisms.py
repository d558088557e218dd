"""The mechanisms of a ruleset as its games show them: how often each thing its rules react to
happens, and what each of its scoring rules earns, read from the events of a game and the
ruleset's own counters (no ruleset is named here).

A designer who gives +10 for an opportunity play wants to see how many opportunity plays
there were and what the +10 earned, not only that the mean score went up. So, per game:

- **facts**: for each kind of event, the facts of the language's vocabulary that count
  something (a play's ``opportunity``, ``counting`` and ``matching`` contacts; a move's
  ``captured``, ``lost`` and ``flipped`` pieces), summed; chips changing hands by reason;
- **gains**: for each counter, what changed it: a seat's own actions (plays, draws...: its
  ``on_play``, ``on_draw``... and what it collected or paid by a transfer), the ends of hands
  and the game's end (every seat's change, summed). The running totals are read after every
  event, so the figure is the counter's real change, not a formula's guess; what a seat's
  action moves to or from the other seats (a transfer, chips collected) is counted apart;
- **parts**: for each counter formula about an event, and each fact of the event it reads,
  what that fact earns: the formula's value less its value were that fact 0 (false), summed
  over the events (``points + (10 if opportunity else 0) + 2 * matching`` gives
  ``opportunity`` 10 a play that is one, ``matching`` 2 a matching contact). Where the formula
  cannot take the fact as 0 (``60 // high_pair``), what it earns is unknown, and said so.

When an event ends a hand, the hand's end (and the game's) has changed the totals too: the
event's own gain is then its formula's value (the figure as it lay at the end, from the hand's
result), and the rest is the hand end's. A formula is worked out here after the event, as the
observer sees the state: one that reads the state as well as the event (a running total, the
tiles held) may read it a little later than the engine did, after the event's gains.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from contack_core.engine.events import ChipsMoved, Discarded, Drew, Event, HouseActed, Moved, Passed, Played
from contack_core.engine.rules import Rules
from contack_core.engine.slots import Counter
from contack_core.engine.values import EVENT_BINDINGS, VALUE_BINDINGS, captured, lost, play_facts
from contack_core.language.expressions import Expression, ExpressionError, compile_expression

#: The kind of each event a seat's action makes, as counters name them (``on_<kind>``).
EVENT_KIND: dict[type, str] = {Played: "play", Drew: "draw", Passed: "pass", Discarded: "discard", Moved: "move",
                               HouseActed: "house"}
#: The facts of each kind of event that count something, as a formula reads them, with what one is.
COUNTED_FACTS: dict[str, dict[str, str]] = {
    "play": {"opportunity": "opportunity plays", "counting": "counting contacts", "matching": "matching contacts"},
    "move": {"captured": "pieces captured", "lost": "own pieces lost", "flipped": "pieces turned over"},
}
#: When a counter changes, in words.
WHEN_WORDS = {"play": "plays", "draw": "draws", "pass": "passes", "discard": "discards", "move": "moves",
              "house": "house rules' own actions", "hand_end": "hand ends", "game_end": "the game's end"}


def counter_whens(counter: Counter) -> list[str]:
    """When ``counter`` (a scoring primitive) may change, in the order of :data:`WHEN_WORDS`."""
    whens = set(counter.changes_at) | {item.when for item in counter.transfers}
    if counter.collects_from_others:
        whens.add("play")
    return [when for when in WHEN_WORDS if when in whens]


def passes_to_others(counter: Counter) -> list[str]:
    """The kinds of event after which ``counter`` moves points between seats (transfers, chips collected)."""
    kinds = {item.when for item in counter.transfers}
    if counter.collects_from_others:
        kinds.add("play")
    return [kind for kind in WHEN_WORDS if kind in kinds and kind in EVENT_KIND.values()]


def formula_parts(counter: Counter) -> dict[str, tuple[str, Expression, dict[str, Expression | None]]]:
    """For each kind of event a counter's formula is about: the formula's text, the formula, and
    for each fact of the event it reads, the formula with that fact taken as 0 (false); None
    where that formula cannot be worked out at all (``60 // high_pair`` becomes ``60 // 0``,
    which the compiler refuses)."""
    out = {}
    for kind, source in counter.gains.items():
        if kind not in COUNTED_FACTS and kind not in EVENT_KIND.values():
            continue
        values = counter.values[kind]
        whole = compile_expression(source, values, counter.constants)
        facts = [name for name in whole.names if "_event" in values[name]]
        without: dict[str, Expression | None] = {}
        for name in facts:
            tree = ast.parse(str(source).strip(), mode="eval")
            zero: Any = False if name == "opportunity" else 0
            tree = _Replace(name, zero).visit(tree)
            try:
                without[name] = compile_expression(ast.unparse(tree), values, counter.constants)
            except ExpressionError:
                without[name] = None
        out[kind] = (str(source), whole, without)
    return out


class _Replace(ast.NodeTransformer):
    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value = name, value

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Constant(self.value), node) if node.id == self.name else node


class MechanismMeasure:
    """The referee's observer that counts one game's mechanisms (see the module's docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.counters = dict(rules.counters)
        self.parts = {key: formula_parts(counter) for key, counter in self.counters.items()}
        self.sums: dict[str, float] = defaultdict(float)
        self.running: dict[str, list[int]] | None = None
        self.results = 0
        #: The parts that could not be worked out on some event (the formula fails with that fact 0).
        self.unknown: set[str] = set()

    def hand_started(self, state: Any, number: int) -> None:
        if self.running is None:
            self.running = self._running(state)

    def event(self, state: Any, event: Event) -> None:
        if self.running is None:
            self.running = self._running(state)
        kind = EVENT_KIND.get(type(event))
        ended = len(state.hand_results) > self.results
        figure = state.hand_results[-1].figure if ended else state.figure
        self.results = len(state.hand_results)
        facts = play_facts(SimpleNamespace(rules=state.rules, figure=figure), event) \
            if type(event) is Played and figure is not None and event.cell in getattr(figure, "tile_at", {}) else None
        if kind is not None:
            for name in COUNTED_FACTS.get(kind, {}):
                self.sums[f"fact:{kind}:{name}"] += _fact(event, name, facts)
        if type(event) is ChipsMoved:
            self.sums[f"chips:{event.reason}"] += event.count
        now = self._running(state)
        assert self.running is not None
        for key in self.counters:
            changes = [after - before for after, before in zip(now[key], self.running[key])]
            own = 0.0
            formula = self.parts[key].get(kind) if kind is not None else None
            if formula is not None:
                try:
                    values = self._values(state, event, facts, self.counters[key].values[kind], formula[1].names)
                    own = float(formula[1].evaluate(values))
                except Exception:  # noqa: BLE001 - read after the event, the state may not be the formula's
                    values, own = None, 0.0
                for name, without in formula[2].items():
                    part = f"part:{key}:{kind}:{name}"
                    try:
                        if values is None or without is None:
                            raise ValueError("the formula's values could not be read, or it cannot take the fact as 0")
                        self.sums[part] += own - float(without.evaluate(values))
                    except Exception:  # noqa: BLE001 - 60 // high_pair with high_pair 0: no counterfactual
                        self.unknown.add(part)
            seat = getattr(event, "seat", None)
            if kind is not None and seat is not None and not ended:
                self.sums[f"gain:{key}:{kind}"] += changes[seat]
                self.sums[f"gain:{key}:{kind}:others"] += sum(changes) - changes[seat]
            elif kind is not None and seat is not None:
                self.sums[f"gain:{key}:{kind}"] += own
                self.sums[f"gain:{key}:hand_end"] += sum(changes) - own
            elif ended:
                self.sums[f"gain:{key}:hand_end"] += sum(changes)
        self.running = now

    def hand_ended(self, state: Any, result: Any) -> None:
        """Nothing: a hand's end is read from the totals at the event that ended it."""

    def game_ended(self, state: Any) -> None:
        final = state.final_gains
        if final and state.over:
            for key, gains in final.items():
                if key in self.counters:
                    self.sums[f"gain:{key}:game_end"] += sum(gains)
                    self.sums[f"gain:{key}:hand_end"] -= sum(gains)

    def summary(self) -> dict[str, float]:
        """What the game counted, as JSON (stored with its measures)."""
        sums = {name: value for name, value in self.sums.items() if name not in self.unknown}
        return dict(sorted({**sums, **{f"unknown:{part}": 1.0 for part in self.unknown}}.items()))

    def _running(self, state: Any) -> dict[str, list[int]]:
        return {key: [state.totals[key][seat] + state.hand_gains[key][seat] for seat in range(state.seat_count)]
                for key in self.counters}

    @staticmethod
    def _values(state: Any, event: Any, facts: Any, values: Mapping[str, str], names: tuple[str, ...]
                ) -> dict[str, Any]:
        namespace = {**VALUE_BINDINGS, **EVENT_BINDINGS, "_play_facts": lambda s, e: facts, "len": len,
                     "_state": state, "_event": event, "_seat": getattr(event, "seat", 0)}
        return {name: eval(_compiled(values[name]), namespace) for name in names}  # noqa: S307 - the engine's own


@functools.lru_cache(maxsize=512)
def _compiled(source: str) -> Any:
    """The engine's expression for a value (:mod:`contack_core.engine.values`), compiled once."""
    return compile(source, "<value>", "eval")


def _fact(event: Any, name: str, facts: Any) -> float:
    """How many of ``name`` (one of :data:`COUNTED_FACTS`) the event made."""
    if name == "opportunity":
        return float(bool(event.opportunity))
    if name in ("counting", "matching"):
        return float(getattr(facts, name, 0) if facts is not None else 0)
    if name == "flipped":
        return float(bool(event.flipped))
    if name in ("captured", "lost"):
        return float((captured if name == "captured" else lost)(None, event))
    return 0.0
