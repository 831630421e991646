"""LinkServer against a fake hub: every verb, errors, retried requests, incremental sync."""
import json
from binascii import a2b_base64, b2a_base64

from check import raises, skip
from linkkit import FakeHub, random_records, registry, deck_uids, top
from link import frame as fr
from link.codec import decode as decode_batch
from link.server import LinkServer, chunks, chunk_uids
from link.stdio import Lines


class Client:
    """What the host does, minus the serial port."""

    def __init__(self, hub=None):
        self.hub = hub or FakeHub(reg=registry())
        self.srv = LinkServer(self.hub)
        self.rid = 0

    def ask(self, verb, payload=b"", rid=None):
        if rid is None:
            self.rid += 1
            rid = self.rid
        if not isinstance(payload, (bytes, str)):
            payload = json.dumps(payload)
        out = self.srv.handle(fr.encode(rid, verb, fr.REQ, payload))
        assert out is not None and len(out) <= fr.MAX
        for c in out[:-1]:
            assert 0x20 <= c <= 0x7E
        got = fr.decode(out)
        assert got[0] == rid and got[1] == verb
        return got[2], got[3]

    def ok(self, verb, payload=b""):
        st, p = self.ask(verb, payload)
        assert st == fr.OK, p
        return p

    def sync(self, seq=1, mx=0):
        out = []
        rounds = 0
        self.heads = []
        while True:
            p = self.ok("records", {"from": seq, "max": mx} if mx else {"from": seq})
            recs, more, head = decode_batch(a2b_base64(p), self.hub.reg)
            out.extend(recs)
            rounds += 1
            if head:
                self.heads.append(head)
            if not more:
                return out, rounds
            seq = top(recs) + 1


def test_hello_names_protocol_firmware_and_board():
    d = json.loads(Client().ok("hello"))
    assert d["proto"] == fr.VERSION and d["max"] == fr.MAX
    assert d["fw"] == "0.1.0-test" and d["board"] == "fake-hub"


def test_status_is_the_handlers_dict_as_json():
    c = Client()
    d = json.loads(c.ok("status"))
    assert d["phase"] == "lobby" and d["seats"] == [1, 2, 3]
    assert d["next_seq"] == top(c.hub.log) + 1


def test_records_sync_is_incremental_and_complete():
    c = Client()
    got, rounds = c.sync()
    assert got == c.hub.log and rounds > 1
    got2, rounds2 = c.sync(mx=200)
    assert got2 == c.hub.log and rounds2 > rounds


def test_gaps_travel_as_entries_and_only_the_last_batch_carries_the_head():
    hub = FakeHub(random_records(600, 8, gaps=True), registry())
    c = Client(hub)
    got, rounds = c.sync(mx=300)
    assert got == hub.log and rounds > 3
    assert len([r for r in got if len(r) == 3]) > 2
    assert c.heads == [hub.head()]
    # a from inside a gap: the gap is cut to what was asked
    g = [r for r in hub.log if len(r) == 3 and r[1] > r[0]][0]
    got = c.sync(g[0] + 1)[0]
    assert got[0] == (g[0] + 1, g[1], g[2])


def test_the_head_goes_in_the_last_batch_only_where_it_fits_else_in_one_more():
    # Every limit from just over one record to the whole log: each batch within the limit,
    # the log whole, the head once, at the end; where the last records leave no room for it,
    # the batch says more and the next one, empty but for the head, carries it.
    log = random_records(12, 3)
    alone = 0
    c = Client(FakeHub(list(log[:1]), registry()))
    st, p = c.ask("records", {"from": 2, "max": 75})   # nothing to send but the head
    assert st == fr.ERR and p == b"max 75 too small for the chain head", p
    for mx in range(76, 220):
        c = Client(FakeHub(list(log), registry()))
        got, seen = [], []
        seq = 1
        while True:
            p = c.ok("records", {"from": seq, "max": mx})
            data = a2b_base64(p)
            assert len(data) <= mx, (mx, len(data))
            recs, more, head = decode_batch(data, c.hub.reg)
            got.extend(recs)
            seen.append((len(recs), head))
            if not more:
                break
            seq = top(recs) + 1
        assert got == log and [h for n, h in seen if h] == [c.hub.head()], mx
        assert seen[-1][1] and all(not h for n, h in seen[:-1]), mx
        alone += seen[-1][0] == 0
    assert alone > 3


def test_records_resume_from_any_seq():
    c = Client()
    log = c.hub.log
    for k in (0, 1, 57, 150, len(log) - 1):
        got, _ = c.sync(log[k][0])
        assert got == log[k:]
    assert c.sync(log[-1][0] + 1)[0] == []
    # a seq inside a gap (pruned, a snapshot, salvage) starts at the next logged one
    c.hub.log = [r for r in log if not 20 <= r[0] <= 30]
    got = c.sync(20)[0]
    assert got[0][0] > 30 and got == [r for r in log if r[0] > 30]
    assert c.sync(top(log) + 1)[0] == []


def test_records_answer_fits_the_frame_and_says_more():
    c = Client(FakeHub(random_records(2000, 5), registry()))
    p = c.ok("records", {"from": 1})
    recs, more, head = decode_batch(a2b_base64(p), c.hub.reg)
    assert more and len(recs) > 60
    assert len(fr.encode(1, "records", fr.OK, p)) <= fr.MAX


def test_records_limit_too_small_is_refused():
    c = Client()
    st, p = c.ask("records", {"from": 1, "max": 3})
    assert st == fr.ERR and b"too small" in p


def test_records_without_registry_send_whole_uids():
    hub = FakeHub(reg=None)
    c = Client(hub)
    assert c.sync()[0] == hub.log


def test_rule_set_and_refused_with_the_handlers_message():
    c = Client()
    assert c.ok("rule", {"name": "stacking", "value": "on"}) == b""
    assert c.hub.rules == {"stacking": "on"}
    st, p = c.ask("rule", {"name": "nonsense", "value": 1})
    assert st == fr.ERR and p == b"no rule 'nonsense'"
    for bad in ({"name": "stacking"}, {"value": 1}, {"name": "x", "value": True}, [1], b"{bad"):
        assert c.ask("rule", bad)[0] == fr.ERR, bad


def test_a_retried_request_is_answered_again_but_done_once():
    c = Client()
    a = c.ask("rule", {"name": "forced", "value": "yes"}, rid=40)
    b = c.ask("rule", {"name": "forced", "value": "yes"}, rid=40)
    assert a == b
    assert c.hub.calls.count(("rule", "forced", "yes")) == 1
    c.ask("rule", {"name": "forced", "value": "yes"}, rid=41)   # a new request: done again
    assert c.hub.calls.count(("rule", "forced", "yes")) == 2


def test_clock_enroll_ack():
    c = Client()
    assert c.ok("clock", {"t": 1750000000}) == b"" and c.hub.clock == 1750000000
    assert json.loads(c.ok("enroll", {"on": True})) == {"enrolled": 0} and c.hub.enrolling
    assert c.ok("enroll", {"on": False}) == b"" and not c.hub.enrolling
    upto = c.hub.log[99][0]
    st, p = c.ask("ack", {"upto": upto})            # nothing sent yet: refused
    assert st == fr.ERR and b"sync first" in p and ("prune", upto) not in c.hub.calls
    c.sync(1, mx=160)
    assert json.loads(c.ok("ack", {"upto": upto})) == 100
    assert c.sync()[0][0][0] > upto
    for verb, bad in (("clock", {}), ("clock", {"t": "noon"}), ("enroll", {"on": 1}),
                      ("ack", {"upto": None})):
        assert c.ask(verb, bad)[0] == fr.ERR, (verb, bad)


def test_a_host_that_holds_the_head_gets_no_tags_and_a_batch_that_ends_at_a_gap():
    hub = FakeHub(random_records(600, 8, gaps=True), registry())
    c = Client(hub)
    seq = 1
    got = []
    heads = []
    while True:
        recs, more, head = decode_batch(a2b_base64(c.ok("records", {"from": seq,
                                                                  "tags": False})), hub.reg)
        for i, r in enumerate(recs):
            if len(r) == 3:
                assert i == len(recs) - 1 and more     # a gap ends the batch
            else:
                assert r[4] is None
        got.extend(recs)
        if head:
            heads.append(head)
        if not more:
            break
        seq = top(recs) + 1
    assert [r if len(r) == 3 else r[:4] for r in got] == [
        r if len(r) == 3 else r[:4] for r in hub.log]
    assert heads == [hub.head()]


def test_ack_past_the_last_seq_sent_is_refused():
    c = Client()
    log = c.hub.log
    p = c.ok("records", {"from": 1, "max": 200})
    sent = top(decode_batch(a2b_base64(p), c.hub.reg)[0])
    for upto in (sent + 1, top(log), 1 << 40):
        st, p = c.ask("ack", {"upto": upto})
        assert st == fr.ERR and b"sync first" in p, upto
    assert not [x for x in c.hub.calls if x[0] == "prune"]
    assert c.ok("ack", {"upto": sent}) is not None
    assert ("prune", sent) in c.hub.calls


def test_pair_hands_the_key_once_and_a_retry_gets_the_same_answer():
    c = Client()
    a = c.ask("pair", b"", rid=70)
    assert a[0] == fr.OK and json.loads(a[1]) == {"id": "00112233445566ff", "key": "ab" * 32}
    assert c.ask("pair", b"", rid=70) == a and c.hub.calls.count("pair") == 1  # lost answer
    st, p = c.ask("pair")
    assert st == fr.ERR and b"paired already" in p


def test_undo_and_repl_verbs():
    c = Client()
    assert c.ok("undo", {"n": 2}) == b"" and ("undo", 2) in c.hub.calls
    assert c.ok("undo") == b"" and ("undo", 1) in c.hub.calls
    st, p = c.ask("undo", {"n": 9})
    assert st == fr.ERR and b"nothing to take back" in p
    assert c.ask("undo", {"n": "two"})[0] == fr.ERR
    assert json.loads(c.ok("repl")) == {"repl_ms": 10000}

    class Old(FakeHub):
        pair = undo = repl = head = None
    c = Client(Old(reg=registry()))
    for verb in ("pair", "undo", "repl"):
        st, p = c.ask(verb)
        assert st == fr.ERR and b"does not do" in p
    assert c.sync()[0] == c.hub.log and c.heads == []


def test_registry_upload_in_four_frames_and_download():
    hub = FakeHub(reg=None)
    c = Client(hub)
    st, p = c.ask("registry", b2a_base64(b"\x00\x00", newline=False))
    assert st == fr.ERR and b"enroll" in p
    uids = deck_uids(salt=9)
    parts = chunks(uids)
    assert len(parts) == 4
    for k, part in enumerate(parts):
        d = json.loads(c.ok("registry", b2a_base64(part, newline=False)))
        assert d["have"] == 27 * (k + 1)
    assert d.get("done") and hub.calls.count(("set_registry", 108)) == 1
    assert [hub.reg.uid(i) for i in range(108)] == uids
    got = []
    for first in (0, 27, 54, 81):
        f, us = chunk_uids(a2b_base64(c.ok("registry", b2a_base64(bytes((first, 0)),
                                                                  newline=False))))
        assert f == first
        got.extend(us)
    assert got == uids


def test_ten_byte_uids_fit_a_registry_frame():
    uids = [bytes((0x88, i)) + bytes(8) for i in range(108)]
    for part in chunks(uids):
        assert len(fr.encode(0xFFFF, "registry", fr.REQ, b2a_base64(part, newline=False))) \
            <= fr.MAX


def test_registry_upload_refused():
    hub = FakeHub(reg=None)
    c = Client(hub)
    dup = deck_uids()
    dup[5] = dup[4]
    for part in chunks(dup)[:3]:
        c.ok("registry", b2a_base64(part, newline=False))
    st, p = c.ask("registry", b2a_base64(chunks(dup)[3], newline=False))
    assert st == fr.ERR and b"twice" in p and hub.reg is None
    bad = b"\x00\x01\x0b" + bytes(11)          # an 11-byte UID
    assert c.ask("registry", b2a_base64(bad, newline=False))[0] == fr.ERR
    assert c.ask("registry", b2a_base64(b"\x64\x10", newline=False))[0] == fr.ERR
    assert c.ask("registry", b"!!!")[0] == fr.ERR
    raises(ValueError, chunks, [b""] * 108)


def test_unknown_verb_is_an_error_answer():
    st, p = Client().ask("reboot")
    assert st == fr.ERR and b"unknown verb" in p


def test_lines_that_are_not_requests_get_no_answer():
    srv = LinkServer(FakeHub())
    good = fr.encode(1, "status", fr.REQ)
    for line in (b"", b">>> ", b"Traceback (most recent call last):",
                 fr.encode(1, "status", fr.OK, b"{}"), good.replace(b"status", b"statuz"),
                 b"~1 1 status " + b"A" * 2000):
        assert srv.handle(line) is None, line


def test_wrong_version_gets_an_error_answer_with_its_id():
    from binascii import crc32
    body = b"~2 2a hello ? "
    out = LinkServer(FakeHub()).handle(body + b" %08x\n" % crc32(body))
    rid, verb, st, p = fr.decode(out)
    assert rid == 0x2A and st == fr.ERR and b"protocol 1" in p


class Broken(FakeHub):
    def status(self):
        raise TypeError("oops")

    def set_clock(self, s):
        raise KeyboardInterrupt

    def hello(self):
        return {"fw": "x" * 2000, "board": "big"}


def test_handler_failures_become_error_answers_but_ctrl_c_stops():
    c = Client(Broken())
    st, p = c.ask("status")
    assert st == fr.ERR and p == b"TypeError: oops"
    st, p = c.ask("hello")                    # an answer over MAX is refused, not sent
    assert st == fr.ERR and b"over" in p
    raises(KeyboardInterrupt, c.ask, "clock", {"t": 5})


def test_non_ascii_answers_are_escaped():
    class Hub(FakeHub):
        def status(self):
            return {"phase": "r\u00e9sum\u00e9", "x": "\x01"}
    assert json.loads(Client(Hub()).ok("status")) == {"phase": "r\u00e9sum\u00e9", "x": "\x01"}


def test_lines_splitter_drops_oversized_lines_whole():
    ln = Lines()
    got = []
    stream = b"abc\n" + b"X" * 3000 + b"\nxyz\n\n"
    for c in stream:
        r = ln.feed(c)
        if r is not None:
            got.append(bytes(r))
    assert got == [b"abc", b"xyz", b""] and ln.dropped == 1
    ln2 = Lines()
    line = b"Y" * (fr.MAX - 1)               # exactly MAX with its line end: kept
    for c in line + b"\n":
        r = ln2.feed(c)
    assert bytes(r) == line


def test_the_server_holds_little_heap_on_micropython():
    import gc
    if not hasattr(gc, "mem_alloc"):
        return skip("measures the heap: micropython only (make test-mp)")
    hub = FakeHub(random_records(400, 3, gaps=True), registry())
    gc.collect()
    before = gc.mem_alloc()
    c = Client(hub)
    assert c.sync()[0] == hub.log
    hub.log = None
    c.hub = None
    gc.collect()
    held = gc.mem_alloc() - before
    assert held < 4096, held
