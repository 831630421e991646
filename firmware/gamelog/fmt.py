"""On-flash format of the game log: segment header, records, and a reader (docs/log.md).

Pure format: no files are named here. The reader takes any object with readinto(), so the host
can parse a segment file pulled off the board as is, and another storage can reuse it.
Every record is self-contained given its segment header (seq base, time base, chain head):
a damaged record never makes the intact ones after it unreadable.
"""
import hashlib
import struct
from binascii import crc32

from gamelog.chain import canon_into, CANON_MAX

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

VERSION = const(2)
HDR = const(60)         # b"UL", version, flags, base u32, t0 u64, table id 8, head 32, crc32
WIN = const(256)        # reader window; every input record fits, big blobs are read apart

# Record types as the API names them (Reader.rtype, Log.read_from).
INPUT = const(1)        # on flash the type nibble is the input kind (1..7; 10 for kind 8)
SNAP = const(8)         # round-boundary snapshot; always the first record of its segment
OUTCOME = const(9)      # outcome digest; 11..14 are free for other opaque records
N_UNDO = const(10)      # type nibble of input kind 8 (take-back)
N_PLAYER = const(15)    # type nibble of input kind 9 (a seat's player named by the host)

# Input kinds: the same numbers as uno.events.IN_* (a test keeps them equal).
IN_SHOE = const(1)
IN_PAD = const(2)
IN_SEAT = const(3)
IN_COLOUR = const(4)
IN_SHUFFLE = const(5)
IN_TICK = const(6)
IN_RULE = const(7)      # a rule setting from the host: "name=value" as text
IN_UNDO = const(8)      # take back the last n inputs of the round
IN_PLAYER = const(9)    # the host names a seat's player: seat, then the name as text

# Type byte: bits 0-3 the nibble; bits 4-5 a UID's length code (0: a length byte follows,
# 1: 4 bytes, 2: 7, 3: 10), else 0; bit 6 X; bit 7 always 0 (an erased 0xFF byte fails fast).
F_X = const(0x40)       # long press (seat, colour) / text payload (blobs)
F_RSV = const(0x80)
H_WALL = const(1)       # header flags: times are wall-clock seconds, else ms since boot

MAXBLOB = const(0x1FFF00)  # blob payload: its length stays a 3-byte varint
MAXT = const(49)        # times and tick ms < 2**49
TOFF = const(21)        # a record's time is t - t0 < 2**21 (3 varint bytes) or a new segment
MAXIN = const(43)       # the largest input record (a 32-byte rule)
MINREC = const(7)       # the smallest record (an empty blob)
TRAIL_IN = const(6)     # tag4 + crc16 after an input record

# Reader.start() / next() results
OK = const(0)
END = const(1)
BAD = const(3)          # a damaged record or header
FOREIGN = const(4)      # an intact header of another table
ORDER = const(5)        # an intact header whose base is not the one expected

_ULEN = (0, 4, 7, 10)
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


def header(b, base, t0, wall, tid, head):
    """Segment header into bytearray b (HDR bytes): base seq, time base, table id, chain head."""
    b[0] = 0x55
    b[1] = 0x4C
    b[2] = VERSION
    b[3] = H_WALL if wall else 0
    struct.pack_into("<IQ", b, 4, base, t0)
    b[16:24] = tid
    b[24:56] = head
    struct.pack_into("<I", b, 56, crc32(memoryview(b)[0:56]))
    return b


def parse_header(w):
    """(base, t0, wall, tid, head) of an intact header in w[0:HDR], else None."""
    if (w[0] != 0x55 or w[1] != 0x4C or w[2] != VERSION or w[3] & ~H_WALL
            or crc32(memoryview(w)[0:56]) != struct.unpack_from("<I", w, 56)[0]):
        return None
    base, t0 = struct.unpack_from("<IQ", w, 4)
    return base, t0, w[3] & H_WALL != 0, bytes(w[16:24]), bytes(w[24:56])


def _crc(mv, seq, sb):
    # CRC-32 of the record's bytes then its seq (u32 LE): a record read at the wrong place
    # (a missing or repeated one) fails like a damaged one. The seq goes last, so a reader
    # looking for the seq of a record after damage hashes the record once.
    struct.pack_into("<I", sb, 0, seq)
    return crc32(sb, crc32(mv))


def enc_input(b, inp, dt):
    """Encode input record into bytearray b (tag and crc left to put_trail); returns its body
    end. dt: t - t0 of the segment. The input is valid: chain.canon_into checked it first."""
    k = inp[0]
    ty = k
    i = put_uv(b, 1, dt)
    if k == IN_SHOE or k == IN_PAD:
        u = inp[1]
        n = len(u)
        c = _ULEN.index(n) if n in _ULEN else 0
        if c:
            ty |= c << 4
        else:
            b[i] = n
            i += 1
        b[i:i + n] = u
        i += n
    elif k == IN_SEAT or k == IN_COLOUR:
        b[i] = inp[1]
        i += 1
        if len(inp) > 2 and inp[2]:
            ty |= F_X
    elif k == IN_TICK or k == IN_UNDO:
        i = put_uv(b, i, inp[1])
        if k == IN_UNDO:
            ty = N_UNDO
    elif k == IN_RULE:
        text = ("%s=%s" % (inp[1], inp[2])).encode()
        n = len(text)
        b[i] = n
        b[i + 1:i + 1 + n] = text
        i += 1 + n
    elif k == IN_PLAYER:
        ty = N_PLAYER
        text = inp[2].encode()
        n = len(text)
        b[i] = inp[1]
        b[i + 1] = n
        b[i + 2:i + 2 + n] = text
        i += 2 + n
    b[0] = ty
    return i


def put_trail(b, mv, i, seq, h, sb):
    """Tag (h[:4]) and crc16 after an input record's body b[0:i]; returns the record's end."""
    b[i:i + 4] = h[0:4]
    struct.pack_into("<H", b, i + 4, _crc(mv[0:i + 4], seq, sb) & 0xFFFF)
    return i + TRAIL_IN


def enc_head(b, ty, dt, n):
    """Type, length and time of a blob record of n payload bytes at b; returns head end."""
    b[0] = ty
    return put_uv(b, put_uv(b, 1, n), dt)


class Reader:
    """Walks the records of one segment file, verifying each; keeps the fields of the last one.

    start() reads the header; next() == OK: seq, rtype, t, wall, data, tag of a record, off =
    its end. BAD: off = where the damage starts, nseq = the seq it should have had; resync()
    then finds the next intact record. h is the chain head after the last input read; known
    says whether it is the table's (False after a gap: then tags are not checked).
    """

    def __init__(self):
        self.w = bytearray(WIN)
        self.mv = memoryview(self.w)
        self.sb = bytearray(4)
        self.cb = bytearray(4)
        self.cz = bytearray(CANON_MAX)
        self.czv = memoryview(self.cz)
        self.f = None
        self.h = b""
        self.keep = True    # False: a blob bigger than the window is checked, not kept (_big)

    def start(self, f, base, tid=None):
        """Check the header of segment file f named `base`: OK, BAD, FOREIGN or ORDER."""
        self.f = f
        self.lo = self.hi = self.off = 0
        self.n = 0
        if self._need(HDR) < HDR:
            return BAD
        hd = parse_header(self.w)
        if hd is None:
            hd = self._mend()
        if hd is None:
            return BAD
        self.base, self.t0, self.wall, self.tid, h = hd
        self.h = h
        self.known = True
        self.lo = self.off = HDR
        self.nseq = self.base
        if tid is not None and self.tid != tid:
            return FOREIGN
        if self.base != base:
            return ORDER
        return OK

    def place(self, m):
        """Where the next record begins, into m[1:5] (offset, seq, chain head, head known):
        goto(m) goes on from there later, in the same segment, once start() has read it."""
        m[1] = self.off
        m[2] = self.nseq
        m[3] = self.h
        m[4] = self.known

    def goto(self, m):
        """Go on from a place() of this segment instead of walking to it."""
        self.f.seek(m[1])
        self.lo = self.hi = 0
        self.off = m[1]
        self.nseq = m[2]
        self.h = m[3]
        self.known = m[4]

    def _mend(self):
        # One flipped bit in a header (a CRC-32 tells which): put it back rather than lose the
        # segment, whose records need the header's seq, time base and head.
        w = self.w
        for i in range(HDR):
            for k in range(8):
                w[i] ^= 1 << k
                hd = parse_header(w)
                w[i] ^= 1 << k
                if hd is not None:
                    return hd
        return None

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

    def next(self):
        have = self._need(MAXIN + 16)
        if not have:
            return END
        lo = self.lo
        r = self._try(lo, have, self.nseq, self.known)
        if r == -2:                        # a blob that fits the window: read all of it
            have = self._need(WIN)
            lo = self.lo
            r = self._try(lo, have, self.nseq, self.known)
        if r == -1:                        # a blob bigger than the window
            r = self._big()
            if r == OK:
                self._ok(self._bp + self._bn + 4)
            return r
        if r <= 0:
            # On NOR the end of what was written is erased bytes (0xFF): a storage that knows
            # where they begin says so (f.clean); a record may itself end in 0xFF bytes.
            c = getattr(self.f, "clean", -1)
            if 0 <= c <= self.off:
                return END
            return BAD
        self._ok(r)
        self.lo = lo + r
        return OK

    def _ok(self, total):
        self.off += total
        self.seq = self.nseq
        self.nseq += 1
        self.n += 1
        self.t = self._t
        self.rtype = self._rt
        self.data = self._d
        self.tag = self._tag
        if self._rt == INPUT:
            self.h = self._h

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

    def _try(self, lo, have, seq, known):
        """Parse and verify the record at w[lo:lo+have] as seq: its length; 0 if it fails;
        -1 for a blob bigger than the window (read by _big)."""
        w = self.w
        e = lo + have
        ty = w[lo]
        nib = ty & 15
        if ty & F_RSV or nib == 0:
            return 0
        if nib <= IN_RULE or nib == N_UNDO or nib == N_PLAYER:
            dt = self._uv(w, lo + 1, e)
            if dt < 0 or dt >> TOFF:
                return 0
            p = self.p
            uc = (ty >> 4) & 3
            if uc and nib != IN_SHOE and nib != IN_PAD:
                return 0
            if nib == IN_SHOE or nib == IN_PAD:
                n = _ULEN[uc]
                if not n:
                    if p >= e:
                        return 0
                    n = w[p]
                    p += 1
                    if n in _ULEN:            # a length with a code has one form
                        return 0
                q = p + n
                if q > e:
                    return 0
                d = (nib, bytes(w[p:q]))
            elif nib == IN_SEAT or nib == IN_COLOUR:
                q = p + 1
                if q > e:
                    return 0
                d = (nib, w[p], 1 if ty & F_X else 0)
            elif nib == IN_SHUFFLE:
                q = p
                d = _SHUF
            elif nib == IN_RULE:
                if p >= e:
                    return 0
                q = p + 1 + w[p]
                if q > e:
                    return 0
                try:
                    text = bytes(w[p + 1:q]).decode()
                except Exception:         # UnicodeError (CPython), a ValueError elsewhere
                    return 0
                name, eq, val = text.partition("=")
                if not eq:
                    return 0
                d = (IN_RULE, name, int(val) if val and _digits(val) else val)
            elif nib == N_PLAYER:
                q = p + 2
                if q > e:
                    return 0
                q += w[p + 1]
                if q > e:
                    return 0
                try:
                    d = (IN_PLAYER, w[p], bytes(w[p + 2:q]).decode())
                except Exception:         # UnicodeError (CPython), a ValueError elsewhere
                    return 0
            else:                         # tick, take-back: one varint
                a = self._uv(w, p, e)
                if a < 0:
                    return 0
                q = self.p
                d = (IN_UNDO if nib == N_UNDO else IN_TICK, a)
            if ty & F_X and nib != IN_SEAT and nib != IN_COLOUR:
                return 0
            total = q - lo + TRAIL_IN
            if total > have:
                return 0
            mv = self.mv
            if _crc(mv[lo:q + 4], seq, self.sb) & 0xFFFF != struct.unpack_from("<H", w, q + 4)[0]:
                return 0
            t = self.t0 + dt
            cz = self.cz
            try:
                k = canon_into(cz, seq, t, self.wall, d)
            except Exception:
                return 0
            s = hashlib.sha256(self.h)
            s.update(self.czv[0:k])
            h = s.digest()
            tag = bytes(w[q:q + 4])
            if known and h[0:4] != tag:
                return 0
            self._h = h
            self._tag = tag
            self._t = t
            self._rt = INPUT
            self._d = d
            return total
        if ty & 0x30:                     # blob: no UID code
            return 0
        n = self._uv(w, lo + 1, e)
        if n < 0 or n > MAXBLOB:
            return 0
        dt = self._uv(w, self.p, e)
        if dt < 0 or dt >> TOFF:
            return 0
        p = self.p
        total = p - lo + n + 4
        if total > WIN:
            self._bn = n
            self._bp = p - lo
            self._bdt = dt
            return -1
        if total > have:
            return -2
        if _crc(self.mv[lo:p + n], seq, self.sb) != struct.unpack_from("<I", w, p + n)[0]:
            return 0
        d = bytes(w[p:p + n])
        if ty & F_X:
            try:
                d = d.decode()
            except Exception:
                return 0
        self._t = self.t0 + dt
        self._rt = nib
        self._d = d
        self._tag = None
        return total

    def _big(self):
        # A blob bigger than the window (a snapshot): its payload is read straight into one
        # buffer of its own size, the only allocation, so a 2 KB snapshot costs 2 KB. Not kept
        # (keep False: a log finding its place again, Log._resync): checked through the window,
        # with nothing allocated, so that a heap with no run of that size (the snapshot's own
        # write may just have failed for want of one) cannot stop the appends that follow.
        w = self.w
        lo = self.lo
        n = self._bn
        ty = w[lo]
        p = lo + self._bp
        keep = self.keep
        data = bytearray(n) if keep else None   # MemoryError is no damage: it reaches the caller
        k = min(n, self.hi - p)
        c = crc32(self.mv[lo:p])
        if keep:
            data[0:k] = w[p:p + k]
        else:
            c = crc32(self.mv[p:p + k], c)
        cb = self.cb
        r = min(4, self.hi - p - k)       # crc bytes already in the window (0..3)
        cb[0:r] = w[p + k:p + k + r]
        self.lo = self.hi = 0
        f = self.f
        if keep:
            dv = memoryview(data)
            while k < n:
                m = f.readinto(dv[k:])
                if not m:
                    return BAD
                k += m
            c = crc32(data, c)
        else:
            mv = self.mv
            while k < n:
                m = f.readinto(mv[0:min(WIN, n - k)])
                if not m:
                    return BAD
                c = crc32(mv[0:m], c)
                k += m
        while r < 4:
            m = f.readinto(memoryview(cb)[r:])
            if not m:
                return BAD
            r += m
        struct.pack_into("<I", self.sb, 0, self.nseq)
        if crc32(self.sb, c) != struct.unpack_from("<I", cb, 0)[0]:
            return BAD
        if keep and ty & F_X:
            try:
                data = str(data, "utf-8")
            except MemoryError:
                raise
            except Exception:
                return BAD
        self._t = self.t0 + self._bdt
        self._rt = ty & 15
        self._d = data
        self._tag = None
        return OK

    def resync(self, size):
        """After BAD: find the next intact record after self.off (the file is `size` bytes).

        Returns its seq (next() then reads it) or -1 if none follows. A candidate must verify
        as one of the seqs the damaged bytes can have hidden, and be followed by an intact
        record or the end of the file: one lucky crc16 cannot fake a resync.
        """
        f = self.f
        w = self.w
        o = self.off
        n0 = self.nseq
        q = o + 1
        while q <= size - MINREC:
            f.seek(q)
            self.lo = self.hi = 0
            have = self._need(WIN)
            step = max(1, have - MAXIN - 16) if have == WIN else have
            for i in range(step):
                ty = w[i]
                if ty & F_RSV or ty & 15 == 0:
                    continue
                top = n0 + (q + i - o) // MINREC + 1
                for s in range(n0 + 1, top + 1):
                    r = self._try(i, have - i, s, False)
                    if r == 0 or r == -2:
                        continue
                    if r == -1:                   # a big blob: read it whole to believe it
                        self.lo = i
                        self.nseq = s
                        ok = self._big() == OK
                        self.nseq = n0
                        f.seek(q)
                        self.lo = self.hi = 0
                        self._need(WIN)
                        if not ok:
                            continue
                    elif not self._follows(q + i, r, s, size):
                        f.seek(q)
                        self.lo = self.hi = 0
                        self._need(WIN)
                        continue
                    f.seek(q + i)
                    self.lo = self.hi = 0
                    self.off = q + i
                    self.nseq = s
                    self.known = False
                    return s
            q += step
        self.off = size
        return -1

    def _follows(self, at, r, s, size):
        # The candidate at `at` (r bytes, or a big blob) is followed by an intact record or EOF.
        if r < 0:
            return True
        end = at + r
        if end >= size:
            return True
        f = self.f
        f.seek(end)
        self.lo = self.hi = 0
        have = self._need(WIN)
        r = self._try(0, have, s + 1, False) if have else 0
        return r > 0 or r == -1


def _digits(s):
    # ASCII digits only: the same answer on both interpreters.
    for c in s:
        if not "0" <= c <= "9":
            return False
    return True
