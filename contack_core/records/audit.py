"""Auditing a record: replay it under its ruleset and check every line.

Checks, event by event: that each line is well formed, that it is that seat's turn, that
the action is legal (the message names the rule it breaks), that a drawn or dealt tile
was still unseen, that stated points, chips changing hands, hand scores, totals and
winners are right. A record
may stop mid-game; it is then sound when every line in it is, and ``finished`` is false.

A :class:`RecordAuditor` audits many records, loading each ruleset once and compiling the
record schema once; :func:`audit_record` and :func:`audit_lines` audit one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from contack_core.boards.tiles import UnknownTile
from contack_core.engine.actions import HouseAction, IllegalAction, Move, Play, Shuffle
from contack_core.engine.events import ChipsMoved, Event, Moved, Played
from contack_core.engine.notation import (
    action_from_record,
    chips_to_record,
    event_to_record,
    play_from_record,
    recorded_action,
)
from contack_core.engine.rules import Rules
from contack_core.engine.ruleset_faults import ruleset_fault
from contack_core.engine.slots import is_play_rule
from contack_core.engine.state import GameState
from contack_core.language.documents import find_ruleset, read_document, shipped_ruleset_ids
from contack_core.language.problems import RulesetError
from contack_core.primitives.cache import RulesetCache
from contack_core.primitives.turn import HouseActionRule
from contack_core.records.format import (
    RecordLine,
    RecordSchema,
    UnreadableRecord,
    game_end_line,
    read_record,
    seat_labels,
)
from contack_core.records.scores import Arithmetic, ScoresGame, ScoresOnlyUnsupported, figures_of
from contack_core.records.suggest import INSERTION_REACH, insertions, nearest_events


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
    #: The legal events nearest to the bad line, most likely meant first (:mod:`contack_core.records.suggest`).
    suggestions: list[dict[str, Any]] = attrs.field(factory=list)
    #: The digest of the ruleset as audited, and the one the header records (None: none).
    ruleset_digest: str | None = None
    recorded_digest: str | None = None
    #: Whether the rules have changed since the record was made (the two digests differ).
    ruleset_changed: bool = False
    #: The lines the table agreed to let stand although the rules refuse them (``"agreed": true``),
    #: each ``{"line": N, "rule": the rule it breaks}``: a record with some is sound with exceptions.
    exceptions: list[dict[str, Any]] = attrs.field(factory=list)
    #: Lines that, inserted before the bad line, make it hold (a left-out move, a forgotten draw),
    #: the likeliest first (:func:`contack_core.records.suggest.insertions`).
    insertions: list[dict[str, Any]] = attrs.field(factory=list)
    #: A record kept as hands' results only (``"scores_only": true``): what the audit could check of
    #: it, and what it could not, in words.
    scores_only: bool = False
    checked: list[str] = attrs.field(factory=list)
    unchecked: list[str] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        """The verdict as ``--json`` prints it: both digests only where the header has one, the
        exceptions only where there are some."""
        data = attrs.asdict(self)
        if self.recorded_digest is None:
            del data["ruleset_digest"], data["recorded_digest"]
        if not self.exceptions:
            del data["exceptions"]
        if not self.insertions:
            del data["insertions"]
        if not self.scores_only:
            del data["scores_only"], data["checked"], data["unchecked"]
        return data


class RulesetUnavailable(Exception):
    """The ruleset a record names cannot be found, or does not load: the record cannot be
    audited at all (``contack audit`` exits 2). The message says where the ruleset was
    looked for and where it fails, never what the file holds: a record may come from
    anyone and name any file."""




class _Unsound(Exception):
    def __init__(self, line: int, message: str, suggest: bool = True, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.suggest = suggest  # False when the ruleset itself fails here: no legal events to offer
        self.data = data  # the bad line's object, when it is one


class RecordAuditor:
    """Audits records one after another, sharing what they have in common: the rulesets
    loaded so far (a :class:`RulesetCache`, by file contents and options) and the compiled
    record schema. It keeps nothing of a record once its verdict is given."""

    def __init__(self, rulesets: RulesetCache | None = None) -> None:
        self.rulesets = rulesets or RulesetCache()
        self.schema = RecordSchema()

    def audit(self, path: Path, ruleset: Path | None = None) -> Verdict:
        """Audit the record at ``path``, under the ruleset its header names or under the file
        ``ruleset`` (one that has moved, say). Raises :class:`UnreadableRecord` for a non-record
        and :class:`RulesetUnavailable` when the ruleset cannot be found or does not load."""
        header, lines = read_record(path, self.schema)
        auditor = _Auditor(path, self.rulesets, ruleset)
        try:
            auditor.start(header)
            auditor.check_all(lines)
        except _Unsound as fault:
            verdict = auditor.verdict(fault.line, fault.message)
            if fault.suggest and fault.line > 1 and fault.data is not None:
                before = self._state_before(path, fault.line, ruleset)
                following = [line.data for line in lines_after(path, self.schema, fault.line) if line.data is not None]
                verdict = attrs.evolve(verdict, suggestions=nearest_events(before, fault.data),
                                       insertions=insertions(before, following))
            return verdict
        return auditor.verdict(None, None)

    def _state_before(self, path: Path, number: int, ruleset: Path | None) -> GameState:
        """The audited position just before line ``number`` of a record sound up to it."""
        header, lines = read_record(path, self.schema)
        auditor = _Auditor(path, self.rulesets, ruleset)
        auditor.start(header)
        auditor.check_all(line for line in lines if line.number < number)
        assert auditor.state is not None
        return auditor.state

    def lines(self, path: Path) -> tuple[dict[str, Any], Iterator[AuditedLine]]:
        """The header and the record's event lines audited one by one, for replays that show each step.

        The header comes first (line 1, the state before any event), then each event line; it
        stops after the first bad line (yielded with ``error`` set). A bad header is yielded as
        line 1 with no state. Raises :class:`UnreadableRecord` for a non-record.
        """
        header, lines = read_record(path, self.schema)
        auditor = _Auditor(path, self.rulesets)

        def audited() -> Iterator[AuditedLine]:
            try:
                auditor.start(header)
            except _Unsound as fault:
                yield AuditedLine(fault.line, header.data, None, fault.message)
                return
            except RulesetUnavailable as error:  # nothing can be shown without the ruleset
                yield AuditedLine(1, header.data, None, str(error))
                return
            yield AuditedLine(1, header.data, auditor.state, None)
            for line in lines:
                try:
                    auditor.check(line)
                except _Unsound as fault:
                    yield AuditedLine(fault.line, line.data, auditor.state, fault.message)
                    return
                yield AuditedLine(line.number, line.data, auditor.state, None)

        return header.data or {}, audited()


def lines_after(path: Path, schema: RecordSchema, number: int) -> list[RecordLine]:
    """The well-formed event lines of a record from line ``number`` on, as far as an insertion is tried."""
    _, lines = read_record(path, schema)
    found: list[RecordLine] = []
    for line in lines:
        if line.number >= number:
            if line.fault is not None or line.data is None or len(found) >= INSERTION_REACH:
                break
            found.append(line)
    return found


def audit_record(path: Path, ruleset: Path | None = None) -> Verdict:
    """Audit one record: :meth:`RecordAuditor.audit`."""
    return RecordAuditor().audit(path, ruleset)


def audit_lines(path: Path) -> tuple[dict[str, Any], Iterator[AuditedLine]]:
    """One record's lines audited one by one: :meth:`RecordAuditor.lines`."""
    return RecordAuditor().lines(path)


class _Auditor:
    """One record's audit: the state it has reached, and what the lines so far have stated."""

    def __init__(self, path: Path, rulesets: RulesetCache, ruleset_file: Path | None = None) -> None:
        self.path = path
        self.rulesets = rulesets
        self.ruleset_file = ruleset_file
        self.digests: tuple[str | None, str | None] = (None, None)  # (recorded, now)
        self.ruleset_changed = False
        self.state: GameState | None = None
        self.ruleset: str | None = None
        self.events = 0
        self.ended_hand: tuple[int, str] | None = None  # (hand number, end rule) just finished
        self.effects: list[Event] = []  # what the last action led to, for chips lines to match
        self.chips_stated = False  # whether the record states the last action's chips (then all of them)
        self.acted_in_hand = 0  # the last hand a deal or an action was applied in
        self.hand_end_due: int | None = None  # the hand that just ended, until a line other than chips
        self.hand_end_lines: dict[int, int] = {}  # hand number -> the line stating its end
        self.hand_lines: dict[int, int] = {}  # hand number -> the line stating its start
        self.stopped: str | None = None  # why no line may follow (a game_end, a forfeit)
        self.turn_cap: int | None = None  # the header's: no decision may come after it
        self.line_number = 1  # of the line being checked
        self.exceptions: list[dict[str, Any]] = []  # the agreed lines: {"line": N, "rule": what it breaks}
        self.scores: ScoresGame | None = None  # a scores-only record's hands so far
        self.handlers = {"hand": self._hand, "deal": self._deal, "play": self._play_line, "draw": self._turn_line,
                         "discard": self._turn_line, "pass": self._turn_line, "move": self._move, "house": self._house,
                         "chips": self._chips, "hand_end": self._hand_end, "game_end": self._game_end,
                         "fault": self._fault}

    # ------------------------------------------------------------------ header
    def start(self, header: RecordLine) -> None:
        if header.fault:
            raise _Unsound(1, header.fault)
        data = header.data or {}
        reference = data["ruleset"]
        self.ruleset = reference
        rules = _load_named_ruleset(reference, data.get("options") or {}, self.path, self.ruleset_file, self.rulesets)
        now = rules.digest()
        self.digests = (data.get("ruleset_digest"), now)
        self.ruleset_changed = not _digests_match(self.digests[0], now, rules)
        try:
            self.state = GameState(rules, len(data["seats"]))
        except ValueError as error:
            raise _Unsound(1, str(error)) from None
        self.state.seat_names = seat_labels(data["seats"])
        cap = data.get("turn_cap")
        if cap is not None and cap != rules.turn_cap:
            raise _Unsound(1, f"the header states a turn cap of {cap:,} decisions; the ruleset's is {rules.turn_cap:,}")
        self.turn_cap = cap
        self.ruleset = _ruleset_named(rules, data.get("options") or {}, self.rulesets)
        self.tiles = rules.tiles
        if data.get("scores_only"):
            try:
                self.scores = ScoresGame(Arithmetic(rules, len(data["seats"])), self.state.seat_names)
            except ScoresOnlyUnsupported as error:
                raise _Unsound(1, str(error)) from None

    # ------------------------------------------------------------------ events
    def check(self, line: RecordLine) -> None:
        """Apply one event line, or raise :class:`_Unsound` naming it."""
        self.check_all((line,))

    def check_all(self, lines: Iterable[RecordLine]) -> None:
        """Apply each event line in turn, or raise :class:`_Unsound` naming the first bad one.

        Every line of every record comes through this loop: the plays, draws and passes of
        a game under way take the shortest path (:meth:`_play_line`, :meth:`_turn_line`),
        anything unusual the general one, which words every message."""
        state = self.state
        assert state is not None
        if self.scores is not None:
            self._check_scores_only(lines)
            return
        results = state.hand_results
        handlers = self.handlers
        cap = self.turn_cap if self.turn_cap is not None else float("inf")
        for number, data, fault in lines:
            if fault is not None:
                raise _Unsound(number, fault, data=data)
            assert data is not None  # a line without fault holds its object
            kind = data["event"]
            self.events += 1
            if self.stopped is not None:
                raise _Unsound(number, self.stopped, data=data)
            hands_before = len(results)
            self.line_number = number
            try:
                if kind != "chips" and (self.effects or self.chips_stated):
                    self._check_chips_complete()
                if "agreed" in data:
                    self._agreed(data)
                else:
                    handlers[kind](data)
            except (IllegalAction, UnknownTile, ValueError) as error:
                raise _Unsound(number, str(error), data=data) from None
            except Exception as error:  # noqa: BLE001 - a formula of the ruleset failing is told as such
                raise _ruleset_failure(error, number, state) from None
            if state.turns > cap:
                raise _Unsound(number, f"decision {state.turns:,} comes after the turn cap of {cap:,} decisions the "
                                       f"header states: the game stops there", data=data)
            if len(results) != hands_before:
                result = results[-1]
                self.ended_hand = (result.number, result.reason)
                self.hand_end_due = result.number
            elif self.hand_end_due is not None and kind != "chips":
                self.hand_end_due = None

    def _check_scores_only(self, lines: Iterable[RecordLine]) -> None:
        """A scores-only record: a ``hand`` line then its ``hand_end`` for each hand, each hand's figures
        checked as far as the rules allow without the play (:mod:`contack_core.records.scores`), then the
        ``game_end``."""
        game = self.scores
        assert game is not None
        for number, data, fault in lines:
            if fault is not None:
                raise _Unsound(number, fault, suggest=False)
            assert data is not None
            self.events += 1
            self.line_number = number
            kind = data["event"]
            try:
                if self.stopped is not None:
                    raise IllegalAction(self.stopped)
                due = len(game.hands) + 1
                if kind == "hand":
                    if game.is_over():
                        raise IllegalAction(f"the game is over after {len(game.hands)} hands")
                    if data["number"] != due or due in self.hand_lines:
                        raise IllegalAction(f"hand {data['number']} cannot begin here: hand {due} is next")
                    self.hand_lines[due] = number
                elif kind == "hand_end":
                    if data["number"] != due:
                        raise IllegalAction(f"hand {data['number']} cannot end here: hand {due} is next")
                    game.add(figures_of(data))
                elif kind == "game_end":
                    if not game.is_over():
                        if not game.arithmetic.rules.match.final_endings or not game.hands:
                            raise IllegalAction(f"the game is not over: hand {due} is next")
                        game.ended_early = True
                    expected = game.game_end_line()
                    for key in ("totals", "winners", "teams", "team_totals"):
                        if key in data and data[key] != expected.get(key):
                            raise IllegalAction(f"the {key.replace('_', ' ')} are {expected.get(key)}, not {data[key]}")
                    self.stopped = "nothing may follow game_end"
                else:
                    raise IllegalAction(f"a scores-only record states hands' results only, not a {kind}: keep the "
                                        f"play in a record of its own")
            except IllegalAction as error:
                raise _Unsound(number, str(error), suggest=False) from None

    def _deal(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        self.acted_in_hand = state.hand_number
        self._skip_shuffles()
        self._expect_seat(data, chance=True)
        state.apply(recorded_action(self.tiles, data))

    def _play_line(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        self.acted_in_hand = state.hand_number
        if state.chance or state.over or data["seat"] != state.current:
            if self._opens_by_chance():
                self._opening(data)
                return
            self._expect_seat(data, chance=False)  # says why this seat may not play now
        event = state.apply(play_from_record(self.tiles, data))
        assert isinstance(event, Played)  # a play line's action is a play
        if "points" in data and data["points"] != event.points:
            raise IllegalAction(f"this play scores {event.points} points, not {data['points']}")
        if "from" in data and data["from"] != (event.source or self._only_play_zone()):
            raise IllegalAction(f"this tile comes from {event.source or self._only_play_zone()}, "
                                f"not from {data['from']}")
        if state.effects:
            self.effects = list(state.effects)
            state.effects.clear()

    def _turn_line(self, data: dict[str, Any]) -> None:
        """A draw, a discard or a pass."""
        state = self.state
        assert state is not None
        self.acted_in_hand = state.hand_number
        if state.chance or state.over or data["seat"] != state.current:
            self._expect_seat(data, chance=False)  # says why this seat may not act now
        state.apply(recorded_action(self.tiles, data))  # a discard's rule checks the pile named
        if state.effects:
            self.effects = list(state.effects)
            state.effects.clear()

    def _house(self, data: dict[str, Any]) -> None:
        """A house rule's own action: its rule offers it now (its ``when`` and its limit), its tiles
        are where the rule takes them, the tiles it draws are named, and its stated returns and
        cost are right."""
        state = self.state
        assert state is not None
        self.acted_in_hand = state.hand_number
        self._expect_seat(data, chance=False)
        action = action_from_record(self.tiles, data)
        assert isinstance(action, HouseAction)
        rule = next((r for r in state.rules.turn if r.action_type is HouseAction and r.key == action.rule), None)
        if isinstance(rule, HouseActionRule) and action.drawn is None and rule.draws:
            raise IllegalAction(f"{action.rule} draws tiles: a record names them (\"drawn\": [...])")
        event = state.apply(action)
        self._skip_shuffles()  # a pile the action left to be shuffled
        due = event_to_record(state, event)
        assert due is not None
        if "returned" in data and data["returned"] != due["returned"]:
            raise IllegalAction(f"{action.rule} returns {', '.join(due['returned']) or 'nothing'}, "
                                f"not {', '.join(data['returned']) or 'nothing'}")
        if "taken" in data and data["taken"] != due.get("taken", []):
            raise IllegalAction(f"{action.rule} takes back {', '.join(due.get('taken', [])) or 'nothing'}, "
                                f"not {', '.join(data['taken']) or 'nothing'}")
        if "amount" in data and data["amount"] != due.get("amount", 0):
            raise IllegalAction(f"{action.rule} adds {due.get('amount', 0)} to its counter, not {data['amount']}")

    def _skip_shuffles(self) -> None:
        """A record never states a shuffle: the pile is just the unseen tiles."""
        state = self.state
        assert state is not None
        while (step := state.setup_step) is not None and state.is_chance_node() and (zone := step.shuffles) is not None:
            state.apply(Shuffle(zone, tuple(state.zones[zone])))

    def _opens_by_chance(self) -> bool:
        """Whether the hand's set-up is at a step that opens the figure with a chance tile."""
        state = self.state
        assert state is not None
        self._skip_shuffles()
        step = state.setup_step
        return step is not None and state.is_chance_node() and Play in step.accepts

    def _opening(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        if data["seat"] != state.current:
            raise IllegalAction(f"{state.who(state.current)} opens the figure, not {state.who(data['seat'])}")
        self._play(data, "the opening play")

    def _play(self, data: dict[str, Any], what: str) -> Played:
        """Apply a play line and check the points it states."""
        state = self.state
        assert state is not None
        event = state.apply(recorded_action(self.tiles, data))
        assert isinstance(event, Played)
        if "points" in data and data["points"] != event.points:
            raise IllegalAction(f"{what} scores {event.points} points, not {data['points']}")
        return event

    def _check_chips_complete(self) -> None:
        """A record may leave out an action's chips lines (a game typed in from the table),
        but once it states one it states them all before the next event. (A record that
        stops within them is one that stops mid-game.)"""
        if self.chips_stated and self.effects:
            due = _chips_due(self.effects[0])
            raise IllegalAction(f"a chips line is missing here: the chips due also move {_chips_text(due)}")
        self.effects = []
        self.chips_stated = False

    def _chips(self, data: dict[str, Any]) -> None:
        if not self.effects:
            raise IllegalAction("no chips change hands here")
        self.chips_stated = True
        expected = self.effects.pop(0)
        stated = (data["from"], data["to"], data["count"], data["reason"])
        due = _chips_due(expected)
        if stated != due:
            raise IllegalAction(f"the chips due here move {_chips_text(due)}, not {_chips_text(stated)}")

    def _hand(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        if state.is_over():
            raise IllegalAction(f"the game is over after {len(state.hand_results)} hands")
        if data["number"] != state.hand_number:
            raise IllegalAction(f"hand {data['number']} cannot begin here: this is hand {state.hand_number}")
        if self.acted_in_hand == state.hand_number:
            raise IllegalAction(f"hand {data['number']} has already begun")
        if data["number"] in self.hand_lines:
            raise IllegalAction(f"hand {data['number']}'s start is stated twice (first on line "
                                f"{self.hand_lines[data['number']]})")
        self.hand_lines[data["number"]] = self.line_number

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
            if "seat" in data and data["seat"] >= state.seat_count:
                raise IllegalAction(f"there is no seat {data['seat']} (seats 0 to {state.seat_count - 1})")
            return
        if state.is_chance_node():
            raise IllegalAction(f"the deal of hand {state.hand_number} is not complete "
                                f"({state.who(state.deal_seat)} has not been dealt)")
        if data["seat"] != state.current_seat():
            raise IllegalAction(f"it is {state.who(state.current_seat())}'s turn, not {state.who(data['seat'])}'s")

    def _move(self, data: dict[str, Any]) -> None:
        """A move: legal for this seat now, and its stated piece, turn, removals and flip right."""
        state = self.state
        assert state is not None
        self.acted_in_hand = state.hand_number
        self._expect_seat(data, chance=False)
        action = action_from_record(self.tiles, data)
        assert isinstance(action, Move)
        origin = action.origin
        piece = state.figure.tile_at.get(origin)
        event = state.apply(action)
        assert piece is not None
        self._check_move(data, origin, event)

    def _check_move(self, data: dict[str, Any], origin: tuple[int, int], event: Event) -> None:
        """The piece, turn, removals and flip a move line states, against what the move did."""
        state = self.state
        assert state is not None and isinstance(event, Moved)
        due = event_to_record(state, event)
        assert due is not None
        for key, what in (("piece", "the piece on {0} is {1}, not {2}"),
                          ("turn", "after the move the piece is turned {1}, not {2}"),
                          ("removed", "the contacts remove the pieces on {1}, not on {2}"),
                          ("flipped", "the piece is {1}turned over here, not {2}")):
            if key in data and data[key] != due[key]:
                shown = ("" if due[key] else "not ", data[key]) if key == "flipped" else (due[key], data[key])
                raise IllegalAction(what.format(list(origin), *shown))

    def _agreed(self, data: dict[str, Any]) -> None:
        """A line the table agreed to let stand (``"agreed": true``): it must break a rule (else
        it is no exception), and be possible all the same (a tile held, a cell it fits); it is
        applied with the turn's conditions lifted and listed among the verdict's exceptions."""
        state = self.state
        assert state is not None
        self.acted_in_hand = state.hand_number
        kind = data["event"]
        if kind not in ("play", "draw", "discard", "pass", "move") or data["agreed"] is not True:
            raise IllegalAction(f"only a play, draw, discard, pass or move may be agreed (\"agreed\": true), "
                                f"not this {kind} line")
        self._skip_shuffles()
        if state.chance or state.over:
            self._expect_seat(data, chance=False)  # says why no seat may act now
        action = recorded_action(self.tiles, data)
        seat = data["seat"]
        try:
            if seat >= state.seat_count:
                raise IllegalAction(f"there is no seat {seat} (seats 0 to {state.seat_count - 1})")
            if seat != state.current:
                raise IllegalAction(f"it is {state.who(state.current)}'s turn, not {state.who(seat)}'s")
            state.clone().apply(action)
        except IllegalAction as error:
            broken = str(error)
        else:
            raise IllegalAction("this line is marked agreed, but it breaks no rule: drop \"agreed\"")
        piece = state.figure.tile_at.get(action.origin) if isinstance(action, Move) else None
        event = state.apply_agreed(action, seat)
        if isinstance(event, Played) and "points" in data and data["points"] != event.points:
            raise IllegalAction(f"this play scores {event.points} points, not {data['points']}")
        if isinstance(action, Move):
            assert piece is not None
            self._check_move(data, action.origin, event)
        if state.effects:
            self.effects = list(state.effects)
            state.effects.clear()
        self.exceptions.append({"line": self.line_number, "rule": broken})

    def _only_play_zone(self) -> str:
        state = self.state
        assert state is not None
        return next(rule.zones[0] for rule in state.rules.turn if is_play_rule(rule))

    def _hand_end(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        number = data["number"]
        if number in self.hand_end_lines:
            raise IllegalAction(f"hand {number}'s end is stated twice (first on line {self.hand_end_lines[number]})")
        if self.hand_end_due != number:  # not ended yet, or ended before the lines since
            raise IllegalAction(f"hand {number} has not ended here")
        result = state.hand_results[data["number"] - 1]
        if "reason" in data and data["reason"] != result.reason:
            raise IllegalAction(f"hand {data['number']} ended by {result.reason} "
                                f"({state.rules.term(result.reason)}), not by {data['reason']}")
        if list(data["scores"]) != list(result.scores):
            raise IllegalAction(f"hand {data['number']} scores are {list(result.scores)}, not {data['scores']}")
        if "held" in data and list(data["held"]) != list(result.held):
            raise IllegalAction(f"hand {data['number']}'s tiles held are {list(result.held)}, not {data['held']}")
        if "points" in data:
            raise IllegalAction("a hand's points are stated only in a scores-only record (here each play states "
                                "its own)")
        self.hand_end_lines[number] = self.line_number

    def _game_end(self, data: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        if not state.is_over():
            raise IllegalAction(f"the game is not over: hand {state.hand_number} is next")
        if list(data["totals"]) != state.scores():
            raise IllegalAction(f"the totals are {state.scores()}, not {data['totals']}")
        if list(data["winners"]) != state.winners():
            raise IllegalAction(f"the winners are seats {state.winners()}, not {data['winners']}")
        if "teams" in data or "team_totals" in data:  # stated only where partners pool their scores
            expected = game_end_line(state)
            for key in ("teams", "team_totals"):
                if key in data and data[key] != expected.get(key):
                    raise IllegalAction(f"the {key.replace('_', ' ')} are {expected.get(key)}, not {data[key]}")
        self.stopped = "nothing may follow game_end"

    def _fault(self, data: dict[str, Any]) -> None:
        """A player's fault changes nothing on the table: the action that replaced it follows,
        or, when the seat forfeited, nothing (see :meth:`check`)."""
        state = self.state
        assert state is not None
        if data["seat"] >= state.seat_count:
            raise IllegalAction(f"there is no seat {data['seat']} (seats 0 to {state.seat_count - 1})")
        if data.get("penalty") == "forfeit":
            self.stopped = (f"nothing may follow seat {data['seat']}'s forfeit (line {self.line_number}): "
                            f"it ends the game")

    def verdict(self, line: int | None, error: str | None) -> Verdict:
        if self.scores is not None:
            game = self.scores
            finished = game.is_over()
            return Verdict(valid=error is None, line=line, error=error, finished=finished, ruleset=self.ruleset,
                           hands=len(game.hands), events=self.events, totals=game.totals(),
                           winners=game.state.winners() if finished else None, ruleset_digest=self.digests[1],
                           recorded_digest=self.digests[0], ruleset_changed=self.ruleset_changed, scores_only=True,
                           checked=game.arithmetic.checked(), unchecked=game.arithmetic.unchecked())
        state = self.state
        finished = bool(state and state.is_over())
        recorded, now = self.digests
        changed = self.ruleset_changed
        if changed and error is not None:  # said first: it is likely why the record no longer fits
            error = f"{_changed_text(recorded, now)}; {error}"
        return Verdict(
            valid=error is None, line=line, error=error, finished=finished, ruleset=self.ruleset,
            hands=len(state.hand_results) if state else 0, events=self.events,
            totals=state.scores() if state else None, winners=state.winners() if finished and state else None,
            ruleset_digest=now, recorded_digest=recorded, ruleset_changed=changed, exceptions=list(self.exceptions),
        )


def _load_named_ruleset(reference: str, options: dict[str, Any], record: Path, given: Path | None,
                        rulesets: RulesetCache) -> Rules:
    """The ruleset a header names (``given`` instead, when the user points at one), loaded
    with the header's options. Not found, or not loading: :class:`RulesetUnavailable`, which
    says where but never quotes the file (a header may name any file). Loading but refusing
    the header's options: the header is unsound (those messages quote the header, and name
    the ruleset's options)."""
    if given is not None:
        try:
            source = given if given.is_file() else find_ruleset(str(given))
        except RulesetError:
            raise RulesetUnavailable(f"no ruleset file {given}, nor a shipped ruleset of that id") from None
    else:
        try:
            source = rulesets.locate(reference, record.parent)
        except RulesetError:
            raise _unavailable(reference, record) from None
    try:
        return rulesets.load(source, options)
    except RulesetError as error:
        located = [problem.mark for problem in error.problems if problem.mark is not None]
        if not located:  # the header's options, or reading the file: nothing of the file's text
            if given is None and not _is_ruleset(source):
                raise _unavailable(reference, record) from None
            raise _Unsound(1, f"ruleset {reference if given is None else str(given)!r}: {error}") from None
        if given is None:
            raise _unavailable(reference, record) from None
        first = min(located, key=lambda mark: (mark.file != located[0].file, mark.line, mark.column))
        raise RulesetUnavailable(
            f"cannot load the ruleset {given}: it is not a valid ruleset ({len(located)} "
            f"problem{'s' if len(located) > 1 else ''}, the first at {first.file}:{first.line}:{first.column}; "
            f"`contack rulesets validate {given}` lists them)") from None


def _unavailable(reference: str, record: Path) -> RulesetUnavailable:
    """One message whether the file a header names is missing or is no ruleset: a record must
    not tell its reader which files exist (nor quote them)."""
    return RulesetUnavailable(
        f"cannot find or load the ruleset {reference!r} the header names (a shipped ruleset id, or a ruleset "
        f"file relative to the record's folder, {record.parent.absolute()}); `contack rulesets validate` on the "
        f"file says why, or point at one with --ruleset FILE")


def _is_ruleset(path: Path) -> bool:
    """Whether ``path`` reads as a ruleset document (so that what is wrong is the header's options)."""
    try:
        read_document(path)
    except RulesetError:
        return False
    return True


def _ruleset_named(rules: Rules, options: dict[str, Any], rulesets: RulesetCache) -> str:
    """How a verdict names the ruleset audited: its id; but a file that takes the id of a
    shipped ruleset with other rules (a house rule keeping the id of the ruleset it extends)
    by its id and digest, so that its verdict cannot be read as one under the shipped rules."""
    if rules.origin is None or rules.id not in shipped_ruleset_ids():
        return rules.id
    try:
        shipped = rulesets.load(rules.id, options).digest()
    except RulesetError:  # the shipped ruleset refuses these options: not the same rules
        shipped = None
    digest = rules.digest()
    return rules.id if digest == shipped else f"{rules.id} {digest}, not the shipped {rules.id}"


def _digests_match(recorded: str | None, now: str, rules: Rules) -> bool:
    """Whether a header's digest is ``now``, that of ``rules``, or ``rules``' digest as it was
    made before it covered the resolved rules only (the same rules, not a change)."""
    return recorded is None or recorded == now or recorded == rules.former_digest()


def _changed_text(recorded: str | None, now: str | None) -> str:
    return f"the ruleset has changed since this record was made (its digest was {recorded}, it is {now} now)"


def _ruleset_failure(error: Exception, line: int, state: GameState) -> Exception:
    """What to raise when replaying a line raised ``error``: the ruleset's own failure (a
    formula of it failing on this position) as this line's verdict, anything else as it is."""
    fault = ruleset_fault(error, state.rules)
    return error if fault is None else _Unsound(line, str(fault), suggest=False)


def _chips_due(chips: Event) -> tuple[int | str, int | str, int, str]:
    """A chips movement as a record's chips line states it: (from, to, count, reason)."""
    assert isinstance(chips, ChipsMoved)
    line = chips_to_record(chips)
    return (line["from"], line["to"], line["count"], line["reason"])


def _chips_text(chips: tuple[int | str, int | str, int, str]) -> str:
    payer, payee, count, reason = chips
    return f"{count} from {payer} to {payee} ({reason})"


@attrs.frozen
class AuditedLine:
    """One event line as the audit saw it: the live state just after it (mutated by the next
    line, so clone what you keep), and the audit's message if this line is the bad one."""

    number: int
    data: dict[str, Any] | None
    state: GameState | None
    error: str | None


__all__ = ["AuditedLine", "RecordAuditor", "RulesetUnavailable", "UnreadableRecord", "Verdict", "audit_lines",
           "audit_record"]
