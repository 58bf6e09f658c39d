# Two commands on a fresh machine: `make demo` (the app's dependencies, then the TUI on the demo)
# and `make test` (adds the test and lint tools, then the whole suite).
#
# Installing: uv (from PyPI, into .venv) installs the dependencies in seconds where pip takes
# a minute; where uv cannot be had (offline, no wheel for the platform), pip does it instead.
# hatchling's editable install is a plain .pth path entry: no import hook to pay for at every start.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
APP    := $(VENV)/.app-installed
DEV    := $(VENV)/.dev-installed
WITH_TOOLS := '.[test,lint]'
# pip's "a new release is available" notice is noise in a set-up log
export PIP_DISABLE_PIP_VERSION_CHECK := 1
UV     ?= $(shell command -v uv 2>/dev/null)

install = if test -x $(BIN)/uv; then $(BIN)/uv pip install --quiet --python $(BIN)/python $(1); \
          else $(BIN)/python -m pip install --quiet $(1); fi

.PHONY: demo test lint setup bench screenshots clean

# The venv, and uv in it: the uv on PATH if there is one; else from PyPI through the system's pip
# (pip --python, no pip copied into the venv); else a venv with its own pip, which installs uv or,
# failing that, everything itself.
$(BIN)/python:
	@if test -n "$(UV)"; then \
	    $(UV) venv --quiet --python $(PYTHON) $(VENV) && ln -sf "$(UV)" $(BIN)/uv; \
	elif $(PYTHON) -m venv --without-pip $(VENV) && $(PYTHON) -m pip --python $(BIN)/python install --quiet uv; then \
	    :; \
	else \
	    $(PYTHON) -m venv $(VENV) && { $(BIN)/python -m pip install --quiet uv || echo "uv unavailable: pip installs instead (slower)"; }; \
	fi

$(APP): pyproject.toml | $(BIN)/python
	@$(call install,-e .)
	@touch $@

# pip too: the tests build a wheel with it (tests/test_wheel.py), and a venv made by uv has none.
$(DEV): pyproject.toml $(APP)
	@$(call install,-e $(WITH_TOOLS) pip)
	@touch $@

setup: $(DEV)

demo: $(APP)
	$(BIN)/ctxtui demo

test: $(DEV)
	$(BIN)/python -m pytest -q

# ruff (lint and format), mypy (strict on the engine), import-linter (the layers)
lint: $(DEV)
	$(BIN)/ruff check ctxtui tests bench scripts
	$(BIN)/ruff format --check ctxtui tests bench scripts
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: $(DEV)
	$(BIN)/python bench/run_all.py

# The screenshots' PNGs need rsvg-convert (Debian: librsvg2-bin) and a font with every glyph on screen.
screenshots: $(DEV)
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
