"""A thread per table, as `unotable monitor` watches one: a `status` per look, a sync only when
the table logged more, the new inputs replayed here; the news goes to the server's loop.

pyserial blocks, so each table has a thread and a database connection of its own; the asyncio
loop only ever gets finished JSON (loop.call_soon_threadsafe), never a table or a port.
"""
import threading
import time

from unotable.errors import UnotableError
from unotable.link import Link
from unotable.nights import connected_table
from unotable.store import Store

from unotable.serve.model import Board, refresh_badges

RETRY = 2.0     # seconds before a table that vanished is looked for again
# One writer at a time among the watchers: SQLite would make the others sleep in its busy
# handler (up to tens of ms a try), a lock wakes the next one as soon as the write is done.
WRITING = threading.Lock()


class Watcher(threading.Thread):
    """Watches the table on one port for as long as the server runs; post(kind, data) is
    called from this thread with each change (the server makes it thread-safe)."""

    def __init__(self, port, db, post, every=0.1, timeout=1.0, boards=None, order=0):
        super().__init__(daemon=True, name="watch " + port)
        self.port = port
        self.order = order        # the page shows the tables in the order they were given
        self.db_path = db
        self.post = post
        self.every = every
        self.timeout = timeout
        self.boards = boards if boards is not None else {}   # slot -> Board, every watcher's
        self.stop = threading.Event()
        self.board = Board(port, port)
        self.board.port = port
        self.boards[port] = self.board
        self.posted = set()       # attention items sent: a table back after a pull is not new

    def run(self):
        while not self.stop.is_set():
            try:
                self._watch()
            except (UnotableError, OSError, ValueError) as e:
                self._gone(str(e))
            except Exception as e:      # a bug must not stop the server: shown, then retried
                self._gone("unexpected error (%s: %s): a bug in unotable" % (
                    type(e).__name__, e))
            self.stop.wait(RETRY)

    def _gone(self, why):
        b = self.board
        if b.connected or b.why != why:
            b.connected = False
            b.why = why
            self.post("table", self._view())

    def _view(self):
        v = self.board.view()
        v["slot"] = self.port
        v["order"] = self.order
        return v

    def _watch(self):
        with Link.open(self.port, timeout=self.timeout, retries=1) as link, \
                Store(self.db_path) as db:
            hello = link.hello()
            key = connected_table(db, link, hello)
            link.set_clock()      # as sync does: the rounds get their date, nights their rounds
            # the status before the sync: the sync then holds at least what it counts (after
            # it, an input logged in between would count as synced and wait for the next one)
            status = link.status() or {}
            with WRITING:
                db.sync(key, link)
            gaps = set(db.gaps(key))
            b = Board(key, db.label(key) or key, db.registry(key), refresh_badges(db))
            b.port = self.port
            items = b.replay(db.script_lines(key, 1, None))
            items += b.status_items(status, sorted(gaps))
            b.connected = True
            self.board = self.boards[self.port] = b
            self._news(db, items, True)
            known = status.get("next_seq")
            while not self.stop.is_set():
                self.stop.wait(self.every)
                status = link.status() or {}
                nxt = status.get("next_seq")
                if isinstance(nxt, int) and nxt == known and status.get("fault") == b.fault \
                        and status.get("readers") in (None, b.readers):
                    continue
                if nxt != known:
                    with WRITING:
                        db.sync(key, link)
                    known = nxt
                    b.badges = refresh_badges(db)     # a badge enrolled tonight names its seat
                new = sorted(set(db.gaps(key)) - gaps)
                gaps.update(new)
                before = len(b.rounds_over)
                items = b.replay(db.script_lines(key, b.seq + 1, None))
                items += b.status_items(status, new)
                self._news(db, items, len(b.rounds_over) != before)

    def _news(self, db, items, rounds):
        self.post("table", self._view())
        fresh = []
        for it in items:
            k = (it["key"], it["kind"], it["seq"], it["what"])
            if k not in self.posted:
                self.posted.add(k)
                fresh.append(it)
        if fresh:
            self.post("attention", fresh)
        if rounds:
            with WRITING:
                st = standings(db, self.boards.values(), fill=self.board.key)
            self.post("standings", st)


def standings(db, boards, night=None, fill=None):
    """{"rows": [...], "series": [...], "source": "league", "night": ...}: the league's
    standings (fill: a table just synced, whose rounds go into the league's index first); the
    chart's series of the night, or with no night on, the scoreboard's own tally of the rounds
    it replayed."""
    from unotable import league
    from unotable.serve.model import tally
    if fill is not None:
        league.refresh(db, fill)
    elif db.readonly:
        league.refresh_all(db)
    if night is None:
        cur = league.current_night(db)
        night = cur["id"] if cur else None
    rows = league.standings(db, night=night, season=night is None)
    series = league.night_series(db, night) if night is not None else tally(list(boards))[1]
    return {"rows": rows, "series": series, "source": "league", "night": night}


def stop_all(watchers, wait=2.0):
    for w in watchers:
        w.stop.set()
    end = time.monotonic() + wait
    for w in watchers:
        w.join(max(0.0, end - time.monotonic()))
