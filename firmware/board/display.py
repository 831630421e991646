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

Screen is the display as the hub drives it (bus errors counted, the boot report held);
TextPanel stands in for the panel on the simulated table.
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
ROWS = const(8)
NOTE_ROW = const(7)  # show_table() leaves it alone

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

COLOUR_NAMES = ("RED", "YELLOW", "GREEN", "BLUE")


def table_lines(colour=-1, direction=1, turn=0, pending=0, scores=None):
    """Screen text, at most 7 lines (row 7 is for notes) of at most 16 characters.
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
    return lines[:NOTE_ROW]


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
        i2c.writeto_mem(addr, _CMD, _INIT)  # raises OSError when no panel answers
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


class Screen:
    """The optional OLED as the hub drives it: a bus error costs a row, never the table. While
    the boot report is held, the table is remembered and drawn when the hold ends."""

    def __init__(self, oled: "Display") -> None:
        self.oled = oled
        self.errors = 0
        self.hold = False
        self._table = None  # type: tuple | None

    def show_table(self, colour=-1, direction=1, turn=0, pending=0, scores=None):
        if self.hold:
            self._table = (colour, direction, turn, pending, scores)
            return
        try:
            self.oled.show_table(colour, direction, turn, pending, scores)
        except OSError:
            self.errors += 1

    def text(self, lines):
        """Rows 0..6 (the note row stays)."""
        try:
            for r in range(NOTE_ROW):
                self.oled.line(r, lines[r] if r < len(lines) else "")
        except OSError:
            self.errors += 1

    def note(self, text):
        """The last row: the code of what needs a hand, or blank."""
        try:
            self.oled.line(NOTE_ROW, text, len(text) and 3)  # the code itself inverted
        except OSError:
            self.errors += 1

    def release(self):
        """The boot report's time is up: the table (if the hub drew one meanwhile)."""
        self.hold = False
        self.text(())
        if self._table is not None:
            a = self._table
            self._table = None
            self.show_table(*a)


class TextPanel(Display):
    """A panel that keeps only the text of its rows: the simulated table's display (its status
    shows them), and no framebuf or bus needed."""

    def __init__(self) -> None:  # no bus, no frame buffer
        self._rows = [("", 0)] * ROWS
        self.sent = 0

    def line(self, row, text, inverted=0):
        self._rows[row] = (text[:COLS], inverted)
        return 0

    def rows(self):
        return [r[0] for r in self._rows]
