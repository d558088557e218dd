"""Auditing a record: replay it under its ruleset and check every line.

Checks, event by event: that each line is well formed, that it is that seat's turn, that
the action is legal (the message names the rule it breaks), that a drawn or dealt tile
was still unseen, that stated points, hand scores, totals and winners are right. A record
may stop mid-game; it is then sound when every line in it is, and ``finished`` is false.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from contack_core.actions import Deal, Draw, IllegalAction, Pass, Play, Shuffle
from contack_core.events import Played
from contack_core.lattice import parse_cell
from contack_core.loader import RulesetError, find_ruleset, load_rules
from contack_core.record import RecordLine, UnreadableRecord, read_record
from contack_core.state import GameState
from contack_core.tiles import UnknownTile


@attrs.frozen
class Verdict:
    """The audit's answer; ``line`` counts the file's lines from 1 (the header is line 1)."""

    valid: bool
    line: int | None
    error: str | None
    finished: bool
    ruleset: str | None = None
    hands: int = 0
    events: int = 0
    totals: list[int] | None = None
    winners: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


class _Unsound(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def audit_record(path: Path) -> Verdict:
    """Audit the record at ``path``. Raises :class:`UnreadableRecord` for a non-record."""
    header, lines = read_record(path)
    auditor = _Auditor(path)
    try:
        auditor.start(header)
        for line in lines:
            auditor.check(line)
    except _Unsound as fault:
        return auditor.verdict(fault.line, fault.message)
    return auditor.verdict(None, None)


class _Auditor:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.state: GameState | None = None
        self.ruleset: str | None = None
        self.events = 0
        self.ended_hand: tuple[int, str] | None = None  # (hand number, end rule) just finished
        self.game_end_seen = False

    # ------------------------------------------------------------------ header
    def start(self, header: RecordLine) -> None:
        if header.fault:
            raise _Unsound(1, header.fault)
        data = header.data or {}
        reference = data["ruleset"]
        self.ruleset = reference
        try:
            source = find_ruleset(reference, self.path.parent)
            rules = load_rules(source, data.get("options") or {})
        except RulesetError as error:
            raise _Unsound(1, f"ruleset {reference!r}: {error}") from None
        try:
            self.state = GameState(rules, len(data["seats"]))
        except ValueError as error:
            raise _Unsound(1, str(error)) from None
        self.ruleset = rules.id

    # ------------------------------------------------------------------ events
    def check(self, line: RecordLine) -> None:
        if line.fault:
            raise _Unsound(line.number, line.fault)
        state = self.state
        assert state is not None and line.data is not None
        data = line.data
        kind = data["event"]
        self.events += 1
        if self.game_end_seen:
            raise _Unsound(line.number, "nothing may follow game_end")
        try:
            if kind == "hand":
                self._hand(data)
            elif kind == "deal":
                self._skip_shuffles()
                self._expect_seat(data, chance=True)
                tiles = tuple(state.rules.tiles.tile(name) for name in data["tiles"])
                state.apply(Deal(data["seat"], tiles))
            elif kind in ("play", "draw", "pass"):
                self._expect_seat(data, chance=False)
                self._action(kind, data)
            elif kind == "hand_end":
                self._hand_end(data)
            elif kind == "game_end":
                self._game_end(data)
            elif kind == "fault":
                self._fault(data)
        except (IllegalAction, UnknownTile, ValueError) as error:
            raise _Unsound(line.number, str(error)) from None

    def _skip_shuffles(self) -> None:
        """A record never states a shuffle: the pile is just the unseen tiles."""
        state = self.state
        assert state is not None
        while state.is_chance_node() and state.rules.setup[state.step].name == "shuffle":
            zone = state.rules.setup[state.step].zone
            state.apply(Shuffle(zone, tuple(state.zones[zone])))

    def _hand(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        if state.is_over():
            raise IllegalAction(f"the game is over after {len(state.hand_results)} hands")
        if data["number"] != state.hand_number:
            raise IllegalAction(f"hand {data['number']} cannot begin here: this is hand {state.hand_number}")
        untouched = state.is_chance_node() and state.deal_seat == 0 and not state.figure.tile_at
        if not untouched:
            raise IllegalAction(f"hand {data['number']} has already begun")

    def _expect_seat(self, data: dict[str, Any], chance: bool) -> None:
        state = self.state
        assert state is not None
        if state.is_over():
            raise IllegalAction(f"the game is over after {len(state.hand_results)} hands")
        if self.ended_hand is not None and self.ended_hand[0] != state.hand_number:
            number, reason = self.ended_hand
            if state.is_chance_node() and not chance:
                raise IllegalAction(f"hand {number} is over ({state.rules.term(reason)}); "
                                    f"hand {state.hand_number} must be dealt first")
        if chance:
            if not state.is_chance_node():
                raise IllegalAction("no deal is due now: the hand is under way")
            if data["seat"] >= state.seat_count:
                raise IllegalAction(f"there is no seat {data['seat']} (seats 0 to {state.seat_count - 1})")
            return
        if state.is_chance_node():
            raise IllegalAction(f"the deal of hand {state.hand_number} is not complete "
                                f"(seat {state.deal_seat} has not been dealt)")
        if data["seat"] != state.current_seat():
            raise IllegalAction(f"it is seat {state.current_seat()}'s turn, not seat {data['seat']}'s")

    def _action(self, kind: str, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        tiles = state.rules.tiles
        hands_before = len(state.hand_results)
        if kind == "play":
            event = state.apply(Play(tiles.tile(data["tile"]), parse_cell(data["cell"])))
            assert isinstance(event, Played)
            if "points" in data and data["points"] != event.points:
                raise IllegalAction(f"this play scores {event.points} points, not {data['points']}")
        elif kind == "draw":
            state.apply(Draw(tiles.tile(data["tile"])))
        else:
            state.apply(Pass())
        if len(state.hand_results) > hands_before:
            result = state.hand_results[-1]
            self.ended_hand = (result.number, result.reason)

    def _hand_end(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        if self.ended_hand is None or self.ended_hand[0] != data["number"]:
            raise IllegalAction(f"hand {data['number']} has not ended here")
        result = state.hand_results[data["number"] - 1]
        if list(data["scores"]) != list(result.scores):
            raise IllegalAction(f"hand {data['number']} scores are {list(result.scores)}, not {data['scores']}")

    def _game_end(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        if not state.is_over():
            raise IllegalAction(f"the game is not over: hand {state.hand_number} is next")
        if list(data["totals"]) != state.scores():
            raise IllegalAction(f"the totals are {state.scores()}, not {data['totals']}")
        if list(data["winners"]) != state.winners():
            raise IllegalAction(f"the winners are seats {state.winners()}, not {data['winners']}")
        self.game_end_seen = True

    def _fault(self, data: dict[str, Any]) -> None:
        """A player's fault changes nothing on the table: the action that replaced it follows."""
        state = self.state
        assert state is not None
        if data["seat"] >= state.seat_count:
            raise IllegalAction(f"there is no seat {data['seat']} (seats 0 to {state.seat_count - 1})")

    def verdict(self, line: int | None, error: str | None) -> Verdict:
        state = self.state
        finished = bool(state and state.is_over())
        return Verdict(
            valid=error is None, line=line, error=error, finished=finished, ruleset=self.ruleset,
            hands=len(state.hand_results) if state else 0, events=self.events,
            totals=state.scores() if state else None, winners=state.winners() if finished and state else None,
        )


__all__ = ["UnreadableRecord", "Verdict", "audit_record"]
