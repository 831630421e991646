"""The app's heap on the deploy paths, under the `micropython` unix port (docs/deploy.md):

  .mpy    the compiled files on a filesystem: an import reads the bytecode into the heap;
  romfs   the same files packed by `mpremote romfs build`, mounted from a buffer (vfs.VfsRom):
          an import leaves bytecode, strings and names in the image and runs them in place;
  frozen  the firmware compiled into the interpreter (tools/unix_manifest.py): only with a
          binary built by tools/frozen_unix.py.

    .venv/bin/python bench/deploy_heap.py [REPEATS]                       # .mpy and romfs
    .venv/bin/python bench/deploy_heap.py [REPEATS] --plain BIN --frozen BIN   # all three

Each run is bench/app_bench.py's 10-player round (imported, not copied) in a fresh process,
started by tools/romrun.py; the paths alternate, run by run. On the unix port the image is a
bytes object in the heap, so romfs runs get that many more bytes of heap and the figures
below leave them out: what remains is what a board that maps the image from flash would hold.
With --plain, the .mpy and romfs paths run on that binary (built from the same source as the
frozen one, without the firmware: a frozen firmware's names would already be in its ROM).
The pip unix port is 64-bit; `tools/frozen_unix.py --m32` builds 32-bit binaries, whose objects
are an ESP32's size. Figures include the interpreter's own heap and the runner's (a few KB).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from unotable import romfs  # noqa: E402
from unotable.build import build, tool  # noqa: E402

# Room enough for the .mpy path on the 64-bit port: at 256k its code's many pieces left the
# free heap in holes (60 KB free after a collection, no run of 2.2 KB), so the round's snapshot
# failed and app_bench's recovery part with it. The figures are peaks, the same for any heap
# that holds them. romfs adds the image.
HEAP = 384 * 1024
APP = re.compile(r"code ([\d.]+) KB; peak live ([\d.]+) KB \(app state ([\d.]+) KB above the "
                 r"code\); peak before collection ([\d.]+) KB")
IMAGE = re.compile(r"romfs image: (\d+) bytes, (\d+) bytes of heap here")
FROM = re.compile(r"code from: (\S+)")
# app_bench keeps its log in a fixed /tmp folder that any other app bench run shares: each run
# here gets a /tmp of its own (a mount namespace) where the system allows it
OWN_TMP = ["unshare", "-m", "sh", "-c", 'mount -t tmpfs none /tmp && exec "$@"', "sh"]


def own_tmp():
    try:
        r = subprocess.run(OWN_TMP + ["true"], capture_output=True, timeout=10)
    except OSError:
        return []
    return OWN_TMP if r.returncode == 0 else []


def came_from(path, where):
    if path == "romfs":
        return where.startswith(romfs.MOUNT + "/")
    if path == "mpy":
        return where.endswith(".mpy") and not where.startswith(romfs.MOUNT + "/")
    return where == "uno/table.py"  # frozen: the name it was frozen under


def run_once(path, binary, mpy, image, wrap):
    """One app bench run; returns (code, peak live, state, peak before collection) in bytes,
    the image's heap taken off."""
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        ([mpy] if path == "mpy" else []) + [os.path.join(ROOT, "bench"), ".frozen"]))
    heap = HEAP + (os.path.getsize(image) + 4096 if path == "romfs" else 0)
    argv = wrap + [binary, "-X", "heapsize=%d" % heap, romfs.RUNNER, "--say",
                   image if path == "romfs" else "-", "app_bench"]
    for attempt in (1, 2):  # without a /tmp of its own, another app bench may wipe its log
        try:
            r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT,
                               timeout=120)
        except subprocess.TimeoutExpired as e:  # app_bench waits for a hub task that died
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout
            r = subprocess.CompletedProcess(argv, -1, (out or "") + "\ntimed out after 120 s", "")
        m = APP.search(r.stdout)
        if not r.returncode and m:
            break
        last = (r.stdout + r.stderr).strip().splitlines()[-1:] or ["exit %d" % r.returncode]
        print("  (%s run %d failed: %s)" % (path, attempt, last[0]))
    where = FROM.search(r.stdout)
    if r.returncode or not m or not where or not came_from(path, where.group(1)):
        sys.exit("deploy_heap: the %s run failed or took its code from elsewhere:\n%s%s" % (
            path, r.stdout, r.stderr))
    code, live, state, raw = (float(x) * 1024 for x in m.groups())
    img = IMAGE.search(r.stdout)
    held = int(img.group(2)) if img else 0
    return code, live - held, state, raw - held


def bits(binary):
    r = subprocess.run([binary, "-c", "import sys; print(sys.maxsize)"], capture_output=True,
                       text=True, timeout=30)
    return 64 if r.stdout.strip() == str(2 ** 63 - 1) else 32


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    p = argparse.ArgumentParser(description="app heap per deploy path")
    p.add_argument("repeats", nargs="?", type=int, default=3)
    p.add_argument("--plain", help="unix micropython for the .mpy and romfs paths")
    p.add_argument("--frozen", help="unix micropython with the firmware frozen (frozen_unix.py)")
    args = p.parse_args()
    wrap = own_tmp()
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)  # not /tmp: runs get their own
    with tempfile.TemporaryDirectory(prefix="deploy-heap-", dir=os.path.join(ROOT, "build")) as work:
        binaries = {}
        for path, given in (("mpy", args.plain), ("romfs", args.plain), ("frozen", args.frozen)):
            if given:  # copied beside the image: a private /tmp would hide one kept there
                binaries[path] = os.path.join(work, os.path.basename(given) + "-" + path)
                shutil.copy(given, binaries[path])
            elif path != "frozen":
                binaries[path] = tool("micropython")
        # the board's set for the sizes; every firmware file for the runs: app_bench's recovery
        # part (after the heap figures) plays with uno.bot, a host-only module
        files = build(os.path.join(work, "board"))
        mpy_bytes = sum(os.path.getsize(f) for f in files)
        size, _ = romfs.build_image(os.path.join(work, "board.romfs"), os.path.join(work, "bi"))
        mpy = os.path.join(work, "mpy")
        build(mpy, every=True)
        image = os.path.join(work, "unotable.romfs")
        romfs.build_image(image, os.path.join(work, "img"), every=True)
        order = [x for x in ("mpy", "romfs", "frozen") if x in binaries]
        words = sorted(set("%d-bit" % bits(binaries[x]) for x in order))
        got = dict((x, []) for x in order)
        for i in range(args.repeats):
            for path in (order if i % 2 == 0 else order[::-1]):
                got[path].append(run_once(path, binaries[path], mpy, image, wrap))
    print("deploy paths, app bench 10-player round, micropython unix port (%s%s, heap %dk), %d "
          "runs each, interleaved%s; KB, median (min-max)" % (
              "/".join(words), ", own builds" if args.plain or args.frozen else "", HEAP // 1024,
              args.repeats,
              "" if wrap else ", /tmp shared"))
    print("  board: %d .mpy files, %.1f KB; ROMFS image %.1f KB (an esp32 romfs partition: "
          "%d KB)" % (
        len(files), mpy_bytes / 1024, size / 1024, romfs.PARTITION // 1024))
    names = ("code in heap", "peak live", "app state", "peak before collection")
    print("  %-7s" % "path" + "".join("%24s" % n for n in names))
    for path in order:
        cols = ""
        for k in range(4):
            xs = [r[k] / 1024 for r in got[path]]
            cols += "%24s" % ("%.1f (%.1f-%.1f)" % (median(xs), min(xs), max(xs)))
        print("  %-7s" % (".mpy" if path == "mpy" else path) + cols)
    live = dict((x, median([r[1] for r in got[x]]) / 1024) for x in order)
    print("  peak live below .mpy: romfs %.1f KB%s" % (
        live["mpy"] - live["romfs"], ", frozen %.1f KB" % (live["mpy"] - live["frozen"])
        if "frozen" in live else "; frozen not measured (tools/frozen_unix.py builds it)"))


main()
