"""The replay in a terminal: the position as text, and an interactive stepper over it.

:func:`position_text` is what ``contack replay RECORD --to N`` prints. :func:`run_stepper`
moves through the timeline by keys; it reads keys from any iterator, so it is driven by
:func:`tty_keys` at a terminal and by a list of keys in tests.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from contack_core.engine.state import GameState
from contack_core.language.printable import printable
from contack_core.replay.boards import board_kind
from contack_core.replay.timeline import Timeline
from contack_core.replay.words import viewer_words

CLEAR = "\x1b[2J\x1b[H"


def position_text(timeline: Timeline, index: int) -> str:
    """The position after event ``index`` (0 = before the first event), as plain text."""
    rules = timeline.rules
    words = viewer_words(rules.term("language"))
    step = timeline.steps[index]
    last = len(timeline.steps) - 1
    hand_word = rules.term("hand").capitalize()
    where = f"{words['event']} {index} {words['of']} {last} ({words['line']} {step.line}) · {hand_word} {step.hand}"
    if step.to_act is not None:
        where += f" · {words['to_act']}: {timeline.who(step.to_act)}"
    lines = [f"{timeline.title} · {timeline.path.name}", where, step.text]
    if step.error:
        lines.append(f"!! {words['unsound']}, {words['line']} {step.line}: {step.error}")
    if step.board is not None and timeline.board_kind is not None:
        count = len(step.board.tiles)
        lines.append(f"{rules.term('tiles')} ({count}):" if count else f"{rules.term('tiles')}: -")
        lines.extend(timeline.board_kind.describe(step.board, timeline.colour_words()))
    if timeline.holds_tiles:
        lines.append(f"{words['held']}:")
        for seat, tiles in enumerate(step.hands):
            lines.append(f"  {timeline.who(seat)}: {' '.join(tiles) or '-'} ({len(tiles)})")
    if step.piles:  # under the tiles held, where there are any
        lines.append("  " * timeline.holds_tiles + " · ".join(f"{name}: {size}" for name, size in step.piles.items()))
        for name, tiles in step.stacks.items():  # a face-up pile shown as it lies, its top (the tile in play) last
            lines.append(f"  {name}: {' '.join(tiles[:-1])}{' ' if len(tiles) > 1 else ''}[{tiles[-1]}]")
    total = rules.term("total").capitalize() + ("" if step.finished else f" ({words['so_far']})")
    lines.append(f"{total}: " + " · ".join(f"{timeline.who(s)} {v}" for s, v in enumerate(step.scores)))
    for number, scores in enumerate(step.hand_scores, start=1):
        lines.append(f"  {hand_word} {number}: " + ", ".join(f"{v:+d}" for v in scores))
    return "\n".join(lines) + "\n"


def state_picture(state: GameState) -> list[str] | None:
    """The figure or board of a game in progress drawn as the replay draws it (a map, then each
    tile), or None where replays cannot draw this board: what the score keeper's ``board`` shows."""
    rules = state.rules
    kind = board_kind(rules)
    if kind is None:
        return None
    playing = not state.is_chance_node() and not state.is_over()
    view = kind.read(rules, state.figure, playing)
    colours = {colour: rules.colour_term(colour) for colour in rules.tiles.colours}
    count = len(view.tiles)
    head = f"{rules.term('tiles')} ({count}):" if count else f"{rules.term('tiles')}: -"
    return [head, *kind.describe(view, colours)]



def game_text(timeline: Timeline) -> str:
    """Every event, one per line, then the last position (the stepper without a terminal)."""
    events = [f"{step.index:>4}  {step.text}" for step in timeline.steps[1:]]
    return "\n".join(events) + ("\n" if events else "") + "\n" + position_text(timeline, len(timeline.steps) - 1)


def next_position(timeline: Timeline, index: int, key: str) -> int | None:
    """Where ``key`` moves the stepper from ``index``; None to quit (unknown keys stay put)."""
    last = len(timeline.steps) - 1
    starts = timeline.hand_starts()
    hand = timeline.steps[index].hand
    if key in ("q", "Q", "\x03", "\x04"):
        return None
    if key in ("n", " ", "right", "\r", "\n"):
        return min(last, index + 1)
    if key in ("p", "b", "left"):
        return max(0, index - 1)
    if key in ("]", "pagedown"):
        return starts.get(hand + 1, last)
    if key in ("[", "pageup"):
        return starts.get(hand - 1, 0) if index == starts.get(hand) else starts.get(hand, 0)
    if key in ("g", "home"):
        return 0
    if key in ("G", "end"):
        return last
    if key.isdigit() and int(key) in starts:
        return starts[int(key)]
    return index


def run_stepper(timeline: Timeline, keys: Iterator[str], write: Callable[[str], None], start: int = 0) -> int:
    """Show the position, move by each key, until ``q`` or the keys run out; returns the last index.
    ``write`` sends text to the terminal as it is: the stepper escapes what the record brings."""
    words = viewer_words(timeline.rules.term("language"))
    index = start
    while True:
        shown = printable(position_text(timeline, index) + "\n" + words["stepper_keys"] + "\n", lines=True)
        write(CLEAR + shown)  # the one escape sequence sent is the stepper's own
        key = next(keys, None)
        moved = None if key is None else next_position(timeline, index, key)
        if moved is None:
            return index
        index = moved


_ESCAPES = {"[C": "right", "[D": "left", "[H": "home", "[F": "end", "[5~": "pageup", "[6~": "pagedown",
            "OC": "right", "OD": "left", "OH": "home", "OF": "end"}


def tty_keys(stream: TextIO = sys.stdin) -> Iterator[str]:
    """Single key presses from a terminal (arrows and paging keys by name), without echo."""
    import termios
    import tty

    descriptor = stream.fileno()
    saved = termios.tcgetattr(descriptor)
    try:
        tty.setcbreak(descriptor)
        while True:
            char = os.read(descriptor, 1).decode(errors="replace")
            if not char:
                return
            if char != "\x1b":
                yield char
                continue
            sequence = os.read(descriptor, 2).decode(errors="replace")
            if sequence in ("[5", "[6"):
                sequence += os.read(descriptor, 1).decode(errors="replace")
            yield _ESCAPES.get(sequence, "")
    finally:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)
