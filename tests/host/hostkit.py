"""Fakes for the host tests: a table's chained log (gamelog.chain, as the table makes it), and
the Link the commands talk to."""
import json
import time

from gamelog import chain
from uno.bot import Bot
from uno.cards import synthetic_registry
from uno.events import ROUND_OVER
from uno.record import Replay, record
from uno.script import dumps, to_input
from uno.table import Table
from unotable.link import Gap

TID = "0123456789abcdef"
KEY = bytes(range(32))


def bot_records(n, seed=3, wall_every=0):
    """n inputs of 4 bots as the hub logs them: (seq, t, wall, inp); a seq skipped after each
    round's end (the snapshot). wall_every: every so many inputs, a wall-clock time."""
    t = Table()
    b = Bot(t, [1, 2, 3, 4], seed=seed)
    out, seq = [], 1
    for i in range(n):
        inp, evs = b.step()
        wall = bool(wall_every) and i % wall_every == wall_every - 1
        out.append((seq, 1750000000 + i if wall else seq * 700, wall, inp))
        seq += 2 if any(e[0] == ROUND_OVER for e in evs) else 1
    return out


def chained(recs, key=KEY, tid=TID, every=50, gaps=()):
    """The records with their tags (seq, t, wall, inp, tag4), and the heads a link would see
    after each batch of `every`: [(seq, head hex, mac hex)]. gaps: seqs whose records are lost
    (the chain still ran over them on the table, as it did before the damage)."""
    h = chain.GENESIS
    out, heads = [], []
    lost = set()
    for a, b, _ in gaps:
        lost.update(range(a, b + 1))
    for i, (seq, t, wall, inp) in enumerate(recs):
        h = chain.step(h, seq, t, wall, inp)
        if seq not in lost:
            out.append((seq, t, wall, inp, chain.tag(h)))
        if (i + 1) % every == 0 or i == len(recs) - 1:
            heads.append((seq, h.hex(), chain.mac_head(key, bytes.fromhex(tid), seq, h).hex()))
    return out, heads


class FakeLink:
    """What the commands and Store.sync use of unotable.link.Link, over chained records."""

    port = "/dev/fake"

    def __init__(self, recs=(), heads=(), gaps=(), tid=TID, key=KEY, board="uno-hub",
                 pairing=True):
        self.recs = list(recs)
        self.all_heads = list(heads)
        self.gaps = list(gaps)
        self.tid = tid
        self.key = key
        self.board = board
        self.pairing = pairing
        self.heads = []
        self.asked = []
        self.undone = []
        self.acked = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def hello(self):
        d = {"proto": 1, "max": 1024, "fw": "0.1.0", "board": self.board}
        if self.tid:
            d["id"] = self.tid
        return d

    def status(self):
        top = max([r[0] for r in self.recs] + [g[1] for g in self.gaps] + [0])
        return {"next_seq": top + 1, "id": self.tid, "phase": 0, "round": 0, "dealer": 0,
                "turn": 0, "colour": None, "seats": [], "rules": {},
                "damage": [list(g) for g in self.gaps]}

    def fetch_registry(self):
        return synthetic_registry()

    def upload_registry(self, uids):
        return None

    def set_rule(self, name, value):
        return None

    def set_clock(self, seconds=None):
        return None

    def ack(self, upto):
        self.acked = upto
        return {"pruned": 0}

    def sync_records(self, from_seq=1, max_bytes=0, head=None):
        self.asked.append(from_seq)
        self.head_given = head
        items = [(r[0], 0, r) for r in self.recs if r[0] >= from_seq]
        items += [(g[0], 1, Gap(*g)) for g in self.gaps if g[1] >= from_seq]
        items.sort(key=lambda x: (x[0], x[1]))
        for seq, k, r in items:
            yield r
            for h in self.all_heads if k == 0 else ():
                if h[0] == seq:
                    self.heads.append(h)

    def pair(self):
        from unotable.link import Refused
        if not self.pairing:
            raise Refused("the table refused `pair`: pairing is closed: hold seat 1 to open it",
                          "pair", "pairing is closed: hold seat 1 to open it")
        return {"id": self.tid, "key": self.key.hex()}

    def undo(self, n):
        self.undone.append(n)
        return {"undone": n}


def export_lines(store, table, **kw):
    import io
    from unotable.export import export_jsonl
    out = io.StringIO()
    export_jsonl(store, table, out, **kw)
    return out.getvalue().splitlines()


def regenerate(lines, change=None, heads="recompute"):
    """What a forger without the key makes of a record: the inputs (changed by change(list of
    input dicts)), their events decided again, every tag and head worked out again.
    heads: "recompute" (new head values, the table's macs kept), "strip" (none), "keep"."""
    head = json.loads(lines[0])
    ins = [json.loads(l) for l in lines[1:] if '"in"' in l]
    if change:
        change(ins)
    reg = synthetic_registry()
    tab = Table(registry=reg)
    h = chain.GENESIS
    at = {}
    for d in ins:
        wall = "wall" in d
        h = chain.step(h, d["seq"], d["wall"] if wall else d["t"], wall, to_input(d, tab))
        d["tag"] = chain.tag(h).hex()
        at[d["seq"]] = h
    if heads == "strip":
        head.pop("heads", None)
    elif heads == "recompute":
        head["heads"] = [[s, at[s].hex() if s in at else hd, mac] for s, hd, mac in head["heads"]]
    out = [dumps(head)]
    run = Replay(registry=reg)
    by = {d["seq"]: d for d in ins}
    for seq, inp, evs in run.run(dumps(d) for d in ins):
        ds = record(seq, inp, evs, reg, -1 if "wall" in by[seq] else run.t)
        for k in ("tag", "wall"):
            if k in by[seq]:
                ds[0][k] = by[seq][k]
        out += [dumps(x) for x in ds]
    return out


def until_done(table, timeout=30):
    """The simulated table's status once its script has played through."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = table.status()
        assert s is not None, "the simulated table stopped"
        if s["board"]["script_done"]:
            return s
        time.sleep(0.05)
    raise AssertionError("the script did not finish")
