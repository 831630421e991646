"""The take-back (issue 10): (IN_UNDO, n) leaves exactly the state the stream without the last n
accepted inputs gives; it never crosses a round's end; it is a table input like any other."""
from uno.bot import Bot
from uno.events import (IN_SHOE, IN_PAD, IN_SEAT, IN_COLOUR, IN_SHUFFLE, IN_TICK, IN_RULE,
                        IN_UNDO, REJECT, UNDO, CARD_BACK, RULE, JOIN, LEAVE, R_UNDO_PAST, R_BAD_INPUT,
                        P_LOBBY, P_DRAWOFF, P_DEALER, P_DEAL, P_START, P_PLAY, P_ROUND_OVER,
                        IN_PLAYER, PLAYER, W_SLOW, SHUFFLE, PLAY)
from uno.record import Replay, from_words
from uno.rules import Settings
from uno.script import dumps, input_dict, to_input
from uno.state import snapshot, load
from uno.table import Table
from kit import act, deal, names


def _state(t):
    """snapshot(t), copied: a snapshot shares some of the table's lists."""
    return _deep(snapshot(t))


def _deep(v):
    if isinstance(v, dict):
        return dict((k, _deep(v[k])) for k in v)
    if isinstance(v, list):
        return [_deep(x) for x in v]
    return v


def _same(a, b):
    """Snapshots equal but for the turn timer's start, which a take-back restarts (P2)."""
    a = dict(a)
    b = dict(b)
    ca, cb = a.pop("clock"), b.pop("clock")
    return a == b and ca[0] == cb[0]


def _night(settings, seats, seed, rounds, snaps=True, **kw):
    """A bot's stream: [(input, ms, accepted, phase before, segment, ended a round)], and the
    snapshots after each prefix (snaps[k]: after the first k inputs). A round's end ends a
    segment: take-backs reach no further back."""
    t = Table(Settings(settings))
    bot = Bot(t, seats, seed=seed, **kw)
    stream = []
    snaps = [_state(t)] if snaps else None
    seg = 0
    done = 0
    while done < rounds:
        ph = t.phase
        inp, evs = bot.step()
        ok = bool(evs) and (len(evs) > 1 or evs[0][0] != REJECT)
        ended = t.phase != ph and t.phase >= P_ROUND_OVER
        stream.append((inp, bot.clock if bot.p_tick else -1, ok, ph, seg, ended))
        if snaps:
            snaps.append(_state(t))
        if ended:
            seg += 1
            done += 1
    return stream, snaps


def _fed(settings, stream, k):
    t = Table(Settings(settings))
    for inp, ms, _, _, _, _ in stream[:k]:
        t.feed(inp, ms)
    return t


def _target(stream, k, n):
    """Index of the n-th last accepted input among the first k, in k's segment; else -1."""
    if stream[k - 1][5]:
        return -1  # the last input ended a round
    seg = stream[k - 1][4]
    j = k
    while n:
        j -= 1
        if j < 0 or stream[j][4] != seg:
            return -1
        if stream[j][2]:
            n -= 1
    return j


def _check_all(settings, seats, seed, rounds, ns=(1,), step=1, snaps=True, **kw):
    """Takes back n inputs after every step-th input of a bot's stream; compares with the
    stream without them (snapshots kept, or, for long streams, fed again: small heaps)."""
    stream, snaps = _night(settings, seats, seed, rounds, snaps, **kw)
    covered = set()
    for k in range(1, len(stream) + 1, step):
        for n in ns:
            t = _fed(settings, stream, k)
            before = _state(t)
            loc = bytearray(t.loc)
            reach = t.back.reach()  # what the hub asks before it logs a host's take-back
            evs = list(t.feed((IN_UNDO, n)))
            j = _target(stream, k, n)
            assert (j >= 0) == (n <= reach), (k, n, reach)
            if j < 0:
                assert evs == [(REJECT, R_UNDO_PAST, 0, -1)], (k, n, evs)
                assert _same(_state(t), before), (k, n)
                continue
            assert evs[0] == (UNDO, n), evs
            want = snaps[j] if snaps else _state(_fed(settings, stream, j))
            assert _same(_state(t), want), "take-back of %r (input %d, n %d)" % (
                stream[j][0], j, n)
            for e in evs:  # the events say where every card went
                if e[0] == CARD_BACK:
                    assert loc[e[1]] == e[2]
                    loc[e[1]] = e[3]
            assert loc == t.loc
            if n == 1:
                covered.add((stream[j][0][0], stream[j][3]))
    return covered, stream


def test_a_take_back_puts_the_clock_back_after_every_size_of_step():
    # An accepted card read's record holds its clock as a step from the input before, in 0,
    # 1 or 2 bytes (written by feed itself) or more (the take-back's keep): steps either side
    # of each size, and a clock that goes back (a reboot); the replay gives every time again
    steps = (0, 1, 63, 64, 700, 8191, 8192, 20000, -30000)
    stream, _ = _night({"hand_size": 3}, [1, 2, 3], 4, 1, snaps=False)
    timed = []
    ms = 40000
    for i, s in enumerate(stream):
        ms = max(0, ms + steps[i % len(steps)])
        timed.append((s[0], ms) + s[2:])
    taken = 0
    for k in range(1, len(timed) + 1):
        t = _fed({"hand_size": 3}, timed, k)
        evs = t.feed((IN_UNDO, 1))
        j = _target(timed, k, 1)
        if j < 0:
            assert evs[0][0] == REJECT
            continue
        taken += 1
        want = _state(_fed({"hand_size": 3}, timed, j))
        assert _same(_state(t), want), (k, timed[j])
        assert t.clock == (timed[j - 1][1] if j else -1), (k, t.clock)
    assert taken > 30


def test_taking_back_each_input_of_an_official_night_gives_the_stream_without_it():
    covered, _ = _check_all({"hand_size": 3}, [1, 2, 3], 4, 3, mistakes=60, rules=900)
    for want in ((IN_SEAT, P_LOBBY), (IN_SHUFFLE, P_LOBBY), (IN_SHOE, P_DRAWOFF),
                 (IN_SHUFFLE, P_DEALER), (IN_SHOE, P_DEAL), (IN_SHOE, P_START),
                 (IN_PAD, P_PLAY), (IN_SHOE, P_PLAY), (IN_SEAT, P_PLAY), (IN_COLOUR, P_PLAY),
                 (IN_SHUFFLE, P_ROUND_OVER), (IN_RULE, P_ROUND_OVER)):
        assert want in covered, "no take-back of input %d in phase %d" % want


def test_taking_back_with_every_house_rule_and_the_turn_timer():
    everything = {"preset": "party", "hand_size": 4, "forced": "yes", "scoring": "losers",
                  "elimination": "yes", "teams": 2}
    covered, _ = _check_all(everything, [1, 2, 3, 4], 2, 1, step=2, mistakes=40, tick=150)
    assert (IN_PAD, P_PLAY) in covered and (IN_SHOE, P_PLAY) in covered


def test_taking_back_several_inputs_at_once():
    _check_all({"hand_size": 2}, [1, 2], 8, 2, ns=(2, 3, 5), step=3, mistakes=40)


def test_two_take_backs_of_one_equal_one_of_two_and_play_goes_on_after():
    stream, snaps = _night({"hand_size": 3}, [1, 2, 3], 6, 1, mistakes=30)
    k = len(stream) - 3
    a = _fed({"hand_size": 3}, stream, k)
    b = _fed({"hand_size": 3}, stream, k)
    a.feed((IN_UNDO, 1))
    a.feed((IN_UNDO, 1))
    b.feed((IN_UNDO, 2))
    assert _same(_state(a), _state(b))
    j = _target(stream, k, 2)
    assert _same(_state(a), snaps[j])
    for inp, ms, _, _, _, _ in stream[j:]:  # the same inputs again reach the same round's end
        a.feed(inp, ms)
    assert _same(_state(a), snaps[-1])


def test_two_take_backs_in_a_row_replay_the_times_of_refused_inputs_too():
    """A refused input still moves the clock (its time is logged); the first take-back's
    rebuild logs those times again, so a second one replays them: after every input of a timed
    night with mistakes (the first inputs at 0 ms), two take-backs of one give the stream
    without the last two accepted inputs."""
    settings = {"hand_size": 3, "turn_timer": 5}
    stream, snaps = _night(settings, [1, 2, 3], 1, 1, mistakes=60, tick=300)
    assert any(ms == 0 and not ok for _, ms, ok, _, _, _ in stream)
    twice = 0
    for k in range(1, len(stream) + 1):
        j = _target(stream, k, 2)
        if j < 0:
            continue
        t = _fed(settings, stream, k)
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
        assert _same(_state(t), snaps[j]), (k, j, stream[j][0])
        twice += 1
    assert twice > 20


def test_two_take_backs_in_a_row_keep_a_refused_cards_time_as_the_hub_feeds_it():
    """The hub feeds every input with its own time (the players' clock moves only at ticks).
    Seat 1 plays, seat 3's card is refused out of turn, seats 2 and 3 play; two take-backs
    of one leave the table as after the first two inputs: the refused card's time stands,
    also when it is 0 ms, a clock that restarted (a board just booted)."""
    hands = {1: "R1 G1 B1", 2: "R4 G4 B4", 3: "R7 G7 B7"}
    for times in ((1000, 2000, 3000, 4000), (5000, 0, 0, 0)):
        want = deal(hands)
        t = deal(hands)
        for k, text in enumerate(("pad R1", "pad G7", "pad R4", "pad R7")):
            evs = t.feed(to_input(from_words(text), t), times[k])
            assert (evs[0][0] == REJECT) == (k == 1), (text, evs)
            if k < 2:
                want.feed(to_input(from_words(text), want), times[k])
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
        assert _same(_state(t), _state(want)) and t.clock == times[1], (times, t.clock)


def test_a_take_back_across_a_round_end_is_refused_and_a_rule_between_rounds_is_taken_back():
    stream, snaps = _night({"hand_size": 2}, [1, 2], 3, 1)
    t = _fed({"hand_size": 2}, stream, len(stream))
    assert t.phase == P_ROUND_OVER
    before = _state(t)
    assert t.feed((IN_UNDO, 1)) == [(REJECT, R_UNDO_PAST, 0, -1)]
    assert _same(_state(t), before)
    assert names(t.feed((IN_RULE, "stacking", "on"))) == ["rule"]
    assert t.rules.stacking == "on"
    evs = list(t.feed((IN_UNDO, 1)))
    assert evs == [(UNDO, 1), (RULE, "stacking", "off")]
    assert t.rules.stacking == "off" and _same(_state(t), before)
    t.feed((IN_RULE, "stacking", "on"))
    assert t.feed((IN_UNDO, 2))[0] == (REJECT, R_UNDO_PAST, 0, -1)
    assert t.rules.stacking == "on"


def test_bad_take_backs_are_refused_and_change_nothing():
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    act(t, "pad R2")
    before = _state(t)
    for bad in ((IN_UNDO,), (IN_UNDO, 0), (IN_UNDO, -1), (IN_UNDO, "1"), (IN_UNDO, True),
                (IN_UNDO, 1, 2), (IN_UNDO, None)):
        assert t.feed(bad) == [(REJECT, R_BAD_INPUT, 0, -1)], bad
        assert _state(t) == before
    assert t.feed((IN_UNDO, 99))[0][1] == R_UNDO_PAST


def test_the_events_say_which_card_goes_back_where():
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    r2 = t.hands[1][1] if t.hands[1][1] != t.hands[1][0] else t.hands[1][0]
    act(t, "pad R2")
    card = t.top
    # (R2 had left seat 1 one card: its UNO window closes with it)
    assert names(act(t, "undo")) == ["undo", "card_back", "uno_close", "turn"]
    evs = act(t, "shoe R3", "undo")  # seat 1 draws instead, then the draw is taken back
    assert names(evs) == ["undo", "card_back"]
    assert evs[1][2] == 1 and evs[1][3] == 0  # from seat 1's hand to the shoe
    assert card in t.hands[1] and r2 in t.hands[1]


def test_a_join_taken_back_says_the_seat_leaves():
    t = Table()
    for s in (1, 2, 3):
        t.feed((IN_SEAT, s, 0))
    assert t.feed((IN_UNDO, 1)) == [(UNDO, 1), (LEAVE, 3)] and t.seats == [1, 2]
    t.feed((IN_SEAT, 2, 1))  # seat 2 leaves, and that is taken back
    assert t.feed((IN_UNDO, 1)) == [(UNDO, 1), (JOIN, 2)] and t.seats == [1, 2]


def test_a_table_loaded_from_a_snapshot_takes_back_to_there():
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    u = load(_state(t))
    assert u.feed((IN_UNDO, 1))[0] == (REJECT, R_UNDO_PAST, 0, -1)
    act(u, "pad R2")
    act(u, "undo")
    assert _state(u) == _state(t)


def test_the_clock_of_a_take_back_restarts_the_turn_timer():
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5", turn_timer=10)
    t.feed((IN_TICK, 1000), 1000)
    act(t, "pad R2")
    assert names(t.feed((IN_TICK, 9500), 9500)) == ["timer_warn"]
    assert t.feed((IN_UNDO, 1), 9600)[0] == (UNDO, 1)  # the warning is taken back
    assert t.turn == 2 and t.since == 9600 and not t.warned
    evs = t.feed((IN_UNDO, 1), 9700)  # then the play: seat 1's time starts again
    assert evs[0] == (UNDO, 1) and t.turn == 1
    assert t.clock == 9700 and t.since == 9700 and not t.warned
    assert t.deadline() == 9700 + 8000
    t.feed((IN_TICK, 17600), 17600)
    assert not t.warned and names(t.feed((IN_TICK, 17700), 17700)) == ["timer_warn"]


def test_a_take_back_keeps_the_time_of_a_card_read_at_0_ms_after_a_reboot():
    # The hub's clock restarts at a reboot: a card read at 0 ms is a time like any other, and
    # replaying it after a take-back puts the clock back there, not where it was before.
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
    t.feed((IN_TICK, 5000), 5000)
    t.feed(to_input(from_words("pad R2"), t), 0)
    want = _state(t)
    assert t.clock == 0 and t.since == 0
    t.feed(to_input(from_words("shoe G9"), t), 10)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    assert _state(t) == want and t.clock == 0


def test_a_take_back_fed_at_0_ms_after_a_reboot_takes_that_time():
    # The take-back's own time, 0 like any other: the clock and the turn seat's time are there
    # after it, not at the time replayed last (a mutant asked ms >= 1)
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5", turn_timer=10)
    t.feed((IN_TICK, 5000), 5000)
    t.feed(to_input(from_words("pad R2"), t), 6000)
    assert t.feed((IN_UNDO, 1), 0)[0] == (UNDO, 1)  # a reboot: the hub's clock at 0
    assert t.turn == 1 and t.clock == 0 and t.since == 0 and t.deadline() == 8000


def test_a_quiet_tick_at_0_ms_after_a_reboot_is_logged_with_its_time():
    # A tick that changes nothing but the time, fed at 0 ms: its record says a time follows
    # (a mutant wrote it but said none at 0: the board's replay then read its bytes out of step)
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5", turn_timer=10)
    t.feed((IN_TICK, 5000), 5000)
    t.feed(to_input(from_words("pad R2"), t), 6000)
    assert t.feed((IN_TICK, 0), 0) == []  # a reboot: the hub's clock at 0, nothing due
    want = _state(t)
    t.feed(to_input(from_words("shoe G9"), t), 10)
    assert t.feed((IN_UNDO, 1), 20)[0] == (UNDO, 1)
    want["clock"] = [20, 20, False]  # (the take-back's own time, and the turn's restarted)
    assert _state(t) == want


def test_a_rejected_read_or_press_at_0_ms_still_moves_the_clock_for_a_take_back():
    # A refusal changes nothing but the time: at 0 ms after a reboot, the replay after a
    # take-back puts the clock there too (a card read refused, then a press refused)
    for bad in ("pad G5", "seat 2 long"):
        t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
        t.feed((IN_TICK, 5000), 5000)
        assert t.feed(to_input(from_words(bad), t), 0)[0][0] == REJECT
        want = _state(t)
        assert t.clock == 0 and t.since == 0
        t.feed(to_input(from_words("shoe G9"), t), 10)
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
        assert _state(t) == want and t.clock == 0, bad


def test_refused_reads_and_presses_with_the_hubs_times_are_no_inputs_a_take_back_counts():
    """With the hub's times every refusal is logged (its time), never as an accepted input: a
    take-back of 1 after a refused card read of each kind and a refused press takes back the
    play before them, not a refusal."""
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"}, start="R5")
    t.feed((IN_TICK, 1000), 1000)
    want = _state(t)
    assert t.feed(to_input(from_words("pad R1"), t), 1500)[0][0] == PLAY
    for k, bad in enumerate(("pad R2", "pad G9", "shoe Y1a", "seat 3", "seat 2 long")):
        assert t.feed(to_input(from_words(bad), t), 2000 + 100 * k)[0][0] == REJECT, bad
    assert t.feed((IN_UNDO, 1), 3000)[0] == (UNDO, 1)
    got = _state(t)
    assert got.pop("clock")[0] == 3000  # the take-back's own time (its input's)
    want.pop("clock")
    assert got == want and len(t.hands[1]) == 3


def test_a_take_back_without_a_time_between_timed_inputs_keeps_the_clock_when_replayed():
    """A take-back that came without a time (a script's) logs its timer restart with none: a
    second take-back replaying it keeps the clock of the inputs before it."""
    t = deal({1: "R1 R2 R3", 2: "R7 B7 B8", 3: "Y1 Y2 Y3"}, start="R5")
    t.feed((IN_TICK, 1000), 1000)
    t.feed(to_input(from_words("pad R1"), t), 1500)
    t.feed(to_input(from_words("pad R7"), t), 1600)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1) and t.clock == 1500
    t.feed(to_input(from_words("pad R7"), t), 1700)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    assert t.clock == 1500 and t.since == 1500 and t.turn == 2


def test_an_undo_input_goes_through_scripts_and_records_and_replays_to_itself():
    assert from_words("undo") == {"in": "undo", "n": 1}
    assert from_words("undo 3") == {"in": "undo", "n": 3}
    t = Table()
    assert to_input({"in": "undo", "n": 2}, t) == (IN_UNDO, 2)
    assert input_dict((IN_UNDO, 2), t.registry) == {"in": "undo", "n": 2}
    assert dumps(input_dict((IN_UNDO, 2), t.registry)) == '{"in":"undo","n":2}'
    stream, _ = _night({"hand_size": 3}, [1, 2], 5, 1, mistakes=20)
    lines = ['{"settings":{"hand_size":3}}']
    for i in range(len(stream)):
        inp = stream[i][0]
        lines.append(dumps(input_dict(inp, t.registry)))
        if i % 7 == 6:
            lines.append('{"in":"undo","n":1}')
    rec = list(Replay().record(lines))
    assert any('"ev":"undo"' in r for r in rec) and any('"ev":"card_back"' in r for r in rec)
    assert list(Replay().record(rec)) == rec
    final = Replay()
    for _ in final.run(lines):
        pass
    again = Replay()
    for _ in again.run(rec):
        pass
    assert _state(final.table) == _state(again.table)


def test_a_long_round_goes_on_in_chunks_and_take_backs_still_reach_back():
    # 10 seats with the clock on: a round logs more than a chunk (1 KB), so the log goes on
    # in a second chunk; take-backs of 1 and of 60 inputs reach back into the chunk before
    stream, _ = _night({"hand_size": 9}, list(range(1, 11)), 3, 1, False, tick=300)
    t = _fed({"hand_size": 9}, stream, len(stream) - 1)
    assert t.back.prev is not None, "the round fitted one chunk: make it longer"
    covered, _ = _check_all({"hand_size": 9}, list(range(1, 11)), 3, 1, ns=(1, 60), step=23,
                            snaps=False, tick=300)
    assert (IN_PAD, P_PLAY) in covered


def test_a_take_back_in_the_last_chunk_keeps_the_chunk_before():
    settings = {"hand_size": 9}
    stream, _ = _night(settings, list(range(1, 11)), 3, 1, False, tick=300)
    t = Table(Settings(settings))
    k = 0
    while t.back.prev is None:  # up to the first chunk's end
        inp, ms = stream[k][:2]
        t.feed(inp, ms)
        k += 1
    k += 3
    t = _fed(settings, stream, k)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    assert t.back.prev is not None  # a take-back in this chunk keeps the one before
    j = _target(stream, k, 1)
    assert t.feed((IN_UNDO, 8))[0] == (UNDO, 8)  # reaches into the chunk before
    assert _same(_state(t), _state(_fed(settings, stream, _target(stream, j, 8))))
    u = _fed(settings, stream, k)  # as far back as reach() says, and no further
    n = u.back.reach()
    assert n > 8 and u.feed((IN_UNDO, n + 1))[0] == (REJECT, R_UNDO_PAST, 0, -1)
    assert u.feed((IN_UNDO, n))[0] == (UNDO, n)


def test_the_start_state_packs_and_unpacks_every_kind_of_field():
    from uno import rebuild, takeback

    class Thing:
        pass
    a = Thing()
    a.n, a.neg, a.big, a.yes, a.no, a.none = 5, -1, 10 ** 12, True, False, None
    a.loc = bytearray(b"\x00\x05\x0b")
    a.cards = [3, 0, 107]
    a.scores = [0, 300, 12]          # past a byte
    a.hands = [[], [1, 2], [107]]
    a.debts = [[2, 2, 5]]
    a.empty = []
    a.word = "cw"
    a.mixed = [[1, 2], 900]
    a.players = [None] * 11          # none bound
    a.some = [None, b"\x01\x02", None, "Ann"]
    a.floats = [1, 2.5]              # no bytes: kept whole, nothing half written
    a.after = 7
    packed = takeback._pack(a, tuple(a.__dict__), ())
    b = Thing()
    rebuild._unpack(packed, b)
    for k in a.__dict__:
        assert getattr(b, k) == getattr(a, k), k
        assert type(getattr(b, k)) is type(getattr(a, k)), k
    assert b.hands is not a.hands and b.hands[1] is not a.hands[1] and b.loc is not a.loc
    assert b.players is not a.players and b.some is not a.some
    b.scores[1] += 1
    assert a.scores[1] == 300  # a copy, not the same list


def test_a_deck_enrolled_between_rounds_is_the_one_the_take_back_reads():
    from uno.cards import Registry, NCARDS
    stream, _ = _night({"hand_size": 2}, [1, 2], 3, 1)
    t = _fed({"hand_size": 2}, stream, len(stream))
    assert t.phase == P_ROUND_OVER
    # the hub's set_registry swaps the table's registry between rounds
    t.registry = Registry([bytes((4, 1, 2, 3, 4, 5, i)) for i in range(NCARDS)])
    t.feed((IN_SHUFFLE,))
    t.feed((IN_SHOE, t.registry.uid(5)))
    assert t.loc[5] in (1, 2)  # dealt
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    assert t.loc[5] == 0 and t.feed((IN_UNDO, 1))[0] == (UNDO, 1) and t.phase == P_ROUND_OVER


def _take_back_each(settings, stream, kind, phase):
    """Every accepted input of this kind in this phase, taken back: the stream without it."""
    found = 0
    for j in range(len(stream)):
        inp, ms, ok, ph = stream[j][:4]
        if inp[0] == kind and ph == phase and ok and not stream[j][5]:
            t = _fed(settings, stream, j + 1)
            assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
            assert _same(_state(t), _state(_fed(settings, stream, j))), (j, inp)
            found += 1
    return found


def test_taking_back_a_reshuffle_and_a_timer_tick():
    settings = {"draw": "until", "hand_size": 15}
    stream, _ = _night(settings, [1, 2, 3, 4, 5, 6], 1, 1, False)
    assert _take_back_each(settings, stream, IN_SHUFFLE, P_PLAY) >= 1  # T4: the pile back
    # a 3 s timer: the players' ticks (up to 4 s) warn and cost often, not once a round or less
    settings = {"preset": "party", "hand_size": 4, "turn_timer": 3}
    stream, _ = _night(settings, [1, 2, 3], 1, 1, False, tick=300)
    assert _take_back_each(settings, stream, IN_TICK, P_PLAY) >= 1  # P2: a warning, a penalty


def test_t4_a_reshuffle_of_25_cards_is_taken_back_like_any_other():
    """A reshuffle's SHUFFLE event carries its count, and 25 is REJECT's code: the reshuffle is
    still an accepted input, kept for the take-back (the seed was picked for a 25-card one)."""
    settings = {"draw": "until", "hand_size": 15}
    stream, _ = _night(settings, [1, 2, 3, 4, 5, 6], 11, 1, False)
    found = 0
    for j in range(len(stream)):
        if stream[j][0][0] == IN_SHUFFLE and stream[j][3] == P_PLAY:
            t = _fed(settings, stream, j)
            if list(t.feed(stream[j][0], stream[j][1])) == [(SHUFFLE, REJECT)]:
                assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
                assert _same(_state(t), _state(_fed(settings, stream, j))), j
                found += 1
    assert found, "no 25-card reshuffle in this stream any more: pick another seed"


def test_a_pack_packs_the_fields_it_is_named_and_keeps_their_names():
    # (one names tuple for every pack of a kind: the table's slots, the settings' as_dict order)
    from uno import rebuild, takeback
    skip = ("s1",)
    obj = Settings()
    for k in ("a", "b", "c"):
        setattr(obj, k, 7)
    obj.s1 = [7]  # kept: an object (the table's out, registry, back, rules)
    names = ("a", "s1", "c")
    got, raw, others = takeback._pack(obj, names, skip)
    assert got is names and len(raw) == 3 and others is None
    fresh = Settings()
    fresh.a = fresh.b = fresh.c = fresh.s1 = 0
    rebuild._unpack((got, raw, others), fresh)
    assert (fresh.a, fresh.b, fresh.c, fresh.s1) == (7, 0, 7, 0)  # b not named, s1 kept
    # ints, flags and small lists go into the bytes, none kept aside (a table's never are)
    d = {"n": 5, "big": 70000, "neg": -3, "f": True, "none": None, "l": [1, 2], "h": [[3], []]}
    for k in d:
        setattr(obj, k, d[k])
    names, raw, others = takeback._pack(obj, tuple(d), skip)
    assert others is None and len(raw) < 20
    t = Table()
    assert takeback._pack_table(t)[0] is takeback._pack_table(t)[0]  # a table's: one tuple
    assert takeback._settings(t.rules) is takeback._settings(Settings())
    assert list(takeback._settings(t.rules)) == list(t.rules.as_dict())


def test_a_name_or_badge_at_0_ms_keeps_its_time_for_a_take_back():
    # a player's name or badge is logged whole, as a rule input is: at 0 ms (the hub's clock
    # after a reboot) its time is a time like any other, and the replay puts the clock there
    for inp in ((IN_PLAYER, 1, "Ann"), (IN_PAD, b"\x04\xa1\xb2\xc3")):
        t = Table()
        t.feed((IN_SEAT, 1, 0))
        assert t.feed(inp, 0)[0][0] == PLAYER
        want = _state(t)
        t.feed((IN_SEAT, 2, 0), 700)
        assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
        assert _state(t) == want and t.clock == 0, inp


def test_a_take_back_replays_the_turn_timer_past_a_refused_press():
    # a refused press with a time moves the clock only; replayed, it must not start the turn's
    # time again, or the tick after it would no longer cost the slow seat its 2 cards (P2)
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5", turn_timer=10)
    t.feed((IN_TICK, 1000), 1000)
    assert t.feed(to_input(from_words("seat 2 long"), t), 5000)[0][0] == REJECT
    assert names(t.feed((IN_TICK, 11500), 11500)) == ["penalty"]
    want = _state(t)
    t.feed(to_input(from_words("shoe G9"), t), 11600)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    assert _same(_state(t), want) and t.debts == [[1, 2, W_SLOW]]


def test_a_second_take_back_replays_the_first_ones_timer_restart():
    # the first take-back started seat 1's time again at 9 s; the second replays past it, so a
    # tick at 17.5 s warns (8.5 s on), as it did, and costs no slow-seat penalty (P2)
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5", turn_timer=10)
    t.feed((IN_TICK, 1000), 1000)
    t.feed(to_input(from_words("pad R2"), t), 2000)
    assert t.feed((IN_UNDO, 1), 9000)[0] == (UNDO, 1) and t.since == 9000
    assert names(t.feed((IN_TICK, 17500), 17500)) == ["timer_warn"]
    want = _state(t)
    t.feed(to_input(from_words("pad R2"), t), 17600)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)
    assert _same(_state(t), want) and t.debts == []


def test_the_log_stays_within_its_chunks_however_many_take_backs():
    # (the take-back's log grows by 256 bytes only when an input would not fit: a chunk is
    # 512 bytes, so 768 at most, and take-backs in a row add nothing to that)
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5", turn_timer=10)
    ms = 1000
    for _ in range(60):
        ms += 700
        t.feed(to_input(from_words("pad R2"), t), ms)
        ms += 700
        assert t.feed((IN_UNDO, 1), ms)[0] == (UNDO, 1)
    assert len(t.back.log) <= 768


def test_a_pack_holds_hands_of_any_size():
    # a hand's length is one byte below 64 and a varint from 64 on: both sides of the edge
    from uno import rebuild, takeback
    for n in (0, 1, 63, 64, 65, 100):
        d = {"hands": [list(range(n)), [7], []], "debts": [[3, n, 2]]}
        obj = Settings()
        obj.hands, obj.debts = d["hands"], d["debts"]
        packed = takeback._pack(obj, ("hands", "debts"), ())
        obj.hands = obj.debts = None
        rebuild._unpack(packed, obj)
        assert obj.hands == d["hands"] and obj.debts == d["debts"], n


def test_a_huge_tick_fits_the_log_wherever_it_comes():
    # whatever a host sends must fit: a tick of a huge time, and a take-back after it, at every
    # place a chunk of the log can have reached (the log grows as it needs)
    for k in range(200):
        t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
        ms = 0
        for i in range(k):  # a card read and a refused press with a time: 2 to 4 bytes each
            ms += 700
            t.feed(to_input(from_words("seat 2 long"), t), ms)
        t.feed((IN_TICK, 2 ** 62), 2 ** 62)
        assert t.feed((IN_UNDO, 1), 2 ** 62 + 1)[0][0] in (UNDO, REJECT)
        t.feed((IN_TICK, 2 ** 62 + 5))
        assert t.back.n <= len(t.back.log)


def test_a_long_run_of_refusals_keeps_the_log_bounded_and_take_backs_work():
    # a button mashed for an hour, or a host sending nonsense, with the hub's clock: each
    # refusal (and each quiet tick) logs its time, and the log goes on in chunks (of 1 KB for
    # refusals) instead of growing on the board's heap until it runs out
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
    ms = 0
    for i in range(6000):
        ms += 100
        if i % 2:
            assert t.feed(to_input(from_words("seat 2 long"), t), ms)[0][0] == REJECT
        else:
            assert t.feed((IN_TICK, ms), ms) == []
    assert len(t.back.log) <= 1280 and t.back.prev is not None
    want = _state(t)
    t.feed(to_input(from_words("pad R2"), t), ms + 100)
    assert t.feed((IN_UNDO, 1))[0] == (UNDO, 1)  # the table plays on, and takes back
    assert _same(_state(t), want) and t.clock == ms


def test_a_take_back_fits_its_timer_record_wherever_the_log_ends():
    # the take-back's own record (the turn timer restarted, with its time: 10,000 s on, 5
    # bytes) goes where the 3-byte input taken back began: at every offset up to the log's
    # first 512 bytes, the log makes room for it
    for extra in (0, 1):  # one 3-byte refusal first, then 2-byte ones: every offset is met
        for k in range(270):
            t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
            ms = 0
            for i in range(k + extra):
                ms += 700 if i < extra else 10
                t.feed(to_input(from_words("seat 2 long"), t), ms)
            t.feed(to_input(from_words("pad R2"), t), ms + 10)
            assert t.feed((IN_UNDO, 1), ms + 10 ** 7)[0] == (UNDO, 1), (extra, k)


def test_the_log_rolls_at_the_same_byte_whether_a_card_read_is_logged_inline_or_by_keep():
    # A chunk rolls when an input takes it past 512 bytes (takeback._CAP), so that a take-back
    # reaches back as far on every path: feed's inline card read (up to 4 bytes) only writes
    # up to where it cannot pass it (a mutant let it write 4 bytes further, after the log had
    # grown, and the roll came an input later). Long rounds, with the hub's times and without.
    for tick in (0, 300):
        t = Table(Settings({"hand_size": 15}))
        bot = Bot(t, [1, 2, 3, 4], seed=5, tick=tick)
        rolls = 0
        while t.round < 6:
            prev = t.back.prev
            ph = t.phase
            inp, evs = bot.step()
            if inp[0] in (IN_SHOE, IN_PAD) and evs[0][0] != REJECT and t.phase == ph:
                # (a refusal's time rolls at twice that; keep rolls a phase change's later)
                assert t.back.n <= 512, (tick, t.back.n)
            rolls += t.back.prev is not prev and t.back.prev is not None
        assert rolls >= 2, rolls
