"""Issue 8, items 8 and 9 (hub side): the serial port never stops the referee, and a stray
Ctrl-C in a round is a byte, not a stop."""
import json

import asyncio

import logkit
from hubkit import FakeBoard, game
from hub.app import Hub, REPL_MS
from hub.serial import Serial, QLINES, QBYTES, TX_CHUNK
from uno.events import IN_SEAT

_sleep_ms = getattr(asyncio, "sleep_ms", None) or (lambda ms: asyncio.sleep(ms / 1000))


def hub_at(settings=None):
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start(settings)
    return h


def play_into_a_round(h):
    settings, inputs = game(rounds=0, extra=12)
    for ms, inp in inputs:
        h.board.clock = ms
        h.feed(inp)


class Port:
    """The host's end: collects what was written; .drains says if the port takes more."""

    def __init__(self):
        self.text = ""
        self.drains = True

    def write(self, s):
        self.text += s if isinstance(s, str) else bytes(s).decode()

    @property
    def got(self):
        return [x for x in self.text.split("\n") if x]


class Stalled(Serial):
    def _writable(self):
        return self.out.drains


def waiting(sr):
    """The bytes waiting in the serial's buffer, oldest first."""
    r = bytes(sr.ring)
    return (r[sr.head:] + r[:sr.head])[:sr.used]


def flush(sr):
    while sr.used:
        sr.send()


def test_ctrl_c_is_guarded_in_a_round_and_free_between_rounds_and_after_repl():
    settings, _ = game()
    h = hub_at(settings)
    try:
        assert h.guarded is False                 # lobby: mpremote takes the port as today
        play_into_a_round(h)
        assert h.guarded is True
        assert h.open_repl(REPL_MS) is False      # the host asked (`repl`): a yes at the table
        assert h.guarded is True                  # first (tests/hub/test_repl_confirm.py)
        assert h.confirm_repl() and h.open_repl(REPL_MS)   # then free for a while
        assert h.guarded is False
        h.board.clock += REPL_MS - 1
        h.housekeeping()
        assert h.guarded is False
        h.board.clock += 1
        h.housekeeping()
        assert h.guarded is True
        sr = Serial(h, out=Port())
        assert "hold Y and G" in json.loads(sr.handle("repl")[0])["error"]
        assert h.guarded is True
        h.confirm_repl()
        assert "Ctrl-C" in json.loads(sr.handle("repl")[0])["repl"] and h.guarded is False
    finally:
        h.guarded = None
        h.repl_until = -1
        h.table.phase = 0
        h._guard()                                # the interpreter's Ctrl-C back as it was


def test_a_host_that_does_not_read_costs_a_bounded_queue_and_loses_the_oldest():
    h = hub_at()
    sr = Serial(h, out=Port())
    for i in range(200):
        sr.put(json.dumps({"n": i, "pad": "x" * 300}))
    assert sr.nl <= QLINES and sr.used <= QBYTES and sr.dropped >= 200 - QLINES
    lines = [json.loads(x) for x in waiting(sr).decode().split("\n") if x]
    assert len(lines) == sr.nl and lines[-1]["n"] == 199   # whole lines, the newest kept
    assert [x["n"] for x in lines] == list(range(200 - sr.nl, 200))


def test_a_line_cut_while_going_out_still_ends_and_the_ones_after_come_whole():
    h = hub_at()
    port = Port()
    sr = Serial(h, out=port)
    sr.put(json.dumps({"n": -1, "pad": "y" * 900}))
    sr.send()                                   # a piece of it is out
    assert 0 < len(port.text) <= TX_CHUNK and sr.rest > 0
    for i in range(40):                         # then the host stops reading: it goes
        sr.put(json.dumps({"n": i, "pad": "x" * 700}))
    assert sr.used <= QBYTES and sr.rest == 1   # only its line end is left of it
    flush(sr)
    got = port.text.split("\n")
    assert "yyy" in got[0] and len(got[0]) < 900 and got[-1] == ""   # a damaged line, which
    ns = [json.loads(x)["n"] for x in got[1:-1]]   # the host skips; then whole ones
    assert ns == list(range(40 - len(ns), 40)) and len(ns) >= 4


def test_answers_wait_for_the_port_and_judging_goes_on_meanwhile():
    h = hub_at()
    port = Port()
    port.drains = False
    sr = Stalled(h, out=port)
    held = []

    async def go():
        asyncio.create_task(sr._writer())
        for i in range(50):
            sr.answer(sr.handle("status"))
            h.feed((IN_SEAT, 1 + i % 10, 0))      # the referee is never held up
            await _sleep_ms(1)
        assert port.got == [] and 0 < sr.nl <= QLINES and sr.used <= QBYTES
        held.append(sr.nl)
        port.drains = True
        for _ in range(200):
            await _sleep_ms(2)
            if not sr.used:
                break
    asyncio.run(go())
    assert h.seq == 50 and len(port.got) == held[0] and sr.used == 0 and sr.dropped > 40
    assert all(json.loads(x)["phase"] == "lobby" for x in port.got)   # each one whole


def test_a_dump_is_read_as_the_port_drains_and_feeds_the_watchdog():
    h = hub_at()
    for i in range(100):
        h.feed((IN_SEAT, 1 + i % 10, 0))
    port = Port()
    port.drains = False
    sr = Stalled(h, out=port)
    dog = h.board.dog

    async def go():
        asyncio.create_task(sr._writer())
        sr.answer(sr.handle("dump"))
        for _ in range(20):
            await _sleep_ms(1)
        assert sr.nl == 1 and sr.dump is not None   # one line read ahead, no more
        port.drains = True
        for _ in range(2000):
            await _sleep_ms(1)
            if sr.dump is None and not sr.used:
                break
    asyncio.run(go())
    lines = [json.loads(x) for x in port.got]
    assert [x["seq"] for x in lines[:-1]] == list(range(1, 101)) and lines[-1] == {"end": 101}
    assert h.board.dog - dog >= 100 // 16


def test_a_new_dump_replaces_the_one_running():
    h = hub_at()
    for i in range(40):
        h.feed((IN_SEAT, 1 + i % 10, 0))
    sr = Serial(h, out=Port())
    sr.answer(sr.handle("dump"))
    first = sr.dump
    next(first)
    sr.answer(sr.handle("dump 30"))
    assert sr.dump is not first
    assert json.loads(next(sr.dump))["seq"] == 30
