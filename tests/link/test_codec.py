"""Record batches for sync: exact round trips, one byte per known card, limits, damage."""
from check import raises
from linkkit import (random_records, registry, deck_uids, SHOE, PAD, SEAT, COLOUR, SHUFFLE,
                     TICK, RULE, UNDO)
from link import codec
from link.codec import Encoder, encode, decode as decode3, CodecError, RegistryMismatch


def five(recs):
    """Entries as decode gives them back: a record without a chain tag has tag None."""
    return [r + (None,) if len(r) == 4 else r for r in recs]


def decode(data, reg=None):
    """(entries, more) of a batch without a head."""
    out, more, head = decode3(data, reg)
    assert head is None
    return out, more


def test_constants_match_the_engine():
    from uno import cards, events
    assert codec.NCARDS == cards.NCARDS
    assert (codec.IN_SHOE, codec.IN_PAD, codec.IN_SEAT, codec.IN_COLOUR, codec.IN_SHUFFLE,
            codec.IN_TICK, codec.IN_RULE) == (events.IN_SHOE, events.IN_PAD, events.IN_SEAT,
                                              events.IN_COLOUR, events.IN_SHUFFLE,
                                              events.IN_TICK, events.IN_RULE)


def test_random_round_trips_with_and_without_registry():
    reg = registry()
    for seed in range(1, 9):
        recs = random_records(250, seed)
        for r in (reg, None):
            for more in (False, True):
                for rs in (recs, random_records(250, seed, tags=False, gaps=True)):
                    got = decode(encode(rs, r, more), r)
                    assert got == (five(rs), more), seed


def test_every_input_shape_round_trips_exactly():
    uids = deck_uids()
    ins = [(SHOE, uids[0]), (PAD, uids[107]), (PAD, b"\x04\x99\x99\x99\x99\x99\x07"),
           (SHOE, b"\x01"), (PAD, bytes(range(10))), (PAD, b"\xff" * 16), (PAD, b""),
           (SEAT, 1, 0), (SEAT, 10, 1), (SEAT, 0, 0), (SEAT, 255, 1), (SEAT, 256, 0),
           (COLOUR, 0, 0), (COLOUR, 3, 1), (COLOUR, 4, 0), (COLOUR, -1, 1), (COLOUR, 99, 0),
           (COLOUR, -(1 << 35), 0), (SHUFFLE,), (TICK, 0), (TICK, 123456), (TICK, 5),
           (TICK, 1 << 48), (RULE, "stacking", "on"), (RULE, "hand_size", 7),
           (RULE, "preset", "party"), (RULE, "x", -5), (RULE, "\u00e9", "\u00e9t\u00e9"),
           (RULE, "", "")]
    recs = [(i + 1, 1000 * i, False, inp) for i, inp in enumerate(ins)]
    reg = registry()
    assert decode(encode(recs, reg), reg) == (five(recs), False)
    assert decode(encode(recs), None) == (five(recs), False)


def test_input_tuples_with_unused_slots_come_back_in_their_shape():
    recs = [(1, 5, False, (SHUFFLE, 0, 0)), (2, 6, False, (SEAT, 3))]
    got = decode(encode(recs))[0]
    assert [r[3] for r in got] == [(SHUFFLE,), (SEAT, 3, 0)]


def test_a_known_card_read_is_four_bytes_a_press_four_a_shuffle_three():
    reg = registry()
    uid = deck_uids()[42]
    base = [(1, 0, False, (SHUFFLE,))]
    n0 = len(encode(base, reg))
    # tag + 2-byte time delta (200..3000 ms) + payload
    for inp, size in (((PAD, uid), 4), ((SHOE, uid), 4), ((SEAT, 4, 1), 4), ((COLOUR, 2, 0), 4),
                      ((SHUFFLE,), 3), ((TICK, 2000), 5)):
        assert len(encode(base + [(2, 2500, False, inp)], reg)) - n0 == size + 4 * (
            inp[0] in (PAD, SHOE)), inp        # + the registry fingerprint, once per batch
    b = encode(base + [(2, 2500, False, (PAD, b"\x04\x01\x02\x03\x04\x05\x06"))], reg)
    assert len(b) - n0 == 1 + 2 + 1 + 7       # unknown tag: length + the whole UID


def test_seq_gaps_time_jumps_and_clock_changes():
    recs = [(5, 100, False, (SHUFFLE,)), (6, 50, False, (SHUFFLE,)),     # reboot: time back
            (9, 60, False, (SHUFFLE,)),                                    # snapshots in between
            (100009, 1750000000, True, (SEAT, 1, 0)),                      # host set the clock
            (100010, 1750000003, True, (SEAT, 2, 0)),
            (100011, 70, False, (SEAT, 3, 0)),                             # reboot, no clock
            (1 << 32, 0, False, (SHUFFLE,))]
    assert decode(encode(recs)) == (five(recs), False)


def test_ticks_are_small_deltas():
    recs = [(i + 1, i * 250, False, (TICK, 100000 + i * 250)) for i in range(50)]
    b = encode(recs)
    assert decode(b) == (five(recs), False)
    assert len(b) < 50 * 5 + 10


def test_empty_batch():
    assert decode(encode([])) == ([], False)
    assert decode(encode([], None, True)) == ([], True)


def test_a_batch_naming_cards_needs_the_same_registry():
    reg = registry()
    b = encode([(1, 0, False, (PAD, deck_uids()[3]))], reg)
    raises(RegistryMismatch, decode, b)
    raises(RegistryMismatch, decode, b, registry(salt=1))
    assert decode(b, reg)[0][0][3] == (PAD, deck_uids()[3])
    # no card index used: no fingerprint, decodes without a registry
    b2 = encode([(1, 0, False, (PAD, b"\x04\x00\x00\x00"))], reg)
    assert decode(b2) == ([(1, 0, False, (PAD, b"\x04\x00\x00\x00"), None)], False)


def test_encoder_limit_is_never_passed_and_batches_resume():
    reg = registry()
    recs = random_records(400, 7, gaps=True)
    e = Encoder(reg, 744)
    for lim in (40, 100, 333, 744, 0):
        got = []
        i = 0
        while i < len(recs):
            e.start(lim)
            j = i
            while j < len(recs) and (e.gap(*recs[j]) if len(recs[j]) == 3 else e.add(*recs[j])):
                j += 1
            data = e.finish(j < len(recs))
            assert len(data) <= (lim or 744), (lim, len(data))
            assert j > i
            rs, more = decode(bytes(data), reg)
            assert more == (j < len(recs))
            got.extend(rs)
            i = j
        assert got == recs, lim


def test_a_record_that_does_not_fit_writes_nothing():
    e = Encoder(None, 744)
    e.start(20)
    assert e.add(1, 0, False, (SEAT, 1, 0))
    before = bytes(e.finish())
    assert not e.add(2, 10, False, (PAD, bytes(30)))
    assert bytes(e.finish()) == before


def test_malformed_records_are_refused():
    e = Encoder(None)
    for r in ((0, 0, False, (SHUFFLE,)), (1, -1, False, (SHUFFLE,)), (1, 0, False, (9, 1)),
              (1, 0, False, (8, -1)), (1, 0, False, (8,)), (1, 0, False, (SHUFFLE,), b"abc"),
              (1, 0, False, (0,)), (1, 0, False, (PAD, "R7a")), (1, 0, False, (PAD, bytes(256))),
              (1, 0, False, (SEAT, "1", 0)), (1, 0, False, (RULE, 5, "x")),
              (1, 0, False, (RULE, "x", 1.5)), (1, 0, False, (RULE, "x" * 256, 1)),
              (1, 0, False, (9, 1, b"Ann")), (1, 0, False, (9, 256, "Ann")),
              (1, 0, False, (10, 1))):
        e.start()
        raises(ValueError, e.add, *r)
    e.start()
    e.add(5, 0, False, (SHUFFLE,))
    raises(ValueError, e.add, 5, 0, False, (SHUFFLE,))     # seqs must increase


def test_damaged_batches_raise_codec_error():
    reg = registry()
    recs = random_records(30, 3)
    b = encode(recs, reg)
    for n in range(len(b)):               # every truncation
        raises(CodecError, decode, b[:n], reg)
    raises(CodecError, decode, b + b"\x05", reg)
    raises(CodecError, decode, b"\x80\x01\x00", reg)      # unknown flag bit
    raises(CodecError, decode, b"\x00\x01\x01\x00\x09\x00", reg)   # ext kind 9
    raises(CodecError, decode, b"\x00\x01\x01\x05\x00", reg)   # first record without ABS


def test_encoder_card_lookup_agrees_with_the_registry():
    for reg in (registry(), registry(salt=5)):
        e = Encoder(reg)
        for i in range(108):
            assert e.card(reg.uid(i)) == reg.card(reg.uid(i)) == i
    from uno.cards import synthetic_registry
    reg = synthetic_registry()
    e = Encoder(reg)
    for i in range(108):
        assert e.card(reg.uid(i)) == i
    for u in (b"", b"R7", b"R7a\x00", b"\x04\x99\x99\x99\x99\x99\x07", bytes(10)):
        assert e.card(u) == -1


def test_a_batch_is_these_exact_bytes_with_varints_at_127_128_16383_16384():
    recs = [(127, 128, False, (SEAT, 2, 0), b"\x01\x02\x03\x04"),
            (128, 128 + 16383, False, (SHUFFLE,), b"\x05\x06\x07\x08"),
            (200, 200 + 16384, "damaged"),
            (16585, 16511 + 16384, False, (UNDO, 127), b"\x09\x0a\x0b\x0c")]
    head = (16585, b"\xaa" * 32, b"\xbb" * 32)
    want = bytes.fromhex(
        "0c7f04"                        # flags CHAIN|HEAD, first seq 127, 4 entries
        "13" "8001" "01020304" "02"     # seat 2: ABS time 128, its tag, seat
        "05" "ff7f" "05060708"          # shuffle: +16383 ms, its tag
        "40" "46" "00" "808001" "02"    # gap: skips 71 seqs (200), ext GAP, 16384 more, damaged
        "00" "08" "808001" "090a0b0c" "7f"  # undo 127: ext kind 8, +16384 ms, its tag, n
        "c98101") + b"\xaa" * 32 + b"\xbb" * 32   # the head's seq 16585, head, mac
    got = encode(recs, None, False, head)
    assert got == want, got
    assert decode3(want) == (recs, False, head)


def test_chain_tags_cost_four_bytes_a_record_and_the_head_one_trailer():
    reg = registry()
    recs = random_records(200, 4, tags=False)
    tagged = [r[:4] + (b"\x01\x02\x03\x04",) for r in recs]
    plain = len(encode(recs, reg))
    assert len(encode(tagged, reg)) == plain + 4 * 200
    h = (tagged[-1][0], bytes(32), bytes(32))
    assert len(encode(tagged, reg, False, h)) == plain + 4 * 200 + 64 + codec.uv_len(h[0])


def test_gaps_are_entries_with_their_range_and_cause():
    recs = [(1, 0, False, (SHUFFLE,), b"aaaa"), (2, 9, "pruned"), (10, 5, False, (SEAT, 1, 0),
            b"bbbb"), (12, 20, "foreign"), (21, 30, "order"), (40, 40, "missing"),
            (41, 7, False, (SEAT, 2, 1), b"cccc")]
    assert decode3(encode(recs)) == (recs, False, None)
    # a batch may begin with a gap; its first record still carries an absolute time
    only = [(5, 7, "damaged"), (8, 12345, False, (SHUFFLE,), b"dddd")]
    assert decode3(encode(only)) == (only, False, None)
    # a cause this side does not know travels as "other"
    assert decode3(encode([(3, 4, "eaten")]))[0] == [(3, 4, "other")]
    e = Encoder(None)
    e.start()
    assert e.add(5, 0, False, (SHUFFLE,))
    raises(ValueError, e.gap, 5, 6, "pruned")          # seqs must increase
    raises(ValueError, e.gap, 9, 8, "pruned")          # first <= last


def test_every_record_of_a_batch_has_a_tag_or_none_has():
    e = Encoder(None)
    e.start()
    assert e.add(1, 0, False, (SHUFFLE,), b"abcd")
    raises(ValueError, e.add, 2, 0, False, (SHUFFLE,))
    e.start()
    assert e.add(1, 0, False, (SHUFFLE,))
    raises(ValueError, e.add, 2, 0, False, (SHUFFLE,), b"abcd")


def test_the_head_needs_room_kept_for_it():
    e = Encoder(None, 100)
    e.start(100, codec.TRAILER)
    n = 0
    while e.add(n + 1, n, False, (SEAT, 1, 0), b"abcd"):
        n += 1
    data = e.finish(True, (n, bytes(32), bytes(32)))
    assert len(data) <= 100 and decode3(bytes(data))[2] == (n, bytes(32), bytes(32))


def test_player_input_round_trips():
    """Issue 12: (IN_PLAYER, seat, name) travels as an ext kind, the name as UTF-8 text."""
    recs = [(1, 100, False, (SEAT, 3, 0)), (2, 150, False, (9, 3, "\u674e\u4f1f")),
            (3, 160, False, (PAD, b"\x04\x01\x02\x03")), (4, 170, False, (9, 10, "x" * 24))]
    got, more, head = decode3(encode(recs))
    assert [r[:4] for r in got] == recs and not more
