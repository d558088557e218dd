"""A ruleset's own failure in play, told apart from a seat's illegal action.

Load checks what it can (every name, every construct, each formula over its whole domain
where that domain is small), but a formula may still fail on a state only play reaches: a
division by a count that is zero in this position, say. That is the ruleset's error, never
the seat to move's: the referee ends the game as a ruleset error instead of charging the
seat with an illegal action (which forfeits), ``contack play`` prints it as an error, and a
tournament stores the game as ``error``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from contack_core.engine.actions import IllegalAction
from contack_core.language.expressions import failing_formula
from contack_core.language.limits import MAX_FIGURE, shown_number

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules


class RulesetFault(Exception):
    """A ruleset failed in play: which ruleset, where in it, which formula (empty when the
    rules themselves leave a seat nothing to do), and why."""

    def __init__(self, ruleset: str, keys: list[str], formula: str, reason: str) -> None:
        self.ruleset = ruleset
        self.keys = keys
        self.formula = formula
        self.reason = reason
        at = f" at {' and '.join(keys)}" if keys else ""
        what = f"formula {formula!r}: " if formula else ""  # no formula: the rules leave play nowhere to go
        super().__init__(f"the ruleset {ruleset} fails{at}: {what}{reason} (the ruleset's error, not a player's)")


def ruleset_name(rules: Rules) -> str:
    """The ruleset as a fault names it: its id, and its file when it is not a shipped one."""
    return rules.id if rules.origin is None else f"{rules.id} ({rules.origin})"


def figure_fault(rules: Rules, key: str, value: int) -> RulesetFault:
    """A figure of ``rules`` (the counter ``key``, or what ``key`` works out) grew to ``value``,
    beyond :data:`MAX_FIGURE`: more than a record holds, so the game stops there."""
    return RulesetFault(ruleset_name(rules), [f"scoring.{key}"], "",
                        f"it reached {shown_number(value)}, beyond {MAX_FIGURE:,} either way (MAX_FIGURE)")


def ruleset_fault(error: BaseException, rules: Rules) -> RulesetFault | None:
    """``error`` as the ruleset's fault when a formula of ``rules`` raised it (directly, or as
    the cause of what a bot raised), else None: an illegal action, or a player's own error."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, RulesetFault):
            return current
        if isinstance(current, IllegalAction):
            return None
        formula = failing_formula(current)
        if formula is not None:
            ruleset = ruleset_name(rules)
            reason = str(current)
            reason = f"{type(current).__name__}: {reason}" if reason else type(current).__name__
            return RulesetFault(ruleset, list(_keys_holding(rules.document, formula)), formula, reason)
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _keys_holding(document: object, formula: str, path: str = "") -> Iterator[str]:
    """The key paths of ``document`` whose value is the text of ``formula``."""
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _keys_holding(value, formula, f"{path}.{key}" if path else str(key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from _keys_holding(value, formula, f"{path}.{index}")
    elif not isinstance(document, bool) and str(document) == formula and path:
        yield path
