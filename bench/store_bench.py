"""Host database: rows per second into SQLite, and what the night's replays cost.

A 5,000-input night of 4 bot players (uno.bot.Bot driving uno.table.Table, inputs 0.2-3 s
apart, a seq skipped after each round for the hub's snapshot), stored the way a sync does it
(Store.add, one transaction per batch) into a fresh file; then again (every row already there:
the idempotent re-sync), then the derived views.

    PYTHONPATH=firmware:host python bench/store_bench.py [N] [batch]

Aim (issue 5): tens of thousands of rows per second into the database. Then (issue 8) the same
night chained as a table with a chain logs it, when firmware/gamelog/chain.py is there.
"""
import io
import os
import sys
import tempfile
import time

from night import night
from uno.script import dumps, input_dict
from unotable.export import _chain, check_chain_stored, export_csv, export_jsonl, verify_stored
from unotable.store import Store

TID = "0123456789abcdef"


def timed(f):
    t0 = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t0


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    recs, reg, _ = night(n)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tables.sqlite3")
        with Store(path) as s:
            s.set_registry("bench", reg)
            _, conv = timed(lambda: [dumps(input_dict(r[3], reg)) for r in recs])
            new, cold = timed(lambda: s.add("bench", recs, reg, batch=batch))
            again, warm = timed(lambda: s.add("bench", recs, reg, batch=batch))
            assert new == n and again == 0
            rounds, tg = timed(lambda: s.games("bench"))
            lines, tj = timed(lambda: export_jsonl(s, "bench", io.StringIO()))
            rows, tc = timed(lambda: export_csv(s, "bench", io.StringIO()))
            rep, tv = timed(lambda: verify_stored(s, "bench"))
            assert rep.ok, rep
        size = os.path.getsize(path)
    print("store: %d inputs, batches of %d, a new SQLite file in %s"
          % (n, batch, tempfile.gettempdir()))
    print("  into a new file        %8.0f rows/s  (%.1f ms; %d commits)"
          % (n / cold, cold * 1e3, -(-n // batch)))
    print("    of which input -> script line  %.1f us/row" % (conv / n * 1e6))
    print("  re-sync, all present   %8.0f rows/s  (%.1f ms)" % (n / warm, warm * 1e3))
    print("  file size              %8.1f bytes/input" % (size / n))
    print("  games()                %8.1f ms  (%d rounds)" % (tg * 1e3, len(rounds)))
    print("  export_jsonl           %8.1f ms  (%d lines)" % (tj * 1e3, lines))
    print("  export_csv             %8.1f ms  (%d rows)" % (tc * 1e3, rows))
    print("  verify (stored)        %8.1f ms  (%d inputs, %d rounds)"
          % (tv * 1e3, rep.inputs, rep.rounds))
    chained(recs, reg, n, batch)


def chained(recs, reg, n, batch):
    """The same night as a table with a chain logs it: a tag per input, a signed head per
    batch of 60 (as a sync sees them), a paired host."""
    chain = _chain()
    if chain is None:
        print("chain: this gamelog has no chain.py: not measured")
        return
    key, tid = bytes(range(32)), bytes.fromhex(TID)
    h = chain.GENESIS
    tagged, heads = [], []
    t0 = time.perf_counter()
    for i, r in enumerate(recs):
        h = chain.step(h, *r)
        tagged.append(r + (chain.tag(h),))
        if i % 60 == 59 or i == len(recs) - 1:
            heads.append((r[0], h.hex(), chain.mac_head(key, tid, r[0], h).hex()))
    tc = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as d:
        with Store(os.path.join(d, "t.sqlite3")) as s:
            s.name_table(TID, "bench")
            s.set_key(TID, key)
            _, cold = timed(lambda: s.add(TID, tagged, reg, batch=batch))
            s.add_heads(TID, heads)
            lines, tj = timed(lambda: export_jsonl(s, TID, io.StringIO()))
            rep, tv = timed(lambda: verify_stored(s, TID))
            assert rep.ok and rep.signed == n, rep
            rc, tk = timed(lambda: check_chain_stored(s, TID))
            assert rc.ok, rc
        size = os.path.getsize(os.path.join(d, "t.sqlite3"))
    print("chained (a tag per input, %d signed heads, paired):" % len(heads))
    print("  chain worked out       %8.1f us/input" % (tc / n * 1e6))
    print("  into a new file        %8.0f rows/s  (%.1f ms)" % (n / cold, cold * 1e3))
    print("  file size              %8.1f bytes/input" % (size / n))
    print("  export_jsonl           %8.1f ms  (%d lines)" % (tj * 1e3, lines))
    print("  verify (stored)        %8.1f ms  (chain and signatures too)" % (tv * 1e3))
    print("  chain check after sync %8.1f ms" % (tk * 1e3))


if __name__ == "__main__":
    main()
