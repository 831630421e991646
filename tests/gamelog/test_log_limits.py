"""The log's numbers pinned exactly (issue 8, "Tests that would notice"): where a segment
rolls, how much room an append needs, the clock it falls back to, the seq after salvage, and
the names quarantined files get (never one already taken, never deleted)."""
import os

from logkit import fresh, log, read, write, names, seg, size, SEAT, LFS
from gamelog import GAP, INPUT, LogFull
from gamelog.fmt import HDR

TID = b"TABLE-01"


def _now_ms():
    try:
        from time import ticks_ms
        return ticks_ms()
    except ImportError:
        from time import monotonic
        return int(monotonic() * 1000)


def test_a_new_log_numbers_from_1_and_its_clock_is_ms_since_boot():
    p = fresh()
    lg = log(p, table_id=TID)
    assert lg.next_seq == 1
    a = _now_ms()
    assert lg.append((SEAT, 1, 0)) == 1
    b = _now_ms()
    r = list(lg.read_from(1))[0]
    assert a <= r[2] <= b and r[3] is False, (a, r, b)


def test_a_segment_rolls_once_its_bytes_reach_seg_max():
    # a blob of 4 payload bytes is 11 bytes (type, length, time, payload, crc32)
    for extra, segs in ((0, 2), (1, 1)):
        p = fresh()
        lg = log(p, table_id=TID, seg_max=HDR + 11 + extra)
        lg.record(9, b"abcd", 100)
        assert size(seg(p)) == HDR + 11
        lg.append((SEAT, 1, 0), 100)
        assert len(lg.segments()) == segs, extra
    # an input record: seat press 9 bytes
    for extra, segs in ((0, 2), (1, 1)):
        p = fresh()
        lg = log(p, table_id=TID, seg_max=HDR + 9 + extra)
        lg.append((SEAT, 1, 0), 100)
        lg.record(9, b"abcd", 100)
        assert len(lg.segments()) == segs, extra


def _one_press_and_room(room):
    """A log holding one seat press, its limit `room` bytes above what that uses."""
    lg = log(fresh(), table_id=TID)
    lg.append((SEAT, 1, 0), 100)
    lg.limit = 10 ** 6
    lg.limit = lg.usage()[0] + room
    return lg


def test_an_append_fits_a_limit_to_the_byte():
    for need, blob in ((9, None), (11, b"abcd")):
        for slack, ok in ((0, True), (-1, False)):
            lg = _one_press_and_room(need + slack)
            try:
                if blob is None:
                    got = lg.append((SEAT, 2, 0), 101)
                else:
                    got = lg.record(9, blob, 101)
                assert ok and got == 2, (need, slack)
            except LogFull:
                assert not ok, (need, slack)
    # a new segment needs its header too
    p = fresh()
    lg = log(p, table_id=TID)
    lg.limit = HDR + 9
    assert lg.append((SEAT, 1, 0), 100) == 1
    p = fresh()
    lg = log(p, table_id=TID)
    lg.limit = HDR + 8
    try:
        lg.append((SEAT, 1, 0), 100)
        assert False, "appended past the limit"
    except LogFull:
        pass
    assert names(p) == []


def test_a_snapshot_fits_a_limit_to_the_byte_with_its_new_segments_header():
    for slack, ok in ((0, True), (-1, False)):
        lg = _one_press_and_room(HDR + 11 + slack)   # the blob's 11 bytes, as record() above
        try:
            assert lg.snapshot(b"abcd", 101) == 2 and ok
            assert len(lg.segments()) == 2
        except LogFull:
            assert not ok
        assert lg.usage()[0] <= lg.limit
        lg.close()


def _presses(p, seg_max=40, n=6):
    """n seat presses of 9 bytes, three a segment (seg_max 27 or 40): the segments' bases
    (n = 6: seqs 1..3 in segment 1, 4..6 in segment 4)."""
    lg = log(p, table_id=TID, seg_max=seg_max + HDR)
    for i in range(n):
        lg.append((SEAT, 1 + i, 0), 100 + i)
    lg.close()
    return [b for b, _ in lg.segments()]


def _break_header(path):
    b = bytearray(read(path))
    b[5] ^= 3                             # two bits: the header cannot be mended
    write(path, b)


def test_seq_after_a_quarantined_newest_segment_is_past_all_it_can_have_held():
    p = fresh()
    bases = _presses(p, 27)          # 3 presses a segment
    assert bases == [1, 4]
    last = p + "/0000000004.log"
    n = size(last)
    _break_header(last)
    lg = log(p, table_id=TID)
    snap, ins, nxt = lg.recover()
    assert ins == [(SEAT, 1, 0), (SEAT, 2, 0), (SEAT, 3, 0)]
    # the damaged file's bytes could have held n // 7 records from seq 4 on
    assert lg.damage == [(4, 4 + n // 7 - 1, "damaged")], lg.damage
    assert nxt == 4 + n // 7
    assert lg.append((SEAT, 9, 0), 200) == nxt
    assert "0000000004.log.bad" in names(p) and "%010d.log" % nxt in names(p)
    got = list(lg.read_from(1))
    assert got[3][:4] == (4, GAP, nxt - 1, "damaged"), got
    assert got[4][:2] == (nxt, INPUT)


def test_a_name_already_quarantined_gets_a_number_and_nothing_is_deleted():
    p = fresh()
    _presses(p, 27)
    last = p + "/0000000004.log"
    _break_header(last)
    broken = read(last)
    want = ["0000000004.log.bad", "0000000004.log.1.bad", "0000000004.log.2.bad"]
    nxt = 0
    for k in range(3):
        write(last, broken)               # the same file put back, again and again
        lg = log(p, table_id=TID)
        nxt2 = lg.recover()[2]
        assert nxt2 >= nxt
        nxt = nxt2
        lg.close()
        have = names(p)
        for w in want[:k + 1]:
            assert w in have, (k, have)
            assert read(p + "/" + w) == broken
        assert "0000000004.log" not in have
    assert "0000000001.log" in names(p)


def test_a_lost_newest_segment_moves_seq_past_what_it_could_have_held():
    p = fresh()
    seg_max = 27
    _presses(p, seg_max)
    os.remove(p + "/0000000004.log")
    lg = log(p, table_id=TID, seg_max=seg_max + HDR)
    snap, ins, nxt = lg.recover()
    # the marks remember segment 4 was made: a whole segment's worth is reported missing
    top = 4 + (seg_max + HDR + 64) // 7 - 1
    assert lg.damage == [(4, top, "missing")], lg.damage
    assert nxt == top + 1
    assert lg.append((SEAT, 9, 0), 200) == nxt


def test_a_durable_log_syncs_every_write_and_a_fast_one_never():
    # fsync per file where the OS has it (CPython), else os.sync (MicroPython ports with it)
    import gamelog.log as L
    keep = L._fsync, L._sync
    calls = []
    try:
        import sys
        cases = ((True, True, "f"), (False, True, "s"), (True, False, ""), (False, False, ""))
        if sys.implementation.name == "micropython":      # its files have no fileno()
            cases = (cases[1], cases[3])
        for fs, durable, want in cases:
            del calls[:]
            L._fsync = (lambda fd: calls.append("f")) if fs else None
            L._sync = lambda: calls.append("s")
            p = fresh()
            lg = log(p, table_id=TID, durable=durable)
            lg.append((SEAT, 1, 0), 100)              # a new segment (and the marks)
            n = len(calls)
            lg.append((SEAT, 2, 0), 101)              # an append to it
            lg.record(9, b"x", 102)
            lg.close()
            assert calls[n:] == [want] * 2 if want else calls == [], (fs, durable, calls)
            assert n >= (1 if want else 0)
    finally:
        L._fsync, L._sync = keep


def test_the_marks_keep_a_quarantined_range_and_its_cause_across_boots():
    p = fresh()
    _presses(p, 27)
    last = p + "/0000000004.log"
    n = size(last)
    _break_header(last)
    lg = log(p, table_id=TID)
    nxt = lg.recover()[2]
    lg.append((SEAT, 9, 0), 200)
    lg.close()
    text = read(p + "/marks")
    assert b"gap 4 %d damaged\n" % (nxt - 1) in text and b"hw %d\n" % nxt in text, text
    lg = log(p, table_id=TID)             # a later boot: the .bad file is not read again
    assert lg.recover()[2] == nxt + 1 and lg.damage == [(4, nxt - 1, "damaged")]
    got = list(lg.read_from(1))
    assert [g[:4] for g in got if g[1] == GAP] == [(4, GAP, nxt - 1, "damaged")], got
    assert 4 + n // 7 == nxt


def test_marks_with_a_wrong_crc_are_not_believed():
    p = fresh()
    _presses(p, 27)
    lg = log(p, table_id=TID)
    assert lg.recover()[2] == 7
    lg.close()
    text = read(p + "/marks")
    assert text.startswith(b"hw 4\n"), text
    forged = text.replace(b"hw 4\n", b"hw 9\n")           # the crc line kept as it was
    write(p + "/marks", forged)
    lg = log(p, table_id=TID)
    assert lg.recover()[2] == 7 and lg.damage == []       # not: segment 9 made, now missing
    lg.close()
    write(p + "/marks", text)
    lg = log(p, table_id=TID)
    assert lg.recover()[2] == 7 and lg.damage == []


def test_with_no_table_id_the_id_most_segments_carry_is_the_tables():
    from gamelog.fmt import header
    p = fresh()
    _presses(p, 27)                  # TABLE-01: segments 1 and 4
    lg = log(p)
    assert lg.recover()[2] == 7 and lg.table_id == TID and lg.damage == []
    assert len([g for g in lg.read_from(1) if g[1] == INPUT]) == 6
    # one segment of another table beside ours: ours wins; a tie: the larger id
    for other, win in ((b"AAAAAAAA", TID), (b"ZZZZZZZZ", b"ZZZZZZZZ")):
        p = fresh()
        _presses(p, 27)
        data = bytearray(read(p + "/0000000004.log"))
        header(data, 4, 103, False, other, bytes(data[24:56]))
        write(p + "/0000000004.log", data)
        lg = log(p)
        lg.recover()
        assert lg.table_id == win, (other, lg.table_id)
        assert [g[2] for g in lg.damage] == ["foreign"]


def test_the_two_newest_segments_lost_are_both_reported_missing():
    p = fresh()
    seg_max = 27
    assert _presses(p, seg_max, 9) == [1, 4, 7]
    os.remove(p + "/0000000004.log")
    os.remove(p + "/0000000007.log")
    lg = log(p, table_id=TID, seg_max=seg_max + HDR)
    nxt = lg.recover()[2]
    top = 7 + (seg_max + HDR + 64) // 7 - 1
    assert lg.damage == [(4, 6, "missing"), (7, top, "missing")], lg.damage
    assert nxt == top + 1


def test_sync_reads_past_damage_but_never_moves_a_file():
    # read_from (sync) reports a broken or foreign segment met after boot; only recover()
    # sets files aside.
    from gamelog.fmt import header
    p = fresh()
    _presses(p, 27)
    lg = log(p, table_id=TID)
    lg.recover()
    _break_header(p + "/0000000001.log")
    data = bytearray(read(p + "/0000000004.log"))
    header(data, 4, 103, False, b"OTHER-99", bytes(data[24:56]))
    before = names(p)
    got = list(lg.read_from(1))
    assert names(p) == before
    assert [g[:4] for g in got if g[1] == GAP] == [(1, GAP, 3, "damaged")], got
    assert [g[0] for g in got if g[1] != GAP] == [4, 5, 6]
    write(p + "/0000000004.log", data)
    got = list(lg.read_from(4))
    assert names(p) == before
    assert [g[:4] for g in got] == [(4, GAP, 6, "foreign")], got


def test_a_big_text_blob_that_is_not_utf8_is_bad():
    import struct
    from binascii import crc32
    from gamelog.fmt import Reader, OK, F_X
    p = fresh()
    lg = log(p, table_id=TID)
    payload = b"\xff\xfe" * 400
    lg.record(12, payload, 100)
    lg.append((SEAT, 1, 0), 101)
    lg.close()
    b = bytearray(read(seg(p)))
    b[HDR] |= F_X                         # say it is text; its CRC made right again
    j = HDR + 1 + 2 + 1
    c = crc32(struct.pack("<I", 1), crc32(bytes(b[HDR:j + len(payload)])))
    b[j + len(payload):j + len(payload) + 4] = struct.pack("<I", c)
    write(seg(p), b)
    rd = Reader()
    with open(seg(p), "rb") as f:
        assert rd.start(f, 1, TID) == OK
        assert rd.next() == 3                                     # BAD
    got = list(lg.read_from(1))
    assert [g[:2] for g in got] == [(1, GAP), (2, INPUT)], got


def test_a_gap_takes_the_cause_of_the_range_it_overlaps_only():
    from gamelog.fmt import header
    p = fresh()
    seg_max = 27
    _presses(p, seg_max, 9)
    # another table's segment dropped in far away (quarantined as foreign, 100..102) ...
    data = bytearray(read(p + "/0000000001.log"))
    header(data, 100, 100, False, b"OTHER-99", bytes(data[24:56]))
    write(p + "/0000000100.log", data)
    lg = log(p, table_id=TID, seg_max=seg_max + HDR)
    lg.recover()
    assert lg.damage == [(100, 100, "foreign")], lg.damage   # its records read as damage
    assert lg.next_seq == 101                 # past every gap the host may store, theirs too
    lg.close()
    # ... then our middle segment deleted: its gap is missing, not foreign
    os.remove(p + "/0000000004.log")
    lg = log(p, table_id=TID, seg_max=seg_max + HDR)
    lg.recover()
    assert (4, 6, "missing") in lg.damage, lg.damage
    got = [g[:4] for g in lg.read_from(1) if g[1] == GAP]
    assert got[0] == (4, GAP, 6, "missing"), got


def _presses_and_head(lg, n):
    # n seat presses appended; the chain head after them, worked out apart from the log
    from gamelog.chain import GENESIS, step
    h = GENESIS
    for i in range(n):
        lg.append((SEAT, 1 + i, 0), 100 + i)
        h = step(h, 1 + i, 100 + i, False, (SEAT, 1 + i, 0))
    return h


def test_head_of_a_log_not_yet_recovered_is_its_chain_head():
    p = fresh()
    lg = log(p, table_id=TID)
    h = _presses_and_head(lg, 4)
    lg.record(9, b"x", 200)
    lg.close()
    lg = log(p, table_id=TID)
    assert lg.head() == (4, h)


def test_replay_records_give_seq_time_clock_and_input():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SEAT, 1, 0), 100)
    lg.snapshot("s", 150)
    lg.append((SEAT, 2, 1), 170)
    lg.append((SEAT, 3, 0), 1700000000, True)
    lg.close()
    lg = log(p, table_id=TID)
    assert list(lg.replay_records()) == [(3, 170, False, (SEAT, 2, 1)),
                                         (4, 1700000000, True, (SEAT, 3, 0))]


def test_records_appended_while_a_sync_reads_are_no_gap():
    p = fresh()
    lg = log(p, table_id=TID)
    for i in range(3):
        lg.append((SEAT, 1 + i, 0), 100 + i)
    got = []
    for r in lg.read_from(1):
        got.append(r[:2])
        if r[0] == 3:
            lg.append((SEAT, 9, 0), 200)      # the table goes on while the host syncs
    assert (4, GAP) not in got and [g for g in got if g[1] == GAP] == [], got
    assert got[:3] == [(1, INPUT), (2, INPUT), (3, INPUT)]


def test_a_sync_from_inside_the_newest_of_several_segments():
    p = fresh()
    assert _presses(p, 27, 9) == [1, 4, 7]
    lg = log(p, table_id=TID, seg_max=27 + HDR)
    lg.recover()
    for seq, want in ((9, [9]), (8, [8, 9]), (7, [7, 8, 9]), (5, [5, 6, 7, 8, 9]), (10, [])):
        assert [r[0] for r in lg.read_from(seq)] == want, seq
    lg.close()


def test_the_high_water_mark_is_the_newest_segment_even_with_the_marks_lost():
    # Marks gone, the boot takes the newest segment's base as the high-water mark; a prune
    # writes it. Then the newest segment lost: its seqs are missing, never given again.
    p = fresh()
    lg = log(p, table_id=TID, seg_max=27 + HDR)
    for i in range(3):
        lg.append((SEAT, 1 + i, 0), 100 + i)
    lg.snapshot("s", 200)                     # seq 4 starts the segment recovery reads from
    for i in range(6):
        lg.append((SEAT, 1 + i, 0), 300 + i)  # seqs 5..10, over more segments
    bases = [b for b, _ in lg.segments()]
    lg.close()
    assert bases[:2] == [1, 4] and len(bases) >= 3
    os.remove(p + "/marks")
    lg = log(p, table_id=TID, seg_max=27 + HDR)
    lg.recover()
    assert lg.prune(3) == 1                   # writes the marks again, the high-water mark too
    lg.close()
    os.remove(p + "/%010d.log" % bases[-1])
    lg = log(p, table_id=TID, seg_max=27 + HDR)
    snap, ins, nxt = lg.recover()
    assert [g[2] for g in lg.damage] == ["missing"] and lg.damage[0][0] == bases[-1], lg.damage
    assert nxt > 10
    lg.close()


def test_usage_without_a_limit_is_the_filesystems():
    p = fresh()
    lg = log(p, table_id=TID)
    lg.append((SEAT, 1, 0), 100)
    st = os.statvfs(p)
    assert lg.usage() == ((st[2] - st[3]) * st[1], st[2] * st[1])


class _Statvfs:
    """os as usage() sees it: statvfs gives (bsize, frsize, blocks, bfree, bavail, ...)."""

    def __init__(self, blocks, bfree):
        self.st = (4096, 4096, blocks, bfree, bfree, 0, 0, 0, 0, 255)

    def statvfs(self, path):
        return self.st


def test_usage_of_an_empty_and_of_an_over_full_filesystem():
    import gamelog.log as mod
    lg = log(fresh(), table_id=TID)
    real = mod.os
    try:
        for blocks, bfree, used in ((100, 100, 0), (100, 40, 60), (100, 0, 100),
                                    (100, 101, 100), (100, 2 ** 32 - 3, 100)):
            mod.os = _Statvfs(blocks, bfree)      # (littlefs wraps bfree when over-full)
            assert lg.usage() == (used * 4096, 100 * 4096), (blocks, bfree)
    finally:
        mod.os = real


def test_damage_at_the_end_of_a_segment_is_one_gap_and_seq_moves_past_it():
    p = fresh()
    _presses(p, 27)                  # 1..3 and 4..6, 9 bytes each
    for name, s in (("0000000001.log", 3), ("0000000004.log", 6)):
        b = bytearray(read(p + "/" + name))
        good = bytes(b)
        b[HDR + 18 + 2] ^= 0x40           # the segment's last record
        write(p + "/" + name, b)
        lg = log(p, table_id=TID)
        nxt = lg.recover()[2]
        assert lg.damage == [(s, s, "damaged")] and nxt == 7, (lg.damage, nxt)
        if s == 6:
            assert lg.append((SEAT, 9, 0), 300) == 7
        lg.close()
        for n in names(p):
            if n not in ("0000000001.log", "0000000004.log", "marks"):
                os.remove(p + "/" + n)
        write(p + "/" + name, good)


def test_head_after_a_snapshot_with_no_input_yet():
    p = fresh()
    lg = log(p, table_id=TID)
    h = _presses_and_head(lg, 3)
    lg.snapshot("s", 200)
    lg.close()
    lg = log(p, table_id=TID)
    assert lg.head() == (3, h)


def test_a_record_in_two_segments_is_served_once():
    # a segment that runs into the next one's seqs: the next one counts
    p = fresh()
    lg = log(p, table_id=TID)
    for i in range(4):
        lg.append((SEAT, 1 + i, 0), 100 + i)
    lg.close()
    four = read(p + "/0000000001.log")
    p = fresh()
    _presses(p, 27)
    write(p + "/0000000001.log", four)    # seqs 1..4, and 4..6 in the next
    lg = log(p, table_id=TID)
    lg.recover()
    got = [g[:2] for g in lg.read_from(1)]
    assert got == [(s, INPUT) for s in range(1, 7)], got


def test_damage_over_a_segments_last_two_records_is_one_gap():
    p = fresh()
    _presses(p, 27)
    b = bytearray(read(p + "/0000000001.log"))
    b[HDR + 9 + 2] ^= 0x40
    b[HDR + 18 + 2] ^= 0x40
    write(p + "/0000000001.log", b)
    lg = log(p, table_id=TID)
    assert lg.recover()[2] == 7
    assert lg.damage == [(2, 3, "damaged")], lg.damage


class _Fails:
    """The open segment's file, failing every write with e (a flash that says no)."""

    def __init__(self, e):
        self.e = e

    def write(self, b):
        raise self.e

    def flush(self):
        pass

    def close(self):
        pass


def test_only_a_no_space_error_is_log_full_and_any_other_passes_as_it_is():
    for e, want in ((OSError(28), LogFull), (OSError(5), OSError), (OSError(), OSError),
                    (ValueError(28), ValueError), (MemoryError(), MemoryError)):
        lg = log(fresh())
        lg.recover()
        assert lg.append((SEAT, 1, 0), 100) == 1
        lg._f = _Fails(e)
        try:
            lg.append((SEAT, 2, 0), 200)
        except Exception as got:
            assert type(got) is want and (want is LogFull or got is e), (e, got)
        else:
            raise AssertionError(e)
        assert lg.append((SEAT, 2, 0), 300) == 2      # recovered: the cut write left nothing
        lg.close()


def test_a_snapshot_or_record_first_after_boot_recovers_before_it_writes():
    for first in ("snapshot", "record"):
        p = fresh()
        lg = log(p, table_id=TID)
        lg.recover()
        for i in range(3):
            lg.append((SEAT, i + 1, 0), 100 + i)
        lg.close()
        lg = log(p, table_id=TID)                 # no recover(): the blob's call does it
        if first == "snapshot":
            assert lg.snapshot("s", 500) == 4
        else:
            assert lg.record(9, b"x", 500) == 4
        assert lg.append((SEAT, 4, 0), 600) == 5
        assert [r[0] for r in lg.read_from(1)] == [1, 2, 3, 4, 5]
        lg.close()
