"""Players (issue 12): names, their NFC badges, and the names of a table's seats.

The table logs who sits where (uno.events PLAYER: a badge's UID tapped in the lobby, or a name
the host gave with `unotable seat`); the host keeps which badge is whose, in the same SQLite
file as the logs:

    players(name TEXT PRIMARY KEY, uid TEXT UNIQUE)   uid: the badge's UID, hex; NULL: none

A badge enrolled after the night still names its rounds: names are looked up when shown,
never written into the log.
"""
import json
import sqlite3
import time
from binascii import hexlify, unhexlify

from uno.cards import synthetic_registry
from uno.table import good_name
from unotable.errors import NotFound, UnotableError, UsageError
from unotable.ui import plural

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    uid TEXT UNIQUE
);
"""


def _ready(store):
    if not store.readonly:
        store.db.executescript(_SCHEMA)


def _rows(store, sql, args=()):
    try:
        return store.db.execute(sql, args).fetchall()
    except sqlite3.OperationalError:   # a read-only file from before players: none yet
        return []


def badge_names(store):
    """{uid hex: name} of every enrolled badge."""
    return dict(_rows(store, "SELECT uid, name FROM players WHERE uid IS NOT NULL"))


def display(store, kind, value, names=None):
    """A seat's player as people know them: "uid": the badge's name (or "badge 04a1b2c3"),
    "name": the name itself. names: badge_names(store), when many are looked up."""
    if kind == "name":
        return value
    if names is None:
        names = badge_names(store)
    return names.get(value) or "badge " + value[:8]


def who(binding):
    """A Table.players entry as (kind, value): ("uid", hex), ("name", text), or None."""
    if binding is None:
        return None
    if isinstance(binding, str):
        return "name", binding
    return "uid", hexlify(binding).decode()


def seat_names(store, table):
    """{seat: name} of a replayed uno.table.Table's named seats."""
    names = badge_names(store)
    out = {}
    for s, b in enumerate(table.players):
        w = who(b)
        if w is not None:
            out[s] = display(store, w[0], w[1], names)
    return out


def _name(text):
    text = (text or "").strip()
    if not good_name(text):
        raise UsageError("a player's name is 1 to 24 bytes of printable text: %r" % text)
    return text


def _uid(text):
    t = (text or "").strip().lower().replace(":", "")
    try:
        u = unhexlify(t)
    except ValueError:
        u = b""
    if len(u) not in (4, 7, 10):
        raise UsageError("a badge UID is 4, 7 or 10 bytes in hex (e.g. 04a1b2c3d4e5f6): %r"
                         % text)
    if synthetic_registry().card(u) >= 0:
        raise UsageError("%s is a card of the deck, not a badge" % t)
    return t


def add(store, name, uid=None):
    name = _name(name)
    _ready(store)
    if uid is not None:
        owner = store.db.execute("SELECT name FROM players WHERE uid = ?", (uid,)).fetchone()
        if owner and owner[0] != name:
            raise UsageError("badge %s is %s's already: `unotable players remove %s` first"
                             % (uid, owner[0], owner[0]))
    with store.db:
        if uid is None:
            store.db.execute("INSERT OR IGNORE INTO players(name) VALUES (?)", (name,))
        else:
            store.db.execute("INSERT INTO players(name, uid) VALUES (?, ?) ON CONFLICT(name) "
                             "DO UPDATE SET uid = excluded.uid", (name, uid))
    return name


def remove(store, name):
    _ready(store)
    with store.db:
        if not store.db.execute("DELETE FROM players WHERE name = ?", (name,)).rowcount:
            raise NotFound("no player %r: `unotable players list` names them" % name)


def listed(store):
    return _rows(store, "SELECT name, uid FROM players ORDER BY name")


# ---- commands -------------------------------------------------------------------------------

def cmd_players(args):
    from unotable.nights import _store
    if args.action == "list":
        with _store(args, readonly=True) as db:
            rows = listed(db)
        if args.json:
            print(json.dumps([{"name": n, "uid": u} for n, u in rows], ensure_ascii=False))
        elif not rows:
            print("no players yet: `unotable players add NAME` enrols one")
        for n, u in rows if not args.json else ():
            print("%-24s %s" % (n, "badge " + u if u else "no badge"))
        return 0
    if not args.name:
        raise UsageError("players %s needs a NAME" % args.action)
    with _store(args) as db:
        if args.action == "remove":
            remove(db, args.name)
            print("removed %s" % args.name)
            return 0
        name = _name(args.name)
        uid = _uid(args.uid) if args.uid else None
        if uid is None and not args.no_badge:
            uid = _tapped(args, db)
        add(db, name, uid)
    print("%s%s" % (name, " has badge %s" % uid if uid else " (no badge)"))
    return 0


def _tapped(args, db):
    """The next badge tapped on the table's PLAY pad: a tag that is no card of its deck."""
    from unotable import commands
    from unotable.nights import connected_table
    with commands.connect(args) as link:
        hello = link.hello()
        tid = connected_table(db, link, hello)
        db.sync(tid, link)
        reg = db.registry(tid) if db.has_registry(tid) else synthetic_registry()
        nxt = db.next_seq(tid)
        print("tap the badge on the table's PLAY pad (%s)" % plural(int(args.wait), "second"))
        end = time.monotonic() + args.wait
        while time.monotonic() < end:
            time.sleep(0.3)
            db.sync(tid, link)
            for seq, _t, _wall, d in db.inputs(tid, nxt):
                nxt = seq + 1
                if d.get("in") == "pad" and "uid" in d:
                    u = unhexlify(d["uid"])
                    if reg.card(u) < 0:
                        return d["uid"]
    raise UnotableError("no badge was tapped in %s: run it again, or give --uid" %
                        plural(int(args.wait), "second"))


def cmd_seat(args):
    """Names a joined seat's player (the lobby only): logged, so every record shows it."""
    from unotable import commands
    from unotable.link import Refused
    name = _name(args.name)
    try:
        with commands.connect(args) as link:
            link.set_player(args.seat, name)
    except Refused as e:
        raise UnotableError("the table did not name seat %d: %s" % (args.seat, e.reason or e)) \
            from None
    print("seat %d is %s" % (args.seat, name))
    return 0
