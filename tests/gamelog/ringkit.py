"""Fault injection for the ring store (gamelog.ring) on the NOR fake: a night, its layout on the
chip, and boots. The oracle is faultkit.check (the same assertions as the file store's)."""
from gamelog.nor import Nor
from gamelog.ring import RingLog, H
from gamelog.fmt import Reader, OK, HDR
from gamelog import INPUT, SNAP
from logkit import inputs

TID = b"TABLE-01"
SS = 512            # small sectors: a night spans many, and every byte can be tried
NSEC = 32
SEG = 150
DIR = "/tmp/gamelog-ring"   # side files only (the hub keeps the table's id and key there)
_logs = []


def chip(n=NSEC, ss=SS):
    return Nor(n, ss)


def log(d, **kw):
    while _logs:
        _logs.pop().close()
    kw.setdefault("seg_max", SEG)
    kw.setdefault("table_id", TID)
    lg = RingLog(d, DIR, **kw)
    _logs.append(lg)
    return lg


def night(d, rounds=2, per=7, idle=True, **kw):
    """faultkit.night on the ring: a lobby, rounds after snapshots, an outcome; idle() between
    inputs as the hub does. Returns the records as written."""
    lg = log(d, **kw)
    lg.recover()
    out = []
    t = 1000
    for inp in inputs(3):
        t += 130
        out.append((lg.append(inp, t), INPUT, t, False, inp))
        if idle:
            lg.idle()
    for r in range(rounds):
        t += 500
        s = '{"round":%d}' % r
        out.append((lg.snapshot(s, t), SNAP, t, False, s))
        for inp in inputs(per, 10 * r):
            t += 128 + 37 * len(out)
            out.append((lg.append(inp, t), INPUT, t, False, inp))
            if idle:
                lg.idle()
        if r == 0:
            t += 5
            out.append((lg.record(9, b"digest", t), 9, t, False, b"digest"))
    lg.close()
    return out


def layout(d):
    """{seq: [physical byte, ...]} of every record, and {sector: [seqs]} of every used sector
    (from the log's own view of its segments)."""
    lg = log(d)
    lg._get_marks()
    rd = Reader()
    recs = {}
    secs = {}
    cap = lg.cap
    for b in lg._bases():
        parts = lg._groups[b]
        f = lg._open_seg(b)
        rd.start(f, b, TID)
        hdr_secs = set([parts[0]])
        while True:
            a = rd.off
            if rd.next() != OK:
                break
            where = [parts[o // cap] * d.ss + H + o % cap for o in range(a, rd.off)]
            recs[rd.seq] = where
            for o in (a, rd.off - 1):
                secs.setdefault(parts[o // cap], set()).add(rd.seq)
        for s in parts:
            secs.setdefault(s, set())
    lg.close()
    return recs, secs


def boot(d, **kw):
    """Power back on, recover and sync: (recover's result, damage, read_from(1), log)."""
    d.power_on()
    lg = log(d, **kw)
    r = lg.recover()
    return r, list(lg.damage), list(lg.read_from(1)), lg


def lost_at(recs, a, b):
    """Seqs of the records whose bytes lie in physical [a, b)."""
    return set(s for s in recs if any(a <= x < b for x in recs[s]))


def scenario(lg, what, t=90000):
    """A round (snapshot, inputs, idle erases), a round whose snapshot spans three sectors (a
    create cut between its parts' commits), a long round (its appends cross into new sectors:
    give the log a seg_max that lets them), or a wrap-around (prune, erases of pruned sectors):
    yields once per answered record, (seq, rtype, t, wall, data)."""
    if what in ("round", "big", "long"):
        s = '{"round":9,"x":"%s"}' % ("b" * 1100) if what == "big" else '{"round":9}'
        seq = lg.snapshot(s, t)
        yield (seq, SNAP, t, False, s)
        for i, inp in enumerate(inputs(50 if what == "long" else 12, 40)):
            seq = lg.append(inp, t + 1 + i)
            yield (seq, INPUT, t + 1 + i, False, inp)
            lg.idle()
    else:                                     # the ring wraps: prune, idle erases pruned sectors
        for r in range(3):
            lg.prune(lg.next_seq - 1)
            s = '{"wrap":%d}' % r + "w" * 300
            seq = lg.snapshot(s, t + 100 * r)
            yield (seq, SNAP, t + 100 * r, False, s)
            for i, inp in enumerate(inputs(20, r)):
                seq = lg.append(inp, t + 100 * r + 1 + i)
                yield (seq, INPUT, t + 100 * r + 1 + i, False, inp)
                lg.idle()
