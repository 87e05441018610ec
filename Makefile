# v8atlas — `make run` compiles the embedded sample and serves it; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUNDLES ?= bundles
HOST ?= 127.0.0.1
PORT ?= 5001

.PHONY: venv run compile-sample lint test test-fast bench conformance clean

$(VENV)/.installed: pyproject.toml setup.py compiler/code/_bslscan.c
	$(PYTHON) -m venv $(VENV)
	@echo "creating $(VENV) and installing v8atlas with its dependencies (a minute or two)…"
	$(PY) -m pip install -qq --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -qq --disable-pip-version-check -e '.[dev]'
	touch $@

# The tree's bytecode, written once: an editable install leaves none, and where
# PYTHONDONTWRITEBYTECODE is set every run compiled ~90 modules again (≈ 0.2 s CPU per compile,
# 0.13 s of it before the parse starts). Python checks each file's mtime: an edit after this is
# compiled in memory until the next `make venv`.
PY_SOURCES := $(shell find compiler formats server v8atlas -name '*.py' 2>/dev/null)
$(VENV)/.bytecode: $(VENV)/.installed $(PY_SOURCES)
	$(PY) -m compileall -q compiler formats server v8atlas
	touch $@

venv: $(VENV)/.installed $(VENV)/.bytecode

compile-sample: venv
	$(VENV)/bin/v8atlas compile examples --out $(BUNDLES)

run: compile-sample
	$(VENV)/bin/v8atlas serve --bundles $(BUNDLES) --host $(HOST) --port $(PORT)

lint: venv
	$(VENV)/bin/ruff check .

test: venv lint
	$(PY) -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)

test-fast: venv
	$(PY) -m pytest -q -p no:cacheprovider -m "not slow and not realdata" $(PYTEST_ARGS)

bench: venv
	$(PY) tools/bench_bundle.py

clean:
	rm -rf $(VENV) $(BUNDLES) .pytest_cache build *.egg-info

conformance: venv
	bash tools/conformance.sh
