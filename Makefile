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

venv: $(VENV)/.installed

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
