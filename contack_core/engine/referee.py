"""Playing a whole game: chance from one seeded RNG, decisions from the seats' players.

Observers receive every step as it happens (the narrator and the record writer are
observers), so a game is played once and told or recorded on the way.

The game is refereed: a player that raises, returns an illegal action, or overruns the
:class:`~contack_core.engine.bots.Budget`'s time per move commits a :class:`Fault`. Under the
``pass`` policy the move is forfeited as the first Pass or Draw the rules allow (if they
allow neither, the game is forfeited); under ``forfeit`` the game is. A player that cannot go
on (a :class:`~contack_core.engine.bots.PlayerFault` that is ``gone``: an external program
killed or exited) forfeits the game at once under either. Either way the fault
is recorded and the process goes on. Under a clock, a player whose ``choose`` is marked
:func:`~contack_core.engine.bots.keeps_deadline` (every built-in in-process bot) is told the
move's deadline and called directly, costing nothing extra; a late answer is still a timeout
fault. Any other player's ``choose`` runs in a worker thread, on a copy of the state, so a
player that hangs cannot hang the game. With no time limit every player is called directly.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import Protocol, cast, get_args

import attrs

from contack_core.engine.actions import Action, Draw, HouseAction, IllegalAction, Pass, Shuffle
from contack_core.engine.bots import UNLIMITED, Budget, MoveTimeout, Player, PlayerFault, PlayerSpecError, Resigned
from contack_core.engine.chance import derived_seed
from contack_core.engine.events import Event, HandResult
from contack_core.engine.notation import action_to_string
from contack_core.engine.rules import Rules
from contack_core.engine.ruleset_faults import RulesetFault, ruleset_fault, ruleset_name
from contack_core.engine.state import GameState

FAULT_POLICIES = ("pass", "forfeit")
#: What a player may throw that the referee turns into a fault (a bot may not end the process).
_BOT_ERRORS = (Exception, SystemExit)


class Observer(Protocol):
    """What :func:`play_game` tells each observer (a record writer, a narrator) as the game goes."""

    def hand_started(self, state: GameState, number: int) -> None: ...
    def event(self, state: GameState, event: Event) -> None: ...
    def hand_ended(self, state: GameState, result: HandResult) -> None: ...
    def game_ended(self, state: GameState) -> None: ...
    def fault(self, state: GameState, fault: Fault) -> None: ...


@attrs.frozen
class Fault:
    """A player's misbehaviour and what it cost.

    ``kind``: ``raised``, ``illegal``, ``timeout`` or ``resigned`` (the player left: see
    :class:`contack_core.engine.bots.Resigned`); ``penalty``: ``pass`` (the move became
    a pass or draw), ``forfeit`` (the seat lost the game) or ``none`` (outside a move).
    """

    seat: int
    reason: str
    kind: str
    penalty: str = "none"


class RefereedGame(GameState):
    """The state of a game played by :func:`play_game`: the rules' state, plus the faults
    committed and the seat that forfeited (the game is then over, and the winners are the
    best of the other seats), or the ruleset's own failure that stopped it (then nobody wins)."""

    __slots__ = ("faults", "forfeited_by", "ruleset_error")

    def __init__(self, rules: Rules, seat_count: int) -> None:
        super().__init__(rules, seat_count)
        self.faults: list[Fault] = []
        self.forfeited_by: int | None = None
        #: A formula of the ruleset that failed in play: the game stopped there, no seat at fault.
        self.ruleset_error: RulesetFault | None = None

    def is_over(self) -> bool:
        return self.over or self.forfeited_by is not None or self.ruleset_error is not None

    def winners(self) -> list[int]:
        if self.ruleset_error is not None:
            return []
        if self.forfeited_by is None:
            return super().winners()
        scores = self.scores()
        others = [seat for seat in range(self.seat_count) if seat != self.forfeited_by]
        best = max(scores[seat] for seat in others)
        return [seat for seat in others if scores[seat] == best]


def seat_seed(seed: int | None, seat: int) -> int | None:
    """The seed a seat's player gets: a one-way hash of the game seed and the seat, so that a bot
    cannot recover the game seed (and replay the shuffles) from its own; None stays None."""
    return None if seed is None else derived_seed("contack-seat", seed, seat)


def play_game(rules: Rules, players: Sequence[Player], seed: int | None,
              observers: Sequence[Observer] = (), budget: Budget | None = None,
              fault_policy: str = "pass", absorb_interrupts: bool = False) -> RefereedGame:
    """Play one complete game (or until a seat forfeits, or a formula of the ruleset fails:
    then ``state.ruleset_error`` says where, and no seat is charged) and return its final state.

    Calls each player's ``start_game``, ``choose``, ``observe`` and ``end_game``; never
    ``close`` (the caller owns the players and may play them again). A KeyboardInterrupt
    (a person's Ctrl-C) stops the game, unless ``absorb_interrupts``: where no signal can
    raise one (a tournament worker), a bot that raises it, or any BaseException, commits
    a fault like any other. A player whose class does not play ``rules`` (its ``supports``) is
    refused with PlayerSpecError before the game, as :func:`make_player` refuses it by name.
    """
    if fault_policy not in FAULT_POLICIES:
        raise ValueError(f"fault policy {fault_policy!r}: choose one of {', '.join(FAULT_POLICIES)}")
    for seat, player in enumerate(players):
        if (why := type(player).cannot_play(rules)) is not None:
            raise PlayerSpecError(f"seat {seat}: player {player.name!r} does not play {rules.id} ({why})")
    budget = budget or UNLIMITED
    rng = random.Random(seed)
    state = RefereedGame(rules, len(players))
    referee = _Referee(state, players, budget, fault_policy, [o for o in observers if hasattr(o, "fault")],
                       absorb_interrupts)
    try:
        _play(state, players, rng, observers, referee)
    except Exception as error:  # noqa: BLE001 - a ruleset's failure ends the game; anything else is raised
        fault = ruleset_fault(error, rules)
        if fault is None:
            raise
        state.ruleset_error = fault
    for seat, player in enumerate(players):
        try:
            player.end_game(state)
        except referee.bot_errors as error:
            referee.fault(seat, *_call_fault("end_game", error))
    for observer in observers:
        observer.game_ended(state)
    return state


def _play(state: RefereedGame, players: Sequence[Player], rng: random.Random, observers: Sequence[Observer],
          referee: _Referee) -> None:
    """The moves of a game, from its start to its end or a forfeit."""
    rules = state.rules
    budget = referee.budget
    bot_errors = referee.bot_errors
    seat_count = len(players)
    for seat, player in enumerate(players):
        player.budget = budget
        try:
            player.start_game(rules, seat, seat_count)
        except bot_errors as error:
            referee.fault(seat, *_call_fault("start_game", error), forfeit=True)
            break
    observing = [(seat, p) for seat, p in enumerate(players) if type(p).observe is not Player.observe]
    timed = budget.time_per_move is not None
    # Under a clock, how each seat is asked: in a clocked thread, or directly by its deadline.
    threaded = [timed and p.timed and not p.keeps_time and not p.keeps_deadline for p in players]
    by_deadline = [timed and p.timed and not p.keeps_time and p.keeps_deadline for p in players]
    limit = budget.time_per_move or 0.0
    perf_counter = time.perf_counter
    hand = 0
    results_seen = 0
    turn_cap = rules.turn_cap
    while not state.over and state.forfeited_by is None:
        if state.turns >= turn_cap:  # the ruleset did not end the game: it stops here, unfinished
            state.ruleset_error = RulesetFault(ruleset_name(rules), ["turn_cap"], "",
                                               f"the game took {turn_cap:,} decisions (its turn cap) without ending")
            return
        if state.hand_number != hand:
            hand = state.hand_number
            for observer in observers:
                observer.hand_started(state, hand)
        if state.chance:
            action: Action = state.sample_chance(rng)
            event = state.apply(action)
            if type(action) is Shuffle and state.setup_step is not None:
                continue  # a set-up's shuffle: nothing to tell; one in play is, so observers see play resume
        else:
            seat = state.current
            player = players[seat]
            chosen: object  # whatever the bot returned, or what the referee put in its place
            if by_deadline[seat]:  # inlined: a call here is a tenth of a random bot's decision
                start = perf_counter()
                player.deadline = start + limit
                try:
                    chosen = player.choose(state)
                except bot_errors as error:
                    chosen = referee.raised(seat, error)
                else:
                    if perf_counter() - start > limit:
                        chosen = referee.late(seat)
                player.deadline = None
            elif threaded[seat]:
                chosen = referee.choose_in_time(seat, player)
            else:
                try:
                    chosen = player.choose(state)
                except bot_errors as error:
                    chosen = referee.raised(seat, error)
            if state.forfeited_by is not None:
                continue
            try:
                if type(chosen) is Draw and chosen.tile is not None:
                    raise IllegalAction("a player draws blind: Draw() names no tile")
                if type(chosen) is HouseAction and chosen.drawn is not None:
                    raise IllegalAction("a player draws blind: a house action names no tile drawn")
                action = cast(Action, chosen)  # whatever the bot returned: apply refuses what is not legal
                event = state.apply(action)
            except Exception as error:  # noqa: BLE001 - whatever a bot returned, the game goes on
                action_or_none = referee.illegal(seat, chosen, error)
                if action_or_none is None:
                    continue
                action = action_or_none
                event = state.apply(action)
            for watcher_seat, watcher in observing:
                try:
                    watcher.observe(seat, action, event)
                except bot_errors as error:
                    referee.fault(watcher_seat, *_call_fault("observe", error))
        for observer in observers:
            observer.event(state, event)
        if state.effects:  # what the action led to (chips changing hands, say)
            for effect in state.effects:
                for observer in observers:
                    observer.event(state, effect)
            state.effects.clear()
        while results_seen < len(state.hand_results):
            result = state.hand_results[results_seen]
            results_seen += 1
            for observer in observers:
                observer.hand_ended(state, result)


def _error_text(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _call_fault(call: str, error: BaseException) -> tuple[str, str]:
    """The reason and kind of a fault raised by a player's ``call``: a :class:`PlayerFault` in its
    own words and kind, anything else as the Python exception it is."""
    if isinstance(error, PlayerFault):
        return error.reason, error.kind
    return f"{call} raised {_error_text(error)}", "raised"


def _action_text(state: GameState, action: object) -> str:
    """What a bot returned, as a person would type it where the notation can say it (a tile off
    the board, a move nowhere); else what it is, cut short: it may be any object at all."""
    if isinstance(action, get_args(Action)):
        try:
            return action_to_string(state, cast(Action, action))
        except (IndexError, KeyError, TypeError, ValueError):
            pass
    return repr(action)[:80]


class _Referee:
    """Turns a player's misbehaviour into a :class:`Fault`, applies the policy, tells observers."""

    def __init__(self, state: RefereedGame, players: Sequence[Player], budget: Budget, policy: str,
                 observers: Sequence[Observer], absorb_interrupts: bool = False) -> None:
        self.state = state
        self.absorb_interrupts = absorb_interrupts
        #: What a bot's call may raise and be charged with (everything, in a tournament worker).
        self.bot_errors: tuple[type[BaseException], ...] = (BaseException,) if absorb_interrupts else _BOT_ERRORS
        self.players = players
        self.budget = budget
        self.policy = policy
        self.observers = observers
        #: Worker threads still running a move they overran, by seat: the seat is busy.
        self.overrunning: dict[int, threading.Thread] = {}

    def fault(self, seat: int, reason: str, kind: str, forfeit: bool = False) -> None:
        """Record a fault; with ``forfeit`` the seat loses the game."""
        penalty = "forfeit" if forfeit else "none"
        self._record(Fault(seat, reason, kind, penalty))
        if forfeit:
            self.state.forfeited_by = seat

    def _record(self, fault: Fault) -> None:
        self.state.faults.append(fault)
        for observer in self.observers:
            observer.fault(self.state, fault)

    def move_fault(self, seat: int, reason: str, kind: str) -> Action | None:
        """A fault on a move: the substitute action to apply, or None when the game is forfeited."""
        substitute = None
        if self.policy == "pass":
            substitute = next((a for a in self.state.legal_actions() if type(a) in (Pass, Draw)), None)
        if substitute is None:
            self._record(Fault(seat, reason, kind, "forfeit"))
            self.state.forfeited_by = seat
            return None
        self._record(Fault(seat, reason, kind, "pass"))
        return substitute

    def not_the_seats(self, error: BaseException) -> None:
        """Raise the ruleset's fault when a formula of the ruleset caused ``error``: the game
        ends as the ruleset's error, and the seat is not charged with it."""
        fault = ruleset_fault(error, self.state.rules)
        if fault is not None:
            raise fault from None

    def raised(self, seat: int, error: BaseException) -> Action | None:
        self.not_the_seats(error)
        if isinstance(error, PlayerFault) and error.gone:  # a dead program: no later move can be better
            self.fault(seat, *_call_fault("choose", error), forfeit=True)
            return None
        if isinstance(error, MoveTimeout):  # a player that keeps the clock itself ran out of it
            return self.move_fault(seat, str(error), "timeout")
        if isinstance(error, Resigned):
            self.fault(seat, str(error) or "resigned", "resigned", forfeit=True)
            return None
        return self.move_fault(seat, *_call_fault("choose", error))

    def illegal(self, seat: int, action: object, error: Exception) -> Action | None:
        self.not_the_seats(error)
        why = str(error) if isinstance(error, IllegalAction) else _error_text(error)
        return self.move_fault(seat, f"illegal action {_action_text(self.state, action)}: {why}", "illegal")

    def late(self, seat: int) -> Action | None:
        """A player that keeps the deadline itself (called directly, with ``player.deadline`` set)
        answered after it: a timeout fault all the same."""
        limit = self.budget.time_per_move
        return self.move_fault(seat, f"no move within the time limit of {limit:g} s (answered late)", "timeout")

    def choose_in_time(self, seat: int, player: Player) -> Action | None:
        """Run ``choose`` on a copy of the state in a worker thread; a fault if it overruns."""
        limit = self.budget.time_per_move
        assert limit is not None
        player.deadline = time.perf_counter() + limit
        busy = self.overrunning.get(seat)
        if busy is not None:
            if busy.is_alive():
                return self.move_fault(seat, f"still busy with a move that overran {limit:g} s", "timeout")
            del self.overrunning[seat]
        view = self.state.clone()
        chosen: list[Action] = []
        raised: list[BaseException] = []

        def work() -> None:
            try:
                chosen.append(player.choose(view))
            except BaseException as error:  # noqa: BLE001 - reported to the referee below
                raised.append(error)

        worker = threading.Thread(target=work, name=f"contack-seat-{seat}", daemon=True)
        worker.start()
        worker.join(limit)
        if worker.is_alive():
            self.overrunning[seat] = worker
            return self.move_fault(seat, f"no move within the time limit of {limit:g} s", "timeout")
        if raised:
            error = raised[0]
            if isinstance(error, KeyboardInterrupt) and not self.absorb_interrupts:
                raise error
            return self.raised(seat, error)
        return chosen[0] if chosen else None
