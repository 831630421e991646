"""The hub's end of the serial link: request frame in, answer frame out (docs/protocol.md).

    srv = LinkServer(handler)
    out = srv.handle(line)        # a line read from the serial port -> answer bytes, or None
    out = srv.serve(frame)        # an already decoded request (frame.decode) -> answer bytes

The handler is the hub app; the server knows nothing of the engine or the log. Its methods:

    hello()              -> dict, at least {"fw": "0.1.0", "board": "uno-hub"}
    status()             -> dict (JSON-able): what the hub shows; phase, seats, next_seq ...
    records(seq)         -> iterator, oldest first, from seq on: (seq, t, wall, inp, tag) for
                            each logged input (tag: its 4-byte chain tag, or None) and
                            (first, last, cause) for each gap in the log
    head()               -> (seq, head 32 bytes, mac 32 bytes) of the chain, or None (optional)
    registry()           -> the deck registry in force (anything with .uid(i)) or None; a new
                            object when the deck changes (the server caches per object)
    set_registry(uids)   -> None; a list of 108 UIDs (bytes), card index order
    set_rule(name, value)-> None; value is str or int
    set_clock(seconds)   -> None; wall-clock seconds since 1970 (int)
    enroll(on)           -> None or JSON-able; on is True/False (guided deck enrolment)
    prune(upto)          -> None or JSON-able; the host has stored every seq <= upto
    pair()               -> {"id": hex16, "key": hex64}; ValueError once paired (optional)
    undo(n)              -> None; take back the last n inputs (optional)
    set_player(seat, name) -> None; name a joined seat's player in the lobby (optional)
    repl()               -> JSON-able; Ctrl-C stops the firmware for a while (optional)
    selftest(start, press_ms, quick, frm) -> JSON-able; start the guided self-test, or its
                            lines from index frm on (optional)
    clocks(frm)          -> {"clocks": [[seq, wall s, ms], ...], "next": seq or None}: the
                            clock notes logged from seq frm on (optional)

A ValueError raised by the handler is refused with its message ("-" answer); any other
Exception too, prefixed with its type. KeyboardInterrupt is never caught: Ctrl-C from mpremote
must stop the firmware.
"""
import gc
import json
from binascii import a2b_base64, b2a_base64

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from link import frame as fr
from link.codec import Encoder, NCARDS, TRAILER

# a heap under 1 MB (MicroPython on a board or the simulated table): collect before a batch
_SMALL = hasattr(gc, "mem_free") and gc.mem_free() + gc.mem_alloc() < 1048576
RAW = const(747)        # batch bytes: base64 makes 996 chars, + 28 of frame = frame.MAX
CHUNK = const(27)       # registry UIDs per frame: 4 frames; 27 x 11 bytes -> 400 chars
MSG = const(200)        # error messages are cut to this many characters

# Verbs that change the hub: a retried request (same id, verb and payload) gets the cached
# answer and is not done twice (a lost answer would otherwise log a rule input twice).
_CHANGES = ("rule", "clock", "registry", "enroll", "ack", "pair", "undo", "repl", "selftest",
            "player")


def _json_out(obj):
    return fr.ascii_text(json.dumps(obj, separators=(",", ":")))  # a status must fit a frame


def _json_in(p):
    if not p:
        return {}
    q = json.loads(p)
    if not isinstance(q, dict):
        raise ValueError("payload must be a JSON object")
    return q


def _text(s):
    """JSON text as CPython holds it: MicroPython's json keeps an escaped surrogate pair
    ("\\ud83d\\ude00", how a host's json.dumps sends a name beyond the BMP) as two surrogates,
    whose bytes (CESU-8) no host decodes: a name logged so failed every later sync. Pairs are
    joined; a lone surrogate is refused."""
    for ch in s:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            break
    else:
        return s                   # the usual case: no copy
    out = []
    hi = 0
    for ch in s:
        o = ord(ch)
        if hi and 0xDC00 <= o <= 0xDFFF:
            out.append(chr(0x10000 + (hi - 0xD800 << 10) + o - 0xDC00))
            hi = 0
        elif hi or 0xDC00 <= o <= 0xDFFF:
            raise ValueError("text with a lone UTF-16 surrogate")
        elif 0xD800 <= o <= 0xDBFF:
            hi = o
        else:
            out.append(ch)
    if hi:
        raise ValueError("text with a lone UTF-16 surrogate")
    return "".join(out)


def _int(q, key, default=None):
    v = q.get(key, default)
    if v is None or v is True or v is False or not isinstance(v, int):
        raise ValueError("%s must be an integer" % key)
    return v


class LinkServer:
    def __init__(self, handler):
        self.h = handler
        self.buf = bytearray(fr.MAX)
        self.enc = None            # created on the first records request
        self.last = None           # (rid, verb, payload) of the last changing request
        self.last_out = None
        self.pending = None        # registry upload in progress: list of NCARDS
        self.sent = 0              # highest seq any records answer covered: ack stops there

    def handle(self, line):
        """Answer bytes for one received line, or None (not a request; REPL noise; damaged:
        the host retries on its timeout)."""
        try:
            f = fr.decode(line)
        except fr.FrameError as e:
            if e.reason == fr.BAD_VERSION and e.rid >= 0:
                return self._out(e.rid, "version", fr.ERR,
                                 "this table speaks protocol %d" % fr.VERSION)
            return None
        if f[2] != fr.REQ:
            return None            # an answer (echo of our own): not for us
        return self.serve(f)

    def serve(self, f):
        rid, verb, st, p = f
        key = None
        if verb in _CHANGES:
            key = (rid, verb, p)
            if key == self.last:
                return self.last_out
        try:
            m = getattr(self, "_v_" + verb, None)
            if m is None:
                raise ValueError("unknown verb %r" % verb)
            res = m(p)
            out = self._out(rid, verb, fr.OK, res, False)
        except ValueError as e:
            out = self._out(rid, verb, fr.ERR, str(e))
        except Exception as e:  # a handler bug must not stop the link
            out = self._out(rid, verb, fr.ERR, "%s: %s" % (type(e).__name__, e))
        if key is not None:
            self.last = key
            self.last_out = out
        return out

    def _out(self, rid, verb, st, payload, text=True):
        if text:
            payload = fr.ascii_text(payload[:MSG])
        try:
            n = fr.encode_into(self.buf, rid, verb, st, payload, text)
        except ValueError as e:  # an oversized status, say: refuse rather than fail
            n = fr.encode_into(self.buf, rid, verb, fr.ERR, fr.ascii_text(str(e)[:MSG]))
        return bytes(memoryview(self.buf)[0:n])   # one copy, not two

    # ---- verbs: payload bytes in, printable payload bytes out -------------------------

    def _v_hello(self, p):
        d = self.h.hello()
        d["proto"] = fr.VERSION
        d["max"] = fr.MAX
        return _json_out(d)

    def _v_status(self, p):
        return _json_out(self.h.status())

    def _v_records(self, p):
        if _SMALL:
            # a board, the simulated table: the batch, its base64 and a round's snapshot that
            # the log reads on the way want ~2 KB pieces, not a fragmented heap
            gc.collect()
        try:
            return self._records(p)
        except MemoryError:  # collect, and once more (reading changes nothing)
            gc.collect()
            return self._records(p)

    def _records(self, p):
        q = _json_in(p)
        seq = _int(q, "from", 1)
        lim = _int(q, "max", 0)
        # tags: false: the host holds the chain head before seq and works the tags out itself
        # (4 bytes a record less on the wire); the batch then ends at a gap, after which it
        # cannot.
        tags = q.get("tags", True) is not False
        reg = self.h.registry()
        e = self.enc
        if e is None:
            e = self.enc = Encoder(reg, RAW)
        elif e.reg is not reg:
            e.set_registry(reg)
        hf = getattr(self.h, "head", None)
        # a host without the chain head before seq gets it once (32 bytes) and works the tags
        # out, rather than 4 bytes a record; where the hub cannot vouch for it, the tags
        cb = getattr(self.h, "chain_before", None) if tags else None
        sh = cb(seq) if cb else None
        e.start(lim)
        more = False
        it = self.h.records(seq)
        try:
            for r in it:
                if len(r) == 3:             # a gap: (first, last, cause), cut to what was asked
                    if r[1] < seq:
                        continue
                    if not e.gap(max(r[0], seq), r[1], r[2]):
                        more = True
                        break
                    if not tags or e.sh or cb and e.n == 1:
                        more = True
                        break
                    continue
                if r[0] < seq:
                    continue
                first = None if e.n else sh
                tg = r[4] if tags and not (first or e.sh) and len(r) > 4 else None
                if not e.add(r[0], r[1], r[2], r[3], tg, first):
                    more = True
                    break
        finally:
            if hasattr(it, "close"):
                it.close()
        if more and not e.n:
            raise ValueError("max %d too small for the record at seq %d" % (e.lim, seq))
        # the chain head closes the last batch of a sync: the host checks what it got by it.
        # No room left for it: the batch says more, and the next (empty but for it) has it.
        head = None
        if hf and not more:
            head = hf()
            if head and not e.fits(TRAILER):
                if not e.n:                   # not even alone: "more" would ask for ever
                    raise ValueError("max %d too small for the chain head" % e.lim)
                head = None
                more = True
        out = b2a_base64(e.finish(more, head), newline=False)
        if e.n and e.seq > self.sent:
            self.sent = e.seq
        return out

    def _v_rule(self, p):
        q = _json_in(p)
        name = q.get("name")
        value = q.get("value")
        if value is True or value is False or not isinstance(name, str) or not (
                isinstance(value, str) or isinstance(value, int)):
            raise ValueError("rule needs a name and a text or integer value")
        return self._res(self.h.set_rule(name, value))

    def _v_clock(self, p):
        return self._res(self.h.set_clock(_int(_json_in(p), "t")))

    def _v_enroll(self, p):
        on = _json_in(p).get("on")
        if on is not True and on is not False:
            raise ValueError("enroll needs on: true or false")
        return self._res(self.h.enroll(on))

    def _v_ack(self, p):
        upto = _int(_json_in(p), "upto")
        if upto > self.sent:
            raise ValueError("ack %d is past the last seq sent (%d): sync first" % (
                upto, self.sent))
        return self._res(self.h.prune(upto))

    def _v_clocks(self, p):
        return self._res(self._opt("clocks")(_int(_json_in(p), "from", 1)))

    def _v_pair(self, p):
        return self._res(self._opt("pair")())

    def _v_undo(self, p):
        n = _int(_json_in(p), "n", 1)
        return self._res(self._opt("undo")(n))

    def _v_player(self, p):
        q = _json_in(p)
        name = q.get("name")
        if not isinstance(name, str):
            raise ValueError("player needs a seat and a name")
        return self._res(self._opt("set_player")(_int(q, "seat"), _text(name)))

    def _v_repl(self, p):
        return self._res(self._opt("repl")())

    def _v_selftest(self, p):
        q = _json_in(p)
        return self._res(self._opt("selftest")(q.get("start") is True, _int(q, "press_ms", 0),
                                               q.get("quick") is True, _int(q, "from", 0)))

    def _opt(self, name):
        f = getattr(self.h, name, None)
        if f is None:
            raise ValueError("this table does not do `%s`" % name)
        return f

    def _v_registry(self, p):
        # Chunk: first card index, count, then count x (length, UID). count 0 asks the hub's.
        b = a2b_base64(p)
        if len(b) < 2:
            raise ValueError("registry chunk too short")
        first = b[0]
        n = b[1]
        if first >= NCARDS or first + n > NCARDS:
            raise ValueError("registry chunk out of range")
        if not n:
            return self._reg_chunk(first)
        if first == 0 or self.pending is None:
            self.pending = [None] * NCARDS
        pend = self.pending
        i = 2
        for k in range(first, first + n):
            if i >= len(b) or not 0 < b[i] <= 10 or i + 1 + b[i] > len(b):
                self.pending = None
                raise ValueError("bad UID in registry chunk at card %d" % k)
            pend[k] = bytes(b[i + 1:i + 1 + b[i]])
            i += 1 + b[i]
        have = 0
        for u in pend:
            if u is not None:
                have += 1
        if have < NCARDS:
            return _json_out({"have": have})
        self.pending = None
        self.h.set_registry(pend)
        return _json_out({"have": have, "done": True})

    def _reg_chunk(self, first):
        reg = self.h.registry()
        if reg is None:
            raise ValueError("no deck registry on the table: enroll the deck or upload one")
        n = min(CHUNK, NCARDS - first)
        out = bytearray((first, n))
        for k in range(first, first + n):
            u = reg.uid(k)
            out.append(len(u))
            out.extend(u)
        return b2a_base64(bytes(out), newline=False)

    def _res(self, r):
        return b"" if r is None else _json_out(r)


def chunks(uids):
    """The registry upload: list of 108 UIDs -> [chunk bytes, ...] (4 chunks, card order)."""
    out = []
    for first in range(0, NCARDS, CHUNK):
        n = min(CHUNK, NCARDS - first)
        c = bytearray((first, n))
        for k in range(first, first + n):
            u = uids[k]
            if not 0 < len(u) <= 10:
                raise ValueError("a UID has 1 to 10 bytes: card %d" % k)
            c.append(len(u))
            c.extend(u)
        out.append(bytes(c))
    return out


def chunk_uids(b):
    """A downloaded chunk -> (first, [uid, ...])."""
    if len(b) < 2:
        raise ValueError("registry chunk too short")
    first = b[0]
    n = b[1]
    uids = []
    i = 2
    for _ in range(n):
        if i >= len(b) or i + 1 + b[i] > len(b):
            raise ValueError("registry chunk truncated")
        uids.append(bytes(b[i + 1:i + 1 + b[i]]))
        i += 1 + b[i]
    return first, uids
