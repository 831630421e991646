"""Every bad input gets a clear answer and changes nothing (issue 2, item 3)."""
from kit import act, deal, unchanged, seated
from uno.events import *
from uno.words import REASONS


def table():
    return deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5")


def test_unknown_tag_at_the_pad_and_the_shoe():
    t = table()
    assert unchanged(t, "pad uid:04a1b2c3d4e5f6") == R_UNKNOWN
    assert unchanged(t, "shoe uid:04a1b2c3d4e5f6") == R_UNKNOWN


def test_card_already_in_a_hand_read_at_the_shoe():
    t = table()
    act(t, "shoe B9")                  # seat 1 draws, cannot play: seat 2's turn
    assert unchanged(t, "shoe Y1a") == R_IN_HAND
    evs = act(t, "shoe G7a")
    assert evs[0][2] == 1              # the answer names the hand that holds it


def test_same_tap_read_twice_at_the_shoe():
    t = table()
    act(t, "shoe B9a")
    assert unchanged(t, "shoe B9a") == R_TWICE


def test_same_tap_read_twice_at_the_pad():
    t = table()
    act(t, "pad R1")
    assert unchanged(t, "pad R1") == R_TWICE


def test_card_from_the_pile_read_again():
    t = table()
    act(t, "pad R1", "pad G1", "pad G7")
    assert unchanged(t, "pad R1") == R_ON_PILE
    assert unchanged(t, "shoe R1a") == R_ON_PILE


def test_card_that_never_left_the_shoe_read_at_the_pad():
    t = table()
    assert unchanged(t, "pad R9") == R_IN_SHOE


def test_card_from_a_hand_that_may_not_play_now():
    t = table()
    assert unchanged(t, "pad Y1") == R_NOT_TURN
    assert unchanged(t, "pad G1") == R_NOT_TURN


def test_card_read_while_nothing_is_played():
    t = seated((1, 2))
    assert unchanged(t, "pad R1") == R_IN_SHOE
    assert unchanged(t, "shoe R1") == R_WANT_SHUFFLE


def test_presses_that_mean_nothing_now():
    t = table()
    assert unchanged(t, "seat 2") == R_NOTHING
    assert unchanged(t, "seat 3 long") == R_NO_CHALLENGE
    assert unchanged(t, "seat 5") == R_NOT_SEATED
    assert unchanged(t, "seat 12") == R_BAD_SEAT
    assert unchanged(t, "colour G") == R_NO_COLOUR
    assert unchanged(t, "shuffle") == R_SHOE_LEFT


def test_presses_during_the_deal():
    t = seated((1, 2), first_dealer=1)
    act(t, "shuffle")
    assert unchanged(t, "seat 1") == R_NOTHING
    assert unchanged(t, "shuffle") == R_NOT_NOW
    assert unchanged(t, "colour R") == R_NO_COLOUR


def test_not_a_table_input():
    t = table()
    for bad in ((99,), (), (IN_SEAT, 2), (IN_SEAT, "2", 0), (IN_COLOUR, None, 0), (IN_COLOUR, 7, 0)):
        assert t.feed(bad)[0][:2] == (REJECT, R_BAD_INPUT), bad
    assert t.feed((IN_PAD,))[0][:2] == (REJECT, R_UNKNOWN)
    assert t.feed((IN_SHOE, None))[0][:2] == (REJECT, R_UNKNOWN)


def test_tick_changes_nothing_under_the_official_rules():
    t = table()
    assert act(t, "tick 5000") == []


def test_every_reason_has_words():
    for code in range(1, len(REASONS)):
        assert REASONS[code]
