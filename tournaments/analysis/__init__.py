"""``contack analyze``: what a ruleset's rules do to the game, measured on duplicate deals with intervals.

The defaults of the command live here, where its command line can read them without importing
anything heavy.
"""

#: The bot in every seat of the metrics games, and the skill ladder (weakest first), unless told.
DEFAULT_PLAYER = "greedy"
DEFAULT_LADDER = ("random", "greedy")
#: Deals at each table size, and their seed, unless told.
DEFAULT_DEALS = 30
DEFAULT_SEED = 1
