"""The JSON forms of positions and actions in the external-bot protocol (docs/external-bots.md).

Kept apart from the process handling in :mod:`players.external` so that the wire format
is one small, pure, testable thing. Nothing here names a variant: tiles are named by the
ruleset's tile set, zones by the ruleset's zone names, and an action becomes
``{"action": <its kind>, <its fields>}`` whatever kind it is, so a ruleset with new action
kinds needs no change here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

#: The protocol name and version both sides state in the handshake.
PROTOCOL = "contack-bot/1"


def _field_json(rules: Rules, name: str, value: Any) -> Any:
    """One action field on the wire: tiles by name, cells and tuples as lists."""
    if name == "tile" and isinstance(value, int):
        return rules.tiles.names[value]
    if name == "tiles" and isinstance(value, tuple):
        return [rules.tiles.names[t] for t in value]
    if isinstance(value, tuple):
        return list(value)
    return value


def action_json(rules: Rules, action: Action) -> dict[str, Any]:
    """``Play(3, (0, -1))`` -> ``{"action": "play", "tile": "01-05-06", "cell": [0, -1]}``.

    Fields that are None (a draw whose tile is not known yet) are left out.
    """
    data: dict[str, Any] = {"action": type(action).__name__.lower()}
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        if value is not None:
            data[field.name] = _field_json(rules, field.name, value)
    return data


def event_json(rules: Rules, event: Any) -> dict[str, Any]:
    """An engine event on the wire: ``{"kind": "played", "seat": 1, "tile": ..., "points": 10, ...}``."""
    data: dict[str, Any] = {"kind": type(event).__name__.lower()}
    for field in attrs.fields(type(event)):
        value = getattr(event, field.name)
        if value is not None and field.eq:
            data[field.name] = _field_json(rules, field.name, value)
    return data


def legal_json(rules: Rules, legal: list[Action]) -> list[dict[str, Any]]:
    """The legal actions as the position request lists them: each with its ``index``."""
    return [{"index": index, **action_json(rules, action)} for index, action in enumerate(legal)]


def position_json(state: GameState) -> dict[str, Any]:
    """What a seat may see, as JSON: the figure, every hand (hands are public), the scores,
    face-up piles whole, the *size* of each face-down pile (never its order), and whose turn it is."""
    rules = state.rules
    names = rules.tiles.names
    figure = state.figure
    counter = rules.match.counter
    zones: dict[str, Any] = {}
    for key, zone in rules.zones.items():
        if zone.per_seat:
            zones[key] = {"kind": zone.kind, "seats": [[names[t] for t in tiles] for tiles in state.seat_zones[key]]}
        elif getattr(zone, "face_up", False):  # a discard pile or a stack: seen by all, top last
            zones[key] = {"kind": zone.kind, "tiles": [names[t] for t in state.zones[key]]}
        else:
            zones[key] = {"kind": zone.kind, "count": len(state.zones[key])}
    hands = [[names[t] for key in state.seat_zones for t in state.seat_zones[key][seat]]
             for seat in range(state.seat_count)]
    return {
        "to_move": state.current_seat(),
        "hand_number": state.hand_number,
        "figure": [{"cell": list(cell), "tile": names[tile], "rotation": figure.rotation(cell)}
                   for cell, tile in figure.tile_at.items()],
        "last": None if figure.last is None else list(figure.last),
        "hands": hands,
        "pile": sum(len(state.zones[key]) for key, zone in rules.zones.items()
                    if not zone.per_seat and not getattr(zone, "face_up", False)),
        "zones": zones,
        "scores": state.scores(),
        "hand_scores": list(state.hand_gains[counter]),
        "drawn": state.drawn,
        "passes": state.passes,
    }


def find_action(rules: Rules, legal: list[Action], reply: Any) -> Action:
    """The legal action a bot's reply names, or ValueError saying why it names none.

    A reply is ``{"type": "action", "index": N}`` or ``{"type": "action", "action": {...}}``
    where the object is one of the listed actions (its ``index`` key may be kept or left out).
    """
    if not isinstance(reply, dict) or reply.get("type") != "action":
        raise ValueError('a reply to "position" is {"type": "action", "index": N} or {"type": "action", "action": {...}}')
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
