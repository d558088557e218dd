"""``contack tournament report DIR --plot FILE``: the picture never pools what the text says does not mix.

The demo's tables of 3 and 4 once went into one box plot of "score distributions" beside the
pooled rating: scores of different table sizes side by side as if one population. Now each table
size has its own row of panels, and the pooled rating its own, named as pooled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_tournament_report import CONFIG
from test_tournament_report_html import mixed_rows

import tournaments.plot
from tournaments.plot import report_panels
from tournaments.report import build_report


def test_each_table_size_has_its_own_scores_and_the_pooled_rating_none() -> None:
    rows = mixed_rows()
    report = build_report({**CONFIG, "entrants": CONFIG["entrants"][:3]}, rows, bootstrap=20)
    panels = report_panels(report, rows)
    assert [p.title for p in panels] == ["tables of 2: 20 games", "tables of 3: 30 games",
                                         "pooled rating, one fit over tables of 2 and 3 (scores do not mix)"]
    for panel, size in zip(panels, (2, 3)):
        expected: dict[str, list[int]] = {}
        for row in rows:
            if row.table_size == size:
                for name, score in zip(row.names, row.scores):
                    expected.setdefault(name, []).append(score)
        assert panel.scores == expected, size
        assert [s.name for s in panel.standings] == \
            [s.name for s in next(t for t in report.by_table_size if t.table_size == size).standings]
    assert panels[2].scores is None and [s.name for s in panels[2].standings] == [s.name for s in report.standings]


def test_the_picture_draws_a_row_per_table_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    rows = mixed_rows()
    report = build_report({**CONFIG, "entrants": CONFIG["entrants"][:3]}, rows, bootstrap=20)
    drawn: list[Any] = []
    saved = tournaments.plot.save
    monkeypatch.setattr(tournaments.plot, "save", lambda figure, path, dpi: (drawn.append(
        [(axis.get_title(loc="left"), axis.axison) for axis in figure.axes]), saved(figure, path, dpi)))
    tournaments.plot.plot_report(report, rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 0
    titles = [title for title, shown in drawn[0] if shown]
    assert titles == ["Ratings, tables of 2: 20 games", "Scores, tables of 2: 20 games",
                      "Ratings, tables of 3: 30 games", "Scores, tables of 3: 30 games",
                      "Ratings, pooled rating, one fit over tables of 2 and 3 (scores do not mix)"]
