"""The port's host hangs up and another opens it: the table reads only a byte that is there.

On the simulated table's pty a read after a hang-up waits for the next host's first byte when
a host opens the port in between; the whole table stopped there (tests/host's enroll test, 1
run in 8). PtyMaster plays the pty's master side as Linux polls it (POLLIN with bytes
waiting, POLLHUP while no host has it open) and counts the reads that would have waited."""
import sys

import asyncio

import logkit
from check import skip
from hubkit import FakeBoard
from hub.app import Hub
from hub.serial import Serial
from test_serial_port import Port

MICROPYTHON = sys.implementation.name == "micropython"
_POLLIN = 1
_POLLHUP = 16
_MP_STREAM_POLL = 3


class Waited(Exception):
    """A read no byte was waiting for: the real port would have held the table here."""


if MICROPYTHON:
    import io

    class PtyMaster(io.IOBase):
        def __init__(self):
            self.data = bytearray()
            self.host = True         # a host has the port open
            self.reopen_at = -1      # the host opens it again right after this many polls
            self.polls = 0
            self.waited = 0

        def ioctl(self, req, arg):
            if req != _MP_STREAM_POLL:
                return -1            # no file descriptor: select polls this object
            self.polls += 1
            ev = (_POLLIN if self.data else 0) | (0 if self.host else _POLLHUP)
            if self.polls == self.reopen_at:
                self.host = True     # after this poll said so, before anyone reads
            return ev & (arg | _POLLHUP)

        def read(self, n):
            if self.data:
                b = bytes(self.data[:1])
                self.data[:1] = b""
                return b
            if not self.host:
                raise OSError(5)     # EIO: nobody on the other side
            self.waited += 1
            raise Waited()

        def hang_up(self, reopen=False):
            self.host = False
            self.reopen_at = self.polls + 1 if reopen else -1


def answers(out):
    return [x for x in out.got if x.startswith("{")]


async def until(cond, ms=5000):
    """Waits for cond() as the tasks run (a loaded machine takes longer), then checks it."""
    while not cond() and ms > 0:
        await asyncio.sleep_ms(5)
        ms -= 5
    assert cond()


def serve(script):
    """Runs script(hub, pty, out) beside a Serial on a fresh hub's PtyMaster, then stops it."""
    hub = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    hub.start(None)
    pty, out = PtyMaster(), Port()
    sr = Serial(hub, stream=pty, out=out, bps=0)

    async def go():
        t = asyncio.create_task(sr.run())
        await script(hub, pty, out)
        t.cancel()

    asyncio.run(go())


def test_a_host_that_hangs_up_and_another_that_opens_the_port_stop_nothing():
    if not MICROPYTHON:
        return skip("MicroPython only (make test-mp): polls an object through its asyncio")

    async def script(hub, pty, out):
        pty.data += b"status\n"
        await until(lambda: len(answers(out)) == 1)
        hub.enroll(True)            # the host began something; a hang-up ends it
        pty.hang_up(reopen=True)    # its poll says hung up; a new host opens before a read
        polls = pty.polls
        await until(lambda: pty.polls >= polls + 3)  # the loop runs on, polling the port
        assert pty.waited == 0 and pty.host          # and no read waited for the new host
        pty.data += b"status\n"     # the new host asks, and is answered
        await until(lambda: len(answers(out)) == 2)
        pty.hang_up()               # hung up for good: no read, the table plays on
        await until(lambda: hub.enrolling is None)
        polls = pty.polls
        await until(lambda: pty.polls >= polls + 3)
        assert pty.waited == 0

    serve(script)


def test_bytes_a_host_sent_before_it_hung_up_are_still_read():
    if not MICROPYTHON:
        return skip("MicroPython only (make test-mp): polls an object through its asyncio")

    async def script(hub, pty, out):
        pty.data += b"status\n"
        pty.hang_up()               # POLLIN and POLLHUP: the line is read, then nothing
        await until(lambda: len(answers(out)) == 1)
        assert pty.waited == 0

    serve(script)
