"""The deck registry's UID index (issue 10): O(1) reads that allocate nothing on the board."""
import gc

from uno import cards
from uno.bot import Rng
from uno.cards import NCARDS, Registry, synthetic_registry
from check import raises, skip


def _decks():
    """Synthetic names, and UID families a real enrolment could give: serial numbers that differ
    only in the last byte, only in a middle byte, random 4-, 7- and 10-byte tags, mixed lengths."""
    rng = Rng(3)
    yield [cards.copy_name(i).encode() for i in range(NCARDS)]
    yield [bytes((4, 0x51, 0x22, 0, 0, 0, i)) for i in range(NCARDS)]
    yield [bytes((4, 0x51, 0x22, i, 0x80, 0x11, 0x90)) for i in range(NCARDS)]
    yield [bytes((i, 0, 0, 0)) for i in range(NCARDS)]
    for n in (4, 7, 10):
        yield [bytes(rng.below(256) for _ in range(n - 1)) + bytes((i,)) for i in range(NCARDS)]
    yield [bytes((i,) * (1 + i % 10)) for i in range(NCARDS)]


def _probes(reg, uid):
    h = cards._hash(uid, len(uid))
    k = 1
    while reg.index[h] - 1 != reg.lookup(uid):
        h = (h + 1) & 255
        k += 1
    return k


def test_every_uid_is_found_both_ways_with_short_probes():
    for uids in _decks():
        reg = Registry(uids)
        worst = 0
        for i in range(NCARDS):
            u = uids[i]
            assert reg.card(u) == reg.lookup(u) == i
            assert reg.card(bytearray(u)) == reg.lookup(bytearray(u)) == i
            assert reg.uid(i) == u
            worst = max(worst, _probes(reg, u))
        assert worst <= 16, "a UID %d probes from its slot" % worst
        again = Registry.from_blob(reg.blob)
        assert again.blob == reg.blob and again.index == reg.index


def test_unknown_tags_and_things_that_are_no_uid_give_minus_one():
    reg = synthetic_registry()
    for bad in (b"", b"R7", b"R7e", b"\x04\x01\x02\x03\x04\x05\x06", b"R7a\x00", bytes(11),
                bytes(40), None, 7, "R7a", [82, 55, 97], (1, 2), 1.5):
        assert reg.card(bad) == -1, bad
        assert reg.lookup(bad) == -1, bad
    # a UID inside another's slot, or across two slots, is no card
    assert reg.card(reg.blob[1:3]) == -1
    assert reg.card(reg.blob[10:14]) == -1


def test_the_index_is_small_and_a_read_allocates_nothing():
    reg = synthetic_registry()
    assert len(reg.index) == 256 and len(reg.blob) == NCARDS * 11
    if not hasattr(gc, "mem_alloc"):
        return skip('measures the heap: micropython only (make test-mp): CPython: the host reads through a dict')
    uids = [reg.uid(i) for i in range(NCARDS)]
    unknown = b"\x04\x99\x99\x99\x99\x99\x99"
    lookup = reg.card
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for u in uids:
            lookup(u)
        lookup(unknown)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    assert after == before, "%d bytes allocated by 109 reads" % (after - before)


def test_a_uid_enrolled_twice_is_refused_in_every_family():
    for uids in _decks():
        uids = list(uids)
        uids[40] = uids[77]
        raises(ValueError, Registry, uids)
