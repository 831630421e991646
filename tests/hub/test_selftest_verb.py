"""The link's `selftest` verb: refused in a round (nothing logged), its lines paged in answers
that fit a frame. The whole run over a pty: tests/host/test_selftest_cli.py."""
import json

import logkit
from hubkit import FakeBoard, game
from hub.app import Hub
from hub.handler import LinkHandler
from link import frame as fr
from link.server import LinkServer


def ask(srv, rid, payload):
    out = srv.handle(fr.encode(rid, "selftest", fr.REQ, fr.ascii_text(json.dumps(payload))))
    assert len(out) <= fr.MAX
    f = fr.decode(out)
    return f[2], f[3]


def test_selftest_is_refused_in_a_round_and_nothing_is_logged():
    settings, inputs = game(rounds=0, extra=12)
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start(settings)
    for ms, inp in inputs:
        h.board.clock = ms
        h.feed(inp)
    assert not h.between_rounds()
    seq = h.seq
    srv = LinkServer(LinkHandler(h))
    st, p = ask(srv, 1, {"start": True})
    assert st == fr.ERR and b"locked while a draw for dealer or a round is on" in p, p
    st, p = ask(srv, 2, {"from": 0})
    assert st == fr.ERR and b"no self-test was started" in p, p
    assert h.seq == seq


def test_its_lines_come_in_order_each_answer_a_frame():
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start()
    handler = LinkHandler(h)
    srv = LinkServer(handler)
    handler.check = ["[PASS] seat %d button: %s" % (i, "x" * 90) for i in range(40)]
    handler.checking = True
    got = []
    k = 0
    rid = 10
    while True:
        rid += 1
        st, p = ask(srv, rid, {"from": k})
        assert st == fr.OK, p
        d = json.loads(p)
        got += d["lines"]
        k = d["next"]
        if d["done"]:
            break
        if not d["lines"]:
            handler.checking = False  # the run ends: the last answer says done
    assert got == handler.check and k == 40


def test_a_press_time_past_the_host_tools_range_is_refused_before_anything_starts():
    # press_ms had no bound: 10**900 started a self-test whose prompts wait for ever (the
    # board's inputs go to it, none to the rules, and no request stops it); with 10**970 its
    # answer, {"started":true,"press_ms":1000...}, did not fit a frame, so the host was told
    # "refused" by a table that had started it.
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start()
    handler = LinkHandler(h)
    srv = LinkServer(handler)
    for rid, bad in enumerate((10 ** 970, 10 ** 900, 10 ** 9, -5)):
        out = srv.handle(fr.encode(1 + rid, "selftest", fr.REQ,
                                   '{"start":true,"press_ms":%d}' % bad))
        assert len(out) <= fr.MAX
        f = fr.decode(out)
        assert f[2] == fr.ERR and b"press_ms" in f[3] and not handler.checking, (bad, f)


def test_a_self_test_that_could_not_start_leaves_none_running():
    # (found by the soak's host fuzz: the flag was set before the task was made, so a task
    # that could not be made, on a full heap, refused every later self-test as "running")
    import asyncio
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start()
    handler = LinkHandler(h)
    srv = LinkServer(handler)
    made = asyncio.create_task

    def full(coro):
        coro.close()
        raise MemoryError("memory allocation failed")
    asyncio.create_task = full
    try:
        st, p = ask(srv, 1, {"start": True})
    finally:
        asyncio.create_task = made
    assert st == fr.ERR and not handler.checking
