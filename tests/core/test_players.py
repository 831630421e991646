"""Players (issue 12): a badge tapped in the lobby, or a name from the host, binds a seat's player
for the match; a badge never counts as a card; take-backs, snapshots and records keep it."""
from uno.events import (IN_PAD, IN_SHOE, IN_SEAT, IN_SHUFFLE, IN_PLAYER, IN_UNDO, IN_RULE,
                        PLAYER, JOIN, LEAVE, REJECT, R_SEAT_FIRST, R_PLAYER_TAKEN, R_BAD_NAME,
                        R_NOT_NOW, R_NOT_SEATED, R_BAD_SEAT, R_UNKNOWN, P_LOBBY, P_DRAWOFF,
                        P_MATCH_OVER)
from uno.narrate import say
from uno.record import Replay, from_words, record
from uno.script import dumps, input_dict, to_input
from uno.state import snapshot, load
from uno.table import Table, good_name
from kit import rejected

BADGE = b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"
OTHER = b"\x04\x01\x02\x03"


def _feed(t, *inps):
    evs = []
    for inp in inps:
        evs = list(t.feed(inp))
    return evs


def test_players_badge_after_seat_binds_that_seat():
    t = Table()
    assert _feed(t, (IN_SEAT, 3, 0)) == [(JOIN, 3)]
    assert _feed(t, (IN_PAD, BADGE)) == [(PLAYER, 3, BADGE)]
    assert t.players[3] == BADGE
    assert t.seats == [3]  # a badge joins nobody and is no card
    assert t.loc == Table().loc


def test_players_badge_first_is_rejected_with_its_reason():
    t = Table()
    assert rejected(_feed(t, (IN_PAD, BADGE)), R_SEAT_FIRST)
    _feed(t, (IN_SEAT, 3, 0), (IN_PAD, BADGE))
    # one badge a join: a second tap (another badge, the same one) has no seat to bind
    assert rejected(_feed(t, (IN_PAD, OTHER)), R_SEAT_FIRST)
    assert t.players[3] == BADGE


def test_players_one_badge_one_seat():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0), (IN_PAD, BADGE), (IN_SEAT, 5, 0))
    evs = _feed(t, (IN_PAD, BADGE))
    assert rejected(evs, R_PLAYER_TAKEN) and evs[0][2] == 3  # names where that player sits
    assert t.players[5] is None
    assert _feed(t, (IN_PAD, OTHER)) == [(PLAYER, 5, OTHER)]


def test_players_badge_is_never_a_card_outside_the_lobby():
    t = Table()
    _feed(t, (IN_SEAT, 1, 0), (IN_SEAT, 2, 0), (IN_SHUFFLE,))
    assert t.phase == P_DRAWOFF
    assert rejected(_feed(t, (IN_PAD, BADGE)), R_UNKNOWN)
    assert rejected(_feed(t, (IN_SHOE, BADGE)), R_UNKNOWN)
    assert rejected(_feed(t, (IN_PLAYER, 1, "Li Wei")), R_NOT_NOW)
    # the whole event: the host, not a seat, acted (seat 0), and no card
    assert _feed(t, (IN_PLAYER, 1, "Li Wei")) == [(REJECT, R_NOT_NOW, 0, -1)]
    assert t.players == [None] * len(t.players)


def test_players_shoe_read_of_a_badge_in_the_lobby_is_unknown():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0))
    assert rejected(_feed(t, (IN_SHOE, BADGE)), R_UNKNOWN)
    assert _feed(t, (IN_PAD, BADGE)) == [(PLAYER, 3, BADGE)]  # the seat still waits for it


def test_players_host_names_a_joined_seat():
    t = Table()
    _feed(t, (IN_SEAT, 2, 0), (IN_SEAT, 4, 0))
    assert _feed(t, (IN_PLAYER, 2, "Li Wei")) == [(PLAYER, 2, "Li Wei")]
    assert _feed(t, (IN_PLAYER, 2, "\u674e\u4f1f")) == [(PLAYER, 2, "\u674e\u4f1f")]  # renamed
    assert rejected(_feed(t, (IN_PLAYER, 3, "Ann")), R_NOT_SEATED)
    for seat in (0, 11, -1, "2"):  # seats are 1 to 10: no seat 0, and the reject names none
        assert _feed(t, (IN_PLAYER, seat, "Ann")) == [(REJECT, R_BAD_SEAT, 0, -1)], seat
    assert rejected(_feed(t, (IN_PLAYER, 4, "\u674e\u4f1f")), R_PLAYER_TAKEN)
    for bad in ("", " Ann", "Ann ", "A\nB", "x" * 25, "\u674e" * 9, 7, b"Ann"):
        assert rejected(_feed(t, (IN_PLAYER, 4, bad)), R_BAD_NAME), bad
    assert t.players[4] is None
    # the seat that joined last still takes a badge: a name from the host does not use it up
    assert _feed(t, (IN_PAD, BADGE)) == [(PLAYER, 4, BADGE)]


def test_players_good_name_is_the_same_on_every_interpreter():
    # str.strip() differs (CPython strips U+3000, MicroPython does not): not used
    assert good_name("Li Wei") and good_name("\u674e\u4f1f") and good_name("x" * 24)
    assert good_name("Li\u3000") and not good_name("Li ") and not good_name("\x7f")


def test_players_a_name_hides_no_control_or_direction_mark():
    # a bidi override or an invisible character would make one name show as another on the
    # scoreboard, the standings and their CSV (found by the link audit): refused, as C0 is
    for bad in ("Ann\u202e", "\u202dBo", "A\u200bnn", "Ann\u2066", "\ufeffAnn", "An\u00adn",
                "Ann\x85", "A\u200fB", "Ann\u2028", "A\u061cB", "A\U000e0041",
                "A\x9fB", "A\x7fB", "A\u180eB"):      # (the ends of C1 and of one hidden range)
        assert not good_name(bad), repr(bad)
    for ok in ("Jos\u00e9", "\u674e\u4f1f", "M\u00fcller", "Ann\U0001f600", "\u0627\u062d\u0645\u062f",
               "Li\u00a0Wei"):                        # (just past C1: printable)
        assert good_name(ok), repr(ok)


def test_players_a_name_of_one_byte_is_a_name():
    assert good_name("A") and good_name("7") and not good_name("")
    t = Table()
    _feed(t, (IN_SEAT, 2, 0))
    assert _feed(t, (IN_PLAYER, 2, "A")) == [(PLAYER, 2, "A")]


def test_players_leave_unbinds():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0), (IN_PAD, BADGE))
    assert _feed(t, (IN_SEAT, 3, 1)) == [(LEAVE, 3)]
    assert t.players[3] is None
    _feed(t, (IN_SEAT, 4, 0))
    assert _feed(t, (IN_PAD, BADGE)) == [(PLAYER, 4, BADGE)]  # free again


def test_players_join_then_leave_leaves_no_seat_to_bind():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0), (IN_SEAT, 3, 1))
    assert rejected(_feed(t, (IN_PAD, BADGE)), R_SEAT_FIRST)


def test_players_take_back_unbinds_and_rebinds():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0), (IN_PAD, BADGE), (IN_SEAT, 5, 0), (IN_PLAYER, 5, "Ann"))
    before = snapshot(t)
    evs = _feed(t, (IN_UNDO, 1))
    assert (PLAYER, 5, None) in evs and t.players[5] is None
    evs = _feed(t, (IN_UNDO, 2))          # the join of 5, then the badge of 3
    assert (LEAVE, 5) in evs and (PLAYER, 3, None) in evs
    assert t.players == [None] * len(t.players)
    # the stream without them gives the same table
    u = Table()
    _feed(u, (IN_SEAT, 3, 0))
    a, b = snapshot(t), snapshot(u)
    a.pop("clock"), b.pop("clock")
    assert a == b
    # and fed again they bind again
    _feed(t, (IN_PAD, BADGE), (IN_SEAT, 5, 0), (IN_PLAYER, 5, "Ann"))
    after = snapshot(t)
    before.pop("clock"), after.pop("clock")
    assert after == before


def test_players_take_back_of_a_later_input_keeps_them():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0), (IN_PAD, BADGE), (IN_SEAT, 5, 0), (IN_PLAYER, 5, "Ann"),
          (IN_RULE, "target", 200))
    evs = _feed(t, (IN_UNDO, 1))
    assert t.players[3] == BADGE and t.players[5] == "Ann"
    assert not [e for e in evs if e[0] == PLAYER]


def test_players_state_json_round_trip():
    t = Table()
    _feed(t, (IN_SEAT, 3, 0), (IN_PAD, BADGE), (IN_SEAT, 5, 0), (IN_PLAYER, 5, "\u674e\u4f1f"),
          (IN_SEAT, 7, 0))
    s = snapshot(t)
    assert s["players"] == [[3, "uid", "04a1b2c3d4e5f6"], [5, "name", "\u674e\u4f1f"]]
    assert s["naming"] == 7
    u = load(s)
    assert u.players == t.players and snapshot(u) == s
    assert _feed(u, (IN_PAD, OTHER)) == [(PLAYER, 7, OTHER)]
    old = dict(s)
    del old["players"], old["naming"]
    assert load(old).players == [None] * len(t.players)  # a snapshot from before players


def test_players_match_keeps_them_through_rounds():
    t = Table()
    _feed(t, (IN_SEAT, 1, 0), (IN_PLAYER, 1, "Ann"), (IN_SEAT, 2, 0), (IN_PAD, BADGE),
          (IN_SHUFFLE,))
    assert t.phase != P_LOBBY
    assert t.players[1] == "Ann" and t.players[2] == BADGE
    assert snapshot(load(snapshot(t)))["players"] == snapshot(t)["players"]


def test_players_a_new_group_after_a_match_binds_its_own():
    from kit import act, deal
    t = deal({1: "R1 R2", 2: "R9 GS"}, start="R5", target=20)
    _feed(t, (IN_PLAYER, 1, "Ann"))  # refused: not the lobby
    assert t.players[1] is None
    act(t, "pad R1", "pad R9", "pad R2")
    assert t.phase == P_MATCH_OVER
    assert rejected(_feed(t, (IN_PLAYER, 3, "Cy")), R_NOT_NOW)  # the laptop opens no lobby
    assert rejected(_feed(t, (IN_PAD, BADGE)), R_UNKNOWN)  # no card, and no lobby yet
    assert _feed(t, (IN_SEAT, 2, 1), (IN_SEAT, 4, 0), (IN_PAD, BADGE)) == [(PLAYER, 4, BADGE)]
    assert _feed(t, (IN_PLAYER, 1, "Ann")) == [(PLAYER, 1, "Ann")]
    assert t.phase == P_LOBBY and t.seats == [1, 4]
    assert [t.players[s] for s in (1, 2, 4)] == ["Ann", None, BADGE]


def test_players_script_and_record_forms():
    t = Table()
    d = from_words("player 3 Li Wei")
    assert d == {"in": "player", "seat": 3, "name": "Li Wei"}
    inp = to_input(d, t)
    assert inp == (IN_PLAYER, 3, "Li Wei")
    assert input_dict(inp, t.registry) == d
    _feed(t, (IN_SEAT, 3, 0))
    lines = record(7, inp, t.feed(inp), t.registry)
    assert dumps(lines[1]) == '{"seq":7,"ev":"player","seat":3,"name":"Li Wei"}'
    _feed(t, (IN_SEAT, 4, 0))
    lines = record(8, (IN_PAD, BADGE), t.feed((IN_PAD, BADGE)), t.registry)
    assert lines[0]["uid"] == "04a1b2c3d4e5f6"
    assert dumps(lines[1]) == '{"seq":8,"ev":"player","seat":4,"uid":"04a1b2c3d4e5f6"}'


def test_players_record_replays_to_itself():
    script = ['{"in":"seat","seat":1}', '{"in":"pad","uid":"04a1b2c3d4e5f6"}',
              '{"in":"seat","seat":2}', '{"in":"player","seat":2,"name":"Ann"}',
              '{"in":"shuffle"}']
    rec = list(Replay().record(script))
    assert '{"seq":2,"ev":"player","seat":1,"uid":"04a1b2c3d4e5f6"}' in rec
    assert '{"seq":4,"ev":"player","seat":2,"name":"Ann"}' in rec
    again = list(Replay().record(rec))
    assert again == rec


def test_players_narrated():
    assert say((PLAYER, 3, "Li Wei")) == "seat 3 is Li Wei"
    assert say((PLAYER, 3, BADGE)) == "seat 3 is badge 04a1b2c3d4e5f6"
    assert say((PLAYER, 3, None)) == "seat 3 has no player named"
    assert say((REJECT, R_SEAT_FIRST, 0, -1)).endswith("press your seat button first, "
                                                      "then tap your badge")


def test_players_lobby_fuzz_keeps_one_seat_a_player_and_takes_back_exactly():
    """Random lobbies (joins, leaves, badge taps, names, take-backs): a player is at one joined
    seat at most; a take-back of n leaves the table the stream without those n gives."""
    from uno.bot import Rng
    badges = [BADGE, OTHER, b"\x04\x05\x06\x07", b"\x04\x05\x06\x08\x09\x0a\x0b"]
    names_ = ["Ann", "Bo", "\u674e\u4f1f", "Ann "]
    for seed in range(1, 41):
        rng = Rng(seed)
        t = Table()
        kept = []                       # accepted inputs, for the take-back's oracle
        for _ in range(30):
            k = rng.below(6)
            if k == 0:
                inp = (IN_SEAT, 1 + rng.below(10), 0)
            elif k == 1:
                inp = (IN_SEAT, 1 + rng.below(10), 1)
            elif k == 2:
                inp = (IN_PAD, rng.pick(badges))
            elif k == 3:
                inp = (IN_PLAYER, 1 + rng.below(10), rng.pick(names_))
            elif k == 4 and kept:
                n = 1 + rng.below(min(3, len(kept)))
                t.feed((IN_UNDO, n))
                del kept[-n:]
                u = Table()
                for x in kept:
                    u.feed(x)
                a, b = snapshot(t), snapshot(u)
                a.pop("clock"), b.pop("clock")
                assert a == b, (seed, kept)
                continue
            else:
                inp = (IN_RULE, "target", 100 + rng.below(400))
            evs = list(t.feed(inp))
            if evs and not (len(evs) == 1 and evs[0][0] == REJECT):  # it changed the table
                kept.append(inp)
            # as text: a MicroPython set warns when it holds bytes and str that it compares
            bound = [w if type(w) is str else repr(w) for w in t.players if w is not None]
            assert all(t.players[s] is None for s in range(len(t.players))
                       if s not in t.seats), seed
            assert len(bound) == len(set(bound)), seed
            assert snapshot(load(snapshot(t))) == snapshot(t)
