"""Builds two unix-port MicroPython binaries from one MicroPython checkout, so that
bench/deploy_heap.py can measure the frozen deploy path beside the .mpy and ROMFS ones:

  OUT/micropython-plain    asyncio frozen (as the pip unix port): runs the .mpy and ROMFS paths
  OUT/micropython-frozen   asyncio and the firmware frozen (tools/unix_manifest.py)

    python tools/frozen_unix.py [--m32] MICROPYTHON_CHECKOUT OUT
    .venv/bin/python bench/deploy_heap.py 3 --plain OUT/micropython-plain --frozen OUT/micropython-frozen

--m32 builds them 32-bit (-plain32, -frozen32; needs gcc-multilib): an ESP32's pointers and
objects are that size, so those heap figures stand for a board's. No submodule is needed: btree, ffi and ssl are left out, and an empty folder stands in for
micropython-lib (neither manifest uses it). Needs a C compiler and make; a few minutes. The core tests run against the frozen engine
(its native methods as machine code in the binary, as on a board's frozen image):

    MICROPYPATH=tests:tests/core:.frozen OUT/micropython-frozen -X heapsize=8m tests/mprun.py tests/core
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OPTS = ["MICROPY_PY_BTREE=0", "MICROPY_PY_FFI=0", "MICROPY_PY_SSL=0"]
M32 = ["CFLAGS_EXTRA=-m32", "LDFLAGS_EXTRA=-m32"]  # MICROPY_FORCE_32BIT no longer does it


def main(argv):
    m32 = "--m32" in argv
    argv = [a for a in argv if a != "--m32"]
    if len(argv) != 2 or not os.path.isfile(os.path.join(argv[0], "py", "mpconfig.h")):
        print("usage: frozen_unix.py MICROPYTHON_CHECKOUT OUT (a checkout of micropython/micropython)")
        return 2
    top, out = (os.path.abspath(a) for a in argv)
    os.makedirs(out, exist_ok=True)
    nolib = os.path.join(out, "no-micropython-lib")
    os.makedirs(nolib, exist_ok=True)
    with open(os.path.join(nolib, "README.md"), "w") as f:
        f.write("empty: the manifests of tools/frozen_unix.py use no micropython-lib package\n")
    jobs = "-j%d" % (os.cpu_count() or 1)
    steps = [(["make", "-C", os.path.join(top, "mpy-cross"), jobs], None)]
    for name, manifest in (("plain", os.path.join(top, "extmod", "asyncio", "manifest.py")),
                           ("frozen", os.path.join(HERE, "unix_manifest.py"))):
        name += "32" if m32 else ""
        build = "build-unotable-" + name
        steps.append((["make", "-C", os.path.join(top, "ports", "unix"), jobs, "BUILD=" + build,
                       "FROZEN_MANIFEST=" + manifest, "MPY_LIB_DIR=" + nolib] + OPTS + (M32 if m32 else [])
                      # the engine's @micropython.native methods: the unix port names no arch
                      # for mpy-cross (the esp32 port's build passes -march=xtensawin)
                      + ["MPY_CROSS_FLAGS=-march=" + ("x86" if m32 else "x64")],
                      (os.path.join(top, "ports", "unix", build, "micropython"),
                       os.path.join(out, "micropython-" + name))))
    for cmd, copy in steps:
        print(" ".join(cmd))
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            tail = r.stderr.strip().splitlines()[-3:]
            print("frozen_unix: the build failed: %s" % " / ".join(tail))
            return 1
        if copy:
            shutil.copy(*copy)
            print("  -> %s" % copy[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
