"""The fast readers agree with the slow ones they stand in front of: the compiled JSON Schema
check with jsonschema (on record lines, on rulesets and on every keyword it covers), and orjson's
reading of a record line with the standard library's."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core.language.documents import read_document
from contack_core.language.quickschema import Unsupported, compile_schema, strict_integer
from contack_core.language.schema import ruleset_schema, shipped_schema
from contack_core.primitives.builtin import default_registry

ROOT = Path(__file__).resolve().parent.parent
RECORD_SCHEMA = shipped_schema("record.schema.json")
RECORD_CHECKS = compile_schema(RECORD_SCHEMA, strict_integers=True)
STRICT = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _, v: strict_integer(v)))
RECORD_VALIDATORS = {kind: STRICT({**RECORD_SCHEMA, "$ref": f"#/$defs/{kind}"}) for kind in RECORD_SCHEMA["$defs"]}
RULESET_SCHEMA = ruleset_schema(default_registry())
RULESET_CHECK = compile_schema(RULESET_SCHEMA)
RULESET_VALIDATOR = jsonschema.Draft202012Validator(RULESET_SCHEMA)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["09-02-08", "bank", "collect", "play", "pass", "forfeit", "contack-record/1"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["event", "seat", "tile", "cell", "points", "from", "to", "count", "reason", "number",
                         "scores", "totals", "winners", "tiles", "zone", "path", "turn", "extra"]), children,
        max_size=6),
    max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(RECORD_SCHEMA["$defs"])), value=JSON_VALUES)
def test_record_check_agrees_with_jsonschema_on_any_value(kind: str, value: Any) -> None:
    assert RECORD_CHECKS.definitions[kind](value) == RECORD_VALIDATORS[kind].is_valid(value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_record_check_agrees_with_jsonschema_on_changed_lines(data: st.DataObject) -> None:
    """Lines of a real record with one value changed: mostly valid, or wrong in one place."""
    line = dict(data.draw(st.sampled_from(PLAYED_LINES)))
    kind = line.get("event", "header")
    key = data.draw(st.sampled_from(sorted(line)))
    action = data.draw(st.sampled_from(["set", "delete", "keep"]))
    if action == "set":
        line[key] = data.draw(JSON_VALUES)
    elif action == "delete":
        del line[key]
    assert RECORD_CHECKS.definitions[kind](line) == RECORD_VALIDATORS[kind].is_valid(line), line


def _played_lines() -> list[dict[str, Any]]:
    from contack_core import load_rules
    from contack_core.engine.bots import make_player
    from contack_core.engine.referee import play_game, seat_seed
    from contack_core.records.format import RecordWriter, header_for

    lines: list[dict[str, Any]] = []

    class Keep:
        def write(self, text: str) -> None:
            lines.append(json.loads(text))

        def flush(self) -> None:
            pass

    for ruleset, seats, options in (("club-contack", 3, {}), ("solitaire-2", 1, {}), ("contactack", 4,
                                    {"partnerships": "on"}), ("klauber-1937", 2, {"move_cap": 60})):
        rules = load_rules(ruleset, options)
        players = [make_player("random", seat_seed(5, s), rules=rules) for s in range(seats)]
        play_game(rules, players, 5, [RecordWriter(Keep(), header_for(rules, ["a"] * seats, 5))])  # type: ignore[arg-type]
    return lines


PLAYED_LINES = _played_lines()


def test_the_played_lines_are_valid_and_of_every_kind() -> None:
    kinds = {line.get("event", "header") for line in PLAYED_LINES}
    assert {"header", "hand", "deal", "play", "draw", "pass", "move", "chips", "hand_end", "game_end"} <= kinds
    for line in PLAYED_LINES:
        kind = line.get("event", "header")
        assert RECORD_CHECKS.definitions[kind](line) and RECORD_VALIDATORS[kind].is_valid(line), line


def _refuse_every_line(text: str) -> Any:
    raise ValueError("the slow path, for the comparison")


#: Ways a line's text may be unusual, each applied to a line of JSON text.
_LINE_CHANGES = [
    lambda text: text,
    lambda text: f"  {text}\t\r",
    lambda text: text + " x",
    lambda text: text[:-1] + ', "event": "pass"}' if text.endswith("}") else text,  # a key named twice, perhaps
    lambda text: text.replace(": ", ":", 1),
    lambda text: text.replace("1", "NaN", 1),
    lambda text: text.replace("0", "18446744073709551616", 1),  # 2 ** 64, over what a record may hold
    lambda text: text.replace('"', "'", 1),
    lambda text: text[: len(text) // 2],
    lambda text: "",
    lambda text: "\0",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fast_line_reader_reads_every_line_as_the_slow_one(data: st.DataObject) -> None:
    """orjson reads the usual line; whatever it reads must be what the standard library's slow
    path reads (or words) for the same text, and what it refuses goes to that path."""
    from contack_core.records import format as record_format

    values = data.draw(st.lists(st.sampled_from(PLAYED_LINES) | JSON_VALUES, min_size=1, max_size=6))
    texts = [data.draw(st.sampled_from(_LINE_CHANGES))(json.dumps(value, allow_nan=True)) for value in values]
    rest = "\n".join(texts).encode()
    schema = record_format.RecordSchema()
    fast = list(record_format._events(rest, schema))
    with mock.patch.object(record_format, "orjson", SimpleNamespace(loads=_refuse_every_line)):
        slow = list(record_format._events(rest, schema))
    assert fast == slow, texts


def _rulesets() -> list[dict[str, Any]]:
    return [read_document(path).data for path in sorted((ROOT / "rulesets").rglob("*.yaml"))]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ruleset_check_agrees_with_jsonschema_on_changed_rulesets(data: st.DataObject) -> None:
    document = copy.deepcopy(data.draw(st.sampled_from(RULESETS)))
    path = data.draw(st.sampled_from(_paths(document)[1:]))
    holder = document
    for key in path[:-1]:
        holder = holder[key]
    if data.draw(st.booleans()):
        holder[path[-1]] = data.draw(JSON_VALUES | st.sampled_from([1.0, 2.5, "random", "stock", {"primitive": "x"}]))
    elif isinstance(holder, dict):
        del holder[path[-1]]
    assert RULESET_CHECK.accepts(document) == RULESET_VALIDATOR.is_valid(document)


RULESETS = _rulesets()


def test_every_shipped_ruleset_passes_both() -> None:
    for document in RULESETS:
        assert RULESET_CHECK.accepts(document) and RULESET_VALIDATOR.is_valid(document)


@pytest.mark.parametrize(("schema", "valid", "invalid"), [
    ({"type": "integer"}, [1, -3, 2.0], [True, 1.5, "1", None]),
    ({"type": "number", "minimum": 0, "exclusiveMaximum": 3}, [0, 2.5], [-1, 3, True]),
    ({"enum": [1, "a", None]}, [1, "a", None], [True, 1.5, "b"]),
    ({"const": [1, {"a": True}]}, [[1, {"a": True}]], [[True, {"a": True}], [1, {"a": 1}]]),
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, ["", None], [0]),
    ({"oneOf": [{"minimum": 0}, {"maximum": 10}]}, [-1, 11], [5]),
    ({"not": {"type": "array"}}, [1, {}], [[]]),
    ({"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}, [{"a": 1, "b": 2},
     {"c": 1}], [{"a": 1}, {}]),
    ({"type": "array", "uniqueItems": True, "items": {"type": "integer"}}, [[1, 2], []], [[1, 1], [True, 1, 1]]),
    ({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1,
      "additionalProperties": {"type": "string"}}, [{"ab": "x"}], [{}, {"A": "x"}, {"ab": 1}]),
    ({"type": "string", "minLength": 2, "maxLength": 3, "pattern": "b"}, ["ab", "abc"], ["a", "abcd", "ac"]),
    ({"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}, [[], [[[]]]],
     [[1], [[2]]]),
])
def test_every_keyword_agrees_with_jsonschema(schema: dict, valid: list, invalid: list) -> None:
    check = compile_schema(schema).accepts
    validator = jsonschema.Draft202012Validator(schema)
    for value in valid:
        assert check(value) and validator.is_valid(value), value
    for value in invalid:
        assert not check(value) and not validator.is_valid(value), value


def test_a_keyword_not_compiled_is_refused_at_compile_time() -> None:
    for schema in ({"patternProperties": {"a": {}}}, {"multipleOf": 2}, {"$ref": "other.json"}, {"prefixItems": []}):
        with pytest.raises(Unsupported):
            compile_schema(schema)
