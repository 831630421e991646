"""The chain start: a batch carries the chain head before its first record instead of a tag per
record, and the decoder works every tag out from it (docs/protocol.md, "Record batch")."""
import json
from binascii import a2b_base64

from check import raises
from linkkit import FakeHub, random_records, registry, top, SEAT, SHUFFLE, PAD, UNDO
from link import frame as fr
from link.codec import (decode, encode, chain_start, Encoder, CodecError, B_START, B_CHAIN,
                        B_HEAD)
from link.server import LinkServer
from gamelog.chain import GENESIS, step

H0 = bytes(range(100, 132))


def chain(recs, h=H0):
    """The records with their real chain tags from head h; and the heads after each."""
    out = []
    heads = []
    for r in recs:
        if len(r) == 3:
            out.append(r)
            heads.append(None)
            continue
        h = step(h, r[0], r[1], r[2], r[3])
        out.append(r[:4] + (h[:4],))
        heads.append(h)
    return out, heads


def test_a_start_batch_byte_for_byte():
    recs = [(127, 128, False, (SEAT, 2, 0)), (128, 16511, False, (SHUFFLE,))]
    b = encode(recs, start=H0)
    assert b == (bytes((B_START, 0x7F, 0x02)) + H0 + bytes((0x13, 0x80, 0x01, 0x02,
                                                             0x05, 0xFF, 0x7F)))
    assert chain_start(b) == H0
    got, more, head = decode(b)
    assert got == chain(recs)[0] and not more and head is None
    # 32 bytes a batch instead of 4 a record: the same two records with tags
    assert len(encode(chain(recs)[0])) == len(b) - 32 + 8


def test_random_batches_with_a_start_decode_to_the_tags_of_the_chain():
    reg = registry()
    for seed in range(1, 30):
        recs = [r[:4] for r in random_records(40, seed) if r[3][0] != UNDO or r[3][1] < 65536]
        recs = [r for r in recs if _chainable(r)]
        b = encode(recs, reg, seed & 1 == 1, None, H0)
        got, more, _ = decode(b, reg)
        assert got == chain(recs)[0], seed
        assert more == (seed & 1 == 1)


def _chainable(r):
    try:
        step(GENESIS, *r[:4])
        return True
    except (ValueError, TypeError, OverflowError):
        return False


def test_a_batch_with_tags_or_none_has_no_start():
    recs, _ = chain([(5, 10, False, (SEAT, 1, 0))])
    assert chain_start(encode(recs)) is None
    assert chain_start(encode([r[:4] for r in recs])) is None


def test_a_gap_may_close_a_start_batch_but_no_record_follows_it():
    e = Encoder(None, 200)
    e.start()
    assert e.add(10, 500, False, (SEAT, 1, 0), None, H0)
    assert e.gap(11, 20, "damaged")
    raises(ValueError, e.add, 21, 600, False, (SEAT, 2, 0))
    b = bytes(e.finish())
    got, _, _ = decode(b)
    assert got == chain([(10, 500, False, (SEAT, 1, 0))])[0] + [(11, 20, "damaged")]
    # hand-made: a record after the gap, a gap first, tags and a start, a start and no entry
    rec = bytes((0x03, 0x64, 0x02))            # seat 2, +100 ms
    gap = bytes((0x00, 0x00, 0x09, 0x02))      # ext 0: 10 seqs, damaged
    first = bytes((0x13, 0x80, 0x01, 0x02))   # seat 2, ABS 128
    raises(CodecError, decode, bytes((B_START, 10, 3)) + H0 + first + gap + rec)
    raises(CodecError, decode, bytes((B_START, 10, 2)) + H0 + gap + first)
    raises(CodecError, decode, bytes((B_START | B_CHAIN, 10, 1)) + H0 + first + b"abcd")
    raises(CodecError, decode, bytes((B_START, 10, 0)) + H0)
    raises(CodecError, decode, bytes((B_START, 10, 1)) + H0[:20])
    assert decode(bytes((B_START, 10, 2)) + H0 + first + gap)[0][1] == (11, 20, "damaged")


def test_the_encoder_takes_a_start_only_first_whole_and_without_tags():
    e = Encoder(None, 200)
    e.start()
    raises(ValueError, e.add, 1, 5, False, (SEAT, 1, 0), b"abcd", H0)
    raises(ValueError, e.add, 1, 5, False, (SEAT, 1, 0), None, H0[:31])
    assert e.add(1, 5, False, (SEAT, 1, 0))
    raises(ValueError, e.add, 2, 5, False, (SEAT, 1, 0), None, H0)
    e.start()
    raises(ValueError, e.add, 1, 5, False, (SEAT, 1, 0), None, H0 + b"x")
    # the start counts towards the limit: a record that fits alone does not with it
    e.start(36)
    assert not e.add(1, 5, False, (SEAT, 1, 0), None, H0)
    assert e.n == 0 and not e.sh
    assert e.add(1, 5, False, (SEAT, 1, 0))


def test_an_input_the_chain_refuses_is_a_damaged_start_batch():
    b = encode([(1, 5, False, (PAD, bytes(17)))], start=H0)    # canon takes 1..16-byte UIDs
    raises(CodecError, decode, b)


def test_a_start_with_the_head_closing_the_batch():
    recs = [(1, 5, False, (SEAT, 1, 0)), (3, 9, False, (SHUFFLE,))]
    tagged, heads = chain(recs, GENESIS)
    b = encode(recs, None, False, (3, heads[-1], bytes(32)), GENESIS)
    assert b[0] == B_START | B_HEAD
    got, more, head = decode(b)
    assert got == tagged and head == (3, heads[-1], bytes(32))


class StartHub(FakeHub):
    """A fake hub whose log is a real chain from GENESIS; it vouches for the head before any
    seq but those in `blind`."""

    def __init__(self, recs, reg=None, blind=()):
        FakeHub.__init__(self, None, reg)
        self.log, self.after = chain(recs, GENESIS)
        self.blind = blind
        self.asked = []

    def chain_before(self, seq):
        self.asked.append(seq)
        if seq in self.blind:
            return None
        h = GENESIS
        for r, a in zip(self.log, self.after):
            if (r[1] if len(r) == 3 else r[0]) >= seq:
                break
            h = a or h             # past a gap: as a segment header, it knows the head
        return h

    def head(self):
        i = len(self.log) - 1
        while len(self.log[i]) == 3:
            i -= 1
        return self.log[i][0], self.after[i], b"\x5a" * 32


def host_sync(srv, reg, seq=1, h=None, mx=0):
    """unotable.link.Link.sync_records' loop: [(entries, tags carried, start)] per batch."""
    out = []
    while True:
        q = {"from": seq}
        if h is not None:
            q["tags"] = False
        if mx:
            q["max"] = mx
        ans = fr.decode(srv.handle(fr.encode(len(out) + 1, "records", fr.REQ, json.dumps(q))))
        assert ans[2] == fr.OK, ans
        data = a2b_base64(ans[3])
        recs, more, head = decode(data, reg)
        st = chain_start(data)
        if h is None:
            h = st
        for r in recs:
            if len(r) == 3:
                h = None
            elif h is not None:
                h = step(h, r[0], r[1], r[2], r[3])
                assert r[4] is None or r[4] == h[:4]
        out.append((recs, bool(data[0] & B_CHAIN), st, head, h))
        if not more:
            return out
        seq = top(recs) + 1


def _records(n, seed, gaps=False):
    return [r if len(r) == 3 else r[:4] for r in random_records(n, seed, gaps=gaps)
            if len(r) == 3 or _chainable(r)]


def test_a_host_without_a_head_gets_it_once_then_syncs_without_tags():
    reg = registry()
    hub = StartHub(_records(400, 3), reg)
    bs = host_sync(LinkServer(hub), reg)
    assert len(bs) > 2
    assert bs[0][2] == GENESIS and not bs[0][1]        # the start, no tags
    for recs, tagged, st, head, h in bs[1:]:
        assert st is None and not tagged               # the host asked without tags
    got = [r for b in bs for r in b[0]]
    assert [r[:4] for r in got] == [r[:4] for r in hub.log]
    assert [r[4] for r in got if r[4] is not None] == [r[4] for r in hub.log[:len(got)]
                                                       if len(r) > 3][:len(bs[0][0])]
    assert bs[-1][3][1] == bs[-1][4]                   # the chain reaches the signed head
    assert hub.asked == [1]


def test_from_the_middle_and_after_gaps_each_batch_starts_where_the_hub_vouches():
    reg = registry()
    recs = _records(500, 5, gaps=True)
    hub = StartHub(recs, reg)
    mid = recs[200][0] if len(recs[200]) > 3 else recs[200][1] + 1
    bs = host_sync(LinkServer(hub), reg, mid)
    got = [r for b in bs for r in b[0]]
    want = [r for r in hub.log if (r[1] if len(r) == 3 else r[0]) >= mid]
    assert [r if len(r) == 3 else r[:4] for r in got] == [
        r if len(r) == 3 else r[:4] for r in want]
    tags = {r[0]: r[4] for r in hub.log if len(r) > 3}
    for recs_, tagged, st, head, h in bs:
        assert not tagged
        for i, r in enumerate(recs_):
            if len(r) == 3:
                assert i == len(recs_) - 1              # a gap ends the batch
        if recs_ and len(recs_[0]) > 3 and st is not None:
            for r in recs_:                             # every tag worked out is the hub's
                if len(r) > 3:
                    assert r[4] == tags[r[0]]
    assert bs[-1][3][1] == bs[-1][4]


def test_where_the_hub_cannot_vouch_the_tags_travel():
    reg = registry()
    recs = _records(300, 7)
    hub = StartHub(recs, reg, blind=(1,))
    bs = host_sync(LinkServer(hub), reg)
    assert bs[0][1] and bs[0][2] is None                # tags, no start
    assert [r[4] for r in bs[0][0]] == [r[4] for r in hub.log[:len(bs[0][0])]]
    assert bs[1][2] is not None and not bs[1][1]        # the next batch: a start
    # a leading gap in a tagged batch, the hub able to vouch: the batch ends after it
    hub = StartHub([(1, 40, "pruned")] + recs[:50], reg)
    bs = host_sync(LinkServer(hub), reg)
    assert bs[0][0] == [(1, 40, "pruned")] and bs[1][2] is not None


def test_a_host_that_holds_the_head_gets_no_start():
    reg = registry()
    hub = StartHub(_records(100, 9), reg)
    bs = host_sync(LinkServer(hub), reg, 1, GENESIS)
    assert all(b[2] is None and not b[1] for b in bs) and hub.asked == []


def test_the_handler_reads_the_head_before_a_seq_off_the_log():
    from logkit import fresh, log, fill, inputs
    from hub.handler import LinkHandler
    from gamelog import INPUT

    class Hub:
        pass

    path = fresh()
    lg = log(path, seg_max=300)
    fill(lg, inputs(40))
    lg.snapshot(b"round over")
    fill(lg, inputs(30, 40), 40000)
    hub = Hub()
    hub.log = lg
    hd = LinkHandler(hub)
    assert len(lg.segments()) > 2
    h = GENESIS
    want = {}
    for r in lg.read_from(1):
        want[r[0]] = h
        if r[1] == INPUT:
            h = step(h, r[0], r[2], r[3], r[4])
            assert h[:4] == r[5]
    for seq in want:
        assert hd.chain_before(seq) == want[seq], seq
    assert hd.chain_before(max(want) + 1) == h == lg.head()[1]
    # a damaged record before seq in its segment: the hub cannot vouch; from the next
    # segment's header on it can again
    lg.close()
    from logkit import seg, flip, read
    from gamelog import GAP
    p = seg(path, 1)
    flip(p, len(read(p)) // 2)
    lg = log(path, seg_max=300)
    lg.recover()
    hub.log = lg
    gaps = [r for r in lg.read_from(1) if r[1] == GAP]
    assert len(gaps) == 1
    first, last = gaps[0][0], gaps[0][2]
    assert hd.chain_before(first) == want[first]
    bases = [b for b, _ in lg.segments()]
    assert last + 1 not in bases
    assert hd.chain_before(last + 1) is None
    nb = [b for b in bases if b > last][0]
    assert hd.chain_before(nb) == want[nb] and hd.chain_before(nb + 1) == want[nb + 1]
