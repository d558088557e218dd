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
#: The decisions drawn at random at the start of every game of a ruleset without chance, unless told
#: (so that deterministic bots play a different game on each deal).
DEFAULT_OPENING = 4
#: With --null, the second side's deals come from the seed plus this: independent of the first side's.
NULL_SEED_OFFSET = 1_000_000
