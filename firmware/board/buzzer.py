"""Passive piezo on PWM: short note patterns that tell the table what happened.

A pattern is a tuple of (freq_hz, ms) notes, freq 0 a rest. play() starts it at once and replaces
whatever was playing; step(now_ms) advances it (tests drive it with a fake clock and a fake PWM);
run() is the asyncio task that calls step() on time.

    bz = Buzzer(PWM(Pin(n), freq=1000, duty_u16=0))
    asyncio.create_task(bz.run())
    bz.play(REJECTED)
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
    from machine import PWM

# Told apart by pitch and rhythm, not length alone: a table is noisy.
ACCEPTED = ((1760, 50),)                                            # one high blip
REJECTED = ((220, 160), (0, 60), (220, 160))                        # low double buzz
PENALTY = ((880, 110), (660, 110), (440, 110), (330, 280))          # falling
UNO_WINDOW = ((1320, 70), (0, 40), (1320, 70), (0, 40), (1760, 140))  # quick rising triple
ROUND_OVER = ((523, 140), (659, 140), (784, 140), (1047, 420))      # C-E-G-C arpeggio
WARNING = ((1000, 30), (0, 170), (1000, 30))                        # P2 turn timer runs low

PATTERNS = {
    "accepted": ACCEPTED, "rejected": REJECTED, "penalty": PENALTY,
    "uno": UNO_WINDOW, "round_over": ROUND_OVER, "warning": WARNING,
}

DUTY = const(32768)  # 50 %: loudest square wave for a piezo
TICK_MS = const(10)  # longest sleep while playing, so a new pattern is picked up promptly


class Buzzer:
    def __init__(self, pwm: "PWM", duty: int = DUTY) -> None:
        self._pwm = pwm
        self.duty = duty
        self._pat = None
        self._i = 0
        self._t = 0      # ticks the current note began
        self._dur = 0    # its length, ms
        self._wake = asyncio.Event()
        pwm.duty_u16(0)

    @property
    def busy(self):
        return self._pat is not None

    def play(self, pattern, now_ms=None):
        """Start pattern now, cutting off the one playing."""
        if now_ms is None:
            now_ms = ticks_ms()
        self._pat = pattern
        self._i = -1
        self._dur = 0
        self._t = now_ms
        self.step(now_ms)
        self._wake.set()

    def stop(self):
        self._pat = None
        self._pwm.duty_u16(0)

    def step(self, now_ms):
        """Advance the pattern; returns ms until the next change, -1 when silent."""
        pat = self._pat
        if pat is None:
            return -1
        left = self._dur - ticks_diff(now_ms, self._t)
        while left <= 0:  # also skips notes of zero length
            i = self._i + 1
            if i >= len(pat):
                self.stop()
                return -1
            f, ms = pat[i]
            self._i = i
            self._t = now_ms
            self._dur = left = ms
            if f:
                self._pwm.freq(f)
                self._pwm.duty_u16(self.duty)
            else:
                self._pwm.duty_u16(0)
        return left

    async def run(self) -> None:
        while True:
            d = self.step(ticks_ms())
            if d < 0:
                await self._wake.wait()
                self._wake.clear()
            else:
                await asyncio.sleep_ms(d if d < TICK_MS else TICK_MS)
