"""The registry of rule primitives (Ludii's ludemes): name -> class, per ruleset slot.

A ruleset names a primitive in each slot (``primitive: contact-placement``); the loader
looks the name up here, validates the parameters against the primitive's own schema and
calls :meth:`Primitive.build`. Built-in primitives register themselves on import; others
join through the entry-point group ``contack.ludemes`` (each entry point names a
:class:`Primitive` subclass). Every class must meet its slot's contract
(:mod:`contack_core.engine.slots`): one that does not is refused when it joins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from contack_core.engine.slots import contract_faults
from contack_core.engine.values import EVENT_VALUES, TRUE_FALSE_VALUES, house_event_values, play_values, state_values
from contack_core.language.expressions import (
    Expression,
    ExpressionError,
    check_over_domain,
    evaluate_safely,
    formula_constants,
    require_whole_number,
    tabulate,
)
from contack_core.language.schema import SLOTS

if TYPE_CHECKING:
    from contack_core.boards.tiles import TileSet
    from contack_core.engine.slots import Board, Components, Placement, Zone

ENTRY_POINT_GROUP = "contack.ludemes"


class PrimitiveError(ValueError):
    """A primitive's parameters that pass the schema but make no sense together.

    ``key`` names the parameter at fault, so the loader can point at its line.
    """

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


@attrs.define
class BuildContext:
    """What a primitive may consult while it is built from its parameters."""

    options: Mapping[str, Any]
    tiles: TileSet | None
    zones: Mapping[str, Zone]
    #: (source, names) -> Expression, with the options bound.
    compile: Callable[[str | int | float | bool, Iterable[str]], Expression]
    #: The ruleset's turn rules, in order (a ``when`` reads ``can_<rule>`` of those before it).
    turn_keys: list[str]
    counters: Mapping[str, Any]
    #: The built component primitives, by key (a board or set-up may need the pieces themselves).
    components: Mapping[str, Components] = attrs.Factory(dict)
    #: The built board primitive, once built: later slots check their parameters against its
    #: geometry at load (a start point off the board), not when a game begins.
    board: Board | None = None
    #: The ruleset's ``players`` range (min, max), for checks that depend on the seat count.
    players: tuple[int, int] | None = None
    #: The built placement primitive, once built: its kinds of contact are values of a play.
    placement: Placement | None = None
    #: The keys of the ruleset's house actions (``house-action`` turn rules): formulas read how
    #: often a seat took each (``<rule>_uses``) and, about a house event, which it was (``<rule>_action``).
    house_actions: tuple[str, ...] = ()

    @property
    def constants(self) -> dict[str, Any]:
        """The option values formulas read by name (numbers and on/off switches)."""
        return formula_constants(self.options)

    def state_values(self, per_seat: bool = True) -> dict[str, str]:
        """What a formula about the state may read, each name with the engine's expression for
        it (see :mod:`contack_core.engine.values`); the zones are those built so far."""
        return state_values(self.zones, self.counters, per_seat, self.board, self.house_actions)

    def event_values(self, kind: str) -> dict[str, str]:
        """What a formula about an event of ``kind`` reads besides the state (a play's
        contacts and shape, a move's captures...: see :mod:`contack_core.engine.values`)."""
        if kind == "house":
            return {**EVENT_VALUES[kind], **house_event_values(self.house_actions)}
        if kind != "play":
            return dict(EVENT_VALUES[kind])
        colours = self.tiles.colours if self.tiles is not None else ()
        if self.placement is None:
            return play_values(colours)
        return play_values(colours, self.placement.kind_tables, self.placement.shapes)

    def turn_values(self, key: str) -> dict[str, str]:
        """What turn rule ``key``'s ``when`` may read: the state, and ``can_<rule>`` for every
        turn rule before it."""
        before = self.turn_keys[: self.turn_keys.index(key)] if key in self.turn_keys else self.turn_keys
        return {**self.state_values(), **{f"can_{rule}": f"can_{rule}" for rule in before}}

    def expression(self, source: Any, names: Iterable[str], key: str, whole_number: bool = False) -> Expression:
        """``source`` compiled, reading ``names`` and the options; ``whole_number``: refused
        unless its value is always a whole number (a score, an amount), whatever it reads."""
        names = list(names)
        try:
            if whole_number:
                booleans = TRUE_FALSE_VALUES | {name for name, value in self.options.items() if isinstance(value, bool)}
                require_whole_number(source, [*names, *self.constants], booleans)
            return self.compile(source, names)
        except ExpressionError as error:
            raise PrimitiveError(str(error), key) from None

    def table(self, source: Any, domain: Any, key: str, whole_number: bool = False) -> list[list[Any]]:
        """A contact expression over ``a`` and ``b`` as a lookup table over ``domain``."""
        try:
            return tabulate(self.expression(source, ("a", "b"), key, whole_number), domain)
        except ExpressionError as error:
            raise PrimitiveError(str(error), key) from None

    def evaluate(self, expression: Expression, values: Mapping[str, Any], key: str) -> Any:
        """``expression``'s value for ``values``, at load (a failure is the parameter's error)."""
        try:
            return evaluate_safely(expression, values)
        except ExpressionError as error:
            raise PrimitiveError(str(error), key) from None

    def check_over(self, expression: Expression, domains: Mapping[str, Any], key: str,
                   bound: int | None = None) -> None:
        """Work ``expression`` out now for every value its names can take (few and known), so
        one failing on some of them is refused at load; ``bound``: no value beyond it."""
        try:
            check_over_domain(expression, domains, bound)
        except ExpressionError as error:
            raise PrimitiveError(str(error), key) from None

    def constant(self, source: Any, key: str, whole_number: bool = True) -> Any:
        """A parameter that is a number or an expression over option values only (a whole
        number unless ``whole_number`` is false)."""
        try:
            return evaluate_safely(self.expression(source, (), key, whole_number), {})
        except ExpressionError as error:
            raise PrimitiveError(str(error), key) from None

    def zone(self, name: str, key: str, kinds: tuple[str, ...] | None = None) -> Zone:
        zone = self.zones.get(name)
        if zone is None:
            known = ", ".join(sorted(self.zones)) or "none"
            raise PrimitiveError(f"no zone named {name!r} (zones: {known})", key)
        if kinds is not None and zone.kind not in kinds:
            raise PrimitiveError(f"zone {name!r} is a {zone.kind}; expected {' or '.join(kinds)}", key)
        return zone


class Primitive:
    """Base of every rule primitive.

    Subclasses set ``name`` (what rulesets write), ``slot`` (where it may appear) and
    ``schema`` (JSON Schema of its parameters, ``primitive`` excluded), and implement
    :meth:`build`. The class docstring is the documentation ``rulesets`` prints.
    """

    name: ClassVar[str]
    slot: ClassVar[str]
    schema: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}

    def __init__(self, key: str, params: Mapping[str, Any], context: BuildContext) -> None:
        self.key = key
        self.params = dict(params)
        self.build(context)

    def build(self, context: BuildContext) -> None:
        """Compile parameters into tables and closures; raise PrimitiveError on bad ones."""


@attrs.define
class Registry:
    """Primitive classes by slot and name; built once per loader, never global state."""

    by_slot: dict[str, dict[str, type[Primitive]]] = attrs.field(factory=dict)

    def add(self, cls: type[Primitive], checked: bool = True) -> None:
        """Register ``cls``; a class that names no slot, or does not meet its slot's contract
        (:mod:`contack_core.engine.slots`), is refused, with what it lacks. ``checked=False``
        skips the contract for the built-in primitives (tests/test_slots.py checks them; reading
        every signature would cost each process a start-up of some milliseconds)."""
        if cls.slot not in SLOTS:
            raise ValueError(f"primitive {cls.name!r} names unknown slot {cls.slot!r}")
        faults = contract_faults(cls, cls.slot) if checked else ()
        if faults:
            raise ValueError(f"primitive {cls.name!r} ({cls.__module__}.{cls.__qualname__}) does not meet the "
                             f"{cls.slot} contract: {'; '.join(faults)}")
        self.by_slot.setdefault(cls.slot, {})[cls.name] = cls

    def get(self, slot: str, name: str) -> type[Primitive] | None:
        return self.by_slot.get(slot, {}).get(name)

    def names(self, slot: str) -> list[str]:
        return sorted(self.by_slot.get(slot, {}))

    def __iter__(self) -> Iterator[type[Primitive]]:
        for slot in SLOTS:
            yield from (self.by_slot.get(slot, {})[name] for name in self.names(slot))
