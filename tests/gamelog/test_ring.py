"""Issue 9 item 4: the log on a NOR ring (gamelog.ring) keeps every guarantee of issue 8, and
appending never erases. Faults on the NOR fake: bit flips, sectors zeroed or erased, another
table's sector, a power cut at every program and erase of a round and of a wrap-around, a full
ring. The oracle is faultkit.check: boot succeeds, every intact record is read, every lost one
is in a gap, seq never goes back, the state is the newest intact snapshot plus what follows."""
import struct
import sys
from binascii import crc32

from logkit import inputs, SEAT, PAD, SHOE, TICK, UID
from faultkit import check, expect
from ringkit import chip, log, night, layout, boot, lost_at, scenario, TID, SS, NSEC, SEG
from gamelog import GAP, LogFull, SNAP, INPUT
from gamelog.nor import Nor
from gamelog.ring import RingLog, H

MP = sys.implementation.name == "micropython"


def _check(recs, lost, res, causes=("damaged", "missing")):
    gaps = [g for g in res[2] if g[1] == GAP]
    c = gaps[0][3] if gaps else causes[0]
    assert c in causes, gaps
    # numbering goes on right after the last seq anything holds: a record, or the end of a
    # damage the boot reported
    top = max([r[0] for r in res[2] if r[1] != GAP] + [g[1] for g in res[1]] + [recs[-1][0]])
    assert res[0][2] == top + 1, (res[0][2], top, res[1])
    return check(recs, lost, c, res)


def test_every_input_shape_and_record_reads_back():
    d = chip()
    lg = log(d)
    lg.recover()
    ins = [(PAD, UID), (SHOE, b"\x01\x02\x03\x04"), (SEAT, 3, 1), (4, 2, 0), (5,), (TICK, 1 << 40),
           (7, "stack", 1), (8, 2), (PAD, bytes(range(16))), (9, 4, "\u674e\u4f1f")]
    for i, inp in enumerate(ins):
        assert lg.append(inp, 100 + i) == i + 1
    assert lg.snapshot("x" * 1500, 200) == len(ins) + 1     # spans sectors
    assert lg.record(9, b"\xff" * 9, 300) == len(ins) + 2   # ends in erased-looking bytes
    lg.append((SEAT, 1, 0), 301)
    got = [r[4] for r in lg.read_from(1)]
    assert got == ins + ["x" * 1500, b"\xff" * 9, (SEAT, 1, 0)]
    h = lg.head()
    lg.close()
    lg = log(d)
    snap, after, nxt = lg.recover()
    assert snap == "x" * 1500 and after == [(SEAT, 1, 0)] and nxt == len(ins) + 4
    assert lg.damage == [] and lg.head() == h
    assert d.conflicts == 0


def test_appending_never_erases_when_idle_runs_between_inputs():
    d = Nor(24, 4096)
    lg = RingLog(d, "/tmp/gamelog-ring", table_id=TID)
    lg.recover()
    t = 0
    per_append = 0
    for r in range(4):
        lg.snapshot("s" * 1000, t)
        for inp in inputs(250):
            t += 400
            e = d.erases
            lg.append(inp, t)
            per_append += d.erases - e
            assert lg.idle() in (True, False)
    assert per_append == 0 and lg.late == 0
    assert d.erases / 1000.0 <= 0.02, d.erases
    assert d.conflicts == 0


def test_a_ring_wraps_round_many_times_with_prune():
    d = chip(12)
    lg = log(d, seg_max=600)
    lg.recover()
    t = 0
    want = []
    for r in range(30):
        t += 10
        lg.snapshot('{"r":%d}' % r, t)
        want = []
        for inp in inputs(20, r):
            t += 10
            lg.append(inp, t)
            want.append(inp)
            lg.idle()
        lg.prune(lg.next_seq - 1)
    top = lg.next_seq
    lg.close()
    lg = log(d, seg_max=600)
    snap, ins, nxt = lg.recover()
    assert snap == '{"r":29}' and ins == want and nxt == top and lg.damage == []
    got = list(lg.read_from(1))
    assert got[0][1] == GAP and got[0][3] == "pruned" and got[1][1] == SNAP
    assert d.erases > 2 * 12 and d.conflicts == 0


def test_a_bit_flip_at_every_programmed_byte():
    d = chip()
    recs = night(d)
    image = d.image()
    where, secs = layout(d)
    n = 0
    step = 3 if MP else 1
    for x in range(0, len(image), step):
        if image[x] == 0xFF:
            continue
        b = bytearray(image)
        b[x] ^= 1 << (x % 8)
        d.load(b)
        lost = lost_at(where, x, x + 1)
        _check(recs, lost, boot(d))
        n += 1
    assert n > (200 if MP else 600), n


def test_a_sector_zeroed_or_left_erased():
    d = chip()
    recs = night(d)
    image = d.image()
    where, secs = layout(d)
    for s in sorted(secs):
        for fill in (0x00, 0xFF):
            b = bytearray(image)
            for i in range(s * SS, (s + 1) * SS):
                b[i] = fill
            d.load(b)
            lost = lost_at(where, s * SS, (s + 1) * SS)
            _check(recs, lost, boot(d))
    assert len(secs) >= 4


def test_a_used_sector_whose_use_header_is_broken_loses_only_its_records_and_says_so():
    # The stamp is intact (its serial still orders the ring) but the use header is not: the
    # sector's records are reported lost, the newest one's too (stamps lie beyond it).
    for seg, per in ((SEG, 7), (2000, 60)):       # segments of one sector, of several
        d = chip()
        recs = night(d, rounds=1, per=per, seg_max=seg)
        image = d.image()
        where, secs = layout(d)
        lg = log(d)
        lg._get_marks()
        groups = [lg._groups[b] for b in lg._bases()]
        lg.close()
        assert max(len(g) for g in groups) == (1 if seg == SEG else 2)
        for s in sorted(secs):
            b = bytearray(image)
            for i in (s * SS + 28, s * SS + 33):  # the use header's base and part: 2 bytes
                b[i] ^= 0x5A
            d.load(b)
            parts = [g for g in groups if s in g][0]
            lost = set()
            for x in (parts if parts[0] == s else [s]):   # its header gone: all the segment
                lost |= lost_at(where, x * SS, (x + 1) * SS)
            _check(recs, lost, boot(d, seg_max=seg))


def test_another_tables_sector_is_never_served():
    other = chip()
    lg = log(other, table_id=b"OTHER-99")
    lg.recover()
    for inp in inputs(20):
        lg.append(inp, 5)
    nb = [b for b, _ in lg.segments()][1]       # their sector 0 holds seqs 1 .. nb - 1
    lg.close()
    o = other.image()
    d = chip()
    recs = night(d)
    where, secs = layout(d)
    ahead = max(secs) + 4                     # dropped in past our head: no record of ours there
    b = bytearray(d.image())
    b[ahead * SS:(ahead + 1) * SS] = o[0:SS]
    d.load(b)
    res = boot(d)
    assert [g for g in res[1] if g[2] == "foreign"] == [(1, nb - 1, "foreign")], res[1]
    check(recs, set(), "foreign", res)
    recs.append((recs[-1][0] + 1, INPUT, 99999, False, (SEAT, 1, 0)))    # check() appends it
    res = boot(d)                             # set aside once: reported, not damage again
    assert res[1] == []
    check(recs, set(), "foreign", res)


def test_segments_before_recover_reads_the_chip():
    d = chip()
    night(d)
    lg = log(d)
    before = lg.segments()                    # not recovered: the ring is scanned for it
    lg.recover()
    assert before == lg.segments() and len(before) >= 4
    lg.close()


def test_usage_counts_the_sectors_that_hold_records():
    d = chip()
    lg = log(d)
    lg.recover()                              # stamped sectors ahead hold nothing yet
    assert lg.usage() == (0, NSEC * SS)
    lg.append((SEAT, 1, 0), 100)
    assert lg.usage() == (SS, NSEC * SS)
    lg.snapshot("x" * 600, 200)               # a new segment over two more sectors
    assert lg.usage() == (3 * SS, NSEC * SS)
    lg.prune(lg.next_seq - 1)                 # all but the segment recovery starts from
    assert lg.usage() == (2 * SS, NSEC * SS)
    lg.close()


def test_a_power_cut_at_every_program_and_erase_of_a_round_and_a_wrap():
    for what, nsec in (("round", NSEC), ("big", NSEC), ("long", NSEC), ("wrap", 10)):
        kw = {"seg_max": 2000} if what == "long" else {}
        k = 1
        while True:
            done = False
            for at in (0, 1, 7):
                d = chip(nsec)
                recs = night(d, **kw)
                lg = log(d, **kw)
                lg.recover()
                d.ops = 0
                d.cut_op = k
                d.cut_at = at
                answered = list(recs)
                try:
                    for r in scenario(lg, what):
                        if d.dead:
                            break                 # the power went: nothing more is answered
                        answered.append(r)
                except OSError:
                    pass
                done = not d.dead
                lg.close()
                (snap, ins, nxt), damage, got, lg = boot(d, **kw)
                served = [g[:5] for g in got if g[1] != GAP]
                last = answered[-1][0]
                ok = [r for r in served if r[0] <= last]
                want = [r for r in answered if r[0] >= (got[0][0] if got[0][1] != GAP else
                                                        got[0][2] + 1)]
                assert ok == want, (what, k, at)
                assert len(served) - len(ok) <= 1, (what, k, at)   # at most the cut record
                for g in got:
                    if g[1] == GAP and g[3] != "pruned":
                        assert g[0] > last, (what, k, at, g)     # only seqs never answered
                assert nxt > last
                s2, i2 = expect(answered + [r for r in served if r[0] > last], set())
                assert (snap, ins) == (s2, i2), (what, k, at)
                assert lg.append((SEAT, 1, 0), 99999) == nxt
                lg.close()
                if done:
                    break
            if done:
                break
            k += 1
        assert k > 20, (what, k)


def test_a_full_ring_refuses_the_input_and_carries_on_after_prune():
    d = chip(8)
    lg = log(d, seg_max=4000)
    lg.recover()
    t = 0
    n = 0
    what = None
    try:
        while True:
            t += 10
            if n % 40 == 0:
                what = "snap"
                lg.snapshot("round %d" % n, t)
            what = "input"
            lg.append((PAD, UID), t)
            n += 1
            lg.idle()
    except LogFull as e:
        assert e.args[0] == 28
    top = lg.next_seq
    assert n > 100
    for i in range(2):                           # refused again: nothing was written
        try:
            if what == "snap":
                lg.snapshot("round", t + 1)
            else:
                lg.append((PAD, UID), t + 1)
            assert False, "append into a full ring"
        except LogFull:
            pass
    assert lg.next_seq == top
    u, tot = lg.usage()
    assert u >= tot - 3 * SS
    lg.close()
    lg = log(d, seg_max=4000)
    snap, ins, nxt = lg.recover()
    assert nxt == top and lg.damage == []
    assert lg.prune(top - 1) >= 1                # the host synced and acknowledged
    lg.idle()
    assert lg.append((SEAT, 2, 0), t + 3) == top
    assert lg.snapshot("next round", t + 4) == top + 1
    assert d.conflicts == 0
    assert [r[0] for r in lg.read_from(1) if r[1] != GAP][-2:] == [top, top + 1]


def test_recover_reads_the_chip_again():
    d = chip()
    recs = night(d)
    where, secs = layout(d)
    lg = log(d)
    lg.recover()
    b = bytearray(d.image())
    x = where[recs[-2][0]][2]                          # inside a record of the last round
    b[x] ^= 0x10
    d.load(b)
    lg.recover()                                       # a second boot of the same object
    assert [g for g in lg.damage if g[2] == "damaged"], lg.damage


def test_a_ready_sector_with_a_programmed_byte_is_erased_before_use():
    d = chip()
    recs = night(d)
    lg = log(d)
    lg.recover()
    nxt = (lg._hs + 1) % NSEC                          # stamped and erased, ahead of the head
    assert lg._prep >= 1
    lg.close()
    b = bytearray(d.image())
    b[nxt * SS + H] = 0x00                             # its payload's first byte is not blank
    d.load(b)
    lg = log(d)
    lg.recover()
    t = 99000
    for inp in inputs(80):                             # on into that sector and past it
        t += 100
        recs.append((lg.append(inp, t), INPUT, t, False, inp))
        lg.idle()
    lg.close()
    check(recs, set(), "damaged", boot(d))
    assert d.conflicts == 0


def test_a_boot_keeps_the_sectors_erased_ahead():
    d = chip()
    night(d)
    e = d.erases
    lg = log(d)
    lg.recover()
    assert lg._prep >= 1 and d.erases == e             # ready sectors are not erased again
    lg.close()


def _break_header(d, sector):
    """The segment header at the start of a sector's payload, damaged past mending."""
    b = bytearray(d.image())
    for i in range(sector * SS + H + 8, sector * SS + H + 20):
        b[i] ^= 0x5A
    d.load(b)


def _changed(before, d):
    mem = d.image()
    return [i for i in range(len(before)) if before[i] != mem[i]]


def test_a_boot_goes_on_right_after_the_last_record_of_the_newest_segment():
    """The segment a boot finds at the ring's head is continued in place: the next record is
    programmed right after the last one, in the same sector, and no segment is begun."""
    d = chip()
    lg = log(d)
    lg.recover()
    for i, inp in enumerate(inputs(5)):
        lg.append(inp, 100 + i)
    lg.close()
    before = bytes(d.image())
    lg = log(d)
    assert lg.recover()[2] == 6
    assert lg._bases() == [1]
    sec = lg._hs
    end = sec * SS + len(before[sec * SS:(sec + 1) * SS].rstrip(b"\xff"))
    assert lg.append((SEAT, 4, 0), 200) == 6
    assert lg._bases() == [1]
    got = _changed(before, d)
    # right after the last record, in the sector that holds it; elsewhere only a header
    # (a sector stamped ahead)
    mine = [i for i in got if i // SS == sec]
    assert mine and mine[0] == end and mine[-1] - mine[0] < 16, mine
    assert all(i % SS < H for i in got if i // SS != sec), got
    lg.close()
    lg = log(d)
    assert lg.recover()[1][-1] == (SEAT, 4, 0) and lg.damage == []


def test_a_boot_after_a_round_end_goes_on_in_the_newest_segment():
    d = chip()
    recs = night(d, rounds=1, per=2)
    lg = log(d)
    lg.recover()
    bases = lg._bases()
    before = bytes(d.image())
    sec = lg._hs
    end = sec * SS + len(before[sec * SS:(sec + 1) * SS].rstrip(b"\xff"))
    lg.append((SEAT, 4, 0), 99000)
    assert lg._bases() == bases
    got = [i for i in _changed(before, d) if i % SS >= H]  # not a stamp ahead
    assert got and got[0] == end and got[-1] - got[0] < 16, got
    lg.close()
    recs.append((len(recs) + 1, INPUT, 99000, False, (SEAT, 4, 0)))
    check(recs, set(), "damaged", boot(d))


def test_the_smallest_ring_works():
    n = 2 + 3                                          # AHEAD + 3 sectors
    d = Nor(n, SS)
    lg = RingLog(d, "/tmp/gamelog-ring", seg_max=SS, table_id=TID)
    lg.recover()
    for i, inp in enumerate(inputs(6)):
        lg.append(inp, 100 + i)
        lg.idle()
    lg.close()
    lg = RingLog(d, "/tmp/gamelog-ring", seg_max=SS, table_id=TID)
    assert lg.recover()[1] == inputs(6)
    lg.close()
    try:
        RingLog(Nor(n - 1, SS), "/tmp/gamelog-ring", table_id=TID)
        raise AssertionError("a ring of %d sectors" % (n - 1))
    except ValueError:
        pass


def test_a_boot_of_an_empty_ring_uses_the_sectors_stamped_before():
    """Sectors erased and stamped ahead (idle) before the first record are ready at the next
    boot too, wherever in the ring they are: the boot and the first appends erase nothing."""
    for at in (0, 5, NSEC - 1):                       # NSEC - 1: they wrap round
        d = chip()
        lg = log(d)
        lg.recover()
        for _ in range(4):
            lg.idle()
        assert lg._prep >= 2
        lg.close()
        img = d.image()
        stamped = [i for i in range(NSEC) if img[i * SS] != 0xFF]
        moved = bytearray(b"\xff" * len(img))            # the stamps, at sector `at` on
        for j, i in enumerate(stamped):
            k = (at + j) % NSEC
            moved[k * SS:(k + 1) * SS] = img[i * SS:(i + 1) * SS]
        d.load(moved)
        e = d.erases
        lg = log(d)
        lg.recover()
        assert lg._prep >= 2 and d.erases == e, (at, lg._prep, d.erases - e)
        for i, inp in enumerate(inputs(4)):
            lg.append(inp, 100 + i)
        assert d.erases == e and d.conflicts == 0, at
        # the first sector stamped is the first used: none is left behind stamped and unused
        # (a serial of 1 once read as "no stamp found": the boot skipped a ready sector)
        assert d.image()[at * SS + H] != 0xFF, at
        lg.close()
        lg = log(d)
        assert lg.recover()[1] == inputs(4)


def test_a_blob_over_several_sectors_erases_nothing_when_idle_ran():
    """_room asks for every sector a record will reach: with idle() between inputs the
    snapshot that spans three sectors finds them all ready."""
    d = chip()
    lg = log(d, seg_max=4000)
    lg.recover()
    for i, inp in enumerate(inputs(3)):
        lg.append(inp, 100 + i)
        lg.idle()
    for _ in range(6):
        lg.idle()
    e = d.erases
    big = "s" * (2 * SS)                               # the rest of a sector, then 2 more
    lg.record(9, big, 300)
    assert d.erases == e, (d.erases, e)
    lg.close()
    lg = log(d)
    lg.recover()
    assert [r[4] for r in lg.read_from(1)][-1] == big


def test_a_flag_byte_is_set_when_most_of_its_bits_are_clear():
    from gamelog.ring import _set
    for b in range(256):
        n = 0
        for k in range(8):
            n += b >> k & 1
        assert _set(b) == (n < 4), b


def test_set_aside_and_pruned_sectors_read_back_as_what_they_are():
    """A set-aside segment stays reported at every later boot; a pruned one is gone."""
    from gamelog.ring import K_BAD, K_FREE
    d = chip()
    night(d, seg_max=4000)
    lg = log(d, seg_max=4000)
    lg.recover()
    base = max(lg._groups)
    bad = lg._groups[base][0]
    oldest = lg._groups[min(lg._groups)][0]
    lg.close()
    _break_header(d, bad)                              # the newest segment's
    for _ in range(3):
        lg = log(d, seg_max=4000)
        lg.recover()
        assert lg._kind[bad] == K_BAD and [g for g in lg.damage if g[0] == base], lg.damage
        # what sync is told: the set-aside seqs are damaged, at every boot (not just missing)
        assert [r[3] for r in lg.read_from(1) if r[1] == GAP and r[0] == base] == ["damaged"]
        lg.close()
    lg = log(d, seg_max=4000)
    lg.recover()
    assert lg.prune(lg._bases()[1] - 1) == 1           # the oldest segment only
    lg.close()
    lg = log(d, seg_max=4000)
    lg.recover()
    assert lg._kind[oldest] == K_FREE and lg._kind[bad] == K_BAD
    lg.append((SEAT, 2, 0), 99000)                     # new segments after the set-aside one
    new = lg.snapshot("next round", 99001)             # recovery starts here from now on
    assert lg.prune(new - 1) >= 1                      # the set-aside sectors go with the rest
    assert lg._kind[bad] == K_FREE and lg._bases() == [new]
    lg.append((SEAT, 3, 0), 99002)
    lg.close()
    lg = log(d, seg_max=4000)
    assert lg.recover()[:2] == ("next round", [(SEAT, 3, 0)]) and lg._kind[bad] == K_FREE


def _free_ahead(lg):
    from gamelog.ring import K_USED, K_BAD
    n = 0
    for j in range(1, lg.nsec):
        k = lg._kind[(lg._hs + j) % lg.nsec]
        if k == K_USED or k == K_BAD:
            break
        n += 1
    return n


def _filled(free):
    """An 8-sector ring filled with card reads (idle between) until `free` sectors are left
    ahead of the head: (chip, log, the last time)."""
    d = chip(8)
    lg = log(d, seg_max=100000)
    lg.recover()
    t = 0
    while _free_ahead(lg) > free:
        t += 10
        lg.append((PAD, UID), t)
        lg.idle()
    return d, lg, t


def test_a_record_the_ring_has_no_room_for_is_refused_before_a_byte_is_written():
    """_room counts every sector a record will reach, from the head's remaining bytes (an
    input, a blob) or from a new sector (a snapshot begins a segment): with one free sector
    left, a record needing two is refused whole, and the chip is as it was."""
    for kind in ("blob", "snapshot"):
        d, lg, t = _filled(1)
        rem = lg.cap - lg._ho
        before = d.image()
        nxt = lg.next_seq
        try:
            if kind == "blob":                         # the rest of the head, one sector, more
                lg.record(9, b"x" * (rem + lg.cap + 20), t + 1)
            else:                                      # a sector and a half: no head bytes
                lg.snapshot("s" * (lg.cap + rem // 2), t + 1)
            raise AssertionError("a %s into a full ring" % kind)
        except LogFull:
            pass
        assert d.image() == before and lg.next_seq == nxt, kind
        lg.append((SEAT, 2, 0), t + 2)                 # a small input still fits
        lg.close()
        lg = log(d, seg_max=100000)
        assert lg.recover()[1][-1] == (SEAT, 2, 0) and lg.damage == [] and d.conflicts == 0


def test_idle_says_whether_it_erased():
    d = chip(8)
    lg = log(d)
    assert lg.idle() is False and d.erases == 0        # not booted yet: it does nothing
    lg.recover()
    e = d.erases
    assert lg.idle() is False and d.erases == e        # `ahead` sectors are ready already
    lg.append((SEAT, 1, 0), 1)
    for i in range(200):
        lg.append((PAD, UID), 2 + i)
        if lg._prep < lg.ahead:
            e = d.erases
            assert lg.idle() is True and d.erases == e + 1
            break
    else:
        raise AssertionError("the head never moved on")


def test_a_prune_of_nothing_marks_nothing_acknowledged():
    """prune() with no segment to drop leaves the low-water mark alone: a lost oldest segment
    stays 'damaged' at the next boot, not 'pruned'."""
    d = chip()
    night(d, seg_max=4000)
    lg = log(d, seg_max=4000)
    lg.recover()
    first = lg._groups[min(lg._groups)][0]
    lg.close()
    _break_header(d, first)                            # the oldest segment's
    lg = log(d, seg_max=4000)
    lg.recover()
    causes = [r[3] for r in lg.read_from(1) if r[1] == GAP]   # what sync would be told
    assert causes == ["damaged"], causes
    assert lg.prune(0) == 0
    lg.close()
    lg = log(d, seg_max=4000)
    lg.recover()
    assert [r[3] for r in lg.read_from(1) if r[1] == GAP] == causes


def test_a_record_the_ring_has_just_room_for_is_taken():
    d, lg, t = _filled(2)
    rem = lg.cap - lg._ho
    seq = lg.record(9, b"x" * (rem + lg.cap + 20), t + 1)   # the head's rest, 2 sectors more
    lg.close()
    lg = log(d, seg_max=100000)
    lg.recover()
    assert [r for r in lg.read_from(seq) if r[0] == seq][0][4] == b"x" * (rem + lg.cap + 20)
    assert lg.damage == [] and d.conflicts == 0


def _before_create(wrap):
    """A chip after a night, and its log recovered, ahead=3; wrap: the head moved on (inputs,
    prunes) to the ring's third-last sector, so a three-sector create wraps round its end with
    its last part in sector 0 (read before the part it follows)."""
    d = chip()
    night(d)
    lg = log(d, ahead=3)
    lg.recover()
    t = 50000
    while wrap and lg._hs != NSEC - 3:
        for inp in inputs(5, t):
            t += 1
            lg.append(inp, t)
            lg.idle()
        lg.prune(lg.next_seq - 1)
    return d, lg


def test_a_create_cut_before_its_commit_is_no_segment_and_no_damage():
    # A snapshot over three sectors: parts 1 and 2 carry their use headers before part 0's
    # commit. Cut anywhere before that commit, the boot sees no segment, reports nothing and
    # gives the unanswered seq again; ahead=3 leaves a stamp beyond the cut create. Also where
    # the create wraps round the ring's end (its last parts in the first sectors). (A cut
    # within the commit itself leaves a stamped sector with a broken use header: that reads as
    # a damaged segment, as bit rot there would, and is reported for seqs never answered.)
    s = '{"round":9,"x":"%s"}' % ("b" * 1100)
    for wrap in (False, True):
        d, lg = _before_create(wrap)
        o0 = d.ops
        seq = lg.snapshot(s, 90000)
        n = d.ops - o0                            # the commit is the create's last program
        assert n >= 4 and (not wrap or lg._hs < 3), (n, lg._hs)
        lg.close()
        for k in range(1, n):
            for at in (0, 1, 3):                  # every program here is >= 4 bytes
                d, lg = _before_create(wrap)
                d.ops = 0
                d.cut_op = k
                d.cut_at = at
                try:
                    lg.snapshot(s, 90000)
                except OSError:
                    pass
                assert d.dead, (wrap, k, at)
                lg.close()
                (snap, ins, nxt), damage, got, lg = boot(d, ahead=3)
                assert damage == [] and nxt == seq, (wrap, k, at, damage, nxt)
                assert [g for g in got if g[1] == GAP and g[3] != "pruned"] == [], (wrap, k, at)
                assert lg.snapshot(s, 90001) == seq and lg.damage == []
                lg.close()
                (snap, ins, nxt), damage, got, lg = boot(d, ahead=3)
                assert snap == s and damage == [] and nxt == seq + 1, (wrap, k, at)
                lg.close()


def test_a_sectors_stamp_and_use_header_byte_for_byte():
    d = chip()
    lg = log(d)
    lg.recover()                                  # stamps sectors 0 and 1 (ahead)
    lg.append((SEAT, 1, 0), 100)                  # sector 0: segment 1, part 0
    hb = bytearray(H)
    d.readblocks(0, hb, 0)
    st = b"UR\x01\xff" + struct.pack("<III", 1, 0, 0) + TID
    assert bytes(hb[0:24]) == st and bytes(hb[24:28]) == struct.pack("<I", crc32(st))
    use = struct.pack("<IHH", 1, 0, 0)
    assert bytes(hb[28:40]) == use + struct.pack("<I", crc32(use))
    assert bytes(hb[40:48]) == b"\xff" * 8       # flags: neither pruned nor set aside
    d.readblocks(1, hb, 0)
    assert bytes(hb[4:8]) == struct.pack("<I", 2) and bytes(hb[28:48]) == b"\xff" * 20
    lg.close()


def test_after_a_prune_a_boot_reads_the_pruned_range_off_the_flags():
    # No stamp written since the prune: the pruned sectors' flags alone say what was
    # acknowledged, up to the oldest kept segment's base - 1, and no record of it is hidden.
    d = chip()
    recs = night(d)
    lg = log(d)
    lg.recover()
    keep = lg.snapshot('{"round":5}', 50000)  # a segment of one record: recovery starts there
    recs.append((keep, SNAP, 50000, False, '{"round":5}'))
    n = len(lg.segments())
    assert lg.prune(keep - 1) == n - 1 and len(lg.segments()) == 1
    lg.close()
    (snap, ins, nxt), damage, got, lg = boot(d)
    assert damage == [] and got[0][:4] == (1, GAP, keep - 1, "pruned"), got[:2]
    assert [r[:5] for r in got[1:]] == [recs[-1]] and nxt == keep + 1
    lg.close()


def test_a_range_set_aside_at_one_boot_is_never_numbered_again_at_the_next():
    # A cut within a three-sector create's commit (part 0's use header torn): the boot reads
    # parts 1 and 2 as a segment without its header, sets it aside and reports its range as
    # damaged; a host may sync that gap. The next boots know the range only from the set-aside
    # sectors (no stamp's high-water mark names a segment that never committed): numbering
    # went back into it, and a later input took a seq the host held as damaged.
    s = '{"round":9,"x":"%s"}' % ("b" * 1100)
    d, lg = _before_create(False)
    o0 = d.ops
    seq = lg.snapshot(s, 90000)
    n = d.ops - o0
    lg.close()
    for at in (1, 3, 7):
        d, lg = _before_create(False)
        d.ops = 0
        d.cut_op = n                               # the commit
        d.cut_at = at
        lg.snapshot(s, 90000)
        assert d.dead
        lg.close()
        (snap, ins, nxt), damage, got, lg = boot(d)
        held = [g for g in got if g[1] == GAP and g[3] != "pruned"]
        assert damage and held and nxt > held[-1][2] >= seq, (at, damage, held, nxt)
        lg.close()
        for _ in range(2):
            (snap, ins, nxt2), damage, got, lg = boot(d)
            assert nxt2 >= nxt, (at, nxt2, nxt, damage)
            assert [g for g in got if g[1] == GAP and g[3] != "pruned"] == held, (at, got)
            lg.close()
        lg = log(d)
        assert lg.append((SEAT, 1, 0), 99999) >= nxt
        assert [g for g in lg.read_from(seq) if g[1] == GAP] == held
        lg.close()


class _BadErase(Nor):
    bad = -1

    def erase(self, sector):
        if sector == self.bad:
            raise OSError(5)
        Nor.erase(self, sector)


def test_an_erase_that_fails_at_boot_costs_no_round():
    # The boot erases ahead of the head: an erase that failed (a worn sector, a flash error)
    # raised out of recover(), and the hub, unable to recover twice, started a fresh table on
    # an intact log. Now the boot recovers the round; the append that needs the sector fails
    # with that error (nothing judged), and once the sector erases again the log goes on.
    d = _BadErase(NSEC, SS)
    recs = night(d, idle=False)                   # the boot has a sector to erase ahead
    lg = log(d)
    lg._get_marks()
    assert lg._prep < lg.ahead
    d.bad = (lg._hs + 1 + lg._prep) % NSEC         # the next sector the ring will erase
    lg.close()
    (snap, ins, nxt), damage, got, lg = boot(d)
    assert (snap, ins) == expect(recs, set()) and damage == [] and nxt == recs[-1][0] + 1
    t = 90000
    err = None
    for i in range(200):
        t += 10
        try:
            assert lg.append((TICK, t), t) == nxt
            nxt += 1
        except OSError as e:
            err = e
            break
        try:
            lg.idle()                             # says so too (the hub reports a fault)
        except OSError as e:
            assert e.args[0] == 5
    assert err is not None and err.args[0] == 5, err
    d.bad = -1                                    # it erases again
    assert lg.append((TICK, t), t) >= nxt
    lg.close()
    (snap, ins, nxt2), damage, got, lg = boot(d)
    assert nxt2 > nxt and snap == expect(recs, set())[0]
    lg.close()


class _BadProgram(Nor):
    bad = -1

    def program(self, a, buf):
        if a // self.ss == self.bad:
            raise OSError(5)
        Nor.program(self, a, buf)


def test_a_set_aside_flag_that_will_not_program_costs_no_round():
    # A segment whose header is past mending, on a sector that no longer programs: setting it
    # aside raised out of recover() (the hub then started a fresh table). Now the boot
    # reports the damage and recovers the round; the next boot finds the same again.
    d = _BadProgram(NSEC, SS)
    recs = night(d)
    lay, secs = layout(d)
    lg = log(d)
    lg._get_marks()
    base = sorted(lg._groups)[1]
    s = lg._groups[base][0]
    lg.close()
    for o in (5, 6):
        d.mem[s * SS + H + o] ^= 0x0F
    d.bad = s
    lost = set(q for q in secs[s])
    for _ in range(2):
        (snap, ins, nxt), damage, got, lg = boot(d)
        assert [g[2] for g in damage] == ["damaged"] and damage[0][0] == base, damage
        assert (snap, ins) == expect(recs, lost)
        assert nxt > recs[-1][0]
        lg.close()


def test_a_set_aside_segments_gap_ends_before_the_next_segment_at_every_boot():
    # A middle segment's header past mending: the boot that sets it aside reports its seqs up
    # to the next segment's base - 1. Later boots know it only from its set-aside sectors, and
    # took the most records its bytes could hold (_bound), past the next segment's base: the
    # remembered gap covered served records, numbering jumped past it and sync was told of
    # seqs never written as damaged.
    from gamelog.log import _bound
    d = chip()
    recs = night(d)
    lg = log(d)
    lg._get_marks()
    bases = lg._bases()
    bad = bases[1]
    assert _bound(bad, lg._seg_size(bad)) >= bases[2], bases   # the bound reaches past it
    s = lg._groups[bad][0]
    lg.close()
    _break_header(d, s)
    first = None
    for k in range(3):
        (snap, ins, nxt), damage, got, lg = boot(d)
        served = [r[0] for r in got if r[1] != GAP]
        gaps = [(g[0], g[2], g[3]) for g in got if g[1] == GAP]
        for g in damage + gaps:
            assert not [q for q in served if g[0] <= q <= g[1]], (k, g, served)
        assert gaps[0] == (bad, bases[2] - 1, "damaged"), (k, gaps)
        assert nxt == served[-1] + 1 == recs[-1][0] + 1, (k, nxt, served[-1])
        if first is None:
            first = gaps
        assert gaps == first, (k, gaps, first)         # what the first boot said, again
        for g in lg._gaps:                             # the causes read_from labels gaps by
            assert not [q for q in served if g[0] <= q <= g[1]], (k, g, served)
        lg.close()


def test_the_seqs_of_a_sector_lost_after_the_head_are_never_numbered_again():
    # The sector after the head lost, stamped sectors beyond it: the boot reports the seqs it
    # may have held as missing and numbers above them. Its erases ahead then wipe the stamps
    # that showed the hole: the next boot numbered from the last record again, below seqs a
    # host may hold as missing (found by the boot soak: seq 358, then 292)
    d = chip()
    night(d)
    lg = log(d)
    lg.recover()
    lost = (lg._hs + 1) % NSEC
    assert lg._prep >= 2
    lg.close()
    d.erase(lost)
    (snap, ins, nxt), damage, got, lg = boot(d)
    assert [g for g in damage if g[2] == "missing"], damage
    lg.close()
    for _ in range(3):
        (snap, ins, nxt2), damage, got, lg = boot(d)
        assert nxt2 >= nxt, (nxt2, nxt, damage)
        lg.close()
