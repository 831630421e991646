"""Card notation (SPEC 3), the 108-card deck and the deck registry (UID -> card).

A physical card is an index 0..107 into DECK. Its face is one byte: colour << 4 | rank.
Two copies of a face are told apart by a letter: R7a, R7b (wilds a..d); plain R7 is the face.
"""
try:
    from micropython import const
    _HOST = const(0)  # as in uno/table.py: no test on the board
except ImportError:  # CPython
    globals()["_HOST"] = True  # (as in uno/table.py)

    def const(x):
        return x

RED = const(0)
YELLOW = const(1)
GREEN = const(2)
BLUE = const(3)
WILD = const(4)  # colour of W and W4 until played
COLOURS = "RYGB"

RANK_SKIP = const(10)
RANK_REVERSE = const(11)
RANK_DRAW2 = const(12)
RANK_WILD = const(13)
RANK_WILD4 = const(14)
RANKS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D", "W", "W4")

NCARDS = const(108)


def _deck():
    faces = bytearray()
    for c in range(4):
        faces.append(c << 4)  # one 0
        for r in range(1, 13):
            faces.append(c << 4 | r)
            faces.append(c << 4 | r)
    for r in (RANK_WILD, RANK_WILD4):
        for _ in range(4):
            faces.append(WILD << 4 | r)
    return bytes(faces)


_FACES = _deck()
# face of each physical card, in canonical order: bytes on the board (108 bytes of heap), a
# tuple on the host, which CPython 3.11 indexes in one specialised step (bytes: the generic
# subscript, a few times every input; issue 10's replay bench)
DECK = tuple(_FACES) if _HOST else _FACES


def colour(card):
    return DECK[card] >> 4


def rank(card):
    return DECK[card] & 15


def points(card):
    """D2: a number its face value; S, R, D 20; W, W4 50."""
    r = DECK[card] & 15
    return r if r < 10 else (20 if r < RANK_WILD else 50)


def face_name(face):
    c, r = face >> 4, face & 15
    return RANKS[r] if c == WILD else COLOURS[c] + RANKS[r]


def name(card):
    """Face notation of a physical card: R7, GS, W4."""
    return face_name(DECK[card])


def copy_name(card):
    """Names one physical copy: R7a, R7b, W4c."""
    face = DECK[card]
    k = 0
    while card - k - 1 >= 0 and DECK[card - k - 1] == face:
        k += 1
    return face_name(face) + "abcd"[k]


def parse_face(text):
    """R7 -> face byte; W, W4 accepted; raises ValueError on anything else."""
    if text == "W":
        return WILD << 4 | RANK_WILD
    if text == "W4":
        return WILD << 4 | RANK_WILD4
    if len(text) == 2:
        c = COLOURS.find(text[0])
        r = RANKS.index(text[1]) if text[1] in RANKS[:13] else -1
        if c >= 0 and r >= 0:
            return c << 4 | r
    raise ValueError("not a card: %r" % text)


def parse_card(text):
    """R7 -> (face, None); R7b -> (face, card index of copy b)."""
    copy = text[-1:]
    if copy and copy in "abcd" and len(text) > 1:
        face = parse_face(text[:-1])
        card = _FACES.find(bytes((face,))) + "abcd".index(copy)
        if card >= NCARDS or DECK[card] != face:
            raise ValueError("no such copy: %r" % text)
        return face, card
    return parse_face(text), None


def copies(face):
    """Physical indices of every copy of a face."""
    first = _FACES.find(bytes((face,)))
    out = []
    i = first
    while i < NCARDS and DECK[i] == face:
        out.append(i)
        i += 1
    return out


def played_name(card, col):
    """A played wild records the chosen colour: W>R, W4>G."""
    n = name(card)
    return n + ">" + COLOURS[col] if colour(card) == WILD and 0 <= col < 4 else n


_SLOT = const(11)  # a UID's length, then up to 10 bytes (NFC UIDs are 4, 7 or 10)
_INDEX = const(256)  # hash slots of the UID index (108 cards: under half full, short probes)


def _hash(uid, n):
    """Mixes every byte of a UID (enrolled tags may differ in any one); no allocation for bytes.

    MicroPython: the interpreter's own hash of the bytes (computed in C when the bytes are
    made; its low byte changes with every byte of the UID), a bytearray read copied for it.
    CPython randomises hash() per process: there a loop (the host reads through a dict)."""
    if _HOST:
        h = n
        for i in range(n):
            h = (h * 31 + uid[i]) & 0xFFFF
        return (h ^ (h >> 8)) & (_INDEX - 1)
    return hash(uid if type(uid) is bytes else bytes(uid)) & (_INDEX - 1)


if _HOST:
    class _Uids(dict):
        def __missing__(self, uid):  # an unknown tag, or anything else hashable
            return -1


class Registry:
    """The enrolled deck: tag UID (bytes) -> physical card, and back.

    One bytes object of 108 slots (about 1.2 KB instead of a dict of 108 bytes objects, which
    costs several KB of the board's heap), and a 256-byte open-addressing index into it: a read
    costs one hash of the UID and, mostly, one compare, and allocates nothing.
    """

    def __init__(self, uids):
        if len(uids) != NCARDS:
            raise ValueError("a deck has %d cards, got %d UIDs" % (NCARDS, len(uids)))
        blob = bytearray(NCARDS * _SLOT)
        for i in range(NCARDS):
            u = uids[i]
            n = len(u)
            if not 1 <= n < _SLOT:
                raise ValueError("a UID has 1 to 10 bytes: %r" % (u,))
            o = i * _SLOT
            blob[o] = n
            blob[o + 1:o + 1 + n] = u
        self.blob = bytes(blob)
        self.index = index = bytearray(_INDEX)  # card + 1 at the UID's slot (0: free)
        for i in range(NCARDS):
            u = uids[i]
            if self.card(u) >= 0:
                raise ValueError("UID enrolled twice: %r" % (u,))
            h = _hash(u, len(u))
            while index[h]:
                h = (h + 1) & (_INDEX - 1)
            index[h] = i + 1
        if _HOST:  # the host has heap to spare: a dict is faster there; the board keeps the index
            self._uids = _Uids((bytes(uids[i]), i) for i in range(NCARDS))
            self.card = self._host_card
            self.find = self._uids.__getitem__  # no Python frame: Table.feed's one lookup

    def _host_card(self, uid):
        try:
            return self._uids[uid]
        except TypeError:  # unhashable: a bytearray read, or not a UID at all
            return self.lookup(uid)

    def card(self, uid):
        """Physical card of a UID, or -1 for an unknown tag (or anything that is not a UID)."""
        try:
            n = len(uid)
            if not 0 < n < _SLOT:
                return -1
            # _hash, inline on the board: a call costs it more than the hash
            h = _hash(uid, n) if _HOST else hash(uid if type(uid) is bytes else bytes(uid)) & (_INDEX - 1)
            index = self.index
            blob = self.blob
            while True:
                c = index[h]
                if not c:
                    return -1
                o = (c - 1) * _SLOT
                if blob[o] == n and blob.find(uid, o + 1, o + 1 + n) == o + 1:
                    return c - 1
                h = (h + 1) & (_INDEX - 1)
        except (TypeError, ValueError):
            return -1

    lookup = card  # through the index, as the board reads (the host's card() is a dict)

    if not _HOST:  # (the host's find is its dict's own lookup, set in __init__: CPython 3.11
        # specialises no load of an instance attribute the class also has, issue 10)
        def find(self, uid):
            """card(), for Table.feed's every read (the host's: a dict's own lookup, which
            raises TypeError for what it cannot hash: a bytearray read, then the caller asks
            card()). A UID as bytes, as the readers give it, in a frame of at most 11 words: a
            bytecode function with more takes its frame from the heap at each call
            (py/objfun.c)."""
            if type(uid) is not bytes or not 0 < len(uid) < _SLOT:
                return self.card(uid)
            h = hash(uid) & (_INDEX - 1)
            while True:
                c = self.index[h]
                if not c:
                    return -1
                o = c * _SLOT - (_SLOT - 1)  # (c - 1) * _SLOT + 1: where the UID's bytes start
                if self.blob[o - 1] == len(uid) and self.blob.startswith(uid, o):
                    return c - 1
                h = (h + 1) & (_INDEX - 1)

    @classmethod
    def from_blob(cls, blob):
        """A registry from the bytes of another's .blob (a deck file); ValueError if bad."""
        if len(blob) != NCARDS * _SLOT:
            raise ValueError("%d bytes, want %d" % (len(blob), NCARDS * _SLOT))
        uids = []
        for i in range(NCARDS):
            o = i * _SLOT
            uids.append(blob[o + 1:o + 1 + blob[o]])
        return cls(uids)

    def uid(self, card):
        o = card * _SLOT
        return self.blob[o + 1:o + 1 + self.blob[o]]

    def synthetic(self):
        return self.blob[:4] == b"\x03R0a"


_synthetic = None


def synthetic_registry():
    """Tests, scripts and the simulator: each tag's UID is its copy name (b'R7a').
    Made once: a registry never changes, and making one (its index) costs more than a round."""
    global _synthetic
    if _synthetic is None:
        _synthetic = Registry([copy_name(i).encode() for i in range(NCARDS)])
    return _synthetic
