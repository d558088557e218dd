"""contack: a rules-as-data framework for the Contack family of tile games.

The public API: :func:`load_rules` compiles a ruleset (an id or a YAML path) and
:class:`GameState` runs it.
"""

from contack_core.engine import __version__
from contack_core.engine.actions import CHANCE, Deal, Draw, IllegalAction, Pass, Play, Shuffle
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from contack_core.language.problems import RulesetError
from contack_core.primitives.loading import load_rules

__all__ = ["CHANCE", "Deal", "Draw", "GameState", "IllegalAction", "Pass", "Play", "Rules", "RulesetError",
           "Shuffle", "__version__", "load_rules"]
