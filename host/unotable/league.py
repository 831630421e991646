"""Game nights and league standings (issue 12): who won what, over a night or a season.

A night is named by the organiser (`unotable night start NAME` ... `night close`): it holds the
rounds of every table that ended between those two moments, by the wall clock of the round's
last input (the host sets each table's clock at sync; store.clocks date the rest). A round that
ended outside every named night belongs to the night of its date (YYYY-MM-DD, local time).

The results index is DERIVED, never the record: one row per round per seat, worked out by
replaying the stored inputs through the engine (the store keeps only inputs; the engine
decides the events again). It is filled after each sync (refresh) and rebuilt whenever it is
missing, behind the stored inputs, or written by another RESULTS version; deleting it loses
nothing. Schema (in the host database, beside store.py's; store.VERSION is not changed):

    nights(id INTEGER PRIMARY KEY, name TEXT UNIQUE, started INTEGER, closed INTEGER NULL)
        started, closed: wall-clock seconds (UTC); closed NULL: the night is on
    results(kind, value, table_id, first, seat, last, wall, match, ...counts...)
        kind/value: the seat's player: "uid"/badge hex, "name"/the host-given name, or
        "seat"/"<table id>:<seat>" for a seat nobody named. The primary key starts with the
        player, so a season's GROUP BY walks the table in order; results_wall serves nights.
    results_seen(table_id, version, seen)   the stored seq the index was filled up to
    league(name, value)                     settings: "league_points" ("3,1")

Kept stable for the scoreboard (unotable serve): standings(store, night=None, season=False,
rule=None), current_night(store), night_series(store, night), refresh(store, table_id),
nights(store), find_night(store, night).
"""
import datetime
import json
import os
import re
import sqlite3
import sys
import time

from uno.cards import rank
from uno.events import (CATCH, CHALLENGE, MATCH_OVER, PENALTY, PLAY, ROUND, ROUND_OVER,
                        SCORE, UNDO, V_ILLEGAL, W_FALSE_CATCH, W_FALSE_UNO)
from uno.record import Counted, Replay
from unotable.errors import NotFound, UsageError

RESULTS = 2                 # the index's version: a change rebuilds it (2: M4 teams)
RULE = (3, 1)               # league points: "3,1" = 3 a match won, 1 a round won
RULE_NAME = "match win 3, round win 1"
_W4 = 14                    # uno.cards.RANKS.index("W4")

# the counters of a round per seat, in the results table's column order
COUNTS = ("round_won", "match_end", "match_won", "points", "points_table", "unos_forgotten",
          "false_calls", "false_catches", "challenges_won", "challenges_lost", "penalties",
          "penalty_cards", "w4s")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    started INTEGER NOT NULL,
    closed INTEGER
);
CREATE TABLE IF NOT EXISTS results (
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    table_id TEXT NOT NULL,
    first INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    last INTEGER NOT NULL,
    wall INTEGER,
    match INTEGER NOT NULL,
    %s,
    PRIMARY KEY (kind, value, table_id, first, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_wall ON results(wall);
CREATE INDEX IF NOT EXISTS results_table ON results(table_id, first);
CREATE TABLE IF NOT EXISTS results_seen (
    table_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    seen INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS league (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
""" % ",\n    ".join("%s INTEGER NOT NULL" % c for c in COUNTS)

# the columns a standings row sums, and what they are called in it
_SUMS = (("rounds", "count(*)"), ("rounds_won", "sum(round_won)"),
         ("matches", "sum(match_end)"), ("matches_won", "sum(match_won)"),
         ("points", "sum(points)"), ("points_table", "sum(points_table)"),
         ("unos_forgotten", "sum(unos_forgotten)"), ("false_calls", "sum(false_calls)"),
         ("false_catches", "sum(false_catches)"), ("challenges_won", "sum(challenges_won)"),
         ("challenges_lost", "sum(challenges_lost)"), ("penalties", "sum(penalties)"),
         ("penalty_cards", "sum(penalty_cards)"), ("w4s", "sum(w4s)"))
# the keys of a standings row, in the order the table and the CSV show them
KEYS = ("player", "rounds", "rounds_won", "matches", "matches_won", "points", "points_table",
        "avg_points", "unos_forgotten", "false_calls", "false_catches", "challenges_won",
        "challenges_lost", "penalties", "penalty_cards", "w4s", "league_points")


def ready(store):
    """The league's tables in the store's file. A read-only store gets its results index in
    TEMP tables (which SQLite reads before the file's), copied from the file's when it has
    one: the index is filled there and the file is never written."""
    if not store.readonly:
        store.db.executescript(_SCHEMA)
        return
    if getattr(store, "league_temp", False):
        return
    have = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master")}
    for name in ("results", "results_seen"):
        ddl = re.search(r"CREATE TABLE IF NOT EXISTS %s \(.*?\)( WITHOUT ROWID)?;" % name,
                        _SCHEMA, re.S).group(0)
        store.db.execute(ddl.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE")[:-1])
        if name in have:
            store.db.execute("INSERT INTO temp.%s SELECT * FROM main.%s" % (name, name))
    store.db.execute("CREATE INDEX temp.results_wall ON results(wall)")
    store.db.execute("CREATE INDEX temp.results_table ON results(table_id, first)")
    store.league_temp = True


def _rows(store, sql, args=()):
    try:
        return store.db.execute(sql, args).fetchall()
    except sqlite3.OperationalError as e:
        if "no such table" in str(e):   # a read-only file from before nights: none yet
            return []
        raise


# ---- the results index -----------------------------------------------------------------

def rounds(store, table_id):
    """The complete rounds of a stored table, as the engine decides them again: one dict per
    round (first, last, match, winner, points, match_winner, players {seat: (kind, value)},
    seats {seat: {counter: n}})."""
    from unotable.export import input_dates
    from unotable.players import who
    dates = input_dates(store.records(table_id), store.clocks(table_id))
    run = Replay(registry=store.registry(table_id))
    out = []
    cur = None
    match = 1
    totals = {}              # the table's own scores in this match, as its SCORE events said
    done = Counted()         # accepted inputs of the round: their counts, for a take-back
    for seq, inp, evs in run.run(store.script_lines(table_id)):
        t = run.table
        mine = []
        for e in evs:
            code = e[0]
            if code == ROUND:
                if cur is not None and cur["match_winner"] is not None:
                    match += 1
                    totals = {}
                cur = {"first": seq, "last": seq, "match": match, "winner": None,
                       "points": None, "match_winner": None, "wall": None,
                       "seats": {s: dict.fromkeys(COUNTS, 0) for s in t.seats}}
            elif cur is None or cur["winner"] is not None and code not in (SCORE, MATCH_OVER):
                continue
            elif code == UNDO:
                for counted in done.undo(e[1]):
                    for s, k, n in counted:
                        if s in cur["seats"]:
                            cur["seats"][s][k] -= n
            elif code == ROUND_OVER:
                cur["winner"], cur["points"], cur["last"] = e[1], e[2], seq
                cur["wall"] = dates.get(seq)
                cur["players"] = {s: who(t.players[s]) for s in t.seats}
                for s in t.team(e[1]):     # M4: a member going out wins for the team,
                    mine.append((s, "round_won", 1))    # each member scores the points
                    mine.append((s, "points", e[2]))
            elif code == SCORE:
                mine.append((e[1], "points_table", e[2] - totals.get(e[1], 0)))
                totals[e[1]] = e[2]
            elif code == MATCH_OVER:
                cur["match_winner"] = e[1]
                # M4: the team's match (the engine names its first seat of the best score)
                mine.extend((s, "match_won", 1) for s in t.team(e[1]))
                mine.extend((s, "match_end", 1) for s in cur["seats"])
            elif code == CATCH:
                mine.append((e[2], "unos_forgotten", 1))
            elif code == PENALTY:
                mine.append((e[1], "penalties", 1))
                mine.append((e[1], "penalty_cards", e[2]))
                if e[3] == W_FALSE_UNO:
                    mine.append((e[1], "false_calls", 1))
                elif e[3] == W_FALSE_CATCH:
                    mine.append((e[1], "false_catches", 1))
            elif code == CHALLENGE:
                won, lost = (e[1], e[2]) if e[3] == V_ILLEGAL else (e[2], e[1])
                mine.append((won, "challenges_won", 1))
                mine.append((lost, "challenges_lost", 1))
            elif code == PLAY and rank(e[2]) == _W4:
                mine.append((e[1], "w4s", 1))
        if cur is not None:
            for s, k, n in mine:
                if s in cur["seats"]:
                    cur["seats"][s][k] += n
            done.keep(evs, mine)
            if cur["winner"] is not None and (not out or out[-1] is not cur):
                out.append(cur)
                done.round_over()
    return out


def _binding(table_id, seat, player):
    if player is None:
        return "seat", "%s:%d" % (table_id, seat)
    return player


def refresh(store, table_id):
    """Fills the results index with the table's rounds completed since it was last filled (all
    of them when it was never filled, or by another RESULTS version); returns how many rounds
    were added. The index is derived: it can always be rebuilt from the stored inputs."""
    ready(store)
    top = store.next_seq(table_id) - 1
    row = store.db.execute("SELECT version, seen FROM results_seen WHERE table_id = ?",
                           (table_id,)).fetchone()
    if row and row[0] == RESULTS and row[1] == top:
        return 0
    fresh = row is None or row[0] != RESULTS
    have = 0 if fresh else (store.db.execute(
        "SELECT max(last) FROM results WHERE table_id = ?", (table_id,)).fetchone()[0] or 0)
    rows = []
    new = 0
    # rounds indexed before a clock note could date them (a boot only monitored, an old
    # firmware): dated now if one can, or the night's standings go without them for ever
    undated = set() if fresh else {r[0] for r in store.db.execute(
        "SELECT DISTINCT last FROM results WHERE table_id = ? AND wall IS NULL", (table_id,))}
    dated = []
    for r in rounds(store, table_id):
        if r["last"] <= have:
            if r["last"] in undated and r["wall"] is not None:
                dated.append((r["wall"], table_id, r["last"]))
            continue
        new += 1
        for s, c in r["seats"].items():
            kind, value = _binding(table_id, s, r["players"].get(s))
            rows.append((kind, value, table_id, r["first"], s, r["last"], r["wall"], r["match"])
                        + tuple(c[k] for k in COUNTS))
    with store.db:
        if fresh:
            store.db.execute("DELETE FROM results WHERE table_id = ?", (table_id,))
        store.db.executemany("INSERT OR REPLACE INTO results VALUES (%s)"
                             % ",".join("?" * (8 + len(COUNTS))), rows)
        store.db.executemany("UPDATE results SET wall = ? WHERE table_id = ? AND last = ?",
                             dated)
        store.db.execute("INSERT OR REPLACE INTO results_seen VALUES (?, ?, ?)",
                         (table_id, RESULTS, top))
    return new


def refresh_all(store):
    """The index up to date for every stored table (in TEMP tables for a read-only store);
    the rows of a table the store no longer holds (renamed to its id) go."""
    ready(store)
    gone = [r[0] for r in store.db.execute(
        "SELECT table_id FROM results_seen WHERE table_id NOT IN (SELECT id FROM tables)")]
    with store.db:
        for tid in gone:
            store.db.execute("DELETE FROM results WHERE table_id = ?", (tid,))
            store.db.execute("DELETE FROM results_seen WHERE table_id = ?", (tid,))
    return sum(refresh(store, r["id"]) for r in store.tables())


# ---- nights ------------------------------------------------------------------------------

def _night(row):
    return {"id": row[0], "name": row[1], "started": row[2], "closed": row[3]}


def nights(store):
    """The named nights, oldest first."""
    return [_night(r) for r in _rows(store, "SELECT id, name, started, closed FROM nights "
                                     "ORDER BY started, id")]


def current_night(store):
    """The night that is on (started, not closed), or None."""
    r = _rows(store, "SELECT id, name, started, closed FROM nights WHERE closed IS NULL "
              "ORDER BY started DESC LIMIT 1")
    return _night(r[0]) if r else None


def start_night(store, name, now=None):
    name = (name or "").strip()
    if not name or len(name) > 60 or not name.isprintable():
        raise UsageError("a night's name is 1 to 60 printable characters: %r" % name)
    if _DATE.match(name) or name.isdigit():
        raise UsageError("%r would read as a date or a night's number: give the night a name "
                         "(e.g. \"Friday league\")" % name)
    ready(store)
    on = current_night(store)
    if on is not None:
        raise UsageError("night %r is on already (since %s): `unotable night close` first"
                         % (on["name"], _local(on["started"])))
    if _rows(store, "SELECT 1 FROM nights WHERE name = ?", (name,)):
        raise UsageError("there was a night %r already: give this one another name" % name)
    now = int(time.time() if now is None else now)
    # a night holds its first and last second: it starts after the last one closed, so that
    # a round that ended in that second (or a host clock set back) counts in one night only
    last = _rows(store, "SELECT max(closed) FROM nights")
    if last and last[0][0] is not None and now <= last[0][0]:
        now = last[0][0] + 1
    with store.db:
        cur = store.db.execute("INSERT INTO nights (name, started) VALUES (?, ?)", (name, now))
    return {"id": cur.lastrowid, "name": name, "started": now, "closed": None}


def close_night(store, now=None):
    on = current_night(store)
    if on is None:
        raise UsageError("no night is on: `unotable night start NAME` starts one")
    now = max(int(time.time() if now is None else now), on["started"])
    with store.db:
        store.db.execute("UPDATE nights SET closed = ? WHERE id = ?", (now, on["id"]))
    on["closed"] = now
    return on


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_END = 1 << 62


def _day(text):
    """Wall-clock seconds of a local date's first and last second."""
    try:
        d = datetime.datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise UsageError("%r is no date: give YYYY-MM-DD" % text) from None
    try:
        a = int(time.mktime(d.timetuple()))
        b = int(time.mktime((d + datetime.timedelta(days=1)).timetuple()))
    except (OverflowError, ValueError):     # 9999-12-31 has no next day
        raise UsageError("%r is out of the dates the host can count" % text) from None
    return a, b - 1


def find_night(store, night):
    """A night by its number, name or date (YYYY-MM-DD): {"id", "name", "started", "closed"};
    a date night has id None and its date as its name. NotFound saying what there is."""
    if isinstance(night, dict):
        return night
    text = str(night).strip()
    # a number SQLite can hold (no superscript digit "²", which int() refuses)
    num = int(text) if text.isdecimal() and len(text) < 19 else None
    for sql, arg in (("name = ?", text), ("id = ?", num)):
        if arg is None:
            continue
        r = _rows(store, "SELECT id, name, started, closed FROM nights WHERE " + sql, (arg,))
        if r:
            return _night(r[0])
    if _DATE.match(text):
        a, b = _day(text)
        return {"id": None, "name": text, "started": a, "closed": b}
    raise NotFound("no night %r: `unotable night list` names them (a date YYYY-MM-DD is a "
                   "night too)" % text)


def _where(store, night):
    """The SQL condition and arguments that pick a night's rounds."""
    n = find_night(store, night)
    cond = "r.wall BETWEEN ? AND ?"
    args = [n["started"], n["closed"] if n["closed"] is not None else _END]
    if n["id"] is None:         # a date night: what no named night holds
        if _rows(store, "SELECT 1 FROM sqlite_master WHERE name = 'nights'"):
            cond += (" AND NOT EXISTS (SELECT 1 FROM nights n WHERE r.wall BETWEEN n.started "
                     "AND coalesce(n.closed, %d))" % _END)
    return cond, args


def dated_nights(store):
    """[(date, rounds)] of the rounds no named night holds, by local date, oldest first."""
    rows = _rows(store, "SELECT date(r.wall, 'unixepoch', 'localtime') AS d, "
                 "count(DISTINCT r.table_id || ':' || r.first) FROM results r WHERE r.wall "
                 "IS NOT NULL AND NOT EXISTS (SELECT 1 FROM nights n WHERE r.wall BETWEEN "
                 "n.started AND coalesce(n.closed, %d)) GROUP BY d ORDER BY d" % _END)
    return [tuple(r) for r in rows]


def night_rounds(store, night):
    """How many rounds a night holds (all tables)."""
    cond, args = _where(store, night)
    r = _rows(store, "SELECT count(DISTINCT r.table_id || ':' || r.first) FROM results r "
              "WHERE " + cond, args)
    return r[0][0] if r else 0


# ---- standings ---------------------------------------------------------------------------

def parse_rule(text):
    """League points "M,R": M a match won, R a round won (whole numbers 0..100)."""
    if isinstance(text, (tuple, list)):
        text = ",".join(str(x) for x in text)
    try:
        m, r = (int(x) for x in str(text).split(","))
    except ValueError:
        m = r = -1
    if not (0 <= m <= 100 and 0 <= r <= 100):
        raise UsageError("league points are M,R: points for a match won and for a round won, "
                         "whole numbers 0..100 (e.g. 3,1): %r" % (text,))
    return m, r


def rule(store):
    """The league-points rule kept in the database, else the default (3,1)."""
    r = _rows(store, "SELECT value FROM league WHERE name = 'league_points'")
    return parse_rule(r[0][0]) if r else RULE


def keep_rule(store, value):
    m, r = parse_rule(value)
    ready(store)
    with store.db:
        store.db.execute("INSERT OR REPLACE INTO league VALUES ('league_points', ?)",
                         ("%d,%d" % (m, r),))
    return m, r


def _namer(store):
    """(kind, value) -> the player's name as people know them."""
    from unotable.players import badge_names, display
    badges = badge_names(store)
    labels = {}

    def name(kind, value):
        if kind != "seat":
            return display(store, kind, value, badges)
        tid, _, seat = value.rpartition(":")
        if tid not in labels:
            labels[tid] = store.label(tid) or tid
        return "seat %s @ %s" % (seat, labels[tid])
    return name


def standings(store, night=None, season=False, rule=None):
    """The league table: one dict per player (KEYS), by league points, then points, then
    name. night: a night's number, name or date (default: the night that is on, else the
    season); season: every round. rule: (M, R) league points (default: the stored rule)."""
    m, r = parse_rule(rule) if rule is not None else globals()["rule"](store)
    if night is None and not season:
        night = current_night(store)
        season = night is None
    cond, args = ("1", []) if season or night is None else _where(store, night)
    sql = ("SELECT kind, value, %s FROM results r WHERE %s GROUP BY kind, value"
           % (", ".join(x for _, x in _SUMS), cond))
    name = _namer(store)
    by = {}
    for row in _rows(store, sql, args):
        who = name(row[0], row[1])
        d = by.get(who)
        if d is None:
            by[who] = d = dict.fromkeys(KEYS, 0)
            d["player"] = who
        for (k, _), v in zip(_SUMS, row[2:]):
            d[k] += v or 0
    out = list(by.values())
    for d in out:
        d["avg_points"] = round(d["points"] / d["rounds"], 1) if d["rounds"] else 0.0
        d["league_points"] = m * d["matches_won"] + r * d["rounds_won"]
    out.sort(key=lambda d: (-d["league_points"], -d["points"], d["player"]))
    return out


def night_series(store, night):
    """The night round by round, for charts: [{player, table, wall, round_points,
    unos_forgotten}] in time order (table: its label, else its id)."""
    cond, args = _where(store, night)
    name = _namer(store)
    labels = {}
    out = []
    for kind, value, tid, wall, pts, forgot in _rows(
            store, "SELECT kind, value, table_id, wall, points, unos_forgotten FROM results r "
            "WHERE %s ORDER BY wall, table_id, first, seat" % cond, args):
        if tid not in labels:
            labels[tid] = store.label(tid) or tid
        out.append({"player": name(kind, value), "table": labels[tid], "wall": wall,
                    "round_points": pts, "unos_forgotten": forgot})
    return out


def query_plan(store, night=None):
    """EXPLAIN QUERY PLAN of the standings query (the bench prints it)."""
    cond, args = ("1", []) if night is None else _where(store, night)
    sql = ("SELECT kind, value, %s FROM results r WHERE %s GROUP BY kind, value"
           % (", ".join(x for _, x in _SUMS), cond))
    return [r[3] for r in store.db.execute("EXPLAIN QUERY PLAN " + sql, args)]


# ---- the commands ------------------------------------------------------------------------

def _local(seconds):
    if seconds is None:
        return "-"
    return datetime.datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M")


def _iso(seconds):
    if seconds is None:
        return None
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def _store(args, readonly=False):
    from unotable.store import Store
    return Store(args.db, readonly=readonly)


def cmd_night(args):
    as_json = getattr(args, "json", False)
    if args.action in ("start", "close"):
        if args.action == "start" and not args.name:
            raise UsageError("night start needs a NAME, e.g. `unotable night start \"Friday "
                             "league\"`")
        if args.action == "close" and args.name:
            raise UsageError("night close takes no NAME: it closes the night that is on")
        with _store(args) as db:
            n = start_night(db, args.name) if args.action == "start" else close_night(db)
        if as_json:
            print(json.dumps(dict(n, started_at=_iso(n["started"]),
                                  closed_at=_iso(n["closed"]))))
        elif args.action == "start":
            print("night %d %r started at %s: rounds that end from now on are its own"
                  % (n["id"], n["name"], _local(n["started"])))
        else:
            print("night %d %r closed at %s (%s)" % (n["id"], n["name"], _local(n["closed"]),
                                                      _plural(_count(args, n), "round")))
        return 0
    if args.name:
        raise UsageError("night list takes no NAME")
    with _reading(args) as db:
        _fill(db, args)
        rows = [dict(n, rounds=night_rounds(db, n), started_at=_iso(n["started"]),
                     closed_at=_iso(n["closed"])) for n in nights(db)]
        rows += [{"id": None, "name": d, "started": None, "closed": None, "rounds": k,
                  "started_at": None, "closed_at": None} for d, k in dated_nights(db)]
    if as_json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print("no nights yet: `unotable night start NAME` starts one (rounds outside a named "
              "night are listed by date)")
    for n in rows:
        if n["id"] is None:
            print("%-4s %-24s %s (by date: no named night holds them)"
                  % ("-", n["name"], _plural(n["rounds"], "round")))
        else:
            print("%-4d %-24s %s .. %s  %s" % (
                n["id"], n["name"], _local(n["started"]),
                _local(n["closed"]) if n["closed"] is not None else "on", _plural(
                    n["rounds"], "round")))
    return 0


def _count(args, night):
    with _store(args, readonly=True) as db:
        return night_rounds(db, night)


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _fill(db, args):
    """The index brought up to date before it is read."""
    refresh_all(db)


def _reading(args):
    """The store for reading standings: writable when the file may be written (the index
    filled is kept), else read-only (filled in TEMP tables, the file untouched)."""
    from unotable.store import Store, default_path
    path = args.db or default_path()
    try:
        ok = os.stat(path).st_mode & 0o200 and os.access(path, os.W_OK) and os.access(
            os.path.dirname(os.path.abspath(path)), os.W_OK)
    except OSError:
        ok = False
    return Store(path, readonly=not ok)


_HEAD = ("player", "rounds", "won", "matches", "won", "points", "table pts", "avg",
         "UNO forgot", "false UNO", "false catch", "chall won", "chall lost", "penalties",
         "cards", "W4s", "league")


def cmd_standings(args):
    rule_ = parse_rule(args.league_points) if args.league_points else None
    if args.night is not None and args.season:
        raise UsageError("give --night N or --season, not both")
    if args.csv and getattr(args, "json", False):
        raise UsageError("give --csv or --json, not both")
    if args.keep and rule_ is None:
        raise UsageError("--keep keeps the --league-points given: give them")
    if args.keep:
        with _store(args) as db:
            keep_rule(db, rule_)
    with _reading(args) as db:
        night = find_night(db, args.night) if args.night is not None else None
        _fill(db, args)
        if night is None and not args.season:
            night = current_night(db)
        rows = standings(db, night=night, season=night is None, rule=rule_)
        used = rule_ or rule(db)
    if args.csv:
        write_csv(rows, sys.stdout)
        return 0
    if getattr(args, "json", False):
        print(json.dumps({"night": night, "league_points": list(used), "standings": rows}))
        return 0
    print("%s; league points: %d a match won, %d a round won" % (
        "season (every round)" if night is None else "night %s" % night["name"]
        if night["id"] is None else "night %d %r" % (night["id"], night["name"]), *used))
    if not rows:
        print("no rounds yet%s" % ("" if night is None else " in this night"))
        return 0
    cols = [_HEAD] + [[d["player"]] + [("%.1f" % d[k]) if k == "avg_points" else str(d[k])
                                       for k in KEYS[1:]] for d in rows]
    wide = [max(_width(c[i]) for c in cols) for i in range(len(_HEAD))]
    for c in cols:
        print("  ".join([c[0] + " " * (wide[0] - _width(c[0]))] +
                        [c[i].rjust(wide[i]) for i in range(1, len(c))]))
    return 0


def _width(text):
    """Columns a name takes on a terminal: 李伟 takes four."""
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def write_csv(rows, out):
    """For spreadsheets (Excel opens it right): UTF-8 with a BOM, CRLF, one header row, plain
    numbers."""
    import csv
    import io
    from unotable.ui import sheet_cell
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(KEYS)
    for d in rows:
        w.writerow([sheet_cell(d[k]) for k in KEYS])
    data = ("\ufeff" + buf.getvalue()).encode("utf-8")
    raw = getattr(out, "buffer", None)
    if raw is not None:
        out.flush()
        raw.write(data)
        raw.flush()
    else:
        out.write(data.decode("utf-8"))
