"""The hub: table inputs from the board -> the log -> the referee -> buzzer, LEDs, display.

Every input is on flash before the referee judges it, so a power cut loses nothing that was
answered; at boot the last snapshot plus a replay of the round since rebuild the table.
The board is a small interface (esp32.py, sim.py): now(), buzzer, leds, display, feed_dog(),
and run(put), the task that turns readers and buttons into table inputs; the hub sets its
on_confirm (yellow and green held: a person lets the laptop's `repl` in, no table input).
"""
import asyncio
import gc
import json

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


from board import buzzer as tunes
from uno.rules import Settings
from uno.state import fields, load, snapshot
from uno.table import Table
from uno.cards import name as card_name

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_CARD_BACK = const(41)
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_TICK = const(6)
_IN_RULE = const(7)
_IN_UNDO = const(8)
_MATCH_OVER = const(28)
_P_LOBBY = const(0)
_P_DRAWOFF = const(1)
_P_PLAY = const(5)
_P_ROUND_OVER = const(6)
_P_MATCH_OVER = const(7)
_PENALTY = const(14)
_R_NO_ROOM = const(48)
_REJECT = const(25)
_ROUND_OVER = const(26)
_TIMER_WARN = const(35)
_UNDO = const(40)
_UNO_OPEN = const(19)
# -- end of codes --

VERSION = "0.4.0"

INBOX_MAX = const(64)       # inputs waiting for the referee (a person is far slower)
ENROLL_MAX = const(128)     # tags kept while enrolling: a deck is 108
ENROLL_QUIET = const(30000)  # ms without a read or a word from the host: enrolment ends
REPL_MS = const(10000)      # `repl`: how long Ctrl-C stops the firmware in a round
ASK_MS = const(60000)       # a laptop's `repl` in a round waits this long for a yes at the table
AGREE_MS = const(60000)     # ... and that yes (yellow and green held) this long for its `repl`
REPL_ASK = ("in a round the table must agree first: at the table, hold Y and G (yellow and "
            "green) together for 5 s, then ask again within 60 s (or ask after the round)")
WARN_PCT = const(80)        # flash use that warns "sync the table soon"
SNAP_PIECE = const(200)     # characters a piece of a snapshot written to the log (json_pieces)
_NO_SNAPSHOT = "snapshot skipped, no memory: "  # the fault of a round's end not on flash
_NO_UNDO = "recovery: no memory to take back, input "  # ... of a logged take-back not replayed
WHY_MS = const(4000)        # a reject's reason stays on the display this long (as a fault's LEDs)

# Patterns of their own, told apart from the game's: the log, not the game, needs a person.
LOG_FULL = ((1568, 60), (0, 60), (1568, 60), (0, 60), (1568, 60), (0, 200), (196, 500))
DAMAGED = ((392, 250), (0, 80), (330, 250), (0, 80), (262, 500))
AGREED = ((2400, 120), (0, 60), (3800, 400))  # the table let the laptop's `repl` in

# What the buzzer says about one input's events, most important first. The round's end wins:
# the whole table waits for it (and a take-back, which cannot cross one, never comes with it).
# Then the take-back, over the UNO window it may open again: first the cards go back.
_TUNES = ((_ROUND_OVER, tunes.ROUND_OVER), (_MATCH_OVER, tunes.ROUND_OVER),
          (_UNDO, tunes.TAKE_BACK), (_PENALTY, tunes.PENALTY), (_REJECT, tunes.REJECTED),
          (_UNO_OPEN, tunes.UNO_WINDOW), (_TIMER_WARN, tunes.WARNING))

# A reject's reason on the display, one row each (16 characters at most), in the order of the
# R_* codes of uno/events.py from 1: one string, not a tuple of strings, for the board's heap.
_WHY = ("unknown tag\n"         # R_UNKNOWN
        "card in a hand\n"      # R_IN_HAND
        "already on pile\n"     # R_ON_PILE
        "read twice\n"          # R_TWICE
        "still in shoe\n"       # R_IN_SHOE
        "card set aside\n"      # R_ASIDE
        "not your turn\n"       # R_NOT_TURN
        "does not match\n"      # R_UNPLAYABLE
        "W4: has colour\n"      # R_W4_ILLEGAL
        "only drawn card\n"     # R_ONLY_DRAWN
        "draw owed first\n"     # R_MUST_DRAW
        "colour first\n"        # R_WANT_COLOUR
        "drew: play/pass\n"     # R_DREW
        "no such seat\n"        # R_BAD_SEAT
        "seat not in game\n"    # R_NOT_SEATED
        "already joined\n"      # R_JOINED
        "need 2 seats\n"        # R_FEW
        "shoe has cards\n"      # R_SHOE_LEFT
        "pile too small\n"      # R_NO_RESHUFFLE
        "shuffle first\n"       # R_WANT_SHUFFLE
        "no card expected\n"    # R_NOT_NOW
        "no press now\n"        # R_NOTHING
        "already called\n"      # R_CALLED
        "no challenge\n"        # R_NO_CHALLENGE
        "no colour wanted\n"    # R_NO_COLOUR
        "wait: seat draws\n"    # R_WAIT_DRAW
        "bad input\n"           # R_BAD_INPUT
        "too few to deal\n"     # R_DEAL_SIZE
        "rules locked\n"        # R_LOCKED
        "bad rule\n"            # R_BAD_RULE
        "must play a card\n"    # R_MUST_PLAY
        "slap the 4 first\n"    # R_WAIT_SLAP
        "S/R/W not last\n"      # R_LAST_CARD
        "sum not made\n"        # R_NO_SUM
        "teams do not fit\n"    # R_TEAMS
        "already caught\n"      # R_CAUGHT
        "no such dealer\n"      # R_NO_DEALER
        "too far back\n"        # R_UNDO_PAST
        "press seat first\n"    # R_SEAT_FIRST
        "player elsewhere\n"    # R_PLAYER_TAKEN
        "bad name\n"            # R_BAD_NAME
        "match on: later\n"     # R_MATCH_ON
        "already slapped\n"     # R_SLAPPED
        "too late to sum\n"     # R_SUM_LATE
        "false UNO call\n"      # R_FALSE_UNO
        "start: no sum\n"       # R_START_SUM
        "match on: stay\n"      # R_LEAVE_LATER
        "no room to undo\n")    # R_NO_ROOM


def load_deck(path):
    """The enrolled deck saved at path (a Registry's blob), or None: the synthetic registry,
    under which every real tag is an unknown tag, and the table answers it as such."""
    from uno.cards import Registry
    try:
        with open(path, "rb") as f:
            return Registry.from_blob(f.read())
    except OSError:  # no deck enrolled yet
        return None
    except ValueError as e:
        print("hub: deck %s ignored: %s" % (path, e))
        return None


def _tune_name(tune):
    if tune is LOG_FULL:
        return "log_full"
    if tune is DAMAGED:
        return "damaged"
    if tune is AGREED:
        return "repl_agreed"
    for name in tunes.PATTERNS:
        if tunes.PATTERNS[name] is tune:
            return name
    return None


def why(r):
    """Reject reason r (R_*) in the display's words, or None for a code without them."""
    i = 0
    while r > 1:
        i = _WHY.find("\n", i) + 1
        if not i:
            return None
        r -= 1
    j = _WHY.find("\n", i)
    return _WHY[i:j] if r == 1 and j > 0 else None


class Inbox:
    """Table inputs waiting for the referee, in the order they came. Bounded: a stuck referee
    must not turn reader noise into a MemoryError; what does not fit is counted and dropped."""

    def __init__(self):
        self.items = []
        self.ready = asyncio.Event()
        self.dropped = 0

    def put(self, inp):
        if len(self.items) >= INBOX_MAX:
            self.dropped += 1
            return
        self.items.append(inp)
        self.ready.set()

    async def get(self):
        while not self.items:
            self.ready.clear()
            await self.ready.wait()
        return self.items.pop(0)


def table_id(board, base):
    """The table's 8-byte id: the chip's own (machine.unique_id, hashed to 8 bytes when it has
    another length) if the board offers it, else one made once and kept in base + ".id"."""
    f = getattr(board, "table_id", None)         # the ESP32 board: from machine.unique_id()
    u = f() if f else None
    if u and len(u) == 8:
        return bytes(u)
    uid = getattr(board, "unique_id", None)
    u = uid() if uid else None
    if u:
        u = bytes(u)
        if len(u) != 8:
            from hashlib import sha256
            u = sha256(u).digest()[:8]
        return u
    path = base + ".id"
    from binascii import hexlify, unhexlify
    try:
        with open(path) as f:
            u = unhexlify(f.read().strip())
        if len(u) == 8:
            return u
    except (OSError, ValueError):
        pass
    import os
    u = os.urandom(8)
    _keep(path, hexlify(u))
    return u


def _keep(path, data):
    # tmp + rename: a cut leaves the old file or the new one, never half of it
    import os
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.rename(path + ".tmp", path)


def open_log(path, board):
    """The table's log, carrying the table's id (main.py and the simulated table use this):
    on the board's raw log partition (a NOR ring: appends never erase) when it has one
    (board.log_flash()), else files in `path` on the filesystem. The id and key stay beside
    `path` on the filesystem either way."""
    tid = table_id(board, path)
    f = getattr(board, "log_flash", None)
    dev = f() if f else None
    if dev is not None:
        from gamelog.ring import RingLog
        return RingLog(dev, path, table_id=tid)
    from gamelog import Log
    lg = Log(path, table_id=tid)
    lg.limit = getattr(board, "flash_limit", None)  # the simulated table's pretend partition
    return lg


def _piece(out, buf, n, text, size):
    # json_pieces: a value's text after the n characters buf holds, which go first as a piece
    # of their own when the two would pass size: no piece much longer than size or one value
    if n + len(text) > size and n:
        out.append("".join(buf))
        del buf[:]
        n = 0
    buf.append(text)
    return n + len(text)


def _object(out, buf, n, pairs, size):
    # json_pieces: {"name": value, ...} after the n characters buf holds; returns how many it
    # holds then. The names are the state's own (no escapes) and go as they are: no text is
    # made but the values'. A dict (the settings) goes a value at a time, a list of dicts (the
    # seats) a dict at a time.
    put = buf.append
    put("{")
    sep = "\""
    for k, v in pairs:
        put(sep)
        put(k)
        put("\": ")
        sep = ", \""
        n += len(k) + 6
        if type(v) is dict:
            n = _object(out, buf, n, v.items(), size)
        elif type(v) is list and v and type(v[0]) is dict:
            put("[")
            for i in range(len(v)):
                if i:
                    put(", ")
                n = _piece(out, buf, n + 2, json.dumps(v[i]), size)
            put("]")
        else:
            n = _piece(out, buf, n, json.dumps(v), size)
    put("}")
    return n + 2


def json_pieces(pairs, size=SNAP_PIECE):
    """The JSON object of these (name, value) pairs as text in pieces of about `size`
    characters (their join is the whole). A round's snapshot is some 2.3 KB with ten seats:
    as one dict and json.dumps it wants runs of up to that size while its text grows, then a
    copy, and a heap late in a long night may have none (the snapshot fails: recovery then
    replays from the one before)."""
    out = []
    buf = []
    _object(out, buf, 0, pairs, size)
    out.append("".join(buf))
    return out


def _hex(b):
    from binascii import hexlify
    return hexlify(b).decode()


def _repr(e):
    return ("%s: %s" % (type(e).__name__, e))[:80]


def _place(p):
    return "shoe" if p == 0 else "pile" if p == 11 else "aside" if p == 12 else "seat %d" % p


def back_note(evs):
    """A take-back's card moves in a display row ("R7 to seat 2", "+1": more follow), or None."""
    note = None
    more = 0
    for e in evs:
        if e[0] == _CARD_BACK:
            if note is None:
                note = "%s to %s" % (card_name(e[1]), _place(e[3]))
            else:
                more += 1
    if more:
        note += " +%d" % more
    return note


class Hub:
    def __init__(self, board, log, registry=None):
        self.board = board
        self.log = log
        self.registry = registry
        self.table = None
        self.inbox = Inbox()
        self.seq = 0              # last logged input
        self.tune = None          # last pattern played
        self.events = []          # events of the last input, for status and the monitor
        self.recovered = 0        # inputs replayed at boot
        self.enrolling = None     # UIDs (hex) read while a deck is enrolled, else None
        self.enroll_twice = None  # the last UID read twice while enrolling
        self.enroll_end = 0       # now() past which a quiet enrolment ends by itself
        self.wall = None          # (wall-clock seconds, now() ms) when the host set the clock
        self.wake = asyncio.Event()
        self.id = None            # the table's 8-byte id: start() knows it
        self.keyfile = getattr(log, "dir", "/log") + ".key"
        self.damage = []          # gaps found at this boot: (first, last, cause)
        self.fault = None         # what went wrong at boot or on the last append, if anything
        self.full = False         # the last input could not be logged: flash full
        self.flash = None         # (used, total) bytes, checked at boot and round ends
        self.guarded = None       # Ctrl-C on the serial ignored (a round is on), or None
        self.repl_until = -1      # now() until which Ctrl-C stops the firmware even so
        self.repl_asked = -1      # now() until which a laptop's `repl` waits for a yes here
        self.repl_agreed = -1     # now() until which that yes lets one `repl` in
        self.lost = 0             # inputs not judged because they could not be logged
        self.back = None          # after a take-back: which card goes back where, for the display
        self.why = None           # after a reject: its reason, for the display until why_end
        self.why_end = 0
        board.on_confirm = self.confirm_repl  # the board's yellow-and-green hold: no input

    def start(self, settings=None):
        """Boot: the last snapshot, then a replay of the inputs after it (the current round).

        Never raises for a damaged log: recovery salvages what is intact and the damage is
        reported (status, display, a distinct tune); if even that fails the table starts fresh.
        settings: the rules of a table whose log is empty; they go in as rule inputs, so the
        log alone rebuilds the table. Raises only when the filesystem cannot even keep the
        table's id or key (no flash to log on at all).
        """
        self.id = table_id(self.board, getattr(self.log, "dir", "/log"))
        self.key()                     # made at first boot, before any host can ask
        snap = None
        k = 0
        for again in (1, 0):
            try:
                snap, k = self._recover()
                break
            except Exception as e:
                self.table = None
                gc.collect()            # a fragmented heap at boot: once more, collected
                if again:
                    continue
                # nothing to salvage from: a playable fresh table, reported
                self.fault = "recovery failed, fresh table: " + _repr(e)
                self.table = Table(Settings(), self.registry)
                self.seq = max(self.seq, getattr(self.log, "next_seq", 1) - 1)
                k = -1
        self.recovered = k
        if settings and not snap and not k:
            if "preset" in settings:
                self.feed((_IN_RULE, "preset", settings["preset"]))
            for name in settings:
                if name != "preset":
                    self.feed((_IN_RULE, name, settings[name]))
        self.check_flash()
        self.show()
        self._guard()
        if self.damage or self.fault:
            self.tune = DAMAGED
            self.board.buzzer.play(DAMAGED, self.board.ticks())

    def _recover(self):
        log = self.log
        snap, n, next_seq = log.recover(collect=False)   # salvages: damage is set aside
        self.seq = next_seq - 1
        self.damage = list(log.damage or ())
        try:
            self.table = load(json.loads(snap), self.registry) if snap else Table(
                Settings(), self.registry)
        except Exception as e:  # a snapshot the engine cannot read: the round starts over
            self.fault = "snapshot unreadable: " + _repr(e)
            self.table = Table(Settings(), self.registry)
            snap = None
        t = self.table
        k = 0
        gc.collect()  # the snapshot's text and parse are garbage now: free runs for the replay
        for seq, ms, wall, inp in log.replay_records():
            if inp[0] == _IN_UNDO and not t.back.ready():
                # the take-back's code (uno/rebuild.py) did not fit: the replay's garbage
                # collected, it may; else the table refuses what it once took back, and says
                # so (it plays on: what it said before the boot is in the log, for the host)
                gc.collect()
                if not t.back.ready():
                    self.fault = _NO_UNDO + str(seq)
            t.feed(inp, -1 if wall else ms)
            k += 1
        return snap, k

    def key(self):
        """The 32-byte key that authenticates the log's chain head: made once, kept in a file
        beside the log (never in it), handed to one host by `pair`."""
        try:
            with open(self.keyfile, "rb") as f:
                k = f.read()
            if len(k) == 32:
                return k
        except OSError:
            pass
        import os
        k = os.urandom(32)
        _keep(self.keyfile, k)
        return k

    def check_flash(self):
        """(used, total) bytes of the log's filesystem, and whether to warn (WARN_PCT)."""
        try:
            u = self.log.usage()
        except Exception:  # unknown: no warning rather than no table
            u = None
        self.flash = u
        return u

    def flash_warn(self):
        u = self.flash
        return bool(u and u[1] and u[0] * 100 >= u[1] * WARN_PCT)

    def feed(self, inp):
        """One table input: logged (flushed), judged, answered. Returns the events, or None
        when it could not be logged (flash full, a failing log): then it is not judged."""
        if self.enrolling is not None and (inp[0] == _IN_SHOE or inp[0] == _IN_PAD):
            return self._enroll(inp[1])
        if inp[0] == _IN_UNDO and not self.table.back.ready():
            # no heap for the take-back's code: refused before it is logged, so that a
            # recovery (with the heap) does not take back what the table did not
            evs = [(_REJECT, _R_NO_ROOM, 0, -1)]
            self.events = evs
            self.answer(evs)
            return evs
        ms = self.board.now()
        try:
            self.seq = self.log.append(inp, ms)
        except OSError as e:
            self.lost += 1
            if e.args and e.args[0] == 28:   # ENOSPC (gamelog.LogFull): sync frees space
                self.full = True
                tune = LOG_FULL
            else:
                self.fault = "log: " + _repr(e)
                tune = DAMAGED
            self.tune = tune
            self.board.buzzer.play(tune, self.board.ticks())
            self.show()
            return None
        self.full = False
        evs = self.table.feed(inp, ms)
        self.events = list(evs)
        self.answer(evs)
        for e in evs:
            if e[0] == _ROUND_OVER:  # a round boundary: recovery starts here from now on
                self._snapshot(ms)
                self.check_flash()
                break
        if self.enrolling is not None and not self.between_rounds():
            self.enrolling = None   # a draw for dealer began: card reads are the game's again
        self._guard()
        self.wake.set()
        return evs

    def use_deck(self, reg):
        """A deck the host enrolled, between rounds. The log holds no deck: what was judged
        with the old one (a badge tapped in the lobby is a card of the new deck, a card of the
        old one a badge) must not be judged again with this one, at boot (recovery starts at
        this snapshot) or by a take-back (it reaches back to here). The same deck changes
        nothing."""
        t = self.table
        same = t.registry is not None and t.registry.blob == reg.blob
        self.registry = t.registry = reg
        if not same:
            t.back.mark()
            self._snapshot(self.board.now())

    def _snapshot(self, ms):
        """The round's end on flash; without it recovery replays from the older snapshot."""
        for again in (1, 0):
            gc.collect()  # once a round: the snapshot's few KB find a run in a collected heap
            try:
                self.log.snapshot(json_pieces(fields(self.table)), ms)
                if self.fault and self.fault.startswith(_NO_SNAPSHOT):
                    self.fault = None  # a round's end on flash again: recovery is one round
                return
            except MemoryError as x:  # still fragmented: once more, then it is a fault
                if not again:        # (not damage: the log is whole, recovery just longer)
                    self.fault = _NO_SNAPSHOT + _repr(x)
            except OSError as x:      # no room
                self.fault = "snapshot: " + _repr(x)
                return

    def between_rounds(self):
        """No draw for dealer and no round on: the host may change the deck, enrol, stop us."""
        ph = self.table.phase
        return ph == _P_LOBBY or ph == _P_ROUND_OVER or ph == _P_MATCH_OVER

    def _guard(self):
        """While a round is on, a stray Ctrl-C (0x03) on the serial is a byte, not a stop
        (micropython.kbd_intr); between rounds, or in a window the host asks for (`repl`),
        mpremote takes the port as usual."""
        on = not self.between_rounds() and self.board.now() >= self.repl_until
        if on == self.guarded:
            return
        self.guarded = on
        try:
            from micropython import kbd_intr
            kbd_intr(-1 if on else 3)
        except (ImportError, AttributeError):  # CPython
            pass

    def open_repl(self, ms=REPL_MS):
        """The host asked: for the next ms, Ctrl-C stops the firmware even in a round. In a
        round only after a yes at the table (confirm_repl), one window a yes: else False, and
        the request waits ASK_MS for that yes, on the display (a program on the laptop alone
        must not stop a round and rewrite its log at the REPL)."""
        now = self.board.now()
        if not self.between_rounds():
            if now >= self.repl_agreed:
                self.repl_asked = now + ASK_MS
                self.show()
                return False
            self.repl_agreed = -1
        self.repl_asked = -1
        self.repl_until = now + ms
        self._guard()
        self.show()
        return True

    def confirm_repl(self):
        """Yellow and green held together (the board calls this, never the inbox: it is no
        table input, nothing is logged or judged): a person at the table lets the laptop's
        waiting `repl` in, if it asks again within AGREE_MS. True if a request was waiting."""
        now = self.board.now()
        if now >= self.repl_asked:
            return False
        self.repl_asked = -1
        self.repl_agreed = now + AGREE_MS
        self.tune = AGREED
        self.board.buzzer.play(AGREED, self.board.ticks())
        self.show()
        return True

    def heard(self):
        """The host spoke: an enrolment it runs stays open."""
        if self.enrolling is not None:
            self.enroll_end = self.board.now() + ENROLL_QUIET

    def enroll(self, on):
        self.enrolling = [] if on else None
        self.enroll_twice = None
        self.heard()

    def host_gone(self):
        """The serial line closed: whatever the host had started ends."""
        self.enrolling = None

    def _enroll(self, uid):
        """A card read while enrolling: the host asks for the UIDs in the order they came."""
        from binascii import hexlify
        u = hexlify(uid).decode()
        twice = u in self.enrolling
        full = len(self.enrolling) >= ENROLL_MAX
        if twice:
            self.enroll_twice = u
        elif not full:
            self.enrolling.append(u)
        self.enroll_end = self.board.now() + ENROLL_QUIET
        self.tune = tunes.REJECTED if twice or full else tunes.ACCEPTED
        self.board.buzzer.play(self.tune, self.board.ticks())
        return []

    def answer(self, evs):
        if not evs:
            return
        tune = tunes.ACCEPTED
        best = len(_TUNES)
        for e in evs:
            for i in range(best):
                if e[0] == _TUNES[i][0]:
                    best = i
                    tune = _TUNES[i][1]
                    break
        self.tune = tune
        self.board.buzzer.play(tune, self.board.ticks())
        self.back = back_note(evs)
        self.why = None
        for e in evs:
            if e[0] == _REJECT:
                self.why = why(e[1])
                self.why_end = self.board.now() + WHY_MS
                break
        self.show()

    def show(self):
        t = self.table
        owing = 0
        for s in t.active:
            if t.owes(s):
                owing |= 1 << (s - 1)
        owing |= t.slap >> 1  # H7: the seats still to slap the 4 blink too (bit s: seat s)
        # the seat lit is whose turn it is, or in the deal and the draw for dealer, who takes
        # the next card from the shoe; every colour LED blinks while a colour is wanted
        self.board.leds.show(t.turn or t.drawer(), owing, t.colour, bool(t.want))
        d = self.board.display
        if d:
            scores = {}
            for s in t.seats:
                scores[s] = t.scores[s]
            d.show_table(t.colour, t.dir, t.turn, t.pending, scores)
            note = getattr(d, "notice", None)   # a line the display keeps under the table
            if note:
                note(self.notice())

    def notice(self):
        """What a person must do about the laptop's REPL or a full log, in a few words; a
        reject's reason for a few seconds; the card a take-back sends back, until the next
        input; the log's standing warnings; what the table waits for (a colour named, the shoe
        reloaded); or None."""
        now = self.board.now()
        if now < self.repl_asked:
            return "LAPTOP ASKS FOR REPL - hold Y+G 5 s"
        if now < self.repl_agreed:
            return "REPL AGREED - laptop may ask"
        if self.guarded is False and not self.between_rounds():
            return "REPL OPEN - Ctrl-C stops the table"
        if self.full:
            return "LOG FULL - sync the table"
        if self.why:  # a few seconds only: over the log's warnings, which stay
            return self.why
        if self.back:  # until the next input: the cards go back first (the warnings stay)
            return self.back
        if self.fault and not self.damage and self.fault.startswith(_NO_SNAPSHOT):
            return "LOW MEMORY - restart between rounds"  # (a fresh heap: snapshots fit again)
        if self.fault and self.fault.startswith(_NO_UNDO):
            return "TAKE-BACK LOST - see status"  # (the log is whole: a restart may replay it)
        if self.damage or self.fault:
            return "LOG DAMAGED - sync, see status"
        if self.flash_warn():
            return "log %d%% full - sync soon" % (self.flash[0] * 100 // self.flash[1])
        t = self.table
        if t.want:
            return "NAME A COLOUR"
        if t.due:  # T4; S2: the draw for dealer's set-aside cards
            ph = t.phase
            if ph == _P_PLAY:
                return "SHOE EMPTY - shuffle the pile"
            if ph == _P_DRAWOFF:
                return "SHOE EMPTY - shuffle the set-aside cards"
        return None

    def status(self):
        """What the serial link and the simulator's view report."""
        s = snapshot(self.table)
        s["seq"] = self.seq
        s["tune"] = _tune_name(self.tune)
        s["leds"] = self.board.leds.lit()
        # JSON has no bytes: a badge's UID (PLAYER) as the words the narration would use
        s["events"] = [[("badge " + _hex(x)) if type(x) is bytes else x for x in e]
                       for e in self.events]
        s["firmware"] = VERSION
        s["board"] = self.board.info()
        s["id"] = _hex(self.id)
        s["damage"] = [list(g) for g in self.damage[:8]]
        s["fault"] = self.fault
        s["flash"] = list(self.flash) if self.flash else None
        s["log_full"] = self.full
        s["notice"] = self.notice()
        s["dropped"] = self.inbox.dropped
        if hasattr(gc, "mem_free"):
            s["heap"] = [gc.mem_alloc(), gc.mem_free()]
        return s

    async def _timer(self):
        """P2: a tick goes in when the turn timer's next moment comes."""
        while True:
            d = self.table.deadline()
            if d < 0:
                self.wake.clear()
                await self.wake.wait()
                continue
            wait = d - self.board.now()
            if wait > 0:
                await asyncio.sleep_ms(wait if wait < 100 else 100)
            else:
                self.feed((_IN_TICK, self.board.now()))

    async def _dog(self):
        while True:
            self.board.feed_dog()
            self.housekeeping()
            await asyncio.sleep_ms(1000)

    def housekeeping(self):
        """Every second: what the host started and left ends by itself."""
        now = self.board.now()
        if self.enrolling is not None and now > self.enroll_end:
            self.enrolling = None           # a host that went quiet: enrolment ends
        if self.repl_until >= 0 and now >= self.repl_until:
            self.repl_until = -1
            self._guard()
            self.show()
        if 0 <= self.repl_asked <= now:      # nobody said yes: the display's notice goes
            self.repl_asked = -1
            self.show()
        if 0 <= self.repl_agreed <= now:     # a yes the laptop did not use
            self.repl_agreed = -1
            self.show()
        if self.why and now >= self.why_end:  # the reason has been seen: the table's own again
            self.why = None
            self.show()

    async def run(self, serial=None):
        asyncio.create_task(self.board.run(self.inbox.put))
        asyncio.create_task(self._timer())
        asyncio.create_task(self._dog())
        if serial:
            asyncio.create_task(serial.run())
        while True:
            inp = await self.inbox.get()
            try:
                self.feed(inp)
                if not self.inbox.items:
                    self.log.idle()  # a quiet moment: erase ahead (the ring), never mid-input
            except Exception as e:  # a bug or no memory: say so, and referee the next input
                self.fault = "input: " + _repr(e)
                gc.collect()
