"""The typed rule slots (issue 29, item 1): every slot a primitive fills has one declared contract
(contack_core.engine.slots), every registered primitive (built in or from a plugin) meets it by
method names and signatures, every primitive a shipped ruleset builds is an instance of it, and
the registry refuses a primitive that does not meet it, saying what it lacks."""

from __future__ import annotations

import inspect
import random
from pathlib import Path
from typing import Any, ClassVar

import pytest

from contack_core.boards.grid import PieceBoard
from contack_core.boards.lattice import Figure
from contack_core.engine import slots
from contack_core.engine.state import GameState
from contack_core.language.documents import shipped_rulesets_dir
from contack_core.language.schema import SLOTS
from contack_core.primitives.builtin import BUILTIN, default_registry
from contack_core.primitives.loading import load_rules
from contack_core.primitives.registry import Primitive, Registry
from contack_core.primitives.zones import Pile

RULESETS = sorted([*shipped_rulesets_dir().glob("*.yaml"), *(shipped_rulesets_dir() / "examples").glob("*.yaml")])
REGISTERED = list(default_registry())


def declared_methods(contract: type) -> dict[str, inspect.Signature]:
    """The contract's methods (its bases' too) and their signatures, read off the protocol itself."""
    found: dict[str, inspect.Signature] = {}
    for base in reversed(contract.__mro__):
        if getattr(base, "_is_protocol", False) and base is not contract.__mro__[-1]:
            for name, value in vars(base).items():
                if inspect.isfunction(value) and not name.startswith("_"):
                    found[name] = inspect.signature(value)
    return found


def declared_properties(contract: type) -> set[str]:
    return {name for base in contract.__mro__ if getattr(base, "_is_protocol", False)
            for name, value in vars(base).items() if isinstance(value, property)}


def test_every_slot_has_one_contract() -> None:
    assert set(slots.CONTRACTS) == set(SLOTS)
    for contract in slots.CONTRACTS.values():
        assert declared_methods(contract) or declared_properties(contract), contract
        for name in declared_methods(contract):  # each method says what it is for
            assert inspect.getdoc(getattr(contract, name)), f"{contract.__name__}.{name} has no docstring"


def test_the_registry_holds_the_builtin_primitives_and_the_plugins() -> None:
    assert set(BUILTIN) <= set(REGISTERED)
    assert {cls.slot for cls in REGISTERED} == set(SLOTS)


@pytest.mark.parametrize("cls", REGISTERED, ids=lambda cls: f"{cls.slot}:{cls.name}")
def test_every_registered_primitive_has_its_contracts_methods_with_their_signatures(cls: type[Primitive]) -> None:
    contract = slots.CONTRACTS[cls.slot]
    for name, wanted in declared_methods(contract).items():
        method = inspect.getattr_static(cls, name, None)
        assert method is not None, f"{cls.__name__} has no {name}"
        bound = isinstance(method, staticmethod)
        have = inspect.signature(getattr(cls, name))
        wanted_names = list(wanted.parameters)[1:]
        have_params = list(have.parameters.values())[0 if bound else 1:]
        assert [p.name for p in have_params[: len(wanted_names)]] == wanted_names, (cls.__name__, name, str(have))
        assert all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   for p in have_params[len(wanted_names):]), (cls.__name__, name, str(have))
    for name in declared_properties(contract):
        assert inspect.getattr_static(cls, name, None) is not None or any(
            name in vars(base).get("__annotations__", {}) for base in cls.__mro__), (cls.__name__, name)
    assert slots.contract_faults(cls, cls.slot) == ()


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_every_primitive_a_ruleset_builds_is_an_instance_of_its_contract(path: Path) -> None:
    """Data members set when a primitive is built (``key``, ``when``, ``opening_min``,
    ``play_from``, ``visibility``...) are there too: runtime_checkable checks every member."""
    rules = load_rules(path)
    built: dict[str, list[object]] = {
        "board": [rules.board], "zones": list(rules.zones.values()), "setup": list(rules.setup),
        "placement": [rules.placement] if rules.placement is not None else [], "turn": list(rules.turn),
        "hand_end": list(rules.hand_end), "scoring": list(rules.counters.values()), "match": [rules.match],
    }
    for slot, primitives in built.items():
        for primitive in primitives:
            assert isinstance(primitive, slots.CONTRACTS[slot]), (slot, primitive)
    for rule in rules.turn:
        assert slots.is_play_rule(rule) is isinstance(rule, slots.PlayRule)
    state = GameState(rules, rules.players[0])
    assert isinstance(state.figure, slots.Position)
    assert isinstance(state.figure.clone(), type(state.figure))


@pytest.mark.parametrize("position", [Figure, PieceBoard])
def test_both_positions_meet_the_position_contract(position: type) -> None:
    for name, wanted in declared_methods(slots.Position).items():
        have = inspect.signature(getattr(position, name))
        assert list(have.parameters) == list(wanted.parameters), (position.__name__, name)
    for name in declared_properties(slots.Position):
        assert inspect.getattr_static(position, name, None) is not None or name in position.__slots__


def test_str_of_a_state_draws_each_kind_of_position_through_the_contract() -> None:
    """GameState.__str__ asks the position to draw itself (no branch on its type)."""
    for ruleset, marker in (("parker-1939", ": ["), ("klauber-1937", " . ")):
        rules = load_rules(ruleset)
        state = GameState(rules, rules.players[0])
        rng = random.Random(3)
        while state.is_chance_node() or not state.figure.tile_at:
            state.apply(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
        figure = state.figure
        open_cells = rules.placement.legal_cells(figure.clone()) if rules.placement is not None else ()  # type: ignore[arg-type]
        picture = figure.plain_lines(rules.tiles.names, rules.term("tiles"), rules.colour_term, open_cells)
        assert picture and "\n".join(picture) in str(state)
        assert marker in str(state)


def test_a_position_says_how_many_of_a_seats_pieces_are_on_it() -> None:
    """What a table shows beside a seat (the keeper's status, the web table, str(state)): a board of
    pieces counts each seat's own pieces left on it; laid tiles belong to no seat, so a figure says None."""
    for ruleset in ("parker-1939", "klauber-1937"):
        rules = load_rules(ruleset)
        state = GameState(rules, rules.players[0])
        rng = random.Random(4)
        for _ in range(400):
            if state.is_over() or (isinstance(state.figure, PieceBoard) and None in state.figure.square):
                break
            state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        figure = state.figure
        for seat in range(state.seat_count):
            if isinstance(figure, PieceBoard):
                on = [p for p, square in enumerate(figure.square) if square is not None and figure.owner[p] == seat]
                assert figure.pieces_on_board(seat) == len(on)
                assert f"\n{state.who(seat)}: {len(on)} {rules.term('tiles')} on the board\n" in str(state)
            else:
                assert figure.pieces_on_board(seat) is None
        assert ("on the board" in str(state)) is isinstance(figure, PieceBoard)
    assert isinstance(figure, PieceBoard) and None in figure.square  # some were taken


class _NoVisibility(Primitive):
    """A zone from a plugin that never says who sees it, nor whether it lies face up."""

    name = "secret-zone"
    slot = "zones"
    kind = "pile"
    per_seat = False

    def initial_tiles(self, rules: Any) -> range:
        return range(0)


class _WrongArguments(Pile):
    """A zone whose initial_tiles takes another argument than the contract gives."""

    name = "wrong-zone"

    def initial_tiles(self, rules: Any, seats: int) -> range:  # type: ignore[override]
        return range(0)


class _RenamedArgument(Pile):
    name = "renamed-zone"

    def initial_tiles(self, ruleset: Any) -> range:  # type: ignore[override]
        return range(0)


class _NoArgument(Pile):
    name = "no-argument-zone"

    def initial_tiles(self) -> range:  # type: ignore[override]
        return range(0)


class _NoneOnTheClass(_NoVisibility):
    """A class attribute that is None still counts as present (a face-down zone seen by nobody)."""

    name = "none-zone"
    face_up = None
    visibility = None


class _Optional(Pile):
    """Extra parameters with defaults are allowed: the contract's call still binds."""

    name = "optional-zone"
    kind: ClassVar[str] = "pile"

    def initial_tiles(self, rules: Any, seats: int = 2) -> range:  # type: ignore[override]
        return range(0)


@pytest.mark.parametrize(("cls", "fault"), [
    (_NoVisibility, "it has no face_up (property of the zones contract); "
                    "it has no visibility (property of the zones contract)"),
    (_WrongArguments, "its initial_tiles needs 'seats', which the contract never gives: initial_tiles(rules)"),
    (_RenamedArgument, "its initial_tiles's argument 1 is 'ruleset'; the contract calls initial_tiles(rules)"),
    (_NoArgument, "its initial_tiles takes 0 argument(s); the contract calls initial_tiles(rules)"),
])
def test_the_registry_refuses_a_primitive_that_breaks_its_contract_saying_what_it_lacks(cls: type[Primitive],
                                                                                         fault: str) -> None:
    with pytest.raises(ValueError) as caught:
        Registry().add(cls)
    message = str(caught.value)
    assert "\n" not in message
    assert message == (f"primitive {cls.name!r} ({cls.__module__}.{cls.__qualname__}) does not meet the zones "
                       f"contract: {fault}")


def test_the_registry_takes_a_primitive_whose_extra_arguments_have_defaults() -> None:
    registry = Registry()
    registry.add(_Optional)
    registry.add(_NoneOnTheClass)
    assert registry.get("zones", "optional-zone") is _Optional
    assert registry.get("zones", "none-zone") is _NoneOnTheClass


def test_a_turn_rule_that_refuses_by_returning_none_makes_an_illegal_action_and_changes_nothing() -> None:
    """The turn contract lets ``apply`` return None for an action it will not take: the state then
    raises IllegalAction for a draw as for a play (it once looked None up as an event kind). The
    readable state calls the rule; the compiled one inlines a draw rule's own statements."""
    from contack_core.engine.actions import Draw, IllegalAction

    rules = load_rules("parker-1939")
    draw_rule = next(rule for rule in rules.turn if rule.action_type is Draw)
    state = GameState.readable(rules, 2)
    rng = random.Random(5)
    while not any(isinstance(action, Draw) for action in state.legal_actions()):
        assert not state.is_over()
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    before = str(state), state.turns
    draw = next(action for action in state.legal_actions() if isinstance(action, Draw))
    original = draw_rule.apply
    draw_rule.apply = lambda state, action: None  # type: ignore[method-assign]
    try:
        with pytest.raises(IllegalAction):
            state.apply(draw)
    finally:
        draw_rule.apply = original  # type: ignore[method-assign]
    assert (str(state), state.turns) == before


def test_the_slot_contracts_and_the_rules_typed_with_them_are_checked_strictly() -> None:
    """mypy (tests/test_types.py runs it as configured) covers engine/slots.py and engine/rules.py,
    with no override loosening either, and every primitive (turn rules and set-up steps generic
    in the kind of action they take, so none narrows its contract)."""
    import tomllib

    config = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    files = set(config["files"])
    assert config["strict"] is True
    assert "contack_core" in files  # the whole package: the engine and every primitive with it
    loosened = {module for override in config.get("overrides", []) for module in override["module"]
                if not override.get("ignore_missing_imports")}
    assert not loosened & {"contack_core.engine.slots", "contack_core.engine.rules", "contack_core.engine.state"}


def test_the_default_registry_checks_the_primitives_of_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ludeme installed under contack.ludemes that breaks its contract is refused when the
    registry is built, naming it; the built-ins are trusted there (the tests above check them)."""
    import contack_core.primitives.builtin as builtin

    class Entry:
        value = "plugin:SecretZone"

        def load(self) -> type[Primitive]:
            return _NoVisibility

    monkeypatch.setattr(builtin, "entry_points", lambda group: [Entry()] if group == "contack.ludemes" else [])
    with pytest.raises(ValueError, match="primitive 'secret-zone' .* does not meet the zones contract"):
        builtin.default_registry()


@pytest.mark.parametrize("step", ["open-from-zone", "lowest-tile-opens"])
def test_an_opening_step_needs_a_lattice_board_and_says_so_at_load(step: str) -> None:
    """The board contract declares no origin: the steps that lay the opening tile on it take it
    from the triangular lattice when built, and refuse another board (once a crash in play)."""
    from contack_core.primitives.registry import BuildContext, PrimitiveError
    from contack_core.primitives.setup import LowestTileOpens, OpenFromZone
    from contack_core.primitives.zones import Hand

    rules = load_rules("klauber-1937")  # a square grid
    context = BuildContext(options={}, tiles=load_rules("parker-1939").tiles, zones={}, compile=lambda s, n: None,
                           turn_keys=[], counters={}, board=rules.board)
    context.zones = {"stock": Pile("stock", {}, context), "hand": Hand("hand", {}, context)}
    cls, params = ((OpenFromZone, {"from": "stock"}) if step == "open-from-zone"
                   else (LowestTileOpens, {"from": "hand", "order": ["total"]}))
    with pytest.raises(PrimitiveError) as caught:
        cls("opening", params, context)
    assert str(caught.value) == (f"{step} lays the opening tile on a triangular-lattice board's origin; this "
                                 f"ruleset's board is square-grid")
    assert caught.value.key == "from"
