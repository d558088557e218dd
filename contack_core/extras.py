"""Whether an optional extra's packages are installed: asked before a command does any work, so a
missing extra is one message (``pip install 'contack[...]'``), not a traceback half-way through."""

from __future__ import annotations

import importlib.util


def installed(*modules: str) -> bool:
    """Whether every one of ``modules`` can be imported here, found without importing it. A finder
    that refuses a name, or a broken install, counts as not installed."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in modules)
    except (ImportError, ValueError):
        return False
