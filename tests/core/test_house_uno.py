"""U3-U6: false calls, false catches, every catcher, identical last cards."""
from kit import act, deal, names, unchanged, hand
from uno.events import *


def table(**kw):
    return deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2", 4: "B1 B2"}, start="R5", **kw)


def test_u3_false_uno_call_costs_two_when_set():
    t = table(false_uno=2)
    evs = act(t, "seat 3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (3, 2, W_FALSE_UNO)
    assert t.drawer() == 3


def test_u3_off_by_default_and_no_cost_for_a_seat_down_to_one_card():
    t = table()
    assert unchanged(t, "seat 3") == R_NOTHING
    t = table(false_uno=2)
    act(t, "pad R1", "seat 1", "shoe B9")       # seat 1 called; the window closes
    evs = act(t, "seat 1")                      # one card left: a late call is no lie
    assert names(evs) == ["reject"]


def test_u4_false_catch_costs_the_catcher_when_set():
    t = table(false_catch=2)
    act(t, "pad R1", "seat 1")                  # seat 1 called
    evs = act(t, "seat 4")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (4, 2, W_FALSE_CATCH)


def test_u4_off_by_default():
    t = table()
    act(t, "pad R1", "seat 1")
    assert unchanged(t, "seat 4") == R_CALLED


def test_u5_each_catcher_adds_two():
    t = table(catchers="each")
    act(t, "pad R1")
    evs = act(t, "seat 3")
    assert names(evs) == ["catch", "penalty"] and t.window == 1
    evs = act(t, "seat 4")
    assert names(evs) == ["catch", "penalty"]
    assert unchanged(t, "seat 4") == R_CAUGHT
    assert unchanged(t, "seat 1") == R_CALLED    # too late to call once caught
    assert t.owes(1) == 4


def test_u5_first_catcher_only_by_default():
    t = table()
    act(t, "pad R1", "seat 3")
    assert t.window == 0 and t.owes(1) == 2


def test_u6_identical_cards_count_as_a_last_card():
    t = deal({1: "R1 G7 G7", 2: "G1 G2 B3"}, start="R5", uno_identical="yes")
    evs = act(t, "pad R1")
    assert names(evs) == ["play", "uno_open", "turn"]
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]


def test_u6_off_by_default():
    t = deal({1: "R1 G7 G7", 2: "G1 G2 B3"}, start="R5")
    assert names(act(t, "pad R1")) == ["play", "turn"]


def test_u2_u3_a_catch_that_comes_too_late_costs_nobody():
    # seat 1 did not call; seat 2 drew, so the window closed. Seat 4's press then is a catch
    # too late (seed 000: "若不被及時發現則不可追究"), not a false UNO call of its own
    t = table(false_uno=2, false_catch=2)
    act(t, "pad R1", "shoe B9")
    assert t.window == 0
    assert unchanged(t, "seat 4") == R_NOTHING
    assert len(t.hands[1]) == 1


def test_u1_u3_a_call_before_the_second_to_last_card_is_laid_does_not_count():
    # seed 001: "若有人在不是打出倒数第2张手牌时宣言UNO…罚抽牌2张": the call follows the card
    t = table(false_uno=2)
    evs = act(t, "seat 1")                      # two cards in hand: a false call
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (1, 2, W_FALSE_UNO)
    t = table()
    assert unchanged(t, "seat 1") == R_NOTHING
    act(t, "pad R1")
    assert t.window == 1 and not t.called      # the early press was no call: it can be caught
    assert names(act(t, "seat 3")) == ["catch", "uno_close", "penalty"]


def test_u3_after_the_window_a_press_is_a_late_catch_only_of_a_seat_that_did_not_call():
    # seat 1 called; its window closed. Seat 4's press accuses nobody it could catch: a false
    # UNO call, and it costs
    t = table(false_uno=2)
    act(t, "pad R1", "seat 1", "shoe B9")
    evs = act(t, "seat 4")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (4, 2, W_FALSE_UNO)


def test_u3_t5_a_winner_whose_last_d_is_still_drawn_pays_nothing_for_a_press():
    # seat 1 wins on RD; while seat 2 draws the 2 (T5), seat 1's press is no false call: it
    # holds no card and is out of the round. It drew 2 and held cards again, so no seat held
    # none and the won round went on
    t = deal({1: "R2 RD", 2: "R3 R4"}, start="R5", false_uno=2)
    act(t, "pad R2", "seat 1", "pad R3", "seat 2", "pad RD")
    assert t.pending == 2 and not t.hands[1]
    assert unchanged(t, "seat 1") == R_NOTHING
    evs = act(t, "shoe B2", "shoe B3")
    assert names(evs) == ["draw", "round_over", "score"] and t.winner == 1
    assert t.scores[1] == 4 + 2 + 3


def test_u3_m3_a_seat_out_naming_its_colour_pays_nothing_for_a_press():
    # elimination: seat 1 goes out on a W and names the colour; a press before is no false call
    t = deal({1: "R2 W", 2: "R3 R4", 3: "R6 R7"}, start="R5", false_uno=2, elimination="yes")
    act(t, "pad R2", "seat 1", "pad R3", "seat 2", "pad R6", "seat 3", "pad W")
    assert t.want == 1 and t.finished == [1]
    assert unchanged(t, "seat 1") == R_NOTHING
    assert unchanged(t, "seat 1 long") == R_NOTHING
    assert names(act(t, "colour G")) == ["colour", "turn"] and t.turn == 2 and t.active == [2, 3]


def test_u3_u5_a_catch_too_late_costs_nobody_also_after_a_caught_window_closed():
    # seat 1's window closes with no call nor catch; it still holds its last card, so a press
    # may be a catch of it that came too late (seed 000: "若不被及時發現則不可追究"). Seat 2's window
    # opens, is caught and closes: seat 1 still holds its last card, and a press costs nothing
    # whatever `catchers` says (with `each` it had cost: seat 2's close cleared seat 1's)
    for catchers in ("first", "each"):
        t = deal({1: "R1 R2", 2: "R3 G2", 3: "Y1 Y2", 4: "B1 B2"}, start="R5", false_uno=2,
                 catchers=catchers)
        act(t, "pad R1", "pad R3", "seat 4", "shoe B8", "shoe B9", "shoe Y9")
        assert t.window == 0 and hand(t, 1) == ["R2"]
        assert unchanged(t, "seat 4") == R_NOTHING, catchers


def test_u3_m3_h5_a_seat_laid_down_is_no_late_catch():
    # elimination: seat 1 does not call, its window closes, then it lays down its last card on
    # seat 2's 5 (H5) and is out. A press accuses no seat holding a last card in play: a false
    # call, and it costs (it had been taken for a catch too late of the hand laid down)
    t = deal({1: "R1 Y5", 2: "G2 G3", 3: "Y1 Y2", 4: "B1 B2"}, start="R9", false_uno=2,
             sum_win="yes", elimination="yes")
    act(t, "pad R1", "shoe R5", "pad R5")
    assert names(act(t, "seat 1 long"))[:2] == ["sum_win", "out"]
    evs = act(t, "seat 4")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (4, 2, W_FALSE_UNO)
