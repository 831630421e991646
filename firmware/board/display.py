"""Optional SSD1306 128x64 OLED on machine.I2C: active colour, direction, turn, pending draws,
scores. 16 columns x 8 rows of the 8x8 framebuf font.

table_lines() is the layout, pure; Display needs framebuf (every MicroPython port has it,
CPython has not: there the module still imports and constructing a Display raises ImportError).

    oled = Display(i2c)
    oled.show_table(colour=2, direction=1, turn=3, pending=4, scores={1: 120, 2: 0, 3: 45})
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

ADDR = const(0x3C)
WIDTH = const(128)
HEIGHT = const(64)
COLS = const(16)

_CMD = const(0x00)   # control byte: a stream of command bytes follows
_DATA = const(0x40)  # control byte: a stream of display RAM bytes follows

# Power-up sequence for a 128x64 panel with the internal charge pump (as micropython-lib ssd1306).
_INIT = bytes((
    0xAE,        # display off
    0x20, 0x00,  # horizontal addressing: the whole RAM in one data write
    0x40,        # start line 0
    0xA1,        # column 127 is SEG0 (panel mounted as usual)
    0xA8, 0x3F,  # multiplex 64
    0xC8,        # scan COM from the bottom
    0xD3, 0x00,  # no vertical offset
    0xDA, 0x12,  # alternative COM pins (64-row panels)
    0xD5, 0x80,  # clock
    0xD9, 0xF1,  # precharge for the internal supply
    0xDB, 0x30,  # VCOMH
    0x81, 0xFF,  # contrast
    0xA4,        # show RAM
    0xA6,        # not inverted
    0x8D, 0x14,  # charge pump on
    0xAF,        # display on
))
_WINDOW = bytes((0x21, 0, WIDTH - 1, 0x22, 0, HEIGHT // 8 - 1))  # whole screen

COLOUR_NAMES = ("RED", "YELLOW", "GREEN", "BLUE")


def table_lines(colour=-1, direction=1, turn=0, pending=0, scores=None):
    """Screen text, at most 8 lines of at most 16 characters.
    colour 0..3 (R Y G B) or -1; direction +1 clockwise, -1 counter-clockwise; turn seat or 0;
    pending: cards the turn seat must draw; scores: {seat: points}."""
    c = COLOUR_NAMES[colour] if colour is not None and 0 <= colour < 4 else "-"
    d = ">> cw" if direction > 0 else "<< ccw"
    lines = [c + " " * (COLS - len(c) - len(d)) + d]
    t = "turn %d" % turn if turn else "turn -"
    if pending:
        p = "draw +%d" % pending
        t += " " * (COLS - len(t) - len(p)) + p
    lines.append(t)
    if scores:
        row = ""
        for s in sorted(scores):
            cell = "%2d:%4d" % (s, scores[s])
            if row:
                lines.append(row + "  " + cell)
                row = ""
            else:
                row = cell
        if row:
            lines.append(row)
    return lines[:HEIGHT // 8]


class Display:
    def __init__(self, i2c: "I2C", addr: int = ADDR) -> None:
        import framebuf  # here, not at the top: the module must import where framebuf is missing
        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        i2c.writeto_mem(addr, _CMD, _INIT)  # raises OSError when no panel answers

    def show(self):
        """Push the frame buffer to the panel."""
        self.i2c.writeto_mem(self.addr, _CMD, _WINDOW)
        self.i2c.writeto_mem(self.addr, _DATA, self.buf)

    def text(self, lines):
        self._draw(lines)
        self.show()

    def show_table(self, colour=-1, direction=1, turn=0, pending=0, scores=None):
        self._draw(table_lines(colour, direction, turn, pending, scores))
        if colour is not None and 0 <= colour < 4:
            # The colour name inverted: readable at a glance across the table.
            self.fb.fill_rect(0, 0, 8 * len(COLOUR_NAMES[colour]) + 2, 8, 1)
            self.fb.text(COLOUR_NAMES[colour], 1, 0, 0)
        self.show()

    def _draw(self, lines):
        self.fb.fill(0)
        y = 0
        for ln in lines:
            self.fb.text(ln, 0, y, 1)
            y += 8

    def power(self, on):
        self.i2c.writeto_mem(self.addr, _CMD, b"\xaf" if on else b"\xae")

    def contrast(self, v):
        self.i2c.writeto_mem(self.addr, _CMD, bytes((0x81, v & 0xFF)))
