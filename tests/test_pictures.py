"""Pictures where people look (issue 30 item 6, the rest): Solitaire No. 2's seven piles in its
replay, Klauber's board with a legend as text and readable as a page 1,200 px wide (corner digits,
coordinates, a legend), and the figure drawn for the person playing as ``human``."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

from helpers import run_cli
from keeping import played_lines

from contack_core import load_rules
from contack_core.engine.state import GameState
from contack_core.records.keeper import Keeper
from contack_core.records.table import Table
from contack_core.replay.terminal import state_picture
from contack_core.replay.timeline import build_timeline


def record_of(tmp_path: Path, ruleset: str, seats: int, seed: int, name: str) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in played_lines(load_rules(ruleset), seats, seed)),
                    encoding="utf-8")
    return path


def test_the_solitaire_2_replay_shows_the_seven_piles_as_they_lie(tmp_path: Path) -> None:
    path = record_of(tmp_path, "solitaire-2", 1, 1, "s2.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    dealt = {line["zone"]: line["tiles"] for line in lines if line.get("event") == "deal"}
    assert len(dealt) == 7
    at = max(i for i, line in enumerate(lines) if line.get("event") == "deal")  # every pile dealt, none played
    out = run_cli("replay", path, "--to", at).output
    for zone, tiles in dealt.items():
        assert f"  {zone}: {' '.join(tiles[:-1])} [{tiles[-1]}]" in out, out
    told = [step.text for step in build_timeline(path).steps if step.kind == "deal"]
    assert told == [f"{zone}: {' '.join(tiles)}" for zone, tiles in dealt.items()]  # the hand's first deal too
    page = tmp_path / "s2.html"
    assert run_cli("replay", path, "--html", page).exit_code == 0
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                                page.read_text(encoding="utf-8"), re.S).group(1))
    assert data["steps"][at]["stacks"] == dealt


def test_klaubers_text_board_has_a_legend(tmp_path: Path) -> None:
    path = record_of(tmp_path, "klauber-1937", 2, 3, "k.jsonl")
    out = run_cli("replay", path, "--to", 13).output
    assert "  legend: r34 over 65 is a piece (its colour's initial) with its corner numbers as they lie" in out
    assert "  colours: b blue, g green, r red, y yellow" in out
    rules = load_rules("klauber-1937")
    keeper = Keeper.start(rules, ["ann", "bob"], tmp_path / "kept.jsonl", lambda text: None)
    board = Table(keeper, lambda prompt: None, lambda text: None, interactive=False).picture()
    assert "\nlegend: r34 over 65" in board and "\ncolours: b blue, g green, r red, y yellow" in board  # no replay drawing
    assert board in str(keeper.state)  # the board draws itself, through the position contract


def test_klaubers_svg_names_its_totals_and_carries_the_legend(tmp_path: Path) -> None:
    path = record_of(tmp_path, "klauber-1937", 2, 3, "k.jsonl")
    svg, figure = tmp_path / "k.svg", tmp_path / "p.svg"
    assert run_cli("replay", path, "--svg", svg, "--at", 13).exit_code == 0
    text = svg.read_text(encoding="utf-8")
    assert ">Tiles left (so far): p0 12, p1 12</text>" in text  # the counter is tiles left, not a score
    legend = text.split('<g class="legend"', 1)[1]
    assert "Each piece shows its corner numbers where they lie" in legend
    assert [name for name in ("blue", "green", "red", "yellow") if f">{name}</text>" in legend] == ["blue", "green",
                                                                                                      "red", "yellow"]
    parker = record_of(tmp_path, "parker-1939", 2, 3, "p.jsonl")
    assert run_cli("replay", parker, "--svg", figure, "--at", 13).exit_code == 0
    assert 'class="legend"' not in figure.read_text(encoding="utf-8")  # laid tiles need no legend


def test_the_human_player_sees_the_figure_drawn(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from contack_core.cli import app

    result = CliRunner().invoke(app, ["play", "parker-1939", "--seats", "human,random", "--seed", "2"],
                                input="1\n1\n" + "q\n" * 3)
    assert "▲ [  0,  0] 01-02-03: Blue 1 (bottom), Red 2 (right), Orange 3 (left)" in result.output
    assert "open cells:" in result.output
    assert "figure (last played" not in result.output
    from players.human import HumanPlayer

    player = HumanPlayer(0)
    player.output = io.StringIO()
    rules = load_rules("parker-1939")
    state = GameState(rules, 2)
    assert player.picture is None  # a bot-side player without the command line: the tiles listed, as before
    player.picture = state_picture
    assert "Triangles: -" in player.describe(state, [])


def test_klaubers_page_is_readable_at_1200_px(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The corner digits were 7 px high on a 1,200 px screen, with no coordinates and no legend."""
    path = record_of(tmp_path, "klauber-1937", 2, 3, "k.jsonl")
    page_file = tmp_path / "k.html"
    assert run_cli("replay", path, "--html", page_file).exit_code == 0
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    page.keyboard.press("End")
    digits = [box for box in (element.bounding_box() for element in page.query_selector_all("text.number"))
              if box is not None and box["height"] > 0]
    assert digits and min(box["height"] for box in digits) >= 11, digits[:3]
    axis = page.query_selector_all("g.axis text")
    assert [element.text_content() for element in axis][:4] == ["0", "0", "1", "1"]
    legend = page.inner_text("#legend")
    assert "corner numbers where they lie" in legend and "ringed" in legend
    assert "blue" in legend and "yellow" in legend
    box = page.query_selector("#legend").bounding_box()
    assert box is not None and box["width"] > 0
    if os.environ.get("CONTACK_KLAUBER_SCREENSHOT"):
        page.screenshot(path=os.environ["CONTACK_KLAUBER_SCREENSHOT"], full_page=True)
    assert not errors
    page.close()
