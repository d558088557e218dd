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
}
