"""stdio.serve and its line splitter (issue 8, "Tests that would notice"): requests read a byte
at a time from a stream, one answer written per request, a line of MAX - 1 bytes kept and one
of MAX dropped whole."""
import json

from linkkit import FakeHub, registry
from link import frame as fr
from link.server import LinkServer
from link.stdio import Lines, serve


class _Rd:
    def __init__(self, data):
        self.data = data
        self.i = 0
        self.asked = []

    async def read(self, n):
        self.asked.append(n)
        b = self.data[self.i:self.i + n]
        self.i += len(b)
        return b


class _Wr:
    def __init__(self):
        self.out = []
        self.drains = 0

    def write(self, b):
        self.out.append(bytes(b))

    async def drain(self):
        self.drains += 1


def _run(coro):
    try:
        import asyncio
    except ImportError:                  # pragma: no cover
        import uasyncio as asyncio
    asyncio.run(coro)


def test_serve_answers_each_request_once_and_stops_at_the_end_of_input():
    hub = FakeHub(reg=registry())
    srv = LinkServer(hub)
    data = (b"noise from the REPL\n\n" + fr.encode(1, "hello", fr.REQ) +
            fr.encode(2, "status", fr.REQ) + b"\n" + fr.encode(3, "hello", fr.OK))
    rd = _Rd(data)
    wr = _Wr()
    _run(serve(srv, rd, wr))
    assert rd.i == len(data) and set(rd.asked) == {1}
    assert len(wr.out) == 2 and wr.drains == 2
    a = fr.decode(wr.out[0])
    b = fr.decode(wr.out[1])
    assert a[:3] == (1, "hello", fr.OK) and json.loads(a[3])["proto"] == fr.VERSION
    assert b[:3] == (2, "status", fr.OK) and json.loads(b[3])["phase"] == "lobby"


def test_lines_of_max_minus_1_bytes_are_kept_and_of_max_dropped():
    ln = Lines()
    for c in b"x" * (fr.MAX - 1):
        assert ln.feed(c) is None
    got = ln.feed(0x0A)
    assert got is not None and bytes(got) == b"x" * (fr.MAX - 1) and ln.dropped == 0
    for c in b"y" * fr.MAX:
        ln.feed(c)
    assert ln.feed(0x0A) is None and ln.dropped == 1
    for c in b"ok":
        ln.feed(c)
    assert bytes(ln.feed(0x0A)) == b"ok"


def test_serve_reads_the_boards_own_stdin_and_answers_on_its_stdout():
    # The default streams (sys.stdin/stdout as asyncio streams) are MicroPython's own API: run
    # the real interpreter on a pipe, a request in and its answer out, to the end of input.
    import sys
    if sys.implementation.name == "micropython":
        from check import skip
        return skip("no subprocess here: runs under pytest, which starts micropython")
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mpy = os.path.join(root, ".venv", "bin", "micropython")
    env = dict(os.environ, MICROPYPATH="firmware:tests:tests/link:.frozen")
    code = ("import asyncio\nfrom linkkit import FakeHub, registry\n"
            "from link.server import LinkServer\nfrom link.stdio import serve\n"
            "asyncio.run(serve(LinkServer(FakeHub(reg=registry()))))\n")
    r = subprocess.run([mpy, "-c", code], input=fr.encode(7, "hello", fr.REQ), cwd=root,
                       env=env, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    a = fr.decode(r.stdout)
    assert a[:3] == (7, "hello", fr.OK) and json.loads(a[3])["proto"] == fr.VERSION


def test_a_terminals_enter_ends_a_line_and_crlf_is_one_line():
    # screen, picocom, minicom and mpremote's terminal send CR for Enter: `repl` typed and
    # Enter (docs/protocol.md, "Getting to the REPL") waited for a LF that never came, and the
    # table answered nothing. CR ends a line too; CRLF gives the line and an empty one (which
    # serve and hub.serial skip), and a frame of MAX - 1 bytes with CRLF is kept.
    ln = Lines()

    def lines(data):        # each line copied as it comes: a view into the line buffer
        out = []
        for c in data:
            x = ln.feed(c)
            if x is not None:
                out.append(bytes(x))
        return out
    assert lines(b"repl\rstatus\r\n") == [b"repl", b"status", b""]
    f = fr.encode(9, "status", fr.REQ, b"x" * (fr.MAX - len(fr.encode(9, "status", fr.REQ))))
    assert len(f) == fr.MAX
    got = lines(f[:-1] + b"\r\n")
    assert got == [f[:-1], b""] and ln.dropped == 0 and fr.decode(got[0])[0] == 9
