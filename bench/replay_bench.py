"""Replay bench: a fixed night of recorded table inputs fed into Table.feed alone.

bench/replay_night.txt holds two nights of 4 random players (official rules; every house rule
with ticks and a few bad inputs), one input a line; nothing but Table.feed is timed. The
official night runs again as `clock`, each input with a time as the hub feeds it (the night
file has none): the take-back then logs every input's time. Prints
inputs/s for this engine and for the engine of the base commit (issue 10's starting figure),
under CPython and `micropython`, runs interleaved (base, new, new, base, ...) and repeated, as
medians with their spread, in CPU time: the machine is shared and noisy.

  python bench/replay_bench.py [pairs]            # both interpreters, base beside new
  python bench/replay_bench.py --record           # rewrite the night file (with today's bot)
  (child) python|micropython bench/replay_bench.py --child FIRMWARE_DIR PASSES

Under micropython this tree runs twice: from source, as a frozen image would, with the
engine's hot methods as native code (@micropython.native), and as bytecode, as copied files
and a ROMFS image run it (host/unotable/build.py: they keep native code out of the board's
small executable RAM unless `unotable deploy --native`).

When the shared machine is too loaded for CPU time to mean much, count instructions instead
(deterministic): valgrind --tool=cachegrind --cache-sim=no over a child-like loop at two pass
counts, the difference divided by the inputs fed. Under the unix port's 8 MB heap a third or
more of micropython's instructions here are gc_alloc's search for free blocks: MicroPython moves
its first-free pointer on only after a one-block allocation, so between collections each
allocation of two blocks or more (an event of 3 items, a heap frame) scans from there over the
garbage made since. The figure thus moves with the sizes allocated, not only their number: a
pop loop for feed's `del out[:]` (no slice object, a one-block one on a 32-bit board) took the
bytecode night from 74k to 146k instructions an input, on the 64-bit and a 32-bit build alike.
Bytecode functions with more than 11 words of locals and stack (judge, _play, keep, Table._feed)
also take their frame from the heap at each call (py/objfun.c), freed on return; native code
keeps its frame on the C stack. Cheap (some 400 instructions) but for one case: a heap frame
taken first at every input comes back to one place low in the heap, and its free at every
return pulls the first-free index back there, below all the garbage made since: feed's did,
and so every event of 3 items scanned it. The board's feed is a small frame that makes its
slice first (table.py); a wrapper that called _feed before the slice was back at 77k.

So micropython's ratio moves with the heap more than with the engine. On 2026-12-02, the
engines as .mpy (base, this tree as bytecode, this tree with its native marks compiled for the
host: `mpy-cross -march=x64`), the night's inputs made once each (some 240 objects, so that a
board-sized heap holds them), instructions an input for the official night / with the clock:
  pip unix port, 8 MB heap         base 108.8k / 111.4k  bytecode 71.0k / 79.5k  (1.53x / 1.40x)
  same, a collection each 100 KB   base 108.9k / 111.7k  bytecode 89.1k / 94.9k  (1.22x / 1.18x)
                                                         native   52.9k / 57.4k  (2.06x / 1.95x)
  same, a 192 KB heap (100 KB free) base 74.6k / 77.2k   bytecode 53.2k / 59.3k  (1.40x / 1.30x)
                                                         native   35.0k / 40.5k  (2.13x / 1.91x)
  a 32-bit build (tools/frozen_unix.py --m32), 128 KB heap (70-80 KB free, as a WROOM-32's):
                                   base 94.0k / 97.3k    bytecode 58.1k / 64.9k  (1.62x / 1.50x)
The native engine (a frozen image, `unotable deploy --native`) is twice the base's speed
however the heap is set; the bytecode one (copied files, ROMFS) was 1.2-1.6x by the heap's mood.

2026-12-02, later (feed's frame off the board's heap, the host's log inline): instructions an input, the night's inputs made once, one night fed at two pass
counts: CPython (PYTHONHASHSEED=0) 1 and 3 passes, micropython -X heapsize=8m 3 and 7 (past
the start-up's first passes). Official / clock / house:
  CPython               base 23.0k / 24.8k / 24.7k   before 13.8k / 17.4k / 9.2k
                                                     after  13.3k / 16.4k / 8.9k
  micropython bytecode  base 110.4k / 113.4k / 162.0k  before 76.3k / 81.0k / 60.4k
                                                       after  42.6k / 47.3k / 28.0k
  micropython native (from source)                     before 35.7k / 39.8k / 23.8k
                                                       after  36.1k / 40.2k / 24.7k
The child itself (the three nights in one process, 4 and 12 passes) scans more: base 143.0k,
bytecode 59.3k an input, a third of it gc_alloc's: a night after another scans again (likely
a free block below _feed's frame takes the slice, and the frame is back at its place), so the
fix holds for a night alone. This bench then: bytecode 1.64x / 1.56x / 3.59x (CPython
2.00x / 1.75x / 3.30x; an earlier run 1.81x / 1.71x / 4.75x, CPython 1.87x / 1.56x / 3.09x).

2026-12-02, evening (the per-turn fields reset once an input, the deal inline in feed, loads
and compares CPython specialises): instructions an input as above, official / clock / house:
  CPython               before 13.4k / 16.4k / 9.0k    after 12.9k / 15.8k / 8.9k
  micropython bytecode  before 42.7k / 47.4k / 28.5k   after 41.5k / 46.4k / 28.1k
That loop runs at module level (its names are dict lookups; the clock's ms a global). In a
function, as this bench's child feeds: CPython base 22.7k / 23.9k, before 12.9k / 15.4k, after
12.3k / 14.8k, of which the loop alone (a feed that does nothing) 0.6k / 0.8k. Of the clock
night's 2.2k an input more in feed: the take-back's time delta, logged inline for a card read,
1.6k (a new int, a range test, two more stores, and & and >>, which CPython 3.11 does not
specialise: 0.4k); feed's clock (since, P2) 0.5k; keep's time for the other inputs the rest.

2026-12-02, night (the host's take-back log holds a time whole, in the room of the board's
bytes, so its chunks roll where the board's do; _HOST a const the board's compiler folds):
instructions an input, the night alone fed in a function (as above), official / clock / house:
  CPython               before 12.3k / 14.7k / 8.3k    after 12.3k / 14.0k / 8.2k
  micropython bytecode  before 39.9k / 44.5k           after 39.6k / 44.2k
The night's card reads are 91% of its inputs: the clock's cost left is the delta itself (a new
int past 256, its range test: the board's byte count) and feed's clock (since, P2).

2026-12-02, the child itself (bytecode, its three nights at 4 and 12 passes): the evening's feed
read the registry's find as a load before its call, for CPython; on the board that makes a bound
method on the heap at every card read, and gc_alloc's scans took the child from 51.5k to 74.4k
instructions an input (each night alone got cheaper). The board calls the method again: 51.6k.
Count the child too when a change allocates, not only a night alone.
"""
import sys

NIGHT = "bench/replay_night.txt"
BASE = "c6af61c"  # the commit issue 10's work started from
EVERYTHING = {"preset": "party", "forced": "yes", "scoring": "losers", "elimination": "yes",
              "teams": 2}


def read_night(path):
    """[(label, settings, [input, ...])] from the night file."""
    from binascii import unhexlify
    nights = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "#":
                nights.append((w[1], EVERYTHING if w[1] == "house" else None, []))
                continue
            k = int(w[0])
            if k == 1 or k == 2:
                inp = (k, unhexlify(w[1]))
            elif k == 5:
                inp = (k,)
            elif k == 6:
                inp = (k, int(w[1]))
            elif k == 7:
                inp = (k, w[1], int(w[2]) if w[2].isdigit() else w[2])
            else:
                inp = (k, int(w[1]), int(w[2]))
            nights[-1][2].append(inp)
    return nights


def cpu_seconds():
    """CPU time of this process: the machine is shared, and wall time counts the others' work.
    MicroPython has no process_time: the kernel's count (10 ms ticks) over many passes."""
    import time
    try:
        return time.process_time()
    except AttributeError:
        with open("/proc/self/stat") as f:
            fields = f.read().split(")")[-1].split()
        return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in ticks of 10 ms


def child(passes):
    """Times `passes` replays of each night with the engine on sys.path; prints one line each."""
    from uno.rules import Settings
    from uno.table import Table
    nights = read_night(NIGHT)
    for label, settings, inputs in nights + [("clock",) + nights[0][1:]]:
        a = cpu_seconds()
        for _ in range(passes):
            t = Table(Settings(settings))
            feed = t.feed
            if label == "clock":  # as the hub feeds: each input with its time (0.7 s apart)
                ms = 0
                for inp in inputs:
                    feed(inp, ms)
                    ms += 700
            else:
                for inp in inputs:
                    feed(inp)
        secs = cpu_seconds() - a
        evs = 0
        t = Table(Settings(settings))
        for inp in inputs:
            evs += len(t.feed(inp))
        print("%s %d %d %.1f" % (label, len(inputs), evs, len(inputs) * passes / secs))


def record():
    """Writes the night file: random players' inputs as the hub would log them."""
    sys.path.insert(0, "firmware")
    from binascii import hexlify
    from uno.bot import Bot
    from uno.events import ROUND_OVER
    from uno.rules import Settings
    from uno.table import Table
    with open(NIGHT, "w") as f:
        for label, settings, rounds in (("official", None, 24), ("house", EVERYTHING, 24)):
            f.write("# %s %d rounds\n" % (label, rounds))
            t = Table(Settings(settings))
            bot = Bot(t, [1, 2, 3, 4], seed=11, mistakes=10, tick=100 if settings else 0)
            done = 0
            while done < rounds:
                inp, evs = bot.step()
                k = inp[0]
                if k == 1 or k == 2:
                    f.write("%d %s\n" % (k, hexlify(inp[1]).decode()))
                else:
                    f.write(" ".join(str(x) for x in inp) + "\n")
                for e in evs:
                    if e[0] == ROUND_OVER:
                        done += 1


def base_tree():
    """The base commit's firmware, unpacked once into build/."""
    import os
    import subprocess
    out = "build/replay-base-%s" % BASE
    if not os.path.isdir(out):
        os.makedirs(out)
        tar = subprocess.run(["git", "archive", BASE, "firmware/uno"], check=True,
                             capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", out], input=tar, check=True)
    return out + "/firmware"


def engine_copy(out, change):
    """This tree's engine (firmware/uno) into out/uno, each file's text through
    change(name, text); returns out, the firmware folder to put on the path."""
    import os
    os.makedirs(out + "/uno", exist_ok=True)
    for name in os.listdir("firmware/uno"):
        if name.endswith(".py"):
            with open("firmware/uno/" + name) as f:
                text = change(name, f.read())
            with open(out + "/uno/" + name, "w") as f:
                f.write(text)
    return out


def bytecode_tree():
    """This tree's engine with its @micropython.native marks blanked: the bytecode that copied
    files and a ROMFS image run (host/unotable/build.py), into build/."""
    sys.path.insert(0, "host")
    from unotable.build import bytecode_source
    return engine_copy("build/replay-bytecode/firmware", lambda name, text: bytecode_source(text))


def compare(pairs):
    import os
    import statistics
    import subprocess
    # passes a run: about a second of CPU each (a run of 0.2 s spread its median by a fourth)
    interpreters = (("cpython", [sys.executable], 200),
                    ("micropython", [".venv/bin/micropython", "-X", "heapsize=8m"], 60))
    for iname, cmd, passes in interpreters:
        engines = (("base " + BASE, base_tree()), ("this tree", "firmware"))
        if iname == "micropython":  # the marked methods: native as frozen, bytecode as copied
            engines += (("... as bytecode", bytecode_tree()),)
        runs = {}
        for i in range(pairs):
            order = engines if i % 2 == 0 else engines[::-1]
            for ename, fw in order:
                if iname == "cpython":
                    env = dict(os.environ, PYTHONPATH=fw)
                else:
                    env = dict(os.environ, MICROPYPATH=fw + ":.frozen")
                r = subprocess.run(cmd + [__file__, "--child", fw, str(passes)], env=env,
                                   capture_output=True, text=True)
                if r.returncode:
                    sys.exit("%s %s failed:\n%s" % (iname, ename, r.stderr))
                for ln in r.stdout.split("\n"):
                    if ln:
                        label, n, evs, rate = ln.split()
                        runs.setdefault((label, ename), []).append(float(rate))
                        runs[(label, "n")] = (n, evs)
        print("replay, %s, %d pairs interleaved (median inputs/s, min-max)" % (iname, pairs))
        for label in ("official", "clock", "house"):
            n, evs = runs[(label, "n")]
            figs = []
            for ename, _ in engines:
                r = runs[(label, ename)]
                figs.append(statistics.median(r))
                print("  %-8s %-16s %8.0f  (%.0f-%.0f)  %s inputs" % (
                    label, ename, figs[-1], min(r), max(r), n))
            for (ename, _), fig in zip(engines[1:], figs[1:]):
                print("  %-8s %-16s %7.2fx" % (label, "speed-up" if ename == "this tree" else
                                              "... bytecode", fig / figs[0]))


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["--child"]:
        sys.path.insert(0, argv[1])
        child(int(argv[2]))
    elif argv[:1] == ["--record"]:
        record()
    else:
        compare(int(argv[0]) if argv else 5)


if __name__ == "__main__":
    main()
