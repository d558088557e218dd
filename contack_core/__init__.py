"""contack: a rules-as-data framework for the Contack family of tile games.

The public API: :func:`load_rules` compiles a ruleset (an id or a YAML path) and
:class:`GameState` runs it.

Each name is imported when first used (PEP 562), so a command that needs none of them (a
``--help``, say) does not pay for loading the interpreter.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from contack_core.version import __version__

if TYPE_CHECKING:
    from contack_core.engine.actions import CHANCE, Deal, Draw, IllegalAction, Pass, Play, Shuffle
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState
    from contack_core.language.problems import RulesetError
    from contack_core.primitives.loading import load_rules

_ACTIONS = ("CHANCE", "Deal", "Draw", "IllegalAction", "Pass", "Play", "Shuffle")
_HOMES = {
    **dict.fromkeys(_ACTIONS, "contack_core.engine.actions"),
    "Rules": "contack_core.engine.rules",
    "GameState": "contack_core.engine.state",
    "RulesetError": "contack_core.language.problems",
    "load_rules": "contack_core.primitives.loading",
}

__all__ = ["CHANCE", "Deal", "Draw", "GameState", "IllegalAction", "Pass", "Play", "Rules", "RulesetError",
           "Shuffle", "__version__", "load_rules"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'contack_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
