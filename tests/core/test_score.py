"""M1: round score, the match target, the next dealer."""
from kit import act, deal, names, unchanged
from uno.events import *


def test_m1_the_winner_scores_the_points_left_in_the_other_hands():
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5")
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    evs = act(t, "pad R2")
    assert names(evs) == ["play", "round_over", "score"]
    # seat 2: G9 GS B8 = 9+20+8; seat 3: W4 B7 B9 = 50+7+9
    assert evs[1][1:] == (1, 37 + 66) and t.scores[1] == 103
    assert t.phase == P_ROUND_OVER and t.turn == 0


def test_m1_next_round_the_winner_deals_and_scores_add_up():
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5")
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9", "pad R2")
    assert unchanged(t, "pad G9") == R_NOT_NOW
    assert unchanged(t, "shoe G3") == R_WANT_SHUFFLE
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[1][1:] == (2, 1)
    assert t.shoe == 108 and t.drawer() == 2 and t.scores[1] == 103


def test_m1_first_to_the_target_wins_the_match_and_a_new_match_starts():
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5", target=50)
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    evs = act(t, "pad R2")
    assert names(evs) == ["play", "round_over", "score", "match_over"]
    assert t.phase == P_MATCH_OVER
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and t.round == 1 and t.scores[1] == 0
