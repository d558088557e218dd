"""contack: a rules-as-data framework for the Contack family of tile games.

The public API, what a program embedding contack needs: :func:`load_rules` compiles a ruleset
(an id or a YAML path); :class:`GameState` runs it (``GameState(rules, seats)``,
``legal_actions``, ``apply``, ``clone``, ``observation``, ``resample``, ``is_over``,
``scores``, ``features``: generic measures of the position a bot may weigh, each a
:class:`Feature`; ``str(state)`` draws the position); :func:`play_game` plays a whole game between
:class:`Player` bots (:func:`make_player` builds one by name) within a :class:`Budget`;
:func:`action_to_string` names an action as a person types it into ``contack keep`` (or plays it as
the ``human`` player), :func:`parse_action` reads it back (both from
:mod:`contack_core.engine.notation`, the one notation of actions and events); the
actions, the events :meth:`GameState.apply` returns, and the errors :class:`RulesetError` and
:class:`IllegalAction`; :func:`printable` escapes the control characters of outside text (a ruleset's
terms, a record's names) before a terminal is shown it.

Each name is imported when first used (PEP 562), so a command that needs none of them (a
``--help``, say) does not pay for loading the interpreter.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from contack_core.version import __version__

if TYPE_CHECKING:
    from contack_core.engine.actions import (
        CHANCE,
        Action,
        Deal,
        Discard,
        Draw,
        HouseAction,
        IllegalAction,
        Move,
        Pass,
        Play,
        Shuffle,
    )
    from contack_core.engine.bots import Budget, Player, Resigned, make_player
    from contack_core.engine.features import Feature
    from contack_core.engine.events import (
        ChipsMoved,
        Dealt,
        Discarded,
        Drew,
        Event,
        HandResult,
        HouseActed,
        Moved,
        Passed,
        Played,
        Shuffled,
    )
    from contack_core.engine.referee import play_game
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState
    from contack_core.language.printable import printable
    from contack_core.language.problems import RulesetError
    from contack_core.primitives.loading import load_rules
    from contack_core.engine.notation import action_to_string, parse_action

_ACTIONS = ("CHANCE", "Action", "Deal", "Discard", "Draw", "HouseAction", "IllegalAction", "Move", "Pass", "Play",
            "Shuffle")
_EVENTS = ("ChipsMoved", "Dealt", "Discarded", "Drew", "Event", "HandResult", "HouseActed", "Moved", "Passed",
           "Played", "Shuffled")
_HOMES = {
    **dict.fromkeys(_ACTIONS, "contack_core.engine.actions"),
    **dict.fromkeys(_EVENTS, "contack_core.engine.events"),
    **dict.fromkeys(("Budget", "Player", "Resigned", "make_player"), "contack_core.engine.bots"),
    "play_game": "contack_core.engine.referee",
    "Feature": "contack_core.engine.features",
    "Rules": "contack_core.engine.rules",
    "GameState": "contack_core.engine.state",
    "RulesetError": "contack_core.language.problems",
    "printable": "contack_core.language.printable",
    "load_rules": "contack_core.primitives.loading",
    **dict.fromkeys(("action_to_string", "parse_action"), "contack_core.engine.notation"),
}

#: Written out, so that a type checker sees what is exported (a test checks it matches ``_HOMES``).
__all__ = ["Action", "Budget", "CHANCE", "ChipsMoved", "Deal", "Dealt", "Discard", "Discarded", "Draw",
           "Drew", "Event", "Feature", "GameState", "HandResult", "HouseActed", "HouseAction",
           "IllegalAction", "Move", "Moved", "Pass", "Passed", "Play", "Played", "Player", "Resigned",
           "Rules", "RulesetError", "Shuffle", "Shuffled", "__version__", "action_to_string", "load_rules",
           "make_player", "parse_action", "play_game", "printable"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'contack_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
