"""The real board behind the hub (ESP32-WROOM-32 or ESP32-S3 devkit): readers, buttons, buzzer,
LEDs, display and watchdog, with the same interface as the simulated board (hub/sim.py).

    board = Esp32Board()             # pins from board/pins.py, hardware from `machine`
    board = Esp32Board(hw=fake)      # tests: anything with machine's Pin/SPI/I2C/PWM/WDT/Timer

Every pin and bus number comes from board/pins.py (generated from hardware/pins.json).

Inputs (run() -> put(table_input)), all sampled by one loop every POLL_MS:
  PLAY pad  -> (IN_PAD, uid)      DRAW shoe -> (IN_SHOE, uid)
  seat button s (1..10) -> (IN_SEAT, s, long)   colour c (0..3) -> (IN_COLOUR, c, long)
  shuffle sensor -> (IN_SHUFFLE,), a long press included (fired once, while held)
  red and blue held 3 s -> (IN_UNDO, 1)
  yellow and green held CONFIRM_MS -> on_confirm(), no table input: the laptop's `repl` in a
  round (hub.app Hub.confirm_repl)
A card resting on a reader is one read: its UID is reported again only after the reader has
found no card, poll after poll, for GONE_MS (a failed poll or two cards are not "no card"); a
different UID is a new read at once. Reader errors are counted; after
REINIT_AFTER in a row the reader is brought up again (begin()), then every RETRY_MS until it
answers. The loop itself never stops on a reader or bus error.

Readers: PN532 or MFRC522 on the shared SPI bus (board/reader.py interface), the part of each
position named in the pin map (PLAY_READER / DRAW_READER): nothing is probed, so a chip that is
slow to wake or a floating MISO is never taken for the other part. At boot each reader gets a
few tries; the boot report (serial and display, held BOOT_SCREEN_MS) gives each reader's part,
firmware and IRQ mode, or the code of a missing one.

Expanders (I2C): a read that fails, or finds IOCON or the pull-ups not as set (a reset put the
chip back to its power-on registers, or the bus gave garbage), reaches the buttons as unknown:
no press comes of it, and a press it hid a part of is no press. The chip is set up again (less
and less often on a stuck bus); both are read back every I2C_CHECK_MS; E31/E32 show when one
stays lost, E33 when a button stays down.

Two cards in a reader's field (TwoCards) are no input: the board itself plays the rejection,
shows E21/E22 on the display's last row and as an LED pattern until one card is taken away,
and counts it (info()["two_cards"]). Codes: board/faults.py, docs/firmware.md.
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

from board import faults, pins
from board import buzzer as tunes
from board.buttons import ButtonBank
from board.compat import sleep_ms, ticks_add, ticks_diff, ticks_ms
from board.buzzer import Buzzer
from board.display import Display
from board.screen import Screen as _Screen
from board.leds import Leds
from board.mcp23017 import MCP23017
from board.mfrc522 import MFRC522
from board.pn532 import PN532
from board.reader import ReaderError, TwoCards

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_SEAT = const(3)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
_IN_UNDO = const(8)
# -- end of codes --

POLL_MS = const(5)          # input loop period (buttons are sampled, readers stepped)
GONE_MS = const(300)        # no card this long: the same card again is a new read
POLL_LIMIT_MS = const(250)  # a poll with no answer this long is an error
REINIT_AFTER = const(5)     # errors in a row before the reader is brought up again
LOG_PARTITION = "unolog"    # the raw partition of the log's NOR ring (hardware/partitions-*.csv)
RETRY_MS = const(5000)      # a reader that does not come up is tried again this often
BOOT_LIMIT_MS = const(50)   # begin() bound per command at boot; later bring-ups are shorter
BOOT_TRIES = const(3)       # bring-ups at boot (a PN532 can be slow to wake), BOOT_GAP_MS apart
BOOT_GAP_MS = const(30)
REVIVE_LIMIT_MS = const(20)
BOOT_SCREEN_MS = const(3000)  # the boot report stays on the display this long
FAULT_MS = const(4000)      # a fault's LED pattern shows this long (its display note stays)
I2C_RETRY_MS = const(100)   # a lost expander is set up again after this, then less often
I2C_RETRY_MAX_MS = const(2000)
I2C_ALERT_MS = const(500)   # ... and its code shown once it has been lost this long
I2C_CHECK_MS = const(500)   # each expander's whole set-up is read back this often: inside
                            # the long-press time, so flipped inputs never make a long press
STUCK_MS = const(30000)     # a seat or colour button held this long is shown as stuck (E33)
WDT_MS = const(8000)        # watchdog timeout
BEAT_MS = const(3000)       # the dog is fed only while the input loop ran this recently

PN532_KIND = "pn532"
MFRC522_KIND = "mfrc522"
_PARTS = (PN532_KIND, MFRC522_KIND)

# Button ids (ButtonBank ids): seat s is s, colour c is _COLOUR_ID + c, the shuffle sensor
# _SHUFFLE_ID. The shuffle sensor is read from its GPIO into bit 15 of the expander word
# (GPB7, which no button may use: output-only on current MCP23017 silicon).
_COLOUR_ID = const(16)
_SHUFFLE_ID = const(32)
_SHUFFLE_BIT = const(15)
_UNDO_ID = const(33)  # red and blue held together 3 s: take back the last input (docs/buttons.md)
_CONFIRM_ID = const(34)  # yellow and green held CONFIRM_MS: lets the laptop's `repl` in
CONFIRM_MS = const(5000)  # longer than the take-back's 3 s: the two are never taken for each other


class _Expander(MCP23017):
    """An MCP23017 whose bus errors are counted, not raised: a glitch on I2C must not stop the
    table. Lost (a bus error, or registers not as set: a reset or garbage) it is set up again
    at the next poll, then after I2C_RETRY_MS, twice that, ... up to I2C_RETRY_MAX_MS: on a
    stuck bus every attempt blocks the loop for the port's I2C timeout (50 ms on the ESP32).
    The latch it is given meanwhile is kept and goes out with the set-up."""

    def __init__(self, i2c, addr: int, inputs: int, pullups: int = 0, clock=None) -> None:
        self.errors = 0
        self.lost = False
        self.since = 0      # ticks it was lost
        self._next = 0      # ticks of the next set-up attempt
        self._wait = 0      # ... and the wait after that one fails
        self.alerted = False
        self._clock = clock or _ticks
        try:
            super().__init__(i2c, addr, inputs, pullups)
        except OSError:
            self._fail()

    def _fail(self) -> None:
        self.errors += 1
        t = self._clock()
        if self.lost:
            w = self._wait
            self._next = ticks_add(t, w)
            self._wait = w * 2 if w < I2C_RETRY_MAX_MS // 2 else I2C_RETRY_MAX_MS
        else:
            self.lost = True
            self.since = self._next = t
            self._wait = I2C_RETRY_MS

    def revive(self) -> bool:
        """While lost, set it up again when its time has come; True when it is back."""
        if not self.lost:
            return True
        if ticks_diff(self._clock(), self._next) < 0:
            return False
        try:
            self.setup()
        except OSError:
            self._fail()
            return False
        self.lost = False
        return True

    def read(self) -> int:
        """The port word, or -1 when it was not read: lost, or set up again just now (what
        it read while lost, a check found wrong, must reach the buttons as unknown first)."""
        if self.lost:
            self.revive()
            return -1
        try:
            return super().read()
        except OSError:
            self._fail()
            return -1

    def verify(self) -> None:
        """Read back the set-up (an output-only expander is never read otherwise)."""
        if self.lost:
            return
        try:
            self.check()
        except OSError:
            self._fail()

    def write(self, value: int, mask: int = 0xFFFF) -> None:
        if self.lost:  # kept: revive() sends it with the set-up
            self.out = (self.out & ~mask | value & mask) & 0xFFFF
            return
        try:
            super().write(value, mask)
        except OSError:
            self._fail()


class _Pad:
    """One NFC reader and its de-duplication: poll, collect, report a UID once."""

    def __init__(self, code, name, spi, cs, irq, part, gain, alert):
        self.code = code          # _IN_PAD or _IN_SHOE
        self.name = name          # "PLAY pad" / "DRAW shoe"
        self.kind = part          # the part the pin map names
        if part == MFRC522_KIND:
            self.reader = MFRC522(spi, cs, irq, gain=gain)  # type: Union[PN532, MFRC522]
        else:
            self.reader = PN532(spi, cs, irq)
        pad = code == _IN_PAD
        self.missing_code = faults.PAD_READER if pad else faults.SHOE_READER
        self.two_code = faults.PAD_TWO_CARDS if pad else faults.SHOE_TWO_CARDS
        self.irq_code = faults.PAD_IRQ if pad else faults.SHOE_IRQ
        self._alert = alert       # alert(code, on): the board shows or clears a code
        self.up = False
        self.missing = False      # its code is shown
        self.crowded = False      # two cards are in its field now
        self.polling = False
        self.t0 = 0               # ticks the poll in flight began
        self.since = 0            # while down: ticks it went down (or last failed to come up)
        self.wait = 0             # ... and ms until the next bring-up attempt
        self.uid = None           # UID reported and still considered on the reader
        self.seen = 0             # ticks it was last seen
        self.reads = 0
        self.errors = 0
        self.two = 0              # polls that found two cards
        self.row = 0              # errors in a row
        self.reinits = 0
        self.why = None           # the last error

    def bring_up(self, t, limit_ms, tries=1):
        """begin() the reader, up to `tries` times; False when it does not answer."""
        self.polling = False
        for i in range(tries):
            if i:
                sleep_ms(BOOT_GAP_MS)
            try:
                self.reader.begin(limit_ms)
            except (ReaderError, OSError) as e:
                self.why = e
                continue
            self.up = True
            self.row = 0
            if self.missing:
                self.missing = False
                self._alert(self.missing_code, False)
            return True
        self.up = False
        self.since = t
        self.wait = RETRY_MS
        if not self.missing:
            self.missing = True
            self._alert(self.missing_code, True)
        return False

    def report(self):
        """The boot report's line for this reader."""
        if self.up:
            return "%s: %s" % (self.name, self.reader.describe())
        return "%s: %s: no %s answers (%s)" % (self.name, faults.note(self.missing_code),
                                                self.reader.part, self.why)

    def step(self, t, put):
        if not self.up:
            if ticks_diff(t, self.since) >= self.wait:
                self.reinits += 1
                self.bring_up(t, REVIVE_LIMIT_MS)
            return
        r = self.reader
        try:
            if self.polling:
                got = r.collect()
                if got is None:
                    if ticks_diff(t, self.t0) < POLL_LIMIT_MS:
                        return
                    r.cancel()
                    raise ReaderError("no answer in %d ms" % POLL_LIMIT_MS)
                self.row = 0
                if self.crowded:  # down to one card, or none
                    self.crowded = False
                    self._alert(self.two_code, False)
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
        except TwoCards:  # no guess, no input: the players are asked to take one away
            self.polling = False
            self.seen = t  # cards were there: GONE_MS of "no card" starts afresh
            self.row = 0
            self.two += 1
            if not self.crowded:
                self.crowded = True
                self._alert(self.two_code, True)
        except (ReaderError, OSError) as e:
            self.polling = False
            self.seen = t  # a failed poll is not "no card": the card may be there still
            self.errors += 1
            self.row += 1
            self.why = e
            if self.row >= REINIT_AFTER:
                self.up = False
                self.since = t
                self.wait = 0

    def cancel(self):
        if self.polling:
            self.polling = False
            try:
                self.reader.cancel()
            except OSError:
                pass


class Esp32Board:
    # The USB serial: the REPL's UART at 115200 baud, 8N1, bytes a second. It always polls
    # writable and a write into its full 128-byte FIFO holds the interpreter, so hub/serial.py
    # paces its writes to this (a native USB port drains faster: the pace is safe there too).
    serial_bps = 11520

    def __init__(self, hw=None, chip=None, clock=None, say=print) -> None:
        """hw: the machine module (default) or a stand-in with its Pin, SPI, I2C, PWM, WDT and
        Timer; chip: a class of board/pins.py (default: the one this chip is); clock: a
        ticks_ms() (default time.ticks_ms); say: where the boot report's lines go (the serial)."""
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
        self._clock = clock or _ticks
        t = self._clock()
        self._last = t
        self._ms = t              # ms since boot, never wrapping (ticks_ms counts from boot)
        self._put = _drop
        self.on_confirm = _nothing  # the hub's: yellow and green held, never a table input
        self._beat = t
        self._beating = False
        self._starve = False
        self._dog = None          # type: WDT | None
        self._keeper = None       # type: Timer | None
        self.faults = 0           # exceptions caught in the input loop
        self.stuck = 0            # expander bits of buttons shown as stuck
        self.alerts = []          # type: list[int]  # codes shown (board/faults.py), newest last
        self._shown = 0           # the code the LEDs show, 0 for none
        self._shown_t = t         # ... since these ticks
        self._boot_t = t          # the boot report went on the display
        Pin = m.Pin

        # I2C first (the outputs that tell what follows): the button expander, the seat-LED
        # expander, the optional display; then the buzzer.
        i2c = m.I2C(b.I2C_ID, scl=Pin(b.I2C_SCL), sda=Pin(b.I2C_SDA), freq=b.I2C_FREQ)
        self.buttons = _Expander(i2c, pins.BUTTONS_ADDR, pins.BUTTON_MASK, pins.BUTTON_MASK,
                                 self._clock)
        self.seat_leds = _Expander(i2c, pins.LEDS_ADDR, 0, 0, self._clock)
        self._checked = t
        colour = []
        for n in b.COLOUR_LEDS:
            colour.append(Pin(n, Pin.OUT, value=0))
        self.leds = Leds(self.seat_leds, pins.SEAT_LED_BITS, colour)
        self.display = None  # type: _Screen | None
        try:
            self.display = _Screen(Display(i2c, pins.DISPLAY_ADDR))
        except (OSError, ImportError):  # no panel answers (ImportError: no framebuf, CPython)
            pass
        self.buzzer = Buzzer(m.PWM(Pin(b.BUZZER), freq=tunes.LOW_HZ, duty_u16=0))
        for e, code in ((self.buttons, faults.BUTTONS_I2C), (self.seat_leds, faults.LEDS_I2C)):
            if e.lost:
                e.alerted = True
                self._alert(code, True)

        # SPI: both readers, one CS each, one shared reset line (active low).
        spi = m.SPI(b.SPI_ID, baudrate=b.SPI_BAUDRATE, polarity=0, phase=0,
                    sck=Pin(b.SPI_SCK), mosi=Pin(b.SPI_MOSI), miso=Pin(b.SPI_MISO))
        rst = Pin(b.READER_RST, Pin.OUT, value=0)
        play_cs = Pin(b.PLAY_CS, Pin.OUT, value=1)
        draw_cs = Pin(b.DRAW_CS, Pin.OUT, value=1)
        sleep_ms(2)
        rst.value(1)  # a clean start for both chips, whatever they did before a soft reset
        sleep_ms(10)
        self.play = _Pad(_IN_PAD, "PLAY pad", spi, play_cs, Pin(b.PLAY_IRQ, Pin.IN),
                         _part(b.PLAY_READER), b.PLAY_GAIN, self._alert)
        self.draw = _Pad(_IN_SHOE, "DRAW shoe", spi, draw_cs, Pin(b.DRAW_IRQ, Pin.IN),
                         _part(b.DRAW_READER), b.DRAW_GAIN, self._alert)
        for pad in (self.play, self.draw):
            pad.bring_up(t, BOOT_LIMIT_MS, BOOT_TRIES)

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
        cb = pins.COLOUR_BUTTON_BITS
        self.bank = ButtonBank(16, self._press, ids=ids,
                               mask=pins.BUTTON_MASK | 1 << _SHUFFLE_BIT,
                               chord=1 << cb[0] | 1 << cb[3], chord_id=_UNDO_ID,
                               chords=((1 << cb[1] | 1 << cb[2], _CONFIRM_ID, CONFIRM_MS),))

        self.report = self._boot_report()  # serial and display: what came up, and how
        for line in self.report:
            say("board: " + line)
        self._boot_screen()

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
                "versions": [p.reader.version, d.reader.version],
                "irq": [p.reader.irq_mode, d.reader.irq_mode],
                "up": [p.up, d.up], "reads": [p.reads, d.reads],
                "reader_errors": [p.errors, d.errors], "reinits": [p.reinits, d.reinits],
                "two_cards": [p.two, d.two], "alerts": list(self.alerts),
                "i2c_errors": self.buttons.errors + self.seat_leds.errors,
                "stuck": self._stuck_ids(),
                "display": self.display is not None, "dog": self._dog is not None,
                "faults": self.faults}

    def selftest(self, **kw):
        """The guided bring-up checks (hub/selftest.py), blocking: at the REPL, not in the app
        (there: `await hub.selftest.SelfTest(board, say=..., wait=hub.selftest.pause).run()`).
        Returns [(status, what, detail)]."""
        from hub.selftest import run
        return run(self, **kw)

    def table_id(self):
        """This table's id: 8 bytes from machine.unique_id() (the ESP32's 6-byte MAC), hashed
        so that every id is 8 bytes whatever the chip gives, and stable across boots."""
        uid = bytes(self._m.unique_id())
        if len(uid) == 8:
            return uid
        import hashlib
        return hashlib.sha256(b"unotable" + uid).digest()[:8]

    def log_flash(self):
        """The raw data partition `unolog` the log's NOR ring lives on (appends only program;
        erases wait for a quiet moment), or None: with the stock partition table the log stays
        files on littlefs (docs/firmware.md says how to add the partition)."""
        try:
            import esp32
        except ImportError:  # not an ESP32 (tests on fakes)
            return None
        found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label=LOG_PARTITION)
        return found[0] if found else None

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
        sh = self._shuffle.value() << _SHUFFLE_BIT
        w = self.buttons.read()
        if w < 0:  # not read: no press comes of the buttons' old levels (bank.feed, unknown)
            self.bank.feed(t, sh, 0x7FFF)
        else:
            self.bank.feed(t, w & 0x7FFF | sh)
        leds = self.seat_leds
        if leds.lost:
            leds.revive()
        if ticks_diff(t, self._checked) >= I2C_CHECK_MS:
            self._checked = t
            leds.verify()
            self.buttons.verify()  # what a read does not bring along: direction, polarity
            self._stuck_check(t)
        self._watch(self.buttons, faults.BUTTONS_I2C, t)
        self._watch(leds, faults.LEDS_I2C, t)
        put = self._put
        self.play.step(t, put)
        self.draw.step(t, put)
        self._tick_alerts(t)
        self._beat = t
        self._beating = True

    def stop(self, keep_dog=True):
        """Silence, lights off, readers idle. After Ctrl-C (keep_dog): a running watchdog
        cannot be stopped, so a hardware timer keeps feeding it and the REPL stays usable until
        the next reset. After a crash (keep_dog=False) the watchdog resets the board."""
        self.buzzer.stop()
        try:
            self.leds.alert(0)
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

    def _boot_report(self):
        lines = [self.play.report(), self.draw.report()]
        for pad in (self.play, self.draw):
            if pad.up and pad.reader.irq_mode != "pin":
                lines.append("%s: %s" % (pad.name, faults.note(pad.irq_code)))
        for c in self.alerts:
            if c != self.play.missing_code and c != self.draw.missing_code:
                lines.append(faults.note(c))
        return lines

    def _boot_screen(self):
        d = self.display
        if d is None:
            return
        rows = []
        for pad, tag in ((self.play, "PAD "), (self.draw, "SHOE")):
            r = pad.reader
            if pad.up:
                rows.append("%s %s %s" % (tag, r.part, r.version))
                rows.append("  IRQ " + ("pin" if r.irq_mode == "pin" else "off: polled"))
            else:
                rows.append("%s %s ---" % (tag, r.part))
                rows.append(" " + faults.note(pad.missing_code))
        d.text(rows)
        d.hold = True
        self._boot_t = self._clock()

    def _alert(self, code, on):
        """Show (on) or clear a code: the display's last row, the LED pattern, the buzzer."""
        al = self.alerts
        if on:
            if code in al:
                al.remove(code)
            al.append(code)
            self.buzzer.play(tunes.REJECTED if code // 10 == 2 else tunes.FAULT)
            self._shown = code
            self._shown_t = self._clock()
            self.leds.alert(code)
        elif code in al:
            al.remove(code)
            if self._shown == code:
                self._shown = 0
                self.leds.alert(0)
        if self.display is not None:
            self.display.note(faults.note(al[-1]) if al else "")

    def _tick_alerts(self, t):
        """A fault's LED pattern ends after FAULT_MS (its note stays); two cards' lasts while
        they are there. The boot report leaves the display after BOOT_SCREEN_MS."""
        if self._shown and self._shown // 10 != 2 and ticks_diff(t, self._shown_t) >= FAULT_MS:
            self._shown = 0
            self.leds.alert(0)
        d = self.display
        if d is not None:
            if d.hold and ticks_diff(t, self._boot_t) >= BOOT_SCREEN_MS:
                d.release()
                d.note(faults.note(self.alerts[-1]) if self.alerts else "")
            d.tick(t)

    def _stuck_check(self, t):
        """A seat or colour button held STUCK_MS (the shuffle sensor may hold a pile): its
        code until it is let go, and which ones in info()["stuck"]. Its one long press has
        gone out already: nothing tells a stuck button from a held one in 0.8 s."""
        st = self.bank.held(t, STUCK_MS, pins.BUTTON_MASK)
        if st != self.stuck:
            if not self.stuck:
                self._alert(faults.BUTTON_STUCK, True)
            elif not st:
                self._alert(faults.BUTTON_STUCK, False)
            self.stuck = st

    def _stuck_ids(self):
        """Stuck buttons as the host knows them: "seat 4", "colour 2"."""
        out = []
        ids = self.bank.ids
        for i in range(16):
            if self.stuck >> i & 1 and ids is not None:
                b = ids[i]
                out.append("colour %d" % (b - _COLOUR_ID) if b >= _COLOUR_ID else "seat %d" % b)
        return out

    def _watch(self, e, code, t):
        """An expander's code is shown once it has been lost I2C_ALERT_MS (a glitch or a reset
        it got over is only counted), and cleared when it is back."""
        if e.lost:
            if not e.alerted and ticks_diff(t, e.since) >= I2C_ALERT_MS:
                e.alerted = True
                self._alert(code, True)
        elif e.alerted:
            e.alerted = False
            self._alert(code, False)

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
        if bid == _CONFIRM_ID:  # to the hub alone: the rules and the log never see it
            self.on_confirm()
        elif bid == _SHUFFLE_ID:
            put((_IN_SHUFFLE,))
        elif bid == _UNDO_ID:
            put((_IN_UNDO, 1))
        elif bid >= _COLOUR_ID:
            put((_IN_COLOUR, bid - _COLOUR_ID, 1 if long else 0))
        else:
            put((_IN_SEAT, bid, 1 if long else 0))


def _drop(inp):
    pass


def _nothing():
    return False


def _ticks():
    return ticks_ms()


def _part(kind):
    if kind not in _PARTS:
        raise ValueError("reader part %r: want %s or %s" % (kind, PN532_KIND, MFRC522_KIND))
    return kind
