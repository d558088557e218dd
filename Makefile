# The two commands of the README. Each creates .venv and installs into it on first use: make demo
# what the demo needs (the project alone), make test the project with every extra and the test
# tools. Both install the versions in constraints.txt, those the suite last passed with (make
# constraints refreshes them).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CONSTRAINTS := constraints.txt
INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check -c $(CONSTRAINTS)
# The suite runs on every core (pytest-xdist); tests that share a Ray session run on one worker.
PYTEST_ARGS ?= -n auto --dist loadgroup

.PHONY: demo test constraints bench strength scaling suggestions clean browser analysis-bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.demo: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(INSTALL) -e .
	touch $@

$(VENV)/.test: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(INSTALL) -e '.[test]'
	touch $@ $(VENV)/.demo

demo: $(VENV)/.demo
	$(BIN)/contack tournament run demo --output demo-tournament
	$(BIN)/contack tournament report demo-tournament
	$(BIN)/contack audit $$(ls demo-tournament/records/*.jsonl | head -n 1)

# The HTML replay test drives Debian's chromium through Playwright. .ci/install-chromium installs
# it (as root; nothing unrelated is upgraded; a busy apt is waited for); without it the browser
# test skips and says why.
browser:
	@.ci/install-chromium

test: $(VENV)/.test browser
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Today's releases in a venv of their own: the suite is run on them, and constraints.txt is
# rewritten with their versions only if it passes.
REFRESH := .venv-refresh
constraints: browser
	rm -rf $(REFRESH)
	$(PYTHON) -m venv $(REFRESH)
	$(REFRESH)/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	$(REFRESH)/bin/python -m pytest $(PYTEST_ARGS)
	{ echo "# The versions make test installs: those the suite last passed with, on $$(date -u +%F)."; \
	  echo "# make constraints installs today's releases, runs the suite on them and, if it passes, rewrites this."; \
	  $(REFRESH)/bin/python -m pip freeze --all --exclude-editable | grep -v "^pip=="; } > $(CONSTRAINTS)
	rm -rf $(REFRESH)

# The yardstick is a hand-written engine outside this project; without it the bench still
# measures the interpreter and the audit, and says what it would need for the comparison.
YARDSTICK ?= ../shared/bench/reference_parker.py
BENCH_GAMES ?= 2000
# Alternating rounds: the ratios' medians (ratio_median, and ratio_cpu by time on the processor).
BENCH_ROUNDS ?= 5

bench: $(VENV)/.demo
	@if [ -f "$(YARDSTICK)" ]; then \
		$(BIN)/contack bench parker-1939 --games $(BENCH_GAMES) --players 4 --audit --rounds $(BENCH_ROUNDS) \
			--compare "$(YARDSTICK)"; \
	else \
		echo "make bench: no yardstick at $(YARDSTICK): the comparison with the hand-written reference engine"; \
		echo "  needs it (it is not part of this project; make bench YARDSTICK=PATH names another place)."; \
		echo "  Measuring the interpreter and its audit alone:"; \
		$(BIN)/contack bench parker-1939 --games $(BENCH_GAMES) --players 4 --audit --rounds $(BENCH_ROUNDS); \
	fi

# Every pair of built-in bots over the same deals, seats swapped: win rates with 95% intervals.
strength: $(VENV)/.demo
	$(BIN)/python -m players.strength --bots random,greedy,cautious,mcts --deals 100 --seed 1

scaling: $(VENV)/.demo
	$(BIN)/python -m tournaments.scaling

# contack analyze with its defaults on every shipped ruleset and example: seconds, CPU and games of each.
analysis-bench: $(VENV)/.demo
	$(BIN)/python -m tournaments.analysis.bench --examples

# How often contack audit's first suggestion is what was meant: one typo in each of 1,000 played records.
suggestions: $(VENV)/.demo
	$(BIN)/python -m contack_core.records.suggest_study --ruleset parker-1939 --records 1000 --seed 1
	$(BIN)/python -m contack_core.records.suggest_study --ruleset parker-1939 --records 1000 --seed 1 --no-points

clean:
	rm -rf $(VENV) $(REFRESH) demo-game.jsonl demo-tournament
