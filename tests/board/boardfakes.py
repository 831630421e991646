"""Fake hardware for the board primitives: pins, PWM, an I2C bus, an MCP23017 register file.

Named boardfakes (not fakes) because every tests/ folder is on sys.path at once.
Runs under CPython and the MicroPython unix port alike.
"""
import sys

MICROPYTHON = sys.implementation.name == "micropython"


class Pin:
    """machine.Pin stand-in: value() reads, value(v) drives; writes are recorded."""

    def __init__(self, level=1):
        self.level = level
        self.writes = []

    def value(self, *v):
        if v:
            self.level = 1 if v[0] else 0
            self.writes.append(self.level)
            return None
        return self.level


class PWM:
    """machine.PWM stand-in recording ("freq", hz) and ("duty", u16) calls. Frequencies in bad
    are refused as the ESP32 port refuses one its LEDC timer will not take: ValueError("bad
    frequency"), the old frequency and duty left running."""

    def __init__(self):
        self.calls = []
        self._freq = 0
        self._duty = 0
        self.bad = ()

    def freq(self, *v):
        if not v:
            return self._freq
        if v[0] in self.bad:
            raise ValueError("bad frequency %d" % v[0])
        self._freq = v[0]
        self.calls.append(("freq", v[0]))

    def duty_u16(self, *v):
        if not v:
            return self._duty
        self._duty = v[0]
        self.calls.append(("duty", v[0]))

    def sounding(self):
        """Frequency heard now, 0 when silent."""
        return self._freq if self._duty else 0


class QuietPWM:
    """machine.PWM stand-in that records nothing and allocates nothing (no *args)."""

    def __init__(self):
        self.f = 0
        self.d = 0

    def freq(self, f=None):
        if f is None:
            return self.f
        self.f = f

    def duty_u16(self, d=None):
        if d is None:
            return self.d
        self.d = d


ENODEV = 19      # the ESP32 port's I2C: no ACK
ETIMEDOUT = 116  # ... and a bus held low (a stuck slave, SDA or SCL shorted): the command times out


class I2C:
    """machine.I2C stand-in: devices answer by address; others raise OSError(ENODEV) like a
    missing ACK. Every transaction is counted and, with log=True, logged.
    error = errno: every transaction fails so (ETIMEDOUT: the bus is stuck); garbage = a byte:
    reads ACK and return that byte throughout (0x00: a slave holding SDA low mid-read), or -1
    for noise."""

    def __init__(self, log=True):
        self.devices = {}
        self.transactions = 0
        self.log = log
        self.writes = []
        self.error = 0
        self.garbage = None
        self._lfsr = 0xACE1

    def attach(self, dev, addr):
        self.devices[addr] = dev
        return dev

    def _dev(self, addr):
        self.transactions += 1
        if self.error:
            raise OSError(self.error)
        d = self.devices.get(addr)
        if d is None:
            raise OSError(ENODEV)
        return d

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        d = self._dev(addr)
        if self.garbage is None:
            d.read(memaddr, buf)
            return
        for i in range(len(buf)):
            if self.garbage < 0:
                self._lfsr = noise(self._lfsr)
                buf[i] = self._lfsr & 0xFF
            else:
                buf[i] = self.garbage

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        if self.log:
            self.writes.append((addr, memaddr, bytes(buf)))
        self._dev(addr).write(memaddr, buf)


def noise(x):
    """The next state of a 16-bit Galois LFSR: reproducible noise."""
    return x >> 1 ^ (0xB400 if x & 1 else 0)


class MCP23017Regs:
    """The chip as seen over I2C, BANK=0 map, sequential mode: registers 0x00..0x15, the address
    pointer auto-increments and wraps. ext holds the levels the outside world drives on the pins
    (1 = high); bits in floating are driven by nobody (a button open): they read their pull-up
    (GPPU) if it is on, else whatever the open CMOS input picks up, a level that changes from
    read to read (the datasheet defines none). reset() is the RESET pin or a brown-out: every
    register back to its power-on value (IODIR all 1, the rest 0: pull-ups off)."""

    IODIRA, IODIRB, IPOLA, IPOLB = 0x00, 0x01, 0x02, 0x03
    IOCON = 0x0A
    GPPUA, GPPUB = 0x0C, 0x0D
    GPIOA, GPIOB, OLATA, OLATB = 0x12, 0x13, 0x14, 0x15
    NREG = 0x16

    def __init__(self):
        self.r = bytearray(self.NREG)
        self.ext = 0xFFFF
        self.floating = 0
        self._lfsr = 0x1D2C
        self.reset()

    def reset(self):
        r = self.r
        for i in range(self.NREG):
            r[i] = 0
        r[self.IODIRA] = r[self.IODIRB] = 0xFF  # power-on: all inputs

    def _16(self, lo):
        return self.r[lo] | self.r[lo + 1] << 8

    def iodir(self):
        return self._16(self.IODIRA)

    def gppu(self):
        return self._16(self.GPPUA)

    def olat(self):
        return self._16(self.OLATA)

    def outputs(self):
        """Levels on the output pins (bits of input pins are 0)."""
        return self.olat() & ~self.iodir() & 0xFFFF

    def pins(self):
        d = self.iodir()
        self._lfsr = noise(self._lfsr)
        open_ = self._lfsr & ~self.gppu()  # floating without a pull-up: anything
        inp = (self.ext & ~self.floating) | ((self.gppu() | open_) & self.floating)
        lv = (inp & d) | (self.olat() & ~d)
        return (lv ^ self._16(self.IPOLA)) & 0xFFFF

    def press(self, bit):
        """A button to GND closes: the pin is driven low."""
        self.ext &= ~(1 << bit)
        self.floating &= ~(1 << bit)

    def release(self, bit):
        """... and opens: nobody drives the pin (only a pull-up makes it read high)."""
        self.ext |= 1 << bit
        self.floating |= 1 << bit

    def read(self, reg, buf):
        assert self.r[self.IOCON] & 0xA0 == 0, "BANK or SEQOP set"
        for i in range(len(buf)):
            a = (reg + i) % self.NREG
            if a in (self.GPIOA, self.GPIOB):
                v = self.pins()
                buf[i] = v >> 8 if a == self.GPIOB else v & 0xFF
            else:
                buf[i] = self.r[a]

    def write(self, reg, buf):
        for i in range(len(buf)):
            a = (reg + i) % self.NREG
            if a in (self.GPIOA, self.GPIOB):
                a += 2  # writing GPIO writes the latch
            if a in (self.IOCON, self.IOCON + 1):
                self.r[self.IOCON] = self.r[self.IOCON + 1] = buf[i]
            else:
                self.r[a] = buf[i]


class SSD1306Dev:
    """An SSD1306 on the bus (datasheet 10.1.3-10.1.5): command bytes with their parameters,
    display RAM written at the address pointer, in horizontal addressing mode within the
    column (0x21) and page (0x22) window, wrapping inside it, or in page addressing mode (the
    power-on mode) along one page. frames counts whole-screen writes (1024 bytes in one data
    write), data_bytes every RAM byte sent. power_cycle() is the panel losing its supply (a
    loose connector): display off, charge pump off, page addressing, RAM as it powers up
    (the datasheet promises no content: noise here)."""

    PARAMS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
              0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self):
        self.cmds = bytearray()
        self.ram = bytearray(1024)
        self._lfsr = 0x5EED
        self.power_cycle()
        self.frames = 0
        self.data_bytes = 0
        self.data_writes = []  # length of each data write

    def power_cycle(self):
        self.on = False
        self.pump = False
        self.mode = 2          # page addressing
        self.win = [0, 127, 0, 7]
        self.col = 0
        self.page = 0
        for i in range(len(self.ram)):
            self._lfsr = noise(self._lfsr)
            self.ram[i] = self._lfsr & 0xFF

    def lit(self):
        """What a player sees: the RAM while the panel is on and powered, else nothing."""
        return bytes(self.ram) if self.on and self.pump else bytes(len(self.ram))

    def write(self, control, buf):
        if control == 0x00:
            self.cmds += buf
            i = 0
            while i < len(buf):
                c = buf[i]
                n = self.PARAMS.get(c, 0)
                p = list(buf[i + 1:i + 1 + n])
                assert len(p) == n, "command 0x%02X split across writes" % c
                if c == 0x20:
                    self.mode = p[0]
                elif c == 0x21:
                    self.win[0:2] = p
                    self.col = p[0]
                elif c == 0x22:
                    self.win[2:4] = p
                    self.page = p[0]
                elif c == 0x8D:
                    self.pump = bool(p[0] & 0x04)
                elif c in (0xAE, 0xAF):
                    self.on = c == 0xAF
                i += 1 + n
        elif control == 0x40:
            c0, c1, p0, p1 = self.win
            for b in buf:
                self.ram[self.page * 128 + self.col] = b
                if self.mode != 0:  # page addressing: along the page, wrapping in it
                    self.col = self.col + 1 if self.col < 127 else 0
                    continue
                self.col += 1
                if self.col > c1:
                    self.col = c0
                    self.page = self.page + 1 if self.page < p1 else p0
            self.data_bytes += len(buf)
            self.data_writes.append(len(buf))
            if len(buf) == 1024:
                self.frames += 1
        else:
            raise AssertionError("bad control byte %x" % control)


class Port:
    """An expander stand-in for Leds: write(word, mask) calls are recorded."""

    def __init__(self):
        self.out = 0
        self.writes = []

    def write(self, value, mask=0xFFFF):
        self.out = (self.out & ~mask) | (value & mask)
        self.writes.append((value, mask))


class Presses:
    """on_press callback collecting (button_id, long)."""

    def __init__(self):
        self.got = []

    def __call__(self, bid, long):
        self.got.append((bid, long))

    def take(self):
        g = self.got
        self.got = []
        return g


def hold(bank, t0, t1, word, step=5):
    """Feed bank the same word every step ms from t0 up to t1 (excluded); returns t1."""
    t = t0
    while t < t1:
        bank.feed(t, word)
        t += step
    return t1
