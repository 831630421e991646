"""A small reference of the rules, written apart from table.py, that follows a table's event
stream and says where the table went wrong.

It knows the deck (face bytes), the seats, the settings of the official rules and their
options (direction, start card, draw one/until, forced play, W4 modes, last card, UNO window);
it keeps its own hands, top card, colour, direction and turn, and from them checks each event:
who may play what (T1, T2, T5, C1 enforce), whose turn comes next (S4, T2, T3), how many
cards a D, a W4, a challenge or a catch costs and who draws them (T3, C1, U2), and the score.

House rules it knows too, each written from SPEC.md, docs/rules.md and the seeds (not from
table.py): H1 stacking (on, w4_on_d), H2 jump-in (identical, actions), H3 multi-play (same,
identical), H4 zero rotates, H5 sum win, H7 slap on 4, M3 elimination, M4 teams' scores, and
the costs of P1 (misplay), U3 (false call) and U4 (false catch); of P2 (turn timer) only
whose time it is, not the clock.

may_play (a card read on the pad) and press_means (a seat button, docs/buttons.md's decision
table) say what an input would do, for test_property's judge_all and press_all to ask of
every card and every seat.

ref.see(ev) for every event, ref.end_input() after the events of each input: some rules say
what must have happened by the end of an input (a window that closes, a slap that opens).
"""
from uno.cards import DECK, points
from uno.events import *

_S, _R, _D, _W, _W4 = 10, 11, 12, 13, 14


def _rank(card):
    return DECK[card] & 15


def _col(card):
    return DECK[card] >> 4


_TURN, _JUMP, _MORE = 1, 2, 3   # a play on its turn, a jump-in (H2), one more card (H3)


def team_of(teams, seats, seat):
    """M4: seat's team, the seats of the table i, i + teams, ... (seats ascending)."""
    if not teams:
        return [seat]
    i = seats.index(seat) % teams
    return [s for k, s in enumerate(seats) if k % teams == i]


class Reference:
    def __init__(self, rules, seats):
        self.rules = rules
        self.seats = sorted(seats)
        self.active = list(self.seats)
        self.hands = dict((s, []) for s in range(11))
        self.shoe = self.pile = 0
        self.in_play = False
        self.expect = self.turn = 0  # the seat the next `turn` event must name; the turn
        self.pend = None             # [seat, n]: a D's or W4's draws (T3, C1, H1)
        self.debt = {}               # seat -> penalty draws (U2, C1, P1, U3, U4, H7)
        self.debts = []              # [seat, n, why], oldest first: one a seat and reason
        self.held = -1               # card drawn this turn that may still be played (T2)
        self.wanted = 0
        self.skipped = 0
        self.won = 0
        self.dir = 1
        self.flips = 0               # direction changes the record has not said yet (reverse)
        self.top = -1
        self.top_flipped = False     # the top card is an R that changed the direction
        self.last_reject = None
        self.jumper = 0
        self.window = 0
        self.out = []
        self.laid = []
        self.slap = []
        self.slap_last = 0
        self._new_input()

    # ---- seats ---------------------------------------------------------------------------

    def flip(self):
        """The direction changes (an R, S4's R, a jumped R's reversal cancelled, H2): the
        record must say it with a `reverse` event in the same input."""
        self.dir = -self.dir
        self.flips += 1

    def after(self, seat, k=1):
        order = self.active
        if seat not in order:   # M3: a seat just out (naming its colour): from where it sat
            seats = self.seats
            i = seats.index(seat)
            while seats[i] not in order:
                i = (i + self.dir) % len(seats)
            seat = seats[i]
            k -= 1
        return order[(order.index(seat) + k * self.dir) % len(order)]

    def team(self, seat):
        return team_of(self.rules.teams, self.seats, seat)

    def decides(self, seat):
        """Does seat, out of cards, end the round? (T5; M3: one seat left; M3 with M4: its
        whole team is out)"""
        if self.rules.elimination != "yes":
            return True
        gone = self.out + [seat]
        if self.rules.teams:
            return all(s in gone for s in self.team(seat))
        return len(self.active) - 1 <= 1

    # ---- what may be played ----------------------------------------------------------------

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

    def obliged(self, seat, card):
        """T2's forced play: a card the seat may not hold back: one it may play, but not a W4
        while its hand holds the active colour, under C1's challenge too (seed 004: 玩家只能在
        玩家手上没有与上一位玩家出的牌相同颜色时出这张牌)."""
        if _rank(card) == _W4 and self.rules.w4 != "free":
            return not [c for c in self.hands[seat] if c != card and _col(c) == self.colour]
        return self.legal(seat, card)

    def answers(self, seat, card):
        """H1: may the seat that owes a D's or W4's draws answer with card?"""
        st = self.rules.stacking
        if st == "off" or not self.stackable or self.pend_drawn or self.pend[0] != seat:
            return False
        r, top = _rank(card), _rank(self.top)
        if self.rules.last_card == "no_srw" and len(self.hands[seat]) == 1 and r == _W:
            return False
        if r == _D:
            return top == _D
        if r == _W4:
            if top == _D and st != "w4_on_d":
                return False
            if top not in (_D, _W4):
                return False
            if st == "w4_on_d":   # "+4牌只能跟在+2或+4后面": legal whatever the hand holds
                return True
            return self.rules.w4 != "enforce" or not [
                c for c in self.hands[seat] if c != card and _col(c) == self.colour]
        return False

    def drawn(self, card):
        """T2: the card just drawn, or its twin (docs/rules.md: no one tells copies apart)."""
        return self.held >= 0 and DECK[card] == DECK[self.held]

    def may_play(self, seat, card):
        """Would a read of seat's card on the pad be taken now (as its turn's play, H1's answer,
        H2's jump-in or H3's one more card)? What play() asserts, asked without playing."""
        if not self.in_play or self.won or self.wanted or self.slap or self.slap_last \
                or self.debt or seat not in self.active or card not in self.hands[seat]:
            return False
        r = _rank(card)
        if self.rules.last_card == "no_srw" and len(self.hands[seat]) == 1 and r in (_S, _R, _W):
            return False
        if seat == self.turn:
            if self.held != -1 and not self.drawn(card):  # (-2: draw=until draws on)
                return False
            if self.pend:
                return self.answers(seat, card)
            return self.legal(seat, card)
        if seat == self.chain and r < _W and r == _rank(self.top) and (
                self.rules.multi == "same" or DECK[card] == DECK[self.top]):
            return True
        return self.jumps(seat, card)

    def caught_last(self, seat):
        """U2: another seat was caught and still holds its last card (its 2 not drawn yet): a
        press is a second catch, too late, and costs nobody (catchers=first)."""
        return any(d[2] == W_CAUGHT and d[0] != seat and self.is_last(d[0]) for d in self.debts)

    def is_last(self, seat):
        """U1 (U6): one card left, or (U6) only identical cards."""
        hand = self.hands[seat]
        return len(hand) == 1 or (len(hand) > 1 and self.rules.uno_identical == "yes" and
                                  len(set(DECK[c] for c in hand)) == 1)

    def press_means(self, seat, long):
        """What a seat button's press means now, from docs/buttons.md's decision table (the
        play phase, rows tried top to bottom): ('slap',), ('sum',), ('challenge',), ('call',),
        ('pass',), ('catch',), ('false_catch',) or ('false_uno',) when it costs, else
        ('reject', reason)."""
        if seat in self.out and seat != self.wanted:
            return ("reject", R_NOT_SEATED)
        if seat in self.out or seat == self.won or seat in self.laid:
            return ("reject", R_NOTHING)    # out of the round, still in its order: nothing
        if self.slap and seat in self.slap:
            return ("slap",)
        if self.slap:
            # H7: it slapped already and the slap is open: one hand each on the 4 (seed 003),
            # so another press is its slap bouncing, unless it is a lay-down (H5), the seat's
            # own UNO call or a catch of a window not called yet
            bounce = self.rules.sum_win != "yes" if long else \
                seat != self.window and not (self.window and not self.called)
            if bounce:
                return ("reject", R_SLAPPED)
        if long:
            if self.rules.sum_win == "yes" and self.sum_to >= 0:   # (its player's: no sum)
                return ("sum",) if self.may_sum(seat) else ("reject", R_NO_SUM)
            if self.rules.sum_win == "yes" and self.sum_by:
                # a lay-down on the number a seat played, on top still, that has closed: a
                # draw or a lay-down came first (too late; not a start card: nobody's number)
                return ("reject", R_SUM_LATE)
            if self.w4 and self.pend and seat == self.pend[0] == self.turn \
                    and not self.pend_drawn and not self.wanted:
                return ("challenge",)
            if self.wanted and self.wants_move and self.rules.w4 == "challenge" and \
                    _rank(self.top) == _W4 and seat == self.after(self.wanted):
                return ("reject", R_WANT_COLOUR)    # C1: the W4's draws come with its colour
            return ("reject", R_NO_CHALLENGE)
        if seat == self.window:
            return ("reject", R_CALLED) if self.called or self.caught else ("call",)
        if seat == self.turn and not self.wanted and (self.held >= 0 or (
                self.dry() and not self.pend and not self.debt)):
            if self.rules.forced == "yes":
                # (drawing on under draw=until, held -2: no card may be played, none obliges)
                cards = [self.held] if self.held >= 0 else [] if self.held < -1 else \
                    self.hands[seat]
                if [c for c in cards if self.obliged(seat, c)]:
                    return ("reject", R_MUST_PLAY)
            return ("pass",)
        if self.window:
            if not self.called:
                if seat in self.catchers:
                    return ("reject", R_CAUGHT)
                return ("catch",)
            return ("false_catch",) if self.rules.false_catch and not self.innocent(seat) \
                else ("reject", R_CALLED)
        if self.rules.false_uno and not self.won and not self.innocent(seat):
            return ("false_uno",)
        return ("reject", R_NOTHING)

    def innocent(self, seat):
        """U3/U4: a press that may be the seat's own call on its last card, a late catch of the
        seat whose window closed uncalled (it still holds its last card) or a second catch costs
        nobody, whether or not another seat's called window is open."""
        return self.is_last(seat) or bool(
            self.late and self.late != seat and self.late in self.active and
            self.is_last(self.late)) or self.caught_last(seat)

    def jumps(self, seat, card):
        """H2: may seat (not the turn seat) jump in with card?"""
        r = _rank(card)
        if self.rules.jump_in == "off" or DECK[card] != DECK[self.top] or seat == self.turn:
            return False
        if r > 9 and self.rules.jump_in != "actions":
            return False
        if self.pend and _rank(self.top) in (_D, _W4) and (self.pend_drawn or self.challenged):
            return False
        if r == _W4 and self.rules.w4 == "enforce":
            return not [c for c in self.hands[seat] if c != card and _col(c) == self.colour]
        return True

    def dry(self):
        return self.shoe == 0 and self.pile <= 1

    # ---- per input ---------------------------------------------------------------------------

    def _new_input(self):
        self.must_close = 0      # U1: this seat's window must be closed by the input's end
        self.want_window = 0     # U1: this seat played its second-to-last card
        self.want_rotate = 0     # H4: a 0 was played that passes the hands
        self.want_slap = 0       # H7: a 4 was played that opens a slap
        self.played = 0

    def end_input(self):
        try:
            if self.must_close:
                assert self.window != self.must_close, ("window still open", self.must_close)
            if self.want_window and self.want_window in self.active and self.in_play:
                assert self.window == self.want_window, ("no UNO window", self.want_window)
            assert not self.want_rotate, ("a 0 passed no hand", self.want_rotate)
            assert not self.want_slap, ("a 4 opened no slap", self.want_slap)
            assert not self.jumper, ("jump_in with no play", self.jumper)
            assert not self.flips, ("a change of direction with no reverse event", self.dir)
            rej = self.last_reject      # a rejection that costs, with no penalty (P1, U3, U4)
            assert not (rej and rej[1] == R_FALSE_UNO), ("a false UNO call, no penalty", rej)
            if rej and rej[2] in self.active and not self.won:   # (a round won: nothing costs)
                assert not (rej[1] in MISPLAYS and self.rules.misplay), ("misplay free", rej)
                assert not (rej[1] == R_CALLED and self.rules.false_catch and
                            rej[2] != self.window and not self.innocent(rej[2])), \
                    ("false catch free", rej)
        finally:
            self.last_reject = None
            self._new_input()

    # ---- events ------------------------------------------------------------------------------

    def see(self, ev):
        code = ev[0]
        if code == JOIN:
            if ev[1] not in self.seats:
                self.seats = sorted(self.seats + [ev[1]])
        elif code == LEAVE:
            self.seats.remove(ev[1])
        elif code == SHUFFLE:
            self.shoe = ev[1]
            self.pile = 1 if self.in_play else 0
        elif code == DRAWOFF:
            self.shoe -= 1
        elif code == ROUND:
            self.dealer = ev[2]
            self.dir = 1 if self.rules.direction == "cw" else -1
            self.active = list(self.seats)
            self.out = []
            self.hands = dict((s, []) for s in range(11))
            self.next_deal = self.after(self.dealer)
            self.pend = None
            self.stackable = False
            self.pend_drawn = 0
            self.under = 0
            self.debt = {}
            self.debts = []
            self.held = -1
            self.window = 0
            self.called = False
            self.late = 0
            self.won = 0
            self.chain = 0
            self.jumper = 0
            self.slap = []
            self.slap_last = 0
            self.blocked = False
            self.sum_to = -1
            self.sum_by = 0
            self.laid = []
            self.voided = {}
            self.w4 = 0
            self.challenged = False
            self.caught = False
            self.catchers = []
            self.no_late = 0
            self.catch_due = 0
            self.leaving = 0
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
        elif code == JUMP:
            self.jump(ev[1])
        elif code == PLAY:
            self.pile += 1
            self.play(ev[1], ev[2])
        elif code == WANT:
            assert ev[1] == self.wanted, ("colour wanted", ev, self.wanted)
        elif code == COLOUR:
            self.colour_named(ev[1], ev[2])
        elif code == OWE:
            assert self.pend == [ev[1], ev[2]], ("owe", ev, self.pend)
            assert ev[3] in (W_DRAW2, W_DRAW4, W_STACK), ("owe why", ev)
        elif code == DRAW:
            self.shoe -= 1
            self.draw(ev[1], ev[2], ev[3])
        elif code == PASS:
            assert ev[1] == self.turn and (self.held >= 0 or self.dry()), ("pass", ev)
            self.acts(ev[1])
            self.held = -1
            self.expect = self.after(ev[1])
        elif code == TURN:
            assert ev[1] == self.expect or self.expect == -1, \
                ("turn", ev[1], "expected", self.expect)
            assert ev[1] in self.active, ("turn to a seat out of the round", ev)
            self.turn = ev[1]
            self.held = -1
        elif code == SKIP:
            assert ev[1] == self.skipped or self.skipped == -1, ("skip", ev, self.skipped)
        elif code == REVERSE:
            assert self.won or (ev[1] > 0) == (self.dir > 0), ("reverse", ev, self.dir)
            if not self.won:
                assert self.flips > 0, ("a reverse event with no change of direction", ev)
                self.flips -= 1
        elif code == UNO_OPEN:
            assert len(self.hands[ev[1]]) == 1 or self.rules.uno_identical == "yes", ev
            assert ev[1] in self.active, ("window of a seat out of the round", ev)
            self.window = ev[1]
            self.called = self.caught = False
            self.catchers = []
        elif code == UNO_CLOSE:
            assert ev[1] == self.window, ("uno_close", ev, self.window)
            # U2/U3: the seat whose window closed with no call nor catch; a press may still
            # be a catch of it that came too late (one seat: the last such window)
            if ev[1] == self.no_late:   # closed by a penalty: it holds no last card now
                self.no_late = 0
            elif not self.hands[ev[1]]:
                pass                    # closed by going out (M3): no card to catch it for
            elif not self.called and not self.caught:
                self.late = ev[1]
            elif self.called and self.late == ev[1]:
                self.late = 0
            self.window = 0
        elif code == UNO:
            assert ev[1] == self.window and not self.called, ("uno", ev)
            assert not self.caught, ("a caught seat calls", ev)   # U5
            self.called = True
        elif code == CATCH:
            assert ev[2] == self.window and ev[1] != ev[2], ("catch", ev)
            assert not self.called, ("caught after the call", ev)
            assert ev[1] not in self.catchers, ("caught twice", ev)
            self.catchers.append(ev[1])
            self.caught = True
            self.catch_due = ev[2]
        elif code == PENALTY:
            self.penalty(ev[1], ev[2], ev[3])
        elif code == CHALLENGE:
            self.challenge(ev[1], ev[2], ev[3])
        elif code == WAIVE:
            self.waive(ev[1], ev[2])
        elif code == REJECT:
            self.last_reject = ev
        elif code == ROTATE:
            self.rotate(ev[1])
        elif code == SLAP_OPEN:
            assert ev[1] == self.want_slap, ("slap_open", ev, self.want_slap)
            self.want_slap = 0
            self.slap = list(self.active)
        elif code == SLAP:
            assert ev[1] in self.slap, ("slap", ev, self.slap)
            self.slap.remove(ev[1])
            if len(self.slap) == 1:
                self.slap_last = self.slap[0]
                self.slap = []
        elif code == OUT:
            self.gone(ev[1], ev[2])
        elif code == BLOCKED:
            self.blocked = True
        elif code == RESHUFFLE:     # T4: it names the seat due to draw, never seat 0
            assert ev[1] in self.seats, ("reshuffle for no seat", ev)
            if self.in_play:
                who = self.debts[0][0] if self.debts else self.pend[0] if self.pend else \
                    self.turn
                assert ev[1] == who, ("reshuffle for a seat not due to draw", ev, who)
        elif code == ROUND_OVER:
            self.round_over(ev[1], ev[2])
        elif code == SUM_WIN:
            self.sum_win(ev[1], ev[2])
        elif code == TIMER_WARN:
            self.timed(ev[1])

    def start(self, card):
        """S4: what the start card does to the first player."""
        r = _rank(card)
        self.top = card
        self.top_flipped = False
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
            self.flip()
            self.top_flipped = True
            self.expect = d if self.rules.start_reverse == "dealer" else self.after(d)
        else:
            self.expect = self.after(d)
            if r == _D:     # S4's D: no one's play, not stacked on (H1), but jumped (H2)
                self.pend = [self.expect, 2]
                self.pend_drawn = 0
                self.under = 0
                self.stackable = False

    def acts(self, seat):
        """The turn seat (or a jumper) acts: a multi-play is over (H3), and an open UNO window
        of another seat closes (U1)."""
        self.chain = 0
        self.sum_to = -1
        if self.window and self.window != seat:
            self.must_close = self.window

    def jump(self, seat):
        mode = self.rules.jump_in
        assert mode != "off", "jump_in with jump-ins off"
        assert seat in self.active and not self.won, ("jump", seat)
        assert seat != self.turn, ("the turn seat jumps in", seat)
        self.jumper = seat
        if _rank(self.top) == _R and self.top_flipped:
            self.flip()                         # the jumped R's reversal is cancelled

    def play(self, seat, card):
        assert seat in self.active, ("a seat out of the round plays", seat)
        assert not self.wanted, ("played while a colour is wanted", seat)
        assert not self.slap and not self.slap_last, ("played while a slap is open", seat)
        assert not self.debt, ("played while penalties are owed", seat, self.debt)
        assert not self.won, ("played after the round was won", seat)
        r = _rank(card)
        under = 0
        answered = False
        assert not (self.rules.last_card == "no_srw" and len(self.hands[seat]) == 1 and
                    r in (_S, _R, _W)), ("T5: S, R or W as the last card", seat, card)
        if self.jumper:
            assert self.jumper == seat, ("jump_in names another seat", seat, self.jumper)
            self.jumper = 0
            kind = _JUMP
            assert DECK[card] == DECK[self.top], ("jumped with a card not identical", card)
            assert r <= 9 or self.rules.jump_in == "actions", ("jumped with an action", card)
            top = _rank(self.top)
            if self.pend and top in (_D, _W4):
                assert self.pend_drawn == 0, ("jumped a D or W4 whose draws began", seat)
                assert not self.challenged, ("jumped a challenged W4", seat)
                under = self.under              # only the jumped card's own draws are void
                self.pend = None
            if r == _W4:
                assert self.rules.w4 != "enforce" or not [
                    c for c in self.hands[seat] if c != card and _col(c) == self.colour], \
                    ("an illegal W4 jumped in under enforce", seat)
            self.acts(seat)
        elif seat == self.turn:
            kind = _TURN
            assert self.held == -1 or self.drawn(card), ("not the card just drawn", card)
            if self.pend:
                assert self.answers(seat, card), ("played while draws are owed", seat, card)
                under = self.pend[1]
                answered = True
                self.pend = None
            else:
                assert self.legal(seat, card), ("illegal play", seat, card, self.top,
                                                self.colour)
            self.acts(seat)
        else:
            assert seat == self.chain, ("played out of turn", seat, self.turn, card)
            kind = _MORE
            mode = self.rules.multi
            assert r < _W and r == _rank(self.top), ("added a card of another rank", card)
            assert mode == "same" or DECK[card] == DECK[self.top], ("added a card", card)
        if r == _W4:  # C1: judged from the hand it was played from
            if answered and self.rules.stacking == "w4_on_d":
                self.w4_illegal = False     # H1: "+4牌只能跟在+2或+4后面"
            else:
                self.w4_illegal = [c for c in self.hands[seat] if c != card and
                                   _col(c) == self.colour] != []
        drawn = self.drawn(card)
        assert card in self.hands[seat], ("played a card from another hand", seat, card)
        self.hands[seat].remove(card)
        self.top = card
        self.top_flipped = False
        self.held = -1
        self.w4 = 0
        self.challenged = False
        self.played = seat
        if kind != _MORE:           # H5: the number just played (one more of it: it stands)
            self.sum_to, self.sum_by = (r, seat) if r <= 9 else (-1, 0)
        hand = self.hands[seat]
        if len(hand) == 1 or (len(hand) > 1 and self.rules.uno_identical == "yes" and
                              len(set(DECK[c] for c in hand)) == 1):
            if not (r == 0 and self.rules.zero_rotate == "yes"):
                self.want_window = seat
        if not hand and self.decides(seat):
            # T5: the round is won; a D or W4 still makes the next seat draw, for the score
            self.won = seat
            self.chain = 0
            self.expect = -1        # M3: whose turn it is in a won round does not matter
            self.skipped = -1       # (nor who is skipped)
            if r < _W:
                self.colour = _col(card)
            if kind == _MORE:
                if r == _D:
                    self.pend[1] += 2
                    self.stackable = False
                return
            if r == _D or r == _W4:
                self.expect = self.after(seat)
                self.pend = [self.expect, under + (2 if r == _D else 4)]
                self.pend_drawn = 0
                self.stackable = False
            return
        self.leaving = seat if not hand else 0          # M3: out, once its play is done
        if r >= _W:
            self.chain = 0
            self.wanted = seat
            self.wants_move = True
            self.under = under
            return
        self.colour = _col(card)
        if r == 4 and self.rules.slap4 == "yes":
            self.want_slap = seat
        rotates = r == 0 and self.rules.zero_rotate == "yes" and hand
        if rotates:
            self.want_rotate = seat
        if kind == _MORE:
            if r == _S or (r == _R and len(self.active) == 2):
                self.skipped = self.expect            # each S skips one more seat
                self.expect = self.after(self.expect)
            elif r == _R:
                self.flip()
                self.top_flipped = True
                self.expect = self.after(seat)
            elif r == _D:
                assert self.pend and not self.pend_drawn, ("a D added after the draws", seat)
                self.under = self.pend[1]
                self.pend[1] += 2
                self.stackable = True
        else:
            if r == _S or (r == _R and len(self.active) == 2):
                self.skipped = self.after(seat)
                self.expect = self.after(seat, 2)
            elif r == _R:
                self.flip()
                self.top_flipped = True
                self.expect = self.after(seat)
            else:
                self.expect = self.after(seat)
                if r == _D:
                    self.pend = [self.expect, under + 2]
                    self.pend_drawn = 0
                    self.under = under
                    self.stackable = True
        if self.rules.multi != "off" and not drawn and not rotates and hand:
            self.chain = seat
        else:
            self.chain = 0

    def may_sum(self, seat):
        """H5: may seat lay down its hand now? Another seat's number was just played, and the
        hand is all numbers adding up to it or to a multiple of it."""
        n = self.sum_to
        hand = self.hands[seat]
        # (M4: the other side is another team; a partner's number is its own side's)
        if self.rules.sum_win != "yes" or n < 0 or seat in self.team(self.sum_by) or not hand \
                or self.won or seat not in self.active or self.wanted:
            return False
        if [c for c in hand if _rank(c) > 9]:
            return False
        total = sum(_rank(c) for c in hand)
        return total == n or (n > 0 and total > 0 and total % n == 0)   # (0 is no multiple)

    def sum_win(self, seat, total):
        """H5: seat lays down its hand and wins (M3: is out); its own draws are void."""
        assert self.may_sum(seat), ("sum win", seat, self.sum_to, self.sum_by)
        assert total == sum(_rank(c) for c in self.hands[seat]), ("sum", total)
        self.hands[seat] = []       # laid down: out of play, not scored
        self.laid.append(seat)
        self.voided[seat] = self.debt.get(seat, 0) + (
            self.pend[1] if self.pend and self.pend[0] == seat else 0)
        self.sum_to = -1            # one seat lays down on a number (the first to press)
        self.drop_debts(seat)
        if self.pend and self.pend[0] == seat:
            self.pend = None
        if seat == self.turn:
            self.acts(seat)         # the turn seat's own act: the window closes (U1)
        if self.rules.elimination != "yes" or self.decides(seat):
            self.won = seat
            self.slap = []          # a slap ends with the round (H7)
            self.chain = 0
            self.expect = self.skipped = -1

    def colour_named(self, seat, colour):
        assert seat == self.wanted, ("colour", seat, self.wanted)
        self.colour = colour
        self.wanted = 0
        if self.wants_move:
            self.expect = self.after(seat)
            if _rank(self.top) == _W4:
                self.pend = [self.expect, self.under + 4]
                self.pend_drawn = 0
                self.stackable = True
                self.w4 = seat if self.rules.w4 == "challenge" else 0
                self.challenged = False

    def rotate(self, direction):
        """H4: every hand passes to the next seat in the direction of play."""
        assert self.rules.zero_rotate == "yes" and self.want_rotate, ("rotate", direction)
        assert (direction > 0) == (self.dir > 0), ("rotate direction", direction, self.dir)
        self.want_rotate = 0
        old = dict(self.hands)
        for s in self.active:
            self.hands[self.after(s)] = old[s]
        self.want_window = 0

    def gone(self, seat, place):
        """M3: a seat with no cards leaves the round."""
        assert self.rules.elimination == "yes", ("out without elimination", seat)
        assert not self.hands[seat], ("out with cards", seat)
        assert seat in self.active and place == len(self.out) + 1, ("out", seat, place)
        if seat == self.expect or seat == self.turn:
            self.expect = self.after(seat)
        if self.pend and self.pend[0] == seat:
            raise AssertionError("a seat out of the round owes a D's or W4's draws")
        self.active.remove(seat)
        self.out.append(seat)
        self.drop_debts(seat)
        if seat in self.slap:
            self.slap.remove(seat)
        self.leaving = 0
        if self.chain == seat:
            self.chain = 0

    def draw(self, seat, card, why):
        assert not self.slap and not self.slap_last, ("drew while a slap is open", seat)
        if why == W_TURN:
            assert seat == self.turn and not self.pend and not self.debt and self.held < 0, \
                ("draw", seat)
            assert not self.wanted, ("drew while a colour is wanted", seat)
            if self.rules.forced == "yes" and self.held == -1:  # the hand before the draw
                fits = [c for c in self.hands[seat] if self.obliged(seat, c)]
                assert not fits, ("drew while holding a card to play", seat)
            self.acts(seat)
        self.hands[seat].append(card)
        if why == W_TURN:
            if self.legal(seat, card):
                self.held = card
            elif self.rules.draw != "until":
                self.expect = self.after(seat)
            else:  # T2 until: draws on, and only a card drawn may be played (seed 001:
                self.held = -2  # 抽牌后只能打出抽到的牌，不能从原有手牌中出牌)
            return
        if why in (W_DRAW2, W_DRAW4, W_W4_LEGAL, W_STACK):
            assert not self.debt, "penalties are drawn first"
            assert self.pend and self.pend[0] == seat, ("drew what it did not owe", seat, why)
            assert not self.wanted, ("drew while a colour is wanted", seat)
            self.acts(seat)
            self.pend[1] -= 1
            self.pend_drawn += 1
            if self.pend[1] == 0:
                self.pend = None
                self.lost_turn(seat)
            return
        assert self.debt.get(seat, 0) > 0, ("drew a penalty it did not owe", seat, why)
        d = self.debts[0]       # the oldest penalty first (docs/buttons.md, the shoe)
        assert [d[0], d[2]] == [seat, why], ("not the oldest penalty", seat, why, self.debts)
        d[1] -= 1
        if not d[1]:
            self.debts.pop(0)
        self.debt[seat] -= 1
        if not self.debt[seat]:
            del self.debt[seat]

    def drop_debts(self, seat):
        """A seat out of the round (M3) or laid down (H5) owes nothing."""
        self.debt.pop(seat, None)
        self.debts = [d for d in self.debts if d[0] != seat]

    def lost_turn(self, seat):
        """T3: a D's or W4's victim loses its turn once it has drawn (unless the round is won)."""
        self.chain = 0      # the turn moves on: nothing more is added (H3)
        if not self.won:
            self.skipped = seat
            self.expect = self.after(seat)

    def penalty(self, seat, n, why):
        assert seat in self.active and seat != self.won, ("a penalty on a seat out of the round",
                                                          seat, why)
        # a round won (T5's or H5's draws still owed): no card is played nor call made any
        # more, so nothing new costs (P1, U2-U4, H7, P2); the draws owed are drawn and scored
        assert not self.won, ("a penalty after the round was won", seat, why)
        rej = self.last_reject
        self.last_reject = None
        if why == W_W4_LEGAL:
            assert n == 2 and self.pend[0] == seat, ("a failed challenge costs 2 more", n)
            self.pend[1] += n
            return
        if why == W_CAUGHT:
            assert n == 2, ("a catch costs 2", n)
            assert seat == self.catch_due, ("penalty for a catch of another seat", seat)
        elif why == W_W4_ILLEGAL:
            assert n == self.pending_was, ("an illegal W4 costs what was owed", n)
        elif why == W_SLAP:
            assert seat == self.slap_last and n == 2, ("slap penalty", seat, n, self.slap_last)
            self.slap_last = 0
        elif why == W_SLOW:
            assert n == 2, ("the turn timer costs 2", n)
            self.timed(seat)
        elif why == W_MISPLAY:
            assert rej and rej[1] in MISPLAYS and n == self.rules.misplay and rej[2] == seat, \
                ("misplay penalty", seat, n, rej)
        elif why == W_FALSE_UNO:
            assert rej and rej[1] == R_FALSE_UNO and n == self.rules.false_uno, ("false uno", rej)
            assert rej[2] == seat and len(self.hands[seat]) != 1, ("false uno of a last card",)
            assert not (self.late and len(self.hands[self.late]) == 1), \
                ("a late catch costs nobody", seat, self.late)
            assert not self.caught_last(seat), ("a second catch costs nobody", seat)
        elif why == W_FALSE_CATCH:
            assert rej and rej[1] == R_CALLED and n == self.rules.false_catch, ("false catch",)
            assert rej[2] == seat and self.window and self.called, ("false catch", seat)
            assert not self.innocent(seat), ("a press that may be innocent costs nobody", seat)
        else:
            raise AssertionError("a penalty the reference does not know: %r" % (why,))
        if seat == self.window and why != W_CAUGHT:
            self.must_close = seat  # U1: it no longer holds its last card
            self.no_late = seat     # (a press then is no late catch of it)
        self.debt[seat] = self.debt.get(seat, 0) + n
        for d in self.debts:    # P1: one debt per seat and reason (a repeat adds to it)
            if d[0] == seat and d[2] == why:
                d[1] += n
                break
        else:
            self.debts.append([seat, n, why])

    def timed(self, seat):
        """P2 (its clock is not modelled): the turn seat's time, only while nothing else is
        awaited (a colour, a slap, penalty draws)."""
        assert self.rules.turn_timer, ("a turn timer's event with no timer", seat)
        assert seat == self.turn and not self.won, ("the timer of a seat not on turn, or in "
                                                     "a won round", seat)
        assert not self.wanted and not self.slap and not self.slap_last and not self.debt, \
            ("the timer ran while the table waited for something else", seat)
        # T4: the table waits for the reshuffle once a seat is due to draw; not while the turn
        # seat holds the card it drew last (it plays it or passes: its time runs)
        assert not (self.shoe == 0 and self.pile > 1 and self.held < 0), \
            ("the timer ran during a reshuffle", seat)

    def challenge(self, seat, against, verdict):
        assert against == self.w4 and seat == self.turn and self.pend[0] == seat, ("challenge",)
        assert self.pend_drawn == 0, "a challenge comes before any draw"
        assert verdict == (V_ILLEGAL if self.w4_illegal else V_LEGAL), ("verdict", verdict)
        self.w4 = 0
        self.challenged = True
        self.stackable = False      # a lost challenge is drawn: stacking answers a card
        self.chain = 0              # (U1: no play nor draw, the window stays open)
        if verdict == V_ILLEGAL:
            self.pending_was = self.pend[1]   # the W4's player draws it; the challenger plays
            self.pend = None

    def waive(self, seat, n):
        """T4: draws no card is left for (penalties first, then a D's or W4's); H5: a seat
        that lays down its hand owes nothing (the table says so with waive events)."""
        if seat in self.laid:
            assert n <= self.voided.get(seat, 0), ("waived more than it owed", seat, n)
            self.voided[seat] -= n
            return
        assert self.dry(), "waived while cards are left"
        if self.debt.get(seat, 0):
            assert self.debt[seat] >= n, ("waive", seat, n, self.debt)
            self.debt[seat] -= n
            if not self.debt[seat]:
                del self.debt[seat]
            left = n
            for d in self.debts:
                if d[0] == seat:
                    k = min(left, d[1])
                    d[1] -= k
                    left -= k
            self.debts = [d for d in self.debts if d[1]]
            return
        assert self.pend == [seat, n], ("waive", seat, n, self.pend)
        self.pend = None
        self.lost_turn(seat)

    def round_over(self, w, pts):
        assert not self.pend and not self.debt, ("round over with draws owed", self.pend)
        if self.blocked:
            # T6: who wins a blocked round is test_property's check_round; the points here
            mates = self.team(w)
        elif self.rules.elimination == "yes":
            assert self.out, ("round over with no seat out", w)
            mates = self.team(self.out[-1])
            assert all(s in self.out for s in mates), ("round over: team still in", mates)
            if self.rules.teams:
                assert w in mates, ("winner", w, mates)
            else:
                assert w == self.out[0], ("winner", w, self.out)
        else:
            assert w == self.won and not self.hands[w], ("winner", w, self.won)
            mates = self.team(w)
        want = sum(points(c) for s in self.seats if s not in mates and s not in self.out
                   for c in self.hands[s])
        assert pts == want, ("points", pts, want)
        self.in_play = False
