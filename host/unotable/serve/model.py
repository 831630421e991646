"""What the scoreboard shows of a table, worked out from its replayed log: public facts only.

A hand is never shown, only its size: the engine knows every card, so whatever leaves here is
chosen field by field (never a whole state snapshot), and the events that name a card in a
hand (deal, draw, a rejected card, a card put back) are told without it.
"""
import re
import sqlite3
import time
from collections import deque

from uno.cards import COLOURS, played_name
from uno.events import (CARD_BACK, DEAL, DRAW, PENALTY, PLAYER, REJECT, ROUND, ROUND_OVER,
                        UNDO, W_CAUGHT)
from uno.names import PHASES, WHY
from uno.narrate import says
from uno.record import Counted, Replay
from uno.words import REASONS

from unotable.link import reader_health
from unotable.players import badge_names, display, who

LINES = 8               # narrated events kept per table
_SEAT = re.compile(r"\bseat (\d+)\b")


def _place(p):
    return ("the shoe", "the discard pile", "aside")[(p > 10) + (p > 11)] if p == 0 or p > 10 \
        else "a hand"


def public_say(ev, said):
    """said (uno.narrate's line for ev), with the card left out where it would show one in a
    hand."""
    code = ev[0]
    if code == DRAW:
        return "seat %d draws a card (%s)" % (ev[1], WHY[ev[3]])
    if code == REJECT:
        who_ = (" seat %d" % ev[2]) if ev[2] else ""
        return "REJECTED%s: %s" % (who_, REASONS[ev[1]])
    if code == CARD_BACK:
        return "a card goes back from %s to %s" % (_place(ev[2]), _place(ev[3]))
    return said


class Board:
    """One table: its replay, the last events in words, and what the referee must look at.

    replay() takes stored script lines; view() is the page's JSON of the table. Names come
    from the seat's player (a name the host gave, or a badge known in the host database)."""

    def __init__(self, key, label, registry=None, badges=None):
        self.key = key                    # the host's id for the table
        self.label = label or key
        self.run = Replay(registry=registry)
        self.badges = badges or {}
        self.seq = 0
        self.lines = deque(maxlen=LINES)
        self.connected = False
        self.why = "not connected yet"     # when not connected: the one line why
        self.port = ""
        self.notice = None
        self.fault = None
        self.readers = None      # the last reader health the table reported
        # each round's end: (players, winner, points, {player: UNOs forgotten}, when)
        self.rounds_over = []
        self._forgot = {}
        self._done = Counted()   # the round's accepted inputs: whose catch each counted

    @property
    def table(self):
        if self.run.table is None:     # nothing replayed yet: the table as it starts
            self.run._start()
        return self.run.table

    def who(self, seat):
        """Seat's player name, else "seat N"."""
        if not seat:
            return None
        t = self.table
        w = who(t.players[seat]) if 0 < seat < len(t.players) else None
        return display(None, w[0], w[1], self.badges) if w else "seat %d" % seat

    def player(self, seat):
        """Who the standings count: the seat's player, else the seat at this table (seat 3
        here is not seat 3 at the next table)."""
        n = self.who(seat)
        return n if n != "seat %d" % seat else "%s @ %s" % (n, self.label)

    def words(self, text):
        return _SEAT.sub(lambda m: self.who(int(m.group(1))), text)

    def replay(self, lines):
        """Feeds stored script lines; returns the attention items they raised, oldest first."""
        items = []
        for seq, inp, evs in self.run.run(lines):
            self.seq = seq
            items += self._feed(seq, evs)
        return items

    def _feed(self, seq, evs):
        items = []
        t = self.table
        caught = []
        over = False
        said = says(evs)
        for i, ev in enumerate(evs):
            code = ev[0]
            if code == DEAL:
                continue                   # a deal is 7 lines a seat: the hand sizes say it
            if code == PLAYER:            # "seat 3 is Li Wei" would read "Li Wei is Li Wei"
                text = "%s sits at seat %d" % (self.who(ev[1]), ev[1]) if ev[2] is not None \
                    else "seat %d has no player named" % ev[1]
            else:
                text = self.words(public_say(ev, said[i]))
            self.lines.append(text)
            if code == REJECT:
                items.append(self._item(seq, ev[2], "rejected: %s" % REASONS[ev[1]], "reject"))
            elif code == PENALTY:
                items.append(self._item(seq, ev[1], "penalty, draws %d: %s" % (
                    ev[2], WHY[ev[3]]), "penalty"))
                if ev[3] == W_CAUGHT:
                    n = self.player(ev[1])
                    self._forgot[n] = self._forgot.get(n, 0) + 1
                    caught.append(n)
            elif code == UNDO:
                items.append(self._item(seq, 0, "take-back: the last %d input%s" % (
                    ev[1], "" if ev[1] == 1 else "s"), "undo"))
                for counted in self._done.undo(ev[1]):  # a catch taken back: no UNO was
                    for n in counted:                     # forgotten
                        self._forgot[n] -= 1
            elif code == ROUND:
                self._forgot = {}
            elif code == ROUND_OVER:
                names = [self.player(s) for s in t.seats]
                self.rounds_over.append((names, self.player(ev[1]), ev[2],
                                         dict((n, k) for n, k in self._forgot.items() if k),
                                         time.time()))
                over = True
        if over:
            self._done.round_over()
        else:
            self._done.keep(evs, caught)
        return items

    def _item(self, seq, seat, what, kind):
        return {"table": self.label, "key": self.key, "seq": seq, "seat": seat or None,
                "who": self.who(seat) if seat else None, "what": what, "kind": kind,
                "at": time.time()}

    def status_items(self, status, gaps):
        """Attention items from a table's status (a fault, damage) and the log's gaps the
        host found at sync; each is raised once."""
        items = []
        fault = status.get("fault") if isinstance(status, dict) else None
        if fault and fault != self.fault:
            items.append(self._item(self.seq, 0, "table fault: %s" % fault, "fault"))
        self.fault = fault
        items += self._reader_items(status)
        warn = status.get("warn") if isinstance(status, dict) else None
        # the log's notices only: after a take-back the table's display names the card that
        # goes back, and to a hand ("R7 to seat 2")
        self.notice = warn if isinstance(warn, str) and warn.lower().startswith("log") \
            else None
        for g in gaps:
            items.append(self._item(g[0], 0, "log damage: seqs %d..%d are not in the table's "
                                    "log (%s)" % tuple(g), "damage"))
        return items

    def _reader_items(self, status):
        """A reader that went down or up, read errors, two cards in its field at once: each
        change once (the table's status: [up, errors, two cards] for the PLAY pad, the shoe)."""
        items = []
        old = self.readers
        health = reader_health(status)
        if health is None:
            return items
        for i, (where, up, errors, two) in enumerate(health):
            was = old[i] if old else [1, 0, 0]
            if up != was[0]:
                items.append(self._item(self.seq, 0, "%s reader %s" % (
                    where, "is down: its cards are not read" if not up else "is back"),
                    "reader"))
            if errors > was[1]:
                items.append(self._item(self.seq, 0, "%s reader: %d read error%s" % (
                    where, errors - was[1], "" if errors - was[1] == 1 else "s"), "reader"))
            if two > was[2]:
                items.append(self._item(self.seq, 0, "%s reader: two cards in its field at "
                                        "once: one at a time" % where, "reader"))
        self.readers = status["readers"]   # as sent: the watcher compares the next one to it
        return items

    def view(self):
        """The page's JSON of this table: whose turn, direction, top card and colour, hand
        sizes by name, an open UNO window, the last events. No card of any hand."""
        t = self.table
        seats = [{"seat": s, "who": self.who(s), "cards": len(t.hands[s]),
                  "score": t.scores[s], "turn": s == t.turn} for s in t.seats]
        return {
            "key": self.key, "label": self.label, "port": self.port,
            "connected": self.connected, "why": None if self.connected else self.why,
            "seq": self.seq, "phase": PHASES[t.phase].replace("_", " "), "round": t.round,
            "turn": self.who(t.turn) if t.turn else None,
            "direction": "clockwise" if t.dir > 0 else "counter-clockwise",
            "top": played_name(t.top, t.colour) if t.top >= 0 else None,
            "colour": COLOURS[t.colour] if t.colour >= 0 else None,
            "uno": {"who": self.who(t.window), "called": bool(t.called)} if t.window else None,
            "seats": seats, "lines": list(self.lines), "notice": self.notice,
            "winner": self.who(t.winner) if t.winner else None,
        }


def refresh_badges(store):
    """{uid: name} of the badges the host knows (read again at each sync: new ones show)."""
    try:
        return badge_names(store)
    except sqlite3.Error:   # a database that cannot say: names show as badges until it can
        return {}


def tally(boards):
    """Standings and chart series from the rounds the boards replayed: the chart's series
    when no night is on. Official scoring: the winner takes the points."""
    rows = {}
    series = []

    def row(n):
        return rows.setdefault(n, {"player": n, "rounds": 0, "rounds_won": 0, "points": 0,
                                   "unos_forgotten": 0})
    for b in boards:
        for names, winner, points, forgotten, at in b.rounds_over:
            for n in names:
                row(n)["rounds"] += 1
            row(winner)["rounds_won"] += 1
            row(winner)["points"] += points
            for n, k in forgotten.items():
                row(n)["unos_forgotten"] += k
            series.append({"player": winner, "table": b.label, "round_points": points,
                           "at": at})
    series.sort(key=lambda r: r["at"])
    out = sorted(rows.values(), key=lambda r: (-r["points"], -r["rounds_won"], r["player"]))
    return out, series
