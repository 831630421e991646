"""Game records (docs/formats.md): each input with the events the table decided for it.

A record line is an input with its seq, or an event decided for that seq:
{"seq":12,"ev":"play","seat":2,"card":"R7"}. A record is itself a table script: Replay reads
either, and the record it writes replays to itself.
"""
from binascii import hexlify

from uno.cards import COLOURS, copy_name, name
from uno.events import IN_TICK, REJECT, CHALLENGE, TWINS, UNDO
from uno.names import WHY, VERDICTS
from uno.rules import Settings, whole
from uno.script import dumps, header, input_dict, parse_line, to_input
from uno.table import Table
from uno.words import EVENTS, REASONS


def from_words(text):
    """A script line from the words people type: 'pad R7', 'shoe W4', 'seat 3 long',
    'colour G', 'shuffle', 'tick 500', 'rule stacking on'. ValueError if it is none of them."""
    w = text.split()
    if not w:
        raise ValueError("nothing to do")
    d = {"in": w[0]}
    try:
        if w[0] in ("pad", "shoe"):
            if w[1].startswith("uid:"):
                d["uid"] = w[1][4:]
            else:
                d["card"] = w[1]
        elif w[0] == "seat":
            d["seat"] = int(w[1])
        elif w[0] == "colour":
            d["colour"] = w[1].upper()
        elif w[0] == "undo":  # undo [n]
            d["n"] = int(w[1]) if len(w) > 1 else 1
        elif w[0] == "tick":
            d["ms"] = int(w[1])
        elif w[0] == "player":  # player 3 Li Wei
            d["seat"] = int(w[1])
            d["name"] = " ".join(w[2:])
            if not d["name"]:
                raise IndexError
        elif w[0] == "rule":
            d["name"] = w[1]
            v = whole(w[2])  # ASCII digits only, as the table takes them
            d["value"] = w[2] if v is None else v
            return d
        elif w[0] != "shuffle":
            raise ValueError("%s? say pad, shoe, seat, colour, shuffle, tick, rule, undo or player"
                             % w[0])
    except IndexError:
        raise ValueError("%s needs more: e.g. pad R7, seat 3, colour G, rule stacking on" % w[0])
    if len(w) > 2 and w[2] == "long":
        d["long"] = True
    return d


def event_dict(ev):
    """A game record line (without seq) for an event."""
    spec = EVENTS[ev[0]]
    d = {"ev": spec[0]}
    code = ev[0]
    fields = spec[1]
    for i in range(len(fields)):
        f = fields[i]
        v = ev[i + 1]
        if f == "card" or f == "copy":
            if v < 0:
                continue
            v = copy_name(v) if code == TWINS else name(v)  # two copies of one face: which
        elif f == "why":
            v = REASONS[v] if code == REJECT else WHY[v]
        elif f == "colour":
            v = COLOURS[v]
        elif f == "direction":
            v = "cw" if v > 0 else "ccw"
        elif f == "verdict" and code == CHALLENGE:
            v = VERDICTS[v]
        elif f == "from" or f == "to":  # a place, as Table.loc holds it
            v = ("shoe", "pile", "aside")[(v > 10) + (v > 11)] if v == 0 or v > 10 else v
        elif f == "seat" and v == 0:
            continue
        elif f == "who":  # issue 12: a badge's uid, a name, or no player (None)
            if v is not None:
                if type(v) is str:
                    d["name"] = v
                else:
                    d["uid"] = hexlify(v).decode()
            continue
        d[f] = v
    return d


def record(seq, inp, evs, registry, t=-1):
    """Game record lines for one input: the input (with its time t if known), then its events."""
    d = input_dict(inp, registry)
    d["seq"] = seq
    if t >= 0:
        d["t"] = t
    out = [d]
    for ev in evs:
        e = event_dict(ev)
        e["seq"] = seq
        out.append(e)
    return out


class Counted:
    """What a reader counted for each accepted input of the round, so that a take-back
    (UNDO n) counts it back. Accepted as the take-back counts (uno/takeback.py): an input that
    changed the table, not a lone reject nor a take-back itself; never across a round's end
    (round_over starts again)."""

    def __init__(self):
        self.done = []

    def keep(self, evs, counted):
        if evs and evs[0][0] != UNDO and not (len(evs) == 1 and evs[0][0] == REJECT):
            self.done.append(counted)

    def undo(self, n):
        """What the last n accepted inputs counted, the newest first."""
        return [self.done.pop() for _ in range(min(n, len(self.done)))]

    def round_over(self):
        self.done = []


class Replay:
    """Feeds the input lines of a table script or game record to a table, one at a time.

    Streams: nothing is kept but the table, so a long night replays in a small heap.
    Raises ValueError naming the line for anything that is not a table input.
    """

    def __init__(self, overrides=None, registry=None):
        self.overrides = overrides
        self.registry = registry
        self.values = {}
        self.table = None
        self.t = -1

    def _start(self):
        if self.overrides:
            self.values.update(self.overrides)
        try:
            rules = Settings(self.values)
        except ValueError as e:
            raise ValueError("settings: %s" % e)
        self.table = Table(rules, self.registry)
        self.head = self._header()  # the rules as the round began, before any rule input

    def run(self, lines):
        """Yields (seq, input, events) per input line; events is reused: copy it to keep it."""
        n = seq = 0
        for text in lines:
            n += 1
            try:
                d = parse_line(text)
            except ValueError as e:
                raise ValueError("line %d is not JSON (%s)" % (n, e))
            if d is None:
                continue
            head = header(d)
            if head is not None:
                if self.table:
                    raise ValueError("line %d: settings may only come before the first input" % n)
                self.values.update(head)
                continue
            if "in" not in d:
                continue  # an event line of a game record: the engine decides it again
            if not self.table:
                self._start()
            try:
                inp = to_input(d, self.table)
            except (KeyError, ValueError, TypeError) as e:
                what = ("missing %s" % e) if isinstance(e, KeyError) else str(e)
                raise ValueError("line %d: %s (%s)" % (n, what, dumps(d)))
            seq = d.get("seq", seq + 1)
            # when it happened, on the table's clock (ms): the line's "t", a tick's own ms, else
            # the time of the line before (0 at the start) -- as the hub logs every input
            self.t = d.get("t", inp[1] if inp[0] == IN_TICK else max(self.t, 0))
            yield seq, inp, self.table.feed(inp, self.t)
        if not self.table:
            self._start()

    def record(self, lines):
        """The game record as JSONL lines: a header, then each input with its events."""
        started = False
        for seq, inp, evs in self.run(lines):
            if not started:
                yield self.head
                started = True
            for d in record(seq, inp, evs, self.table.registry, self.t):
                yield dumps(d)
        if not started:
            yield self.head

    def _header(self):
        t = self.table
        return dumps({"record": 1, "settings": t.rules.as_dict(),
                      "registry": "synthetic" if t.registry.synthetic() else "enrolled"})
