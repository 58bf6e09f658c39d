# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# pip's "a new release is available" notice is noise in a set-up log
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: demo test lint setup bench screenshots clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# hatchling's editable install is a plain .pth path entry: no import hook to pay for at every start
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/ctxtui demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

# ruff (lint and format), mypy (strict on the engine), import-linter (the layers)
lint: $(STAMP)
	$(BIN)/ruff check ctxtui tests bench scripts
	$(BIN)/ruff format --check ctxtui tests bench scripts
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
