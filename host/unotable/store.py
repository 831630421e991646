"""The host database: every table's synced log in one SQLite file (SPEC §6, §7).

Only the inputs are stored: the engine decides the events again whenever they are needed
(rounds, exports, verification), so an outcome is never kept twice and never goes stale.

    store = Store()                                   # ~/.local/share/unotable/tables.sqlite3
    store.sync(table_id(link.hello(), port), link)    # resumable, idempotent
    for r in store.games(tid): ...

Schema (version 1, `PRAGMA user_version`):

    tables(id TEXT PRIMARY KEY, board, port, first_seen, last_seen, registry)
        registry: the deck as 108 hex UIDs in card order, space-separated (NULL: not known yet)
    inputs(table_id, seq, t, wall, kind, line, PRIMARY KEY (table_id, seq)) WITHOUT ROWID
        t: the table's clock (ms since boot, or wall seconds when wall = 1); kind: `pad`,
        `seat`...; line: the input as its compact script line (uno.script.dumps)
"""
import datetime
import json
import os
import sqlite3
from binascii import hexlify, unhexlify

from uno.cards import NCARDS, Registry
from uno.events import MATCH_OVER, ROUND, ROUND_OVER
from uno.names import INPUTS
from uno.record import Replay
from uno.script import dumps, input_dict

BATCH = 1000          # inputs per transaction: a cut loses at most the batch in progress
VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    board TEXT NOT NULL DEFAULT '',
    port TEXT NOT NULL DEFAULT '',
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    registry TEXT
);
CREATE TABLE IF NOT EXISTS inputs (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    t INTEGER NOT NULL,
    wall INTEGER NOT NULL,
    kind TEXT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""


class Conflict(ValueError):
    """The board's log and the host's copy disagree; str() says what to do next."""

    def __init__(self, msg, seq=0, stored=None, incoming=None):
        super().__init__(msg)
        self.seq = seq
        self.stored = stored
        self.incoming = incoming


def default_path():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "unotable", "tables.sqlite3")


def table_id(hello, port="", name=None):
    """The host's name for a table: the referee's name if given, else board@port.

    The hub reports no serial number, so the same board on another port is another table
    unless the referee names it."""
    if name:
        return name
    board = (hello or {}).get("board") or "table"
    return "%s@%s" % (board, port) if port else board


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _uids_text(registry):
    return " ".join(hexlify(registry.uid(i)).decode() for i in range(NCARDS))


class Store:
    def __init__(self, path=None):
        self.path = path or default_path()
        if self.path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA foreign_keys = ON")
        v = self.db.execute("PRAGMA user_version").fetchone()[0]
        if v > VERSION:
            raise ValueError("%s was written by a newer unotable (database version %d, this one "
                             "reads %d): update the host tool" % (self.path, v, VERSION))
        with self.db:
            self.db.executescript(_SCHEMA)
            self.db.execute("PRAGMA user_version = %d" % VERSION)
        self._regs = {}

    def close(self):
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

    def tables(self):
        """One dict per table: id, board, port, first_seen, last_seen, inputs, first, last."""
        rows = self.db.execute(
            "SELECT id, board, port, first_seen, last_seen, "
            "(SELECT count(*) FROM inputs WHERE table_id = id), "
            "(SELECT min(seq) FROM inputs WHERE table_id = id), "
            "(SELECT max(seq) FROM inputs WHERE table_id = id) FROM tables ORDER BY id")
        keys = ("id", "board", "port", "first_seen", "last_seen", "inputs", "first", "last")
        return [dict(zip(keys, r)) for r in rows]

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
                           "Sync this table under another name (e.g. `--table %s-2`) to keep both."
                           % (table, table))
        with self.db:
            self.db.execute("UPDATE tables SET registry = ? WHERE id = ?", (text, table))
        self._regs[table] = registry

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

    # ---- inputs -----------------------------------------------------------------------

    def next_seq(self, table):
        """The seq to ask the board for next: the highest stored + 1 (1 for a new table)."""
        r = self.db.execute("SELECT max(seq) FROM inputs WHERE table_id = ?", (table,)).fetchone()
        return (r[0] or 0) + 1

    def add(self, table, records, registry=None, batch=BATCH, progress=None):
        """Stores (seq, t, wall, inp) records, one transaction per batch; returns how many
        were new. registry: the deck the board read them with (kept; default: the stored one).
        A record already stored with the same content is skipped; one with other content raises
        Conflict and nothing of its batch is stored. If `records` fails (a cable pulled
        mid-sync), what came before the failure is stored, then it re-raises."""
        if registry is not None:
            self.set_registry(table, registry)     # the lines below are read with this deck
        else:
            self.add_table(table)
        reg = self.registry(table)
        new = 0
        rows = []
        it = iter(records)
        while True:
            try:
                for seq, t, wall, inp in it:
                    rows.append((seq, t, 1 if wall else 0, INPUTS[inp[0]],
                                 dumps(input_dict(inp, reg))))
                    if len(rows) >= batch:
                        break
            except BaseException:
                if rows:
                    self._write(table, rows)
                raise
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
            "SELECT seq, t, wall, kind, line FROM inputs WHERE table_id = ? AND seq BETWEEN ? "
            "AND ?", (table, min(seqs), max(seqs)))}
        fresh = []
        for r in rows:
            old = have.get(r[0])
            if old is None:
                have[r[0]] = r[1:]
                fresh.append((table,) + r)
            elif old != r[1:]:
                raise self._conflict(table, r[0], old, r[1:])
        with self.db:
            self.db.executemany("INSERT INTO inputs VALUES (?,?,?,?,?,?)", fresh)
            self.db.execute("UPDATE tables SET last_seen = ? WHERE id = ?", (_now(), table))
        return len(fresh)

    def _conflict(self, table, seq, old, new):
        def say(r):
            return "%s at t=%d%s" % (r[3], r[0], " (wall clock)" if r[1] else "")
        return Conflict(
            "table %r, seq %d: the board's log has %s but the host stored %s. The board's log and "
            "the host's copy disagree: another board on this port, or the board's log was erased "
            "or restored. Nothing of this batch was stored. Sync that board under another name "
            "(e.g. `--table %s-2`); the stored night is kept as it was."
            % (table, seq, say(new), say(old), table), seq, old[3], new[3])

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
        match_winner (the seat when this round ended the match, else None)."""
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
                           "scores": None, "match_winner": None}
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

    def sync(self, table, link, batch=BATCH, progress=None):
        """Pulls the board's new inputs through a unotable.link.Link; returns how many were
        new. Resumable (asks from what is stored) and idempotent. The last stored input is
        asked again, so a different log behind the same table name shows as a Conflict."""
        reg = link.fetch_registry()
        self.set_registry(table, reg)
        start = self.next_seq(table)
        nxt = (link.status() or {}).get("next_seq")
        if isinstance(nxt, int) and nxt < start:
            raise Conflict("table %r: the board's log ends before seq %d, which the host already "
                           "holds: its log was erased, or this is another board. Sync it under "
                           "another name (e.g. `--table %s-2`)." % (table, start - 1, table),
                           start - 1)
        # the link helper's shim (records, no gaps) until the host helper's store takes gaps
        recs = (r[:4] for r in link.sync_records(max(1, start - 1)) if not hasattr(r, "cause"))
        return self.add(table, recs, reg, batch, progress)
