"""``contack keep``: the score keeper at the table, reading what a person types.

The person types what happens as it happens; each entry is read forgivingly
(:func:`contack_core.engine.notation.parse_action`, the one reader of typed actions), checked by the engine through the
:class:`~contack_core.records.keeper.Keeper`, and either accepted (told back, written to the
record at once) or refused with the rule it breaks and the nearest legal alternatives,
numbered so that one can be taken by its number. Before every entry the running scores,
the tiles held and whose turn it is are shown. Everything is said through the state API and
the ruleset's words: nothing here knows a variant.
"""

from __future__ import annotations

import difflib
import random
import re
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn, TextIO

from contack_core.boards.grid import PieceBoard
from contack_core.boards.lattice import figure_of
from contack_core.engine.actions import Action, Deal, Discard, Draw, HouseAction, IllegalAction, Move, Pass, Play
from contack_core.engine.events import Played
from contack_core.engine.notation import (
    MAX_ENTRY_CHARS,
    PICK,
    SIDES,
    NotationError,
    Unfinished,
    action_to_record,
    action_to_string,
    parse_action,
    piece_name,
    read_points,
    read_tile,
    read_tiles,
    seat_named,
    tile_readings,
    winners_to_string,
)
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from contack_core.language.problems import RulesetError
from contack_core.primitives.loading import load_rules
from contack_core.primitives.turn import HouseActionRule
from contack_core.records.keeper import STOP_WORDS, Due, Keeper, KeeperError
from contack_core.records.suggest import next_events, ranked

#: The entries of the help, each with the kind of action a ruleset must have for the keeper to take it
#: (:func:`help_text` lists those the loaded ruleset has: a board of pieces deals no tile, lays none).
_ENTRY_HELP: tuple[tuple[type[Action], str], ...] = (
    (Deal, "  deal            the tiles dealt, in any spelling: 09-02-08 01-02-03 ..., 928 123 ..., 9 2 8, 1 2 3, ..."),
    (Play, "  TILE            a play of that tile: the cells where it fits are listed, pick one by its number"),
    (Play, "  TILE X,Y        a play on cell [X, Y] (also [X, Y] or X Y); TILE N: the N-th cell of its list"),
    (Play, "  TILE left of T  a play beside the tile T already laid (left, right, above or below it)"),
    (Draw, "  draw TILE       the tile a player drew (d TILE; a TILE alone when drawing is all there is to do)"),
    (Discard, "  discard TILE    a tile laid aside (x TILE); discard TILE to PILE where there are several piles"),
    (Pass, "  pass            the player passes (p)"),
    (Move, "  X,Y X,Y [X,Y]   a move on a board: the point it leaves, then each point it steps to (or just where it\n"
           "                  ends: X,Y to X,Y); X,Y alone lists that piece's moves"),
)


def entry_kinds(rules: Rules) -> set[type[Action]]:
    """The kinds of action a table enters in a game of ``rules``: its set-up's (a deal) and its turns'."""
    return {kind for step in rules.setup for kind in step.accepts} | {rule.action_type for rule in rules.turn}


def help_text(rules: Rules) -> str:
    """What ``help`` shows: the entries ``rules`` has actions for (a deal, a play, a draw, a move, a house rule's
    own action), so the help of a board game names no deal nor draw, then the commands every game takes."""
    kinds = entry_kinds(rules)
    lines = ["Type what happens at the table; each entry is checked before it is written."]
    lines += [text for kind, text in _ENTRY_HELP if kind in kinds]
    for rule in rules.turn:
        if isinstance(rule, HouseActionRule):
            typed = rule.key + (" TILE" if rule.chosen_zone is not None else "")
            drawn = f": the keeper asks for the tiles drawn\n{'':18}(or name them: {typed} drawing TILE ...)" \
                if rule.draws else ""
            lines.append(f"  {typed:<15} a house rule's own action{drawn}")
    asked = [about for kind, about in ((Play, "? TILE: where that tile fits"), (Move, "? X,Y: that piece's moves"))
             if kind in kinds]
    left_out = next((f" ({example})" for kind, example in ((Draw, "a draw"), (Move, "a move"), (Play, "a play"))
                     if kind in kinds), "")
    lines += [
        "  NAME: ...       say whose entry it is (checked against whose turn it is)",
        "  ?               the legal moves now, numbered" + (f" ({'; '.join(asked)})" if asked else ""),
        "  N               take the N-th of the last numbered list (#N also works)",
        "  undo            take back the last entry and everything that followed from it (or the last fix)",
        "  entries         the entries so far, each with its line in the record (entries all: every one)",
        "  fix N ENTRY     put ENTRY in place of the entry on line N; the entries after it are replayed, and",
        "                  the keeper says what changed (the scores that moved, an entry that no longer holds)",
        f"  insert N ENTRY  an entry left out{left_out}, made before the entry on line N; the rest is replayed",
        "  agreed ENTRY    an entry the table lets stand although the rules refuse it (agreed NAME: ENTRY for",
        "                  one out of turn); the record marks it and the audit lists it",
        "  sheet           the score sheet so far;  board: the figure or board;  help: this text",
        "  quit            stop here (the record is kept; contack keep --resume FILE carries it on)",
    ]
    return "\n".join(lines)


#: The words an entry may begin with: the commands and the verbs of the help (:func:`help_text`).
_WORDS = ("help", "undo", "sheet", "scores", "board", "figure", "quit", "exit", "pass", "draw", "discard", "move",
          "play", "entries", "fix", "agreed", "insert")
#: How many entries ``entries`` lists (``entries all``: every one).
LISTED_ENTRIES = 12


class Refused(Exception):
    """An entry not taken; ``alternatives`` are the nearest legal actions, most likely meant first."""

    def __init__(self, message: str, alternatives: Sequence[Action] = ()) -> None:
        super().__init__(message)
        self.alternatives = list(alternatives)


class Table:
    """A keeping session: reads entries through ``ask`` (None once the input ends), speaks through ``say``."""

    def __init__(self, keeper: Keeper, ask: Callable[[str], str | None], say: Callable[[str], None],
                 interactive: bool, draw: Callable[[GameState], list[str] | None] | None = None) -> None:
        self.keeper = keeper
        #: Draws the figure or board as the replay does (given by the command line, a layer above).
        self.draw = draw
        self.ask = ask
        self.say = say
        self.interactive = interactive
        #: The last numbered list shown: a number typed next takes its action.
        self.choices: list[Action] = []
        self.refused = 0

    @property
    def state(self) -> GameState:
        return self.keeper.state

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """Keep the game until it is over, the input ends or the person quits. Exit status: 0, or 1
        when entries read from a pipe or file were refused (a script that went wrong)."""
        record = self.keeper.path
        self.say(self.status())
        # A game that ends here ends the session at a terminal; a finished record carried on, or
        # entries read on from a pipe or file, may still correct it (fix, undo).
        corrections_after_the_end = not self.interactive or self.keeper.due().kind == "over"
        told_over = False
        interrupted = False  # the last prompt ended with Ctrl-C: a second one in a row stops
        while True:
            due = self.keeper.due()
            if due.kind == "over":
                if not told_over:
                    self.say(self.keeper.sheet.text(self.state))
                    self.say(f"the game is over; its record is {record}")
                    told_over = True
                    if not corrections_after_the_end:
                        self.say(f"(an entry to correct: contack keep --resume {record}, then fix N ENTRY)")
                        break
            else:
                told_over = False
            try:
                text = self.ask("the game is over (fix N ENTRY, undo, entries, sheet or quit)> " if due.kind == "over"
                                else self.prompt(due))
            except KeyboardInterrupt:
                if self.interactive and not interrupted:  # Ctrl-C clears the line, as in a shell
                    interrupted = True
                    self.say("\n(Ctrl-C: the line is cleared; Ctrl-C again, Ctrl-D or quit stops)")
                    continue
                text = None
            interrupted = False
            if text is None or text.strip().lower() in STOP_WORDS:
                if due.kind != "over":
                    self.say(f"stopped; the record so far is {record} (carry it on: contack keep --resume {record})")
                break
            revision = self.keeper.revision
            try:
                self.handle(text.strip(), due)
            except _Asked:
                continue
            except KeyboardInterrupt:  # mid-entry (naming a drawn tile, say): the entry is dropped, the game as written
                written = self.keeper.revision != revision
                self.keeper.reload()
                self.choices = []
                self.say("^C: " + ("the entry had been written already (undo takes it back)" if written
                                   else "the entry is dropped"))
                self.say(self.status())
                continue
            except (NotationError, Refused, IllegalAction) as error:
                self.refused += 1
                self.say(f"refused: {error}")
                alternatives = error.alternatives if isinstance(error, Refused) else []
                if alternatives:
                    self.choices = alternatives
                    self.say("nearest legal: " + "; ".join(f"{n}. {self.words(a)}"
                                                            for n, a in enumerate(alternatives, 1)))
        if self.refused and not self.interactive:
            self.say(f"{self.refused} entr{'y was' if self.refused == 1 else 'ies were'} refused")
            return 1
        return 0

    def handle(self, text: str, due: Due) -> None:
        """Do what ``text`` says: a command, or an entry (accepted, or :class:`Refused`)."""
        if len(text) > MAX_ENTRY_CHARS:  # refused before any reading or matching, whose cost grows with it
            raise NotationError(f"an entry is at most {MAX_ENTRY_CHARS:,} characters; this one has more")
        lowered = text.lower()
        if not text:
            self._default(due)
            return
        if lowered in ("help", "h"):
            self.say(help_text(self.state.rules))
            return
        if lowered == "?" or lowered.startswith("? "):
            self.say(self.listing(due, text[1:].strip()))
            return
        if lowered in ("undo", "u"):
            removed = self.keeper.undo()
            self.choices = []
            if removed is None:
                self.say("nothing to undo")
            elif removed == [{"event": "fix"}]:
                self.say("taken back: the last fix; the record is as it was before it")
                self.say(self.status())
            else:
                self.say("taken back: " + "; ".join(self.line_words(line) for line in removed))
                self.say(self.status())
            return
        if lowered in ("sheet", "scores", "s"):
            self.say(self.keeper.sheet.text(self.state))
            return
        if lowered in ("board", "figure", "b"):
            self.say(self.picture())
            return
        if lowered in ("entries", "entries all", "list"):
            self.say(self.entry_list(every=lowered == "entries all"))
            return
        fix = re.match(r"^fix\s+(\d+)\s*:?\s*(.*)$", text, re.I | re.S)
        if fix or lowered == "fix" or lowered.startswith("fix "):
            if not fix or not fix.group(2).strip():
                raise NotationError("write fix N ENTRY: N the entry's line (entries lists them), then the entry as "
                                 "it should have been")
            self.fix(int(fix.group(1)), fix.group(2).strip())
            return
        insert = re.match(r"^insert\s+(?:before\s+)?(\d+)\s*:?\s*(.*)$", text, re.I | re.S)
        if insert or lowered == "insert" or lowered.startswith("insert "):
            if not insert or not insert.group(2).strip():
                raise NotationError("write insert N ENTRY: the entry left out, made before the entry on line N "
                                 "(entries lists them)")
            self.fix(int(insert.group(1)), insert.group(2).strip(), insert=True)
            return
        agreed = re.match(r"^agreed?\s+(.*)$", text, re.I | re.S)
        if agreed or lowered in ("agreed", "agree"):
            if not agreed or not agreed.group(1).strip():
                raise NotationError("write agreed ENTRY (agreed NAME: ENTRY for another player's): the entry the table "
                                 "lets stand")
            action, seat = self.agreed_action(agreed.group(1).strip(), due)
            self.take(action, agreed=True, seat=seat)
            return
        self._check_command_word(text)
        try:
            action = self.read_entry(text, due)
        except (NotationError, Refused) as error:
            across = self.across_hands(text, due)
            if across is None:
                raise
            raise Refused(f"{error}\n  {across}", error.alternatives if isinstance(error, Refused) else ()) from None
        self.take(action)

    def read_entry(self, text: str, due: Due, picks: bool = True) -> Action:
        """The action an entry states where ``due`` is what comes next (a number picks from the last list)."""
        picked = PICK.match(text)
        if picked and due.kind in ("turn", "open"):
            if not picks:
                raise Refused("a number picks from the last list: write the entry in full here")
            if not self.choices:
                raise Refused("there is no list to pick from: ? lists the legal moves")
            number = int(picked.group(1))
            if not 1 <= number <= len(self.choices):
                raise Refused(f"there is no {number} in the last list: pick 1 to {len(self.choices)}")
            return self.choices[number - 1]
        if due.kind == "over":
            raise Refused("the game is over: nothing more can be entered")
        return self.turn_action(text, due)

    def agreed_action(self, text: str, due: Due) -> tuple[Action, int | None]:
        """An entry the table lets stand: its action and the seat it is for (``NAME:`` names another)."""
        if due.kind != "turn":
            raise Refused("only a turn's play, draw, discard, pass or move can be agreed; a deal is what it is")
        seat = due.seat
        named = re.match(r"^([^:,\[\]()]+):\s*(.*)$", text)
        if named:
            seat = seat_named(self.state, named.group(1).strip())
            text = named.group(2)
        try:
            return self.read_entry(text, due, picks=False), seat
        except _Asked:
            self.choices = []
            raise Refused("name the cell too (agreed TILE X,Y): a list shows only what the rules allow") from None

    # ------------------------------------------------------------------ corrections
    def trace(self, action: Action) -> list[str]:
        """Where a slip behind a refused ``action`` may lie in an earlier entry: the entry that put a tile
        it names where the keeper has it (a tile mistyped then, found only now), or a draw left out."""
        state = self.state
        names = state.rules.tiles.names
        if isinstance(action, Deal):
            due = state.clone().sample_chance(random.Random(0)) if state.is_chance_node() else None
            source = state.locate(due.tiles[0]) if isinstance(due, Deal) and due.tiles else None
            tiles = [t for t in action.tiles if state.locate(t) != source]
        elif isinstance(action, (Play, Discard)):
            seat = state.current
            tiles = [action.tile] if not any(action.tile in per_seat[seat] for per_seat in state.seat_zones.values()) \
                and not any(pile and pile[-1] == action.tile for pile in state.zones.values()) else []
        elif isinstance(action, Draw) and action.tile is not None:
            tiles = [action.tile]
        elif isinstance(action, Move):
            return self._moved_by_its_owner(action)
        else:
            return []
        hints = []
        for tile in dict.fromkeys(tiles):
            found = self._last_entry_naming(names[tile])
            if found is not None:
                number, data = found
                hints.append(f"{names[tile]} is in {state.locate(tile)} since line {number} "
                             f"({entry_words(self.keeper.seats, data)}): if that entry was a slip, fix it: fix "
                             f"{number} ENTRY")
            elif isinstance(action, Play):
                hints.extend(self._left_out_draw(action))
        return hints

    def across_hands(self, text: str, due: Due) -> str | None:
        """Where a refused entry belongs on the other side of a hand's end, the slip that may have moved
        that end: a turn's entry where the next hand is being dealt (or the game is over) names the entry
        that ended the hand; a whole deal while the hand goes on says whose turn it still is. (Tiles never
        carry over: every hand begins with all of them gathered, so no tile is traced into an earlier hand.)"""
        keeper = self.keeper
        state = self.state
        rules = state.rules
        if due.kind == "turn":
            try:
                tiles = read_tiles(text, rules.tiles)
            except NotationError:
                return None
            dealt = {len(data["tiles"]) for _, _, data in keeper.numbered() if data.get("event") == "deal"}
            if len(tiles) < 2 or len(tiles) not in dealt:
                return None
            return (f"that reads as a deal of {len(tiles)} tiles, but {rules.term('hand')} {state.hand_number} is "
                    f"not over: {self.name(state.current)} {rules.still_possible(state)}. If it ended at the table, "
                    f"an entry of it was left out or mistyped: entries lists them (fix N ENTRY, insert N ENTRY)")
        rows = keeper.numbered()
        starts = set(keeper.entries)
        ended = max((i for i, (_, _, data) in enumerate(rows) if data.get("event") == "hand_end"), default=None)
        if ended is None or any(offset in starts for _, offset, _ in rows[ended:]):
            return None  # no hand has ended, or the next one has begun
        last = max(((number, offset, data) for number, offset, data in rows[:ended] if offset in starts),
                   default=None, key=lambda row: row[1])
        if last is None or last[2].get("event") == "deal":
            return None
        try:
            parse_action(keeper.state_before(last[0]), text)
        except NotationError as error:
            if not isinstance(error, Unfinished):
                return None  # not a turn's entry either
        end = rows[ended][2]
        hand = rules.term("hand")
        now = "the game is over" if due.kind == "over" else f"{hand} {state.hand_number} is being dealt"
        return (f"{hand} {end['number']} ended with line {last[0]} ({entry_words(keeper.seats, last[2])}: "
                f"{rules.term(end.get('reason', 'over'))}) and {now}. If {hand} {end['number']} goes on at the "
                f"table, that entry or one before it was a slip: fix {last[0]} ENTRY (entries lists them), or undo")

    def _moved_by_its_owner(self, move: Move) -> list[str]:
        """A move of another player's piece: that player may have moved it, out of turn."""
        state = self.state
        board = state.figure
        piece = board.tile_at.get(move.origin)
        if not isinstance(board, PieceBoard) or piece is None or board.owner[piece] == state.current:
            return []
        owner = board.owner[piece]
        return [f"if {self.name(owner)} moved it, out of turn, and the table lets it stand: agreed "
                f"{self.keeper.seats[owner]}: {action_to_string(state, move)}"]

    def _last_entry_naming(self, name: str) -> tuple[int, dict[str, Any]] | None:
        """The entry of this hand whose lines last name the tile ``name`` (its line, its first line's object)."""
        rows = self.keeper.numbered()
        starts = set(self.keeper.entries)
        hand_start = max((offset for _, offset, data in rows if data.get("event") == "hand"), default=0)
        for index in range(len(rows) - 1, -1, -1):
            number, offset, data = rows[index]
            if offset < hand_start:
                return None
            if data.get("tile") == name or name in (data.get("tiles") or ()):
                owner = next(((n, d) for n, o, d in reversed(rows[:index + 1]) if o in starts), None)
                return owner
        return None

    def _left_out_draw(self, play: Play) -> list[str]:
        """A play of a tile still unseen: the draw of it left out, just now or before an earlier entry of
        this hand (each line before which it fits, every later entry still holding)."""
        state = self.state
        name = state.rules.tiles.names[play.tile]
        seat = state.current
        draw = Draw(play.tile)
        hints = []
        trial = state.clone()
        try:
            trial.apply(draw)
            trial.apply(play)
            hints.append(f"if {self.name(seat)} drew {name} just now: draw {name}, then the play")
        except IllegalAction:
            pass
        keeper = self.keeper
        rows = keeper.numbered()
        hand_start = max((offset for _, offset, data in rows if data.get("event") == "hand"), default=0)
        fits = []
        for number, data in reversed(keeper.entry_lines()):
            offset = next(o for n, o, _ in rows if n == number)
            if offset < hand_start or data.get("event") == "deal":
                break
            if keeper.state_before(number).current == seat and keeper.would_hold(number, draw, then=play):
                fits.append(number)
        if fits:
            lines = ", ".join(str(n) for n in sorted(fits)[:6]) + (", ..." if len(fits) > 6 else "")
            hints.append(f"if {self.name(seat)} drew {name} earlier and it was not entered: insert N draw {name}, "
                         f"N the line of the entry it came before (it fits before line{'s' if len(fits) > 1 else ''} "
                         f"{lines})")
        return hints

    def entry_list(self, every: bool = False) -> str:
        """The entries so far, each with the record line it is on (what ``fix N`` names)."""
        listed = self.keeper.entry_lines()
        shown = listed if every else listed[-LISTED_ENTRIES:]
        if not shown:
            return "no entries yet"
        head = "" if len(shown) == len(listed) else f"the last {len(shown)} of {len(listed)} (entries all: every one)\n"
        return head + "\n".join(f"{number:>5}  {self.line_words(data)}" + (" (agreed)" if data.get("agreed") else "")
                                 for number, data in shown)

    def fix(self, line: int, text: str, insert: bool = False) -> None:
        """``fix N ENTRY``: read ENTRY where the entry on line N was made, put it in its place (``insert``:
        before it: ``insert N ENTRY``), and tell what changed."""
        keeper = self.keeper
        before = keeper.state_before(line)
        now = keeper.state
        agreed = re.match(r"^agreed?\s+(.*)$", text, re.I | re.S)
        keeper.state = before  # the entry is read where it was made (the reader asks the keeper's state)
        try:
            due = keeper.due()
            if agreed:
                action, seat = self.agreed_action(agreed.group(1).strip(), due)
            else:
                action, seat = self.read_entry(text, due, picks=False), None
        except _Asked:
            self.choices = []
            raise Refused("write the entry in full in a fix (TILE X,Y): a list would be of that moment") from None
        finally:
            keeper.state = now
        fixed = keeper.fix(line, action, agreed=bool(agreed), seat=seat, insert=insert)
        self.choices = []
        seats = keeper.seats
        replayed = f"{fixed.replayed} later entr{'y' if fixed.replayed == 1 else 'ies'} replayed"
        if insert:
            self.say(f"inserted before line {line}: {entry_words(seats, keeper.numbered_line(line))}; {replayed}")
        else:
            self.say(f"fixed line {line}: {entry_words(seats, fixed.replaced)} -> "
                     f"{entry_words(seats, keeper.numbered_line(line))}; {replayed}")
        moved = [f"{name} {a} -> {b}" for name, a, b in zip(seats, fixed.totals_before, fixed.totals_after) if a != b]
        self.say("scores moved: " + ", ".join(moved) if moved else "no score moved")
        if fixed.broken is not None:
            number, data, why = fixed.broken
            after = len(fixed.dropped) - 1
            taken = (f"it and the {after} entr{'y' if after == 1 else 'ies'} after it are taken out; enter them"
                     if after else "it is taken out; enter it")
            dropped = "; ".join(entry_words(seats, d) for d in fixed.dropped)
            self.say(f"line {number} no longer holds ({entry_words(seats, data)}: {why}): {taken} again as "
                     f"{'they' if after else 'it'} should be: {dropped}")
        self.say("(undo puts the record back as it was before this fix)")
        self.say(self.status())

    def _check_command_word(self, text: str) -> None:
        """An entry beginning with a word that is no command, verb, tile or seat: a slip of the
        keyboard, answered with the command it is nearest to (``undi``: did you mean undo?)."""
        word = text.split()[0]
        if not word.isalpha() or len(word) == 1 or word.lower() in _WORDS or tile_readings(word, self.state.rules.tiles):
            return
        if word.lower() in (name.lower() for name in self.keeper.seats):
            return
        if word.lower() in (rule.key.lower() for rule in self.state.rules.turn if rule.action_type is HouseAction):
            return  # a house rule's own action, by its name
        meant = difflib.get_close_matches(word.lower(), _WORDS, n=1, cutoff=0.6)
        if meant:
            raise NotationError(f"{word!r} is not an entry: did you mean {meant[0]}? (help lists the entries)")

    def _default(self, due: Due) -> None:
        """An empty entry at a terminal takes the only action there is, when it needs nothing more."""
        only = self._only_action(due)
        if only is not None and self.interactive:
            self.take(only)

    def _only_action(self, due: Due) -> Action | None:
        if due.kind != "turn":
            return None
        legal = self.state.legal_actions()
        if len(legal) == 1 and not (type(legal[0]) is Draw and legal[0].tile is None or self._draws_unnamed(legal[0])):
            return legal[0]
        return None

    def _draws_unnamed(self, action: Action) -> bool:
        """Whether ``action`` is a house rule's own action that draws tiles not named yet (at a table
        the tiles drawn are named, as a draw's tile is)."""
        if type(action) is not HouseAction or action.drawn is not None:
            return False
        rule = next((r for r in self.state.rules.turn if r.action_type is HouseAction and r.key == action.rule), None)
        return isinstance(rule, HouseActionRule) and rule.draws

    def take(self, action: Action, agreed: bool = False, seat: int | None = None) -> None:
        """Enter ``action`` (asking which tile, for a draw picked from a list), or refuse it;
        ``agreed``: let stand although the rules refuse it (for ``seat``)."""
        if type(action) is Draw and action.tile is None:
            answer = self.ask("which tile was drawn? ")
            if answer is None:
                raise Refused("no tile named for the draw")
            if len(answer) > MAX_ENTRY_CHARS:
                raise NotationError(f"an entry is at most {MAX_ENTRY_CHARS:,} characters; this one has more")
            action = Draw(read_tile(answer, self.state.rules.tiles))
        if type(action) is HouseAction and self._draws_unnamed(action):
            answer = self.ask("which tiles were drawn? ")
            if answer is None:
                raise Refused(f"no tiles named for {action.rule}")
            if len(answer) > MAX_ENTRY_CHARS:
                raise NotationError(f"an entry is at most {MAX_ENTRY_CHARS:,} characters; this one has more")
            action = HouseAction(action.rule, action.tile, tuple(read_tiles(answer, self.state.rules.tiles)))
        hands = len(self.state.hand_results)
        broken = self.keeper.broken_rule(action, seat) if agreed else None
        try:
            if agreed:
                self.keeper.enter(action, agreed=True, seat=seat)
            else:
                self.keeper.enter(action)
        except IllegalAction as error:  # a deal's alternatives would be guesses at tiles: none offered
            traced = self.trace(action)
            raise Refused(str(error) + "".join(f"\n  {hint}" for hint in traced),
                          [] if isinstance(action, Deal) or agreed else self.nearest(action)) from None
        if broken is not None:
            self.say(f"let stand by the table's agreement, although {broken} (the record marks it agreed)")
        self.choices = []
        due = self.keeper.due()
        if due.kind != "over":
            if len(self.state.hand_results) > hands:
                self.say(self.keeper.sheet.text(self.state, last_only=True))
            self.say(self.status())

    # ------------------------------------------------------------------ reading a turn
    def turn_action(self, text: str, due: Due) -> Action:
        """The action a turn's entry states (read by :func:`contack_core.engine.notation.parse_action`);
        a tile alone, or a piece's point alone, lists where it may go (or is refused, saying why)."""
        try:
            action = parse_action(self.state, text)
        except Unfinished as unfinished:
            raise self.unfinished(unfinished) from None
        if type(action) is Draw and action.tile is None:
            if not any(type(legal) is Draw for legal in self.state.legal_actions()):
                raise Refused(self.state.rules.explain_forbidden(self.state, action))  # no draw is due: say so first
            raise Refused("name the tile drawn: draw 09-02-08")
        if type(action) is HouseAction and self._draws_unnamed(action):
            names = self.state.rules.tiles.names
            typed = action_to_string(self.state, action)
            raise Refused(f"name the tiles drawn: {typed} drawing {names[0]}")
        return action

    def unfinished(self, entry: Unfinished) -> Exception:
        """What to do with an entry naming only a tile or a piece's point: list where it may go (to
        pick by number), or refuse it with the nearest legal actions."""
        state = self.state
        if entry.tile is not None:
            tile = entry.tile
            fits = self.fits(tile)
            if entry.pick is not None or not fits:
                return Refused(self.why_nowhere(tile), [] if entry.pick is not None else
                               self.nearest(Play(tile, (0, 0)), same_tile=True))
            self.choices = list(fits)
            self.say(f"{state.rules.tiles.names[tile]} fits: "
                     + "; ".join(f"{n}. {self.cell_words(a)}" for n, a in enumerate(fits, 1)) + " (type its number)")
            return _Asked()
        origin = entry.origin
        assert origin is not None
        moves = [a for a in state.legal_actions() if type(a) is Move and a.origin == origin]
        if not moves:
            return Refused(f"no piece may move from {list(origin)} now", self.nearest(Move(origin, ())))
        self.choices = list(moves)
        self.say(f"from {list(origin)}: " + "; ".join(f"{n}. {self.words(a)}" for n, a in enumerate(moves, 1))
                 + " (type its number)")
        return _Asked()

    # ------------------------------------------------------------------ alternatives
    def fits(self, tile: int) -> list[Play]:
        return [a for a in self.state.legal_actions() if type(a) is Play and a.tile == tile]

    def why_nowhere(self, tile: int) -> str:
        """Why ``tile`` may go nowhere now: not the seat's to play, no play allowed, or no cell it fits."""
        state = self.state
        names = state.rules.tiles.names
        seat = state.current
        if not (any(tile in per_seat[seat] for per_seat in state.seat_zones.values())
                or any(tiles and tiles[-1] == tile and state.rules.zones[zone].face_up
                       for zone, tiles in state.zones.items())):
            where = state.locate(tile)
            pile = state.zones.get(where)
            if pile and state.rules.zones[where].face_up:
                return (f"{names[tile]} is not on top of its pile ({where}): only {names[pile[-1]]}, on top, may be "
                        f"played from it")
            return f"{names[tile]} is not {self.name(seat)}'s to play: it is in {where}"
        if Play not in {type(a) for a in state.legal_actions()}:
            return f"{self.name(seat)} may not play now: {self.name(seat)} {state.rules.still_possible(state)}"
        return f"{names[tile]} fits nowhere now"

    def nearest(self, action: Action, same_tile: bool = False) -> list[Action]:
        """The legal actions nearest to ``action`` (as the audit ranks a mistyped line), at most three."""
        state = self.state
        typed = action_to_record(state, action)
        candidates = [c for c in next_events(state, typed) if c.action is not None]
        if same_tile and "tile" in typed:
            candidates = [c for c in candidates if c.line.get("tile") == typed["tile"]] or candidates
        if isinstance(action, Play) and same_tile:
            typed.pop("cell", None)
        chosen: list[Action] = []
        for candidate in ranked(candidates, typed):
            near = candidate.action
            if type(near) is Draw:  # one draw stands for all: which tile comes is not the person's choice
                near = Draw()
            if type(near) is HouseAction:  # the tiles drawn are not the person's choice either
                near = HouseAction(near.rule, near.tile)
            if near is not None and near not in chosen:
                chosen.append(near)
            if len(chosen) == 3:
                break
        return chosen

    # ------------------------------------------------------------------ words
    def who(self, seat: int | None) -> str:
        """A seat as the status and the narration show it: ``bob (seat 1)``."""
        return "nobody" if seat is None else f"{self.keeper.seats[seat]} ({self.state.rules.term('seat')} {seat})"

    def name(self, seat: int) -> str:
        """A seat as a refusal names it: the player, ``bob``."""
        return self.state.who(seat)

    def words(self, action: Action) -> str:
        """An action as the lists show it."""
        state = self.state
        names = state.rules.tiles.names
        rules = state.rules
        if type(action) is Play:
            return self.cell_words(action, with_tile=True)
        if type(action) is Draw:
            return f"draw {names[action.tile]}" if action.tile is not None else "draw (then name the tile drawn)"
        if type(action) is Discard:
            return f"{rules.term('discards')} {names[action.tile]}" + (f" on {action.zone}" if action.zone else "")
        if type(action) is Pass:
            return "pass"
        if type(action) is HouseAction:
            return action_to_string(state, action) + (" (then name the tiles drawn)" if self._draws_unnamed(action)
                                                      else "")
        if type(action) is Move:
            board = state.figure
            piece = board.tile_at.get(action.origin)
            what = piece_name(rules, board, piece) + " " if isinstance(board, PieceBoard) and piece is not None else ""
            return what + " -> ".join(str(list(p)) for p in (action.origin, *action.path))
        return str(action)

    def cell_words(self, play: Play, with_tile: bool = False) -> str:
        """``[1, 0], right of 06-02-05: 10 points`` (the points the play would score now)."""
        state = self.state
        names = state.rules.tiles.names
        figure = figure_of(state.figure)  # a play lays a tile on the lattice's figure
        beside = []
        for neighbour in figure.neighbours(play.cell):
            other = figure.tile_at.get(neighbour)
            if other is not None:
                offset = (play.cell[0] - neighbour[0], play.cell[1] - neighbour[1])
                side = next(name for name, step in SIDES.items() if step == offset)
                beside.append(f"{side}{' of' if side in ('left', 'right') else ''} {names[other]}")
        trial = state.clone()
        played = trial.apply(play)
        points = played.points if isinstance(played, Played) else 0
        head = f"{names[play.tile]} on " if with_tile else ""
        where = f" ({', '.join(beside)})" if beside else ""
        return f"{head}{list(play.cell)}{where}: {points} {state.rules.term('points')}"

    def line_words(self, line: dict[str, Any]) -> str:
        return entry_words(self.keeper.seats, line)

    def legal_words(self) -> str:
        kinds = []
        for action in self.state.legal_actions():
            word = action.rule if type(action) is HouseAction else \
                {Play: "play", Draw: "draw", Discard: "discard", Pass: "pass", Move: "move"}[type(action)]
            if word not in kinds:
                kinds.append(word)
        return " or ".join(kinds) or "nothing"

    def prompt(self, due: Due) -> str:
        names = self.keeper.seats
        if due.kind == "deal":
            if due.seat is not None:
                return f"deal to {names[due.seat]} ({due.count} tiles)> "
            return f"deal onto {due.zone} ({due.count} tiles, bottom to top)> "
        if due.kind == "open":
            return f"tile turned up from {due.zone} for {list(due.cell or ())}> "
        assert due.seat is not None
        only = self._only_action(due)
        hint = f" [Enter: {self.words(only)}]" if only is not None and self.interactive else ""
        return f"{names[due.seat]}{hint}> "

    def status(self) -> str:
        """The running scores, the tiles held, the piles, and whose turn it is."""
        state = self.state
        rules = state.rules
        counter = rules.match.counter
        running = state.running_scores()
        held = state.tiles_held()
        names = rules.tiles.names
        seats = []
        for seat, name in enumerate(self.keeper.seats):
            part = f"{name} {running[seat]}"
            if state.seat_zones:
                part += f" ({held[seat]} {rules.term('held')})"
            elif (pieces := state.figure.pieces_on_board(seat)) is not None:
                part += f" ({pieces} {rules.term('tiles')})"
            seats.append(part)
        piles = []
        for zone, tiles in state.zones.items():
            if rules.zones[zone].face_up and tiles:
                piles.append(f"{zone} {names[tiles[-1]]} ({len(tiles)})")
            else:
                piles.append(f"{zone} {len(tiles)}")
        head = (f"{rules.term('hand')} {state.hand_number} | {rules.term('score')}: " + ", ".join(seats)
                + (" | " + ", ".join(piles) if piles else ""))
        due = self.keeper.due()
        if due.kind == "over":  # who won, beside the final scores (the page's status stays on it)
            teams = rules.match.teams(state.seat_count)
            return head + "\n" + winners_to_string(rules, state.winners(), state.totals[counter], teams, self.who)
        if due.kind != "turn" or due.seat is None:
            return head
        seat = due.seat
        mine = [f"{zone}: {' '.join(names[t] for t in per_seat[seat]) or '-'}"
                for zone, per_seat in state.seat_zones.items()]
        return head + f"\n{self.who(seat)} to {self.legal_words()}" + (f"; {'; '.join(mine)}" if mine else "")

    def picture(self) -> str:
        """The figure or the board as it lies now: drawn as the replay draws it where the table was
        given its drawing, else as the position draws itself (as in ``str(state)``)."""
        state = self.state
        rules = state.rules
        drawn = self.draw(state) if self.draw is not None else None
        return "\n".join(drawn or state.figure.plain_lines(rules.tiles.names, rules.term("tiles"), rules.colour_term))

    def listing(self, due: Due, about: str) -> str:
        """What ``?`` shows: the legal moves now, numbered (or a tile's cells, or a piece's moves)."""
        state = self.state
        names = state.rules.tiles.names
        if due.kind == "deal":
            where = self.who(due.seat) if due.seat is not None else due.zone
            unseen = sorted(names[t] for t in self._pile_of_deal())
            return f"{due.count} tiles are dealt to {where} now; the tiles not seen yet: {' '.join(unseen)}"
        if due.kind == "open":
            openers = sorted(names[t] for t in state.zones.get(due.zone or "", []))
            return f"the tile turned up from {due.zone} opens the figure on {list(due.cell or ())}: one of " \
                   f"{' '.join(openers)}"
        legal = state.legal_actions()
        if about:
            points = read_points(about)
            if points and len(points) == 1:
                legal = [a for a in legal if type(a) is Move and a.origin == points[0]]
            else:
                tile = read_tile(about, state.rules.tiles)
                legal = [a for a in legal if isinstance(a, Play | Discard | Draw | HouseAction) and a.tile == tile]
        self.choices = list(legal)
        if not legal:
            return "nothing of that is legal now; ? alone lists what is"
        return "\n".join(f"{n:>3}. {self.words(a)}" for n, a in enumerate(legal, 1))

    def _pile_of_deal(self) -> list[int]:
        outcome = self.state.clone().sample_chance(random.Random(0))
        tiles = outcome.tiles if isinstance(outcome, Deal) else ()
        return list(self.state.zones.get(self.state.locate(tiles[0]), [])) if tiles else []


def entry_words(seats: Sequence[str], line: dict[str, Any]) -> str:
    """A record line as the person typed it, in short: ``bob 07-08-09 on [1, 0]``."""
    kind = line.get("event")
    if kind in ("hand", "hand_end", "game_end", "chips"):
        return str(kind).replace("_", " ")
    who = seats[line["seat"]] if isinstance(line.get("seat"), int) else line.get("zone", "")
    detail: dict[str, Callable[[], str]] = {
              "play": lambda: f"{line['tile']} on {line['cell']}", "draw": lambda: f"draws {line['tile']}",
              "discard": lambda: f"lays aside {line['tile']}", "pass": lambda: "passes",
              "deal": lambda: f"dealt {' '.join(line['tiles'])}",
              "move": lambda: " -> ".join(str(p) for p in [line["from"], *line["path"]]),
              "house": lambda: " ".join([line["rule"], *([line["tile"]] if "tile" in line else []),
                                         *(["drawing", *line["drawn"]] if line.get("drawn") else [])])}
    return f"{who} {detail[kind]()}" if kind in detail else str(line)


class _Asked(Exception):
    """Not a refusal: the entry was a question, answered with a numbered list (the next entry picks)."""




# ---------------------------------------------------------------------- the command
def keep_command(ruleset: str | None, seats: str | None, record: Path | None, resume: Path | None,
                 options: dict[str, str], entries: Path | None, echo: Callable[[str], None],
                 fail: Callable[..., NoReturn], draw: Callable[[GameState], list[str] | None] | None = None) -> int:
    """``contack keep``: start or resume a record, then keep the game from the terminal, a pipe or a file.
    The entries' file is opened first, so a file that cannot be read leaves no new record behind."""
    try:
        source: TextIO = sys.stdin if entries is None else entries.open(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {entries}: {error.strerror or error}", 2)
    try:
        keeper = open_keeper(ruleset, seats, record, resume, options, echo, fail)
        return run_table(keeper, source, entries is None and sys.stdin.isatty(), echo, draw)
    finally:
        if source is not sys.stdin:
            source.close()


def open_keeper(ruleset: str | None, seats: str | None, record: Path | None, resume: Path | None,
                options: dict[str, str], echo: Callable[[str], None], fail: Callable[..., NoReturn]) -> Keeper:
    """Start the record ``record`` (a new game of ``ruleset`` for ``seats``), or carry on ``resume``,
    saying so; ``fail`` with the reason when neither can be."""
    if resume is not None:
        if ruleset is not None or seats is not None or record is not None or options:
            fail("--resume FILE carries on a record as its header says: give no ruleset, --seats, --record "
                 "or --option with it", 2)
        try:
            keeper = Keeper.resume(resume, echo)
        except KeeperError as error:
            fail(str(error), error.code)
        echo(f"carrying on {resume}: {keeper.rules.title}, seats {', '.join(keeper.seats)}")
        last = keeper.last_entry()
        echo("the last entry: " + ("; ".join(entry_words(keeper.seats, line) for line in last) if last else
                                   "none yet"))
    else:
        if ruleset is None or seats is None:
            fail("give a ruleset and --seats NAME,NAME,... (or --resume FILE)", 2)
        try:
            rules = load_rules(ruleset, options)
        except RulesetError as error:
            fail(str(error))
        names = [name.strip() for name in seats.split(",")]
        path = record or Path(f"{rules.id}-{datetime.now():%Y%m%d-%H%M%S}.jsonl")
        try:
            keeper = Keeper.start(rules, names, path, echo)
        except KeeperError as error:
            fail(str(error), error.code)
        echo(f"keeping {rules.title} for {', '.join(names)}; the record is {path} (type help for the entries)")
    return keeper


def run_table(keeper: Keeper, source: TextIO, interactive: bool, echo: Callable[[str], None],
              draw: Callable[[GameState], list[str] | None] | None = None) -> int:
    """Keep the game of ``keeper`` from ``source`` (the terminal when ``interactive``, a pipe or a
    file); the record let go at the end."""
    try:
        return Table(keeper, _reader(source, interactive, echo), echo, interactive, draw).run()
    finally:
        keeper.close()


def _reader(source: TextIO, interactive: bool, echo: Callable[[str], None]) -> Callable[[str], str | None]:
    """Reading an entry: at a terminal with line editing, else a line of the pipe or file, shown after its prompt."""
    if interactive:
        try:
            import readline  # noqa: F401 - gives input() line editing and history
        except ImportError:
            pass

        def ask(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                echo("")
                return None

        return ask

    def read(prompt: str) -> str | None:
        while True:
            line = _bounded_line(source)
            if not line:
                return None
            if line.strip() and not line.lstrip().startswith("# ") and line.strip() != "#":
                echo(prompt + line.strip())
                return line
    return read


def _bounded_line(source: TextIO) -> str:
    """The next line of ``source`` (\"\" at its end), read in bounded pieces: a line longer than an
    entry may be comes back cut to ``MAX_ENTRY_CHARS + 1`` characters (so it is refused as too
    long), the rest of it read and dropped a piece at a time, never held whole."""
    line = source.readline(MAX_ENTRY_CHARS + 1)
    if len(line) <= MAX_ENTRY_CHARS or line.endswith("\n"):
        return line
    while (rest := source.readline(1 << 16)) and not rest.endswith("\n"):
        pass
    return line
