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
