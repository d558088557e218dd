"""One kept game as the web table shows it: entries taken through the terminal keeper, views as HTML.

Why through :class:`~contack_core.records.table.Table`: the web table must read, check, refuse
and suggest exactly as the terminal does, so every tap becomes the text a person would type
(``09-02-08 1,0``, ``draw 5-6-7``, ``pass``, ``6,0 6,1``) and is handed to the same reader; the
keeper under it writes and syncs the record before the entry is answered as accepted. Nothing
here knows a rule: what is legal comes from the state's legal actions, words from the ruleset.

Every value a view carries into the page passes :func:`~contack_core.replay.drawing.markup`.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from contack_core.engine.actions import Action, Discard, Draw, HouseAction, IllegalAction, Move, Pass, Play
from contack_core.engine.notation import NotationError, action_to_string, point_to_string
from contack_core.engine.rules import Rules
from contack_core.engine.information import ZoneView
from contack_core.engine.state import GameState
from contack_core.records.keeper import STOP_WORDS, Keeper
from contack_core.records.table import Refused, Table, _Asked, entry_words
from contack_core.replay.boards import board_kind, legend_markup
from contack_core.replay.drawing import markup
from contack_core.replay.svg import MARGIN, layered

#: How many lines of what happened the page keeps in view (the record keeps everything).
LOG_LINES = 12
#: How many of the last entries the corrections list offers to fix (the text box takes any line).
ENTRIES_LISTED = 12


class KeptGame:
    """What every game a web table serves shares: ``version`` counts the changes to the record (a
    view carries it, so a page shows a later view only, and the live stream sends one view per
    change), ``log`` what was said of them, and entries, which come from several requests at once,
    reach the keeper one at a time (``lock``)."""

    def __init__(self) -> None:
        self.version = 0
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def _recorded(self, said: list[str]) -> None:
        """The record changed (the lock held): a new version, told to every waiting stream."""
        self.version += 1
        self.log.extend(said)
        self.changed.notify_all()

    @staticmethod
    def stop_refused(text: str, record: Path) -> str | None:
        """Why ``quit`` (or ``q``, ``exit``) typed into the page stops nothing: the web table is served until
        Ctrl-C where it was started, and a page (one of several phones) may not stop it for the others."""
        if text.strip().lower() not in STOP_WORDS:
            return None
        return (f"{text.strip()!r} stops the keeper at a terminal only: the web table is stopped with Ctrl-C where "
                f"it was started (the record is kept; contack keep --resume {record} --web carries it on)")

    def wait(self, version: int, timeout: float) -> int:
        """Block until the record changes past ``version`` (or ``timeout`` seconds): the version now."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version


class WebGame(KeptGame):
    """The game a web table keeps: one :class:`Table` over one :class:`Keeper`, taken in turn."""

    def __init__(self, keeper: Keeper) -> None:
        super().__init__()
        self.keeper = keeper
        self._said: list[str] = []
        keeper.say = self._said.append
        self.table = Table(keeper, lambda prompt: None, self._said.append, interactive=False)
        last = keeper.last_entry()
        if last:  # a record carried on: where it stood
            self.log.append("the last entry: " + "; ".join(entry_words(keeper.seats, line) for line in last))

    @property
    def state(self) -> GameState:
        return self.keeper.state

    @property
    def rules(self) -> Rules:
        return self.keeper.rules

    @property
    def seats(self) -> list[str]:
        return list(self.keeper.seats)

    # ------------------------------------------------------------------ entries
    def enter(self, text: str) -> dict[str, Any]:
        """Take one entry as the terminal would: the answer (accepted or refused, what was said,
        the numbered alternatives as entries to tap)."""
        with self.lock:
            revision = self.keeper.revision
            self._said.clear()  # a number typed next picks from the list the last entry showed (kept)
            error: str | None = None
            listed = False
            text = text.strip()
            try:
                if (stop := self.stop_refused(text, self.keeper.path)) is not None:
                    raise Refused(stop)
                self.table.handle(text, self.keeper.due())
            except _Asked:
                listed = True
            except (NotationError, Refused, IllegalAction) as refusal:
                error = str(refusal)
                self.table.choices = list(refusal.alternatives) if isinstance(refusal, Refused) else []
            changed = self.keeper.revision != revision  # an entry, an undo or a fix was written
            status = self.table.status()
            said = [line for line in self._said if line and line != status]
            if changed:
                self._recorded(said)
            choices = [{"label": self.table.words(a), "entry": action_to_string(self.state, a) if not (
                type(a) is Draw and a.tile is None) else "", "draw": type(a) is Draw and a.tile is None}
                for a in (self.table.choices if listed or error else [])]
            return {"accepted": changed, "entry": text, "refused": error, "listed": listed, "messages": said,
                    "choices": choices, "version": self.version}

    # ------------------------------------------------------------------ views
    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """What the page shows now, as seen by seat ``viewer`` (None: the score keeper, who saw every deal)."""
        with self.lock:
            return _View(self, viewer).data()


class _View:
    """One rendering of the game: HTML fragments (every value escaped) and the data taps need."""

    def __init__(self, game: WebGame, viewer: int | None) -> None:
        self.game = game
        self.keeper = game.keeper
        self.state = game.keeper.state
        self.rules = self.state.rules
        self.names = self.rules.tiles.names
        self.viewer = viewer
        self.due = game.keeper.due()
        self.legal: list[Action] = self.state.legal_actions() if self.due.kind == "turn" else []

    def data(self) -> dict[str, Any]:
        due = self.due
        seats = self.keeper.seats
        return {
            "version": self.game.version,
            "title": self.rules.title,
            "due": due.kind,
            "count": due.count,
            "toAct": due.seat,
            "status": "".join(f"<div>{markup(line)}</div>" for line in self.game.table.status().split("\n")),
            "board": self.board(),
            "seats": self.seats(),
            "buttons": self.buttons(),
            "picker": self.picker(),
            "sheet": self.sheet(),
            "log": "".join(f"<li>{markup(line)}</li>" for line in reversed(self.game.log)),
            "entries": self.entries(),
            "fits": self.fits(),
            "moves": self.moves(),
            "seatNames": list(seats),
            "viewer": self.viewer,
        }

    # ------------------------------------------------------------------ the board
    def board(self) -> str:
        """The board drawn as the replay draws it (open cells tappable by their ``data-cell``)."""
        state, rules = self.state, self.rules
        kind = board_kind(rules)
        if kind is None:
            return f"<p>{markup('this board cannot be drawn yet: ' + rules.board.name)}</p>"
        playing = not state.is_chance_node() and not state.is_over()
        view = kind.read(rules, state.figure, playing)
        picture = kind.paint(view, {colour: rules.colour_term(colour) for colour in rules.tiles.colours})
        box = picture.bounds.padded(MARGIN) if picture.elements else None
        view_box = box.view_box() if box is not None else "-60 -80 120 100"
        layers = "".join(f'<g class="layer-{n}">{"".join(e.markup for e in layer)}</g>'
                         for n, layer in enumerate(layered(picture.elements)))
        legend = legend_markup(view, view.swatches, {colour: rules.colour_term(colour) for colour in view.swatches})
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}" role="img" '
                f'aria-label="{markup(rules.title)}">{layers}</svg>'
                + (f'<div class="legend">{legend}</div>' if legend else ""))

    # ------------------------------------------------------------------ the seats
    def seats(self) -> str:
        state, rules = self.state, self.rules
        running = state.running_scores()
        seen = state.observation(self.viewer) if self.viewer is not None else None
        playable = {a.tile for a in self.legal
                    if isinstance(a, (Play, Discard)) or isinstance(a, HouseAction) and a.tile is not None}
        parts = []
        for seat, name in enumerate(self.keeper.seats):
            acting = self.due.kind == "turn" and self.due.seat == seat
            zones = []
            for zone, per_seat in state.seat_zones.items():
                tiles: Sequence[int | None] = per_seat[seat]
                if seen is not None:
                    tiles = cast(tuple[ZoneView, ...], seen[zone])[seat]  # a per-seat zone: a view for each seat
                zones.append(f'<div class="zone"><span class="zone-name">{markup(zone)}</span> '
                             + ("".join(self.tile_button(t, acting and t in playable) for t in tiles) or "-")
                             + "</div>")
            extra = ""
            if (pieces := state.figure.pieces_on_board(seat)) is not None:
                extra = f'<div class="zone">{markup(pieces)} {markup(rules.term("tiles"))}</div>'
            parts.append(f'<section class="seat{" acting" if acting else ""}" data-seat="{seat}">'
                         f'<h3>{markup(name)} <span class="score">{markup(running[seat])}</span></h3>'
                         f'{"".join(zones)}{extra}</section>')
        piles = []
        for zone, tiles in state.zones.items():
            top = ""
            if rules.zones[zone].face_up and tiles:
                top = " " + self.tile_button(tiles[-1], tiles[-1] in playable)
            piles.append(f'<div class="pile">{markup(zone)}: {markup(len(tiles))}{top}</div>')
        return "".join(parts) + (f'<section class="piles">{"".join(piles)}</section>' if piles else "")

    def tile_button(self, tile: int | None, playable: bool) -> str:
        if tile is None:
            return '<span class="tile hidden">?</span>'
        name = markup(self.names[tile])
        if not playable:
            return f'<span class="tile">{name}</span>'
        return f'<button type="button" class="tile playable" data-tile="{name}">{name}</button>'

    # ------------------------------------------------------------------ what may be done
    def buttons(self) -> str:
        """A button for each kind of action legal now but plays (a tile then a cell) and moves (a piece),
        and one for each house rule's own action (its tile, then the tiles drawn, tapped after it)."""
        state = self.state
        found: list[str] = []
        kinds = {type(a) for a in self.legal}
        if Draw in kinds:
            found.append('<button type="button" class="act" data-act="draw">draw</button>')
        if Pass in kinds:
            found.append('<button type="button" class="act" data-entry="pass">pass</button>')
        zones = sorted({a.zone or "" for a in self.legal if type(a) is Discard})
        for zone in zones:
            label = f"{state.rules.term('discards')}" + (f" to {zone}" if zone else "")
            found.append(f'<button type="button" class="act" data-act="discard" data-zone="{markup(zone)}">'
                         f'{markup(label)}</button>')
        house: dict[str, tuple[bool, bool]] = {}  # a house rule's own actions: (chooses a tile, draws)
        for action in self.legal:
            if type(action) is HouseAction:
                house.setdefault(action.rule, (action.tile is not None, self.game.table._draws_unnamed(action)))
        for rule, (chooses, draws) in house.items():
            found.append(f'<button type="button" class="act" data-act="house" data-rule="{markup(rule)}" '
                         f'data-chooses="{int(chooses)}" data-draws="{int(draws)}">{markup(rule)}</button>')
        if Move in kinds:
            found.append('<span class="hint">tap a piece to move it</span>')
        if Play in kinds:
            found.append('<span class="hint">tap a tile, then a cell</span>')
        return "".join(found)

    def picker(self) -> str:
        """The tiles to pick from where the table names tiles: a deal, a tile turned up, a draw."""
        state, due = self.state, self.due
        if due.kind == "deal":
            tiles = self.game.table._pile_of_deal()
        elif due.kind == "open":
            tiles = list(state.zones.get(due.zone or "", []))
        elif any(type(a) is Draw or type(a) is HouseAction and self.game.table._draws_unnamed(a) for a in self.legal):
            tiles = [t for zone, pile in state.zones.items() if not state.rules.zones[zone].face_up for t in pile]
        else:
            return ""
        return "".join(f'<button type="button" class="tile pick" data-tile="{markup(self.names[t])}">'
                       f'{markup(self.names[t])}</button>' for t in sorted(tiles, key=lambda t: self.names[t]))

    def fits(self) -> dict[str, list[str]]:
        """Each tile that may be played now and the cells it fits (``x,y``), to mark them when it is tapped."""
        found: dict[str, list[str]] = {}
        for action in self.legal:
            if type(action) is Play:
                found.setdefault(self.names[action.tile], []).append(point_to_string(action.cell))
        return found

    def moves(self) -> dict[str, list[dict[str, str]]]:
        """Each piece that may move now (by its point) and its moves, each as its words and its entry."""
        found: dict[str, list[dict[str, str]]] = {}
        for action in self.legal:
            if type(action) is Move:
                found.setdefault(point_to_string(action.origin), []).append(
                    {"label": self.game.table.words(action), "entry": action_to_string(self.state, action)})
        return found

    # ------------------------------------------------------------------ corrections
    def entries(self) -> str:
        """The last entries, each with its record line and buttons to fix it or insert one before it
        (they start ``fix N`` / ``insert N`` in the text box, completed as at the terminal)."""
        table = self.game.table
        items = []
        for line, data in self.keeper.entry_lines()[-ENTRIES_LISTED:]:
            agreed = " (agreed)" if data.get("agreed") else ""
            items.append(f'<li value="{line}"><span>{markup(table.line_words(data) + agreed)}</span> '
                         f'<button type="button" class="fix" data-fix="{line}">fix</button>'
                         f'<button type="button" class="fix" data-insert="{line}">insert before</button></li>')
        return "".join(reversed(items))

    # ------------------------------------------------------------------ the sheet
    def sheet(self) -> str:
        """The score sheet: each hand's scores (so far, for the hand being played) and the running totals."""
        state, rules = self.state, self.rules
        seats = self.keeper.seats
        head = "".join(f"<th>{markup(name)}</th>" for name in seats)
        rows = []
        for column in self.keeper.sheet.hands:
            if column.result is not None:
                scores = list(column.result.scores)
                label = f"{rules.term('hand')} {column.number}"
            else:
                scores = [sum(p for s, p in column.counts if s == seat) for seat in range(len(seats))]
                label = f"{rules.term('hand')} {column.number} (so far)"
            rows.append(f"<tr><th>{markup(label.capitalize())}</th>"
                        + "".join(f"<td>{markup(v)}</td>" for v in scores) + "</tr>")
        # The running totals as the game keeps them (a match may start each seat with chips, or add at its end).
        running = state.running_scores()
        rows.append('<tr class="running"><th>' + markup(rules.term("total").capitalize()) + "</th>"
                    + "".join(f"<td>{markup(v)}</td>" for v in running) + "</tr>")
        teams = rules.match.teams(state.seat_count)
        if any(len(team) > 1 for team in teams):  # partners pool their totals (over the hands finished)
            for team, pooled in zip(teams, rules.match.team_totals(state)):
                label = f"{rules.term('partners')} {' + '.join(seats[s] for s in team)}"
                rows.append(f'<tr class="partners"><th>{markup(label)}</th><td colspan="{len(seats)}">'
                            f'{markup(pooled)}</td></tr>')
        text = self.keeper.sheet.text(state)
        return (f'<table id="sheet-table"><thead><tr><th></th>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
                f'</table><details><summary>{markup(rules.term("scorekeeper"))}</summary><pre>{markup(text)}</pre>'
                f'</details>')
