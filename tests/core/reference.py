"""A small reference of the official rules, written apart from table.py, that follows a table's
event stream and says where the table went wrong.

It knows the deck (face bytes), the seats, the settings of the official rules and their
options (direction, start card, draw one/until, forced play, W4 modes, last card, UNO window);
it keeps its own hands, top card, colour, direction and turn, and from them checks each event:
who may play what (T1, T2, T5, C1 enforce), whose turn comes next (S4, T2, T3), how many
cards a D, a W4, a challenge or a catch costs and who draws them (T3, C1, U2), and the score.
It does not know the house rules (H*, M3, M4, P1, P2, U3, U4): use it on official tables.
"""
from uno.cards import DECK, points
from uno.events import *

_S, _R, _D, _W, _W4 = 10, 11, 12, 13, 14


def _rank(card):
    return DECK[card] & 15


def _col(card):
    return DECK[card] >> 4


class Reference:
    def __init__(self, rules, seats):
        self.rules = rules
        self.seats = sorted(seats)
        self.hands = dict((s, []) for s in self.seats)
        self.shoe = self.pile = 0
        self.in_play = False
        self.expect = self.turn = 0  # the seat the next `turn` event must name; the turn
        self.pend = None             # [seat, n]: a D's or W4's draws (T3, C1)
        self.debt = {}               # seat -> penalty draws (U2, C1)
        self.held = -1               # card drawn this turn that may still be played (T2)
        self.wanted = 0
        self.skipped = 0
        self.won = 0

    def after(self, seat, k=1):
        order = self.seats
        return order[(order.index(seat) + k * self.dir) % len(order)]

    def legal(self, seat, card):
        """T1 (with T5's option and C1's enforce): may seat play card on the pile now?"""
        r = _rank(card)
        hand = self.hands[seat]
        if self.rules.last_card == "no_srw" and len(hand) == 1 and r in (_S, _R, _W):
            return False
        if r == _W:
            return True
        if r == _W4:
            if self.rules.w4 != "enforce":
                return True
            return not [c for c in hand if c != card and _col(c) == self.colour]
        return _col(card) == self.colour or r == _rank(self.top)

    def dry(self):
        return self.shoe == 0 and self.pile <= 1

    def see(self, ev):
        code = ev[0]
        if code == SHUFFLE:
            self.shoe = ev[1]
            self.pile = 1 if self.in_play else 0
        elif code == DRAWOFF:
            self.shoe -= 1
        elif code == ROUND:
            self.dealer = ev[2]
            self.dir = 1 if self.rules.direction == "cw" else -1
            self.hands = dict((s, []) for s in self.seats)
            self.next_deal = self.after(self.dealer)
            self.pend = None
            self.debt = {}
            self.held = -1
            self.window = 0
            self.won = 0
        elif code == DEAL:
            assert ev[1] == self.next_deal, ("deal", ev, self.next_deal)
            self.hands[ev[1]].append(ev[2])
            self.next_deal = self.after(ev[1])
            self.shoe -= 1
        elif code == BACK:
            r = _rank(ev[1])
            assert r == _W4 or (r > 9 and self.rules.start_card == "number"), ev
        elif code == START:
            self.in_play = True
            self.shoe -= 1
            self.pile = 1
            self.start(ev[1])
        elif code == PLAY:
            self.pile += 1
            self.play(ev[1], ev[2])
        elif code == WANT:
            assert ev[1] == self.wanted, ("colour wanted", ev, self.wanted)
        elif code == COLOUR:
            assert ev[1] == self.wanted, ("colour", ev, self.wanted)
            self.colour = ev[2]
            self.wanted = 0
            if self.wants_move:
                self.expect = self.after(ev[1])
                if _rank(self.top) == _W4:
                    self.pend = [self.expect, 4]
                    self.w4 = ev[1] if self.rules.w4 == "challenge" else 0
        elif code == OWE:
            assert self.pend == [ev[1], ev[2]], ("owe", ev, self.pend)
        elif code == DRAW:
            self.shoe -= 1
            self.draw(ev[1], ev[2], ev[3])
        elif code == PASS:
            assert ev[1] == self.turn and (self.held >= 0 or self.dry()), ("pass", ev)
            self.held = -1
            self.expect = self.after(ev[1])
        elif code == TURN:
            assert ev[1] == self.expect, ("turn", ev[1], "expected", self.expect)
            self.turn = ev[1]
            self.held = -1
        elif code == SKIP:
            assert ev[1] == self.skipped, ("skip", ev, self.skipped)
        elif code == UNO_OPEN:
            assert len(self.hands[ev[1]]) == 1 or self.rules.uno_identical == "yes", ev
            self.window = ev[1]
        elif code == UNO_CLOSE:
            self.window = 0
        elif code == CATCH:
            assert ev[2] == self.window and ev[1] != ev[2], ("catch", ev)
        elif code == PENALTY:
            self.penalty(ev[1], ev[2], ev[3])
        elif code == CHALLENGE:
            self.challenge(ev[1], ev[2], ev[3])
        elif code == WAIVE:
            self.waive(ev[1], ev[2])
        elif code == ROUND_OVER:
            w = ev[1]
            assert not self.pend and not self.debt, ("round over with draws owed", self.pend)
            pts = sum(points(c) for s in self.seats if s != w for c in self.hands[s])
            assert ev[2] == pts, ("points", ev, pts)
            self.in_play = False
        elif code in (JUMP, ROTATE, SLAP_OPEN, SLAP, OUT, SUM_WIN, TIMER_WARN):
            raise AssertionError("a house rule's event at an official table: %r" % (ev,))

    def start(self, card):
        """S4: what the start card does to the first player."""
        r = _rank(card)
        self.top = card
        self.colour = _col(card)
        self.wanted = 0
        self.w4 = 0
        d = self.dealer
        if r == _W4:        # only when no other card could start (a way forward): as a W
            r = _W
        if r == _W:
            self.expect = self.after(d)
            self.wanted = self.expect
            self.wants_move = False
        elif r == _S or (r == _R and len(self.seats) == 2):
            self.skipped = self.after(d)
            self.expect = self.after(d, 2)
        elif r == _R:
            self.dir = -self.dir
            self.expect = d if self.rules.start_reverse == "dealer" else self.after(d)
        else:
            self.expect = self.after(d)
            if r == _D:
                self.pend = [self.expect, 2]

    def play(self, seat, card):
        assert seat == self.turn, ("played out of turn", seat, self.turn)
        assert not self.pend and not self.debt, ("played while draws are owed", seat)
        assert self.held < 0 or card == self.held, ("not the card just drawn", card)
        assert self.legal(seat, card), ("illegal play", seat, card, self.top, self.colour)
        r = _rank(card)
        if r == _W4:  # C1: judged from the hand it was played from
            self.w4_illegal = [c for c in self.hands[seat] if c != card and
                               _col(c) == self.colour] != []
        self.hands[seat].remove(card)
        self.top = card
        self.held = -1
        self.w4 = 0
        if not self.hands[seat]:
            # T5: the round is won; a D or W4 still makes the next seat draw, for the score
            self.won = seat
            if r == _D or r == _W4:
                self.expect = self.after(seat)
                self.pend = [self.expect, 2 if r == _D else 4]
            if r < _W:
                self.colour = _col(card)
            return
        if r >= _W:
            self.wanted = seat
            self.wants_move = True
            return
        self.colour = _col(card)
        if r == _S or (r == _R and len(self.seats) == 2):
            self.skipped = self.after(seat)
            self.expect = self.after(seat, 2)
        elif r == _R:
            self.dir = -self.dir
            self.expect = self.after(seat)
        else:
            self.expect = self.after(seat)
            if r == _D:
                self.pend = [self.expect, 2]

    def draw(self, seat, card, why):
        if why == W_TURN:
            assert seat == self.turn and not self.pend and not self.debt and self.held < 0, \
                ("draw", seat)
            if self.rules.forced == "yes":  # judged on the hand before the draw
                fits = [c for c in self.hands[seat] if self.legal(seat, c)]
                assert not fits, ("drew while holding a card to play", seat)
        self.hands[seat].append(card)
        if why == W_TURN:
            if self.legal(seat, card):
                self.held = card
            elif self.rules.draw != "until":
                self.expect = self.after(seat)
            return
        if why in (W_DRAW2, W_DRAW4, W_W4_LEGAL):
            assert not self.debt, "penalties are drawn first"
            assert self.pend and self.pend[0] == seat, ("drew what it did not owe", seat, why)
            self.pend[1] -= 1
            if self.pend[1] == 0:
                self.pend = None
                self.lost_turn(seat)
            return
        assert self.debt.get(seat, 0) > 0, ("drew a penalty it did not owe", seat, why)
        self.debt[seat] -= 1
        if not self.debt[seat]:
            del self.debt[seat]

    def lost_turn(self, seat):
        """T3: a D's or W4's victim loses its turn once it has drawn (unless the round is won)."""
        if not self.won:
            self.skipped = seat
            self.expect = self.after(seat)

    def penalty(self, seat, n, why):
        if why == W_W4_LEGAL:
            assert n == 2 and self.pend[0] == seat, ("a failed challenge costs 2 more", n)
            self.pend[1] += n
            return
        if why == W_CAUGHT:
            assert n == 2, ("a catch costs 2", n)
        elif why == W_W4_ILLEGAL:
            assert n == self.pending_was, ("an illegal W4 costs what was owed", n)
        else:
            raise AssertionError("a penalty the official rules do not have: %r" % (why,))
        self.debt[seat] = self.debt.get(seat, 0) + n

    def challenge(self, seat, against, verdict):
        assert against == self.w4 and seat == self.turn and self.pend[0] == seat, ("challenge",)
        assert self.pend[1] == 4, "a challenge comes before any draw"
        assert verdict == (V_ILLEGAL if self.w4_illegal else V_LEGAL), ("verdict", verdict)
        self.w4 = 0
        if verdict == V_ILLEGAL:
            self.pending_was = self.pend[1]   # the W4's player draws it; the challenger plays
            self.pend = None

    def waive(self, seat, n):
        """T4: draws no card is left for (penalties first, then a D's or W4's)."""
        assert self.dry(), "waived while cards are left"
        if self.debt.get(seat, 0):
            assert self.debt[seat] >= n, ("waive", seat, n, self.debt)
            self.debt[seat] -= n
            if not self.debt[seat]:
                del self.debt[seat]
            return
        assert self.pend == [seat, n], ("waive", seat, n, self.pend)
        self.pend = None
        self.lost_turn(seat)
