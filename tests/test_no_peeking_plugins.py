"""The no-peeking property covers plugins: installed next to contack (a distribution on the path
with a ``contack.players`` entry point, as pip would leave it), a plugin bot that looks at the
tiles its seat cannot see makes tests/test_no_peeking.py fail, and an honest one passes it.

tests/test_no_peeking.py runs in a child pytest with the two plugins on its PYTHONPATH and its
working folder in tmp_path (Hypothesis keeps its database there); it checks them on one ruleset.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

PLUGINS = '''
"""Two plugin bots for the no-peeking test: one reads the hidden tiles, one does not."""
import zlib

from contack_core.engine.bots import Player
from contack_core.engine.information import Visibility


class Honest(Player):
    name = "honestplugin"

    def choose(self, state):
        legal = state.legal_actions()
        return legal[len(legal) // 2]


class Peeking(Player):
    """Picks by the order of the tiles its seat cannot see: a different order, another choice."""

    name = "peekingplugin"

    def choose(self, state):
        legal = state.legal_actions()
        hidden = [zone[:count] for zone, count in Visibility.of(state.rules).hidden_runs(state, state.current)]
        return legal[zlib.crc32(repr(hidden).encode()) % len(legal)]
'''

ENTRY_POINTS = """[contack.players]
honestplugin = contack_test_plugins:Honest
peekingplugin = contack_test_plugins:Peeking
"""


def test_an_installed_plugin_that_peeks_fails_the_no_peeking_test_and_an_honest_one_passes(tmp_path: Path):
    site = tmp_path / "site"
    info = site / "contack_test_plugins-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "contack_test_plugins.py").write_text(PLUGINS, encoding="utf-8")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: contack-test-plugins\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
         str(HERE / "test_no_peeking.py"), "-k", "plugin and parker-1939 or every_installed"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    out = run.stdout
    summary = [line.split(" ", 1) for line in out.split("short test summary info")[-1].splitlines()
               if line.startswith(("PASSED", "FAILED", "ERROR"))]
    outcomes = {test.rpartition("::")[2].split(" ")[0]: outcome for outcome, test in summary}
    choice = "test_a_bots_choice_does_not_depend_on_what_its_seat_cannot_see"
    assert outcomes == {f"{choice}[peekingplugin-parker-1939]": "FAILED",
                        f"{choice}[honestplugin-parker-1939]": "PASSED",
                        "test_every_installed_bot_is_checked_or_skipped_with_its_reason": "PASSED"}, out + run.stderr
