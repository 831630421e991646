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
This module writes that log, which every input goes through (keep). What runs only when a
take-back comes (undo: the log read back, the rebuild and replay, the card_back order; reach;
twin and shuffled for the copies in doubt, which only a take-back makes) is uno/rebuild.py,
loaded at the first take-back: a board drops it again at a segment's start with no copies in
doubt, so its heap holds it only around a take-back. A board without the heap to load it
refuses the take-back (R_NO_ROOM), changing nothing; the hub asks first (ready), so that such
a take-back is not logged.
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
    _HOST = const(0)  # the board's compiler drops each `if _HOST:` branch: no test an input
except ImportError:  # CPython
    def const(x):
        return x

    class micropython:  # type: ignore[no-redef]
        native = staticmethod(lambda f: f)  # as in uno/table.py
    from operator import attrgetter
    from pickle import dumps
    globals()["_HOST"] = True  # (as in uno/table.py)
import sys

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_PAD = const(2)
_IN_COLOUR = const(4)
_IN_TICK = const(6)
_IN_RULE = const(7)
_IN_PLAYER = const(9)
_P_ROUND_OVER = const(6)
_R_NO_ROOM = const(48)
_REJECT = const(25)
# -- end of codes --

# record header: kind in bits 0-2, then flags
_OK = const(8)      # an accepted input (counted by take-backs)
_MS = const(16)     # the feed's ms follows (zigzag delta from the last one); a tick's own
                    # time is then logged as from it (the hub's ticks: 0, one byte)
_LONG = const(32)   # a long press; on a time-only record (kind 0): a take-back restarted the timer
_TWIN = const(64)   # kind 0, no time: two copies in doubt changed places (twin); two bytes follow
_GROW = const(256)  # the log grows by this much: no doubling, no big block to find
_CAP = const(512)
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


def _extend(buf, v):
    """Appends the list v to buf as bytes, in place (a bytes(v) first: some 0.7 KB of garbage a
    pack). ValueError past a byte: MicroPython's extend would keep its low byte; TypeError for
    anything but ints (or flags)."""
    if v and (min(v) < 0 or max(v) > 255):
        raise ValueError
    buf.extend(v)


def _pack(obj, names, skip):
    """obj's fields (names: one tuple for every pack of its kind) as (names, bytes, others):
    ints, flags and lists of small ints as a few bytes each (a round's start state in some 300
    bytes, not a dict of copies), the rest kept. Once a round: the lists go into the bytes
    whole, not int by int; a count or seat below 64 is one byte; the kept fields (skip) take a
    byte (8) each (the table's back is not there yet at its first pack). By name, not through
    obj.__dict__, which MicroPython copies (1 KB of garbage a pack)."""
    buf = bytearray()
    add = buf.append
    others = None  # made only when some field needs it (the table's never does)
    for k in names:
        if k in skip:
            add(8)
            continue
        v = getattr(obj, k)
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
        elif t is list:
            at = len(buf)
            try:  # cards, seats, small counts: one byte each (ValueError past 255)
                if v and v[0] is None and v.count(None) == len(v):
                    add(9)  # the seats' players, none bound (most tables): no copy kept
                    _put(buf, len(v))
                elif v and type(v[0]) is list:
                    add(6)
                    _put(buf, len(v))
                    for x in v:  # hands, debts
                        if type(x) is not list:
                            raise TypeError
                        n = len(x)
                        if n < 64:
                            add(n << 1)  # _put's zigzag varint, inline: a hand is short
                        else:
                            _put(buf, n)
                        _extend(buf, x)
                else:
                    add(5)
                    _put(buf, len(v))
                    _extend(buf, v)
            except (TypeError, ValueError):  # scores past 255, or anything else
                buf[at:] = b""  # what was written of it
                add(7)
                if others is None:
                    others = []
                others.append(_copy(v))
        else:
            add(7)  # str, tuple: kept (a copy of anything mutable)
            if others is None:
                others = []
            others.append(_copy(v))
    return names, bytes(buf), others


_setting_names = None  # (_settings)


def _settings(rules):
    """The settings' names, in Settings.as_dict's order: one tuple for every pack."""
    global _setting_names
    if _setting_names is None:
        _setting_names = tuple(rules.as_dict())
    return _setting_names


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
else:
    _fields = None

    def _pack_table(t):
        """The board's table in a few hundred bytes of heap: the fields table.FIELDS names."""
        global _fields
        if _fields is None:
            from uno.table import FIELDS  # (not at the top: uno.table imports this module)
            _fields = FIELDS
        return _pack(t, _fields, _KEPT)


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
        self.rebuild = None  # uno/rebuild.py, from the first take-back on (_load)
        self.rules = None  # the settings, packed
        # reused by every segment: no garbage per input. 16 bytes past a multiple of _GROW: one
        # growth makes it _CAP + 16, all a chunk takes (an input takes < 16 bytes past _CAP, then
        # it rolls), where a log of _CAP would grow to _CAP + _GROW for those last bytes
        self.log = _buf(_GROW + 16)
        self.room = _GROW            # bytes in use past which it grows
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
        if not _HOST and self.rebuild is not None and not self.t.doubt:
            self._drop()
        self._chunk()

    def _chunk(self):
        """A new chunk of the segment starts at the table as it is now."""
        t = self.t
        self.start = None  # the old one may go before the new one is made
        if self.rules is None:  # packed again only after a rule input changed them
            # (by name: reading __dict__ would make CPython give up its fast reads of the
            # settings, every rule the table asks for at every input)
            self.rules = _pack(t.rules, _settings(t.rules), ())
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
                if _HOST:
                    log[n] = d  # (_varint's host form)
                    n += 1 if d < 64 else 2
                elif d < 64:  # (+ and *: as in Table._feed's inline log)
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
        self.prev = (self.start, _part(log, n))
        self._chunk()

    # -- the rebuild: uno/rebuild.py, loaded at the first take-back --

    def undo(self, inp, ms):
        """Feeds (IN_UNDO, n); returns the table's event list. A board that has not the heap
        to load the rebuild refuses it (R_NO_ROOM) and changes nothing."""
        if not self.ready():
            return self._refuse(_R_NO_ROOM, inp, ms)
        return self.rebuild.undo(self, inp, ms)

    def ready(self):
        """Whether the rebuild is loaded, or loads now: False on a board without the heap for
        it. The hub asks before it logs a take-back, so that one refused here is not logged
        (a recovery, with the heap to load it, would take back what the table refused)."""
        try:
            self._load()
        except MemoryError:
            return False
        return True

    def twin(self, inp, ms, card):
        """rebuild.twin: called only while table.doubt has pairs, which a take-back made (its
        rebuild is still loaded then: mark keeps it)."""
        return self._load().twin(self, inp, ms, card)

    def reach(self):
        """How many accepted inputs a take-back can reach now (rebuild.reach). The hub asks
        before it logs a host's take-back: a MemoryError here reaches the host, nothing logged."""
        return self._load().reach(self)

    def shuffled(self, place):
        """rebuild.shuffled: as twin, only while table.doubt has pairs."""
        self._load().shuffled(self, place)

    def _load(self):
        rebuild = self.rebuild
        if rebuild is None:
            from uno import rebuild  # MemoryError on a board with too little heap
            self.rebuild = rebuild
        return rebuild

    def _drop(self):
        """A new segment with no copies in doubt: the rebuild's heap (a few KB) comes back to
        the board until the next take-back loads it again. (Not on the host: its heap is no
        matter, and an import each round would cost its replays time.)"""
        self.rebuild = None
        sys.modules.pop("uno.rebuild", None)
        uno = sys.modules.get("uno")
        if uno is not None and "rebuild" in uno.__dict__:  # import put it there too
            del uno.rebuild

    def _refuse(self, why, inp, ms):
        t = self.t  # feed has already taken the input's time
        t.out.append((_REJECT, why, 0, -1))
        self.keep(inp, ms, t.out)
        return t.out


if _HOST:
    def _size(v):
        """The bytes v takes as the board's zigzag varint."""
        z = v + v if v >= 0 else -v - v - 1
        return 1 if z < 128 else (z.bit_length() + 6) // 7

    def _varint(log, n, v):
        """The host's log (a list): v whole at log[n] (no zigzag, no & and >>: CPython 3.11 does
        not specialise them), then n past the bytes the board's takes, so that the chunks roll
        where the board's do (a take-back reaches as far). rebuild._unlog reads it."""
        log[n] = v
        n += _size(v)
        while n > len(log):  # a tick of a huge time, as the board's
            log.extend(bytes(_GROW))
        return n
else:
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


def _part(log, n):
    """log[:n], kept (the chunk before, a replay's inputs): the board's bytes, in one copy; the
    host's list as it is (its times are whole, past a byte)."""
    return log[:n] if _HOST else bytes(memoryview(log)[:n])
