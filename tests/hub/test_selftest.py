"""hub/selftest.py: the guided bring-up checklist, on the fake board, with a simulated builder
who follows the prompts (or does not)."""
from check import skip
import sys

import esp32kit as kit
from esp32kit import NTAG, MIFARE, Rig, place
from board import pins
from hub import selftest
from uno import events

MICROPYTHON = sys.implementation.name == "micropython"


class Builder:
    """Reads each prompt and acts on it at the next wait: taps cards, presses the button whose
    LED is lit. slip: {prompt word: what to do instead} ("skip", or a button bit to press)."""

    def __init__(self, rig, slip=None):
        self.r = rig
        self.slip = slip or {}
        self.lines = []
        self.prompt = None
        self.lit_ok = True

    def say(self, line):
        self.lines.append(line)
        if not line.startswith("["):
            self.prompt = line

    async def wait(self, ms):
        p = self.prompt
        self.prompt = None
        r = self.r
        if p is not None:
            self.act(p)
        r.spin(ms)

    def act(self, p):
        r = self.r
        for word in self.slip:
            if word in p:
                what = self.slip[word]
                if what == "skip":
                    return
                self.tap(what)
                return
        if "PLAY pad" in p:
            place(r.m.play, NTAG)
        elif "DRAW shoe" in p:
            place(r.m.draw, MIFARE)
        elif "seat" in p:
            s = int(p.split("seat ")[1].split("'")[0])
            bit = pins.SEAT_LED_BITS[s - 1]
            self.lit_ok = self.lit_ok and r.m.seat_leds.outputs() == 1 << bit
            self.tap(pins.SEAT_BUTTON_BITS[s - 1])
        elif "shuffle" in p:
            r.m.shuffle.value(0)
            r.spin(60)
            r.m.shuffle.value(1)
        else:
            c = [n for n in selftest.COLOURS if n in p][0]
            i = selftest.COLOURS.index(c)
            lit = [r.m.Pin.gpio[n].level for n in r.m.chip.COLOUR_LEDS]
            self.lit_ok = self.lit_ok and lit == [1 if k == i else 0 for k in range(4)]
            self.tap(pins.COLOUR_BUTTON_BITS[i])

    def tap(self, bit):
        self.r.press(bit)
        self.r.spin(60)
        self.r.release(bit)


def statuses(results):
    out = {}
    for st, what, detail in results:
        out[what] = st
    return out


def test_the_codes_agree_with_the_engine():
    # private consts vanish into the bytecode under MicroPython: read them from the source
    path = selftest.__file__
    if path.endswith(".mpy"):
        return skip('reads the source: runs from source (make test-py, make test-mp)')
    n = 0
    with open(path) as f:
        for line in f:
            if line.startswith("_IN_") and "= const(" in line:
                name = line.split(" =")[0][1:]
                assert getattr(events, name) == int(line.split("const(")[1].split(")")[0]), name
                n += 1
    assert n == 5


def test_a_good_board_passes_every_check():
    r = Rig(display=True)
    r.spin(20)
    who = Builder(r)
    res = r.board.selftest(say=who.say, wait=who.wait, press_ms=400, flash_min=0, heap_min=0)
    st = statuses(res)
    assert st["PLAY pad reader"] == "PASS" and st["DRAW shoe reader"] == "PASS"
    assert st["PLAY pad reads a card"] == "PASS" and st["DRAW shoe reads a card"] == "PASS"
    for s in range(1, 11):
        assert st["seat %d button" % s] == "PASS", s
    for c in selftest.COLOURS:
        assert st[c + " button"] == "PASS", c
    assert st["shuffle sensor"] == "PASS" and st["buzzer"] == selftest.SEE
    assert st["display"] == (selftest.SEE if MICROPYTHON else selftest.SKIP)
    assert st["free flash"] in ("PASS", "SKIP") and st["free heap"] in ("PASS", "SKIP")
    assert who.lit_ok  # each prompt's LED was lit
    assert "[PASS] PLAY pad reads a card: 045a3c128b6180" in who.lines
    assert who.lines[-1].startswith("selftest: ") and " 0 fail" in who.lines[-1]
    got = []
    r.board.attach(got.append)  # the board's own input path is back afterwards
    r.press(pins.SEAT_BUTTON_BITS[0])
    r.spin(60)
    r.release(pins.SEAT_BUTTON_BITS[0])
    r.spin(60)
    assert got == [(events.IN_SEAT, 1, 0)]


def test_a_missing_reader_a_dead_button_and_a_crossed_wire_fail():
    r = Rig(draw=None)
    r.spin(20)
    who = Builder(r, slip={"seat 4'": "skip", "seat 7'": pins.SEAT_BUTTON_BITS[7]})
    res = selftest.run(r.board, say=who.say, wait=who.wait, press_ms=300, flash_min=0)
    st = statuses(res)
    assert st["PLAY pad reader"] == "PASS" and st["DRAW shoe reader"] == "FAIL"
    assert "DRAW shoe reads a card" not in st
    assert st["seat 4 button"] == "FAIL" and st["seat 7 button"] == "FAIL"
    assert st["seat 8 button"] == "PASS"
    lines = "\n".join(who.lines)
    assert "[FAIL] DRAW shoe reader: E12 SHOE READER" in lines
    assert "[FAIL] seat 4 button: not pressed in 0 s" in lines
    assert "[FAIL] seat 7 button: got seat 8 instead: check its wires" in lines
    assert " 3 fail" in who.lines[-1]


def test_inside_the_running_app_the_board_tasks_poll():
    if not MICROPYTHON:
        return skip("MicroPython only (make test-mp): the board's tasks need asyncio.sleep_ms")
    import asyncio
    m = kit.Machine()
    from hub.esp32 import Esp32Board
    b = Esp32Board(hw=m, chip=m.chip, say=len)  # the real ticks clock
    table = []
    lines = []

    def say(line):
        lines.append(line)
        if "PLAY pad" in line and not line.startswith("["):
            place(m.play, NTAG)

    async def go():
        task = asyncio.create_task(b.run(table.append))  # the app's board task
        await asyncio.sleep_ms(20)
        t = selftest.SelfTest(b, say=say, wait=selftest.pause, press_ms=150)
        b.attach(t.got.append)  # as run() does
        await t.readers()
        task.cancel()
        return t.results

    res = asyncio.run(go())
    asyncio.new_event_loop()
    assert statuses(res)["PLAY pad reads a card"] == "PASS"
    assert table == []  # the read went to the self-test, not to the rules


def test_a_flash_or_heap_below_the_mark_fails():
    r = Rig()
    who = Builder(r)
    t = selftest.SelfTest(r.board, say=who.say, wait=who.wait, flash_min=1 << 60,
                          heap_min=1 << 60)
    t.memory()
    st = statuses(t.results)
    assert st["free flash"] in ("FAIL", "SKIP")
    assert st["free heap"] == ("FAIL" if MICROPYTHON else "SKIP")
