"""Fault injection for the game log: a known night, damage done to its files, and the oracle.

Each case: build the night, damage it, boot (recover) and sync (read_from(1)), then check
boot succeeded, every intact record is read, every damage is reported with its range and
cause, seq is monotonic, and the recovered state is the newest intact snapshot plus the intact
inputs after it. Used by tests/gamelog/test_log_faults.py and bench/fault_bench.py.
"""
import os

from logkit import fresh, log, inputs, read, write, names, SEAT
from gamelog import INPUT, SNAP, GAP, LogFull
from gamelog.fmt import Reader, HDR, OK

SEG = 150          # seg_max: a few segments of a handful of records


def night(p, rounds=2, per=7, seg_max=SEG):
    """A lobby, then rounds each after a snapshot, one outcome record; returns the records
    (seq, rtype, t, wall, data) as written."""
    lg = log(p, seg_max=seg_max, table_id=b"TABLE-01")
    out = []
    t = 1000
    for inp in inputs(3):
        t += 130
        out.append((lg.append(inp, t), INPUT, t, False, inp))
    for r in range(rounds):
        t += 500
        s = '{"round":%d}' % r
        out.append((lg.snapshot(s, t), SNAP, t, False, s))
        for inp in inputs(per, 10 * r):
            t += 128 + 37 * len(out)
            out.append((lg.append(inp, t), INPUT, t, False, inp))
        if r == 0:
            t += 5
            out.append((lg.record(9, b"digest", t), 9, t, False, b"digest"))
    lg.close()
    return out


def layout(p):
    """{file name: [(start, end, seq), ...]} of every record, and each file's base."""
    lay = {}
    rd = Reader()
    for n in names(p):
        if not n.endswith(".log"):
            continue
        with open(p + "/" + n, "rb") as f:
            rd.start(f, int(n[:10]))
            recs = []
            while True:
                a = rd.off
                if rd.next() != OK:
                    break
                recs.append((a, rd.off, rd.seq))
        lay[n] = recs
    return lay


def boot(p, **kw):
    """Recover and sync a damaged log: (recover's result, damage, read_from(1) list, log)."""
    lg = log(p, seg_max=SEG, table_id=b"TABLE-01", **kw)
    r = lg.recover()
    return r, list(lg.damage), list(lg.read_from(1)), lg


def expect(recs, lost):
    """What boot should give when the records of seqs `lost` are gone: (snap, inputs)."""
    snap = None
    ins = []
    for r in recs:
        if r[0] in lost:
            continue
        if r[1] == SNAP:
            snap = r[4]
            ins = []
        elif r[1] == INPUT:
            ins.append(r[4])
    return snap, ins


def check(recs, lost, cause, res, top=None):
    """Assert a case: res from boot(); lost: seqs whose records are gone (with `cause`)."""
    (snap, ins, nxt), damage, got, lg = res
    want = [r for r in recs if r[0] not in lost]
    served = [g[:5] for g in got if g[1] != GAP]
    assert served == want, (served, want)
    gaps = [g for g in got if g[1] == GAP]
    covered = set()
    for g in gaps:
        assert g[3] == cause or not lost, (g, cause)
        for s in range(g[0], g[2] + 1):
            covered.add(s)
    for s in lost:
        assert s in covered, (s, gaps)
    for s in covered:                     # a gap never hides a record that is there
        assert s not in [r[0] for r in want], (s, gaps)
    last = recs[-1][0]
    assert nxt > last or (not lost and nxt == last + 1), (nxt, last)
    if lost and max(lost) == last:
        assert nxt > last
    seqs = [g[0] for g in got]
    assert seqs == sorted(seqs)
    s2, i2 = expect(recs, lost)
    assert (snap, ins) == (s2, i2), ((snap, ins), (s2, i2))
    assert lg.append((SEAT, 1, 0), 99999) == nxt
    lg.close()
    return len(want), len(gaps)


def lost_in(lay, name, a, b):
    """Seqs of the records of file `name` that bytes [a, b) touch (all of them for a header)."""
    if a < HDR:
        return set(r[2] for r in lay[name])
    return set(r[2] for r in lay[name] if r[0] < b and a < r[1])


def segs(lay):
    return sorted(lay)
