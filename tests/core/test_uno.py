"""U1-U2: the UNO call, its window, and the catch."""
from kit import act, deal, names, unchanged, hand
from uno.events import *


def table():
    return deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")


def test_u1_second_to_last_card_opens_the_window_and_the_call_is_the_seat_button():
    t = table()
    evs = act(t, "pad R1")
    assert names(evs) == ["play", "uno_open", "turn"] and t.window == 1
    evs = act(t, "seat 1")
    assert names(evs) == ["uno"] and t.called
    assert unchanged(t, "seat 1") == R_CALLED


def test_u1_window_closes_when_the_next_player_plays():
    t = table()
    act(t, "pad R1")
    evs = act(t, "shoe R9")           # seat 2 draws R9 (playable): its turn has begun
    assert names(evs) == ["uno_close", "draw"] and t.window == 0
    assert unchanged(t, "seat 3") == R_NOTHING   # too late to catch: no penalty


def test_u1_window_closes_when_the_next_player_draws():
    t = table()
    act(t, "pad R1", "seat 1")
    evs = act(t, "shoe B9")
    assert names(evs) == ["uno_close", "draw", "turn"]


def test_u1_the_window_opens_and_closes_with_a_play_too():
    t = table()
    act(t, "pad R1")
    evs = act(t, "pad G1")
    assert names(evs) == ["uno_close", "play", "uno_open", "turn"] and t.window == 2


def test_u2_catch_inside_the_window_costs_two():
    t = table()
    act(t, "pad R1")
    evs = act(t, "seat 3")
    assert names(evs) == ["catch", "uno_close", "penalty"]
    assert evs[0][1:] == (3, 1) and evs[2][1:] == (1, 2, W_CAUGHT)
    assert t.owes(1) == 2 and t.drawer() == 1
    assert unchanged(t, "pad G1") == R_WAIT_DRAW   # play waits for the penalty draws
    act(t, "shoe B1")
    evs = act(t, "shoe B2")
    assert names(evs) == ["draw"] and evs[0][3] == W_CAUGHT
    assert hand(t, 1) == ["B1", "B2", "R2"] and t.turn == 2
    assert names(act(t, "pad G1")) == ["play", "uno_open", "turn"]


def test_u2_the_next_player_may_catch_too():
    t = table()
    act(t, "pad R1")
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]


def test_u2_no_catch_after_the_call():
    t = table()
    act(t, "pad R1", "seat 1")
    assert unchanged(t, "seat 3") == R_CALLED


def test_u2_no_catch_after_the_window():
    t = table()
    act(t, "pad R1", "pad G1", "seat 2")
    assert unchanged(t, "seat 3") == R_CALLED
    act(t, "pad Y1")                   # seat 3's window now; seat 2's is gone
    assert t.window == 3


def test_u1_calling_when_not_down_to_one_card_means_nothing_by_default():
    t = table()
    assert unchanged(t, "seat 2") == R_NOTHING
