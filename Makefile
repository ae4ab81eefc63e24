# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean lock

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

pytest: $(STAMP)
	$(BIN)/python -m pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
