"""What the host tool prints besides its results: progress of long work, on a terminal only.

Output that goes to a pipe or a file stays plain: no carriage returns, no escape codes.
"""
import sys
import time


class Progress:
    """`\\r  what: n of total` on stderr, at most 5 times a second, once the work has taken
    0.5 s, and only when stderr is a terminal; done() ends the line."""

    def __init__(self, what, total=None, stream=None):
        self.what = what
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = _tty(self.stream)
        self.t0 = time.monotonic()
        self.last = 0.0
        self.shown = False

    def __call__(self, n, note=""):
        if not self.tty:
            return
        now = time.monotonic()
        if now - self.t0 < 0.5 or now - self.last < 0.2:
            return
        self.last = now
        of = " of %d" % self.total if self.total else ""
        self.stream.write("\r  %s: %d%s%s\x1b[K" % (self.what, n, of, note))
        self.stream.flush()
        self.shown = True

    def done(self):
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False


def _tty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def plural(n, one, many=None):
    """'1 card', '2 cards'."""
    return "%d %s" % (n, one if n == 1 else (many or one + "s"))


def sheet_cell(v):
    """A text cell for a CSV that a spreadsheet opens: one that starts like a formula (=, +,
    -, @, a tab, a carriage return; a player may be named "=1+1") gets a leading ' so that
    Excel or LibreOffice shows it as text and never runs it."""
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + v
    return v
