"""``contack keep --scores-only``: a game kept as one line per hand, the figures checked as typed.

The quick mode for a table that wants the score sheet and not the play: each hand's results
are typed once (``35 -20 10``, ``alice 35, bob -20, carol 10``, or a points game's
``55/2 0/4 15/1``: points made and tiles held), checked against what the rules allow
(:mod:`contack_core.records.scores`), and written to the record at once, flushed and synced,
as ``hand`` and ``hand_end`` lines, and ``game_end`` once the match is over. The record's
header says ``"scores_only": true``, so the audit checks it as such and says what it could not.
One writer a record and ``--resume`` hold as for the full keeper.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from contack_core.engine.actions import IllegalAction
from contack_core.engine.rules import Rules
from contack_core.records.format import header_for
from contack_core.records.keeper import STOP_WORDS, KeeperError, check_sound, open_held, rules_of
from contack_core.records.lock import release
from contack_core.records.scores import Arithmetic, HandFigures, ScoresGame, ScoresOnlyUnsupported, figures_of, \
    hand_line, read_hand

HELP = """\
Type each hand's results as the hand ends; each is checked before it is written.
  35 -20 10            each player's score (or chips) for the hand, in seat order
  alice 35, bob -20    the same by name (every player's figure, in any order)
  55/2 0/4 15/1        a points game: each player's points made and tiles still held (the score is worked out)
  undo                 take back the last hand
  sheet                the hands so far and the totals;  help: this text
  end                  the game ends here (where the ruleset lets a game end early, by time)
  quit                 stop here (the record is kept; contack keep --resume FILE carries it on)"""


def is_scores_only(path: Path) -> bool:
    """Whether the record at ``path`` says it is kept as scores only (False if it cannot be read)."""
    try:
        with path.open("rb") as stream:
            header = json.loads(stream.readline(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("scores_only") is True


class ScoresKeeper:
    """One game kept as hands' results, written to its record as it goes."""

    def __init__(self, rules: Rules, seats: Sequence[str], path: Path, stream: BinaryIO) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.path = path
        self.stream = stream
        self.arithmetic = Arithmetic(rules, len(self.seats))
        self.game = ScoresGame(self.arithmetic, self.seats)
        #: Where each hand's lines begin in the file (what undo cuts back to), and where the file ends.
        self.starts: list[int] = []
        self.size = 0

    @classmethod
    def start(cls, rules: Rules, seats: Sequence[str], path: Path) -> ScoresKeeper:
        low, high = rules.players
        if not low <= len(seats) <= high:
            raise KeeperError(f"{rules.id} is {rules.for_players()}; --seats names {len(seats)}")
        if len(set(seats)) != len(seats) or not all(name.strip() for name in seats):
            raise KeeperError(f"--seats names each seat once, none blank: {', '.join(seats)}", 2)
        try:
            Arithmetic(rules, len(seats))
        except ScoresOnlyUnsupported as error:
            raise KeeperError(str(error), 2) from None
        stream = open_held(path, new=True)
        keeper = cls(rules, seats, path, stream)
        header = {"record": "contack-record/1", **header_for(rules, list(seats), None, None, path), "scores_only": True}
        keeper._write([header])
        return keeper

    @classmethod
    def resume(cls, path: Path) -> ScoresKeeper:
        stream = open_held(path, new=False)
        try:
            check_sound(path)
            header = next(json.loads(raw) for raw in path.read_bytes().split(b"\n") if raw.strip())
            keeper = cls(rules_of(header, path), header["seats"], path, stream)
            keeper.size = stream.seek(0, os.SEEK_END)
            offset = 0
            for raw in path.read_bytes().split(b"\n"):
                data = json.loads(raw) if raw.strip() else {}
                if data.get("event") == "hand":
                    keeper.starts.append(offset)
                elif data.get("event") == "hand_end":
                    keeper.game.add(figures_of(data))
                elif data.get("event") == "game_end":
                    keeper.game.ended_early = True
                offset += len(raw) + 1
            return keeper
        except BaseException:
            release(stream, path)
            raise

    # ------------------------------------------------------------------ entries
    def enter(self, hand: HandFigures) -> HandFigures:
        """Check and write one hand (and the game's end, once the match is over): the hand with its scores."""
        number = len(self.game.hands) + 1
        hand = self.game.add(hand)
        lines: list[dict[str, Any]] = [{"event": "hand", "number": number}, hand_line(number, hand)]
        if self.game.is_over():
            lines.append(self.game.game_end_line())
        self.starts.append(self.size)
        self._write(lines)
        return hand

    def end(self) -> None:
        """The game ends here, before its last hand (where the ruleset lets a game end early)."""
        if not self.rules.match.final_endings:
            raise IllegalAction(f"a game of {self.rules.id} ends after its hands ({self.arithmetic.hands_words()}); "
                                f"it has no early end")
        if not self.game.hands:
            raise IllegalAction("no hand has been played yet")
        if self.game.is_over():
            raise IllegalAction("the game is over already")
        self.game.ended_early = True
        self._write([self.game.game_end_line()])

    def undo(self) -> int | None:
        """Take back the last hand (and the game's end): its number, or None."""
        if not self.starts:
            return None
        start = self.starts.pop()
        self.stream.seek(start)
        self.stream.truncate(start)
        self._sync()
        hands = self.game.hands[:-1]
        self.game = ScoresGame(self.arithmetic, self.seats)
        for hand in hands:
            self.game.add(hand)
        return len(hands) + 1

    def close(self) -> None:
        release(self.stream, self.path)

    def _write(self, lines: list[dict[str, Any]]) -> None:
        self.stream.write("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8"))
        self._sync()

    def _sync(self) -> None:
        self.stream.flush()
        os.fsync(self.stream.fileno())
        self.size = self.stream.tell()

    # ------------------------------------------------------------------ words
    def sheet(self) -> str:
        """The hands so far, a column per player, and the totals."""
        width = max(7, *(len(name) + 1 for name in self.seats))

        def row(label: str, cells: Sequence[object]) -> str:
            return f"{label:<10}" + "".join(f"{str(c):>{width}}" for c in cells).rstrip()

        lines = [row("", self.seats)]
        for number, hand in enumerate(self.game.hands, 1):
            lines.append(row(f"{self.rules.term('hand')} {number}", hand.scores))
        lines.append(row(self.rules.term("total"), self.game.totals()))
        if self.game.is_over():
            winners = self.game.state.winners()
            lines.append("the game is over: " + (" and ".join(self.seats[s] for s in winners) + (
                " win" if len(winners) > 1 else " wins") if winners else "nobody wins"))
        return "\n".join(lines)


def scores_entry(keeper: ScoresKeeper, text: str) -> list[str]:
    """Take one entry of a scores-only game (a hand's figures, ``undo``, ``end``, ``sheet``,
    ``help``), as the terminal and the web table both do: what to tell the table. Raises
    ValueError or IllegalAction, changing nothing, for an entry refused."""
    lowered = text.strip().lower()
    if lowered in ("help", "h", "?"):
        return [HELP]
    if lowered in ("sheet", "scores", "s"):
        return [keeper.sheet()]
    if lowered in ("undo", "u"):
        number = keeper.undo()
        return ["nothing to undo" if number is None else f"taken back: hand {number}"]
    if lowered == "end":
        keeper.end()
        return []
    if not lowered:
        return []
    hand = keeper.enter(read_hand(text, keeper.seats))
    totals = keeper.game.totals()
    return [f"{keeper.rules.term('hand')} {len(keeper.game.hands)}: "
            + ", ".join(f"{name} {score:+d}" for name, score in zip(keeper.seats, hand.scores))
            + " | total: " + ", ".join(f"{name} {total}" for name, total in zip(keeper.seats, totals))]


def keep_scores(rules_or_path: Rules | Path, seats: Sequence[str] | None, record: Path | None,
                ask: Callable[[str], str | None], say: Callable[[str], None], interactive: bool) -> int:
    """Keep a game as scores only: ``rules_or_path`` is the ruleset of a new record at ``record``, or a
    record to carry on. Exit status 0, or 1 when hands read from a pipe or file were refused."""
    if isinstance(rules_or_path, Path):
        keeper = ScoresKeeper.resume(rules_or_path)
        say(f"carrying on {keeper.path} (scores only): {keeper.rules.title}, seats {', '.join(keeper.seats)}; "
            f"{len(keeper.game.hands)} hand{'s' if len(keeper.game.hands) != 1 else ''} so far")
    else:
        assert seats is not None and record is not None
        keeper = ScoresKeeper.start(rules_or_path, seats, record)
        say(f"keeping the scores only of {keeper.rules.title} for {', '.join(seats)}; the record is {record} "
            f"(type help for the entries)")
        say("checked as you type: " + "; ".join(keeper.arithmetic.checked()))
    refused = 0
    try:
        while True:
            if keeper.game.is_over():
                say(keeper.sheet())
                say(f"its record is {keeper.path}")
                break
            try:
                text = ask(f"{keeper.rules.term('hand')} {len(keeper.game.hands) + 1}> ")
            except KeyboardInterrupt:
                text = None
            if text is None or text.strip().lower() in STOP_WORDS:
                say(f"stopped; the record so far is {keeper.path} (carry it on: contack keep --resume {keeper.path})")
                break
            try:
                for line in scores_entry(keeper, text):
                    say(line)
            except (ValueError, IllegalAction) as error:
                refused += 1
                say(f"refused: {error}")
    finally:
        keeper.close()
    if refused and not interactive:
        say(f"{refused} entr{'y was' if refused == 1 else 'ies were'} refused")
        return 1
    return 0
