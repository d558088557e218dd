"""Outside text made safe to print on a terminal.

Records and rulesets come from anyone: a seat name, a tile name, a ruleset's title or terms
may hold escape sequences that set a terminal's title, clear its screen or colour what
follows, a carriage return that writes over a line, text-direction marks that reorder it, or
a lone surrogate (which a JSON string may name) that no UTF-8 terminal can be sent.
:func:`printable` shows each such character as its Python escape (``\\x1b``, ``\\u202e``,
``\\ud800``); everything else, accented letters and other scripts included, is left as it
is. It is the one place this is decided: the command line passes all it prints through it.
"""

from __future__ import annotations

import re

#: C0 and C1 controls, DEL, the line and paragraph separators, the marks that change the
#: direction of text (embeddings, overrides, isolates) and every surrogate.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: The same, but for the line feeds and tabs that lay out text of several lines.
_UNSAFE_IN_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                              "\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, lines: bool = False) -> str:
    """``text`` with every control character, direction mark and lone surrogate shown as its
    escape; ``lines=True`` keeps line feeds and tabs (for text of several lines that is already
    laid out), else they are escaped too (for one name or one field)."""
    pattern = _UNSAFE_IN_LINES if lines else _UNSAFE
    return pattern.sub(_escape, text) if pattern.search(text) else text
