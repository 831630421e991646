"""The host database: every table's synced log in one SQLite file (SPEC §6, §7).

Only the inputs are stored: the engine decides the events again whenever they are needed
(rounds, exports, verification), so an outcome is never kept twice and never goes stale.
Besides them: what the table said about its log (gaps, chain heads) and its pairing key.

    store = Store()                                   # ~/.local/share/unotable/tables.sqlite3
    tid = store.name_table(hello["id"], "hall-3")     # the table's id; "hall-3" its label
    store.sync(tid, link)                             # resumable, idempotent
    for r in store.games(tid): ...

A table is named by its id (16 hex, from `hello`): the same board on another port or after a
replugged cable is the same table. A label is a name a person gave it; every command takes
either. Schema (version 2, `PRAGMA user_version`; a version 1 file is migrated on open):

    tables(id TEXT PRIMARY KEY, board, port, first_seen, last_seen, registry, label, key)
        id: the table id (a version 1 row keeps the name it was synced under, also its label);
        registry: the deck as 108 hex UIDs in card order, space-separated (NULL: not known yet);
        label: unique, or NULL; key: the chain key from `unotable pair` (64 hex) or NULL
    inputs(table_id, seq, t, wall, kind, line, tag, PRIMARY KEY (table_id, seq)) WITHOUT ROWID
        t: the table's clock (ms since boot, or wall seconds when wall = 1); kind: `pad`,
        `seat`...; line: the input as its compact script line (uno.script.dumps);
        tag: the chain tag the table logged with it (8 hex; NULL when synced before version 2)
    gaps(table_id, first, last, cause, seen)      seqs the table reported lost, and why
    heads(table_id, seq, head, mac, seen)         chain heads seen at sync (64 hex each; mac
                                                  NULL when the table gave none)
"""
import datetime
import inspect
import json
import os
import sqlite3
from urllib.request import pathname2url
from binascii import hexlify, unhexlify

from uno.cards import NCARDS, Registry
from uno.events import MATCH_OVER, ROUND, ROUND_OVER
from uno.names import INPUTS
from uno.record import Replay
from uno.script import dumps, input_dict
from unotable.errors import UnotableError

BATCH = 1000          # inputs per transaction: a cut loses at most the batch in progress
VERSION = 2
CAUSES = ("pruned", "damaged", "missing", "foreign", "order")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    board TEXT NOT NULL DEFAULT '',
    port TEXT NOT NULL DEFAULT '',
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    registry TEXT,
    label TEXT,
    key TEXT
);
CREATE TABLE IF NOT EXISTS inputs (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    t INTEGER NOT NULL,
    wall INTEGER NOT NULL,
    kind TEXT NOT NULL,
    line TEXT NOT NULL,
    tag TEXT,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""

# version 1 -> 2: labels, keys, tags (the old names become labels of themselves)
_MIGRATE_1 = """
ALTER TABLE tables ADD COLUMN label TEXT;
ALTER TABLE tables ADD COLUMN key TEXT;
UPDATE tables SET label = id;
ALTER TABLE inputs ADD COLUMN tag TEXT;
"""

_SCHEMA_2 = """
CREATE UNIQUE INDEX IF NOT EXISTS tables_label ON tables(label);
CREATE TABLE IF NOT EXISTS gaps (
    table_id TEXT NOT NULL REFERENCES tables(id),
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    cause TEXT NOT NULL,
    seen TEXT NOT NULL,
    PRIMARY KEY (table_id, first, last, cause)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS heads (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    head TEXT NOT NULL,
    mac TEXT,
    seen TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""

# clock notes the table logged when a host set its clock (hub/handler.py set_clock): seq, the
# wall-clock seconds and the table's ms at that moment; they date every input of that boot
_SCHEMA_3 = """
CREATE TABLE IF NOT EXISTS clocks (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    wall INTEGER NOT NULL,
    t INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""


class UnknownInput(UnotableError, ValueError):
    """A record of a kind this host tool cannot store (newer firmware)."""


class StoreError(UnotableError, ValueError):
    """The database cannot be used (damaged, newer, not a database); str() says what to do."""


class Conflict(UnotableError, ValueError):
    """The board's log and the host's copy disagree; str() says what to do next."""

    def __init__(self, msg, seq=0, stored=None, incoming=None):
        super().__init__(msg)
        self.seq = seq
        self.stored = stored
        self.incoming = incoming


def _unusable(path, e):
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return ("cannot write the host database %s: it is read-only (or its folder is); "
                "give a writable one with --db or $UNOTABLE_DB" % path)
    if "not a database" in text or "file is encrypted" in text:
        return ("%s is not a unotable database (not SQLite): give the right file with --db, "
                "or move it away" % path)
    if "locked" in text:     # not damage: moving the file away would lose a night
        return ("the host database %s is locked by another program (a sync or a monitor "
                "writing to it, a SQLite browser): run the command again when it is done"
                % path)
    if "unable to open" in text:
        return ("cannot open the host database %s: its folder cannot be written or read; "
                "give another with --db or $UNOTABLE_DB" % path)
    return ("cannot use the host database %s: %s. If it is damaged, move it away (the tables "
            "can be synced again) or give another with --db" % (path, e))


def damaged(e, path=None):
    """A sqlite3 error met after the file opened (a page damaged mid-file, a disk gone) as the
    StoreError to say (exit 2), or None: a bad statement or a misuse is a bug of ours."""
    if not isinstance(e, sqlite3.DatabaseError) or isinstance(
            e, (sqlite3.ProgrammingError, sqlite3.InterfaceError, sqlite3.InternalError)):
        return None
    return StoreError(_unusable(path or default_path(), e))


def unexpected(e, path=None):
    """An exception no command caught, as (exit code, its one line): a host database damaged
    past its first page is the user's to mend (2), anything else a bug of ours (3)."""
    said = damaged(e, path)
    if said is not None:
        return 2, str(said)
    return 3, ("unexpected error (%s: %s): a bug in unotable; please report it with the "
               "command you ran" % (type(e).__name__, e))


def default_path():
    """$UNOTABLE_DB, else the per-user data folder's tables.sqlite3."""
    if os.environ.get("UNOTABLE_DB"):
        return os.environ["UNOTABLE_DB"]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "unotable", "tables.sqlite3")


def is_id(text):
    """A table id as the hub sends it: 16 lowercase hex."""
    return isinstance(text, str) and len(text) == 16 and all(c in "0123456789abcdef"
                                                               for c in text)


def table_id(hello, port="", name=None):
    """The host's key for a table: the id it reports in `hello`; for a table that reports
    none (firmware before issue 8), the name given, else board@port."""
    tid = (hello or {}).get("id")
    if is_id(tid):
        return tid
    if name:
        return name
    board = (hello or {}).get("board") or "table"
    return "%s@%s" % (board, port) if port else board


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _uids_text(registry):
    return " ".join(hexlify(registry.uid(i)).decode() for i in range(NCARDS))


def read_deck(path):
    """A deck registry from a file: 108 hex UIDs (text), or a table's saved deck (its blob).
    OSError if unreadable, ValueError saying what is wrong."""
    with open(path, "rb") as f:
        data = f.read(1 << 16)
    try:
        return Registry.from_blob(data)
    except ValueError:
        pass
    try:
        words = data.decode("ascii").split()
        uids = [unhexlify(w) for w in words]
    except (UnicodeDecodeError, ValueError):
        raise ValueError("%s is not a deck: write 108 UIDs in hex, one per card in card order "
                         "(R0a R1a R1b ... W4d)" % path) from None
    try:
        return Registry(uids)
    except ValueError as e:
        raise ValueError("%s is not a deck: %s" % (path, e)) from None


class Store:
    def __init__(self, path=None, readonly=False):
        """readonly: nothing is written (not even the schema); a file that is not there reads
        as an empty database. A database that cannot be used is a StoreError (one line)."""
        self.path = path or default_path()
        self.db = None
        self.readonly = readonly
        try:
            if os.path.isdir(self.path):
                raise StoreError("cannot use the host database %s: it is a directory; give a "
                                 "file with --db" % self.path)
            if readonly and self.path != ":memory:" and not os.path.exists(self.path):
                self.db = sqlite3.connect(":memory:")
                v = 0
            elif readonly and self.path != ":memory:":
                self.db = sqlite3.connect("file:%s?mode=ro" % pathname2url(
                    os.path.abspath(self.path)), uri=True)
                v = self._version()
                if v != VERSION:            # an older file needs its schema written: not here
                    self.db.close()
                    self.db = sqlite3.connect(self.path)
            else:
                if self.path != ":memory:":
                    folder = os.path.dirname(os.path.abspath(self.path))
                    os.makedirs(folder, exist_ok=True)
                    if os.path.exists(self.path) and not os.access(self.path, os.W_OK) or \
                            not os.access(folder, os.W_OK):   # SQLite writes a journal beside it
                        raise sqlite3.OperationalError("readonly")
                self.db = sqlite3.connect(self.path)
                v = self._version()
            if v == 0 and self._foreign():     # not ours to write the schema into
                raise StoreError("%s is another program's SQLite database (no unotable tables "
                                 "in it): give the host database with --db, or a new file"
                                 % self.path)
            self.db.execute("PRAGMA foreign_keys = ON")    # this connection's: nothing written
            if v > VERSION:
                raise StoreError("%s was written by a newer unotable (database version %d, this "
                                 "one reads %d): update the host tool" % (self.path, v, VERSION))
            if v != VERSION:
                with self.db:
                    if v == 1:
                        self.db.executescript(_MIGRATE_1)
                    self.db.executescript(_SCHEMA + _SCHEMA_2 + _SCHEMA_3)
                    self.db.execute("PRAGMA user_version = %d" % VERSION)
            elif not readonly:
                self.db.executescript(_SCHEMA_3)    # a version 2 file from before clock notes
        except sqlite3.Error as e:
            self.close()
            raise StoreError(_unusable(self.path, e)) from None
        except OSError as e:
            self.close()
            raise StoreError("cannot open the host database %s: %s" % (
                self.path, e.strerror or e)) from None
        except StoreError:
            self.close()
            raise
        self._regs = {}

    def _foreign(self):
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = "
                                               "'table'")}
        # `tables` is the first one the schema makes: another thread of `sync --all` may be
        # making the rest of a new file's right now
        return bool(names) and not names & {"tables", "inputs"}

    def _version(self):
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def close(self):
        if self.db is not None:
            self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- tables -----------------------------------------------------------------------

    def add_table(self, table, board="", port=""):
        """Creates the table's row, or notes that it was seen again now."""
        now = _now()
        with self.db:
            self.db.execute(
                "INSERT INTO tables (id, board, port, first_seen, last_seen) VALUES (?,?,?,?,?) "
                "ON CONFLICT(id) DO UPDATE SET last_seen = excluded.last_seen, "
                "board = CASE WHEN excluded.board != '' THEN excluded.board ELSE board END, "
                "port = CASE WHEN excluded.port != '' THEN excluded.port ELSE port END",
                (table, board, port, now, now))

    def find(self, name):
        """The id of the table with this id or label (an id prefix of 4+ hex too), or None."""
        if not name:
            return None
        r = self.db.execute("SELECT id FROM tables WHERE id = ? OR label = ? ORDER BY id = ? DESC",
                            (name, name, name)).fetchone()
        if r:
            return r[0]
        if len(name) >= 4 and all(c in "0123456789abcdef" for c in name):
            rows = self.db.execute("SELECT id FROM tables WHERE substr(id, 1, ?) = ?",
                                   (len(name), name)).fetchall()
            if len(rows) == 1:
                return rows[0][0]
        return None

    def label(self, table):
        r = self.db.execute("SELECT label FROM tables WHERE id = ?", (table,)).fetchone()
        return r[0] if r else None

    def name_table(self, tid, label=None, board="", port=""):
        """The table with id tid (16 hex from `hello`), seen now; label, if given, names it.

        A label already naming another table is refused (Conflict), except a table synced
        before ids existed under that name: its stored night becomes this id's (the sync
        that follows checks that the logs agree). Returns tid."""
        if label:
            owner = self.find(label) if not is_id(label) else None
            if owner is not None and owner != tid:
                if not is_id(owner) and self._count(tid) == 0:
                    self._adopt(owner, tid)
                else:
                    raise Conflict("the name %r is the label of table %s already: give this "
                                   "table (%s) another name" % (label, owner, tid))
        self.add_table(tid, board, port)
        if label and not is_id(label) and self.label(tid) != label:
            with self.db:
                self.db.execute("UPDATE tables SET label = ? WHERE id = ?", (label, tid))
        return tid

    def _count(self, table):
        return self.db.execute("SELECT count(*) FROM inputs WHERE table_id = ?",
                               (table,)).fetchone()[0]

    def _adopt(self, old, tid):
        """A table stored under a name (database version 1) takes its id: one transaction."""
        with self.db:
            self.db.execute("DELETE FROM tables WHERE id = ? AND NOT EXISTS (SELECT 1 FROM "
                            "inputs WHERE table_id = ?)", (tid, tid))
            self.db.execute("INSERT INTO tables (id, board, port, first_seen, last_seen, "
                            "registry, "
                            "key) SELECT ?, board, port, first_seen, last_seen, registry, key "
                            "FROM tables WHERE id = ?", (tid, old))
            for t in ("inputs", "gaps", "heads"):
                self.db.execute("UPDATE %s SET table_id = ? WHERE table_id = ?" % t, (tid, old))
            label = self.label(old)
            self.db.execute("DELETE FROM tables WHERE id = ?", (old,))
            self.db.execute("UPDATE tables SET label = ? WHERE id = ?", (label, tid))
        self._regs.pop(old, None)

    def tables(self):
        """One dict per table: id, label, board, port, first_seen, last_seen, inputs, first,
        last, gaps, paired."""
        rows = self.db.execute(
            "SELECT id, label, board, port, first_seen, last_seen, "
            "(SELECT count(*) FROM inputs WHERE table_id = id), "
            "(SELECT min(seq) FROM inputs WHERE table_id = id), "
            "(SELECT max(seq) FROM inputs WHERE table_id = id), "
            "(SELECT count(*) FROM gaps WHERE table_id = id), key IS NOT NULL "
            "FROM tables ORDER BY coalesce(label, id)")
        keys = ("id", "label", "board", "port", "first_seen", "last_seen", "inputs", "first",
                "last", "gaps", "paired")
        return [dict(zip(keys, r)) for r in rows]

    def set_key(self, table, key):
        """Keeps the table's chain key (32 bytes, from `unotable pair`)."""
        if len(key) != 32:
            raise ValueError("a table's key has 32 bytes, got %d" % len(key))
        self.add_table(table)
        with self.db:
            self.db.execute("UPDATE tables SET key = ? WHERE id = ?", (key.hex(), table))

    def key(self, table):
        """The table's chain key (bytes), or None when the host has not paired with it."""
        r = self.db.execute("SELECT key FROM tables WHERE id = ?", (table,)).fetchone()
        try:
            return bytes.fromhex(r[0]) if r and r[0] else None
        except ValueError:
            return None

    def add_gaps(self, table, gaps):
        """Keeps gaps (first, last, cause) the table reported; returns how many were new."""
        rows = []
        for g in gaps:
            first, last, cause = g
            if isinstance(first, int) and isinstance(last, int) and isinstance(cause, str):
                rows.append((table, first, last, cause[:20], _now()))
        if not rows:
            return 0
        self.add_table(table)
        with self.db:
            before = self.db.total_changes
            self.db.executemany("INSERT OR IGNORE INTO gaps VALUES (?,?,?,?,?)", rows)
            return self.db.total_changes - before

    def gaps(self, table):
        """[(first, last, cause)] in seq order."""
        return self.db.execute("SELECT first, last, cause FROM gaps WHERE table_id = ? "
                               "ORDER BY first, last", (table,)).fetchall()

    def add_heads(self, table, heads):
        """Keeps chain heads (seq, head hex, mac hex or None) seen at sync. Returns the heads
        that disagree with one already kept for the same seq (kept as they were)."""
        rows, odd = [], []
        for h in heads:
            seq, head, mac = h
            if not isinstance(seq, int) or not _hex(head, 64) or not (mac is None or
                                                                      _hex(mac, 64)):
                odd.append(h)
                continue
            rows.append((table, seq, head.lower(), mac.lower() if mac else None, _now()))
        if not rows:
            return odd
        self.add_table(table)
        have = dict((s, (h, m)) for s, h, m in self.heads(table))
        with self.db:
            for r in rows:
                old = have.get(r[1])
                if old is None:
                    self.db.execute("INSERT INTO heads VALUES (?,?,?,?,?)", r)
                    have[r[1]] = r[2:4]
                elif old[0] != r[2]:
                    odd.append(r[1:4])
                elif old[1] is None and r[3]:
                    self.db.execute("UPDATE heads SET mac = ? WHERE table_id = ? AND seq = ?",
                                    (r[3], table, r[1]))
        return odd

    def heads(self, table):
        """[(seq, head hex, mac hex or None)] in seq order."""
        return self.db.execute("SELECT seq, head, mac FROM heads WHERE table_id = ? ORDER BY seq",
                               (table,)).fetchall()

    def set_registry(self, table, registry):
        """Keeps the deck the table's inputs are read with (none stored: the synthetic deck).
        A different deck under stored inputs is refused: they would be read as other cards."""
        self.add_table(table)
        text = _uids_text(registry)
        old = self.db.execute("SELECT registry FROM tables WHERE id = ?", (table,)).fetchone()[0]
        if old == text:
            return
        if text != _uids_text(self.registry(table)) and self.next_seq(table) > 1:
            raise Conflict("the deck of table %r changed since the host stored its inputs (a deck "
                           "was enrolled again): the stored inputs were read with the old deck. "
                           "%s" % (table, _keep_both(table)))
        with self.db:
            self.db.execute("UPDATE tables SET registry = ? WHERE id = ?", (text, table))
        self._regs[table] = registry

    def has_registry(self, table):
        """True when the table's deck was stored (an enrolled deck, or the synthetic one)."""
        r = self.db.execute("SELECT registry FROM tables WHERE id = ?", (table,)).fetchone()
        return bool(r and r[0])

    def registry(self, table):
        """The table's deck (uno.cards.Registry); the synthetic deck if none was stored."""
        reg = self._regs.get(table)
        if reg is None:
            row = self.db.execute("SELECT registry FROM tables WHERE id = ?", (table,)).fetchone()
            if row and row[0]:
                reg = Registry([unhexlify(u) for u in row[0].split()])
            else:
                from uno.cards import synthetic_registry
                reg = synthetic_registry()
            self._regs[table] = reg
        return reg

    def add_clocks(self, table, clocks):
        """Keeps the table's clock notes [(seq, wall seconds, table ms)]; returns how many were
        new."""
        rows = [(table, c[0], c[1], c[2]) for c in clocks
                if len(c) == 3 and all(isinstance(x, int) and x >= 0 for x in c)]
        if not rows:
            return 0
        with self.db:
            before = self.db.total_changes
            self.db.executemany("INSERT OR IGNORE INTO clocks VALUES (?,?,?,?)", rows)
            return self.db.total_changes - before

    def clocks(self, table):
        """[(seq, wall seconds, table ms)] in seq order ([] from a file written before them)."""
        try:
            return self.db.execute("SELECT seq, wall, t FROM clocks WHERE table_id = ? ORDER BY "
                                   "seq", (table,)).fetchall()
        except sqlite3.OperationalError:
            return []

    # ---- inputs -----------------------------------------------------------------------

    def next_seq(self, table):
        """The seq to ask the board for next: the highest stored + 1 (1 for a new table)."""
        r = self.db.execute("SELECT max(seq) FROM inputs WHERE table_id = ?", (table,)).fetchone()
        return (r[0] or 0) + 1

    def add(self, table, records, registry=None, batch=BATCH, progress=None):
        """Stores records, one transaction per batch; returns how many inputs were new.

        A record is (seq, t, wall, inp) or (seq, t, wall, inp, tag) (tag: the 4 bytes of the
        table's chain), or a gap (anything with .first, .last, .cause: kept with the gaps).
        registry: the deck the board read them with (kept; default: the stored one).
        A record already stored with the same content is skipped (its tag filled in if the host
        had none); one with other content raises Conflict and nothing of its batch is stored.
        If `records` fails (a cable pulled mid-sync), what came before the failure is stored,
        then it re-raises."""
        if registry is not None:
            self.set_registry(table, registry)     # the lines below are read with this deck
        else:
            self.add_table(table)
        reg = self.registry(table)
        new = 0
        rows = []
        gaps = []
        it = iter(records)
        while True:
            try:
                for r in it:
                    if hasattr(r, "cause"):
                        gaps.append((r.first, r.last, r.cause))
                        continue
                    tag = r[4].hex() if len(r) > 4 and r[4] is not None else None
                    inp = r[3]
                    try:
                        row = (r[0], r[1], 1 if r[2] else 0, INPUTS[inp[0]],
                               dumps(input_dict(inp, reg)), tag)
                    except (IndexError, KeyError, TypeError):
                        raise UnknownInput("the table logged an input this host tool does not "
                                           "know (seq %d, kind %r): update the host tool; what "
                                           "came before it is stored" % (r[0], inp[0]))
                    rows.append(row)
                    if len(rows) >= batch:
                        break
            except BaseException:
                self.add_gaps(table, gaps)
                if rows:
                    self._write(table, rows)
                raise
            if gaps:
                self.add_gaps(table, gaps)
                gaps = []
            if not rows:
                return new
            new += self._write(table, rows)
            if progress:
                progress(rows[-1][0], new)
            rows = []

    def _write(self, table, rows):
        """One batch in one transaction, after checking it against what is stored."""
        seqs = [r[0] for r in rows]
        have = {r[0]: r[1:] for r in self.db.execute(
            "SELECT seq, t, wall, kind, line, tag FROM inputs WHERE table_id = ? AND seq BETWEEN "
            "? AND ?", (table, min(seqs), max(seqs)))}
        fresh = []
        tags = []
        for r in rows:
            old = have.get(r[0])
            if old is None:
                have[r[0]] = r[1:]
                fresh.append((table,) + r)
            elif old[:4] != r[1:5]:
                raise self._conflict(table, r[0], old, r[1:])
            elif r[5] is not None and old[4] != r[5]:
                if old[4] is not None:
                    raise self._conflict(table, r[0], old, r[1:])
                tags.append((r[5], table, r[0]))
        with self.db:
            self.db.executemany("INSERT INTO inputs (table_id, seq, t, wall, kind, line, tag) "
                                "VALUES (?,?,?,?,?,?,?)", fresh)
            self.db.executemany("UPDATE inputs SET tag = ? WHERE table_id = ? AND seq = ?", tags)
            self.db.execute("UPDATE tables SET last_seen = ? WHERE id = ?", (_now(), table))
        return len(fresh)

    def _conflict(self, table, seq, old, new):
        def say(r):
            return "%s at t=%d%s%s" % (r[3], r[0], " (wall clock)" if r[1] else "",
                                       " tag %s" % r[4] if old[:4] == new[:4] else "")
        return Conflict(
            "table %r, seq %d: the board's log has %s but the host stored %s. The board's log and "
            "the host's copy disagree: another board on this port, or the board's log was erased "
            "or restored. Nothing of this batch was stored; the stored night is kept as it was. %s"
            % (table, seq, say(new), say(old), _keep_both(table)), seq, old[3], new[3])

    def records(self, table, from_seq=1, to_seq=None):
        """Yields (seq, t, wall, line, tag or None) as stored, in seq order."""
        return self.db.execute(
            "SELECT seq, t, wall, line, tag FROM inputs WHERE table_id = ? AND seq >= ? AND "
            "seq <= ? ORDER BY seq", (table, from_seq, (1 << 62) if to_seq is None else to_seq))

    def inputs(self, table, from_seq=1, to_seq=None):
        """Yields (seq, t, wall, input as a script dict) in seq order."""
        for seq, t, wall, line in self._rows(table, from_seq, to_seq):
            yield seq, t, bool(wall), json.loads(line)

    def script_lines(self, table, from_seq=1, to_seq=None):
        """The stored inputs as table script lines with their seq and t: what Replay reads.

        A wall-clock time is left out (the engine's timer counts ms since boot); the line
        then happens at the time of the one before, as in any script."""
        for seq, t, wall, line in self._rows(table, from_seq, to_seq):
            # dumps puts seq and t before every key a stored line has: splicing keeps the order
            if wall:
                yield '{"seq":%d,%s' % (seq, line[1:])
            else:
                yield '{"seq":%d,"t":%d,%s' % (seq, t, line[1:])

    def _rows(self, table, from_seq, to_seq):
        return self.db.execute(
            "SELECT seq, t, wall, line FROM inputs WHERE table_id = ? AND seq >= ? AND seq <= ? "
            "ORDER BY seq", (table, from_seq, (1 << 62) if to_seq is None else to_seq))

    # ---- derived ----------------------------------------------------------------------

    def games(self, table):
        """The rounds of the stored night, found by replaying it (the only source of outcomes).

        One dict per round: match (1, 2, ... a new one after each match_over), round, dealer,
        seats, first and last seq (last: the round_over, or the last stored input of a round
        still on), winner and points (None while on), scores after it ({seat: total}),
        match_winner (the seat when this round ended the match, else None), players ({seat:
        a badge's UID (bytes) or a name} of the named seats, issue 12)."""
        run = Replay(registry=self.registry(table))
        rounds = []
        cur = None
        match = 1
        for seq, inp, evs in run.run(self.script_lines(table)):
            t = run.table
            for e in evs:
                code = e[0]
                if code == ROUND:
                    if cur is not None and cur["match_winner"] is not None:
                        match += 1
                    cur = {"match": match, "round": e[1], "dealer": e[2], "seats": list(t.seats),
                           "first": seq, "last": seq, "winner": None, "points": None,
                           "scores": None, "match_winner": None,
                           "players": {s: t.players[s] for s in t.seats
                                       if t.players[s] is not None}}
                    rounds.append(cur)
                elif cur is None:
                    continue
                elif code == ROUND_OVER:   # the scores are final once feed() returns
                    cur["winner"], cur["points"], cur["last"] = e[1], e[2], seq
                    cur["scores"] = {s: t.scores[s] for s in t.seats}
                elif code == MATCH_OVER:
                    cur["match_winner"] = e[1]
            if cur is not None and cur["winner"] is None:
                cur["last"] = seq
        return rounds

    # ---- from the board ---------------------------------------------------------------

    def _head_before(self, table, seq):
        """The chain head before input seq, worked out from the stored tags (None when a gap,
        a missing tag or a break leaves it unknown): with it the table need not send tags."""
        from unotable.export import ChainCheck, _chain, _heads_bin
        from uno.script import to_input
        from uno.table import Table
        chain = _chain()
        if chain is None or not is_id(table):
            return None
        walk = ChainCheck(chain, None, None, None, _heads_bin(self.heads(table)),
                          self.gaps(table))
        tab = Table(registry=self.registry(table))
        for s, t, wall, line, tag in self.records(table, 1, seq - 1):
            if tag is None:
                return None
            walk.entry(s, s, t, bool(wall), to_input(json.loads(line), tab), tag)
        return walk.before(seq)

    def _clock_from(self, table, seq):
        r = self.db.execute("SELECT max(seq) FROM clocks WHERE table_id = ?",
                            (table,)).fetchone() if self.clocks(table) else None
        return max(1, min(seq, (r[0] or 0) + 1)) if r else 1

    def sync(self, table, link, batch=BATCH, progress=None):
        """Pulls the board's new inputs through a unotable.link.Link; returns how many were
        new. Resumable (asks from what is stored) and idempotent. The last stored input is
        asked again, so a different log behind the same table shows as a Conflict. Gaps the
        table reports (in `status` and among the records) are kept and never stop it; so are
        the chain heads the link saw (`link.heads`), even when the cable goes mid-sync.
        self.odd_heads: heads that disagree with ones kept before (kept as they were);
        self.mismatch: (seq, head worked out here, the table's) where they differ (`link`)."""
        reg = link.fetch_registry()
        self.set_registry(table, reg)
        start = self.next_seq(table)
        status = link.status() or {}
        nxt = status.get("next_seq")
        if isinstance(nxt, int) and nxt < start:
            raise Conflict("table %r: the board's log ends before seq %d, which the host already "
                           "holds: its log was erased, or this is another board. %s"
                           % (table, start - 1, _keep_both(table)), start - 1)
        damage = status.get("damage")
        if isinstance(damage, list):
            self.add_gaps(table, [tuple(g) for g in damage if isinstance(g, list) and len(g) == 3])
        self.odd_heads = []
        self.mismatch = []
        heads = getattr(link, "heads", None)
        mismatch = getattr(link, "mismatch", None)
        seen = len(heads) if isinstance(heads, list) else -1
        ask = max(1, start - 1)
        try:
            head = self._head_before(table, ask) if _takes_head(link) else None
            recs = link.sync_records(ask, head=head) if head else link.sync_records(ask)
            n = self.add(table, recs, reg, batch, progress)
            notes = getattr(link, "clocks", None)    # a table that logs its clock notes
            if callable(notes):
                self.add_clocks(table, notes(self._clock_from(table, ask)))
            return n
        except Conflict:
            seen = -1                              # another log's heads are not this table's
            raise
        finally:
            top = self.next_seq(table) - 1
            said = status.get("head")              # the head `status` reported, with its mac
            said = [(said[0], said[1], status.get("mac"))] if (
                isinstance(said, list) and len(said) == 2 and seen >= 0) else []
            if seen >= 0:
                self.odd_heads = self.add_heads(table, [tuple(h) for h in heads[seen:] + said
                                                        if _is_head(h) and h[0] <= top])
            if isinstance(mismatch, list):       # tags worked out here that the table's differ
                self.mismatch = [tuple(m) for m in mismatch if _is_head(m)]


def _takes_head(link):
    try:
        return "head" in inspect.signature(link.sync_records).parameters
    except (TypeError, ValueError):
        return False


def _is_head(h):
    return isinstance(h, (list, tuple)) and len(h) == 3 and isinstance(h[0], int)


def _keep_both(table):
    if is_id(table):
        return ("To keep both, sync this table into another host database (`--db FILE`); "
                "`unotable verify` on the stored night says which copy holds up.")
    return "Sync that board under another name (e.g. `--table %s-2`) to keep both." % table


def _hex(text, n):
    if not isinstance(text, str) or len(text) != n:
        return False
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True
