"""SPEC 6: snapshots at round boundaries bound recovery; old segments stay until the host acks."""
from logkit import recovered, fresh, log, fill, inputs, records, seg, write, names, SEAT
from gamelog import SNAP, GAP


def _night(p, rounds=4, per=12, **kw):
    """Rounds of `per` inputs, each after a snapshot; returns the log and each round's inputs."""
    lg = log(p, **kw)
    fill(lg, inputs(3))                   # lobby, before any snapshot
    done = []
    for r in range(rounds):
        lg.snapshot("round %d" % r, 10000 * (r + 1))
        ins = inputs(per, 100 * r)
        fill(lg, ins, 10000 * (r + 1) + 10)
        done.append(ins)
    return lg, done


def _segnames(p):
    return [n for n in names(p) if n.endswith(".log")]


def test_a_snapshot_starts_a_segment():
    p = fresh()
    lg, done = _night(p)
    assert [b for b, n in lg.segments()] == [1, 4, 17, 30, 43]
    assert _segnames(p)[1] == "0000000004.log"


def test_recovery_reads_only_the_current_round():
    p = fresh()
    lg, done = _night(p)
    lg.close()
    for i in range(3):                    # older rounds are garbage: recovery must not look
        write(seg(p, i), b"\xff" * 40)
    snap, got, nxt = recovered(p)
    assert snap == "round 3" and got == done[3] and nxt == 56


def test_recovery_without_any_snapshot_replays_everything():
    p = fresh()
    lg = log(p, seg_max=60)
    fill(lg, inputs(20))
    lg.close()
    assert len(_segnames(p)) > 2
    assert recovered(p) == (None, inputs(20), 21)


def test_big_rounds_roll_into_continuation_segments():
    p = fresh()
    lg, done = _night(p, rounds=3, per=30, seg_max=120)
    segs = lg.segments()
    assert len(segs) > 6 and all(s < 120 + 40 for b, s in segs)
    lg.close()
    lg = log(p, seg_max=120)
    snap, got, nxt = lg.recover()
    assert snap == "round 2" and got == done[2] and nxt == 3 + 3 * 31 + 1
    lg.append((SEAT, 1, 0), 1)
    assert recovered(p)[1] == done[2] + [(SEAT, 1, 0)]


def test_read_from_any_seq_across_segments():
    p = fresh()
    lg, done = _night(p, rounds=3, per=10, seg_max=90)
    every = records(lg)
    assert [r[0] for r in every] == list(range(1, 3 + 3 * 11 + 1))
    assert [r[0] for r in every if r[1] == SNAP] == [4, 15, 26]
    for s in range(0, len(every) + 3):
        assert records(lg, s) == every[max(s, 1) - 1:], s


def test_read_from_reports_damage_with_where_to_resume():
    p = fresh()
    lg, done = _night(p, rounds=3, per=10)
    lg.close()
    write(seg(p, 1), b"\x00" * 30)          # a header gone: the segment is unusable
    got = records(log(p), 1)
    assert [r[0] for r in got[:3]] == [1, 2, 3]
    assert got[3] == (4, GAP, 14, "damaged", None, None)
    assert got[4][0] == 15 and got[4][4] == "round 1"


def test_prune_removes_only_acknowledged_segments():
    p = fresh()
    lg, done = _night(p)                  # segments 1, 4, 17, 30, 43
    assert lg.prune(0) == 0
    assert lg.prune(15) == 1              # 1..3 acked; 4..16 not all
    assert [b for b, s in lg.segments()] == [4, 17, 30, 43]
    assert lg.prune(16) == 1
    assert records(lg, 1)[0] == (1, GAP, 16, "pruned", None, None)
    assert records(lg, 1)[1][0] == 17     # read_from starts at what is left
    assert lg.prune(10 ** 6) == 2         # never the segment recovery starts from
    assert [b for b, s in lg.segments()] == [43]
    assert lg.recover() == ("round 3", done[3], 56)


def test_prune_keeps_the_current_rounds_continuation_segments():
    p = fresh()
    lg, done = _night(p, rounds=2, per=30, seg_max=120)
    n = len(lg.segments())
    base = [b for b, s in lg.segments()].index(3 + 31 + 1)
    assert lg.prune(10 ** 6) == base
    assert len(lg.segments()) == n - base
    lg.close()
    assert recovered(p)[:2] == ("round 1", done[1])


def test_prune_before_the_first_snapshot_keeps_everything():
    p = fresh()
    lg = log(p, seg_max=60)
    fill(lg, inputs(20))
    assert lg.prune(10 ** 6) == 0


def test_a_fresh_log_after_pruning_continues_numbering():
    p = fresh()
    lg, done = _night(p, rounds=2)
    lg.prune(10 ** 6)
    lg.close()
    lg = log(p)
    assert lg.recover()[2] == 30
    assert lg.append((SEAT, 2, 0), 1) == 30


def test_lean_recovery_counts_and_replay_yields_the_round():
    p = fresh()
    lg, done = _night(p)
    lg.close()
    lg = log(p)
    assert lg.recover(collect=False) == ("round 3", 12, 56)
    assert list(lg.replay()) == done[3]
    assert lg.append((SEAT, 1, 0), 1) == 56
    assert list(lg.replay()) == done[3] + [(SEAT, 1, 0)]
    p = fresh()
    lg = log(p, seg_max=60)
    fill(lg, inputs(20))
    assert list(log(p).replay()) == inputs(20)


def test_reading_while_the_game_goes_on_gives_a_consistent_prefix():
    p = fresh()
    lg = log(p)
    fill(lg, inputs(30))
    g = lg.read_from(1)
    got = [next(g) for _ in range(3)]
    fill(lg, inputs(40, 30), 50000)       # appends and a new round while sync is reading
    lg.snapshot(b"x", 90000)
    fill(lg, inputs(5), 91000)
    got += list(g)                        # littlefs: as at open; a POSIX file: as it grew
    assert len(got) >= 30 and [r[0] for r in got] == list(range(1, len(got) + 1))
    assert records(lg, got[-1][0] + 1)[-1][0] == 76
