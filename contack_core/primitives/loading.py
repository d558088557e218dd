"""Loading a ruleset end to end: the document (:mod:`contack_core.language`), its primitives
built slot by slot from the registry, then the compiled :class:`contack_core.engine.rules.Rules`.

Every problem is reported as ``file:line:column: at key.path: what is wrong``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from contack_core.engine.rules import DEFAULT_TERMS, Rules
from contack_core.engine.slots import is_play_rule
from contack_core.language.documents import Document, ParsedFiles, find_ruleset, read_document, shipped_rulesets_dir
from contack_core.language.expressions import Expression, ExpressionError, compile_expression, evaluate_safely, formula_constants
from contack_core.language.options import choose_options
from contack_core.language.limits import DEFAULT_TURN_CAP, MAX_PLAYERS, MAX_TURN_CAP, shown_number
from contack_core.language.problems import KeyPath, Problem, RulesetError
from contack_core.language.quickschema import QuickSchema
from contack_core.language.schema import SLOTS, check_schema
from contack_core.primitives.builtin import default_registry
from contack_core.primitives.registry import BuildContext, PrimitiveError, Registry
from contack_core.primitives.scoring import order_counters
from contack_core.primitives.turn import check_turn_rules


def load_rules(reference: str | Path, options: Mapping[str, Any] | None = None,
               registry: Registry | None = None, quick_schema: QuickSchema | None = None,
               parsed: ParsedFiles | None = None) -> Rules:
    """Load, validate and compile a ruleset (an id or a path) with the given options.

    For a caller that loads many rulesets (see :class:`contack_core.primitives.cache.RulesetCache`):
    ``quick_schema``, the registry's schema compiled once by
    :func:`contack_core.language.schema.compile_ruleset_schema`; ``parsed``, the files parsed
    so far (:func:`contack_core.language.documents.read_document`).
    """
    registry = registry or default_registry()
    path = Path(reference) if isinstance(reference, Path) else find_ruleset(reference)
    document = read_document(path, parsed=parsed)
    option_values = choose_options(document, dict(options or {}))
    check_schema(document, registry, quick_schema)
    rules = build_rules(document, option_values, registry)
    shipped = shipped_rulesets_dir().resolve()
    if path.resolve().parent not in (shipped, shipped / "examples") or path.stem != rules.id:
        rules.origin = path.resolve()
    return rules


def _key_path(data: object, parts: tuple[str, ...]) -> KeyPath:
    """``parts`` of a dotted key as the document holds them: a list index as an integer, a
    mapping key as written (``"2"`` stays a string where the mapping's key is one)."""
    path: list[str | int] = []
    node = data
    for part in parts:
        key: str | int = part
        if isinstance(node, list) and part.isdigit():
            key = int(part)
        elif isinstance(node, dict) and part not in node and part.isdigit() and int(part) in node:
            key = int(part)
        path.append(key)
        if isinstance(node, dict):
            node = node.get(key)
        else:
            node = node[key] if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node) else None
    return tuple(path)


def _options_read(document: Document, path: KeyPath, options: Mapping[str, Any]) -> str:
    """What the formula at ``path`` read of the options, and where each value was set, when the
    formula is in a file the ruleset extends: a value refused there may come from the variant (its
    default read by its parent's formula), which the problem's place alone would not show."""
    place = document.mark(path)
    if place is None or Path(place.file) == Path(document.path):
        return ""
    node: Any = document.data
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, str):
        return ""
    notes = []
    for name in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", node)):
        if name not in options:
            continue
        declared = (document.data.get("options") or {}).get(name)
        mark = document.marks.get(("options", name, "default"))
        if isinstance(declared, dict) and declared.get("default") == options[name] and mark is not None:
            notes.append(f"the option {name} is {options[name]!r}, its default at "
                         f"{mark.file}:{mark.line}:{mark.column}")
        else:
            notes.append(f"the option {name} is {options[name]!r}, as chosen")
    return "".join(f"; {note}" for note in notes)


def build_primitives(document: Document, options: Mapping[str, Any], registry: Registry,
                     last_slot: str | None = None) -> dict[str, Any]:
    """Instantiate every primitive slot by slot (up to ``last_slot`` only, if given),
    turning PrimitiveErrors into Problems."""
    data = document.data

    def compile_with_options(source: str | int | float | bool, names: Iterable[str]) -> Expression:
        return compile_expression(source, names, formula_constants(options))

    built: dict[str, Any] = {}
    turns = data.get("turn") or {}
    context = BuildContext(options=options, tiles=None, zones={}, compile=compile_with_options,
                           turn_keys=list(turns), counters=data.get("scoring") or {},
                           house_actions=tuple(key for key, params in turns.items()
                                               if isinstance(params, dict) and params.get("primitive") == "house-action"))
    problems: list[Problem] = []
    for slot, arity in SLOTS.items():
        section = data.get(slot)
        if section is None:
            continue
        entries = [(None, section)] if arity == "one" else list(section.items())
        results: dict[str, Any] = {}
        for key, params in entries:
            path: tuple[str, ...] = (slot,) if key is None else (slot, key)
            cls = registry.get(slot, params["primitive"])
            if cls is None:  # the schema names the known ones: a caller that skipped it
                problems.append(document.problem(f"no {slot} primitive is called {params['primitive']!r} "
                                                 f"(known: {', '.join(registry.names(slot))})", (*path, "primitive")))
                continue
            args = {k: v for k, v in params.items() if k != "primitive"}
            try:
                results[key or slot] = cls(key or slot, args, context)
            except PrimitiveError as error:
                sub = _key_path(data, (*path, *(error.key.split(".") if error.key else ())))
                problems.append(document.problem(str(error) + _options_read(document, sub, options), sub))
            except ExpressionError as error:  # pragma: no cover - primitives wrap these
                problems.append(document.problem(str(error), path))
        if problems:
            raise RulesetError(problems)
        built[slot] = results[slot] if arity == "one" else results
        if slot == "components":
            context.tiles = next(iter(results.values())).tiles if results else None
            context.components = results
            context.players = built["players"] = _seat_range(document, context)
        if slot == "zones":
            context.zones = results
        if slot == "board":
            context.board = results[slot]
        if slot == "placement":
            context.placement = results[slot]
        if slot == last_slot:
            break
    return built


def _seat_range(document: Document, context: BuildContext) -> tuple[int, int]:
    """``players.min`` and ``players.max``: numbers, or formulas over the options and
    ``tile_count`` (the tiles in the set), so that the range can follow the hand size."""
    seats = {}
    problems = []
    for key in ("min", "max"):
        try:
            seats[key] = evaluate_safely(context.compile(document.data["players"][key], ["tile_count"]),
                                         {"tile_count": len(context.tiles) if context.tiles is not None else 0})
        except ExpressionError as error:
            problems.append(document.problem(str(error), ("players", key)))
            continue
        if not isinstance(seats[key], int) or isinstance(seats[key], bool) or seats[key] < 1:
            problems.append(document.problem(f"players.{key} must be a whole number of at least 1, "
                                             f"found {seats[key]!r}", ("players", key)))
        elif seats[key] > MAX_PLAYERS:  # every seat is dealt, observed and scored: bounded before any is
            shown = str(seats[key]) if seats[key] < 10**12 else f"a {len(str(seats[key]))}-digit number"
            problems.append(document.problem(f"players.{key} is {shown}: a ruleset allows at most {MAX_PLAYERS} "
                                             f"seats (MAX_PLAYERS)", ("players", key)))
    if not problems and seats["min"] > seats["max"]:
        problems.append(document.problem(f"players.min ({seats['min']}) is more than players.max ({seats['max']})",
                                         ("players",)))
    if problems:
        raise RulesetError(problems)
    return seats["min"], seats["max"]


def _check_deals(document: Document, rules: Rules) -> None:
    """Every seat count the ruleset allows can be set up: each set-up step finds the tiles it
    takes (a deal of 7 to each of 7 seats needs 49; 36 would leave the last seat nothing)."""
    seats = rules.players[1]
    piles = {key: len(zone.initial_tiles(rules)) for key, zone in rules.zones.items() if not zone.per_seat}
    hands = rules.match.hands
    for step in rules.setup:
        try:  # a count reading the hands before, checked for every value they take
            step.check_domain(hands, rules.players)
        except PrimitiveError as error:
            raise RulesetError([document.problem(str(error), ("setup", step.key, str(error.key)))]) from None
        for zone, needed in step.takes(seats).items():
            if needed > piles[zone]:
                raise RulesetError([document.problem(
                    f"players.max is {seats}, and set-up step {step.key!r} takes {needed} tiles from {zone} for "
                    f"{seats} seats where {zone} holds {piles[zone]}: lower players.max (a formula over the "
                    f"options may follow the hand size, such as 'min(7, tile_count // hand_size)')",
                    ("players", "max"))])
            piles[zone] -= needed
        for zone, given in step.gives().items():
            piles[zone] += given


def build_rules(document: Document, options: Mapping[str, Any], registry: Registry) -> Rules:
    """Build every primitive of ``document`` and compile them into :class:`Rules`."""
    data = document.data
    built = build_primitives(document, options, registry)
    turn = list(built["turn"].values())
    try:
        check_turn_rules(turn)
    except ValueError as error:
        raise RulesetError([document.problem(str(error), ("turn",))]) from None
    players = built["players"]
    tiles = [c.tiles for c in built["components"].values()]
    zones = built.get("zones", {})
    for rule in turn:
        if is_play_rule(rule):
            if built.get("placement") is None:
                raise RulesetError([document.problem(f"turn rule {rule.key!r} lays tiles: it needs a placement",
                                                     ("turn", rule.key))])
            rule.attach(built["placement"])
    terms = {**DEFAULT_TERMS, **(data.get("terms") or {})}
    counters = built["scoring"]
    try:
        order = order_counters(counters, built["match"].counter)
    except PrimitiveError as error:
        raise RulesetError([document.problem(str(error), _key_path(data, ("scoring", *str(error.key).split("."))))]
                           ) from None
    counters = {key: counters[key] for key in order}
    rules = Rules(
        id=data["id"], title=data["title"], players=players, options=dict(options), terms=terms,
        document=data, chain=document.chain, tiles=tiles[0], board=built["board"], zones=zones,
        setup=list(built["setup"].values()), placement=built.get("placement"), turn=turn,
        hand_end=list(built["hand_end"].values()), counters=counters, match=built["match"],
        turn_order=list((built.get("turn_order") or {}).values()),
    )
    rules.turn_cap = _turn_cap(document, options)
    _check_deals(document, rules)
    return rules


def _turn_cap(document: Document, options: Mapping[str, Any]) -> int:
    """``turn_cap``: the most decisions a game may take (a number or a formula over the options),
    at least 1 and at most :data:`MAX_TURN_CAP`; the schema's default when the ruleset states none."""
    source = document.data.get("turn_cap", DEFAULT_TURN_CAP)
    try:
        cap = evaluate_safely(compile_expression(source, [], formula_constants(options)), {})
    except ExpressionError as error:
        raise RulesetError([document.problem(str(error), ("turn_cap",))]) from None
    if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= MAX_TURN_CAP:
        shown = shown_number(cap) if isinstance(cap, int) else repr(cap)
        raise RulesetError([document.problem(f"turn_cap is {shown}: a game stops after 1 to {MAX_TURN_CAP:,} "
                                             f"decisions (MAX_TURN_CAP)", ("turn_cap",))])
    return cap
