"""The hub: table inputs from the board -> the log -> the referee -> buzzer, LEDs, display.

Every input is on flash before the referee judges it, so a power cut loses nothing that was
answered; at boot the last snapshot plus a replay of the round since rebuild the table.
The board is a small interface (esp32.py, sim.py): now(), buzzer, leds, display, feed_dog(),
and run(put), the task that turns readers and buttons into table inputs.
"""
import asyncio
import json

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


from board import buzzer as tunes
from uno.rules import Settings
from uno.state import load, snapshot
from uno.table import Table

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_SHOE = const(1)
_IN_PAD = const(2)
_IN_TICK = const(6)
_IN_RULE = const(7)
_MATCH_OVER = const(28)
_PENALTY = const(14)
_REJECT = const(25)
_ROUND_OVER = const(26)
_TIMER_WARN = const(35)
_UNO_OPEN = const(19)
# -- end of codes --

VERSION = "0.3.0"

# What the buzzer says about one input's events, most important first.
_TUNES = ((_ROUND_OVER, tunes.ROUND_OVER), (_MATCH_OVER, tunes.ROUND_OVER), (_PENALTY, tunes.PENALTY),
          (_REJECT, tunes.REJECTED), (_UNO_OPEN, tunes.UNO_WINDOW), (_TIMER_WARN, tunes.WARNING))


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
    for name in tunes.PATTERNS:
        if tunes.PATTERNS[name] is tune:
            return name
    return None


class Inbox:
    """Table inputs waiting for the referee, in the order they came."""

    def __init__(self):
        self.items = []
        self.ready = asyncio.Event()

    def put(self, inp):
        self.items.append(inp)
        self.ready.set()

    async def get(self):
        while not self.items:
            self.ready.clear()
            await self.ready.wait()
        return self.items.pop(0)


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
        self.wall = None          # (wall-clock seconds, now() ms) when the host set the clock
        self.wake = asyncio.Event()

    def start(self, settings=None):
        """Boot: the last snapshot, then a replay of the inputs after it (the current round).

        settings: the rules of a table whose log is empty; they go in as rule inputs, so the
        log alone rebuilds the table.
        """
        snap, n, next_seq = self.log.recover(collect=False)
        if snap:
            self.table = load(json.loads(snap), self.registry)
        else:
            self.table = Table(Settings(), self.registry)
        t = self.table
        k = 0
        for seq, ms, wall, inp in self.log.replay_records():
            t.feed(inp, -1 if wall else ms)
            k += 1
        self.recovered = k
        self.seq = next_seq - 1
        if settings and not snap and not k:
            if "preset" in settings:
                self.feed((_IN_RULE, "preset", settings["preset"]))
            for name in settings:
                if name != "preset":
                    self.feed((_IN_RULE, name, settings[name]))
        self.show()

    def feed(self, inp):
        """One table input: logged (flushed), judged, answered. Returns the events."""
        if self.enrolling is not None and (inp[0] == _IN_SHOE or inp[0] == _IN_PAD):
            return self._enroll(inp[1])
        ms = self.board.now()
        self.seq = self.log.append(inp, ms)
        evs = self.table.feed(inp, ms)
        self.events = list(evs)
        self.answer(evs)
        for e in evs:
            if e[0] == _ROUND_OVER:  # a round boundary: recovery starts here from now on
                self.log.snapshot(json.dumps(snapshot(self.table)), ms)
                break
        self.wake.set()
        return evs

    def _enroll(self, uid):
        """A card read while enrolling: the host asks for the UIDs in the order they came."""
        from binascii import hexlify
        u = hexlify(uid).decode()
        twice = u in self.enrolling
        if twice:
            self.enroll_twice = u
        else:
            self.enrolling.append(u)
        self.tune = tunes.REJECTED if twice else tunes.ACCEPTED
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
        self.show()

    def show(self):
        t = self.table
        owing = 0
        for s in t.active:
            if t.owes(s):
                owing |= 1 << (s - 1)
        # the seat lit is whose turn it is, or in the deal and the draw for dealer, who takes
        # the next card from the shoe
        self.board.leds.show(t.turn or t.drawer(), owing, t.colour, bool(t.want))
        d = self.board.display
        if d:
            scores = {}
            for s in t.seats:
                scores[s] = t.scores[s]
            d.show_table(t.colour, t.dir, t.turn, t.pending, scores)

    def status(self):
        """What the serial link and the simulator's view report."""
        s = snapshot(self.table)
        s["seq"] = self.seq
        s["tune"] = _tune_name(self.tune)
        s["leds"] = self.board.leds.lit()
        s["events"] = [list(e) for e in self.events]
        s["firmware"] = VERSION
        s["board"] = self.board.info()
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
            await asyncio.sleep_ms(1000)

    async def run(self, serial=None):
        asyncio.create_task(self.board.run(self.inbox.put))
        asyncio.create_task(self._timer())
        asyncio.create_task(self._dog())
        if serial:
            asyncio.create_task(serial.run())
        while True:
            self.feed(await self.inbox.get())
