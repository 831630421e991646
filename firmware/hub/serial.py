"""The USB serial: the host tool's frames (link/, docs/protocol.md), and lines for people.

    status          the table as one JSON line (state, seq, LEDs, the last input's events)
    dump [SEQ]      the log from SEQ on, a JSON line per record, then {"end": next_seq}
    repl            for the next 10 s Ctrl-C stops the firmware (in a round: once someone at
                    the table has held yellow and green together for 5 s)
    help            these lines

A line that starts with "~" is a frame for the LinkServer. The port is shared with the REPL:
between rounds Ctrl-C stops the firmware; in a round a stray 0x03 is ignored (hub.app's guard).

Output never holds up the referee: answers wait in a short queue and go out only when the port
can take them; a host that does not read loses the oldest (it retries), and a dump is read
from the log only as fast as the port drains.
"""
import json
import sys

import asyncio

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from link.stdio import Lines
from uno.script import dumps, input_dict

_sleep_ms = getattr(asyncio, "sleep_ms", None) or (lambda ms: asyncio.sleep(ms / 1000))

QLINES = const(6)       # answers waiting for the port
QBYTES = const(4096)    # and their bytes: a host that does not read costs no more than this
                        # (two `status` lines of a 10-seat table with its players)
DUMP_STALL = const(30000)  # ms a dump may wait for the port before it is given up


class Serial:
    def __init__(self, hub, stream=None, out=None, deck=None):
        self.hub = hub
        self.stream = stream or sys.stdin.buffer
        self.out = out or sys.stdout
        self.deck = deck
        self.link = None
        self.q = []              # answer lines (bytes) waiting for the port
        self.qbytes = 0
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
        for r in self.hub.log.read_from(start):
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

    # ---- the output queue --------------------------------------------------------------------

    def put(self, line):
        """Queues one answer line (str or bytes with its end); when the queue is full the
        oldest answer goes: the host retries what it still wants."""
        n = len(line) + 1         # a str goes out as it is, then its line end: no copies
        q = self.q
        while q and (len(q) >= QLINES or self.qbytes + n > QBYTES):
            self.qbytes -= len(q.pop(0)) + 1
            self.dropped += 1
        q.append(line)
        self.qbytes += n
        self.more.set()

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
        """Sends queued lines when the port can take them; never waits on the port itself."""
        buf = getattr(self.out, "buffer", None)
        try:
            import select
            if buf is not None:
                p = select.poll()
                p.register(buf, select.POLLOUT)
                self._poll = p
        except (ImportError, OSError, TypeError, AttributeError):
            pass
        stalled = 0
        while True:
            if not self.q and self.dump is not None:
                try:
                    self.put(next(self.dump))
                    stalled = 0
                except StopIteration:
                    self.dump = None
                except Exception as e:  # a log that fails mid-dump: say so, stay up
                    self.dump = None
                    self.put(json.dumps({"error": "dump: %s" % e}))
            if not self.q:
                self.more.clear()
                await self.more.wait()
                continue
            if self._writable():
                line = self.q.pop(0)
                self.qbytes -= len(line) + 1
                try:
                    if isinstance(line, str):   # a command's answer: text, then its end
                        self.out.write(line)
                        self.out.write("\n")
                    elif buf is not None:       # a frame: bytes with its line end
                        buf.write(line)
                    else:
                        self.out.write(line.decode())
                    if hasattr(self.out, "flush"):
                        self.out.flush()
                except OSError:  # the port went away: drop it, as a cut cable would
                    pass
                await _sleep_ms(0)
                continue
            await _sleep_ms(10)
            if self.dump is not None and self.q:
                stalled += 10
                if stalled > DUMP_STALL:  # nobody reads it: let the log go
                    self.dump.close()
                    self.dump = None

    async def run(self):
        """Serves the port; returns True at Ctrl-C (the REPL takes the port), False at its end.

        A byte at a time once the port polls ready: read(n) would stall the loop, and
        readline() has no cap on a line's length (link/stdio.py). On a board the port's own
        Ctrl-C handling interrupts first, unless the hub guards a round (kbd_intr(-1)); the
        simulated table sees the byte here and does the same.
        """
        reader = asyncio.StreamReader(self.stream)
        lines = Lines()
        asyncio.create_task(self._writer())
        while True:
            try:
                b = await reader.read(1)
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
