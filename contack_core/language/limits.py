"""Every bound a ruleset must keep, in one place.

A ruleset is data from anyone (a file from a forum, a record's header naming a path), so
loading one must stay prompt and small whatever it holds: each bound here is refused at
load with a message naming the place, long before the time or memory runs out. The bounds
are far above anything a real ruleset needs (the largest shipped file is about 21 KB, 8
levels deep, with formulas under 100 characters). docs/house-rules.md ("Limits") lists
them; a test keeps that list in step with this module.
"""

from __future__ import annotations

#: The size of a ruleset file together with every file it extends, in bytes.
MAX_RULESET_BYTES = 1_000_000
#: How many files an ``extends`` chain may hold, the ruleset itself included.
MAX_EXTENDS_CHAIN = 16
#: How deeply YAML mappings and lists may nest.
MAX_YAML_DEPTH = 32
#: How many aliases (``*name``) a file may use.
MAX_YAML_ALIASES = 256
#: How many keys, values and list items a file may hold, every alias counted as the whole
#: of what it repeats (so a "billion laughs" file is refused however few lines it has).
MAX_YAML_NODES = 100_000

#: The length of one formula, in characters.
MAX_EXPRESSION_CHARS = 2_000
#: How many operators, names and numbers one formula may hold.
MAX_EXPRESSION_NODES = 500
#: How deeply one formula may nest (operators within operators, parentheses).
MAX_EXPRESSION_DEPTH = 100
#: The largest exponent ``**`` accepts.
MAX_EXPONENT = 64
#: The largest whole number ``**`` may make, in bits (about 300 decimal digits).
MAX_POWER_BITS = 1_024
#: How many evaluations load may spend checking one formula over every value its names can
#: take (a formula over a wider domain is checked only in play).
MAX_DOMAIN_EVALUATIONS = 100_000
#: The most seats a ruleset may allow (``players.max``): every seat is dealt, observed and
#: scored, so a formula giving 10**30 seats would make loading and play run for ever.
MAX_PLAYERS = 64
#: The most hands a game may last (``match.hands``): a game of 10**30 hands never ends.
MAX_HANDS = 1_000
#: The largest value, either way, of an integer option (its default, ``min``, ``max`` and a value
#: chosen on the command line): every size a formula works out starts from one.
MAX_OPTION_VALUE = 1_000_000
#: The largest coordinate, either way, a board may name at load (the lattice's ``origin``):
#: play moves a tile at most a step from the figure, so every cell stays far inside what a
#: record's number holds (a record refuses a number over 2**63).
MAX_COORDINATE = 1_000_000
#: The most tiles a set may hold, or pieces of a kind a supply box: each is dealt, shown
#: and checked by the audit, one by one.
MAX_TILES = 1_000
#: The largest figure, either way, a play, a counter's change or a total may reach (points,
#: scores, chips): far above any game, far below the 2**63 a record's number holds, so a
#: squaring score stops as the ruleset's error instead of growing without end.
MAX_FIGURE = 10**12
#: The most single steps a piece's move may take (``steps``, ``endgame_steps``): every step
#: of a move is searched over the whole board.
MAX_STEPS = 100
#: The turn cap when a ruleset states none (``turn_cap``): the most decisions a game may
#: take before it stops unfinished, so a rule where every seat may always pass ends.
DEFAULT_TURN_CAP = 10_000
#: The largest turn cap a ruleset may state.
MAX_TURN_CAP = 1_000_000


def shown_number(value: int) -> str:
    """A number as a message shows it: whole when short, by its digits when it would fill screens
    (counted from its bits past a few thousand digits, which Python will not turn into text)."""
    if abs(value) < 10**12:
        return str(value)
    if value.bit_length() <= 10_000:
        return f"a {len(str(abs(value)))}-digit number"
    return f"a number of over {value.bit_length() * 3 // 10:,} digits"


#: Every limit with what it bounds, as docs/house-rules.md lists them.
LIMITS: dict[str, tuple[int, str]] = {
    "MAX_RULESET_BYTES": (MAX_RULESET_BYTES, "bytes in a ruleset file and the files it extends, together"),
    "MAX_EXTENDS_CHAIN": (MAX_EXTENDS_CHAIN, "files in an `extends` chain"),
    "MAX_YAML_DEPTH": (MAX_YAML_DEPTH, "levels of nested mappings and lists"),
    "MAX_YAML_ALIASES": (MAX_YAML_ALIASES, "aliases (`*name`) in a file"),
    "MAX_YAML_NODES": (MAX_YAML_NODES, "keys, values and list items in a file, each alias counted as what it repeats"),
    "MAX_EXPRESSION_CHARS": (MAX_EXPRESSION_CHARS, "characters in a formula"),
    "MAX_EXPRESSION_NODES": (MAX_EXPRESSION_NODES, "operators, names and numbers in a formula"),
    "MAX_EXPRESSION_DEPTH": (MAX_EXPRESSION_DEPTH, "levels of nesting in a formula"),
    "MAX_EXPONENT": (MAX_EXPONENT, "the largest exponent of `**`"),
    "MAX_POWER_BITS": (MAX_POWER_BITS, "bits in a number `**` makes"),
    "MAX_DOMAIN_EVALUATIONS": (MAX_DOMAIN_EVALUATIONS,
                               "evaluations spent checking a formula over all its values at load"),
    "MAX_PLAYERS": (MAX_PLAYERS, "seats a ruleset may allow (`players.max`)"),
    "MAX_HANDS": (MAX_HANDS, "hands a game may last (`match.hands`)"),
    "MAX_OPTION_VALUE": (MAX_OPTION_VALUE, "an integer option's value, default, `min` and `max`, either way"),
    "MAX_COORDINATE": (MAX_COORDINATE, "a board coordinate a ruleset names (the lattice's `origin`), either way"),
    "MAX_TILES": (MAX_TILES, "tiles in a set, pieces of a kind in a `supply`"),
    "MAX_FIGURE": (MAX_FIGURE, "a play's points, a counter's change or total, either way (in play: the ruleset's error)"),
    "MAX_STEPS": (MAX_STEPS, "single steps in a piece's move (`steps`, `endgame_steps`)"),
    "DEFAULT_TURN_CAP": (DEFAULT_TURN_CAP, "decisions a game may take when the ruleset states no `turn_cap`"),
    "MAX_TURN_CAP": (MAX_TURN_CAP, "the largest `turn_cap` a ruleset may state"),
}
