"""Minimal MCP23017 16-bit I/O expander on machine.I2C: port A is bits 0-7, port B bits 8-15.

Runs in the power-on register layout (IOCON.BANK=0) with sequential addressing, where each A/B
register pair is adjacent, so every 16-bit access is one I2C transaction into one buffer. A read
brings IOCON and the pull-ups along: a chip reset mid-game, or garbage, is an error, not a word.

    mcp = MCP23017(i2c, 0x20, inputs=0x03FF, pullups=0x03FF)   # 10 buttons, 6 outputs
    word = mcp.read()
    mcp.write(0x0400, mask=0xFC00)
"""
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
    from machine import I2C

ADDR = const(0x20)  # A2..A0 tied low

_IODIR = const(0x00)  # 1 = input (power-on: all inputs)
_IPOL = const(0x02)
_IOCON = const(0x0A)  # also at 0x0B
# BANK=0, SEQOP=0 pin the register map and the auto-increment the 16-bit accesses use. ODR:
# INTA/INTB open-drain, so unwired they drive nothing; it makes IOCON read non-zero only when
# set up, where a power-on reset and a bus stuck low both read 0.
_IOCON_SET = const(0x04)
_GPPU = const(0x0C)   # 1 = 100k pull-up
_GPIO = const(0x12)
_OLAT = const(0x14)
_EIO = const(5)       # errno: the chip answered, but not as it was set up


class MCP23017:
    def __init__(self, i2c: "I2C", addr: int = ADDR, inputs: int = 0xFFFF, pullups: int = 0,
                 out: int = 0) -> None:
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(2)
        self._rd = bytearray(14)  # IODIR..GPPU (check) or IOCON..GPIO (read)
        self._rd10 = memoryview(self._rd)[:10]
        self.out = out & 0xFFFF
        self.inputs = inputs & 0xFFFF
        self.pullups = pullups & 0xFFFF
        self.setup()

    def setup(self) -> None:
        """Every register the driver relies on, as at construction (after a power-on reset)."""
        self._w16(_IOCON, _IOCON_SET | _IOCON_SET << 8)
        self.config(self.inputs, self.pullups)

    def config(self, inputs: int, pullups: int = 0) -> None:
        """Bits set in inputs are inputs, the rest outputs; pullups: 100k pull-up per bit."""
        self.inputs = inputs & 0xFFFF
        self.pullups = pullups & 0xFFFF
        self._w16(_OLAT, self.out)  # latch first: outputs come up at the known level
        self._w16(_IPOL, 0)
        self._w16(_GPPU, pullups)
        self._w16(_IODIR, inputs)

    def read(self) -> int:
        """Levels of all 16 pins (inputs as driven, outputs as latched): one transaction.
        IOCON and the pull-ups are read with the pins: when they are not as set (a reset put the
        chip back to its power-on registers, pull-ups off and the buttons floating, or the bus
        gave garbage) it raises OSError(EIO) rather than give levels nobody drove."""
        b = self._rd
        self.i2c.readfrom_mem_into(self.addr, _IOCON, self._rd10)  # IOCON x2, GPPU, INTF,
        if b[0] != _IOCON_SET or b[2] | b[3] << 8 != self.pullups:  # INTCAP, GPIO
            raise OSError(_EIO)
        return b[8] | b[9] << 8

    def check(self) -> None:
        """Raise OSError(EIO) unless direction, polarity, interrupts, IOCON and pull-ups read
        back as set: an output-only expander is never read otherwise, and a reset turns its
        outputs into inputs (the LEDs go dark) without a bus error."""
        b = self._rd
        self.i2c.readfrom_mem_into(self.addr, _IODIR, b)  # 0x00..0x0D
        if b[0] | b[1] << 8 != self.inputs or b[12] | b[13] << 8 != self.pullups \
                or b[10] != _IOCON_SET or b[11] != _IOCON_SET:
            raise OSError(_EIO)
        for i in range(2, 10):  # IPOL, GPINTEN, DEFVAL, INTCON: all 0
            if b[i]:
                raise OSError(_EIO)

    def write(self, value: int, mask: int = 0xFFFF) -> None:
        """Set the output latch bits in mask to value's; the others keep their level."""
        self.out = (self.out & ~mask | value & mask) & 0xFFFF
        self._w16(_OLAT, self.out)

    def _w16(self, reg: int, v: int) -> None:
        b = self._buf
        b[0] = v & 0xFF
        b[1] = v >> 8 & 0xFF
        self.i2c.writeto_mem(self.addr, reg, b)
