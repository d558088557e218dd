"""``contack tournament report DIR --html FILE``: the report as one page, every figure the terminal
shows, every value escaped (names from a stored config, fault kinds and game keys from records)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import yaml
from helpers import run_cli
from test_hostile_text import PAYLOADS
from test_tournament_report import CONFIG, ranks_of, rotations_of, row

from tournaments.render import interval_cell
from tournaments.report import build_report
from tournaments.report_html import page

#: Every element the page may hold: no script, no link, no image, nothing that loads or runs.
ALLOWED = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "table", "tr", "th", "td",
           "svg", "text", "line", "circle"}


class Reader(HTMLParser):
    """The page read back: its elements with their attributes, and its text, cell by cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[str] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
        if self._cell is not None:
            self._cell.append(data)


def read(text: str) -> Reader:
    reader = Reader()
    reader.feed(text)
    reader.close()
    return reader


def mixed_rows() -> list:
    """Tables of 2 and 3 over ten deals each (every rotation), w ahead of x at 2, x ahead at 3; one game faulted."""
    rows = []
    for deal in range(10):
        for seating in rotations_of((0, 1)):
            scores = [40 if e == 0 else 10 + deal for e in seating]
            rows.append(row(deal, seating, tuple(scores), ranks_of(scores)))
        for seating in rotations_of((0, 1, 2)):
            scores = [30 if e == 1 else 20 if e == 0 else deal for e in seating]
            rows.append(row(100 + deal, seating, tuple(scores), ranks_of(scores)))
    fault = {"seat": 1, "kind": "timeout", "reason": "slow"}
    rows[0] = row(0, rows[0].seating, rows[0].scores, rows[0].ranks, status="faulted", faults=(fault,))
    return rows


def test_the_page_holds_every_figure_of_the_report() -> None:
    config = {**CONFIG, "entrants": CONFIG["entrants"][:3]}
    report = build_report(config, mixed_rows(), bootstrap=50)
    text = page(report)
    found = read(text)
    assert text.startswith("<!doctype html>")
    assert {tag for tag, _ in found.tags} <= ALLOWED
    words = " ".join(found.texts)
    for title in ("Standings, tables of 2 (20 games, 10 deals)", "Standings, tables of 3 (30 games, 10 deals)",
                  "Pooled rating", "Seat order", "Paired comparisons", "Cross-table", "What duplicate deals save",
                  "Faults"):
        assert title in words, title
    for table in report.by_table_size:  # each size's standings, every cell as the terminal shows it
        for s in table.standings:
            for cell in (interval_cell(s.rating), interval_cell(s.mean_score, 1),
                         interval_cell(s.win_rate, 1, percent=True)):
                assert cell in found.cells, (table.table_size, s.name, cell)
    for pair in report.pairs:
        assert f"{pair.a} vs {pair.b}" in found.cells and pair.verdict in found.cells
    assert "timeout: 1" in found.cells and report.fault_games["x"][0] in found.cells
    # A chart per table size's ratings, the pooled fit's and the paired comparisons'.
    assert sum(tag == "svg" for tag, _ in found.tags) == 4


def test_hostile_names_are_escaped_everywhere() -> None:
    """A results database is a file anyone may hand over: its config's names, the bots' parameters and the
    records' fault kinds reach the page as text, never as markup."""
    hostile = [p for p in PAYLOADS if "\ud800" not in p]
    entrants = [{"name": hostile[i], "player": hostile[i + 3], "params": {"x": hostile[i + 6]}} for i in range(3)]
    config = {**CONFIG, "name": hostile[0], "ruleset": hostile[1], "entrants": entrants}
    rows = mixed_rows()
    fault = {"seat": 0, "kind": hostile[2], "reason": "x"}
    rows[1] = row(0, rows[1].seating, rows[1].scores, rows[1].ranks, status="faulted", faults=(fault,))
    found = read(page(build_report(config, rows, bootstrap=20)))
    assert {tag for tag, _ in found.tags} <= ALLOWED, {tag for tag, _ in found.tags} - ALLOWED
    for tag, attributes in found.tags:
        assert not any(name.startswith("on") for name in attributes), (tag, attributes)
        assert all("pwned" not in (value or "") for value in attributes.values() if value), (tag, attributes)
    text = "".join(found.texts)
    for payload in hostile:  # each read back whole, as text
        assert payload in text, payload
    assert f"{hostile[3]}(x={hostile[6]})" in found.cells


def tournament(folder: Path) -> Path:
    config = folder / "t.yaml"
    config.write_text(yaml.safe_dump({
        "format": "contack-tournament/1", "name": "small", "ruleset": "parker-1939", "seed": 3,
        "entrants": [{"name": "careful", "player": "cautious"}, {"name": "eager", "player": "greedy"},
                     {"name": "dice", "player": "random"}],
        "seats": [2, 3], "deals": 6, "output": str(folder / "out")}), encoding="utf-8")
    assert run_cli("tournament", "run", config, "--quiet", "--workers", "1").exit_code == 0
    return folder / "out"


def test_the_command_writes_the_page_beside_the_text_report(tmp_path: Path) -> None:
    import json

    out = tournament(tmp_path)
    html = tmp_path / "report.html"
    result = run_cli("tournament", "report", out, "--html", html)
    assert result.exit_code == 0, result.output
    assert f"page written to {html}" in result.output and "Standings, tables of 2" in result.output
    found = read(html.read_text(encoding="utf-8"))
    report = json.loads(run_cli("tournament", "report", out, "--json").output)
    for size, standings in report["by_table_size"].items():
        assert f"Standings, tables of {size}" in " ".join(found.texts)
        for s in standings:
            assert s["name"] in found.cells
    quiet = run_cli("tournament", "report", out, "--json", "--html", tmp_path / "again.html")
    assert quiet.exit_code == 0 and json.loads(quiet.output)["name"] == "small", "--json stays one JSON object"
    assert (tmp_path / "again.html").read_text(encoding="utf-8") == html.read_text(encoding="utf-8")


def test_a_page_that_cannot_be_written_is_one_message(tmp_path: Path) -> None:
    out = tournament(tmp_path)
    result = run_cli("tournament", "report", out, "--html", tmp_path / "no" / "page.html")
    assert result.exit_code == 1
    assert f"cannot write {tmp_path / 'no' / 'page.html'}: no folder {tmp_path / 'no'}" in result.output
