"""SPEC 6: a power cut at any moment loses at most the record being written; damage is reported
and stepped over (issue 8), never a reason not to boot."""
from logkit import (recovered, fresh, log, fill, inputs, records, seg, size, read, write, flip,
                    names, PAD, SEAT, SHUFFLE, TICK, UID, LFS, disk, reboot)
from gamelog import OUTCOME, GAP, LogFull
from check import skip
MINREC = 7                                # the smallest record (docs/log.md)


def _round(p):
    """A log of two rounds; returns (the inputs after the last snapshot, the bytes of the last
    segment, starts) where starts[k] is where the k-th record after the snapshot begins and
    starts[-1] the end of the file."""
    lg = log(p)
    fill(lg, inputs(6))
    lg.snapshot(b'{"round":2}', 5000)
    starts = [size(seg(p))]
    ins = [(SEAT, 2, 1), (PAD, UID), (TICK, 300), (SHUFFLE,), (PAD, bytes([4, 5, 6, 7])),
           (SEAT, 10, 0)]
    for i, inp in enumerate(ins):
        lg.append(inp, 6000 + 700 * i)
        starts.append(size(seg(p)))
    lg.record(OUTCOME, b"\x09" * 8, 9000)
    starts.append(size(seg(p)))
    lg.close()
    return ins, read(seg(p)), starts


def _reset(p, keep):
    """Remove what the last case added (appends after damage go to a new segment)."""
    import os
    for n in names(p):
        if n not in keep:
            os.remove(p + "/" + n)
    for n in keep:
        write(p + "/" + n, keep[n])



def _keep(p):
    return dict((n, read(p + "/" + n)) for n in names(p))


def _gaps(lg, seq=1):
    return [r for r in lg.read_from(seq) if r[1] == GAP]


def test_cut_at_every_byte_offset_of_the_last_records():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    keep = _keep(p)
    for cut in range(starts[0], len(data) + 1):   # every byte after the snapshot
        _reset(p, keep)
        write(path, data[:cut])
        whole = 0
        while whole + 1 < len(starts) and starts[whole + 1] <= cut:
            whole += 1                    # records wholly inside the cut
        lg = log(p)
        snap, got, nxt = lg.recover()
        n = min(whole, len(ins))
        first = 6 + 1 + whole + 1         # the seq of the cut record
        assert snap == b'{"round":2}', cut
        assert got == ins[:n], cut
        if cut == starts[whole]:          # a log that ends at a record: nothing to report
            assert nxt == first and lg.damage == [], cut
        else:                             # torn bytes: their seqs are never given again
            left = cut - starts[whole]
            g = (first, first + max(1, left // MINREC) - 1, "damaged")
            assert lg.damage == [g] and nxt == g[1] + 1, cut
            assert _gaps(lg) == [(g[0], GAP, g[1], g[2], None, None)], cut
        assert read(path) == data[:cut]   # nothing on flash rewritten
        assert lg.append((SEAT, 7, 0), 20000) == nxt
        lg.close()
        snap, got2, nxt2 = recovered(p)
        assert got2 == ins[:n] + [(SEAT, 7, 0)] and nxt2 == nxt + 1, cut


def test_cut_inside_the_snapshot_falls_back_to_the_previous_round():
    p = fresh()
    lg = log(p)
    first = inputs(5)
    fill(lg, first)
    lg.snapshot(b"S" * 40, 5000)
    lg.close()
    path = seg(p)
    data = read(path)
    keep = _keep(p)
    for cut in range(0, len(data)):       # header included (a non-atomic filesystem)
        _reset(p, keep)
        write(path, data[:cut])
        lg = log(p)
        snap, got, nxt = lg.recover()
        assert (snap, got) == (None, first), cut
        if cut == 60:                     # a whole header, no record: a log that ends there
            assert nxt == 6 and lg.damage == []
        else:
            assert nxt >= 7 and lg.damage and lg.damage[0][0] == 6, cut
        assert lg.append((SEAT, 1, 0), 6000) == nxt
        lg.close()
        assert recovered(p) == (None, first + [(SEAT, 1, 0)], nxt + 1), cut
        lg = log(p)
        lg.recover()
        assert [r[0] for r in lg.read_from(1) if r[1] != GAP] == [1, 2, 3, 4, 5, nxt]
        lg.close()                        # before the next case rewrites its files


def test_a_damaged_last_record_is_reported_and_its_seq_not_reused():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    a, b = starts[-3], starts[-2]         # the last input record (SEAT 10, seq 13)
    keep = _keep(p)
    for at in range(a, b):
        for mask in (0xFF, 0x01, 0x80):
            _reset(p, keep)
            bad = bytearray(data[:b])
            bad[at] ^= mask
            write(path, bad)
            lg = log(p)
            snap, got, nxt = lg.recover()
            assert got == ins[:-1], (at, mask)
            assert lg.damage[0][0] == 13 and nxt == lg.damage[0][1] + 1 > 13, (at, mask)
            assert lg.append((SEAT, 3, 0), 1) == nxt
            lg.close()


def test_damage_in_the_middle_is_stepped_over_and_reported():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    keep = _keep(p)
    for at in (starts[1], starts[1] + 2, starts[2] - 1):   # type, time, crc of PAD, seq 9
        _reset(p, keep)
        bad = bytearray(data)
        bad[at] ^= 0x55
        write(path, bad)
        lg = log(p)
        snap, got, nxt = lg.recover()
        assert got == [ins[0]] + ins[2:], at      # the intact inputs after it replay too
        assert lg.damage == [(9, 9, "damaged")] and nxt == 15
        assert _gaps(lg) == [(9, GAP, 9, "damaged", None, None)]
        assert [r[0] for r in lg.read_from(1) if r[1] != GAP] == [1, 2, 3, 4, 5, 6, 7, 8, 10,
                                                                  11, 12, 13, 14]
        assert read(path) == bad          # nothing rewritten
        assert lg.append((SEAT, 1, 0), 1) == 15
        lg.close()


def test_a_length_claiming_past_the_end_in_the_middle_is_found():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    bad = bytearray(data)
    bad[starts[-2]] = 0x09                # the outcome record: type kept
    bad[starts[-2] + 1] = 0x7F            # a length past the end of the file
    write(path, bad)
    lg = log(p)
    assert lg.recover() == (b'{"round":2}', ins, 16)
    assert lg.damage == [(14, 15, "damaged")]    # 15 bytes could have held two records


def test_leftover_temp_files_are_removed():
    p = fresh()
    lg = log(p)
    fill(lg, inputs(3))
    lg.close()
    write(p + "/seg.tmp", b"half a segment")
    write(p + "/cut.tmp", b"half a rewrite")
    assert recovered(p)[2] == 4
    assert [n for n in names(p) if n.endswith(".tmp")] == []


def test_damage_in_an_older_segment_of_the_round_is_stepped_over():
    p = fresh()
    lg = log(p, seg_max=100)
    lg.snapshot(b"s", 1)
    fill(lg, inputs(30))
    lg.close()
    flip(seg(p, 1), 70)
    lg = log(p, seg_max=100)
    snap, got, nxt = lg.recover()
    assert snap == b"s" and len(got) == 29 and nxt == 32
    assert len(lg.damage) == 1 and lg.damage[0][2] == "damaged"


def test_power_cut_at_every_flash_write_of_an_append_and_a_snapshot():
    # littlefs commits a flush atomically: after a cut at any block write the log holds the
    # record or not, never garbage. (MicroPython only: the RAM disk is a littlefs device.)
    if not LFS:
        return skip("needs the littlefs RAM disk (runs under micropython in make test-mp)")
    for what in ("append", "snapshot", "roll"):
        k = 0
        while True:
            p = fresh()
            lg = log(p, seg_max=120)
            lg.snapshot(b"r1", 1)
            fill(lg, inputs(7))
            d = disk()
            d.progs = 0
            d.cut = k
            try:                          # littlefs notices its lost writes: OSError
                if what == "append":
                    lg.append((PAD, UID), 9000)
                elif what == "snapshot":
                    lg.snapshot(b"r2" * 10, 9000)
                else:
                    fill(lg, inputs(3, 7), 9000)
            except OSError:
                pass
            done = d.progs <= k
            lg.close()
            reboot()
            lg = log(p)
            snap, got, nxt = lg.recover()
            assert lg.damage == [], (what, k)
            if what == "append":
                assert snap == b"r1" and got in (inputs(7), inputs(7) + [(PAD, UID)]), k
            elif what == "snapshot":
                assert (snap, got, nxt) in ((b"r1", inputs(7), 9), (b"r2" * 10, [], 10)), k
            else:
                assert snap == b"r1" and got == inputs(10)[:nxt - 2], k
                assert nxt >= 9, k
            assert lg.append((SEAT, 1, 0), 9999) == nxt
            lg.close()
            if done:
                break
            k += 1
        assert k > 0


def test_a_full_filesystem_refuses_the_append_and_keeps_the_log():
    if not LFS:                           # needs the small RAM disk to fill up
        return skip("needs the littlefs RAM disk (runs under micropython in make test-mp; "
                    "test_log_faults covers CPython)")
    p = fresh()
    lg = log(p, seg_max=400)
    last = 0
    full = None
    try:
        for i in range(5000):
            if i % 60 == 0:
                lg.snapshot(b"s" * 100, i)
            lg.append(inputs(1, i)[0], 1000 + i)
            last = lg.next_seq - 1
    except LogFull as e:
        full = e
    assert full is not None and full.args[0] == 28
    assert 0 < last < 5000
    u, tot = lg.usage()
    assert 0 < u <= tot
    lg = log(p, seg_max=400)
    snap, n, nxt = lg.recover(collect=False)
    assert nxt == last + 1 and lg.damage == []
    k = 0
    for r in lg.read_from(1):
        k += 1
        assert r[0] == k
    assert k == last
    assert lg.prune(last) > 0             # the host synced: room again
    assert lg.append((SEAT, 1, 0), 1) == nxt
