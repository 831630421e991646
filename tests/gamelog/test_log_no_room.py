"""A heap with no free run of a snapshot's size (fragmented late in a night): the log keeps
taking inputs. A write that fails closes the log, and the next append finds its place again;
that must not need the snapshot in one piece, or every input after it would fail."""
from logkit import fresh, log, inputs, seg, flip, short_runs, SEAT
from gamelog.fmt import HDR
from ringkit import chip, log as ring_log
from gamelog import INPUT, SNAP

TID = b"TABLE-01"


def _night(lg):
    lg.recover()
    t = 100
    for inp in inputs(5):
        t += 10
        lg.append(inp, t)
    lg.snapshot("s" * 2000, t + 10)  # a round's end: a 10-seat snapshot is some 2.3 KB
    for inp in inputs(4):
        t += 10
        lg.append(inp, t + 20)
    return t + 100


def _stores():
    yield "files", log(fresh(), table_id=TID)
    yield "ring", ring_log(chip(64, 1024), seg_max=4096)


def test_after_a_failed_write_the_log_appends_prunes_and_names_its_head_with_no_snapshots_room():
    for name, lg in _stores():
        t = _night(lg)
        seq, head = lg.head()
        lg.close()   # a write that raised (Log._write, _create): found again at the next call
        short_runs(True)
        try:
            assert lg.head() == (seq, head), name
            lg.close()
            got = lg.append((SEAT, 7, 0), t)
            assert got == seq + 1, (name, got, seq)
            lg.close()
            assert lg.prune(got) == 1, name   # the lobby's segment; the round's stays
            lg.close()
            assert lg.snapshot("t" * 100, t + 1) == got + 1, name  # a small one still fits
        finally:
            short_runs(False)
        lg.close()
        snap, ins, nxt = lg.recover()         # the boot after: everything read back whole
        assert snap == "t" * 100 and ins == [] and nxt == got + 2, (name, snap, ins, nxt)
        recs = [r for r in lg.read_from(1) if r[1] == SNAP or r[1] == INPUT]
        assert [r[0] for r in recs] == list(range(6, got + 2)), name
        assert recs[0][4] == "s" * 2000 and recs[-2][4] == (SEAT, 7, 0), name
        lg.close()


def test_a_damaged_snapshot_found_without_its_room_is_the_gap_the_boot_finds():
    """The snapshot is checked through the reader's window: a byte flipped in its middle is
    damage there as when the boot reads it whole, with the same seqs after it."""
    for at in (300, 1000, 1990):
        p = fresh()
        lg = log(p, table_id=TID)
        t = _night(lg)
        lg.close()
        flip(seg(p), HDR + 4 + at, 0x10)   # the snapshot opens the newest segment
        short_runs(True)
        try:
            seq = lg.append((SEAT, 7, 0), t)
            damage = list(lg.damage)
        finally:
            short_runs(False)
        lg.close()
        lg.recover()
        assert lg.damage == damage and damage, (at, damage, lg.damage)
        assert lg.next_seq == seq + 1, (at, lg.next_seq, seq)
        lg.close()


def test_a_text_written_in_pieces_is_one_blob_read_back_whole():
    for name, lg in _stores():
        lg.recover()
        lg.append((SEAT, 1, 0), 100)
        text = ["{", "\"a\": ", "\"\u00e9t\u00e9\"", "}"]     # a piece may hold any letter
        seq = lg.snapshot(text, 200)
        big = ["x" * 150] * 20                                   # bigger than the reader's window
        seq2 = lg.snapshot(big, 300)
        lg.record(12, ["o", "k"], 400)
        lg.close()
        snap, ins, nxt = lg.recover()
        assert snap == "x" * 3000 and nxt == seq2 + 2, (name, nxt)
        recs = list(lg.read_from(seq))
        assert recs[0][4] == "".join(text) and recs[0][1] == SNAP, (name, recs[0])
        assert recs[2][4] == "ok", (name, recs[2])
        lg.close()


def test_a_read_for_the_inputs_steps_over_a_snapshot_with_no_room_for_it():
    """A sync or a dump wants the inputs: read_from(seq, False) checks a snapshot and gives
    None for it, so that reading the night needs no run of a snapshot's size."""
    for name, lg in _stores():
        _night(lg)
        want = [r[:4] + (r[4] if r[1] != SNAP else None,) for r in lg.read_from(1)]
        short_runs(True)
        try:
            got = [r[:5] for r in lg.read_from(1, False)]
            replayed = list(lg.replay_records())
        finally:
            short_runs(False)
        assert got == want and len(got) == 10 and got[5][1] == SNAP, (name, got)
        assert [r[3] for r in replayed] == [r[4] for r in want[6:]], name
        lg.close()
