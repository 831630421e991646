"""P1: a misplay is rejected and the card goes back; option: the misplayer draws 2."""
from kit import act, deal, names, unchanged
from uno.events import *


def table(**kw):
    return deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", **kw)


def test_p1_unplayable_card_rejected_nothing_changes():
    t = table()
    assert unchanged(t, "pad B2") == R_UNPLAYABLE


def test_p1_out_of_turn_rejected_and_attributed_to_the_hand_that_holds_the_card():
    t = table()
    evs = act(t, "pad Y1")
    assert evs == [(REJECT, R_NOT_TURN, 3, evs[0][3])]


def test_p1_option_misplay_costs_two():
    t = table(misplay=2)
    evs = act(t, "pad Y3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (2, 2, W_MISPLAY)
    assert t.drawer() == 2
    act(t, "shoe B7", "shoe B8")
    assert len(t.hands[2]) == 5 and t.turn == 1


def test_p1_only_misplays_cost_under_the_option():
    t = table(misplay=2)
    assert unchanged(t, "pad uid:04010203040506") == R_UNKNOWN
    assert unchanged(t, "seat 2") == R_NOTHING
