"""unotable: the host tool of the UNO referee table, for a board on USB or the simulated table.

Exit codes: 0 done; 1 a check found a problem; 2 nothing was done (the one line says why);
3 a bug in unotable; 130 interrupted. docs/host.md has the whole story.
"""
import argparse
import errno
import itertools
import json
import os
import signal
import sys
import traceback

from unotable import _quiet_ctrl_c, commands, league, nights, players, settings, sim
from unotable.build import BOARD_ARCH
from unotable.errors import UnotableError, UsageError, endless, file_error
from unotable.store import default_path, unexpected
from unotable.ui import Progress

# What Ctrl-C leaves, said in its one line.
INTERRUPTED = {
    "sync": "what was stored is kept (whole batches): run sync again to resume",
    "enroll": "the table left enrolment; its deck is as it was",
    "logs": "an export to a file left the file as it was",
    "replay": "nothing was changed",
    "players": "no player was added or removed",   # add waits for a tap, and adds after it
    "verify": "nothing was changed",
    # the table's task goes on without the host (there is no verb that stops it)
    "selftest": "the table's self-test runs on to its end (each prompt waits --press s): until "
                "then its buttons and readers feed the self-test, not the rules",
    "deploy": "the board may hold part of the new firmware: run deploy again",
}
PORT_ENV = "UNOTABLE_PORT"
DB_ENV = "UNOTABLE_DB"


def _open(path):
    if path == "-":
        return sys.stdin
    bad = endless(path)
    if bad is not None:
        raise bad
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "it is a directory", path)
        return open(path, encoding="utf-8")
    except OSError as e:
        raise file_error(e, path) from None


def _counted(f, progress, path):
    """The lines of f, with progress; an empty file is refused before anything is printed."""
    first = []
    for line in f:
        first.append(line)
        if line.strip():
            break
    else:
        raise UsageError("%s is empty: nothing to replay" % path)
    return _numbered(itertools.chain(first, f), progress)


def _numbered(lines, progress):
    for n, line in enumerate(lines, 1):
        if not n & 255:
            progress(n)
        yield line


def cmd_replay(args):
    from uno.record import Replay
    from uno.state import snapshot
    from unotable.replay import narrate
    out = sys.stdout
    run = Replay(overrides=settings.overrides(args.set))
    progress = Progress("lines replayed")
    try:
        with _open(args.script) as f:
            lines = _counted(f, progress, args.script)
            if args.json:
                for line in run.record(lines):
                    out.write(line + "\n")
            elif args.state:
                for _ in run.run(lines):
                    pass
                json.dump(snapshot(run.table), out, indent=2)
                out.write("\n")
            else:
                for line in narrate(run, lines):
                    out.write(line + "\n")
    except UnicodeDecodeError:
        raise UsageError("%s is not UTF-8 text: a table script or game record is JSONL"
                         % args.script) from None
    except ValueError as e:
        raise UsageError("%s: %s" % (args.script, e)) from None
    except RecursionError:
        raise UsageError("%s: a line is nested too deep to be a table input"
                         % args.script) from None
    except (TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        # a value no table sends (a seat of 1e300, a rule name that is a list...)
        raise UsageError("%s: cannot replay it: %s: %s" % (args.script, type(e).__name__, e)) \
            from None
    finally:
        progress.done()
    return 0


def _count(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 255:      # the table's UNDO_MAX (hub/handler.py)
        raise argparse.ArgumentTypeError("N is how many inputs to take back: 1 to 255")
    return n


def _heap(text):
    """micropython's -X heapsize: a number of bytes, k or m; past 1 GB it crashed (exit -11)."""
    t = text.strip().lower()
    unit = {"k": 1024, "m": 1 << 20}.get(t[-1:], 1)
    digits = t[:-1] if unit > 1 else t
    n = int(digits) * unit if digits.isdigit() and digits.isascii() and len(digits) < 12 else 0
    if not 64 * 1024 <= n <= 1 << 30:
        raise argparse.ArgumentTypeError("a heap is 64k to 1024m, as 256k or 8m (got %r)" % text)
    return t


def _seconds(text):
    try:
        v = float(text)
    except ValueError:
        v = -1
    if not 0 < v < 1e6:
        raise argparse.ArgumentTypeError("give seconds, a number above 0 (got %r)" % text)
    return v


def _ms(text):
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 0 <= v <= 600000:
        raise argparse.ArgumentTypeError("give milliseconds, a whole number from 0 (got %r)"
                                         % text)
    return v


def _seq(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if not 1 <= v < 1 << 63:    # SQLite's INTEGER: a larger one overflowed in the query
        raise argparse.ArgumentTypeError("a seq is a whole number from 1 (got %r)" % text)
    return v


def _version():
    try:
        from importlib.metadata import version
        return version("unotable")
    except Exception:   # not installed (run from the tree): the tree's own
        return "0.1.0 (not installed)"


class _Help(argparse.HelpFormatter):
    def __init__(self, prog):
        super().__init__(prog, max_help_position=32, width=min(100, _columns()))


class _Parser(argparse.ArgumentParser):
    """A bad argument is one line, as every other error: what is wrong and where help is."""

    def error(self, message):
        self.exit(2, "%s: %s (`%s --help` says more)\n" % (self.prog, message, self.prog))


def _columns():
    try:
        return os.get_terminal_size().columns
    except OSError:
        return 100


def parser():
    port_default = os.environ.get(PORT_ENV)
    db_default = os.environ.get(DB_ENV)
    p = _Parser(prog="unotable", description=__doc__, formatter_class=_Help)
    p.add_argument("--version", action="version", version="unotable " + _version())
    p.add_argument("-p", "--port", default=port_default,
                   help="the table's serial port, before or after the subcommand (default: $%s"
                   ", else the one ESP32 devkit plugged in)" % PORT_ENV)
    p.add_argument("--db", default=db_default,
                   help="the host database (default: $%s, else %s)" % (DB_ENV, default_path()))
    p.add_argument("--debug", action="store_true", default=bool(os.environ.get(
        "UNOTABLE_DEBUG")), help="show the Python traceback of an error (default: off; "
                   "UNOTABLE_DEBUG=1 too)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    debug = argparse.ArgumentParser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show the Python traceback of an error (default: off)")

    def cmd(name, text, func, parents=(), **kw):
        c = sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".",
                           parents=list(parents) + [debug], formatter_class=_Help, **kw)
        c.set_defaults(func=func)
        return c

    port = argparse.ArgumentParser(add_help=False)
    port.add_argument("-p", "--port", default=argparse.SUPPRESS,
                      help="the table's serial port (default: $%s, else the one ESP32 devkit "
                      "plugged in; `unotable ports` lists them, `unotable sim` prints its own)"
                      % PORT_ENV)
    port.add_argument("--timeout", type=_seconds, default=1.0, metavar="S",
                      help="seconds to wait for each answer (default: 1)")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS, metavar="FILE",
                    help="the host database, SQLite (default: $%s, else %s)"
                    % (DB_ENV, default_path()))
    as_json = argparse.ArgumentParser(add_help=False)
    as_json.add_argument("--json", action="store_true",
                         help="print JSON for programs (default: text for people)")

    r = cmd("replay", "replay a table script or game record and narrate the round", cmd_replay)
    r.add_argument("script", help="table script or game record (JSONL); - for standard input")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--state", action="store_true",
                   help="print the final state JSON (default: narrate)")
    g.add_argument("--json", action="store_true",
                   help="print the game record, JSONL (default: narrate)")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule setting over the script's, preset=NAME too (repeatable; "
                   "default: the script's)")

    s = cmd("sim", "the simulated table: watch a script play, or play by typing", cmd_sim)
    s.add_argument("script", nargs="?", help="table script to play (default: none, type inputs)")
    s.add_argument("--pace", type=_ms, default=400, metavar="MS",
                   help="ms between a script's inputs (default: 400)")
    s.add_argument("--log", metavar="DIR", help="keep the table's log here (default: a new "
                   "folder under %s, printed at the start)" % sim.data_dir())
    s.add_argument("--heap", default=sim.HEAP, type=_heap,
                   help="micropython heap size, 64k to 1024m (default: %s)" % sim.HEAP)
    s.add_argument("--exit", action="store_true",
                   help="stop when the script has played (default: play on, for sync and "
                   "monitor)")

    cmd("ports", "list serial ports, the simulated tables running, and the likely board",
        commands.cmd_ports, [as_json])
    every = argparse.ArgumentParser(add_help=False)
    every.add_argument("--all", action="store_true", help="every connected table at once: the "
                       "likely boards and the simulated tables running (default: one, --port)")
    cmd("status", "what the table is doing", commands.cmd_status, [port, db, as_json, every])
    r = cmd("rules", "show the rules, or set them between rounds", commands.cmd_rules,
            [port, as_json])
    r.add_argument("action", choices=("show", "set"), help="show: every rule (with --port, as "
                   "the table has them); set: NAME=VALUE ... on the table")
    r.add_argument("settings", nargs="*", metavar="NAME|NAME=VALUE",
                   help="show: only these rules (default: all); set: e.g. stacking=on "
                   "preset=house")
    e = cmd("enroll", "enroll a deck: tap each of the 108 cards once", commands.cmd_enroll, [port])
    e.add_argument("--wait", type=_seconds, default=60.0, metavar="S",
                   help="seconds to wait for each card (default: 60)")
    d = cmd("deploy", "compile the firmware and copy it to a board", commands.cmd_deploy, [port])
    d.add_argument("--dry-run", action="store_true", help="print the mpremote steps only "
                   "(default: run them)")
    d.add_argument("--resume", action="store_true", help="no soft reset before or after, for a "
                   "board at its MicroPython prompt (a simulated table is refused: it runs this "
                   "tree's code already; default: reset)")
    d.add_argument("--romfs", action="store_true", help="one ROMFS image into the board's romfs "
                   "partition, firmware built with ROMFS (default: files)")
    d.add_argument("--native", nargs="?", const=BOARD_ARCH, metavar="ARCH",
                   help="the engine's hot methods as machine code, in the board's executable "
                   "RAM (IRAM: an import fails when it is full; mpy-cross -march, default "
                   "%s: ESP32, ESP32-S3; default: bytecode, docs/deploy.md)" % BOARD_ARCH)

    y = cmd("sync", "fetch the table's log into the host database; clock, rules, deck up",
            nights.cmd_sync, [port, db, as_json, every])
    y.add_argument("--table", metavar="NAME", help="a label for the table's id (default: the "
                   "label it has, else the id alone)")
    y.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule to send, preset=NAME too (repeatable; taken between rounds; "
                   "default: none)")
    y.add_argument("--deck", metavar="FILE", help="a deck registry to send: 108 hex UIDs "
                   "(default: none)")
    y.add_argument("--ack", action="store_true",
                   help="let the table free the log the host holds (default: keep it)")

    g = cmd("logs", "list, show or export synced tables' logs", nights.cmd_logs, [db, as_json])
    g.add_argument("action", choices=("list", "show", "export"), help="list: every synced "
                   "table; show: a table's rounds; export: its game record")
    g.add_argument("table", nargs="?", help="the table's label or id (show, export)")
    g.add_argument("--format", choices=("jsonl", "csv"), default="jsonl",
                   help="export as the game record, or one CSV row per event (default: jsonl)")
    g.add_argument("--from", dest="from_seq", type=_seq, default=1, metavar="SEQ",
                   help="export from this seq (default: 1)")
    g.add_argument("--to", dest="to_seq", type=_seq, default=None, metavar="SEQ",
                   help="export up to this seq (default: the last)")
    g.add_argument("-o", "--out", metavar="FILE",
                   help="write the export to this file (default: standard output)")

    v = cmd("verify", "replay a game record, table script or synced log and check it",
            nights.cmd_verify, [db, as_json])
    v.add_argument("file", nargs="?", help="exported record or table script (or --table)")
    v.add_argument("--table", metavar="NAME", help="a synced table (label or id) instead of a "
                   "file (default: the FILE)")
    v.add_argument("--deck", metavar="FILE", help="the deck registry of an enrolled deck (108 hex "
                   "UIDs, or the table's saved deck file; default: the one the host holds)")
    a = cmd("pair", "get the table's key, so that verify proves its records were not rewritten",
            commands.cmd_pair, [port, db])
    a.add_argument("--table", metavar="NAME", help="a label for the table's id (default: "
                   "the label it has)")
    a.add_argument("--replace", action="store_true",
                   help="take the table's new key in place of the one the host holds "
                   "(default: refuse)")
    t = cmd("selftest", "guided bring-up checks: readers, buttons, shuffle sensor, buzzer, "
            "display, flash and heap", commands.cmd_selftest, [port])
    t.add_argument("--press", type=_seconds, default=10.0, metavar="S",
                   help="seconds each prompt waits for its card or button (default: 10)")
    t.add_argument("--quick", action="store_true",
                   help="do not wait out the tunes and the test screen (default: wait; tests)")
    u = cmd("undo", "take back the last input(s) of the round", commands.cmd_undo, [port])
    u.add_argument("n", nargs="?", type=_count, default=1, help="how many (default: 1)")
    m = cmd("monitor", "the live table, every event narrated as it plays", nights.cmd_monitor,
            [port, db, every])
    m.add_argument("--table", metavar="NAME", help="a label for the table's id (default: the "
                   "label it has)")
    m.add_argument("--every", type=_seconds, default=0.5, metavar="S",
                   help="seconds between looks (default: 0.5)")
    m.add_argument("--view", action="store_true",
                   help="show the table after each input (default: events only)")
    m.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)

    pl = cmd("players", "enrol players and their NFC badges, list or remove them",
             players.cmd_players, [port, db, as_json])
    pl.add_argument("action", choices=("add", "list", "remove"), help="add: NAME, then tap the "
                    "badge on the table's PLAY pad (or --uid, --no-badge); list; remove: NAME")
    pl.add_argument("name", nargs="?", help="the player's name (add, remove)")
    pl.add_argument("--uid", metavar="HEX", help="the badge's UID instead of a tap "
                    "(default: wait for a tap)")
    pl.add_argument("--no-badge", action="store_true",
                    help="a name only, for `unotable seat` (default: wait for a tap)")
    pl.add_argument("--wait", type=_seconds, default=60.0, metavar="S",
                    help="seconds to wait for the tap (default: 60)")
    se = cmd("seat", "name a joined seat's player, in the lobby (for a player without a badge)",
             players.cmd_seat, [port])
    se.add_argument("seat", type=int, help="the seat, 1..10")
    se.add_argument("name", help="the player's name (1 to 24 bytes)")

    # game nights and standings (issue 12): unotable/league.py
    n = cmd("night", "start or close a game night, or list the nights", league.cmd_night,
            [db, as_json])
    n.add_argument("action", choices=("start", "close", "list"), help="start: NAME (rounds "
                   "ending from now on are its own); close: the night that is on; list")
    n.add_argument("name", nargs="?", help="the night's name (start)")
    st = cmd("standings", "the league table per player, for a night or the season",
             league.cmd_standings, [db, as_json])
    g = st.add_mutually_exclusive_group()
    g.add_argument("--night", metavar="N", help="a night's number, name or date YYYY-MM-DD "
                   "(default: the night that is on, else the season)")
    g.add_argument("--season", action="store_true", help="every round stored (default: the "
                   "night that is on)")
    st.add_argument("--csv", action="store_true", help="CSV for spreadsheets: UTF-8 with BOM, "
                    "CRLF (default: a text table)")
    st.add_argument("--league-points", metavar="M,R", help="league points for a match won and "
                    "a round won (default: the kept rule, else 3,1)")
    st.add_argument("--keep", action="store_true", help="keep --league-points as the rule "
                    "from now on (default: this once)")
    w = cmd("serve", "the live scoreboard: a web page for a projector, every table as it plays",
            _serve, [db])
    w.add_argument("-p", "--port", action="append", default=argparse.SUPPRESS, metavar="PORT",
                   help="a table's serial port, once per table (default: $%s; or --all)"
                   % PORT_ENV)
    w.add_argument("--all", action="store_true", help="every board plugged in and every "
                   "simulated table running (default: the ports given)")
    w.add_argument("--night", metavar="N", help="a closed night from the host database, by "
                   "its number, name or date YYYY-MM-DD, instead of live tables (default: live)")
    w.add_argument("--host", default="127.0.0.1", help="the address to listen on; 0.0.0.0 "
                   "lets other machines in (default: 127.0.0.1, this machine only)")
    w.add_argument("--http-port", type=_http_port, default=8080, metavar="N",
                   help="the web page's port: http://127.0.0.1:N/ (default: 8080)")
    w.add_argument("--every", type=_seconds, default=0.1, metavar="S",
                   help="seconds between looks at each table (default: 0.1)")
    w.add_argument("--timeout", type=_seconds, default=1.0, metavar="S",
                   help="seconds to wait for each answer of a table (default: 1)")
    return p


def _http_port(text):
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError("a TCP port is a whole number 0..65535 (got %r)" % text)
    return v


def _serve(args):
    from unotable.serve import cmd_serve
    return cmd_serve(args)


def cmd_sim(args):
    return sim.run(args)


def main(argv=None):
    _closed_streams()
    p = parser()
    args, extra = p.parse_known_args(argv)
    if extra and getattr(args, "command", "") == "rules":
        # `rules set -p PORT w4=free`: argparse took the values as done before the option
        args.settings += [x for x in extra if not x.startswith("-")]
        extra = [x for x in extra if x.startswith("-")]
    if extra:
        p.error("unrecognized arguments: %s" % " ".join(extra))
    debug = getattr(args, "debug", False)
    name = getattr(args, "command", "") or ""
    try:
        if signal.getsignal(signal.SIGINT) is _quiet_ctrl_c:   # loaded: Ctrl-C is caught here
            signal.signal(signal.SIGINT, signal.default_int_handler)
        _utf8_names(args)
        code = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:     # `unotable ... | head`: what was wanted was read
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        if debug:
            traceback.print_exc()
        sys.stdout.flush()
        print("\nunotable %s: interrupted; %s" % (name, INTERRUPTED.get(
            name, "what was done is kept")), file=sys.stderr)
        return 130
    except UnotableError as e:
        return _fail(name, e, e.code, debug)
    except OSError as e:        # a file the user named, a full disk
        if e.filename is None and e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            # `> file` on a full disk (a file it names is written with its name): the output
            return _fail(name, "cannot write the output: %s" % (e.strerror or e), 2, debug)
        return _fail(name, file_error(e), 2, debug)
    except Exception as e:      # a damaged database, or a bug: one line, never a traceback
        code, line = unexpected(e, getattr(args, "db", None))
        return _fail(name, line + (" (--debug shows where)" if code == 3 else ""), code, debug)


def _utf8_names(args):
    """Names go into the host database and to the table as UTF-8: bytes from the shell that are
    not UTF-8 (Python's surrogate escapes) are refused here, not met later as a bug."""
    for k in ("table", "name", "night"):
        v = getattr(args, k, None)
        try:
            isinstance(v, str) and v.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError("the %s %r is not UTF-8 text: give it in UTF-8" % (k, v)) from None


def _fail(name, e, code, debug):
    try:
        sys.stdout.flush()
    except (BrokenPipeError, OSError):
        pass
    if debug:
        traceback.print_exc()
    print("unotable %s: %s" % (name, e), file=sys.stderr)
    return code


def _closed_streams():
    """A standard stream the shell closed (`>&-`, `<&-`) is /dev/null instead, as with
    `>/dev/null`: Python would have None there (a traceback at the first write), and the next
    file opened (the host database) would take its fd, which a child (micropython) writes."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            if os.open(os.devnull, os.O_RDWR) != fd:    # the lowest fd free: this one
                continue
        setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))


def _quiet_stdout():
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
