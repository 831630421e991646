"""Crash-safe append-only game log on the flash filesystem (format and rules: docs/log.md).

Segments are files NNNNNNNNNN.log named by the seq of their first record. A snapshot starts a
new segment, so recovery reads from the last intact snapshot's segment on: one round, not the
night. Damage never stops the table: recovery and read_from() step over it and report it as
gaps (first_seq, last_seq, cause); unusable segments are renamed *.bad, never deleted.
"""
import gc
import os
import struct
import hashlib
from binascii import crc32

from gamelog.fmt import (HDR, INPUT, SNAP, OK, END, BAD, FOREIGN, ORDER, F_X, MINREC, MAXBLOB,
                         TOFF, CANON_MAX, Reader, header, enc_input, put_trail, enc_head,
                         check_t)
from gamelog.chain import GENESIS, canon_into

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
GAP = const(0)          # read_from's rtype for a gap: (first, GAP, last, cause, None, None)
_NOSPC = const(28)
_MARKS_MAX = const(16)  # quarantined ranges remembered for read_from's causes

_fsync = getattr(os, "fsync", None)   # CPython: per file
_sync = getattr(os, "sync", None)     # MicroPython ports that have it; littlefs flush commits


def _clock():
    return _ms(), False


class LogFull(OSError):
    """The flash is full: nothing was written; sync and prune, then append again."""

    def __init__(self):
        super().__init__(_NOSPC, "log full: sync the table")


def _nospc(e):
    return isinstance(e, OSError) and e.args and e.args[0] == _NOSPC


class Log:
    """The game log in directory `path`. Call recover() once at boot, then append()."""

    def __init__(self, path="/log", seg_max=SEG_MAX, clock=None, durable=True, table_id=None):
        self.dir = path
        self.seg_max = seg_max
        self.clock = clock or _clock   # () -> (t, wall) when append() is given no time
        self.durable = durable
        self.table_id = bytes(table_id) if table_id is not None else None
        if self.table_id is not None and len(self.table_id) != 8:
            raise ValueError("a table id is 8 bytes")
        self.limit = None              # bytes the log may use (tests on CPython); else statvfs
        self.next_seq = 1
        self.damage = []               # gaps (first, last, cause) found by the last recover()
        self._f = None                 # current segment, open for append (None: roll first)
        self._base = 0
        self._size = 0
        self._t0 = 0
        self._wall = False
        self._h = GENESIS              # chain head after input _hseq
        self._hseq = 0
        self._rbase = 0                # segment recovery starts from (prune keeps it)
        self._ready = False
        self._hw = 0                   # marks: newest segment ever made, pruned up to, causes
        self._lw = 0
        self._gaps = []
        self._buf = bytearray(64)
        self._mv = memoryview(self._buf)
        self._hdr = bytearray(HDR)
        self._sb = bytearray(4)
        self._cz = bytearray(CANON_MAX)
        self._czv = memoryview(self._cz)
        self._rd = Reader()
        # where read_from stopped, and where its last call began: the segment's base, then a
        # Reader.place() of a record (offset, seq, chain head, head known), so a host syncing
        # in batches (or asking again for an answer it lost) goes on from there instead of
        # walking the segment from its start at every request (late in a long night a board
        # held the referee that long)
        self._bm = [0, 0, 0, b"", False]
        self._bm0 = [0, 0, 0, b"", False]
        try:
            os.mkdir(path)
        except OSError:
            pass

    # ---- writing ---------------------------------------------------------------------------

    def append(self, inp, t=None, wall=False):
        """Log one table input (kind, a, b); returns its seq once it is on flash.

        LogFull (errno 28) when the flash is full: nothing written, the log stays usable.
        """
        if not self._ready:
            self._resync()
        if t is None:
            t, wall = self.clock()
        check_t(t)
        seq = self.next_seq
        new = self._roll(t, wall)
        t0 = t if new else self._t0
        n = canon_into(self._cz, seq, t, wall, inp)   # checks the input: nothing written yet
        b = self._buf
        i = enc_input(b, inp, t - t0)
        s = hashlib.sha256(self._h)
        s.update(self._czv[0:n])
        h = s.digest()
        end = put_trail(b, self._mv, i, seq, h, self._sb)
        rec = self._mv[0:end]
        if self.limit is not None:
            self._room(end + (HDR if new else 0), new)
        if new:
            self._open_new(seq, t, wall, rec)
        else:
            self._write(rec)
        self._h = h
        self._hseq = seq
        self._size += end
        self.next_seq = seq + 1
        return seq

    def snapshot(self, payload, t=None, wall=False):
        """Log a round-boundary snapshot (str or bytes, or a list of str pieces: one text) as the
        first record of a new segment."""
        seq = self._blob(SNAP, payload, t, wall, True)
        self._rbase = seq
        return seq

    def record(self, rtype, payload, t=None, wall=False):
        """Log an opaque record of type 9 or 11..14 (OUTCOME, ...) in the current segment."""
        if not 9 <= rtype <= 14 or rtype == 10:
            raise ValueError("record type must be 9 or 11..14")
        return self._blob(rtype, payload, t, wall, False)

    def _blob(self, rtype, payload, t, wall, new):
        if not self._ready:
            self._resync()
        if t is None:
            t, wall = self.clock()
        check_t(t)
        fx = 0
        if isinstance(payload, list):
            # a text in pieces (the hub's snapshot): written one after another, so that no
            # run of the whole's size is needed (a heap late in a long night may have none)
            parts = [p.encode() for p in payload]
            fx = F_X
        elif isinstance(payload, str):
            parts = [payload.encode()]
            fx = F_X
        else:
            parts = [payload]
        size = 0
        for p in parts:
            size += len(p)
        if size > MAXBLOB:
            raise ValueError("payload too big")
        seq = self.next_seq
        new = self._roll(t, wall) or new
        t0 = t if new else self._t0
        j = enc_head(self._buf, rtype | fx, t - t0, size)
        head = self._mv[0:j]
        struct.pack_into("<I", self._sb, 0, seq)
        c = crc32(head)
        for p in parts:
            c = crc32(p, c)
        crc = bytearray(4)
        struct.pack_into("<I", crc, 0, crc32(self._sb, c))
        n = j + size + 4
        self._room(n + (HDR if new else 0), new)
        parts.insert(0, head)
        parts.append(crc)
        if new:
            self._open_new(seq, t, wall, *parts)
        else:
            self._write(*parts)
        self._size += n
        self.next_seq = seq + 1
        return seq

    def _roll(self, t, wall):
        # A new segment: none open, full, another clock, or a time its header cannot base.
        return (self._f is None or self._size >= self.seg_max or wall != self._wall
                or t < self._t0 or (t - self._t0) >> TOFF)

    def _room(self, n, new=False):
        if self.limit is not None and self.usage()[0] + n > self.limit:
            raise LogFull()

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
        except Exception as e:
            # Half a record may sit in the file: recover() before the next append.
            self.close()
            if _nospc(e):
                raise LogFull()
            raise

    def _create(self, base, t0, wall, *parts):
        # A new segment appears whole (tmp + rename), so its header is never torn.
        tmp = self.dir + "/seg.tmp"
        f = open(tmp, "wb")
        try:
            f.write(header(self._hdr, base, t0, wall, self._tid(), self._h))
            for p in parts:
                f.write(p)
            self._flush(f)
        finally:
            f.close()
        os.rename(tmp, self._path(base))

    def _open_new(self, base, t0, wall, *parts):
        if self._f:
            self._f.close()
            self._f = None
        try:
            self._create(base, t0, wall, *parts)
        except Exception as e:
            self.close()
            if _nospc(e):
                raise LogFull()
            raise
        self._f = self._append_to(base)
        self._base = base
        self._size = HDR
        self._t0 = t0
        self._wall = wall
        if base > self._hw:
            self._hw = base
            try:
                self._put_marks()
            except OSError:               # a mark is a hint: the record is on flash
                pass

    def close(self):
        """Close the open segment; the next call recovers first."""
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

    def _tid(self):
        return self.table_id if self.table_id is not None else bytes(8)

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
        return [(b, self._seg_size(b)) for b in self._bases()]

    def _fsize(self, path):
        return os.stat(path)[6]

    # The storage of segments: files here; gamelog.ring.RingLog keeps them in a NOR ring.

    def _seg_size(self, base):
        return self._fsize(self._path(base))

    def _open_seg(self, base):
        """A segment's bytes for a Reader (readinto, seek, close)."""
        return open(self._path(base), "rb")

    def _append_to(self, base):
        return open(self._path(base), "ab")

    def _remove(self, base):
        os.remove(self._path(base))

    def usage(self):
        """(used bytes, total bytes) of the log's filesystem (or of `limit`, when set)."""
        if self.limit is not None:
            used = 0
            for n in os.listdir(self.dir):
                used += self._fsize(self.dir + "/" + n)
            return used, self.limit
        st = os.statvfs(self.dir)
        free = st[3] if st[3] <= st[2] else 0     # littlefs wraps it below 0 when over-full
        return (st[2] - free) * st[1], st[2] * st[1]

    def _aside(self, base):
        # Quarantine: renamed, never deleted (a name already taken gets a number).
        src = self._path(base)
        have = os.listdir(self.dir)
        name = src.rsplit("/", 1)[1] + ".bad"
        k = 0
        while name in have:
            k += 1
            name = "%010d.log.%d.bad" % (base, k)
        os.rename(src, self.dir + "/" + name)

    def _get_marks(self):
        self._hw = self._lw = 0
        self._gaps = []
        try:
            with open(self.dir + "/marks", "rb") as f:
                text = f.read()
            body, _, tail = text.rpartition(b"crc ")
            if int(tail.strip(), 16) != crc32(body):
                return
            for line in body.decode().split("\n"):
                w = line.split()
                if len(w) == 2 and w[0] == "hw":
                    self._hw = int(w[1])
                elif len(w) == 2 and w[0] == "lw":
                    self._lw = int(w[1])
                elif len(w) == 4 and w[0] == "gap":
                    self._gaps.append((int(w[1]), int(w[2]), w[3]))
        except Exception:                 # missing or damaged: hints only
            self._hw = self._lw = 0
            self._gaps = []

    def _put_marks(self):
        g = [x for x in self._gaps if x[1] > self._lw][-_MARKS_MAX:]
        self._gaps = g
        body = "hw %d\nlw %d\n" % (self._hw, self._lw)
        for x in g:
            body += "gap %d %d %s\n" % x
        body = body.encode()
        tmp = self.dir + "/marks.tmp"
        with open(tmp, "wb") as f:
            f.write(body)
            f.write(b"crc %08x\n" % crc32(body))
            self._flush(f)
        os.rename(tmp, self.dir + "/marks")

    def _snap_first(self, base):
        # Does this segment begin with a snapshot? (the type byte only; verified when read)
        b = self._hdr
        f = self._open_seg(base)
        try:
            f.seek(HDR)
            n = f.readinto(memoryview(b)[0:1])
        finally:
            f.close()
        return n == 1 and b[0] & 0x8F == SNAP

    def _vote(self, bases):
        # No id given: the one most segments carry (ties: the larger), as a host reading a copy.
        rd = self._rd
        votes = {}
        for b in bases:
            f = self._open_seg(b)
            try:
                if rd.start(f, b) in (OK, ORDER):
                    votes[rd.tid] = votes.get(rd.tid, 0) + 1
            finally:
                f.close()
        best = None
        for k in votes:
            if best is None or votes[k] > votes[best] or (votes[k] == votes[best] and k > best):
                best = k
        if best is not None:
            self.table_id = best

    def _scan(self, bases, aside):
        """Check these segments' headers: ([(base, size)] usable, [gap] of the others).

        Another table's segment is "foreign", a header whose base is not its name "order", an
        unreadable header "damaged". With aside, those files are renamed *.bad.
        """
        rd = self._rd
        live = []
        gaps = []
        out = []
        for i, b in enumerate(bases):
            if i & 15 == 15:
                gc.collect()    # a long night: its garbage would scatter what is kept (below)
            size = self._seg_size(b)
            f = self._open_seg(b)
            try:
                st = rd.start(f, b, self._tid())
                if st == OK:
                    live.append((b, size))
                    continue
                if st == BAD:
                    nb = bases[i + 1] if i + 1 < len(bases) else 0
                    g = (b, nb - 1 if nb > b else _bound(b, size), "damaged")
                else:
                    n = 0
                    while rd.next() == OK:
                        n += 1
                    g = (rd.base, rd.base + max(n, 1) - 1, "foreign" if st == FOREIGN else "order")
            finally:
                f.close()
            gaps.append(g)
            if aside:
                out.append(b)
        if aside and gaps:
            self._gaps.extend(gaps)       # the causes on flash before a file is renamed: a
            try:                          # cut between leaves no set-aside file unexplained
                self._put_marks()
            except OSError:
                pass
            for b in out:
                self._aside(b)
        return live, gaps

    # ---- recovery --------------------------------------------------------------------------

    def recover(self, salvage=True, collect=True):
        """Load the state at boot: (snapshot or None, [input, ...] after it, next_seq).

        collect=False: the inputs are only counted (an int in place of the list) and replay()
        yields them one at a time. Never raises for damage: unusable segments are renamed
        *.bad, damaged records are stepped over, a damaged snapshot falls back to the previous
        one, and self.damage lists the gaps found. `salvage` is accepted for old callers.
        """
        self.close()
        self.damage = []
        self._bm[0] = self._bm0[0] = 0  # segments may be set aside, cut or made again
        self._get_marks()
        bases = self._bases(True)
        if self.table_id is None:
            self._vote(bases)
        live, bad = self._scan(bases, True)
        gc.collect()            # the snapshot's buffer needs one free run of its size
        self.damage.extend(bad)
        top = max(1, self._lw + 1)      # with every gap's end below (a foreign one's too)
        i = len(live) - 1
        while i > 0 and not self._snap_first(live[i][0]):
            i -= 1
        r = None
        while i >= 0:
            r = self._round(live, i, collect)
            if r is not None:
                break
            i -= 1                        # the round's snapshot is damaged: the one before
            while i > 0 and not self._snap_first(live[i][0]):
                i -= 1
        if r is None:
            snap, ins, nxt, gaps, tail_ok = None, [] if collect else 0, top, [], False
            self._rbase = 0
            self._h = GENESIS
            self._hseq = 0
        else:
            snap, ins, nxt, gaps, tail_ok = r
            self._rbase = live[i][0]
        self.damage.extend(gaps)
        if self._hw > (live[-1][0] if live else 0):
            lost = True                   # the newest segment made is gone
            for g in bad:
                if g[0] <= self._hw <= g[1]:
                    lost = False
            if lost:
                g = (max(nxt, self._hw), _bound(self._hw, self.seg_max + 64), "missing")
                if nxt < self._hw:
                    self.damage.append((nxt, self._hw - 1, "missing"))
                self.damage.append(g)
                bad.append(g)
        for g in self.damage:
            top = max(top, g[1] + 1)
        if nxt < top:
            nxt = top
            tail_ok = False
        self.next_seq = nxt
        # the marks lost or behind: the newest segment read is the least the mark can be (a
        # prune writes it; the seqs of a newest segment lost later are then never given again)
        self._hw = max(self._hw, live[-1][0] if live else 0)
        if bad:
            for g in bad:
                if g not in self._gaps:   # _scan put those it set aside
                    self._gaps.append(g)
            try:
                self._put_marks()
            except OSError:
                pass
        self._f = None
        if tail_ok:
            rd = self._rd
            self._base, self._size, self._t0, self._wall = live[-1][0], rd.off, rd.t0, rd.wall
            self._f = self._append_to(self._base)
        self._ready = True
        return snap, ins, self.next_seq

    def _resync(self):
        # recover() to append, prune or name the head after a close (a write that failed): the
        # inputs counted, a snapshot checked and not read into the heap (fmt.Reader.keep), so
        # that a heap with no run of a snapshot's size (its own write may just have failed for
        # want of one) cannot stop every input after it. Boot's recover() reads it.
        rd = self._rd
        rd.keep = False
        try:
            self.recover(collect=False)
        finally:
            rd.keep = True

    def _round(self, live, i, collect):
        # Read from segment i to the newest; None if i's first record, a snapshot, is damaged.
        snap = None
        ins = [] if collect else None
        count = 0
        gaps = []
        rd = self._rd
        tail_ok = True
        hseq = 0
        for j in range(i, len(live)):
            base, size = live[j]
            nb = live[j + 1][0] if j + 1 < len(live) else 0
            f = self._open_seg(base)
            try:
                rd.start(f, base, self._tid())
                while True:
                    st = rd.next()
                    if st == OK:
                        if nb and rd.seq >= nb:
                            break             # overlaps the next segment: that one counts
                        if rd.rtype == INPUT:
                            count += 1
                            hseq = rd.seq
                            if collect:
                                ins.append(rd.data)
                        elif rd.rtype == SNAP:
                            snap = rd.data
                            count = 0
                            if collect:
                                del ins[:]
                        continue
                    if st == END:
                        break
                    if j == i and rd.n == 0 and i > 0 and self._snap_first(base):
                        return None
                    first = rd.nseq
                    off = rd.off
                    s = rd.resync(size)
                    if s < 0:
                        gaps.append((first, nb - 1 if nb else _bound(first, size - off), "damaged"))
                        rd.nseq = gaps[-1][1] + 1
                        tail_ok = False
                        break
                    gaps.append((first, s - 1, "damaged"))
                    tail_ok = False
            finally:
                f.close()
            if nb:
                if nb > rd.nseq:
                    gaps.append((rd.nseq, nb - 1, self._cause(rd.nseq, nb - 1)))
                tail_ok = True
        self._h = rd.h
        self._hseq = hseq if hseq else live[i][0] - 1
        tail_ok = tail_ok and rd.known
        return snap, ins if collect else count, rd.nseq, gaps, tail_ok

    def _cause(self, a, b):
        for g in self._gaps:
            if g[0] <= b and g[1] >= a:
                return g[2]
        return "pruned" if b <= self._lw else "missing"

    def head(self):
        """(seq, head): the chain head after the last input record (seq 0: none yet)."""
        if not self._ready:
            self._resync()
        return self._hseq, self._h

    def anchor(self, seq):
        """(base, head) of the first segment starting at or after seq: the chain head before
        record `base`, from which a host checks the tags again after a gap; None if none."""
        rd = Reader()
        for b in self._bases():
            if b < seq:
                continue
            f = self._open_seg(b)
            try:
                if rd.start(f, b, self._tid()) == OK:
                    return b, rd.h
            finally:
                f.close()
        return None

    # ---- reading and pruning ---------------------------------------------------------------

    def read_from(self, seq, blobs=True):
        """Yield (seq, rtype, t, wall, data, tag4) for every intact record with seq >= seq, in
        order, and (first, GAP, last, cause, None, None) for every gap; never raises for damage.

        data: the input tuple for INPUT, the payload (bytes, or str if text) otherwise; tag4:
        the chain tag of an input (None for other records). blobs=False: a blob bigger than
        the reader's window (a snapshot) is checked and its data is None, so that a read for
        the inputs (a sync, a dump) needs no run of its size in the heap.
        """
        if seq < 1:
            seq = 1
        if not self._ready:
            self._get_marks()
        bases = self._bases()
        if self.table_id is None:
            self._vote(bases)
        k = 0
        while k + 1 < len(bases) and bases[k + 1] <= seq:
            k += 1
        live, bad = self._scan(bases[k:], False)   # read from k on: older ones do not matter
        causes = self._gaps + bad
        top = self.next_seq if self._ready else 0
        rd = Reader()
        rd.keep = blobs
        exp = seq
        first = True
        if live and live[0][0] > seq:
            for g in self._split(seq, live[0][0] - 1, causes):
                yield g
        for j in range(len(live)):
            base, size = live[j]
            nb = live[j + 1][0] if j + 1 < len(live) else 0
            f = self._open_seg(base)
            bm = self._bm
            try:
                rd.start(f, base, self._tid())
                for m in (self._bm0, bm):    # go on from a place a read reached
                    if m[0] == base and rd.nseq < m[2] <= seq:
                        rd.goto(m)
                bm[0] = base
                while True:
                    rd.place(bm)
                    st = rd.next()
                    if st == OK:
                        if nb and rd.seq >= nb:
                            break
                        if rd.seq >= seq:
                            if first:
                                first = False
                                self._bm0[:] = bm  # (bm: where this record began)
                            yield rd.seq, rd.rtype, rd.t, rd.wall, rd.data, rd.tag
                        continue
                    if st == END:
                        break
                    first = rd.nseq
                    off = rd.off
                    s = rd.resync(size)
                    last = s - 1 if s >= 0 else (nb - 1 if nb else
                                                 max(_bound(first, size - off), top - 1))
                    if last >= seq:
                        yield max(first, seq), GAP, last, "damaged", None, None
                    if s < 0:
                        rd.nseq = last + 1
                        break
            finally:
                f.close()
            exp = rd.nseq
            if nb and nb > exp and nb - 1 >= seq:
                for g in self._split(max(exp, seq), nb - 1, causes):
                    yield g
        # the open segment is read to its end (records appended meanwhile are no gap), unless
        # it is not among the intact ones any more: then what it held is a gap too
        if (top and exp < top and top - 1 >= seq
                and (self._f is None or not live or live[-1][0] != self._base)):
            for g in self._split(max(exp, seq), top - 1, causes):
                yield g

    def _split(self, a, b, causes):
        # A range of absent seqs: the part pruned, then the rest with its cause.
        out = []
        if a <= self._lw:
            out.append((a, GAP, min(b, self._lw), "pruned", None, None))
            a = self._lw + 1
        if a <= b:
            c = "missing"
            for g in causes:
                if g[0] <= b and g[1] >= a:
                    c = g[2]
                    break
            out.append((a, GAP, b, c, None, None))
        return out

    def replay(self):
        """Yield the inputs after the last snapshot, in order: recover(collect=False)'s list."""
        for r in self.replay_records():
            yield r[3]

    def replay_records(self):
        """Like replay(), with each input's seq and time: (seq, t, wall, input)."""
        if not self._ready:
            self._resync()
        for r in self.read_from(self._rbase, False):
            if r[1] == INPUT:
                yield r[0], r[2], r[3], r[4]

    def prune(self, upto_seq):
        """Delete segments whose records are all <= upto_seq (host acknowledged), never the one
        recovery starts from or any after it. Returns how many were removed."""
        bases, n = self._prunable(upto_seq)
        if n:
            self._lw = max(self._lw, bases[n] - 1)
            self._put_marks()             # before the deletes: a cut leaves nothing unexplained
            for i in range(n):
                self._remove(bases[i])
        return n

    def idle(self):
        """A quiet moment (the hub calls it when no input waits): nothing to do ahead here,
        littlefs erases inside its commits; the NOR ring erases its next sector."""
        return False

    def _prunable(self, upto_seq):
        # (bases, n): the n oldest segments hold only records <= upto_seq, and recovery does
        # not start from any of them.
        if not self._ready:
            self._resync()
        bases = self._bases()
        n = 0
        for i in range(len(bases) - 1):
            if bases[i] >= self._rbase or bases[i + 1] - 1 > upto_seq:
                break
            n += 1
        return bases, n


def _bound(first, nbytes):
    # The last seq that nbytes of damaged records starting at seq `first` can have held.
    return first + max(1, nbytes // MINREC) - 1
