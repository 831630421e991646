"""Serves a LinkServer on the REPL's stdin/stdout (the hub's USB serial), as an asyncio task.

    asyncio.create_task(stdio.serve(LinkServer(handler)))

Bytes are read one at a time after the stream polls ready: stdin's read(n) would block the
event loop until n bytes came, and readline() has no length cap. Ctrl-C still interrupts (the
port's kbd_intr sees it before we do). Each answer goes out in one write, so a print() from
elsewhere lands between frames, never inside one.
"""
import sys

from link.frame import MAX


class Lines:
    """Cuts a byte stream into lines of at most MAX bytes (line end included); a longer line
    is dropped whole, up to its line end, so its tail is not taken for a frame. CR ends a line
    as LF does: a terminal's Enter sends CR (screen, picocom, mpremote), and a frame's CRLF
    then gives an empty line, which callers skip."""

    def __init__(self):
        self.buf = bytearray(MAX)
        self.mv = memoryview(self.buf)
        self.n = 0
        self.over = False
        self.dropped = 0       # oversized lines seen

    def feed(self, c):
        """One byte; returns a memoryview of the line (without its end) when one is complete."""
        if c == 0x0A or c == 0x0D:
            n = self.n
            self.n = 0
            if self.over:
                self.over = False
                self.dropped += 1
                return None
            return self.mv[0:n]
        if self.n < MAX - 1:
            self.buf[self.n] = c
            self.n += 1
        else:
            self.over = True
        return None


async def serve(server, rd=None, wr=None):
    """Answers requests until stdin closes (a board's never does)."""
    import asyncio
    if rd is None:
        rd = asyncio.StreamReader(sys.stdin.buffer)
    if wr is None:
        wr = asyncio.StreamWriter(sys.stdout.buffer, {})
    ln = Lines()
    while True:
        b = await rd.read(1)
        if not b:
            return
        line = ln.feed(b[0])
        if line is not None and len(line):
            out = server.handle(line)
            if out:
                wr.write(out)
                await wr.drain()
