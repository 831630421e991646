"""What the table's display and buzzer say for the reasons a referee found mis-worded
(docs/rules.md: "H7 with U3 and U4: one slap a seat", "U3: a false call says so", "H5: a
lay-down too late", "Between rounds: a card read at the shoe"), on the simulated board of
test_referee_output."""
from test_referee_output import act, deal, note, tune
from uno.events import PENALTY, REJECT, R_FALSE_UNO, R_SLAPPED, R_SUM_LATE, R_WANT_SHUFFLE, \
    W_FALSE_UNO


def test_h7_u3_a_bounced_slap_shows_already_slapped_and_costs_nothing():
    """slap4, false_uno=2: seat 2 slaps, then presses again while seat 3 has not: the trill,
    "already slapped", no penalty (it had played the penalty: a false UNO call)."""
    h = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9"}, slap4="yes", false_uno=2)
    act(h, "pad R4")
    act(h, "seat 2")
    evs = act(h, "seat 2")
    assert evs == [(REJECT, R_SLAPPED, 2, -1)] and tune(h) == "rejected"
    assert note(h) == "already slapped" and h.table.debts == []


def test_u3_a_false_uno_call_that_costs_plays_the_penalty_and_shows_false_uno_call():
    """false_uno=2: seat 2 presses with three cards: the penalty's pattern, and the display
    says what it was, "false UNO call" (it had said "no press now")."""
    h = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9"}, false_uno=2)
    evs = act(h, "seat 2")
    assert evs == [(REJECT, R_FALSE_UNO, 2, -1), (PENALTY, 2, 2, W_FALSE_UNO)]
    assert tune(h) == "penalty" and note(h) == "false UNO call"


def test_h5_a_late_lay_down_shows_too_late_to_sum():
    """sum_win: seat 3's Y1 Y3 B0 make seat 1's 4 but seat 2 drew first: "too late to sum"."""
    h = deal({1: "R4 R1 B1", 2: "G0 G1 G5", 3: "Y1 Y3 B0"}, sum_win="yes")
    act(h, "pad R4")
    act(h, "shoe B5")
    assert act(h, "seat 3 long") == [(REJECT, R_SUM_LATE, 3, -1)]
    assert note(h) == "too late to sum"


def test_s2_m1_a_hands_card_read_at_the_shoe_after_the_round_shows_shuffle_first():
    """After the round a card of seat 2's last hand read at the shoe: "shuffle first" (it had
    said "card in a hand")."""
    h = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"})
    for text in ("pad R1", "seat 1", "pad R7", "pad R8", "pad R2"):
        act(h, text)
    evs = act(h, "shoe G2a")
    assert evs[0][:3] == (REJECT, R_WANT_SHUFFLE, 2) and note(h) == "shuffle first"
