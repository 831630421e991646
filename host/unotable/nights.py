"""The host tool's commands on synced nights: sync, logs, verify, monitor.

The host database holds each table's inputs; every outcome is decided again by replaying them
through the engine, so what the host shows is what the table decided.
"""
import json
import os
import sqlite3
import sys
import time

from uno.narrate import says
from uno.record import Replay
from uno.state import snapshot
from unotable import commands, export, settings
from unotable.errors import NotFound, UsageError, endless, file_error
from unotable.link import LinkError, Refused
from unotable.replay import short
from unotable.sim import view
from unotable.store import Store, default_path, is_id, read_deck, table_id
from unotable.ui import Progress, plural


def _store(args, readonly=False):
    return Store(args.db, readonly=readonly)


def _progress(total):
    p = Progress("inputs stored", total)

    def show(seq, new):
        p(new, " (up to seq %d)" % seq)
    show.done = p.done
    return show


def connected_table(db, link, hello, label=None):
    """The host's key for the table on this link: its id (label, if given, names it); a table
    whose firmware reports no id is kept under the label, else board@port."""
    tid = hello.get("id")
    if is_id(tid):
        return db.name_table(tid, label, hello.get("board", ""), link.port)
    name = table_id(hello, link.port, label)
    db.add_table(name, hello.get("board", ""), link.port)
    return name


def shown(db, table):
    """A table as people know it: its label and id, or the id alone."""
    label = db.label(table)
    return "%s (%s)" % (label, table) if label and label != table else table


def stored_table(db, name):
    """The id of a stored table given by label or id; NotFound saying what to do."""
    tid = db.find(name)
    if tid is None:
        raise NotFound("no table %r in the host database %s: `unotable logs list` names "
                       "the tables it holds" % (name, db.path))
    return tid


def _deck_file(path):
    """The deck registry a user named (--deck FILE), or None; a bad one is one line."""
    if not path:
        return None
    try:
        return read_deck(path)
    except OSError as e:
        raise file_error(e, path) from None
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_sync(args):
    """Logs down (incremental, resumable, idempotent; never stopped by the log's damage);
    clock, rules and deck up."""
    rules = settings.parse(args.set)         # checked here before anything is sent
    deck = _deck_file(args.deck)
    if getattr(args, "all", False) or getattr(args, "json", False):
        return _sync_fleet(args, deck, rules)
    try:
        with commands.connect(args) as link, _store(args) as db:
            return _sync(args, link, db, deck, rules)
    except Refused as e:
        if e.verb not in ("rule", "registry"):
            raise
        raise Refused("the table refused %s: %s. Nothing was fetched: run sync again between "
                      "rounds, or without %s" % (
                          "the deck" if e.verb == "registry" else "a rule", e.reason or e,
                          "--deck" if e.verb == "registry" else "--set"), e.verb, e.reason) \
            from None
    except LinkError as e:
        raise _lost(e, "run sync again to resume from where it stopped") from None


def _lost(e, tail):
    """A sync's link error with what sync keeps, said once: the link's own words for a pulled
    cable already say that sync resumes."""
    text = str(e)
    i = text.find("; `unotable sync` resumes")
    if i >= 0:
        text = text[:i]
    return type(e)("%s; nothing stored is lost: %s" % (text.rstrip("."), tail))


def _sync_fleet(args, deck, rules):
    """sync --all: every connected table at once (unotable.fleet), each in its own thread
    with its own database connection; --json: one list, an entry per table."""
    from unotable import fleet
    if args.all and args.table:
        raise UsageError("--table labels one table: give it with --port, not --all")
    ports = fleet.need_ports() if args.all else [commands.pick_port(args)]

    def job(t):
        for attempt in range(3):      # resumable: a database locked too long is tried again
            try:
                return _sync_one(args, t, deck, rules)
            except Exception as e:
                if not fleet.locked(e) or attempt == 2:
                    raise
        return 0
    tables = fleet.each(ports, job, quiet=args.json, what="sync", db=args.db)
    if args.json:
        print(json.dumps([t.as_dict() for t in tables] if args.all else tables[0].as_dict()))
    elif args.all:
        bad = [t for t in tables if t.code]
        print("%s synced%s" % (plural(len(tables) - len(bad), "table"), "; %d did not: %s" % (
            len(bad), ", ".join(t.name for t in bad)) if bad else ""))
    return fleet.code(tables)


def _sync_one(args, t, deck, rules):
    from unotable import fleet
    from unotable.link import Link
    try:
        with Link.open(t.port, timeout=args.timeout) as link, fleet.store(args.db) as db:
            name = connected_table(db, link, link.hello(), args.table)
            t.set_name(db.label(name) or name)
            t.data["id"] = name
            t.data["label"] = db.label(name)
            before = db._count(name)
            try:
                code = _sync(args, link, db, deck, rules)
            finally:
                t.data["new"] = db._count(name) - before
                t.data["held"] = _held(db, name)
            return code
    except Refused as e:
        raise Refused("the table refused %s: %s; nothing was fetched from it" % (
            "the deck" if e.verb == "registry" else "a rule" if e.verb == "rule" else e.verb,
            e.reason or e), e.verb, e.reason) from None
    except LinkError as e:
        raise _lost(e, "run sync again to resume") from None


def _sync(args, link, db, deck, rules):
    hello = link.hello()
    if deck is not None:            # up first: a refusal leaves the host database as it was
        link.upload_registry([deck.uid(i) for i in range(108)])
        print("deck registry sent (108 cards)")
    for k, v in rules:
        link.set_rule(k, v)
        print("rule %s = %s sent: from the next round" % (k, v))
    name = connected_table(db, link, hello, args.table)
    who = shown(db, name)
    link.set_clock()
    status = link.status() or {}
    start = db.next_seq(name)
    nxt = status.get("next_seq")
    todo = max(0, nxt - start) if isinstance(nxt, int) else 0
    print("%s: seqs %d..%d to fetch (inputs; a round's end also takes a seq for the table's "
          "snapshot)" % (who, start, start + todo - 1) if todo else
          "%s: nothing new since seq %d" % (who, start - 1))
    gaps_before = set(db.gaps(name))
    t = time.monotonic()
    progress = _progress(todo)
    try:
        n = db.sync(name, link, progress=progress)
    finally:
        progress.done()
    took = time.monotonic() - t
    print("%s: %s stored in %.1f s; the host holds seq %s%s" % (
        who, plural(n, "new input"), took, _held(db, name), _others(db, name)))
    for g in db.gaps(name):
        if g not in gaps_before:
            print("  gap: seqs %d..%d are not in the table's log (%s), as the table "
                  "reports" % g)
    for seq, head, mac in db.odd_heads:
        print("  the table's chain head at seq %d is not the one the host saw before: "
              "its log was changed since (kept: the first)" % seq)
    for seq, here, there in db.mismatch:
        print("  the chain the host works out differs from the table's at seq %d: "
              "its log was changed, or the host's copy" % seq)
    code = _chain_said(db, name)
    if db.mismatch:
        code = 1
    if args.ack:
        link.ack(db.next_seq(name) - 1)
        print("the table may now free the log the host holds")
    _index(db, name)
    return code


def _index(db, name):
    """The league's results index after a sync (derived: a failure here loses no input)."""
    from unotable import league
    try:
        n = league.refresh(db, name)
    except (sqlite3.Error, ValueError) as e:     # the inputs are stored all the same
        print("  the standings index was not updated (%s): `unotable standings` fills it" % e)
        return
    if n:
        print("  %s for the standings" % plural(n, "new round"))


def _held(db, name):
    rows = [r for r in db.tables() if r["id"] == name]
    if not rows or rows[0]["first"] is None:
        return "none"
    return "%d..%d" % (rows[0]["first"], rows[0]["last"])


def _chain_said(db, name):
    """One line on the stored chain after a sync; 1 if it does not hold up."""
    if not is_id(name) or export._chain() is None:
        return 0
    rep = export.check_chain_stored(db, name)
    if not rep.chained or not rep.checked and not rep.unchecked:
        return 0
    if rep.ok:
        print("  " + rep.chain_line())
        if not rep.keyed:
            print("  `unotable pair --port PORT` gives the host the table's key: then `verify` "
                  "proves the night was not rewritten")
        return 0
    print("  the chain does NOT hold up: %s (`unotable verify --table %s` says more)"
          % (rep.problems[0][1], name))
    return 1


def _others(db, name):
    """What the seqs the host holds that are not inputs are: counts that look like loss are
    the table's own records (a snapshot at each round's end, a clock note at a sync)."""
    rows = [r for r in db.tables() if r["id"] == name]
    if not rows or rows[0]["first"] is None:
        return ""
    r = rows[0]
    span = r["last"] - r["first"] + 1
    lost = sum(max(0, min(b, r["last"]) - max(a, r["first"]) + 1) for a, b, _ in db.gaps(name))
    other = span - r["inputs"] - lost
    if other <= 0:
        return ""
    clocks = len([c for c in db.clocks(name) if r["first"] <= c[0] <= r["last"]])
    snaps = max(0, other - clocks)
    what = []
    if snaps:
        what.append(plural(snaps, "round-end snapshot"))
    if clocks:
        what.append(plural(clocks, "clock note"))
    return " (%s; the other %s: %s)" % (plural(r["inputs"], "input"),
                                         plural(other, "seq"), ", ".join(what))


def cmd_logs(args):
    with _store(args, readonly=True) as db:
        return _logs(db, args)


def _logs(db, args):
    as_json = getattr(args, "json", False)
    if args.action == "list":
        rows = db.tables()
        if as_json:
            print(json.dumps(rows))
            return 0
        if not rows:
            print("no tables synced yet: `unotable sync --port PORT`")
        for r in rows:
            other = (r["last"] - r["first"] + 1 - r["inputs"]) if r["first"] else 0
            print("%-16s %-16s %s  seq %s..%s%s  %s%s  last seen %s" % (
                r["label"] or (r["id"] if not is_id(r["id"]) else "-"),
                r["id"] if is_id(r["id"]) else "(no id)", plural(r["inputs"], "input"),
                r["first"], r["last"], " (%d other: snapshots, clock, gaps)" % other
                if other > 0 else "", plural(r["gaps"], "gap") + "  " if r["gaps"] else "",
                "paired" if r["paired"] else "not paired", r["last_seen"]))
        return 0
    if not args.table:
        raise UsageError("which table? `unotable logs list` names them")
    tid = stored_table(db, args.table)
    if args.action == "show":
        games = db.games(tid)
        gaps = db.gaps(tid)
        dates = export.round_dates(db, tid, games)
        from unotable.players import badge_names, display, who
        names = badge_names(db)
        for g in games:  # a seat's player by name, as people know them
            g["players"] = {s: display(db, *who(p), names=names) for s, p in g["players"].items()}
        if as_json:
            print(json.dumps({"table": tid, "label": db.label(tid), "rounds": [
                dict(g, scores={str(k): v for k, v in (g["scores"] or {}).items()} or None,
                     players={str(k): v for k, v in g["players"].items()} or None,
                     at=dates.get(g["first"])) for g in games],
                "gaps": [list(g) for g in gaps], "heads": len(db.heads(tid))}))
            return 0
        if not games and not gaps:
            raise NotFound("no rounds stored for %s" % shown(db, tid))
        print("table %s" % shown(db, tid))
        for g in games:
            print("match %d round %d%s: dealer %s, seats %s, seq %d-%d, winner %s, %s" % (
                g["match"], g["round"], " at %s" % dates[g["first"]] if dates.get(g["first"])
                else "", g["dealer"], " ".join(str(x) for x in g["seats"]), g["first"],
                g["last"], "%s (%s)" % (g["winner"], g["players"][g["winner"]])
                if g["winner"] in g["players"] else g["winner"] or "-",
                plural(g["points"], "point") if g["points"] is not None else "no points yet"))
        for g in gaps:
            print("gap: seqs %d..%d are not in the table's log: %s" % g)
        heads = db.heads(tid)
        if heads:
            print("chain heads seen at sync: %d, the last at seq %d" % (len(heads), heads[-1][0]))
        return 0
    return _export(db, tid, args)


def _export(db, tid, args):
    """To a file: written beside it and renamed at the end, so an interrupted or failed export
    leaves the file as it was (or none), never half of one."""
    if db.next_seq(tid) == 1:
        raise NotFound("table %s has no inputs stored: nothing to export (`unotable sync`)"
                       % shown(db, tid))
    if args.to_seq is not None and args.to_seq < args.from_seq:
        raise UsageError("--from %d comes after --to %d: nothing to export"
                         % (args.from_seq, args.to_seq))
    last = db.next_seq(tid) - 1
    if args.from_seq > last:     # an empty export (a header alone) is no answer
        raise UsageError("--from %d is past the last seq stored for table %s (%d): nothing to "
                         "export (`unotable sync` fetches what is new)"
                         % (args.from_seq, shown(db, tid), last))
    write = export.export_csv if args.format == "csv" else export.export_jsonl
    if not args.out:
        write(db, tid, sys.stdout, args.from_seq, args.to_seq)
        return 0
    if os.path.isdir(args.out):
        raise UsageError("cannot write %s: it is a directory; give a file name" % args.out)
    if os.path.isfile(args.out) and db.path != ":memory:" and os.path.exists(db.path) and \
            os.path.samefile(args.out, db.path):
        raise UsageError("cannot write %s: it is the host database; give another file name"
                         % args.out)
    if os.path.exists(args.out) and not os.path.isfile(args.out):
        # a device or a pipe (/dev/stdout, a FIFO): written to; a rename would put a plain
        # file in its place (as root, over /dev/full)
        try:
            with open(args.out, "w", newline="") as out:
                write(db, tid, out, args.from_seq, args.to_seq)
        except OSError as e:
            raise file_error(e, args.out, "write") from None
        return 0
    tmp = "%s.part%d" % (os.path.realpath(args.out), os.getpid())   # a link: its file
    progress = Progress("lines written")
    try:
        with open(tmp, "w", newline="") as out:
            n = write(db, tid, _Counting(out, progress), args.from_seq, args.to_seq)
        os.replace(tmp, os.path.realpath(args.out))
    except OSError as e:
        raise file_error(e, args.out, "write") from None
    finally:
        progress.done()
        if os.path.exists(tmp):
            os.remove(tmp)
    print("%s written (%s)" % (args.out, plural(n, "line")), file=sys.stderr)
    return 0


class _Counting:
    """A file that counts the lines written to it, for the progress of a long export."""

    def __init__(self, f, progress):
        self.f = f
        self.progress = progress
        self.n = 0

    def write(self, text):
        self.n += text.count("\n")
        self.progress(self.n)
        return self.f.write(text)


def cmd_verify(args):
    """Exit 0: it holds up; 1: a problem was found (each names its line); 2: nothing could be
    checked (no such file or table, an empty file, a bad deck file, a database that cannot be
    read)."""
    if not args.file and not args.table:
        raise UsageError("give an exported record (FILE) or a synced table (--table NAME)")
    if args.file and args.table:
        raise UsageError("give a FILE or --table NAME, not both")
    deck = _deck_file(args.deck)
    if args.table:
        with _store(args, readonly=True) as db:
            tid = stored_table(db, args.table)
            if db.next_seq(tid) == 1:
                raise NotFound("table %s has no inputs stored: nothing to verify"
                               % shown(db, tid))
            report = export.verify_stored(db, tid, registry=deck)
    else:
        if os.path.isdir(args.file):
            raise UsageError("cannot read %s: it is a directory" % args.file)
        bad = endless(args.file)
        if bad is not None:
            raise bad
        try:
            with open(args.file, "rb") as f:
                lines = f.read().split(b"\n")
        except OSError as e:
            raise file_error(e, args.file) from None
        if lines and not lines[-1]:
            lines.pop()
        if not any(x.strip() for x in lines):
            raise UsageError("%s is empty: nothing to verify" % args.file)
        report = _verify_file(args, lines, deck)
        if report.ok and not report.inputs:
            raise UsageError("%s holds no table input: nothing to verify" % args.file)
    if getattr(args, "json", False):
        print(json.dumps(report.as_dict()))
    else:
        print(report)
    return 0 if report.ok else 1


def _verify_file(args, lines, deck):
    """verify() of a file, with what the host database holds of its table: key, heads, gaps,
    deck (a --deck file first)."""
    tid = export.table_of(lines)
    path = args.db or default_path()
    if tid is None or not (args.db or os.path.exists(path)):
        return export.verify(lines, deck)
    with Store(path, readonly=True) as db:
        if db.find(tid) != tid:
            rep = export.verify(lines, deck)
            rep.notes.append("the host database %s holds nothing of table %s: checked from the "
                             "file alone (`unotable pair` and `sync` let it check more)"
                             % (path, tid))
            return rep
        if deck is None and db.has_registry(tid):
            deck = db.registry(tid)
        return export.verify(lines, deck, db.key(tid),
                             {"heads": db.heads(tid), "gaps": db.gaps(tid)})


def cmd_monitor(args):
    """The live table: new inputs come down, the engine here decides them again, they are
    narrated as they happen."""
    if getattr(args, "all", False):
        return _monitor_all(args)
    try:
        with commands.connect(args) as link, _store(args) as db:
            hello = link.hello()
            name = connected_table(db, link, hello, args.table)
            _watch(args, link, db, name)
    except KeyboardInterrupt:     # the way to stop watching: not an error
        print()
        return 0
    return 0


def _monitor_all(args):
    """monitor --all: every connected table watched at once, each line after its name."""
    import threading
    from unotable import fleet
    if args.table:
        raise UsageError("--table labels one table: give it with --port, not --all")
    stop = threading.Event()

    def job(t):
        from unotable.link import Link
        with Link.open(t.port, timeout=args.timeout) as link, fleet.store(args.db) as db:
            name = connected_table(db, link, link.hello())
            t.set_name(db.label(name) or name)
            _watch(args, link, db, name, stop)
        return 0
    try:
        tables = fleet.each(fleet.need_ports(), job, stop=stop, what="monitor", db=args.db)
    except KeyboardInterrupt:
        print()
        return 0
    return fleet.code(tables)


def _watch(args, link, db, name, stop=None):
    """Syncs, then narrates each new input as the engine here decides it, until --count
    inputs were shown or stop is set (monitor --all)."""
    link.set_clock()    # as sync and serve do: a boot only monitored got no clock note, its
    db.sync(name, link)  # rounds no date, and the night's standings went without them
    run = Replay()
    seen = 0
    for _ in run.run(db.script_lines(name, 1, None)):
        seen += 1
    last = db.next_seq(name) - 1
    print("%s: %s so far; watching (Ctrl-C to stop)" % (name, plural(seen, "input")))
    shown = 0
    known = None
    while args.count <= 0 or shown < args.count:
        # one `status` a look; the log comes down only when the table logged more,
        # so a monitor left running for a night costs the board little
        nxt = (link.status() or {}).get("next_seq")
        if not isinstance(nxt, int) or nxt != known:
            db.sync(name, link)
            known = nxt
        for seq, inp, evs in run.run(db.script_lines(name, last + 1, None)):
            line = "; ".join(says(evs)) or "-"
            print("%5d  %-14s %s" % (seq, short(_dict(run, inp)), line))
            shown += 1
            last = seq
            if evs and args.view:
                print(view(snapshot(run.table)))
        if stop is not None and stop.wait(args.every):
            return
        elif stop is None:
            time.sleep(args.every)
    _index(db, name)


def _dict(run, inp):
    from uno.script import input_dict
    return input_dict(inp, run.table.registry)
