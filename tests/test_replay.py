"""`contack replay`: the timeline of snapshots, the SVG figure, the HTML page, the terminal stepper.

Expected figures are worked out from the record itself (its plays' points, its hand_end and
game_end lines) and from the reference model in helpers.py, not from the replay code.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest
from helpers import TILES, play_recorded_game, read_lines, ref_neighbours, run_cli, write_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core.language.documents import shipped_ruleset_ids
from contack_core.primitives.loading import load_rules
from contack_core.records.audit import audit_record
from contack_core.replay.html import render_html, step_ranges
from contack_core.replay.svg import render_svg
from contack_core.replay.terminal import next_position, position_text, run_stepper
from contack_core.replay.timeline import build_timeline, describe_event
from contack_core.replay.words import viewer_words

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete 4-seat parker-1939 game (seed 7), recorded."""
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    play_recorded_game(4, 7, path)
    return path


def expected_scores(lines: list[dict]) -> list[list[int]]:
    """Scores so far after each event, from the record alone: finished hands' scores plus
    this hand's play points (the step after a hand-ending play shows the hand's net scores)."""
    seats = len(lines[0]["seats"])
    base, running, out = [0] * seats, [0] * seats, [[0] * seats]
    events = lines[1:]
    for i, event in enumerate(events):
        if event["event"] == "play":
            running[event["seat"]] += event["points"]
        ends_hand = i + 1 < len(events) and events[i + 1]["event"] == "hand_end"
        if event["event"] == "hand_end" or ends_hand:
            hand_end = event if event["event"] == "hand_end" else events[i + 1]
            totals = [b + s for b, s in zip(base, hand_end["scores"])]
            out.append(totals)
            if event["event"] == "hand_end":
                base, running = totals, [0] * seats
            continue
        out.append([b + r for b, r in zip(base, running)])
    return out


# ------------------------------------------------------------------------------ timeline
def test_timeline_has_one_step_per_event_and_scores_so_far_follow_the_record(game: Path) -> None:
    lines = read_lines(game)
    timeline = build_timeline(game)
    assert len(timeline.steps) == len(lines)  # step 0 (the header) plus one per event
    assert timeline.fault is None
    assert [list(step.scores) for step in timeline.steps] == expected_scores(lines)
    hand_ends = [line["scores"] for line in lines if line.get("event") == "hand_end"]
    assert [list(s) for s in timeline.steps[-1].hand_scores] == hand_ends
    assert list(timeline.steps[-1].scores) == lines[-1]["totals"]
    last_play = max(i for i, line in enumerate(lines) if line.get("event") == "play")
    assert [step.finished for step in timeline.steps] == [i >= last_play for i in range(len(lines))]


def test_snapshots_hold_the_figure_hands_and_pile_of_each_moment(game: Path) -> None:
    lines = read_lines(game)
    timeline = build_timeline(game)
    seats = len(lines[0]["seats"])
    held: list[set[str]] = [set() for _ in range(seats)]
    on_figure: dict[tuple[int, int], str] = {}
    stock = len(TILES)
    for step, event in zip(timeline.steps[1:], lines[1:]):
        kind = event["event"]
        if kind == "hand":
            held, on_figure, stock = [set() for _ in range(seats)], {}, len(TILES)
        elif kind == "deal":
            held[event["seat"]] |= set(event["tiles"])
            stock -= len(event["tiles"])
        elif kind == "draw":
            held[event["seat"]].add(event["tile"])
            stock -= 1
        elif kind == "play":
            held[event["seat"]].discard(event["tile"])
            on_figure[tuple(event["cell"])] = event["tile"]
        assert step.kind == kind
        assert [set(h) for h in step.hands] == held, f"event {step.index}"
        assert step.piles["stock"] == stock
        assert {t.cell: t.name for t in step.board.tiles} == on_figure
        if kind == "play":
            assert step.board.last == tuple(event["cell"])
            assert event["tile"] in step.text and str(event["cell"]) in step.text


def test_open_cells_are_the_legal_cells_of_the_reference_model(game: Path) -> None:
    from helpers import ref_legal_cells

    timeline = build_timeline(game)
    checked = 0
    for step in timeline.steps:
        if step.kind in ("play", "draw", "pass") and step.to_act is not None:
            tile_at = {t.cell: t.name for t in step.board.tiles}
            assert set(step.board.open_cells) == ref_legal_cells(tile_at, step.board.last)
            checked += 1
    assert checked > 20


# ------------------------------------------------------------------------------ SVG
def counting_pairs(tile_at: dict, cell: tuple[int, int]) -> int:
    """Counting contacts of the tile on ``cell`` by the reference model (tiles lie unturned)."""
    mine = TILES.values[TILES.tile(tile_at[cell])]
    count = 0
    for side, neighbour in enumerate(ref_neighbours(cell)):
        if neighbour in tile_at:
            theirs = TILES.values[TILES.tile(tile_at[neighbour])]
            count += (mine[side] + theirs[side]) % 5 == 0
    return count


def parse_points(text: str) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in text.split()]  # type: ignore[misc]


def test_svg_draws_each_tile_as_an_equilateral_triangle_with_its_coloured_numbered_edges(game: Path) -> None:
    lines = read_lines(game)
    timeline = build_timeline(game)
    plays = [i for i, line in enumerate(lines) if line.get("event") == "play"]
    tested = 0
    for index in plays[5::7]:
        step = timeline.steps[index]
        root = ET.fromstring(render_svg(timeline, index).split("\n", 1)[1])
        assert root.tag == f"{SVG}svg"
        groups = root.findall(f".//{SVG}g[@class='tile-group']")
        polygons = root.findall(f".//{SVG}polygon[@class='tile']")
        tile_at = {tuple(map(int, g.get("data-cell").split(","))): g.get("data-tile") for g in groups}
        assert len(polygons) == len(groups) == len(step.board.tiles) == len(tile_at)
        for group in groups:
            values = TILES.values[TILES.tile(group.get("data-tile"))]
            edges = group.findall(f"{SVG}line[@class='edge']")
            assert sorted(e.get("data-colour") for e in edges) == sorted(TILES.colours)
            assert {e.get("stroke") for e in edges} == {"#1d4ed8", "#c81e1e", "#d98b00"}
            numbers = [int(t.text) for t in group.findall(f"{SVG}text[@class='number']")]
            assert sorted(numbers) == sorted(values)
            corners = parse_points(group.find(f"{SVG}polygon").get("points"))
            sides = [math.dist(corners[i], corners[(i + 1) % 3]) for i in range(3)]
            assert max(sides) - min(sides) < 0.5
        last = root.findall(f".//{SVG}polygon[@class='last']")
        assert len(last) == 1 and last[0].get("data-cell") == ",".join(map(str, lines[index]["cell"]))
        counting = root.findall(f".//{SVG}line[@class='counting']")
        assert len(counting) == counting_pairs(tile_at, tuple(lines[index]["cell"]))
        assert len(root.findall(f".//{SVG}polygon[@class='open']")) == len(step.board.open_cells)
        tested += 1
    assert tested >= 4


def test_neighbouring_tiles_share_an_edge_on_the_page(game: Path) -> None:
    timeline = build_timeline(game)
    fullest = max(step.index for step in timeline.steps if step.hand == 1 and step.kind == "play")  # hand 1's last
    root = ET.fromstring(render_svg(timeline, fullest).split("\n", 1)[1])
    corners = {tuple(map(int, g.get("data-cell").split(","))): {tuple(round(v) for v in p) for p in
               parse_points(g.find(f"{SVG}polygon").get("points"))} for g in root.iter(f"{SVG}g")
               if g.get("class") == "tile-group"}
    pairs = 0
    for cell, points in corners.items():
        for neighbour in ref_neighbours(cell):
            if neighbour in corners:
                assert len(points & corners[neighbour]) == 2, (cell, neighbour)
                pairs += 1
        x, y = cell
        apex_up = min(p[1] for p in points) < sorted(p[1] for p in points)[1]
        assert apex_up == ((x + y) % 2 == 0), f"{cell} should point {'up' if (x + y) % 2 == 0 else 'down'}"
    assert pairs > 0


# ------------------------------------------------------------------------------ HTML
def test_html_is_self_contained_and_holds_every_event_and_the_rulesets_terms(game: Path) -> None:
    timeline = build_timeline(game)
    page = render_html(timeline)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<link" not in page and "@import" not in page
    assert page.count('<li data-step="') == len(timeline.steps)
    assert '<html lang="en">' in page
    for term in ("Counting Contact", "Orange", "Score"):
        assert term in page
    svg_part = page[page.index('<svg id="figure"'):page.index("</svg>") + 6]
    ET.fromstring(svg_part)


def test_html_speaks_the_rulesets_language(tmp_path: Path) -> None:
    ruleset = tmp_path / "spanish-test.yaml"
    ruleset.write_text(
        "format: contack-ruleset/1\nid: spanish-test\ntitle: Contack (edición de prueba)\nextends: parker-1939\n"
        "terms:\n  language: es\n  counting: Contack de Contar\n  matching: Contack de Aparear\n  hand: mano\n"
        "  score: tanteo\n  colours: {blue: Azul, red: Rojo, gold: Naranja}\n", encoding="utf-8")
    record = tmp_path / "game.jsonl"
    play_recorded_game(3, 5, record, rules=load_rules(ruleset))
    page = render_html(build_timeline(record))
    assert '<html lang="es">' in page
    for word in ("Contack de Contar", "Naranja", "Siguiente", "Mano", "Tanteo"):
        assert word in page, word
    assert "Counting Contact" not in page and ">Next" not in page


def test_step_ranges_compress_consecutive_steps() -> None:
    assert step_ranges([0]) == "0"
    assert step_ranges([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10"


# ------------------------------------------------------------------------------ terminal and CLI
def test_to_n_prints_the_position_after_event_n(game: Path) -> None:
    lines = read_lines(game)
    n = next(i for i, line in enumerate(lines) if line.get("event") == "play" and line["points"] > 0)
    result = run_cli("replay", game, "--to", n)
    assert result.exit_code == 0, result.output
    assert f"event {n} of {len(lines) - 1}" in result.stdout
    assert lines[n]["tile"] in result.stdout and f"= {lines[n]['points']}" in result.stdout
    scores = expected_scores(lines)[n]
    assert "Total (so far): " + " · ".join(f"p{s} (seat {s}) {v}" for s, v in enumerate(scores)) in result.stdout
    start = run_cli("replay", game, "--to", 0)
    assert "event 0 of" in start.stdout and "stock: 36" in start.stdout


def test_without_a_terminal_replay_prints_every_event_then_the_end(game: Path) -> None:
    lines = read_lines(game)
    result = run_cli("replay", game)
    assert result.exit_code == 0
    assert f"event {len(lines) - 1} of {len(lines) - 1}" in result.stdout
    assert "Total: " in result.stdout and "(so far)" not in result.stdout.split("event ")[-1]
    assert len([l for l in result.stdout.splitlines() if re.match(r"^\s*\d+  ", l)]) == len(lines) - 1


def test_stepper_keys_move_forward_back_and_by_hand(game: Path) -> None:
    timeline = build_timeline(game)
    starts = timeline.hand_starts()
    shown: list[str] = []
    end = run_stepper(timeline, iter(["n", "right", " ", "left", "]", "3", "p", "G", "n", "q", "n"]), shown.append)
    assert end == len(timeline.steps) - 1
    assert len(shown) == 10  # the first screen, then one per key up to q
    assert "event 2 of" in shown[2] and "event 2 of" in shown[4]
    assert f"event {starts[2]} of" in shown[5] and f"event {starts[3]} of" in shown[6]
    assert f"event {starts[3] - 1} of" in shown[7]
    assert next_position(timeline, 0, "left") == 0 and next_position(timeline, 0, "x") == 0
    assert next_position(timeline, starts[2] + 3, "[") == starts[2]
    assert next_position(timeline, starts[2], "[") == starts[1]


def test_svg_and_html_files_from_the_cli(game: Path, tmp_path: Path) -> None:
    svg, html = tmp_path / "f.svg", tmp_path / "r.html"
    result = run_cli("replay", game, "--svg", svg, "--at", 12, "--html", html)
    assert result.exit_code == 0, result.output
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert run_cli("replay", game, "--at", 3).exit_code == 2
    bad = run_cli("replay", game, "--svg", svg, "--at", 10_000)
    assert bad.exit_code == 2 and "events 0 to" in bad.output
    missing = run_cli("replay", tmp_path / "nope.jsonl")
    assert missing.exit_code == 2 and "unreadable" in missing.output
    # --to without --at: the figure drawn is the position printed, not the last one.
    with_to = run_cli("replay", game, "--to", 12, "--svg", tmp_path / "to.svg")
    assert with_to.exit_code == 0 and f"figure after event 12 written to {tmp_path / 'to.svg'}" in with_to.output
    assert (tmp_path / "to.svg").read_bytes() == svg.read_bytes()


def test_record_with_an_unknown_ruleset_is_one_clear_error(game: Path, tmp_path: Path) -> None:
    lines = read_lines(game)
    lines[0]["ruleset"] = "no-such-ruleset"
    bad = tmp_path / "bad.jsonl"
    write_lines(bad, lines)
    result = run_cli("replay", bad, "--to", 0)
    assert result.exit_code == 1 and "no-such-ruleset" in result.output and ":1:" in result.output


# ------------------------------------------------------------------------------ unsound records
def test_unsound_record_is_shown_up_to_the_bad_event_with_the_audits_message(game: Path, tmp_path: Path) -> None:
    lines = read_lines(game)
    bad_at = next(i for i, line in enumerate(lines) if line.get("event") == "play" and line["points"] > 0 and i > 20)
    lines[bad_at]["points"] += 1
    lines.append({"event": "pass", "seat": 0})  # never reached
    bad = tmp_path / "unsound.jsonl"
    write_lines(bad, lines)
    verdict = audit_record(bad)
    assert not verdict.valid and verdict.line == bad_at + 1
    timeline = build_timeline(bad)
    assert len(timeline.steps) == bad_at + 1
    assert timeline.fault == (verdict.line, verdict.error)
    last = timeline.steps[-1]
    assert last.error == verdict.error and last.line == verdict.line
    assert all(step.error is None for step in timeline.steps[:-1])
    assert last.board == timeline.steps[-2].board  # the refused play is not on the figure
    assert verdict.error in render_svg(timeline, bad_at)
    assert verdict.error in render_html(timeline)
    result = run_cli("replay", bad, "--to", bad_at)
    assert result.exit_code == 1
    assert verdict.error in result.stdout and f"{bad}:{verdict.line}: unsound" in result.output


def test_a_line_that_is_not_json_is_the_bad_event(game: Path, tmp_path: Path) -> None:
    text = game.read_text(encoding="utf-8").splitlines()
    text[9] = "{not json"
    bad = tmp_path / "broken.jsonl"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    timeline = build_timeline(bad)
    assert len(timeline.steps) == 10 and timeline.fault is not None and timeline.fault[0] == 10
    assert "not JSON" in timeline.steps[-1].error
    assert position_text(timeline, 9).count("!!") == 1


# ------------------------------------------------------------------------------ events and boards to come
def test_event_kinds_without_words_are_told_field_by_field(game: Path) -> None:
    timeline = build_timeline(game)
    rules, seats = timeline.rules, timeline.seats
    text = describe_event({"event": "discard", "seat": 1, "tile": "09-02-08"}, seats, rules, None)
    assert text == 'discard: seat p1 (seat 1), tile "09-02-08"'
    chips = describe_event({"event": "chips", "from": [0, 2], "to": 1, "count": 3}, seats, rules, None)
    assert chips.startswith("chips: ") and "count 3" in chips
    assert describe_event({"event": "play", "seat": 0}, seats, rules, None).startswith("play: ")
    step = attrs.evolve(timeline.steps[20], kind="discard", text=text)
    odd = attrs.evolve(timeline, steps=timeline.steps[:20] + (step,))
    assert text in render_svg(odd, 20).replace("&quot;", '"')
    assert "discard" in render_html(odd) and text in position_text(odd, 20)


def test_a_board_the_replay_cannot_draw_still_replays_as_text(game: Path) -> None:
    timeline = attrs.evolve(build_timeline(game), board_kind=None)
    root = ET.fromstring(render_svg(timeline, 30).split("\n", 1)[1])
    assert not root.findall(f".//{SVG}polygon")
    assert "cannot draw" in render_svg(timeline, 30)
    assert "Total (so far)" in position_text(timeline, 30)
    render_html(timeline)


# ------------------------------------------------------------------------------ every shipped ruleset
@pytest.mark.parametrize("ruleset_id", shipped_ruleset_ids())
def test_every_shipped_ruleset_replays_in_all_three_views(ruleset_id: str, tmp_path: Path) -> None:
    rules = load_rules(ruleset_id)
    record = tmp_path / "game.jsonl"
    seats = max(rules.players[0], min(3, rules.players[1]))
    play_recorded_game(seats, 11, record, rules=rules)
    lines = read_lines(record)
    timeline = build_timeline(record)
    assert timeline.fault is None and len(timeline.steps) == len(lines)
    assert timeline.board_kind is not None, f"{ruleset_id}: the replay cannot draw its board"
    holds_tiles = any(zone.per_seat for zone in rules.zones.values())  # not so on Klauber's board
    for index in range(0, len(timeline.steps), 9):
        ET.fromstring(render_svg(timeline, index).split("\n", 1)[1])
        text = position_text(timeline, index)
        assert re.search(rf"\b{index} \w+ {len(timeline.steps) - 1}\b", text)
        assert (f"{viewer_words(rules.term('language'))['held']}:" in text) == holds_tiles, text
    if lines[-1]["event"] == "game_end":
        assert list(timeline.steps[-1].scores) == lines[-1]["totals"]
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", render_html(timeline))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 7))
def test_any_game_replays_to_the_records_totals(seed: int, seats: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    record = tmp_path_factory.mktemp("prop") / "game.jsonl"
    play_recorded_game(seats, seed, record)
    lines = read_lines(record)
    timeline = build_timeline(record)
    assert [list(s.scores) for s in timeline.steps] == expected_scores(lines)
    ET.fromstring(render_svg(timeline, len(lines) - 2).split("\n", 1)[1])


def test_seats_one_bot_shares_are_told_apart(tmp_path: Path) -> None:
    """One bot in several seats: random#1, random#2 in the text, the SVG and the HTML; a name of its own stays."""
    record = tmp_path / "shared.jsonl"
    assert run_cli("play", "parker-1939", "--seats", "random,random,greedy", "--seed", "2", "--record", record,
                   "--quiet").exit_code == 0
    timeline = build_timeline(record)
    assert timeline.seats == ("random#1", "random#2", "greedy")
    text = run_cli("replay", record, "--to", "8").output
    assert "random#1 (seat 0)" in text and "random#2 (seat 1)" in text and "greedy (seat 2)" in text
    assert "random (seat" not in text
    assert "random#1" in render_svg(timeline, len(timeline.steps) - 1)
    assert '"random#2"' in render_html(timeline)
