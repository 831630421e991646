"""Every connected table at once (issue 12): which ports hold a table, and one thread per table.

pyserial blocks, so each table gets its own thread (and its own Store connection: SQLite
connections are not shared between threads). What a table's thread prints goes out whole
lines at a time, prefixed with the table's name, so that lines of several tables never mix.
One table that fails says why in its own line and does not stop the others.

    for t in fleet.each(fleet.ports(), job): t.name, t.code, t.error, t.data
"""
import sqlite3
import sys
import threading
import time

from unotable.errors import UnotableError, UsageError, file_error

BUSY_MS = 30000      # how long a table's thread waits for another's write to the database


def ports():
    """[(port, what)]: every likely board, then every running simulated table, each once."""
    from unotable import commands, sim
    out = []
    for port, what in [(p.device, "board") for p in commands.likely_boards()] + \
            [(s["port"], "simulated table") for s in sim.running()]:
        if port not in [p for p, _ in out]:
            out.append((port, what))
    return out


def need_ports():
    """ports(), or a one-line error when no table is connected."""
    found = ports()
    if not found:
        raise UsageError("no table connected: plug a board in (`unotable ports` lists the "
                         "ports) or start `unotable sim`")
    return [p for p, _ in found]


class Table:
    """One table's run: port; name (the port until the job names it: set_name); code (its
    exit code); error (its one line, or None); data (what the job keeps for --json)."""

    def __init__(self, port):
        self.port = port
        self.name = port
        self.code = 0
        self.error = None
        self.data = {}

    def set_name(self, name):
        self.name = name

    def as_dict(self):
        return dict({"port": self.port, "table": self.name, "code": self.code,
                     "error": self.error}, **self.data)


class _Lines:
    """sys.stdout while tables run: a table thread's writes come out as whole lines under
    one lock, prefixed by its table's name (quiet: kept back, for --json); other threads'
    writes pass through."""

    def __init__(self, out, quiet):
        self.out = out
        self.quiet = quiet
        self.lock = threading.Lock()
        self.mine = threading.local()

    def own(self, table):
        self.mine.table = table
        self.mine.buf = ""

    def write(self, text):
        table = getattr(self.mine, "table", None)
        if table is None:
            with self.lock:
                return self.out.write(text)
        self.mine.buf += text
        if "\n" in self.mine.buf:
            done, _, self.mine.buf = self.mine.buf.rpartition("\n")
            self.say(table, done.split("\n"))
        return len(text)

    def say(self, table, lines):
        if self.quiet:
            return
        with self.lock:
            for line in lines:      # a line that starts with the name already keeps it
                named = line.startswith(table.name) and line[len(table.name):][:1] in (" ", ":")
                self.out.write("%s\n" % line if named else "%s: %s\n" % (table.name, line))
            self.out.flush()

    def end(self):
        table = getattr(self.mine, "table", None)
        if table is not None and self.mine.buf:
            self.say(table, [self.mine.buf])
        self.mine.table = None

    def flush(self):
        if getattr(self.mine, "table", None) is None:
            with self.lock:
                self.out.flush()

    def isatty(self):
        return False

    def fileno(self):
        return self.out.fileno()


def each(port_list, job, quiet=False, stop=None, what="", db=None):
    """Runs job(table) for every port at once, one thread each; returns the Tables in port
    order. job returns an exit code or raises UnotableError (its one line goes to stderr as
    "unotable WHAT: NAME: why"). quiet: the jobs print nothing on stdout (--json). stop: a
    threading.Event set on Ctrl-C, for jobs that run until stopped (monitor). db: the host
    database's path (--db), named when it is damaged."""
    from unotable.store import unexpected
    tables = [Table(p) for p in port_list]
    real = sys.stdout
    lines = _Lines(real, quiet)
    err = threading.Lock()

    def work(t):
        lines.own(t)
        try:
            t.code = job(t) or 0
        except UnotableError as e:
            t.code, t.error = e.code, str(e)
        except OSError as e:
            t.code, t.error = 2, str(file_error(e))
        except Exception as e:      # a damaged database, or a bug: one line, as cli.main
            t.code, t.error = unexpected(e, db)
        finally:
            lines.end()
        if t.error:         # on stderr even with --json: a person reads it there
            with err:
                print("unotable %s: %s: %s" % (what, t.name, t.error), file=sys.stderr)

    threads = [threading.Thread(target=work, args=(t,), daemon=True) for t in tables]
    sys.stdout = lines
    try:
        for th in threads:
            th.start()
        for th in threads:
            while th.is_alive():
                th.join(0.2)
    except KeyboardInterrupt:
        if stop is not None:
            stop.set()
            for th in threads:
                th.join(5)
        raise
    finally:
        sys.stdout = real
    return tables


def code(tables):
    """The exit code of several tables: 0 when all did it, else the worst one's (3 a bug,
    2 nothing done there, 1 a check found a problem)."""
    return max([t.code for t in tables] + [0])


def store(path):
    """A Store for one table's thread: its own connection, waiting out the others' writes
    (another program's too: opening waits up to BUSY_MS for a lock to go)."""
    from unotable.store import Store, StoreError
    end = time.monotonic() + BUSY_MS / 1000
    while True:
        try:
            db = Store(path)
            break
        except StoreError as e:
            if "locked" not in str(e) or time.monotonic() > end:
                raise
            time.sleep(0.2)
    db.db.execute("PRAGMA busy_timeout = %d" % BUSY_MS)
    return db


def locked(e):
    return isinstance(e, sqlite3.OperationalError) and "locked" in str(e)
