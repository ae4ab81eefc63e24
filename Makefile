# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint typecheck pytest bench clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Pinned, hash-checked versions from the lock (the Dockerfile and Heroku use requirements.lock,
# its runtime subset); then Hangar itself, editable, without re-resolving anything.
$(STAMP): pyproject.toml requirements-dev.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Re-pin after editing dependencies in pyproject.toml (pip-tools; commit both files).
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --output-file requirements.lock pyproject.toml
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --extra dev --output-file requirements-dev.lock pyproject.toml

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

# Every bench in bench/; bench/e2e_moves.py ends with the small-host targets (issue 29), each a
# ratio to a floor measured in the same run with "holds" or "does not hold".
bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
