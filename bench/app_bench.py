"""The whole app in the simulated table, under `micropython` on the compiled firmware.

    python tools/build_mpy.py
    MICROPYPATH=build/mpy:.frozen micropython -X heapsize=192k bench/app_bench.py [SCRIPT] [--files]

Prints: boot to ready (imports, log recovery, first LEDs), the heap through a 10-player round
(peak live: collected after every input; and the share that is the app's code, which a board
keeps in flash), the latency from a reader event to the buzzer command through the app
(p50/p99), and the recovery time for a round of 300 inputs. Aims (issue 4): heap <= 64 KB,
latency well inside 100 ms on an ESP32 (50-100x slower than here). The log is the NOR ring of a
board with the log partition (a 1 MB NOR fake in a file, gamelog.nor), or with --files segment
files as on a board without it.
"""
import gc
import sys
import time

t0 = time.ticks_us()
gc.collect()
base = gc.mem_alloc()
import asyncio  # noqa: E402
from gamelog import Log  # noqa: E402
from logdir import wipe  # noqa: E402
from hub.app import Hub  # noqa: E402
from hub.sim import SimBoard  # noqa: E402
from uno.script import header, parse_line, to_input  # noqa: E402
RING = "--files" not in sys.argv
if RING:
    import gamelog.ring  # noqa: E402,F401  (code: counted with the code, not the state)
    import gamelog.nor  # noqa: E402,F401

gc.collect()
code = gc.mem_alloc() - base
def _name():
    import os
    from binascii import hexlify
    return "/tmp/unotable-bench-log-" + hexlify(os.urandom(4)).decode()  # benches run at once


LOG = _name()
if not RING:
    sys.argv.remove("--files")


def open_store(path):
    """The hub's log as on a board: the NOR ring on its partition, or files (--files)."""
    if not RING:
        return Log(path)
    from gamelog.ring import RingLog
    from hub.sim import FLASH, _nor
    return RingLog(_nor(path, FLASH), path)    # the simulated table's own pretend partition


def ms(us):
    return us / 1000


def main():
    script = sys.argv[1] if len(sys.argv) > 1 else "examples/round-10p.jsonl"
    wipe(LOG)
    board = SimBoard()
    hub = Hub(board, open_store(LOG))
    board.hub = hub
    hub.start()
    ready = time.ticks_diff(time.ticks_us(), t0)
    print("app, %s, heap %d KB, log %s" % (script, (gc.mem_alloc() + gc.mem_free()) // 1024,
                                           "NOR ring" if RING else "files"))
    print("  boot to ready: %.1f ms (imports, log recovery, LEDs)" % ms(ready))

    # the round: each line becomes a reader or button event put in the inbox, as a board's
    # tasks do; the hub's loop logs, judges and answers it
    put_at = []
    lat = []
    play = board.buzzer.play

    def timed_play(pattern, ticks=None):
        lat.append(time.ticks_diff(time.ticks_us(), put_at[-1]))
        play(pattern, ticks)
    board.buzzer.play = timed_play
    live = [0, 0]

    async def drive():
        asyncio.create_task(hub.run())
        with open(script) as f:
            for line in f:
                d = parse_line(line)
                if d is None or header(d) is not None or "in" not in d:
                    continue
                inp = to_input(d, hub.table)
                put_at.append(time.ticks_us())
                hub.inbox.put(inp)
                while hub.inbox.items:
                    await asyncio.sleep_ms(0)
                live[1] = max(live[1], gc.mem_alloc())
                gc.collect()
                live[0] = max(live[0], gc.mem_alloc())
    asyncio.run(drive())
    lat.sort()
    n = len(lat)
    print("  heap: code %.1f KB; peak live %.1f KB (app state %.1f KB above the code); "
          "peak before collection %.1f KB" % (code / 1024, live[0] / 1024,
                                              (live[0] - code - base) / 1024, live[1] / 1024))
    print("  reader event -> buzzer command: p50 %d us, p99 %d us, max %d us (%d inputs)" % (
        lat[n // 2], lat[n * 99 // 100], lat[-1], n))
    hub.log.close()
    del hub, board, lat, put_at      # a new boot: nothing of the first one stays in the heap
    asyncio.new_event_loop()         # (its tasks, still queued, would hold the first hub)
    gc.collect()

    # recovery: a snapshot, then a round of 300 inputs, then the power goes
    wipe(LOG)
    board2 = SimBoard()
    h = Hub(board2, open_store(LOG))
    h.start({"preset": "party"})   # long rounds: 300 inputs fit in one
    from uno.bot import Bot
    bot = Bot(h.table, list(range(1, 11)), seed=4, mistakes=30)
    k = 0
    while k < 300:
        evs = h.feed(bot.next_input())
        bot.keep(evs)
        k += 1
        for e in evs:
            if e[0] == 26:  # round over: a snapshot; count the next round's inputs
                k = 0
                h.log.prune(h.seq - 1)  # synced and acknowledged: the log stays one round
    seq = h.seq
    h.log.close()
    # the boot after the power cut is a fresh process, as on the board (nothing of the round
    # played above left in its heap)
    import os
    os.system("%s -X heapsize=%dk bench/app_bench.py --boot %s %d%s" % (
        sys.executable, (gc.mem_alloc() + gc.mem_free()) // 1024, LOG, seq,
        "" if RING else " --files"))
    wipe(LOG)
    os.system("%s -X heapsize=%dk bench/loop_gap.py --case on-fast %s" % (  # issue 9 item 5
        sys.executable, (gc.mem_alloc() + gc.mem_free()) // 1024, script))


def boot(path, seq):
    gc.collect()
    t = time.ticks_us()
    h3 = Hub(SimBoard(), open_store(path))
    h3.start()
    took = time.ticks_diff(time.ticks_us(), t)
    if h3.seq != seq or h3.fault:
        print("  recovery FAILED (%d segments): %s; the table started at seq %d of %d" % (
            len(h3.log.segments()), h3.fault, h3.seq, seq))
    else:
        print("  recovery of %d inputs since the last snapshot (%d segments): %.1f ms" % (
            h3.recovered, len(h3.log.segments()), ms(took)))
    h3.log.close()


if len(sys.argv) > 3 and sys.argv[1] == "--boot":
    boot(sys.argv[2], int(sys.argv[3]))
else:
    main()
