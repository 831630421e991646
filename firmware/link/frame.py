"""Frames of the serial link: one printable line each (docs/protocol.md).

    ~1 1f records ? {"from": 1} f0a562c8\\n          request: version, id, verb, "?", payload, crc
    ~1 1f records + A8R/Y/cBCpHL... xxxxxxxx\\n       answer: "+" ok / "-" error (payload: message)

The USB serial is also the REPL's: a frame holds only bytes 0x20..0x7E and its line end, so it
never carries Ctrl-A..E (mpremote's raw REPL, Ctrl-C interrupt) and REPL output around it is
skipped (no "~" start marker, or no valid checksum).
"""
from binascii import crc32

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

VERSION = const(1)
MAX = const(1024)       # bytes of a frame, line end included: bounds the hub's line buffer
MARK = const(0x7E)      # "~": not in base64, starts every frame
MAXVERB = const(8)
MAXID = const(0xFFFF)

REQ = "?"               # status field: a request
OK = "+"                # an answer: done, payload = result
ERR = "-"               # an answer: refused, payload = message

# FrameError.reason
GARBAGE = const(1)      # not a frame: no marker, control bytes, bad fields
BAD_CRC = const(2)      # looks like a frame, checksum wrong: damaged in transit
BAD_VERSION = const(3)  # intact frame of another protocol version
TOO_LONG = const(4)     # over MAX bytes

REASONS = ("", "garbage", "bad checksum", "wrong version", "oversized")

_HEX = b"0123456789abcdef"


class FrameError(ValueError):
    """A line that is not a usable frame. reason: GARBAGE, BAD_CRC, BAD_VERSION or TOO_LONG.

    For BAD_VERSION the checksum held, so .version and .rid (or -1) can be trusted.
    """

    def __init__(self, reason, msg, version=-1, rid=-1):
        super().__init__("%s: %s" % (REASONS[reason], msg))
        self.reason = reason
        self.version = version
        self.rid = rid


def printable(b):
    """True if every byte of b is 0x20..0x7E."""
    for c in b:
        if c < 0x20 or c > 0x7E:
            return False
    return True


def ascii_text(s):
    """str -> printable ASCII bytes: non-ASCII as \\uXXXX (JSON-safe), control chars as '?'."""
    try:
        b = s.encode()
    except AttributeError:
        b = bytes(s)
    if printable(b):
        return b
    out = []
    for ch in s:
        o = ord(ch)
        if o > 0xFFFF:           # a JSON surrogate pair
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 | o >> 10, 0xDC00 | o & 0x3FF))
        elif o > 0x7E:
            out.append("\\u%04x" % o)
        elif o < 0x20:
            out.append("?")      # json.dumps already escaped these; only raw messages get here
        else:
            out.append(ch)
    return "".join(out).encode()


def encode_into(buf, rid, verb, status, payload, check=True):
    """Writes one frame into bytearray buf (MAX bytes); returns its length.

    payload: bytes or str, printable ASCII (check=False skips the scan, e.g. for base64).
    Raises ValueError for a bad field or a frame over MAX.
    """
    if not 0 <= rid <= MAXID:
        raise ValueError("request id out of range")
    if not 0 < len(verb) <= MAXVERB:
        raise ValueError("bad verb %r" % (verb,))
    for ch in verb:
        if not "a" <= ch <= "z":      # str.isalpha() would let non-ASCII letters through
            raise ValueError("bad verb %r" % (verb,))
    if status != REQ and status != OK and status != ERR:
        raise ValueError("bad status")
    if isinstance(payload, str):
        payload = payload.encode()
    if check and not printable(payload):
        raise ValueError("payload not printable ASCII")
    head = ("~%d %x %s %s " % (VERSION, rid, verb, status)).encode()
    i = len(head)
    n = len(payload)
    end = i + n + 10
    if end > MAX:
        raise ValueError("frame of %d bytes over %d" % (end, MAX))
    buf[0:i] = head
    buf[i:i + n] = payload
    i += n
    c = crc32(memoryview(buf)[0:i])
    buf[i] = 0x20
    for k in range(8):
        buf[i + 8 - k] = _HEX[c & 15]
        c >>= 4
    buf[i + 9] = 0x0A
    return end


def encode(rid, verb, status, payload=b"", check=True):
    """One frame as bytes (see encode_into)."""
    buf = bytearray(MAX)
    n = encode_into(buf, rid, verb, status, payload, check)
    return bytes(buf[0:n])


def _hexval(b, i, j):
    # Lowercase hex digits b[i:j] -> int, or -1.
    v = 0
    if i >= j:
        return -1
    for k in range(i, j):
        c = b[k]
        if 0x30 <= c <= 0x39:
            v = v << 4 | (c - 0x30)
        elif 0x61 <= c <= 0x66:
            v = v << 4 | (c - 0x57)
        else:
            return -1
    return v


def decode(line):
    """One line (line end optional) -> (rid, verb, status, payload bytes); FrameError if not."""
    n = len(line)
    if n and line[n - 1] == 0x0A:
        n -= 1
    if n and line[n - 1] == 0x0D:    # a board's cooked stdout may send \r\n
        n -= 1
    if n + 1 > MAX:
        raise FrameError(TOO_LONG, "%d bytes, at most %d" % (n + 1, MAX))
    if not n or line[0] != MARK:
        raise FrameError(GARBAGE, "no start marker")
    b = bytes(line[0:n]) if not isinstance(line, bytes) or n != len(line) else line
    if not printable(b):
        raise FrameError(GARBAGE, "control or non-ASCII byte")
    if n < 18 or b[n - 9] != 0x20:
        raise FrameError(GARBAGE, "no checksum")
    want = _hexval(b, n - 8, n)
    if want < 0:
        raise FrameError(GARBAGE, "checksum not hex")
    if crc32(memoryview(b)[0:n - 9]) != want:
        raise FrameError(BAD_CRC, "crc32 %08x expected" % want)
    # Fields: version, id, verb, status, then the payload (may hold spaces) up to the checksum.
    sp = []  # type: list
    i = 1
    while len(sp) < 4:
        j = b.find(b" ", i)
        if j < 0 or j >= n - 9:
            raise FrameError(GARBAGE, "missing fields")
        sp.append((i, j))
        i = j + 1
    i, j = sp[0]
    ver = 0
    if i == j:
        raise FrameError(GARBAGE, "no version")
    for k in range(i, j):
        c = b[k]
        if not 0x30 <= c <= 0x39:
            raise FrameError(GARBAGE, "version not a number")
        ver = ver * 10 + c - 0x30
    ri, rj = sp[1]
    rid = _hexval(b, ri, rj) if rj - ri <= 4 else -1
    if ver != VERSION:
        raise FrameError(BAD_VERSION, "protocol %d, this side speaks %d" % (ver, VERSION), ver, rid)
    if rid < 0:
        raise FrameError(GARBAGE, "bad request id")
    i, j = sp[2]
    verb = str(b[i:j], "ascii")
    if not 0 < j - i <= MAXVERB or not verb.isalpha() or not verb.islower():
        raise FrameError(GARBAGE, "bad verb")
    i, j = sp[3]
    st = str(b[i:j], "ascii")
    if st != REQ and st != OK and st != ERR:
        raise FrameError(GARBAGE, "bad status")
    return rid, verb, st, b[j + 1:n - 9]


def find(line):
    """decode() at the first "~" of line that starts a frame (noise may precede it on the line).

    Raises the FrameError of the first candidate when none decodes.
    """
    i = line.find(b"~")
    first = None
    while i >= 0:
        try:
            return decode(line[i:])
        except FrameError as e:
            if first is None:
                first = e
        i = line.find(b"~", i + 1)
    raise first or FrameError(GARBAGE, "no start marker")
