"""The host's end of the serial link (docs/protocol.md): requests over pyserial, answers checked.

    with Link.open("/dev/ttyUSB0") as link:
        print(link.hello())
        for r in link.sync_records(last_stored + 1):
            if isinstance(r, Gap): note(r.first, r.last, r.cause)
            else: store(*r)           # seq, t, wall, inp, tag (4 bytes, or None)
        link.ack(last_stored)          # link.heads: the chain heads seen, (seq, hex, mac hex)

Every failure is a LinkError whose message says what happened and what to do next.
"""
import json
import os
import random
import time

try:
    import fcntl
except ImportError:   # Windows: no advisory locks; one program on the port at a time
    fcntl = None
from binascii import a2b_base64, b2a_base64, Error as B64Error

import serial

from link import frame as fr
from link.codec import decode as decode_batch, chain_start, CodecError, RegistryMismatch, NCARDS
from link.server import chunks, chunk_uids
from unotable.errors import UnotableError

POLL = 0.02            # serial read timeout: how often a wait checks its deadline
TURN = 10.0            # seconds a request waits for its turn on a port other programs use


class LinkError(UnotableError):
    """Base of every link failure; str() is meant for the user."""


class PortError(LinkError):
    """The port cannot be opened."""


class NoAnswer(LinkError):
    """No usable answer after every try."""


class PortBusy(LinkError):
    """Another program kept the port for longer than a request may wait."""


class DeviceGone(LinkError):
    """The port went away (cable pulled, board reset, simulator exited)."""


class Refused(LinkError):
    """The table answered with an error; .verb and .reason hold the details."""

    def __init__(self, msg, verb="", reason=""):
        super().__init__(msg)
        self.verb = verb
        self.reason = reason


class VersionMismatch(LinkError):
    """The table speaks another protocol version (.version)."""

    def __init__(self, msg, version=-1):
        super().__init__(msg)
        self.version = version


class ProtocolError(LinkError):
    """An intact answer whose content makes no sense."""


READERS = ("PLAY pad", "DRAW shoe")


def reader_health(status):
    """The readers as a table's status reports them (`readers`: [up, read errors, two cards at
    once] for the PLAY pad, then the DRAW shoe): [(name, up, errors, two), ...], or None for a
    table that does not say or a field that makes no sense."""
    r = status.get("readers") if isinstance(status, dict) else None
    if not (isinstance(r, list) and len(r) == 2 and all(
            isinstance(x, list) and len(x) == 3 and all(type(v) is int for v in x) for x in r)):
        return None
    return [(READERS[i],) + tuple(r[i]) for i in (0, 1)]


class Gap:
    """Seqs first..last are not in the table's log: cause is "pruned", "damaged", "missing",
    "foreign", "order" (or "other")."""
    __slots__ = ("first", "last", "cause")

    def __init__(self, first, last, cause):
        self.first = first
        self.last = last
        self.cause = cause

    def __eq__(self, o):
        return isinstance(o, Gap) and (self.first, self.last, self.cause) == (
            o.first, o.last, o.cause)

    def __repr__(self):
        return "Gap(%d, %d, %r)" % (self.first, self.last, self.cause)


class Link:
    def __init__(self, ser, port=None, timeout=1.0, retries=3):
        self.ser = ser
        self.port = port or getattr(ser, "port", "the port")
        self.timeout = timeout
        self.retries = retries
        self.registry = None        # the hub's deck registry (uno.cards.Registry) once known
        self.rid = random.randrange(1, fr.MAXID)   # a new session never matches old answers
        self.buf = bytearray()
        self.over = False           # inside a line longer than a frame: dropped up to its end
        self.head = b""
        self.heads = []             # (seq, head hex, mac hex) of each chain head a sync saw
        self.received = 0           # highest seq this session got: `ack` may go up to it
        self.mismatch = []          # (seq, head worked out here, the table's) that differ
        self.stats = {"requests": 0, "retries": 0, "corrupt": 0, "discarded": 0, "noise": 0,
                      "echo": 0, "sent": 0, "received": 0}

    @classmethod
    def open(cls, port, baud=115200, timeout=1.0, retries=3):
        """Opens the port without resetting an ESP32 devkit (DTR and RTS held low)."""
        ser = serial.Serial()
        ser.port = port
        ser.baudrate = baud
        ser.timeout = POLL
        ser.write_timeout = 2.0
        ser.dtr = False             # set before open(): opening would raise them, and the
        ser.rts = False             # devkit's auto-reset circuit takes that as a reset
        try:
            ser.open()
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, ValueError) as e:
            raise PortError("cannot open %s: %s. Is the table plugged in? `unotable ports` "
                            "lists the serial ports; on Linux your user may need the "
                            "dialout group." % (port, _why(e))) from None
        return cls(ser, port, timeout, retries)

    def close(self):
        try:
            self.ser.close()
        except (serial.SerialException, OSError):
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- requests ---------------------------------------------------------------------

    def request(self, verb, payload=b"", timeout=None, retries=None):
        """Sends one request, returns the payload (bytes) of its ok answer.

        payload: bytes, str or a dict (sent as JSON). A retry resends the same frame (same
        request id): the hub answers a repeated changing request from its cache, so nothing
        is done twice. Answers with another id (late answers to earlier tries) are dropped.
        """
        timeout = self.timeout if timeout is None else timeout
        retries = self.retries if retries is None else retries
        if isinstance(payload, dict):
            payload = json.dumps(payload, separators=(",", ":"))
        self.rid = self.rid % fr.MAXID + 1
        rid = self.rid
        out = fr.encode(rid, verb, fr.REQ, payload)
        self.stats["requests"] += 1
        with _Turn(self, verb):
            return self._exchange(verb, out, rid, timeout, retries)

    def _exchange(self, verb, out, rid, timeout, retries):
        problem = "timeout"
        echo = False
        for attempt in range(max(1, retries)):
            if attempt:
                self.stats["retries"] += 1
            self._write(out, verb)
            deadline = time.monotonic() + timeout
            while True:
                got = self._readline(deadline, verb)
                if got is None:
                    problem = "timeout"
                    break
                line, oversized = got
                if oversized:
                    if line.startswith(b"~"):
                        self.stats["corrupt"] += 1
                        problem = "oversized"
                        break
                    self.stats["noise"] += 1
                    continue
                try:
                    r_id, r_verb, st, p = fr.find(line)
                except fr.FrameError as e:
                    if e.reason == fr.BAD_VERSION:
                        raise VersionMismatch(
                            "the table on %s speaks link protocol %d, this host tool speaks %d: "
                            "update the firmware (`unotable deploy --port %s`) or the host tool"
                            % (self.port, e.version, fr.VERSION, self.port), e.version) from None
                    if e.reason == fr.BAD_CRC or e.reason == fr.TOO_LONG:
                        self.stats["corrupt"] += 1
                        problem = "corrupt"
                        break                   # our answer, damaged: ask again now
                    self.stats["noise"] += 1    # REPL output, boot messages, line noise
                    continue
                if st == fr.REQ:
                    echo = echo or r_id == rid
                    self.stats["echo"] += 1
                    continue
                if r_id != rid or r_verb != verb:
                    self.stats["discarded"] += 1
                    continue
                self.stats["received"] += len(line) + 1
                if st == fr.ERR:
                    msg = p.decode("ascii", "replace")
                    raise Refused("the table refused `%s`: %s" % (verb, msg), verb, msg)
                return p
        raise NoAnswer(self._no_answer(verb, retries, problem, echo))

    def _no_answer(self, verb, retries, problem, echo):
        port = self.port
        if echo:
            return ("%s echoes `%s` back: the board is at the MicroPython prompt, the table "
                    "firmware is not running. Reset the table, or install it with "
                    "`unotable deploy --port %s`." % (port, verb, port))
        if problem != "timeout":
            return ("answers from %s to `%s` arrived damaged %s: check the USB cable and "
                    "that nothing else uses the port (baud 115200)."
                    % (port, verb, _times(retries)))
        if self.stats["discarded"]:
            return ("no answer from %s to `%s` after %s, but answers to another "
                    "program's requests came: a program that does not take turns (a terminal, "
                    "mpremote) is reading the port; close it and run the command again"
                    % (port, verb, _tries(retries)))
        return ("no answer from %s to `%s` after %s: is the table powered and running "
                "the firmware? Try `unotable status --port %s`."
                % (port, verb, _tries(retries), port))

    def _gone(self, verb, e):
        return DeviceGone("lost %s during `%s` (%s): was the cable pulled or the table reset? "
                          "Reconnect and run the command again; `unotable sync` resumes where it "
                          "stopped." % (self.port, verb, _why(e)))

    def _shared(self, e):
        """pyserial's "ready to read but returned no data": a pulled cable, or another program
        reading the same port. The port still there: the second (counted, named if no answer
        comes), so that a terminal left open on the port stops no command."""
        if "multiple access" not in str(e):
            return False
        try:
            os.stat(self.port)
        except (OSError, TypeError, ValueError):
            return False
        self.stats["discarded"] += 1
        return True

    def _write(self, data, verb):
        try:
            self.ser.write(data)
            self.ser.flush()
        except (serial.SerialException, OSError) as e:   # SerialTimeoutException too
            raise self._gone(verb, e) from None
        self.stats["sent"] += len(data)

    def _readline(self, deadline, verb):
        """(line without its end, oversized) or None when the deadline passes."""
        buf = self.buf
        ser = self.ser
        while True:
            i = buf.find(b"\n")
            if i >= 0:
                line = bytes(buf[:i])
                del buf[:i + 1]
                if self.over:
                    self.over = False
                    return self.head, True
                return line, False
            if len(buf) > fr.MAX:       # keep the head only: it tells a frame from noise
                if not self.over:
                    self.head = bytes(buf[:16])
                    self.over = True
                del buf[:]
            if time.monotonic() >= deadline:
                return None
            try:
                data = ser.read(max(1, ser.in_waiting))
            except serial.SerialException as e:
                if not self._shared(e):
                    raise self._gone(verb, e) from None
                time.sleep(POLL)        # another reader took the bytes: not ours anyway
                continue
            except OSError as e:
                raise self._gone(verb, e) from None
            buf += data

    # ---- verbs --------------------------------------------------------------------------

    def _json(self, verb, payload=b"", **kw):
        p = self.request(verb, payload, **kw)
        if not p:
            return None
        try:
            return json.loads(p)
        except ValueError:
            raise ProtocolError("the table's answer to `%s` is not JSON: %r" % (verb, p[:60]))

    def hello(self, **kw):
        """{"proto": 1, "fw": ..., "board": ..., "max": 1024}"""
        return self._json("hello", **kw)

    def status(self, **kw):
        return self._json("status", **kw)

    def set_rule(self, name, value):
        return self._json("rule", {"name": name, "value": value})

    def set_clock(self, seconds=None):
        return self._json("clock", {"t": int(time.time() if seconds is None else seconds)})

    def enroll(self, on):
        return self._json("enroll", {"on": bool(on)})

    def ack(self, upto):
        """Tells the table the host has stored every seq <= upto (it may prune them). The table
        refuses a seq past what it has sent since it booted: sync first."""
        return self._json("ack", {"upto": int(upto)})

    def clocks(self, frm=1):
        """The table's clock notes from seq frm on: [(seq, wall seconds, table ms)] ([] from a
        firmware that keeps none)."""
        out = []
        while True:
            try:
                d = self._json("clocks", {"from": int(frm)})
            except Refused as e:
                if "unknown verb" in (e.reason or ""):
                    return out
                raise
            got = d.get("clocks") if isinstance(d, dict) else None
            if not isinstance(got, list):
                raise ProtocolError("the table's answer to `clocks` makes no sense: %r" % (d,))
            out += [tuple(c) for c in got if isinstance(c, list) and len(c) == 3]
            nxt = d.get("next")
            if not isinstance(nxt, int) or nxt <= frm:
                return out
            frm = nxt

    def pair(self):
        """{"id": hex16, "key": hex64}: the table's id and the key of its chain, handed to one
        host only (Refused once paired)."""
        d = self._json("pair")
        if not isinstance(d, dict) or len(d.get("id", "")) != 16 or len(d.get("key", "")) != 64:
            raise ProtocolError("the table's answer to `pair` is not an id and a key: %r" % (d,))
        return d

    def undo(self, n=1):
        """Takes back the table's last n accepted inputs of the round (logged as an input)."""
        return self._json("undo", {"n": int(n)})

    def set_player(self, seat, name):
        """Names a joined seat's player (the lobby only; logged as an input)."""
        return self._json("player", {"seat": int(seat), "name": name})

    def repl(self):
        """Ctrl-C stops the firmware for the next few seconds (mpremote). In a round the table
        refuses (Refused, saying what to do) until someone at it agrees (yellow and green
        held together 5 s); then one `repl` within 60 s opens the window."""
        return self._json("repl")

    def selftest(self, start=False, press_ms=0, quick=False, frm=0):
        """start: the table runs its guided self-test (between rounds only; Refused else):
        {"started": true, "press_ms": N}. Else its lines from index frm on:
        {"lines": [...], "next": index after them, "done": no more will come}."""
        if start:
            return self._json("selftest", {"start": True, "press_ms": int(press_ms),
                                           "quick": bool(quick)})
        return self._json("selftest", {"from": int(frm)})

    def upload_registry(self, uids):
        """Sends the 108 UIDs (card index order) in 4 frames."""
        from uno.cards import Registry
        reg = Registry(list(uids))      # refuses a bad deck here, before the table does
        done = None
        for part in chunks(uids):
            done = self._json("registry", b2a_base64(part, newline=False))
        if not done or not done.get("done"):
            raise ProtocolError("the table did not confirm the deck registry: %r" % (done,))
        self.registry = reg
        return reg

    def fetch_registry(self):
        """The table's deck registry (uno.cards.Registry), in 4 frames."""
        from uno.cards import Registry
        uids = []
        while len(uids) < NCARDS:
            p = self.request("registry", b2a_base64(bytes((len(uids), 0)), newline=False))
            try:
                first, us = chunk_uids(a2b_base64(p))
            except (ValueError, B64Error) as e:
                raise ProtocolError("bad registry chunk from the table: %s" % e) from None
            if first != len(uids) or not us:
                raise ProtocolError("registry chunk for card %d, asked %d" % (first, len(uids)))
            uids.extend(us)
        try:
            self.registry = Registry(uids)
        except ValueError as e:
            raise ProtocolError("the table's deck registry is not valid: %s" % e) from None
        return self.registry

    def sync_records(self, from_seq=1, max_bytes=0, head=None):
        """Yields (seq, t, wall, inp, tag) for every logged input with seq >= from_seq and a
        Gap for every range of seqs the log cannot give (pruned, damaged ...), batch after
        batch, until the table says no more follow; the chain head that closes the sync goes
        to self.heads. After a cut, call again from the last stored seq + 1: nothing is lost or
        repeated. Fetches the deck registry when a batch names cards by index in a registry
        this host does not hold.

        head: the chain head (32 bytes) after seq from_seq - 1, if the host holds it
        (gamelog.chain.GENESIS before seq 1): the table then leaves the 4-byte tags out and
        this side works them out, until a gap; self.mismatch lists (seq, worked out, the
        table's) where they differ."""
        chain = _chain()
        seq = from_seq
        h = head if chain else None
        while True:
            q = {"from": seq}
            if max_bytes:
                q["max"] = max_bytes
            if h is not None:
                q["tags"] = False
            p = self.request("records", q)
            try:
                data = a2b_base64(p)
                try:
                    recs, more, last = decode_batch(data, self.registry)
                except RegistryMismatch:
                    self.fetch_registry()
                    recs, more, last = decode_batch(data, self.registry)
            except (CodecError, B64Error) as e:
                raise ProtocolError("records from seq %d could not be decoded: %s" % (seq, e))
            if recs and recs[0][0] < seq:
                raise ProtocolError("the table sent seq %d, asked from %d" % (recs[0][0], seq))
            if h is None and chain:
                h = chain_start(data)           # the head before the batch: tags worked out here
            for r in recs:
                if len(r) == 3:
                    top = r[1]
                    h = None                    # the chain goes on unseen: tags from the table
                    self.received = max(self.received, top)
                    yield Gap(r[0], r[1], r[2])
                    continue
                top = r[0]
                if h is not None:
                    try:
                        h = chain.step(h, r[0], r[1], r[2], r[3])
                    except (ValueError, TypeError, OverflowError):
                        h = None
                    if h is not None:
                        if r[4] is not None and r[4] != h[:4]:
                            self.mismatch.append((r[0], h.hex(), r[4].hex()))
                        r = r[:4] + (h[:4],)
                self.received = max(self.received, top)
                yield r
            if last:
                self.heads.append((last[0], last[1].hex(), last[2].hex()))
                if h is not None and recs and last[0] == top and last[1] != h:
                    self.mismatch.append((top, h.hex(), last[1].hex()))
            if not more:
                return
            if not recs:
                if last:
                    return                      # only the head was left to send
                raise ProtocolError("the table says records follow seq %d but sent none" % seq)
            seq = top + 1


class _Turn:
    """One request and its answer at a time on a port, across programs: the host commands
    that share a port (monitor, status, sync at once) take turns by an advisory lock on it,
    so that none reads the answer another is waiting for."""

    def __init__(self, link, verb):
        self.link = link
        self.verb = verb
        self.fd = None

    def __enter__(self):
        try:
            fd = self.link.ser.fileno() if fcntl is not None else None
        except (AttributeError, ValueError, OSError, serial.SerialException):
            fd = None
        if not isinstance(fd, int):
            return self
        end = time.monotonic() + TURN
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.fd = fd
                return self
            except BlockingIOError:
                if time.monotonic() >= end:
                    raise PortBusy("%s is busy: another program has kept it for %g s "
                                   "(mpremote, a sync, an enrolment?). Nothing was sent; try "
                                   "again when it is done"
                                   % (self.link.port, TURN)) from None
                time.sleep(POLL)
            except OSError:             # a port that takes no lock: go on alone
                return self

    def __exit__(self, *exc):
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            except OSError:
                pass


def _chain():
    try:
        from gamelog import chain
        return chain
    except ImportError:  # a gamelog without the chain: the table sends every tag
        return None


def open_repl(port, timeout=1.0):
    """Asks the table firmware on port to let Ctrl-C through for a few seconds, so mpremote can
    take the port even in a round. True if it agreed; False if nothing answered (no firmware
    running: the REPL is there already) or it is an older firmware. Refused (its message says
    what to do) when the table says no: in a round it wants a yes from someone at the table
    first (yellow and green held together 5 s)."""
    try:
        with Link.open(port, timeout=timeout, retries=2) as link:
            link.repl()
            return True
    except Refused as e:
        if str(e.reason).startswith("unknown verb"):   # older firmware: mpremote's Ctrl-C
            return False
        raise
    except LinkError:
        return False


def _tries(n):
    return "1 try" if n == 1 else "%d tries" % n


def _times(n):
    return "once" if n == 1 else "%d times" % n


def _why(e):
    return getattr(e, "strerror", None) or str(e) or type(e).__name__
