"""Text forms of inputs and events (docs/formats.md): table script and game record lines.

A table script line is one input: {"in":"pad","card":"R7"}. A card may be named by its face
(R7: the copy is found where the table expects it), by its copy (R7b) or by a tag UID in hex
({"uid":"04a1b2c3d4e5f6"}). A game record line is an input with its seq, or an event decided
for that seq: {"seq":12,"ev":"play","seat":2,"card":"R7"}.
"""
import json
from binascii import hexlify, unhexlify

from uno.cards import COLOURS, copies, copy_name, name, parse_card
from uno.events import (IN_SHOE, IN_PAD, IN_SEAT, IN_COLOUR, IN_SHUFFLE, IN_TICK, IN_RULE, REJECT,
                        CHALLENGE)
from uno.words import EVENTS, INPUTS, REASONS, WHY, VERDICTS
from uno.rules import Settings
from uno.table import SHOE, MAX_SEAT, Table


def parse_line(line):
    """A JSON object from a script or record line; None for blank and '#' comment lines."""
    line = line.strip()
    if not line or line[0] == "#":
        return None
    d = json.loads(line)
    if not isinstance(d, dict):
        raise ValueError("a line must be a JSON object")
    return d


def _find(table, face, at_shoe):
    """The copy of a face that the table expects: in the shoe, else in the turn seat's hand."""
    cards = copies(face)
    loc = table.loc
    if at_shoe:
        for c in cards:
            if loc[c] == SHOE:
                return c
    else:
        for want in (table.turn, -1):
            for c in cards:
                if (loc[c] == want) if want > 0 else (0 < loc[c] <= MAX_SEAT):
                    return c
    return cards[0]


def to_input(d, table):
    """The input tuple a script line stands for; ValueError saying what is wrong."""
    kind = d.get("in")
    if kind in ("shoe", "pad"):
        k = IN_SHOE if kind == "shoe" else IN_PAD
        if "uid" in d:
            return (k, unhexlify(d["uid"]))
        if "card" not in d:
            raise ValueError("a %s read needs \"card\" or \"uid\"" % kind)
        face, card = parse_card(d["card"])
        if card is None:
            card = _find(table, face, k == IN_SHOE)
        return (k, table.registry.uid(card))
    if kind == "seat":
        return (IN_SEAT, int(d["seat"]), 1 if d.get("long") else 0)
    if kind == "colour":
        col = d["colour"]
        if type(col) is int:
            return (IN_COLOUR, col, 1 if d.get("long") else 0)
        if col not in COLOURS or len(col) != 1:
            raise ValueError("colour must be one of R Y G B")
        return (IN_COLOUR, COLOURS.index(col), 1 if d.get("long") else 0)
    if kind == "shuffle":
        return (IN_SHUFFLE,)
    if kind == "tick":
        return (IN_TICK, int(d["ms"]))
    if kind == "rule":
        return (IN_RULE, d["name"], d["value"])
    raise ValueError("unknown input %r (one of %s)" % (kind, ", ".join(INPUTS[1:])))


def input_dict(inp, registry):
    """A script line for an input: cards by copy name where the registry knows the tag."""
    kind = inp[0]
    d = {"in": INPUTS[kind]}
    if kind == IN_SHOE or kind == IN_PAD:
        card = registry.card(inp[1])
        if card >= 0 and registry.synthetic():
            d["card"] = copy_name(card)
        else:
            d["uid"] = hexlify(inp[1]).decode()
    elif kind == IN_SEAT or kind == IN_COLOUR:
        if kind == IN_SEAT:
            d["seat"] = inp[1]
        else:
            c = inp[1]
            d["colour"] = COLOURS[c] if 0 <= c < 4 else c  # a bad press is logged as it came
        if inp[2]:
            d["long"] = True
    elif kind == IN_TICK:
        d["ms"] = inp[1]
    elif kind == IN_RULE:
        d["name"] = inp[1]
        d["value"] = inp[2]
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
        if f == "card":
            if v < 0:
                continue
            v = name(v)
        elif f == "why":
            v = REASONS[v] if code == REJECT else WHY[v]
        elif f == "colour":
            v = COLOURS[v]
        elif f == "direction":
            v = "cw" if v > 0 else "ccw"
        elif f == "verdict" and code == CHALLENGE:
            v = VERDICTS[v]
        elif f == "seat" and v == 0:
            continue
        d[f] = v
    return d


# MicroPython's dicts keep no order: lines are written in this one, then the rest sorted.
_ORDER = ("record", "seq", "t", "in", "ev", "why", "seat", "card", "uid", "caught", "against",
          "verdict", "n", "colour", "direction", "long", "ms", "name", "value")


def dumps(d):
    """One compact JSON line, keys in the same order on every interpreter."""
    parts = []
    for k in _ORDER:
        if k in d:
            parts.append(_pair(k, d[k]))
    for k in sorted(d):
        if k not in _ORDER:
            parts.append(_pair(k, d[k]))
    return "{" + ",".join(parts) + "}"


def _pair(k, v):
    if isinstance(v, dict):
        return json.dumps(k) + ":" + dumps(v)
    return json.dumps(k) + ":" + json.dumps(v, separators=(",", ":"))


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


def header(d):
    """Settings of a script or record header line ({"settings": {...}}), else None."""
    if "in" not in d and "ev" not in d and "settings" in d:
        return d["settings"]
    return None


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
            self.t = d.get("t", -1)  # when it happened (table clock, ms), if the line says
            yield seq, inp, self.table.feed(inp, self.t)
        if not self.table:
            self._start()

    def record(self, lines):
        """The game record as JSONL lines: a header, then each input with its events."""
        started = False
        for seq, inp, evs in self.run(lines):
            if not started:
                yield self._header()
                started = True
            for d in record(seq, inp, evs, self.table.registry, self.t):
                yield dumps(d)
        if not started:
            yield self._header()

    def _header(self):
        t = self.table
        return dumps({"record": 1, "settings": t.rules.as_dict(),
                      "registry": "synthetic" if t.registry.synthetic() else "enrolled"})
