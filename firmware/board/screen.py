"""The display as the hub uses it, without the panel's driver: the table's layout in text
(table_lines), Screen (what the hub calls: bus errors counted, the boot report held) over a
panel, and TextPanel, a panel that keeps only its rows' text (the simulated table's display).
board/display.py is the SSD1306 panel. Small on purpose: the simulated table's heap holds it."""
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
    from board.display import Display

from board.compat import ticks_diff

COLS = const(16)
ROWS = const(8)
NOTE_ROW = const(7)  # show_table() leaves it alone
PAGE_MS = const(2000)  # the note row shows its pieces in turn, each this long

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


def fold(text):
    """text in pieces of at most COLS characters, cut between words where it can."""
    out = []
    line = ""
    for w in text.split(" "):
        while len(w) > COLS:  # a word that fits no row
            if line:
                out.append(line)
                line = ""
            out.append(w[:COLS])
            w = w[COLS:]
        if not line:
            line = w
        elif len(line) + 1 + len(w) <= COLS:
            line += " " + w
        else:
            out.append(line)
            line = w
    if line:
        out.append(line)
    return out


class Screen:
    """The optional OLED as the hub drives it: a bus error costs a row, never the table. After
    one, the panel is set up again (and sent the whole picture) before the next drawing: it
    may have lost its supply, and would stay dark. While the boot report is held, the table
    is remembered and drawn when the hold ends.

    The note row says what needs a hand: the board's fault code (note) and the hub's notice
    (the log full or damaged, the card a take-back sends back), each PAGE_MS in turn, a notice
    longer than the row in pieces (tick() turns the pages)."""

    def __init__(self, oled: "Display") -> None:
        self.oled = oled
        self.errors = 0
        self.lost = False
        self.hold = False
        self._table = None  # type: tuple | None
        self._code = ""
        self._notice = None  # type: str | None
        self._pages = []     # type: list[str]
        self._page = 0
        self._t = 0
        self._turn = False   # the page time starts at the next tick()

    def _ready(self):
        if self.lost:
            try:
                self.oled.init()
            except OSError:
                self.errors += 1
                return False
            self.lost = False
        return True

    def _fail(self):
        self.errors += 1
        self.lost = True

    def show_table(self, colour=-1, direction=1, turn=0, pending=0, scores=None):
        if self.hold:
            self._table = (colour, direction, turn, pending, scores)
            return
        if not self._ready():
            return
        try:
            self.oled.show_table(colour, direction, turn, pending, scores)
        except OSError:
            self._fail()

    def text(self, lines):
        """Rows 0..6 (the note row stays)."""
        if not self._ready():
            return
        try:
            for r in range(NOTE_ROW):
                self.oled.line(r, lines[r] if r < len(lines) else "")
        except OSError:
            self._fail()

    def note(self, text):
        """The board's fault code for the last row ("E21 PAD 2 CARDS"), or blank."""
        self._code = text
        self._paginate()

    def notice(self, text):
        """The hub's word for the last row (hub/app.py: "LOG FULL - sync the table"), or None."""
        if text == self._notice:
            return
        self._notice = text
        self._paginate()

    def tick(self, now_ms):
        """The next piece of the note row when its time has come."""
        n = len(self._pages)
        if n < 2:
            return
        if self._turn:
            self._turn = False
            self._t = now_ms
        elif ticks_diff(now_ms, self._t) >= PAGE_MS:
            self._t = now_ms
            self._page = (self._page + 1) % n
            self._last()

    def _paginate(self):
        pages = [self._code] if self._code else []
        if self._notice:
            pages.extend(fold(self._notice))
        self._pages = pages
        self._page = 0
        self._turn = True
        self._last()

    def _last(self):
        if not self._ready():
            return
        pages = self._pages
        text = pages[self._page] if pages else ""
        try:  # a code is shown with the code itself inverted
            self.oled.line(NOTE_ROW, text, 3 if text and text is self._code else 0)
        except OSError:
            self._fail()

    def release(self):
        """The boot report's time is up: the table (if the hub drew one meanwhile)."""
        self.hold = False
        self.text(())
        if self._table is not None:
            a = self._table
            self._table = None
            self.show_table(*a)


class TextPanel:
    """A panel that keeps only the text of its rows: the simulated table's display (its status
    shows them), and no framebuf or bus needed."""

    def __init__(self) -> None:
        self._rows = [("", 0)] * ROWS

    def line(self, row, text, inverted=0):
        self._rows[row] = (text[:COLS], inverted)
        return 0

    def rows(self):
        return [r[0] for r in self._rows]

    def show_table(self, colour=-1, direction=1, turn=0, pending=0, scores=None):
        lines = table_lines(colour, direction, turn, pending, scores)
        inv = len(COLOUR_NAMES[colour]) if colour is not None and 0 <= colour < 4 else 0
        for r in range(NOTE_ROW):
            self.line(r, lines[r] if r < len(lines) else "", inv if r == 0 else 0)
