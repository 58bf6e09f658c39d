# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test setup bench screenshots clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# compat mode: a plain path entry; the default editable import hook costs ~9 ms at every start
	$(BIN)/python -m pip install --quiet -e '.[test]' --config-settings editable_mode=compat
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/ctxtui demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
