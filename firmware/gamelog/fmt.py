"""On-flash format of the game log: segment header, records, and a reader (docs/log.md).

Shared by the hub and the host (which can parse a segment file pulled off the board as is).
"""
import struct
from binascii import crc32

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

VERSION = const(1)
HDR = const(12)         # segment header: b"UL", version, 0, base seq u32, crc32 of the first 8
WIN = const(256)        # reader window; every input record fits, big blobs are read apart

# Record types as the API names them (Reader.rtype, Log.read_from).
INPUT = const(1)        # on flash the type nibble is the input kind itself (1..7)
SNAP = const(8)         # round-boundary snapshot; always the first record of its segment
OUTCOME = const(9)      # outcome digest; 10..15 are free for other opaque records

# Input kinds: the same numbers as uno.events.IN_* (a test keeps them equal).
IN_SHOE = const(1)
IN_PAD = const(2)
IN_SEAT = const(3)
IN_COLOUR = const(4)
IN_SHUFFLE = const(5)
IN_TICK = const(6)
IN_RULE = const(7)      # a rule setting from the host: "name=value" as text

# High bits of the type byte.
F_ABS = const(0x10)     # time is absolute; else a delta from the previous record of the segment
F_WALL = const(0x20)    # time is wall-clock seconds (host set the clock); else ms since boot
F_X = const(0x40)       # long press (seat, colour) / text payload (snapshot, opaque)
F_RSV = const(0x80)     # always 0: lets an erased 0xFF byte fail fast

MAXUID = const(16)
MAXBLOB = const(0x1FFF00)  # blob payload: its length stays a 3-byte varint
MAXT = const(49)        # times and tick ms < 2**49, so a varint never passes 7 bytes
MAXIN = const(40)       # body bound of an input record (type+time+payload); larger => damage
MINREC = const(7)       # smallest record: len, type, 1-byte time, crc
TAIL_MAX = const(48)    # damage within the last this-many bytes, nothing intact after: torn tail
PROBE_K = const(4)      # successor probe tries seq+1..seq+PROBE_K

# Reader.next() / start() results
OK = const(0)
END = const(1)
TORN = const(2)         # the record runs past the end of the file
BAD = const(3)          # a whole record that fails its CRC or makes no sense

_SHUF = (IN_SHUFFLE,)


def put_uv(b, i, v):
    """LEB128 varint at b[i]; returns the index after it."""
    while v > 0x7F:
        b[i] = (v & 0x7F) | 0x80
        v >>= 7
        i += 1
    b[i] = v
    return i + 1


def uv_len(v):
    n = 1
    while v > 0x7F:
        v >>= 7
        n += 1
    return n


def check_t(t):
    if t < 0 or t >> MAXT:
        raise ValueError("time out of range")


def header(b, base):
    """Segment header for base seq into bytearray b (HDR bytes)."""
    b[0] = 0x55
    b[1] = 0x4C
    b[2] = VERSION
    b[3] = 0
    struct.pack_into("<I", b, 4, base)
    struct.pack_into("<I", b, 8, crc32(memoryview(b)[0:8]))
    return b


def enc_input(b, mv, seq, inp, fl, tv):
    """Encode input record at b[4:] (b[0:4] holds the seq the CRC binds); returns its end index.

    fl: F_ABS/F_WALL bits, tv: the time field. Raises ValueError for a malformed input.
    """
    k = inp[0]
    i = put_uv(b, 6, tv)
    if k == IN_SHOE or k == IN_PAD:
        u = inp[1]
        n = len(u)
        if not 0 < n <= MAXUID:
            raise ValueError("uid must be 1..16 bytes")
        b[i:i + n] = u
        i += n
    elif k == IN_SEAT or k == IN_COLOUR:
        a = inp[1]
        if not 0 <= a <= 255:
            raise ValueError("seat/colour out of range")
        b[i] = a
        i += 1
        if len(inp) > 2 and inp[2]:
            fl |= F_X
    elif k == IN_SHUFFLE:
        pass
    elif k == IN_TICK:
        a = inp[1]
        if a < 0 or a >> MAXT:
            raise ValueError("tick ms out of range")
        i = put_uv(b, i, a)
    elif k == IN_RULE:
        text = ("%s=%s" % (inp[1], inp[2])).encode()
        n = len(text)
        if n > MAXIN - 8:
            raise ValueError("rule too long")
        b[i:i + n] = text
        i += n
    else:
        raise ValueError("unknown input kind %r" % (k,))
    b[4] = i - 5               # body < 128: one length byte
    b[5] = k | fl
    struct.pack_into("<I", b, 0, seq)
    struct.pack_into("<I", b, i, crc32(mv[0:i]))
    return i + 4


def enc_head(b, seq, ty, tv, n):
    """Seq, length, type and time of a blob record of n payload bytes at b; returns head end."""
    struct.pack_into("<I", b, 0, seq)
    i = put_uv(b, 4, 1 + uv_len(tv) + n)
    b[i] = ty
    return put_uv(b, i + 1, tv)


class Reader:
    """Walks the records of one segment file, verifying each; keeps the fields of the last one.

    After next() == OK: seq, rtype, t, wall, data of that record, off = end of good data,
    n = records read. Otherwise off = start of the failing record and nseq its seq.
    """

    def __init__(self):
        self.w = bytearray(WIN)
        self.mv = memoryview(self.w)
        self.sb = bytearray(4)
        self.cb = bytearray(4)
        self.p = 0
        self.f = None

    def start(self, f, base):
        """Check the header of segment file f (base seq `base`): OK, TORN (short) or BAD."""
        self.f = f
        self.lo = self.hi = self.off = 0
        self.nseq = base          # seq the next record must carry
        self.seq = base - 1
        self.n = 0
        self.t = 0
        self.wall = False
        self.claim = -1
        if self._need(HDR) < HDR:
            return TORN
        w = self.w
        if (w[0] != 0x55 or w[1] != 0x4C or w[2] != VERSION
                or struct.unpack_from("<I", w, 4)[0] != base
                or crc32(self.mv[0:8]) != struct.unpack_from("<I", w, 8)[0]):
            return BAD
        self.lo = self.off = HDR
        return OK

    def _need(self, n):
        # Make n bytes contiguous in the window (fewer only at end of file).
        have = self.hi - self.lo
        if have >= n:
            return have
        w = self.w
        if self.lo:
            w[0:have] = w[self.lo:self.hi]
            self.lo = 0
            self.hi = have
        while self.hi < n:
            k = self.f.readinto(self.mv[self.hi:])
            if not k:
                break
            self.hi += k
        return self.hi - self.lo

    def _crc_ok(self, mv, i, m):
        # CRC of seq u32 || mv[i:i+m], against the 4 bytes after it.
        struct.pack_into("<I", self.sb, 0, self.nseq)
        c = crc32(mv[i:i + m], crc32(self.sb))
        return c == struct.unpack_from("<I", mv, i + m)[0]

    def next(self):
        have = self._need(4)
        if not have:
            return END
        w = self.w
        lo = self.lo
        self.claim = -1
        i = lo
        L = 0
        sh = 0
        while True:                       # length varint, at most 3 bytes
            if i - lo == 3:
                return BAD
            if i - lo == have:
                return TORN
            c = w[i]
            i += 1
            L |= (c & 0x7F) << sh
            sh += 7
            if not c & 0x80:
                break
        ll = i - lo
        total = ll + L + 4
        self.claim = self.off + total
        if L < 2:
            return BAD
        if have > ll:                     # type byte here: reject nonsense before reading on
            ty = w[i]
            nib = ty & 15
            if ty & F_RSV or nib == 0 or (nib <= IN_RULE and L > MAXIN):
                return BAD
        if total > WIN:
            st = self._big(ll, total)
        elif self._need(total) < total:
            return TORN
        else:
            lo = self.lo
            mv = self.mv
            st = self._crc_ok(mv, lo, ll + L) and self._decode(w, mv, lo + ll, lo + ll + L)
            self.lo = lo + total
        if st is not True:                # TORN/BAD from _big, or a failed check
            return st or BAD
        self.off += total
        self.seq = self.nseq
        self.nseq += 1
        self.n += 1
        return OK

    def _uv(self, b, p, e):
        # Varint at b[p:e]: value, end index in self.p; -1 if it runs out or is too long.
        v = 0
        sh = 0
        while True:
            if p >= e or sh > MAXT:
                return -1
            c = b[p]
            p += 1
            v |= (c & 0x7F) << sh
            sh += 7
            if not c & 0x80:
                self.p = p
                return v

    def _time(self, ty, v):
        # Absolute or delta time of a record; False if a delta has nothing to count from.
        wall = ty & F_WALL != 0
        if v < 0:
            return False
        if not ty & F_ABS:
            if not self.n or wall != self.wall:
                return False
            v += self.t
        self.t = v
        self.wall = wall
        self.rtype = INPUT if ty & 15 <= IN_RULE else ty & 15
        return True

    def _decode(self, b, mv, p, e):
        ty = b[p]
        nib = ty & 15
        v = self._uv(b, p + 1, e)
        p = self.p
        n = e - p
        if v < 0:
            return False
        if nib == IN_SHOE or nib == IN_PAD:
            if not 0 < n <= MAXUID:
                return False
            d = (nib, bytes(mv[p:e]))
        elif nib == IN_SEAT or nib == IN_COLOUR:
            if n != 1:
                return False
            d = (nib, b[p], 1 if ty & F_X else 0)
        elif nib == IN_SHUFFLE:
            if n:
                return False
            d = _SHUF
        elif nib == IN_TICK:
            a = self._uv(b, p, e)
            if a < 0 or self.p != e:
                return False
            d = (IN_TICK, a)
        elif nib == IN_RULE:
            text = bytes(mv[p:e]).decode()
            name, eq, val = text.partition("=")
            if not eq:
                return False
            # ASCII digits only (CPython's isdigit takes other scripts'): replay as the table
            d = (IN_RULE, name, int(val) if val.isdigit() and len(val.encode()) == len(val) else val)
        else:
            d = bytes(mv[p:e])
            if ty & F_X:
                d = d.decode()
        self.data = d
        return self._time(ty, v)

    def _big(self, ll, total):
        # A blob bigger than the window (snapshot): its payload is read straight into one
        # buffer of its own size, the only allocation, so a 2 KB snapshot costs 2 KB.
        w = self.w
        have = self._need(ll + 12)
        lo = self.lo
        if have < ll + 12:
            return TORN
        ty = w[lo + ll]
        v = self._uv(w, lo + ll + 1, lo + ll + 12)
        if v < 0 or ty & 15 <= IN_TICK:
            return BAD
        p = self.p
        n = total - (p - lo) - 4
        data = bytearray(n)
        dv = memoryview(data)
        k = min(n, self.hi - p)
        data[0:k] = w[p:p + k]
        cb = self.cb
        r = self.hi - p - k               # crc bytes already in the window (0..3)
        cb[0:r] = w[p + k:self.hi]
        self.lo = self.hi = 0
        f = self.f
        while k < n:
            m = f.readinto(dv[k:])
            if not m:
                return TORN
            k += m
        while r < 4:
            m = f.readinto(memoryview(cb)[r:])
            if not m:
                return TORN
            r += m
        struct.pack_into("<I", self.sb, 0, self.nseq)
        c = crc32(data, crc32(self.mv[lo:p], crc32(self.sb)))
        if c != struct.unpack_from("<I", cb, 0)[0]:
            return BAD
        self.data = str(data, "utf-8") if ty & F_X else data
        return self._time(ty, v)

    def probe(self, start, size):
        """True if an intact record of seq nseq+1..nseq+PROBE_K starts after `start`.

        That proves the damage at `start` is not a torn tail. Only records up to WIN-MAXIN
        bytes are looked for (inputs and small digests); the file is read in windows.
        """
        f = self.f
        w = self.w
        mv = self.mv
        sb = self.sb
        step = WIN - MAXIN - 8
        q = start + 1
        while q <= size - MINREC:
            f.seek(q)
            n = 0
            while n < WIN:
                r = f.readinto(mv[n:])
                if not r:
                    break
                n += r
            for i in range(min(step, n - MINREC + 1)):
                L = w[i]
                ll = 1
                if L & 0x80:              # a two-byte length (short digests only)
                    if w[i + 1] & 0x80:
                        continue
                    L = (L & 0x7F) | (w[i + 1] << 7)
                    ll = 2
                if L < 2 or i + ll + L + 4 > n:
                    continue
                ty = w[i + ll]
                if ty & F_RSV or ty & 15 == 0 or ty & 15 == 7:
                    continue
                e = i + ll + L
                got = struct.unpack_from("<I", w, e)[0]
                for s in range(self.nseq + 1, self.nseq + 1 + PROBE_K):
                    struct.pack_into("<I", sb, 0, s)
                    if crc32(mv[i:e], crc32(sb)) == got:
                        return True
            q += step
        return False
