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


def snapshot(t):
    """The state of table t as a JSON-ready dict."""
    seats = []
    for s in t.seats:
        seats.append({
            "seat": s,
            "hand": [name(c) for c in sorted(t.hands[s])],
            "score": t.scores[s],
            "owes": t.owes(s),
        })
    return {
        "phase": PHASES[t.phase],
        "round": t.round,
        "dealer": t.dealer,
        "turn": t.turn,
        "direction": "cw" if t.dir > 0 else "ccw",
        "colour": COLOURS[t.colour] if t.colour >= 0 else None,
        "top": played_name(t.top, t.colour) if t.top >= 0 else None,
        "pending": t.pending,
        "pending_why": WHY[t.pending_why],
        "debts": [[d[0], d[1], WHY[d[2]]] for d in t.debts],
        "drawn": _opt_card(t.drawn),
        "colour_wanted": t.want,
        "want_moves": t.want_moves,
        "uno_window": t.window,
        "uno_called": t.called,
        "uno_late": t.late,
        "challenge": t.w4_from,
        "w4_illegal": t.w4_illegal,
        "shoe": t.shoe,
        "pile": t.pile,
        "winner": t.winner,
        "seats": seats,
        "settings": t.rules.as_dict(),
        "where": "".join(_PLACES[t.loc[c]] for c in range(NCARDS)),
        "top_card": t.top,              # exact physical cards, for loading back
        "drawn_card": t.drawn,
        "last": t.last,
        "dealt": t.dealt,
        "drawoff": [t.offs, list(t.off_rank)],
        "active": t.active,
        "outs": t.finished,
        "leaving": t.leaving,
        "laid": t.laid,
        "answerable": t.answerable,
        "stackable": t.stackable,
        "reshuffle": t.due,
        "dry": t.dry,
        "thin": t.thin,
        "stack": t.stack,
        "caught": t.caught,
        "chain": [t.chain, t.skips],
        "slap": t.slap,
        "sum_to": t.sum_to,
        "sum_by": t.sum_by,
        "clock": [t.clock, t.since, t.warned],
        "players": _players(t),
        "naming": t.naming,
    }


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
