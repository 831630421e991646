"""The simulated table: the hub's own code with simulated readers, buttons, buzzer and LEDs.

    micropython [-i] -m hub.sim [--log DIR] [--script FILE] [--inputs PATH] [--pace MS]
                                [--view PATH] [--flash BYTES] [--store ring|files] [--display]
                                [--exit]

--display: a display that keeps its rows' text (status shows it as board.screen; the
self-test draws on it). --flash: the size of the pretend log partition (1 MB, as the board's
unolog in hardware/partitions-4MiB-unotable.csv): the log is full past it, as on a board.
--store: the log on a NOR ring in DIR/ring.nor (default, as on a board with the log
partition) or as segment files in DIR (the store of a board without it). The deck enrolled
at a simulated table is kept beside its log (DIR.deck), and so are its id (DIR.id, made
once) and the key of its log's chain (DIR.key; DIR.key.paired once a host has paired).

Table inputs come as table-script lines (docs/formats.md) from a script, played at --pace ms
an input, and/or live from --inputs (a pipe: `unotable sim` writes what you type there). The
USB serial is this process's stdin/stdout: on a pseudo-terminal the host tool talks to it
exactly as to a board. --exit: when the script is done, print the status line and stop.

--view: the simulated table's own channel to the person watching it (`unotable sim`), apart
from the serial, so any number of host commands may share the serial: a JSON line per input
(the status, with "input" and its "events"), one per "?status" line read from --inputs
("view": "asked"), one when the script is done, and {"error": ...} for a line that is no
table input. A "?confirm" line from --inputs is yellow and green held together 5 s (the
laptop's `repl` in a round: hub.app Hub.confirm_repl), no table input.
Ctrl-C on the serial stops the firmware as on a board (between rounds, or within 10 s of a
`repl` request); with -i the REPL then takes the port, so `mpremote connect PORT resume ...`
works.
"""
import asyncio
import gc
import json
import os
import sys
import time

from board.buzzer import Buzzer
from board.leds import Leds
from hub.app import Hub, load_deck, open_log
from hub.serial import Serial
from uno.script import dumps, header, input_dict, parse_line, to_input

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_TICK = const(6)
# -- end of codes --

FLASH = const(1024 * 1024)   # the pretend log partition (--flash BYTES): the board's unolog


class _Out:
    """A PWM, an expander port or a pin that only remembers what it was told."""

    def __init__(self):
        self.v = 0

    def freq(self, f=None):
        return 0

    def duty_u16(self, d=None):
        self.v = d or 0

    def write(self, value, mask=0xFFFF):
        self.v = value

    def value(self, v=None):
        if v is not None:
            self.v = v
        return self.v


class _Pad:
    """A simulated reader: always up; its reads are the script's or the pipe's lines."""

    def __init__(self, name):
        self.name = name
        self.up = True
        self.reader = self

    def describe(self):
        return "simulated (cards from the script or typed)"

    def report(self):
        return "%s: %s" % (self.name, self.describe())


def _drop(inp):
    pass


def _nothing():
    return False


_UID_LENS = (4, 7, 10)   # NFC UIDs: single, double, triple size; a reader gives no other


class View:
    """The view channel (--view): one JSON line per thing the watcher should see."""

    def __init__(self, path):
        self.f = open(path, "w") if path else None
        self.hub = None

    def say(self, d):
        f = self.f
        if f is None:
            return
        try:  # unbuffered: no flush (a pipe's is EINVAL on the unix port); dump() writes as
            json.dump(d, f)  # it goes, so a 10-seat status needs no 2.5 KB string in the heap
            f.write("\n")
        except OSError:  # the watcher is gone: the table plays on for the serial's hosts
            self.f = None
        except MemoryError:  # a line cut short ends here: the watcher skips it, not the next
            gc.collect()
            try:
                f.write("\n")
            except OSError:
                self.f = None

    def status(self, why, inp=None):
        hub = self.hub
        s = hub.status()
        s["view"] = why
        if inp is not None:
            try:
                s["input"] = dumps(input_dict(inp, hub.table.registry))
            except Exception:
                s["input"] = str(inp)
        self.say(s)

    def error(self, text):
        self.say({"error": text})


class SimBoard:
    def __init__(self, script=None, inputs=None, pace=300, panel=None, view=None):
        """panel: a display's panel (board/display.py, or board/screen.py's TextPanel that keeps
        its text; --display), else none: its code would cost the simulated heap ~4 KB."""
        self.buzzer = Buzzer(_Out())
        self.leds = Leds(_Out(), colour_pins=(_Out(), _Out(), _Out(), _Out()))
        self.display = None
        if panel is not None:
            from board.screen import Screen
            self.display = Screen(panel)
        self.play = _Pad("PLAY pad")
        self.draw = _Pad("DRAW shoe")
        self._put = _drop   # where inputs go: the hub's inbox, or a self-test (attach)
        self.on_confirm = _nothing  # the hub's: yellow and green held (`?confirm`), no input
        self.script = script
        self.inputs = inputs
        self.pace = pace
        self.hub = None
        self.done = asyncio.Event()
        self._t0 = time.ticks_ms()
        self.vclock = 0 if script else -1  # a script brings its own clock (docs/formats.md)
        self.view = view or View(None)

    def now(self):
        """ms on the table's clock: the script's, else since the table started."""
        if self.vclock >= 0:
            return self.vclock
        return time.ticks_diff(time.ticks_ms(), self._t0)

    def ticks(self):
        return time.ticks_ms()

    def feed_dog(self):
        pass

    def info(self):
        p = self.display and self.display.oled
        return {"name": "sim", "script_done": self.done.is_set(),
                "screen": p.rows() if hasattr(p, "rows") else None,
                "up": [True, True], "reader_errors": [0, 0], "two_cards": [0, 0]}  # always up

    def attach(self, put):
        """put(table_input) receives the board's inputs from now on (hub/selftest.py)."""
        self._put = put

    async def run(self, put):
        self.attach(put)
        asyncio.create_task(self.buzzer.run())
        asyncio.create_task(self.leds.run())
        if self.inputs:
            asyncio.create_task(self._live(put))
        if self.script:
            with open(self.script) as f:
                n = 0
                for line in f:
                    n += 1
                    await self._line(line, put, n)
                    await asyncio.sleep_ms(self.pace)
        self.done.set()
        if self.script:
            while self.hub.inbox.items:
                await asyncio.sleep_ms(1)
            self.view.status("done")

    async def _live(self, put):
        reader = asyncio.StreamReader(open(self.inputs, "rb"))
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.strip() == b"?status":   # the watcher asks: after what came before it
                while self.hub.inbox.items:
                    await asyncio.sleep_ms(1)
                self.view.status("asked")
                continue
            if line.strip() == b"?confirm":  # yellow and green held 5 s: the hub's, no input
                while self.hub.inbox.items:
                    await asyncio.sleep_ms(1)
                self.on_confirm()
                continue
            await self._line(line.decode(), put)

    async def _line(self, text, put, n=0):
        """One script line: a card face is resolved against the table as it is now. A line
        that is no table input is said on the view channel (with its line number in a
        script) and changes nothing."""
        hub = self.hub
        while hub.inbox.items:
            await asyncio.sleep_ms(1)
        where = "line %d: " % n if n else ""
        try:
            d = parse_line(text)
            if d is None or header(d) is not None:
                return
            if "in" not in d:
                raise ValueError("no \"in\": not a table input")
            if "uid" in d and isinstance(d["uid"], str) and len(d["uid"]) // 2 not in _UID_LENS:
                raise ValueError("a tag's UID is 4, 7 or 10 bytes (8, 14 or 20 hex digits), "
                                 "not %d hex digits" % len(d["uid"]))
            inp = to_input(d, hub.table)
            if self.vclock >= 0:
                self.vclock = d.get("t", inp[1] if inp[0] == _IN_TICK else self.vclock)
            self._put(inp)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            self.view.error("%s%s" % (where, e))


def _nor(path, size):
    """The pretend log partition: a NOR flash fake kept in DIR/ring.nor (--store files: the log
    as segment files in DIR, as before issue 9)."""
    from gamelog.nor import Nor
    try:
        os.mkdir(path)
    except OSError:
        pass
    return Nor(max(8, size // 4096), 4096, path + "/ring.nor")


def main(argv):
    opts = {"--log": "/tmp/unotable-sim-log", "--script": None, "--inputs": None,
            "--pace": "300", "--flash": str(FLASH), "--view": None, "--store": "ring"}
    exit_at_end = "--exit" in argv
    i = 0
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 1
        i += 1
    panel = None
    if "--display" in argv:
        from board.screen import TextPanel
        panel = TextPanel()
    view = View(opts["--view"])
    board = SimBoard(opts["--script"], opts["--inputs"], int(opts["--pace"]), panel, view)
    board.flash_limit = int(opts["--flash"])
    if opts["--store"] == "ring":  # the log on a NOR ring in a file: it outlives the table
        board.log_flash = lambda: _nor(opts["--log"].rstrip("/"), board.flash_limit)
    deck = opts["--log"].rstrip("/") + ".deck"  # an enrolled deck lives beside the log
    hub = Hub(board, open_log(opts["--log"].rstrip("/"), board), load_deck(deck))
    board.hub = hub
    view.hub = hub
    if view.f is not None:  # every input the table judges, on the view channel
        feed = hub.feed

        def fed(inp):
            evs = feed(inp)
            try:
                view.status("input", inp)
            except MemoryError:  # the watcher's copy, not the table's: it misses one line
                gc.collect()     # and the referee is not at fault
            return evs
        hub.feed = fed
    settings = None
    if opts["--script"]:  # a script's settings line sets the rules of a fresh table
        with open(opts["--script"]) as f:
            for line in f:
                d = parse_line(line)
                if d is not None:
                    settings = header(d)
                    break
    hub.start(settings)
    serial = Serial(hub, deck=deck)

    async def go():
        task = asyncio.create_task(hub.run())
        if exit_at_end:
            await board.done.wait()
            while hub.inbox.items:
                await asyncio.sleep_ms(1)
            serial.write(serial.handle("status"))
            return
        if await serial.run():
            return  # Ctrl-C: the firmware stops; with -i the REPL takes the port (mpremote)
        await task  # the port closed: a board's never does, so play on

    asyncio.run(go())


if __name__ == "__main__":
    main(sys.argv[1:])
