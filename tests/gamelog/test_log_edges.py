"""The reader at its edges (issue 8, "Tests that would notice"): where each record ends, blobs
that just fit the reader's window, and crafted records whose CRC *and* chain tag are right but
which break a rule of the format (docs/log.md, Records): those are damage, never data."""
import struct
from binascii import crc32

from logkit import fresh, log, read, write, seg, size, inputs, fill, SEAT, TICK, SHUFFLE
from gamelog import GAP, INPUT
from gamelog.chain import GENESIS, step
from gamelog.fmt import header, HDR, WIN, Reader, OK, END

TID = b"TABLE-01"


def _walk(path, base=1):
    """[(status, off, n, seq)] of a Reader walking a segment file to its end."""
    rd = Reader()
    out = []
    with open(path, "rb") as f:
        assert rd.start(f, base, TID) == OK
        while True:
            st = rd.next()
            if st != OK:
                out.append((st, rd.off, rd.n, None))
                return out
            out.append((st, rd.off, rd.n, rd.seq))


def test_every_record_ends_where_the_file_had_grown_to():
    # rd.off after each record is the file's size after that append; rd.n counts them. Small
    # inputs, a blob that fits the window, a snapshot bigger than it, then inputs again.
    p = fresh()
    lg = log(p, table_id=TID)
    ends = []
    for inp in inputs(4):
        lg.append(inp, 1000)
        ends.append(size(seg(p)))
    lg.record(9, bytes(range(120)), 1001)
    ends.append(size(seg(p)))
    lg.record(11, bytes(700), 1002)
    ends.append(size(seg(p)))
    for inp in inputs(3):
        lg.append(inp, 1003)
        ends.append(size(seg(p)))
    lg.close()
    got = _walk(seg(p))
    assert got[-1][0] == END
    assert [g[1] for g in got[:-1]] == ends
    assert [g[2] for g in got[:-1]] == list(range(1, len(ends) + 1))
    assert [g[3] for g in got[:-1]] == list(range(1, len(ends) + 1))


def test_blobs_just_under_the_window_at_every_place_in_it():
    # A blob that fits the window but not what is left of it is read again whole (not damage).
    for n in (WIN - 12, WIN - 9):
        for before in range(0, 30, 3):
            p = fresh()
            lg = log(p, table_id=TID)
            fill(lg, inputs(before), 10, 1)
            lg.record(9, bytes(range(n)), 5000)
            lg.append((SEAT, 2, 0), 5001)
            got = list(lg.read_from(1))
            assert [g[1] for g in got if g[1] == GAP] == [], (n, before)
            assert len(got) == before + 2 and got[before][4] == bytes(range(n)), (n, before)
            assert got[-1][4] == (SEAT, 2, 0), (n, before)


# ---- crafted records, chained right ------------------------------------------------------

def _crafted(p, recs, t0=1000):
    """A segment of input records: (type byte, time bytes, payload, the input and dt its tag
    is made from). The tag follows the chain as a lenient reader would compute it."""
    import os
    try:
        os.mkdir(p)
    except OSError:
        pass
    b = bytearray(HDR)
    header(b, 1, t0, False, TID, GENESIS)
    out = bytes(b)
    h = GENESIS
    seq = 1
    for ty, tb, pl, inp, dt in recs:
        body = bytes([ty]) + tb + pl
        h = step(h, seq, t0 + dt, False, inp)
        body += h[:4]
        out += body + struct.pack("<H", crc32(struct.pack("<I", seq), crc32(body)) & 0xFFFF)
        seq += 1
    write(p + "/%010d.log" % 1, out)


def _got(p):
    lg = log(p, table_id=TID)
    lg.recover()
    got = list(lg.read_from(1))
    lg.close()
    return got


def test_a_time_offset_of_2_pow_21_minus_1_is_read_and_2_pow_21_is_damage():
    p = fresh()
    top = (1 << 21) - 1
    _crafted(p, [(3, b"\xff\xff\x7f", b"\x02", (3, 2, 0), top)])
    assert _got(p)[0][:5] == (1, INPUT, 1000 + top, False, (3, 2, 0))
    p = fresh()
    _crafted(p, [(3, b"\x80\x80\x80\x01", b"\x02", (3, 2, 0), top + 1)])
    got = _got(p)
    assert got[0][1] == GAP and not [g for g in got if g[1] != GAP]


def test_well_chained_records_that_break_a_rule_are_damage():
    bad = [
        (0x07, b"\x00", b"\x02ab", (7, "ab", ""), 0),          # rule without "="
        (0x07, b"\x00", b"\x03ab=", (7, "ab", ""), 0),         # the same, with it: fine
        (0x45, b"\x00", b"", (5,), 0),                        # X on a shuffle
        (0x13, b"\x00", b"\x02", (3, 2, 0), 0),               # a UID code on a seat press
        (0x26, b"\x00", b"\x05", (6, 5), 0),                  # a UID code on a tick
        (0x02, b"\x00", b"\x04\x01\x02\x03\x04", (2, b"\x01\x02\x03\x04"), 0),  # length 4: code
        (0x01, b"\x00", b"\x07" + bytes(7), (1, bytes(7)), 0),   # length 7: code
        (0x01, b"\x00", b"\x0a" + bytes(10), (1, bytes(10)), 0),  # length 10: code
    ]
    for k, rec in enumerate(bad):
        p = fresh()
        _crafted(p, [rec])
        got = _got(p)
        if k == 1:
            assert got[0][:5] == (1, INPUT, 1000, False, (7, "ab", "")), got
            continue
        assert got[0][1] == GAP and not [g for g in got if g[1] != GAP], (rec, got)


def test_a_blob_with_a_uid_code_is_damage():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.record(9, b"xy", 1000)
    lg.append((SEAT, 1, 0), 1001)
    lg.close()
    b = bytearray(read(seg(p)))
    for code in (0x10, 0x20, 0x30):
        c = bytearray(b)
        c[HDR] |= code
        # the blob's CRC-32 covers the type byte: make it right again
        body = bytes(c[HDR:HDR + 5])
        c[HDR + 5:HDR + 9] = struct.pack("<I", crc32(struct.pack("<I", 1), crc32(body)))
        write(seg(p), c)
        got = _got(p)
        assert got[0][1] == GAP and got[0][0] == 1, (code, got)
        assert [g[4] for g in got if g[1] != GAP] == [(SEAT, 1, 0)], (code, got)


def test_a_big_blob_cut_anywhere_is_bad_for_the_reader():
    # Cut in its payload or in its CRC: next() says BAD (not OK, not END, not anything else).
    p = fresh()
    lg = log(p, table_id=TID)
    lg.snapshot(bytes(range(256)) * 3, 1000)
    lg.close()
    data = read(seg(p))
    end = len(data)
    for cut in (HDR + 10, HDR + WIN + 5, end - 5, end - 4, end - 3, end - 2, end - 1):
        write(seg(p), data[:cut])
        rd = Reader()
        with open(seg(p), "rb") as f:
            assert rd.start(f, 1, TID) == OK
            assert rd.next() == 3, cut                    # BAD
    write(seg(p), data)
    got = _walk(seg(p))
    assert got[0][:3] == (OK, end, 1) and got[1][0] == END


def test_varints_of_up_to_8_bytes_are_read_for_their_value():
    # The chain covers values, not their bytes: a non-minimal varint of up to 8 bytes (the
    # longest the reader takes, 7 bits past 2**49) reads as its value; 9 bytes are damage.
    p = fresh()
    _crafted(p, [(6, b"\x00", b"\x85\x80\x80\x80\x80\x80\x80\x00", (6, 5), 0),
                 (6, b"\x81\x80\x80\x80\x80\x80\x80\x00", b"\x07", (6, 7), 1)])
    got = _got(p)
    assert [g[:5] for g in got] == [(1, INPUT, 1000, False, (6, 5)),
                                    (2, INPUT, 1001, False, (6, 7))], got
    p = fresh()
    _crafted(p, [(6, b"\x00", b"\x85\x80\x80\x80\x80\x80\x80\x80\x00", (6, 5), 0)])
    got = _got(p)
    assert got[0][1] == GAP and not [g for g in got if g[1] != GAP], got


# ---- resync: where the reader looks again after damage -------------------------------------

def _press(seq, v, tag=b"\x00\x00\x00\x00"):
    body = bytes([3, 0, v]) + tag
    return body + struct.pack("<H", crc32(struct.pack("<I", seq), crc32(body)) & 0xFFFF)


def test_a_record_claiming_a_seq_its_place_cannot_hold_is_not_believed():
    # Seq 2 is damaged (9 bytes); what follows carries the CRCs of seqs 5 and 6, which 9 bytes
    # of damage cannot have hidden (at most seqs 2..4 end there): no resync on them.
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SEAT, 1, 0), 1000)
    lg.close()
    one = read(seg(p))
    bad = bytearray(_press(2, 2))
    bad[2] ^= 0x40
    write(seg(p), one + bytes(bad) + _press(5, 5) + _press(6, 6))
    got = _got(p)
    assert got[0][:5] == (1, INPUT, 1000, False, (SEAT, 1, 0)), got
    assert [g for g in got[1:] if g[1] != GAP] == [], got
    # the same bytes as seqs 3 and 4 are believed (without their tags: the chain is broken)
    write(seg(p), one + bytes(bad) + _press(3, 5) + _press(4, 6))
    got = _got(p)
    assert [g[:4] for g in got[1:]] == [(2, GAP, 2, "damaged"), (3, INPUT, 1000, False),
                                        (4, INPUT, 1000, False)], got


def _blob_night():
    # Three presses, a 600-byte blob, a press: the directory and its one segment's bytes.
    p = fresh()
    lg = log(p, table_id=TID)
    fill(lg, [(SEAT, 1, 0), (SEAT, 2, 0), (SEAT, 3, 0)], 1000, 0)
    lg.record(11, bytes(range(200)) * 3, 1000)
    lg.append((SEAT, 4, 0), 1000)
    lg.close()
    return p, bytearray(read(seg(p)))


def test_a_big_blob_after_two_damaged_records_is_found_at_its_seq():
    p, b = _blob_night()
    b[HDR + 9 + 2] ^= 0x40                # seq 2's value
    b[HDR + 18 + 2] ^= 0x40               # seq 3's value
    write(seg(p), b)
    got = _got(p)
    assert [g[:2] for g in got] == [(1, INPUT), (2, GAP), (4, 11), (5, INPUT)], got
    assert got[1][2] == 3 and got[2][4] == bytes(range(200)) * 3


def test_a_record_after_damage_followed_by_a_big_blob_is_believed():
    # A resync candidate must be followed by an intact record: a big blob counts as one.
    p, b = _blob_night()
    b[HDR + 9 + 2] ^= 0x40                # seq 2's value
    write(seg(p), b)
    got = _got(p)
    assert [g[:3] for g in got] == [(1, INPUT, 1000), (2, GAP, 2), (3, INPUT, 1000),
                                    (4, 11, 1000), (5, INPUT, 1000)], got
    assert got[2][4] == (SEAT, 3, 0)
