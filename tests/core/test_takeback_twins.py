"""Two copies of one face after a take-back (issue 10): a card sent back to the shoe from a hand
that holds its twin cannot be told from it, so whichever copy the player put back counts.

A draw of R1b taken back from a hand that holds R1a: the player may put either R1 on the shoe.
The table then takes a read of R1a at the shoe, or of R1b on the pad, as the other copy's
(`twins` event: the two change places in its record), and refuses a hand card read at the shoe
as before when no take-back left a pair in doubt.
"""
from uno.cards import DECK, NCARDS, copy_name
from uno.events import IN_SHOE, IN_PAD, REJECT, TWINS, R_IN_HAND, R_IN_SHOE, R_NOT_TURN, P_DEAL
from uno.state import snapshot
from uno.table import PILE, SHOE
from kit import act, deal, empty_the_shoe, names, unchanged


def _card(text):
    return [c for c in range(NCARDS) if copy_name(c) == text][0]


def doubted(t):
    """The copies in t.doubt, pair by pair (x, y, kinds: uno/takeback.py's _in_doubt)."""
    return [t.doubt[i] for i in range(len(t.doubt)) if i % 3 < 2]


def _read(t, kind, text):
    return list(t.feed((kind, t.registry.uid(_card(text)))))


def _drew_and_took_back(start="B5"):
    """Seat 1 holds R1a, draws R1b, and the draw is taken back: R1b to the shoe, in doubt."""
    t = deal({1: "R1a G2", 2: "G5 B7"}, start=start)
    evs = _read(t, IN_SHOE, "R1b")
    assert names(evs)[0] == "draw"
    evs = act(t, "undo")
    # (on B5 the turn had moved: R1b fits no B5)
    assert names(evs) == ["undo", "card_back"] + (["turn"] if start == "B5" else [])
    assert evs[1][1:] == (_card("R1b"), 1, SHOE)
    assert doubted(t) == [_card("R1b"), _card("R1a")]
    return t


def test_takeback_the_hands_copy_read_at_the_shoe_is_drawn_as_the_one_that_went_back():
    t = _drew_and_took_back()
    evs = _read(t, IN_SHOE, "R1a")  # the player put R1a back: the shoe's top is R1a
    assert names(evs) == ["twins", "draw", "turn"]
    assert evs[0] == (TWINS, _card("R1a"), _card("R1b"))
    assert evs[1][1:3] == (1, _card("R1a"))
    assert sorted(t.hands[1]) == sorted([_card("R1a"), _card("R1b"), _card("G2a")])
    assert t.loc[_card("R1b")] == 1 and doubted(t) == []


def test_takeback_the_shoes_copy_played_from_the_hand_is_the_one_kept():
    t = _drew_and_took_back(start="R5")
    evs = _read(t, IN_PAD, "R1b")  # R1a went back: seat 1 plays the R1 it kept, R1b
    assert names(evs)[:2] == ["twins", "play"] and evs[1][1:] == (1, _card("R1b"))
    assert t.top == _card("R1b") and t.loc[_card("R1a")] == SHOE
    assert t.hands[1] == [_card("G2a")] and doubted(t) == []
    # the shoe's R1 is R1a now: read there, it is drawn as any card
    assert "draw" in names(_read(t, IN_SHOE, "R1a"))


def test_takeback_a_twin_read_refused_all_the_same_changes_nothing():
    t = _drew_and_took_back()
    act(t, "shoe R3")  # seat 1 draws R3, which fits no B5: seat 2's turn
    before = snapshot(t)
    hands = [h[:] for h in t.hands]
    evs = _read(t, IN_PAD, "R1b")  # seat 1's R1 (R1b, if that one stayed) out of turn
    assert evs == [(REJECT, R_NOT_TURN, 1, _card("R1b"))]
    assert snapshot(t) == before and t.hands == hands
    assert doubted(t) == [_card("R1b"), _card("R1a")] and t.loc[_card("R1b")] == SHOE


def test_takeback_without_a_pair_in_doubt_a_hand_card_at_the_shoe_is_refused():
    t = deal({1: "R1a G2", 2: "G5 B7"}, start="B5")
    assert unchanged(t, "shoe R1a") == R_IN_HAND
    assert unchanged(t, "pad R1b") == R_IN_SHOE
    t = _drew_and_took_back()
    assert unchanged(t, "shoe G2a") == R_IN_HAND  # no twin went back for G2
    assert unchanged(t, "pad G5b") == R_IN_SHOE


def test_takeback_a_copy_read_where_the_table_has_it_ends_the_doubt():
    t = _drew_and_took_back()
    assert names(_read(t, IN_SHOE, "R1b"))[0] == "draw"  # R1b was on the shoe after all
    assert doubted(t) == [_card("R1b"), _card("R1a")]  # (kept, but no longer in doubt:)
    assert unchanged(t, "shoe R1a") == R_IN_HAND


def test_takeback_the_swap_is_logged_and_a_later_take_back_rebuilds_through_it():
    t = _drew_and_took_back()
    _read(t, IN_SHOE, "R1a")  # the twin drawn (the turn moves on: R1 fits no B5)
    after = snapshot(t)
    loc = bytes(t.loc)
    act(t, "shoe R3")  # seat 2 draws
    evs = act(t, "undo")  # seat 2's draw taken back: a rebuild through the logged swap
    assert names(evs) == ["undo", "card_back", "turn"]
    assert snapshot(t)["seats"] == after["seats"] and bytes(t.loc) == loc
    evs = act(t, "undo")  # the twin's draw taken back: R1a goes back, R1b stays, in doubt
    assert names(evs) == ["undo", "card_back", "turn"] and evs[1][1:] == (_card("R1a"), 1, SHOE)
    assert doubted(t) == [_card("R1a"), _card("R1b")]


def test_takeback_of_a_deal_card_with_its_twin_in_the_hand():
    t = deal({1: "R1a R1b", 2: "G5 B7"}, start=None)  # dealt: the start card is next
    act(t, "undo")  # the deal's last card, seat 2's B7, back: no twin in that hand
    assert doubted(t) == []
    act(t, "undo", "undo")  # seat 1's R1b back (its twin R1a stays), then seat 2's G5
    assert t.phase == P_DEAL and doubted(t) == [_card("R1b"), _card("R1a")]
    evs = _read(t, IN_SHOE, "R1a")  # seat 2's card: the R1 the player put back
    assert names(evs) == ["twins", "deal"] and evs[1][1:] == (2, _card("R1a"))
    assert t.hands[1] == [_card("R1b")]


def test_takeback_wilds_have_four_copies_each_pair_is_in_doubt():
    t = deal({1: "Wa Wb", 2: "G5 B7"}, start="B5")
    _read(t, IN_SHOE, "Wc")
    act(t, "undo")
    assert doubted(t) == [_card("Wc"), _card("Wa"), _card("Wc"), _card("Wb")]
    evs = _read(t, IN_SHOE, "Wb")
    # the other pair follows the names: the shoe's place, Wc's, is Wb's now (drawn)
    assert evs[0] == (TWINS, _card("Wb"), _card("Wc")) and doubted(t) == [_card("Wb"), _card("Wa")]
    # Wb is in the hand now: the pair left is no longer in doubt
    act(t, "seat 1")
    assert unchanged(t, "shoe Wa") == R_IN_HAND


def test_takeback_a_reshuffle_drops_the_pairs_no_longer_in_doubt():
    t = _drew_and_took_back(start="R5")
    act(t, "pad R1a")  # R1a was kept after all: no longer in doubt
    empty_the_shoe(t)
    assert doubted(t) == [_card("R1b"), _card("R1a")]  # (kept until the reshuffle)
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle"] and t.doubt == []


def test_takeback_the_faces_in_doubt_are_one_face():
    t = _drew_and_took_back()
    x, y = doubted(t)
    assert DECK[x] == DECK[y] and x != y and t.loc[x] == SHOE and t.loc[y] == 1


def test_takeback_the_record_and_the_narration_name_the_two_copies():
    from uno.narrate import say
    from uno.record import event_dict
    t = _drew_and_took_back()
    ev = _read(t, IN_SHOE, "R1a")[0]
    assert event_dict(ev) == {"ev": "twins", "card": "R1a", "copy": "R1b"}
    assert "R1a" in say(ev) and "R1b" in say(ev)


def test_takeback_a_copy_played_where_the_table_has_it_is_no_twin_of_the_shoes():
    t = _drew_and_took_back(start="R5")
    assert names(_read(t, IN_PAD, "R1a"))[0] == "play"  # R1a was kept after all: played
    act(t, "shoe R3")  # seat 2 draws
    assert unchanged(t, "pad R1b") == R_IN_SHOE  # the shoe's R1 is no twin of the pile's


def test_takeback_of_two_pairs_in_doubt_the_one_read_goes():
    t = deal({1: "Wa Wb", 2: "G5 B7"}, start="B5")
    _read(t, IN_SHOE, "Wc")
    act(t, "undo")
    evs = _read(t, IN_SHOE, "Wa")
    assert evs[0] == (TWINS, _card("Wa"), _card("Wc"))
    # the other pair follows the places' names: the shoe's copy was Wa's place, now drawn
    assert doubted(t) == [_card("Wa"), _card("Wb")] and t.loc[_card("Wa")] == 1


def test_takeback_pairs_in_doubt_stay_through_a_later_take_back_and_stale_ones_go():
    t = deal({1: "Wa Wb G2", 2: "G5 B7 B8"}, start="B5")
    _read(t, IN_SHOE, "Wc")
    act(t, "undo")
    pairs = [_card("Wc"), _card("Wa"), _card("Wc"), _card("Wb")]
    act(t, "shoe B3", "undo")  # another draw taken back: B3's twin is in no hand
    assert doubted(t) == pairs
    act(t, "pad Wa", "colour G", "undo")  # Wa played, its colour taken back: Wa's pair is gone
    assert doubted(t) == [_card("Wc"), _card("Wb")]
    act(t, "undo")  # Wa back in the hand from the pile: the pile's order told it (no doubt)
    assert doubted(t) == [_card("Wc"), _card("Wb")]


def test_takeback_a_pair_whose_shoe_copy_was_drawn_is_no_longer_in_doubt():
    t = _drew_and_took_back(start="R5")
    assert names(_read(t, IN_SHOE, "R1b"))[0] == "draw"  # the shoe's copy after all
    act(t, "seat 1", "undo")  # its pass taken back: R1b stays in the hand, no pair in doubt
    assert doubted(t) == []


def test_takeback_the_twins_record_fits_wherever_the_log_ends():
    # the swap's record (3 bytes) goes before the read's: at every offset of the log's first
    # 512 bytes, the log makes room for both
    for extra in (0, 1):  # one 3-byte refusal first, then 2-byte ones: every offset is met
        for k in range(0, 270, 1 if extra else 3):
            t = _drew_and_took_back()
            ms = 0
            for i in range(k + extra):
                ms += 700 if i < extra else 10
                t.feed((IN_PAD, t.registry.uid(_card("G5b"))), ms)  # still in the shoe
            evs = t.feed((IN_SHOE, t.registry.uid(_card("R1a"))), ms + 10)
            assert evs[0][0] == TWINS, (extra, k)
            act(t, "undo")
            assert doubted(t) == [_card("R1a"), _card("R1b")], (extra, k)


def test_takeback_a_hand_copy_played_then_taken_back_is_known_from_the_pile():
    t = _drew_and_took_back(start="R5")
    assert names(_read(t, IN_PAD, "R1a"))[0] == "play"  # the hand's copy, where the table has it
    evs = act(t, "undo")  # the play taken back: the pile's top card goes back, known
    assert evs[1][1:] == (_card("R1a"), PILE, 1) and doubted(t) == []


def test_takeback_both_copies_back_in_the_shoe_are_in_no_doubt():
    t = _drew_and_took_back()
    while t.loc[_card("R1a")] != SHOE:  # back to the deal: R1a goes back to the shoe too
        act(t, "undo")
    assert t.phase == P_DEAL and doubted(t) == []


def test_takeback_a_refused_twin_read_mashed_without_times_logs_nothing():
    t = _drew_and_took_back()
    act(t, "shoe R3")  # seat 2's turn
    n = t.back.n
    for _ in range(1000):
        assert _read(t, IN_PAD, "R1b")[0][:2] == (REJECT, R_NOT_TURN)
    assert t.back.n == n and len(t.back.log) <= 512
    assert doubted(t) == [_card("R1b"), _card("R1a")]
