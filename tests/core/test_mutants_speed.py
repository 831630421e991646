"""Behaviour the engine's speed changes (issue 10) must keep, pinned where tools/mutate.py found
a change the other tests did not notice (the lines changed since 192668d)."""
from uno.cards import name
from uno.events import IN_TICK, IN_UNDO, UNDO, REJECT, P_PLAY
from uno.script import to_input
from uno.table import PLAY_TURN
from check import skip
from kit import act, deal, line, names


def test_judge_answers_a_legal_play_with_reason_0():
    # judge's documented answer: (PLAY_*, 0) — one shared tuple (_TAKEN), its reason 0 too
    t = deal({1: "R1 G2", 2: "G5 B7", 3: "Y1 Y2"}, start="R5")
    r1, g2 = sorted(t.hands[1], key=lambda c: name(c) != "R1")
    assert t.judge(1, r1) == (PLAY_TURN, 0)
    how, why = t.judge(1, g2)
    assert how == 0 and why != 0


def test_p2_a_second_input_at_the_same_time_does_not_restart_the_turn_seats_time():
    # feed's inline _time: only a clock that went back (or the first time) starts the time
    # again; an input at the very time of the last one (the hub's tick and a read in one ms)
    # leaves the turn seat's time running
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=4)
    t.feed((IN_TICK, 0), 0)
    t.feed((IN_TICK, 1000), 1000)
    t.feed(to_input(line("seat 2"), t), 1000)  # a press at the same ms
    t.feed((IN_TICK, 1000), 1000)
    assert t.deadline() == 2000
    assert names(t.feed((IN_TICK, 2000), 2000)) == ["timer_warn"]


def test_a_tick_of_a_time_past_the_logs_spare_bytes_fits_wherever_it_comes():
    # whatever a host sends must fit: a time of some 60 varint bytes, more than the 16 the log
    # keeps past its room, grows the log in _varint itself (the board's form, run under
    # micropython), at every place the log can have reached; a take-back after it still works
    for k in range(130):
        t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
        for i in range(k):
            t.feed((IN_TICK, 0))  # a quiet tick: two bytes
        t.feed((IN_TICK, 2 ** 400), -1 if k & 1 else 5)
        assert t.back.n <= len(t.back.log)
        assert t.feed((IN_UNDO, 1))[0][0] in (UNDO, REJECT)


def test_p2_the_start_card_starts_the_first_seats_time():
    # S4: the start card's _act moves the turn through _next's own _begin_turn (begun only for
    # a play that began the turn): the first seat's time starts at the start card, not at the
    # first time the table saw (the deal's tick)
    t = deal({1: "R1 R2", 2: "G1 G2"}, start=None, turn_timer=5)
    t.feed((IN_TICK, 0), 0)
    t.feed(to_input(line("shoe R5"), t), 10000)
    assert t.phase == P_PLAY and t.since == 10000
    assert t.feed((IN_TICK, 12999), 12999) == []
    assert names(t.feed((IN_TICK, 13000), 13000)) == ["timer_warn"]


def test_a_pack_keeps_a_list_of_values_past_a_byte_whole_from_256_on():
    # the board's extend would keep a value's low byte (256 as 0, -1 as 255): _extend refuses
    # any value outside 0..255 as bytes, so the list is kept whole and comes back the same
    from uno import rebuild, takeback

    class Thing:
        pass
    a = Thing()
    a.scores = [0, 256, 255]
    a.low = [5, -1]
    a.hands = [[1, 256], [0]]
    packed = takeback._pack(a, ("scores", "low", "hands"), ())
    b = Thing()
    rebuild._unpack(packed, b)
    assert (b.scores, b.low, b.hands) == ([0, 256, 255], [5, -1], [[1, 256], [0]])


def test_two_tables_each_let_the_rebuild_go_after_their_take_backs():
    # the board lets the rebuild's module go at a new segment (takeback._drop); a second table
    # (the hub's tests and simulator run several) finds it gone from the package already
    ts = [deal({1: "R1 R2", 2: "G5 B7"}, start="R5") for _ in range(2)]
    for t in ts:
        act(t, "pad R1")
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    for t in ts:
        t.back.mark()  # a new segment, as at a round's end
    for t in ts:
        act(t, "pad R1")
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)


def test_the_hosts_log_counts_each_number_as_the_boards_varint_bytes():
    # the host logs a number whole but moves on by the bytes the board's zigzag varint takes,
    # so that its chunks roll where the board's do (a take-back reaches as far): each side of
    # every 7-bit edge, negative times (a clock that restarted) too
    from uno import takeback
    if not hasattr(takeback, "_size"):
        return skip("CPython only (make test's pytest): the board's log holds the bytes")
    vs = [0, 1, -1]
    for k in range(1, 9):
        e = 1 << (7 * k - 1)
        vs += [e - 1, e, e + 1, -e + 1, -e, -e - 1]
    for v in vs:
        buf = bytearray()
        takeback._put(buf, v)
        assert takeback._size(v) == len(buf), v
