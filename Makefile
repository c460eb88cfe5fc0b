# Everything starts from a fresh machine: the first target that needs the venv builds it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all setup demo test bench lint firmware flash hardware clean

all: test

setup: $(STAMP)

$(STAMP): host/pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e 'host[dev]'
	touch $@

# A full Stick Stack game on a simulated table, with the real firmware under MicroPython.
demo: $(STAMP)
	$(BIN)/sticktable run --sim --seed 7 --players Ann,Bo,Cy --speed 0 --journal $(VENV)/demo-journal.sqlite

test: $(STAMP)
	$(BIN)/python -m pytest -q tests

bench: $(STAMP)
	@for b in tests/bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check host tests firmware
	$(BIN)/ruff format --check host tests firmware

clean:
	rm -rf $(VENV) build
