"""A record replayed into one snapshot per event, the material of every replay view.

The record is replayed by the audit itself (:func:`contack_core.records.audit.audit_lines`), so a
replay shows exactly what the audit accepts: a record that does not audit sound is shown
up to its first bad event, which becomes a last step carrying the audit's message. Step 0
is the table before the first event; step ``n`` is the position after event ``n``.

Event kinds this module has no words for (a later variant's discard or chip transfer, say)
are told as their raw fields; the position is read from the game state whatever the event.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs

from contack_core.engine.actions import Deal, IllegalAction
from contack_core.engine.events import HouseActed
from contack_core.engine.notation import (
    action_to_string,
    deal_to_string,
    event_to_string,
    hand_to_string,
    recorded_action,
    winners_to_string,
)
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from contack_core.records.audit import audit_lines
from contack_core.records.format import seat_labels
from contack_core.replay.boards import BoardKind, BoardView, board_kind


class ReplayError(ValueError):
    """A record that cannot be replayed at all (its header is bad, its ruleset does not load)."""


@attrs.frozen
class Step:
    """The position after one event: what every view shows for it."""

    index: int
    line: int
    kind: str | None  # the event kind; None for step 0
    text: str  # the event, told in the ruleset's words
    hand: int
    to_act: int | None  # the seat whose turn is next; None while dealing, between hands or when over
    hands: tuple[tuple[str, ...], ...]  # each seat's tiles in its own zones
    piles: Mapping[str, int]  # size of each shared zone (the draw pile...)
    scores: tuple[int, ...]  # each seat's score so far, this hand's points included
    hand_scores: tuple[tuple[int, ...], ...]  # each finished hand's scores
    board: BoardView | None  # the board kind's view, or None when the board cannot be drawn
    error: str | None = None  # the audit's message when this event is the first bad one
    finished: bool = False
    #: The tiles of each face-up shared zone holding some (Solitaire No. 2's stacks, a discard pile),
    #: bottom to top: the record deals them openly, so a replay shows every pile as it lies.
    stacks: Mapping[str, tuple[str, ...]] = MappingProxyType({})


@attrs.frozen
class Timeline:
    """Every step of one record, and what the views need to tell it in the ruleset's words."""

    path: Path
    rules: Rules
    seats: tuple[str, ...]
    steps: tuple[Step, ...]
    fault: tuple[int, str] | None  # (file line, the audit's message) of the first bad event
    board_kind: BoardKind | None

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def holds_tiles(self) -> bool:
        """Whether seats hold tiles at all (not so where every piece is on the table, or in shared stacks)."""
        return any(zone.per_seat for zone in self.rules.zones.values())

    def colour_words(self) -> dict[str, str]:
        return {colour: self.rules.colour_term(colour) for colour in self.rules.tiles.colours}

    def who(self, seat: int) -> str:
        return seat_label(self.seats, seat)

    def hand_starts(self) -> dict[int, int]:
        """The first step of each hand, by hand number (where a jump to that hand lands)."""
        starts: dict[int, int] = {}
        for step in self.steps:
            starts.setdefault(step.hand, step.index)
        return starts


def seat_label(seats: tuple[str, ...], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return f"{seats[seat]} (seat {seat})"
    return f"seat {seat}"


# ------------------------------------------------------------------------------ building
def build_timeline(path: Path) -> Timeline:
    """Replay the record at ``path``. Raises UnreadableRecord (not a record) or ReplayError."""
    header, audited = audit_lines(path)
    start = next(audited)
    if start.error is not None or start.state is None:
        raise ReplayError(f"{path}:{start.number}: {start.error}")
    state = start.state
    rules = state.rules
    seats = seat_labels(header.get("seats", []))  # one bot in several seats: random#1, random#2
    kind = board_kind(rules)
    builder = _Builder(rules, seats, kind)
    steps = [builder.live(state, 0, 1, None, f"{rules.title}: {', '.join(seats)}")]
    fault: tuple[int, str] | None = None
    for item in audited:
        data = item.data if isinstance(item.data, dict) else {}
        event_kind = data.get("event") if isinstance(data.get("event"), str) else None
        index = len(steps)
        if item.error is not None:
            text = builder.attempted(data) or describe_event(data, seats, rules, None)
            steps.append(attrs.evolve(steps[-1], index=index, line=item.number, kind=event_kind, text=text,
                                      error=item.error))
            fault = (item.number, item.error)
            break
        assert item.state is not None
        steps.append(builder.after(item.state, index, item.number, event_kind, data))
    return Timeline(path=path, rules=rules, seats=seats, steps=tuple(steps), fault=fault, board_kind=kind)


class _Builder:
    """Turns the audited state after each line into a :class:`Step`.

    When an event ends a hand the engine at once sets up the next one, so the position at
    the end of the hand is rebuilt: its figure is the one the hand result keeps, and the
    tiles held are those held before the event less any now on that figure. That end
    position is shown until the next hand's first event (its ``hand`` or ``deal`` line).
    """

    def __init__(self, rules: Rules, seats: tuple[str, ...], kind: BoardKind | None) -> None:
        self.rules = rules
        self.seats = seats
        self.kind = kind
        self.results_seen = 0
        self.held_before: tuple[tuple[int, ...], ...] = ()
        self.piles_before: dict[str, int] = {}
        self.stacks_before: dict[str, tuple[str, ...]] = {}
        self.ended: Step | None = None  # the end-of-hand position being shown
        self.before: GameState | None = None  # the position before the line being told

    def live(self, state: GameState, index: int, line: int, kind: str | None, text: str) -> Step:
        rules = self.rules
        counter = rules.match.counter
        gains = state.hand_gains[counter]
        if state.is_over():  # the last hand's gains are in the totals already
            scores = tuple(state.scores())
        else:
            scores = tuple(total + gains[seat] for seat, total in enumerate(state.totals[counter]))
            keeper = rules.counters[counter]
            if keeper.counts_at_hand_end_only:  # tiles left on a board, placed in a figure
                scores = tuple(map(operator.add, scores, keeper.hand_end_values(state)))
        playing = not state.is_chance_node() and not state.is_over()
        board = self.kind.read(rules, state.figure, playing) if self.kind else None
        step = Step(
            index=index, line=line, kind=kind, text=text, hand=state.hand_number,
            to_act=state.current_seat() if playing else None,
            hands=self._names(self._held(state)), piles=MappingProxyType({n: len(t) for n, t in state.zones.items()}),
            scores=scores, hand_scores=tuple(tuple(r.scores) for r in state.hand_results), board=board,
            finished=state.is_over(), stacks=MappingProxyType(self._stacks(state)),
        )
        self._remember(state)
        return step

    def after(self, state: GameState, index: int, line: int, kind: str | None, data: dict[str, Any]) -> Step:
        told = self._event_words(data)
        if len(state.hand_results) > self.results_seen:
            self.results_seen = len(state.hand_results)
            self.ended = self._end_of_hand(state, index, line, kind)
        elif kind not in ("hand_end", "game_end", "chips"):  # chips follow the play that ended a hand
            self.ended = None
        if self.ended is not None:
            step = attrs.evolve(self.ended, index=index, line=line, kind=kind, finished=state.is_over())
            self._remember(state)
        else:
            step = self.live(state, index, line, kind, "")
        return attrs.evolve(step, text=told or describe_event(data, self.seats, self.rules, step.board, state))

    def _event_words(self, data: dict[str, Any]) -> str | None:
        """A line stating an action told as ``contact play`` tells it (the notation's
        :func:`event_to_string`): the action is made again on the position before it, since the
        record keeps only what a person needs to replay it (a move's removals, not the numbers
        that met). None for a line stating no action, or one the position before refuses."""
        if self.before is None:
            return None
        try:
            event = self.before.apply(recorded_action(self.rules.tiles, data))
        except (KeyError, TypeError, ValueError, IndexError, IllegalAction):
            return None
        told = None if event is None else event_to_string(self.before, event, lambda seat: seat_label(self.seats, seat))
        if told is not None and isinstance(event, HouseActed) and event.amount:
            told += f" ({event.amount:+d})"  # a cost the narrator tells on a line of its own, with the score
        return told

    def attempted(self, data: dict[str, Any]) -> str | None:
        """A refused line stating an action: the seat and the action as a person types it."""
        if self.before is None:
            return None
        try:
            action = recorded_action(self.rules.tiles, data)
            return f"{seat_label(self.seats, data.get('seat'))}: {action_to_string(self.before, action)}"
        except (KeyError, TypeError, ValueError, IndexError):
            return None

    def _end_of_hand(self, state: GameState, index: int, line: int, kind: str | None) -> Step:
        result = state.hand_results[-1]
        on_figure = set(result.figure.tile_at.values())
        held = tuple(tuple(t for t in tiles if t not in on_figure) for tiles in self.held_before)
        board = self.kind.read(self.rules, result.figure, False) if self.kind else None
        return Step(
            index=index, line=line, kind=kind, text="", hand=result.number, to_act=None, hands=self._names(held),
            piles=MappingProxyType(dict(self.piles_before)), scores=tuple(state.scores()),
            hand_scores=tuple(tuple(r.scores) for r in state.hand_results), board=board, finished=state.is_over(),
            stacks=MappingProxyType(dict(self.stacks_before)),
        )

    def _held(self, state: GameState) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(t for per_seat in state.seat_zones.values() for t in per_seat[seat])
                     for seat in range(state.seat_count))

    def _names(self, held: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, ...], ...]:
        names = self.rules.tiles.names
        return tuple(tuple(names[t] for t in tiles) for tiles in held)

    def _remember(self, state: GameState) -> None:
        self.before = state.clone()
        self.held_before = self._held(state)
        self.piles_before = {name: len(tiles) for name, tiles in state.zones.items()}
        self.stacks_before = self._stacks(state)

    def _stacks(self, state: GameState) -> dict[str, tuple[str, ...]]:
        names = self.rules.tiles.names
        return {name: tuple(names[t] for t in tiles) for name, tiles in state.zones.items()
                if tiles and self.rules.zones[name].face_up}


# ------------------------------------------------------------------------------ telling events
Describer = Callable[[dict[str, Any], tuple[str, ...], Rules, Any, GameState | None], str]


def _hand(data: dict[str, Any], seats: tuple[str, ...], rules: Rules, board: Any, state: GameState | None) -> str:
    return hand_to_string(rules, data["number"])


def _deal(data: dict[str, Any], seats: tuple[str, ...], rules: Rules, board: Any, state: GameState | None) -> str:
    """A hand's first deal, told before the position it deals from is drawn (its shuffle unstated),
    as the notation tells any deal: to a seat, or laid on a shared zone (a stack)."""
    deal = recorded_action(rules.tiles, data)
    assert isinstance(deal, Deal)  # the describer of deal lines
    return deal_to_string(rules.tiles.names, deal, lambda seat: seat_label(seats, seat))


def _hand_end(data: dict[str, Any], seats: tuple[str, ...], rules: Rules, board: Any,
              state: GameState | None) -> str:
    number = data["number"]
    reason = None
    if state is not None and 0 < number <= len(state.hand_results):
        reason = state.hand_results[number - 1].reason
    scores = ", ".join(f"{seats[s] if s < len(seats) else s} {v:+d}" for s, v in enumerate(data["scores"]))
    return f"{hand_to_string(rules, number, reason)} ({scores})"


def _game_end(data: dict[str, Any], seats: tuple[str, ...], rules: Rules, board: Any,
              state: GameState | None) -> str:
    totals = ", ".join(f"{seats[s] if s < len(seats) else s} {v}" for s, v in enumerate(data["totals"]))
    teams = rules.match.teams(len(data["totals"]))
    won = winners_to_string(rules, data["winners"], data["totals"], teams, lambda seat: seat_label(seats, seat))
    return f"{rules.term('total').capitalize()}: {totals}. {won}"


#: The lines that state no action, each told in the ruleset's words (an action line is told by
#: the notation, :func:`event_to_string`, or :meth:`_Builder.attempted` when it was refused).
DESCRIBERS: Mapping[str, Describer] = MappingProxyType({"hand": _hand, "deal": _deal, "hand_end": _hand_end,
                                                       "game_end": _game_end})


def describe_event(data: dict[str, Any], seats: tuple[str, ...], rules: Rules, board: Any,
                   state: GameState | None = None) -> str:
    """One event in the ruleset's words; an event kind without words here is told field by field.

    ``state`` is the state after the event (None for an event the audit refused).
    """
    kind = data.get("event")
    describer = DESCRIBERS.get(kind) if isinstance(kind, str) else None
    if describer is not None:
        try:
            return describer(data, seats, rules, board, state)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass  # a malformed line (the audit says why): told field by field below
    fields = []
    for key, value in data.items():
        if key == "event":
            continue
        shown = seat_label(seats, value) if key == "seat" else json.dumps(value, ensure_ascii=False)
        fields.append(f"{key} {shown}")
    return f"{kind if isinstance(kind, str) else 'event'}: {', '.join(fields)}" if fields else str(kind)
