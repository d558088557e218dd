"""The declared contract of every rule slot: what the engine asks of the primitive a ruleset names there.

A ruleset fills each slot of :data:`contack_core.language.schema.SLOTS` with primitives (Ludii's
ludemes): the tile set, the board, the zones, the set-up steps, the placement rule, the turn
rules, the hand endings, the counters, the match. Each slot's contract is one ``Protocol`` here,
its methods fixed and documented; :class:`contack_core.engine.rules.Rules` holds its primitives
by these types, and the engine calls nothing else on them. A primitive need not inherit from
its protocol (the base classes in :mod:`contack_core.primitives` give the optional parts a
default); the registry refuses, when a primitive joins it, a class that lacks a method of its
slot's contract or takes other parameters (:func:`contract_faults`).

The position a board primitive makes (the figure of laid tiles, a board of pieces) has a
contract too, :class:`Position`, so that the state handles it without asking which it is.
"""

from __future__ import annotations

import functools
import inspect
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, TypeGuard, TypeVar, runtime_checkable

import attrs

from contack_core.boards.lattice import Cell, Figure, Pattern
from contack_core.boards.tiles import TileSet
from contack_core.engine.actions import Action, Play
from contack_core.engine.events import Event, HandResult, Played
from contack_core.language.expressions import Expression
from contack_core.language.programs import Source

if TYPE_CHECKING:
    from contack_core.engine.features import Feature
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState


#: The kind of action one turn rule offers, or one set-up step samples: the state hands a rule
#: only actions of its kind (it finds the rule by the action's type), so a rule's ``apply``
#: takes that kind alone.
ActionT = TypeVar("ActionT", bound=Action)
#: The kind of action a set-up step samples, which its ``apply_sampled`` alone takes.
SampledT = TypeVar("SampledT", bound=Action, contravariant=True)


@runtime_checkable
class Position(Protocol):
    """What a hand's position (the figure of laid tiles, a board of pieces) offers the engine:
    the board primitive makes it (:meth:`Board.new_position`), the state keeps it as ``figure``."""

    @property
    def tile_at(self) -> Mapping[tuple[int, int], int]:
        """What lies where: a point to the tile (or piece) on it."""

    @property
    def every_seat_in_play(self) -> bool:
        """True when no seat can drop out of the hand (laid tiles); else :meth:`seat_in_play` says."""

    def seat_in_play(self, seat: int) -> bool:
        """Whether ``seat`` still takes turns (a board game's seat with pieces left)."""

    def pieces_on_board(self, seat: int) -> int | None:
        """How many of ``seat``'s own pieces are on the board (what a table shows beside the seat),
        or None where what lies there belongs to no seat (a figure of laid tiles)."""

    @property
    def sites(self) -> int | None:
        """How many points the board has, or None for a board without edge (the lattice grows
        wherever tiles are laid)."""

    def layout(self) -> Hashable:
        """What lies where and how it is turned, as a value equal for positions that look alike
        (what a repeated position is told by)."""

    def wire_fields(self, names: Sequence[str], seats: int) -> dict[str, Any]:
        """The position's fields in the contack-bot/1 wire format (``figure`` and ``last`` for laid tiles,
        ``board`` for pieces); ``names`` the tile set's names, ``seats`` the seats at the table."""

    def clone(self) -> Position:
        """An independent copy (a bot's search changes the copy only)."""

    def plain_lines(self, names: Sequence[str], tiles_word: str, colour_word: Callable[[str], str],
                    open_cells: Sequence[Cell] = ()) -> list[str]:
        """The position in plain text for ``str(state)`` and the keeper's ``board``: ``names`` the tile
        set's names, ``tiles_word`` and ``colour_word`` the ruleset's words for tiles and for a colour
        (a board of pieces marks each by its colour's initial), ``open_cells`` where a play may go now."""


class Contact(TypedDict):
    """One contact a placed tile makes with a neighbour (:meth:`Placement.contacts_of`)."""

    colour: str
    mine: int
    theirs: int
    counting: bool
    #: What the contact is: "counting", "matching", or "missed" (numbers failing the contact, or
    #: colours that differ, which a house rule's ``legal`` may let through).
    kind: str
    points: int
    neighbour: Cell


@runtime_checkable
class Components(Protocol):
    """The ``components`` slot: the physical pieces a ruleset plays with."""

    key: str

    @property
    def tiles(self) -> TileSet:
        """The tile set (the faces of pieces, for a board game): names, colours, values."""


@runtime_checkable
class Board(Protocol):
    """The ``board`` slot: the geometry, and the container of each hand's position."""

    key: str

    @property
    def name(self) -> str:
        """The primitive's name as rulesets write it (the replay draws the boards it knows by name)."""

    def new_position(self, rules: Rules, seat_count: int) -> Position:
        """The empty position of a hand of ``seat_count`` seats."""

    def state_values(self) -> Mapping[str, str]:
        """What formulas may read of the position, each name with the engine's expression for it
        (see :mod:`contack_core.engine.values`); empty when the board offers nothing."""

    def features(self, state: GameState) -> Mapping[str, Feature]:
        """What a bot may weigh of the position (empty: nothing)."""


@runtime_checkable
class Zone(Protocol):
    """The ``zones`` slot: a place tiles can be besides the figure, shared or one per seat."""

    key: str

    @property
    def kind(self) -> str:
        """``pile`` (shared, tiles taken from the top) or ``hand`` (a seat's own)."""

    @property
    def per_seat(self) -> bool:
        """True for a zone each seat has one of."""

    @property
    def face_up(self) -> bool:
        """True when its tiles lie face up (only a face-up pile's top may be played)."""

    @property
    def visibility(self) -> object:
        """Who sees which of its tiles: a word or ``{whole: RELATION, top: RELATION}``
        (see :func:`contack_core.engine.information.parse_visible`)."""

    def initial_tiles(self, rules: Rules) -> Sequence[int]:
        """The tiles it holds when a hand begins (a stock: every tile)."""


@runtime_checkable
class SetupStep(Protocol[SampledT]):
    """The ``setup`` slot: one step of the set-up of a hand, a chance step (a shuffle, a deal,
    sampled by the caller's RNG or read from a record) or a decision (the opening play).
    ``SampledT`` is the kind of action it samples (:meth:`apply_sampled` takes no other)."""

    key: str

    @property
    def chance(self) -> bool:
        """True for a step chance decides (:meth:`sample`); false for a seat's decision (:meth:`legal`)."""

    @property
    def accepts(self) -> tuple[type[Action], ...]:
        """The action types this step takes."""

    @property
    def shuffles(self) -> str | None:
        """The pile this step shuffles (its outcome a :class:`Shuffle`), None for any other step: a
        record never states a shuffle, so a reader applies it with the pile as it lies."""

    def enter(self, state: GameState) -> None:
        """Called when the set-up reaches this step (a step that needs no action finishes here)."""

    def sample(self, state: GameState, rng: random.Random) -> Action:
        """A chance step's outcome, drawn with the caller's RNG."""

    def legal(self, state: GameState) -> list[Action]:
        """A decision step's legal actions (it records in ``state._allowed`` that it takes them)."""

    def apply(self, state: GameState, action: Action) -> Event | None:
        """Apply a recorded or chosen action (raises IllegalAction, or returns None for a play
        that is not the one due, changing nothing)."""

    def apply_sampled(self, state: GameState, action: SampledT) -> Event | None:
        """Apply an outcome :meth:`sample` drew from the state as it stands (checks may be skipped)."""

    def explain(self, state: GameState) -> str:
        """What this step waits for, in words (for error messages)."""

    def check_domain(self, hands: int, players: tuple[int, int]) -> None:
        """Refuse (PrimitiveError) what fails for some game of ``hands`` hands and seats in ``players``."""

    def takes(self, seats: int) -> Mapping[str, int]:
        """The tiles it takes from each shared zone with ``seats`` seats (checked at load)."""

    def gives(self) -> Mapping[str, int]:
        """The tiles it lays on each shared zone."""


@runtime_checkable
class Placement(Protocol):
    """The ``placement`` slot: where a tile may be laid on the figure, and what laying it scores."""

    key: str
    #: How many tiles an opening (a cell away from the last tile) must touch; the board's
    #: figure counts its openings so.
    opening_min: int
    #: ``play_from(state, seat, zone, tile, cell)``: lay ``tile`` from the list ``zone`` on
    #: ``cell`` for ``seat``, returning the play, or None (changing nothing) if it is not legal.
    play_from: Callable[[GameState, int, list[int], int, Cell], Played | None]
    #: The kinds of contact the ruleset names (``kinds``): name -> ``table[a][b]``, true for a
    #: contact of that kind; every formula about a play counts them as ``<kind>_contacts``.
    kind_tables: Mapping[str, Sequence[Sequence[object]]]
    #: The shapes the ruleset names (``shapes``): every formula about a play counts those it
    #: completes as ``<shape>_shapes``.
    shapes: Mapping[str, Pattern]

    @property
    def colours_must_match(self) -> bool:
        """True when touching edges must be of one colour."""

    @property
    def points_step(self) -> int | None:
        """A whole number every play's points are a multiple of (the greatest such), or None
        when no step is known (a formula prices plays): what a score typed without its plays
        can be checked against."""

    def play_object(self, tile: int, cell: Cell) -> Play:
        """The (interned) action laying ``tile`` on ``cell``."""

    def plays(self, figure: Figure, tiles: list[int]) -> list[Action]:
        """Every legal play of ``tiles`` on ``figure`` (the innermost loop of a playout): each a :class:`Play`."""

    def play_source(self, source: str = "None", refuse: str = "return None", returns: bool = True) -> Source:
        """:attr:`play_from`'s body as Python statements, for a play rule to inline: they lay
        ``_tile`` from the list ``_zone`` on ``_cell`` for ``_seat``, the play's ``source`` the
        expression ``source`` (the zone's name, where the rule plays from several); where the play
        is not legal they run ``refuse``, changing nothing; the event is returned, or with
        ``returns=False`` left in ``_event``."""

    def plays_source(self, tiles: str) -> Source:
        """:meth:`plays` of the tiles the statements ``tiles`` leave in ``_tiles``, on ``_state.figure``,
        as statements leaving the plays in ``_found``, for a turn program to inline."""

    def agreed_play(self, state: GameState, seat: int, zone: list[int], tile: int, cell: Cell) -> Played | None:
        """``tile`` from ``zone`` laid on ``cell`` although the rules refuse it there (the table
        let it stand), or None, changing nothing, where it cannot lie at all (a cell taken)."""

    def place(self, state: GameState, seat: int, tile: int, cell: Cell, rotation: int, points: int) -> Played:
        """Lay ``tile`` on ``cell`` unchecked (the opening tile of a set-up)."""

    def lift_last(self, figure: Figure) -> tuple[Cell, int]:
        """Take the tile laid last off ``figure`` (a house rule's take-back): its cell and tile."""

    def legal_cells(self, figure: Figure) -> list[Cell]:
        """The cells a tile may go to now."""

    def contacts_of(self, figure: Figure, cell: Cell) -> list[Contact]:
        """The contacts the tile on ``cell`` makes with its neighbours (narration, formulas, pictures)."""

    def explain_misfit(self, figure: Figure, tile: int, cell: Cell) -> str:
        """Why ``tile`` may not go on ``cell``, in words (slow path, for error messages)."""

    def effect_source(self, kind: str, prefix: str) -> Source:
        """What follows an event of ``kind`` on the figure, as statements over ``_state`` (empty: nothing)."""

    def sealed_source(self) -> Source:
        """"No legal cell is left" as a Python expression over ``_state`` (the no-legal-cell ending)."""

    def any_contact(self) -> bool:
        """Whether any tile of the set may ever touch another (validate refuses a set where none may)."""


@runtime_checkable
class TurnRule(Protocol[ActionT]):
    """The ``turn`` slot: one kind of action a seat may take on its turn, allowed by a ``when``.
    ``ActionT`` is that kind (:attr:`action_type`): :meth:`apply` takes no other."""

    key: str
    #: The condition that allows the rule (None: always), over the turn values.
    when: Expression | None
    #: The name later rules' ``when`` read this rule's "offers something now" by.
    can_name: str

    @property
    def action_type(self) -> type[ActionT]:
        """The kind of action it offers (one rule a kind)."""

    @property
    def ends_turn(self) -> bool:
        """True when the turn passes on after the action."""

    @property
    def allowed_key(self) -> type | str:
        """What the state's table of allowed rules finds it by: its action type, or (a kind several
        rules offer, a house rule's own action) its key."""

    def explain(self, state: GameState, action: Action) -> str | None:
        """Why it refuses ``action`` now, where it knows (None: the caller says what is still possible)."""

    def features(self, state: GameState) -> Mapping[str, Feature]:
        """What a bot may weigh of what its actions can do now (empty: nothing)."""

    def distinct_actions(self, tile_count: int) -> Sequence[Action] | None:
        """Every action it can ever offer, in a fixed order, for a fixed action space (OpenSpiel's
        ``NumDistinctActions``); None where they depend on the board (plays, moves)."""

    def generate(self, state: GameState) -> list[Action]:
        """The legal actions of this kind for the seat to act."""

    def generator_source(self, prefix: str) -> Source:
        """:meth:`generate` as a Python expression over ``_state``, for the compiled turn program."""

    def apply(self, state: GameState, action: ActionT) -> Event | None:
        """Apply ``action`` (None, or IllegalAction, changing nothing, when it is not legal)."""

    def apply_source(self, refuse: str) -> Source | None:
        """:meth:`apply` as Python statements over ``_state`` and ``_action``, for the state compiled
        for the ruleset to inline (:mod:`contack_core.engine.compiled`): they leave the event in
        ``_event``, or run ``refuse`` (statements that leave the method), changing nothing, where
        :meth:`apply` returns None. None where the rule offers no such statements (it is called)."""

    def apply_agreed(self, state: GameState, action: ActionT) -> Event | None:
        """Apply ``action`` although the rules refuse it, as the people at a table agreed (the
        turn's conditions are lifted by the state; a rule may lift more, as a play rule laying a
        tile where its numbers make no contact); what cannot be done at all is still refused."""


@runtime_checkable
class PlayRule(TurnRule[Play], Protocol):
    """A turn rule that lays tiles (its ``action_type`` is :class:`Play`): it lays them with the
    ruleset's placement, from the zones it names."""

    #: The zones it plays from: the seat's own zones, and face-up piles (their top tile).
    zones: Sequence[str]
    #: The piles among :attr:`zones`.
    pile_zones: Sequence[str]

    def attach(self, placement: Placement) -> None:
        """Lay tiles with ``placement`` (called once the placement primitive is built)."""

    def tiles(self, state: GameState) -> list[int]:
        """The tiles the seat to act may play."""


#: A turn rule of whichever kind of action: what the ruleset's list of turn rules holds (the
#: state hands each action to the rule of its kind, so no caller needs to know which kind).
SomeTurnRule = TurnRule[Any]
#: A set-up step sampling whichever kind of action (the state hands it what it sampled).
SomeSetupStep = SetupStep[Any]


def is_play_rule(rule: SomeTurnRule) -> TypeGuard[PlayRule]:
    """Whether ``rule`` lays tiles: a turn rule offering :class:`Play` actions is a :class:`PlayRule`."""
    return rule.action_type is Play


@runtime_checkable
class HandEnding(Protocol):
    """The ``hand_end`` slot: says, after an event, whether the hand is over now."""

    key: str

    @property
    def after(self) -> tuple[type[Event], ...]:
        """The events after which it is checked."""

    @property
    def when_stuck(self) -> bool:
        """True for an ending checked when the seat to act has no legal action."""

    @property
    def went_out(self) -> bool:
        """True when the seat whose action ends the hand this way has gone out."""

    def ends_hand(self, state: GameState, event: Event) -> bool:
        """Whether ``event`` (just applied to ``state``) ends the hand."""

    def condition_source(self, prefix: str, rules: Rules) -> Source:
        """:meth:`ends_hand` as a Python expression over ``_state`` and ``_event``, for the
        compiled consequences of an event."""


@attrs.frozen
class Transfer:
    """Points that move between seats ``when`` something happens: ``amount`` (a formula) from
    each seat ``payers`` names to each seat ``payees`` names (see
    :data:`contack_core.engine.values.RELATIONS`)."""

    when: str
    amount: str | int
    payers: str
    payees: str


@runtime_checkable
class Counter(Protocol):
    """The ``scoring`` slot: a number kept per seat, changed by events, hand ends and game ends.

    What it declares of its formulas lets tools that check a result without replaying it (the
    scores-only keeper, the analysis of where points came from) know what it can change."""

    key: str
    #: The formula of each moment it gains at (``play``, ``hand_end``, ``game_end``...) as the
    #: ruleset writes it; empty for a counter whose rules are its own code (pieces left).
    gains: Mapping[str, str | int]
    #: Points it moves between seats, and when.
    transfers: Sequence[Transfer]
    #: True when a play's gain is collected from the other seats (chips): what changes hands in
    #: a hand then adds up to what the bank took.
    collects_from_others: bool
    #: True when a seat short of what it owes borrows, going below zero (chips collected with
    #: ``when_short: borrow``); false when it pays what it has.
    borrow: bool
    #: The ruleset's named constants its formulas read.
    constants: Mapping[str, object]
    #: For each moment it has formulas for: every name a formula may read there, with the
    #: engine's expression for it.
    values: Mapping[str, Mapping[str, str]]

    @property
    def changes_at(self) -> frozenset[str]:
        """The moments it changes at (``play``, ``hand_end``...)."""

    @property
    def counts_at_hand_end_only(self) -> bool:
        """True when nothing but a hand's end changes it (shown mid-hand as if the hand ended now)."""

    def starting_total(self, seats: int) -> int:
        """Each seat's total when a game of ``seats`` seats begins."""

    def effect_source(self, kind: str, prefix: str) -> Source:
        """What follows an event of ``kind`` as statements over ``_state`` and ``_event`` (empty: nothing)."""

    def hand_end_values(self, state: GameState) -> list[int]:
        """What the end of the hand would add to each seat if it ended now, leaving ``state`` as it is."""

    def on_hand_end(self, state: GameState) -> None:
        """Add the end of a hand's gains into ``state.hand_gains``."""

    def on_game_end(self, state: GameState) -> None:
        """Add the end of the game's gains into ``state.hand_gains``."""


@runtime_checkable
class Match(Protocol):
    """The ``match`` slot: how many hands make a game, the sides, and who wins."""

    key: str
    #: The counter the match is decided on (``GameState.scores`` reads it).
    counter: str
    #: The most hands a game takes.
    hands: int
    #: True when the seats with the highest total win (False: the lowest).
    highest: bool
    #: True when the result adds up hands' scores (False: it is decided on the board).
    scored_by_hands: bool
    #: Hand endings that end the game at once, whatever hands remain (``ends_game_on``).
    final_endings: frozenset[str]
    #: The formulas of the measures the result is decided by, in order, as written (empty:
    #: by the counter's totals alone).
    measure_texts: Sequence[str]

    def teams(self, seat_count: int) -> list[list[int]]:
        """The sides of a game of ``seat_count`` seats (raises ValueError if they cannot form)."""

    def team_totals(self, state: GameState) -> list[int]:
        """Each side's pooled total of :attr:`counter`."""

    def game_over(self, state: GameState) -> bool:
        """Whether the game ends with the hand just finished."""

    def winners(self, state: GameState) -> list[int]:
        """The seats ranked first (none: nobody wins)."""

    def measure_values(self, state: GameState) -> list[tuple[int, ...]]:
        """Each seat's values of the measures, in order (empty tuples without measures)."""

    def ranking_keys(self, state: GameState) -> list[tuple[int, ...]]:
        """Each seat's measure values made so that the larger key ranks first."""

    def winners_of_hand(self, scores: tuple[int, ...], held: tuple[int, ...], went_out: int | None) -> list[int]:
        """The seats that won a hand ending with these net ``scores``, tiles ``held`` and seat gone out."""

    def hand_winners(self, state: GameState, result: HandResult) -> list[int]:
        """The seats that won the hand ``result`` tells (``won_hand``, ``hands_won`` read it)."""


@runtime_checkable
class TurnOrderEffect(Protocol):
    """The ``turn_order`` slot: after an event, who acts next (the same seat again, a seat
    skipped, the direction reversed), when its condition holds."""

    key: str
    #: The kinds of event it follows (``play``, ``pass``, ``move``).
    kinds: tuple[str, ...]
    #: Whether the direction of play it leaves is kept into the next hand (else each hand
    #: starts clockwise).
    keeps_direction: bool

    def effect_source(self, kind: str, prefix: str) -> Source:
        """The effect after an event of ``kind``, as statements over ``_state`` and ``_event``
        for the compiled consequences (empty when it does not follow that kind)."""


#: Each slot of :data:`contack_core.language.schema.SLOTS` and the contract of its primitives.
CONTRACTS: Mapping[str, type] = {
    "components": Components, "board": Board, "zones": Zone, "setup": SetupStep, "placement": Placement,
    "turn": TurnRule, "turn_order": TurnOrderEffect, "hand_end": HandEnding, "scoring": Counter, "match": Match,
}


def contract_members(contract: type) -> dict[str, object]:
    """The methods and properties ``contract`` (a protocol) declares, its bases' included, by name."""
    members: dict[str, object] = {}
    for base in reversed(contract.__mro__):
        if base is object or base is Protocol or not getattr(base, "_is_protocol", False):
            continue
        for name, value in vars(base).items():
            if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property)):
                members[name] = value
    return members


def contract_faults(cls: type, slot: str) -> tuple[str, ...]:
    """What keeps primitive class ``cls`` from meeting the contract of ``slot``: each method or
    property of the contract it lacks, or whose parameters differ (names, order, defaults), in
    words; empty when it meets it. A property may be an attribute set when the primitive is
    built, declared in the class body (``face_up: bool``); other data members (``key``) are set
    by every primitive's constructor."""
    return _contract_faults(cls, slot)


_MISSING = object()


@functools.cache
def _contract_faults(cls: type, slot: str) -> tuple[str, ...]:
    """:func:`contract_faults`, worked out once a class (every loader builds a registry)."""
    faults = []
    for name, declared in contract_members(CONTRACTS[slot]).items():
        found = inspect.getattr_static(cls, name, _MISSING)
        if found is _MISSING and isinstance(declared, property) and _annotated(cls, name):
            continue  # an attribute the primitive sets when built, declared on the class
        if found is _MISSING:
            kind = "property" if isinstance(declared, property) else "method"
            faults.append(f"it has no {name} ({kind} of the {slot} contract)")
        elif inspect.isfunction(declared):
            fault = _signature_fault(name, declared, found)
            if fault is not None:
                faults.append(fault)
    return tuple(faults)


def _annotated(cls: type, name: str) -> bool:
    """Whether ``cls`` or a base declares attribute ``name`` (``visibility: str`` in its body)."""
    return any(name in vars(base).get("__annotations__", {}) for base in cls.__mro__)


def _signature_fault(name: str, declared: Callable[..., object], found: object) -> str | None:
    """Why ``found`` (a class attribute) cannot be called as the contract calls ``declared``, or None."""
    skip = 0 if isinstance(found, staticmethod) else 1  # the instance (or class) a call passes first
    if isinstance(found, staticmethod | classmethod):
        found = found.__func__
    if not callable(found):
        return f"its {name} is not a method"
    wanted = list(inspect.signature(declared).parameters.values())[1:]
    try:
        params = list(inspect.signature(found).parameters.values())[skip:]
    except (TypeError, ValueError):  # a builtin without a signature: nothing to compare
        return None
    shown = f"{name}({', '.join(p.name for p in wanted)})"
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    spread = any(p.kind is p.VAR_POSITIONAL for p in params)
    for index, want in enumerate(p for p in wanted if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)):
        if index >= len(positional):
            if spread:
                continue
            return f"its {name} takes {len(positional)} argument(s); the contract calls {shown}"
        have = positional[index]
        if have.name != want.name:
            return f"its {name}'s argument {index + 1} is {have.name!r}; the contract calls {shown}"
        if want.default is not want.empty and have.default is have.empty:
            return f"its {name} needs {have.name!r}, which the contract may leave out: {shown}"
    extra = [p for p in positional[len([p for p in wanted if p.kind is not p.KEYWORD_ONLY]):]
             if p.default is p.empty]
    extra += [p for p in params if p.kind is p.KEYWORD_ONLY and p.default is p.empty
              and p.name not in {w.name for w in wanted}]
    if extra:
        return f"its {name} needs {', '.join(repr(p.name) for p in extra)}, which the contract never gives: {shown}"
    return None
