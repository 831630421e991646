"""A fake ESP32 for hub/esp32.py: a `machine` stand-in whose buses carry the chip fakes of
tests/drivers/fakebus.py (PN532, MFRC522 on SPI) and tests/board/boardfakes.py (MCP23017s on
I2C, PWM, pins), and a ticks clock that wraps like the interpreter's own."""
import sys
import time

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _d in (_here + "/../drivers", _here + "/../board"):
    if _d not in sys.path:
        sys.path.append(_d)

import boardfakes  # noqa: E402
import fakebus  # noqa: E402
from board import pins  # noqa: E402
from hub.esp32 import Esp32Board  # noqa: E402

NTAG = b"\x04\x5a\x3c\x12\x8b\x61\x80"
NTAG2 = b"\x04\x11\x22\x33\x44\x55\x66"
MIFARE = b"\xde\xad\xbe\xef"

try:
    PERIOD = time.ticks_add(0, -1) + 1  # MicroPython: the port's ticks period
except AttributeError:  # CPython: board.buttons' fallback wraps like the ESP32
    PERIOD = 1 << 30


class Clock:
    """ticks_ms() on a hand-moved clock, wrapping at PERIOD."""

    def __init__(self, t=0):
        self.t = t % PERIOD

    def __call__(self):
        return self.t

    def add(self, ms):
        self.t = (self.t + ms) % PERIOD


class _Pins:
    """machine.Pin stand-in: Pin(n, mode, pull, value=) hands out the fake wired to GPIO n."""
    IN = 1
    OUT = 3
    PULL_UP = 2

    def __init__(self, gpio):
        self.gpio = gpio
        self.modes = {}

    def __call__(self, n, mode=-1, pull=-1, value=None):
        p = self.gpio.get(n)
        if p is None:
            p = self.gpio[n] = boardfakes.Pin(0)
        if mode != -1:
            self.modes[n] = (mode, pull)
        if value is not None:
            p.value(value)
        return p


class WDT:
    def __init__(self, timeout):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class Timer:
    def __init__(self, tid, mode, period, callback):
        self.id = tid
        self.mode = mode
        self.period = period
        self.callback = callback

    def fire(self):
        self.callback(self)


class _Timers:
    """machine.Timer stand-in: Timer(id, mode=, period=, callback=); made ones are kept."""
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, made):
        self.made = made

    def __call__(self, tid, mode=1, period=-1, callback=None):
        t = Timer(tid, mode, period, callback)
        self.made.append(t)
        return t


class Nobody(fakebus._Dev):
    """A reader socket with no module in it: MISO idles high, the IRQ line sits on its pull-up."""

    def __init__(self, bus):
        fakebus._Dev.__init__(self, bus)
        self.irq = boardfakes.Pin(1)
        self.field = []

    def begin(self):
        pass

    def end(self):
        pass

    def xfer(self, b):
        return 0xFF


def _reader(bus, kind, latency):
    if kind == "mfrc522":
        return fakebus.MFRC522(bus, latency=latency)
    if kind == "pn532":
        return fakebus.PN532(bus, latency=latency)
    return Nobody(bus)


def parts(chip, play, draw):
    """The pin class with its reader parts named (pins.json names them; a missing reader keeps
    the part its position names)."""
    class Named(chip):
        pass
    if play:
        Named.PLAY_READER = play
    if draw:
        Named.DRAW_READER = draw
    return Named


class Machine:
    """What Esp32Board takes as hw. play/draw: "pn532", "mfrc522" or None (no reader); the
    pin class (self.chip) names the same parts."""

    def __init__(self, chip=pins.ESP32, play="pn532", draw="pn532", latency=1, display=False):
        self.chip = chip = parts(chip, play, draw)
        self.bus = fakebus.Bus()
        self.play = _reader(self.bus, play, latency)
        self.draw = _reader(self.bus, draw, latency)
        self.i2c = boardfakes.I2C(log=False)
        self.buttons = self.i2c.attach(boardfakes.MCP23017Regs(), pins.BUTTONS_ADDR)
        self.buttons.floating = 0xFFFF  # buttons to GND, all open: only the pull-ups hold them
        self.seat_leds = self.i2c.attach(boardfakes.MCP23017Regs(), pins.LEDS_ADDR)
        self.oled = self.i2c.attach(boardfakes.SSD1306Dev(), pins.DISPLAY_ADDR) if display else None
        self.shuffle = boardfakes.Pin(1)
        self.pwm = boardfakes.PWM()
        self.spi_args = None
        self.i2c_args = None
        self.wdt = None
        self.timers = []
        self.uid = b"\x24\x6f\x28\x1a\x2b\x3c"  # an ESP32's base MAC
        gpio = {chip.SHUFFLE: self.shuffle, chip.PLAY_CS: self.play.cs,
                chip.PLAY_IRQ: self.play.irq, chip.DRAW_CS: self.draw.cs,
                chip.DRAW_IRQ: self.draw.irq}
        self.Pin = _Pins(gpio)
        self.Timer = _Timers(self.timers)

    def SPI(self, sid, baudrate=0, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.spi_args = (sid, baudrate, polarity, phase)
        return self.bus

    def I2C(self, iid, scl=None, sda=None, freq=0):
        self.i2c_args = (iid, freq)
        return self.i2c

    def PWM(self, pin, freq=0, duty_u16=0):
        self.pwm.freq(freq)
        self.pwm.duty_u16(duty_u16)
        return self.pwm

    def unique_id(self):
        return self.uid

    def WDT(self, id=0, timeout=5000):
        self.wdt = WDT(timeout)
        return self.wdt



def plug(m, pos, kind="pn532"):
    """A reader module put into the socket at pos ("play" or "draw") while the board runs:
    the new fake answers on that socket's CS line. kind: a part name, or a fake device."""
    old = getattr(m, pos)
    for i in range(len(m.bus.devs)):
        cs, dev = m.bus.devs[i]
        if dev is old:
            new = kind if not isinstance(kind, str) else _reader(fakebus.Bus(), kind, 1)
            cs._edge = new.cs_edge
            new.cs = cs
            m.bus.devs[i] = (cs, new)
            setattr(m, pos, new)
            return new
    raise AssertionError("no such socket")


def place(fake, uid):
    """A card in the reader's field (None: the field is empty)."""
    if uid is None:
        fake.field = []
    elif isinstance(fake, fakebus.MFRC522):
        fake.field = [fakebus.Tag(uid)]
    else:
        fake.field = [uid]


class Rig:
    """An Esp32Board on a fake machine and a fake clock, and the inputs it put."""

    def __init__(self, t0=1000, setup=None, **kw):
        """setup(machine): change the fakes before the board boots."""
        self.m = Machine(**kw)
        if setup is not None:
            setup(self.m)
        self.clock = Clock(t0)
        self.said = []
        self.board = Esp32Board(hw=self.m, chip=self.m.chip, clock=self.clock, say=self.said.append)
        self.got = []
        self.board.attach(self.got.append)

    def spin(self, ms, step=5):
        """poll_once() every step ms for ms."""
        n = ms // step
        for _ in range(n):
            self.board.poll_once(self.clock())
            self.clock.add(step)

    def take(self):
        g = self.got
        self.got = []
        self.board.attach(self.got.append)
        return g

    def press(self, bit):
        self.m.buttons.press(bit)

    def release(self, bit):
        self.m.buttons.release(bit)
