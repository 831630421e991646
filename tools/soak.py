"""The pre-release soak (`make soak`; not part of `make test`): the property matches of
tests/core/test_property.py and test_takeback_physical.py and the seeded soaks of tests/hub and tests/gamelog, each over many
seeds from a fresh place (a random first seed unless --from says one), to find what `make
test`'s few fixed seeds do not. A failure is one line, then the command that runs its seed again.

    python tools/soak.py [SWEEP ...] [--from N] [--count N] [--soak-seeds N] [--rounds N]
                         [--seed N] [--max-fail N] [--timeout S] [--verbose]

Run from the repository's root, under CPython or micropython (the same seed plays the same
stream on both). --count seeds for each property match (PROPERTY), --soak-seeds for each soak
(SOAKS); --seed N runs seed N alone of the sweeps named; --verbose prints a failure's
traceback. Exit status 1 if anything failed.
"""
import os
import sys
import time

MICRO = sys.implementation.name == "micropython"

# The script's own folder heads sys.path: tests' folders and the firmware go in front of it
# (firmware before tests, so tests/gamelog does not stand for the package gamelog).
sys.path[:0] = ["firmware", "tests", "tests/core", "tests/hub", "tests/gamelog"]


def _property(fn):
    def run(seed, rounds):
        import test_property
        getattr(test_property, fn)(seed, rounds)
    return run


def _physical(seed, rounds):
    import test_takeback_physical
    test_takeback_physical.Match(seed).play(rounds)


def _soak(module, fn, *args):
    def run(seed, rounds):
        getattr(__import__(module), fn)(seed, *args)
    return run


# name: what it runs, given a seed and the rounds of a property match. The property matches
# are tests/core/test_property.py's and tests/core/test_takeback_physical.py's (take-backs
# carried out card by card at a model of the physical table); the soaks are tests/hub/test_boot_soak.py's boot cuts,
# tests/hub/test_host_flood.py's nonsense lines and well-formed requests, and
# tests/gamelog/test_ring_damage_soak.py's damage to the NOR ring.
PROPERTY = (
    ("play_match", _property("play_match")),
    ("live_match", _property("live_match")),
    ("ref_match", _property("ref_match")),
    ("house_match", _property("house_match")),
    ("physical_match", _physical),
)
SOAKS = (
    ("boot_cuts", _soak("test_boot_soak", "_soak")),
    ("host_nonsense", _soak("test_host_flood", "_fuzz")),
    ("host_requests", _soak("test_host_flood", "_valid", 250)),
    ("ring_damage", _soak("test_ring_damage_soak", "_soak")),
)


class Timeout(BaseException):
    """A seed that runs past --timeout (CPython only): BaseException, so that no `except
    Exception` of the code under test holds it."""


def _alarm(signum, frame):
    raise Timeout()


def _where(e):
    """Where the exception was raised: file, line and function of its last frame."""
    if MICRO:
        import io
        buf = io.StringIO()
        sys.print_exception(e, buf)
        frames = [ln.strip() for ln in buf.getvalue().split("\n") if ln.strip()[:5] == "File "]
        if not frames:
            return "?"
        parts = frames[-1].split(", ")   # File "path", line N, in name
        path = parts[0][6:-1]
        return "%s:%s %s" % (path.rsplit("/", 1)[-1], parts[1][5:], parts[-1][3:])
    import traceback
    f = traceback.extract_tb(e.__traceback__)[-1]
    return "%s:%d %s" % (os.path.basename(f.filename), f.lineno, f.name)


def _line(e, opts):
    """An exception on one line, cut short: its type, where it came from and its message."""
    if isinstance(e, Timeout):
        return "no end within %d s (--timeout)" % opts["timeout"]
    msg = str(e).replace("\n", " ")
    if len(msg) > 240:
        msg = msg[:240] + "..."
    return "%s at %s%s" % (type(e).__name__, _where(e), ": " + msg if msg else "")


def _flush():
    f = getattr(sys.stdout, "flush", None)
    if f:
        f()


def _took(s):
    s = int(s)
    return "%dm%02ds" % (s // 60, s % 60) if s >= 60 else "%ds" % s


def _rerun(name, seed, opts):
    cmd = ".venv/bin/micropython -X heapsize=8m" if MICRO else ".venv/bin/python"
    more = " --rounds %d" % opts["rounds"] if opts["rounds"] != 3 else ""
    return "%s tools/soak.py %s --seed %d%s --verbose" % (cmd, name, seed, more)


def sweep(group, first, count, opts):
    """Every sweep of the group over seeds first .. first + count - 1, seed by seed; returns
    the number of failures."""
    if not group or count <= 0:
        return 0
    names = ", ".join(g[0] for g in group)
    if count == 1:
        print("soak: %s: seed %d" % (names, first))
    else:
        print("soak: %s: seeds %d..%d (%d each)" % (names, first, first + count - 1, count))
    _flush()
    failed = {}
    spent = {}
    alarm = None
    if not MICRO:
        # host_nonsense's `selftest start` makes a task with no event loop running (a board runs
        # one): CPython warns of the coroutine left unawaited; no failure of the table's
        import warnings
        warnings.filterwarnings("ignore", "coroutine .* was never awaited")
    if not MICRO and opts["timeout"]:
        import signal
        alarm = signal.alarm
        signal.signal(signal.SIGALRM, _alarm)
    t0 = shown = time.time()
    seed = first
    try:
        for k in range(count):
            seed = first + k
            for name, run in group:
                if failed.get(name, 0) >= opts["max_fail"]:
                    continue
                t1 = time.time()
                if alarm:
                    alarm(opts["timeout"])
                try:
                    run(seed, opts["rounds"])
                except (Exception, Timeout) as e:
                    failed[name] = failed.get(name, 0) + 1
                    print("FAIL %s seed %d: %s" % (name, seed, _line(e, opts)))
                    print("  re-run: " + _rerun(name, seed, opts))
                    if opts["verbose"]:
                        _flush()
                        if MICRO:
                            sys.print_exception(e)
                        else:
                            import traceback
                            traceback.print_exc()
                    if failed[name] == opts["max_fail"]:
                        print("  %s stops here: %d failures" % (name, failed[name]))
                    _flush()
                finally:
                    if alarm:
                        alarm(0)
                spent[name] = spent.get(name, 0) + time.time() - t1
            if time.time() - shown >= 60 and k + 1 < count:   # a sign of life each minute
                shown = time.time()
                print("  ... %d of %d seeds, %s, %d failed" % (
                    k + 1, count, _took(time.time() - t0), sum(failed.values())))
                _flush()
    except KeyboardInterrupt:
        print("soak: stopped at seed %d (seeds from it not run)" % seed)
        count = seed - first
    for name, run in group:
        print("  %s: %s, %d failed" % (name, _took(spent.get(name, 0)), failed.get(name, 0)))
    print("soak: %d seed%s in %s, %d failed" % (count, "" if count == 1 else "s",
                                                _took(time.time() - t0), sum(failed.values())))
    _flush()
    return sum(failed.values())


def _fresh():
    """A first seed no earlier run is likely to have had: a random thousand in 1e6 .. 1e9."""
    r = int.from_bytes(os.urandom(4), "big")
    return (1000 + r % 999000) * 1000


def main(argv):
    opts = {"from": None, "count": 2000, "soak_seeds": 40, "rounds": 3, "seed": None,
            "max_fail": 5, "timeout": 300, "verbose": False}
    names = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-v", "--verbose"):
            opts["verbose"] = True
        elif a.startswith("--") and a[2:].replace("-", "_") in opts:
            i += 1
            opts[a[2:].replace("-", "_")] = int(argv[i])
        elif a.startswith("-"):
            print(__doc__)
            return 2
        else:
            names.append(a)
        i += 1
    known = [g[0] for g in PROPERTY + SOAKS]
    for n in names:
        if n not in known:
            print("soak: no sweep %r (sweeps: %s)" % (n, ", ".join(known)))
            return 2
    prop = [g for g in PROPERTY if not names or g[0] in names]
    soaks = [g for g in SOAKS if not names or g[0] in names]
    first = opts["from"]
    if opts["seed"] is not None:
        first = opts["seed"]
        opts["count"] = opts["soak_seeds"] = 1
    elif first is None:
        first = _fresh()
    print("soak: %s, first seed %d (--from %d runs these seeds again)" % (
        "micropython" if MICRO else "CPython", first, first))
    bad = sweep(prop, first, opts["count"], opts)
    bad += sweep(soaks, first, opts["soak_seeds"], opts)
    return 1 if bad else 0


sys.exit(main(sys.argv[1:]))
