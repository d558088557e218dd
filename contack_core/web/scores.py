"""A game kept as scores only, served on the web table: a form of each seat's figures a hand.

Why through :func:`~contack_core.records.scores_keeper.scores_entry`: the web table must check
and refuse a hand exactly as the terminal does, so the figures tapped in become the line a person
would type (``35 -20 10``, ``55/2 0/4 15/1``) and go to the same reader; the keeper under it
writes and syncs the record before the page shows the hand as accepted.

Every value a view carries into the page passes :func:`~contack_core.replay.drawing.markup`.
"""

from __future__ import annotations

from typing import Any

from contack_core.engine.actions import IllegalAction
from contack_core.engine.rules import Rules
from contack_core.records.scores_keeper import ScoresKeeper, scores_entry
from contack_core.replay.drawing import markup
from contack_core.web.game import KeptGame


class WebScores(KeptGame):
    """The scores-only game a web table keeps: one :class:`ScoresKeeper`, its entries taken in turn
    (a change to the record: a hand entered or undone, the game ended early)."""

    def __init__(self, keeper: ScoresKeeper) -> None:
        super().__init__()
        self.keeper = keeper

    @property
    def rules(self) -> Rules:
        return self.keeper.rules

    @property
    def seats(self) -> list[str]:
        return self.keeper.seats

    def enter(self, text: str) -> dict[str, Any]:
        """Take one entry as the terminal would: accepted or refused, and what was said."""
        with self.lock:
            size = self.keeper.size
            error: str | None = None
            said: list[str] = []
            try:
                if (stop := self.stop_refused(text, self.keeper.path)) is not None:
                    raise ValueError(stop)
                said = scores_entry(self.keeper, text.strip())
            except (ValueError, IllegalAction) as refusal:
                error = str(refusal)
            changed = self.keeper.size != size
            if changed:
                self._recorded(said)
            return {"accepted": changed, "entry": text, "refused": error, "listed": False, "messages": said,
                    "choices": [], "version": self.version}

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """What the page shows now (the same for every seat: scores are public)."""
        with self.lock:
            keeper, rules = self.keeper, self.keeper.rules
            over = keeper.game.is_over()
            number = len(keeper.game.hands) + 1
            status = (f"{rules.term('hand')} {number}: the figures of each player"
                      if not over else "the game is over")
            return {
                "version": self.version,
                "title": rules.title,
                "due": "over" if over else "hand",
                "count": 0,
                "toAct": None,
                "status": f"<div>{markup(status)}</div>",
                "board": "",
                "seats": "",
                "buttons": "" if over else self.form(number),
                "picker": "",
                "sheet": f"<pre>{markup(keeper.sheet())}</pre>",
                "log": "".join(f"<li>{markup(line)}</li>" for line in reversed(self.log)),
                "entries": "",
                "fits": {},
                "moves": {},
                "seatNames": list(keeper.seats),
                "viewer": viewer,
            }

    def form(self, number: int) -> str:
        """A field for each seat's figure (a score, chips, or POINTS/HELD in a points game) and the
        button that enters the hand, as its line typed in seat order."""
        keeper = self.keeper
        checked = "; ".join(keeper.arithmetic.checked())
        fields = "".join(f'<label class="figure">{markup(name)} <input class="figure" data-seat="{seat}" '
                         f'autocomplete="off" inputmode="text" size="6"></label>'
                         for seat, name in enumerate(keeper.seats))
        return (f'{fields}<button type="button" class="act" data-act="hand">'
                f'{markup(keeper.rules.term("hand"))} {markup(number)}</button>'
                f'<span class="hint">{markup("checked: " + checked)}</span>')
