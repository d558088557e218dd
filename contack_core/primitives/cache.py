"""Compiled rulesets kept for a run that loads the same ruleset many times.

Loading a ruleset (reading the YAML, checking the schema, building and compiling its
primitives) costs far more than auditing a record under it, and an archive of records
names a handful of rulesets between them. A :class:`RulesetCache` loads each (file
contents, options) once. It is an object its run owns (an audit of many records, the
command line's listing), never module state, so what one run caches no other sees and
nothing outlives the run; it is bounded, so a run naming many rulesets keeps only the
latest. A ruleset that fails to load is kept too, as its error, and raised again.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from contack_core.engine.rules import Rules
from contack_core.language.documents import ParsedFiles, find_ruleset, read_document
from contack_core.language.options import choose_options
from contack_core.language.problems import Problem, RulesetError
from contack_core.language.quickschema import QuickSchema
from contack_core.language.schema import check_schema, compile_ruleset_schema
from contack_core.primitives.builtin import default_registry
from contack_core.primitives.loading import build_primitives, load_rules
from contack_core.primitives.registry import Registry

#: How many (reference, folder) pairs a cache remembers the file of.
_PLACES_KEPT = 4096


class RulesetCache:
    """Rulesets by the file's path and digest (SHA-256 of its bytes) and the options.

    A file changed under a run is loaded afresh (its digest is worked out again whenever
    its size or times change); the files it ``extends`` are read when it is first loaded,
    and where a reference leads (a shipped id, a path relative to a record) is found once.
    """

    def __init__(self, registry: Registry | None = None, limit: int = 32) -> None:
        self.registry = registry or default_registry()
        self.limit = limit
        self._quick_schema: QuickSchema | Literal[False] | None = False  # False: not compiled yet
        self._loaded: OrderedDict[tuple[str, str, str], Rules | RulesetError] = OrderedDict()
        self._places: dict[tuple[str, str], Path] = {}
        self._digests: dict[Path, tuple[tuple[int, ...], str]] = {}
        self._parsed: ParsedFiles = {}  # the files read so far (an example's parent, read once)

    @property
    def quick_schema(self) -> QuickSchema | None:
        if self._quick_schema is False:
            self._quick_schema = compile_ruleset_schema(self.registry)
        return self._quick_schema

    def locate(self, reference: str | Path, relative_to: Path | None = None) -> Path:
        """The file a reference names (:func:`contack_core.language.documents.find_ruleset`), resolved."""
        place = (str(reference), str(relative_to))
        path = self._places.get(place)
        if path is None:
            found = reference if isinstance(reference, Path) else find_ruleset(reference, relative_to)
            if len(self._places) >= _PLACES_KEPT:  # records in thousands of folders: start again
                self._places.clear()
            path = self._places[place] = found.resolve()
        return path

    def digest(self, path: Path) -> str:
        """The SHA-256 of the file's bytes, worked out again only when the file's size or
        times have changed since (as ``make`` trusts them)."""
        try:
            status = path.stat()
            stamp = (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
            known = self._digests.get(path)
            if known is not None and known[0] == stamp:
                return known[1]
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as error:
            raise RulesetError([Problem(f"cannot read {path}: {error.strerror}")]) from None
        self._digests[path] = (stamp, digest)
        return digest

    def load(self, reference: str | Path, options: Mapping[str, Any] | None = None,
             relative_to: Path | None = None) -> Rules:
        """:func:`contack_core.primitives.loading.load_rules`, once per file contents and options;
        ``relative_to``: the folder a relative path is read from first (a record's)."""
        path = self.locate(reference, relative_to)
        digest = self.digest(path)
        # JSON tells 1 from true and "1", which a tuple of items would not.
        key = (str(path), digest, json.dumps(options or {}, sort_keys=True, default=repr))
        found = self._loaded.get(key)
        if found is None:
            try:
                found = load_rules(path, options, self.registry, self.quick_schema, self._parsed)
            except RulesetError as error:
                found = error
            self._loaded[key] = found
            if len(self._loaded) > self.limit:
                self._loaded.popitem(last=False)
            if len(self._parsed) > self.limit:
                self._parsed.clear()
        else:
            self._loaded.move_to_end(key)
        if isinstance(found, RulesetError):
            raise found.with_traceback(None)
        return found

    def outline(self, reference: str | Path) -> tuple[str, str, tuple[int, int]]:
        """A ruleset's id, title and range of players, for a listing: the file read (with what
        it extends), its options chosen, the schema checked and its components built (the
        range may follow the tile count), but not the rest of it compiled, which costs ten
        times as much. Raises :class:`RulesetError` for what those steps find."""
        document = read_document(self.locate(reference), parsed=self._parsed)
        options = choose_options(document, {})
        check_schema(document, self.registry, self.quick_schema)
        players = build_primitives(document, options, self.registry, last_slot="components")["players"]
        return document.data["id"], document.data["title"], players
