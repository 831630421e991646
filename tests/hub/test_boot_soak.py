"""Soak: many boots in a row, each cut at a random point (a program, an erase, the boot's own
erases), the table on the NOR ring as on a board, a host acking now and then. After every boot
the table is the replay of the inputs it answered (and at most the one the cut caught), no
answered input is missing from the log unless pruned, seq never goes back, and boot never
raises. Fixed seeds; SOAK_SEEDS=N in the environment runs N of them (make test: a few)."""
import os

from uno.bot import Rng
from gamelog.nor import Nor
from gamelog.ring import RingLog
from gamelog import GAP, INPUT
from hubkit import FakeBoard, game
from hub.app import Hub
from uno.rules import Settings
from uno.state import snapshot
from uno.table import Table

TID = b"TABLE-01"
DIR = "/tmp/unotable-soak"
_env = getattr(os, "getenv", None)
SEEDS = int((_env and _env("SOAK_SEEDS")) or 4)


def _replay(acked):
    t = Table(Settings())
    for seq, ms, inp in acked:
        t.feed(inp, ms)
    return snapshot(t)


def _boot(d, clock, settings=None):
    board = FakeBoard()
    board.clock = clock
    h = Hub(board, RingLog(d, DIR, table_id=TID, seg_max=600))
    h.start(settings)          # never raises, whatever the cut left
    return h


def _soak(seed, boots=30, nsec=64, ss=512):
    rng = Rng(seed)
    settings, inputs = game(seed=seed, rounds=8, extra=10)
    d = Nor(nsec, ss)
    acked = []                 # (seq, ms, input) of every input answered
    i = 0
    last = 0
    h = None
    caught = None              # the input the last cut caught, if any
    for b in range(boots):
        if i >= len(inputs):
            break
        if h:
            h.log.close()
        d.power_on()
        if b and rng.below(4) == 0:           # the power goes again while the table boots
            d.ops = 0
            d.cut_op = 1 + rng.below(8)
            d.cut_at = rng.below(8)
            _boot(d, inputs[i][0]).log.close()
            d.power_on()
        h = _boot(d, inputs[i][0], None if b else settings)
        lg = h.log
        if not b:
            acked = [(r[0], r[1], r[3]) for r in lg.replay_records()]   # the settings
        got = snapshot(h.table)
        want = _replay(acked)
        if got == want and caught is not None:
            i -= 1                             # lost with the power: played again
        elif got != want:
            assert caught is not None, (seed, b, h.damage)
            acked.append(caught)               # on flash whole before the power went
            assert got == _replay(acked), (seed, b, h.damage)
        assert h.fault is None, (seed, b, h.fault)
        assert h.seq >= last, (seed, b, h.seq, last)
        last = h.seq
        served = {}
        gaps = []
        for r in lg.read_from(1):
            if r[1] == INPUT:
                served[r[0]] = r[4]
            elif r[1] == GAP:
                gaps.append(r)
        for seq, ms, inp in acked:
            if served.get(seq) != inp:        # only an acknowledged segment may go
                assert [g for g in gaps if g[0] <= seq <= g[2] and g[3] == "pruned"], (
                    seed, b, seq, inp, gaps)
        if rng.below(3) == 0:                  # a host synced: it acks
            lg.prune(lg.next_seq - 1)
        d.ops = 0
        d.cut_op = 1 + rng.below(60)
        d.cut_at = rng.below(8)
        caught = None
        while i < len(inputs) and not d.dead:
            ms, inp = inputs[i]
            h.board.clock = ms
            seq = h.seq + 1
            evs = h.feed(inp)
            i += 1
            if d.dead:
                caught = (seq, ms, inp)
                break
            assert evs is not None, (seed, b, h.fault, h.full)
            acked.append((h.seq, ms, inp))
            lg.idle()
    return b


def test_many_boots_each_cut_at_a_random_point_lose_nothing_answered():
    n = 0
    for seed in range(1, SEEDS + 1):
        n += _soak(seed)
    assert n > 12 * SEEDS
