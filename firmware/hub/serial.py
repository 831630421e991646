"""The USB serial: the host tool's frames (link/, docs/protocol.md), and lines for people.

    status          the table as one JSON line (state, seq, LEDs, the last input's events)
    dump [SEQ]      the log from SEQ on, a JSON line per record, then {"end": next_seq}
    repl            for the next 10 s Ctrl-C stops the firmware (in a round: once someone at
                    the table has held yellow and green together for 5 s)
    help            these lines

A line that starts with "~" is a frame for the LinkServer. The port is shared with the REPL:
between rounds Ctrl-C stops the firmware; in a round a stray 0x03 is ignored (hub.app's guard).

Output never holds up the referee: answers wait in a buffer made once (QBYTES) and go out a
piece at a time (at most TX_CHUNK bytes a pass of the writer task) when the port can take
them; a host that does not read loses the oldest (it retries), and a dump is read from the log
only as fast as the port drains. On a board whose port always polls writable (the ESP32's USB
serial: mp_hal_stdio_poll says so, and a write that finds the UART's 128-byte FIFO full holds
the interpreter until it fits) the writer paces itself at the port's rate (board.serial_bps):
each pass writes only what the FIFO has room for, so no write waits and the input loop never
waits on the serial.
"""
import json
import sys

import asyncio

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from board.compat import ticks_diff, ticks_ms
from link.stdio import Lines
from uno.script import dumps, input_dict

_sleep_ms = getattr(asyncio, "sleep_ms", None) or (lambda ms: asyncio.sleep(ms / 1000))

QLINES = const(6)       # answers waiting for the port
QBYTES = const(4096)    # and their bytes, in one buffer made at boot: a host that does not read
                        # costs no more than this (a 10-seat `status` line is about 2.7 KB)
DUMP_STALL = const(30000)  # ms a dump may wait for the port before it is given up
TX_FIFO = const(128)    # the ESP32 UART's TX FIFO (SOC_UART_FIFO_LEN): the REPL writes into it
TX_CHUNK = const(112)   # bytes a pass of the writer sends at most: paced, the FIFO less 16 spare
                        # (ticks_ms's 1 ms rounding is 12 bytes at 115200 baud)
TX_LOW = const(64)      # paced: a pass waits until the FIFO has this much room (fewer passes)


def _readable(stream):
    """Awaited: until the stream polls ready (a byte, or its host gone); reads nothing.
    MicroPython's asyncio, as its own StreamReader waits."""
    yield asyncio.core._io_queue.queue_read(stream)  # type: ignore[attr-defined]


class Serial:
    def __init__(self, hub, stream=None, out=None, deck=None, bps=None, clock=None):
        """bps: the port's bytes a second when it always polls writable (a UART: the writer
        paces itself), 0 when poll tells (a pty); default the board's serial_bps, else 0.
        clock: ticks_ms() (tests: a fake UART's)."""
        self.hub = hub
        self.stream = stream or sys.stdin.buffer
        self.out = out or sys.stdout
        self.port = getattr(self.out, "buffer", self.out)   # bytes go here
        self.deck = deck
        self.link = None
        self.ring = bytearray(QBYTES)  # answer lines waiting for the port, each with its end
        self.mv = memoryview(self.ring)
        self.head = 0            # index of the next byte to send
        self.used = 0            # bytes waiting (the rest of the line going out included)
        self.rest = 0            # bytes of the line going out still to send
        self.lens = [0] * QLINES  # lengths of the lines not begun, oldest at l0 (a ring)
        self.l0 = 0
        self.nl = 0
        self.bps = getattr(hub.board, "serial_bps", 0) if bps is None else bps
        self.clock = clock or ticks_ms
        self.fill = TX_FIFO * 1000  # paced: thousandths of a byte thought in the FIFO (at
        self.fill_t = self.clock()  # first full: the boot's lines may still be going out)
        self.dropped = 0         # answers dropped because the host did not read
        self.stray = 0           # Ctrl-C bytes ignored in a round
        self.dump = None         # the dump being sent: a generator of lines
        self.more = asyncio.Event()
        self._poll = None

    def line(self, raw):
        """One received line (bytes): a frame's answer, or a command's lines."""
        self.hub.heard()
        if raw[:1] == b"~":
            if self.link is None:  # loaded when the host first asks: a table never synced
                from hub.handler import LinkHandler  # keeps ~20 KB of heap for play
                from link.server import LinkServer
                self.link = LinkServer(LinkHandler(self.hub, self.deck))
            out = self.link.handle(raw)
            return [out] if out else []
        return self.handle(bytes(raw).decode().strip())

    def handle(self, line):
        """The answer lines to one command line."""
        words = line.split()
        if not words:
            return []
        cmd = words[0]
        hub = self.hub
        if cmd == "status":
            return [json.dumps(hub.status())]
        if cmd == "dump":  # a generator: a night's log never sits in RAM
            start = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
            return self._dump(start)
        if cmd == "repl":
            from hub.app import REPL_MS, REPL_ASK
            if not hub.open_repl(REPL_MS):
                return [json.dumps({"error": REPL_ASK})]
            return [json.dumps({"repl": "Ctrl-C in the next %d s stops the firmware" % (
                REPL_MS // 1000)})]
        if cmd == "help":
            return [json.dumps({"commands": ["status", "dump [SEQ]", "repl", "help"]})]
        return [json.dumps({"error": "unknown command %s: try help" % cmd})]

    def _dump(self, start):
        from gamelog import INPUT
        reg = self.hub.table.registry
        k = 0
        for r in self.hub.log.read_from(start, False):  # (no snapshot read whole)
            seq, rtype, t = r[0], r[1], r[2]
            if rtype == INPUT:
                d = input_dict(r[4], reg)
                d["seq"] = seq
                d["t"] = t
                yield dumps(d)
            elif rtype == 0:  # gamelog.GAP: (first, GAP, last, cause, ...)
                yield json.dumps({"gap": [seq, t, r[3]]})
            else:
                yield dumps({"seq": seq, "t": t, "record": rtype})
            k += 1
            if not k & 15:
                self.hub.board.feed_dog()  # a night's dump outlasts the watchdog
        yield json.dumps({"end": self.hub.seq + 1})

    def write(self, lines):
        """Writes lines now, blocking (the end of a --exit run, tests)."""
        out = self.out
        for line in lines:
            if isinstance(line, str):
                out.write(line)
                out.write("\n")
            else:
                out.buffer.write(line) if hasattr(out, "buffer") else out.write(line.decode())
        if hasattr(out, "flush"):
            out.flush()

    # ---- the output queue ----------------------------------------------------------------

    def put(self, line):
        """Queues one answer line (str, or bytes with its end) in the buffer; when it is full
        the oldest answer goes: the host retries what it still wants."""
        b = line.encode() if isinstance(line, str) else line  # a command's answer: text
        m = len(b)
        n = m if m and b[m - 1] == 0x0A else m + 1   # and its line end (a frame has its own)
        if n >= QBYTES:           # never: a frame is 1 KB, a 10-seat status 2.7 KB
            self.dropped += 1
            return
        while self.nl >= QLINES or self.used + n > QBYTES:
            self._drop()
        t = self.head + self.used
        if t >= QBYTES:
            t -= QBYTES
        a = QBYTES - t
        if m <= a:
            self.mv[t:t + m] = b
        else:                     # round the buffer's end
            mb = memoryview(b)
            self.mv[t:QBYTES] = mb[0:a]
            self.mv[0:m - a] = mb[a:m]
        if n > m:
            self.ring[(t + m) % QBYTES] = 0x0A
        self.lens[(self.l0 + self.nl) % QLINES] = n
        self.nl += 1
        self.used += n
        self.more.set()

    def _drop(self):
        """Frees the oldest bytes: a line not begun goes whole; the rest of the line going out
        is cut to its line end (the host skips the damaged line, and retries)."""
        if self.rest > 1:
            n = self.rest - 1     # its last byte, a line end, stays
            self.rest = 1
        else:                     # the next line goes (with one byte going out, that line end
            n = self.lens[self.l0]  # moves to the dropped line's own)
            self.l0 = (self.l0 + 1) % QLINES
            self.nl -= 1
        self.head = (self.head + n) % QBYTES
        self.used -= n
        self.dropped += 1

    def answer(self, lines):
        """The answer to one line: a list goes to the queue; a dump replaces the one running."""
        if isinstance(lines, list):
            for x in lines:
                self.put(x)
        else:
            if self.dump is not None:
                self.dump.close()
            self.dump = lines
            self.more.set()

    def send(self):
        """One pass of the writer: at most TX_CHUNK bytes of the oldest answer to the port; on
        a paced port no more than the UART's FIFO has room for, so the write never waits.
        Returns the ms until the next pass is worth making (0: at once)."""
        if not self.rest:
            if not self.nl:
                return 0
            self.rest = self.lens[self.l0]
            self.l0 = (self.l0 + 1) % QLINES
            self.nl -= 1
        h = self.head
        k = self.rest
        if k > TX_CHUNK:
            k = TX_CHUNK
        if k > QBYTES - h:
            k = QBYTES - h        # up to the buffer's end; the rest from its start
        bps = self.bps
        if bps:                   # what the UART drained since the last pass (1000ths of bytes)
            now = self.clock()
            fill = self.fill - ticks_diff(now, self.fill_t) * bps
            self.fill_t = now
            if fill < 0:
                fill = 0
            room = TX_CHUNK - (fill + 999) // 1000
            low = k if k < TX_LOW else TX_LOW
            if room < low:        # not yet: when it has drained enough
                self.fill = fill
                return ((low - room) * 1000 + bps - 1) // bps
            if k > room:
                k = room
        try:
            n = self.port.write(self.mv[h:h + k])
            if n is not None and 0 <= n < k:
                k = n             # a short write: the rest next pass
            if hasattr(self.port, "flush"):
                self.port.flush()
        except OSError:  # the port went away: drop it, as a cut cable would
            pass
        h += k
        self.head = 0 if h >= QBYTES else h
        self.rest -= k
        self.used -= k
        if not bps:
            return 0
        fill += k * 1000
        self.fill = fill
        over = fill - (TX_CHUNK - TX_LOW) * 1000  # until TX_LOW bytes of room
        return (over + bps - 1) // bps if over > 0 else 0

    def _writable(self):
        p = self._poll
        if p is None:
            return True
        try:
            for _, ev in p.poll(0):
                if ev & 4:  # select.POLLOUT
                    return True
            return False
        except OSError:
            return True

    async def _writer(self):
        """Sends queued bytes when the port can take them, a piece a pass (send()); never
        waits on the port itself."""
        try:
            import select
            if self.port is not self.out:
                p = select.poll()
                p.register(self.port, select.POLLOUT)
                self._poll = p
        except (ImportError, OSError, TypeError, AttributeError):
            pass
        stalled = 0
        while True:
            if not self.used and self.dump is not None:
                try:
                    self.put(next(self.dump))
                    stalled = 0
                except StopIteration:
                    self.dump = None
                except Exception as e:  # a log that fails mid-dump: say so, stay up
                    self.dump = None
                    self.put(json.dumps({"error": "dump: %s" % e}))
            if not self.used:
                self.more.clear()
                await self.more.wait()
                continue
            if self._writable():
                await _sleep_ms(self.send())
                continue
            await _sleep_ms(10)
            if self.dump is not None and self.used:
                stalled += 10
                if stalled > DUMP_STALL:  # nobody reads it: let the log go
                    self.dump.close()
                    self.dump = None

    async def run(self):
        """Serves the port; returns True at Ctrl-C (the REPL takes the port), False at its end.

        A byte at a time, and only when a fresh poll finds one waiting: read(n) would stall
        the loop, readline() has no cap on a line's length (link/stdio.py), and on the
        simulated table's pty a read after the host hung up waits for the next host's first
        byte if one opens the port in between (the table stopped refereeing). On a board the
        port's own Ctrl-C handling interrupts first, unless the hub guards a round
        (kbd_intr(-1)); the simulated table sees the byte here and does the same.
        """
        import select
        stream = self.stream
        ready = select.poll()
        ready.register(stream, select.POLLIN)
        lines = Lines()
        asyncio.create_task(self._writer())
        while True:
            await _readable(stream)
            ev = ready.poll(0)
            ev = ev[0][1] if ev else 0
            if not ev & select.POLLIN:
                if ev:  # hung up, nothing left to read (a pty's host closed it)
                    self.hub.host_gone()
                    await _sleep_ms(50)
                continue  # or another host opened it since: wait for its bytes
            try:
                b = stream.read(1)
            except OSError:  # a pty whose host side is closed (EIO): wait for the next one
                self.hub.host_gone()
                await _sleep_ms(50)
                continue
            if not b:
                self.hub.host_gone()
                return False
            if b[0] == 3:
                if self.hub.guarded:
                    self.stray += 1
                    continue
                return True
            raw = lines.feed(b[0])
            if raw is None or not len(raw):
                continue
            try:
                self.answer(self.line(raw))
            except Exception as e:  # a bad command must never stop the table
                self.put(json.dumps({"error": str(e)}))
