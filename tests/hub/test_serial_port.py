"""Issue 8, items 8 and 9 (hub side): the serial port never stops the referee, and a stray
Ctrl-C in a round is a byte, not a stop."""
import json

import asyncio

import logkit
from hubkit import FakeBoard, game
from hub.app import Hub, REPL_MS
from hub.serial import Serial, QLINES, QBYTES
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
        self.text += s

    @property
    def got(self):
        return [x for x in self.text.split("\n") if x]


class Stalled(Serial):
    def _writable(self):
        return self.out.drains


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
    assert len(sr.q) <= QLINES and sr.qbytes <= QBYTES and sr.dropped >= 200 - QLINES
    assert json.loads(sr.q[-1])["n"] == 199    # the newest answer is kept


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
        assert port.got == [] and 0 < len(sr.q) <= QLINES and sr.qbytes <= QBYTES
        held.append(len(sr.q))
        port.drains = True
        for _ in range(50):
            await _sleep_ms(2)
    asyncio.run(go())
    assert h.seq == 50 and len(port.got) == held[0] and sr.q == [] and sr.dropped > 40


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
        assert len(sr.q) == 1 and sr.dump is not None   # one line read ahead, no more
        port.drains = True
        for _ in range(400):
            await _sleep_ms(1)
            if sr.dump is None and not sr.q:
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
