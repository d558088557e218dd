"""Quick construction of the attrs value types a playout makes at every step.

Calling an attrs class makes CPython 3.11 leave its fast call path: ``type.__call__`` runs
``__init__`` in a nested evaluation loop, through a dozen C functions of its own. At a
hundred-odd events and actions a game that code competes for the instruction cache with
the interpreter's loop: building them here instead cut a 4-seat game's instruction-cache
misses by about a tenth (callgrind's cache simulation). A quick constructor is an ordinary
Python function, and :func:`construction_source` the same statements for a compiled
program to inline: they make the object with ``object.__new__`` and set exactly the
fields ``__init__`` would, from the class's own field list, so they cannot drift from the
class.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs

from contack_core.language.programs import Source, define_from

T = TypeVar("T", bound=attrs.AttrsInstance)


def construction_source(cls: type[attrs.AttrsInstance], target: str, values: Sequence[str]) -> Source:
    """Statements building ``cls`` into the variable ``target`` from ``values``, one Python
    expression per field in field order (defaults are not applied: give every field)."""
    names = [field.name for field in attrs.fields(cls)]
    if len(values) != len(names):
        raise ValueError(f"{cls.__name__} has {len(names)} fields; {len(values)} values given")
    alias = f"_{cls.__name__}"
    lines = [f"{target} = _new({alias})"]
    bindings: dict[str, Any] = {"_new": object.__new__, alias: cls}
    if inspect.getattr_static(cls, "__setattr__") is object.__setattr__:  # not frozen
        lines += [f"{target}.{name} = {value}" for name, value in zip(names, values)]
    else:
        # Frozen: each field through its slot's own setter, as attrs does behind the frozen
        # ``__setattr__`` (object.__setattr__ would look the name up in the type first).
        for name, value in zip(names, values):
            setter = f"{alias}_set_{name}"
            bindings[setter] = cls.__dict__[name].__set__
            lines.append(f"{setter}({target}, {value})")
    return Source("\n".join(lines), bindings)


def quick_constructor(cls: type[T]) -> Callable[..., T]:
    """A function ``make_<class>(field, ...)`` building ``cls`` from all its fields, given
    positionally (defaults are not applied: pass every field)."""
    names = [field.name for field in attrs.fields(cls)]
    function = f"make_{cls.__name__.lower()}"
    built = construction_source(cls, "made", names)
    constructor: Callable[..., T] = define_from(function, names, Source(built.code + "\nreturn made", built.bindings))
    return constructor
