"""Narrating a replay of a table script or game record (the engine is uno.record.Replay)."""
from uno import script
from uno.events import REJECT
from uno.narrate import says
from uno.state import snapshot
from unotable.ui import plural


def narrate(run, lines):
    """One line per input with what the table decided, then the final state in short."""
    rejected = inputs = 0
    for seq, inp, evs in run.run(lines):
        t = run.table
        if not inputs:
            changed = t.rules.changed()
            yield "rules: " + (", ".join("%s=%s" % kv for kv in sorted(changed.items()))
                               if changed else "official")
        inputs += 1
        head = "%5d  %-14s" % (seq, short(script.input_dict(inp, t.registry)))
        if evs and evs[0][0] == REJECT:
            rejected += 1
        yield head + ("; ".join(says(evs)) if evs else "-")
    yield ""
    yield from summary(run.table, rejected, inputs)


def summary(t, rejected, inputs):
    s = snapshot(t)
    yield "after %s (%d rejected): %s, round %d" % (
        plural(inputs, "input"), rejected, s["phase"].replace("_", " "), s["round"])
    if s["phase"] == "play":
        yield "turn: seat %d, top %s, colour %s, direction %s, shoe %d" % (
            s["turn"], s["top"], s["colour"], s["direction"], s["shoe"])
    for seat in s["seats"]:
        yield "  seat %-2d %4d points  %2d cards  %s" % (
            seat["seat"], seat["score"], len(seat["hand"]), " ".join(seat["hand"]))


def short(d):
    """An input in script words: 'pad R7a', 'seat 3 long', 'shuffle'."""
    kind = d["in"]
    if kind in ("shoe", "pad"):
        return "%s %s" % (kind, d.get("card") or d.get("uid"))
    if kind == "seat":
        return "seat %d%s" % (d["seat"], " long" if d.get("long") else "")
    if kind == "colour":
        return "colour %s" % d["colour"]
    if kind == "tick":
        return "tick %d" % d["ms"]
    return kind
