"""Soak: damage anywhere on the ring, not only at its end, boot after boot: bit flips in old
sectors, a whole sector erased, a run zeroed, a sector's stamp or use header hit, a byte
rewritten; between boots a round goes on (snapshots over several sectors, inputs), and a host
acks now and then. Each boot: nothing raises, every record served is one written (same seq,
same bytes), every record not served lies in a gap, seq never goes back, and the state is the
newest intact snapshot plus the intact inputs after it. Fixed seeds; SOAK_SEEDS=N runs N."""
import os

from uno.bot import Rng
from ringkit import chip, night, boot
from faultkit import expect
from gamelog import GAP, INPUT, SNAP, LogFull
from logkit import inputs

_env = getattr(os, "getenv", None)
SEEDS = int((_env and _env("SOAK_SEEDS")) or 12)


def _hurt(d, rng):
    n = d.n * d.ss
    what = rng.below(5)
    if what == 0:                       # bit flips anywhere
        for _ in range(1 + rng.below(4)):
            d.mem[rng.below(n)] ^= 1 << rng.below(8)
    elif what == 1:                     # a whole sector erased
        s = rng.below(d.n)
        d.mem[s * d.ss:(s + 1) * d.ss] = b"\xff" * d.ss
    elif what == 2:                     # a run zeroed
        a = rng.below(n - 64)
        k = 1 + rng.below(64)
        d.mem[a:a + k] = bytes(k)
    elif what == 3:                     # two bits of one sector's header (stamp, use, flags)
        s = rng.below(d.n)
        for _ in range(2):
            d.mem[s * d.ss + rng.below(48)] ^= 1 << rng.below(8)
    else:                               # a byte rewritten
        d.mem[rng.below(n)] = rng.below(256)
    return what


def _soak(seed, steps=8):
    rng = Rng(seed)
    d = chip(48)
    recs = night(d, rounds=2, per=9)
    last = 0
    t = 200000
    for st in range(steps):
        what = _hurt(d, rng) if rng.below(3) else -1
        (snap, ins, nxt), damage, got, lg = boot(d)
        byseq = {}
        for r in recs:
            byseq[r[0]] = r
        served = [g[:5] for g in got if g[1] != GAP]
        for r in served:
            assert byseq.get(r[0]) == r, (seed, st, what, r)
        seqs = [g[0] for g in got]
        assert seqs == sorted(seqs), (seed, st, what)
        have = set(r[0] for r in served)
        lost = set(r[0] for r in recs if r[0] not in have)
        gaps = [g for g in got if g[1] == GAP]
        for s in lost:
            assert [g for g in gaps if g[0] <= s <= g[2]], (seed, st, what, s, gaps)
        assert nxt > recs[-1][0] and nxt >= last, (seed, st, what, nxt, last)
        assert (snap, ins) == expect(recs, lost), (seed, st, what, damage)
        try:
            if rng.below(2):
                t += 100
                s = '{"r":%d,"p":"%s"}' % (st, "q" * rng.below(900))
                recs.append((lg.snapshot(s, t), SNAP, t, False, s))
            for inp in inputs(3 + rng.below(30), st * 7):
                t += 50
                recs.append((lg.append(inp, t), INPUT, t, False, inp))
                lg.idle()
        except LogFull:
            pass
        last = lg.next_seq
        if rng.below(3) == 0:
            lg.prune(lg.next_seq - 1)
        lg.close()


def test_damage_anywhere_boot_after_boot_loses_only_what_it_hit_and_says_so():
    for seed in range(1, SEEDS + 1):
        _soak(seed)
