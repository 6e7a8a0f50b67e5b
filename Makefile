# argkb: `make demo` sets everything up and runs the main job; `make test` sets up and runs all tests.
# Everything is installed here: the virtualenv, Python packages, and Neo4j (+ GDS, APOC) via Maven.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ARGKB  := $(BIN)/argkb
STAMP  := $(VENV)/.installed
TORCH  := torch==2.13.0

.PHONY: help install neo4j chromium demo test test-unit lint bench clean server-stop

help:
	@echo "make demo   - install everything, start the managed Neo4j, run the demo job"
	@echo "make test   - install everything and run all tests (unit + neo4j + slow)"
	@echo "make lint   - ruff (lint + format check) and mypy; CI runs it before the tests"

# The virtualenv takes about 7 GB (torch from PyPI brings its CUDA libraries), and pip needs room
# for the downloads beside it: a new one is refused in one line, before anything is written, when
# the disk is short.
MIN_FREE_GB ?= 10

$(STAMP): pyproject.toml
	@free=$$(df -Pk . | awk 'NR==2 {print int($$4 / 1048576)}'); \
	if [ ! -d $(VENV) ] && [ "$$free" -lt $(MIN_FREE_GB) ]; then \
	  echo "make: installing the virtualenv needs about $(MIN_FREE_GB) GB free (torch and its CUDA libraries); $(CURDIR) has $$free GB free" >&2; \
	  exit 1; \
	fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip "setuptools>=77" wheel
	$(BIN)/pip install --quiet $(TORCH)
	$(BIN)/pip install --quiet -e '.[test,dev,spark,onnx]'
	touch $(STAMP)

install: $(STAMP)

neo4j: $(STAMP)
	$(ARGKB) server install

demo: neo4j
	$(ARGKB) server start
	$(ARGKB) init
	$(ARGKB) load argsme examples/debates.json
	$(ARGKB) embed
	$(ARGKB) cluster
	$(ARGKB) pagerank --top 5
	$(ARGKB) sentences
	$(ARGKB) status
	@# the Browser URL; restarts the server once if it runs with HTTP off (the port is then saved)
	@# and warms the restarted server up, so that the query below is not slow
	$(ARGKB) browse --no-open --restart
	$(ARGKB) query "We should abandon fossil fuels" --k 5

# Debian's chromium drives the real-browser tests (playwright, from the test extra, is told
# where it is); installed once, as root, from Debian's packages.
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

test: neo4j chromium
	$(BIN)/pytest

test-unit: $(STAMP)
	$(BIN)/pytest tests/unit

# `make bench` lists the benchmarks; `make bench NAME=query ARGS="--arguments 1000"` runs one
# (python -m bench NAME ARGS, from the repository root).
bench: $(STAMP)
	$(BIN)/python -m bench $(NAME) $(ARGS)

# mypy checks build/mypy/argkb, the package as the wheel lays it out (.ci/mypy_tree.py; see
# pyproject's [tool.mypy]), so argkb.loaders and argkb.cypher keep their real types.
LINT_PATHS := argkb loaders tests bench synthcorpus .ci

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/python .ci/mypy_tree.py
	$(BIN)/mypy

server-stop: $(STAMP)
	$(ARGKB) server stop

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache
