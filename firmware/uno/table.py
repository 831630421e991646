"""The referee: a deterministic function of (settings, registry, table inputs) -> events.

Table.feed(input) judges one table input and returns the events it decided. The state is the
replay of the inputs: nothing here reads a clock, a pin or a file (time comes in as tick
inputs). An input that does not fit is answered by a `reject` event and leaves the state
untouched; a few house rules attach a cost to one (P1, U3, U4).

Where every card is: loc[card] is SHOE, a seat 1..10 (its hand), PILE (discard) or ASIDE.
Rule ids (SPEC 4) are named where each rule is decided.
"""
try:
    from micropython import const
    import micropython
    _HOST = const(0)  # the board's compiler drops each `if _HOST:` branch: no test an input
except ImportError:  # CPython
    def const(x):
        return x

    class micropython:  # type: ignore[no-redef]
        # @micropython.native (the per-input methods, issue 10: 2-3x faster under MicroPython)
        # is its compiler's own word: nothing here. A frozen image runs them as machine code
        # from flash; copied files get them as bytecode (host/unotable/build.py says why).
        native = staticmethod(lambda f: f)
    globals()["_HOST"] = True  # (not `_HOST =`: the board's parser reads its const there)

from uno.cards import DECK, points
from uno.rules import Settings
from uno.takeback import TakeBack

if _HOST:
    def _places(n):
        # ahead and behind: CPython 3.11 indexes a list in one specialised step and a
        # bytearray through the generic subscript (loc stays bytes: the take-back packs it
        # at every segment's start, where a list costs more than its reads save)
        return [0] * n
else:
    _places = bytearray  # the board: a byte each

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_BACK = const(8)
_BLOCKED = const(39)
_CATCH = const(22)
_CHALLENGE = const(23)
_COLOUR = const(11)
_DEAL = const(6)
_DEALER = const(5)
_DRAW = const(12)
_DRAWOFF = const(4)
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_SEAT = const(3)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
_IN_TICK = const(6)
_IN_RULE = const(7)
_IN_UNDO = const(8)
_IN_PLAYER = const(9)
_JOIN = const(1)
_JUMP = const(31)
_LEAVE = const(2)
_MATCH_OVER = const(28)
_NCARDS = const(108)
_OUT = const(36)
_OWE = const(13)
_P_LOBBY = const(0)
_P_DRAWOFF = const(1)
_P_DEALER = const(2)
_P_DEAL = const(3)
_P_START = const(4)
_P_PLAY = const(5)
_P_ROUND_OVER = const(6)
_P_MATCH_OVER = const(7)
_PASS = const(18)
_PENALTY = const(14)
_PLAY = const(9)
_PLAYER = const(42)
_R_UNKNOWN = const(1)
_R_IN_HAND = const(2)
_R_ON_PILE = const(3)
_R_TWICE = const(4)
_R_IN_SHOE = const(5)
_R_ASIDE = const(6)
_R_NOT_TURN = const(7)
_R_UNPLAYABLE = const(8)
_R_W4_ILLEGAL = const(9)
_R_ONLY_DRAWN = const(10)
_R_MUST_DRAW = const(11)
_R_WANT_COLOUR = const(12)
_R_DREW = const(13)
_R_BAD_SEAT = const(14)
_R_NOT_SEATED = const(15)
_R_JOINED = const(16)
_R_FEW = const(17)
_R_SHOE_LEFT = const(18)
_R_NO_RESHUFFLE = const(19)
_R_WANT_SHUFFLE = const(20)
_R_NOT_NOW = const(21)
_R_NOTHING = const(22)
_R_CALLED = const(23)
_R_NO_CHALLENGE = const(24)
_R_NO_COLOUR = const(25)
_R_WAIT_DRAW = const(26)
_R_BAD_INPUT = const(27)
_R_DEAL_SIZE = const(28)
_R_LOCKED = const(29)
_R_BAD_RULE = const(30)
_R_MUST_PLAY = const(31)
_R_WAIT_SLAP = const(32)
_R_LAST_CARD = const(33)
_R_NO_SUM = const(34)
_R_TEAMS = const(35)
_R_CAUGHT = const(36)
_R_NO_DEALER = const(37)
_R_SEAT_FIRST = const(39)
_R_PLAYER_TAKEN = const(40)
_R_BAD_NAME = const(41)
_R_MATCH_ON = const(42)
_R_SLAPPED = const(43)
_R_SUM_LATE = const(44)
_R_FALSE_UNO = const(45)
_R_START_SUM = const(46)
_R_LEAVE_LATER = const(47)
_RANK_SKIP = const(10)
_RANK_REVERSE = const(11)
_RANK_DRAW2 = const(12)
_RANK_WILD = const(13)
_RANK_WILD4 = const(14)
_REJECT = const(25)
_RESHUFFLE = const(38)
_REVERSE = const(16)
_ROTATE = const(32)
_ROUND_OVER = const(26)
_ROUND = const(29)
_RULE = const(30)
_SCORE = const(27)
_SHUFFLE = const(3)
_SKIP = const(15)
_SLAP_OPEN = const(33)
_SLAP = const(34)
_START = const(7)
_SUM_WIN = const(37)
_TIMER_WARN = const(35)
_TURN = const(17)
_UNO_OPEN = const(19)
_UNO_CLOSE = const(20)
_UNO = const(21)
_V_LEGAL = const(0)
_V_ILLEGAL = const(1)
_W_TURN = const(0)
_W_DRAW2 = const(1)
_W_DRAW4 = const(2)
_W_CAUGHT = const(3)
_W_MISPLAY = const(4)
_W_W4_ILLEGAL = const(5)
_W_W4_LEGAL = const(6)
_W_FALSE_UNO = const(7)
_W_FALSE_CATCH = const(8)
_W_SLOW = const(9)
_W_SLAP = const(10)
_W_STACK = const(11)
_WAIVE = const(24)
_WANT = const(10)
_WILD = const(4)
_MISPLAYS = (_R_NOT_TURN, _R_UNPLAYABLE, _R_W4_ILLEGAL, _R_ONLY_DRAWN, _R_MUST_DRAW, _R_LAST_CARD)
# -- end of codes --

# TakeBack's log (uno/takeback.py), for the one case feed writes itself
_LOG_OK = const(8)  # takeback._OK: an accepted input
_LOG_MS = const(16)  # takeback._MS: the input's time follows
_LOG_OK_MS = const(_LOG_OK | _LOG_MS)
_DRAWING = const(-2)  # drawn: draw=until draws on, nothing drawn fits yet (T2)

SHOE = const(0)
PILE = const(11)
ASIDE = const(12)
MAX_SEAT = const(10)

# How a card read on the pad would be taken (Table.judge)
PLAY_TURN = const(1)   # the turn seat's play
PLAY_JUMP = const(2)   # H2: out of turn, identical to the top card
PLAY_MORE = const(3)   # H3: one more card of the same multi-play
PLAY_STACK = const(4)  # H1: answering a D or W4 with another
_TAKEN = (PLAY_TURN, 0)  # judge's every play: one tuple (MicroPython folds it; CPython not)


def good_name(name):
    """A player's name: 1..24 bytes of UTF-8, printable (no control character, nothing
    invisible or turning the text: _HIDDEN), no space at either end. (No strip(): CPython's
    strips more kinds of space than MicroPython's; both must judge alike.)"""
    if type(name) is not str or not 0 < len(name.encode()) <= 24 or name[0] == " " or \
            name[-1] == " ":
        return False
    for c in name:
        o = ord(c)
        if o < 32 or 0x7F <= o <= 0x9F or (o >= 0xAD and _hidden(o)):
            return False
    return True


# Characters that show nothing or turn the text around them (soft hyphen, Arabic letter mark,
# zero-width, direction marks, embeddings, overrides and isolates, separators, invisible
# operators, BOM, tags): in a name one would pass for another on the scoreboard and the CSV.
_HIDDEN = (0xAD, 0xAD, 0x61C, 0x61C, 0x180E, 0x180E, 0x200B, 0x200F, 0x2028, 0x202E,
           0x2060, 0x206F, 0xFEFF, 0xFEFF, 0xFFF9, 0xFFFB, 0xE0000, 0xE007F)


def _hidden(o):
    h = _HIDDEN
    for i in range(0, len(h), 2):
        if h[i] <= o <= h[i + 1]:
            return True
    return False


# The table's fields, declared once: CPython's Table.__slots__, and what the take-back packs by
# name (uno/takeback.py). A new field goes here too.
FIELDS = ("rules", "registry", "out", "seats", "scores", "round", "dealer", "winner",
          "clock", "phase", "loc", "hands", "active", "finished", "leaving", "laid",
          "shoe", "pile", "top", "colour", "dir", "ahead", "behind", "deal_to",
          "turn", "pending", "pending_why", "answerable", "stackable", "due", "dry", "thin",
          "stack", "debts", "drawn", "want", "want_moves", "window", "called",
          "late", "caught", "w4_from", "w4_illegal", "chain", "skips", "slap",
          "sum_to", "sum_by", "since", "warned", "dealt", "last", "offs", "off_rank",
          "back", "players", "naming", "doubt")


class Table:
    """One table's referee. Other modules read (never write) these attributes:

    rules, registry     the Settings in force and the deck registry (uid <-> card)
    phase, round        P_* phase; rounds dealt in this match
    seats, active       joined seats (ascending); this round's turn order (M3 removes seats)
    finished            seats out of this round, in the order they went out (M3)
    scores              points per seat, indexed 0..10
    dealer, turn, dir   seats; dir is +1 clockwise, -1 counter-clockwise
    ahead, behind       the seat after / before each seat in this round's turn order (bytes
                        by seat; derived from active and dir, made again when they change)
    loc, hands          where every card is (SHOE, seat, PILE, ASIDE); each seat's cards
    top, colour         card on the pile and the active colour (-1 while none)
    shoe, pile          cards in the shoe and on the discard pile
    pending, debts      D/W4 draws the turn seat owes; penalty draws [[seat, n, why], ...]
    answerable          the pending draw may still be answered (H2 jump-in, C1 challenge)
    stackable           ... and stacked on (H1): a D or W4 a seat played, not a start card
                        (S4) nor a winner's last card (T5)
    want, window        seat to name a colour; seat whose UNO window is open (called, caught)
    late                seat whose window closed with no call nor catch (U2: a catch too late)
    drawn               card just drawn that may still be played (T2), -2 while draw=until
                        draws on (only a card drawn may be played), else -1
    w4_from, w4_illegal seat whose W4 the turn seat may challenge (C1), and the verdict
    chain, slap, sum_to H3's multi-playing seat; H7's seats still to slap; H5's number
    sum_by              ... and the seat that played it (H5: not its own number)
    due                 the shoe is empty and the pile must be shuffled into it (T4, S2)
    dry                 passes in a row with nothing left to draw (T6)
    thin                reshuffles in a row that brought back one card, under forced play (T6)
    winner, clock       last round's winner; the table's time in ms (P2)
    out                 the events of the last feed (a reused list)
    Use judge(), playable(), owes(), drawer(), deadline(), hand_sum(), team(), refuse_player()
    and refuse_rule() rather than re-deriving rules from these.
    """
    if _HOST:
        # CPython: past 30 fields an instance's dict no longer shares its keys and every field
        # read is a hashed lookup; slots are read by offset (the replay bench: ~15% of feed).
        # MicroPython ignores __slots__ (the board keeps the dict).
        __slots__ = FIELDS

    def __init__(self, settings=None, registry=None):
        if registry is None:
            from uno.cards import synthetic_registry
            registry = synthetic_registry()
        self.rules = settings or Settings()
        self.registry = registry
        self.out = []
        self.seats = []          # joined seats, clockwise (ascending numbers)
        self.scores = [0] * (MAX_SEAT + 1)
        self.round = 0
        self.dealer = 0
        self.winner = 0
        self.clock = -1          # ms of the last tick (P2)
        self.phase = _P_LOBBY
        self.ahead = _places(MAX_SEAT + 1)  # _order fills them
        self.behind = _places(MAX_SEAT + 1)
        self.players = [None] * (MAX_SEAT + 1)  # issue 12: a badge's UID (bytes) or a name
        self.naming = 0          # the seat that joined last: a badge tapped now is its player
        self._reset_round()
        self.back = TakeBack(self)  # issue 10: the round's inputs, for take-backs

    def _reset_round(self):
        self.loc = bytearray(_NCARDS)            # all in the shoe (packed at every segment start)
        self.hands = [[] for _ in range(MAX_SEAT + 1)]
        self.active = list(self.seats)           # this round's turn order (M3 removes)
        self.finished = []                       # seats out of this round, in order (M3)
        self.leaving = 0                         # an out seat that leaves when the turn moves on
        self.laid = 0                            # H5: the seat that laid down its hand and won
        self.shoe = _NCARDS
        self.pile = 0                            # cards on the discard pile
        self.top = -1
        self.colour = -1
        self.dir = 1 if self.rules.direction == "cw" else -1
        self._order()                            # ahead, behind: the seat after each seat
        self.deal_to = 0                         # the seat the deal's next card goes to
        self.turn = 0
        self.pending = 0          # draws the turn seat owes before it is skipped (D, W4)
        self.pending_why = 0
        self.answerable = False   # the pending draw may still be answered (C1, H2)
        self.stackable = False    # ... and by stacking: a draw card played in turn (H1)
        self.due = False          # the shoe is empty and a draw is due (T4)
        self.dry = 0              # passes in a row with nothing left to draw (T6)
        self.thin = 0             # one-card reshuffles in a row under forced play (T6)
        self.stack = 0            # draws a stacked W4 passes on once its colour is named (H1)
        self.debts = []           # [seat, n, why]: penalty draws, paid first, in order
        self.drawn = -1           # card drawn this turn that may still be played (T2)
        self.want = 0             # seat that must name a colour
        self.want_moves = False   # whether naming it ends that seat's turn
        self.window = 0           # seat whose UNO window is open (U1)
        self.called = False
        self.late = 0             # seat whose window closed with no call nor catch (U2)
        self.caught = 0           # bit per seat that caught in this window (U5)
        self.w4_from = 0          # seat whose W4 the turn seat may still challenge (C1)
        self.w4_illegal = False
        self.chain = 0            # seat that may add to its multi-play (H3)
        self.skips = 0            # seats its S cards skip so far (H3)
        self.slap = 0             # bit per seat still to slap the 4 (H7)
        self.sum_to = -1          # the number just played, for a sum win (H5)
        self.sum_by = 0           # the seat that played it
        self.since = self.clock   # when the turn seat's time began (P2)
        self.warned = False
        self.dealt = 0
        self.last = -1            # last card read at the shoe (a double read names it)
        self.offs = []            # draw-off: seats still to draw
        self.doubt = []           # copies a take-back may have confused: x, y, kinds, ...
        self.off_rank = bytearray(MAX_SEAT + 1)

    # ---- the one entry point -------------------------------------------------------------

    @micropython.native
    def _feed(self, inp, ms=-1):
        """Judge one table input; returns the list of events (reused: read it before the next feed).

        ms: when it happened (the table's clock, as logged), for P2's turn timer; the timer
        itself only fires on ticks, which the hub sends at deadline().
        """
        out = self.out
        if _HOST:
            out.clear()  # (the board's feed below has emptied it)
        if ms >= 0:  # _time, inline: every input the hub feeds has its time
            # (P2: no time runs while the table waits, so the input that ends the wait starts
            # the turn seat's time again: the hub sends no tick meanwhile, deadline() is -1.
            # since == ms already: nothing to ask, as for self-play's inputs between two ticks;
            # asked after turn_timer, so that a table without the timer pays nothing for it)
            clock = self.clock
            if ms < clock or clock < 0 or self.rules.turn_timer and ms != self.since \
                    and self.phase == _P_PLAY and self._waiting():
                self.since = ms
            self.clock = ms
        try:  # (kind, argument, ...): every input but a shuffle
            kind = inp[0]
            a = inp[1]
        except LookupError:  # a shuffle, or an empty input (one that is no sequence raises)
            kind = inp[0] if len(inp) else 0
            a = None
        if kind == _IN_SHOE or kind == _IN_PAD:
            try:
                if _HOST:  # a load, not a method call: CPython specialises it
                    find = self.registry.find
                    card = find(a)
                else:  # a method call: a load would make a bound method on the heap an input
                    card = self.registry.find(a)
            except TypeError:  # the host's dict cannot hash it (a bytearray read)
                card = self.registry.card(a)
            if card < 0:
                if kind == _IN_PAD and self.phase == _P_LOBBY and self.naming:
                    self._bind(self.naming, bytes(a))  # a badge: never a card
                else:
                    out.append((_REJECT, _R_SEAT_FIRST if kind == _IN_PAD and
                                self.phase == _P_LOBBY else _R_UNKNOWN, 0, -1))
            elif kind == _IN_PAD:  # a card read on the pad (_pad, inline: half of a round)
                seat = self.loc[card]
                if seat == SHOE or seat > MAX_SEAT:
                    if self.doubt and self.back.twin(inp, ms, card):
                        return out  # the copies a take-back confused, judged (uno/takeback.py)
                    self._misplaced(card, seat)
                elif self.phase != _P_PLAY:
                    self._reject(_R_NOT_NOW, seat, card)
                elif seat != self.turn and seat not in self.active:
                    # M3: out of the round (a sum win's laid-down hand); the turn seat is in it
                    self._reject(_R_NOT_SEATED, seat, card)
                else:
                    how, why = self.judge(seat, card)
                    if how == PLAY_TURN:
                        self._play(seat, card, False)
                    elif not how and self.doubt and self.back.twin(inp, ms, card):
                        return out  # its twin in another hand, which may play it (takeback)
                    else:
                        self._pad(seat, card, how, why)
            else:
                where = self.loc[card]
                ph = self.phase
                if where == SHOE:
                    if ph == _P_PLAY:
                        self._draw(card)  # play and the deal: _shoe has the rest
                    elif ph == _P_DEAL:  # the deal (inline: a quarter of the inputs)
                        seat = self.deal_to
                        self.deal_to = self.ahead[seat]
                        self.dealt += 1
                        self.loc[card] = seat  # _give, inline (as in _draw)
                        self.shoe -= 1
                        self.last = card
                        self.dry = 0
                        self.hands[seat].append(card)
                        out.append((_DEAL, seat, card))
                        if self.dealt == len(self.active) * self.rules.hand_size:
                            self.phase = _P_START
                    else:
                        self._shoe(card)
                elif ph > _P_PLAY or ph == _P_LOBBY or ph == _P_DEALER:
                    # between rounds every card is gathered and shuffled, whatever the table
                    # still has in a hand, on the pile or aside: the shuffle is what it waits for
                    out.append((_REJECT, _R_WANT_SHUFFLE, where if where <= MAX_SEAT else 0, card))
                elif self.doubt and self.back.twin(inp, ms, card):
                    return out  # the copies a take-back confused, judged (uno/takeback.py)
                elif where <= MAX_SEAT:  # a card in a hand read again at the shoe
                    out.append((_REJECT, _R_TWICE if card == self.last else _R_IN_HAND, where, card))
                else:
                    self._misplaced(card, where)
            if not self.shoe or self.due:
                self._check_due()
            if len(out) == 1 and out[0][0] == _REJECT:
                if ms < 0:
                    return out  # changed nothing and took no time
            elif card >= 0:
                # an accepted card read, most of a round: TakeBack.keep's first case, inline
                back = self.back
                i = back.n
                if i <= back.fast:  # (-1 once the round is over: keep starts a segment)
                    log = back.log
                    # (+ and *, not | and <<: CPython 3.11 specialises them for ints; kind, 1
                    # or 2, is below the flags)
                    if ms < 0:
                        log[i] = kind + _LOG_OK
                        log[i + 1] = card
                        back.n = i + 2
                        return out
                    d = ms - back.ms
                    log[i] = kind + _LOG_OK_MS  # (past n: keep writes it again if it is not kept here)
                    log[i + 1] = card
                    if 64 <= d < 8192:  # the hub's inputs come 0.1-8 s apart: two bytes, or one
                        if _HOST:
                            log[i + 2] = d  # whole, in the bytes' room (takeback._varint)
                        else:
                            log[i + 2] = (d & 63) * 2 + 128
                            log[i + 3] = d >> 6
                        back.n = i + 4
                        back.ms = ms
                        return out
                    if 0 <= d < 64:
                        log[i + 2] = d if _HOST else d + d
                        back.n = i + 3
                        back.ms = ms
                        return out
            self.back.keep(inp, ms, out, card)
            return out
        n = len(inp)
        if kind == _IN_TICK and type(a) is int:  # (first: most of the rest of a timed round)
            self._tick(a)
        elif (kind == _IN_SEAT or kind == _IN_COLOUR) and n == 3 and type(a) is int:
            if kind == _IN_COLOUR:
                self._colour(a)
            elif 1 <= a <= MAX_SEAT:
                self._seat(a, inp[2])
            else:
                self._reject(_R_BAD_SEAT, 0, -1)
        elif kind == _IN_UNDO:  # issue 10: uno/takeback.py
            return self.back.undo(inp, ms)
        elif kind == _IN_SHUFFLE:
            self._shuffle()
        elif kind == _IN_RULE and n == 3:
            self._rule(a, inp[2])
        elif kind == _IN_PLAYER and n == 3:
            self._player(a, inp[2])
        else:
            self._reject(_R_BAD_INPUT, 0, -1)
        if self.shoe == 0 or self.due:
            self._check_due()
        if ms < 0 and len(out) == 1 and out[0][0] == _REJECT and kind != _IN_TICK:
            return out  # changed nothing and took no time: nothing for the take-back to keep
        self.back.keep(inp, ms, out)
        return out

    if _HOST:
        feed = _feed  # (the host's: no call more an input)
    else:
        @micropython.native
        def feed(self, inp, ms=-1):
            """_feed, in a frame that bytecode (copied files, ROMFS) keeps on the C stack (up to
            11 words of locals and stack: py/objfun.c), and after the out list's slice object.
            _feed's frame, more, comes from the heap. Taken first at every input, it came back
            to one place low in the heap, and its free there at every return had each later
            allocation of two blocks or more (an event of 3 items) scan all the garbage made
            since the last collection (py/gc.c): half the bytecode replay night (issue 10)."""
            del self.out[:]  # (a block: it fills the hole the last input's _feed frame left)
            return self._feed(inp, ms)

    def _reject(self, why, seat, card):
        """why: R_*; seat: the seat that acted (pressed, or holds the card read), else 0."""
        self.out.append((_REJECT, why, seat, card))

    def _check_due(self):
        """T4: say once when the shoe is empty and a seat is to draw (drawer()), so the pile
        (or, in the draw for dealer, the set-aside cards) must be shuffled into it. Not while
        the next draw waits on something else (a colour, a slap, a drawn card that may still
        be played): then the turn seat is free to act, and its time runs (P2)."""
        ph = self.phase
        due = self.shoe == 0 and (ph == _P_DRAWOFF or (ph == _P_PLAY and self.pile > 1))
        if due and not self.due:
            seat = self.drawer()
            if not seat:
                # no seat is due to draw yet (its drawn card to play or pass, a colour, a
                # slap): said when one is, naming it; meanwhile the turn seat's time runs (P2)
                return
            self.out.append((_RESHUFFLE, seat))
        self.due = due

    # ---- card reads at the shoe ----------------------------------------------------------

    def _shoe(self, card):
        # A card from the shoe (feed has looked) out of play and the deal, which feed takes.
        ph = self.phase
        if ph == _P_START:
            self._start(card)
        elif ph == _P_DRAWOFF:
            self._drawoff(card)
        else:
            self._reject(_R_WANT_SHUFFLE, 0, card)

    def _misplaced(self, card, where):
        # A card read where it cannot be taken: on the pile, set aside, or (on the pad) still
        # in the shoe. A hand's card read at the shoe is answered in feed.
        if where == PILE:
            self._reject(_R_TWICE if card == self.top else _R_ON_PILE, 0, card)
        elif where == ASIDE:
            self._reject(_R_ASIDE, 0, card)
        else:
            self._reject(_R_IN_SHOE, 0, card)

    @micropython.native
    def _draw(self, card):
        out = self.out
        if self.slap:
            self._reject(_R_WAIT_SLAP, 0, card)
            return
        if self.debts:
            debt = self.debts[0]
            seat = debt[0]
            self._give(card, seat)
            out.append((_DRAW, seat, card, debt[2]))
            debt[1] -= 1
            if debt[1] == 0:
                self.debts.pop(0)
            if not self.shoe or not (self.debts or self.pending):  # else _settle has nothing to do
                self._settle()
            return
        if self.want:
            self._reject(_R_WANT_COLOUR, self.want, card)
            return
        seat = self.turn
        if self.pending:
            self._begin_turn()
            self.answerable = self.stackable = False
            self.w4_from = 0
            self._give(card, seat)
            out.append((_DRAW, seat, card, self.pending_why))
            self.pending -= 1
            if self.pending == 0 and not self._done():
                self._skip_turn(True)  # D and W4 cost the turn too
            if not self.shoe or not (self.debts or self.pending):  # else _settle has nothing to do
                self._settle()
            return
        if self.drawn >= 0:
            self._reject(_R_DREW, seat, card)
            return
        rules = self.rules
        # (drawing on under draw=until: the hand is off limits, penalty cards come in too)
        if rules.forced == "yes" and self.drawn == -1 and self._can_play(seat):
            self._reject(_R_MUST_PLAY, seat, card)  # T2 forced play
            return
        self._begin_turn()
        self.loc[card] = seat  # _give
        self.shoe -= 1
        self.last = card
        self.dry = 0
        self.hands[seat].append(card)
        out.append((_DRAW, seat, card, _W_TURN))
        face = DECK[card]  # playable(), inline
        col = face >> 4
        if col == _WILD:
            ok = face & 15 != _RANK_WILD4 or rules.w4 != "enforce" \
                or not self.holds_colour(seat, self.colour, card)
        else:
            ok = col == self.colour or face & 15 == DECK[self.top] & 15
        if ok:
            self.drawn = card
        elif rules.draw != "until":  # T2 option: draw until playable
            self._next(1, True)
        else:  # drawing on: no card from the hand now (seed 001: 抽牌后只能打出抽到的牌)
            self.drawn = _DRAWING

    # ---- card reads on the pad -------------------------------------------------------------

    @micropython.native
    def judge(self, seat, card):
        """How seat's card read on the pad would be taken: (PLAY_*, 0), or (0, reason).

        No change to the table; the random players ask it too.
        """
        if self.want:
            return 0, _R_WANT_COLOUR
        if self.slap:
            return 0, _R_WAIT_SLAP
        if self.debts:
            return 0, _R_WAIT_DRAW
        rules = self.rules
        face = DECK[card]
        top = DECK[self.top]
        rank = face & 15
        # T5 option: S, R or W may not be the last card (judged every read: once; an if, which
        # CPython specialises)
        last_ok = True
        if rules.last_card != "any" and len(self.hands[seat]) == 1 \
                and (rank == _RANK_SKIP or rank == _RANK_REVERSE or rank == _RANK_WILD):
            last_ok = False
        if seat != self.turn:
            if seat == self.chain:
                # H3: the seat that just played adds a card of the same number or symbol
                if rank == top & 15 and rank < _RANK_WILD and \
                        (rules.multi == "same" or face == top):
                    return (PLAY_MORE, 0) if last_ok else (0, _R_LAST_CARD)
            # H2: a card identical to the top card, out of turn
            j = rules.jump_in
            # with "actions", W on W and W4 on W4 too (seed 002: 功能牌和万能牌也可以抢)
            if j != "off" and face == top and (rank < 10 or j == "actions") \
                    and (not self.pending or self.answerable):
                if not last_ok:
                    return 0, _R_LAST_CARD  # T5's option: as on its turn (a misplay, P1)
                # C1's enforce: the jumper's W4 is judged from its hand, as any W4
                if rank == _RANK_WILD4 and rules.w4 == "enforce" \
                        and self.holds_colour(seat, self.colour, card):
                    return 0, _R_W4_ILLEGAL
                return PLAY_JUMP, 0
            return 0, _R_NOT_TURN
        if self.pending:
            # H1: D on D, W4 on W4, and W4 on D as an option; never D on W4; only on a draw
            # card played in turn (not a start card S4, not a winner's last card T5)
            st = rules.stacking
            if st != "off" and self.stackable and last_ok:
                top_rank = top & 15
                if rank == top_rank and (rank == _RANK_DRAW2 or rank == _RANK_WILD4):
                    # C1's enforce with stacking=on: a stacked W4 is judged from the hand
                    if rank == _RANK_WILD4 and st == "on" and rules.w4 == "enforce" \
                            and self.holds_colour(seat, self.colour, card):
                        return 0, _R_W4_ILLEGAL
                    return PLAY_STACK, 0
                if rank == _RANK_WILD4 and top_rank == _RANK_DRAW2 and st == "w4_on_d":
                    return PLAY_STACK, 0
            return 0, _R_MUST_DRAW
        drawn = self.drawn
        if drawn != -1 and card != drawn and (drawn < 0 or DECK[drawn] != face):
            # (a card drawn, or drawing on). Its twin from the hand is taken as it: no one can
            # tell two copies apart (seeds 000, 001: the card just drawn), and the hand keeps
            # one of that face either way
            return 0, _R_ONLY_DRAWN
        if not last_ok:
            return 0, _R_LAST_CARD
        col = face >> 4  # playable(), inline
        if col == _WILD:
            if rank == _RANK_WILD4 and rules.w4 == "enforce" \
                    and self.holds_colour(seat, self.colour, card):
                return 0, _R_W4_ILLEGAL
        elif col != self.colour and rank != top & 15:
            return 0, _R_UNPLAYABLE
        return _TAKEN

    def _pad(self, seat, card, how, why):
        """A card read on the pad that judge did not take as the turn seat's play (feed reads
        the card and asks judge)."""
        if not how:
            if why in _MISPLAYS:
                self._misplay(why, seat, card)
            else:
                self._reject(why, seat, card)
        elif how == PLAY_MORE:
            self._more(seat, card)
        else:
            if how == PLAY_JUMP:
                self._jump(seat)
            elif how == PLAY_STACK:
                self.stack = self.pending
                self.pending = 0
                self.w4_from = 0  # C1: it answered the W4 and owes nothing: no challenge of it
            self._play(seat, card, how == PLAY_STACK)

    def _misplay(self, why, seat, card):
        self._reject(why, seat, card)
        cost = self.rules.misplay
        if cost and not self._done():
            # (once the round is won, T5's or H5's draws still owed, no card is played any
            # more: none is misplayed, and cards drawn then would count in the score)
            self._penalty(seat, cost, _W_MISPLAY)

    def playable(self, seat, card):
        """T1 (and C1's enforce): may this seat's card go on the pile now?"""
        face = DECK[card]
        col = face >> 4
        if col == _WILD:
            if face & 15 == _RANK_WILD4 and self.rules.w4 == "enforce":
                return not self.holds_colour(seat, self.colour, card)
            return True
        return col == self.colour or face & 15 == DECK[self.top] & 15

    def _must(self, seat, card):
        """T2's forced play: whether the seat may not hold this card back. Not a W4 from a hand
        holding the active colour, under C1's challenge too (seed 004: 玩家只能在玩家手上没有与上
        一位玩家出的牌相同颜色时出这张牌): forced play asks for a card the seat can play (seed
        001: 玩家不能在有牌可出的情况下不出牌), not one that loses it a challenge."""
        if DECK[card] & 15 == _RANK_WILD4 and self.rules.w4 != "free":
            return not self.holds_colour(seat, self.colour, card)
        return self.playable(seat, card)

    def _can_play(self, seat):
        """T2's forced play: whether the seat holds a card it may not hold back (_must)."""
        hand = self.hands[seat]
        # T5 option: S, R or W may not be the last card (as judge decides it)
        any_last = self.rules.last_card == "any" or len(hand) != 1
        colour = self.colour
        top = DECK[self.top] & 15
        for c in hand:
            face = DECK[c]  # playable(), inline: T2's forced play asks it of every card
            rank = face & 15
            col = face >> 4
            if col == _WILD:
                if rank == _RANK_WILD4 and self.rules.w4 != "free" \
                        and self.holds_colour(seat, colour, c):
                    continue  # (_must; the colour's card in the hand then fits)
            elif col != colour and rank != top:
                continue
            if any_last or (rank != _RANK_SKIP and rank != _RANK_REVERSE and rank != _RANK_WILD):
                return True
        return False

    def holds_colour(self, seat, col, but):
        """C1: whether seat holds a card of colour col but the card `but` (the W4 judged)."""
        for c in self.hands[seat]:
            if c != but and DECK[c] >> 4 == col:
                return True
        return False

    def _jump(self, seat):
        """H2: the jumped card's effect is void (seed 002: 被抢的牌作用失效); play goes on from
        the jumper. A jumped D's or W4's own draws are void, and so is any challenge of that W4;
        draws stacked before it (H1, or a multi-play's D before it, H3) are not the jumped
        card's: they go on down the stack after the jumper's card, as they would have after the
        jumped one (seed 002: 由最后一个没有+2牌的罚摸)."""
        self.out.append((_JUMP, seat))
        rank = DECK[self.top] & 15
        if rank == _RANK_REVERSE and not self.skips:
            # its reversal is void: the direction goes back, and the record says so (seed 000:
            # reverse…（有搶牌者除外）), before the jumper's own R reverses it again. Not an R
            # that acted as an S (two seats: skips counts it); an R that reversed with three
            # seats in and took its player out (M3) leaves two, and reversed all the same
            self._reverse()
            self.out.append((_REVERSE, self.dir))
        elif rank == _RANK_DRAW2 or rank == _RANK_WILD4:
            if self.pending:  # (answerable: nothing drawn yet, so it holds the jumped card's)
                self.stack = self.pending - (2 if rank == _RANK_DRAW2 else 4)
            self.pending = 0
            self.answerable = self.stackable = False
            self.w4_from = 0
        self.turn = seat

    @micropython.native
    def _play(self, seat, card, stacked):
        out = self.out
        rules = self.rules
        drawn = self.drawn  # T2: then no card is added to it (H3); nor to its twin (judge)
        # (an if, not `and`: CPython specialises a compare only where a jump follows)
        single = DECK[card] == DECK[drawn] if drawn >= 0 else False
        self._begin_turn()
        face = DECK[card]
        rank = face & 15
        illegal = False
        if rank == _RANK_WILD4 and rules.w4 == "challenge" \
                and not (stacked and rules.stacking == "w4_on_d"):
            # seed 002 (w4_on_d): "+4牌只能跟在+2或+4后面。或者没有与上家颜色一样的牌才可出":
            # a W4 answering a D or W4 is legal whatever the hand holds
            illegal = self.holds_colour(seat, self.colour, card)
        hand = self.hands[seat]
        hand.remove(card)  # to the pile
        self.loc[card] = PILE
        self.pile += 1
        self.top = card
        self.dry = 0
        out.append((_PLAY, seat, card))
        left = len(hand)
        self.colour = face >> 4 if rank < _RANK_WILD else -1  # a wild's comes with COLOUR
        if rank == 0 and rules.zero_rotate == "yes" and left:
            self._rotate()
            single = True  # H3: the hand it came from has passed on: nothing is added to it
        elif left == 1 or (rules.uno_identical == "yes" and left):  # else _is_last is False
            self._uno_check(seat)
        if not left and rules.elimination != "yes":
            # T5: the round is won; a last D or W4 still makes the next seat draw, for the
            # score, and nothing answers it (no stacking, jump-in or challenge: 此局游戏已结束)
            if rank == _RANK_DRAW2:
                self._next(1)
                self._owe(2, _W_DRAW2, False, False)
            elif rank == _RANK_WILD4:
                self._draw4(seat, True)
            self._settle()
            return
        if rank >= _RANK_WILD:
            if not left and self._finish(seat, keep=True):  # M3: the round is decided
                if rank == _RANK_WILD4:
                    self._draw4(seat, True)
                else:
                    self._settle()
                return
            self.want = seat  # an out seat keeps the turn to name the colour
            self.want_moves = True
            self.w4_illegal = illegal
            out.append((_WANT, seat))
            return
        if rank == 4 and (left or not self._team_out(seat)):
            self._slap4(seat)
        self.skips = 0
        if rank <= 9 and not self.leaving:  # _act and _next for a number, inline (the
            self.turn = nxt = self.ahead[seat]  # per-turn fields were reset by _begin_turn)
            out.append((_TURN, nxt))
        else:
            self._act(seat, rank, True)
        # after the turn moved: it resets them. Not after a drawn card (T2, seed 001:
        # "抽牌后只能打出抽到的牌，不能从原有手牌中出牌") nor a 0 that passed the hands (H4)
        self.chain = seat if rules.multi != "off" and not single else 0
        if rank <= 9 and rules.sum_win == "yes":
            self.sum_to = rank
            self.sum_by = seat
        if not left:
            if self._finish(seat):
                self.answerable = self.stackable = False  # T5: as above
            self._settle()

    def _more(self, seat, card):
        """H3: one more card of the same number or symbol; S skips one more, D adds 2."""
        hand = self.hands[seat]
        hand.remove(card)  # to the pile (as in _play)
        self.loc[card] = PILE
        self.pile += 1
        self.top = card
        self.dry = 0
        self.out.append((_PLAY, seat, card))
        left = len(hand)
        self.colour = DECK[card] >> 4  # the last card laid names the colour
        rank = DECK[card] & 15
        if left:
            self._uno_check(seat)
        if rank == 4 and (left or self.rules.elimination == "yes" and not self._team_out(seat)):
            self._slap4(seat)  # not on a winning card: the round is over (as in _play)
        self._act(seat, rank, False)  # (a number: the turn has moved and H5's number stands)
        self.chain = seat
        self._restart_timer()  # P2: the next seat's time runs from the last card laid
        if left == 0:
            if self._finish(seat):
                self.answerable = self.stackable = False  # T5: as in _play
            self._settle()

    @micropython.native
    def _act(self, seat, rank, first, start=False):
        """T3 (S4, H3, H6): what a card does as the turn moves on from seat; not first: one
        more card of a multi-play, adding to the first. The one place S, R and D act."""
        out = self.out
        begun = first and not start  # _play's: it began the turn (_next)
        if rank == _RANK_SKIP or (rank == _RANK_REVERSE and len(self.active) == 2):
            # (with two seats the turn is the player's again: its next one is a new turn)
            self.skips += 1
            out.append((_SKIP, self._after(seat, self.skips)))
            self.turn = seat
            self._next(self.skips + 1, begun)
        elif rank == _RANK_REVERSE:
            self._reverse()
            out.append((_REVERSE, self.dir))
            self.turn = seat
            self._next(0 if start and self.rules.start_reverse == "dealer" else 1, begun)
        elif first:
            self.turn = seat
            self._next(1, begun)
            if rank == _RANK_DRAW2:  # S4: a start card's draws cannot be stacked (H1)
                self._owe(2, _W_DRAW2, not start)
        elif rank == _RANK_DRAW2:
            self.pending += 2
            out.append((_OWE, self.turn, self.pending, _W_DRAW2))

    def _draw4(self, seat, final=False):
        """A W4 (or H1's stacked total) lands on the next seat (T3); C1 lets it challenge.
        final: the winner's last card (T5): it names no colour and nothing answers it."""
        self._next(1)
        self._owe(4, _W_DRAW4, not final, not final)
        if not final and self.rules.w4 == "challenge" and self.pending:
            self.w4_from = seat

    def _team_out(self, seat):
        """M3 with M4: seat, out of cards, is the last of its team still in: its card wins the
        round (then a 4 opens no slap, H7; without teams _slap4 finds one seat with cards)."""
        if not self.rules.teams:
            return False
        for s in self.team(seat):
            if s != seat and s not in self.finished:
                return False
        return True

    def _slap4(self, seat):
        """H7: a 4 wants a slap from every seat that holds cards."""
        if self.rules.slap4 == "yes":
            mask = 0
            for s in self.active:
                if self.hands[s]:
                    mask |= 1 << s
            if mask & (mask - 1):  # two seats or more
                self.slap = mask
                self.out.append((_SLAP_OPEN, seat))

    @micropython.native
    def _is_last(self, seat):
        """U1 (and U6): one card left, or only identical cards."""
        hand = self.hands[seat]
        if len(hand) != 1:
            if not hand or self.rules.uno_identical != "yes":
                return False
            face = DECK[hand[0]]
            if DECK[hand[1]] != face:
                return False  # (most hands: no scan; U6 asks it at every play)
            for c in hand:
                if DECK[c] != face:
                    return False
        return True

    @micropython.native
    def _uno_check(self, seat):
        if self._is_last(seat) and self.window != seat:
            self.window = seat
            self.called = False
            self.caught = 0
            self.out.append((_UNO_OPEN, seat))

    def _rotate(self):
        """H4: every hand passes to the next seat in the direction of play."""
        hands = self.hands
        moved = [hands[s] for s in self.active]
        n = len(self.active)
        for i in range(n):
            s = self.active[(i + self.dir) % n]
            hands[s] = moved[i]
            for c in moved[i]:
                self.loc[c] = s
        self.out.append((_ROTATE, self.dir))  # no UNO window: the 0's hand has changed hands

    def _owe(self, n, why, stackable=True, answerable=True):
        """The turn seat owes n draws (D, W4); a total stacked onto it is added (H1)."""
        if self.stack:
            n += self.stack
            why = _W_STACK
            self.stack = 0
        self.pending = n
        self.pending_why = why
        self.answerable = answerable
        self.stackable = stackable
        self.out.append((_OWE, self.turn, n, why))
        self._settle()

    @micropython.native
    def _begin_turn(self, moved=False):
        """The one place the per-turn fields reset: when a seat begins to act, and (moved) when
        the turn moves on (_next, unless this input's seat began its turn already: begun): the
        drawn card that may still be played (T2), the multi-playing seat (H3), a sum win's number
        (H5), the turn's time (P2). A seat that acts closes the UNO window too (U1: when the next
        player plays or draws), and a multi-play."""
        if self.window and not moved:
            self.out.append((_UNO_CLOSE, self.window))
            if not (self.called or self.caught):
                self.late = self.window
            elif self.called and self.late == self.window:  # it called: no catch of it is
                self.late = 0               # late now; another seat's window stays late (U3)
            self.window = 0
        self.drawn = -1
        self.chain = 0
        self.sum_to = -1
        self.since = self.clock
        self.warned = False

    # ---- presses -----------------------------------------------------------------------

    def _seat(self, s, long):
        ph = self.phase
        if ph == _P_MATCH_OVER and (s in self.seats) == bool(long):
            self._regroup()  # a join or a leave after a match: a new group at the table
            ph = _P_LOBBY
        if ph == _P_LOBBY:
            if long:
                if s in self.seats:
                    self.seats.remove(s)
                    self.players[s] = None
                    if self.naming == s:
                        self.naming = 0
                    self.out.append((_LEAVE, s))
                else:
                    self._reject(_R_NOT_SEATED, s, -1)
            elif s in self.seats:
                self._reject(_R_JOINED, s, -1)
            else:
                self.seats.append(s)
                self.seats.sort()
                self.naming = s
                self.out.append((_JOIN, s))
            return
        # (between rounds a seat out of the last one, M3, is still in the game: seats)
        if s not in (self.active if ph == _P_PLAY else self.seats):
            self._reject(_R_NOT_SEATED, s, -1)
        elif ph != _P_PLAY:
            # a long press leaves in the lobby and at the match's end; a match keeps its seats
            self._reject(_R_LEAVE_LATER if long else _R_NOTHING, s, -1)
        elif self._gone(s):
            self._reject(_R_NOTHING, s, -1)
        elif self.slap & (1 << s):
            self._slap(s)
        elif self.slap and (self.rules.sum_win != "yes" if long else
                            s != self.window and (self.called or not self.window)):
            # H7: a seat that slapped presses again while the slap is open: its hand bounced
            # on the 4 (seed 003: 所有人要立刻將手拍到這張牌上, one hand each), no false call
            # (U3) nor false catch (U4): refused, at no cost. Its own UNO call, a catch of a
            # window not called and a lay-down (H5) go on below
            self._reject(_R_SLAPPED, s, -1)
        elif long:
            if self.rules.sum_win == "yes" and (self.sum_to >= 0 or DECK[self.top] & 15 <= 9):
                self._sum_win(s)  # (a number on top, its lay-down closed, or the start card)
            else:
                self._challenge(s)
        elif s == self.window:
            self._uno_press(s)
        elif s == self.turn and (self.drawn >= 0 or self._stuck()):
            drawn = self.drawn
            # T2 forced: a card fits, drawn or held. The drawn card is asked again: it may no
            # longer fit (a W4 once a penalty brought the colour), and it is the only card the
            # seat may play, so then it passes. Drawing on (draw=until), no card may be played
            if self.rules.forced == "yes" and (  # (fits, even while another seat owes draws)
                    self._can_play(s) if drawn == -1 else drawn >= 0 and self._must(s, drawn)):
                self._reject(_R_MUST_PLAY, s, -1)
                return
            self._begin_turn()
            self.out.append((_PASS, s))
            if drawn < 0:  # nothing left to draw (T6)
                self.dry += 1
                if self.dry >= len(self.active):
                    self._blocked()
                    return
            self._next(1, True)
        elif self.window and not self.called:
            self._uno_press(s)
        elif self.window:
            self._false_catch(s)
        else:
            self._false_uno(s)

    def _gone(self, s):
        """A seat out of the round that still sits in its turn order: T5's winner while its
        last D or W4 is drawn, a hand laid down (H5), an M3 seat naming its colour on the way
        out. Its press means nothing and costs nothing (U3): a card drawn would undo its win."""
        return not self.hands[s] or s == self.laid or s in self.finished

    def _regroup(self):
        """S1: after a match the lobby opens again when a seat joins or leaves, so a new group
        can sit down (and bind its players) for the next match. Its scores start at 0, and its
        dealer is drawn (S2) or first_dealer, as for a table's first match."""
        self.phase = _P_LOBBY  # the cards stay where they are until the shuffle
        self.scores = [0] * (MAX_SEAT + 1)
        self.round = 0

    # ---- players (issue 12): in the lobby only, never a card -------------------------------

    def refuse_player(self, s, name):
        """(reason, seat) the host's name for seat s would be rejected for, else (0, 0): the
        hub asks before it logs the input (`unotable seat 3 "Li Wei"`)."""
        if self.phase != _P_LOBBY:
            return _R_NOT_NOW, 0
        if type(s) is not int or not 1 <= s <= MAX_SEAT:
            return _R_BAD_SEAT, 0
        if s not in self.seats:
            return _R_NOT_SEATED, s
        if not good_name(name):
            return _R_BAD_NAME, s
        o = self._taken(s, name)
        return (_R_PLAYER_TAKEN, o) if o else (0, 0)

    def _player(self, s, name):
        why, seat = self.refuse_player(s, name)
        if why:
            self._reject(why, seat, -1)
        else:
            self._seat_player(s, name)

    def _taken(self, s, who):
        """The other seat whose player this is, else 0."""
        players = self.players
        for o in self.seats:  # type first: MicroPython warns on the console at bytes == str
            w = players[o]
            if o != s and type(w) is type(who) and w == who:
                return o
        return 0

    def _bind(self, s, who):
        """A badge tapped for the seat that joined last (feed): not if another seat has it."""
        o = self._taken(s, who)
        if o:
            self._reject(_R_PLAYER_TAKEN, o, -1)
        else:
            self._seat_player(s, who)

    def _seat_player(self, s, who):
        self.players[s] = who
        if self.naming == s:
            self.naming = 0  # one badge a join: a second tap has no seat
        self.out.append((_PLAYER, s, who))

    def _blocked(self):
        """T6 (the seeds have no rule): every seat in play has passed in a row with nothing
        left to draw, or under forced play one card has gone round and round (_shuffle), so no
        card but it can ever move again. The round ends: the first seat out wins
        (M3), else the seat holding the fewest points (ties: fewer cards, then the lower seat).
        With teams (M4) the team is the unit, as in its score (seeds 001/002: 以队为单位来进行计算):
        the team whose members hold the fewest points together (ties: fewer cards), and of it
        the seat that would win without teams."""
        if self.finished:
            best = self.finished[0]
        else:
            best = 0
            key = None
            teams = self.rules.teams
            for s in self.active:
                pts = self._hand_points(s)
                n = len(self.hands[s])
                tp, tn = pts, n
                if teams:
                    tp = tn = 0
                    for m in self.team(s):
                        tp += self._hand_points(m)
                        tn += len(self.hands[m])
                k = (tp, tn, pts, n, s)
                if key is None or k < key:
                    best, key = s, k
        self.out.append((_BLOCKED, best))
        self.dry = 0
        self._round_over(best)

    def _stuck(self):
        """No card can be drawn (empty shoe, nothing to reshuffle): the turn seat may pass."""
        return self.shoe == 0 and self.pile <= 1 and not self.pending and not self.debts \
            and not self.want

    def _uno_press(self, s):
        w = self.window
        if s == w:
            if self.called or self.caught:
                self._reject(_R_CALLED, w, -1)
            else:
                self.called = True
                self.out.append((_UNO, s))
        elif self.caught & (1 << s):
            self._reject(_R_CAUGHT, s, -1)
        else:
            self.out.append((_CATCH, s, w))
            if self.rules.catchers == "each":  # U5: the window stays open for more catchers
                self.caught |= 1 << s
            else:
                self.out.append((_UNO_CLOSE, w))
                self.window = 0
            self._penalty(w, 2, _W_CAUGHT)

    def _false_catch(self, s):
        """U4: catching a seat that called costs the catcher (as a setting); not a press that
        may be the presser's own late call or a late catch of another seat (_innocent)."""
        cost = self.rules.false_catch
        self._reject(_R_CALLED, s, -1)
        if cost and not self._innocent(s):
            self._penalty(s, cost, _W_FALSE_CATCH)

    def _false_uno(self, s):
        """U3: a press that means nothing is a UNO call; not down to a last card, it costs
        (not a press that may mean something else: _innocent)."""
        cost = self.rules.false_uno
        if cost and not self._innocent(s) and not self._done():
            # (a round won, T5's or H5's draws still owed: no call is left to make, as for a
            # misplay)
            self._reject(_R_FALSE_UNO, s, -1)  # the reason says what it was: the penalty's
            self._penalty(s, cost, _W_FALSE_UNO)
        else:
            self._reject(_R_NOTHING, s, -1)

    def _innocent(self, s):
        """A press that costs nobody: from a seat down to its last card (a call, late or not:
        U3 is a call "not down to one card"); while the seat whose window closed uncalled
        still holds its last card (a catch that came too late, U2, seed 000: 若不被及時發現則
        不可追究); while a seat just caught still holds its last card (a second catcher). Also
        with another seat's called window open: the press may accuse another seat than it."""
        if self._is_last(s):
            return True
        late = self.late
        if late and late != s and late in self.active and self._is_last(late):
            return True
        for d in self.debts:
            # a seat just caught (catchers=first closed its window) that has not drawn its 2
            # yet: it had not called and holds its last card, so this press is a second catch,
            # too late, not a false call (U4 asks that the accused called or holds no last card)
            if d[2] == _W_CAUGHT and d[0] != s and self._is_last(d[0]):
                return True
        return False

    def _penalty(self, seat, n, why):
        """A penalty draw; one debt per seat and reason, so that repeated presses add up
        instead of growing a list (at most 10 seats x 12 reasons)."""
        for d in self.debts:
            if d[0] == seat and d[2] == why:
                d[1] += n
                break
        else:
            self.debts.append([seat, n, why])
        self.out.append((_PENALTY, seat, n, why))
        if seat == self.window and why != _W_CAUGHT:
            # U1: it no longer holds its last card (a lost challenge, the timer, a slap...):
            # nothing is left to call, and a press is no catch (U4: "does not hold one card")
            self.out.append((_UNO_CLOSE, seat))
            self.window = 0
        self._settle()

    def _challenge(self, s):
        """C1: judged from the hand as it was when the W4 was played."""
        if s != self.turn or not self.w4_from or self.rules.w4 != "challenge":
            # the seat the W4 lands on, before its colour is named: not yet (it owes nothing
            # until then), and "nothing to challenge" would tell it it never may
            early = self.want and self.want_moves and self.rules.w4 == "challenge" and \
                DECK[self.top] & 15 == _RANK_WILD4 and s == self.ahead[self.want]
            self._reject(_R_WANT_COLOUR if early else _R_NO_CHALLENGE, s, -1)
            return
        against = self.w4_from
        self.w4_from = 0
        self.answerable = self.stackable = False
        self._restart_timer()  # P2: the challenge is the seat's act; its time starts again
        if self.w4_illegal:
            # its player draws what the challenger would have (with stacking, the whole total)
            self.out.append((_CHALLENGE, s, against, _V_ILLEGAL))
            n = self.pending
            self.pending = 0
            self._penalty(against, n, _W_W4_ILLEGAL)
        else:
            self.out.append((_CHALLENGE, s, against, _V_LEGAL))
            self.pending += 2
            self.pending_why = _W_W4_LEGAL
            self.out.append((_PENALTY, s, 2, _W_W4_LEGAL))
            self._settle()

    def _slap(self, s):
        """H7: every seat slaps; the last one draws 2."""
        self.slap &= ~(1 << s)
        self.out.append((_SLAP, s))
        left = self.slap
        if left & (left - 1) == 0:  # one seat left: the slowest
            self.slap = 0
            last = 0
            while left > 1:
                left >>= 1
                last += 1
            self._penalty(last, 2, _W_SLAP)

    def hand_sum(self, s):
        """H5: the sum of s's numbers if it makes the number just played (or a multiple), else -1."""
        n = self.sum_to
        hand = self.hands[s]
        if n < 0 or not hand or s == self.sum_by:
            # seed 000: "等與對方打出的牌之數字" (the number the other side played), not one's own
            return -1
        total = 0
        for c in hand:
            r = DECK[c] & 15
            if r > 9:
                return -1
            total += r
        if total != n and not (n and total and total % n == 0):
            return -1
        # M4: with teams the other side is the other teams, not a partner (asked last: most
        # hands hold a card that is no number)
        if self.rules.teams and s in self.team(self.sum_by):
            return -1
        return total

    def _sum_win(self, s):
        total = self.hand_sum(s)
        if total < 0:
            # its number closed (a draw, a pass or a lay-down on it came first): too late
            # (sum_by: none yet, the start card: S4, nobody's play)
            self._reject(_R_NO_SUM if self.sum_to >= 0 else _R_SUM_LATE if self.sum_by else
                         _R_START_SUM, s, -1)
            return
        self.out.append((_SUM_WIN, s, total))
        self.want = 0
        # only the winner's own draws are void (seed 000: 可以無視任何情況，攤牌勝出); the others
        # owed theirs before the round ended: drawn and scored, as after a last D (T5)
        self._waive(s)
        if self.rules.elimination != "yes":
            # no round left to slap in (M3: it goes on, and so does the slap; a seat's press is
            # its slap first, so the winner has slapped)
            self.slap = 0
            self._begin_turn()
        elif s == self.turn:
            self._begin_turn()  # the turn seat's act (U1: it closes an UNO window)
        else:
            # M3: the turn seat has not acted, so an UNO window stays open (U1) and its time
            # runs on (P2); no second seat lays down on this number
            self.sum_to = -1
        self._finish(s, True)
        self._settle()

    def _colour(self, col):
        seat = self.want
        if not 0 <= col <= 3:
            self._reject(_R_BAD_INPUT, 0, -1)
            return
        if self.phase != _P_PLAY or not seat:
            self._reject(_R_NO_COLOUR, 0, -1)
            return
        self.colour = col
        self.want = 0
        self.out.append((_COLOUR, seat, col))
        if not self.want_moves:
            return
        if DECK[self.top] & 15 == _RANK_WILD4:
            self._draw4(seat)
        else:
            self._next(1)

    # ---- time and settings ------------------------------------------------------------------

    def _time(self, ms):
        """The clock moves on to a tick's own time, or a take-back's. (P2's time that does not
        run while the table waits is feed's, at each input's time, and _tick's: after this,
        each caller sets since again before it is read.)"""
        if ms < self.clock or self.clock < 0:
            self.since = ms  # the first time seen, or a clock that restarted: time starts now
        self.clock = ms

    def _waiting(self):
        """P2: the turn seat is not free to act: the table asks for a colour, penalty draws,
        slaps or a reshuffle (T4), or the round is won (T5's draws: no turn is left)."""
        # (in play a round is won with a turn left only while its D or W4 is drawn: pending)
        return self.want or self.debts or self.slap or self.due or \
            (self.pending and self._done())

    def _tick(self, ms):
        """P2: time comes in as ticks; the turn seat has turn_timer seconds to act."""
        if ms != self.clock or ms < 0:  # the hub's tick comes at the time feed took already
            self._time(ms)
        limit = self.rules.turn_timer * 1000
        if not limit or self.phase != _P_PLAY:
            return
        if self._waiting():
            self.since = ms  # the turn seat's time runs only while it is free to act
            return
        waited = ms - self.since
        if waited > limit:  # "more than N seconds" (seed 003: 超過5秒不出牌者)
            self._penalty(self.turn, 2, _W_SLOW)
            self._restart_timer()
        elif not self.warned and waited >= limit - min(2000, limit // 2):
            self.warned = True
            self.out.append((_TIMER_WARN, self.turn))

    def deadline(self):
        """The clock time of the next timer event (P2's warning or expiry), or -1."""
        limit = self.rules.turn_timer * 1000
        if not limit or self.phase != _P_PLAY or self.clock < 0 or self._waiting():
            return -1
        if self.warned:
            return self.since + limit + 1  # the first ms past the time (_tick)
        return self.since + limit - min(2000, limit // 2)

    def _restart_timer(self):
        self.since = self.clock
        self.warned = False

    def refuse_rule(self, name, value):
        """(reason, names) for the host's rule or preset: the reason it would be rejected for,
        else 0 and the settings it would change (none: nothing to log). The hub asks before it
        logs the input (`unotable rules set`)."""
        why, new, changed = self._judge_rule(name, value)
        return why, changed

    def _judge_rule(self, name, value):
        """(reason, the settings as they would be, the names that change)."""
        ph = self.phase
        if ph == _P_DEAL or ph == _P_START or ph == _P_PLAY:
            return _R_LOCKED, None, ()  # settings are locked while a round is on
        rules = self.rules
        new = Settings(rules.as_dict())
        try:
            if name == "preset":
                changed = new.apply_preset(value)
            else:
                new.set(name, value)
                changed = [name] if getattr(new, name) != getattr(rules, name) else []
        except (ValueError, TypeError):
            return _R_BAD_RULE, None, ()
        if ph != _P_LOBBY:  # once the lobby is over the seats are known: it must fit them now
            self.rules = new
            try:
                why = self._unfit()
            finally:
                self.rules = rules
            if why:
                return why, None, ()
            if ph == _P_ROUND_OVER and ("scoring" in changed or "teams" in changed):
                # M2, M4: the scores a match adds up are of one kind and one set of partners
                # (seeds: 多盤累計…事先約定; 以队为单位来进行计算): a match's rounds keep them
                return _R_MATCH_ON, None, ()
        return 0, new, changed

    def _rule(self, name, value):
        """Between rounds a setting applies from the next round: what _judge_rule worked out,
        copied into the table's own Settings (whoever holds it sees the change)."""
        why, new, changed = self._judge_rule(name, value)
        if why:
            self._reject(why, 0, -1)
            return
        rules = self.rules
        for k in changed:
            v = getattr(new, k)
            setattr(rules, k, v)
            self.out.append((_RULE, k, v))
        if "target" in changed and self.phase == _P_ROUND_OVER:
            # M1: a target lowered to a score already made: that seat has reached it and the
            # match is over now, not after a round more (seeds: 達到或超過事先約定的分值…則以得分
            # 最高者為贏家)
            self._match_end()

    def _unfit(self):
        """Why the settings cannot apply to the seats that joined (S1-S3, M4), else 0."""
        seats = self.seats
        n = len(seats)
        rules = self.rules
        if n < 2:
            return _R_FEW
        if n * rules.hand_size >= _NCARDS:  # the start card needs one card more
            return _R_DEAL_SIZE
        teams = rules.teams
        if teams and (n % teams or n // teams < 2):
            return _R_TEAMS
        if rules.first_dealer and rules.first_dealer not in seats:
            return _R_NO_DEALER
        return 0

    # ---- shuffles, the deal, the start card, the draw for dealer ---------------------

    def _shuffle(self):
        ph = self.phase
        out = self.out
        if ph == _P_PLAY:
            if self.shoe:
                self._reject(_R_SHOE_LEFT, 0, -1)
            elif self.pile <= 1:
                self._reject(_R_NO_RESHUFFLE, 0, -1)
            else:  # T4: the pile but its top card goes back into the shoe
                if self.doubt:  # copies in doubt on the pile go into the shoe (takeback.twin)
                    self.back.shuffled(PILE)
                loc = self.loc
                for c in range(_NCARDS):
                    if loc[c] == PILE and c != self.top:
                        loc[c] = SHOE
                self.shoe = self.pile - 1
                self.pile = 1
                out.append((_SHUFFLE, self.shoe))
                # T6 under forced play: one card back, again and again, is one of two cards
                # going round (drawn because no card in hand fits, then played: it must be)
                # while every other card stays in the hands. Turn, top card and direction then
                # have 4 x seats values: past that many the table has come round to where it
                # was, and the round is blocked
                if self.shoe == 1 and self.rules.forced == "yes":
                    self.thin += 1
                    if self.thin > 4 * len(self.active) and not (self.pending or self.debts):
                        self.thin = 0
                        self._blocked()
                else:
                    self.thin = 0
            return
        if ph == _P_DRAWOFF:
            if self.shoe:
                self._reject(_R_SHOE_LEFT, 0, -1)
            else:  # S2: ties and non-numbers used up the shoe: the set-aside cards go back
                if self.doubt:
                    self.back.shuffled(ASIDE)
                loc = self.loc
                for c in range(_NCARDS):
                    if loc[c] == ASIDE:
                        loc[c] = SHOE
                self.shoe = _NCARDS - self.pile
                out.append((_SHUFFLE, self.shoe))
            return
        if ph != _P_LOBBY and ph != _P_ROUND_OVER and ph != _P_MATCH_OVER and ph != _P_DEALER:
            self._reject(_R_NOT_NOW, 0, -1)
            return
        why = self._unfit()  # checked again at the deal: nothing may stall it
        if why:
            self._reject(why, 0, -1)
            return
        if ph == _P_MATCH_OVER:
            self.scores = [0] * (MAX_SEAT + 1)
            self.round = 0
        self._reset_round()  # every card is back in the shoe
        out.append((_SHUFFLE, self.shoe))
        if ph == _P_DEALER:
            self._new_round(self.dealer)
        elif ph != _P_LOBBY:
            # S2: the last round's winner deals, or (option) the deal passes on as the deal
            # and the play go (S3, S5: ahead, made for this round's direction by _reset_round)
            if self.rules.next_dealer == "rotate":
                self._new_round(self.ahead[self.dealer])
            else:
                self._new_round(self.winner)
        elif self.rules.first_dealer:
            self._new_round(self.rules.first_dealer)
        else:
            self.phase = _P_DRAWOFF
            self.offs = list(self.seats)

    def _new_round(self, dealer):
        self.dealer = dealer
        self.deal_to = self.ahead[dealer]
        self.round += 1
        self.phase = _P_DEAL
        self.dealt = 0
        self.out.append((_ROUND, self.round, dealer))

    def _drawoff(self, card):
        """S2: highest number deals; non-numbers are redrawn, and so are ties for highest."""
        seat = self.offs[0]
        self.loc[card] = ASIDE
        self.shoe -= 1
        self.out.append((_DRAWOFF, seat, card))
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
        self.phase = _P_DEALER
        self.out.append((_DEALER, self.dealer))

    def _start(self, card):
        """S4: the start card and what it does to the first player."""
        out = self.out
        rank = DECK[card] & 15
        if self._goes_back(rank):
            if self._start_left():
                if self.doubt:  # read at the shoe: this copy is there, its twin not (takeback.twin)
                    self._seen(card)
                out.append((_BACK, card))  # it goes back into the pile: the hub asks for another
                return
            # every card left in the shoe would go back: this one starts, a W4 as a W
            if rank == _RANK_WILD4:
                rank = _RANK_WILD
        self.loc[card] = PILE
        self.shoe -= 1
        self.pile = 1
        self.top = card
        out.append((_START, card))
        self.phase = _P_PLAY
        self.turn = self.dealer
        if rank == _RANK_WILD:
            self._next(1)
            self.want = self.turn
            self.want_moves = False
            out.append((_WANT, self.turn))
            return
        self.colour = DECK[card] >> 4
        self.skips = 0
        self._act(self.dealer, rank, True, True)

    def _seen(self, card):
        doubt = self.doubt  # x, y, kinds: takeback._in_doubt
        for i in range(len(doubt) - 3, -1, -3):
            if doubt[i] == card or doubt[i + 1] == card:
                del doubt[i:i + 3]

    def _goes_back(self, rank):
        return rank == _RANK_WILD4 or (rank > 9 and self.rules.start_card == "number")

    def _start_left(self):
        """Whether a card in the shoe could start (else the round would never start)."""
        loc = self.loc
        for c in range(_NCARDS):
            if loc[c] == SHOE and not self._goes_back(DECK[c] & 15):
                return True
        return False

    # ---- moving cards and turns -------------------------------------------------------------

    @micropython.native
    def _give(self, card, seat):
        self.loc[card] = seat
        self.shoe -= 1
        self.last = card
        self.dry = 0
        self.hands[seat].append(card)

    def _order(self):
        """ahead[s]: the seat after seat s in this round's turn order and direction; behind[s]
        the one before it (a Reverse swaps them). Made again when the order changes (M3)."""
        if self.dir > 0:  # filled in place: no new objects on the board's heap
            cw = self.ahead
            ccw = self.behind
        else:
            cw = self.behind
            ccw = self.ahead
        for s in range(MAX_SEAT + 1):
            cw[s] = ccw[s] = 0  # 0 for a seat not in the order
        order = self.active
        n = len(order)
        for i in range(n):
            s = order[i]
            cw[s] = order[(i + 1) % n]
            ccw[s] = order[i - 1]

    def _reverse(self):
        self.dir = -self.dir
        self.ahead, self.behind = self.behind, self.ahead

    def _after(self, seat, k):
        """The seat k places after seat in this round's turn order and direction."""
        step = self.ahead
        while k > 0:
            seat = step[seat]
            k -= 1
        return seat

    @micropython.native
    def _next(self, k, begun=False):
        """The turn moves on k seats. begun: this input's seat has acted (_begin_turn), and
        nothing since has set a per-turn field: they need no second reset."""
        step = self.ahead
        s = self.turn
        while k > 0:
            s = step[s]
            k -= 1
        self.turn = s
        gone = self.leaving
        if gone:  # M3: an out seat kept the turn only to name a colour (or went out on it)
            self.active.remove(gone)
            self.leaving = 0
            self._order()
        if not begun:
            self._begin_turn(True)
        self.out.append((_TURN, s))

    def _skip_turn(self, begun=False):
        """The turn seat has drawn what a D or W4 cost it and loses its turn (T3)."""
        self.out.append((_SKIP, self.turn))
        self._next(1, begun)

    def _waive(self, seat=0):
        """Draws owed that will never be drawn: every seat's, or only this seat's."""
        debts = self.debts
        i = 0
        while i < len(debts):
            d = debts[i]
            if seat and d[0] != seat:
                i += 1
            else:
                self.out.append((_WAIVE, d[0], d[1]))
                debts.pop(i)
        if self.pending and (not seat or seat == self.turn):
            self.out.append((_WAIVE, self.turn, self.pending))
            self.pending = 0
            self.answerable = self.stackable = False
            self.w4_from = 0

    @micropython.native
    def _settle(self):
        """After a change: draws that no card is left for, or the round decided."""
        if self.phase != _P_PLAY:
            return
        if self.shoe == 0 and self.pile <= 1 and (self.debts or self.pending):
            skip = self.pending
            self._waive()
            if skip and not self._done():
                self._skip_turn()
        if self.pending or self.debts or self.want:
            return
        s = self._done()
        if s:
            self._round_over(s)

    def _finish(self, seat, laid_down=False, keep=False):
        """A seat has gone out (no cards, or H5's sum win). True if that ends the round.

        M3 elimination: the seat leaves the turn order and the round goes on; with teams,
        until one team is all out. An out seat that holds the turn passes it on at once,
        unless it keeps it to name a wild's colour (keep).
        """
        if self.rules.elimination != "yes":
            if laid_down:
                self.laid = seat
            elif self.window == seat:
                # T5 with H3: its last card, a D or W4 added to its multi-play, won the round
                # and the next seat draws for the score: it holds no card to call on or be
                # caught for (a catch would hand the winner 2 cards), as under M3 below
                self.out.append((_UNO_CLOSE, seat))
                self.window = 0
            return True
        self.finished.append(seat)
        self.out.append((_OUT, seat, len(self.finished)))
        if self.window == seat:  # U1: its window closes, as the record says
            self.out.append((_UNO_CLOSE, seat))
            self.window = 0
        if self.chain == seat:
            self.chain = 0
        if seat != self.turn:
            self.active.remove(seat)
            self._order()
            return bool(self._done())
        self.leaving = seat
        done = self._done()
        if not keep and not done:
            self._next(1)  # the turn came back to it (a skip): it goes to the next seat
        return bool(done)

    @micropython.native
    def _done(self):
        """The round's winner once it is decided (after the draws T5 asks for), else 0."""
        if self.rules.elimination == "yes":
            finished = self.finished
            if not finished:
                return 0
            teams = self.rules.teams
            if teams:  # a team all out (team()'s members, without the lists)
                seats = self.seats
                n = len(seats)
                if len(finished) < n // teams:
                    return 0  # (fewer seats out than a team has)
                for s in finished:
                    k = seats.index(s) % teams
                    while k < n and seats[k] in finished:
                        k += teams
                    if k >= n:
                        return s
                return 0
            return finished[0] if len(self.active) - (self.leaving > 0) <= 1 else 0
        if self.laid:
            return self.laid
        for s in self.active:
            if not self.hands[s]:
                return s
        return 0

    def team(self, seat):
        """M4: partners sit apart: the i-th seat of the table is on team i mod teams."""
        teams = self.rules.teams
        if not teams:
            return [seat]
        i = self.seats.index(seat) % teams
        return [s for k, s in enumerate(self.seats) if k % teams == i]

    def _round_over(self, winner):
        """M1 (M2, M4): score the round, then the match."""
        out = self.out
        rules = self.rules
        mates = self.team(winner)
        losers = [s for s in self.seats if s not in mates and s not in self.finished]
        pts = 0
        for s in losers:
            pts += self._hand_points(s)
        self.winner = winner
        if self.window:
            # U1: a window still open (H3: the seat's own, its last card added to a multi-play;
            # M3: another seat's, a lay-down out of turn won for its team; T6: blocked at a
            # reshuffle) closes with the round, and the record says so
            out.append((_UNO_CLOSE, self.window))
            self.window = 0
        self.turn = 0
        self.slap = 0
        self.chain = 0  # H3: nothing is added to a multi-play once the round is over
        out.append((_ROUND_OVER, winner, pts))
        if rules.scoring == "losers":  # M2: each loser adds its own hand
            teams = rules.teams
            for s in self.seats:
                # M3 with M4: a member of a losing team that went out adds its team's hands
                # too (partners keep one score); without teams a seat out lost nothing
                if s in mates or (not teams and s not in losers):
                    continue
                add = 0
                for m in self.team(s):  # M4: its team's hands (seed 002: 以队为单位来进行计算)
                    if m in losers:
                        add += self._hand_points(m)
                self.scores[s] += add
                out.append((_SCORE, s, self.scores[s]))
        else:
            for s in mates:
                self.scores[s] += pts
                out.append((_SCORE, s, self.scores[s]))
        self.phase = _P_ROUND_OVER
        self.back.fast = -1  # this input goes to TakeBack.keep, which starts a new segment
        self._match_end()

    def _match_end(self):
        """M1/M2: a score at (or past) the target ends the match, after a round or when the
        target is lowered between rounds (_rule)."""
        rules = self.rules
        scores = self.scores
        seats = self.seats
        top = low = scores[seats[0]]  # loops, not generators: each is code on the board's heap
        for s in seats:
            v = scores[s]
            if v > top:
                top = v
            elif v < low:
                low = v
        if top < rules.target:
            return
        self.phase = _P_MATCH_OVER
        # the first to the target loses with "losers": the lowest wins; the first seat of a tie
        best_score = low if rules.scoring == "losers" else top
        for best in seats:
            if scores[best] == best_score:
                break
        self.out.append((_MATCH_OVER, best))

    def _hand_points(self, seat):
        pts = 0
        for c in self.hands[seat]:
            pts += points(c)
        return pts

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
        if ph == _P_PLAY:
            if self.slap:
                return 0
            if self.debts:
                return self.debts[0][0]
            if self.want or (self.drawn >= 0 and not self.pending):
                return 0
            return self.turn
        if ph == _P_DEAL:
            return self.deal_to
        if ph == _P_DRAWOFF:
            return self.offs[0]
        return 0
