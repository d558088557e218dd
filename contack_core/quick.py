"""Quick construction of the attrs value types a playout makes at every step.

Calling an attrs class makes CPython 3.11 leave its fast call path: ``type.__call__`` runs
``__init__`` in a nested evaluation loop, through a dozen C functions of its own. At a
hundred-odd events and actions a game that code competes for the instruction cache with
the interpreter's loop: building them here instead cut a 4-seat game's instruction-cache
misses by about a tenth (callgrind's cache simulation). A quick constructor is an ordinary
Python function:
it makes the object with ``object.__new__`` and sets exactly the fields ``__init__``
would, from the class's own field list, so it cannot drift from the class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def quick_constructor(cls: type[T]) -> Callable[..., T]:
    """A function ``make_<class>(field, ...)`` building ``cls`` from all its fields, given
    positionally (defaults are not applied: pass every field)."""
    names = [field.name for field in attrs.fields(cls)]  # type: ignore[misc]
    frozen = cls.__setattr__ is not object.__setattr__
    sets = [f"    _set(made, {name!r}, {name})" if frozen else f"    made.{name} = {name}" for name in names]
    function = f"make_{cls.__name__.lower()}"
    source = "\n".join([f"def {function}({', '.join(names)}):", "    made = _new(_cls)", *sets, "    return made"])
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": cls}
    exec(source, namespace)  # noqa: S102 - source built from the class's own field names
    return namespace[function]  # type: ignore[no-any-return]
