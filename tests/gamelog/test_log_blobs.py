"""Snapshots and other blobs of every size: read whole, checked, and stepped over when damaged."""
import struct
from binascii import crc32

from logkit import fresh, log, read, write, seg, inputs, fill, SEAT
from gamelog import GAP, SNAP, INPUT
from gamelog.fmt import HDR

TID = b"TABLE-01"


def test_a_big_text_snapshot_and_big_outcomes_come_back_with_their_times():
    p = fresh()
    lg = log(p, table_id=TID)
    text = "é" + "x" * 999
    lg.snapshot(text, 1000)
    lg.record(12, bytes(300), 1500)
    lg.record(11, "t" * 400, 1700)
    lg.record(9, b"", 1800)
    lg.append((SEAT, 1, 0), 2000)
    got = list(lg.read_from(1))
    assert [r[:5] for r in got] == [(1, SNAP, 1000, False, text), (2, 12, 1500, False, bytes(300)),
                                    (3, 11, 1700, False, "t" * 400), (4, 9, 1800, False, b""),
                                    (5, INPUT, 2000, False, (SEAT, 1, 0))]
    assert isinstance(got[0][4], str)


def test_mid_size_blobs_at_every_place_in_the_readers_window():
    for before in range(0, 24):
        p = fresh()
        lg = log(p, table_id=TID)
        fill(lg, inputs(before), 10, 1)
        lg.record(9, bytes(range(150)), 5000)
        lg.append((SEAT, 2, 0), 5001)
        got = list(lg.read_from(1))
        assert len(got) == before + 2 and got[before][4] == bytes(range(150)), before
        assert got[-1][4] == (SEAT, 2, 0), before


def test_long_rules_at_every_place_in_the_readers_window():
    p = fresh()
    lg = log(p, table_id=TID)
    ins = [(7, "k", "v" * (1 + i % 30)) for i in range(120)]
    fill(lg, ins, 10, 1)
    assert [r[4] for r in lg.read_from(1)] == ins


def _snap_night(p, big=1200):
    lg = log(p, table_id=TID)
    fill(lg, inputs(4), 10, 100)
    lg.snapshot("s" * big, 5000)
    fill(lg, inputs(5, 4), 5100, 100)
    lg.close()
    return read(seg(p))


def test_a_damaged_big_snapshot_falls_back_and_is_reported():
    p = fresh()
    data = _snap_night(p)
    b = bytearray(data)
    b[HDR + 600] ^= 0x10
    write(seg(p), b)
    lg = log(p, table_id=TID)
    snap, ins, nxt = lg.recover()
    assert snap is None and ins == inputs(9) and nxt == 11
    assert lg.damage == [(5, 5, "damaged")]


def test_a_big_snapshot_cut_short_is_damage_at_the_end():
    p = fresh()
    data = _snap_night(p)
    for cut in (HDR + 5, HDR + 700, HDR + 1205):
        write(seg(p), data[:cut])
        lg = log(p, table_id=TID)
        snap, ins, nxt = lg.recover()
        assert snap is None and ins == inputs(4), cut
        assert lg.damage[0][0] == 5 and nxt == lg.damage[0][1] + 1, cut
        lg.close()


def test_damage_after_a_big_snapshot_is_placed_exactly():
    p = fresh()
    data = _snap_night(p)
    b = bytearray(data)
    b[-3] ^= 0xFF                         # the last input, seq 10
    write(seg(p), b)
    lg = log(p, table_id=TID)
    snap, ins, nxt = lg.recover()
    last = len(data) - 10                 # where seq 10 starts: a seat press, 10 bytes
    assert lg.damage == [(10, 10 + max(1, (len(data) - last) // 7) - 1, "damaged")]
    assert ins == inputs(5, 4)[:-1]


def test_text_that_is_not_utf8_is_damage():
    import os
    p = fresh()
    try:
        os.mkdir(p)
    except OSError:
        pass
    from gamelog.fmt import header
    from gamelog.chain import GENESIS
    h = bytearray(HDR)
    header(h, 1, 0, False, TID, GENESIS)
    blob = bytes([0x49, 2, 0]) + b"\xff\xfe"                  # a text outcome, not UTF-8
    blob += struct.pack("<I", crc32(struct.pack("<I", 1), crc32(blob)))
    write(p + "/0000000001.log", bytes(h) + blob)
    lg = log(p, table_id=TID)
    lg.recover()
    assert list(lg.read_from(1))[0][1] == GAP
