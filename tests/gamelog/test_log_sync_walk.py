"""A host syncs a long segment in batches, each from the seq after the last it got (hub
handler.records, one frame at a time): each batch goes on from where the last stopped instead
of walking the segment again from its start. On a board that walk held the referee for most
of a second a request late in a long night (found by the link audit)."""
from logkit import fresh, log, fill, inputs
from gamelog import INPUT
from gamelog import fmt


class _Count:
    """Counts Reader.next calls (records parsed) while it is installed."""

    def __init__(self):
        self.n = 0
        self.real = fmt.Reader.next
        count = self

        def next(rd):
            count.n += 1
            return count.real(rd)
        fmt.Reader.next = next

    def close(self):
        fmt.Reader.next = self.real


def _batches(lg, seq, k):
    """Records from seq in batches of k, as a host syncs: [(seq, input)] and Reader.next calls."""
    got = []
    c = _Count()
    try:
        while True:
            it = lg.read_from(seq)
            batch = []
            for r in it:
                if r[1] == INPUT:
                    batch.append((r[0], r[4]))
                if len(batch) == k:
                    break
            it.close()        # the frame is full: the hub stops reading (GeneratorExit)
            if not batch:
                return got, c.n
            got += batch
            seq = batch[-1][0] + 1
    finally:
        c.close()


def test_a_sync_in_batches_reads_each_record_about_once():
    p = fresh()
    lg = log(p, seg_max=1 << 20)
    ins = inputs(600)
    fill(lg, ins)
    got, walked = _batches(lg, 1, 20)
    assert [g[1] for g in got] == ins
    assert walked < 2 * len(ins), walked          # not 600 * 30 / 2


def test_batches_give_what_one_read_gives_while_the_log_grows_and_from_any_seq():
    p = fresh()
    lg = log(p, seg_max=4000)                     # several segments
    fill(lg, inputs(150))
    whole = [(r[0], r[4]) for r in lg.read_from(1) if r[1] == INPUT]
    for start in (1, 7, 77, 149, 150, 151):
        got, _ = _batches(lg, start, 9)
        assert got == [w for w in whole if w[0] >= start], start
    fill(lg, inputs(40, 150), 1000 + 450 * 150)   # appended after the last read
    got, _ = _batches(lg, 140, 9)
    whole = [(r[0], r[4]) for r in lg.read_from(1) if r[1] == INPUT]
    assert got == [w for w in whole if w[0] >= 140] and got[-1][0] == 190
    back = [(r[0], r[4]) for r in lg.read_from(3) if r[1] == INPUT]   # backwards: from scratch
    assert back == whole[2:]


def test_on_the_nor_ring_too():
    import ringkit
    lg = ringkit.log(ringkit.chip(64, 4096), seg_max=60000)   # one long segment
    lg.recover()
    ins = inputs(300)
    for i, inp in enumerate(ins):
        lg.append(inp, 1000 + 450 * i)
        lg.idle()                                 # erases ahead, as the hub does
    got, walked = _batches(lg, 1, 20)
    assert [g[1] for g in got] == ins and walked < 2 * len(ins), walked
    for start in (2, 150, 299):
        got, _ = _batches(lg, start, 7)
        assert [g[1] for g in got] == ins[start - 1:], start


def test_damage_past_where_a_read_stopped_is_found_as_a_fresh_read_finds_it():
    from logkit import seg, flip, size
    p = fresh()
    lg = log(p, seg_max=1 << 20)
    fill(lg, inputs(200))
    lg.close()
    lg = log(p, seg_max=1 << 20)
    got, _ = _batches(lg, 1, 50)              # the last read stopped at the end
    it = lg.read_from(101)
    next(it)
    it.close()                                 # ... and one began at 101
    flip(seg(p), size(seg(p)) * 3 // 4)        # a record past 101 damaged since
    again = records_from(lg, 101)
    assert any(r[1] != INPUT for r in again)   # a gap
    assert again == records_from(log(p, seg_max=1 << 20), 101)


def records_from(lg, seq):
    return [r[:5] for r in lg.read_from(seq)]
