"""The real board behind the hub (ESP32-WROOM-32 or ESP32-S3 devkit): readers, buttons, buzzer,
LEDs, display and watchdog, with the same interface as the simulated board (hub/sim.py).

    board = Esp32Board()             # pins from board/pins.py, hardware from `machine`
    board = Esp32Board(hw=fake)      # tests: anything with machine's Pin/SPI/I2C/PWM/WDT/Timer

Every pin and bus number comes from board/pins.py (generated from hardware/pins.json).

Inputs (run() -> put(table_input)), all sampled by one loop every POLL_MS:
  PLAY pad  -> (IN_PAD, uid)      DRAW shoe -> (IN_SHOE, uid)
  seat button s (1..10) -> (IN_SEAT, s, long)   colour c (0..3) -> (IN_COLOUR, c, long)
  shuffle sensor -> (IN_SHUFFLE,), a long press included (fired once, while held)
A card resting on a reader is one read: its UID is reported again only after the reader has
seen no card for GONE_MS; a different UID is a new read at once. Reader errors are counted; after
REINIT_AFTER in a row the reader is brought up again (begin()), then every RETRY_MS until it
answers. The loop itself never stops on a reader or bus error.

Readers: PN532 or MFRC522 on the shared SPI bus (board/reader.py interface). The pin map names
no reader part, so each reader is probed at boot (PN532 first, then MFRC522) unless the pin
class carries PLAY_READER / DRAW_READER ("pn532" or "mfrc522"); what answered is kept.
"""
import asyncio

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
    from typing import Union
    from machine import WDT, Timer

from board import pins
from board.buttons import ButtonBank
from board.compat import sleep_ms, ticks_diff, ticks_ms
from board.buzzer import Buzzer
from board.display import Display
from board.leds import Leds
from board.mcp23017 import MCP23017
from board.mfrc522 import MFRC522
from board.pn532 import PN532
from board.reader import ReaderError

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_SEAT = const(3)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
# -- end of codes --

POLL_MS = const(5)          # input loop period (buttons are sampled, readers stepped)
GONE_MS = const(300)        # no card this long: the same card again is a new read
POLL_LIMIT_MS = const(250)  # a poll with no answer this long is an error
REINIT_AFTER = const(5)     # errors in a row before the reader is brought up again
RETRY_MS = const(5000)      # a reader that does not come up is tried again this often
BOOT_LIMIT_MS = const(50)   # begin() bound per command at boot; later bring-ups are shorter
REVIVE_LIMIT_MS = const(20)
WDT_MS = const(8000)        # watchdog timeout
BEAT_MS = const(3000)       # the dog is fed only while the input loop ran this recently

PN532_KIND = "pn532"
MFRC522_KIND = "mfrc522"
_AUTO = (PN532_KIND, MFRC522_KIND)

# Button ids (ButtonBank ids): seat s is s, colour c is _COLOUR_ID + c, the shuffle sensor
# _SHUFFLE_ID. The shuffle sensor is read from its GPIO into bit 15 of the expander word
# (GPB7, which no button may use: output-only on current MCP23017 silicon).
_COLOUR_ID = const(16)
_SHUFFLE_ID = const(32)
_SHUFFLE_BIT = const(15)


class _Expander(MCP23017):
    """An MCP23017 whose bus errors are counted, not raised: a glitch on I2C must not stop the
    table. A failed read gives the last good word (no phantom presses); after a fault the chip
    is set up again (it may have browned out back to its power-on registers)."""

    def __init__(self, i2c, addr: int, inputs: int, pullups: int = 0) -> None:
        self.errors = 0
        self.word = 0xFFFF  # last good read: every input high, i.e. no button pressed
        self._lost = False
        self._inputs = inputs
        self._pullups = pullups
        super().__init__(i2c, addr, inputs, pullups)

    def _w16(self, reg: int, v: int) -> None:  # every register write of the driver
        try:
            super()._w16(reg, v)
        except OSError:
            self.errors += 1
            self._lost = True

    def _again(self) -> None:
        self._lost = False
        self.config(self._inputs, self._pullups)

    def read(self) -> int:
        try:
            w = super().read()
        except OSError:
            self.errors += 1
            self._lost = True
            return self.word
        if self._lost:
            self._again()
            return self.word  # read before the pull-ups were back: not trusted
        self.word = w
        return w

    def write(self, value: int, mask: int = 0xFFFF) -> None:
        if self._lost:
            self._again()
        super().write(value, mask)


class _Screen:
    """The optional OLED as the hub drives it: a bus error costs a frame, never the table."""

    def __init__(self, oled: Display) -> None:
        self.oled = oled
        self.errors = 0

    def show_table(self, colour=-1, direction=1, turn=0, pending=0, scores=None):
        try:
            self.oled.show_table(colour, direction, turn, pending, scores)
        except OSError:
            self.errors += 1


class _Pad:
    """One NFC reader and its de-duplication: poll, collect, report a UID once."""

    def __init__(self, code, spi, cs, irq, kinds):
        self.code = code          # _IN_PAD or _IN_SHOE
        self.spi = spi
        self.cs = cs
        self.irq = irq
        self.kinds = kinds        # parts to try, in order
        self.kind = None          # the part that answered
        self.reader = None        # type: Union[PN532, MFRC522, None]
        self._pn532 = None        # type: PN532 | None
        self._mfrc522 = None      # type: MFRC522 | None
        self.up = False
        self.polling = False
        self.t0 = 0               # ticks the poll in flight began
        self.since = 0            # while down: ticks it went down (or last failed to come up)
        self.wait = 0             # ... and ms until the next bring-up attempt
        self.uid = None           # UID reported and still considered on the reader
        self.seen = 0             # ticks it was last seen
        self.reads = 0
        self.errors = 0
        self.row = 0              # errors in a row
        self.reinits = 0
        self.why = None           # the last error

    def bring_up(self, t, limit_ms):
        """begin() the reader (probing the parts in self.kinds); False when nothing answers."""
        self.polling = False
        for kind in self.kinds:
            if kind == MFRC522_KIND:
                r = self._mfrc522  # type: Union[PN532, MFRC522, None]
                if r is None:
                    r = self._mfrc522 = MFRC522(self.spi, self.cs, self.irq)
            else:
                r = self._pn532
                if r is None:
                    r = self._pn532 = PN532(self.spi, self.cs, self.irq)
            try:
                r.begin(limit_ms)
            except (ReaderError, OSError) as e:
                self.why = e
                continue
            self.reader = r
            self.kind = kind
            self.kinds = (kind,)  # found: from now on only this part is brought up
            self.up = True
            self.row = 0
            return True
        self.up = False
        self.since = t
        self.wait = RETRY_MS
        return False

    def step(self, t, put):
        if not self.up:
            if ticks_diff(t, self.since) >= self.wait:
                self.reinits += 1
                self.bring_up(t, REVIVE_LIMIT_MS)
            return
        r = self.reader
        if r is None:
            return
        try:
            if self.polling:
                got = r.collect()
                if got is None:
                    if ticks_diff(t, self.t0) < POLL_LIMIT_MS:
                        return
                    r.cancel()
                    raise ReaderError("no answer in %d ms" % POLL_LIMIT_MS)
                self.row = 0
                if got:
                    self.seen = t
                    if got != self.uid:
                        self.uid = got
                        self.reads += 1
                        put((self.code, got))
                elif self.uid is not None and ticks_diff(t, self.seen) >= GONE_MS:
                    self.uid = None
            self.polling = False
            r.start_poll()
            self.polling = True
            self.t0 = t
        except (ReaderError, OSError) as e:
            self.polling = False
            self.errors += 1
            self.row += 1
            self.why = e
            if self.row >= REINIT_AFTER:
                self.up = False
                self.since = t
                self.wait = 0

    def cancel(self):
        if self.reader is not None and self.polling:
            self.polling = False
            try:
                self.reader.cancel()
            except OSError:
                pass


class Esp32Board:
    def __init__(self, hw=None, chip=None, clock=None) -> None:
        """hw: the machine module (default) or a stand-in with its Pin, SPI, I2C, PWM, WDT and
        Timer; chip: a class of board/pins.py (default: the one this chip is); clock: a
        ticks_ms() (default time.ticks_ms)."""
        if hw is None:
            import machine
            hw = machine
        if TYPE_CHECKING:  # checked against the real machine API; at run time it is hw
            import machine as m
        else:
            m = hw
        b = chip if chip is not None else pins.board()
        if b is None:
            raise RuntimeError("no pin map for this chip: see hardware/pins.json")
        self.chip = b
        self._m = m
        self._clock = clock or ticks_ms
        t = self._clock()
        self._last = t
        self._ms = t              # ms since boot, never wrapping (ticks_ms counts from boot)
        self._put = _drop
        self._beat = t
        self._beating = False
        self._starve = False
        self._dog = None          # type: WDT | None
        self._keeper = None       # type: Timer | None
        self.faults = 0           # exceptions caught in the input loop
        Pin = m.Pin

        # SPI: both readers, one CS each, one shared reset line (active low).
        spi = m.SPI(b.SPI_ID, baudrate=b.SPI_BAUDRATE, polarity=0, phase=0,
                    sck=Pin(b.SPI_SCK), mosi=Pin(b.SPI_MOSI), miso=Pin(b.SPI_MISO))
        rst = Pin(b.READER_RST, Pin.OUT, value=0)
        play_cs = Pin(b.PLAY_CS, Pin.OUT, value=1)
        draw_cs = Pin(b.DRAW_CS, Pin.OUT, value=1)
        sleep_ms(2)
        rst.value(1)  # a clean start for both chips, whatever they did before a soft reset
        sleep_ms(10)
        self.play = _Pad(_IN_PAD, spi, play_cs, Pin(b.PLAY_IRQ, Pin.IN),
                         _kinds(getattr(b, "PLAY_READER", None)))
        self.draw = _Pad(_IN_SHOE, spi, draw_cs, Pin(b.DRAW_IRQ, Pin.IN),
                         _kinds(getattr(b, "DRAW_READER", None)))
        for pad in (self.play, self.draw):
            pad.bring_up(t, BOOT_LIMIT_MS)

        # I2C: the button expander, the seat-LED expander, the optional display.
        i2c = m.I2C(b.I2C_ID, scl=Pin(b.I2C_SCL), sda=Pin(b.I2C_SDA), freq=b.I2C_FREQ)
        self.buttons = _Expander(i2c, pins.BUTTONS_ADDR, pins.BUTTON_MASK, pins.BUTTON_MASK)
        self.seat_leds = _Expander(i2c, pins.LEDS_ADDR, 0)
        colour = []
        for n in b.COLOUR_LEDS:
            colour.append(Pin(n, Pin.OUT, value=0))
        self.leds = Leds(self.seat_leds, pins.SEAT_LED_BITS, colour)
        try:
            self.display = _Screen(Display(i2c, pins.DISPLAY_ADDR))  # type: _Screen | None
        except (OSError, ImportError):  # no panel answers (ImportError: no framebuf, CPython)
            self.display = None

        self.buzzer = Buzzer(m.PWM(Pin(b.BUZZER), freq=1000, duty_u16=0))

        if b.SHUFFLE_PULLUP:
            self._shuffle = Pin(b.SHUFFLE, Pin.IN, Pin.PULL_UP)
        else:
            self._shuffle = Pin(b.SHUFFLE, Pin.IN)
        ids = [0] * 16
        for i in range(len(pins.SEAT_BUTTON_BITS)):
            ids[pins.SEAT_BUTTON_BITS[i]] = i + 1
        for c in range(len(pins.COLOUR_BUTTON_BITS)):
            ids[pins.COLOUR_BUTTON_BITS[c]] = _COLOUR_ID + c
        ids[_SHUFFLE_BIT] = _SHUFFLE_ID
        self.bank = ButtonBank(16, self._press, ids=ids,
                               mask=pins.BUTTON_MASK | 1 << _SHUFFLE_BIT)

    # -- the board interface (hub/app.py) --

    def now(self):
        """ms since boot, monotonic, never wrapping (ticks_ms wraps after 2**30 ms on the
        ESP32: the input loop calls this every few ms, well within half a period)."""
        return self._advance(self._clock())

    def ticks(self):
        return self._clock()

    def feed_dog(self):
        """The first call starts the watchdog (the hub calls this once it plays, then every
        second). Fed only while the input loop is alive, so a dead loop resets the board."""
        if self._starve or self._beating and ticks_diff(self._clock(), self._beat) > BEAT_MS:
            return
        dog = self._dog
        if dog is None:
            dog = self._dog = self._m.WDT(timeout=WDT_MS)
        dog.feed()

    def info(self):
        p = self.play
        d = self.draw
        return {"name": self.chip.MCU.lower(), "readers": [p.kind, d.kind],
                "up": [p.up, d.up], "reads": [p.reads, d.reads],
                "reader_errors": [p.errors, d.errors], "reinits": [p.reinits, d.reinits],
                "i2c_errors": self.buttons.errors + self.seat_leds.errors,
                "display": self.display is not None, "dog": self._dog is not None,
                "faults": self.faults}

    async def run(self, put):
        """The board's tasks: buzzer, LEDs and the input loop (this coroutine, forever)."""
        self.attach(put)
        asyncio.create_task(self.buzzer.run())
        asyncio.create_task(self.leds.run())
        while True:
            try:
                self.poll_once(self._clock())
            except Exception as e:  # a bug or a put() that failed: counted, reported, survived
                self.faults += 1
                if self.faults <= 3:
                    print("esp32 board: input loop: %r" % (e,))
            await asyncio.sleep_ms(POLL_MS)

    # -- the input loop, one step at a time (tests drive it with a fake clock) --

    def attach(self, put):
        """put(table_input) receives the inputs poll_once() finds."""
        self._put = put

    def poll_once(self, t):
        """One pass over every input at ticks t: buttons and shuffle sensor, then both readers."""
        self._advance(t)
        self.bank.feed(t, self.buttons.read() & 0x7FFF | self._shuffle.value() << _SHUFFLE_BIT)
        put = self._put
        self.play.step(t, put)
        self.draw.step(t, put)
        self._beat = t
        self._beating = True

    def stop(self, keep_dog=True):
        """Silence, lights off, readers idle. After Ctrl-C (keep_dog): a running watchdog
        cannot be stopped, so a hardware timer keeps feeding it and the REPL stays usable until
        the next reset. After a crash (keep_dog=False) the watchdog resets the board."""
        self.buzzer.stop()
        try:
            self.leds.off()
        except OSError:
            pass
        self.play.cancel()
        self.draw.cancel()
        if not keep_dog:
            self._starve = True  # feed_dog() no longer feeds
            return
        self._beating = False
        if self._dog is not None and self._keeper is None:
            self._keeper = self._m.Timer(0, mode=self._m.Timer.PERIODIC, period=WDT_MS // 4,
                                         callback=self._keep)

    # -- inside --

    def _keep(self, timer):
        if self._dog is not None:
            self._dog.feed()

    def _advance(self, t):
        d = ticks_diff(t, self._last)
        if d > 0:
            self._ms += d
            self._last = t
        return self._ms

    def _press(self, bid, long):
        put = self._put
        if bid == _SHUFFLE_ID:
            put((_IN_SHUFFLE,))
        elif bid >= _COLOUR_ID:
            put((_IN_COLOUR, bid - _COLOUR_ID, 1 if long else 0))
        else:
            put((_IN_SEAT, bid, 1 if long else 0))


def _drop(inp):
    pass


def _kinds(kind):
    if kind is None:
        return _AUTO
    if kind not in _AUTO:
        raise ValueError("reader part %r: want %s or %s" % (kind, PN532_KIND, MFRC522_KIND))
    return (kind,)
