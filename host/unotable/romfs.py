"""The ROMFS deploy path: the compiled firmware packed into one read-only image for a board's
ROMFS partition, where its bytecode runs in place from flash (docs/deploy.md).

`mpremote romfs build` packs the image (offline); `mpremote romfs deploy` writes it to the
partition. boot.py and main.py stay files on the board's filesystem: MicroPython runs them by
name from there, and /rom comes after the filesystem on sys.path.
"""
import os
import shutil
import subprocess
import sys

from unotable.build import FIRMWARE, ROOT, SOURCE, BuildError, build, tool

RUNNER = os.path.join(ROOT, "tools", "romrun.py")   # runs an image under the unix port
MOUNT = "/rom"
MAGIC = b"\xd2\xcd\x31"       # a ROMFS image starts with this record kind ("RM1")
PARTITION = 0x20000           # romfs partition of MicroPython's esp32 partitions-4MiB-romfs.csv


def packages():
    """The firmware's package folders: what the image holds, and what a stale .mpy deploy
    left on the filesystem that would shadow it."""
    return sorted(d for d in os.listdir(FIRMWARE)
                  if os.path.isdir(os.path.join(FIRMWARE, d)) and not d.startswith((".", "__")))


def build_image(image, work, every=False, native=None):
    """Compiles the board's firmware files into work/ (unotable.build; every: all firmware
    files, host-only ones too, for benches; native: build's) and packs the .mpy files into
    the ROMFS image file `image`. Returns (image bytes, [boot.py and main.py paths to copy])."""
    if not image.endswith(".romfs"):
        raise BuildError("a ROMFS image file name ends in .romfs (mpremote deploys it so)")
    tree = os.path.join(work, "rom")
    build(tree, every=every, native=native)
    sources = []
    for name in SOURCE:
        dst = os.path.join(work, name)
        shutil.move(os.path.join(tree, name), dst)
        sources.append(dst)
    r = subprocess.run([tool("mpremote"), "romfs", "--no-mpy", "-o", image, "build", tree],
                       capture_output=True, text=True)
    if r.returncode or not os.path.exists(image):
        raise BuildError("mpremote romfs build failed: %s" % (r.stderr.strip() or
                                                              r.stdout.strip()))
    with open(image, "rb") as f:
        size = len(f.read())
        f.seek(0)
        if f.read(3) != MAGIC:
            raise BuildError("mpremote wrote %s, which is not a ROMFS image" % image)
    return size, sources


# Run on the board after the image is written: a previous .mpy deploy's packages sit on the
# filesystem, which comes before /rom on sys.path. The log folder is not touched.
CLEAN = """import os
def rm(p):
    for e in os.ilistdir(p):
        q = p + '/' + e[0]
        rm(q) if e[1] == 0x4000 else os.remove(q)
    os.rmdir(p)
for d in %r:
    try:
        rm('/' + d)
    except OSError:
        pass"""


def deploy_argv(port, image, sources):
    """One mpremote run: the image into the ROMFS partition, stale package folders off the
    filesystem, boot.py and main.py onto it, then a reset (the partition mounts at boot).
    No `resume`: code running from the partition must stop (soft reset) before it is rewritten."""
    argv = [tool("mpremote"), "connect", port, "romfs", "deploy", image,
            "+", "exec", CLEAN % (packages(),)]
    for src in sources:
        argv += ["+", "fs", "cp", src, ":" + os.path.basename(src)]
    return argv + ["+", "reset"]


def sim_run(image):
    """The SimTable arguments that start the simulated table with its code from `image`:
    (code, run, heap). The unix port holds the image in a bytes object, so the heap grows by
    the image's size; a board maps it from flash."""
    from unotable.sim import HEAP
    heap = int(HEAP.rstrip("k")) + (os.path.getsize(image) + 2047) // 1024
    return MOUNT, (RUNNER, image, "hub.sim:main"), "%dk" % heap


def deploy(port, work, dry_run=False, before=None, native=None):
    """`unotable deploy --romfs`: builds the image in work/, writes it with mpremote; returns
    the exit code, a one-line answer on stderr for what fails. before(): called just before
    mpremote runs (not on a dry run): the running firmware hands the port over."""
    image = os.path.join(work, "unotable.romfs")
    try:
        size, sources = build_image(image, work, native=native)
    except BuildError as e:
        return _say(e)
    argv = deploy_argv(port, image, sources)
    print("mpremote connect %s: ROMFS image %d bytes (partition 0), stale package folders "
          "off the filesystem, %s, then reset" % (port, size, ", ".join(map(os.path.basename,
                                                                         sources))))
    if dry_run:
        return 0
    if before is not None:
        before()
    r = subprocess.run(argv, capture_output=True, text=True)
    out = (r.stdout + r.stderr).strip()
    if r.returncode:
        why = out.splitlines()[-1] if out else "exit %d" % r.returncode
        why = why[len("mpremote: "):] if why.startswith("mpremote: ") else why
        hint = (" The board needs firmware built with ROMFS and a romfs partition "
                "(docs/deploy.md)." if "ROMFS" in out or "partition" in out else
                " Is the port free (close `unotable monitor`)?")
        return _say("mpremote failed: %s.%s" % (why.rstrip("."), hint))
    print("deployed the ROMFS image (%d bytes) to %s" % (size, port))
    return 0


def _say(e):
    print("unotable deploy: %s" % e, file=sys.stderr)
    return 2
