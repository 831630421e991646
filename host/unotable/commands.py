"""The host tool's commands that talk to a table over its serial port (a board or `unotable sim`).

Each returns an exit code and says what to do next when something is wrong.
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from serial.tools import list_ports

from uno.cards import COLOURS, NCARDS, copy_name
from uno.names import PHASES
from uno.rules import catalogue, presets
from uno.rulebook import RULE_TEXT
from unotable import settings
from unotable.errors import UnotableError, UsageError
from unotable.ui import plural
from unotable.link import Link, LinkError, ProtocolError, Refused, reader_health
from unotable.build import build, tool

BOARD_CHIPS = ("CP210", "CH340", "CH910", "USB JTAG", "Espressif", "FT232", "USB Serial")


def likely_boards():
    return [p for p in list_ports.comports()
            if any(k.lower() in ("%s %s" % (p.description, p.manufacturer)).lower()
                   for k in BOARD_CHIPS)]


def pick_port(args):
    if args.port:
        return args.port
    boards = likely_boards()
    if len(boards) == 1:
        return boards[0].device
    raise LinkError("which port? %s: give --port (`unotable ports` lists them; the simulated "
                    "table prints its port when it starts)" % (
                        "no board found" if not boards else "several boards"))


def cmd_ports(args):
    from unotable.sim import running
    ports = list(list_ports.comports())
    sims = running()
    boards = likely_boards()
    if getattr(args, "json", False):
        print(json.dumps([{"port": p.device, "description": p.description,
                           "board": p in boards} for p in ports] +
                         [{"port": s["port"], "description": "simulated table", "board": False,
                           "log": s.get("log"), "pid": s.get("pid")} for s in sims]))
        return 0
    if not ports and not sims:
        print("no serial ports. Plug the table's USB in (a data cable, not a charging one), "
              "or start `unotable sim` and use the port it prints.")
        return 0
    for p in ports:
        mark = "  <- looks like an ESP32 devkit" if p in boards else ""
        print("%-20s %s%s" % (p.device, p.description, mark))
    for s in sims:
        print("%-20s simulated table (`unotable sim`, pid %s, log %s)" % (
            s["port"], s.get("pid"), s.get("log")))
    return 0


def connect(args):
    return Link.open(pick_port(args), timeout=getattr(args, "timeout", 1.0))


def status_lines(hello, s):
    try:
        yield from _status_lines(hello, s)
    except (KeyError, TypeError, IndexError, ValueError) as e:
        raise ProtocolError("the table's status makes no sense to this host tool (%s: %s): "
                            "update the host tool or the firmware" % (type(e).__name__, e))


def _status_lines(hello, s):
    phase = PHASES[s["phase"]] if isinstance(s["phase"], int) else s["phase"]
    rules = s.get("rules") or {}
    yield "%s on %s, firmware %s, protocol %s" % (hello["board"], hello.get("port", "the port"),
                                                  hello["fw"], hello["proto"])
    yield "rules: %s" % (", ".join("%s=%s" % kv for kv in sorted(rules.items())) or "official")
    colour = COLOURS[s["colour"]] if s["colour"] is not None and s["colour"] >= 0 else "-"
    yield "round %d, %s, dealer %s, turn %s, colour %s, next seq %d" % (
        s["round"], phase.replace("_", " "), s["dealer"] or "-", s["turn"] or "-", colour,
        s["next_seq"])
    for seat, cards, score, owes in s["seats"]:
        yield "  seat %-2d %3d %-5s %5d %-6s%s" % (
            seat, cards, "card" if cards == 1 else "cards", score,
            "point" if score == 1 else "points",
            "  owes %s" % plural(owes, "card") if owes else "")
    if s.get("id") or hello.get("id"):
        yield "table id %s" % (s.get("id") or hello.get("id"))
    head = s.get("head")
    if isinstance(head, list) and len(head) == 2:
        yield "chain head after seq %s: %s%s" % (head[0], str(head[1])[:16],
                                                  " (signed)" if s.get("mac") else "")
    flash = s.get("flash")
    if isinstance(flash, list) and len(flash) == 2 and flash[1]:
        yield "log: %d of %d KB of flash used (%d%%)%s" % (
            flash[0] // 1024, flash[1] // 1024, 100 * flash[0] // flash[1],
            ": FULL, inputs are not judged until `unotable sync --ack` frees it"
            if s.get("log_full") else "")
    said = ["%s %s%s%s" % (where, "up" if up else "DOWN",
                           ", %s" % plural(errors, "read error") if errors else "",
                           ", two cards at once %s" % plural(two, "time") if two else "")
            for where, up, errors, two in reader_health(s) or () if not up or errors or two]
    if said:
        yield "readers: " + "; ".join(said)
    for g in s.get("damage") or ():
        if isinstance(g, list) and len(g) == 3:
            yield "damage: seqs %s..%s are not in the log (%s); sync keeps the rest" % tuple(g)


def cmd_status(args):
    if getattr(args, "all", False):
        return _status_all(args)
    with connect(args) as link:
        hello = link.hello()
        hello["port"] = link.port
        s = link.status()
        if getattr(args, "json", False):
            print(json.dumps({"hello": hello, "status": s}))
            return 0
        for line in status_lines(hello, s):
            print(line)
    return 0


def _status_all(args):
    """status --all: every connected table at once (unotable.fleet), named by its label
    (from the host database, when it knows the table) or its id."""
    from unotable import fleet

    def job(t):
        with Link.open(t.port, timeout=args.timeout) as link:
            hello = link.hello()
            hello["port"] = link.port
            t.set_name(_known_as(args, hello.get("id")) or t.port)
            s = link.status()
            t.data.update(hello=hello, status=s)
            if not args.json:
                for line in status_lines(hello, s):
                    print(line)
        return 0
    tables = fleet.each(fleet.need_ports(), job, quiet=args.json, what="status")
    if args.json:
        print(json.dumps([t.as_dict() for t in tables]))
    return fleet.code(tables)


def _known_as(args, tid):
    """A table's label in the host database, else its id (None: it reports none)."""
    from unotable.store import Store, StoreError, default_path
    path = getattr(args, "db", None) or default_path()
    if not tid or not os.path.exists(path):
        return tid
    try:
        with Store(path, readonly=True) as db:
            return db.label(tid) or tid
    except (StoreError, sqlite3.Error):
        return tid


def cmd_rules(args):
    if args.action == "show":
        return _rules_show(args)
    if not args.settings:
        raise UsageError("rules set needs NAME=VALUE, %s" % settings.EXAMPLE)
    pairs = settings.parse(args.settings)   # all checked before any is sent
    with connect(args) as link:
        for name, value in pairs:
            link.set_rule(name, value)
            print("%s = %s: taken, from the next round" % (name, value))
    return 0


def _rules_show(args):
    rows = catalogue()
    names = [r[0] for r in rows]
    want = []
    for w in args.settings:
        name = w.partition("=")[0]
        if name not in names:
            raise UsageError("no setting %r: `unotable rules show` lists them" % name)
        want.append(name)
    current = {}
    if args.port:
        with connect(args) as link:
            current = link.status().get("rules") or {}
    rows = [r for r in rows if not want or r[0] in want]
    if getattr(args, "json", False):
        print(json.dumps({"rules": [
            {"name": name, "rule": rule, "value": current.get(name, default), "default": default,
             "allowed": list(allowed), "text": RULE_TEXT[name]}
            for name, default, allowed, rule in rows],
            "presets": dict(presets()), "from_table": bool(args.port)}))
        return 0
    for name, default, allowed, rule in rows:
        values = "%d-%d" % allowed if isinstance(allowed[0], int) else "/".join(allowed)
        now = current.get(name, default)
        mark = "*" if now != default else " "
        print("%s %-3s %-14s %-12s %-30s %s" % (mark, rule, name, now, values,
                                                RULE_TEXT[name]))
    if not want:
        print("presets: " + ", ".join(p for p, _ in presets()) + "   (* = not the official rule)")
    return 0


def cmd_enroll(args):
    """Guided: tap each of the 108 cards once, in the order asked; then the deck goes up."""
    order = [copy_name(i) for i in range(NCARDS)]
    uids = [None] * NCARDS
    with connect(args) as link:
        link.enroll(True)
        seen = 0
        missing = []
        try:
            for i, card in enumerate(order):
                print("tap %-4s (%3d/%d) on the PLAY pad or the shoe" % (card, i + 1, NCARDS))
                sys.stdout.flush()
                end = time.monotonic() + args.wait
                twice = None
                while time.monotonic() < end:
                    s = link.status()
                    n, last = s.get("enroll") or (0, [])
                    if s.get("enroll_twice") and s["enroll_twice"] != twice:
                        twice = s["enroll_twice"]
                        u = bytes.fromhex(twice)
                        was = order[uids.index(u)] if u in uids else "a card just read"
                        print("  that tag was enrolled already as %s: tap %s" % (was, card))
                    if n > seen:
                        # the table keeps the last 8 reads: the first new one is this card
                        uids[i] = bytes.fromhex(last[len(last) - (n - seen)])
                        seen += 1
                        break
                    time.sleep(0.05)
                else:
                    missing.append(card)
                    print("  no %s read: skipped" % card)
            n, last = link.status().get("enroll") or (0, [])
            extra = last[len(last) - (n - seen):] if n > seen else []
        finally:
            link.enroll(False)
        if extra:
            print("%s read after the last card: %s (not enrolled)" % (
                "1 more tag was" if len(extra) == 1 else "%d more tags were" % len(extra),
                " ".join(extra)))
        if missing:
            raise UnotableError("%s not read: %s. Nothing was changed; enroll again with "
                                "every card at hand." % (
                                    "1 card was" if len(missing) == 1 else
                                    "%d cards were" % len(missing), " ".join(missing)))
        link.upload_registry(uids)
        print("deck enrolled: 108 cards; the table knows them from now on")
    return 0


def _let_mpremote_in(port, args):
    """Asks the running firmware to hand the port to the REPL (a stray Ctrl-C no longer stops a
    round, so mpremote's does not either), when this Link knows how (`repl`). A board already at
    its prompt, or older firmware, does not answer: mpremote's Ctrl-C then does as before. In a
    round the table says no until someone at it agrees: that answer is the one line to print
    (Refused, exit 2), and mpremote does not run."""
    from unotable import link as linkmod
    opener = getattr(linkmod, "open_repl", None)
    if opener is not None:
        try:
            if opener(port, timeout=getattr(args, "timeout", 1.0)):
                return True
        except Refused as e:
            raise UnotableError("the table did not let mpremote in: %s. Nothing was copied; "
                                "run the same command again" % (e.reason or e)) from None
        print("  (the firmware did not answer `repl`: mpremote tries Ctrl-C)")
        return False
    stop = getattr(Link, "repl", None)
    if stop is None:
        return False
    try:
        with Link.open(port, timeout=getattr(args, "timeout", 1.0)) as link:
            stop(link)
        return True
    except LinkError as e:
        print("  (the firmware did not hand over the port: %s; mpremote tries Ctrl-C)"
              % str(e).split(":")[0])
        return False


def _deploy_romfs(args):
    """--romfs: the compiled firmware as one ROMFS image into the board's romfs partition
    (unotable.romfs), after the running firmware hands the port over, as for files."""
    from unotable import romfs
    if getattr(args, "resume", False):
        raise UnotableError("--romfs rewrites the partition the code runs from: the "
                            "board must reset, so leave out --resume")
    port = pick_port(args)
    work = tempfile.mkdtemp(prefix="unotable-romfs-")
    try:
        return romfs.deploy(port, work, dry_run=args.dry_run,
                            native=getattr(args, "native", None),
                            before=lambda: _let_mpremote_in(port, args))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_deploy(args):
    """mpy-cross the firmware, then mpremote copies it to the board and resets it."""
    if getattr(args, "romfs", False):
        return _deploy_romfs(args)
    port = pick_port(args)
    if args.resume and not args.dry_run:
        _not_the_simulated_table(port, args)
    native = getattr(args, "native", None)
    out = tempfile.mkdtemp(prefix="unotable-deploy-")
    try:
        build(out, native=native)
        dirs, files = [], []
        for folder, subdirs, names in os.walk(out):
            subdirs.sort()
            rel = os.path.relpath(folder, out)
            if rel != ".":
                dirs.append(rel)
            for n in sorted(names):
                files.append(os.path.normpath(os.path.join(rel, n)))
        # one mpremote run: the folders, then every file, chained with "+"
        mk = "import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n" \
             "        pass" % (dirs,)
        steps = [["exec", mk]] + [["fs", "cp", os.path.join(out, f), ":" + f] for f in files]
        if not args.resume:
            steps.append(["reset"])
        argv = [tool("mpremote"), "connect", port] + (["resume"] if args.resume else [])
        for i, step in enumerate(steps):
            argv += (["+"] if i else []) + step
        print("mpremote connect %s%s: %d folders, %d files%s; the engine as %s" % (
            port, " resume" if args.resume else "", len(dirs), len(files),
            "" if args.resume else ", then reset",
            "native code for %s" % native if native else "bytecode"))
        for f in files:
            print("  :" + f)
        if args.dry_run:
            return 0
        _let_mpremote_in(port, args)
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode:
            raise UnotableError("mpremote failed: %s. Is the port free (close "
                                "`unotable monitor`) and the board running MicroPython?"
                                % (r.stderr.strip() or r.stdout.strip()))
        print("deployed %d files to %s" % (len(files), port))
        return 0
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _not_the_simulated_table(port, args):
    """deploy --resume copies files beside a running firmware: the simulated table runs this
    tree's firmware from its own folder, so a copy would only stop it. Refused, with the way."""
    try:
        with Link.open(port, timeout=getattr(args, "timeout", 1.0), retries=1) as link:
            board = (link.hello() or {}).get("board")
    except LinkError:
        return          # at its prompt already, or not a table firmware: mpremote as asked
    if board == "sim":
        raise UsageError("%s is a simulated table: it runs this tree's firmware, so nothing "
                         "needs copying. To run changed code, stop `unotable sim` and start it "
                         "again with the same --log (the log and the game are kept)" % port)


def _ask(link, verb, payload=None):
    """A verb this Link may not wrap yet: its method if it has one, else a plain request."""
    f = getattr(link, verb, None)
    if callable(f):
        return f() if payload is None else f(*payload.values())
    return link._json(verb, payload or b"")


def cmd_pair(args):
    """The table's chain key into the host database, under the table's id."""
    from unotable.nights import connected_table, shown
    from unotable.store import Store, is_id
    with connect(args) as link, Store(args.db) as db:
        hello = link.hello() or {}
        if not is_id(hello.get("id")):
            raise UnotableError("the table on %s reports no table id: its firmware is "
                                "older than pairing; update it (`unotable deploy --port %s`)"
                                % (link.port, link.port))
        tid = connected_table(db, link, hello, args.table)
        held = db.key(tid)
        try:
            got = _ask(link, "pair")
        except Refused as e:
            raise UnotableError("table %s refused to pair: %s%s" % (
                shown(db, tid), e.reason or e,
                " (this host holds its key already: nothing to do)" if held else ""))
        if not isinstance(got, dict) or got.get("id") != tid:
            raise ProtocolError("the table's answer to `pair` names another table: %r"
                                % (got if not isinstance(got, dict) else got.get("id"),))
        try:
            key = bytes.fromhex(got.get("key") or "")
        except (TypeError, ValueError):
            key = b""
        if len(key) != 32:
            raise ProtocolError("the table's key is not 64 hex digits")
        if held == key:
            print("table %s: paired already; the key is the same" % shown(db, tid))
            return 0
        if held and not args.replace:
            raise UnotableError("the host holds another key for table %s: the table "
                                "made a new one (was its flash wiped?). Heads it signed before "
                                "need the old key; `unotable pair --replace` keeps the new one "
                                "only." % shown(db, tid))
        db.set_key(tid, key)
        print("paired with table %s: the host database %s holds its key; `unotable verify` "
              "now checks the table's signature" % (shown(db, tid), db.path))
        return 0


def cmd_undo(args):
    """The take-back: the last N accepted inputs of the round (logged like any input)."""
    try:
        with connect(args) as link:
            got = _ask(link, "undo", {"n": args.n})
    except Refused as e:
        raise UnotableError("the table did not take back %s: %s" % (
            plural(args.n, "input"), _reason(e.reason or str(e)))) from None
    n = got.get("undone", args.n) if isinstance(got, dict) else args.n
    print("took back the last %s input%s of the round" % (n, "" if n == 1 else "s"))
    return 0


def _reason(text):
    """The table words a refused take-back "the table refused it (reason 38)": the engine's
    words for the reason (uno.words), which say what to do."""
    from uno.words import REASONS
    m = re.search(r"the table refused it \(reason (\d+)\)", text)
    n = int(m.group(1)) if m else 0
    return REASONS[n] if 0 < n < len(REASONS) else text


SELFTEST_QUIET = 15.0   # seconds past a prompt's own time with no line: the table stopped


def cmd_selftest(args):
    """The table's guided bring-up checks (hub/selftest.py): prompts as they come, then the
    checklist. Exit 0 when nothing failed, 1 when a check failed, 2 when it could not run."""
    press = max(1, int(args.press * 1000))
    results = []
    with connect(args) as link:
        try:
            link.selftest(start=True, press_ms=press, quick=args.quick)
        except Refused as e:
            why = e.reason or str(e)
            if why.startswith("unknown verb"):
                why = ("its firmware has no self-test; update it (`unotable deploy --port "
                       "%s`)" % link.port)
            raise UnotableError("the table did not start its self-test: " + why)
        print("self-test on %s: do what each line says; each prompt waits %g s" % (
            link.port, press / 1000.0))
        k = 0
        quiet = time.monotonic()
        while True:
            got = link.selftest(frm=k)
            if not isinstance(got, dict) or not isinstance(got.get("lines"), list) or \
                    not isinstance(got.get("next"), int):
                raise ProtocolError("the table's self-test answer makes no sense: %r"
                                    % (got,))
            for line in got["lines"]:
                line = str(line)
                if line.startswith("["):
                    results.append(line)
                    print("  " + line)
                elif line.startswith("selftest:"):
                    results.append(line)
                else:
                    print("-> " + line)
                sys.stdout.flush()
                quiet = time.monotonic()
            k = got["next"]
            if got.get("done"):
                break
            if time.monotonic() - quiet > press / 1000 + SELFTEST_QUIET:
                raise UnotableError("the table stopped reporting its self-test "
                                    "after %d lines: see `unotable status`" % k)
            if not got["lines"]:
                time.sleep(0.1)
    checks = [r for r in results if r.startswith("[")]
    failed = [r for r in checks if r.startswith("[FAIL]")]
    print()
    print("checklist (hardware/BRINGUP.md says what to do for each FAIL):")
    for r in checks:
        print("  " + r)
    summary = [r for r in results if r.startswith("selftest:")]
    print(summary[-1] if summary else "selftest: %d checks, %d failed" % (len(checks),
                                                                          len(failed)))
    return 1 if failed else 0
