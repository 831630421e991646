"""Issue 8 item 6: the chain over inputs and its HMAC, the same bytes on both interpreters."""
import hashlib
import struct

from check import raises
from logkit import fresh, log, records, inputs, fill, SEAT
from gamelog import GAP
from gamelog.chain import GENESIS, canon, step, tag, hmac_sha256, mac_head

try:
    import hmac                           # CPython: the reference
except ImportError:
    hmac = None

# RFC 4231 test cases 1, 2, 3 and 6 (a key longer than the block)
VECTORS = [
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
]


def _hex(b):
    return "".join("%02x" % x for x in b)


def test_hmac_matches_rfc_4231_and_cpythons_hmac():
    for key, msg, want in VECTORS:
        assert _hex(hmac_sha256(key, msg)) == want
    for n in (0, 1, 32, 63, 64, 65, 200):
        key = bytes((i * 7 + n) & 255 for i in range(n))
        msg = bytes(range(n % 50))
        got = hmac_sha256(key, msg)
        if hmac:
            assert got == hmac.new(key, msg, hashlib.sha256).digest(), n
        assert len(got) == 32


def test_canon_is_fixed_bytes():
    assert canon(1, 128, False, (3, 4, 1)) == bytes([1, 0, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 3, 4, 1])
    assert canon(2, 5, True, (5,)) == bytes([2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 5])
    assert canon(3, 0, False, (2, b"\x04\x01")) == bytes([3, 0, 0, 0] + [0] * 9 + [2, 2, 4, 1])
    assert canon(4, 0, False, (7, "stacking", "on"))[13:] == b"\x07\x0bstacking=on"
    assert canon(5, 0, False, (8, 2))[13:] == b"\x08\x02\x00\x00\x00"
    assert canon(6, 0, False, (6, 16384))[13:] == b"\x06\x00\x40\x00\x00\x00\x00\x00\x00"
    # what the engine gives back equals what it took: unused slots, bool presses
    assert canon(1, 1, False, (5, None, None)) == canon(1, 1, False, (5,))
    assert canon(1, 1, False, (3, 2, True)) == canon(1, 1, False, (3, 2, 1))
    assert canon(7, 0, False, (9, 3, "Li Wei"))[13:] == b"\x09\x03\x06Li Wei"
    raises(ValueError, canon, 1, 1, False, (9, 1))
    raises(ValueError, canon, 1, 1, False, (9, 1, b"Ann"))
    raises(ValueError, canon, 1, 1, False, (9, 1, ""))
    raises(ValueError, canon, 1, 1, False, (9, 1, "x" * 25))
    raises(ValueError, canon, 1, 1, False, (10, 1))
    raises(ValueError, canon, 1, 1, False, (2, b""))


def test_canon_at_the_edges_of_each_field():
    assert canon(1, 0, False, (8, 1))[13:] == b"\x08\x01\x00\x00\x00"      # undo 1: the usual
    assert canon(1, 0, False, (8, 65535))[13:] == b"\x08\xff\xff\x00\x00"
    raises(ValueError, canon, 1, 0, False, (8, 0))
    raises(ValueError, canon, 1, 0, False, (8, 65536))
    assert canon(1, 0, False, (9, 255, "x"))[13:] == b"\x09\xff\x01x"
    assert canon(1, 0, False, (9, 0, "x" * 24))[13:] == b"\x09\x00\x18" + b"x" * 24
    raises(ValueError, canon, 1, 0, False, (9, 256, "x"))
    raises(ValueError, canon, 1, 0, False, (9, -1, "x"))
    assert canon(1, 0, False, (3, 255, 0))[13:] == b"\x03\xff\x00"
    raises(ValueError, canon, 1, 0, False, (3, 256, 0))
    raises(ValueError, canon, 1, 0, False, (4, -1, 0))
    assert canon(1, 0, False, (1, b"\x01" * 16))[13:] == b"\x01\x10" + b"\x01" * 16
    raises(ValueError, canon, 1, 0, False, (1, b"\x01" * 17))
    assert canon(1, 0, False, (6, (1 << 49) - 1))[13:] == b"\x06" + struct.pack("<Q", (1 << 49) - 1)
    raises(ValueError, canon, 1, 0, False, (6, 1 << 49))
    raises(ValueError, canon, 1, 0, False, (6, -1))


def test_step_tag_and_mac_head():
    h = step(GENESIS, 1, 10, False, (5,))
    s = hashlib.sha256(GENESIS)
    s.update(canon(1, 10, False, (5,)))
    assert h == s.digest() and tag(h) == h[:4] and len(h) == 32
    key = bytes(range(32))
    m = mac_head(key, b"TABLE-01", 1, h)
    import struct
    assert m == hmac_sha256(key, b"UNOHEAD1" + b"TABLE-01" + struct.pack("<I", 1) + h)
    assert m != mac_head(key, b"TABLE-02", 1, h) and m != mac_head(key, b"TABLE-01", 2, h)
    raises(ValueError, mac_head, key, b"short", 1, h)


def test_the_log_chains_its_inputs_and_serves_the_tags():
    p = fresh()
    lg = log(p, table_id=b"TABLE-01", seg_max=120)
    ins = inputs(20)
    fill(lg, ins)
    lg.record(9, b"d", 99999)
    h = GENESIS
    got = records(lg)
    for r in got:
        if r[1] == 1:
            h = step(h, r[0], r[2], r[3], r[4])
            assert r[5] == tag(h), r[0]
        else:
            assert r[5] is None
    assert lg.head() == (20, h)
    lg.close()
    lg = log(p, table_id=b"TABLE-01", seg_max=120)
    lg.recover()
    assert lg.head() == (20, h) and lg.table_id == b"TABLE-01"
    lg.append((SEAT, 1, 0), 100000)
    h = step(h, 22, 100000, False, (SEAT, 1, 0))
    assert lg.head() == (22, h)
    assert [r for r in records(lg) if r[1] == GAP] == []


def test_each_segment_header_keeps_the_head_before_it():
    from gamelog.fmt import parse_header, HDR
    from logkit import read
    p = fresh()
    lg = log(p, table_id=b"TABLE-01", seg_max=100)
    fill(lg, inputs(15))
    heads = {}
    h = GENESIS
    for r in records(lg):
        heads[r[0]] = h
        h = step(h, r[0], r[2], r[3], r[4])
    segs = lg.segments()
    assert len(segs) > 2
    for base, n in segs:
        hd = parse_header(read(p + "/%010d.log" % base)[:HDR])
        assert hd[0] == base and hd[3] == b"TABLE-01" and hd[4] == heads[base]


def test_anchor_gives_the_head_before_a_segment():
    p = fresh()
    lg = log(p, table_id=b"TABLE-01", seg_max=100)
    fill(lg, inputs(15))
    heads = {}
    h = GENESIS
    for r in records(lg):
        heads[r[0]] = h
        h = step(h, r[0], r[2], r[3], r[4])
    bases = [b for b, n in lg.segments()]
    assert lg.anchor(1) == (1, GENESIS)
    assert lg.anchor(bases[1]) == (bases[1], heads[bases[1]])
    assert lg.anchor(bases[1] - 1) == (bases[1], heads[bases[1]])
    assert lg.anchor(10 ** 6) is None
