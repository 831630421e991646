"""What the take-back's log costs every input, on CPython: the engine as it is beside a copy
whose log is cut out (no take-back could work in it), and the base commit of issue 10.

Every input the table accepts goes into the take-back's log (uno/takeback.py: feed writes a
card read inline, keep the rest). The copy, made into build/, returns before both. Two
figures, interleaved and repeated, medians of CPU time:
  - the replay bench's nights (bench/replay_bench.py: Table.feed alone), inputs/s;
  - the peer bench's side of ours (bench/peers/peer_bench.py: self-play of 2 random players),
    microseconds a card moved: RLCard's figure over these is the peer ratio.
Issue 10's aims (2x the base's replay; 6x RLCard per card moved) are met without the log and
not with it: the closing note of 2026-12-03 has the figures.

  python bench/takeback_cost.py [pairs]
"""
import os
import statistics
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
OUT = "build/replay-no-takeback/firmware"

# (file, the text the cut starts at, the text it ends before, what goes in its place)
_CUTS = (
    ("table.py", "            elif card >= 0:\n                # an accepted card read",
     "            self.back.keep(inp, ms, out, card)",
     "            elif card >= 0:\n                return out  # (no log)\n"),
    ("takeback.py", "        n = self.n\n        log = self.log\n        if n > self.room:",
     "    def _roll(self, n):", "        return  # (no log)\n\n"),
)


def cut(name, text):
    """uno/NAME's text with the log cut out (the same text for the files it is not in);
    ValueError when the log has moved: update _CUTS."""
    for file, start, end, instead in _CUTS:
        if file == name:
            a = text.find(start)
            b = text.find(end, a)
            if a < 0 or b < 0:
                raise ValueError("%s no longer has the log this bench cuts out: update _CUTS"
                                 % name)
            text = text[:a] + instead + text[b:]
    return text


def no_log_tree():
    """This tree's engine with the take-back's per-input log cut out, into build/."""
    from replay_bench import engine_copy
    return engine_copy(OUT, cut)


def main():
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    os.chdir(ROOT)
    sys.path.insert(0, BENCH)
    from replay_bench import BASE, base_tree
    engines = (("base " + BASE, base_tree()), ("this tree", "firmware"),
               ("no take-back log", no_log_tree()))
    replay = {}
    peer = {}
    for i in range(pairs):
        for name, fw in (engines if i % 2 == 0 else engines[::-1]):
            r = subprocess.run([sys.executable, "bench/replay_bench.py", "--child", fw, "150"],
                               env=dict(os.environ, PYTHONPATH=fw), capture_output=True,
                               text=True)
            if r.returncode:
                sys.exit("%s failed:\n%s" % (name, r.stderr))
            for ln in r.stdout.split("\n"):
                if ln:
                    label, _, _, rate = ln.split()
                    replay.setdefault((label, name), []).append(float(rate))
            r = subprocess.run([sys.executable, "bench/peers/peer_bench.py", "--ours", fw, "300"],
                               capture_output=True, text=True)
            if r.returncode:
                sys.exit("%s failed:\n%s" % (name, r.stderr))
            _, secs, moved, _ = r.stdout.split()
            peer.setdefault(name, []).append(float(secs) / int(moved) * 1e6)
    print("the take-back's log, CPython, %d pairs interleaved (medians, min-max)" % pairs)
    for label in ("official", "clock", "house"):
        base = statistics.median(replay[(label, engines[0][0])])
        for name, _ in engines:
            xs = replay[(label, name)]
            m = statistics.median(xs)
            print("  replay %-8s %-18s %8.0f inputs/s (%.0f-%.0f)  %.2fx the base" % (
                label, name, m, min(xs), max(xs), m / base))
    for name, _ in engines:
        xs = peer[name]
        print("  self-play, 2 players   %-18s %6.2f us a card moved (%.2f-%.2f)" % (
            name, statistics.median(xs), min(xs), max(xs)))


if __name__ == "__main__":
    main()
