"""What the hub answers over the serial link (link/server.py calls these; docs/protocol.md)."""
from gamelog import INPUT
from uno.cards import Registry

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_RULE = const(7)
_P_LOBBY = const(0)
_P_DEALER = const(2)
_P_ROUND_OVER = const(6)
_P_MATCH_OVER = const(7)
_R_LOCKED = const(29)
_REJECT = const(25)
# -- end of codes --

class LinkHandler:
    def __init__(self, hub, deck_path=None):
        self.hub = hub
        self.deck = deck_path

    def hello(self):
        from hub.app import VERSION
        return {"fw": VERSION, "board": self.hub.board.info()["name"]}

    def status(self):
        """The table in short: it must fit one frame (the `status` line command has it all)."""
        h = self.hub
        t = h.table
        return {
            "phase": t.phase, "round": t.round, "turn": t.turn, "dealer": t.dealer,
            "colour": t.colour, "top": t.top, "pending": t.pending,
            "seats": [[s, len(t.hands[s]), t.scores[s], t.owes(s)] for s in t.seats],
            "next_seq": h.seq + 1, "board": h.board.info()["name"], "rules": t.rules.changed(),
            # enrolling: how many tags were read, and the last few (a frame holds ~50)
            "enroll": [len(h.enrolling), h.enrolling[-8:]] if h.enrolling is not None else None,
            "enroll_twice": h.enroll_twice, "wall": h.wall, "now": h.board.now(),
        }

    def records(self, seq):
        for r in self.hub.log.read_from(seq):
            if r[1] == INPUT:
                yield r[0], r[2], r[3], r[4]

    def registry(self):
        return self.hub.table.registry

    def _between_rounds(self, what):
        ph = self.hub.table.phase
        if ph != _P_LOBBY and ph != _P_DEALER and ph != _P_ROUND_OVER and ph != _P_MATCH_OVER:
            raise ValueError("%s is locked while a round is on: change it after the round" % what)

    def set_registry(self, uids):
        self._between_rounds("the deck")
        reg = Registry(uids)               # ValueError names a UID enrolled twice
        if self.deck:
            tmp = self.deck + ".new"
            with open(tmp, "wb") as f:
                f.write(reg.blob)
            import os
            os.rename(tmp, self.deck)       # atomic: a cut leaves the old deck or the new
        self.hub.table.registry = reg

    def set_rule(self, name, value):
        evs = self.hub.feed((_IN_RULE, name, value))
        if evs and evs[0][0] == _REJECT:
            raise ValueError(_why_rule(evs[0][1]))

    def set_clock(self, seconds):
        # kept in RAM and reported by status: the host anchors this boot's ms to wall time;
        # a log record would take a seq that is no table input
        self.hub.wall = (seconds, self.hub.board.now())

    def enroll(self, on):
        self.hub.enrolling = [] if on else None
        self.hub.enroll_twice = None

    def prune(self, upto):
        return {"pruned": self.hub.log.prune(upto)}


def _why_rule(code):
    if code == _R_LOCKED:
        return "rules are locked while a round is on: set them after the round"
    return "no such setting, or a value it does not take (see `unotable rules`)"
