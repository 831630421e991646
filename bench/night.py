"""A night at a table for the benchmarks: random players' inputs as the hub logs them."""
from uno.bot import Bot, Rng
from uno.events import ROUND_OVER
from uno.table import Table


def night(n, seed=1, **kw):
    """n inputs of 4 random players: [(seq, t, wall, input)], the registry, the rounds played.
    Times step 0.2-3 s; each round's end leaves a seq gap (the hub's snapshot takes one)."""
    t = Table()
    b = Bot(t, [1, 2, 3, 4], seed=seed, **kw)
    rng = Rng(seed + 100)
    ms = 0
    seq = 1
    out = []
    rounds = 0
    while len(out) < n:
        inp, evs = b.step()
        ms += 200 + rng.below(2801)
        out.append((seq, ms, False, inp))
        seq += 1
        for ev in evs:
            if ev[0] == ROUND_OVER:
                seq += 1
                rounds += 1
    return out, t.registry, rounds
