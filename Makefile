# The two commands of the README. Each creates .venv and installs the project on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench scaling clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/contack tournament run demo --output demo-tournament
	$(BIN)/contack tournament report demo-tournament
	$(BIN)/contack audit $$(ls demo-tournament/records/*.jsonl | head -n 1)

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/contack bench parker-1939 --games 2000 --players 4 --compare ../shared/bench/reference_parker.py

scaling: $(STAMP)
	$(BIN)/python -m tournaments.scaling

clean:
	rm -rf $(VENV) demo-game.jsonl demo-tournament
