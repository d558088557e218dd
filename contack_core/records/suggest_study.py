"""How often ``contack audit`` suggests what was meant: one typo in each of many played records.

Each record is a game of random players (seats cycling through the ruleset's range); one of
its lines gets one slip of a kind a person makes typing a game in: a digit of a play's tile,
a coordinate of a play's cell (one character of it changed: a digit, or the minus sign), or
the seat of a play, draw, discard or pass (another seat of the table). The record is then
audited. A case counts as found first when the audit stops at that very line and its first
suggestion is the original line, and as found in the top three when it is among the first
three; a typo the audit does not catch there counts as a miss. ``--no-points`` leaves every
``points`` field out first, as a record typed in by hand may.

    python -m contack_core.records.suggest_study --records 1000 --seed 1
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from contack_core.engine.bots import make_player
from contack_core.engine.referee import play_game, seat_seed
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import audit_record
from contack_core.records.format import RecordWriter, header_for

KINDS = ("tile", "cell", "seat")
_ACTIONS = ("play", "draw", "discard", "pass")


def played_record(rules: Any, seats: int, seed: int) -> list[dict[str, Any]]:
    """The record of one game of random players, as a list of line objects."""
    stream = io.StringIO()
    players = [make_player("random", seat_seed(seed, seat), rules=rules) for seat in range(seats)]
    names = [f"p{seat}" for seat in range(seats)]
    play_game(rules, players, seed, [RecordWriter(stream, header_for(rules, names, seed, ["random"] * seats))])
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def inject_typo(lines: list[dict[str, Any]], kind: str, rng: random.Random) -> int | None:
    """Put one slip of ``kind`` into a random line it can go in; the index of that line (None if none can)."""
    seats = len(lines[0]["seats"])
    if kind == "seat":
        eligible = [i for i, line in enumerate(lines) if line.get("event") in _ACTIONS] if seats > 1 else []
    else:
        eligible = [i for i, line in enumerate(lines) if line.get("event") == "play"]
    if not eligible:
        return None
    index = rng.choice(eligible)
    line = lines[index]
    if kind == "tile":
        digits = [i for i, char in enumerate(line["tile"]) if char.isdigit()]
        at = rng.choice(digits)
        new = rng.choice([d for d in "0123456789" if d != line["tile"][at]])
        line["tile"] = line["tile"][:at] + new + line["tile"][at + 1:]
    elif kind == "cell":
        axis = rng.randrange(2)
        line["cell"] = list(line["cell"])
        line["cell"][axis] = mistyped_number(line["cell"][axis], rng)
    else:
        line["seat"] = rng.choice([s for s in range(seats) if s != line["seat"]])
    return index


def mistyped_number(value: int, rng: random.Random) -> int:
    """``value`` with one character of it changed: a digit replaced, or the minus sign added or dropped."""
    text = str(value)
    places = [i for i, char in enumerate(text) if char.isdigit()]
    if rng.random() < 0.25:
        return -value if value else rng.choice([-1, 1])
    at = rng.choice(places)
    new = rng.choice([d for d in "0123456789" if d != text[at]])
    return int(text[:at] + new + text[at + 1:])


def run_study(ruleset: str, records: int = 1000, seed: int = 1, points: bool = True,
              folder: Path | None = None) -> dict[str, Any]:
    """Play, mutate and audit ``records`` records; the figures, overall and by kind of slip."""
    rules = load_rules(ruleset)
    low, high = rules.players
    rng = random.Random(seed)
    tally = {kind: {"cases": 0, "caught_at_line": 0, "first": 0, "top3": 0} for kind in KINDS}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        where = folder or Path(scratch)
        for number in range(records):
            kind = KINDS[number % len(KINDS)]
            lines = played_record(rules, low + number % (high - low + 1), seed * 100_003 + number)
            if not points:
                for line in lines:
                    line.pop("points", None)
            originals = json.loads(json.dumps(lines))
            index = inject_typo(lines, kind, rng)
            if index is None:
                continue
            original = originals[index]
            path = where / f"typo-{number:05d}.jsonl"
            path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
            verdict = audit_record(path)
            counts = tally[kind]
            counts["cases"] += 1
            if verdict.valid or verdict.line != index + 1:
                continue
            counts["caught_at_line"] += 1
            suggestions = verdict.suggestions
            counts["first"] += bool(suggestions) and suggestions[0] == original
            counts["top3"] += original in suggestions[:3]
    total = {key: sum(counts[key] for counts in tally.values()) for key in ("cases", "caught_at_line", "first", "top3")}
    cases = max(total["cases"], 1)
    return {"ruleset": rules.id, "records": records, "seed": seed, "points": points, **total,
            "first_rate": round(total["first"] / cases, 4), "top3_rate": round(total["top3"] / cases, 4),
            "by_kind": tally, "seconds": round(time.perf_counter() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", required=True, help="the ruleset whose played records are mutated")
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-points", dest="points", action="store_false",
                        help="leave every play's points out of the records before the typo")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    figures = run_study(args.ruleset, args.records, args.seed, args.points)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{figures['ruleset']}: {figures['cases']} records with one typo each "
          f"({'with' if args.points else 'without'} points), seed {args.seed}, {figures['seconds']} s")
    print(f"{'typo in':<10}{'cases':>7}{'caught there':>14}{'first':>8}{'top 3':>8}")
    for kind, counts in figures["by_kind"].items():
        print(f"{kind:<10}{counts['cases']:>7}{counts['caught_at_line']:>14}{counts['first']:>8}{counts['top3']:>8}")
    print(f"{'all':<10}{figures['cases']:>7}{figures['caught_at_line']:>14}{figures['first']:>8}{figures['top3']:>8}")
    print(f"first suggestion is the original: {figures['first_rate']:.1%}; "
          f"among the first three: {figures['top3_rate']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
