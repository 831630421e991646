"""SPEC 6: a power cut at any moment loses at most the record being written; damage is reported."""
from check import raises
from logkit import (recovered, fresh, log, fill, inputs, records, seg, size, read, write, flip,
                    names, PAD, SEAT, SHUFFLE, TICK, UID, LFS, disk, reboot)
from gamelog import Corrupt, OUTCOME


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


def test_cut_at_every_byte_offset_of_the_last_records():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    for cut in range(starts[0], len(data) + 1):   # every byte after the snapshot
        write(path, data[:cut])
        whole = 0
        while whole + 1 < len(starts) and starts[whole + 1] <= cut:
            whole += 1                    # records wholly inside the cut
        lg = log(p)
        snap, got, nxt = lg.recover()
        n = min(whole, len(ins))
        assert snap == b'{"round":2}', cut
        assert got == ins[:n], cut
        assert nxt == 6 + 1 + whole + 1, cut
        assert size(path) == starts[whole], cut     # the torn bytes are gone from flash
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
    for cut in range(0, len(data)):       # header included (a non-atomic filesystem)
        write(path, data[:cut])
        lg = log(p)
        assert lg.recover() == (None, first, 6), cut
        assert lg.append((SEAT, 1, 0), 6000) == 6
        lg.close()
        assert recovered(p) == (None, first + [(SEAT, 1, 0)], 7), cut


def test_a_damaged_byte_in_the_last_record_drops_only_that_record():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    a, b = starts[-3], starts[-2]         # the last input record (SEAT 10)
    for at in range(a, b):
        for mask in (0xFF, 0x01, 0x80):
            bad = bytearray(data[:b])
            bad[at] ^= mask
            write(path, bad)
            lg = log(p)
            snap, got, nxt = lg.recover()
            assert got == ins[:-1] and nxt == 13, (at, mask)
            assert size(path) == a
            assert lg.append((SEAT, 3, 0), 1) == 13
            lg.close()


def test_damage_in_the_middle_is_reported_and_nothing_is_changed():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    for at in (starts[1], starts[1] + 2, starts[2] - 1):   # length, time, crc of PAD, seq 9
        bad = bytearray(data)
        bad[at] ^= 0x55
        write(path, bad)
        e = raises(Corrupt, log(p).recover)
        assert e.seq == 9 and e.offset == starts[1] and e.name == path, at
        assert read(path) == bad          # nothing cut
        e = raises(Corrupt, records, log(p))
        assert e.seq == 9


def test_a_length_byte_claiming_past_the_end_is_still_found_in_the_middle():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    bad = bytearray(data)
    bad[starts[5]] = 40                   # SEAT 10 (seq 13) claims a plausible 40-byte body
    write(path, bad)
    e = raises(Corrupt, log(p).recover)
    assert e.seq == 13 and e.offset == starts[5]
    bad[starts[0]] = 0x7F                 # an implausible length in the middle
    write(path, bad)
    assert raises(Corrupt, log(p).recover).seq == 8


def test_salvage_keeps_the_good_prefix_sets_the_damage_aside_and_skips_its_seqs():
    p = fresh()
    ins, data, starts = _round(p)
    path = seg(p)
    bad = bytearray(data)
    bad[starts[2] + 1] ^= 0x10            # TICK record, seq 10
    write(path, bad)
    lg = log(p)
    snap, got, nxt = lg.recover(salvage=True)
    assert snap == b'{"round":2}' and got == ins[:2]
    assert lg.damage.seq == 10
    assert path.split("/")[-1] + ".bad" in names(p)
    assert read(path + ".bad") == bad
    assert nxt > 13                       # above any seq the damaged tail could hold
    assert lg.append((SEAT, 5, 0), 1) == nxt
    lg.close()
    lg = log(p)
    assert lg.recover() == (snap, ins[:2] + [(SEAT, 5, 0)], nxt + 1)
    assert [r[0] for r in records(lg)] == list(range(1, 10)) + [nxt]


def test_leftover_temp_files_are_removed():
    p = fresh()
    lg = log(p)
    fill(lg, inputs(3))
    lg.close()
    write(p + "/seg.tmp", b"half a segment")
    write(p + "/cut.tmp", b"half a rewrite")
    assert recovered(p)[2] == 4
    assert [n for n in names(p) if n.endswith(".tmp")] == []


def test_damage_in_an_older_segment_of_the_round_is_reported():
    p = fresh()
    lg = log(p, seg_max=100)
    lg.snapshot(b"s", 1)
    fill(lg, inputs(30))
    lg.close()
    flip(seg(p, 1), 20)
    raises(Corrupt, log(p).recover)


def test_power_cut_at_every_flash_write_of_an_append_and_a_snapshot():
    # littlefs commits a flush atomically: after a cut at any block write the log holds the
    # record or not, never garbage. (MicroPython only: the RAM disk is a littlefs device.)
    if not LFS:
        return
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
        return
    p = fresh()
    lg = log(p, seg_max=400)
    last = 0
    try:
        for i in range(5000):
            if i % 60 == 0:
                lg.snapshot(b"s" * 100, i)
            lg.append(inputs(1, i)[0], 1000 + i)
            last = lg.next_seq - 1
    except OSError:
        pass
    assert 0 < last < 5000
    lg = log(p, seg_max=400)
    snap, n, nxt = lg.recover(collect=False)
    assert nxt == last + 1
    k = 0
    for r in lg.read_from(1):
        k += 1
        assert r[0] == k
    assert k == last
    assert lg.prune(last) > 0             # the host synced: room again
    assert lg.append((SEAT, 1, 0), 1) == nxt
