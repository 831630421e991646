"""The take-back's rebuild (issue 10): what runs only when a take-back comes, imported then
(TakeBack._load), not at boot. uno/takeback.py writes the log every input goes through; this
module reads it back.

undo() puts the table back at its segment's (or chunk's) start and replays the inputs up to
the first one taken back, then says what moved (card_back, in a referee's order) and what the
table waits for again; reach() counts how far back it can go; twin() and shuffled() follow the
copies a take-back may have confused (Table.doubt), which only a take-back makes. The events
and the rules: uno/takeback.py's docstring. Each function takes the table's TakeBack first.
"""
try:
    from micropython import const
    _HOST = False
except ImportError:  # CPython
    def const(x):
        return x
    from pickle import loads
    _HOST = True

from uno.cards import DECK
from uno.takeback import _copy, _part, _varint

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_CARD_BACK = const(41)
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
_IN_TICK = const(6)
_IN_RULE = const(7)
_JOIN = const(1)
_LEAVE = const(2)
_OWE = const(13)
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

# the log's record header, as uno/takeback.py writes it (keep them in step)
_OK = const(8)
_MS = const(16)
_LONG = const(32)
_TWIN = const(64)


if _HOST:
    def _unpack_table(packed, t):
        """The table's fields as takeback._pack_table saw them (the host's: pickled)."""
        names, blob = packed
        for k, v in zip(names, loads(blob)):  # fresh copies
            setattr(t, k, v)


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
        elif tag == 9:
            n, i = _unvarint(buf, i)
            v = [None] * n
        else:
            v = _copy(others[k])
            k += 1
        setattr(obj, name, v)


def undo(back, inp, ms):
    """Feeds (IN_UNDO, n); returns the table's event list."""
    t = back.t
    out = t.out
    n = inp[1] if len(inp) == 2 else 0
    if type(n) is not int or n < 1:
        return back._refuse(_R_BAD_INPUT, inp, ms)
    start = back.start
    log = back.log
    end = back.n
    cuts = _accepted(log, end)
    if n > len(cuts) and back.prev:  # reach into the chunk before
        start, log = back.prev
        log = log + _part(back.log, end)
        end = len(log)
        cuts = _accepted(log, end)
    if n > len(cuts):
        return back._refuse(_R_UNDO_PAST, inp, ms)
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
    for _, h, a, _ in _records(log[cuts[-n]:end], end - cuts[-n], 0):
        if h & _OK and h & 7 <= _IN_PAD:
            when[a] = i
        elif h & 7 == _IN_SHUFFLE and laid is None:
            # cards may go back onto the pile: in the order they were laid there
            laid = _laid(back, log, cuts[-n], start is not back.start)
        elif h & _TWIN:
            if twins is None:
                twins = []
            twins.append(a)
            _rename(when, a)  # the read before it laid the copy now so named
        i += 1
    _rebuild(back, start, _part(log, cuts[-n]))
    if twins:
        # two copies a read found confused stay so: the take-back moves cards, it does not
        # undo what the table learnt (else it would send one copy to the other's place)
        loc = t.loc
        for a in twins:
            x = a & 255
            y = a >> 8
            if loc[x] != loc[y]:
                _swap(back, x, y)
                if laid:  # the order they were laid in goes by the copies' names now too
                    _rename(laid, a)
    if ms >= 0:
        t._time(ms)  # as feed did before the rebuild
    _restart(back, ms)
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


def twin(back, inp, ms, card):
    """A card read where the table has not it but its twin (another copy of its face): at
    the shoe, the shoe's copy, or on the pad, a hand's (another hand's if that seat may
    play it: else whose misplay would it be?). Since a take-back moved copies the player
    could not tell apart (_in_doubt), the two change places, logged (a rebuild does the
    same), and the read is judged again. Refused all the same, they change back: a refusal
    changes nothing. True when the read was judged so (its events in table.out, logged)."""
    t = back.t
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
    n = back.n
    start = back.start
    _swap(back, x, y)
    out = t.feed(inp, ms)
    if len(out) == 1 and out[0][0] == _REJECT:
        _swap(back, x, y)
        doubt[:] = was
        if back.start is start and back.n == n + 6:  # nothing logged between: neither
            back.n = n                               # is kept (a read mashed: no growth)
    else:
        out.insert(0, (_TWINS, card, other))
    return True


def _swap(back, x, y):
    """Copies x and y of one face change places in the table's record (a hand's order, the
    top card, the card drawn this turn (T2) and read last too: R_TWICE names it); logged."""
    t = back.t
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
    log = back.log
    n = back.n
    if n > back.room:
        back._grew(log)
    log[n] = _TWIN
    log[n + 1] = x
    log[n + 2] = y
    back.n = n + 3


def shuffled(back, place):
    """Before a reshuffle sends the cards at place (the pile's but its top card, or the
    cards set aside) into the shoe: a pair in doubt goes with its copies (their places as
    the reshuffle leaves them); a pair no longer in doubt, or both in the shoe then, goes."""
    t = back.t
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


def _laid(back, log, cut, joined):
    """When each card was last read before the cut: the order the pile's cards were laid
    in (a card laid in a chunk no longer kept, or before a load, counts as laid first)."""
    if back.prev and not joined:
        log = back.prev[1] + _part(log, cut)
        cut = len(log)
    laid = {}
    i = 0
    for _, h, a, _ in _records(log, cut, 0):
        if h & _OK and h & 7 <= _IN_PAD:
            laid[a] = i
        elif h & _TWIN:
            _rename(laid, a)
        i += 1
    return laid


def _restart(back, ms):
    """The turn seat's time starts again; logged so that a later rebuild does the same."""
    t = back.t
    t.since = t.clock
    t.warned = False
    _time_record(back, _LONG, ms)


def _time_record(back, h, ms):
    log = back.log
    n = back.n
    if n > back.room:
        back._grew(log)
    log[n] = h | _MS if ms >= 0 else h
    n += 1
    if ms >= 0:
        n = _varint(log, n, ms - back.ms)
        back.ms = ms
    back.n = n


def _rebuild(back, start, old):
    """A chunk's start state, then the logged inputs old (takeback._part) fed again."""
    t = back.t
    rule_ins = back.rule_ins  # only grows (a replayed rule is logged again): indexes hold
    if start is not back.start:
        back.prev = None  # rebuilt from the chunk before: the replay chunks it again
    _unpack_table(start[0], t)
    _unpack(start[1], t.rules)
    back.rules = start[1]
    back.ms = start[2]
    back.start = start
    back.n = 0
    back.phase = t.phase
    uid = t.registry.uid
    for _, h, a, ms in _records(old, len(old), start[2]):
        kind = h & 7
        if not kind:
            if h & _TWIN:
                _swap(back, a & 255, a >> 8)
                continue
            if ms >= 0:
                t._time(ms)
            if h & _LONG:
                _restart(back, ms)
            elif ms >= 0:
                _time_record(back, 0, ms)
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



def _records(log, end, clock):
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
                a, i = _unlog(log, i)
            else:
                a = log[i]
                i += 1
        elif h & _TWIN:
            a = log[i] | log[i + 1] << 8
            i += 2
        ms = -1
        if h & _MS:
            ms, i = _unlog(log, i)
            clock += ms
            ms = clock
            if kind == _IN_TICK:  # logged from the feed's time
                a += ms
        yield at, h, a, ms


def reach(back):
    """How many accepted inputs a take-back can reach now: (IN_UNDO, n) past it is refused.
    The hub asks before it logs a host's take-back, so a host retrying in a loop logs
    nothing."""
    n = len(_accepted(back.log, back.n))
    if back.prev:
        n += len(_accepted(back.prev[1], len(back.prev[1])))
    return n


def _accepted(log, end):
    """The offsets of the accepted inputs logged in log[:end] (a take-back cuts there)."""
    return [at for at, h, _, _ in _records(log, end, 0) if h & _OK]


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


if _HOST:
    from uno.takeback import _size

    def _unlog(log, i):
        """A number in the host's log (takeback._varint): whole, in the board's bytes' room."""
        v = log[i]
        return v, i + _size(v)
else:
    _unlog = _unvarint  # the board's log: zigzag bytes, as the packs
    _unpack_table = _unpack  # the board's table: takeback._pack
