"""Fault bench for the game log (issue 8): damage done to a night's log, then boot and sync.

Per area it prints: cases tried, boots that succeeded, intact records recovered and read (of
those that should be), damages reported with the right range and cause, and records lost
(intact ones not read). The aim is 100% on every line but "lost", which is 0.

    PYTHONPATH=firmware:tests:tests/gamelog python bench/fault_bench.py
    MICROPYPATH=firmware:tests:tests/gamelog:.frozen micropython -X heapsize=8m bench/fault_bench.py

Under micropython the log lives on a littlefs RAM disk, and the power-cut area runs too. The
"ring:" areas do the same to the NOR ring of the board's log partition (gamelog.ring) on the
NOR fake (tests/gamelog/ringkit.py).
"""
import os
import sys

from logkit import fresh, log, read, write, names, inputs, LFS, disk, reboot, PAD, UID
from faultkit import night, layout, boot, expect, lost_in, segs, SEG
from gamelog import GAP, SNAP, LogFull
import ringkit as rk


class Area:
    def __init__(self, name):
        self.name = name
        self.cases = self.boots = self.intact = self.read = self.state = 0
        self.damages = self.reported = self.lost = 0

    def run(self, p, recs, lost, cause, booter=boot):
        """Boot the damaged log at p (a directory, or a NOR chip with ringkit.boot); lost: seqs
        whose records are gone; cause: the gaps' cause (or a tuple of those accepted)."""
        self.cases += 1
        want = [r for r in recs if r[0] not in lost]
        self.intact += len(want)
        causes = cause if isinstance(cause, tuple) else (cause,)
        try:
            (snap, ins, nxt), damage, got, lg = booter(p)
        except Exception as e:           # a boot that fails: everything counts as lost
            print("  boot failed:", repr(e))
            self.lost += len(want)
            return
        self.boots += 1
        served = [g[:5] for g in got if g[1] != GAP]
        n = len([r for r in want if r in served])
        self.read += n
        self.lost += len(want) - n
        if (snap, ins) == expect(recs, lost):
            self.state += 1
        if lost:
            self.damages += 1
            covered = set()
            ok = True
            for g in got:
                if g[1] == GAP:
                    ok = ok and g[3] in causes
                    for s in range(g[0], g[2] + 1):
                        covered.add(s)
            if ok and all(s in covered for s in lost) and nxt > max(lost):
                self.reported += 1
        lg.close()

    def row(self):
        pc = lambda a, b: "%d/%d (%.0f%%)" % (a, b, 100.0 * a / b if b else 100.0)
        return "%-26s %6d  %-15s %-19s %-15s %-15s %5d" % (
            self.name, self.cases, pc(self.boots, self.cases), pc(self.read, self.intact),
            pc(self.state, self.cases), pc(self.reported, self.damages), self.lost)


def _restore(p, orig, marks):
    for n in names(p):
        if n not in orig:
            os.remove(p + "/" + n)
    for n in orig:
        write(p + "/" + n, orig[n])
    write(p + "/marks", marks)


def per_byte(a, fn, step=1):
    p = fresh()
    recs = night(p)
    lay = layout(p)
    orig = dict((n, read(p + "/" + n)) for n in lay)
    marks = read(p + "/marks")
    for name in segs(lay):
        for data, lost in fn(name, orig[name], lay, step):
            _restore(p, orig, marks)
            write(p + "/" + name, data)
            a.run(p, recs, lost[0], lost[1])


def flips(name, data, lay, step):
    for at in range(0, len(data), step):
        b = bytearray(data)
        b[at] ^= 1 << (at % 8)
        yield bytes(b), (set() if at < 60 else lost_in(lay, name, at, at + 1), "damaged")


def blocks(name, data, lay, step):
    for fill in (0x00, 0xFF):
        for a in range(0, len(data), 32):
            b = bytearray(data)
            e = min(a + 32, len(data))
            for i in range(a, e):
                b[i] = fill
            yield bytes(b), (lost_in(lay, name, a, e), "damaged")


def cuts(name, data, lay, step):
    if name == segs(lay)[-1]:
        return
    for k, r in enumerate(lay[name]):
        yield data[:r[0]], (set(x[2] for x in lay[name][k:]), "missing")


def whole_files(a):
    p = fresh()
    recs = night(p)
    lay = layout(p)
    files = segs(lay)
    for name in files[1:]:                # deleted: a middle one, and the newest
        p = fresh()
        night(p)
        os.remove(p + "/" + name)
        a.run(p, recs, set(r[2] for r in lay[name]), "missing")
    for name in files:                    # duplicated under a later name
        p = fresh()
        night(p)
        write(p + "/0000000900.log", read(p + "/" + name))
        a.run(p, recs, set(), "order")
    for name in files[1:]:                # renamed
        p = fresh()
        night(p)
        os.rename(p + "/" + name, p + "/%010d.log" % (int(name[:10]) + 500))
        a.run(p, recs, set(r[2] for r in lay[name]), "order")
    p = fresh()
    lg = log(p, table_id=b"OTHER-99")
    for inp in inputs(20):
        lg.append(inp, 5)
    lg.close()
    other = read(p + "/0000000001.log")
    for name in ("0000000300.log", "0000000001.log"):   # beside ours, over ours
        p = fresh()
        night(p)
        write(p + "/" + name, other)
        a.run(p, recs, set(r[2] for r in lay.get(name, [])), "foreign")


def snapshots(a):
    p = fresh()
    recs = night(p)
    lay = layout(p)
    snaps = [r[0] for r in recs if r[1] == SNAP]
    for s in snaps[-2:]:
        for n in lay:
            if lay[n] and lay[n][0][2] == s:
                p = fresh()
                night(p)
                b = bytearray(read(p + "/" + n))
                x, e, _ = lay[n][0]
                for i in range(x + 3, e - 2):
                    b[i] = 0x5A
                write(p + "/" + n, b)
                a.run(p, recs, {s}, "damaged")


def enospc(a):
    p = fresh()
    night(p)
    used = log(p).usage()[0]
    for room in range(0, 120, 3):
        p = fresh()
        recs = night(p)
        lg = log(p, seg_max=SEG, table_id=b"TABLE-01")
        lg.limit = used + room
        t = 90000
        try:
            for inp in inputs(12):
                t += 300
                s = lg.append(inp, t)
                recs.append((s, 1, t, False, inp))
        except LogFull:
            pass
        lg.close()
        a.run(p, recs, set(), "damaged")


def power(a):
    for what in ("snapshot", "rotation"):
        k = 0
        while True:
            p = fresh()
            recs = night(p, rounds=1)
            lg = log(p, seg_max=SEG, table_id=b"TABLE-01")
            lg.recover()
            d = disk()
            d.progs = 0
            d.cut = k
            done_recs = []
            try:
                if what == "snapshot":
                    s = lg.snapshot('{"round":9}', 90000)
                    done_recs.append((s, SNAP, 90000, False, '{"round":9}'))
                else:
                    for i in range(12):
                        s = lg.append((PAD, UID), 90000 + i)
                        done_recs.append((s, 1, 90000 + i, False, (PAD, UID)))
            except OSError:
                pass
            done = d.progs <= k
            lg.close()
            reboot()
            a.run(p, recs + done_recs, set(), "damaged")
            if done:
                break
            k += 1


# ---- the NOR ring (issue 9): the same oracle on the board's log partition ------------------

def ring_flips(a, step=1):
    d = rk.chip()
    recs = rk.night(d)
    image = d.image()
    where, secs = rk.layout(d)
    for x in range(0, len(image), step):
        if image[x] == 0xFF:
            continue
        b = bytearray(image)
        b[x] ^= 1 << (x % 8)
        d.load(b)
        a.run(d, recs, rk.lost_at(where, x, x + 1), ("damaged", "missing"), rk.boot)


def ring_sectors(a):
    d = rk.chip()
    recs = rk.night(d)
    image = d.image()
    where, secs = rk.layout(d)
    for sec in sorted(secs):
        for fill in (0x00, 0xFF):
            b = bytearray(image)
            for i in range(sec * rk.SS, (sec + 1) * rk.SS):
                b[i] = fill
            d.load(b)
            lost = rk.lost_at(where, sec * rk.SS, (sec + 1) * rk.SS)
            a.run(d, recs, lost, ("damaged", "missing"), rk.boot)


def ring_foreign(a):
    other = rk.chip()
    lg = rk.log(other, table_id=b"OTHER-99")
    lg.recover()
    for inp in inputs(20):
        lg.append(inp, 5)
    lg.close()
    o = other.image()
    d = rk.chip()
    recs = rk.night(d)
    where, secs = rk.layout(d)
    for sec in range(max(secs) + 1, rk.NSEC):     # dropped in at every free place
        d2 = rk.chip()
        rk.night(d2)
        b = bytearray(d2.image())
        b[sec * rk.SS:(sec + 1) * rk.SS] = o[0:rk.SS]
        d2.load(b)
        a.run(d2, recs, set(), "foreign", rk.boot)


def ring_power(a):
    """A power cut at every program and erase of a round (snapshot, inputs, idle erases) and of
    a wrap-around (prune, erase of pruned sectors): what was answered must be read back."""
    for what, nsec in (("round", rk.NSEC), ("wrap", 10)):
        k = 1
        done = False
        while not done:
            for at in (0, 1, 7):
                d = rk.chip(nsec)
                recs = rk.night(d)
                lg = rk.log(d)
                lg.recover()
                d.ops = 0
                d.cut_op = k
                d.cut_at = at
                answered = list(recs)
                try:
                    for r in _ring_scenario(lg, what):
                        if d.dead:
                            break
                        answered.append(r)
                except OSError:
                    pass
                done = not d.dead
                lg.close()
                a.cases += 1
                a.intact += len(answered)
                try:
                    (snap, ins, nxt), damage, got, lg = rk.boot(d)
                except Exception as e:
                    print("  boot failed:", repr(e))
                    a.lost += len(answered)
                    continue
                a.boots += 1
                served = [g[:5] for g in got if g[1] != GAP]
                first = got[0][0] if got[0][1] != GAP else got[0][2] + 1
                want = [r for r in answered if r[0] >= first]
                a.intact -= len(answered) - len(want)      # pruned before the cut: synced
                n = len([r for r in want if r in served])
                a.read += n
                a.lost += len(want) - n
                last = answered[-1][0]
                if (snap, ins) == expect(answered + [r for r in served if r[0] > last], set()):
                    a.state += 1
                lg.close()
                if done:
                    break
            k += 1


def _ring_scenario(lg, what, t=90000):
    if what == "round":
        s = '{"round":9}'
        yield (lg.snapshot(s, t), SNAP, t, False, s)
        for i, inp in enumerate(inputs(12, 40)):
            yield (lg.append(inp, t + 1 + i), 1, t + 1 + i, False, inp)
            lg.idle()
    else:
        for r in range(3):
            lg.prune(lg.next_seq - 1)
            s = '{"wrap":%d}' % r + "w" * 300
            yield (lg.snapshot(s, t + 100 * r), SNAP, t + 100 * r, False, s)
            for i, inp in enumerate(inputs(20, r)):
                yield (lg.append(inp, t + 100 * r + 1 + i), 1, t + 100 * r + 1 + i, False, inp)
                lg.idle()


def main(argv):
    step = int(argv[0]) if argv else 1
    areas = []
    for name, fn in (("bit flip at every byte", lambda a: per_byte(a, flips, step)),
                     ("zeroed / 0xFF 32-byte blocks", lambda a: per_byte(a, blocks)),
                     ("older segment cut at records", lambda a: per_byte(a, cuts)),
                     ("deleted/dup/renamed/foreign", whole_files),
                     ("damaged last/2nd snapshot", snapshots),
                     ("ENOSPC at each append", enospc),
                     ("power cut, snapshot+rotation", power),
                     ("ring: bit flip every byte", lambda a: ring_flips(a, step)),
                     ("ring: sector zeroed/0xFF", ring_sectors),
                     ("ring: foreign sector", ring_foreign),
                     ("ring: cut at every op", ring_power)):
        if fn is power and not LFS:
            print("(power cuts: run under micropython, on the littlefs RAM disk)")
            continue
        a = Area(name)
        fn(a)
        areas.append(a)
    print("%-26s %6s  %-15s %-19s %-15s %-15s %5s" % ("area", "cases", "boots ok",
          "intact read", "state right", "damage reported", "lost"))
    for a in areas:
        print(a.row())


main(sys.argv[1:])
