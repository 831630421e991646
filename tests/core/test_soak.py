"""Bounded memory (issue 8 item 5): every button pressed thousands of times in every phase, with
the costly house rules on, grows nothing; the final state loads back into an equal table.

Under CPython the soak also runs in a `micropython` child with the simulated table's heap.
"""
import sys
import gc
from uno.bot import Bot
from uno.events import *
from uno.rules import Settings
from uno.state import snapshot, load
from uno.table import Table

MICRO = sys.implementation.name == "micropython"
PRESSES = 1000 if MICRO else 3000   # per phase; each a seat (short, long) or colour press
HEAP = "192k"                       # host/unotable/sim.py's HEAP: the simulated table's heap
PHASES = (P_LOBBY, P_DRAWOFF, P_DEALER, P_DEAL, P_START, P_PLAY, P_ROUND_OVER, P_MATCH_OVER)


def _mem():
    gc.collect()
    return gc.mem_alloc() if MICRO else 0


def _press(t, k):
    """The k-th press of a cycle over every button: seats 1..10 short and long, colours."""
    k %= 28
    if k < 20:
        return t.feed((IN_SEAT, 1 + k // 2, k & 1))
    return t.feed((IN_COLOUR, (k - 20) // 2, k & 1))


def soak(preset, presses=PRESSES):
    """Presses in each phase as the bot reaches it; returns (table, phases soaked, growth),
    growth: the most heap a phase's presses left behind (micropython; 0 on CPython)."""
    t = Table(Settings({"preset": preset, "target": 150}))
    bot = Bot(t, (1, 2, 3, 4), seed=7)
    soaked = []
    growth = 0
    steps = 0
    while len(soaked) < len(PHASES):
        ph = t.phase
        if ph not in soaked:
            soaked.append(ph)
            before = _mem()
            for k in range(presses):
                evs = _press(t, k)
                assert len(evs) < 64, evs
                if t.phase != ph:
                    break       # a press may move on (a colour named, a slap): fine
            if ph == P_LOBBY:   # the bot's players join again (presses toggled the seats)
                for s in range(1, 11):
                    if s in t.seats:
                        t.feed((IN_SEAT, s, 1))
            assert len(t.debts) <= 10 * 12, len(t.debts)
            growth = max(growth, _mem() - before)
        bot.step()
        steps += 1
        assert steps < 200000, "the soak does not get through every phase"
    return t, soaked, growth


def check(preset):
    t, soaked, growth = soak(preset)
    assert len(soaked) == len(PHASES)
    assert growth < 4096, "the presses of one phase kept %d bytes" % growth
    again = load(snapshot(t))
    assert snapshot(again) == snapshot(t)
    return t


def test_every_button_in_every_phase_grows_nothing_house():
    check("house")


def test_every_button_in_every_phase_grows_nothing_party():
    check("party")


def test_the_soak_fits_the_simulated_tables_heap():
    if MICRO:
        # here: the same soak in this interpreter (its heap is set by whoever runs it)
        check("party")
        return
    import os
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    bindir = os.path.dirname(sys.executable)
    from unotable.build import build
    code = tempfile.mkdtemp(prefix="soak-")
    # compiled as copied to a table (.mpy, bytecode): source compiled in the heap would not be
    # what it holds; the players (uno.bot) too
    build(code, every=True)
    subprocess.run([os.path.join(bindir, "mpy-cross"), "-o", os.path.join(code, "test_soak.mpy"),
                    "tests/core/test_soak.py"], cwd=root, check=True)
    env = dict(os.environ, MICROPYPATH=code + ":.frozen")
    run = "import test_soak\nfor p in ('house', 'party'):\n test_soak.check(p)\nprint('ok')"
    r = subprocess.run([os.path.join(bindir, "micropython"), "-X", "heapsize=" + HEAP, "-c", run],
                       cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
