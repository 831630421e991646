"""Debounced push buttons with short and long press, many at once.

ButtonBank is a pure state machine over buttons packed as bits of one word: feed(now_ms, word)
with raw levels (the MCP23017 port, read once per scan; GPIO pins packed by pin_reader) and it
calls on_press(button_id, long), allocating nothing per scan or per press. run() is the thin
asyncio task that samples every few ms; tests drive feed() with a fake clock.

    # seat and colour buttons on the expander, the shuffle sensor on a GPIO as bit 15
    bank = ButtonBank(16, on_press, ids=IDS, mask=pins.BUTTON_MASK | 0x8000)
    asyncio.create_task(bank.run(lambda: mcp.read() & 0x7FFF | shuffle.value() << 15))
"""
import asyncio
from array import array

from board.compat import ticks_diff, ticks_ms

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Optional, Sequence, Union
    from machine import Pin, Signal

DEBOUNCE_MS = const(20)
LONG_MS = const(800)
SCAN_MS = const(5)
CHORD_MS = const(3000)


class ButtonBank:
    """Bits 0..n-1 of the fed word, bit i is button ids[i] (i itself without ids); bits outside
    mask (unwired pins) are ignored.

    A level change counts once it has held for debounce_ms (glitches and bounce shorter than
    that never reach the stable state). Short press: fired on release before long_ms. Long press:
    fired once, while still held, long_ms after the press began; its release fires nothing.
    Bits set in active_low read 0 when pressed (pull-ups, the usual wiring); default all.
    The first sample only primes: a button held at power-up fires nothing until released.
    Bits in feed()'s unknown were not read (a bus error): they keep their state, whatever press
    they were in fires nothing, and their next read primes them again, as at power-up.

    Chord: the bits of chord held together fire on_press(chord_id, True) once, chord_ms after
    the last of them went down (a press nobody makes by accident: the take-back). Once all are
    down, none of them fires a press of its own, whether the chord completes or not. chords:
    more of them, as (bits, id, ms), each on its own buttons (the REPL's confirmation).
    """

    def __init__(self, n: int, on_press: "Callable[[int, bool], object]",
                 ids: "Optional[Sequence[int]]" = None, active_low: int = -1, mask: int = -1,
                 debounce_ms: int = DEBOUNCE_MS, long_ms: int = LONG_MS,
                 chord: int = 0, chord_id: int = -1, chord_ms: int = CHORD_MS,
                 chords: "Sequence[tuple[int, int, int]]" = ()) -> None:
        self.n = n
        self.on_press = on_press
        self.ids = ids
        self._all = ((1 << n) - 1) & mask
        self._inv = active_low & self._all
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._raw = 0      # pressed bits as last sampled
        self._state = 0    # debounced pressed bits
        self._longed = 0   # held bits whose long press already fired (or held at power-up)
        self._fresh = self._all  # bits whose next read only primes (power-up, after a bus error)
        cs = [(chord, chord_id, chord_ms)] if chord else []
        cs += chords
        self.chord = 0      # every chord's bits
        for c in cs:
            self.chord |= c[0]
        self._cbits = array("l", [c[0] for c in cs])
        self._cids = [c[1] for c in cs]
        self._cms = array("l", [c[2] for c in cs])
        self._chord_t = array("l", [0] * len(cs))  # ticks each chord was complete from
        # 1 while a chord is held, 2 once it fired (or was held at power-up or across a bus error)
        self._chording = bytearray(len(cs))
        # "l": holds a tick on every port (30 bits on the ESP32, 62 on the 64-bit unix port)
        self._edge = array("l", [0] * n)   # ticks of each bit's last raw change
        self._down = array("l", [0] * n)   # ticks each debounced press began

    def pressed(self):
        """Debounced pressed bits."""
        return self._state

    def held(self, now_ms, ms, bits=-1):
        """Pressed bits of bits held ms or longer (a button held since power-up or a bus error
        counts from then): a stuck button, or something resting on it."""
        st = self._state & bits
        out = 0
        i = 0
        while st:
            if st & 1 and ticks_diff(now_ms, self._down[i]) >= ms:
                out |= 1 << i
            st >>= 1
            i += 1
        return out

    def feed(self, now_ms, word, unknown=0):
        """One sample of all buttons: word holds raw levels, now_ms a ticks_ms() value; bits set
        in unknown were not read this time (their levels in word mean nothing)."""
        p = (word ^ self._inv) & self._all
        u = unknown & self._all
        if u:  # a press that the bus hid a part of is no press: its release fires nothing
            self._longed |= self._state & u
            if self.chord & u:
                cst = self._chording
                for k in range(len(cst)):
                    if self._cbits[k] & u and cst[k] == 1:
                        cst[k] = 2
            self._fresh |= u
        f = self._fresh & ~u
        if f:  # first read of these bits: what is held now fires nothing until released
            self._fresh &= ~f
            self._raw = self._raw & ~f | p & f
            self._state = self._state & ~f | p & f
            self._longed = self._longed & ~f | p & f
            down = self._down
            i = 0
            while f >> i:
                if f >> i & 1:
                    down[i] = now_ms  # held from now, as far as anyone can tell
                i += 1
            if self.chord & f:
                for k in range(len(self._chording)):
                    c = self._cbits[k]
                    if c & f and p & c == c:
                        self._chording[k] = 2
        p = p & ~self._fresh | self._raw & self._fresh  # unread bits keep their last level
        ch = p ^ self._raw
        if ch:
            self._raw = p
            edge = self._edge
            i = 0
            while ch:
                if ch & 1:
                    edge[i] = now_ms
                ch >>= 1
                i += 1
        # Pending changes settle after debounce_ms; held bits are checked for long press.
        todo = (self._raw ^ self._state) | (self._state & ~self._longed)
        i = 0
        while todo:
            if todo & 1:
                self._bit(i, now_ms)
            todo >>= 1
            i += 1
        if self.chord:
            self._held(now_ms)

    def _held(self, now):
        cst = self._chording
        for k in range(len(cst)):
            c = self._cbits[k]
            if self._state & c != c:
                cst[k] = 0
            elif not cst[k]:
                cst[k] = 1
                self._chord_t[k] = now
                self._longed |= c  # its buttons' own presses never fire
            elif cst[k] == 1 and ticks_diff(now, self._chord_t[k]) >= self._cms[k]:
                cst[k] = 2
                self.on_press(self._cids[k], True)

    def _bit(self, i, now):
        b = 1 << i
        st = self._state
        if (self._raw ^ st) & b and ticks_diff(now, self._edge[i]) >= self.debounce_ms:
            if st & b:  # released
                self._state = st & ~b
                if self._longed & b:
                    self._longed &= ~b
                else:
                    self._fire(i, False)
                return
            self._state = st | b
            self._down[i] = self._edge[i]  # the press began at its edge, not after debounce
        # Long only while it is still down: a release waiting out its debounce is a short press.
        if self._state & self._raw & b and not self._longed & b \
                and ticks_diff(now, self._down[i]) >= self.long_ms:
            self._longed |= b
            self._fire(i, True)

    def _fire(self, i, long):
        ids = self.ids
        self.on_press(ids[i] if ids is not None else i, long)

    async def run(self, read: "Callable[[], int]", period_ms: int = SCAN_MS) -> None:
        """Sample read() (-> raw word) every period_ms forever."""
        while True:
            self.feed(ticks_ms(), read())
            await asyncio.sleep_ms(period_ms)


def pin_reader(pins: "Sequence[Union[Pin, Signal]]") -> "Callable[[], int]":
    """A read() for ButtonBank over GPIO pins (machine.Pin or anything with .value()):
    pins[i] gives bit i."""
    def read() -> int:
        w = 0
        b = 1
        for p in pins:
            if p.value():
                w |= b
            b <<= 1
        return w
    return read
