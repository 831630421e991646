"""Runs the pytest-style test functions of the given folders under the `micropython` command.

Test files used here import nothing from pytest; they use plain asserts and tests/check.py.
Usage: micropython tests/mprun.py tests/core [more folders] [-kWORD]
(MICROPYPATH=firmware:tests:.frozen). -kWORD runs only the tests whose name or file name has
WORD in it (-kdisputes_settings: one file).
"""
import sys
import os
import gc

# The script's own folder (tests/) heads sys.path: drop it so MICROPYPATH's order decides and a
# test folder tests/<pkg> does not shadow the firmware package firmware/<pkg> (board, gamelog).
_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
if sys.path and (sys.path[0] == _here or sys.path[0].endswith("/" + _here)):
    sys.path.pop(0)


def run_dir(path, counts, only):
    sys.path.insert(0, path)
    names = sorted(n for n in os.listdir(path) if n.startswith("test_") and n.endswith(".py"))
    for name in names:
        mod = __import__(name[:-3])
        for attr in sorted(dir(mod)):
            # -kWORD: the tests whose name, or whose file's name, has WORD in it
            if not attr.startswith("test_") or (only and only not in attr and only not in name):
                continue
            fn = getattr(mod, attr)
            try:
                fn()
                counts[0] += 1
            except Exception as e:
                counts[1] += 1
                print("FAILED %s/%s::%s" % (path, name, attr))
                sys.print_exception(e)
            gc.collect()
    sys.path.pop(0)


def main(argv):
    only = None
    dirs = []
    for a in argv:
        if a.startswith("-k"):
            only = a[2:]
        else:
            dirs.append(a)
    counts = [0, 0]
    for d in dirs:
        run_dir(d, counts, only)
    print("micropython: %d passed, %d failed" % (counts[0], counts[1]))
    if counts[1]:
        sys.exit(1)


main(sys.argv[1:])
