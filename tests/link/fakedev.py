"""A fake table on stdin/stdout: LinkServer + FakeHub under `micropython`, with line faults.

    MICROPYPATH=firmware:tests/link:.frozen micropython tests/link/fakedev.py [option ...]

Options (N counts the requests this device has seen, from 1):
    records=N     records in the fake log (default 300)       noreg   no deck registry
    noise         REPL-like lines, stray bytes and a stale answer around every answer
    echo          echo each request line back, as the REPL prompt does (its banner first)
    corrupt=N     damage one byte of the answer to request N
    oversize=N    answer request N with a line longer than a frame
    silent=N      no answer to request N ("all": never answer)
    exit=N        exit at request N without answering (a cut cable, a reset)
    version=V     answer in protocol version V
"""
import sys
import asyncio
from binascii import crc32

from linkkit import FakeHub, random_records, registry
from link.server import LinkServer
from link import frame as fr
from link.stdio import serve


class Faulty:
    def __init__(self, srv, opts):
        self.srv = srv
        self.o = opts
        self.n = 0
        self.prev = None

    def at(self, key):
        v = self.o.get(key)
        return v == "all" or (v is not None and int(v) == self.n)

    def handle(self, line):
        try:
            f = fr.decode(line)
        except fr.FrameError:
            return None
        if f[2] != fr.REQ:
            return None
        self.n += 1
        pre = b""
        if "echo" in self.o:
            pre = bytes(line) + b"\r\n"
        if self.at("exit"):
            sys.exit(3)
        if self.at("silent"):
            return pre or None
        out = self.srv.serve(f)
        if "version" in self.o:
            body = out[:out.rfind(b" ")]
            body = b"~" + self.o["version"].encode() + body[2:]
            out = body + (" %08x\n" % crc32(body)).encode()
        if self.at("corrupt"):
            i = out.rfind(b" ") - 3
            out = out[:i] + (b"x" if out[i] != 0x78 else b"y") + out[i + 1:]
        if self.at("oversize"):
            out = out[:20] + b"A" * (2 * fr.MAX) + b"\n"
        if "noise" in self.o:
            pre += (b"I (123) wifi: noise\r\n>>> \r\n\xff\xfe\x00junk~~1 2\n"
                    b"Traceback (most recent call last):\r\n~1 zz hello ? {}\n")
            if self.prev:
                pre += self.prev         # a stale answer to an earlier request
            self.prev = out
            out = out + b"MPY: soft reboot\r\n"
        return pre + out


def main(argv):
    opts = {}
    for a in argv:
        k, _, v = a.partition("=")
        opts[k] = v
    n = int(opts.get("records", "300"))
    hub = FakeHub(random_records(n, 11, gaps=True), None if "noreg" in opts else registry())
    if "echo" in opts:  # a board reset to its prompt says so first: a test waits for it
        sys.stdout.write("MicroPython (fakedev) on unix\r\n>>> ")
    asyncio.run(serve(Faulty(LinkServer(hub), opts)))


main(sys.argv[1:])
