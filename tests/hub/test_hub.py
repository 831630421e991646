"""The hub: every input logged before it is judged, answered, and recovered after a cut."""
import logkit
from hubkit import FakeBoard, game
from board import buzzer as tunes
from hub.app import Hub
from uno.events import IN_SEAT, IN_PAD
from uno.rules import Settings
from uno.state import snapshot
from uno.table import Table


def hub_at(path, settings=None):
    board = FakeBoard()
    h = Hub(board, logkit.log(path))
    h.start(settings)
    return h


def test_inputs_are_logged_judged_and_answered():
    path = logkit.fresh()
    h = hub_at(path)
    h.feed((IN_SEAT, 1, 0))
    h.feed((IN_SEAT, 2, 0))
    evs = list(h.feed((IN_SEAT, 2, 0)))                     # joined already: rejected
    assert evs[0][0] == 25 and h.board.buzzer.played[-1] is tunes.REJECTED
    assert h.board.buzzer.played[0] is tunes.ACCEPTED
    h.feed((IN_PAD, b"\x04\x01\x02\x03\x04\x05\x06"))  # no card: seat 2's badge
    assert h.seq == 4 and h.board.buzzer.played[-1] is tunes.ACCEPTED
    h.feed((IN_PAD, b"\x04\x01\x02\x03\x04\x05\x07"))  # one badge a join
    assert h.seq == 5 and h.board.buzzer.played[-1] is tunes.REJECTED
    s = h.status()
    assert s["seq"] == 5 and s["phase"] == "lobby" and s["tune"] == "rejected"
    assert [x["seat"] for x in s["seats"]] == [1, 2]
    assert s["players"] == [[2, "uid", "04010203040506"]]


def test_round_over_snapshot_and_recovery_replays_only_the_round_since():
    path = logkit.fresh()
    settings, inputs = game(rounds=1, extra=12)
    h = hub_at(path, settings)
    for ms, inp in inputs:
        h.board.clock = ms
        h.feed(inp)
    want = snapshot(h.table)
    h.log.close()
    again = hub_at(path)
    assert snapshot(again.table) == want
    # one rule input (hand size), the inputs, one snapshot; only the round since is replayed
    assert again.recovered <= 13 and again.seq == 1 + len(inputs) + 1


def _replayed(settings, inputs, k):
    t = Table(Settings(settings))
    for ms, inp in inputs[:k]:
        t.feed(inp, ms)
    return t


def test_a_cut_at_every_byte_of_the_last_records_recovers_the_replay_up_to_the_last_whole_one():
    path = logkit.fresh()
    settings, inputs = game(rounds=1, extra=6)
    h = hub_at(path, settings)
    ends = []
    for ms, inp in inputs:
        h.board.clock = ms
        h.feed(inp)
        ends.append(logkit.size(logkit.seg(path)))
    h.log.close()
    seg = logkit.seg(path)
    whole = logkit.read(seg)
    first = ends[-4]                       # the last three records, every byte of them
    base = len(inputs) - 3
    for cut in range(first, len(whole)):
        logkit.write(seg, whole[:cut])
        h2 = hub_at(path)
        k = base + len([e for e in ends[-3:] if e <= cut])
        assert h2.seq >= 1 + k + 1, (cut, h2.seq, k)     # torn bytes' seqs are never reused
        assert snapshot(h2.table) == snapshot(_replayed(settings, inputs, k)), cut
        h2.log.close()
    logkit.write(seg, whole)


def test_recovery_then_play_goes_on_and_logs_on_after_the_cut():
    path = logkit.fresh()
    settings, inputs = game(rounds=0, extra=30)
    h = hub_at(path, settings)
    for ms, inp in inputs[:20]:
        h.board.clock = ms
        h.feed(inp)
    h.log.close()
    seg = logkit.seg(path)
    data = logkit.read(seg)
    logkit.write(seg, data[:-3])                # a torn last record
    h = hub_at(path)
    assert h.seq >= 1 + 19                      # the torn record's seq is not reused
    for ms, inp in inputs[19:]:
        h.board.clock = ms
        h.feed(inp)
    assert snapshot(h.table) == snapshot(_replayed(settings, inputs, 30))
    h.log.close()
    top = h.seq
    h.log.close()
    assert hub_at(path).seq == top


def test_serial_lines_status_dump_help_and_unknown():
    import json
    from hub.serial import Serial
    path = logkit.fresh()
    h = hub_at(path)
    h.feed((IN_SEAT, 4, 0))
    h.feed((IN_PAD, b"\x04\x01\x02\x03\x04\x05\x06"))
    sr = Serial(h, stream=object(), out=None)
    status = json.loads(list(sr.handle("status"))[0])
    assert status["seq"] == 2 and status["seats"][0]["seat"] == 4
    dump = [json.loads(x) for x in sr.handle("dump")]
    assert dump[0] == {"seq": 1, "t": 0, "in": "seat", "seat": 4}
    assert dump[1]["uid"] == "04010203040506" and dump[-1] == {"end": 3}
    assert [json.loads(x).get("seq") for x in sr.handle("dump 2")] == [2, None]
    assert "commands" in json.loads(list(sr.handle("help"))[0])
    assert "error" in json.loads(list(sr.handle("reboot now"))[0])
    assert list(sr.handle("   ")) == []
