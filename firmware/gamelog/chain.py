"""The tamper-evident chain over the table's inputs (docs/log.md, "Chain").

head_n = sha256(head_{n-1} || canon(input n)), from GENESIS. Each input record keeps tag(head)
(4 bytes) on flash and on the wire; each segment header keeps the full head before its first
record, so checking resumes there after a gap. mac_head() authenticates a head with the key the
hub hands to a paired host. Pure: the hub and the host import the same code.
"""
import hashlib
import struct

GENESIS = bytes(32)
CANON_MAX = 64      # canon() of any valid input fits
RULE_MAX = 32       # bytes of a rule's "name=value" text
NAME_MAX = 24       # bytes of a player's name (uno.table.good_name)

_BLK = 64           # SHA-256 block size (RFC 2104's B)


def canon_into(b, seq, t, wall, inp):
    """Canonical bytes of one input record into bytearray b; returns their length.

    seq u32 LE, t u64 LE, wall 0/1, kind, then by kind: uid len + uid (1, 2); value, long (3, 4);
    nothing (5); ms u64 (6); text len + "name=value" UTF-8 (7); n u32 (8); seat, text len +
    name UTF-8 (9). This is where an
    input is checked: ValueError for a malformed one (the log calls it before writing).
    """
    k = inp[0]
    struct.pack_into("<IQBB", b, 0, seq, t, 1 if wall else 0, k)
    i = 14
    if k == 1 or k == 2:
        u = inp[1]
        n = len(u)
        if not 0 < n <= 16:
            raise ValueError("uid must be 1..16 bytes")
        b[i] = n
        b[i + 1:i + 1 + n] = u
        i += 1 + n
    elif k == 3 or k == 4:
        a = inp[1]
        if not 0 <= a <= 255:
            raise ValueError("seat/colour out of range")
        b[i] = a
        b[i + 1] = 1 if len(inp) > 2 and inp[2] else 0
        i += 2
    elif k == 6:
        a = inp[1]
        if a < 0 or a >> 49:
            raise ValueError("tick ms out of range")
        struct.pack_into("<Q", b, i, a)
        i += 8
    elif k == 7:
        text = ("%s=%s" % (inp[1], inp[2])).encode()
        n = len(text)
        if n > RULE_MAX:
            raise ValueError("rule too long")
        b[i] = n
        b[i + 1:i + 1 + n] = text
        i += 1 + n
    elif k == 8:
        a = inp[1]
        if not 0 < a < 65536:
            raise ValueError("take-back count out of range")
        struct.pack_into("<I", b, i, a)
        i += 4
    elif k == 9:
        a = inp[1] if len(inp) == 3 else -1
        if a < 0 or a > 255 or type(inp[2]) is not str:
            raise ValueError("a player is a seat and a name")
        text = inp[2].encode()
        n = len(text)
        if not 0 < n <= NAME_MAX:
            raise ValueError("a player's name is 1..%d bytes" % NAME_MAX)
        b[i] = a
        b[i + 1] = n
        b[i + 2:i + 2 + n] = text
        i += 2 + n
    elif k != 5:
        raise ValueError("unknown input kind %r" % (k,))
    return i


def canon(seq, t, wall, inp):
    """Canonical encoding of one input record (what the chain hashes)."""
    b = bytearray(CANON_MAX)
    return bytes(b[:canon_into(b, seq, t, wall, inp)])


def step(h, seq, t, wall, inp):
    """The head after one more input: sha256(h || canon(seq, t, wall, inp))."""
    s = hashlib.sha256(h)
    s.update(canon(seq, t, wall, inp))
    return s.digest()


def tag(h):
    """The per-record tag: the first 4 bytes of the head after that record."""
    return h[:4]


def hmac_sha256(key, msg):
    """HMAC-SHA256 (RFC 2104) over hashlib.sha256: MicroPython has no hmac module."""
    if len(key) > _BLK:
        key = hashlib.sha256(key).digest()
    k = bytearray(_BLK)
    k[:len(key)] = key
    ipad = bytearray(_BLK)
    opad = bytearray(_BLK)
    for i in range(_BLK):
        ipad[i] = k[i] ^ 0x36
        opad[i] = k[i] ^ 0x5C
    inner = hashlib.sha256(ipad)
    inner.update(msg)
    outer = hashlib.sha256(opad)
    outer.update(inner.digest())
    return outer.digest()


def mac_head(key, table_id, seq, h):
    """Authenticator of the chain head h after input seq of table table_id (8 bytes)."""
    if len(table_id) != 8 or len(h) != 32:
        raise ValueError("table id is 8 bytes, a head 32")
    return hmac_sha256(key, b"UNOHEAD1" + bytes(table_id) + struct.pack("<I", seq) + bytes(h))
