"""Record batches at their edges (issue 8, "Tests that would notice"): an entry is taken
exactly when the batch with it stays within the limit, room for the head to the byte, the
longest varints, and a registry fingerprint of 0."""
from check import raises
from linkkit import random_records, registry, SEAT, SHUFFLE, PAD
from link.codec import (Encoder, encode, decode, CodecError, RegistryMismatch, TRAILER,
                        B_REG)


def _entries():
    recs = random_records(300, 11, gaps=True)
    # seq skips and gap spans at the varint edges (127/128 and 16383/16384 seqs skipped)
    seq = recs[-1][1] if len(recs[-1]) == 3 else recs[-1][0]
    for skip, span in ((128, 127), (129, 128), (16384, 16383), (16385, 16384), (1, 0)):
        seq += skip
        recs.append((seq, seq + span, "damaged"))
        seq += span + skip
        recs.append((seq, 5000, False, (SEAT, 3, 0), b"\x01\x02\x03\x04"))
    return recs


def _fill(e, recs, i, lim):
    e.start(lim)
    j = i
    while j < len(recs):
        r = recs[j]
        ok = e.gap(*r) if len(r) == 3 else e.add(*r)
        if not ok:
            break
        j += 1
    return j


def test_an_entry_is_taken_exactly_when_the_batch_with_it_fits():
    # (with a registry the encoder keeps 4 bytes for its fingerprint from the start, whether a
    # card comes or not: exact without one)
    for reg in (None, registry()):
        _exactly(reg, 4 if reg else 0)


def _exactly(reg, slack):
    recs = _entries()
    e = Encoder(reg, 744)
    for lim in (12, 17, 23, 31, 40, 57, 64, 100, 129, 200):
        i = 0
        while i < len(recs):
            j = _fill(e, recs, i, lim)
            data = bytes(e.finish(j < len(recs)))
            assert len(data) <= lim, (lim, i, j)
            if j < len(recs):
                # the refused entry: the batch with it is over the limit
                tagged = [r for r in recs[i:j + 1]]
                whole = encode(tagged, reg, True)
                assert len(whole) > lim - slack, (lim, i, j, len(whole))
            if j == i:                    # a single entry bigger than the limit
                j = i + 1
            i = j


def test_gap_refused_is_false_and_writes_nothing():
    e = Encoder(None, 744)
    e.start(8)
    assert e.gap(1, 1, "pruned") is True
    before = bytes(e.finish())
    assert e.gap(3, 1 << 40, "damaged") is False
    assert bytes(e.finish()) == before


def test_the_head_fits_to_the_byte():
    # finish() keeps TRAILER bytes for the head: a batch that leaves exactly that much closes
    # with its head; one byte less is refused
    h = bytes(range(32))
    mac = bytes(range(32, 64))
    for size, ok in ((2 + TRAILER, True), (1 + TRAILER, False)):
        e = Encoder(None, size)
        e.start()
        assert e.add(1, 0, False, (SHUFFLE,))              # 2 bytes: tag, time
        if ok:
            out, more, head = decode(bytes(e.finish(False, (1, h, mac))))
            assert head == (1, h, mac) and out == [(1, 0, False, (SHUFFLE,), None)]
        else:
            raises(ValueError, e.finish, False, (1, h, mac))
    assert TRAILER == 5 + 32 + 32


def test_the_longest_varints_decode_and_one_byte_more_is_damage():
    big = (1 << 64) - 1                                   # 10 bytes
    data = encode([(1, big, False, (SHUFFLE,))])
    assert decode(data)[0] == [(1, big, False, (SHUFFLE,), None)]
    i = data.index(b"\xff" * 9 + b"\x01")
    longer = data[:i] + b"\xff" * 9 + b"\x81\x00" + data[i + 10:]
    raises(CodecError, decode, longer)


def test_a_fingerprint_of_0_is_still_a_registry_fingerprint():
    reg = registry()
    data = bytearray(encode([(1, 5, False, (PAD, reg.uid(3)))], reg))
    assert data[0] & B_REG
    data[1:5] = bytes(4)                                  # fingerprint 0: not this registry
    e = raises(CodecError, decode, bytes(data), reg)
    assert isinstance(e, RegistryMismatch), e


def test_a_record_after_a_seq_skip_fits_to_the_byte():
    for skip in (1, 2, 127, 128, 129, 130, 16383, 16384, 16385, 16386):
        _second_fits_to_the_byte((1, 100, False, (SEAT, 1, 0)),
                                 (2 + skip, 150, False, (SEAT, 2, 0)))


def _second_fits_to_the_byte(r1, r2):
    # r2 after r1 is taken by a batch of exactly their size, refused by one a byte smaller
    n = len(encode([r1, r2]))
    for lim, ok in ((n, True), (n - 1, False)):
        e = Encoder(None, 744)
        e.start(lim)
        assert e.add(*r1)
        assert e.add(*r2) == ok, (r2, lim)
        assert len(e.finish()) <= lim


def test_each_kind_of_input_fits_to_the_byte():
    # (linkkit's random inputs have no player: every kind is tried here alone, after a first)
    r1 = (1, 100, False, (SEAT, 1, 0))
    for inp in ((9, 3, "Li Wei"), (9, 255, "\u674e\u4f1f"), (9, 0, "x" * 24), (8, 1),
                (8, 70000), (7, "stacking", "on"), (7, "target", 500), (6, 16384),
                (SHUFFLE,), (PAD, b"\x04\x01\x02\x03"), (4, 2, 1)):
        r2 = (2, 150, False, inp)
        _second_fits_to_the_byte(r1, r2)
        assert decode(encode([r1, r2]))[0][1][:4] == r2[:4]


def test_an_input_of_no_known_kind_is_refused_by_name():
    for k in (0, 10, 99):
        e = raises(ValueError, encode, [(1, 100, False, (k, 1, 2))])
        assert str(e) == "unknown input kind %d" % k, e


def test_a_gap_cause_byte_this_side_does_not_know_reads_as_other():
    a = encode([(5, 9, "order")])
    b = encode([(5, 9, "foreign")])
    at = [i for i in range(len(a)) if a[i] != b[i]]
    assert len(at) == 1
    for c in (6, 255):
        x = bytearray(a)
        x[at[0]] = c
        assert decode(bytes(x))[0] == [(5, 9, "other")], c
