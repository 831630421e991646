"""Seat LEDs on an I/O expander and the four colour LEDs, each off, on or blinking.

Seat LEDs are bits of one expander port, written in one go through port.write(word, mask)
(MCP23017.write); colour LEDs are objects with .value(v) (machine.Pin, or machine.Signal for
active-low wiring). All blinking LEDs share one phase, kept by step(now_ms); outputs are only
written when they change, so step() may be called as often as wanted.

    leds = Leds(MCP23017(i2c, pins.LEDS_ADDR, inputs=0), pins.SEAT_LED_BITS, (r, y, g, b))
    asyncio.create_task(leds.run())
    leds.show(turn=3, owing=(5,), colour=2)
"""
import asyncio

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
    from typing import Sequence, Union
    from machine import Pin, Signal
    from board.mcp23017 import MCP23017

OFF = const(0)
ON = const(1)
BLINK = const(2)

BLINK_MS = const(250)  # half period: 2 Hz reads as "act now" without looking frantic
_CBIT = const(16)      # colour c is logical bit 16 + c; seat s (1..n) is bit s - 1


class Leds:
    def __init__(self, port: "MCP23017",
                 seat_bits: "Sequence[int]" = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                 colour_pins: "Sequence[Union[Pin, Signal]]" = (), active_low: bool = False,
                 blink_ms: int = BLINK_MS) -> None:
        self._port = port
        self._bits = seat_bits
        self._pins = colour_pins
        self._mask = 0
        for b in seat_bits:
            self._mask |= 1 << b
        self._inv = self._mask if active_low else 0
        self.blink_ms = blink_ms
        self._on = 0       # logical bits lit steadily
        self._blink = 0    # logical bits blinking
        self._phase = 1
        self._t = 0
        self._lit = 0      # logical bits last written
        self._t_set = False
        self._alert = None  # type: tuple[int, int] | None  # error code shown over the table
        self._out(True)    # every LED to a known state

    @property
    def seats(self):
        return len(self._bits)

    def _set(self, bit, mode):
        b = 1 << bit
        self._on &= ~b
        self._blink &= ~b
        if mode == ON:
            self._on |= b
        elif mode == BLINK:
            self._blink |= b
        self._out()

    def seat(self, s, mode):
        """Seat s (1..seats) to OFF, ON or BLINK."""
        if not 1 <= s <= len(self._bits):
            raise ValueError("seat")
        self._set(s - 1, mode)

    def colour(self, c, mode):
        """Colour LED c (0..3: R Y G B) to OFF, ON or BLINK."""
        if not 0 <= c < len(self._pins):
            raise ValueError("colour")
        self._set(_CBIT + c, mode)

    def off(self):
        self._on = self._blink = 0
        self._out()

    def show(self, turn=0, owing=0, colour=-1, blink_colour=False):
        """The table at a glance: the turn seat lit, seats that owe cards blinking (over the
        turn light), the active colour lit (blinking while a colour is being asked for; with
        no active colour, as after a wild, every colour LED blinks: press one).
        turn: seat 1..n, or 0/None; owing: seat numbers, or a mask with bit s-1 for seat s;
        colour: 0..3, or -1/None."""
        if not isinstance(owing, int):
            m = 0
            for s in owing:
                m |= 1 << (s - 1)
            owing = m
        owing &= (1 << len(self._bits)) - 1
        on = (1 << (turn - 1)) & ~owing if turn and 1 <= turn <= len(self._bits) else 0
        blink = owing
        if colour is not None and 0 <= colour < len(self._pins):
            if blink_colour:
                blink |= 1 << (_CBIT + colour)
            else:
                on |= 1 << (_CBIT + colour)
        elif blink_colour:
            blink |= ((1 << len(self._pins)) - 1) << _CBIT
        self._on = on
        self._blink = blink
        self._out()

    def alert(self, code):
        """Show error code NN (docs/firmware.md) over the table until alert(0): the colour LED
        of the tens digit blinks (1 R, 2 Y, 3 G, 4 B) and the seat LED of the units digit is lit.
        show() goes on underneath and is back when the alert ends."""
        if code:
            tens, units = divmod(code, 10)
            on = 1 << (units - 1) if 1 <= units <= len(self._bits) else 0
            blink = 1 << (_CBIT + tens - 1) if 1 <= tens <= len(self._pins) else 0
            self._alert = (on, blink)
        else:
            self._alert = None
        self._out()

    def step(self, now_ms):
        """Advance the blink phase; returns ms until the next toggle."""
        if not self._t_set:
            self._t_set = True
            self._t = now_ms
        left = self.blink_ms - ticks_diff(now_ms, self._t)
        if left <= 0:
            self._phase ^= 1
            self._t = now_ms
            left = self.blink_ms
            if self._blink or self._alert:
                self._out()
        return left

    def lit(self):
        """Logical bits lit now: seat s is bit s-1, colour c bit 16+c."""
        a = self._alert
        if a is not None:
            return a[0] | (a[1] if self._phase else 0)
        return self._on | (self._blink if self._phase else 0)

    def _out(self, force=False):
        lit = self.lit()
        ch = -1 if force else lit ^ self._lit
        if not ch:
            return
        self._lit = lit
        n = len(self._bits)
        if ch & ((1 << n) - 1):
            w = 0
            i = 0
            for b in self._bits:
                if lit >> i & 1:
                    w |= 1 << b
                i += 1
            self._port.write(w ^ self._inv, self._mask)
        ch >>= _CBIT
        lit >>= _CBIT
        for p in self._pins:
            if ch & 1:
                p.value(lit & 1)
            ch >>= 1
            lit >>= 1

    async def run(self) -> None:
        while True:
            await asyncio.sleep_ms(self.step(ticks_ms()))
