"""A line protocol on the USB serial for people and scripts (the host tool's frames: link/).

    status          the table as one JSON line (state, seq, LEDs, the last input's events)
    dump [SEQ]      the log from SEQ on, a JSON line per record, then {"end": next_seq}
    help            these lines

It shares the port with the REPL: Ctrl-C still interrupts the firmware on a board.
"""
import json
import sys

import asyncio

from uno.script import dumps, input_dict


class Serial:
    def __init__(self, hub, stream=None, out=None):
        self.hub = hub
        self.stream = stream or sys.stdin.buffer
        self.out = out or sys.stdout

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
        for seq, rtype, t, wall, data in self.hub.log.read_from(start):
            if rtype == INPUT:
                d = input_dict(data, reg)
                d["seq"] = seq
                d["t"] = t
                yield dumps(d)
            else:
                yield dumps({"seq": seq, "t": t, "record": rtype})
        yield json.dumps({"end": self.hub.seq + 1})

    def write(self, lines):
        for line in lines:
            self.out.write(line)
            self.out.write("\n")

    async def run(self):
        reader = asyncio.StreamReader(self.stream)
        while True:
            line = await reader.readline()
            if not line:
                return
            try:
                self.write(self.handle(line.decode().strip()))
            except Exception as e:  # a bad command must never stop the table
                self.write([json.dumps({"error": str(e)})])
