# Two commands matter: `make run` (the table) and `make test` (everything that is checked).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
MPY     := $(BIN)/micropython
MPYPATH := MICROPYPATH=firmware:tests:.frozen
EXAMPLE ?= examples/round-4p.jsonl
# Test folders whose files also run under the micropython command (all but tests/host).
MPTESTS := $(filter-out tests/host,$(patsubst %/,%,$(sort $(dir $(wildcard tests/*/test_*.py)))))

.PHONY: run test test-py test-mp mpy bench clean examples

$(BIN)/.stamp: requirements-dev.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	$(BIN)/pip install -q --no-deps -e .
	touch $@

venv: $(BIN)/.stamp

run: $(BIN)/.stamp
	$(BIN)/unotable replay $(EXAMPLE)

test: test-py test-mp mpy

test-py: $(BIN)/.stamp
	$(BIN)/pytest

# The same core test functions under the real MicroPython interpreter, ESP32-sized heap.
test-mp: $(BIN)/.stamp
	$(MPYPATH) $(MPY) -X heapsize=8m tests/mprun.py $(MPTESTS)

# Every firmware file must compile for the board; the bytecode version must match the runtime.
mpy: $(BIN)/.stamp
	$(BIN)/python tools/build_mpy.py --check $(MPY)

bench: $(BIN)/.stamp
	$(BIN)/python bench/selfplay.py
	$(MPYPATH) $(MPY) bench/input_cost.py
	$(BIN)/python tools/build_mpy.py
	MICROPYPATH=build/mpy:tests:.frozen $(MPY) -X heapsize=96k bench/heap.py

examples: $(BIN)/.stamp
	$(BIN)/python tools/make_examples.py

clean:
	rm -rf $(VENV) build .pytest_cache
