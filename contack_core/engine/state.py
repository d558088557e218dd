"""The generic game state: a small API in the spirit of OpenSpiel's ``State``.

``current_seat()`` (or :data:`CHANCE`), ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_over()``, ``scores()``. Chance is explicit: at a chance node the caller samples an
outcome with its own seeded RNG (``sample_chance(rng)``) and applies it, so a state never
holds a global or hidden random source; a replayed record applies its recorded outcomes.

The state knows no variant: it holds containers (zones, the figure, counters) and asks
the ruleset's compiled primitives what is legal and what an action does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import filterfalse
from operator import add
from typing import TYPE_CHECKING, TypeVar, cast

from contack_core.engine.actions import (
    CHANCE,
    PASS,
    Action,
    Discard,
    Draw,
    HouseAction,
    IllegalAction,
    Move,
    Pass,
    Play,
)
from contack_core.engine.events import (
    Dealt,
    Event,
    HandResult,
    HouseActed,
    Passed,
    Played,
    Shuffled,
    make_dealt,
    make_hand_result,
    make_passed,
    make_shuffled,
)
from contack_core.boards.lattice import Cell, figure_of
from contack_core.engine.features import Feature, position_features
from contack_core.engine.information import Visibility, ZoneView
from contack_core.engine.ruleset_faults import RulesetFault, figure_fault
from contack_core.language.limits import MAX_FIGURE

#: What a primitive keeps for a hand (:meth:`GameState.once_a_hand`).
Kept = TypeVar("Kept")

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules
    from contack_core.engine.slots import Position, SomeSetupStep, SomeTurnRule


class _Agreed:
    """A turn rule as an agreed action meets it: its ``apply_agreed`` in place of ``apply``."""

    __slots__ = ("rule",)

    def __init__(self, rule: SomeTurnRule) -> None:
        self.rule = rule

    def apply(self, state: GameState, action: Action) -> Event | None:
        return self.rule.apply_agreed(state, action)


class GameState:
    """One game of a ruleset in progress: everything a replay or a bot needs to see."""

    __slots__ = (
        "rules", "seat_count", "hand_number", "step", "deal_seat", "current", "passes",
        "drawn", "zones", "seat_zones", "figure", "totals", "hand_gains", "hand_results",
        "went_out", "over", "chance", "memo", "ledger", "turns", "effects", "_legal", "_allowed", "setup_step",
        "_sampled", "final_gains", "seat_names", "direction", "again", "skips", "chosen", "given", "passed",
        "passed_unchanged",
    )
    # The slots' types (declared here, so that every method sees them, whichever assigns first).
    rules: Rules
    seat_count: int
    hand_number: int
    step: int  # the index in ``rules.setup`` of the set-up step under way
    setup_step: SomeSetupStep | None  # that step, None once the hand is in play
    deal_seat: int
    current: int
    passes: int
    drawn: int
    zones: dict[str, list[int]]
    seat_zones: dict[str, list[list[int]]]
    figure: Position
    totals: dict[str, list[int]]
    hand_gains: dict[str, list[int]]
    hand_results: list[HandResult]
    final_gains: dict[str, list[int]]
    went_out: int | None
    over: bool
    chance: bool
    turns: int
    memo: dict[str, object]
    #: Debts by counter: (debtor, lender or None for the bank) -> amount.
    ledger: dict[str, dict[tuple[int, int | None], int]]
    effects: list[Event]
    _legal: list[Action] | None
    #: The rule that applies each kind of action legal now, as the turn program found them (by the
    #: action's type; a house rule's own action by its rule's key).
    _allowed: dict[type | str, SomeTurnRule | SomeSetupStep | _Agreed]
    _sampled: Action | None
    seat_names: tuple[str, ...] | None
    #: The direction of play this hand: 1 round the table (clockwise), -1 the other way.
    direction: int
    #: Set by a turn-order effect after an event: the seat acts again / seats the turn passes over.
    again: bool
    skips: int
    #: The seat a ``next-seat`` effect gave the turn to, until the turn ends (None: none), and
    #: whether the turn last passed so (for the narration).
    chosen: int | None
    given: bool
    #: The seats (a bit each) that have passed since the last tile was laid or moved, and those
    #: that have passed since anything but a pass happened (a tile laid, drawn or laid aside):
    #: what the all-passed ending reads (see :meth:`all_passed`). Worked out at each pass.
    passed: int
    passed_unchanged: int

    def __new__(cls, rules: Rules, seat_count: int) -> GameState:
        """A state of ``rules``'s own class, :attr:`Rules.state_class`: this one with its hottest
        methods compiled for the ruleset (:mod:`contack_core.engine.compiled`); a subclass's state
        (a refereed game's) takes them too, under what the subclass itself overrides."""
        return object.__new__(rules.state_class if cls is GameState else rules.compiled_subclass(cls))

    @classmethod
    def readable(cls, rules: Rules, seat_count: int) -> GameState:
        """A state that runs this class's own methods, not those compiled for ``rules``: what the
        compiled ones are checked against (its clones are readable too)."""
        state = object.__new__(GameState)
        state.__init__(rules, seat_count)  # type: ignore[misc]
        return state

    def __init__(self, rules: Rules, seat_count: int) -> None:
        low, high = rules.players
        if not low <= seat_count <= high:
            raise ValueError(f"{rules.id} is {rules.for_players()}; {seat_count} seats given")
        rules.match.teams(seat_count)  # raises ValueError if the seats cannot form the ruleset's teams
        self.rules = rules
        self.seat_count = seat_count
        self.hand_number = 0
        self.totals = {name: [c.starting_total(seat_count)] * seat_count
                       for name, c in rules.counters.items()}
        self.hand_results = []
        self.final_gains = {name: [0] * seat_count for name in rules.counters}
        self.over = False
        #: Decisions taken so far in the game (a clock a ruleset may end the game by).
        self.turns = 0
        #: What rule primitives keep for the whole game (debts, say), by primitive key.
        self.ledger = {}
        #: Events that followed from the actions applied (chips collected, say), in order,
        #: for observers to take; :func:`contack_core.engine.referee.play_game` empties it.
        self.effects = []
        #: The chance outcome :meth:`sample_chance` drew last, until the next action applied.
        self._sampled = None
        #: What the people at the table are called, by seat, when known (a kept or audited record):
        #: messages then name them; otherwise they say ``seat N``.
        self.seat_names = None
        self.direction = 1
        self._start_hand()

    # ----------------------------------------------------------------- the state API
    def current_seat(self) -> int:
        """The seat to act, or :data:`CHANCE` while the table shuffles or deals."""
        return CHANCE if self.chance else self.current

    def is_chance_node(self) -> bool:
        return self.chance

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        """The actions the current seat may take (empty at a chance node or when over)."""
        legal = self._legal
        if legal is None:
            step = self.setup_step
            if step is None and not self.over:
                # Fetched, then called: a call straight off the slot is not specialised by CPython 3.11.
                turn_program = self.rules.turn_program
                legal = turn_program(self)  # also sets self._allowed
                if not legal and not self.rules.endings_when_stuck:
                    raise RulesetFault(self.rules.id, ["turn", "hand_end"], "",
                                       f"seat {self.current} has no legal action and no hand ending says what "
                                       f"follows (a no-action-left ending would end the hand as blocked)")
            else:
                self._allowed = {}
                legal = [] if step is None or step.chance else step.legal(self)
            self._legal = legal
        return legal

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw the next chance outcome (a shuffle, a deal) with the caller's RNG."""
        step = self.setup_step
        if not self.chance or step is None:
            raise IllegalAction("not a chance node")
        action = self._sampled = step.sample(self, rng)
        return action

    def apply(self, action: Action) -> Event:
        """Apply ``action`` (checked against the rules) and return what happened.

        Raises :class:`IllegalAction`, naming the rule broken, and leaves the state as it
        was when the action is not allowed.
        """
        if self.over:
            raise IllegalAction("the game is over")
        kind = type(action)
        if self.chance:
            step = self.setup_step
            assert step is not None  # a chance node is a set-up step's
            # Drawn by this state's own step from this very position (any action applied
            # since would have cleared it): the checks a recorded outcome needs are moot.
            sampled = action is self._sampled
            self._sampled = None
            if sampled:
                event = step.apply_sampled(self, action)
            elif kind not in step.accepts:
                raise IllegalAction(f"{step.explain(self)}, not a {kind.__name__.lower()}")
            else:
                event = step.apply(self, action)
            if event is None:  # a chance step raises rather than refuse so; the contract allows it
                raise IllegalAction(step.explain(self))
            self._legal = None
            if self.setup_step is None and self.rules.endings_when_stuck:
                self._check_stuck()  # the set-up may leave the first seat nothing to do
            return event
        if kind is Play:  # the hot path of every playout, inlined
            if self._legal is not None:
                rule = self._allowed.get(Play)
            elif self.setup_step is None and self.rules.unconditional_play is not None:
                rule = self.rules.unconditional_play  # a replayed play: the rule alone says if it is legal
            else:
                self.legal_actions()
                rule = self._allowed.get(Play)
            event = None if rule is None else rule.apply(self, action)
            if event is None:
                raise IllegalAction(self.rules.explain_forbidden(self, action))
            self.turns += 1
            self.passes = 0
            rules = self.rules
            after = rules.consequences[Played]
            ended = None if after is None else after(self, event)
            if ended is not None:
                self._finish_hand(ended)
                return event
            if rules.turn_order:
                self.current = self._ordered_next_seat()
            else:
                following = self.current + 1  # a comparison, not %: integer modulo is a slow path in 3.11
                self.current = following if following < self.seat_count else 0
            self.drawn = 0
            self._legal = None
            # _check_stuck and legal_actions spelt out (a ruleset ending a stuck hand checks after every play); the
            # list worked out here is the one the next seat's bot reads: nothing is listed twice.
            if rules.endings_when_stuck and not self.chance:
                turn_program = rules.turn_program
                if not (legal := turn_program(self)):
                    self._finish_hand(rules.endings_when_stuck[0].key)
                else:
                    self._legal = legal
            return event
        if kind is Draw or kind is Discard:  # the seat keeps the turn (a forced draw: playouts' next hottest path)
            if self._legal is None:
                self.legal_actions()
            rule = self._allowed.get(kind)
            if rule is None:
                raise IllegalAction(self.rules.explain_forbidden(self, action))
            event = rule.apply(self, action)
            if event is None:
                raise IllegalAction(self.rules.explain_forbidden(self, action))
            self.turns += 1
            if kind is Draw:
                self.drawn += 1
            self.passed_unchanged = 0
            self._legal = None
            after = self.rules.consequences[type(event)]
            ended = None if after is None else after(self, event)
            if ended is not None:
                self._finish_hand(ended)
            elif self.rules.endings_when_stuck:
                self._check_stuck()
            return event
        if kind is Pass:
            return self._apply_pass()
        if type(action) is Move:  # as kind, but narrowing the action's type
            return self._apply_move(action)
        if type(action) is HouseAction:
            return self._apply_house_action(action)
        raise IllegalAction(f"a {kind.__name__.lower()} is a chance outcome; the hand is not being set up")

    def apply_agreed(self, action: Action, seat: int | None = None) -> Event:
        """Apply ``action`` for ``seat`` (default: the seat to act) although the turn's rules
        refuse it, because the people at a table agreed to let it stand (a pass while a tile
        fitted, a play out of turn, a tile whose numbers make no contact): whose turn it is, when an
        action is allowed and, for a rule that can (``apply_agreed``), where a tile may lie or how far
        and which way a piece may move are lifted; what cannot be done at all (a tile not held, a cell
        taken or touching nothing, a point taken) is still refused with :class:`IllegalAction`, changing nothing. Play goes on
        from ``seat``."""
        if self.over:
            raise IllegalAction("the game is over")
        if self.chance:
            raise IllegalAction(self.rules.explain_forbidden(self, action))
        rule = next((r for r in self.rules.turn if r.action_type is type(action)), None)
        if rule is None:
            raise IllegalAction(f"this ruleset has no {type(action).__name__.lower()} action")
        if seat is not None and seat != self.current:
            if not 0 <= seat < self.seat_count:
                raise IllegalAction(f"there is no seat {seat} (seats 0 to {self.seat_count - 1})")
            saved = (self.current, self.drawn, self._legal, self._allowed)
            self.current, self.drawn, self._legal = seat, 0, None
        else:
            saved = (self.current, self.drawn, self._legal, self._allowed)
        self.legal_actions()
        # A new dict: a clone may share the old one. The rule applies it agreed (a play rule lays
        # a tile where the placement refuses it; others as they apply any action).
        self._allowed = {**self._allowed, type(action): _Agreed(rule)}
        try:
            return self.apply(action)
        except IllegalAction:
            self.current, self.drawn, self._legal, self._allowed = saved
            raise

    def once_a_hand(self, key: str, work: Callable[[GameState], Kept]) -> Kept:
        """What ``work`` gives in this hand, worked out at its first call in the hand and kept in
        :attr:`memo` under ``key`` (a primitive's own key, so only ``work`` ever stores there)."""
        if key not in self.memo:
            self.memo[key] = work(self)
        return cast("Kept", self.memo[key])

    def clone(self) -> GameState:
        """An independent copy: applying actions to it leaves this state untouched. It is a state
        of the rules alone (what a subclass adds, a referee's faults, is not copied), compiled or
        readable as this one is."""
        rules = self.rules
        other = object.__new__(rules.state_class if isinstance(self, rules.state_class) else GameState)
        other.rules = rules
        other.seat_count = self.seat_count
        other.hand_number = self.hand_number
        other.step = self.step
        other.setup_step = self.setup_step
        other.deal_seat = self.deal_seat
        other.current = self.current
        other.passes = self.passes
        other.drawn = self.drawn
        other.zones = {name: list(tiles) for name, tiles in self.zones.items()}
        other.seat_zones = {name: [list(t) for t in per_seat] for name, per_seat in self.seat_zones.items()}
        other.figure = self.figure.clone()
        other.totals = {name: list(v) for name, v in self.totals.items()}
        other.hand_gains = {name: list(v) for name, v in self.hand_gains.items()}
        other.hand_results = list(self.hand_results)
        other.final_gains = self.final_gains  # replaced, never changed, when the game ends
        other.went_out = self.went_out
        other.over = self.over
        other.chance = self.chance
        other.memo = dict(self.memo)
        other.ledger = {key: dict(book) for key, book in self.ledger.items()}
        other.turns = self.turns
        other.effects = []  # pending effects belong to this state's observers
        other._legal = self._legal
        other._allowed = self._allowed
        other._sampled = None
        other.seat_names = self.seat_names
        other.direction = self.direction
        other.again = self.again
        other.skips = self.skips
        other.chosen = self.chosen
        other.given = self.given
        other.passed = self.passed
        other.passed_unchanged = self.passed_unchanged
        return other

    def observation(self, seat: int) -> dict[str, ZoneView | tuple[ZoneView, ...]]:
        """What ``seat`` sees of every zone, a tile it cannot see as None (see
        :mod:`contack_core.engine.information`); the figure, counters and turn are seen by all."""
        return Visibility.of(self.rules).observation(self, seat)

    def resample(self, observer: int, rng: random.Random) -> GameState:
        """A copy drawn from ``observer``'s information set: what it sees kept, every tile hidden
        from it redrawn with ``rng`` (OpenSpiel's ``resample_from_infostate``). The only copy a
        bot may search: :meth:`clone` keeps the true order of the pile."""
        return Visibility.of(self.rules).resample(self, observer, rng)

    def scores(self) -> list[int]:
        """Each seat's total so far in the counter the match is decided on."""
        return list(self.totals[self.rules.match.counter])

    def running_scores(self) -> list[int]:
        """Each seat's total with the hand under way in it, as a score keeper shows it: the hand's gains so far
        and, for a counter only a hand's end changes (the pieces left on a board), what it would count if the
        hand ended now; its totals alone would read 0 for the whole hand."""
        if self.over:
            return self.scores()
        counter = self.rules.match.counter
        running = [total + gain for total, gain in zip(self.totals[counter], self.hand_gains[counter])]
        keeper = self.rules.counters[counter]
        if keeper.counts_at_hand_end_only and not self.chance:
            running = [total + gain for total, gain in zip(running, keeper.hand_end_values(self))]
        return running

    def winners(self) -> list[int]:
        """The seats the match rule ranks first (final once :meth:`is_over`)."""
        return self.rules.match.winners(self)

    def features(self) -> dict[str, Feature]:
        """Generic measures of the position a bot may weigh beside the score, by name, most telling
        first (see :mod:`contack_core.engine.features`): on a board of pieces, say, how many of each
        seat's pieces an opponent could take with one move, and how far its side stands from the
        nearest opponent. Empty where the ruleset's primitives offer none."""
        return position_features(self)

    def __str__(self) -> str:
        """The position in plain text, as an observer who sees every seat's tiles sees it: who is
        to act, the figure or board, each seat's zones (and its pieces left on a board of pieces),
        the size of each shared zone, the scores."""
        return self._text(None)

    def observation_string(self, seat: int) -> str:
        """The position in plain text as ``seat`` sees it (OpenSpiel's ``ObservationString``): as
        :meth:`__str__`, but a tile the ruleset hides from ``seat`` is a ``?`` and a shared zone
        shows the tiles ``seat`` sees of it (a discard pile's top) after its size."""
        return self._text(self.observation(seat))

    def _text(self, views: dict[str, ZoneView | tuple[ZoneView, ...]] | None) -> str:
        rules = self.rules
        names = rules.tiles.names

        def shown(view: Sequence[int | None]) -> str:
            return " ".join("?" if tile is None else names[tile] for tile in view)

        if self.over:
            to_act = "the game is over"
        elif self.chance:
            to_act = "chance to act"
        else:
            to_act = f"{self.who(self.current)} to act"
        lines = [f"{rules.id} · {rules.term('hand')} {self.hand_number} · {to_act}"]
        lines.extend(self._plain_picture())
        for seat in range(self.seat_count):
            held = [f"{zone}: {shown(per_seat[seat] if views is None else cast(tuple[ZoneView, ...], views[zone])[seat]) or '-'}"
                    for zone, per_seat in self.seat_zones.items()]
            if (pieces := self.figure.pieces_on_board(seat)) is not None:
                held.append(f"{pieces} {rules.term('tiles')} on the board")
            if held:
                lines.append(f"{self.who(seat)}: " + " · ".join(held))
        if self.zones:
            sizes = []
            for name, tiles in self.zones.items():
                seen = () if views is None else [t for t in cast(ZoneView, views[name]) if t is not None]
                sizes.append(f"{name}: {len(tiles)}" + (f" ({shown(seen)})" if seen else ""))
            lines.append(" · ".join(sizes))
        totals = self.scores()
        keeper = rules.counters[rules.match.counter]
        if keeper.counts_at_hand_end_only and not (self.over or self.chance):  # as it counts if the hand ended now
            totals = [total + gain for total, gain in zip(totals, keeper.hand_end_values(self))]
        lines.append(f"{rules.term('total').capitalize()}: "
                     + " · ".join(f"{self.who(s)} {v}" for s, v in enumerate(totals)))
        return "\n".join(lines)

    def _plain_picture(self) -> list[str]:
        """The figure (drawn as the replay's terminal view maps it, the cells open to a play marked,
        then each tile and where it lies) or the board of pieces, both drawn by the boards layer."""
        placement, figure = self.rules.placement, self.figure
        open_cells: tuple[Cell, ...] = ()
        if placement is not None and figure.tile_at and not (self.chance or self.over):
            open_cells = tuple(placement.legal_cells(figure_of(figure).clone()))
        rules = self.rules
        return self.figure.plain_lines(rules.tiles.names, rules.term("tiles"), rules.colour_term, open_cells)

    # ----------------------------------------------------------------- views for rules
    def zone(self, name: str, seat: int | None = None) -> list[int]:
        """The tiles of a zone, per-seat zones resolved for ``seat`` (default: current)."""
        if name in self.zones:
            return self.zones[name]
        return self.seat_zones[name][self.current if seat is None else seat]

    def who(self, seat: int) -> str:
        """A seat in words: the player's name when the seats are named, else ``seat N``."""
        names = self.seat_names
        return names[seat] if names is not None and 0 <= seat < len(names) else f"seat {seat}"

    def locate(self, tile: int) -> str:
        """Where ``tile`` is: a zone name, ``hand of seat N`` (``alice's hand`` when named) or ``the figure``."""
        if tile in self.figure.tile_at.values():
            return "the figure"
        for name, tiles in self.zones.items():
            if tile in tiles:
                return name
        for name, per_seat in self.seat_zones.items():
            for seat, tiles in enumerate(per_seat):
                if tile in tiles:
                    return f"{self.who(seat)}'s {name}" if self.seat_names is not None else f"{name} of seat {seat}"
        return "nowhere"

    def tiles_held(self) -> list[int]:
        """How many tiles each seat holds in all its own zones."""
        held: list[int] | None = None
        for per_seat in self.seat_zones.values():
            held = list(map(len, per_seat)) if held is None else list(map(add, held, map(len, per_seat)))
        return [0] * self.seat_count if held is None else held

    # ----------------------------------------------------------------- transitions
    def _start_hand(self) -> None:
        rules = self.rules
        self.hand_number += 1
        self.step = 0
        self.deal_seat = 0
        self.current = 0
        self.passes = 0
        self.drawn = 0
        self.went_out = None
        if not rules.direction_kept:
            self.direction = 1
        self.again = False
        self.skips = 0
        self.chosen = None
        self.given = False
        self.passed = self.passed_unchanged = 0
        # Loops, not comprehensions: each comprehension is a function call in CPython 3.11.
        seats = range(self.seat_count)
        self.zones = {}
        for name, tiles in rules.shared_zone_starts.items():
            self.zones[name] = list(tiles)
        self.seat_zones = {}
        for name in rules.seat_zone_names:
            self.seat_zones[name] = [[] for _ in seats]
        self.figure = rules.new_figure(self.seat_count)
        self.hand_gains = {}
        for name in rules.counters:
            self.hand_gains[name] = [0] * self.seat_count
        #: What rule primitives work out once per hand (say, who opens), by primitive key.
        self.memo = {}

        self._legal = None
        self._allowed = {}
        self._enter_step()

    def _enter_step(self) -> None:
        setup = self.rules.setup
        #: The set-up step under way, None once the hand is in play.
        step = self.setup_step = setup[self.step] if self.step < len(setup) else None
        self.chance = step is not None and step.chance
        if step is not None:
            step.enter(self)

    def _setup_step_done(self) -> None:
        """Called by a set-up primitive when its step is complete."""
        self.step += 1
        self._legal = None
        self._enter_step()

    def _await_chance(self, step: SomeSetupStep) -> None:
        """Make the state a chance node in the middle of play (a pile to be shuffled): ``step``
        samples and applies its outcome, then calls :meth:`_resume_play`."""
        self.setup_step = step
        self.chance = True
        self._legal = None

    def _resume_play(self) -> None:
        """Called by a chance step reached in play (:meth:`_await_chance`) once it is applied."""
        self.setup_step = None
        self.chance = False
        self._legal = None

    def _end_turn(self) -> None:
        """Pass the turn to the next seat in play (clockwise, as the rule books say)."""
        self.current = self._next_seat()
        self.drawn = 0
        self._legal = None

    def _next_seat(self) -> int:
        """The next seat round the table that is still in play: the position says which are
        out (a board game's seat with no piece left), so an eliminated seat never gets a turn."""
        if self.rules.turn_order:
            return self._ordered_next_seat()
        count = self.seat_count
        following = self.current + 1  # a comparison, not %: integer modulo is a slow path in 3.11
        if following == count:
            following = 0
        figure = self.figure
        if figure.every_seat_in_play or figure.seat_in_play(following):  # the next seat, as it usually is
            return following
        for offset in range(2, count + 1):
            seat = (self.current + offset) % count
            if figure.seat_in_play(seat):
                return seat
        return following

    def _ordered_next_seat(self) -> int:
        """The seat to act next under the ruleset's turn-order effects: the seat a ``next-seat``
        effect chose (still in play), else the same seat when one gave it another turn, else the
        next seat in play in the direction of play, passing over as many seats in play as were
        skipped. Clears what the effects asked for."""
        again, skips, chosen = self.again, self.skips, self.chosen
        self.again = False
        self.skips = 0
        self.chosen = None
        in_play = None if self.figure.every_seat_in_play else self.figure.seat_in_play
        self.given = chosen is not None and (in_play is None or in_play(chosen))
        if chosen is not None and self.given:
            return chosen
        if again and (in_play is None or in_play(self.current)):
            return self.current
        count, step, seat = self.seat_count, self.direction, self.current
        for _ in range(skips + 1):
            for _ in range(count):
                seat = (seat + step) % count
                if in_play is None or in_play(seat):
                    break
        return seat

    def all_passed(self) -> bool:
        """Every player has passed in turn (the all-passed ending): every seat in play has passed
        since the last tile was laid or moved, or a seat has passed a second time with nothing
        laid, drawn or laid aside since its last pass (the turn-order effects then keep the turn
        among seats that cannot change the position, and the passes would go round for ever).
        Without turn-order effects the turn goes round, and this is ``passes >= seats in play``."""
        if not self.rules.turn_order:
            return self.passes >= self.seats_in_play()
        if self.passed_unchanged >> self.seat_count:
            return True
        passed = self.passed
        if self.figure.every_seat_in_play:
            return passed == (1 << self.seat_count) - 1
        in_play = self.figure.seat_in_play
        return all(passed >> seat & 1 for seat in range(self.seat_count) if in_play(seat))

    def seats_in_play(self) -> int:
        """How many seats are still in play (every seat, in a game of laid tiles)."""
        if self.figure.every_seat_in_play:
            return self.seat_count
        return sum(map(self.figure.seat_in_play, range(self.seat_count)))

    def _apply_move(self, action: Move) -> Event:
        """A piece moved on a board of pieces; the turn goes to the next seat still in play."""
        if self._legal is None:
            self.legal_actions()
        rule = self._allowed.get(Move)
        event = None if rule is None else rule.apply(self, action)  # raises IllegalAction if not legal
        if event is None:
            raise IllegalAction(self.rules.explain_forbidden(self, action))
        self.turns += 1
        self.passes = 0
        self._turn_over(event)
        return event

    def _apply_house_action(self, action: HouseAction) -> HouseActed:
        """A ruleset's own action: the rule of that name, if it offers actions now, does its
        effects; the turn goes on, or (a rule that ends the turn) passes to the next seat."""
        if self._legal is None:
            self.legal_actions()
        rule = self._allowed.get(action.rule)
        if rule is None:
            raise IllegalAction(self.rules.explain_forbidden(self, action))
        event = rule.apply(self, action)  # raises IllegalAction, changing nothing, if not legal
        assert isinstance(event, HouseActed)
        self.turns += 1
        self.passes = 0
        if self._check_hand_end(event):  # its counters' on_house and transfers, then the hand endings
            return event
        if cast("SomeTurnRule", rule).ends_turn:  # a house action's key maps to its turn rule
            self._end_turn()
        else:
            self._legal = None
        if self.rules.endings_when_stuck:
            self._check_stuck()
        return event

    def _apply_pass(self) -> Passed:
        if self._legal is None:
            self.legal_actions()
        if Pass not in self._allowed:
            raise IllegalAction(self.rules.explain_forbidden(self, PASS))
        self.turns += 1
        event = make_passed(self.current)
        if self.rules.turn_order:  # who has passed: without effects the passes go round, and their count says it
            bit = 1 << self.current
            if self.passes:
                self.passed |= bit
                if self.passed_unchanged & bit:  # a second pass with nothing changed since: flagged above the seats
                    self.passed_unchanged |= 1 << self.seat_count
                self.passed_unchanged |= bit
            else:  # the first pass since a tile was laid or moved (which set passes to 0)
                self.passed = self.passed_unchanged = bit
        self.passes += 1
        self._turn_over(event)
        return event

    def _turn_over(self, event: Event) -> None:
        """After a pass or a move: the hand ends if what follows the event says so, else the turn
        goes to the next seat (:meth:`_check_hand_end` and :meth:`_end_turn` in one frame: every
        pass and move of a playout comes here)."""
        after = self.rules.consequences.get(type(event))
        ended = None if after is None else after(self, event)
        if ended is not None:
            self._finish_hand(ended)
            return
        self.current = self._next_seat()
        self.drawn = 0
        self._legal = None
        if self.rules.endings_when_stuck:
            self._check_stuck()

    def _check_hand_end(self, event: Event) -> bool:
        consequences = self.rules.consequences.get(type(event))
        ended = None if consequences is None else consequences(self, event)
        if ended is None:
            return False
        self._finish_hand(ended)
        return True

    def _check_stuck(self) -> None:
        """End the hand if the seat to act now has no legal action (and an ending says so)."""
        if not self.over and not self.chance and not self.legal_actions():
            self._finish_hand(self.rules.endings_when_stuck[0].key)

    def _finish_hand(self, reason: str) -> None:
        rules = self.rules
        for counter in rules.counters.values():
            counter.on_hand_end(self)
        result = make_hand_result(self.hand_number, reason, tuple(self.hand_gains[rules.match.counter]),
                                  tuple(self.tiles_held()), self.went_out, self.figure)
        self.hand_results.append(result)
        self._fold_gains()
        if rules.match.game_over(self):
            for counter in rules.counters.values():
                counter.on_game_end(self)
            #: What the end of the game added to each counter's totals, by seat.
            self.final_gains = {}
            for name, gains in self.hand_gains.items():
                self.final_gains[name] = list(gains)
            self._fold_gains()
            self.over = True
            self.chance = False
            self.setup_step = None
            self._legal = None
        else:
            self._start_hand()

    def _fold_gains(self) -> None:
        """Add the gains so far to the totals and start the gains again from zero. (Loops over the
        seats: on lists this short, ``map`` and ``min``/``max`` run more instructions.)"""
        seats = range(self.seat_count)
        for name, gains in self.hand_gains.items():
            totals = self.totals[name]
            within = True
            for seat in seats:
                total = totals[seat] = totals[seat] + gains[seat]
                gains[seat] = 0
                if not -MAX_FIGURE <= total <= MAX_FIGURE:
                    within = False
            if not within:
                raise figure_fault(self.rules, name, max(totals, key=abs))

    def _deal_to(self, seat: int, zone: str, tiles: tuple[int, ...], source: str, on_top: bool = False) -> Dealt:
        """Move named ``tiles`` from ``source`` to ``seat``'s ``zone`` (a set-up deal); ``on_top``
        for tiles known to be the pile's top ones, top first (a deal as the state's RNG drew it)."""
        pile = self.zones[source]
        n = len(tiles)
        if on_top or tuple(pile[: -n - 1 : -1]) == tiles:  # the top of the pile (a recorded deal seldom is)
            del pile[len(pile) - n :]
        else:
            self._take_named(source, tiles)
        self.seat_zones[zone][seat].extend(tiles)
        return make_dealt(seat, tiles, None)

    def _deal_to_zone(self, zone: str, tiles: tuple[int, ...], source: str) -> Dealt:
        """Move named ``tiles`` from ``source`` onto the shared ``zone``, face up."""
        self._take_named(source, tiles)
        self.zones[zone].extend(tiles)
        return Dealt(seat=None, tiles=tiles, zone=zone)

    def _take_named(self, source: str, tiles: tuple[int, ...]) -> None:
        """Remove ``tiles`` from the pile ``source`` wherever they lie (its order is hidden)."""
        pile = self.zones[source]
        named = set(tiles)
        rest = list(filterfalse(named.__contains__, pile))  # in their order, as removing each would leave them
        if len(rest) != len(pile) - len(tiles):  # a tile not in the pile, or one named twice (a pile holds each once)
            here = set(pile)
            for tile in tiles:
                if tile not in here:
                    raise IllegalAction(f"tile {self.rules.tiles.names[tile]} cannot be dealt: it is in "
                                        f"{self.locate(tile)}, not in {source}")
            twice = next(tile for tile in tiles if tiles.count(tile) > 1)
            raise IllegalAction(f"tile {self.rules.tiles.names[twice]} is dealt twice")
        pile[:] = rest

    def _shuffle(self, zone: str, order: tuple[int, ...], checked: bool = True) -> Shuffled:
        """Put ``zone`` in ``order``; ``checked=False`` for an order known to hold its tiles."""
        if checked and order != tuple(self.zones[zone]) and sorted(order) != sorted(self.zones[zone]):
            raise IllegalAction(f"a shuffle of {zone} must hold exactly its tiles")
        self.zones[zone] = list(order)
        return make_shuffled(zone)
