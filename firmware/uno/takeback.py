"""The take-back (issue 10): a referee puts right what the sensors or the players got wrong.

(IN_UNDO, n) takes back the last n accepted inputs of the round: inputs that changed the table
(a lone `reject` changed nothing; a misplay's penalty did). The table goes back to the state
at the start of its segment and replays the segment's inputs up to the first one taken back;
inputs after it (rejected presses, ticks) go too, as they were judged against a table that no
longer is. Then the turn seat's timer (P2) starts again: the correction is not its time.

A segment starts when the table is made (or loaded, state.load) and again at every round's
end (and at a match's end between rounds: a target lowered to a score made, M1), so a take-back
never crosses a round's end (refused: R_UNDO_PAST). It may reach back over
a round's start into the inputs between rounds: a rule set there is taken back like any other
input (its `rule` event says the value it is back to). A take-back is itself not taken back.

The segment is kept compact for the board's heap: its start state packed (a few hundred bytes)
and each input as a few bytes (header, card or seat, clock delta) in one reused buffer. A
round longer than _CAP bytes of log (some 100 inputs with the hub's clock, 250 without) goes
on in a new chunk: the chunk before is kept, so a take-back always reaches back that far, or
to the round's start. A long run of refusals (each logs its time) rolls it at 2 x _CAP: the log
takes at most about 4 x _CAP bytes, whatever the inputs.
Events: (UNDO, n), then (CARD_BACK, card, from, to) for every card that moves (places as in
table.loc: 0 shoe, 1..10 a hand, 11 pile, 12 aside), in the order a referee puts them back
(two copies of a face look alike: no card comes into a hand before the hand has given up what
it gives up): first the cards from the hands to the shoe, then the hands a 0 passed on (H4),
back whole, every seat at once; then the cards off the discard pile, its top card first (only
the pile's order tells which went where: a jump-in H2 and the card it jumped, two stacked Ds
H1); then the others grouped by where from and where to, the cards back onto the pile going
under its top card in the order they were laid there (a card laid again since a reshuffle,
still on the pile, goes from the pile to the pile among them); the card that is the top card
again last of all (T4: a reshuffle taken back with the plays after it). A card taken from a
place holding its twin (a hand, the shoe, the cards set aside) may be either copy: twin() takes
whichever turns up (tests/core/test_takeback_physical.py plays it out at a model of the
physical table).
(LEAVE, seat) / (JOIN, seat) for a join or leave taken back, (PLAYER, seat, who) for a seat's
player bound again or unbound (who None).
Then what the table waits for again, in the words it used when it first did: (UNO_CLOSE, seat)
for a window closed with the card that opened it, (UNO_OPEN, seat) for a window open again or
whose call or catch was taken back (then (UNO, seat) if the seat had called: a catch of it is
still false), (REVERSE, direction) when the direction changed back (an R taken back: the record
says every change of direction), (TURN, seat) when the turn moved, (WANT, seat) for a colour to
name again, (OWE, seat, n, why) for a D or W4 owed again or another total (H1, C1; a draw of it
taken back says only its card_back), (RESHUFFLE, seat) when the reshuffle is due again and a
seat is due to draw (T4: the shuffle taken back; with none due, the state's `due` alone), and
(RULE, name, value) for each setting that changed back. Never an event the records count (a
play, draw, penalty, catch, challenge, slap, win): a penalty taken back is gone from the debts
and the seat LEDs show who owes; a slap open again (H7) and a seat back in the round after a
sum win (H5 with M3) are the state's alone. Everything else (phase, scores, the colour of the
top card) the display reads from the table as after any input.
"""
try:
    from micropython import const
    import micropython
    _HOST = False
except ImportError:  # CPython
    def const(x):
        return x

    class micropython:  # type: ignore[no-redef]
        native = staticmethod(lambda f: f)  # as in uno/table.py
    from operator import attrgetter
    from pickle import dumps, loads
    _HOST = True

from uno.cards import DECK

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_CARD_BACK = const(41)
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
_IN_TICK = const(6)
_IN_RULE = const(7)
_IN_PLAYER = const(9)
_JOIN = const(1)
_LEAVE = const(2)
_OWE = const(13)
_P_ROUND_OVER = const(6)
_PLAYER = const(42)
_R_BAD_INPUT = const(27)
_R_UNDO_PAST = const(38)
_REJECT = const(25)
_RESHUFFLE = const(38)
_REVERSE = const(16)
_RULE = const(30)
_TURN = const(17)
_TWINS = const(43)
_UNDO = const(40)
_UNO_OPEN = const(19)
_UNO_CLOSE = const(20)
_UNO = const(21)
_WANT = const(10)
# -- end of codes --

_SHOE = const(0)   # table.SHOE
_PILE = const(11)  # table.PILE: the discard pile's place in table.loc

# record header: kind in bits 0-2, then flags
_OK = const(8)      # an accepted input (counted by take-backs)
_MS = const(16)     # the feed's ms follows (zigzag delta from the last one); a tick's own
                    # time is then logged as from it (the hub's ticks: 0, one byte)
_LONG = const(32)   # a long press; on a time-only record (kind 0): a take-back restarted the timer
_TWIN = const(64)   # kind 0, no time: two copies in doubt changed places (twin); two bytes follow
_GROW = const(256)
_CAP = const(512)  # the log grows by this much: no doubling, no big block to find
_KEPT = ("out", "registry", "back", "rules")  # kept, not copied


def _copy(v):
    t = type(v)
    if t is list:
        return [_copy(x) for x in v]
    if t is bytearray:
        return bytearray(v)
    return v


def _put(buf, v):
    v = v << 1 if v >= 0 else (-v << 1) - 1  # zigzag
    while v > 127:
        buf.append(v & 127 | 128)
        v >>= 7
    buf.append(v)


_names = {}  # field names as last packed, per object kind: one tuple each, not one per pack


def _pack(d, skip):
    """An object's fields as (names, bytes, others): ints, flags and lists of small ints as a
    few bytes each (a round's start state in some 300 bytes, not a dict of copies), the rest
    kept. Once a round: the lists go through bytes() whole, not int by int; a count or seat
    below 64 is one byte; the kept fields (skip) are looked for only among the objects and
    take a byte (8) each, so that the names are the object's own, in order."""
    buf = bytearray()
    add = buf.append
    others = None  # made only when some field needs it (the table's never does)
    last = _names.get(len(skip))
    same = last is not None and len(last) == len(d)
    j = 0
    for k in d:  # keys, not items(): MicroPython makes a tuple of every item (1.7 KB a pack)
        v = d[k]
        if same and last[j] != k:
            same = False
        j += 1
        t = type(v)
        if t is int:
            if 0 <= v < 64:
                add(64 | v)
            else:
                add(0)
                _put(buf, v)
        elif t is bool:
            add(1 if v else 2)
        elif v is None:
            add(3)
        elif t is bytearray:
            add(4)
            _put(buf, len(v))
            buf.extend(v)
        elif k in skip:
            add(8)
        elif t is list:
            try:  # cards, seats, small counts: one byte each (ValueError past 255)
                if v and type(v[0]) is list:
                    b = []
                    for x in v:  # hands, debts
                        if type(x) is not list:
                            raise TypeError
                        b.append(bytes(x))
                    add(6)
                    _put(buf, len(b))
                    for x in b:
                        n = len(x)
                        if n < 64:
                            add(n << 1)  # _put's zigzag varint, inline: a hand is short
                        else:
                            _put(buf, n)
                        buf.extend(x)
                else:
                    b = bytes(v)
                    add(5)
                    _put(buf, len(b))
                    buf.extend(b)
            except (TypeError, ValueError):  # scores past 255, or anything else
                add(7)
                if others is None:
                    others = []
                others.append(_copy(v))
        else:
            add(7)  # str, tuple: kept (a copy of anything mutable)
            if others is None:
                others = []
            others.append(_copy(v))
    if same:  # the fields as last time: one tuple kept for them all, none made
        names = last
    else:
        names = _names[len(skip)] = tuple(d)
    return names, bytes(buf), others


if _HOST:
    _getters = {}

    def _pack_table(t):
        """The host's table (slots, uno/table.py) in two C calls: 2 us, not _pack's 16, at every
        chunk of the log (issue 10: the replay bench). Heap is no matter here."""
        g = _getters.get(type(t))
        if g is None:
            names = tuple(k for k in t.__slots__ if k not in _KEPT)
            g = _getters[type(t)] = (names, attrgetter(*names))
        return g[0], dumps(g[1](t), -1)

    def _unpack_table(packed, t):
        names, blob = packed
        for k, v in zip(names, loads(blob)):  # fresh copies
            setattr(t, k, v)
else:
    def _pack_table(t):
        """The board's table in a few hundred bytes of heap."""
        return _pack(t.__dict__, _KEPT)

    def _unpack_table(packed, t):
        _unpack(packed, t)


def _unpack(packed, obj):
    """Sets obj's fields to fresh copies of what _pack saw."""
    names, buf, others = packed
    i = 0
    k = 0
    for name in names:
        tag = buf[i]
        i += 1
        if tag >= 64:
            v = tag - 64
        elif tag == 0:
            v, i = _unvarint(buf, i)
        elif tag < 4:
            v = True if tag == 1 else False if tag == 2 else None
        elif tag == 4:
            n, i = _unvarint(buf, i)
            v = bytearray(buf[i:i + n])
            i += n
        elif tag == 5:
            n, i = _unvarint(buf, i)
            v = list(buf[i:i + n])
            i += n
        elif tag == 6:
            n, i = _unvarint(buf, i)
            v = []
            for _ in range(n):
                m, i = _unvarint(buf, i)
                v.append(list(buf[i:i + m]))
                i += m
        elif tag == 8:
            continue  # kept, not packed
        else:
            v = _copy(others[k])
            k += 1
        setattr(obj, name, v)


if _HOST:
    def _buf(n):
        # the log: a list on the host, which CPython 3.11 stores into in one specialised step
        # (a bytearray through the generic subscript: 3-4 stores an input, issue 10)
        return [0] * n
else:
    _buf = bytearray  # the board: a byte each


class TakeBack:
    def __init__(self, table):
        self.t = table
        self.rules = None  # the settings, packed
        self.log = _buf(_GROW)  # reused by every segment: no garbage per input
        self.room = _GROW - 16       # bytes in use past which it grows (an input takes < 16)
        self.mark()                  # (sets fast: feed logs a card read inline up to there)

    def _grew(self, log):
        log.extend(bytes(_GROW))
        self.room = len(log) - 16
        self.fast = min(self.room, _CAP - 4)  # (see _chunk)

    def mark(self):
        """The table as it is now starts a new segment (made, loaded, a round ended)."""
        self.prev = None     # the chunk before a long round's current one: (start, log, ms)
        self.rule_ins = []   # rule inputs of the segment, (name, value), indexed by the log
        self.ms = 0
        self._chunk()

    def _chunk(self):
        """A new chunk of the segment starts at the table as it is now."""
        t = self.t
        self.start = None  # the old one may go before the new one is made
        if self.rules is None:  # packed again only after a rule input changed them
            # (as_dict: reading __dict__ would make CPython give up its fast reads of the
            # settings, every rule the table asks for at every input)
            self.rules = _pack(t.rules.as_dict(), ())
        self.start = (_pack_table(t), self.rules, self.ms)
        self.n = 0         # bytes of the log in use
        self.phase = t.phase
        # feed's inline card read (table.py): up to 4 bytes where they fit, not past the roll;
        # -1 from Table._round_over sends the input that ends a round here
        self.fast = min(self.room, _CAP - 4)

    @micropython.native
    def keep(self, inp, ms, out, card=-1):
        """After each fed input: log it (compact) and start a new segment at a round's end.
        card: the card a shoe or pad read found (feed has looked its UID up already).

        Every table input comes through here, but a reject that took no time (feed keeps it
        back): kept short and allocation-free (a call and a collection cost the board more than
        the few byte writes)."""
        n = self.n
        log = self.log
        if n > self.room:
            self._grew(log)
        if card >= 0 and (len(out) > 1 or out and out[0][0] != _REJECT):  # a card read, accepted
            log[n] = inp[0] | _OK if ms < 0 else inp[0] | _OK | _MS  # (most of a round)
            log[n + 1] = card
            n += 2
        elif not out or out[-1][0] == _REJECT and len(out) == 1:  # changed nothing: its time only
            if inp and inp[0] == _IN_TICK and len(inp) == 2 and type(inp[1]) is int:
                # a quiet tick: the clock moves; its time as from the feed's (the hub's: 0)
                log[n] = _IN_TICK if ms < 0 else _IN_TICK | _MS
                n = _varint(log, n + 1, inp[1] if ms < 0 else inp[1] - ms)
            elif ms >= 0:
                log[n] = _MS
                n += 1
            else:
                return
            if ms >= 0:
                n = _varint(log, n, ms - self.ms)
                self.ms = ms
            self.n = n
            if n > 2 * _CAP:  # a button mashed, a host sending nonsense: bounded all the same
                self._roll(n)  # (2 x: in play the next accepted input rolls it at _CAP)
            return
        elif inp[0] == _IN_PLAYER or inp[0] == _IN_PAD:  # a name, a badge: whole, as a _LONG rule
            log[n] = _IN_RULE | _OK | _LONG if ms < 0 else _IN_RULE | _OK | _LONG | _MS
            n = _varint(log, n + 1, len(self.rule_ins))
            self.rule_ins.append(inp)
        elif inp[0] <= _IN_COLOUR:
            kind = inp[0]
            h = kind | _OK if ms < 0 else kind | _OK | _MS
            log[n] = h | _LONG if inp[2] else h
            log[n + 1] = inp[1]
            n += 2
        else:
            kind = inp[0]
            log[n] = kind | _OK if ms < 0 else kind | _OK | _MS
            if kind == _IN_TICK:  # as a quiet tick's
                n = _varint(log, n + 1, inp[1] if ms < 0 else inp[1] - ms)
            elif kind == _IN_RULE:
                n = _varint(log, n + 1, len(self.rule_ins))
                self.rule_ins.append((inp[1], inp[2]))
                self.rules = None
            else:
                n += 1
        if ms >= 0:
            d = ms - self.ms
            if 0 <= d < 8192:  # _varint, inline: the hub's inputs come 0.1-8 s apart
                if d < 64:  # (+ and *: as in Table._feed's inline log)
                    log[n] = d + d
                    n += 1
                else:
                    log[n] = (d & 63) * 2 + 128
                    log[n + 1] = d >> 6
                    n += 2
            else:
                n = _varint(log, n, d)
            self.ms = ms
        self.n = n
        ph = self.t.phase  # only an accepted input moves the phase (feed's inline card reads do
        if ph != self.phase:  # not look: only a round's end matters, and it comes here: _chunk)
            self.phase = ph
            if ph >= _P_ROUND_OVER:
                self.mark()
        elif n > _CAP:
            self._roll(n)

    def _roll(self, n):
        """A long round, or a long run of refusals: the log goes on in a new chunk, and the last
        one is kept (its n bytes), so a take-back reaches back that far."""
        self.prev = None
        log = self.log
        self.prev = (self.start, bytes(log[:n] if _HOST else memoryview(log)[:n]))  # (one copy)
        self._chunk()

    def _records(self, log, end, clock):
        """Yields (offset, header, a, ms) of each logged input (clock: the ms it starts from)."""
        i = 0
        while i < end:
            at = i
            h = log[i]
            i += 1
            kind = h & 7
            a = 0
            if kind and kind != _IN_SHUFFLE:
                if kind == _IN_TICK or kind == _IN_RULE:
                    a, i = _unvarint(log, i)
                else:
                    a = log[i]
                    i += 1
            elif h & _TWIN:
                a = log[i] | log[i + 1] << 8
                i += 2
            ms = -1
            if h & _MS:
                ms, i = _unvarint(log, i)
                clock += ms
                ms = clock
                if kind == _IN_TICK:  # logged from the feed's time
                    a += ms
            yield at, h, a, ms

    def undo(self, inp, ms):
        """Feeds (IN_UNDO, n); returns the table's event list."""
        t = self.t
        out = t.out
        n = inp[1] if len(inp) == 2 else 0
        if type(n) is not int or n < 1:
            return self._refuse(_R_BAD_INPUT, inp, ms)
        start = self.start
        log = self.log
        end = self.n
        cuts = self._accepted(log, end)
        if n > len(cuts) and self.prev:  # reach into the chunk before
            start, log = self.prev
            log = log + bytes(self.log[:end])
            end = len(log)
            cuts = self._accepted(log, end)
        if n > len(cuts):
            return self._refuse(_R_UNDO_PAST, inp, ms)
        before = bytearray(t.loc)
        seats = t.seats[:]
        players = t.players[:]
        turn = t.turn
        way = t.dir
        was = (t.window, t.called, t.caught, t.want, t.pending, t.pending_why, t.due)
        rules = t.rules.as_dict()
        doubt = t.doubt
        # when each card was last read among the inputs taken back: a card leaving the pile
        # was laid there by that read (a read of a card on the pile is refused), so the last
        # read is the top of the pile
        when = {}
        laid = None
        twins = None
        i = 0
        for _, h, a, _ in self._records(log[cuts[-n]:end], end - cuts[-n], 0):
            if h & _OK and h & 7 <= _IN_PAD:
                when[a] = i
            elif h & 7 == _IN_SHUFFLE and laid is None:
                # cards may go back onto the pile: in the order they were laid there
                laid = self._laid(log, cuts[-n], start is not self.start)
            elif h & _TWIN:
                if twins is None:
                    twins = []
                twins.append(a)
                _rename(when, a)  # the read before it laid the copy now so named
            i += 1
        self._rebuild(start, bytes(log[:cuts[-n]]))
        if twins:
            # two copies a read found confused stay so: the take-back moves cards, it does not
            # undo what the table learnt (else it would send one copy to the other's place)
            loc = t.loc
            for a in twins:
                x = a & 255
                y = a >> 8
                if loc[x] != loc[y]:
                    self._swap(x, y)
        if ms >= 0:
            t._time(ms)  # as feed did before the rebuild
        self._restart(ms)
        del out[:]
        out.append((_UNDO, n))
        loc = t.loc
        top = t.top
        moved = []
        for c in range(len(loc)):
            b = before[c]
            if loc[c] != b or b == _PILE and c in when:
                # in the order to do it: first the cards that go back to the shoe from the
                # hands, then the hands a 0 passed on (H4), back whole, every seat at once
                # (before a card comes into them: two copies look alike); then off the pile,
                # its top card first (only the pile's order tells two copies apart); then the
                # rest grouped by where from and where to, the cards back onto the pile (under
                # its top card) in the order they were laid there, a card laid again since
                # (drawn after a reshuffle and played) among them; the card that is the top
                # card again (from the shoe or a hand, after a reshuffle taken back) last
                to = loc[c]
                if c == top and b != _PILE:
                    moved.append((4, 0, 0, c))
                elif to == _PILE:
                    moved.append((3, _PILE, laid.get(c, -1) if laid else 0, c))
                elif b == _PILE:
                    moved.append((2, -when.get(c, 0), 0, c))
                elif 0 < b < _PILE and (to == _SHOE or 0 < to < _PILE):
                    moved.append((0 if to == _SHOE else 1, b << 8 | to, 0, c))
                else:
                    moved.append((3, b << 8 | to, 0, c))
        moved.sort()
        for m in moved:
            c = m[3]
            out.append((_CARD_BACK, c, before[c], loc[c]))
        t.doubt = _in_doubt(loc, before, doubt, moved)
        for s in seats:  # joins taken back (lobby)
            if s not in t.seats:
                out.append((_LEAVE, s))
        for s in t.seats:  # leaves taken back
            if s not in seats:
                out.append((_JOIN, s))
        for s in range(len(players)):  # players bound or unbound again (issue 12)
            w = t.players[s]
            if type(w) is not type(players[s]) or w != players[s]:
                out.append((_PLAYER, s, t.players[s]))
        # then what the table waits for again, in the words it first used (events that
        # nothing counts: the standings count a penalty, a catch, a challenge, a card played)
        w = t.window
        if was[0] and was[0] != w:  # the card or call that opened it taken back (U1)
            out.append((_UNO_CLOSE, was[0]))
        if w and (w != was[0] or was[1] and not t.called or was[2] and not t.caught):
            out.append((_UNO_OPEN, w))  # open again, or its call or catch taken back
            if t.called:
                out.append((_UNO, w))   # it had called before the window closed: it stands
        if t.dir != way:  # an R taken back: the record says every change of direction
            out.append((_REVERSE, t.dir))
        if t.turn != turn and t.turn:
            out.append((_TURN, t.turn))
        if t.want and t.want != was[3]:
            out.append((_WANT, t.want))  # the colour to name again
        if t.pending and (not was[4] or t.pending_why != was[5] or t.turn != turn):
            # a D or W4 owed again, or another total (H1, C1); not a draw of it taken back:
            # its card_back says that one card is owed again
            out.append((_OWE, t.turn, t.pending, t.pending_why))
        if t.due and not was[6]:  # T4: the shuffle taken back is due again
            who = t.drawer()  # (none while a colour is wanted, a slap is open or a drawn
            if who:           # card may be played: the state says it, as the table had)
                out.append((_RESHUFFLE, who))
        now = t.rules.as_dict()
        for k in sorted(now):
            if now[k] != rules[k]:
                out.append((_RULE, k, now[k]))
        return out

    def twin(self, inp, ms, card):
        """A card read where the table has not it but its twin (another copy of its face): at
        the shoe, the shoe's copy, or on the pad, a hand's (another hand's if that seat may
        play it: else whose misplay would it be?). Since a take-back moved copies the player
        could not tell apart (_in_doubt), the two change places, logged (a rebuild does the
        same), and the read is judged again. Refused all the same, they change back: a refusal
        changes nothing. True when the read was judged so (its events in table.out, logged)."""
        t = self.t
        doubt = t.doubt
        loc = t.loc
        at = 0 if inp[0] == _IN_SHOE else 1  # the place kind the read says the card is at
        for i in range(0, len(doubt), 3):
            x = doubt[i]
            y = doubt[i + 1]
            if card == x:
                other = y
            elif card == y:
                other = x
            else:
                continue
            p = loc[other]
            q = loc[card]
            if _kind(p) == at and _kinds(loc[x], loc[y]) == doubt[i + 2] and \
                    p != q and (at == 0 or not 0 < q < _PILE or t.judge(p, other)[0]):
                break
        else:
            return False
        was = doubt[:]
        del doubt[i:i + 3]
        for j in range(0, len(doubt), 3):  # the other pairs follow the two places' names (W,
            for k in (j, j + 1):  # W4: the copy whose place it was may be another's twin);
                if doubt[k] == x:  # before the read is judged: a start card back (S4) drops
                    doubt[k] = y   # the pairs of the copy it found in the shoe
                elif doubt[k] == y:
                    doubt[k] = x
        n = self.n
        start = self.start
        self._swap(x, y)
        out = t.feed(inp, ms)
        if len(out) == 1 and out[0][0] == _REJECT:
            self._swap(x, y)
            doubt[:] = was
            if self.start is start and self.n == n + 6:  # nothing logged between: neither
                self.n = n                               # is kept (a read mashed: no growth)
        else:
            out.insert(0, (_TWINS, card, other))
        return True

    def _swap(self, x, y):
        """Copies x and y of one face change places in the table's record (a hand's order, the
        top card, the card drawn this turn (T2) and read last too: R_TWICE names it); logged."""
        t = self.t
        loc = t.loc
        a = loc[x]
        b = loc[y]
        hands = t.hands
        if 0 < a < _PILE:
            hand = hands[a]
            hand[hand.index(x)] = -1
        if 0 < b < _PILE:
            hand = hands[b]
            hand[hand.index(y)] = x
        if 0 < a < _PILE:
            hand = hands[a]
            hand[hand.index(-1)] = y
        loc[x] = b
        loc[y] = a
        t.top = _other(t.top, x, y)  # the top card, the card drawn (T2), the last read
        t.drawn = _other(t.drawn, x, y)
        t.last = _other(t.last, x, y)
        log = self.log
        n = self.n
        if n > self.room:
            self._grew(log)
        log[n] = _TWIN
        log[n + 1] = x
        log[n + 2] = y
        self.n = n + 3

    def shuffled(self, place):
        """Before a reshuffle sends the cards at place (the pile's but its top card, or the
        cards set aside) into the shoe: a pair in doubt goes with its copies (their places as
        the reshuffle leaves them); a pair no longer in doubt, or both in the shoe then, goes."""
        t = self.t
        loc = t.loc
        doubt = t.doubt
        top = t.top
        for i in range(len(doubt) - 3, -1, -3):
            x = doubt[i]
            y = doubt[i + 1]
            a = loc[x]
            b = loc[y]
            if _kinds(a, b) == doubt[i + 2]:
                if a == place and x != top:
                    a = _SHOE
                if b == place and y != top:
                    b = _SHOE
                if a != b:
                    doubt[i + 2] = _kinds(a, b)
                    continue
            del doubt[i:i + 3]

    def reach(self):
        """How many accepted inputs a take-back can reach now: (IN_UNDO, n) past it is refused.
        The hub asks before it logs a host's take-back, so a host retrying in a loop logs
        nothing."""
        n = len(self._accepted(self.log, self.n))
        if self.prev:
            n += len(self._accepted(self.prev[1], len(self.prev[1])))
        return n

    def _laid(self, log, cut, joined):
        """When each card was last read before the cut: the order the pile's cards were laid
        in (a card laid in a chunk no longer kept, or before a load, counts as laid first)."""
        if self.prev and not joined:
            log = self.prev[1] + bytes(log[:cut])
            cut = len(log)
        laid = {}
        i = 0
        for _, h, a, _ in self._records(log, cut, 0):
            if h & _OK and h & 7 <= _IN_PAD:
                laid[a] = i
            elif h & _TWIN:
                _rename(laid, a)
            i += 1
        return laid

    def _accepted(self, log, end):
        """The offsets of the accepted inputs logged in log[:end] (a take-back cuts there)."""
        return [at for at, h, _, _ in self._records(log, end, 0) if h & _OK]

    def _refuse(self, why, inp, ms):
        t = self.t  # feed has already taken the input's time
        t.out.append((_REJECT, why, 0, -1))
        self.keep(inp, ms, t.out)
        return t.out

    def _restart(self, ms):
        """The turn seat's time starts again; logged so that a later rebuild does the same."""
        t = self.t
        t.since = t.clock
        t.warned = False
        self._time_record(_LONG, ms)

    def _time_record(self, h, ms):
        log = self.log
        n = self.n
        if n > self.room:
            self._grew(log)
        log[n] = h | _MS if ms >= 0 else h
        n += 1
        if ms >= 0:
            n = _varint(log, n, ms - self.ms)
            self.ms = ms
        self.n = n

    def _rebuild(self, start, old):
        """A chunk's start state, then the logged inputs old (bytes) fed again."""
        t = self.t
        rule_ins = self.rule_ins  # only grows (a replayed rule is logged again): indexes hold
        if start is not self.start:
            self.prev = None  # rebuilt from the chunk before: the replay chunks it again
        _unpack_table(start[0], t)
        _unpack(start[1], t.rules)
        self.rules = start[1]
        self.ms = start[2]
        self.start = start
        self.n = 0
        self.phase = t.phase
        uid = t.registry.uid
        for _, h, a, ms in self._records(old, len(old), start[2]):
            kind = h & 7
            if not kind:
                if h & _TWIN:
                    self._swap(a & 255, a >> 8)
                    continue
                if ms >= 0:
                    t._time(ms)
                if h & _LONG:
                    self._restart(ms)
                elif ms >= 0:
                    self._time_record(0, ms)
                continue
            if kind <= _IN_PAD:
                inp = (kind, uid(a))
            elif kind <= _IN_COLOUR:
                inp = (kind, a, 1 if h & _LONG else 0)
            elif kind == _IN_TICK:
                inp = (kind, a)
            elif kind == _IN_RULE:
                inp = rule_ins[a] if h & _LONG else (kind, rule_ins[a][0], rule_ins[a][1])
            else:
                inp = (kind,)
            t.feed(inp, ms)


def _kind(p):
    """A place's kind: 0 the shoe, 1 a hand, 2 the pile, 3 aside (table.loc's places)."""
    return 0 if p == _SHOE else 1 if p < _PILE else p - 9


def _kinds(p, q):
    """A pair's places' kinds, as Table.doubt keeps them: the pair is in doubt while they hold."""
    return _kind(p) | _kind(q) << 2


def _rename(when, a):
    """Two copies changed places (a twins record a = x | y << 8): each takes the other's
    entry."""
    x = a & 255
    y = a >> 8
    wx = when.pop(x, None)
    wy = when.pop(y, None)
    if wx is not None:
        when[y] = wx
    if wy is not None:
        when[x] = wy


def _in_doubt(loc, before, doubt, moved):
    """After a take-back (loc: the table now, before: as it was, moved: the card_back moves in
    the order the referee makes them): [x, y, kinds, ...], the pairs of copies of one face the
    player may have confused, at other places (kinds: _kinds(loc[x], loc[y])), or
    both on the pile in an order in doubt. A copy taken from a hand, the shoe or the cards set
    aside may be any copy of its face there at that moment (not off the pile: the pile's order
    tells them apart), and a pair still in doubt stays so: so any two copies linked by such
    choices (W and W4: three or four)."""
    n = len(loc)
    label = bytearray(range(n))  # copies linked: one label
    for i in range(0, len(doubt), 3):
        x = doubt[i]
        y = doubt[i + 1]
        if _kinds(before[x], before[y]) == doubt[i + 2]:  # still in doubt
            _link(label, x, y)
    now = bytearray(before)
    for m in moved:
        c = m[3]
        b = now[c]
        if b != _PILE:
            # a 0's hands pass at once (H4): not the copies passed into the hand meanwhile
            passed = 0 < b < _PILE and 0 < loc[c] < _PILE
            face = DECK[c]
            for y in range(max(0, c - 3), min(n, c + 4)):  # copies lie side by side
                if y != c and DECK[y] == face and now[y] == b and (before[y] == b or not passed):
                    _link(label, c, y)
        now[c] = loc[c]
    out = []
    for x in range(n):
        for y in range(x + 1, min(n, x + 4)):
            if label[x] == label[y] and DECK[y] == DECK[x]:
                a = _kind(loc[x])
                b = _kind(loc[y])
                if a > b:
                    out.append(y)
                    out.append(x)
                    out.append(b | a << 2)
                elif a < b or a == 2 or a == 1 and loc[x] != loc[y]:
                    out.append(x)
                    out.append(y)
                    out.append(a | b << 2)
    return out


def _link(label, x, y):
    """x's copies and y's (one face: within 4 of each other) take one label."""
    a = label[x]
    b = label[y]
    if a != b:
        for i in range(max(0, x - 3), min(len(label), x + 4)):
            if label[i] == b:
                label[i] = a


def _other(c, x, y):
    """c, with copies x and y changed places (_swap)."""
    return y if c == x else x if c == y else c


def _varint(log, n, v):
    """Writes v (zigzag: a clock may restart) at log[n]; returns the offset after it."""
    v = v << 1 if v >= 0 else (-v << 1) - 1
    while v > 127:
        if n + 2 > len(log):  # a tick of a huge time: anything a host sends must fit
            log.extend(bytes(_GROW))
        log[n] = v & 127 | 128
        n += 1
        v >>= 7
    log[n] = v
    return n + 1


def _unvarint(log, i):
    v = shift = 0
    while True:
        b = log[i]
        i += 1
        v |= (b & 127) << shift
        shift += 7
        if b < 128:
            break
    return (v >> 1 if not v & 1 else -((v + 1) >> 1)), i
