"""Compact batches of logged table inputs for sync (docs/protocol.md, "Record batch").

A batch: flags, [registry fingerprint], first seq, entry count; then per record a tag byte,
[seq skip], time (absolute on the first record, else the increase), [its 4-byte chain tag] and
the input's payload; a gap in the log is an entry of its own (seq range and cause); [the chain
head and its mac] close the batch. Instead of a tag per record, a batch may carry the chain head
before its first record (START): the decoder works every tag out from it, 32 bytes a batch
instead of 4 a record. A card read is one byte (its card index) when the registry
knows the UID. Outcomes never travel: the host replays the inputs through the same engine.
"""
from binascii import crc32

from gamelog.fmt import put_uv, uv_len   # LEB128 varints: one definition, the log's
from gamelog.chain import step

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

NCARDS = const(108)     # = uno.cards.NCARDS (a test keeps them equal)

# Batch flags (first byte); other bits must be 0, so a newer layout is refused, not misread.
B_MORE = const(1)       # records after these exist: ask again from the last seq + 1
B_REG = const(2)        # u32 LE registry fingerprint follows; card indices refer to it
B_CHAIN = const(4)      # every record carries its 4-byte chain tag after its time
B_HEAD = const(8)       # trailer: varint seq, 32-byte chain head after it, 32-byte mac
B_START = const(16)     # the chain head before the first record follows the count; no tags
_FLAGS = const(31)

# Record tag byte
T_KIND = const(7)       # bits 0-2: input kind 1..7; 0: an ext byte follows (gap, kinds 8..)
T_X = const(8)          # long press; rule: the value is an int
T_ABS = const(16)       # time is absolute (first record, clock change, time went back)
T_WALL = const(32)      # time is wall-clock seconds, else ms since boot
T_GAP = const(64)       # varint follows: seqs skipped - 1 (snapshots, pruned or salvaged)
T_WIDE = const(128)     # card read: a card index; press: the value as a zigzag varint

HDR = const(13)         # room kept for the header: flags, fingerprint, seq (<= 5), count (<= 3)
TRAILER = const(69)     # room for the head: seq (<= 5), head 32, mac 32
TAG = const(4)
MAXTEXT = const(255)

X_GAP = const(0)        # ext kind: seqs first..last are not in the log (cause byte follows)
IN_UNDO = const(8)      # ext kind: (8, n) takes back the last n inputs; payload varint n
IN_PLAYER = const(9)    # ext kind: (9, seat, name) a seat's player; payload seat byte, text
# gap causes on the wire (byte): index in this tuple; 0 for one this side does not know
CAUSES = ("other", "pruned", "damaged", "missing", "foreign", "order")

IN_SHOE = const(1)
IN_PAD = const(2)
IN_SEAT = const(3)
IN_COLOUR = const(4)
IN_SHUFFLE = const(5)
IN_TICK = const(6)
IN_RULE = const(7)

_SHUF = (IN_SHUFFLE,)


class CodecError(ValueError):
    pass


class RegistryMismatch(CodecError):
    """The batch names cards by index in a registry the decoder does not hold."""


def fingerprint(reg):
    """CRC-32 of the registry's 108 UIDs (length, bytes each): both ends compute the same."""
    c = 0
    for i in range(NCARDS):
        u = reg.uid(i)
        c = crc32(bytes((len(u),)), c)
        c = crc32(u, c)
    return c


def zz(v):
    return v << 1 if v >= 0 else ((-v) << 1) - 1


def unzz(v):
    return v >> 1 if not v & 1 else -((v + 1) >> 1)


def _int(v, what):
    if v is True or v is False:
        return int(v)
    if not isinstance(v, int):
        raise ValueError("%s must be an int" % what)
    return v


def _text(s, what):
    b = s.encode() if isinstance(s, str) else None
    if b is None or len(b) > MAXTEXT:
        raise ValueError("%s must be text of at most 255 bytes" % what)
    return b


class Encoder:
    """Fills one batch in a preallocated buffer; reuse it for batch after batch.

        e = Encoder(registry, 744)
        e.start(limit)               # limit: batch bytes wanted (<= size)
        while e.add(seq, t, wall, inp): ...   # False: that record did not fit, nothing written
        data = e.finish(more)        # a memoryview into the buffer, valid until start()
    """

    def __init__(self, registry=None, size=744):
        self.buf = bytearray(HDR + size)
        self.mv = memoryview(self.buf)
        self.size = size
        self.tab = bytearray(256)
        self.set_registry(registry)
        self.start()

    def set_registry(self, registry):
        self.reg = registry
        self.fp = 0
        if registry is None:
            return
        self.fp = fingerprint(registry)
        # UID -> card by open addressing on crc32 & 255: 256 bytes, 1-2 probes, instead of
        # Registry.card's scan of the whole deck (the sync's main cost on the hub).
        tab = self.tab
        tab[:] = bytes(256)
        for i in range(NCARDS):
            h = crc32(registry.uid(i)) & 0xFF
            while tab[h]:
                h = (h + 1) & 0xFF
            tab[h] = i + 1

    def card(self, u):
        """Card index of UID u in the registry, or -1."""
        tab = self.tab
        uid = self.reg.uid
        h = crc32(u) & 0xFF
        while True:
            c = tab[h]
            if not c:
                return -1
            if uid(c - 1) == u:
                return c - 1
            h = (h + 1) & 0xFF

    def start(self, limit=0, reserve=0):
        """A new batch of at most limit bytes (0: the buffer's size), reserve of them kept for
        finish()'s head."""
        self.lim = (min(limit, self.size) if limit > 0 else self.size) - reserve
        self.i = HDR
        self.n = 0              # entries: records and gaps
        self.nt = 0             # records (they carry a time)
        self.first = 0
        self.seq = 0            # the last seq the batch covers
        self.t = 0
        self.wall = False
        self.tick = 0
        self.k = False
        self.chain = None       # the batch carries tags: set by its first record
        self.sh = False         # the batch starts with the chain head (START)

    def _room(self, first, need):
        used = 1 + (4 if self.reg is not None else 0) + uv_len(first) + uv_len(self.n + 1)
        return used + self.i - HDR + need <= self.lim

    def fits(self, n):
        """Would n more bytes (the head, say) stay within the limit?"""
        return self._room(self.first if self.n else 1, n - uv_len(self.n + 1) + uv_len(self.n))

    def gap(self, first, last, cause):
        """Appends a gap entry (seqs first..last are not in the log) if it fits."""
        if not isinstance(first, int) or not isinstance(last, int) or not 1 <= first <= last:
            raise ValueError("a gap is first <= last, from 1")
        if self.n and first <= self.seq:
            raise ValueError("seqs must increase")
        skip = first - self.seq - 1 if self.n else 0
        c = 0
        for k in range(1, len(CAUSES)):
            if CAUSES[k] == cause:
                c = k
        need = 3 + uv_len(last - first) + (uv_len(skip - 1) if skip else 0)
        if not self._room(first if not self.n else self.first, need):
            return False
        b = self.buf
        i = self.i
        b[i] = T_GAP if skip else 0
        i += 1
        if skip:
            i = put_uv(b, i, skip - 1)
        b[i] = X_GAP
        i = put_uv(b, i + 1, last - first)
        b[i] = c
        if not self.n:
            self.first = first
        self.i = i + 1
        self.n += 1
        self.seq = last
        return True

    def add(self, seq, t, wall, inp, tag=None, start=None):
        """Appends one record if it fits in the limit; ValueError for a malformed one.
        tag: its 4-byte chain tag; every record of a batch has one or none has. start: the
        chain head before this record (32 bytes), only for a batch's first entry, whose records
        then carry no tags and no gap follows them."""
        b = self.buf
        wall = bool(wall)
        if not isinstance(seq, int) or not isinstance(t, int) or seq < 1 or t < 0:
            raise ValueError("seq must be >= 1 and time >= 0")
        if self.sh and self.nt < self.n:
            raise ValueError("no record after a gap in a batch with a chain start")
        if start is not None and (self.n or tag is not None or len(start) != 32):
            raise ValueError("a chain start is 32 bytes, before the first record, without tags")
        chain = tag is not None
        if self.chain is None:
            self.chain = chain
        elif chain != self.chain:
            raise ValueError("every record of a batch has a chain tag, or none has")
        if chain and len(tag) != TAG:
            raise ValueError("a chain tag is 4 bytes")
        kind = inp[0]
        tag8 = kind if kind < 8 else 0
        if self.n and seq <= self.seq:
            raise ValueError("seqs must increase")
        gap = seq - self.seq - 1 if self.n else 0
        first = self.first if self.n else seq
        if self.nt and t >= self.t and wall == self.wall:
            tv = t - self.t
        else:
            tag8 |= T_ABS
            tv = t
        if wall:
            tag8 |= T_WALL
        need = 1 + uv_len(tv) + (TAG if chain else 0) + (32 if start else 0)
        if gap:
            tag8 |= T_GAP
            need += uv_len(gap - 1)
        a = None            # payload: bytes to copy, or an int as varint / byte
        av = -1
        tick = self.tick
        if kind == IN_SHOE or kind == IN_PAD:
            u = inp[1]
            if not isinstance(u, (bytes, bytearray)) or len(u) > MAXTEXT:
                raise ValueError("a uid is bytes, at most 255")
            c = self.card(u) if self.reg is not None else -1
            if c >= 0:
                tag8 |= T_WIDE
                av = c
                need += 1
            else:
                a = u
                need += 1 + len(u)
        elif kind == IN_SEAT or kind == IN_COLOUR:
            v = _int(inp[1], "seat/colour")
            if len(inp) > 2 and inp[2]:
                tag8 |= T_X
            if 0 <= v <= 255:
                av = v
                need += 1
            else:
                tag8 |= T_WIDE
                v = zz(v)
                need += uv_len(v)
        elif kind == IN_SHUFFLE:
            pass
        elif kind == IN_TICK:
            ms = _int(inp[1], "tick ms")
            v = zz(ms - tick)
            tick = ms
            need += uv_len(v)
        elif kind == IN_RULE:
            name = _text(inp[1], "rule name")
            val = inp[2]
            if isinstance(val, str):
                a = _text(val, "rule value")
                need += 2 + len(name) + len(a)
            else:
                tag8 |= T_X
                v = zz(_int(val, "rule value"))
                need += 1 + len(name) + uv_len(v)
        elif kind == IN_UNDO:
            v = _int(inp[1] if len(inp) > 1 else None, "undo n")
            if v < 0:
                raise ValueError("undo n must be >= 0")
            need += 1 + uv_len(v)
        elif kind == IN_PLAYER:
            if len(inp) != 3:
                raise ValueError("a player is a seat and a name")
            av = _int(inp[1], "seat")
            if not 0 <= av <= 255:
                raise ValueError("a player's seat is 0..255")
            a = _text(inp[2], "player name")
            need += 3 + len(a)
        else:
            raise ValueError("unknown input kind %r" % (kind,))
        if not self._room(first, need):
            return False
        i = self.i
        if start:
            self.mv[i:i + 32] = start
            i += 32
            self.sh = True
        b[i] = tag8
        i += 1
        if gap:
            i = put_uv(b, i, gap - 1)
        if kind >= 8:
            b[i] = kind
            i += 1
        i = put_uv(b, i, tv)
        if chain:
            self.mv[i:i + TAG] = tag
            i += TAG
        if kind == IN_SHOE or kind == IN_PAD:
            if a is None:
                b[i] = av
                i += 1
                self.k = True
            else:
                n = len(a)
                b[i] = n
                self.mv[i + 1:i + 1 + n] = a
                i += 1 + n
        elif kind == IN_SEAT or kind == IN_COLOUR:
            if av >= 0:
                b[i] = av
                i += 1
            else:
                i = put_uv(b, i, v)
        elif kind == IN_TICK or kind == IN_UNDO:
            i = put_uv(b, i, v)
        elif kind == IN_RULE:
            n = len(name)
            b[i] = n
            self.mv[i + 1:i + 1 + n] = name
            i += 1 + n
            if a is None:
                i = put_uv(b, i, v)
            else:
                n = len(a)
                b[i] = n
                self.mv[i + 1:i + 1 + n] = a
                i += 1 + n
        elif kind == IN_PLAYER:
            n = len(a)
            b[i] = av
            b[i + 1] = n
            self.mv[i + 2:i + 2 + n] = a
            i += 2 + n
        if not self.n:
            self.first = seq
        self.i = i
        self.n += 1
        self.nt += 1
        self.seq = seq
        self.t = t
        self.wall = wall
        self.tick = tick
        return True

    def finish(self, more=False, head=None):
        """The batch (header + entries [+ head]) as a memoryview into the buffer.
        head: (seq, head 32 bytes, mac 32 bytes), the chain after the log's last input."""
        b = self.buf
        h = 1 + (4 if self.k else 0) + uv_len(self.first) + uv_len(self.n)
        j = HDR - h
        b[j] = ((B_MORE if more else 0) | (B_REG if self.k else 0) |
                (B_CHAIN if self.chain else 0) | (B_HEAD if head else 0) |
                (B_START if self.sh else 0))
        p = j + 1
        if self.k:
            fp = self.fp
            for _ in range(4):
                b[p] = fp & 0xFF
                fp >>= 8
                p += 1
        put_uv(b, put_uv(b, p, self.first), self.n)
        i = self.i
        if head:
            if len(head[1]) != 32 or len(head[2]) != 32 or i + TRAILER > len(b):
                raise ValueError("a head is a seq, 32 bytes and a 32-byte mac")
            i = put_uv(b, i, head[0])
            self.mv[i:i + 32] = head[1]
            self.mv[i + 32:i + 64] = head[2]
            i += 64
        return self.mv[j:i]


def encode(records, registry=None, more=False, head=None, start=None):
    """records: [(seq, t, wall, inp[, tag]) or (first, last, cause), ...] -> bytes of one
    batch (no size limit). start: the chain head before the first (then no tags)."""
    size = 96 + TRAILER
    for r in records:
        if len(r) == 3:
            size += 16
            continue
        size += 32 + (len(r[3][1]) if r[3][0] in (IN_SHOE, IN_PAD) else 0)
        if r[3][0] == IN_RULE or r[3][0] == IN_PLAYER:
            size += 2 * MAXTEXT
    e = Encoder(registry, size)
    for r in records:
        if not (e.gap(r[0], r[1], r[2]) if len(r) == 3 else
                e.add(r[0], r[1], r[2], r[3], r[4] if len(r) > 4 else None, start)):
            raise ValueError("batch overflow")
        start = None
    return bytes(e.finish(more, head))


class _Rd:
    # Cursor over a batch; every read checks the end so a truncated batch is an error.
    def __init__(self, b):
        self.b = b
        self.i = 0

    def byte(self):
        i = self.i
        if i >= len(self.b):
            raise CodecError("batch truncated")
        self.i = i + 1
        return self.b[i]

    def uv(self):
        v = 0
        sh = 0
        while True:
            c = self.byte()
            v |= (c & 0x7F) << sh
            if not c & 0x80:
                return v
            sh += 7
            if sh > 63:
                raise CodecError("varint too long")

    def take(self, n):
        i = self.i
        if i + n > len(self.b):
            raise CodecError("batch truncated")
        self.i = i + n
        return bytes(self.b[i:i + n])

    def text(self):
        try:
            return str(self.take(self.byte()), "utf-8")
        except UnicodeError:
            raise CodecError("text not UTF-8")


def decode(data, registry=None):
    """A batch -> (entries, more, head). entries: (seq, t, wall, inp, tag) per record (tag is
    None in a batch without chain tags) and (first, last, cause) per gap; head: (seq, head,
    mac) or None. CodecError if damaged; RegistryMismatch if it names cards by index and
    `registry` (an object with .uid(i)) is not the hub's. In a batch with a chain start the
    tags are worked out here (chain_start(data) gives the head they start from)."""
    r = _Rd(data)
    fl, fp, seq, count, h = _header(r)
    chain = fl & B_CHAIN
    out = []  # type: list
    t = 0
    tick = 0
    timed = False
    checked = False
    n = len(data)
    while len(out) < count:
        tag = r.byte()
        kind = tag & T_KIND
        if out:
            seq += 1
            if tag & T_GAP:
                seq += r.uv() + 1
        elif tag & T_GAP:
            raise CodecError("the first entry cannot skip seqs")
        if not kind:
            kind = r.byte()
            if kind == X_GAP:
                if fl & B_START:
                    if not out:
                        raise CodecError("a chain start before a gap")
                    h = None            # the chain cannot be followed past a gap
                span = r.uv()
                c = r.byte()
                out.append((seq, seq + span, CAUSES[c] if c < len(CAUSES) else CAUSES[0]))
                seq += span
                continue
            if kind != IN_UNDO and kind != IN_PLAYER:
                raise CodecError("unknown input kind %d" % kind)
        if not timed and not tag & T_ABS:
            raise CodecError("first record must carry an absolute time")
        timed = True
        v = r.uv()
        t = v if tag & T_ABS else t + v
        tg = r.take(TAG) if chain else None
        inp = _SHUF  # type: tuple
        if kind == IN_SHOE or kind == IN_PAD:
            if tag & T_WIDE:
                c = r.byte()
                if not checked:
                    if fp < 0:
                        raise CodecError("card index without a registry fingerprint")
                    if registry is None or fingerprint(registry) != fp:
                        raise RegistryMismatch("the batch refers to the hub's deck registry "
                                               "(%08x); fetch it" % fp)
                    checked = True
                if c >= NCARDS:
                    raise CodecError("card index %d" % c)
                inp = (kind, bytes(registry.uid(c)))
            else:
                inp = (kind, r.take(r.byte()))
        elif kind == IN_SEAT or kind == IN_COLOUR:
            a = unzz(r.uv()) if tag & T_WIDE else r.byte()
            inp = (kind, a, 1 if tag & T_X else 0)
        elif kind == IN_SHUFFLE:
            pass
        elif kind == IN_TICK:
            tick += unzz(r.uv())
            inp = (IN_TICK, tick)
        elif kind == IN_RULE:
            name = r.text()
            inp = (IN_RULE, name, unzz(r.uv()) if tag & T_X else r.text())
        elif kind == IN_UNDO:
            inp = (IN_UNDO, r.uv())
        elif kind == IN_PLAYER:
            s = r.byte()
            inp = (IN_PLAYER, s, r.text())
        if fl & B_START:
            if h is None:
                raise CodecError("a record after a gap in a batch with a chain start")
            try:
                h = step(h, seq, t, bool(tag & T_WALL), inp)
            except (ValueError, TypeError, OverflowError):  # struct.error is a ValueError
                raise CodecError("the input at seq %d cannot be chained" % seq)
            tg = h[:TAG]
        out.append((seq, t, bool(tag & T_WALL), inp, tg))
    head = None
    if fl & B_HEAD:
        hs = r.uv()
        head = (hs, r.take(32), r.take(32))
    if r.i != n:
        raise CodecError("%d bytes after the last entry" % (n - r.i))
    return out, bool(fl & B_MORE), head


def _header(r):
    # flags, fingerprint (-1: none), first seq, count, chain start (None: none)
    fl = r.byte()
    if fl & ~_FLAGS:
        raise CodecError("unknown batch flags %02x" % fl)
    fp = -1
    if fl & B_REG:
        fp = 0
        for k in range(4):
            fp |= r.byte() << (8 * k)
    seq = r.uv()
    count = r.uv()
    h = None
    if fl & B_START:
        if fl & B_CHAIN or not count:
            raise CodecError("a chain start with tags or without records")
        h = r.take(32)
    return fl, fp, seq, count, h


def chain_start(data):
    """The chain head before a batch's first record if the batch carries it, else None."""
    return _header(_Rd(data))[4]
