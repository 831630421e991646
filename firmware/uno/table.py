"""The referee: a deterministic function of (settings, registry, table inputs) -> events.

Table.feed(input) judges one table input and returns the events it decided. The state is the
replay of the inputs: nothing here reads a clock, a pin or a file. An input that does not fit
is answered by a single `reject` event and leaves the state untouched (P1's optional cost aside).

Where every card is: loc[card] is SHOE, a seat 1..10 (its hand), PILE (discard) or ASIDE.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from uno.cards import DECK, NCARDS, WILD, RANK_SKIP, RANK_REVERSE, RANK_DRAW2, RANK_WILD, RANK_WILD4, points
from uno.events import *  # noqa: F401,F403  (codes are consts; the star keeps call sites short)
from uno.rules import Settings

SHOE = const(0)
PILE = const(11)
ASIDE = const(12)
MAX_SEAT = const(10)


class Table:
    def __init__(self, settings=None, registry=None):
        if registry is None:
            from uno.cards import synthetic_registry
            registry = synthetic_registry()
        self.rules = settings or Settings()
        self.registry = registry
        self.out = []
        self.seats = []          # joined seats in clockwise order (ascending numbers)
        self.scores = [0] * (MAX_SEAT + 1)
        self.round = 0
        self.dealer = 0
        self.winner = 0
        self.phase = P_LOBBY
        self._reset_round()

    def _reset_round(self):
        self.loc = bytearray(NCARDS)            # all in the shoe
        self.hands = [[] for _ in range(MAX_SEAT + 1)]
        self.shoe = NCARDS
        self.pile = 0                            # cards on the discard pile
        self.top = -1
        self.colour = -1
        self.dir = 1 if self.rules.direction == "cw" else -1
        self.turn = 0
        self.pending = 0          # draws the turn seat owes before it is skipped (D, W4)
        self.pending_why = 0
        self.debts = []           # [seat, n, why]: penalty draws, paid first, in order
        self.drawn = -1           # card drawn this turn that may still be played (T2)
        self.want = 0             # seat that must name a colour
        self.want_moves = False   # whether naming it ends that seat's turn
        self.window = 0           # seat whose UNO window is open (U1)
        self.called = False
        self.w4_from = 0          # seat whose W4 the turn seat may still challenge (C1)
        self.w4_illegal = False
        self.dealt = 0
        self.last = -1            # last card read at the shoe (a double read names it)
        self.offs = []            # draw-off: seats still to draw, and the best so far
        self.off_rank = bytearray(MAX_SEAT + 1)

    # ---- the one entry point -------------------------------------------------------------

    def feed(self, inp):
        """Judge one table input; returns the list of events (reused: read it before the next feed)."""
        out = self.out
        del out[:]
        n = len(inp)
        kind = inp[0] if n else 0
        a = inp[1] if n > 1 else None
        if kind == IN_SHOE or kind == IN_PAD:
            card = self.registry.card(a)
            if card < 0:
                self._reject(R_UNKNOWN, 0, -1)
            elif kind == IN_SHOE:
                self._shoe(card)
            else:
                self._pad(card)
        elif (kind == IN_SEAT or kind == IN_COLOUR) and n == 3 and type(a) is int:
            if kind == IN_COLOUR:
                self._colour(a)
            elif 1 <= a <= MAX_SEAT:
                self._seat(a, inp[2])
            else:
                self._reject(R_BAD_SEAT, 0, -1)
        elif kind == IN_SHUFFLE:
            self._shuffle()
        elif kind != IN_TICK:
            self._reject(R_BAD_INPUT, 0, -1)
        return out

    def _reject(self, why, seat, card):
        self.out.append((REJECT, why, seat, card))

    # ---- card reads --------------------------------------------------------------------

    def _shoe(self, card):
        where = self.loc[card]
        if where != SHOE:
            self._misplaced(card, where)
            return
        ph = self.phase
        if ph == P_PLAY:
            self._draw(card)
        elif ph == P_DEAL:
            n = len(self.seats)
            seat = self._after(self.dealer, 1 + self.dealt % n)
            self.dealt += 1
            self._give(card, seat)
            self.out.append((DEAL, seat, card))
            if self.dealt == n * self.rules.hand_size:
                self.phase = P_START
        elif ph == P_START:
            self._start(card)
        elif ph == P_DRAWOFF:
            self._drawoff(card)
        else:
            self._reject(R_WANT_SHUFFLE, 0, card)

    def _misplaced(self, card, where):
        if where == PILE:
            self._reject(R_TWICE if card == self.top else R_ON_PILE, 0, card)
        elif where == ASIDE:
            self._reject(R_ASIDE, 0, card)
        elif where == SHOE:
            self._reject(R_IN_SHOE, 0, card)
        else:
            self._reject(R_TWICE if card == self.last else R_IN_HAND, where, card)

    def _draw(self, card):
        out = self.out
        if self.debts:
            debt = self.debts[0]
            seat = debt[0]
            self._give(card, seat)
            out.append((DRAW, seat, card, debt[2]))
            debt[1] -= 1
            if debt[1] == 0:
                self.debts.pop(0)
                self._settle()
            return
        if self.want:
            self._reject(R_WANT_COLOUR, self.want, card)
            return
        seat = self.turn
        if self.pending:
            self._begin_turn()
            self.w4_from = 0
            self._give(card, seat)
            out.append((DRAW, seat, card, self.pending_why))
            self.pending -= 1
            if self.pending == 0:
                if not self._winner():
                    self._next(1)  # D and W4 cost the turn too
                self._settle()
            return
        if self.drawn >= 0:
            self._reject(R_DREW, seat, card)
            return
        self._begin_turn()
        self._give(card, seat)
        out.append((DRAW, seat, card, W_TURN))
        if self.playable(seat, card):
            self.drawn = card
        else:
            self._next(1)

    def _pad(self, card):
        seat = self.loc[card]
        if seat == SHOE or seat > MAX_SEAT:
            self._misplaced(card, seat)
        elif self.phase != P_PLAY:
            self._reject(R_NOT_NOW, seat, card)
        elif self.want:
            self._reject(R_WANT_COLOUR, self.want, card)
        elif self.debts:
            self._reject(R_WAIT_DRAW, self.debts[0][0], card)
        elif seat != self.turn:
            self._misplay(R_NOT_TURN, seat, card)
        elif self.pending:
            self._misplay(R_MUST_DRAW, seat, card)
        elif self.drawn >= 0 and card != self.drawn:
            self._misplay(R_ONLY_DRAWN, seat, card)
        elif not self.playable(seat, card):
            self._misplay(R_W4_ILLEGAL if DECK[card] & 15 == RANK_WILD4 else R_UNPLAYABLE, seat, card)
        else:
            self._play(seat, card)

    def _misplay(self, why, seat, card):
        self._reject(why, seat, card)
        cost = self.rules.misplay
        if cost:
            self._penalty(seat, cost, W_MISPLAY)

    def playable(self, seat, card):
        """T1 (and C1's enforce): may this seat's card go on the pile now?"""
        face = DECK[card]
        col = face >> 4
        if col == WILD:
            if face & 15 == RANK_WILD4 and self.rules.w4 == "enforce":
                return not self.holds_colour(seat, self.colour, card)
            return True
        return col == self.colour or face & 15 == DECK[self.top] & 15

    def holds_colour(self, seat, col, but=-1):
        for c in self.hands[seat]:
            if c != but and DECK[c] >> 4 == col:
                return True
        return False

    def _play(self, seat, card):
        out = self.out
        self._begin_turn()
        illegal = False
        rank = DECK[card] & 15
        if rank == RANK_WILD4 and self.rules.w4 == "challenge":
            illegal = self.holds_colour(seat, self.colour, card)
        hand = self.hands[seat]
        hand.remove(card)
        self.loc[card] = PILE
        self.pile += 1
        self.top = card
        self.drawn = -1
        out.append((PLAY, seat, card))
        left = len(hand)
        if left == 1:
            self.window = seat
            self.called = False
            out.append((UNO_OPEN, seat))
        if rank >= RANK_WILD:
            self.colour = -1
            if left == 0:  # T5: the round is won; a W4's next seat still draws, for the score
                if rank == RANK_WILD4:
                    self._next(1)
                    self._owe(4, W_DRAW4)
                else:
                    self._settle()
                return
            self.want = seat
            self.want_moves = True
            self.w4_illegal = illegal
            out.append((WANT, seat))
            return
        self.colour = DECK[card] >> 4
        if left == 0 and rank != RANK_DRAW2:
            self._settle()
        elif rank == RANK_SKIP or (rank == RANK_REVERSE and len(self.seats) == 2):
            out.append((SKIP, self._after(seat, 1)))
            self._next(2)
        elif rank == RANK_REVERSE:
            self.dir = -self.dir
            out.append((REVERSE, self.dir))
            self._next(1)
        elif rank == RANK_DRAW2:
            self._next(1)
            self._owe(2, W_DRAW2)
        else:
            self._next(1)

    def _owe(self, n, why):
        self.pending = n
        self.pending_why = why
        self.out.append((OWE, self.turn, n, why))
        self._settle()

    def _begin_turn(self):
        """U1: the window closes when the next player plays or draws."""
        if self.window:
            self.out.append((UNO_CLOSE, self.window))
            self.window = 0

    # ---- presses -----------------------------------------------------------------------

    def _seat(self, s, long):
        ph = self.phase
        if ph == P_LOBBY:
            if long:
                if s in self.seats:
                    self.seats.remove(s)
                    self.out.append((LEAVE, s))
                else:
                    self._reject(R_NOT_SEATED, s, -1)
            elif s in self.seats:
                self._reject(R_JOINED, s, -1)
            else:
                self.seats.append(s)
                self.seats.sort()
                self.out.append((JOIN, s))
            return
        if s not in self.seats:
            self._reject(R_NOT_SEATED, s, -1)
        elif ph != P_PLAY:
            self._reject(R_NOTHING, s, -1)
        elif long:
            self._challenge(s)
        elif self.window and (s == self.window or not self.called):
            self._uno_press(s)
        elif s == self.turn and (self.drawn >= 0 or self._stuck()):
            self._begin_turn()
            self.out.append((PASS, s))
            self._next(1)
        else:
            self._reject(R_CALLED if self.window else R_NOTHING, s, -1)

    def _stuck(self):
        """No card can be drawn (empty shoe, nothing to reshuffle): the turn seat may pass."""
        return self.shoe == 0 and self.pile <= 1 and not self.pending and not self.debts \
            and not self.want

    def _uno_press(self, s):
        w = self.window
        if self.called:
            self._reject(R_CALLED, w, -1)
        elif s == w:
            self.called = True
            self.out.append((UNO, s))
        else:
            self.out.append((CATCH, s, w))
            self.out.append((UNO_CLOSE, w))
            self.window = 0
            self._penalty(w, 2, W_CAUGHT)

    def _penalty(self, seat, n, why):
        self.debts.append([seat, n, why])
        self.out.append((PENALTY, seat, n, why))
        self._settle()

    def _challenge(self, s):
        """C1: judged from the hand as it was when the W4 was played."""
        if s != self.turn or not self.w4_from or self.rules.w4 != "challenge":
            self._reject(R_NO_CHALLENGE, s, -1)
            return
        against = self.w4_from
        self.w4_from = 0
        if self.w4_illegal:
            self.out.append((CHALLENGE, s, against, V_ILLEGAL))
            self.pending = 0
            self._penalty(against, 4, W_W4_ILLEGAL)
        else:
            self.out.append((CHALLENGE, s, against, V_LEGAL))
            self.pending += 2
            self.pending_why = W_W4_LEGAL
            self.out.append((PENALTY, s, 2, W_W4_LEGAL))
            self._settle()

    def _colour(self, col):
        seat = self.want
        if not 0 <= col <= 3:
            self._reject(R_BAD_INPUT, 0, -1)
            return
        if self.phase != P_PLAY or not seat:
            self._reject(R_NO_COLOUR, 0, -1)
            return
        self.colour = col
        self.want = 0
        self.out.append((COLOUR, seat, col))
        if not self.want_moves:
            return
        if DECK[self.top] & 15 == RANK_WILD4:
            self._next(1)
            self._owe(4, W_DRAW4)
            if self.rules.w4 == "challenge" and self.pending:
                self.w4_from = seat
        else:
            self._next(1)

    # ---- shuffles, the deal, the start card, the draw for dealer ---------------------

    def _shuffle(self):
        ph = self.phase
        out = self.out
        if ph == P_PLAY:
            if self.shoe:
                self._reject(R_SHOE_LEFT, 0, -1)
            elif self.pile <= 1:
                self._reject(R_NO_RESHUFFLE, 0, -1)
            else:  # T4: the pile but its top card goes back into the shoe
                loc = self.loc
                for c in range(NCARDS):
                    if loc[c] == PILE and c != self.top:
                        loc[c] = SHOE
                self.shoe = self.pile - 1
                self.pile = 1
                out.append((SHUFFLE, self.shoe))
            return
        if ph == P_LOBBY:
            if len(self.seats) < 2:
                self._reject(R_FEW, 0, -1)
                return
            if len(self.seats) * self.rules.hand_size >= NCARDS:
                self._reject(R_DEAL_SIZE, 0, -1)
                return
        elif ph == P_MATCH_OVER:
            self.scores = [0] * (MAX_SEAT + 1)
            self.round = 0
        elif ph != P_DEALER and ph != P_ROUND_OVER:
            self._reject(R_NOT_NOW, 0, -1)
            return
        self._reset_round()  # every card is back in the shoe
        out.append((SHUFFLE, self.shoe))
        if ph == P_DEALER:
            self._new_round(self.dealer)
        elif ph != P_LOBBY:
            self._new_round(self.winner)  # S2: the last round's winner deals
        elif self.rules.first_dealer in self.seats:
            self._new_round(self.rules.first_dealer)
        else:
            self.phase = P_DRAWOFF
            self.offs = list(self.seats)

    def _new_round(self, dealer):
        self.dealer = dealer
        self.round += 1
        self.phase = P_DEAL
        self.dealt = 0
        self.out.append((ROUND, self.round, dealer))

    def _drawoff(self, card):
        """S2: highest number deals; non-numbers are redrawn, and so are ties for highest."""
        seat = self.offs[0]
        self.loc[card] = ASIDE
        self.shoe -= 1
        self.out.append((DRAWOFF, seat, card))
        rank = DECK[card] & 15
        if rank > 9:
            return
        self.off_rank[seat] = rank + 1
        self.offs.pop(0)
        if self.offs:
            return
        best = max(self.off_rank)
        tied = [s for s in self.seats if self.off_rank[s] == best]
        if len(tied) > 1:
            self.offs = tied
            self.off_rank = bytearray(MAX_SEAT + 1)
            return
        self.dealer = tied[0]
        self.phase = P_DEALER
        self.out.append((DEALER, self.dealer))

    def _start(self, card):
        """S4: the start card and what it does to the first player."""
        out = self.out
        rank = DECK[card] & 15
        if rank == RANK_WILD4:
            out.append((BACK, card))  # it goes back into the pile: the hub asks for another
            return
        self.loc[card] = PILE
        self.shoe -= 1
        self.pile = 1
        self.top = card
        out.append((START, card))
        self.phase = P_PLAY
        self.turn = self.dealer
        if rank == RANK_WILD:
            self._next(1)
            self.want = self.turn
            self.want_moves = False
            out.append((WANT, self.turn))
            return
        self.colour = DECK[card] >> 4
        if rank == RANK_SKIP or (rank == RANK_REVERSE and len(self.seats) == 2):
            out.append((SKIP, self._after(self.dealer, 1)))
            self._next(2)
        elif rank == RANK_REVERSE:
            self.dir = -self.dir
            out.append((REVERSE, self.dir))
            self._next(0 if self.rules.start_reverse == "dealer" else 1)
        else:
            self._next(1)
            if rank == RANK_DRAW2:
                self._owe(2, W_DRAW2)

    # ---- moving cards and turns -------------------------------------------------------------

    def _give(self, card, seat):
        self.loc[card] = seat
        self.shoe -= 1
        self.last = card
        self.hands[seat].append(card)

    def _after(self, seat, k):
        seats = self.seats
        return seats[(seats.index(seat) + k * self.dir) % len(seats)]

    def _next(self, k):
        self.turn = self._after(self.turn, k)
        self.drawn = -1
        self.out.append((TURN, self.turn))

    def _settle(self):
        """After a change: a round won, or draws that no card is left for."""
        if self.phase != P_PLAY:
            return
        if self.shoe == 0 and self.pile <= 1:
            for d in self.debts:
                self.out.append((WAIVE, d[0], d[1]))
            del self.debts[:]
            if self.pending:
                self.out.append((WAIVE, self.turn, self.pending))
                self.pending = 0
                self.w4_from = 0
                self._next(1)
        if self.pending or self.debts or self.want:
            return
        s = self._winner()
        if s:
            self._round_over(s)

    def _winner(self):
        for s in self.seats:
            if not self.hands[s]:
                return s
        return 0

    def _round_over(self, winner):
        """M1: the winner scores the points left in the other hands."""
        pts = 0
        for s in self.seats:
            for c in self.hands[s]:
                pts += points(c)
        self.winner = winner
        self.scores[winner] += pts
        self.window = 0
        self.turn = 0
        self.out.append((ROUND_OVER, winner, pts))
        self.out.append((SCORE, winner, self.scores[winner]))
        if self.scores[winner] >= self.rules.target:
            self.phase = P_MATCH_OVER
            self.out.append((MATCH_OVER, winner))
        else:
            self.phase = P_ROUND_OVER

    # ---- looking at the table -------------------------------------------------------------

    def owes(self, seat):
        """Cards this seat must still draw (penalties, and D/W4 on its turn)."""
        n = self.pending if seat == self.turn else 0
        for d in self.debts:
            if d[0] == seat:
                n += d[1]
        return n

    def drawer(self):
        """The seat the next card read at the shoe goes to, or 0 if none is expected."""
        ph = self.phase
        if ph == P_PLAY:
            if self.debts:
                return self.debts[0][0]
            if self.want or (self.drawn >= 0 and not self.pending):
                return 0
            return self.turn
        if ph == P_DEAL:
            return self._after(self.dealer, 1 + self.dealt % len(self.seats))
        if ph == P_DRAWOFF:
            return self.offs[0]
        return 0
