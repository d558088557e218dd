"""A compiled ruleset: the built primitives, the option values, and the narration terms."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from contack_core.boards.lattice import figure_of
from contack_core.boards.tiles import TileSet
from contack_core.engine.actions import Action, HouseAction, Play
from contack_core.engine.compiled import compiled_state_class
from contack_core.engine.digests import rules_digest, text_digest
from contack_core.engine.events import Discarded, Drew, Event, HouseActed, Moved, Passed, Played
from contack_core.engine.slots import (
    Board,
    Counter,
    HandEnding,
    Match,
    Placement,
    PlayRule,
    Position,
    SomeSetupStep,
    SomeTurnRule,
    TurnOrderEffect,
    Zone,
    is_play_rule,
)
from contack_core.engine.values import VALUE_BINDINGS, state_values
from contack_core.language.expressions import formula_constants
from contack_core.language.limits import DEFAULT_TURN_CAP
from contack_core.language.programs import Program, Source, TurnStep, build_function, compile_consequences, turn_program_body

if TYPE_CHECKING:
    from contack_core.engine.state import GameState

#: The events that follow a seat's action, and the names rulesets give their kinds.
EVENT_NAMES: Mapping[type, str] = {Played: "play", Drew: "draw", Discarded: "discard", Passed: "pass", Moved: "move",
                                   HouseActed: "house"}
EVENT_KINDS = tuple(EVENT_NAMES.values())

#: Narration words a ruleset may leave out; English defaults.
DEFAULT_TERMS: Mapping[str, Any] = {
    "language": "en", "tile": "tile", "tiles": "tiles", "matching": "matching contact",
    "counting": "counting contact", "missed": "missed contact", "opportunity": "opportunity play", "score": "score",
    "scorekeeper": "scorekeeper", "draw": "draws", "pass": "passes", "plays": "plays",
    "opens": "opens with", "hand": "hand", "game": "game", "winner": "wins the game",
    "winners": "tie for the win", "went_out": "played out", "blocked": "the hand is blocked",
    "sealed": "no cell is left to play to", "all_passed": "every player passed in turn",
    "points": "points", "held": "held", "total": "total", "colours": {},
    "discards": "lays aside", "chips": "chips", "bank": "the bank", "loan": "a loan", "penalty": "a penalty", "placed": "tiles in the figure",
    "partners": "partners", "partners_win": "win together as partners", "nobody_wins": "nobody wins", "completed": "every tile is in the figure",
    "time": "time is up", "seat": "seat", "at": "at", "game_end": "at the end of the game",
    "none_left": "nothing is left to any side: nobody wins",
    "again": "plays again", "skipped": "is skipped", "reversed": "the direction of play is reversed",
    "given": "is given the turn",
}


@attrs.define(eq=False)
class Rules:
    """Everything the interpreter needs to run one ruleset with one choice of options."""

    id: str
    title: str
    players: tuple[int, int]
    options: dict[str, Any]
    terms: dict[str, Any]
    document: dict[str, Any]
    chain: list[str]
    tiles: TileSet
    board: Board
    zones: dict[str, Zone]
    setup: list[SomeSetupStep]
    #: None when nothing is laid (a board of pieces that move).
    placement: Placement | None
    turn: list[SomeTurnRule]
    hand_end: list[HandEnding]
    counters: dict[str, Counter]
    match: Match
    #: The turn-order effects (another turn, skip the next seat, reverse), in the order written:
    #: empty, play passes round the table one seat at a time.
    turn_order: list[TurnOrderEffect] = attrs.Factory(list)
    #: The file the ruleset came from, when it is not a shipped ruleset known by its id.
    origin: Path | None = None
    #: The most decisions a game may take: play stops a game there, unfinished, as the
    #: ruleset's error (its ``turn_cap``, or the schema's default); stated in record headers.
    turn_cap: int = DEFAULT_TURN_CAP
    #: What follows each kind of event, compiled (see :func:`compile_consequences`): the
    #: counters' scoring of a play, then the hand endings checked after it; None if nothing.
    consequences: dict[type, Callable[[GameState, Event], str | None] | None] = attrs.field(init=False)
    #: What those are compiled from, by kind of event: the effects, and the endings as (key,
    #: condition, went_out), for the compiled state to inline.
    consequence_sources: dict[type, tuple[list[Source], list[tuple[str, Source, bool]]]] = attrs.field(init=False)
    endings_when_stuck: list[HandEnding] = attrs.field(init=False)
    #: Whether the direction of play is kept from one hand to the next (a turn-order effect says so).
    direction_kept: bool = attrs.field(init=False)
    #: The turn rules compiled into one function: ``turn_program(state)`` lists the legal
    #: actions of the seat to act and records in ``state._allowed`` which rule offers each kind.
    turn_program: Callable[[GameState], list[Action]] = attrs.field(init=False)
    #: The turn program's statements, which the compiled state inlines in its ``legal_actions``.
    turn_body: Program = attrs.field(init=False)
    #: :attr:`state_class`, once made.
    _state_class: type[GameState] | None = attrs.field(init=False, default=None)
    #: :attr:`state_class` under each subclass of GameState that made a state of these rules.
    _compiled_subclasses: dict[type[GameState], type[GameState]] = attrs.field(init=False, factory=dict)
    #: The play rule when it has no ``when``: a play is then legal exactly when that rule
    #: can make it, so a replayed play (a record's) needs no list of every legal action.
    unconditional_play: PlayRule | None = attrs.field(init=False)
    #: :meth:`digest` and :meth:`former_digest`, once worked out (the resolved rules never change;
    #: a record header and every audit ask for them).
    _digest: str | None = attrs.field(init=False, default=None)
    _former_digest: str | None = attrs.field(init=False, default=None)
    #: What every hand starts with: the tiles of each shared zone, and the per-seat zones (empty).
    shared_zone_starts: dict[str, tuple[int, ...]] = attrs.field(init=False)
    seat_zone_names: tuple[str, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.shared_zone_starts = {name: tuple(zone.initial_tiles(self)) for name, zone in self.zones.items()
                                   if not zone.per_seat}
        self.seat_zone_names = tuple(name for name, zone in self.zones.items() if zone.per_seat)
        self.consequences = {}
        self.consequence_sources = {}
        for kind, name in EVENT_NAMES.items():
            effects = [counter.effect_source(name, f"_counter{i}") for i, counter in enumerate(self.counters.values())]
            if self.placement is not None:
                effects.append(self.placement.effect_source(name, "_placement"))
            # After the counters, so a condition reads the totals this event made.
            effects.extend(effect.effect_source(name, f"_turn_order{i}") for i, effect in enumerate(self.turn_order))
            endings = [(ending.key, ending.condition_source(f"_ending{i}", self), ending.went_out)
                       for i, ending in enumerate(self.hand_end) if kind in ending.after]
            self.consequence_sources[kind] = (effects, endings)
            self.consequences[kind] = compile_consequences(effects, endings, f"after_{name}")
        self.endings_when_stuck = [e for e in self.hand_end if e.when_stuck]
        self.direction_kept = any(effect.keeps_direction for effect in self.turn_order)
        steps = [TurnStep(when=None if rule.when is None else rule.when.source, can_name=rule.can_name,
                          generator=rule.generator_source(f"_turn{index}"), action_type=rule.allowed_key, rule=rule)
                 for index, rule in enumerate(self.turn)]
        values = state_values(self.zones, self.counters, board=self.board,
                              house_actions=[rule.key for rule in self.turn if rule.action_type is HouseAction])
        self.turn_body = turn_program_body(steps, values, formula_constants(self.options), VALUE_BINDINGS)
        self.turn_program = build_function("turn_program", ["_state"], [*self.turn_body.lines, "return _actions"],
                                           [self.turn_body])
        self.unconditional_play = next((rule for rule in self.turn if is_play_rule(rule) and rule.when is None), None)

    @property
    def state_class(self) -> type[GameState]:
        """The class of this ruleset's states: :class:`GameState` with its hottest methods compiled
        for these rules (:mod:`contack_core.engine.compiled`), made when the first state is (a
        ruleset only checked or shown never pays for it); ``GameState(rules, seats)`` makes one."""
        if self._state_class is None:
            self._state_class = compiled_state_class(self)
        return self._state_class

    def compiled_subclass(self, subclass: type[GameState]) -> type[GameState]:
        """``subclass`` of GameState with these rules' compiled methods beneath its own (made once)."""
        made = self._compiled_subclasses.get(subclass)
        if made is None:
            made = self._compiled_subclasses[subclass] = type(
                subclass.__name__, (subclass, self.state_class),
                {"__slots__": (), "__module__": subclass.__module__, "__doc__": subclass.__doc__,
                 "__qualname__": f"{subclass.__qualname__}[{self.id}]"})
        return made

    def for_players(self) -> str:
        """Whom the ruleset is for, as messages say it: ``for 2 to 7 players``, ``for 4 players``
        (where its options fix the count), ``for 1 player``."""
        low, high = self.players
        if low == high:
            return f"for {low} player{'s' if low != 1 else ''}"
        return f"for {low} to {high} players"

    def new_figure(self, seat_count: int | None = None) -> Position:
        """The empty position of a hand: the board primitive owns its container (a figure of
        laid tiles, a grid of pieces); ``seat_count`` defaults to the fewest players."""
        return self.board.new_position(self, self.players[0] if seat_count is None else seat_count)

    def digest(self) -> str:
        """A fingerprint of the rules as the engine runs them with these options (stored in
        record headers; see :mod:`contack_core.engine.digests`)."""
        if self._digest is None:
            self._digest = rules_digest(self.document, self.options)
        return self._digest

    def former_digest(self) -> str:
        """The digest records carried before it covered the resolved rules only
        (:func:`contack_core.engine.digests.text_digest`): an audit of an older record compares
        its header with it (worked out once, as :meth:`digest` is)."""
        if self._former_digest is None:
            self._former_digest = text_digest(self.document, self.options)
        return self._former_digest

    def term(self, key: str) -> str:
        return str(self.terms.get(key, DEFAULT_TERMS.get(key, key)))

    def colour_term(self, colour: str) -> str:
        return str((self.terms.get("colours") or {}).get(colour, colour))

    def explain_forbidden(self, state: GameState, action: Action) -> str:
        """Why ``action`` is not legal now, in the players' words: the rule it breaks, or what the
        player may still do (read off the legal actions, never the ruleset's formula) (slow path)."""
        seat = state.current
        who = state.who(seat)
        if state.setup_step is not None:
            return state.setup_step.explain(state)
        what = type(action).__name__.lower()
        if isinstance(action, HouseAction):
            what = action.rule
            rule = next((r for r in self.turn if r.action_type is HouseAction and r.key == action.rule), None)
            if rule is None:
                known = [r.key for r in self.turn if r.action_type is HouseAction]
                own = f" (its own: {', '.join(known)})" if known else ""
                return f"this ruleset has no action {action.rule!r}{own}"
            why = rule.explain(state, action)
            if why is not None:
                return why
            return f"{who} may not {what} now: {who} {self.still_possible(state)}"
        rule = next((r for r in self.turn if r.action_type is type(action)), None)
        if rule is None:
            return f"this ruleset has no {what} action"
        if isinstance(action, Play) and is_play_rule(rule):
            if action.tile not in rule.tiles(state):
                names = self.tiles.names
                for zone in rule.pile_zones:
                    pile = state.zones[zone]
                    if action.tile in pile:
                        return (f"tile {names[action.tile]} is not on top of its pile ({zone}): "
                                f"only {names[pile[-1]]}, on top, may be played from it")
                return (f"tile {names[action.tile]} is not in {who}'s "
                        f"{' or '.join(rule.zones)} (it is in {state.locate(action.tile)})")
            placement = self.placement
            if (Play in state._allowed or rule.when is None) and placement is not None:
                return placement.explain_misfit(figure_of(state.figure), action.tile, action.cell)
        return f"{who} may not {what} now: {who} {self.still_possible(state)}"

    def still_possible(self, state: GameState) -> str:
        """What the seat to act may do now, in words: ``can still play or draw`` (from its legal actions)."""
        order = ("play", "move", "draw", "discard", "pass")
        kinds = {a.rule if isinstance(a, HouseAction) else type(a).__name__.lower() for a in state.legal_actions()}
        words = [kind for kind in order if kind in kinds] + sorted(kinds.difference(order))
        if not words:
            return "can do nothing now"
        if words[0] == "play":
            fit = len({a.tile for a in state.legal_actions() if isinstance(a, Play)})
            words[0] = f"play ({fit} tile{'s' if fit != 1 else ''} fit{'s' if fit == 1 else ''})"
        return "can still " + " or ".join(words)
