"""Take-backs at a model of the physical table (issue 10): random rounds where the players move
the cards by hand, checked against the engine's record.

The model keeps the 108 physical cards where the players have put them, in order where the
order is physical: the shoe (a stack: a read takes its top card), each seat's hand, the discard
pile (a stack: a play lays the card read on top), the cards set aside. It is kept from what the
players do, never from Table.loc or Table.hands:

- a player decides by face, from the engine's public view (uno.bot.Bot's decisions: "play an
  R1", "draw"); a draw reads whatever card is on top of the physical shoe; a play reads the
  copy of that face the seat physically holds, one at random among several (the card drawn for
  the turn, T2, is kept apart and played itself where it is in that hand);
- the events say where the card read goes (deal, draw, drawoff, start, back, play), where a
  shuffle puts the cards (in a random order) and where a 0 passes the hands (H4);
- a take-back (IN_UNDO, 1..3, at random moments) is carried out from its `card_back` events,
  in their order: the player takes a card of that face from the place named and, where that
  place holds several copies of the face, one AT RANDOM (two copies look alike: the point of
  the test). Off the discard pile it takes the topmost copy (only the pile's order tells
  copies apart). The hands a 0 passed go back whole: every seat passes at once;
- cards going back to the shoe go on top of it: the next draw reads the last one put back (the
  table assumes no order in the shoe: any card in it may be read next, and the bot reads them
  at random, so a stack is one order among those it must take). Cards going back onto the pile
  go under the table's top card, and the top card, when it moves too, last, on top. A start
  card put back (S4's `back`) goes into the shoe below its top card.

The players take any copy everywhere (AT_RANDOM_EVERYWHERE): out of the shoe, a hand or the
cards set aside, onto the pile or aside; the table takes whichever turns up (a pair in doubt,
uno/takeback.py's _in_doubt and twin). False: where the table once could not take the other
copy (a drawn twin put back on the pile when a reshuffle is taken back, two copies restacked,
a draw for dealer taken back, and after the next reshuffle), the players take the copy named,
and where a copy confused earlier is named out of such a place, the two trade places in the
model (`gaps` counts it).

After every input: (1) each seat's hand holds the same faces in the engine and on the table,
the pile's top card has the face of the table's top card, and the shoe, pile and set-aside
counts agree (after a take-back, a 0's rotation, a `twins` event and every 16th input, the
pile's and the set-aside cards' faces too); (2) no read the players made is refused: the bot
makes only legal inputs, so a refusal of the physical copy is one of copy identity (R_IN_HAND,
R_IN_SHOE, R_ON_PILE, R_ASIDE, R_ONLY_DRAWN, R_NOT_TURN for a twin in another hand ...), and
the events name the copy read; (3) every round ends within ROUND_BOUND inputs; (4) a `twins`
event comes only after a take-back in the round left that pair in doubt (in t.doubt before the
input), for a copy really confused: the card read was not where the table had it. The
negative property, at random moments: a hand's card waved over the shoe, and the shoe's top
card on the pad, with no pair of its face in doubt, are refused and change nothing (the state,
and the take-back's log).

Under CPython MATCHES matches of two rounds take some 5 s; seeds 1 to 20,000 (40,000 rounds,
half a million take-backs, 180,000 moves where a player chose among copies, 16,000 `twins`
events) pass. run(seeds) returns the counts; a seed
alone: Match(seed).play(2).
"""
import sys
from uno.bot import Bot, Rng
from uno.cards import DECK, NCARDS, copy_name, parse_card
from uno.events import *
from uno.rules import Settings, catalogue
from uno.state import snapshot
from uno.table import Table, SHOE, PILE, ASIDE, MAX_SEAT
from uno.words import REASONS
from kit import act, deal, names, random_seats

MICRO = sys.implementation.name == "micropython"
MATCHES = 30 if MICRO else 320   # seeded matches of ROUNDS_EACH rounds, the four cases in turn
ROUNDS_EACH = 2
# (3): the inputs from a round's end (or the match's start) to the next round's end, take-backs
# included. Random players make a random walk with no hard ceiling (test_property.py's
# liveness test bounds each turn, 160 inputs): over 40,000 rounds of these matches (seeds 1 to
# 20,000) the longest took 69,332 inputs (seed 12127: draw until, a 3 s turn timer, elimination;
# the timer's penalties fill the hands, as in test_property.py's ROUND_CAP); of the first 800,
# the median took 210 and 1 in 100 over 1,275. ROUND_BOUND, that cap, turns a round that never
# ends into a failure with its seed.
ROUND_BOUND = 200000
AT_RANDOM_EVERYWHERE = True  # False: the copy named out of the shoe or aside, onto the pile
# bench/selfplay.py's every house rule (teams=2 where the seats make two teams of 2 or more)
EVERYTHING = {"preset": "party", "forced": "yes", "scoring": "losers", "elimination": "yes",
              "teams": 2}
_IDENTITY = (R_UNKNOWN, R_IN_HAND, R_ON_PILE, R_TWICE, R_IN_SHOE, R_ASIDE, R_ONLY_DRAWN)


class Physical:
    """The physical cards where the players have put them: lists of card indices, bottom to top
    for the shoe and the pile."""

    def __init__(self, rng):
        self.rng = rng
        self.shoe = list(range(NCARDS))
        self.hands = [[] for _ in range(MAX_SEAT + 1)]
        self.pile = []
        self.aside = []
        self.chose = 0  # take-back moves where a player chose among copies of a face
        self.gaps = 0   # copies confused where the table cannot take the other yet

    def place(self, p):
        if p == SHOE:
            return self.shoe
        if p == PILE:
            return self.pile
        if p == ASIDE:
            return self.aside
        return self.hands[p]

    def where(self, card):
        for p in range(ASIDE + 1):
            if card in self.place(p):
                return p
        return -1

    def gather(self):
        """A new round's shuffle: every card into the shoe, in a random order."""
        for h in self.hands:
            del h[:]
        del self.pile[:]
        del self.aside[:]
        self.shoe = list(range(NCARDS))
        self.rng.shuffle(self.shoe)

    def top(self):
        return self.shoe[-1] if self.shoe else -1

    def copy_in(self, seat, card, drawn):
        """The copy of a card's face a seat plays: any it holds, at random; the card drawn for
        its turn (T2) is kept apart and played itself, where it is in that hand."""
        hand = self.hands[seat]
        if drawn and card in hand:
            return card
        return self.rng.pick([c for c in hand if DECK[c] == DECK[card]])

    def card_back(self, card, frm, to, under=-1):
        """A take-back's `card_back`, carried out by face: returns the physical card moved.
        under: the table's top card, when cards go back onto the pile under it."""
        face = DECK[card]
        src = self.place(frm)
        at = [i for i in range(len(src)) if DECK[src[i]] == face]
        assert at, "no %s in place %d" % (copy_name(card), frm)
        if frm == PILE:
            i = at[-1]  # off the pile (onto it again too): the topmost copy (the pile's order
            # tells them apart; a card laid again since a reshuffle lies above the top card)
        elif not AT_RANDOM_EVERYWHERE and (frm == SHOE or frm == ASIDE or to == PILE or
                                           to == ASIDE):
            # the copy named: the table cannot take the other there yet (the docstring)
            if card not in src:
                # the one named is where a player put its twin by mistake (a hand's copy sent
                # back to the shoe, say): the two trade places, and it counts
                p = self.place(self.where(card))
                k = self.rng.pick(at)
                p[p.index(card)] = src[k]
                src[k] = card
                self.gaps += 1
            i = src.index(card)
        else:
            if len(at) > 1:
                self.chose += 1
            i = self.rng.pick(at)
        c = src.pop(i)
        dst = self.place(to)
        if to == PILE and under >= 0:
            # under the table's top card, which stays on top (a card laid on it since a
            # reshuffle, from the pile to the pile, too): that copy, else the topmost of its face
            j = dst.index(under) if under in dst else len(dst) - 1
            while j >= 0 and DECK[dst[j]] != DECK[under]:
                j -= 1
            dst.insert(max(j, 0), c)
        else:
            dst.append(c)  # on top of the shoe, or the pile's top card again
        return c

    def pass_hands(self, moves):
        """A 0's hands (H4) taken back: each seat takes the cards named out of its hand (a copy
        of each face at random), then all hand theirs on at once."""
        out = []
        for e in moves:
            hand = self.hands[e[2]]
            at = [i for i in range(len(hand)) if DECK[hand[i]] == DECK[e[1]]]
            assert at, "no %s in hand %d" % (copy_name(e[1]), e[2])
            if len(at) > 1:
                self.chose += 1
            out.append((hand.pop(self.rng.pick(at)), e[3]))
        for c, to in out:
            self.hands[to].append(c)


def faces(cards):
    return sorted([DECK[c] for c in cards])


def at(where):
    """(seed, the events of the input checked) in words"""
    return "seed %d, after %r" % where


def check(t, ph, where):
    """Property (1), after every input: every hand holds the same faces in the engine and on
    the table; the shoe's, the pile's and the set-aside counts agree; the top card's face."""
    hands = t.hands
    n = 0
    for s in range(1, MAX_SEAT + 1):
        a = hands[s]
        b = ph.hands[s]
        k = len(a)
        n += k
        if k != len(b) or k and (DECK[a[0]] != DECK[b[0]] if k == 1 else faces(a) != faces(b)):
            raise AssertionError("%s: seat %d holds %s, the table has %s" % (
                at(where), s, cards_named(b), cards_named(a)))
    if len(ph.shoe) != t.shoe or len(ph.pile) != t.pile or len(ph.aside) != NCARDS - n - \
            t.shoe - t.pile:
        raise AssertionError("%s: shoe %d, pile %d, aside %d; the table's %d, %d, %d" % (
            at(where), len(ph.shoe), len(ph.pile), len(ph.aside), t.shoe, t.pile,
            NCARDS - n - t.shoe - t.pile))
    if t.top >= 0 and t.pile and DECK[ph.pile[-1]] != DECK[t.top]:
        raise AssertionError("%s: the pile's top card is %s, the table's %s" % (
            at(where), copy_name(ph.pile[-1]), copy_name(t.top)))


def check_all(t, ph, where):
    """(1), and the pile's and the set-aside cards' faces."""
    check(t, ph, where)
    loc = t.loc
    assert faces(ph.pile) == faces([c for c in range(NCARDS) if loc[c] == PILE]), at(where)
    assert faces(ph.aside) == faces([c for c in range(NCARDS) if loc[c] == ASIDE]), at(where)


def cards_named(cards):
    return " ".join(copy_name(c) for c in cards)


def live(t, face):
    """Whether a take-back left a pair of this face in doubt (takeback.twin would take it)."""
    d = t.doubt
    loc = t.loc
    for i in range(0, len(d), 3):
        if DECK[d[i]] == face and kind(loc[d[i]]) | kind(loc[d[i + 1]]) << 2 == d[i + 2]:
            return True
    return False


def kind(p):
    return 0 if p == SHOE else 1 if p < PILE else 2 if p == PILE else 3


def settings_for(case, rng, seats):
    """0: official (the draw for dealer sets cards aside, S2); 1: every house rule; 2: draw
    until (T2) with forced play or not, and the rules that move cards (H1-H4); 3: any
    setting at random."""
    if case == 0:
        return Settings()
    if case == 1:
        v = dict(EVERYTHING)
        if len(seats) % 2 or len(seats) < 4:
            v["teams"] = 0
        return Settings(v)
    if case == 2:
        return Settings({"draw": "until", "forced": rng.pick(("yes", "no")),
                         "stacking": rng.pick(("off", "on", "w4_on_d")),
                         "jump_in": rng.pick(("off", "identical", "actions")),
                         "multi": rng.pick(("off", "same", "identical")),
                         "zero_rotate": rng.pick(("no", "yes")),
                         "w4": rng.pick(("challenge", "enforce")), "misplay": rng.below(3),
                         "hand_size": 5 + rng.below(11)})
    v = {}
    for name, default, allowed, rule in catalogue():
        if rng.chance(500) or name in ("teams", "first_dealer", "target", "hand_size"):
            continue
        if isinstance(allowed[0], int):
            v[name] = allowed[0] + rng.below(min(allowed[1], 4) - allowed[0] + 1)
        else:
            v[name] = rng.pick(allowed)
    v["hand_size"] = 1 + rng.below(15)
    v["first_dealer"] = rng.pick([0] + seats)
    v["target"] = 50 + rng.below(500)
    return Settings(v)


class Match:
    """One seeded match: 2 to 6 seats, the settings of case seed % 4, the players' chances."""

    def __init__(self, seed):
        rng = Rng(seed)
        self.seed = seed
        self.case = seed % 4
        seats = random_seats(rng, 6)
        self.t = t = Table(settings_for(self.case, rng, seats))
        self.bot = Bot(t, seats, seed=seed, call=rng.below(1000), catch=rng.below(1000),
                       challenge=rng.below(1000), rules=rng.pick((0, 0, 300)),
                       tick=100 if t.rules.turn_timer else 0)
        self.rng = rng
        self.ph = Physical(Rng(seed + 7))
        self.p_undo = rng.pick((10, 30, 80))  # per mille, per input
        self.stream = []     # every input fed, with its time: a failure names the last ones
        self.fed = 0         # inputs fed
        self.undone = False  # a take-back in this round
        self.undos = self.twins = self.probes = self.longest = self.rounds = 0

    def fail(self, what):
        raise AssertionError("seed %d (case %d), input %d: %s; the last inputs %r (alone: "
                             "Match(%d).play(%d), .stream has them: micropython's the last "
                             "ones)" % (
                                 self.seed, self.case, self.fed, what,
                                 self.stream[-12:], self.seed, ROUNDS_EACH))

    def feed(self, inp, ms):
        self.fed += 1
        self.stream.append((inp, ms))
        if MICRO and len(self.stream) > 64:  # (the last ones only: a long match's list is
            del self.stream[:32]             # more than a fragmented 8 MB heap finds a run for)
        return list(self.t.feed(inp, ms))

    def sync_shoe(self):
        """The bot's shoe is the table's (it only reads the count and picks a card, which the
        physical shoe's top replaces)."""
        loc = self.t.loc
        self.bot.shoe = [c for c in range(NCARDS) if loc[c] == SHOE]

    def take_back(self):
        t = self.t
        ph = self.ph
        n = 1 + self.rng.below(3)
        evs = self.feed((IN_UNDO, n), self.bot.ms)
        if evs[0][0] == REJECT:  # past the round's start (test_takeback.py checks the reach)
            assert evs == [(REJECT, R_UNDO_PAST, 0, -1)], evs
            return
        assert evs[0] == (UNDO, n), evs
        self.undos += 1
        self.undone = True
        moves = [e for e in evs if e[0] == CARD_BACK]
        under = -1 if t.top < 0 or [e for e in moves if e[1] == t.top] else t.top
        passed = False
        for e in moves:
            if 0 < e[2] <= MAX_SEAT and 0 < e[3] <= MAX_SEAT:
                if not passed:  # H4's hands go back whole: every seat passes at once
                    passed = True
                    ph.pass_hands([m for m in moves if 0 < m[2] <= MAX_SEAT and
                                   0 < m[3] <= MAX_SEAT])
                continue
            ph.card_back(e[1], e[2], e[3], under)
        self.sync_shoe()
        check_all(t, ph, (self.seed, evs))

    def probe(self):
        """The negative property: a hand's card over the shoe, with no pair of its face in
        doubt, is refused and changes nothing; so is the shoe's top card on the pad."""
        t = self.t
        ph = self.ph
        hand = ph.hands[self.rng.pick(self.bot.players)]
        if hand:
            c = self.rng.pick(hand)
            if not live(t, DECK[c]):
                self.unchanged((IN_SHOE, t.registry.uid(c)))
        c = ph.top()
        if c >= 0 and not live(t, DECK[c]):
            self.unchanged((IN_PAD, t.registry.uid(c)))

    def unchanged(self, inp):
        t = self.t
        before = snapshot(t)
        n = t.back.n
        evs = list(t.feed(inp))  # no time: a refused read then logs nothing
        if len(evs) != 1 or evs[0][0] != REJECT:
            self.fail("%r of %s taken: %r" % (inp, copy_name(t.registry.card(inp[1])), evs))
        if snapshot(t) != before or t.back.n != n:
            self.fail("%r, refused, changed the table" % (inp,))
        self.probes += 1

    def step(self):
        """One input the players make: checked, carried out; returns its events."""
        t = self.t
        bot = self.bot
        ph = self.ph
        phase = t.phase
        inp = bot.next_input()
        kind = inp[0]
        read = mine = -1
        if kind == IN_SHOE:
            mine = t.registry.card(inp[1])
            read = ph.top()
            if read < 0:
                self.fail("the table wants a card from an empty shoe")
            inp = (IN_SHOE, t.registry.uid(read))
        elif kind == IN_PAD:
            mine = t.registry.card(inp[1])
            read = ph.copy_in(t.loc[mine], mine, mine == t.drawn)
            inp = (IN_PAD, t.registry.uid(read))
        doubt = list(t.doubt)
        loc = bytes(t.loc) if doubt else None
        active = list(t.active)
        evs = self.feed(inp, bot.ms)
        if evs == [(REJECT, R_MATCH_ON, 0, -1)] and kind == IN_RULE:
            return evs  # the players' referee changed the scoring or teams mid-match (M2, M4)
        if evs and evs[0][0] == REJECT:  # (2)
            why = evs[0][1]
            self.fail("%s read %s (the table's %s) refused: %s%s" % (
                {IN_SHOE: "shoe", IN_PAD: "pad"}.get(kind, "input"),
                copy_name(read) if read >= 0 else "-", copy_name(mine) if mine >= 0 else "-",
                REASONS[why], " (copy identity)" if why in _IDENTITY else ""))
        sync = full = False
        for e in evs:
            k = e[0]
            if k == DEAL or k == DRAW:
                assert e[2] == read and ph.shoe[-1] == read, (e, read)
                ph.hands[e[1]].append(ph.shoe.pop())
            elif k == PLAY:
                assert e[2] == read, (e, read)
                ph.hands[e[1]].remove(read)
                ph.pile.append(read)
            elif k == DRAWOFF:
                assert e[2] == read, (e, read)
                ph.aside.append(ph.shoe.pop())
                sync = True
            elif k == START:
                assert e[1] == read, (e, read)
                ph.pile.append(ph.shoe.pop())
                sync = True
            elif k == BACK:  # S4: back into the shoe, below its top card
                assert e[1] == read, (e, read)
                ph.shoe.pop()
                ph.shoe.insert(ph.rng.below(len(ph.shoe)), read)
            elif k == ROTATE:  # H4: every hand passes on, as the players sit
                full = True
                n = len(active)
                moved = [ph.hands[s] for s in active]
                for i in range(n):
                    ph.hands[active[(i + e[1]) % n]] = moved[i]
            elif k == SHUFFLE:
                sync = True
                if e[1] == NCARDS:
                    ph.gather()
                    self.undone = False
                elif phase == P_DRAWOFF:  # S2: the cards set aside go back, shuffled
                    assert not ph.shoe
                    ph.shoe = ph.aside
                    ph.aside = []
                    ph.rng.shuffle(ph.shoe)
                else:  # T4: the pile but its top card
                    assert not ph.shoe
                    ph.shoe = ph.pile[:-1]
                    del ph.pile[:-1]
                    ph.rng.shuffle(ph.shoe)
            elif k == TWINS:  # (4)
                sync = full = True
                self.twins += 1
                card, copy = e[1], e[2]
                pair = False
                for i in range(0, len(doubt), 3):
                    if (doubt[i], doubt[i + 1]) in ((card, copy), (copy, card)):
                        pair = True
                if not (self.undone and pair and card == read and DECK[card] == DECK[copy]):
                    self.fail("twins %r with no pair in doubt (%r)" % (e, doubt))
                if ph.where(card) == loc[card]:
                    self.fail("twins %r, but %s was where the table had it" % (
                        e, copy_name(card)))
        if kind == IN_SHOE and not sync and evs and evs[0][0] in (DEAL, DRAW):
            bot.shoe.remove(read)
        elif sync or kind == IN_SHUFFLE or len(bot.shoe) != t.shoe:
            self.sync_shoe()
        if full or self.fed % 16 == 0:
            check_all(t, ph, (self.seed, evs))
        else:
            check(t, ph, (self.seed, evs))
        return evs

    def play(self, rounds_wanted, inputs=0):
        """inputs: stop after that many inputs fed, if the rounds are not over by then."""
        t = self.t
        rng = self.rng
        since = 0
        while self.rounds < rounds_wanted and not (inputs and self.fed >= inputs):
            if rng.chance(self.p_undo):
                self.take_back()
            else:
                if rng.chance(15):
                    self.probe()
                for e in self.step():
                    if e[0] == ROUND_OVER:
                        self.rounds += 1
                        self.longest = max(self.longest, since)
                        since = 0
                        self.undone = False
            since += 1
            if since > ROUND_BOUND:  # (3)
                self.fail("round %d has not ended" % (self.rounds + 1))
        check_all(t, self.ph, (self.seed, "the match"))
        return self


def test_t4_a_reshuffle_taken_back_puts_a_renamed_copy_back_where_it_was_laid():
    # Found by `make soak` (seed 933324771, input 6661): a take-back found a hand's W4b read at
    # the shoe for the W4a it held (a twins read), and a later one took that read back with
    # the reshuffle before it. The swap stays (what the read found), so the pile's W4 is W4b
    # now; but the order the pile's cards go back in was the one its old name was laid in:
    # R3b, laid before it, went back on top of it.
    Match(933324771).play(1, inputs=6661)


def run(seeds, rounds=ROUNDS_EACH):
    """[rounds, take-backs, twins events, copies chosen at random, gaps, probes, longest]"""
    stats = [0] * 7
    for seed in seeds:
        m = Match(seed).play(rounds)
        for i, v in enumerate((m.rounds, m.undos, m.twins, m.ph.chose, m.ph.gaps, m.probes)):
            stats[i] += v
        stats[6] = max(stats[6], m.longest)
    return stats


def test_takeback_physical_tables_agree_with_the_table_by_face():
    """Official, every house rule, draw until and random tables, 2 to 6 seats."""
    rounds, undos, twins, chose, gaps, probes, longest = run(range(1, MATCHES + 1))
    # the matches reach what they are for: take-backs where a player had a choice of copies,
    # twins read, stray reads refused
    assert undos > 10 * MATCHES and chose > MATCHES and twins > MATCHES // 4 and probes > MATCHES
    assert longest < ROUND_BOUND


# ---- what the property found (each pinned on its own) -------------------------------------

def card(text):
    return parse_card(text)[1]


def backs(evs):
    return [(copy_name(e[1]), e[2], e[3]) for e in evs if e[0] == CARD_BACK]


def doubted(t):
    """The copies in t.doubt, pair by pair (x, y, kinds: uno/takeback.py's _in_doubt)."""
    return [t.doubt[i] for i in range(len(t.doubt)) if i % 3 < 2]


def _read(t, kind, text):
    return list(t.feed((kind, t.registry.uid(card(text)))))


def test_takeback_a_twin_passed_back_with_a_hand_a_zero_passed_is_in_doubt():
    """zero_rotate: seat 1's R0 passes R1a to seat 2 with its hand, and seat 2 draws R1b; both
    taken back. Seat 2 holds both R1s: it may put either on the shoe and pass the other back
    to seat 1 with the hand. The pair is in doubt (only a twin left in that hand was): seat 1
    plays the R1 it got, R1b, and the table takes it as R1a (R_IN_SHOE before: the seat could
    not play its own card)."""
    t = deal({1: "R0 R1a G2", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"}, start="R5", zero_rotate="yes")
    act(t, "pad R0", "shoe R1b")
    evs = act(t, "undo 2")
    assert ("R1b", 2, SHOE) in backs(evs) and ("R1a", 2, 1) in backs(evs)
    assert doubted(t) == [card("R1b"), card("R1a")]
    evs = _read(t, IN_PAD, "R1b")
    assert names(evs)[:2] == ["twins", "play"] and evs[1][1:] == (1, card("R1b"))
    assert t.loc[card("R1a")] == SHOE and doubted(t) == []


def test_takeback_the_hands_a_zero_passed_go_back_before_a_card_comes_off_the_pile():
    """zero_rotate, 2 seats: seat 1's R0 passes R7a to seat 2, which plays it; both taken back.
    R7a goes back to seat 1, which holds seat 2's R7b meanwhile, to pass back. Off the pile
    first, seat 1 held both R7s when it passed the hand: either could go to seat 2, and seat
    2's next R7 on the pad would be taken as seat 1's (a misplay charged to a seat that did
    nothing). The hands go back first, then the cards off the pile, top card first."""
    t = deal({1: "R0 R7a G2", 2: "R7b B7 B8"}, start="R5", zero_rotate="yes")
    act(t, "pad R0", "pad R7a")
    evs = act(t, "undo 2")
    assert backs(evs) == [("R7b", 1, 2), ("B7a", 1, 2), ("B8a", 1, 2), ("G2a", 2, 1),
                          ("R7a", PILE, 1), ("R0a", PILE, 1)], backs(evs)


def _reshuffled(play_drawn):
    """7 seats: R6a, R2a and R3a laid on the start card R5a in that order; the shoe drawn
    empty (B9a, G9a); the pile but R3a reshuffled; seat 6 draws R5a (and plays it)."""
    from test_disputes_record import short_shoe
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a"})
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe B9a", "shoe G9a", "shuffle", "shoe R5a")
    if play_drawn:
        act(t, "pad R5a")
    return t


def test_takeback_cards_back_onto_the_pile_go_in_the_order_they_were_laid():
    """The reshuffle and seat 6's draw taken back: R5a, R6a and R2a go back under the top card
    R3a in the order they were laid, bottom first (they went in deck order: R2a, R6a, then R5a
    from the hand). A later take-back of R3a's play left R2a the table's top card and R5a the
    pile's."""
    t = _reshuffled(False)
    evs = act(t, "undo 2")
    assert backs(evs) == [("R5a", 6, PILE), ("R6a", SHOE, PILE), ("R2a", SHOE, PILE)]
    evs = act(t, "undo 3")  # the pile is R5a R6a R2a R3a: the top card comes off
    assert ("R3a", PILE, 3) in backs(evs) and copy_name(t.top) == "R2a"


def test_takeback_a_card_laid_again_since_a_reshuffle_goes_back_under_the_top_card():
    """R5a, reshuffled, drawn and played again: the reshuffle, the draw and the play taken
    back. R5a was on the pile before and is again, on top of R3a, the table's top card again:
    it goes from the pile to the pile, under R3a, in the order it was laid (it had no event:
    the pile showed R5 where the table had R3)."""
    t = _reshuffled(True)
    evs = act(t, "undo 3")
    assert backs(evs) == [("R5a", PILE, PILE), ("R6a", SHOE, PILE), ("R2a", SHOE, PILE)]
    assert copy_name(t.top) == "R3a"
    from uno.narrate import say
    assert say(evs[1]) == "R5 goes back into the discard pile, under its top card"


def test_takeback_a_third_copy_stays_in_doubt_once_its_twin_is_played():
    """Seat 1 holds Wa and Wb, draws Wc, and the draw is taken back: Wc is in doubt with both.
    The player put Wb back and plays Wc: the table takes Wa as the shoe's W (the first pair).
    The shoe's W may still be Wb: a draw of Wb is taken as Wa's (R_IN_HAND before: the other
    pair still named Wc, on the pile by then)."""
    t = deal({1: "Wa Wb G2", 2: "G5 B7 B8"}, start="B5")
    _read(t, IN_SHOE, "Wc")
    act(t, "undo")
    assert doubted(t) == [card("Wc"), card("Wa"), card("Wc"), card("Wb")]
    assert names(_read(t, IN_PAD, "Wc"))[:2] == ["twins", "play"]
    assert doubted(t) == [card("Wa"), card("Wb")]
    act(t, "colour G")
    evs = _read(t, IN_SHOE, "Wb")
    assert evs[0] == (TWINS, card("Wb"), card("Wa")) and evs[1][1:3] == (2, card("Wb"))


def test_takeback_t2_the_card_drawn_to_play_is_the_copy_the_hand_kept():
    """Seat 1 draws R4b, which it may play (T2), and passes; seat 2's RD makes it draw R4a. The
    draw, the RD and the pass taken back: seat 1 may play its drawn card again, and R4a is in
    doubt with R4b. The player put R4b back: the R4 it plays is R4a, taken as the card it drew
    (R_ONLY_DRAWN before: the table still named R4b, gone to the shoe)."""
    t = deal({1: "G2 G3", 2: "RD Y2"}, start="R5")
    act(t, "shoe R4b", "seat 1", "pad RD", "shoe R4a")
    act(t, "undo 3")
    assert doubted(t) == [card("R4a"), card("R4b")] and t.drawn == card("R4b") and t.turn == 1
    evs = _read(t, IN_PAD, "R4a")
    assert names(evs)[:2] == ["twins", "play"] and t.top == card("R4a")


def test_takeback_a_read_that_found_two_copies_confused_stays_found_once_taken_back():
    """The deal taken back to R1b, which is in doubt with R1a (seat 1's). G2 is dealt to seat 1,
    then the R1 seat 1 put back, R1a, to seat 2 (`twins`). Both deals taken back: G2 and seat
    2's R1 go back to the shoe. It had undone the twins too: seat 1's R1 to the shoe and seat
    2's to seat 1, one copy sent to the other's place (a seat holding two Ws picked either)."""
    t = deal({1: "R1a R1b G2", 2: "G5 B7 B8"}, start=None)
    act(t, "undo", "undo", "undo", "undo")
    assert doubted(t) == [card("R1b"), card("R1a")]
    act(t, "shoe G2a")
    assert names(_read(t, IN_SHOE, "R1a")) == ["twins", "deal"]
    evs = act(t, "undo 2")
    assert backs(evs) == [("G2a", 1, SHOE), ("R1a", 2, SHOE)], backs(evs)
    assert t.hands[1] == [card("R1b")]
