"""Table script lines (docs/formats.md): one input a line, as JSON; the board reads them too.

A line is one input: {"in":"pad","card":"R7"}. A card may be named by its face (R7: the copy
is found where the table expects it), by its copy (R7b) or by a tag UID in hex
({"uid":"04a1b2c3d4e5f6"}). Game records (events too) are uno/record.py.
"""
import json
from binascii import hexlify, unhexlify

from uno.cards import COLOURS, copies, copy_name, parse_card
from uno.names import INPUTS
from uno.table import SHOE, MAX_SEAT

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_SEAT = const(3)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
_IN_TICK = const(6)
_IN_RULE = const(7)
_IN_UNDO = const(8)
_IN_PLAYER = const(9)
# -- end of codes --


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
        k = _IN_SHOE if kind == "shoe" else _IN_PAD
        if "uid" in d:
            return (k, unhexlify(d["uid"]))
        if "card" not in d:
            raise ValueError("a %s read needs \"card\" or \"uid\"" % kind)
        face, card = parse_card(d["card"])
        if card is None:
            card = _find(table, face, k == _IN_SHOE)
        return (k, table.registry.uid(card))
    if kind == "seat":
        return (_IN_SEAT, int(d["seat"]), 1 if d.get("long") else 0)
    if kind == "colour":
        col = d["colour"]
        if type(col) is int:
            return (_IN_COLOUR, col, 1 if d.get("long") else 0)
        if col not in COLOURS or len(col) != 1:
            raise ValueError("colour must be one of R Y G B")
        return (_IN_COLOUR, COLOURS.index(col), 1 if d.get("long") else 0)
    if kind == "shuffle":
        return (_IN_SHUFFLE,)
    if kind == "tick":
        return (_IN_TICK, int(d["ms"]))
    if kind == "rule":
        return (_IN_RULE, d["name"], d["value"])
    if kind == "undo":  # issue 10: take back the last n accepted inputs
        return (_IN_UNDO, int(d.get("n", 1)))
    if kind == "player":  # issue 12: the host names a seat's player
        return (_IN_PLAYER, int(d["seat"]), d["name"])
    raise ValueError("unknown input %r (one of %s)" % (kind, ", ".join(INPUTS[1:])))


def input_dict(inp, registry):
    """A script line for an input: cards by copy name where the registry knows the tag."""
    kind = inp[0]
    d = {"in": INPUTS[kind]}
    if kind == _IN_SHOE or kind == _IN_PAD:
        card = registry.card(inp[1])
        if card >= 0 and registry.synthetic():
            d["card"] = copy_name(card)
        else:
            d["uid"] = hexlify(inp[1]).decode()
    elif kind == _IN_SEAT or kind == _IN_COLOUR:
        if kind == _IN_SEAT:
            d["seat"] = inp[1]
        else:
            c = inp[1]
            d["colour"] = COLOURS[c] if 0 <= c < 4 else c  # a bad press is logged as it came
        if inp[2]:
            d["long"] = True
    elif kind == _IN_TICK:
        d["ms"] = inp[1]
    elif kind == _IN_RULE:
        d["name"] = inp[1]
        d["value"] = inp[2]
    elif kind == _IN_UNDO:
        d["n"] = inp[1]
    elif kind == _IN_PLAYER:
        d["seat"] = inp[1]
        d["name"] = inp[2]
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


def header(d):
    """Settings of a script or record header line ({"settings": {...}}), else None."""
    if "in" not in d and "ev" not in d and "settings" in d:
        return d["settings"]
    return None
