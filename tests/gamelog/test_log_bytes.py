"""The bytes on flash are pinned (docs/log.md): a change of format is a change of this file."""
import struct
from binascii import crc32

from logkit import fresh, log, read, seg, SEAT, TICK, PAD, SHUFFLE
from gamelog import INPUT
from gamelog.chain import GENESIS, step
from gamelog.fmt import put_uv, uv_len, HDR

TID = b"TABLE-01"


def _crc16(body, seq):
    return struct.pack("<H", crc32(struct.pack("<I", seq), crc32(body)) & 0xFFFF)


def test_varints_at_their_edges():
    for v, want in ((0, b"\x00"), (127, b"\x7f"), (128, b"\x80\x01"), (16383, b"\xff\x7f"),
                    (16384, b"\x80\x80\x01"), (2 ** 21 - 1, b"\xff\xff\x7f")):
        b = bytearray(8)
        assert bytes(b[:put_uv(b, 0, v)]) == want, v
        assert uv_len(v) == len(want), v


def test_a_segment_header_and_its_first_record():
    p = fresh()
    lg = log(p, table_id=TID)
    assert lg.append((SEAT, 3, 1), 1000) == 1
    data = read(seg(p))
    hdr = bytes([0x55, 0x4C, 2, 0, 1, 0, 0, 0]) + struct.pack("<Q", 1000) + TID + GENESIS
    assert data[:56] == hdr
    assert data[56:60] == struct.pack("<I", crc32(hdr))
    h = step(GENESIS, 1, 1000, False, (SEAT, 3, 1))
    body = bytes([0x43, 0x00, 3]) + h[:4]
    assert data[60:] == body + _crc16(body, 1)
    assert HDR == 60


def test_wall_clock_segments_and_their_flag():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SHUFFLE,), 1700000000, True)
    data = read(seg(p))
    assert data[3] == 1 and struct.unpack("<Q", data[8:16])[0] == 1700000000


def test_time_offsets_and_ticks_at_the_varint_edges():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SHUFFLE,), 5000)
    h = step(GENESIS, 1, 5000, False, (SHUFFLE,))
    at = HDR + 1 + 1 + 6
    seq = 2
    for dt, tv in ((127, b"\x7f"), (128, b"\x80\x01"), (16383, b"\xff\x7f"),
                   (16384, b"\x80\x80\x01")):
        # a time step of exactly 128 ms is two bytes, not one
        lg.append((TICK, dt), 5000 + dt)
        h = step(h, seq, 5000 + dt, False, (TICK, dt))
        body = bytes([TICK]) + tv + tv + h[:4]
        data = read(seg(p))
        assert data[at:] == body + _crc16(body, seq), dt
        at = len(data)
        seq += 1
    recs = list(lg.read_from(1))
    assert [r[2] for r in recs] == [5000, 5127, 5128, 21383, 21384]
    assert [r[4] for r in recs[1:]] == [(TICK, 127), (TICK, 128), (TICK, 16383), (TICK, 16384)]


def test_uid_lengths_use_the_short_codes():
    p = fresh()
    lg = log(p, table_id=TID)
    n0 = len(read(seg(p))) if False else 0
    sizes = []
    for u in (b"\x01\x02\x03\x04", bytes(7), bytes(10), b"\x01", bytes(16)):
        lg.append((PAD, u), 100)
        sizes.append(len(read(seg(p))))
    steps = [sizes[0] - HDR] + [sizes[i] - sizes[i - 1] for i in range(1, len(sizes))]
    assert steps == [1 + 1 + 4 + 6, 1 + 1 + 7 + 6, 1 + 1 + 10 + 6, 1 + 1 + 1 + 1 + 6,
                     1 + 1 + 1 + 16 + 6]
    data = read(seg(p))
    assert data[HDR] == 0x12 and data[HDR + 12] == 0x22 and data[HDR + 27] == 0x32
    assert [r[4][1] for r in lg.read_from(1)] == [b"\x01\x02\x03\x04", bytes(7), bytes(10),
                                                  b"\x01", bytes(16)]


def test_take_back_is_nibble_10_with_a_varint():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((8, 300), 7)
    data = read(seg(p))
    h = step(GENESIS, 1, 7, False, (8, 300))
    body = bytes([10, 0, 0xAC, 0x02]) + h[:4]
    assert data[HDR:] == body + _crc16(body, 1)
    assert list(lg.read_from(1))[0][1:5] == (INPUT, 7, False, (8, 300))


def test_a_blob_record():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.snapshot("ab", 9)
    lg.record(9, b"\x01\x02", 9 + 200)
    data = read(seg(p))
    snap = bytes([0x48, 2, 0]) + b"ab"
    assert data[HDR:HDR + 5] == snap
    assert data[HDR + 5:HDR + 9] == struct.pack("<I", crc32(struct.pack("<I", 1), crc32(snap)))
    out = bytes([0x09, 2, 0xC8, 0x01, 1, 2])
    assert data[HDR + 9:] == out + struct.pack("<I", crc32(struct.pack("<I", 2), crc32(out)))
