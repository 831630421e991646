"""The game log on a raw NOR partition: a ring of sectors, erased ahead of need (docs/log.md).

Appending only programs bytes already erased; erases happen in idle(), which the hub calls when
no input is waiting, keeping `ahead` sectors erased and stamped in front of the write head.
Records, segments, recovery, gaps and the chain are Log's (gamelog.log): a segment is a run of
sectors here instead of a file. Sector states advance by clearing bits, never by an erase:
blank -> stamped (serial, marks) -> used (segment base, part) -> pruned or set aside.
"""
import struct
from array import array
from binascii import crc32

from gamelog.log import Log, LogFull, SEG_MAX, _bound
from gamelog.fmt import OK, BAD, FOREIGN, header

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

H = const(48)           # sector header; the payload follows
AHEAD = const(2)        # sectors kept erased and stamped ahead of the head
_ST = const(24)         # stamp: b"UR", version, 0xFF, serial, lw, hw, table id, then crc32
_US = const(28)         # use: base u32, part u16, 0 u16, then crc32
_PRUNED = const(40)     # flag bytes: 0xFF not set, 0x00 set (a majority of bits decides)
_ASIDE = const(41)

K_JUNK = const(0)       # unknown bytes: erase before use
K_PREP = const(1)       # stamped, payload blank: the head may move in
K_USED = const(2)       # holds part `part` of the segment `base`
K_BAD = const(3)        # used, set aside (foreign, out of order, damaged header)
K_FREE = const(4)       # used, pruned: erase before use
K_ODD = const(5)        # stamped, never used, payload not blank (a cut create): erase

_FFS = b"\xff" * 64


def _set(b):
    # A flag byte is set when most of its bits are clear: one flipped bit changes nothing.
    n = 0
    while b:
        n += b & 1
        b >>= 1
    return n < 4


def _check(hb, a, e):
    # CRC-32 of hb[a:e] against the u32 after it; one flipped bit is put back (a CRC-32 tells
    # which). True if intact (or mended).
    mv = memoryview(hb)
    want = struct.unpack_from("<I", hb, e)[0]
    if crc32(mv[a:e]) == want:
        return True
    for i in range(a, e + 4):
        for k in range(8):
            hb[i] ^= 1 << k
            if crc32(mv[a:e]) == struct.unpack_from("<I", hb, e)[0]:
                return True
            hb[i] ^= 1 << k
    return False


class _View:
    """A segment's bytes as one stream over the payloads of its sectors (Reader's file).

    A lost sector in the middle reads as zeros (damage the reader steps over); `clean` is
    where the erased bytes after the last record begin."""

    def __init__(self, ring, parts, clean):
        self.r = ring
        self.parts = parts
        self.clean = clean
        self.pos = 0

    def readinto(self, buf):
        r = self.r
        cap = r.cap
        i = self.pos // cap
        if i >= len(self.parts):
            return 0
        o = self.pos % cap
        k = min(len(buf), cap - o)
        s = self.parts[i]
        mv = memoryview(buf)[0:k]
        if s < 0:
            for j in range(k):
                mv[j] = 0
        else:
            r.dev.readblocks(s, mv, H + o)
        self.pos += k
        return k

    def seek(self, p):
        self.pos = p

    def close(self):
        pass


class _Head:
    # What Log holds as its open segment: writes go to the ring's head.
    def __init__(self, ring):
        self.r = ring

    def write(self, b):
        self.r._put(b)

    def close(self):
        pass


class RingLog(Log):
    """Log on a block device with esp32.Partition's protocol (readblocks/writeblocks with an
    offset program without erasing; ioctl 6 erases a block). `path`: where the hub keeps the
    table's id and key beside the log (on the filesystem)."""

    def __init__(self, dev, path="/log", seg_max=SEG_MAX, clock=None, table_id=None,
                 ahead=AHEAD):
        Log.__init__(self, path, seg_max, clock, True, table_id)
        self.dev = dev
        self.nsec = n = dev.ioctl(4, 0)
        self.ss = dev.ioctl(5, 0)
        if n < ahead + 3:
            raise ValueError("a ring needs %d sectors" % (ahead + 3))
        self.cap = self.ss - H
        self.ahead = ahead
        self.limit = n * self.ss          # append checks room (_room)
        self.late = 0                     # erases an append had to wait for (none ahead)
        self._ser = array("I", bytes(4 * n))
        self._sbase = array("I", bytes(4 * n))
        self._spart = array("H", bytes(2 * n))
        self._kind = bytearray(n)
        self._groups = {}                 # live base -> [sector of each part, -1 if lost]
        self._order = []                  # every group, oldest first: [base, parts, kind]
        self._sizes = {}
        self._hs = n - 1                  # head sector, its serial, next payload byte, part
        self._hser = 0
        self._ho = self.cap
        self._hp = 0
        self._prep = 0                    # stamped blank sectors right after the head
        self._fresh = False
        self._hole = False
        self._scanned = False
        self._hb = bytearray(H)
        self._alien = []
        self._mine = bytearray(n)
        self._pb = bytearray(64)
        self._w = _Head(self)

    # ---- scanning the ring -------------------------------------------------------------------

    def _read_hdr(self, i):
        self.dev.readblocks(i, self._hb, 0)
        return self._hb

    def _blank(self, i, a=H):
        # Are sector i's bytes from a on erased?
        pb = self._pb
        mv = memoryview(pb)
        o = a
        while o < self.ss:
            k = min(64, self.ss - o)
            self.dev.readblocks(i, mv[0:k], o)
            if pb[0:k] != _FFS[0:k]:
                return False
            o += k
        return True

    def _scan_ring(self):
        n = self.nsec
        tid = self.table_id
        kind = self._kind
        lw = hw = 0
        top = -1
        maxser = 0
        mine_ = bytearray(n)
        for i in range(n):
            hb = self._read_hdr(i)
            k = K_JUNK
            s = 0
            if hb[0] & hb[1] & hb[4] != 0xFF and _check(hb, 0, _ST) and hb[0] == 0x55 \
                    and hb[1] == 0x52:
                s = struct.unpack_from("<I", hb, 4)[0]
                mine = tid is None or bytes(hb[16:24]) == tid
                if mine:
                    mine_[i] = 1
                    lw = max(lw, struct.unpack_from("<I", hb, 8)[0])
                    hw = max(hw, struct.unpack_from("<I", hb, 12)[0])
                if bytes(hb[_US:H]) == _FFS[0:H - _US]:
                    k = K_PREP if mine else K_JUNK
                elif _check(hb, _US, _US + 8):
                    self._sbase[i], self._spart[i] = struct.unpack_from("<IH", hb, _US)
                    k = (K_FREE if _set(hb[_PRUNED]) else K_BAD if _set(hb[_ASIDE])
                         else K_USED)
                    if not mine:
                        s = 0                     # another table's serial orders nothing
            self._ser[i] = s
            kind[i] = k
        ser = self._ser
        more = True
        while more:                               # parts of a create cut before its commit
            more = False
            for i in range(n):
                p = (i - 1) % n
                if (kind[i] == K_USED and self._spart[i] and mine_[i] and ser[i] == ser[p] + 1
                        and (kind[p] == K_PREP or kind[p] == K_ODD)):
                    kind[i] = K_ODD
                    if kind[p] == K_PREP:
                        kind[p] = K_ODD
                    more = True
        for i in range(n):
            k = kind[i]
            if mine_[i] and k != K_JUNK and k != K_ODD:
                maxser = max(maxser, ser[i])
                if k != K_PREP and (top < 0 or ser[i] > ser[top]):
                    top = i
        if top >= 0:
            hs, hser = top, self._ser[top]
        else:
            hs, hser = n - 1, -1
            for i in range(n):                    # an empty ring: go on from the stamps
                if kind[i] == K_PREP and (hser < 0 or self._ser[i] - 1 < hser):
                    hs, hser = (i - 1) % n, self._ser[i] - 1   # the first stamped is next
            if hser < 0:
                hser = maxser
        self._hs = hs
        self._hser = hser
        self._hp = 0
        self._ho = self.cap
        # the stamped blank sectors right after the head, in serial order, are ready
        p = 0
        while p < n - 1:
            i = (hs + 1 + p) % n
            if kind[i] != K_PREP or self._ser[i] != hser + 1 + p or not self._blank(i):
                break
            p += 1
        self._prep = p
        for j in range(p, n - 1):
            i = (hs + 1 + j) % n
            if kind[i] == K_PREP:
                kind[i] = K_ODD               # stale or dirty: erased again before use
        # a sector lost right after the head (stamps beyond it): records may have been there
        nxt = (hs + 1) % n
        self._hole = maxser > hser + p and not (kind[nxt] == K_ODD and ser[nxt] == hser + 1)
        self._mine = mine_
        self._group(hs)
        self._lw = max(lw, self._lw_pruned())
        self._hw = hw
        self._gaps = []
        order = self._order
        for j in range(len(order)):
            if order[j][2] == K_BAD:
                self._gaps.append(self._bad_gap(order[j][0], order[j][1], self._next_base(j)))
        self._scanned = True

    def _group(self, hs):
        # Sectors in ring order (oldest first) into segments: a part-0 sector starts one; the
        # next parts follow it. A part whose sector is lost reads as zeros.
        n = self.nsec
        kind = self._kind
        order = []
        cur = None
        for j in range(1, n + 1):
            i = (hs + j) % n
            k = kind[i]
            if k != K_USED and k != K_BAD and k != K_FREE:
                continue
            base = self._sbase[i]
            part = self._spart[i]
            if cur is not None and cur[0] == base and cur[2] == k and len(cur[1]) <= part:
                while len(cur[1]) < part:
                    cur[1].append(-1)
                cur[1].append(i)
                continue
            cur = [base, [-1] * part + [i], k]
            order.append(cur)
        self._order = order
        self._groups = {}
        self._alien = []
        for g in order:
            if g[2] == K_USED:
                if not self._mine[g[1][-1]]:
                    self._alien.append(g)     # stamped by another table: set aside at boot
                else:
                    self._groups[g[0]] = g[1]  # a later one with the same base wins
        # one table for every segment's size, made at once: grown a segment at a time, a long
        # night's dict wanted a 2.7 KB run of a heap that boot had scattered (a fresh table)
        self._sizes = dict.fromkeys(self._groups)

    def _lw_pruned(self):
        # Pruned sectors before the oldest kept segment: all below it was acknowledged.
        lw = 0
        seen = False
        for g in self._order:
            if g[2] == K_FREE:
                seen = True
            elif seen and g[2] == K_USED:
                lw = g[0] - 1
                seen = False
        return lw

    def _next_base(self, j):
        # This table's next segment after _order[j] (0: none). Numbering never goes back, so
        # a damaged segment's seqs end below its base, whatever its bytes could have held.
        order = self._order
        for i in range(j + 1, len(order)):
            g = order[i]
            if g[2] != K_FREE and self._mine[g[1][-1]]:
                return g[0]
        return 0

    def _bad_gap(self, base, parts, nb=0):
        rd = self._rd
        f = _View(self, parts, self._clean(parts))
        st = rd.start(f, base, self._tid() if self.table_id is not None else None)
        if st == FOREIGN or (st != BAD and rd.base != base):
            n = 0
            while rd.next() == OK:
                n += 1
            return rd.base, rd.base + max(n, 1) - 1, "foreign" if st == FOREIGN else "order"
        return base, nb - 1 if nb > base else _bound(base, f.clean), "damaged"   # as Log._scan

    def _clean(self, parts):
        # Logical size: up to the last byte that is not 0xFF (the erased rest is no record).
        cap = self.cap
        j = len(parts) - 1
        while j >= 0 and parts[j] < 0:
            j -= 1
        if j < 0:
            return 0
        s = parts[j]
        pb = self._pb
        mv = memoryview(pb)
        o = self.ss
        while o > H:
            k = min(64, o - H)
            self.dev.readblocks(s, mv[0:k], o - k)
            if pb[0:k] != _FFS[0:k]:
                e = k
                while pb[e - 1] == 0xFF:
                    e -= 1
                return j * cap + (o - k - H) + e
            o -= k
        return j * cap

    # ---- Log's storage hooks -----------------------------------------------------------------

    def _get_marks(self):
        self._scan_ring()

    def _put_marks(self):
        pass                              # marks live in stamps and flags (docs/log.md)

    def _flush(self, f):
        pass                              # a program is on flash when it returns

    def _bases(self, clean=False):
        if not self._scanned:
            self._scan_ring()
        out = list(self._groups)
        out.sort()
        return out

    def _seg_size(self, base):
        s = self._sizes.get(base)
        if s is None:
            s = self._sizes[base] = self._clean(self._groups[base])
        return s

    def _open_seg(self, base):
        parts = self._groups[base]
        return _View(self, parts, self._seg_size(base))

    def _append_to(self, base):
        if self._fresh:                   # just created by _create
            self._fresh = False
            return self._w
        parts = self._groups[base]        # recovery: go on at the end of the newest segment
        size = self._size
        hp = min(size // self.cap, len(parts) - 1)
        if parts[hp] != self._hs or hp != len(parts) - 1 or self._hole:
            return None                   # not the ring's head: start a new segment
        self._hp = hp
        self._ho = size - hp * self.cap
        return self._w

    def _aside(self, base):
        # Its entry in _order keeps its kind: prune() frees the sectors whatever the kind, and
        # the next boot reads K_BAD from the chip.
        parts = self._groups.pop(base)
        for s in parts:
            if s >= 0:
                self._flag(s)
                self._kind[s] = K_BAD

    def _flag(self, s):
        # Set a sector aside on flash. A flag that will not program (a worn sector) fails no
        # boot: this boot knows it in RAM, the next one finds the same damage again.
        try:
            self.dev.writeblocks(s, b"\x00", _ASIDE)
        except OSError:
            pass

    def _remove(self, base):
        raise OSError(1)                  # prune() below marks sectors instead

    def _create(self, base, t0, wall, *parts):
        self._sizes.pop(base, None)
        s = self._take()
        self._hs = s
        self._ho = 0
        self._hp = 0
        self._cbase = base
        g = [s]
        self._groups[base] = g
        self._order.append([base, g, K_USED])
        self._put(header(self._hdr, base, t0, wall, self._tid(), self._h))
        for p in parts:
            self._put(p)
        self._use(s, base, 0)             # the commit: until now the segment is not there
        self._fresh = True

    def close(self):
        Log.close(self)
        self._fresh = False

    # ---- writing -------------------------------------------------------------------------

    def _put(self, data):
        mv = memoryview(data)
        n = len(mv)
        i = 0
        while i < n:
            room = self.cap - self._ho
            if room <= 0:
                self._next_part()
                room = self.cap
            k = n - i if n - i < room else room
            self.dev.writeblocks(self._hs, mv[i:i + k], H + self._ho)
            self._ho += k
            i += k

    def _next_part(self):
        s = self._take()
        base = self._cbase if self._f is None else self._base
        self._hp += 1
        self._use(s, base, self._hp)
        self._groups[base].append(s)
        self._hs = s
        self._ho = 0

    def _use(self, s, base, part):
        b = bytearray(12)
        struct.pack_into("<IHH", b, 0, base, part, 0)
        struct.pack_into("<I", b, 8, crc32(memoryview(b)[0:8]))
        self.dev.writeblocks(s, b, _US)
        self._sbase[s] = base
        self._spart[s] = part
        self._kind[s] = K_USED

    def _take(self):
        # The next sector for the head: a prepared one, else (late) erase one now.
        if not self._prep and not self._prepare_one():
            raise LogFull()
        self._prep -= 1
        self._hs = (self._hs + 1) % self.nsec
        self._hser += 1
        return self._hs

    def _room(self, n, new=False):
        rem = 0 if new or self._f is None else self.cap - self._ho
        if n <= rem:
            return
        need = (n - rem + self.cap - 1) // self.cap
        for j in range(1, need + 1):
            i = (self._hs + j) % self.nsec
            k = self._kind[i]
            if j >= self.nsec or k == K_USED or k == K_BAD:
                raise LogFull()

    # ---- erasing ahead -------------------------------------------------------------------

    def idle(self):
        """At a quiet moment: at most one erase, to keep `ahead` sectors ready in front of the
        head. True if it erased (the caller's input waited up to one erase: call it only when
        no input is pending)."""
        if not self._ready:
            return False
        if self._prep >= self.ahead:
            return False
        return self._prepare_one(False)

    def prepare(self):
        """Erase ahead until `ahead` sectors are ready (at boot: no input is waiting)."""
        while self._prep < self.ahead and self._prepare_one(False):
            pass

    def _prepare_one(self, late=True):
        n = self.nsec
        i = (self._hs + 1 + self._prep) % n
        k = self._kind[i]
        if k == K_USED or k == K_BAD or i == self._hs:
            return False                  # the ring is full up to unsynced records
        self.dev.ioctl(6, i)
        ser = self._hser + 1 + self._prep
        hb = self._hb
        for j in range(_US):
            hb[j] = 0xFF
        hb[0] = 0x55
        hb[1] = 0x52
        hb[2] = 1
        struct.pack_into("<III", hb, 4, ser, self._lw, max(self._hw, self._base))
        hb[16:24] = self._tid()
        struct.pack_into("<I", hb, _ST, crc32(memoryview(hb)[0:_ST]))
        self.dev.writeblocks(i, memoryview(hb)[0:_US], 0)
        self._ser[i] = ser
        self._kind[i] = K_PREP
        self._prep += 1
        if late:
            self.late += 1
        return True

    # ---- recovery, pruning, usage --------------------------------------------------------

    def recover(self, salvage=True, collect=True):
        self._scanned = False
        r = Log.recover(self, salvage, collect)
        for g in self._alien:             # another table's sectors: reported once, kept
            gap = self._bad_gap(g[0], g[1])
            self.damage.append(gap)
            self._gaps.append(gap)
            g[2] = K_BAD
            for s in g[1]:
                if s >= 0:
                    self._flag(s)
                    self._kind[s] = K_BAD
        self._alien = []
        top = self.next_seq
        for g in self._gaps:              # set aside now or at an earlier boot: a host may hold
            if g[1] >= top:               # these seqs as a gap, so they are never given again
                top = g[1] + 1            # (no stamp's high-water mark need know of them)
        if self._hole:                    # the sector after the head is gone: like a lost
            g = (top, _bound(top, self.cap), "missing")   # newest segment, its seqs too
            self.damage.append(g)
            self._gaps.append(g)
            top = g[1] + 1
            self._hole = False
            # The erases ahead (prepare, below) wipe the stamps that showed the hole: the
            # high-water mark they carry now covers its seqs, so the next boot, which no longer
            # sees it, still numbers above them (the soak found seq 358 then 292)
            self._hw = max(self._hw, g[1])
        if top > self.next_seq:
            self.next_seq = top
            self._f = None
            r = (r[0], r[1], top)
        try:
            self.prepare()
        except OSError:                   # an erase that fails (a worn sector) costs no round:
            pass                          # the append that needs the sector says so
        return r

    def prune(self, upto_seq):
        """Mark the sectors of acknowledged segments pruned (no erase: idle() erases them when
        the head comes round). Set-aside sectors before the first kept segment go too."""
        bases, n = self._prunable(upto_seq)
        if not n:
            return 0
        keep = self._groups[bases[n]]
        self._lw = max(self._lw, bases[n] - 1)
        for g in self._order:
            if g[1] is keep:
                break
            if g[2] == K_FREE:
                continue
            for s in g[1]:
                if s >= 0:
                    self.dev.writeblocks(s, b"\x00", _PRUNED)
                    self._kind[s] = K_FREE
            if g[2] == K_USED and self._groups.get(g[0]) is g[1]:
                del self._groups[g[0]]
            g[2] = K_FREE
        self._order = [g for g in self._order if g[2] != K_FREE]
        return n

    def usage(self):
        """(used, total) bytes of the partition: sectors holding unpruned records count."""
        used = 0
        for k in self._kind:
            if k == K_USED or k == K_BAD:
                used += 1
        return used * self.ss, self.nsec * self.ss
