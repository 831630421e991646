"""Game log on a littlefs RAM disk shaped like the ESP32's flash (4 KB blocks).

Prints bytes per input record, appends per second, flash programs/erases per append, and the
time and heap of recovering a 300-input round after a snapshot (with a night of rounds before).

    MICROPYPATH=firmware:tests:.frozen micropython -X heapsize=1m bench/log_bench.py [N] [rounds]

The RAM disk itself lives on the heap (64 x 4 KB), hence the large heap; the log's own use is
printed. BEFORE holds the figures of the format before issue 8 (commit c6af61c, same command),
printed beside today's: the chain tag and crc16 cost 2 bytes an input record. Speeds are the unix port's CPU cost: on an ESP32 the flash erase dominates (count x
~30-50 ms per 4 KB erase).
"""
import gc
import sys
import time

try:
    import vfs
except ImportError:
    print("run me under micropython (littlefs RAM disk)")
    sys.exit(1)

from gamelog import Log
from gamelog.fmt import HDR
from logkit import RamDisk  # tests/logkit.py: the littlefs RAM disk the log's tests use
from uno.bot import Rng

MNT = "/bench"
# Before issue 8 (format v1, CRC-32 only; commit c6af61c, an idle machine, 3 runs): bytes per
# input record, appends per second (write + flush, unix port).
BEFORE = (13.4, "6600-8000")


_rng = Rng(12345)  # the same table inputs on every run


def rnd(n):
    return _rng.below(n)


UIDS = [bytes([4, i, 0x5A, 0x31, 0x80 | i, 0x22, 0x90]) for i in range(108)]


def table_input():
    """A round's mix: card reads at pad and shoe, presses, timer ticks."""
    r = rnd(100)
    if r < 35:
        return (2, UIDS[rnd(108)])
    if r < 70:
        return (1, UIDS[rnd(108)])
    if r < 85:
        return (3, 1 + rnd(4), 1 if rnd(10) == 0 else 0)
    if r < 90:
        return (4, rnd(4), 0)
    return (6, 1000)


def mount(bs, n):
    try:
        vfs.umount(MNT)
    except OSError:
        pass
    d = RamDisk(bs, n)
    vfs.VfsLfs2.mkfs(d)
    vfs.mount(vfs.VfsLfs2(d), MNT)
    return d


def seg_bytes(lg):
    return sum(s for b, s in lg.segments())


def main(argv):
    n = int(argv[0]) if argv else 2000
    rounds = int(argv[1]) if len(argv) > 1 else 8
    snap = '{"phase":"deal","seats":[1,2,3,4],"hands":[%s]}' % ",".join(["[1,2,3,4,5,6,7]"] * 4)
    snap = snap + " " * (1024 - len(snap))          # a 1 KB state

    # 1. appends: size on flash, speed, flash traffic
    d = mount(4096, 64)
    lg = Log(MNT + "/log")
    lg.recover()
    lg.snapshot(snap, 0)
    t = 0
    ins = [table_input() for _ in range(200)]
    b0 = seg_bytes(lg)
    p0, e0, pb0 = d.progs, d.erases, d.prog_bytes
    us = 0
    best = 0
    i = 0
    while i < n:                       # chunks of 250: the best one is the least disturbed
        k = min(250, n - i)
        t0 = time.ticks_us()
        for j in range(i, i + k):
            t += 300 + rnd(3700)
            lg.append(ins[j % 200], t)
        d_us = time.ticks_diff(time.ticks_us(), t0)
        us += d_us
        best = max(best, k * 1000000 // max(1, d_us))
        i += k
    rec_bytes = seg_bytes(lg) - b0 - HDR * (len(lg.segments()) - 1)
    print("appends: %d inputs, %d segments (seg_max %d)" % (n, len(lg.segments()), lg.seg_max))
    print("  bytes per input record on flash: %.1f (before issue 8: %.1f)"
          % (rec_bytes / n, BEFORE[0]))
    print("  appends per second (write + flush, unix port): %d overall, %d in the best 250"
          " (before issue 8: %s; a busy machine moves these)" % (n * 1000000 // us, best,
                                                                  BEFORE[1]))
    print("  flash per append: %.2f programs, %.0f bytes programmed, %.3f block erases"
          % ((d.progs - p0) / n, (d.prog_bytes - pb0) / n, (d.erases - e0) / n))
    sizes(lg)
    lg.close()

    # 2. recovery of the current round (300 inputs after a snapshot), after `rounds` rounds
    d = mount(4096, 64)
    lg = Log(MNT + "/log")
    lg.recover()
    t = 0
    for r in range(rounds + 1):
        lg.snapshot(snap, t)
        for i in range(300):
            t += 300 + rnd(3700)
            lg.append(table_input(), t)
    lg.close()
    best = 0
    s = got = None
    for k in range(5):
        lg = Log(MNT + "/log")
        s = got = None
        gc.collect()
        m0 = gc.mem_alloc()
        t0 = time.ticks_us()
        s, got, nxt = lg.recover()
        us = time.ticks_diff(time.ticks_us(), t0)
        gc.collect()
        held = gc.mem_alloc() - m0
        lg.close()
        best = us if not best or us < best else best
    assert len(got) == 300 and s == snap
    s = got = None
    lg = Log(MNT + "/log")
    gc.collect()
    m0 = gc.mem_alloc()
    t0 = time.ticks_us()
    s, cnt, nxt = lg.recover(collect=False)
    us2 = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    held2 = gc.mem_alloc() - m0
    t0 = time.ticks_us()
    fed = 0
    for inp in lg.replay():
        fed += 1
    us3 = time.ticks_diff(time.ticks_us(), t0)
    assert cnt == fed == 300
    lg.close()
    print("recovery: round of 300 inputs after a 1 KB snapshot, %d rounds before it" % rounds)
    print("  recover(): %.1f ms (best of 5, unix port), result holds %d bytes of heap"
          % (best / 1000, held))
    print("  recover(collect=False): %.1f ms, holds %d bytes; then replay(): %.1f ms"
          % (us2 / 1000, held2, us3 / 1000))


def sizes(lg):
    # bytes of one record of each kind, from a fresh segment
    lg2 = Log(MNT + "/sizes")
    lg2.recover()
    lg2.append((5,), 0)
    out = []
    t = 0
    for name, inp in (("pad 7-byte uid", (2, UIDS[0])), ("shoe 7-byte uid", (1, UIDS[1])),
                      ("seat press", (3, 2, 0)), ("colour press", (4, 1, 0)),
                      ("tick", (6, 1000)), ("shuffle", (5,))):
        a = seg_bytes(lg2)
        t += 1500
        lg2.append(inp, t)
        out.append("%s %d" % (name, seg_bytes(lg2) - a))
    lg2.close()
    print("  record bytes at a 1.5 s gap: " + ", ".join(out))


main(sys.argv[1:])
