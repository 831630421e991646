"""SPEC 6: the game log stores the ordered input stream with seq and time, compactly."""
from check import raises
from logkit import (recovered, fresh, log, fill, inputs, records, seg, size, PAD, SEAT, COLOUR,
                    SHOE, SHUFFLE, TICK, UID)
from gamelog import Log, INPUT, SNAP, OUTCOME


def test_append_then_read_back_in_order():
    p = fresh()
    lg = log(p)
    assert lg.recover() == (None, [], 1)
    ins = inputs(40)
    seqs = fill(lg, ins)
    assert seqs == list(range(1, 41))
    recs = records(lg)
    assert [r[0] for r in recs] == seqs
    assert [r[1] for r in recs] == [INPUT] * 40
    assert [r[2] for r in recs] == [1000 + 450 * i for i in range(40)]
    assert [r[4] for r in recs] == ins
    assert lg.next_seq == 41


def test_reopen_recovers_and_appends_continue():
    p = fresh()
    lg = log(p)
    ins = inputs(25)
    fill(lg, ins)
    lg.close()
    lg2 = log(p)
    snap, got, nxt = lg2.recover()
    assert snap is None and got == ins and nxt == 26
    assert lg2.append((SEAT, 3, 1), 99999) == 26
    assert records(lg2)[-1][:5] == (26, INPUT, 99999, False, (SEAT, 3, 1))


def test_append_without_recover_recovers_first():
    p = fresh()
    lg = log(p)
    fill(lg, inputs(3))
    lg.close()
    lg2 = log(p)
    assert lg2.append((SHUFFLE,), 5) == 4
    assert len(records(lg2)) == 4


def test_record_sizes_are_compact():
    p = fresh()
    lg = log(p)
    lg.append((SHUFFLE,), 1000)
    s0 = size(seg(p))
    lg.append((PAD, UID), 1900)            # 900 ms later: 2-byte time delta
    s1 = size(seg(p))
    lg.append((SEAT, 4, 0), 2700)
    s2 = size(seg(p))
    lg.append((COLOUR, 2, 1), 2800)
    s3 = size(seg(p))
    lg.append((TICK, 500), 3300)
    s4 = size(seg(p))
    assert s1 - s0 == 16                   # type, t-t0 (2), uid(7), tag(4), crc(2)
    assert s2 - s1 == 10
    assert s3 - s2 == 10
    assert s4 - s3 == 11


def test_times_delta_absolute_and_wall_clock():
    p = fresh()
    lg = log(p)
    lg.append((SHUFFLE,), 5000)
    lg.append((SHUFFLE,), 5001)
    lg.append((SHUFFLE,), 10)              # clock went back (reboot): stored absolute
    lg.append((SHUFFLE,), 1700000000, True)   # host set the clock: wall seconds
    lg.append((SHUFFLE,), 1700000003, True)
    lg.append((SHUFFLE,), 20, False)       # back to ms since boot
    lg.append((SHUFFLE,), (1 << 48) + 5)   # large values survive
    got = [(r[2], r[3]) for r in records(lg)]
    assert got == [(5000, False), (5001, False), (10, False), (1700000000, True),
                   (1700000003, True), (20, False), ((1 << 48) + 5, False)]
    lg.close()
    lg2 = log(p)
    lg2.recover()
    assert [(r[2], r[3]) for r in records(lg2)] == got


def test_default_clock_is_used_without_a_time():
    p = fresh()
    lg = log(p, clock=lambda: (77, True))
    lg.append((SEAT, 1, 0))
    assert records(lg)[0][2:4] == (77, True)
    lg2 = log(p)
    lg2.append((SEAT, 1, 0))              # ticks_ms / monotonic
    assert records(lg2)[1][3] is False


def test_every_input_shape_round_trips():
    p = fresh()
    lg = log(p)
    ins = [(SHOE, b"\x01\x02\x03\x04"), (PAD, bytes(range(10))), (PAD, bytes(16)),
           (SEAT, 1, 0), (SEAT, 10, 1), (COLOUR, 0, 0), (COLOUR, 3, 1), (SHUFFLE,),
           (TICK, 0), (TICK, 123456789)]
    fill(lg, ins)
    lg.close()
    assert recovered(p)[1] == ins
    # (kind, a, b) with unused slots is accepted and comes back in the engine's shape
    lg = log(p)
    lg.append((SHUFFLE, None, None), 1)
    lg.append((TICK, 5, None), 2)
    lg.append((PAD, UID, None), 3)
    assert [r[4] for r in records(lg, 11)] == [(SHUFFLE,), (TICK, 5), (PAD, UID)]


def test_bad_inputs_are_refused_and_leave_no_trace():
    p = fresh()
    lg = log(p)
    lg.append((SEAT, 1, 0), 1)
    raises(ValueError, lg.append, (0, 1, 0), 2)
    raises(ValueError, lg.append, (9, 1, 0), 2)
    raises(ValueError, lg.append, (9, 1, ""), 2)
    raises(ValueError, lg.append, (9, 1, "x" * 25), 2)
    raises(ValueError, lg.append, (9, 256, "x"), 2)
    raises(ValueError, lg.append, (10, 1), 2)
    raises(ValueError, lg.append, (8, 0), 2)
    raises(ValueError, lg.append, (7, "x" * 40, "y"), 2)
    raises(ValueError, lg.append, (PAD, b""), 2)
    raises(ValueError, lg.append, (PAD, bytes(17)), 2)
    raises(ValueError, lg.append, (SEAT, 256, 0), 2)
    raises(ValueError, lg.append, (COLOUR, -1, 0), 2)
    raises(ValueError, lg.append, (TICK, -5), 2)
    raises(ValueError, lg.append, (SEAT, 1, 0), -1)
    raises(ValueError, lg.append, (SEAT, 1, 0), 1 << 49)
    raises(ValueError, lg.record, SNAP, b"x", 2)
    raises(ValueError, lg.record, 16, b"x", 2)
    raises(ValueError, lg.record, 10, b"x", 2)
    raises(ValueError, lg.record, 15, b"x", 2)                      # a player input's type
    raises(ValueError, lg.append, (8, 65536), 2)
    raises(ValueError, lg.append, (7, "k", "v" * 31), 2)             # 33 bytes of text
    raises(ValueError, lg.append, (TICK, 1 << 49), 2)
    raises(ValueError, lg.append, (SHOE, bytes(17)), 2)
    assert lg.next_seq == 2 and len(records(lg)) == 1
    assert lg.append((SEAT, 2, 0), 3) == 2
    assert lg.append((7, "stacking", "on"), 4) == 3
    assert lg.append((7, "turn_timer", 10), 5) == 4
    assert lg.append((7, "k", "v" * 30), 0) == 5                      # 32 bytes, time 0
    assert lg.append((8, 65535), 6) == 6
    assert lg.append((TICK, (1 << 49) - 1), 7) == 7
    assert lg.append((SEAT, 5), 8) == 8                                # no long-press slot
    assert lg.append((9, 5, "\u674e\u4f1f"), 9) == 9                    # issue 12: a player
    assert lg.append((9, 10, "x" * 24), 10) == 10
    lg.close()
    assert recovered(p)[1:] == ([(SEAT, 1, 0), (SEAT, 2, 0), (7, "stacking", "on"),
                                 (7, "turn_timer", 10), (7, "k", "v" * 30), (8, 65535),
                                 (TICK, (1 << 49) - 1), (SEAT, 5, 0), (9, 5, "\u674e\u4f1f"),
                                 (9, 10, "x" * 24)], 11)


def test_outcome_records_and_snapshots_are_logged_but_not_replayed():
    p = fresh()
    lg = log(p)
    lg.append((SHUFFLE,), 1)
    lg.record(OUTCOME, b"\x01\x02digest", 2)
    lg.snapshot('{"phase":"deal"}', 3)
    lg.append((SHOE, UID), 4)
    lg.record(OUTCOME, "text digest", 5)
    lg.record(12, bytes(300), 6)           # a big opaque record
    lg.append((SEAT, 2, 0), 7)
    recs = records(lg)
    assert [r[1] for r in recs] == [INPUT, OUTCOME, SNAP, INPUT, OUTCOME, 12, INPUT]
    assert recs[1][4] == b"\x01\x02digest" and recs[4][4] == "text digest"
    assert recs[2][4] == '{"phase":"deal"}' and recs[5][4] == bytes(300)
    lg.close()
    assert recovered(p) == ('{"phase":"deal"}', [(SHOE, UID), (SEAT, 2, 0)], 8)


def test_bytes_and_large_snapshots_round_trip():
    p = fresh()
    lg = log(p)
    big = bytes(i & 255 for i in range(2000))
    lg.snapshot(big, 1)
    lg.append((SEAT, 1, 0), 2)
    lg.close()
    assert recovered(p) == (big, [(SEAT, 1, 0)], 3)


def test_a_blob_past_its_limit_is_refused():
    from gamelog.fmt import MAXBLOB
    p = fresh()
    lg = log(p)
    raises(ValueError, lg.record, 9, bytes(0x1FFF01), 1)
    assert MAXBLOB == 0x1FFF00 and lg.next_seq == 1


def test_durable_flush_path():
    p = fresh()
    lg = Log(p, durable=True)
    lg.append((SEAT, 1, 0), 1)
    lg.snapshot(b"s", 2)
    lg.close()
    assert recovered(p) == (b"s", [], 3)


def test_constants_match_the_engine():
    from gamelog import fmt
    from uno import events
    assert (fmt.IN_SHOE, fmt.IN_PAD, fmt.IN_SEAT, fmt.IN_COLOUR, fmt.IN_SHUFFLE, fmt.IN_TICK) == (
        events.IN_SHOE, events.IN_PAD, events.IN_SEAT, events.IN_COLOUR, events.IN_SHUFFLE,
        events.IN_TICK)
    assert fmt.IN_RULE == 7 and fmt.IN_UNDO == 8 == getattr(events, "IN_UNDO", 8)
    assert fmt.IN_PLAYER == events.IN_PLAYER == 9
