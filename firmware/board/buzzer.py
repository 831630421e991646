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

# Tones sit near the piezo's resonance, where it is loudest (the listed parts, Murata
# PKM17EPPH4001-B0 and TDK PS1240P02BT, are rated at 4 kHz): 2-4 kHz. A table is noisy, so the
# patterns differ by rhythm first (see the comments), and "rejected" differs most: the only
# trill, the longest unbroken sound, the pitch jumping every 90 ms.
ACCEPTED = ((3600, 60),)                                                     # one short blip
REJECTED = ((2000, 90), (2700, 90)) * 4                                      # 720 ms trill
PENALTY = ((3400, 180), (0, 60), (2900, 180), (0, 60), (2400, 360))          # falling, long last
UNO_WINDOW = ((3000, 60), (0, 50), (3400, 60), (0, 50), (3800, 60))          # quick rising triple
ROUND_OVER = ((2100, 150), (2650, 150), (3150, 150), (0, 50), (3950, 450))   # arpeggio, long top
WARNING = ((3600, 30), (0, 220), (3600, 30))                                 # two ticks, far apart
FAULT = ((2000, 500), (0, 250), (2000, 500), (0, 250), (2000, 500))          # slow long beeps
TAKE_BACK = ((3900, 40), (3250, 40), (2600, 40), (0, 80),                    # a quick falling run,
             (3900, 40), (3250, 40), (2600, 40))                              # twice: "back, back"

PATTERNS = {
    "accepted": ACCEPTED, "rejected": REJECTED, "penalty": PENALTY,
    "uno": UNO_WINDOW, "round_over": ROUND_OVER, "warning": WARNING, "fault": FAULT,
    "take_back": TAKE_BACK,
}

LOW_HZ = const(2000)   # the band every note keeps to
HIGH_HZ = const(4000)

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
        self.errors = 0  # notes the PWM refused
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
            try:
                if f:
                    self._pwm.freq(f)
                    self._pwm.duty_u16(self.duty)
                else:
                    self._pwm.duty_u16(0)
            except (ValueError, OSError):
                # The port refused the note ("bad frequency": its LEDC timer would not take
                # it). Raised here it ended run() with the last note sounding for good.
                self.errors += 1
                self._pat = None
                try:
                    self._pwm.duty_u16(0)
                except (ValueError, OSError):
                    pass
                return -1
        return left

    async def run(self) -> None:
        while True:
            d = self.step(ticks_ms())
            if d < 0:
                await self._wake.wait()
                self._wake.clear()
            else:
                await asyncio.sleep_ms(d if d < TICK_MS else TICK_MS)
