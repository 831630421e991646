"""The USB serial: the host tool's frames (link/, docs/protocol.md), and lines for people.

    status          the table as one JSON line (state, seq, LEDs, the last input's events)
    dump [SEQ]      the log from SEQ on, a JSON line per record, then {"end": next_seq}
    help            these lines

A line that starts with "~" is a frame for the LinkServer. The port is shared with the REPL:
Ctrl-C still interrupts the firmware on a board.
"""
import json
import sys

import asyncio

from link.stdio import Lines
from uno.script import dumps, input_dict


class Serial:
    def __init__(self, hub, stream=None, out=None, deck=None):
        self.hub = hub
        self.stream = stream or sys.stdin.buffer
        self.out = out or sys.stdout
        self.deck = deck
        self.link = None

    def line(self, raw):
        """One received line (bytes): a frame's answer, or a command's lines."""
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
        if cmd == "help":
            return [json.dumps({"commands": ["status", "dump [SEQ]", "help"]})]
        return [json.dumps({"error": "unknown command %s: try help" % cmd})]

    def _dump(self, start):
        from gamelog import INPUT
        reg = self.hub.table.registry
        for seq, rtype, t, wall, data, _tag in self.hub.log.read_from(start):
            if rtype == INPUT:
                d = input_dict(data, reg)
                d["seq"] = seq
                d["t"] = t
                yield dumps(d)
            else:
                yield dumps({"seq": seq, "t": t, "record": rtype})
        yield json.dumps({"end": self.hub.seq + 1})

    def write(self, lines):
        out = self.out
        for line in lines:
            if isinstance(line, str):
                out.write(line)
                out.write("\n")
            else:
                out.buffer.write(line) if hasattr(out, "buffer") else out.write(line.decode())
        if hasattr(out, "flush"):
            out.flush()

    async def run(self):
        """Serves the port; returns True at Ctrl-C (the REPL takes the port), False at its end.

        A byte at a time once the port polls ready: read(n) would stall the loop, and
        readline() has no cap on a line's length (link/stdio.py). On a board the port's own
        Ctrl-C handling interrupts first; the simulated table sees the byte here.
        """
        reader = asyncio.StreamReader(self.stream)
        lines = Lines()
        while True:
            try:
                b = await reader.read(1)
            except OSError:  # a pty whose host side is closed (EIO): wait for the next one
                await asyncio.sleep_ms(50)
                continue
            if not b:
                return False
            if b[0] == 3:
                return True
            raw = lines.feed(b[0])
            if raw is None or not len(raw):
                continue
            try:
                self.write(self.line(raw))
            except Exception as e:  # a bad command must never stop the table
                self.write([json.dumps({"error": str(e)})])
