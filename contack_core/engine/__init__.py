"""The game engine: the state API, actions, events, chance, the compiled rules, the referee
that plays a game between players, and the player interface bots implement."""

from contack_core.version import __version__

__all__ = ["__version__"]
