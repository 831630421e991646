"""State JSON (docs/formats.md): a snapshot of the table that loads back into an equal table.

`where` holds every card's place, one character per physical card in canonical order:
's' shoe, 'p' discard pile, 'x' set aside, '1'..'9' and 'A' the hand of seat 1..10.
"""
from binascii import hexlify, unhexlify

from uno.cards import COLOURS, NCARDS, name, played_name
from uno.names import PHASES, WHY
from uno.rules import Settings
from uno.table import Table, SHOE, PILE, MAX_SEAT

_PLACES = "s123456789Apx"
_LETTERS = _PLACES.encode()  # (_where)


def _opt_card(c):
    return name(c) if c >= 0 else None


def _players(t):
    """[[seat, "uid", hex] or [seat, "name", name], ...] by seat (issue 12)."""
    out = []
    p = t.players
    for s in range(1, len(p)):
        w = p[s]
        if w is not None:
            out.append([s, "name", w] if type(w) is str else [s, "uid", hexlify(w).decode()])
    return out


def _where(t):
    # (a join of one-letter texts keeps them all in a list first: 1 KB on the 64-bit port)
    b = bytearray(NCARDS)
    loc = t.loc
    for c in range(NCARDS):
        b[c] = _LETTERS[loc[c]]
    return str(b, "ascii")


def snapshot(t):
    """The state of table t as a JSON-ready dict."""
    return dict(fields(t))


def fields(t):
    """snapshot(t)'s (name, value) pairs, one at a time: the hub writes a round's snapshot
    to its log from them, with no dict of them all (hub.app.json_pieces)."""
    seats = []
    for s in t.seats:
        seats.append({
            "seat": s,
            "hand": [name(c) for c in sorted(t.hands[s])],
            "score": t.scores[s],
            "owes": t.owes(s),
        })
    yield "phase", PHASES[t.phase]
    yield "round", t.round
    yield "dealer", t.dealer
    yield "turn", t.turn
    yield "direction", "cw" if t.dir > 0 else "ccw"
    yield "colour", COLOURS[t.colour] if t.colour >= 0 else None
    yield "top", played_name(t.top, t.colour) if t.top >= 0 else None
    yield "pending", t.pending
    yield "pending_why", WHY[t.pending_why]
    yield "debts", [[d[0], d[1], WHY[d[2]]] for d in t.debts]
    yield "drawn", _opt_card(t.drawn)
    yield "colour_wanted", t.want
    yield "want_moves", t.want_moves
    yield "uno_window", t.window
    yield "uno_called", t.called
    yield "uno_late", t.late
    yield "challenge", t.w4_from
    yield "w4_illegal", t.w4_illegal
    yield "shoe", t.shoe
    yield "pile", t.pile
    yield "winner", t.winner
    yield "seats", seats
    yield "settings", t.rules.as_dict()
    yield "where", _where(t)
    yield "top_card", t.top              # exact physical cards, for loading back
    yield "drawn_card", t.drawn
    yield "last", t.last
    yield "dealt", t.dealt
    yield "drawoff", [t.offs, list(t.off_rank)]
    yield "active", t.active
    yield "outs", t.finished
    yield "leaving", t.leaving
    yield "laid", t.laid
    yield "answerable", t.answerable
    yield "stackable", t.stackable
    yield "reshuffle", t.due
    yield "dry", t.dry
    yield "thin", t.thin
    yield "stack", t.stack
    yield "caught", t.caught
    yield "chain", [t.chain, t.skips]
    yield "slap", t.slap
    yield "sum_to", t.sum_to
    yield "sum_by", t.sum_by
    yield "clock", [t.clock, t.since, t.warned]
    yield "players", _players(t)
    yield "naming", t.naming


def load(d, registry=None):
    """A Table in the state a snapshot describes (round boundaries and mid-round alike)."""
    t = Table(Settings(d["settings"]), registry)
    t.phase = PHASES.index(d["phase"])
    t.round = d["round"]
    t.dealer = d["dealer"]
    t.turn = d["turn"]
    t.dir = 1 if d["direction"] == "cw" else -1
    c = d["colour"]
    t.colour = COLOURS.index(c) if c else -1
    t.pending = d["pending"]
    t.pending_why = WHY.index(d["pending_why"])
    t.debts = [[x[0], x[1], WHY.index(x[2])] for x in d["debts"]]
    t.want = d["colour_wanted"]
    t.want_moves = d["want_moves"]
    t.window = d["uno_window"]
    t.called = d["uno_called"]
    t.late = d.get("uno_late", 0)  # snapshots older than it
    t.w4_from = d["challenge"]
    t.w4_illegal = d["w4_illegal"]
    t.winner = d["winner"]
    t.top = d["top_card"]
    t.last = d["last"]
    t.dealt = d["dealt"]
    t.offs = list(d["drawoff"][0])
    t.off_rank = bytearray(d["drawoff"][1])
    t.finished = list(d["outs"])
    t.leaving = d["leaving"]
    t.laid = d["laid"]
    t.answerable = d["answerable"]
    t.stackable = d.get("stackable", t.answerable)  # snapshots older than these fields
    t.due = d.get("reshuffle", False)
    t.dry = d.get("dry", 0)
    t.thin = d.get("thin", 0)  # snapshots older than it
    t.stack = d["stack"]
    t.caught = d["caught"]
    t.chain, t.skips = d["chain"]
    t.slap = d["slap"]
    t.sum_to = d["sum_to"]
    t.sum_by = d.get("sum_by", 0)  # snapshots older than it
    t.clock, t.since, t.warned = d["clock"]
    for s, kind, who in d.get("players", ()):  # snapshots older than players have none
        t.players[s] = who if kind == "name" else unhexlify(who)
    t.naming = d.get("naming", 0)
    for s in d["seats"]:
        t.seats.append(s["seat"])
        t.scores[s["seat"]] = s["score"]
    t.active = list(d["active"])
    t._order()  # the turn order's tables (derived: not in the snapshot)
    if t.phase == PHASES.index("deal") and t.active:
        t.deal_to = t._after(t.dealer, 1 + t.dealt % len(t.active))
    where = d["where"]
    t.shoe = t.pile = 0
    for card in range(NCARDS):
        place = _PLACES.index(where[card])
        t.loc[card] = place
        if place == SHOE:
            t.shoe += 1
        elif place == PILE:
            t.pile += 1
        elif place <= MAX_SEAT:
            t.hands[place].append(card)
    t.drawn = d["drawn_card"]
    t.back.mark()  # take-backs reach back to here (issue 10)
    return t
