"""Crash-safe append-only game log on the flash filesystem (format and rules: docs/log.md).

Segments are files NNNNNNNNNN.log named by the seq of their first record. A snapshot starts a
new segment, so recovery reads from the last snapshot's segment on: one round, not the night.
"""
import os
import struct
from binascii import crc32

from gamelog.fmt import (HDR, INPUT, SNAP, OK, END, TORN, F_ABS, F_WALL, F_X, MINREC,
                         MAXBLOB, TAIL_MAX, Reader, header, enc_input, enc_head, check_t)

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import ticks_ms as _ms
except ImportError:  # CPython
    from time import monotonic as _mono

    def _ms():
        return int(_mono() * 1000)

SEG_MAX = const(16384)  # roll to a continuation segment past this (a round is ~4 KB)

_fsync = getattr(os, "fsync", None)   # CPython: per file
_sync = getattr(os, "sync", None)     # MicroPython ports that have it; littlefs flush commits


def _clock():
    return _ms(), False


class Corrupt(Exception):
    """A damaged record that is not the torn tail: records after it cannot be trusted.

    name/offset: where; seq: the first seq that cannot be read; resume: base seq of the next
    segment (where read_from can go on), or None.
    """

    def __init__(self, name, offset, seq, resume=None):
        super().__init__("log %s: damaged record at byte %d (seq %d)" % (name, offset, seq))
        self.name = name
        self.offset = offset
        self.seq = seq
        self.resume = resume


class Log:
    """The game log in directory `path`. Call recover() once at boot, then append()."""

    def __init__(self, path="/log", seg_max=SEG_MAX, clock=None, durable=True):
        self.dir = path
        self.seg_max = seg_max
        self.clock = clock or _clock   # () -> (t, wall) when append() is given no time
        self.durable = durable
        self.next_seq = 1
        self.damage = None             # the Corrupt that recover(salvage=True) set aside
        self._f = None                 # current segment, open for append
        self._base = 0                 # its base seq, size, records, last time
        self._size = 0
        self._n = 0
        self._t = 0
        self._wall = False
        self._rbase = 0                # segment recovery starts from (prune keeps it)
        self._ready = False
        self._buf = bytearray(48)      # seq u32 + one input record
        self._mv = memoryview(self._buf)
        self._hdr = bytearray(HDR)
        self._crc = bytearray(4)
        self._pk = bytearray(HDR + 4)
        self._rd = Reader()
        try:
            os.mkdir(path)
        except OSError:
            pass

    # ---- writing ---------------------------------------------------------------------------

    def append(self, inp, t=None, wall=False):
        """Log one table input (kind, a, b); returns its seq once it is on flash."""
        if not self._ready:
            self.recover()
        if t is None:
            t, wall = self.clock()
        seq = self.next_seq
        new = self._f is None or self._size >= self.seg_max
        fl = self._tflags(t, wall, new)
        end = enc_input(self._buf, self._mv, seq, inp, fl, t if fl & F_ABS else t - self._t)
        rec = self._mv[4:end]
        if new:
            self._open_new(seq, rec)
        else:
            self._write(rec)
        self._done(seq, t, wall, end - 4)
        return seq

    def snapshot(self, payload, t=None, wall=False):
        """Log a round-boundary snapshot (str or bytes) as the first record of a new segment."""
        seq = self._blob(SNAP, payload, t, wall, True)
        self._rbase = seq
        return seq

    def record(self, rtype, payload, t=None, wall=False):
        """Log an opaque record of type 9..15 (OUTCOME, ...) in the current segment."""
        if not 9 <= rtype <= 15:
            raise ValueError("record type must be 9..15")
        return self._blob(rtype, payload, t, wall, False)

    def _blob(self, rtype, payload, t, wall, new):
        if not self._ready:
            self.recover()
        if t is None:
            t, wall = self.clock()
        fx = 0
        if isinstance(payload, str):
            payload = payload.encode()
            fx = F_X
        if len(payload) > MAXBLOB:
            raise ValueError("payload too big")
        seq = self.next_seq
        new = new or self._f is None or self._size >= self.seg_max
        fl = self._tflags(t, wall, new)
        j = enc_head(self._buf, seq, rtype | fl | fx, t if fl & F_ABS else t - self._t,
                     len(payload))
        struct.pack_into("<I", self._crc, 0, crc32(payload, crc32(self._mv[0:j])))
        head = self._mv[4:j]
        if new:
            self._open_new(seq, head, payload, self._crc)
        else:
            self._write(head, payload, self._crc)
        self._done(seq, t, wall, j - 4 + len(payload) + 4)
        return seq

    def _tflags(self, t, wall, new):
        check_t(t)
        fl = F_WALL if wall else 0
        if new or not self._n or wall != self._wall or t < self._t:
            fl |= F_ABS
        return fl

    def _done(self, seq, t, wall, n):
        self._size += n
        self._n += 1
        self._t = t
        self._wall = wall
        self.next_seq = seq + 1

    def _flush(self, f):
        f.flush()
        if self.durable:
            if _fsync:
                _fsync(f.fileno())
            elif _sync:
                _sync()

    def _write(self, *parts):
        try:
            for p in parts:
                self._f.write(p)
            self._flush(self._f)
        except Exception:
            # Half a record may sit in the file: recover() before the next append.
            self.close()
            raise

    def _create(self, base, *parts):
        # A new segment appears whole (tmp + rename), so its header is never torn.
        tmp = self.dir + "/seg.tmp"
        f = open(tmp, "wb")
        try:
            f.write(header(self._hdr, base))
            for p in parts:
                f.write(p)
            self._flush(f)
        finally:
            f.close()
        os.rename(tmp, self._path(base))

    def _open_new(self, base, *parts):
        if self._f:
            self._f.close()
            self._f = None
        try:
            self._create(base, *parts)
        except Exception:
            self.close()
            raise
        self._f = open(self._path(base), "ab")
        self._base = base
        self._size = HDR
        self._n = 0

    def close(self):
        """Close the open segment; the next append recovers first."""
        if self._f:
            try:
                self._f.close()
            except OSError:
                pass
            self._f = None
        self._ready = False

    # ---- files -----------------------------------------------------------------------------

    def _path(self, base):
        return "%s/%010d.log" % (self.dir, base)

    def _bases(self, clean=False):
        out = []
        for n in os.listdir(self.dir):
            if len(n) == 14 and n[10:] == ".log":
                try:
                    out.append(int(n[:10]))
                except ValueError:
                    pass
            elif clean and n.endswith(".tmp"):
                os.remove(self.dir + "/" + n)     # an interrupted create or rewrite
        out.sort()
        return out

    def segments(self):
        """[(base seq, bytes), ...] of the segment files, oldest first."""
        return [(b, os.stat(self._path(b))[6]) for b in self._bases()]

    def _truncate(self, src, dst, n):
        # MicroPython files have no truncate(): copy the good prefix, rename over (atomic).
        tmp = self.dir + "/cut.tmp"
        mv = self._rd.mv
        f = open(src, "rb")
        try:
            g = open(tmp, "wb")
            try:
                left = n
                while left:
                    k = f.readinto(mv[:min(left, len(mv))])
                    if not k:
                        break
                    g.write(mv[:k])
                    left -= k
                self._flush(g)
            finally:
                g.close()
        finally:
            f.close()
        os.rename(tmp, dst)

    def _snap_first(self, base):
        # Does this segment begin with a snapshot? (header + type byte only; verified later)
        f = open(self._path(base), "rb")
        try:
            n = f.readinto(self._pk)
        finally:
            f.close()
        b = self._pk
        i = HDR
        while i < n and b[i] & 0x80:
            i += 1
        i += 1
        return i < n and b[i] & 0x8F == SNAP

    # ---- recovery --------------------------------------------------------------------------

    def recover(self, salvage=False, collect=True):
        """Repair the tail and load the state: (snapshot or None, [input, ...] after it, next_seq).

        collect=False: the inputs are only counted (an int in place of the list) and replay()
        yields them one at a time, so a round never sits in RAM as ~300 tuples.

        A torn or damaged last record is cut off. Damage with intact records after it raises
        Corrupt and changes nothing, unless salvage: then the damaged segment (and any after it)
        is renamed *.bad, its good prefix kept, numbering resumes above every seq those files
        could hold, and self.damage holds the Corrupt for the caller to report.
        """
        self.close()
        self.damage = None
        again = 0
        while True:
            try:
                r = self._recover(collect)
            except Corrupt as e:
                if not salvage:
                    raise
                self._quarantine(e)           # renames files: each pass has fewer to doubt
                self.damage = e
                continue
            if r is not None:
                self._ready = True
                return r
            again += 1                        # a cut snapshot moved the base back; once is
            if again > 2:                     # enough, more would be a bug: do not spin at boot
                raise OSError("log recovery does not settle")

    def _recover(self, collect):
        bases = self._bases(True)
        if not bases:
            self.next_seq = 1
            self._rbase = 0
            self._base = self._size = self._n = self._t = 0
            return None, [] if collect else 0, 1
        last = len(bases) - 1
        i = last
        while i > 0 and not self._snap_first(bases[i]):
            i -= 1
        snap = None
        ins = [] if collect else None
        count = 0
        rd = self._rd
        for j in range(i, last + 1):
            path = self._path(bases[j])
            size = os.stat(path)[6]
            cut = -1
            f = open(path, "rb")
            try:
                st = rd.start(f, bases[j])
                if st == TORN and j == last:
                    cut = 0                   # header never made it (not via tmp): rewrite
                elif st != OK:
                    raise Corrupt(path, 0, bases[j])
                while st == OK:
                    st = rd.next()
                    if st == OK:
                        if rd.rtype == INPUT:
                            count += 1
                            if collect:
                                ins.append(rd.data)
                        elif rd.rtype == SNAP:
                            snap = rd.data
                            count = 0
                            if collect:
                                del ins[:]
                    elif st != END:
                        if j < last or not self._is_tail(rd, st, size):
                            raise Corrupt(path, rd.off, rd.nseq)
                        cut = rd.off
            finally:
                f.close()
            if cut == 0:
                self._create(bases[j])
                rd.off = HDR
            elif cut > 0:
                self._truncate(path, path, cut)
        if i == last and i > 0 and snap is None:
            return None                       # the dropped record was the round's snapshot
        self._rbase = bases[i]
        self._base = bases[last]
        self._size = rd.off
        self._n = rd.n
        self._t = rd.t
        self._wall = rd.wall
        self.next_seq = rd.nseq
        self._f = open(self._path(self._base), "ab")
        return snap, ins if collect else count, self.next_seq

    def _is_tail(self, rd, st, size):
        # The failing record is the last one unless an intact record follows it.
        if rd.probe(rd.off, size):
            return False
        return st == TORN or size - rd.off <= TAIL_MAX or rd.claim == size

    def _quarantine(self, e):
        # Set the damaged segment and all after it aside as *.bad; keep its good prefix.
        top = e.seq + 1
        hit = False
        for b in self._bases():
            path = self._path(b)
            hit = hit or path == e.name
            if not hit:
                continue
            size = os.stat(path)[6]
            if path == e.name:
                top = max(top, e.seq + (size - e.offset) // MINREC + 1)
            else:
                top = max(top, b + (size - HDR) // MINREC + 1)
            os.rename(path, path + ".bad")
        if e.offset > HDR:
            self._truncate(e.name + ".bad", e.name, e.offset)
        self._create(top)                      # empty segment: the seq jump survives reboots

    # ---- reading and pruning ---------------------------------------------------------------

    def read_from(self, seq):
        """Yield (seq, rtype, t, wall, data) for every record with seq >= seq, in order.

        data: the input tuple for INPUT, the payload (bytes, or str if text) otherwise.
        Raises Corrupt at damage (its .resume says where to carry on).
        """
        bases = self._bases()
        k = 0
        while k + 1 < len(bases) and bases[k + 1] <= seq:
            k += 1
        rd = Reader()
        for j in range(k, len(bases)):
            path = self._path(bases[j])
            f = open(path, "rb")
            try:
                st = rd.start(f, bases[j])
                if st != OK:
                    if st == TORN and j == len(bases) - 1:
                        return
                    raise Corrupt(path, 0, bases[j], bases[j + 1] if j + 1 < len(bases) else None)
                while True:
                    st = rd.next()
                    if st == OK:
                        if rd.seq >= seq:
                            yield rd.seq, rd.rtype, rd.t, rd.wall, rd.data
                        continue
                    if st == END or (st == TORN and j == len(bases) - 1):
                        break
                    raise Corrupt(path, rd.off, rd.nseq,
                                  bases[j + 1] if j + 1 < len(bases) else None)
            finally:
                f.close()

    def replay(self):
        """Yield the inputs after the last snapshot, in order: recover(collect=False)'s list."""
        for r in self.replay_records():
            yield r[3]

    def replay_records(self):
        """Like replay(), with each input's seq and time: (seq, t, wall, input)."""
        if not self._ready:
            self.recover(collect=False)
        for r in self.read_from(self._rbase):
            if r[1] == INPUT:
                yield r[0], r[2], r[3], r[4]

    def prune(self, upto_seq):
        """Delete segments whose records are all <= upto_seq (host acknowledged), never the one
        recovery starts from or any after it. Returns how many were removed."""
        if not self._ready:
            self.recover()
        bases = self._bases()
        n = 0
        for i in range(len(bases) - 1):
            if bases[i] >= self._rbase or bases[i + 1] - 1 > upto_seq:
                break
            os.remove(self._path(bases[i]))
            n += 1
        return n
