"""The host tool's commands on synced nights: sync, logs, verify, monitor.

The host database holds each table's inputs; every outcome is decided again by replaying them
through the engine, so what the host shows is what the table decided.
"""
import sys
import time

from uno.narrate import say
from uno.record import Replay
from uno.state import snapshot
from unotable import commands, export
from unotable.link import LinkError
from unotable.replay import short
from unotable.sim import view
from unotable.store import Conflict, Store, table_id


def _store(args):
    return Store(args.db)


def _progress(total):
    def show(seq, new):
        sys.stderr.write("\r  up to seq %d: %d of ~%d new inputs stored" % (seq, new, total))
        sys.stderr.flush()
    return show


def cmd_sync(args):
    """Logs down (incremental, resumable, idempotent); clock, rules and deck up."""
    try:
        with commands.connect(args) as link, _store(args) as db:
            hello = link.hello()
            name = table_id(hello, link.port, args.table)
            db.add_table(name, hello.get("board", ""), link.port)
            if args.deck:
                with open(args.deck) as f:
                    uids = [bytes.fromhex(w) for w in f.read().split()]
                link.upload_registry(uids)
                print("deck registry sent (%d cards)" % len(uids))
            for item in args.set:
                k, _, v = item.partition("=")
                link.set_rule(k, int(v) if v.isdigit() else v)
                print("rule %s = %s sent: from the next round" % (k, v))
            link.set_clock()
            status = link.status()
            start = db.next_seq(name)
            todo = max(0, status["next_seq"] - start)
            print("%s: %d new inputs to fetch (from seq %d)" % (name, todo, start))
            t = time.monotonic()
            n = db.sync(name, link, progress=_progress(todo) if todo > 200 else None)
            if todo > 200:
                sys.stderr.write("\n")
            took = time.monotonic() - t
            print("%s: %d inputs stored in %.1f s; the host holds seq 1..%d" % (
                name, n, took, db.next_seq(name) - 1))
            if args.ack:
                link.ack(db.next_seq(name) - 1)
                print("the table may now free the log the host holds")
    except Conflict as e:
        return commands.say_error("sync", e)
    except LinkError as e:
        return commands.say_error("sync", "%s\n  nothing stored is lost: run sync again to "
                                  "resume from where it stopped" % e)
    except (OSError, ValueError) as e:
        return commands.say_error("sync", e)
    return 0


def cmd_logs(args):
    with _store(args) as db:
        if args.action == "list":
            rows = db.tables()
            if not rows:
                print("no tables synced yet: `unotable sync --port PORT`")
            for r in rows:
                print("%-28s %6d inputs  seq %s..%s  last seen %s" % (
                    r["id"], r["inputs"], r["first"], r["last"], r["last_seen"]))
            return 0
        if not args.table:
            return commands.say_error("logs", "which table? `unotable logs list` names them")
        if args.action == "show":
            games = db.games(args.table)
            if not games:
                return commands.say_error("logs", "no rounds stored for %r" % args.table)
            for g in games:
                print("match %d round %d: dealer %s, seats %s, seq %d-%d, winner %s, %s points" % (
                    g["match"], g["round"], g["dealer"], g["seats"], g["first"], g["last"],
                    g["winner"] or "-", g["points"] if g["points"] is not None else "-"))
            return 0
        out = open(args.out, "w", newline="") if args.out else sys.stdout
        try:
            if args.format == "csv":
                export.export_csv(db, args.table, out, args.from_seq, args.to_seq)
            else:
                export.export_jsonl(db, args.table, out, args.from_seq, args.to_seq)
        finally:
            if args.out:
                out.close()
        if args.out:
            print("%s written" % args.out, file=sys.stderr)
    return 0


def cmd_verify(args):
    if args.table:
        with _store(args) as db:
            report = export.verify_stored(db, args.table)
    else:
        with open(args.file) as f:
            report = export.verify(f)
    print(report)
    return 0 if report.ok else 1


def cmd_monitor(args):
    """The live table: new inputs come down, the engine here decides them again, they are
    narrated as they happen."""
    try:
        with commands.connect(args) as link, _store(args) as db:
            hello = link.hello()
            name = table_id(hello, link.port, args.table)
            db.add_table(name, hello.get("board", ""), link.port)
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
    except (LinkError, Conflict) as e:
        return commands.say_error("monitor", e)
    return 0


def _dict(run, inp):
    from uno.script import input_dict
    return input_dict(inp, run.table.registry)
