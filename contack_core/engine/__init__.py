"""The game engine: the state API, actions, events, chance, the compiled rules, the referee
that plays a game between players, and the player interface bots implement."""

#: The engine's version: record headers and the bot protocol's greeting name it.
__version__ = "0.1.0"
