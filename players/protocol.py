"""The JSON forms of positions in the external-bot protocol (docs/external-bots.md), and what a
seat is told of actions and events.

Kept apart from the process handling in :mod:`players.external` so that the wire format
is one small, pure, testable thing. Actions and events on the wire are the one notation's
(:func:`contack_core.engine.notation.action_to_json`, ``event_to_json``, and their readers):
an action becomes ``{"action": <its kind>, <its fields>}`` whatever kind it is. Nothing here
names a variant: tiles are named by the ruleset's tile set, zones by the ruleset's zone names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contack_core.engine.events import Drew, HouseActed
from contack_core.engine.information import Visibility
from contack_core.engine.notation import action_to_json, event_to_json

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: The protocol name and version both sides state in the handshake.
PROTOCOL = "contack-bot/1"


#: An action on the wire (:func:`contack_core.engine.notation.action_to_json`).
action_json = action_to_json


def event_json(rules: Rules, event: Any, observer: int | None = None,
               seat_count: int | None = None) -> dict[str, Any]:
    """An engine event on the wire (:func:`contack_core.engine.notation.event_to_json`).

    Told to ``observer``, a tile drawn into a zone the ruleset hides from that seat (a closed hand)
    is left out: the bot learns that a tile was drawn, not which. Of a house rule's own action it
    learns which tiles were returned and drawn only if it sees the actor's zones whole: else only how
    many (the returned tiles go face down on a pile, the drawn ones into a hand it cannot see).
    """
    data = event_to_json(rules, event)
    if observer is None or observer == getattr(event, "seat", observer):
        return data
    if type(event) is Drew and not _sees_drawn(rules, event.seat, observer, seat_count):
        data.pop("tile", None)
    elif type(event) is HouseActed and not _sees_whole(rules, event.seat, observer, seat_count):
        data.pop("tile", None)
        data["returned"] = [None] * len(event.returned)
        data["drawn"] = [None] * len(event.drawn)
    return data


def _sees_whole(rules: Rules, owner: int, observer: int, seat_count: int | None) -> bool:
    """True when ``observer`` sees every per-seat zone of ``owner`` whole (without the number of
    seats, the partners are not known, so only what every seat sees counts)."""
    visibility = Visibility.of(rules)
    if seat_count is None:
        return not visibility.per_seat_hidden
    return visibility.sees_whole(rules, seat_count, owner, observer)


def _sees_drawn(rules: Rules, drawer: int, observer: int, seat_count: int | None) -> bool:
    """True when ``observer`` sees the tile ``drawer`` has just drawn: the top of its zones (without
    the number of seats, the partners are not known, so only what every seat sees counts)."""
    visibility = Visibility.of(rules)
    if not visibility.per_seat_hidden:
        return True
    if seat_count is None:
        return all(top == "all" for _, _, top in visibility.per_seat)
    return visibility.sees_top(rules, seat_count, drawer, observer)


def legal_json(rules: Rules, legal: list[Action]) -> list[dict[str, Any]]:
    """The legal actions as the position request lists them: each with its ``index``."""
    return [{"index": index, **action_json(rules, action)} for index, action in enumerate(legal)]


def _names(rules: Rules, view: tuple[int | None, ...]) -> list[str | None]:
    names = rules.tiles.names
    return [None if tile is None else names[tile] for tile in view]


def position_json(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` (default: the seat to move) may see, as JSON: the figure or the board, the
    zones as the ruleset shows them to that seat (see :mod:`contack_core.engine.information`: a
    face-down pile only as a count, a stack's top, hands as the ruleset says), the scores, and
    whose turn it is. A tile the seat cannot see is ``null``; nothing else is hidden."""
    rules = state.rules
    names = rules.tiles.names
    figure = state.figure
    counter = rules.match.counter
    seat = state.current if seat is None else seat
    observation = state.observation(seat)
    zones: dict[str, Any] = {}
    hidden = 0
    for key, view in observation.items():
        kind = rules.zones[key].kind
        if key in state.seat_zones:
            zones[key] = {"kind": kind, "seats": [_names(rules, v) for v in view]}  # type: ignore[arg-type]
            continue
        seen = [t for t in view if t is not None]  # type: ignore[union-attr]
        hidden += len(view) - len(seen)
        if not seen and view:
            zones[key] = {"kind": kind, "count": len(view)}
        elif len(seen) == len(view):
            zones[key] = {"kind": kind, "tiles": [names[t] for t in seen]}
        else:  # a stack: its top
            zones[key] = {"kind": kind, "count": len(view), "top": names[view[-1]]}  # type: ignore[index]
    hands = [[name for key in state.seat_zones for name in _names(rules, observation[key][owner])]  # type: ignore[index]
             for owner in range(state.seat_count)]
    position: dict[str, Any] = {
        "to_move": state.current_seat(),
        "hand_number": state.hand_number,
        "figure": [],
        "last": None,
        "hands": hands,
        "pile": hidden,
        "zones": zones,
        "scores": state.scores(),
        "hand_scores": list(state.hand_gains[counter]),
        "drawn": state.drawn,
        "passes": state.passes,
        "direction": state.direction,
    }
    position.update(figure.wire_fields(names, state.seat_count))
    return position


def find_action(rules: Rules, legal: list[Action], reply: Any) -> Action:
    """The legal action a bot's reply names, or ValueError saying why it names none.

    A reply is ``{"type": "action", "index": N}`` or ``{"type": "action", "action": {...}}``
    where the object is one of the listed actions (its ``index`` key may be kept or left out).
    """
    if not isinstance(reply, dict) or reply.get("type") != "action":
        raise ValueError('a reply to "position" is {"type": "action", "index": N} '
                         'or {"type": "action", "action": {...}}')
    if "index" in reply:
        index = reply["index"]
        if not isinstance(index, int) or isinstance(index, bool):
            raise ValueError(f"index must be a whole number, found {index!r}")
        if not 0 <= index < len(legal):
            raise ValueError(f"index {index} is not one of the {len(legal)} legal actions (0..{len(legal) - 1})")
        return legal[index]
    wanted = reply.get("action")
    if not isinstance(wanted, dict):
        raise ValueError('the reply has neither "index" nor an "action" object')
    wanted = {key: value for key, value in wanted.items() if key != "index"}
    for action in legal:
        if action_json(rules, action) == wanted:
            return action
    raise ValueError(f"{wanted} is not one of the {len(legal)} legal actions")
