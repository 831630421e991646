"""Compiles the board's firmware files with mpy-cross into build/mpy/ (the set deployed to the
board, as firmware/manifest.py lists it), and every firmware file into build/mpy-host/ (so that
every file is known to compile; the heap bench's players come from there).

--check MICROPYTHON  also proves the bytecode loads: the .mpy header's version must match the
                     runtime's sys.implementation._mpy, and the compiled engine must run there.
boot.py and main.py stay source, as MicroPython runs them by name.
"""
import argparse
import os
import shutil
import subprocess
import sys

from unotable.build import BuildError, build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "mpy")
HOST = os.path.join(ROOT, "build", "mpy-host")


def header(path):
    with open(path, "rb") as f:
        magic, version, flags = f.read(3)
    return magic, version, flags & 3, flags >> 2


def check(built, micropython):
    probe = ("import sys\nv = sys.implementation._mpy\n"
             "print(v & 0xff, (v >> 8) & 3)\n"
             "from uno.table import Table\n"
             "assert Table().feed((3, 1, 0))[0][0] == 1\n"  # IN_SEAT: seat 1 joins
             "assert Table().feed((8, 1))[0][0] == 25\n"  # IN_UNDO: nothing to take back
             "print('ok')\n")
    env = dict(os.environ, MICROPYPATH=OUT + ":.frozen")
    r = subprocess.run([micropython, "-c", probe], capture_output=True, text=True, env=env)
    if r.returncode or not r.stdout.endswith("ok\n"):
        sys.exit("compiled engine does not run under %s:\n%s%s" % (micropython, r.stdout, r.stderr))
    version, sub = (int(x) for x in r.stdout.split()[:2])
    for path in built:
        magic, v, s, arch = header(path)
        # plain bytecode carries no sub-version (it names the native ABI) and no arch
        if magic != ord("M") or v != version or arch != 0:
            sys.exit("%s: mpy %d.%d arch %d, the runtime loads %d.%d" % (path, v, s, arch, version, sub))
    print("mpy: %d files compiled, bytecode %d.%d loads in %s" % (len(built), version, sub,
                                                                   os.path.basename(micropython)))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--check", metavar="MICROPYTHON", help="verify against this interpreter")
    args = p.parse_args()
    shutil.rmtree(OUT, ignore_errors=True)
    shutil.rmtree(HOST, ignore_errors=True)
    os.makedirs(OUT)
    try:
        built = build(OUT)
        every = build(HOST, every=True)
    except BuildError as e:
        sys.exit(str(e))
    on_board = set(os.path.relpath(p, OUT) for p in built)
    host_only = sorted(os.path.relpath(p, HOST) for p in every
                       if os.path.relpath(p, HOST) not in on_board)
    print("mpy: %d more files compile, host-only: %s" % (len(host_only), " ".join(host_only)))
    if args.check:
        check(built, args.check)
    else:
        print("mpy: %d files compiled into %s" % (len(built), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
