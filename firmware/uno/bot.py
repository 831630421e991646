"""Random players at a physical table: they make the table inputs a real table would.

The bot holds the physical shoe (the cards in it: the hub never sees their order) and plays
every seat at random but legally; with `mistakes` > 0 it also makes bad inputs (unknown tags,
wrong cards, stray presses). Self-play, the property tests, the benchmarks and the example
scripts use it. Same seed, same inputs, under CPython and MicroPython alike.
"""
from uno.cards import DECK, NCARDS, WILD, RANK_DRAW2, RANK_WILD4
from uno.events import *  # noqa: F401,F403
from uno.rules import catalogue
from uno.table import SHOE, PLAY_TURN, PLAY_JUMP, PLAY_MORE, PLAY_STACK


class Rng:
    """A Lehmer generator: x = x * 48278 mod (2**30 - 35), the largest prime below 2**30 (48278 is
    a primitive root: every x in 1 .. 2**30 - 36 comes round). Two int operations a number, the
    same numbers on every interpreter, and x is one CPython digit: Park and Miller's 2**31 - 1
    took a long division a number, 5% of self-play (xorshift32 took eight operations)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) % 1073741789 or 1

    def next(self):
        self.x = x = self.x * 48278 % 1073741789
        return x

    def below(self, n):
        self.x = x = self.x * 48278 % 1073741789
        return x % n

    def chance(self, per_mille):
        self.x = x = self.x * 48278 % 1073741789
        return x % 1000 < per_mille

    def pick(self, seq):
        self.x = x = self.x * 48278 % 1073741789
        return seq[x % len(seq)]

    def shuffle(self, items):
        x = self.x
        for i in range(len(items) - 1, 0, -1):
            x = x * 48278 % 1073741789
            j = x % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.x = x


try:
    import micropython  # noqa: F401
    _SMALL_HEAP = True  # the heap bench's players run on the unix port
except ImportError:
    _SMALL_HEAP = False
# a sieve: 108 bytes on a small heap; CPython 3.11 indexes a tuple in one specialised step
_small = bytes if _SMALL_HEAP else tuple
# by colour << 4 | rank: colours 0-3 at 0-63, and -1 (a wild's, before its colour is named)
# at -16..-1, which are 64-79 (a list indexed by int: one specialised step, not dict.get)
_SIEVES = [None] * 80
# ... and the cards it lets through, a set: whether a hand holds one is one C call (most turns
# that draw would scan the whole hand); on a small heap one set of every card (scan it all)
_MAY = [None] * 80
_W4 = WILD << 4 | RANK_WILD4


def _sieve(key):
    """Per card, in turn with nothing pending, wanted or held back (T5): 1 if it may be played
    (its colour or the top card's rank, or a W), 2 if a W4 (C1's enforce: judge decides), else
    0. One bytes a pile's colour << 4 | rank, made once: the players scan whole hands."""
    colour = key >> 4
    rank = key & 15
    ok = _SIEVES[key] = _small(
        2 if f == _W4 else 1 if f >> 4 == colour or f >> 4 == WILD or f & 15 == rank else 0
        for f in DECK)
    _MAY[key] = _EVERY if _SMALL_HEAP else frozenset(c for c in range(NCARDS) if ok[c])
    return ok


def _slappers(t):
    # (its own function: a comprehension in next_input would make t a closure's cell there,
    # and every t.x a slower read on CPython)
    return [s for s in t.active if t.slap & (1 << s)]


class _Reads:
    """reads[card], (kind, the card's UID), on a small heap: made when asked (no 216 tuples)."""

    def __init__(self, kind, registry):
        self.kind = kind
        self.uid = registry.uid

    def __getitem__(self, card):
        return (self.kind, self.uid(card))


_EVERY_CARD = tuple(range(NCARDS))
_EVERY = frozenset(_EVERY_CARD)
# the cards that are no number (S, R, D, W, W4): no H5 sum with one of them in the hand
_NOT_NUMBER = frozenset(c for c in range(NCARDS) if DECK[c] & 15 > 9)
_TWINS = []
# the cards of each rank (H3: one more of the top card's), but on a small heap (scan the hand)
_OF_RANK = tuple(_EVERY if _SMALL_HEAP else frozenset(c for c in range(NCARDS) if DECK[c] & 15 == r)
                 for r in range(15))


def _twins():
    """Per card, its twins: the other copies of its face (H2: only they may jump in on it)."""
    _TWINS.extend(tuple(d for d in range(NCARDS) if DECK[d] == DECK[c] and d != c)
                  for c in range(NCARDS))
    return _TWINS


class Bot:
    def __init__(self, table, seats, seed=1, mistakes=0, call=800, catch=500, challenge=300,
                 rules=0, tick=0):
        """seats: the seats that join; chances are per mille: mistakes, calling UNO, catching,
        challenging a W4, changing a rule between rounds (rules), letting time pass (tick)."""
        self.t = table
        self.players = list(seats)
        self.rng = Rng(seed)
        self.mistakes = mistakes
        self.p_call = call
        self.p_catch = catch
        self.p_challenge = challenge
        self.shoe = []          # the cards in the physical shoe, the one read last
        self.p_rules = rules
        self.p_tick = tick
        self.clock = 0
        self.ms = 0 if tick else -1  # when the inputs are fed: none unless time passes
        self.seen_window = 0
        self.last_mistake = False
        self._round_rules()
        reg = table.registry
        # each card's read at the shoe and on the pad, the inputs, made once (the tuples are
        # immutable: no tuple built and freed a read), but on a small heap (the heap bench)
        if _SMALL_HEAP:
            self.shoe_reads = _Reads(IN_SHOE, reg)
            self.pad_reads = _Reads(IN_PAD, reg)
        else:
            self.shoe_reads = [(IN_SHOE, reg.uid(c)) for c in range(NCARDS)]
            self.pad_reads = [(IN_PAD, reg.uid(c)) for c in range(NCARDS)]

    def step(self):
        """Makes one input, feeds it to the table, keeps the physical shoe; returns the events."""
        inp = self.next_input()
        evs = self.t.feed(inp, self.ms)
        k = inp[0]
        if k == IN_SHOE:  # keep's first case, inline: the card read (last in the shoe) dealt or
            ev = evs[0]   # drawn; what else came of it (a turn, a skip) leaves the shoe alone
            code = ev[0]
            shoe = self.shoe
            if (code == DRAW or code == DEAL) and shoe and shoe[-1] == ev[2]:
                shoe.pop()
                return inp, evs
            self.keep(evs)
        elif k == IN_SHUFFLE:  # only these take cards from the shoe or fill it
            self.keep(evs)
        return inp, evs

    def keep(self, evs):
        shoe = self.shoe
        if len(evs) == 1:  # a card dealt or drawn, the top of the shoe: the usual case
            ev = evs[0]
            code = ev[0]
            if (code == DRAW or code == DEAL) and shoe and shoe[-1] == ev[2]:
                shoe.pop()
                return
        for ev in evs:
            code = ev[0]
            if code == SHUFFLE:
                # no order: each read takes a card at random from those left, which is what
                # the top of a shuffled shoe is (and a full shuffle cost a third more)
                if ev[1] == NCARDS:  # a new round's: every card (one allocation, on a small heap)
                    shoe[:] = _EVERY_CARD
                else:
                    loc = self.t.loc
                    shoe[:] = [c for c in range(NCARDS) if loc[c] == SHOE]
            elif code == DRAW or code == DEAL or code == DRAWOFF:
                self._take(ev[2])
            elif code == START:
                self._take(ev[1])
                self._round_rules()
            elif code == BACK:
                self._take(ev[1])
                shoe.append(ev[1])  # back among the others

    def _take(self, card):
        shoe = self.shoe
        if shoe and shoe[-1] == card:
            shoe.pop()
        else:
            shoe.remove(card)

    def next_input(self):
        rng = self.rng
        if self.mistakes:  # (last_mistake stays False without them)
            self.last_mistake = rng.chance(self.mistakes)
            if self.last_mistake:
                return self.mistake()
        t = self.t
        ph = t.phase
        if self.p_tick and ph != P_LOBBY:  # rng.chance(p_tick), inline (every input asks it)
            rng.x = x = rng.x * 48278 % 1073741789
            if x % 1000 < self.p_tick:
                self.clock = self.ms = self.clock + rng.below(4000)
                return (IN_TICK, self.clock)
        if ph != P_PLAY:  # (the lobby in here: one test fewer an input in play)
            if ph != P_DEAL:  # (the deal first: most inputs out of play)
                if ph == P_LOBBY:
                    for s in self.players:
                        if s not in t.seats:
                            return (IN_SEAT, s, 0)
                    for s in t.seats:
                        if s not in self.players:
                            return (IN_SEAT, s, 1)  # joined by mistake: leave
                    return (IN_SHUFFLE,)
                if ph == P_DEALER or ph == P_ROUND_OVER or ph == P_MATCH_OVER:
                    if ph != P_DEALER and self.p_rules and rng.chance(self.p_rules):
                        return self._rule()
                    return (IN_SHUFFLE,)
            shoe = self.shoe  # _read_shoe, inline: the deal, the start card, the draw for dealer
            n = len(shoe)
            if n:
                rng.x = x = rng.x * 48278 % 1073741789
                j = x % n
                c = shoe[j]
                shoe[j] = shoe[-1]
                shoe[-1] = c
                return self.shoe_reads[c]
            return (IN_SHUFFLE,)
        if t.slap:
            return (IN_SEAT, rng.pick(_slappers(t)), 0)
        if t.want:
            return (IN_COLOUR, self._best_colour(t.want), 0)
        w = t.window
        if w:
            if not t.called and self.seen_window != w:
                self.seen_window = w
                if rng.chance(self.p_call) and not t.caught:
                    return (IN_SEAT, w, 0)
                if rng.chance(self.p_catch):
                    s = rng.pick(t.active)
                    if s != w and not t.caught & (1 << s):
                        return (IN_SEAT, s, 0)
        elif self.seen_window:
            self.seen_window = 0
        if t.debts:
            return self._read_shoe()
        if t.sum_to >= 0:
            hands = t.hands
            by = t.sum_by
            for s in t.active:
                # a hand with a card that is no number makes no sum: one C call rules most out;
                # nor does its own number (hand_sum: -1), a third of the hands asked
                if s != by and _NOT_NUMBER.isdisjoint(hands[s]) and t.hand_sum(s) >= 0 \
                        and rng.chance(700):
                    return (IN_SEAT, s, 1)
        rules = t.rules
        if self.out_of_turn:  # rng.chance(300), inline
            rng.x = x = rng.x * 48278 % 1073741789
            if x % 1000 < 300:
                c = self._out_of_turn()
                if c >= 0:
                    return self.pad_reads[c]
        seat = t.turn
        if t.pending:
            if t.w4_from and rng.chance(self.p_challenge):
                return (IN_SEAT, seat, 1)
            if rules.stacking != "off" and t.answerable:
                for c in t.hands[seat]:
                    r = DECK[c] & 15  # only a D or a W4 may be stacked: judge no other card
                    if (r == RANK_DRAW2 or r == RANK_WILD4) and t.judge(seat, c)[0] == PLAY_STACK \
                            and rng.chance(700):
                        return self.pad_reads[c]
            return self._read_shoe()
        drawn = t.drawn
        if drawn != -1:
            if drawn < 0:  # draw=until draws on: only a card drawn may be played (T2)
                return self._read_shoe() if self.shoe or t.pile > 1 else (IN_SEAT, seat, 0)
            key = t.colour << 4 | DECK[t.top] & 15  # the sieve, as below (a W4, T5: judge)
            v = (_SIEVES[key] or _sieve(key))[drawn]
            if v == 2 or rules.last_card != "any" and len(t.hands[seat]) == 1:
                v = t.judge(seat, drawn)[0]
            if v and (rules.forced == "yes" or rng.chance(800)):
                return self.pad_reads[drawn]
            return (IN_SEAT, seat, 0)
        x = rng.x
        go = rules.forced == "yes"
        if not go:  # rng.chance(950), inline (every turn asks it)
            rng.x = x = x * 48278 % 1073741789
            go = x % 1000 < 950
        if go:
            # from a random place in the hand, the first card that may be played
            hand = t.hands[seat]
            n = len(hand)
            k = 0
            if n:  # rng.below(n), inline
                rng.x = x = x * 48278 % 1073741789
                k = x % n
            if n > 1 or rules.last_card == "any":
                # nothing is pending, drawn or wanted: for a coloured card the sieve (its colour,
                # number or symbol) is judge's answer; a W4 (C1's enforce) still asks judge
                key = t.colour << 4 | DECK[t.top] & 15
                ok = _SIEVES[key] or _sieve(key)
                if not _MAY[key].isdisjoint(hand):
                    if k:  # (two slices and a list beat negative indices, which CPython 3.11
                        hand = hand[k:] + hand[:k]  # reads unspecialised: a third slower)
                    for c in hand:
                        v = ok[c]
                        if v and (v == 1 or t.judge(seat, c)[0] == PLAY_TURN):
                            return self.pad_reads[c]
            else:  # a last card: T5's option may hold it back
                for c in hand:
                    if t.judge(seat, c)[0] == PLAY_TURN:
                        return self.pad_reads[c]
        shoe = self.shoe  # _read_shoe, inline: most turns draw
        n = len(shoe)
        if n:
            rng.x = x = rng.x * 48278 % 1073741789
            j = x % n
            c = shoe[j]
            shoe[j] = shoe[-1]
            shoe[-1] = c
            return self.shoe_reads[c]
        if t.pile <= 1:
            return (IN_SEAT, seat, 0)  # nothing left to draw: pass
        return (IN_SHUFFLE,)

    def _round_rules(self):
        """What the round's rules let the players do (no rule changes in a round)."""
        rules = self.t.rules
        self.out_of_turn = rules.jump_in != "off" or rules.multi != "off"

    def _out_of_turn(self):
        """A jump-in (H2) or one more card of a multi-play (H3), if some seat has one: the card,
        else -1."""
        t = self.t
        top = t.top
        if top < 0:
            return -1
        turn = t.turn
        loc = t.loc
        for c in _TWINS[top] if _TWINS else _twins()[top]:  # only a twin may jump in
            s = loc[c]
            if s != turn and s in t.active and t.judge(s, c)[0] == PLAY_JUMP:
                return c
        s = t.chain
        if s and s != turn:  # the top card's number or symbol adds on
            rank = DECK[top] & 15
            hand = t.hands[s]
            if not _OF_RANK[rank].isdisjoint(hand):  # (one C call: most hands hold none)
                for c in hand:
                    if DECK[c] & 15 == rank and t.judge(s, c)[0] in (PLAY_JUMP, PLAY_MORE):
                        return c
        return -1

    def _rule(self):
        """A random rule change that keeps the seats playable (not hand size, teams, dealer)."""
        rng = self.rng
        while True:
            name, default, allowed, rule = rng.pick(catalogue())
            if name not in ("hand_size", "teams", "first_dealer"):
                break
        if isinstance(allowed[0], int):
            value = allowed[0] + rng.below(min(allowed[1], 30) - allowed[0] + 1)
        else:
            value = rng.pick(allowed)
        return (IN_RULE, name, value)

    def _read_shoe(self):
        """A card from the shoe: any of those left, at random (it goes last, as step expects)."""
        shoe = self.shoe
        if not shoe:
            return (IN_SHUFFLE,)
        rng = self.rng  # rng.below, inline
        rng.x = x = rng.x * 48278 % 1073741789
        j = x % len(shoe)
        c = shoe[j]
        shoe[j] = shoe[-1]
        shoe[-1] = c
        return self.shoe_reads[c]

    def _best_colour(self, seat):
        counts = [0, 0, 0, 0, 0]
        for c in self.t.hands[seat]:
            counts[DECK[c] >> 4] += 1
        counts[WILD] = 0  # (a wild names no colour: ties and none go to the first colour)
        return counts.index(max(counts))

    def mistake(self):
        """A bad input: any of these may happen at a real table."""
        rng = self.rng
        t = self.t
        k = rng.below(9)
        if k == 8:
            return self._rule() if rng.chance(700) else (IN_RULE, "hand_size", 99)
        if k == 0:
            return (IN_PAD, b"\x04\x99\x99\x99\x99\x99" + bytes((rng.below(256),)))
        if k == 1:
            return (IN_PAD, t.registry.uid(rng.below(NCARDS)))
        if k == 2:
            return (IN_SHOE, t.registry.uid(rng.below(NCARDS)))
        if k == 3:
            return (IN_SEAT, rng.below(12), rng.below(2))
        if k == 4:
            return (IN_COLOUR, rng.below(5), 0)
        if k == 5:
            return (IN_SHUFFLE,)
        if k == 6:
            return (IN_TICK, rng.below(100000))
        if t.top >= 0:
            return (IN_PAD, t.registry.uid(t.top))  # the same tap read twice
        return (IN_SEAT, rng.pick(t.seats) if t.seats else 1, 1)
