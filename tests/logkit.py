"""Test kit for the game log: a fresh log directory on either interpreter, and file surgery.

MicroPython: a littlefs RAM disk (vfs.VfsLfs2 on a block device in a bytearray) mounted at
/lfs, like the ESP32's flash. CPython: a temp directory. Same tests, same log code.
"""
import os

from gamelog import Log

try:
    import vfs
except ImportError:  # CPython
    vfs = None

LFS = vfs is not None
MNT = "/lfs"
PAD, SHOE, SEAT, COLOUR, SHUFFLE, TICK = 2, 1, 3, 4, 5, 6
UID = b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"


class RamDisk:
    """Block device for littlefs, one bytearray per block (no big contiguous allocation).

    After `cut` programs, writes are lost: the power went.
    """

    def __init__(self, bs, n):
        self.bs = bs
        self.blocks = [bytearray(bs) for _ in range(n)]
        self.cut = -1
        self.progs = 0
        self.prog_bytes = 0
        self.erases = 0

    def readblocks(self, n, buf, off=0):
        bs = self.bs
        i = 0
        while i < len(buf):
            k = min(bs - off, len(buf) - i)
            blk = self.blocks[n]
            try:
                buf[i:i + k] = blk[off:off + k]
            except MemoryError:           # called from a finalizer: the heap is locked
                for j in range(k):
                    buf[i + j] = blk[off + j]
            i += k
            n += 1
            off = 0

    def writeblocks(self, n, buf, off=None):
        if off is None:
            off = 0
        self.progs += 1
        if 0 <= self.cut < self.progs:
            return
        self.prog_bytes += len(buf)
        bs = self.bs
        i = 0
        while i < len(buf):
            k = min(bs - off, len(buf) - i)
            blk = self.blocks[n]
            try:
                blk[off:off + k] = buf[i:i + k]
            except MemoryError:
                for j in range(k):
                    blk[off + j] = buf[i + j]
            i += k
            n += 1
            off = 0

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.blocks)
        if op == 5:
            return self.bs
        if op == 6:
            self.erases += 1
            return 0
        return None


_disk = RamDisk(256, 128) if vfs else None   # 32 KB: headers, marks and many small segments
_tmp = []
_logs = []


def fresh():
    """Path of an empty log directory (a new filesystem each time)."""
    while _logs:
        _logs.pop().close()
    if LFS:
        try:
            vfs.umount(MNT)
        except OSError:
            pass
        _disk.cut = -1
        vfs.VfsLfs2.mkfs(_disk)
        vfs.mount(vfs.VfsLfs2(_disk), MNT)
        return MNT + "/log"
    import shutil
    import tempfile
    while _tmp:
        shutil.rmtree(_tmp.pop(), ignore_errors=True)
    d = tempfile.mkdtemp(prefix="gamelog")
    _tmp.append(d)
    return d + "/log"


def reboot():
    """Power comes back: mount the RAM disk again as it was left (MicroPython only)."""
    try:
        vfs.umount(MNT)
    except OSError:
        pass
    _disk.cut = -1
    vfs.mount(vfs.VfsLfs2(_disk), MNT)


def disk():
    return _disk


def log(path, **kw):
    """A Log; under CPython without fsync per append (tests cut files by hand instead).

    One Log per directory, as on the hub: making one closes the previous one. On littlefs a
    forgotten append handle, closed later by the GC, can write its stale idea of the file
    back over what the test did since.
    """
    kw.setdefault("durable", LFS)
    while _logs:
        _logs.pop().close()
    lg = Log(path, **kw)
    _logs.append(lg)
    return lg


def recovered(path, **kw):
    """recover() of a new Log, closed again."""
    lg = log(path, **kw)
    try:
        return lg.recover()
    finally:
        lg.close()


def names(path):
    return sorted(os.listdir(path))


def seg(path, i=-1):
    """Path of the i-th segment file."""
    return path + "/" + sorted(n for n in os.listdir(path) if n.endswith(".log"))[i]


def read(p):
    with open(p, "rb") as f:
        return f.read()


def write(p, data):
    with open(p, "wb") as f:
        f.write(data)


def flip(p, at, mask=0xFF):
    b = bytearray(read(p))
    b[at] ^= mask
    write(p, b)


def size(p):
    return os.stat(p)[6]


def inputs(n, start=0):
    """n varied table inputs in the engine's shapes."""
    out = []
    for i in range(start, start + n):
        k = i % 6
        if k == 0:
            out.append((PAD, bytes([4, i & 255, 1, 2, 3, 4, 5])))
        elif k == 1:
            out.append((SHOE, bytes([4, i & 255, 9, 9])))
        elif k == 2:
            out.append((SEAT, 1 + i % 10, i & 1))
        elif k == 3:
            out.append((COLOUR, i % 4, 0))
        elif k == 4:
            out.append((TICK, 100 * i))
        else:
            out.append((SHUFFLE,))
    return out


def fill(lg, ins, t0=1000, dt=450):
    """Append inputs at times t0, t0+dt, ...; returns their seqs."""
    return [lg.append(inp, t0 + dt * i) for i, inp in enumerate(ins)]


def records(lg, seq=1):
    return list(lg.read_from(seq))


SHORT_RUN = 300    # short_runs: the reader's window (256 bytes) fits, a snapshot does not


def _short(*a):
    if a and isinstance(a[0], int) and a[0] > SHORT_RUN:
        raise MemoryError("memory allocation failed, allocating %d bytes" % a[0])
    return bytearray(*a)


def short_runs(on):
    """A heap with no free run over SHORT_RUN bytes (fragmented late in a night) for the log's
    reader: gamelog.fmt's bytearray refuses a bigger block; short_runs(False) gives it back."""
    import gamelog.fmt as fmt
    fmt.bytearray = _short if on else bytearray
