"""Heap of the engine through 10-player rounds under `micropython -X heapsize=96k`.

Run on the compiled firmware (as deployed): make bench, or
  python tools/build_mpy.py && MICROPYPATH=build/mpy:.frozen micropython -X heapsize=96k bench/heap.py
Prints the heap after the imports, the peak live heap (collected after every input, so it is
what the table really holds), and the peak without collecting (what the GC has to absorb).
Aim (issue 2): the round completes; peak <= 48 KB.
"""
import gc
import sys

gc.collect()
base = gc.mem_alloc()
from uno.table import Table  # noqa: E402
from uno.events import ROUND_OVER  # noqa: E402

gc.collect()
engine = gc.mem_alloc()
from uno.bot import Bot  # noqa: E402  (the players: not on the board)

gc.collect()
imported = gc.mem_alloc()


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    t = Table()
    bot = Bot(t, list(range(1, 11)), seed=9, mistakes=20)
    live = raw = 0
    done = inputs = 0
    while done < rounds:
        evs = t.feed(bot.next_input())
        raw = max(raw, gc.mem_alloc())
        bot.keep(evs)
        inputs += 1
        for e in evs:
            if e[0] == ROUND_OVER:
                done += 1
        gc.collect()
        live = max(live, gc.mem_alloc())
    gc.collect()
    print("heap, 10 players, %d rounds, %d inputs, heap %d KB" % (
        rounds, inputs, (gc.mem_alloc() + gc.mem_free()) // 1024))
    print("  at start %d B; engine imported %d B; with the random players %d B" % (
        base, engine, imported))
    print("  peak live %d B (%.1f KB), peak before collection %d B (%.1f KB)" % (
        live, live / 1024, raw, raw / 1024))


main()
