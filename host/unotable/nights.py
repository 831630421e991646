"""The host tool's commands on synced nights: sync, logs, verify, monitor.

The host database holds each table's inputs; every outcome is decided again by replaying them
through the engine, so what the host shows is what the table decided.
"""
import os
import sys
import time

from uno.narrate import say
from uno.record import Replay
from uno.state import snapshot
from unotable import commands, export
from unotable.link import LinkError
from unotable.replay import short
from unotable.sim import view
from unotable.store import Conflict, Store, StoreError, default_path, is_id, read_deck, table_id


def _store(args):
    return Store(args.db)


def _progress(total):
    def show(seq, new):
        sys.stderr.write("\r  up to seq %d: %d of ~%d new inputs stored" % (seq, new, total))
        sys.stderr.flush()
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
    """The id of a stored table given by label or id; LookupError saying what to do."""
    tid = db.find(name)
    if tid is None:
        raise LookupError("no table %r in the host database %s: `unotable logs list` names "
                          "the tables it holds" % (name, db.path))
    return tid


def cmd_sync(args):
    """Logs down (incremental, resumable, idempotent; never stopped by the log's damage);
    clock, rules and deck up."""
    try:
        deck = read_deck(args.deck) if args.deck else None
        rules = []
        for item in args.set:
            k, eq, v = item.partition("=")
            if not eq or not k:
                return commands.say_error("sync", "write --set NAME=VALUE, e.g. stacking=on")
            rules.append((k, int(v) if v.isdigit() else v))
        with commands.connect(args) as link, _store(args) as db:
            hello = link.hello()
            name = connected_table(db, link, hello, args.table)
            who = shown(db, name)
            if deck is not None:
                link.upload_registry([deck.uid(i) for i in range(108)])
                print("deck registry sent (108 cards)")
            for k, v in rules:
                link.set_rule(k, v)
                print("rule %s = %s sent: from the next round" % (k, v))
            link.set_clock()
            status = link.status() or {}
            start = db.next_seq(name)
            nxt = status.get("next_seq")
            todo = max(0, nxt - start) if isinstance(nxt, int) else 0
            print("%s: %d new inputs to fetch (from seq %d)" % (who, todo, start))
            gaps_before = set(db.gaps(name))
            t = time.monotonic()
            n = db.sync(name, link, progress=_progress(todo) if todo > 200 else None)
            if todo > 200:
                sys.stderr.write("\n")
            took = time.monotonic() - t
            print("%s: %d inputs stored in %.1f s; the host holds seq %s" % (
                who, n, took, _held(db, name)))
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
            return code
    except (Conflict, LookupError, StoreError) as e:
        return commands.say_error("sync", e)
    except LinkError as e:
        return commands.say_error("sync", "%s\n  nothing stored is lost: run sync again to "
                                  "resume from where it stopped" % e)
    except OSError as e:
        return commands.say_error("sync", "%s: %s" % (getattr(e, "filename", None) or "",
                                                     e.strerror or e))
    except ValueError as e:
        return commands.say_error("sync", e)


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


def cmd_logs(args):
    try:
        with _store(args) as db:
            return _logs(db, args)
    except (StoreError, LookupError) as e:
        return commands.say_error("logs", e)
    except OSError as e:
        return commands.say_error("logs", "cannot write %s: %s" % (args.out, e.strerror or e))


def _logs(db, args):
    if args.action == "list":
        rows = db.tables()
        if not rows:
            print("no tables synced yet: `unotable sync --port PORT`")
        for r in rows:
            print("%-16s %-16s %6d inputs  seq %s..%s  %s%s  last seen %s" % (
                r["label"] or (r["id"] if not is_id(r["id"]) else "-"),
                r["id"] if is_id(r["id"]) else "(no id)", r["inputs"],
                r["first"], r["last"], "%d gaps  " % r["gaps"] if r["gaps"] else "",
                "paired" if r["paired"] else "not paired", r["last_seen"]))
        return 0
    if not args.table:
        return commands.say_error("logs", "which table? `unotable logs list` names them")
    tid = stored_table(db, args.table)
    if args.action == "show":
        games = db.games(tid)
        gaps = db.gaps(tid)
        if not games and not gaps:
            return commands.say_error("logs", "no rounds stored for %s" % shown(db, tid))
        print("table %s" % shown(db, tid))
        for g in games:
            print("match %d round %d: dealer %s, seats %s, seq %d-%d, winner %s, %s points" % (
                g["match"], g["round"], g["dealer"], g["seats"], g["first"], g["last"],
                g["winner"] or "-", g["points"] if g["points"] is not None else "-"))
        for g in gaps:
            print("gap: seqs %d..%d are not in the table's log: %s" % g)
        heads = db.heads(tid)
        if heads:
            print("chain heads seen at sync: %d, the last at seq %d" % (len(heads), heads[-1][0]))
        return 0
    out = open(args.out, "w", newline="") if args.out else sys.stdout
    try:
        if args.format == "csv":
            export.export_csv(db, tid, out, args.from_seq, args.to_seq)
        else:
            export.export_jsonl(db, tid, out, args.from_seq, args.to_seq)
    finally:
        if args.out:
            out.close()
    if args.out:
        print("%s written" % args.out, file=sys.stderr)
    return 0


def cmd_verify(args):
    """Exit 0: it holds up; 1: a problem was found (each names its line); 2: nothing could be
    checked (no such file or table, a bad deck file, a database that cannot be read)."""
    if not args.file and not args.table:
        return commands.say_error("verify", "give an exported record (FILE) or a synced table "
                                  "(--table NAME)")
    try:
        deck = read_deck(args.deck) if args.deck else None
        if args.table:
            with _store(args) as db:
                tid = stored_table(db, args.table)
                report = export.verify_stored(db, tid, registry=deck)
        else:
            with open(args.file, "rb") as f:
                lines = f.read().split(b"\n")
            if lines and not lines[-1]:
                lines.pop()
            report = _verify_file(args, lines, deck)
    except (StoreError, LookupError, ValueError) as e:
        return commands.say_error("verify", e)
    except OSError as e:
        return commands.say_error("verify", "cannot read %s: %s" % (
            e.filename or args.file, e.strerror or e))
    print(report)
    return 0 if report.ok else 1


def _verify_file(args, lines, deck):
    """verify() of a file, with what the host database holds of its table: key, heads, gaps,
    deck (a --deck file first)."""
    tid = export.table_of(lines)
    path = args.db or default_path()
    if tid is None or not (args.db or os.path.exists(path)):
        return export.verify(lines, deck)
    with Store(path) as db:
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
    try:
        with commands.connect(args) as link, _store(args) as db:
            hello = link.hello()
            name = connected_table(db, link, hello, args.table)
            db.sync(name, link)
            run = Replay()
            seen = 0
            for _ in run.run(db.script_lines(name, 1, None)):
                seen += 1
            last = db.next_seq(name) - 1
            print("%s: %d inputs so far; watching (Ctrl-C to stop)" % (name, seen))
            shown = 0
            while args.count <= 0 or shown < args.count:
                db.sync(name, link)
                for seq, inp, evs in run.run(db.script_lines(name, last + 1, None)):
                    line = "; ".join(say(e) for e in evs) or "-"
                    print("%5d  %-14s %s" % (seq, short(_dict(run, inp)), line))
                    shown += 1
                    last = seq
                    if evs and args.view:
                        print(view(snapshot(run.table)))
                time.sleep(args.every)
    except KeyboardInterrupt:
        return 0
    except (LinkError, Conflict, StoreError) as e:
        return commands.say_error("monitor", e)
    return 0


def _dict(run, inp):
    from uno.script import input_dict
    return input_dict(inp, run.table.registry)
