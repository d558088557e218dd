# The two commands of the README. Each creates .venv and installs the project on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench strength scaling suggestions clean browser analysis-bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/contack tournament run demo --output demo-tournament
	$(BIN)/contack tournament report demo-tournament
	$(BIN)/contack audit $$(ls demo-tournament/records/*.jsonl | head -n 1)

# The HTML replay test drives Debian's chromium through Playwright. Installing it needs root;
# without it the browser test skips and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -q && apt-get install -y -q chromium) \
		|| echo "chromium is not installed and could not be (not root?): the browser test will skip"

test: $(STAMP) browser
	$(BIN)/python -m pytest

# The yardstick is a hand-written engine outside this project; without it the bench still
# measures the interpreter and the audit, and says what it would need for the comparison.
YARDSTICK ?= ../shared/bench/reference_parker.py
BENCH_GAMES ?= 2000

bench: $(STAMP)
	@if [ -f "$(YARDSTICK)" ]; then \
		$(BIN)/contack bench parker-1939 --games $(BENCH_GAMES) --players 4 --audit --compare "$(YARDSTICK)"; \
	else \
		echo "make bench: no yardstick at $(YARDSTICK): the comparison with the hand-written reference engine"; \
		echo "  needs it (it is not part of this project; make bench YARDSTICK=PATH names another place)."; \
		echo "  Measuring the interpreter and its audit alone:"; \
		$(BIN)/contack bench parker-1939 --games $(BENCH_GAMES) --players 4 --audit; \
	fi

# Every pair of built-in bots over the same deals, seats swapped: win rates with 95% intervals.
strength: $(STAMP)
	$(BIN)/python -m players.strength --bots random,greedy,cautious,mcts --deals 100 --seed 1

scaling: $(STAMP)
	$(BIN)/python -m tournaments.scaling

# contack analyze with its defaults on every shipped ruleset and example: seconds, CPU and games of each.
analysis-bench: $(STAMP)
	$(BIN)/python -m tournaments.analysis.bench --examples

# How often contack audit's first suggestion is what was meant: one typo in each of 1,000 played records.
suggestions: $(STAMP)
	$(BIN)/python -m contack_core.records.suggest_study --ruleset parker-1939 --records 1000 --seed 1
	$(BIN)/python -m contack_core.records.suggest_study --ruleset parker-1939 --records 1000 --seed 1 --no-points

clean:
	rm -rf $(VENV) demo-game.jsonl demo-tournament
