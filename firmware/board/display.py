"""Optional SSD1306 128x64 OLED on machine.I2C: active colour, direction, turn, pending draws,
scores. 16 columns x 8 rows of the 8x8 framebuf font; row 7 is kept for notes (error codes).

table_lines() is the layout, pure; Display needs framebuf (every MicroPython port has it,
CPython has not: there the module still imports and constructing a Display raises ImportError).

Only what changed goes to the panel: the display remembers each row's text and sends the
columns of the characters that differ, one page (8 pixel rows) at a time. A whole frame is
1 KB, about 23 ms of I2C at 400 kHz; a turn passing on is one or two characters, 8 to 16 bytes.
The whole frame is sent once, at power-up (the panel's RAM starts as noise).

    oled = Display(i2c)
    oled.show_table(colour=2, direction=1, turn=3, pending=4, scores={1: 120, 2: 0, 3: 45})
    oled.line(7, "E21 PAD 2 CARDS")

The layout (table_lines), the hub's Screen and the simulated table's TextPanel are in
board/screen.py, which needs no framebuf and stays small in a heap that holds the code.
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

from board.screen import COLOUR_NAMES, COLS, NOTE_ROW, ROWS, table_lines  # noqa: F401

ADDR = const(0x3C)
WIDTH = const(128)
HEIGHT = const(64)

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

class Display:
    def __init__(self, i2c: "I2C", addr: int = ADDR) -> None:
        import framebuf  # here, not at the top: the module must import where framebuf is missing
        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        self._mv = memoryview(self.buf)
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self._win = bytearray(6)
        self._rows = [("", 0)] * ROWS  # (text, inverted leading characters) on the panel
        self.sent = 0                  # display RAM bytes sent, for benches and tests
        self.init()  # raises OSError when no panel answers

    def init(self):
        """Power-up sequence and the whole frame: at boot, and for a panel that lost its supply
        (it comes back dark, its charge pump off, its RAM noise)."""
        self.i2c.writeto_mem(self.addr, _CMD, _INIT)
        self.show()

    def show(self):
        """Push the whole frame buffer to the panel (power-up, or after the panel was reset)."""
        self._send(0, ROWS - 1, 0, WIDTH - 1, self._mv)

    def line(self, row, text, inverted=0):
        """Row 0..7 shows text (16 characters at most), its first `inverted` characters light
        on dark. Sends only the columns of the characters that changed; returns the bytes sent."""
        text = text[:COLS]
        text += " " * (COLS - len(text))
        old, oinv = self._rows[row]
        if old == text and oinv == inverted:
            return 0
        a = 0
        if old:
            while a < COLS and old[a] == text[a] and (a < oinv) == (a < inverted):
                a += 1
            b = COLS
            while b > a and old[b - 1] == text[b - 1] and (b - 1 < oinv) == (b - 1 < inverted):
                b -= 1
        else:
            b = COLS
        y = row * 8
        fb = self.fb
        fb.fill_rect(0, y, WIDTH, 8, 0)
        if inverted:
            fb.fill_rect(0, y, 8 * inverted, 8, 1)
            fb.text(text[:inverted], 0, y, 0)
        fb.text(text[inverted:], 8 * inverted, y, 1)
        o = row * WIDTH
        self._rows[row] = ("", 0)  # unknown until the panel took it (a bus error: whole row next)
        self._send(row, row, 8 * a, 8 * b - 1, self._mv[o + 8 * a:o + 8 * b])
        self._rows[row] = (text, inverted)
        return 8 * (b - a)

    def text(self, lines):
        """Rows 0..7 show lines (missing ones blank)."""
        for r in range(ROWS):
            self.line(r, lines[r] if r < len(lines) else "")

    def show_table(self, colour=-1, direction=1, turn=0, pending=0, scores=None):
        """The table's state on rows 0..6; the colour name inverted, readable across the table."""
        lines = table_lines(colour, direction, turn, pending, scores)
        inv = len(COLOUR_NAMES[colour]) if colour is not None and 0 <= colour < 4 else 0
        for r in range(NOTE_ROW):
            self.line(r, lines[r] if r < len(lines) else "", inv if r == 0 else 0)

    def _send(self, p0, p1, c0, c1, data):
        w = self._win
        w[0] = 0x21  # column window
        w[1] = c0
        w[2] = c1
        w[3] = 0x22  # page window
        w[4] = p0
        w[5] = p1
        self.i2c.writeto_mem(self.addr, _CMD, w)
        self.i2c.writeto_mem(self.addr, _DATA, data)
        self.sent += len(data)

    def power(self, on):
        self.i2c.writeto_mem(self.addr, _CMD, b"\xaf" if on else b"\xae")

    def contrast(self, v):
        self.i2c.writeto_mem(self.addr, _CMD, bytes((0x81, v & 0xFF)))

