"""unotable: the host tool's one entry point."""
import argparse
import json
import os
import sys

from uno.rules import Settings
from uno.record import Replay
from uno.state import snapshot
from unotable import commands, nights, sim
from unotable.store import default_path
from unotable.replay import narrate


def _open(path):
    return sys.stdin if path == "-" else open(path, encoding="utf-8")


def cmd_replay(args):
    out = sys.stdout
    run = Replay(overrides=dict(args.set))
    try:
        with _open(args.script) as f:
            if args.json:
                for line in run.record(f):
                    out.write(line + "\n")
            elif args.state:
                for _ in run.run(f):
                    pass
                json.dump(snapshot(run.table), out, indent=2)
                out.write("\n")
            else:
                for line in narrate(run, f):
                    out.write(line + "\n")
    except ValueError as e:
        print("unotable replay: %s: %s" % (args.script, e), file=sys.stderr)
        return 2
    except OSError as e:
        print("unotable replay: cannot read %s: %s" % (args.script, e.strerror), file=sys.stderr)
        return 2
    except RecursionError:
        print("unotable replay: %s: a line is nested too deep to be a table input" % args.script,
              file=sys.stderr)
        return 2
    except (TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        # a value no table sends (a seat of 1e300, a rule name that is a list...)
        print("unotable replay: %s: cannot replay it: %s: %s" % (args.script, type(e).__name__,
                                                                 e), file=sys.stderr)
        return 2
    return 0


def cmd_sim(args):
    try:
        return sim.run(args)
    except sim.SimError as e:
        print("unotable sim: %s" % e, file=sys.stderr)
        return 2


def _settings_arg(text):
    name, _, value = text.partition("=")
    try:
        Settings().set(name, value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))
    return name, value


def _count(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 1000:
        raise argparse.ArgumentTypeError("N is how many inputs to take back: 1 or more")
    return n


def parser():
    p = argparse.ArgumentParser(prog="unotable", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay a table script or game record and narrate the round")
    r.add_argument("script", help="table script or game record (JSONL); - for standard input")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--state", action="store_true", help="print the final state JSON")
    g.add_argument("--json", action="store_true", help="print the game record (JSONL)")
    r.add_argument("--set", action="append", type=_settings_arg, default=[], metavar="NAME=VALUE",
                   help="override a rule setting of the script (repeatable)")
    r.set_defaults(func=cmd_replay)
    s = sub.add_parser("sim", help="the simulated table: watch a script play, or play by typing")
    s.add_argument("script", nargs="?", help="table script to play (omit to type inputs)")
    s.add_argument("--pace", type=int, default=400, metavar="MS", help="ms between inputs")
    s.add_argument("--log", metavar="DIR", help="keep the table's log here (default: fresh)")
    s.add_argument("--heap", default=sim.HEAP, help="micropython heap size (default %(default)s)")
    s.set_defaults(func=cmd_sim)

    port = argparse.ArgumentParser(add_help=False)
    port.add_argument("--port", help="the table's serial port (`unotable ports`; the simulated "
                      "table prints its own)")
    port.add_argument("--timeout", type=float, default=1.0, help="seconds to wait per answer")
    sub.add_parser("ports", help="list serial ports; points out ESP32 devkits").set_defaults(
        func=commands.cmd_ports)
    sub.add_parser("status", parents=[port], help="what the table is doing").set_defaults(
        func=commands.cmd_status)
    r = sub.add_parser("rules", parents=[port], help="show the rules, or set them between rounds")
    r.add_argument("action", choices=("show", "set"))
    r.add_argument("settings", nargs="*", metavar="NAME=VALUE", help="e.g. stacking=on preset=house")
    r.set_defaults(func=commands.cmd_rules)
    e = sub.add_parser("enroll", parents=[port], help="enroll a deck: tap each card once")
    e.add_argument("--wait", type=float, default=60.0, help="seconds to wait for each card")
    e.set_defaults(func=commands.cmd_enroll)
    d = sub.add_parser("deploy", parents=[port], help="compile the firmware and copy it to a board")
    d.add_argument("--dry-run", action="store_true", help="print the mpremote steps only")
    d.add_argument("--resume", action="store_true",
                   help="no soft reset before or after (for the simulated table)")
    d.add_argument("--romfs", action="store_true", help="one ROMFS image into the board's romfs "
                   "partition (firmware built with ROMFS): the code runs from flash")
    d.set_defaults(func=commands.cmd_deploy)

    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", help="the host database (SQLite; default %s)" % default_path())
    y = sub.add_parser("sync", parents=[port, db],
                       help="fetch the table's log into the host database; clock, rules, deck up")
    y.add_argument("--table", metavar="NAME", help="a name for the table (a label on its id; "
                   "the id alone if not given)")
    y.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule to send (taken between rounds)")
    y.add_argument("--deck", metavar="FILE", help="a deck registry to send: 108 hex UIDs")
    y.add_argument("--ack", action="store_true", help="let the table free what the host holds")
    y.set_defaults(func=nights.cmd_sync)
    g = sub.add_parser("logs", parents=[db], help="list, show or export synced tables' logs")
    g.add_argument("action", choices=("list", "show", "export"))
    g.add_argument("table", nargs="?", help="the table's label or id (`logs list`)")
    g.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    g.add_argument("--from", dest="from_seq", type=int, default=1, metavar="SEQ")
    g.add_argument("--to", dest="to_seq", type=int, default=None, metavar="SEQ")
    g.add_argument("-o", "--out", help="write to this file (default: standard output)")
    g.set_defaults(func=nights.cmd_logs)
    v = sub.add_parser("verify", parents=[db],
                       help="replay a game record, table script or synced log and check it")
    v.add_argument("file", nargs="?", help="exported record or table script")
    v.add_argument("--table", metavar="NAME", help="a synced table (label or id) instead of a file")
    v.add_argument("--deck", metavar="FILE", help="the deck registry of an enrolled deck (108 hex "
                   "UIDs, or the table's saved deck file); default: the one the host holds")
    v.set_defaults(func=nights.cmd_verify)
    a = sub.add_parser("pair", parents=[port, db], help="get the table's key, so that verify "
                       "proves its records were not rewritten")
    a.add_argument("--table", metavar="NAME", help="a name for the table (a label on its id)")
    a.add_argument("--replace", action="store_true",
                   help="take the table's new key in place of the one the host holds")
    a.set_defaults(func=commands.cmd_pair)
    t = sub.add_parser("selftest", parents=[port], help="guided bring-up checks: readers, "
                       "buttons, shuffle sensor, buzzer, display, flash and heap")
    t.add_argument("--press", type=float, default=10.0, metavar="S",
                   help="seconds each prompt waits for its card or button (default 10)")
    t.add_argument("--quick", action="store_true",
                   help="do not wait out the tunes and the test screen (tests)")
    t.set_defaults(func=commands.cmd_selftest)
    u = sub.add_parser("undo", parents=[port], help="take back the last input(s) of the round")
    u.add_argument("n", nargs="?", type=_count, default=1, help="how many (default 1)")
    u.set_defaults(func=commands.cmd_undo)
    m = sub.add_parser("monitor", parents=[port, db], help="the live table as it plays")
    m.add_argument("--table", metavar="NAME", help="a name for the table (a label on its id)")
    m.add_argument("--every", type=float, default=0.5, help="seconds between looks")
    m.add_argument("--view", action="store_true", help="show the table after each input")
    m.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    m.set_defaults(func=nights.cmd_monitor)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("unotable %s: interrupted" % args.command, file=sys.stderr)
        return 130
    except Exception as e:      # a bug: one line, never a traceback (UNOTABLE_DEBUG=1 shows it)
        if os.environ.get("UNOTABLE_DEBUG"):
            raise
        print("unotable %s: unexpected error (%s: %s): a bug in unotable; please report it with "
              "the command you ran" % (args.command, type(e).__name__, e), file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
