"""The reader takes only well-formed records: crafted ones that pass their CRC but break a rule
of the format are damage, never data (docs/log.md, Records)."""
import struct
from binascii import crc32

from logkit import fresh, log, write, read, seg, SEAT
from gamelog import GAP, INPUT
from gamelog.chain import GENESIS, step, canon
from gamelog.fmt import header, HDR, Reader, OK, BAD

TID = b"TABLE-01"


def _seg(p, recs, t0=1000, wall=False, base=1):
    """A segment file of crafted input records: (type, time bytes, payload, tag source)."""
    import os
    try:
        os.mkdir(p)
    except OSError:
        pass
    b = bytearray(HDR)
    header(b, base, t0, wall, TID, GENESIS)
    out = bytes(b)
    seq = base
    for ty, tb, pl, inp in recs:
        body = bytes([ty]) + tb + pl
        h = step(GENESIS, seq, t0, wall, inp) if inp else bytes(4)
        body += h[:4]
        out += body + struct.pack("<H", crc32(struct.pack("<I", seq), crc32(body)) & 0xFFFF)
        seq += 1
    write(p + "/%010d.log" % base, out)


def _read(p):
    lg = log(p, table_id=TID)
    lg.recover()
    got = list(lg.read_from(1))
    lg.close()
    return got


def test_a_well_formed_crafted_record_is_read():
    p = fresh()
    _seg(p, [(3, b"\x00", b"\x02", (3, 2, 0))])
    assert _read(p)[0][:5] == (1, INPUT, 1000, False, (3, 2, 0))


def test_records_breaking_a_rule_are_damage():
    bad = [
        (0x83, b"\x00", b"\x02", (3, 2, 0)),                 # bit 7 set
        (0x00, b"\x00", b"\x02", None),                      # nibble 0
        (0x13, b"\x00", b"\x02", (3, 2, 0)),                 # a UID code on a seat press
        (0x45, b"\x00", b"", (5,)),                          # X on a shuffle
        (0x02, b"\x00", b"\x04\x01\x02\x03\x04", (2, b"\x01\x02\x03\x04")),   # length 4: code
        (0x02, b"\x00", b"\x00", None),                      # UID of 0 bytes
        (0x02, b"\x00", b"\x11" + bytes(17), None),          # UID of 17 bytes
        (0x03, b"\x80\x80\x80\x01", b"\x02", None),          # time offset past 2**21
        (0x07, b"\x00", b"\x03a=b", None),                   # rule text length runs over
        (0x07, b"\x00", b"\x02ab", None),                    # rule without "="
        (0x05, b"\x00", b"\x00", (5,)),                      # shuffle with a payload
        (0x03, b"\x00", b"", None),                          # seat press without its byte
    ]
    for rec in bad:
        p = fresh()
        _seg(p, [rec, (3, b"\x05", b"\x04", None)])
        got = _read(p)
        assert got[0][1] == GAP and got[0][0] == 1, rec
        assert all(r[0] != 1 for r in got if r[1] != GAP), rec


def test_a_tag_that_does_not_follow_the_chain_is_damage():
    p = fresh()
    _seg(p, [(3, b"\x00", b"\x02", (3, 3, 0))])      # tag of another press, crc right
    got = _read(p)
    assert got[0][1] == GAP


def test_the_reader_reports_header_problems():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SEAT, 1, 0), 5)
    lg.close()
    data = read(seg(p))
    rd = Reader()
    with open(seg(p), "rb") as f:
        assert rd.start(f, 1, TID) == OK
    with open(seg(p), "rb") as f:
        assert rd.start(f, 1, b"OTHER-99") == 4            # FOREIGN
    with open(seg(p), "rb") as f:
        assert rd.start(f, 2, TID) == 5                    # ORDER
    write(seg(p), data[:30])
    with open(seg(p), "rb") as f:
        assert rd.start(f, 1, TID) == BAD
    b = bytearray(data)
    b[5] ^= 3                                              # two bits: cannot be mended
    write(seg(p), b)
    with open(seg(p), "rb") as f:
        assert rd.start(f, 1, TID) == BAD


def test_a_segment_rolls_when_time_passes_its_base_by_2_pow_21():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SEAT, 1, 0), 1000)
    lg.append((SEAT, 1, 0), 1000 + (1 << 21) - 1)
    assert len(lg.segments()) == 1
    lg.append((SEAT, 1, 0), 1000 + (1 << 21))
    assert len(lg.segments()) == 2
    lg.append((SEAT, 1, 0), 50)                            # time went back: a reboot
    lg.append((SEAT, 1, 0), 60, True)                      # wall clock now
    assert len(lg.segments()) == 4
    assert [r[2:4] for r in lg.read_from(1)] == [(1000, False), (1000 + (1 << 21) - 1, False),
                                                 (1000 + (1 << 21), False), (50, False),
                                                 (60, True)]


def test_long_records_across_the_readers_window():
    p = fresh()
    lg = log(p, table_id=TID)
    ins = []
    for i in range(40):
        v = "v%029d" % i                                  # "k=" + 30: the 32-byte limit
        ins.append((7, "k", v) if i % 3 else (2, bytes([i]) * 16))
    for i, inp in enumerate(ins):
        lg.append(inp, 100 + i)
    lg.close()
    lg = log(p, table_id=TID)
    assert lg.recover()[1] == ins
    assert [r[4] for r in lg.read_from(1)] == ins
