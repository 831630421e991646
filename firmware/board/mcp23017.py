"""Minimal MCP23017 16-bit I/O expander on machine.I2C: port A is bits 0-7, port B bits 8-15.

Runs in the power-on register layout (IOCON.BANK=0) with sequential addressing, where each A/B
register pair is adjacent, so every 16-bit access is one I2C transaction into one buffer.

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
_GPPU = const(0x0C)   # 1 = 100k pull-up
_GPIO = const(0x12)
_OLAT = const(0x14)


class MCP23017:
    def __init__(self, i2c: "I2C", addr: int = ADDR, inputs: int = 0xFFFF, pullups: int = 0,
                 out: int = 0) -> None:
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(2)
        self.out = out & 0xFFFF
        # BANK=0, SEQOP=0: pins the register map and the auto-increment the 16-bit accesses use.
        self._w16(_IOCON, 0)
        self.config(inputs, pullups)

    def config(self, inputs: int, pullups: int = 0) -> None:
        """Bits set in inputs are inputs, the rest outputs; pullups: 100k pull-up per bit."""
        self._w16(_OLAT, self.out)  # latch first: outputs come up at the known level
        self._w16(_IPOL, 0)
        self._w16(_GPPU, pullups)
        self._w16(_IODIR, inputs)

    def read(self) -> int:
        """Levels of all 16 pins (inputs as driven, outputs as latched): one transaction."""
        b = self._buf
        self.i2c.readfrom_mem_into(self.addr, _GPIO, b)
        return b[0] | b[1] << 8

    def write(self, value: int, mask: int = 0xFFFF) -> None:
        """Set the output latch bits in mask to value's; the others keep their level."""
        self.out = (self.out & ~mask | value & mask) & 0xFFFF
        self._w16(_OLAT, self.out)

    def _w16(self, reg: int, v: int) -> None:
        b = self._buf
        b[0] = v & 0xFF
        b[1] = v >> 8 & 0xFF
        self.i2c.writeto_mem(self.addr, reg, b)
