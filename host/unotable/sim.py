"""The simulated table: the firmware under the `micropython` command, its serial on a pty.

The firmware is compiled with mpy-cross, as it is deployed, and runs in an ESP32-sized heap.
Its USB serial is a pseudo-terminal that the host tool (or mpremote) opens like a board's
port; table inputs reach its simulated readers and buttons through a pipe.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tty

import serial

from uno.cards import COLOURS
from uno.narrate import say
from unotable.build import BuildError, build, tool

# The app's code sits in the heap on the unix port (64-bit, .mpy loaded into RAM); a board
# freezes it into flash (docs/deploy.md). 256k holds the code (about 105 KB on this 64-bit port), a 10-player round,
# the link and a sync of a round with its 1.7 KB snapshot; 192k no longer does since the chain and take-back.
HEAP = "256k"
# the hub's status beyond the state
HIDDEN = ("seq", "tune", "leds", "events", "firmware", "board", "id", "damage", "fault", "flash",
          "log_full", "notice", "dropped", "heap")


def compile_firmware(out):
    """The firmware compiled as it is deployed (unotable.build)."""
    try:
        build(out)
    except BuildError as e:
        raise SimError(str(e))


class SimError(Exception):
    pass


class SimTable:
    """A running simulated table: .port (pty name for pyserial or mpremote), .link (pyserial),
    send(line) for table inputs, status(), close()."""

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
        argv = [tool("micropython"), "-X", "heapsize=" + heap, "-i", *run,
                "--log", self.log, "--inputs", "/dev/fd/%d" % rd, "--pace", str(pace)]
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
                                     pass_fds=(rd,), env=env, cwd=self.tmp)
        os.close(master)
        os.close(rd)
        os.close(slave)
        self.buf = b""

    def send(self, line):
        """A table-script line (dict or JSON text) into the simulated readers and buttons."""
        if isinstance(line, dict):
            line = json.dumps(line)
        os.write(self.pipe, line.encode() + b"\n")

    def lines(self, timeout=0.2):
        """Lines the table printed, for up to timeout s; [] if it stopped."""
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

    def status(self, timeout=3.0):
        """Asks the table for its status (a JSON object), or None if it does not answer."""
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

    def final(self):
        """The last status line the table printed before it stopped, if any."""
        last = None
        for line in self.lines(0.5):
            if line.startswith("{") and '"phase"' in line:
                last = json.loads(line)
        return last

    def open_repl(self):
        """For the next 10 s Ctrl-C stops the firmware even in a round: mpremote can take the
        port (`unotable.link.open_repl` does the same over the link, for a board)."""
        try:
            self.link.write(b"repl\n")
        except (serial.SerialException, OSError):
            pass

    def running(self):
        return self.proc.poll() is None

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
        self.link.close()
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        self.proc.stderr and self.proc.stderr.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return err


def view(s):
    """The table at a glance, as text: what the LEDs and buzzer say, hands, top card."""
    lines = []
    phase = s["phase"].replace("_", " ")
    colour = s["colour"] or "-"
    lines.append("round %d  %s  dealer %s  %s  top %s  colour %s  shoe %d  pile %d" % (
        s["round"], phase, s["dealer"] or "-", "clockwise" if s["direction"] == "cw" else
        "counter-clockwise", s["top"] or "-", colour, s["shoe"], s["pile"]))
    leds = s.get("leds", 0)
    for seat in s["seats"]:
        n = seat["seat"]
        led = "*" if leds >> (n - 1) & 1 else " "
        mark = ">" if s["turn"] == n else " "
        owes = " owes %d" % seat["owes"] if seat["owes"] else ""
        uno = " UNO!" if s["uno_window"] == n and s["uno_called"] else ""
        lines.append(" %s%s seat %-2d %4d pts  %2d cards: %s%s%s" % (
            mark, led, n, seat["score"], len(seat["hand"]), " ".join(seat["hand"]), owes, uno))
    lit = "".join(COLOURS[c] for c in range(4) if leds >> (16 + c) & 1)
    wanted = "  choose a colour!" if s["colour_wanted"] else ""
    lines.append("colour LEDs: %s  buzzer: %s%s" % (lit or "-", s.get("tune") or "-", wanted))
    for e in s.get("events", []):
        lines.append("  " + say(e))
    return "\n".join(lines)


def state_only(s):
    return dict((k, v) for k, v in s.items() if k not in HIDDEN)


HELP = """type table inputs: pad R7 | shoe R7 | seat 3 | seat 3 long | colour G | shuffle
                   tick 5000 | rule stacking on      (cards by face R7 or copy R7b)
and: status | repl (mpremote may take the port for 10 s, even in a round) | help | quit"""


def run(args):
    """`unotable sim`: watch a script play, or play by typing table inputs."""
    from uno.record import from_words
    tty_out = sys.stdout.isatty()
    sim = SimTable(args.script, log=args.log, pace=args.pace, heap=args.heap)
    print("simulated table on %s (pyserial, mpremote or `unotable --port %s`)" % (
        sim.port, sim.port))
    try:
        if args.script:
            shown = None
            while True:
                s = sim.status(3.0)
                if s is None:
                    print("the simulated table stopped", file=sys.stderr)
                    return 1
                if s != shown:
                    shown = s
                    if tty_out:
                        sys.stdout.write("\x1b[2J\x1b[H")
                    print(view(s))
                if s["board"].get("script_done"):
                    return 0
                time.sleep(max(args.pace, 100) / 1000.0)
        print(HELP)
        s = sim.status()
        if s:
            print(view(s))
        while True:
            try:
                text = input("table> ").strip()
            except EOFError:
                return 0
            if text in ("quit", "exit"):
                return 0
            if text == "help":
                print(HELP)
                continue
            if text == "repl":
                sim.open_repl()
                print("for 10 s: mpremote connect %s resume exec ... (Ctrl-C stops the table)"
                      % sim.port)
                continue
            if text != "status":
                try:
                    sim.send(from_words(text))
                except ValueError as e:
                    print("? %s" % e)
                    continue
                time.sleep(0.05)  # the input goes by the readers' pipe, the question by serial
            s = sim.status()
            if s is None:
                print("the simulated table stopped")
                return 1
            print(view(s))
    except KeyboardInterrupt:
        return 0
    finally:
        err = sim.close()
        if err.strip() and "Traceback" in err:
            print(err, file=sys.stderr)
