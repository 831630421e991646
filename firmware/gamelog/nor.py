"""A NOR flash stand-in with esp32.Partition's block protocol (tests, benches, simulated table).

NOR rules: a program can only clear bits (new = old & data); only an erase sets bits, a whole
sector at a time, to 0xFF. Faults: a power cut after `cut` more bytes of programs or erases
(the byte being programmed gets some of its bits only; an erase cut leaves the sector partly
erased), after which every operation is lost. Counts erases, programs, programmed bytes, and
models time (erase_ms per erase, prog_ms per 256-byte page a program touches).
Backed by a bytearray, or by a file (`path`: the simulated table's log outlives it).
"""
import os

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PAGE = const(256)
_FF = b"\xff" * 256


class Nor:
    def __init__(self, sectors, ss=4096, path=None, erase_ms=45, prog_ms=1):
        self.n = sectors
        self.ss = ss
        self.erase_ms = erase_ms
        self.prog_ms = prog_ms
        self.erases = self.progs = self.prog_bytes = 0
        self.ms = 0              # modelled busy time of every erase and program so far
        self.cut = -1            # bytes of programs/erases left before the power goes (-1: never)
        self.dead = False
        self.ops = 0             # programs and erases so far
        self.cut_op = -1         # or: the power goes during operation number cut_op ...
        self.cut_at = 0          # ... after cut_at of its bytes
        self.conflicts = 0       # programs that asked a 0 bit to become 1 (a bug in the caller)
        self.f = None
        self.mem = None
        if path is None:
            self.mem = m = bytearray(sectors * ss)
            for a in range(0, len(m), 256):
                m[a:a + 256] = _FF
        else:
            size = sectors * ss
            try:
                have = os.stat(path)[6]
            except OSError:
                have = -1
            if have != size:                      # new (or another size): a blank chip
                with open(path, "wb") as f:
                    for _ in range(size // 256):
                        f.write(_FF)
            self.f = open(path, "r+b")

    # ---- the esp32.Partition block protocol ------------------------------------------------

    def readblocks(self, block, buf, off=0):
        a = block * self.ss + off
        if self.mem is not None:
            n = len(buf)
            buf[0:n] = self.mem[a:a + n]
        else:
            self.f.seek(a)
            self.f.readinto(buf)

    def writeblocks(self, block, buf, off=None):
        """With off: program without erasing (the extended protocol). Without: erase, program."""
        if off is None:
            k = 0
            while k < len(buf):
                self.erase(block + k // self.ss)
                k += self.ss
            off = 0
        self.program(block * self.ss + off, buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return self.ss
        if op == 6:
            self.erase(arg)
            return 0
        return 0 if op in (1, 2, 3) else None

    # ---- NOR operations ----------------------------------------------------------------------

    def _budget(self, n):
        # How many of n bytes happen before the power goes.
        if self.dead:
            return 0
        self.ops += 1
        if self.ops == self.cut_op:           # this operation is cut after cut_at bytes
            self.cut = min(self.cut_at, n)
        if self.cut < 0:
            return n
        if self.cut >= n:
            self.cut -= n
            return n
        k = self.cut
        self.cut = 0
        self.dead = True
        return k

    def program(self, a, buf):
        n = len(buf)
        was = self.dead
        k = self._budget(n)
        torn = not was and self.dead and k < n          # the operation the power cut hit
        self.progs += 1
        self.prog_bytes += k
        self.ms += self.prog_ms * ((a + n - 1) // PAGE - a // PAGE + 1)
        mem = self.mem
        if mem is None:
            mem = self._get(a, n)
            b = 0
        else:
            b = a
        for i in range(k):
            v = buf[i]
            o = mem[b + i]
            if o & v != v:
                self.conflicts += 1
            mem[b + i] = o & v
        if torn and k < n:
            mem[b + k] &= buf[k] | 0xF0           # the byte in flight: some of its bits
        if self.mem is None:
            self._put(a, mem)

    def erase(self, sector):
        ss = self.ss
        k = self._budget(ss)
        self.erases += 1
        self.ms += self.erase_ms
        a = sector * ss
        while k > 0:                              # 256 bytes at a time: no sector-sized
            m = k if k < 256 else 256             # buffer on the simulated table's heap
            self._put(a, _FF[:m] if m < 256 else _FF)
            a += m
            k -= m

    def _get(self, a, n):
        if self.mem is not None:
            return self.mem[a:a + n]
        b = bytearray(n)
        self.f.seek(a)
        self.f.readinto(b)
        return b

    def _put(self, a, data):
        if self.mem is not None:
            self.mem[a:a + len(data)] = data
        else:
            self.f.seek(a)
            self.f.write(data)
            self.f.flush()

    # ---- test helpers ------------------------------------------------------------------------

    def power_on(self):
        """The power is back: operations work again (what was cut stays as it was left)."""
        self.dead = False
        self.cut = -1
        self.cut_op = -1

    def image(self):
        return bytes(self._get(0, self.n * self.ss))

    def load(self, data):
        self._put(0, data)

    def close(self):
        if self.f:
            self.f.close()
            self.f = None
