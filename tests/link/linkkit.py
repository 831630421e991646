"""Test kit for the serial link: a fake hub handler, a deck of 7-byte UIDs, random records.

Runs under CPython and the MicroPython unix port; tests/host/test_link.py also runs
tests/link/fakedev.py (a whole fake device) under `micropython` on a pseudo-terminal.
"""
from uno.bot import Rng
from uno.cards import Registry, NCARDS

SHOE, PAD, SEAT, COLOUR, SHUFFLE, TICK, RULE, UNDO = 1, 2, 3, 4, 5, 6, 7, 8
CAUSES = ("pruned", "damaged", "missing", "foreign", "order")
RULES = ("stacking", "jump_in", "forced", "hand_size", "uno_window")


def deck_uids(salt=0):
    """108 NTAG-like 7-byte UIDs (04 .. ..), all distinct."""
    return [bytes((4, i, 0x5A ^ salt, 0x11, 0x22 + salt, 0x33, 0x80)) for i in range(NCARDS)]


def registry(salt=0):
    return Registry(deck_uids(salt))


def random_input(rng, uids):
    k = rng.below(100)
    if k < 35:
        return (PAD, uids[rng.below(NCARDS)])
    if k < 60:
        return (SHOE, uids[rng.below(NCARDS)])
    if k < 64:  # an unknown tag: 4, 7 or 10 bytes, or an odd length
        n = rng.pick((4, 7, 10, 1, 16))
        return (rng.pick((SHOE, PAD)), bytes(rng.below(256) for _ in range(n)))
    if k < 78:
        return (SEAT, rng.pick((1, 2, 3, 4, 10, 0, 11, 255, 300, -1)), rng.below(2))
    if k < 86:
        return (COLOUR, rng.pick((0, 1, 2, 3, 4, 99, -1, -7000, 1 << 40)), rng.below(2))
    if k < 90:
        return (SHUFFLE,)
    if k < 95:
        return (TICK, rng.pick((rng.below(4000), rng.below(1 << 30), 0)))
    if k < 96:
        return (UNDO, rng.pick((1, 2, 3, 200, 70000)))
    v = rng.pick(("on", "off", "", "\u00e9t\u00e9", 7, -3, 0, 1 << 33))
    return (RULE, rng.pick(RULES), v)


def random_records(n, seed=1, uids=None, seq=1, t=1000, tags=True, gaps=False):
    """n logged inputs (seq, t, wall, inp, tag): seqs with jumps (snapshots), time mostly
    rising by 0.2-3 s, sometimes a reboot (time back to small) or the host setting the wall
    clock; tag: 4 bytes (None without tags). gaps: some (first, last, cause) entries too."""
    rng = Rng(seed)
    uids = uids or deck_uids()
    out = []
    wall = False
    for _ in range(n):
        k = rng.below(100)
        if k < 3:
            seq += 1 + rng.below(3 if k else 100000)
        if gaps and k == 4:
            last = seq + rng.below(40)
            out.append((seq, last, rng.pick(CAUSES)))
            seq = last + 1 + rng.below(2)
        if k == 5:
            wall = not wall
            t = 1750000000 + rng.below(1000) if wall else rng.below(5000)
        elif k == 6:
            t = rng.below(100)
        else:
            t += 200 + rng.below(2800) if not wall else rng.below(4)
        tag = bytes(rng.below(256) for _ in range(4)) if tags else None
        out.append((seq, t, wall, random_input(rng, uids), tag))
        seq += 1
    return out


def top(entries):
    """The last seq a list of entries covers."""
    r = entries[-1]
    return r[1] if len(r) == 3 else r[0]


class FakeHub:
    """The handler interface of link.server.LinkServer, in memory; counts every call."""

    def __init__(self, records=None, reg=None):
        self.log = records if records is not None else random_records(300)
        self.reg = reg
        self.rules = {}
        self.clock = None
        self.enrolling = False
        self.pruned = 0
        self.paired = False
        self.calls = []

    def hello(self):
        return {"fw": "0.1.0-test", "board": "fake-hub"}

    def status(self):
        self.calls.append("status")
        return {"phase": "lobby", "next_seq": top(self.log) + 1 if self.log else 1,
                "seats": [1, 2, 3], "enrolling": self.enrolling}

    def records(self, seq):
        self.calls.append(("records", seq))
        for r in self.log:
            if (r[1] if len(r) == 3 else r[0]) >= seq:
                yield r

    def registry(self):
        return self.reg

    def set_registry(self, uids):
        self.calls.append(("set_registry", len(uids)))
        self.reg = Registry(uids)   # ValueError for a UID enrolled twice

    def set_rule(self, name, value):
        self.calls.append(("rule", name, value))
        if name not in RULES:
            raise ValueError("no rule %r" % name)
        self.rules[name] = value

    def set_clock(self, seconds):
        self.calls.append(("clock", seconds))
        self.clock = seconds

    def enroll(self, on):
        self.calls.append(("enroll", on))
        self.enrolling = on
        return {"enrolled": 0} if on else None

    def prune(self, upto):
        self.calls.append(("prune", upto))
        n = len(self.log)
        self.log = [r for r in self.log if r[0] > upto]
        self.pruned = upto
        return n - len(self.log)

    def head(self):
        seq = 0
        for r in self.log:
            if len(r) > 3:
                seq = r[0]
        return seq, bytes((seq & 0xFF,)) * 32, b"\x5a" * 32

    def pair(self):
        self.calls.append("pair")
        if self.paired:
            raise ValueError("paired already")
        self.paired = True
        return {"id": "00112233445566ff", "key": "ab" * 32}

    def undo(self, n):
        self.calls.append(("undo", n))
        if n > 3:
            raise ValueError("nothing to take back")

    def repl(self):
        self.calls.append("repl")
        return {"repl_ms": 10000}
