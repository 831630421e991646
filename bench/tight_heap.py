"""The hub on a tight heap: a 10-seat table with every house rule (preset party: long rounds,
big snapshots) played for 3,000 inputs through the whole app on the ROMFS deploy path, with
less heap each run. Prints, per heap: rounds played, inputs that failed (not logged, not
judged) and round snapshots that failed. The table must lose no input however the heap is
cut up; a snapshot that fails costs only a longer recovery at the next boot. Random players
play the engine alone first, under CPython, and write their inputs to a file, which the hub
then reads one at a time (as bench/heap.py): nothing of the players is in the hub's heap.

Late in a long night the heap is fragmented, not full: free runs are short. A WROOM-32 gives
Python about 100 KB, and the ROMFS path's peak live is some 63 KB on a 32-bit build (106 KB on
the 64-bit port: bench/deploy_heap.py).

    python bench/tight_heap.py [--micropython BIN] [INPUTS] [HEAP_KB ...]
        (default 3000 inputs; heaps 160 140 130 125 KB, or 100 90 85 80 on a 32-bit build)

--micropython: another unix port, e.g. a 32-bit one from tools/frozen_unix.py --m32, whose
objects are an ESP32's size.
    (child, under micropython via tools/romrun.py) romrun.py IMAGE tight_heap:child
"""
import gc
import sys

import inputfile

LOG = "/tmp/unotable-tight-heap-log"
INPUTS = "/tmp/unotable-tight-heap-inputs.bin"
_IN_TICK = 6  # uno/events.py (host-only)
_ROUND_OVER = 26


def _record(n, seed):
    """Random players (host-only) play the engine alone, under CPython; their inputs go to a
    file that the hub under micropython reads one at a time: its heap holds nothing of them
    (the engine is the same on both, so is the game)."""
    from uno.bot import Bot
    from uno.rules import Settings
    from uno.table import Table
    t = Table(Settings({"preset": "party"}))
    bot = Bot(t, list(range(1, 11)), seed=seed, mistakes=30)
    k = 0
    with open(INPUTS, "wb") as f:
        for _ in range(n):
            inp = bot.next_input()
            if inp[0] > _IN_TICK:   # (a rule, a take-back, a name: the referee's, not a player's)
                continue
            inputfile.put(f, inp)
            bot.keep(t.feed(inp, k * 700))  # the hub's clock below: 0.7 s an input
            k += 1


def child(argv):
    gc.collect()
    from logdir import wipe
    from hub.app import Hub
    from hub.sim import SimBoard, FLASH, _nor
    from gamelog.ring import RingLog
    wipe(LOG)
    board = SimBoard()
    h = Hub(board, RingLog(_nor(LOG, FLASH), LOG))
    h.start({"preset": "party"})
    print("tight_heap: started")
    rounds = failed = snaps = 0
    ms = 0
    for inp in inputfile.inputs(INPUTS):
        board.vclock = ms         # the recording's clock (no ticks: no turn timer fires)
        ms += 700
        try:
            evs = h.feed(inp)
        except MemoryError:       # what the hub's loop would catch: the input is lost
            evs = None
            gc.collect()
        if evs is None:
            failed += 1
            continue
        for e in evs:
            if e[0] == _ROUND_OVER:
                rounds += 1
                if h.fault and h.fault.startswith("snapshot"):
                    snaps += 1
                h.fault = None
    wipe(LOG)
    print("tight_heap: %d %d %d" % (rounds, failed, snaps))


def main(argv):
    import os
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [os.path.join(root, "host"), os.path.join(root, "firmware")]
    from unotable import romfs
    from unotable.build import tool
    binary = tool("micropython")
    if argv[:1] == ["--micropython"]:
        binary = os.path.abspath(argv[1])
        argv = argv[2:]
    inputs = int(argv[0]) if argv else 3000
    wide = subprocess.run([binary, "-c", "import sys; print(sys.maxsize > 2 ** 32)"],
                          capture_output=True, text=True).stdout.strip() == "True"
    heaps = [int(x) for x in argv[1:]] or ([160, 140, 130, 125] if wide else [100, 90, 85, 80])
    with tempfile.TemporaryDirectory(prefix="tight-heap-", dir=os.path.join(root, "build")) as w:
        image = os.path.join(w, "unotable.romfs")
        romfs.build_image(image, w)
        _record(inputs, 4)
        size = os.path.getsize(image)
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(
            [os.path.join(root, "bench"), ".frozen"]))
        print("tight heap: a 10-seat party table, %d inputs through the hub, ROMFS path, "
              "micropython unix port, %s-bit (the image's %d KB held apart)" % (
                  inputs, "64" if wide else "32", size // 1024))
        print("  heap KB  rounds  inputs failed  snapshots failed")
        for kb in heaps:
            r = subprocess.run([binary, "-X", "heapsize=%d" % (kb * 1024 + size + 4096),
                                romfs.RUNNER, image, "tight_heap:child"],
                               capture_output=True, text=True, cwd=root, env=env, timeout=900)
            got = [ln for ln in r.stdout.splitlines() if ln.startswith("tight_heap: ")]
            if r.returncode or len(got) < 2:
                last = (r.stdout + r.stderr).strip().splitlines()[-1:] or ["exit %d" % r.returncode]
                print("  %7d  %s: %s" % (kb, "failed in play" if got else "no start", last[0]))
                continue
            rounds, failed, snaps = got[1].split()[1:]
            print("  %7d  %6s  %13s  %16s" % (kb, rounds, failed, snaps))


if __name__ == "__main__":
    main(sys.argv[1:])
