"""What is wrong with a ruleset, and where: every loading gate reports :class:`Problem` values,
each printed as ``file:line:column: at key.path: what is wrong``."""

from __future__ import annotations

import attrs

KeyPath = tuple[str | int, ...]


@attrs.frozen
class Mark:
    file: str
    line: int
    column: int


@attrs.frozen
class Problem:
    """One thing wrong with a ruleset, and where."""

    message: str
    path: KeyPath = ()
    mark: Mark | None = None
    #: The option at fault when the problem is in a value chosen for the ruleset, not in its file:
    #: only the caller knows where it was chosen (a tournament config's options key, a command line).
    chosen: str | None = None

    def __str__(self) -> str:
        where = f"{self.mark.file}:{self.mark.line}:{self.mark.column}: " if self.mark else ""
        at = f"at {format_path(self.path)}: " if self.path else ""
        return f"{where}{at}{self.message}"


class RulesetError(ValueError):
    """A ruleset that cannot be loaded; ``problems`` lists every reason found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def format_path(path: KeyPath) -> str:
    return ".".join(str(part) for part in path) or "(top)"
