"""contack: a rules-as-data framework for the Contack family of tile games.

The public API: :func:`load_rules` compiles a ruleset (an id or a YAML path) and
:class:`GameState` runs it.
"""

from contack_core.actions import CHANCE, Deal, Draw, IllegalAction, Pass, Play, Shuffle
from contack_core.loader import RulesetError, load_rules
from contack_core.rules import Rules
from contack_core.state import GameState

__version__ = "0.1.0"

__all__ = ["CHANCE", "Deal", "Draw", "GameState", "IllegalAction", "Pass", "Play", "Rules", "RulesetError",
           "Shuffle", "__version__", "load_rules"]
