# Everything starts from a fresh machine: the first target that needs the venv builds it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STUBS := $(VENV)/stubs/.installed

.PHONY: all setup demo test bench lint firmware flash hardware stubs screenshots clean

all: test

setup: $(STAMP)

$(STAMP): host/pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e 'host[dev]'
	touch $@

# A full Stick Stack game on a simulated table, with the real firmware under MicroPython,
# at four times real speed (SPEED=0: as fast as it goes). The journal stays in .venv/.
SPEED ?= 4
demo: $(STAMP)
	$(BIN)/sticktable run --sim --seed 3 --players Ann,Bo,Cy --speed $(SPEED) \
		--journal $(VENV)/demo-journal.sqlite

# Programs from Debian the tests run for real; as root (CI) they are installed when missing,
# otherwise this fails loudly and so do the tests. The web console's browser tests drive
# Debian's chromium (never a browser download); the house's tests a real mosquitto.
CHROMIUM := /usr/bin/chromium
MOSQUITTO := /usr/sbin/mosquitto
$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
$(MOSQUITTO):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto

# Every test, the lint and the firmware type-check included (tests/hardware/test_lint.py),
# on TEST_JOBS processes (pytest-xdist): many tests wait on real programs (a daemon, a board
# under MicroPython, a browser, a broker), so two workers keep both cores busy. TEST_JOBS=0
# runs them in this process (for a debugger or -s).
TEST_JOBS ?= 2
test: $(STAMP) $(STUBS) $(CHROMIUM) $(MOSQUITTO)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) tests

# The README's pictures of the web console, taken by its browser tests.
screenshots: $(STAMP) $(CHROMIUM)
	STICKTABLE_SCREENSHOTS=host/docs/screenshots $(BIN)/python -m pytest -q tests/web

bench: $(STAMP) $(MOSQUITTO)
	@for b in tests/bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Hardware helper's targets (hardware/README.md). PROFILE picks a board from hardware/pinmap.json.
PROFILE ?= pico

# MicroPython type stubs live outside the venv (they replace the standard library for pyright).
stubs: $(STUBS)
$(STUBS): hardware/pinmap.json | $(STAMP)
	$(BIN)/python -m hardware.stubs
	touch $@

# ruff (check + format) on all Python, pin map vs firmware, pyright on the firmware (rp2, esp32).
lint: $(STAMP) $(STUBS)
	$(BIN)/python -m hardware.lint

# .mpy files for the board in build/$(PROFILE)/ (mpy-cross of the board's MicroPython version).
firmware: $(STAMP)
	$(BIN)/python -m hardware.mpy_build --profile $(PROFILE)

# make flash PORT=/dev/ttyACM0: compile, copy with mpremote, reset. No PORT: one line, exit 1.
flash: $(STAMP)
	@$(BIN)/python -m hardware.flash --port "$(PORT)" --profile $(PROFILE)

# KiCad netlist in hardware/out/, the builder documents in hardware/ (BOM, wiring, power).
hardware: $(STAMP)
	$(BIN)/python -m hardware.build --profile $(PROFILE)

clean:
	rm -rf $(VENV) build
