"""The simulated table: the firmware under the `micropython` command, its serial on a pty.

The firmware is compiled with mpy-cross, as it is deployed, and runs in an ESP32-sized heap.
Its USB serial is a pseudo-terminal that the host tool (or mpremote) opens like a board's
port; table inputs reach its simulated readers and buttons through a pipe.
"""
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

import serial

from uno.cards import COLOURS
from uno.narrate import says
from unotable.build import BuildError, build, tool
from unotable.errors import UnotableError
from unotable.ui import plural

# The app's code sits in the heap on the unix port (64-bit, .mpy loaded into RAM); a board
# freezes it into flash (docs/deploy.md). 288k holds the code (about 110 KB on this 64-bit
# port), a 10-player round, the link and a sync of a round with its 1.7 KB snapshot, and the
# boot after a night of 150 rounds without a sync (test_long_night_boot), which since the
# rules and hardware audits of 1 December needs just over 252k, its failures scattered by
# fragmentation around that line; 192k stopped being enough with the chain and take-back.
HEAP = "288k"
# the hub's status beyond the state
HIDDEN = ("seq", "tune", "leds", "events", "firmware", "board", "id", "damage", "fault", "flash",
          "log_full", "notice", "dropped", "heap", "view", "input")


def compile_firmware(out):
    """The firmware compiled as it is deployed (unotable.build)."""
    try:
        build(out)
    except BuildError as e:
        raise SimError(str(e))


class SimError(UnotableError):
    """The simulated table cannot start or stopped: str() says why."""


def data_dir():
    """The per-user data folder: the host database and the simulated tables' logs."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "unotable")


def new_log_dir():
    """A new folder for a simulated table's log under the per-user data folder: never deleted
    by the tool (`unotable sim --log DIR` plays on with it later)."""
    root = os.path.join(data_dir(), "sim")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(100):
        path = os.path.join(root, stamp + ("-%d" % k if k else ""))
        try:
            os.makedirs(path)
            return os.path.join(path, "log")
        except FileExistsError:
            continue
        except OSError as e:
            raise SimError("cannot make a folder for the table's log in %s: %s; give one with "
                           "--log DIR" % (root, e.strerror or e)) from None
    raise SimError("too many simulated tables started this second: give --log DIR")


def _running_dir():
    return os.path.join(data_dir(), "running")


def running():
    """The simulated tables running for this user: [{"port", "pid", "log"}] (`ports`)."""
    out = []
    try:
        names = sorted(os.listdir(_running_dir()))
    except OSError:
        return out
    for n in names:
        path = os.path.join(_running_dir(), n)
        try:
            with open(path) as f:
                d = json.load(f)
            os.kill(int(d["pid"]), 0)
            if os.path.exists(d["port"]):
                out.append(d)
                continue
        except (OSError, ValueError, KeyError, TypeError):
            pass
        try:
            os.remove(path)     # a table that stopped without tidying up
        except OSError:
            pass
    return out


class SimTable:
    """A running simulated table: .port (pty name for pyserial or mpremote), .link (pyserial,
    for tests; `unotable sim` closes it: the port is the host commands'), send(line) for table
    inputs, status() from its view channel, close().

    log None: a temporary log, deleted by close() (tests); `unotable sim` always gives one."""

    def __init__(self, script=None, log=None, pace=300, heap=HEAP, exit_at_end=False, code=None,
                 run=("-m", "hub.sim"), flash=None, store=None):
        # run: unotable.romfs.sim_run starts it from an image; flash: the log partition's bytes;
        # store: "ring" (a NOR fake, the default) or "files" (segment files, a board without
        # a log partition)
        self.tmp = tempfile.mkdtemp(prefix="unotable-sim-")
        self.log = log or os.path.join(self.tmp, "log")
        if code is None:  # compiled as deployed; tests pass one compiled set for many tables
            code = os.path.join(self.tmp, "mpy")
            compile_firmware(code)
        master, slave = os.openpty()
        tty.setraw(slave)          # before anything is written, or the echo comes back
        self.port = os.ttyname(slave)
        # opened before the device starts: opening flushes pending input
        self.link = serial.Serial(self.port, 115200, timeout=0.2)
        rd, self.pipe = os.pipe()
        vr, vw = os.pipe()         # the view channel: the table's own, never the port's
        argv = [tool("micropython"), "-X", "heapsize=" + heap, "-i", *run,
                "--log", self.log, "--inputs", "/dev/fd/%d" % rd, "--pace", str(pace),
                "--view", "/dev/fd/%d" % vw]
        if script:
            argv += ["--script", os.path.abspath(script)]
        if exit_at_end:
            argv.append("--exit")
        if flash:
            argv += ["--flash", str(flash)]
        if store:
            argv += ["--store", store]
        env = dict(os.environ, MICROPYPATH=code + ":.frozen")
        self.proc = subprocess.Popen(argv, stdin=master, stdout=master, stderr=subprocess.PIPE,
                                     pass_fds=(rd, vw), env=env, cwd=self.tmp)
        os.close(master)
        os.close(rd)
        os.close(vw)
        os.close(slave)    # with no host on the port the table sees a pulled cable, as a board
        self.buf = b""
        self.views = queue.Queue()     # what the view channel said, in order
        self.last = None               # the last status it gave
        self.done = False              # the script has played
        self._viewer = threading.Thread(target=self._read_view, args=(vr,), daemon=True)
        self._viewer.start()
        self.err = []                  # what the firmware wrote on stderr, line by line
        self.crash = None              # the error line of an uncaught exception, if one came
        self._errs = threading.Thread(target=self._read_err, daemon=True)
        self._errs.start()

    def _read_err(self):
        # micropython -i goes to its REPL after an uncaught exception and stays alive there:
        # its traceback on stderr is how the host knows the firmware stopped (a MemoryError
        # at start with too small a --heap waited for ever, silent)
        tb = False
        for raw in self.proc.stderr:
            line = raw.decode(errors="replace")
            self.err.append(line)
            del self.err[:-200]
            if line.startswith("Traceback"):
                tb = True
            elif tb and line.strip() and not line.startswith(" "):
                self.crash = line.strip()[:200]
                tb = False

    def _read_view(self, fd):
        with os.fdopen(fd, "rb") as f:
            for raw in f:
                try:
                    d = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(d, dict):
                    continue
                if "phase" in d:
                    self.last = d
                    if d.get("view") == "done":
                        self.done = True
                self.views.put(d)
        self.views.put(None)           # the table stopped

    def send(self, line):
        """A table-script line (dict or JSON text) into the simulated readers and buttons."""
        if isinstance(line, dict):
            line = json.dumps(line)
        os.write(self.pipe, line.encode() + b"\n")

    def next_view(self, timeout=0.2):
        """The next thing the view channel said (a dict), None if nothing came in time or
        the table stopped (see running())."""
        try:
            return self.views.get(timeout=timeout)
        except queue.Empty:
            return None

    def ask(self, timeout=3.0):
        """Asks for the status after every input sent so far; the view lines before it are
        returned too: (status or None, [lines before it])."""
        try:
            os.write(self.pipe, b"?status\n")
        except OSError:
            return None, []
        end = time.monotonic() + timeout
        seen = []
        while time.monotonic() < end:
            d = self.next_view(0.1)
            if d is None:
                if not self.running():
                    return None, seen
                continue
            if d.get("view") == "asked":
                return d, seen
            seen.append(d)
        return None, seen

    def status(self, timeout=3.0):
        """The table's status (a JSON object) after every input sent so far, from its view
        channel (the serial is left to the host commands), or None if it does not answer."""
        s, _ = self.ask(timeout)
        if s is not None:
            s.pop("view", None)
            s.setdefault("board", {})["script_done"] = self.done or s["board"].get(
                "script_done")
        return s

    def serial_status(self, timeout=3.0):
        """The status asked over the serial (`status` line), or None if it does not answer."""
        try:
            self.link.write(b"status\n")
        except (serial.SerialException, OSError):
            return None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.lines(0.1):
                if line.startswith("{") and '"phase"' in line:
                    return json.loads(line)
            if self.proc.poll() is not None and not self.buf:
                return None
        return None

    def lines(self, timeout=0.2):
        """Lines the table printed on its serial, for up to timeout s; [] if it stopped."""
        end = time.monotonic() + timeout
        out = []
        while time.monotonic() < end:
            try:
                chunk = self.link.read(4096)
            except (serial.SerialException, OSError):
                break
            if not chunk:
                if out:
                    break
                continue
            self.buf += chunk
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                out.append(line.decode(errors="replace").strip())
        return out

    def final(self):
        """The last status line the table printed before it stopped, if any."""
        last = None
        for line in self.lines(0.5):
            if line.startswith("{") and '"phase"' in line:
                last = json.loads(line)
        return last

    def confirm(self):
        """Yellow and green held together 5 s at the simulated table: a laptop's `repl` waiting
        in a round may in (no table input). Returns once the table has taken it."""
        try:
            os.write(self.pipe, b"?confirm\n")
        except OSError:
            return
        self.ask()

    def open_repl(self):
        """For the next 10 s Ctrl-C stops the firmware even in a round: mpremote can take the
        port (`unotable.link.open_repl` does the same over the link, for a board). In a round
        the table wants a yes at the table first: the person typing here is at it, so this
        asks, says yes (confirm) once the table shows the request, and asks again."""
        self._repl_line()
        end = time.monotonic() + 3.0
        while time.monotonic() < end:
            s = self.status(1.0)
            if s is None or s.get("phase") in ("lobby", "round_over", "match_over"):
                return                     # stopped, or between rounds: open at once
            if (s.get("notice") or "").startswith("LAPTOP ASKS"):
                self.confirm()
                self._repl_line()
                return
            time.sleep(0.05)

    def _repl_line(self):
        try:
            fd = os.open(self.port, os.O_RDWR | os.O_NOCTTY)
            try:
                os.write(fd, b"repl\n")
            finally:
                os.close(fd)
        except OSError:
            pass

    def running(self):
        """The firmware runs: its process is alive and no exception stopped it."""
        return self.proc.poll() is None and self.crash is None

    def close(self):
        try:
            os.close(self.pipe)
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(3)
        self.link.close()
        self._errs.join(3)              # stderr's end: the process is gone
        shutil.rmtree(self.tmp, ignore_errors=True)   # the code; the log too if it was ours
        return "".join(self.err)


def view(s):
    """The table at a glance, as text: what the LEDs and buzzer say, hands, top card."""
    lines = []
    phase = s["phase"].replace("_", " ")
    colour = s["colour"] or "-"
    lines.append("round %d  %s  dealer %s  %s  top %s  colour %s  shoe %d  pile %d" % (
        s["round"], phase, s["dealer"] or "-", "clockwise" if s["direction"] == "cw" else
        "counter-clockwise", s["top"] or "-", colour, s["shoe"], s["pile"]))
    leds = s.get("leds", 0)
    who = dict((p[0], p[2] if p[1] == "name" else "badge " + p[2][:8])
               for p in s.get("players") or ())
    for seat in s["seats"]:
        n = seat["seat"]
        led = "*" if leds >> (n - 1) & 1 else " "
        mark = ">" if s["turn"] == n else " "
        owes = " owes %s" % plural(seat["owes"], "card") if seat["owes"] else ""
        uno = " UNO!" if s["uno_window"] == n and s["uno_called"] else ""
        lines.append(" %s%s seat %-2d %s%4d pts  %2d %-5s: %s%s%s" % (
            mark, led, n, "(%s) " % who[n] if n in who else "", seat["score"], len(seat["hand"]),
            "card" if len(seat["hand"]) == 1 else "cards", " ".join(seat["hand"]), owes, uno))
    lit = "".join(COLOURS[c] for c in range(4) if leds >> (16 + c) & 1)
    wanted = "  choose a colour!" if s["colour_wanted"] else ""
    lines.append("colour LEDs: %s  buzzer: %s%s" % (lit or "-", s.get("tune") or "-", wanted))
    for line in says(s.get("events", [])):
        lines.append("  " + line)
    return "\n".join(lines)


def state_only(s):
    return dict((k, v) for k, v in s.items() if k not in HIDDEN)


HELP = """type table inputs: pad R7 | shoe R7 | seat 3 | seat 3 long | colour G | shuffle
                   tick 5000 | rule stacking on | undo      (cards by face R7 or copy R7b)
a tag by its UID:  pad uid:04a1b2c3d4e5f6 (4, 7 or 10 bytes in hex); in the lobby a tag that
                   is no card is the badge of the seat that joined last (seat 3, then pad uid:...)
a player's name:   player 3 Li Wei (in the lobby, as `unotable seat 3 "Li Wei"` does)
a deck to enroll:  `unotable -p PORT enroll` in another terminal, then tap each card it asks
                   for here: pad R0a, pad R1a ... (or pad uid:... for tags of your own)
and: status | repl (mpremote may take the port for 10 s; in a round it says yes for you)
     confirm (yellow and green held 5 s: lets a laptop's `repl` in, in a round) | help | quit"""


class Watch:
    """What `unotable sim` shows: on a terminal the table redrawn with the last inputs and
    every event they made; piped, one plain line per input."""

    KEEP = 12

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.tty = self.out.isatty()
        self.said = []

    def line(self, d):
        """A view-channel line as one line of narration, or None."""
        if "error" in d:
            return "? %s" % d["error"]
        if d.get("view") != "input":
            return None
        evs = "; ".join(says([tuple(e) for e in d.get("events") or ()])) or "-"
        return "%5d  %-14s %s" % (d.get("seq", 0), _short(d.get("input")), evs)

    def show(self, d, redraw=True):
        text = self.line(d)
        if text is not None:
            self.said = (self.said + [text])[-self.KEEP:]
        if not self.tty:
            if text is not None:
                self.out.write(text + "\n")
                self.out.flush()
            return
        if redraw and "phase" in d:
            self.out.write("\x1b[2J\x1b[H" + view(d) + "\n\n" + "\n".join(self.said) + "\n")
            self.out.flush()
        elif text is not None:
            self.out.write(text + "\n")
            self.out.flush()


def _short(text):
    from unotable.replay import short
    try:
        return short(json.loads(text))
    except (TypeError, ValueError, KeyError):
        return str(text)


def _register(table):
    """`unotable ports` lists the simulated tables running: one small file each."""
    try:
        os.makedirs(_running_dir(), exist_ok=True)
        path = os.path.join(_running_dir(), "%d.json" % os.getpid())
        with open(path, "w") as f:
            json.dump({"port": table.port, "pid": os.getpid(), "log": table.log}, f)
        return path
    except OSError:
        return None


def run(args):
    """`unotable sim`: watch a script play, or play by typing table inputs. The table's log is
    kept (--log DIR, or a new folder in the per-user data folder); a script's table plays on
    when the script is done (--exit stops it), so that it can be synced and watched."""
    from uno.record import from_words
    if args.script:
        if os.path.isdir(args.script):
            raise SimError("cannot read %s: it is a directory" % args.script)
        _check_script(args.script)
    log = args.log or new_log_dir()
    if os.path.exists(log) and not os.path.isdir(log):
        raise SimError("--log %s is a file: give a folder (the table keeps its log in it)" % log)
    try:    # here: the firmware meeting a folder it cannot make stops at its REPL, silent
        os.makedirs(log, exist_ok=True)
    except OSError as e:
        raise SimError("cannot make the folder --log %s: %s" % (log, e.strerror or e)) from None
    table = SimTable(args.script, log=os.path.abspath(log), pace=args.pace, heap=args.heap)
    table.link.close()          # the port is the host commands': this view has its own channel
    reg = _register(table)
    watch = Watch()
    print("simulated table on %s; its log: %s" % (table.port, table.log))
    print("  in another terminal: unotable -p %s status | monitor | sync   (or export "
          "UNOTABLE_PORT=%s)" % (table.port, table.port))
    sys.stdout.flush()
    errors = 0
    _stop_on_signals()
    try:
        if args.script:
            while True:
                d = table.next_view(0.5)
                if d is None:
                    if not table.running():
                        raise SimError("the simulated table stopped: %s" % _why(table))
                    continue
                errors += "error" in d
                watch.show(d)
                if d.get("view") == "done":
                    break
            if errors:
                print("%s: %s not a table input (each said above, with its line); the "
                      "rest played" % (args.script, "1 line is" if errors == 1 else
                                       "%d lines are" % errors), file=sys.stderr)
            if getattr(args, "exit", False):
                return 1 if errors else 0
            print("the script has played; the table plays on: `unotable -p %s sync` stores "
                  "its log; type inputs here, Ctrl-C stops it (the log stays in %s)"
                  % (table.port, table.log))
            if not sys.stdin.isatty():
                while table.running():     # no one types: it waits for the host commands
                    d = table.next_view(0.5)
                    if d is not None:
                        watch.show(d, redraw=False)
                raise SimError("the simulated table stopped: %s" % _why(table))
        print(HELP)
        s = table.status()
        if s:
            watch.show(s)
        while True:
            try:
                text = input("table> ").strip()
            except EOFError:
                return 0
            if not text:
                continue
            if text in ("quit", "exit"):
                return 0
            if text == "help":
                print(HELP)
                continue
            if text == "confirm":
                table.confirm()
                print("yellow and green held 5 s: a laptop's `repl` asked in the last 60 s "
                      "may now ask again (within 60 s)")
                continue
            if text == "repl":
                table.open_repl()
                print("for 10 s: mpremote connect %s resume exec ... (Ctrl-C stops the table)"
                      % table.port)
                continue
            if text != "status":
                try:
                    table.send(from_words(text))
                except ValueError as e:
                    print("? %s" % e)
                    continue
            s, before = table.ask()
            for d in before:
                watch.show(d, redraw=False)
            if s is None:
                raise SimError("the simulated table stopped: %s" % _why(table))
            if tty_redraw(watch):
                watch.show(s)
            elif text == "status":
                print(view(s))
    except KeyboardInterrupt:
        print("\nthe simulated table stopped; its log stays in %s (`unotable sim --log %s` "
              "plays on with it)" % (table.log, table.log))
        return 0
    finally:
        err = table.close()
        if reg:
            try:
                os.remove(reg)
            except OSError:
                pass
        if err.strip() and "Traceback" in err and getattr(args, "debug", False):
            print(err, file=sys.stderr)


def _stop_on_signals():
    """`kill` (SIGTERM) or a closed terminal (SIGHUP) stops it as Ctrl-C does: the firmware
    under micropython stops too, instead of playing on its log with no one to stop it (a new
    `unotable sim --log` on that log would then run beside it)."""
    def stop(signum, frame):
        raise KeyboardInterrupt
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            signal.signal(sig, stop)
        except ValueError:          # not the main thread (a test's): as it was
            pass


def _check_script(path):
    """The script replayed on the host first, as `unotable replay` does: a line that is not
    JSON or no table input (an unknown card Q9 ...) is refused with its line number before
    the table starts."""
    from uno.record import Replay
    from unotable.errors import endless
    bad = endless(path)
    if bad is not None:
        raise SimError(str(bad))
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f]
        if not any(line.strip() for line in lines):
            raise SimError("%s is empty: nothing to play (`unotable sim` alone: type the "
                           "inputs)" % path)
        for _ in Replay().run(lines):
            pass
    except OSError as e:
        raise SimError("cannot read %s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise SimError("%s is not UTF-8 text: a table script is JSONL" % path) from None
    except (ValueError, RecursionError) as e:
        raise SimError("%s: %s; nothing was played" % (path, e)) from None
    except (TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        raise SimError("%s: cannot play it: %s: %s" % (path, type(e).__name__, e)) from None


def tty_redraw(watch):
    return watch.tty


def _why(table):
    """The last line of the firmware's complaint, if it left one."""
    if table.crash:                 # at its REPL (micropython -i), alive: close() ends it
        if table.crash.startswith("MemoryError"):
            return "%s (its heap is too small: give --heap more, %s by default)" % (
                table.crash, HEAP)
        return table.crash
    try:
        table.proc.wait(1)
    except subprocess.TimeoutExpired:
        return "it does not answer"
    table._errs.join(1)
    lines = [x for x in "".join(table.err).strip().splitlines() if x.strip()]
    return lines[-1][:200] if lines else "exit code %s" % table.proc.returncode
