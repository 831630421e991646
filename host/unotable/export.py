"""Exports of a stored night (the game record of docs/formats.md, and CSV) and their check.

Every event written here is decided again by the engine from the stored inputs, never read
from anywhere else: an export is exactly what `uno.record.Replay` makes of the night, plus the
table's evidence: its id, each input's chain tag and the chain heads the host saw at sync.
"""
import csv
import hmac
import json

from uno.cards import NCARDS
from uno.events import REJECT, ROUND, ROUND_OVER
from uno.record import Replay, event_dict, record
from uno.rules import Settings
from uno.script import dumps, input_dict, parse_line, to_input
from uno.state import snapshot
from uno.table import Table
from unotable.replay import short
from unotable.store import is_id
from unotable.ui import plural, sheet_cell

CSV_COLUMNS = ("seq", "t", "input", "event", "seat", "card", "n", "why", "more", "at", "player")
MAX_PROBLEMS = 100     # a log damaged throughout is not worth 5,000 lines of report


def _chain():
    """firmware/gamelog/chain.py (the table's chain), or None in a host without it."""
    try:
        from gamelog import chain
    except ImportError:
        return None
    return chain


def input_dates(records, clocks):
    """{seq: wall-clock seconds} for every input the table's clock notes can date.

    records: (seq, t, wall, ...) in seq order; clocks: (seq, wall seconds, table ms). A boot
    is a run of inputs whose ms never go back; a note dates the boot it was logged in (its ms
    fit there), before and after it. A wall-clock input dates itself."""
    boots = []          # [first seq, last seq, last t, [inputs (seq, t)]]
    out = {}
    for r in records:
        seq, t, wall = r[0], r[1], r[2]
        if wall:
            out[seq] = t
            continue
        if not boots or t < boots[-1][2]:
            boots.append([seq, seq, t, []])
        b = boots[-1]
        b[1], b[2] = seq, t
        b[3].append((seq, t))
    mine = [[] for _ in boots]
    for c in clocks:
        i = 0
        while i + 1 < len(boots) and boots[i + 1][0] <= c[0]:
            i += 1
        if boots and c[0] > boots[i][1] and i + 1 < len(boots) and c[2] < boots[i][2]:
            i += 1          # between two boots, its ms before this one's end: the next boot's
        if boots:
            mine[i].append(c)
    for b, notes in zip(boots, mine):
        k = 0
        for seq, t in b[3] if notes else ():
            while k + 1 < len(notes) and notes[k + 1][0] < seq:
                k += 1
            c = notes[k]
            out[seq] = c[1] + (t - c[2]) // 1000
    return out


def iso(seconds):
    """Wall-clock seconds as people read them: 2026-12-01T03:16:28Z."""
    import datetime
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def round_dates(store, table, games):
    """{first seq of a round: its date and time} for the rounds the clock notes date."""
    dates = input_dates(store.records(table), store.clocks(table))
    return dict((g["first"], iso(dates[g["first"]])) for g in games if g["first"] in dates)


def export_jsonl(store, table, out, from_seq=1, to_seq=None):
    """Writes the game record of seqs from_seq..to_seq (the header always); returns the lines.

    The header carries the table id, the gaps and the chain heads the host holds (and, for a
    part that does not start at seq 1, the chain head before it when the host can work it
    out); every input line carries its chain tag, and a wall-clock time as "wall" (seconds)
    instead of "t". The night is replayed from its start whatever the range: an input's events
    depend on every input before it."""
    reg = store.registry(table)
    run = Replay(registry=reg)
    chain = _chain()
    heads = store.heads(table)
    gaps = store.gaps(table)
    walk = None
    if from_seq > 1 and chain is not None and is_id(table):
        walk = ChainCheck(chain, None, None, None, _heads_bin(heads), gaps)
    clocks = store.clocks(table)
    dates = input_dates(store.records(table, 1, to_seq), clocks)
    rows = store.records(table, 1, to_seq)
    now = [None]

    def lines():
        for row in rows:
            now[0] = row
            seq, t, wall, line, tag = row
            if wall:
                yield '{"seq":%d,%s' % (seq, line[1:])
            else:
                yield '{"seq":%d,"t":%d,%s' % (seq, t, line[1:])

    n = 0
    for seq, inp, evs in run.run(lines()):
        _, t, wall, _, tag = now[0]
        if seq < from_seq:
            if walk is not None:
                walk.entry(0, seq, t, bool(wall), inp, tag)
            continue
        if not n:
            out.write(_head_line(run.head, table, heads, gaps, from_seq, to_seq, walk,
                                 clocks) + "\n")
            n += 1
        ds = record(seq, inp, evs, run.table.registry, -1 if wall else t)
        if tag is not None:
            ds[0]["tag"] = tag
        if wall:
            ds[0]["wall"] = t
        if seq in dates:
            ds[0]["at"] = iso(dates[seq])
        for d in ds:
            out.write(dumps(d) + "\n")
            n += 1
    if not n:
        out.write(_head_line(run.head, table, heads, gaps, from_seq, to_seq, walk, clocks)
                  + "\n")
        n = 1
    return n


def _head_line(head, table, heads, gaps, from_seq, to_seq, walk, clocks=()):
    d = json.loads(head)
    if is_id(table):
        d["table"] = table
    if gaps:
        d["gaps"] = [list(g) for g in gaps]
    if clocks:      # the table's clock notes: their seqs are no input, and they date the rest
        d["clocks"] = [list(c) for c in clocks if to_seq is None or c[0] <= to_seq]
    if from_seq > 1 or to_seq is not None:
        d["range"] = [from_seq, to_seq]
    if from_seq > 1:
        heads = [h for h in heads if h[0] >= from_seq]
        if walk is not None:
            h = walk.before(from_seq)
            if h is not None:
                d["anchor"] = [from_seq - 1, h.hex()]
    if to_seq is not None:
        heads = [h for h in heads if h[0] <= to_seq]
    if heads:
        d["heads"] = [list(h) for h in heads]
    return dumps(d)


def words(d):
    """An input in the words people type: 'pad R7a', 'seat 3 long', 'rule stacking on'."""
    if d["in"] == "rule":
        return "rule %s %s" % (d["name"], d["value"])
    return short(d)


def export_csv(store, table, out, from_seq=1, to_seq=None):
    """Writes one CSV row per decided event (columns CSV_COLUMNS); returns the rows.

    seat, card, n and why are empty where the event has none; `more` holds its other fields
    as `key=value` (points, total, colour, round...); `player` is the seat's player by name
    (a badge by its enrolled name, issue 12), empty for a seat nobody named. An input with no
    event has no row."""
    from unotable.players import badge_names, display, who
    names = badge_names(store)
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    run = Replay(registry=store.registry(table))
    dates = input_dates(store.records(table, 1, to_seq), store.clocks(table))
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
            at = iso(dates[seq]) if seq in dates else ""
            b = who(run.table.players[cols[0]]) if cols[0] else None
            w.writerow([seq, run.t, text, name] + cols + [more, at, sheet_cell(
                display(store, b[0], b[1], names)) if b else ""])
            rows += 1
    return rows


class Report:
    """What verify() found: ok, kind ('record' or 'script'), counts, problems [(seq, what)]
    (each `what` names its line), notes [text] (what could not be checked, and why; not
    failures), and the chain: table id, inputs checked / not checkable / covered by a head
    signed with the table's key."""

    def __init__(self, kind="script"):
        self.kind = kind
        self.inputs = self.rounds = self.rejections = self.events = 0
        self.problems = []
        self.notes = []
        self.unlisted = 0      # problems past MAX_PROBLEMS, counted only
        self.table = None
        self.chained = False   # the record carries the table's chain
        self.checked = self.unchecked = self.signed = 0
        self.keyed = False     # the table's key was at hand
        self.part = None       # (from, to) of a record that is a part of the night

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
                "unlisted": self.unlisted, "notes": list(self.notes), "table": self.table,
                "chain": {"checked": self.checked, "unchecked": self.unchecked,
                          "signed": self.signed, "key": self.keyed} if self.chained else None}

    def chain_line(self):
        if not self.chained:
            return None
        if self.keyed:
            sig = "%d covered by heads signed with the table's key" % self.signed
        else:
            sig = "no key to check the heads' signatures (`unotable pair`)"
        return "chain of table %s: %s checked, %d could not be checked; %s" % (
            self.table or "?", plural(self.checked, "input"), self.unchecked, sig)

    def __str__(self):
        head = "%s: %s, %s, %s, %d rejected" % (
            "ok" if self.ok else "NOT OK", self.kind, plural(self.inputs, "input"),
            plural(self.rounds, "round"), self.rejections)
        if self.part:
            head += " (a part: seqs %s..%s)" % (self.part[0], self.part[1] or "end")
        lines = [head]
        if self.chain_line():
            lines.append("  " + self.chain_line())
        lines += ["  note: " + n for n in self.notes]
        lines += ["  seq %d: %s" % p for p in self.problems]
        if self.unlisted:
            lines.append("  ... and %d more problems" % self.unlisted)
        return "\n".join(lines)


def _heads_bin(heads):
    """(seq, head hex, mac hex or None) -> (seq, head bytes, mac bytes or None), bad ones out."""
    out = []
    for seq, head, mac in heads:
        try:
            out.append((seq, bytes.fromhex(head), bytes.fromhex(mac) if mac else None))
        except (TypeError, ValueError):
            pass
    return out


class ChainCheck:
    """Walks the table's chain over the input records of a night, in order.

    The chain (firmware/gamelog/chain.py): h = sha256(h_before || canon(seq, t, wall, input)),
    from GENESIS; each input carries tag(h) (4 bytes); a head (seq, h, mac) is the chain after
    the last input at or before seq, mac = HMAC(table key, table id, seq, h). A gap makes the
    chain unknown until the next head. With rep=None it only follows the chain (`before`)."""

    def __init__(self, chain, rep, table, key, heads, gaps, start=True):
        self.c = chain
        self.rep = rep
        self.tid = bytes.fromhex(table) if table else None
        self.key = key if self.tid else None
        # a gap sorts at its first seq, a head just after its seq's record; a head inside a
        # gap is the chain over records that are lost: no use
        ev = [(g[0], 0, g) for g in gaps] + [(h[0], 1, h) for h in heads
                                              if not any(g[0] <= h[0] < g[1] for g in gaps)]
        ev.sort(key=lambda e: (e[0] + 0.5 * e[1], e[1]))
        self.events = ev
        self.i = 0
        self.h = chain.GENESIS if start else None
        self.prev = (0, 0)         # (line, seq) of the last input
        self.pending = None        # (line, seq, count) checked since the last signed head
        self.checked = self.unchecked = self.signed = self.untagged = 0
        self.blind = None          # [first seq, last seq, why] inputs that cannot be checked
        self.blinds = []

    at = "line %d"             # how a problem names its place ("seq %d" for a stored night)

    def _problem(self, seq, what):
        if self.rep is not None:
            if what.startswith("line "):
                n, _, what = what[5:].partition(": ")
                n = int(n)
                where = self.at % n if n else "line 1" if self.at == "line %d" else "the start"
                what = where + ": " + what
            self.rep.problem(seq, what)

    def before(self, seq):
        """Takes in the gaps and heads before input seq; returns the chain there (or None)."""
        ev = self.events
        while self.i < len(ev) and ev[self.i][0] + 0.5 * ev[self.i][1] < seq:
            e = ev[self.i]
            self.i += 1
            if e[1] == 0:
                if self.pending and self.key is not None and self.rep is not None:
                    self.rep.notes.append(
                        "the %s from seq %d to the gap at seq %d checked by the chain, "
                        "but no head signed with the table's key covers them"
                        % (plural(self.pending[2], "input"), self.pending[1], e[0]))
                self.pending = None
                self.h = None
                self._why = "after the gap at seqs %d..%d (%s)" % e[2]
            else:
                self._head(*e[2])
        return self.h

    def _head(self, seq, head, mac):
        line = self.prev[0]
        signed = False
        if mac is not None and self.key is not None:
            want = self.c.mac_head(self.key, self.tid, seq, head)
            signed = hmac.compare_digest(want, mac)
            if not signed:
                self._problem(seq, "line %d: the chain head at seq %d is not signed with the key "
                              "of table %s: the record was made again without the key, or the "
                              "key is another table's" % (line, seq, self.tid.hex()))
        if self.h is not None and self.h != head:
            self._problem(seq, "line %d: the chain does not reach the head the table reported at "
                          "seq %d: an input up to it was changed, dropped, inserted or moved"
                          % (line, seq))
            self.pending = None
        elif self.h is not None and signed and self.pending:
            self.signed += self.pending[2]
            self.pending = None
        self._end_blind()
        self.h = head

    def _end_pending(self):
        if self.pending and self.key is not None:
            line, seq, n = self.pending
            self._problem(seq, "line %d: from seq %d on, %s not covered by a chain "
                          "head signed with the table's key: the record was made again without "
                          "the key, or its end was not synced"
                          % (line, seq, "1 input is" if n == 1 else "%d inputs are" % n))
        self.pending = None

    def _end_blind(self):
        if self.blind:
            self.blinds.append(tuple(self.blind))
            self.blind = None

    def entry(self, line, seq, t, wall, inp, tag):
        """One input record; tag: its 8 hex as given (None: missing)."""
        self.before(seq)
        if self.h is None:
            self.unchecked += 1
            if self.blind is None:
                self.blind = [seq, seq, getattr(self, "_why", "with no chain head before them")]
            self.blind[1] = seq
        else:
            try:
                h = self.c.step(self.h, seq, t, wall, inp)
            except Exception as e:      # struct.error, ValueError: a value no table logs
                self._problem(seq, "line %d: not an input the table logs (%s)" % (line, e))
                h = None
            if h is None:
                self.pending = None
                self.h = None
                self._why = "after seq %d" % seq
                self.blind = [seq, seq, "broken"]
                self.unchecked += 1
            elif tag is None:             # synced before the table had a chain: the next tag
                self.h = h              # or head checks it
                self.untagged += 1
            elif self.c.tag(h).hex() != tag:
                self._problem(seq, "line %d: the chain breaks at this input: it was changed, "
                              "moved or inserted, or a line before it was dropped" % line)
                self.pending = None
                self.h = None
                self._why = "after the break at seq %d" % seq
                self.blind = [seq, seq, "broken"]
                self.unchecked += 1
            else:
                self.h = h
                self.checked += 1
                if self.pending is None:
                    self.pending = (line, seq, 0)
                self.pending = self.pending[:2] + (self.pending[2] + 1,)
        self.prev = (line, seq)

    def end(self, upto=None):
        """After the last input: the heads after it (a head past the record's end that the
        chain does not reach is a truncation); then what no signed head covers."""
        last = self.prev[1]
        for e in self.events[self.i:]:
            if e[1] == 0 or (upto is not None and e[0] > upto):
                continue
            seq, head, mac = e[2]
            if self.h is not None and self.h == head or seq <= last:
                self._head(seq, head, mac)
                continue
            self._problem(seq, "line %d: the record ends at seq %d, but the table's chain reached "
                          "seq %d (a head seen at sync): the inputs after seq %d are missing "
                          "(or the "
                          "record was exported before the host synced them)"
                          % (self.prev[0], last, seq, last))
            self.pending = None
            break
        if upto is not None and self.pending and self.rep is not None:
            self.rep.notes.append("the last %s of the part checked by the chain; the "
                                  "signed head that covers them is past its end"
                                  % plural(self.pending[2], "input"))
            self.pending = None
        self._end_pending()
        self._end_blind()


def verify(lines, registry=None, key=None, known=None, events=True):
    """Replays a table script or game record and checks it; returns a Report.

    (a) seqs run 1, 2, 3... with no gap or repeat (one seq skipped right after a round's end is
    the hub's snapshot and fine; so are the gaps the table reported); (b) in a record, the
    stored events are those the engine decides now; (c) at every round's end the 108 cards are
    where the table's counts say; (d) in a record of a table (it names the table id), the
    chain: every input's tag, the heads, and with `key` (the table's, from `unotable pair`)
    the heads' signatures. registry: the deck of a record whose cards are UIDs (an enrolled
    deck). known: what the host database holds of this table, {"heads": [...], "gaps": [...]}:
    a head the host saw and the record lacks, or one it has otherwise, is found. events=False:
    the lines are inputs only (a stored night), there are no events to compare.
    Never raises for what is in the lines: every oddity is a problem naming its line."""
    rep = Report()
    try:
        if not events:
            rep.kind = "stored"
        return _verify(rep, lines, registry, key, known or {})
    except Exception as e:          # a bug here must still end in a report, not a traceback
        rep.problem(0, "could not be checked to the end: %s: %s" % (type(e).__name__, e))
        return rep


def _verify(rep, lines, registry, key, known):
    texts = []
    groups = []        # per input line, the event lines after it, as stored
    inputs = []        # per input line: (line number, dict)
    header = None
    for n, text in enumerate(lines, 1):
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                rep.problem(0, "line %d is not UTF-8 text" % n)
                return rep
        texts.append(text)
        try:
            d = parse_line(text)
        except ValueError as e:
            rep.problem(0, "line %d is not JSON (%s)" % (n, e))
            return rep
        except RecursionError:
            rep.problem(0, "line %d is not JSON (nested too deep)" % n)
            return rep
        if d is None:
            continue
        bad = _odd_fields(d)
        if bad:
            rep.problem(d["seq"] if type(d.get("seq")) is int else 0, "line %d: %s" % (n, bad))
            return rep
        if "in" in d:
            groups.append([])
            inputs.append((n, d))
        elif "ev" in d:
            rep.kind = "record"
            if not groups:
                rep.problem(d.get("seq", 0), "line %d: an event before any input: %s"
                            % (n, dumps(d)))
            else:
                groups[-1].append(d)
        elif "record" in d:
            rep.kind = "record" if rep.kind == "script" else rep.kind
            if header is not None or inputs:
                rep.problem(0, "line %d: a second header, or a header after the inputs" % n)
                return rep
            header = d
    chain = _header(rep, header, known, key)
    if chain is None and (header or {}).get("registry") == "enrolled" and registry is None:
        rep.problem(0, "line 1: the record was made with an enrolled deck: give its registry "
                       "(`--deck FILE`, or sync the table so the host database holds it)")
        return rep
    if chain is not None and chain["enrolled"] and registry is None:
        rep.problem(0, "line 1: the record was made with an enrolled deck: give its registry "
                       "(`--deck FILE`, or sync the table so the host database holds it)")
        return rep
    gaps = chain["gaps"] if chain else []
    notes = _clock_seqs(header)
    if chain is not None:           # first: its findings say most, and come before the replay's
        _check_chain(rep, chain, inputs, registry, key)
    run = Replay(registry=registry)
    prev = 0
    ended = False      # the input before ended a round: the hub's snapshot takes the next seq
    i = 0
    whole = not rep.part or rep.part[0] <= 1
    if not whole:
        rep.notes.append("a part that does not start at seq 1: its events and card counts are "
                         "not checked (they depend on every input before it), its chain is")
    try:
        for seq, inp, evs in run.run(texts):
            _check_seq(rep, inputs[i][0], seq, prev, ended, gaps, rep.part, whole, notes)
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
                    if whole:
                        _check_cards(rep, seq, run.table)
                d = event_dict(ev)
                d["seq"] = seq
                got.append(d)
            if rep.kind == "record" and whole:
                _check_events(rep, inputs[i][0], seq, groups[i], got)
            i += 1
    except ValueError as e:
        rep.problem(prev + 1, "cannot replay: %s" % e)
    except Exception as e:      # the engine fed what no table sends: name the line
        rep.problem(prev + 1, "line %d: cannot replay: %s: %s" % (
            inputs[i][0] if i < len(inputs) else 0, type(e).__name__, e))
    return rep


def _odd_fields(d):
    """What makes a line's fields unusable (a JSON line any tool could write), or None."""
    for k in ("seq", "t", "wall"):
        if k in d and (type(d[k]) is not int or d[k] < 0 or d[k] >= 1 << 53):
            return "%r must be a whole number, not %s" % (k, json.dumps(d[k])[:40])
    if "seq" in d and d["seq"] < 1:
        return "seq must be 1 or more"
    if "tag" in d and not (isinstance(d["tag"], str) and len(d["tag"]) == 8 and _hex(d["tag"])):
        return "a tag is 8 hex digits, not %s" % json.dumps(d["tag"])[:40]
    if "wall" in d and "t" in d:
        return "a wall-clock input carries no engine time \"t\""
    if "in" in d and ("ev" in d or "record" in d):
        return "a line is an input, an event or the header, not two of them"
    return None


def _hex(text):
    return all(c in "0123456789abcdef" for c in text)


def _header(rep, header, known, key):
    """The chain evidence of a record's header, checked against the host's: a dict, or None
    for a record or script without a table id."""
    if header is None or "table" not in header:
        if header is not None and any(k in header for k in ("heads", "gaps", "anchor")):
            rep.problem(0, "line 1: the header holds chain heads but no table id")
        return None
    out = {"heads": [], "gaps": [], "enrolled": header.get("registry") == "enrolled"}
    tid = header["table"]
    if not is_id(tid):
        rep.problem(0, "line 1: the table id must be 16 hex digits, not %s" % json.dumps(tid)[:40])
        return None
    rep.table = tid
    rep.chained = True
    rep.keyed = key is not None
    if header.get("settings") != Settings().as_dict():
        rep.problem(0, "line 1: a table's night starts from the official rules (its rule changes "
                       "are inputs), but the header's settings differ")
    part = header.get("range")
    if part is not None:
        if (isinstance(part, list) and len(part) == 2 and type(part[0]) is int and part[0] >= 1
                and (part[1] is None or type(part[1]) is int)):
            rep.part = tuple(part)
        else:
            rep.problem(0, "line 1: range must be [first seq, last seq or null]")
    heads = {}
    for h in _list(rep, header, "heads", 3):
        if (type(h[0]) is int and h[0] >= 0 and isinstance(h[1], str) and len(h[1]) == 64
                and _hex(h[1]) and (h[2] is None or isinstance(h[2], str) and len(h[2]) == 64
                                    and _hex(h[2]))):
            heads[h[0]] = (h[1], h[2])
        else:
            rep.problem(0, "line 1: a chain head must be [seq, 64 hex, 64 hex or null], not %s"
                        % json.dumps(h)[:60])
    for s, h, m in known.get("heads", ()):
        if s in heads and heads[s][0] != h:
            rep.problem(s, "line 1: the record's chain head at seq %d is not the one the host saw "
                        "at sync" % s)
        if rep.part and rep.part[1] is not None and s > rep.part[1]:
            continue
        if rep.part and s < rep.part[0]:
            continue
        heads[s] = (h, m or heads.get(s, (None, None))[1])
    gaps = set()
    for g in _list(rep, header, "gaps", 3):
        if type(g[0]) is int and type(g[1]) is int and isinstance(g[2], str) and g[0] <= g[1]:
            gaps.add(tuple(g))
        else:
            rep.problem(0, "line 1: a gap must be [first, last, cause], not %s"
                        % json.dumps(g)[:60])
    if "gaps" in known:
        host = set(tuple(g) for g in known["gaps"])
        for g in sorted(gaps - host):
            rep.problem(g[0], "line 1: the record lists a gap (seqs %d..%d, %s) the table never "
                        "reported to the host" % g)
        gaps |= host
    for g in sorted(gaps):
        rep.notes.append("seqs %d..%d are not in the table's log: %s (reported by the table)"
                         % g)
    out["gaps"] = sorted(gaps)
    out["heads"] = _heads_bin([(s,) + heads[s] for s in sorted(heads)])
    anchor = header.get("anchor")
    if anchor is not None:
        if (isinstance(anchor, list) and len(anchor) == 2 and type(anchor[0]) is int
                and isinstance(anchor[1], str) and len(anchor[1]) == 64 and _hex(anchor[1])):
            out["heads"].append((anchor[0], bytes.fromhex(anchor[1]), None))
            out["heads"].sort(key=lambda h: h[0])
        else:
            rep.problem(0, "line 1: anchor must be [seq, 64 hex]")
    out["start"] = not rep.part or rep.part[0] <= 1
    return out


def _list(rep, header, key, n):
    v = header.get(key, [])
    if not isinstance(v, list):
        rep.problem(0, "line 1: %s must be a list" % key)
        return []
    out = []
    for x in v:
        if isinstance(x, list) and len(x) == n:
            out.append(x)
        else:
            rep.problem(0, "line 1: each of %s has %d fields, not %s" % (key, n,
                                                                        json.dumps(x)[:60]))
    return out


def _check_chain(rep, found, inputs, registry, key):
    chain = _chain()
    if chain is None:
        rep.notes.append("this unotable has no gamelog.chain: the chain was not checked")
        rep.chained = False
        return
    walk = ChainCheck(chain, rep, rep.table, key, found["heads"], found["gaps"], found["start"])
    table = Table(registry=registry)
    for n, d in inputs:
        if "seq" not in d:
            rep.problem(0, "line %d: an input of a table's record has no seq" % n)
            return
        wall = "wall" in d
        t = d["wall"] if wall else d.get("t")
        if t is None:
            rep.problem(d["seq"], "line %d: the input has no time" % n)
            return
        try:
            inp = to_input(d, table)
        except Exception as e:
            rep.problem(d["seq"], "line %d: not a table input (%s)" % (n, e))
            return
        walk.entry(n, d["seq"], t, wall, inp, d.get("tag"))
    walk.end(rep.part[1] if rep.part else None)
    rep.checked, rep.unchecked, rep.signed = walk.checked, walk.unchecked, walk.signed
    _untagged(rep, walk)
    for first, last, why in walk.blinds:
        if why != "broken":
            rep.notes.append("the inputs of seqs %d..%d could not be checked by the chain: %s, "
                             "no chain head before them" % (first, last, why))


def verify_stored(store, table, key=None, registry=None):
    """verify() of a table's stored night: its inputs as they would be exported, without the
    events (a store holds none: they would be the replay's own): seqs, card counts and the
    chain. key: default the one the host holds for the table; registry: default the deck
    stored with it."""
    reg = registry or store.registry(table)
    heads, gaps = store.heads(table), store.gaps(table)
    d = {"record": 1, "registry": "synthetic" if reg.synthetic() else "enrolled",
         "settings": Settings().as_dict()}
    if is_id(table):
        d["table"] = table
        if gaps:
            d["gaps"] = [list(g) for g in gaps]
        if heads:
            d["heads"] = [list(h) for h in heads]
    clocks = store.clocks(table)
    if clocks:
        d["clocks"] = [list(c) for c in clocks]
    lines = [dumps(d)]
    for seq, t, wall, line, tag in store.records(table):
        extra = (',"tag":"%s"' % tag if tag else "") + (',"wall":%d' % t if wall else "")
        if wall:
            lines.append('{"seq":%d,%s%s}' % (seq, line[1:-1], extra))
        else:
            lines.append('{"seq":%d,"t":%d,%s%s}' % (seq, t, line[1:-1], extra))
    if key is None:
        key = store.key(table)
    return verify(lines, reg, key, {"heads": heads, "gaps": gaps}, events=False)


def check_chain_stored(store, table):
    """The chain of a table's stored inputs alone (no replay: quick, for after a sync)."""
    rep = Report("stored")
    chain = _chain()
    if chain is None or not is_id(table):
        return rep
    key = store.key(table)
    rep.table, rep.keyed = table, key is not None
    walk = ChainCheck(chain, rep, table, key, _heads_bin(store.heads(table)), store.gaps(table))
    walk.at = "input seq %d"
    tab = Table(registry=store.registry(table))
    for seq, t, wall, line, tag in store.records(table):
        rep.chained = rep.chained or tag is not None
        walk.entry(seq, seq, t, bool(wall), to_input(json.loads(line), tab), tag)
        rep.inputs += 1
    walk.end()
    rep.checked, rep.unchecked, rep.signed = walk.checked, walk.unchecked, walk.signed
    _untagged(rep, walk)
    return rep


def _untagged(rep, walk):
    if walk.untagged:
        rep.notes.append("%s no chain tag (synced before the table had a chain): "
                         "the chain runs over them, checked by the next tag or head"
                         % ("1 input carries" if walk.untagged == 1
                            else "%d inputs carry" % walk.untagged))


def table_of(lines):
    """The table id a record's header names, or None (never raises)."""
    for text in lines[:5]:
        try:
            if isinstance(text, bytes):
                text = text.decode("utf-8")
            d = parse_line(text)
        except (ValueError, RecursionError):
            return None
        if d is None:
            continue
        tid = d.get("table") if "record" in d else None
        return tid if is_id(tid) else None
    return None


def _clock_seqs(header):
    """The seqs of the table's clock notes a record's header lists: records, not inputs."""
    out = set()
    for c in (header or {}).get("clocks") or ():
        if isinstance(c, list) and c and type(c[0]) is int:
            out.add(c[0])
    return out


def _check_seq(rep, line, seq, prev, ended, gaps, part, whole=True, notes=()):
    if seq == prev + 1 or (prev and ended and seq == prev + 2):
        return
    lo = prev + 1
    while lo < seq and lo in notes:         # the table's clock notes take seqs of their own
        lo += 1
    if lo == seq:
        return
    if prev and (ended or not whole or gaps and gaps[0][0] < seq):
        # the hub's snapshot after a round's end; after a gap, or in a part, the replay is not
        # the table's (inputs are missing), so its round ends are not where the table's were
        lo += 1 if _gap_at(gaps, lo) is None else 0
    while lo < seq:                         # every seq skipped is in a gap the table reported
        if lo in notes:
            lo += 1
            continue
        g = _gap_at(gaps, lo)
        if g is None:
            break
        lo = g[1] + 1
    if lo >= seq and seq > prev:
        return
    if not prev:
        if part and part[0] == seq:
            return
        rep.problem(seq, "line %d: the log starts at seq %d: the inputs before it are missing, "
                    "so the replay starts from an empty table" % (line, seq))
    elif seq <= prev:
        rep.problem(seq, "line %d: seq %d comes again after seq %d (a duplicate or out of order)"
                    % (line, seq, prev))
    else:
        rep.problem(seq, "line %d: seqs %d..%d are missing before it" % (line, prev + 1, seq - 1))


def _gap_at(gaps, seq):
    for g in gaps:
        if g[0] <= seq <= g[1]:
            return g
    return None


def _check_events(rep, line, seq, stored, got):
    if stored == got:
        return
    k = 0
    while k < len(stored) and k < len(got) and stored[k] == got[k]:
        k += 1
    have = dumps(stored[k]) if k < len(stored) else "no more events"
    want = dumps(got[k]) if k < len(got) else "no more events"
    rep.problem(seq, "line %d: the record has %s, the engine decides %s" % (
        line + 1 + k, have, want))


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
