"""The board's guided self-test for the first evening (hardware/BRINGUP.md): each reader's
identity and a tag read at each position, every seat and colour button (its LED lights: press
it), the shuffle sensor, the buzzer's patterns, the display, free flash and heap. Prints a
checklist, one line per check:

    [PASS] PLAY pad reader: PN532 v1.6, IRQ pin
    [FAIL] seat 4 button: not pressed in 10 s
    [SEE ] buzzer: played accepted, rejected, ... (listen: each one different)

SEE marks what only a person can judge (a sound, a picture). At the REPL (after holding the
shuffle button at power-up):

    >>> import hub.selftest; hub.selftest.main()

SelfTest.run() is a coroutine driven by `await wait(ms)`. At the REPL nothing else runs, so the
default wait polls the board itself (inputs, LEDs, buzzer) in 5 ms steps. Inside the running
app (a serial verb), pass wait=pause: the board's own tasks poll, and the self-test takes the
board's inputs for its duration (board.attach), so none reaches the rules. Tests pass a wait
that moves a fake clock and plays the builder's part.
"""
import asyncio
import gc
import os

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from board import buzzer as tunes
from board.compat import ticks_diff, ticks_ms

# Input codes of uno/events.py (tests/hub/test_selftest.py checks they agree).
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_SEAT = const(3)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)

PASS = "PASS"
FAIL = "FAIL"
SEE = "SEE "
SKIP = "SKIP"

STEP_MS = const(5)
PRESS_MS = const(10000)      # how long a prompt waits for its button or card
HEAP_MIN = const(32768)      # free heap the table wants with the app loaded
FLASH_MIN = const(262144)    # free flash for the log and the deck
COLOURS = ("red", "yellow", "green", "blue")


class SelfTest:
    def __init__(self, board, say=print, wait=None, press_ms=PRESS_MS,
                 heap_min=HEAP_MIN, flash_min=FLASH_MIN, root="/", quick=False, flash=None):
        self.board = board
        self.say = say
        self.wait = wait if wait is not None else self._wait
        self.press_ms = press_ms
        self.heap_min = heap_min
        self.flash_min = flash_min
        self.root = root
        self.quick = quick  # tests, the simulated table: tunes and screen not waited out
        self.flash = flash  # () -> (used, total) of the log's flash (the hub's), else statvfs
        self.results = []  # (status, what, detail)
        self.got = []      # table inputs the board put while we listened

    def check(self, status, what, detail=""):
        self.results.append((status, what, detail))
        self.say("[%s] %s%s" % (status, what, ": " + detail if detail else ""))

    async def run(self):
        """Every check in bring-up order; returns the results."""
        b = self.board
        keep = b._put
        b.attach(self.got.append)
        try:
            await self.readers()
            await self.buttons()
            await self.sound()
            await self.screen()
            self.memory()
        finally:
            b.attach(keep)
            b.leds.off()
            b.buzzer.stop()
        n = [0, 0, 0]
        for st, _, _ in self.results:
            n[0 if st == PASS else 1 if st == FAIL else 2] += 1
        self.say("selftest: %d pass, %d fail, %d to check by eye or ear" % (n[0], n[1], n[2]))
        return self.results

    # -- the checks --

    async def readers(self):
        for pad, code, where in ((self.board.play, _IN_PAD, "on the PLAY pad"),
                                 (self.board.draw, _IN_SHOE, "through the DRAW shoe")):
            if pad.up:
                self.check(PASS, pad.name + " reader", pad.reader.describe())
            else:
                self.check(FAIL, pad.name + " reader", pad.report().split(": ", 1)[1])
                continue
            self.say("tap a tagged card " + where)
            inp = await self._listen(lambda i: i[0] == code)
            if inp is None:
                self.check(FAIL, pad.name + " reads a card",
                           "no card in %d s" % (self.press_ms // 1000))
            else:
                self.check(PASS, pad.name + " reads a card", _hex(inp[1]))

    async def buttons(self):
        leds = self.board.leds
        for s in range(1, leds.seats + 1):
            leds.show(turn=s)
            await self._press("seat %d button" % s, "press seat %d's button (its LED is lit)" % s,
                        _IN_SEAT, s)
        for c in range(4):
            leds.show(colour=c)
            name = COLOURS[c]
            await self._press(name + " button", "press the %s button (its LED is lit)" % name,
                        _IN_COLOUR, c)
        leds.off()
        await self._press("shuffle sensor", "press the shuffle sensor", _IN_SHUFFLE, None)

    async def sound(self):
        names = ("accepted", "uno", "warning", "penalty", "round_over", "take_back", "rejected",
                 "fault")
        bz = self.board.buzzer
        for name in names:
            pat = tunes.PATTERNS[name]
            bz.play(pat)
            await self.wait(50 if self.quick else sum(ms for f, ms in pat) + 300)
        self.check(SEE, "buzzer", "played %s (listen: each one different, rejected a trill)"
                   % ", ".join(names))

    async def screen(self):
        d = self.board.display
        if d is None:
            self.check(SKIP, "display", "no panel at 0x3C (it is optional)")
            return
        d.hold = False
        d.text(("SELFTEST", "0123456789ABCDEF", "every row lit:", "#" * 16, "#" * 16,
                "#" * 16, "#" * 16))
        d.note("#" * 16)
        await self.wait(100 if self.quick else 1500)
        self.check(SEE, "display", "8 rows of text, the last ones full (look)")
        d.text(())
        d.note("")

    def memory(self):
        free = -1
        if self.flash is not None:
            try:
                u = self.flash()
                if u and u[1]:
                    free = u[1] - u[0]
            except Exception:  # unknown: statvfs below
                pass
        if free < 0:
            try:
                st = os.statvfs(self.root)
                free = st[0] * st[4]  # f_bsize * f_bavail
            except (OSError, AttributeError):
                pass
        if free < 0:
            self.check(SKIP, "free flash", "no filesystem at " + self.root)
        else:
            self.check(PASS if free >= self.flash_min else FAIL, "free flash",
                       "%d KB (want %d)" % (free // 1024, self.flash_min // 1024))
        gc.collect()
        mf = getattr(gc, "mem_free", None)
        if mf is None:  # CPython
            self.check(SKIP, "free heap", "not a MicroPython heap")
            return
        h = mf()
        self.check(PASS if h >= self.heap_min else FAIL, "free heap",
                   "%d KB (want %d)" % (h // 1024, self.heap_min // 1024))

    # -- inside --

    async def _press(self, what, prompt, code, arg):
        self.say(prompt)
        wrong = []  # type: list
        inp = await self._listen(lambda i: i[0] == code and (arg is None or i[1] == arg), wrong)
        if inp is not None:
            self.check(PASS, what, "wired to another input too: " + _names(wrong) if wrong else "")
        elif wrong:
            self.check(FAIL, what, "got %s instead: check its wires" % _names(wrong))
        else:
            self.check(FAIL, what, "not pressed in %d s" % (self.press_ms // 1000))

    async def _listen(self, want, wrong=None):
        """The first input that want() accepts within press_ms, or None; others go to wrong."""
        waited = 0
        while waited < self.press_ms:
            got = self.got
            while got:
                i = got.pop(0)
                if want(i):
                    del got[:]
                    return i
                if wrong is not None and i[0] in (_IN_SEAT, _IN_COLOUR, _IN_SHUFFLE):
                    wrong.append(i)
            await self.wait(50)
            waited += 50
        return None

    async def _wait(self, ms):
        """Standalone (the REPL): poll the board here, nothing else does."""
        b = self.board
        t0 = ticks_ms()
        t = t0
        while ticks_diff(t, t0) < ms:
            b.poll_once(t)
            b.leds.step(t)
            b.buzzer.step(t)
            await pause(STEP_MS)
            t = ticks_ms()


def _hex(b):
    return "".join("%02x" % x for x in b)


def _names(inps):
    out = []
    for i in inps:
        if i[0] == _IN_SEAT:
            out.append("seat %d" % i[1])
        elif i[0] == _IN_COLOUR:
            out.append(COLOURS[i[1]])
        else:
            out.append("shuffle")
    return ", ".join(out)


async def pause(ms):
    """The wait to pass inside the running app: the board's own tasks poll meanwhile."""
    f = getattr(asyncio, "sleep_ms", None)
    if f is not None:
        await f(ms)
    else:  # CPython
        await asyncio.sleep(ms / 1000)


def run(board, **kw):
    """The whole self-test, blocking (the REPL, tests): returns [(status, what, detail)]."""
    return asyncio.run(SelfTest(board, **kw).run())


def main():
    """At the REPL on a board: build the board and run every check."""
    from hub.esp32 import Esp32Board
    return run(Esp32Board())
