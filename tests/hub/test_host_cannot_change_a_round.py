"""Issue 8, item 7: what the laptop asks for can never change a round the table is judging."""
import json

import logkit
from check import raises
from hubkit import FakeBoard, game
from hub.app import Hub, ENROLL_QUIET, ENROLL_MAX
from hub.handler import LinkHandler
from link import frame as fr
from link.server import LinkServer, chunks
from uno.cards import synthetic_registry
from uno.events import IN_SEAT, IN_SHUFFLE, IN_PAD, IN_SHOE, IN_RULE, P_LOBBY, P_DRAWOFF, \
    P_PLAY, PLAY, DRAW
from uno.state import snapshot

UID = b"\x04\x01\x02\x03\x04\x05\x06"


def hub_at(path=None, settings=None, board=None):
    h = Hub(board or FakeBoard(), logkit.log(path or logkit.fresh()))
    h.start(settings)
    return h


class Host:
    def __init__(self, hub):
        self.srv = LinkServer(LinkHandler(hub))
        self.rid = 0

    def ask(self, verb, payload=b""):
        self.rid += 1
        if not isinstance(payload, (bytes, str)):
            payload = fr.ascii_text(json.dumps(payload))
        f = fr.decode(self.srv.handle(fr.encode(self.rid, verb, fr.REQ, payload)))
        return f[2], f[3]


def logged(h):
    return [r[4] for r in h.log.read_from(1) if r[1] == 1]


def in_draw_for_dealer():
    h = hub_at()
    for inp in ((IN_SEAT, 1, 0), (IN_SEAT, 2, 0), (IN_SHUFFLE,)):
        h.feed(inp)
    assert h.table.phase == P_DRAWOFF
    return h


def in_round(board=None):
    """A hub in a round's play, its last input a card played or drawn (its take-back moves it)."""
    settings, inputs = game(rounds=0, extra=80)
    h = hub_at(settings=settings, board=board)
    for ms, inp in inputs:
        h.board.clock = ms
        h.feed(inp)
        if h.table.phase == P_PLAY and any(e[0] in (PLAY, DRAW) for e in h.events):
            return h
    raise AssertionError("the game never got to a play")


def test_deck_upload_is_refused_in_the_draw_for_dealer_and_in_a_round():
    uids = [synthetic_registry().uid(i) for i in range(108)]
    from binascii import b2a_base64
    for make in (in_draw_for_dealer, in_round):
        h = make()
        reg = h.table.registry
        host = Host(h)
        for part in chunks(uids)[:3]:
            assert host.ask("registry", b2a_base64(part, newline=False))[0] == fr.OK
        st, p = host.ask("registry", b2a_base64(chunks(uids)[3], newline=False))
        assert st == fr.ERR and b"locked" in p and h.table.registry is reg


def test_enrolment_is_refused_in_the_draw_for_dealer_and_in_a_round():
    for make in (in_draw_for_dealer, in_round):
        h = make()
        n = h.seq
        st, p = Host(h).ask("enroll", {"on": True})
        assert st == fr.ERR and b"locked" in p and h.enrolling is None
        evs = h.feed((IN_PAD, UID))          # a card read is still logged and judged
        assert h.seq == n + 1 and evs


def test_enrolment_ends_when_a_draw_for_dealer_begins():
    h = hub_at()
    host = Host(h)
    assert host.ask("enroll", {"on": True})[0] == fr.OK
    h.feed((IN_SHOE, UID))
    assert h.enrolling == ["04010203040506"] and h.seq == 0       # not a table input
    for inp in ((IN_SEAT, 1, 0), (IN_SEAT, 2, 0), (IN_SHUFFLE,)):
        h.feed(inp)
    assert h.enrolling is None
    n = h.seq
    h.feed((IN_SHOE, UID))
    assert h.seq == n + 1                                           # the game's again


def test_a_quiet_enrolment_ends_by_itself_and_a_host_that_goes_away_ends_it():
    h = hub_at()
    h.enroll(True)
    h.board.clock += ENROLL_QUIET // 2
    h.feed((IN_SHOE, UID))                   # a read keeps it open
    h.board.clock += ENROLL_QUIET // 2 + 1
    h.housekeeping()
    assert h.enrolling is not None
    h.heard()                                # and so does the host asking
    h.board.clock += ENROLL_QUIET
    h.housekeeping()
    assert h.enrolling is not None
    h.board.clock += 1
    h.housekeeping()
    assert h.enrolling is None
    h.enroll(True)
    h.host_gone()
    assert h.enrolling is None


def test_enrolment_keeps_a_bounded_number_of_tags():
    h = hub_at()
    h.enroll(True)
    for i in range(ENROLL_MAX + 40):
        h.feed((IN_SHOE, bytes((4, i & 255, i >> 8, 1))))
    assert len(h.enrolling) == ENROLL_MAX


def test_a_rule_request_the_table_refuses_is_not_logged():
    h = hub_at()
    host = Host(h)
    assert host.ask("rule", {"name": "stacking", "value": "on"})[0] == fr.OK
    n = h.seq
    for name, value in (("stacking", "maybe"), ("nonsense", 1), ("hand_size", "\u0667"),
                        ("hand_size", 99), ("preset", "chaos")):
        st, p = host.ask("rule", {"name": name, "value": value})
        assert st == fr.ERR and b"value it does not take" in p, (name, value)
    assert h.seq == n and logged(h)[-1] == (IN_RULE, "stacking", "on")
    h2 = in_round()
    n = h2.seq
    st, p = Host(h2).ask("rule", {"name": "stacking", "value": "on"})
    assert st == fr.ERR and b"locked" in p and h2.seq == n


def test_what_was_logged_replays_to_the_tables_state():
    h = in_round()
    host = Host(h)
    host.ask("rule", {"name": "stacking", "value": "on"})     # refused: a round is on
    want = snapshot(h.table)
    h.log.close()
    again = Hub(FakeBoard(), logkit.log(h.log.dir))
    again.start()
    assert snapshot(again.table) == want


def test_ack_past_what_was_sent_prunes_nothing():
    h = in_round()
    host = Host(h)
    before = h.log.segments()
    st, p = host.ask("ack", {"upto": 1 << 30})
    assert st == fr.ERR and b"sync first" in p and h.log.segments() == before


def test_an_undo_of_no_inputs_or_too_many_is_refused_and_not_logged():
    h = in_round()
    n = h.seq
    for bad in ({"n": 0}, {"n": 256}, {"n": "1"}, {"n": -1}):
        assert Host(h).ask("undo", bad)[0] == fr.ERR
    assert h.seq == n


def test_lobby_is_between_rounds():
    h = hub_at()
    assert h.table.phase == P_LOBBY and h.between_rounds()
    raises(ValueError, LinkHandler(in_round()).enroll, True)


def test_undo_goes_in_as_a_table_input():
    h = in_round()
    n = h.seq
    st, p = Host(h).ask("undo", {"n": 1})
    assert h.seq == n + 1 and logged(h)[-1] == (8, 1)
    assert (st == fr.OK) == (h.events[0][0] != 25), (st, p, h.events)


def test_a_player_name_is_taken_in_the_lobby_only_and_a_refused_one_is_not_logged():
    """Issue 12: `unotable seat 3 NAME` names a joined seat's player; it is logged like any
    input (replay shows it), refused with a reason and not logged anywhere else."""
    h = hub_at()
    host = Host(h)
    st, p = host.ask("player", {"seat": 3, "name": "Ann"})
    assert st == fr.ERR and b"has not joined" in p and h.seq == 0
    h.feed((IN_SEAT, 3, 0))
    h.feed((IN_SEAT, 4, 0))
    for bad in ({"seat": 3, "name": " Ann"}, {"seat": 3, "name": "x" * 25}, {"seat": 3},
                {"seat": "3", "name": "Ann"}, {"seat": 3, "name": 5}):
        st, p = host.ask("player", bad)
        assert st == fr.ERR and h.seq == 2, (bad, p)
    st, p = host.ask("player", {"seat": 3, "name": "\u674e\u4f1f"})
    assert st == fr.OK and h.seq == 3 and h.table.players[3] == "\u674e\u4f1f", p
    st, p = host.ask("player", {"seat": 4, "name": "\u674e\u4f1f"})
    assert st == fr.ERR and b"at seat 3 already" in p and h.seq == 3
    assert logged(h)[-1] == (9, 3, "\u674e\u4f1f")
    h.log.close()
    again = hub_at(h.log.dir)                   # what was logged replays to the same players
    assert again.table.players == h.table.players
    for make in (in_draw_for_dealer, in_round):
        h = make()
        n = h.seq
        st, p = Host(h).ask("player", {"seat": 1, "name": "Ann"})
        assert st == fr.ERR and b"lobby" in p and h.seq == n


def test_a_name_beyond_the_bmp_is_logged_as_utf8_and_a_lone_surrogate_is_refused():
    # The host's json.dumps sends a name outside the BMP as a surrogate pair ("\ud83d\ude00").
    # MicroPython's json keeps the pair as two surrogates (CESU-8 bytes), so the board logged
    # a name no host can decode: every sync from that seq on failed ("records ... could not
    # be decoded: text not UTF-8"). A lone surrogate was logged the same way on the board.
    from binascii import a2b_base64
    from link.codec import decode
    h = hub_at()
    h.feed((IN_SEAT, 3, 0))
    h.feed((IN_SEAT, 4, 0))
    host = Host(h)
    for bad in ('"\\ud800"', '"A\\udc00"', '"\\ud83dA"', '"A\\ud83d"'):
        st, p = host.ask("player", '{"seat": 4, "name": %s}' % bad)
        assert st == fr.ERR and h.seq == 2 and h.table.players[4] is None, (bad, p)
    name = "Ann \U0001F600"
    st, p = host.ask("player", {"seat": 3, "name": name})
    assert st == fr.OK and h.seq == 3 and h.table.players[3] == name, p
    st, p = host.ask("records", {"from": 1})
    assert st == fr.OK, p
    recs = decode(a2b_base64(p))[0]
    assert recs[-1][3] == (9, 3, name), recs


def test_a_new_deck_does_not_judge_again_what_was_judged_with_the_old_one():
    # The log holds no deck: at boot the inputs after the last snapshot were judged again
    # with the deck on file. A deck uploaded in the lobby after a badge was tapped (a tag that
    # the new deck has as a card), or after a card of the old deck was tapped for a seat that
    # had just joined (a tag the new deck does not have), changed the table at its next
    # boot: seat 3's player was gone, seat 4 had one. A take-back reaching back past the
    # deck change judged those taps again with the new deck the same way.
    from binascii import b2a_base64
    from hub.app import load_deck
    from uno.state import snapshot as state
    path = logkit.fresh()
    h = hub_at(path)
    badge = b"\x04\x01\x02\x03\x04\x05\x06"
    old = synthetic_registry()
    h.feed((IN_SEAT, 1, 0))
    h.feed((IN_SEAT, 3, 0))
    h.feed((IN_PAD, badge))                     # seat 3's player: a badge
    h.feed((IN_SEAT, 4, 0))
    h.feed((IN_PAD, old.uid(5)))                # a card, not a badge: refused
    assert h.table.players[3] == badge and h.table.players[4] is None
    uids = [old.uid(i) for i in range(108)]
    uids[0] = badge
    uids[5] = b"\x04\x09\x09\x09\x09\x09\x09"
    srv = LinkServer(LinkHandler(h, path + ".deck"))
    for rid, part in enumerate(chunks(uids)):
        f = fr.decode(srv.handle(fr.encode(1 + rid, "registry", fr.REQ,
                                           b2a_base64(part, newline=False))))
        assert f[2] == fr.OK, f
    assert h.table.registry.uid(0) == badge
    f = fr.decode(srv.handle(fr.encode(9, "undo", fr.REQ, b'{"n": 1}')))
    assert f[2] == fr.ERR and h.table.players[3] == badge and h.table.seats == [1, 3, 4], f
    want = state(h.table)
    reach = h.table.back.reach()
    h.log.close()
    again = Hub(FakeBoard(), logkit.log(path), load_deck(path + ".deck"))
    again.start()
    assert again.table.players[3] == badge and again.table.players[4] is None
    assert state(again.table) == want and again.table.back.reach() == reach
