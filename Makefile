# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Four workers: the e2e tests mostly wait on the bot process, so more workers than cores pay off.
PYTEST_WORKERS ?= 4

pytest: $(STAMP)
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS)

test: lint typecheck pytest

# Everything but the end-to-end tests (no bot process): the quick loop while developing.
test-fast: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m "not e2e"

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
