# Two commands matter: `make run` (the table) and `make test` (everything that is checked).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
MPY     := $(BIN)/micropython
MPYPATH := MICROPYPATH=firmware:tests:.frozen
EXAMPLE ?= examples/round-4p.jsonl
# Test folders whose files also run under the micropython command (all but tests/host).
MPTESTS := $(filter-out tests/host,$(patsubst %/,%,$(sort $(dir $(wildcard tests/*/test_*.py)))))

.PHONY: lint run test test-py test-mp mpy typecheck pins bench bench-peers clean examples mutate \
	screenshot soak

$(BIN)/.stamp: requirements-dev.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	$(BIN)/pip install -q --no-deps -e .
	touch $@

venv: $(BIN)/.stamp

# The simulated table plays a bundled round; `.venv/bin/unotable sim` alone lets you play it.
run: $(BIN)/.stamp
	$(BIN)/unotable sim $(EXAMPLE)

test: lint test-py test-mp mpy typecheck pins

# ruff (pinned), configured in pyproject.toml: pyflakes and pycodestyle errors, 99 columns.
lint: $(BIN)/.stamp
	$(BIN)/ruff check --quiet .

test-py: $(BIN)/.stamp
	$(BIN)/pytest

# The same core test functions under the real MicroPython interpreter, ESP32-sized heap: a
# process a folder, so that the log's tests find their MBs in one piece (a heap that ran every
# folder before them is too fragmented for them).
test-mp: $(BIN)/.stamp
	@for d in $(MPTESTS); do echo "micropython $$d"; \
	  $(MPYPATH) $(MPY) -X heapsize=8m tests/mprun.py $$d || exit 1; done

# Every firmware file must compile for the board; the bytecode version must match the runtime.
mpy: $(BIN)/.stamp
	$(BIN)/python tools/build_mpy.py --check $(MPY)

# The ESP32-facing code against the real machine/esp32/asyncio APIs (stubs pinned).
typings/.stamp: $(BIN)/.stamp
	rm -rf typings
	$(BIN)/pip install -q --target typings micropython-esp32-stubs==1.29.0.post1
	touch $@

typecheck: typings/.stamp
	$(BIN)/mypy

# Generated files must be up to date: the board configuration from hardware/pins.json, the
# board modules' code blocks from uno/events.py.
pins: $(BIN)/.stamp
	$(BIN)/python tools/gen_pins.py --check
	$(BIN)/python tools/gen_consts.py --check

# The app bench runs from build/mpy-host (every firmware file compiled): its recovery part makes
# inputs with the host-only players.
bench: $(BIN)/.stamp
	$(BIN)/python bench/selfplay.py
	$(BIN)/python bench/replay_bench.py 3
	$(MPYPATH) $(MPY) bench/input_cost.py
	$(BIN)/python tools/build_mpy.py
	$(BIN)/python bench/heap_compare.py 3
	$(MPYPATH) $(MPY) -X heapsize=1m bench/log_bench.py
	MICROPYPATH=build/mpy-host:.frozen $(MPY) -X heapsize=256k bench/app_bench.py
	$(BIN)/python bench/tight_heap.py
	PYTHONPATH=firmware $(BIN)/python bench/link_bench.py
	$(BIN)/python bench/store_bench.py
	$(BIN)/python bench/scoreboard_bench.py 10 30

# The pre-release soak (not part of `make test`; tools/soak.py): the property matches of
# tests/core/test_property.py and tests/core/test_takeback_physical.py over PROP_SEEDS seeds each
# and the seeded soaks of tests/hub and tests/gamelog over SOAK_SEEDS, under CPython, then a tenth
# of each under micropython. Each run starts at a random seed it prints (SOAK_FROM=N starts
# there); a failure is one line and the command that runs its seed again. The defaults take about
# 35 minutes here (README.md).
PROP_SEEDS ?= 30000
SOAK_SEEDS ?= 400
SOAK_ROUNDS ?= 3
SOAK_ARGS = --rounds $(SOAK_ROUNDS) $(if $(SOAK_FROM),--from $(SOAK_FROM))
soak: $(BIN)/.stamp
	@bad=0; \
	$(BIN)/python tools/soak.py --count $(PROP_SEEDS) --soak-seeds $(SOAK_SEEDS) $(SOAK_ARGS) \
		|| bad=1; \
	$(MPY) -X heapsize=8m tools/soak.py --count $$(($(PROP_SEEDS) / 10)) \
		--soak-seeds $$(($(SOAK_SEEDS) / 10)) $(SOAK_ARGS) || bad=1; \
	exit $$bad

# Mutation testing (not part of `make test`): each mutant of MUTATE runs its test folder under
# CPython and micropython; survivors are printed with their place. JOBS=2 by default. All of
# gamelog/ and link/ is some 4,400 mutants (most of a day here): SAMPLE=20 SEED=31 draws 20 a
# file (about 40 minutes).
MUTATE ?= $(filter-out %/__init__.py,$(wildcard firmware/gamelog/*.py firmware/link/*.py))
mutate: $(BIN)/.stamp
	$(BIN)/python tools/mutate.py --mp --jobs $(or $(JOBS),2) \
		$(if $(SAMPLE),--sample $(SAMPLE) --seed $(or $(SEED),1)) $(MUTATE)

# Our self-play against RLCard's UNO env, in a venv of its own (pinned: bench/peers/requirements.txt).
PEERS := build/peers-venv
$(PEERS)/.stamp: bench/peers/requirements.txt
	$(PY) -m venv $(PEERS)
	$(PEERS)/bin/pip install -q -r bench/peers/requirements.txt
	touch $@

bench-peers: $(BIN)/.stamp $(PEERS)/.stamp
	$(BIN)/python bench/peers/peer_bench.py 5 300

# docs/img/scoreboard.png (docs/gamenight.md) again: the browser test writes it there when asked
# (in `make test` it writes a scratch copy; Debian's chromium and chromium-driver, .ci/run
# installs them).
screenshot: $(BIN)/.stamp
	UNOTABLE_SCREENSHOT=1 $(BIN)/pytest tests/host/test_serve_browser.py -k standings

examples: $(BIN)/.stamp
	$(BIN)/python tools/make_examples.py

clean:
	rm -rf $(VENV) build typings .pytest_cache
