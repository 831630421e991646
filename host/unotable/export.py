"""Exports of a stored night (the game record of docs/formats.md, and CSV) and their check.

Every event written here is decided again by the engine from the stored inputs, never read
from anywhere else: an export is exactly what `uno.record.Replay` makes of the night.
"""
import csv

from uno.cards import NCARDS
from uno.events import REJECT, ROUND, ROUND_OVER
from uno.record import Replay, event_dict
from uno.script import dumps, input_dict, parse_line
from uno.state import snapshot
from unotable.replay import short

CSV_COLUMNS = ("seq", "t", "input", "event", "seat", "card", "n", "why", "more")
MAX_PROBLEMS = 100     # a log damaged throughout is not worth 5,000 lines of report


def _seq_of(line):
    return int(line[7:line.index(",")])     # dumps writes every record line as {"seq":N,...


def export_jsonl(store, table, out, from_seq=1, to_seq=None):
    """Writes the game record of seqs from_seq..to_seq (the header always); returns the lines.

    The night is replayed from its start whatever the range: an input's events depend on every
    input before it. Only a record from seq 1 replays to itself on its own."""
    run = Replay(registry=store.registry(table))
    n = 0
    for line in run.record(store.script_lines(table, 1, to_seq)):
        if from_seq > 1 and line[2:8] != "record" and _seq_of(line) < from_seq:
            continue
        out.write(line + "\n")
        n += 1
    return n


def words(d):
    """An input in the words people type: 'pad R7a', 'seat 3 long', 'rule stacking on'."""
    if d["in"] == "rule":
        return "rule %s %s" % (d["name"], d["value"])
    return short(d)


def export_csv(store, table, out, from_seq=1, to_seq=None):
    """Writes one CSV row per decided event (columns CSV_COLUMNS); returns the rows.

    seat, card, n and why are empty where the event has none; `more` holds its other fields
    as `key=value` (points, total, colour, round...). An input with no event has no row."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    run = Replay(registry=store.registry(table))
    rows = 0
    for seq, inp, evs in run.run(store.script_lines(table, 1, to_seq)):
        if seq < from_seq or not evs:
            continue
        text = words(input_dict(inp, run.table.registry))
        for ev in evs:
            d = event_dict(ev)
            name = d.pop("ev")
            cols = [d.pop(k, "") for k in ("seat", "card", "n", "why")]
            more = " ".join("%s=%s" % kv for kv in sorted(d.items()))
            w.writerow([seq, run.t, text, name] + cols + [more])
            rows += 1
    return rows


class Report:
    """What verify() found: ok, kind ('record' or 'script'), counts, problems [(seq, what)]."""

    def __init__(self, kind="script"):
        self.kind = kind
        self.inputs = self.rounds = self.rejections = self.events = 0
        self.problems = []
        self.unlisted = 0      # problems past MAX_PROBLEMS, counted only

    @property
    def ok(self):
        return not self.problems

    def problem(self, seq, what):
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append((seq, what))
        else:
            self.unlisted += 1

    def as_dict(self):
        return {"ok": self.ok, "kind": self.kind, "inputs": self.inputs, "rounds": self.rounds,
                "rejections": self.rejections, "events": self.events,
                "problems": [{"seq": s, "what": w} for s, w in self.problems],
                "unlisted": self.unlisted}

    def __str__(self):
        head = "%s: %s, %d inputs, %d rounds, %d rejected" % (
            "ok" if self.ok else "NOT OK", self.kind, self.inputs, self.rounds, self.rejections)
        lines = [head] + ["  seq %d: %s" % p for p in self.problems]
        if self.unlisted:
            lines.append("  ... and %d more problems" % self.unlisted)
        return "\n".join(lines)


def verify(lines, registry=None):
    """Replays a table script or game record and checks it; returns a Report.

    (a) seqs run 1, 2, 3... with no gap or repeat (one seq skipped right after a round's end is
    the hub's snapshot and fine); (b) in a record, the stored events are those the engine
    decides now; (c) at every round's end the 108 cards are where the table's counts say.
    registry: the deck of a record whose cards are UIDs (an enrolled deck)."""
    lines = list(lines)
    rep = Report()
    groups = []        # per input line, the event lines after it, as stored
    for n, text in enumerate(lines, 1):
        try:
            d = parse_line(text)
        except ValueError as e:
            rep.problem(0, "line %d is not JSON (%s)" % (n, e))
            return rep
        if d is None:
            continue
        if "record" in d:
            rep.kind = "record"
            if d.get("registry") == "enrolled" and registry is None:
                rep.problem(0, "the record was made with an enrolled deck: give its registry")
                return rep
        elif "in" in d:
            groups.append([])
        elif "ev" in d:
            rep.kind = "record"
            if not groups:
                rep.problem(d.get("seq", 0), "an event before any input: %s" % dumps(d))
            else:
                groups[-1].append(d)
    run = Replay(registry=registry)
    prev = 0
    ended = False      # the input before ended a round: the hub's snapshot takes the next seq
    i = 0
    try:
        for seq, inp, evs in run.run(lines):
            _check_seq(rep, seq, prev, ended)
            prev = seq
            ended = False
            rep.inputs += 1
            rep.events += len(evs)
            got = []
            for ev in evs:
                code = ev[0]
                if code == REJECT:
                    rep.rejections += 1
                elif code == ROUND:
                    rep.rounds += 1
                elif code == ROUND_OVER:
                    ended = True
                    _check_cards(rep, seq, run.table)
                d = event_dict(ev)
                d["seq"] = seq
                got.append(d)
            if rep.kind == "record":
                _check_events(rep, seq, groups[i], got)
            i += 1
    except ValueError as e:
        rep.problem(prev + 1, "cannot replay: %s" % e)
    return rep


def verify_stored(store, table):
    """verify() of a table's stored inputs (seqs and card counts: a store holds no events)."""
    return verify(store.script_lines(table), store.registry(table))


def _check_seq(rep, seq, prev, ended):
    if seq == prev + 1 or (prev and ended and seq == prev + 2):
        return
    if not prev:
        rep.problem(seq, "the log starts at seq %d: the inputs before it are missing, so the "
                         "replay starts from an empty table" % seq)
    elif seq <= prev:
        rep.problem(seq, "seq %d comes again after seq %d (a duplicate or out of order)"
                    % (seq, prev))
    else:
        rep.problem(seq, "seqs %d..%d are missing before it" % (prev + 1, seq - 1))


def _check_events(rep, seq, stored, got):
    if stored == got:
        return
    k = 0
    while k < len(stored) and k < len(got) and stored[k] == got[k]:
        k += 1
    have = dumps(stored[k]) if k < len(stored) else "no more events"
    want = dumps(got[k]) if k < len(got) else "no more events"
    rep.problem(seq, "the record has %s, the engine decides %s" % (have, want))


def _check_cards(rep, seq, table):
    s = snapshot(table)
    where = s["where"]
    counts = [("the shoe", "s", s["shoe"]), ("the pile", "p", s["pile"])]
    for x in s["seats"]:
        counts.append(("seat %d's hand" % x["seat"], "123456789A"[x["seat"] - 1], len(x["hand"])))
    if len(where) != NCARDS:
        rep.problem(seq, "at the round's end %d cards have a place, not %d"
                    % (len(where), NCARDS))
    for what, ch, n in counts:
        if where.count(ch) != n:
            rep.problem(seq, "at the round's end %s holds %d cards by their places but %d by its "
                             "count" % (what, where.count(ch), n))
