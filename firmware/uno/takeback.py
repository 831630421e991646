"""The take-back (issue 10): a referee puts right what the sensors or the players got wrong.

(IN_UNDO, n) takes back the last n accepted inputs of the round: inputs that changed the table
(a lone `reject` changed nothing; a misplay's penalty did). The table goes back to the state
at the start of its segment and replays the segment's inputs up to the first one taken back;
inputs after it (rejected presses, ticks) go too, as they were judged against a table that no
longer is. Then the turn seat's timer (P2) starts again: the correction is not its time.

A segment starts when the table is made (or loaded, state.load) and again at every round's
end, so a take-back never crosses a round's end (refused: R_UNDO_PAST). It may reach back over
a round's start into the inputs between rounds: a rule set there is taken back like any other
input (its `rule` event says the value it is back to). A take-back is itself not taken back.

The segment is kept compact for the board's heap: its start state (about 1 KB: the table's
fields) and each input as a few bytes (header, card or seat, clock delta) in one bytearray.
Events: (UNDO, n), then (CARD_BACK, card, from, to) for every card that moves (places as in
table.loc: 0 shoe, 1..10 a hand, 11 pile, 12 aside), (TURN, seat) when the turn moved, and
(RULE, name, value) for each setting that changed back.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_CARD_BACK = const(41)
_IN_PAD = const(2)
_IN_COLOUR = const(4)
_IN_SHUFFLE = const(5)
_IN_TICK = const(6)
_IN_RULE = const(7)
_P_ROUND_OVER = const(6)
_R_BAD_INPUT = const(27)
_R_UNDO_PAST = const(38)
_REJECT = const(25)
_RULE = const(30)
_TURN = const(17)
_UNDO = const(40)
# -- end of codes --

# record header: kind in bits 0-2, then flags
_OK = const(8)      # an accepted input (counted by take-backs)
_MS = const(16)     # the feed's ms follows (zigzag delta from the last one)
_LONG = const(32)   # a long press; on a time-only record (kind 0): a take-back restarted the timer
_KEPT = ("out", "registry", "back", "rules")  # kept, not copied


def _copy(v):
    """A copy of a table field: its lists hold ints, or lists of ints (hands, debts)."""
    t = type(v)
    if t is list:
        return [x[:] for x in v] if v and type(v[0]) is list else v[:]
    if t is bytearray:
        return bytearray(v)
    return v


class TakeBack:
    def __init__(self, table):
        self.t = table
        self.reg = table.registry
        self.log = None
        self.mark()

    def mark(self):
        """The table as it is now starts a new segment (made, loaded, a round ended)."""
        t = self.t
        start = {}
        d = t.__dict__
        for k in d:
            if k not in _KEPT:
                start[k] = _copy(d[k])
        self.start = start
        r = t.rules.__dict__
        self.rules = dict((k, r[k]) for k in r)  # the settings' values (str and int)
        if not self.log:
            self.log = bytearray(256)  # reused by every segment: no garbage per input
        self.n = 0                     # bytes of it in use
        self.rule_ins = []  # rule inputs of the segment: (name, value)
        self.ms = 0
        self.phase = t.phase

    def keep(self, inp, ms, out):
        """After each fed input: log it (compact) and start a new segment at a round's end.

        Every table input comes through here: kept short and allocation-free (a call and a
        collection cost the board more than the few byte writes)."""
        log = self.log
        n = self.n
        if n + 16 > len(log):
            log.extend(bytes(len(log)))  # doubles: a long round grows it a few times
        if out and (len(out) > 1 or out[0][0] != _REJECT):
            kind = inp[0]
            h = kind | _OK if ms < 0 else kind | _OK | _MS
            if kind <= _IN_PAD:
                u = inp[1]
                reg = self.reg  # the board's registry has just found this UID: no search
                log[n] = h
                log[n + 1] = reg.hit_card if reg.hit is u else reg.card(u)
                n += 2
            elif kind <= _IN_COLOUR:
                log[n] = h | _LONG if inp[2] else h
                log[n + 1] = inp[1]
                n += 2
            elif kind == _IN_TICK:
                log[n] = h
                n = _varint(log, n + 1, inp[1])
            elif kind == _IN_RULE:
                log[n] = h
                n = _varint(log, n + 1, len(self.rule_ins))
                self.rule_ins.append((inp[1], inp[2]))
            else:
                log[n] = h
                n += 1
        elif inp and inp[0] == _IN_TICK and len(inp) == 2 and type(inp[1]) is int:
            log[n] = _IN_TICK if ms < 0 else _IN_TICK | _MS  # a quiet tick moves the clock
            n = _varint(log, n + 1, inp[1])
        elif ms >= 0:
            log[n] = _MS  # a rejected input: only its time counts
            n += 1
        if ms >= 0:
            n = _varint(log, n, ms - self.ms)
            self.ms = ms
        self.n = n
        ph = self.t.phase
        if ph != self.phase:
            self.phase = ph
            if ph >= _P_ROUND_OVER:
                self.mark()

    def _records(self, log, end):
        """Yields (offset, header, a, ms) of each logged input."""
        i = 0
        clock = 0
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
            ms = -1
            if h & _MS:
                ms, i = _unvarint(log, i)
                clock += ms
                ms = clock
            yield at, h, a, ms

    def undo(self, inp, ms):
        """Feeds (IN_UNDO, n); returns the table's event list."""
        t = self.t
        out = t.out
        n = inp[1] if len(inp) == 2 else 0
        if type(n) is not int or n < 1:
            return self._refuse(_R_BAD_INPUT, inp, ms)
        cuts = [at for at, h, _, _ in self._records(self.log, self.n) if h & _OK]
        if n > len(cuts):
            return self._refuse(_R_UNDO_PAST, inp, ms)
        before = bytearray(t.loc)
        turn = t.turn
        rules = t.rules.as_dict()
        self._rebuild(cuts[-n])
        if ms >= 0:
            t._time(ms)  # as feed did before the rebuild
        self._restart(ms)
        del out[:]
        out.append((_UNDO, n))
        loc = t.loc
        for c in range(len(loc)):
            if loc[c] != before[c]:
                out.append((_CARD_BACK, c, before[c], loc[c]))
        if t.turn != turn and t.turn:
            out.append((_TURN, t.turn))
        now = t.rules.as_dict()
        for k in sorted(now):
            if now[k] != rules[k]:
                out.append((_RULE, k, now[k]))
        return out

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
        if n + 16 > len(log):
            log.extend(bytes(len(log)))
        log[n] = h | _MS if ms >= 0 else h
        n += 1
        if ms >= 0:
            n = _varint(log, n, ms - self.ms)
            self.ms = ms
        self.n = n

    def _rebuild(self, cut):
        """The segment's start state, then its inputs before offset cut, fed again."""
        t = self.t
        old = bytes(self.log[:self.n])  # the segment as it was; the log is written anew
        rule_ins = self.rule_ins
        start = self.start
        for k in start:
            setattr(t, k, _copy(start[k]))
        r = t.rules
        saved = self.rules
        for k in saved:
            setattr(r, k, saved[k])
        self.n = 0
        self.rule_ins = []
        self.ms = 0
        self.phase = t.phase
        uid = t.registry.uid
        for at, h, a, ms in self._records(old, len(old)):
            if at >= cut:
                break
            kind = h & 7
            if not kind:
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
                inp = (kind, rule_ins[a][0], rule_ins[a][1])
            else:
                inp = (kind,)
            t.feed(inp, ms)


def _varint(log, n, v):
    """Writes v (zigzag: a clock may restart) at log[n]; returns the offset after it."""
    v = v << 1 if v >= 0 else (-v << 1) - 1
    while v > 127:
        if n + 2 > len(log):  # a tick of a huge time: anything a host sends must fit
            log.extend(bytes(len(log)))
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
