"""C1: the Wild Draw Four challenge, and its enforce and free settings."""
from kit import act, deal, names, unchanged
from uno.events import *


def table(hand1="W4 R1 G2", **kw):
    return deal({1: hand1, 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", **kw)


def test_c1_challenge_of_an_illegal_w4_costs_its_player_four():
    t = table()                       # seat 1 holds R1: W4 on red is illegal
    act(t, "pad W4", "colour B")
    assert t.turn == 2 and t.pending == 4 and t.w4_from == 1
    evs = act(t, "seat 2 long")
    assert names(evs) == ["challenge", "penalty"]
    assert evs[0][1:] == (2, 1, V_ILLEGAL) and evs[1][1:] == (1, 4, W_W4_ILLEGAL)
    assert t.pending == 0 and t.turn == 2 and t.colour == 3   # the colour stands
    for c in ("G5", "G6", "G7", "G8"):
        act(t, "shoe " + c)
    assert len(t.hands[1]) == 6
    assert names(act(t, "pad B1")) == ["play", "turn"]        # the challenger plays normally


def test_c1_challenge_of_a_legal_w4_costs_the_challenger_six_and_the_turn():
    t = table("W4 G1 G2")
    act(t, "pad W4", "colour Y")
    evs = act(t, "seat 2 long")
    assert names(evs) == ["challenge", "penalty"] and evs[0][3] == V_LEGAL
    assert t.pending == 6
    for c in ("R1", "R2", "R3", "R4", "R6"):
        act(t, "shoe " + c)
    evs = act(t, "shoe R7")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and t.turn == 3 and len(t.hands[2]) == 9


def test_c1_h1_a_challenge_lost_is_drawn_not_stacked_on():
    # the challenger chose to challenge rather than stack: its six are drawn (H1's stacking
    # answers a draw card, not a verdict)
    t = deal({1: "W4 G1", 2: "W4 RD", 3: "Y1 Y2"}, start="R5", stacking="on")
    act(t, "pad W4", "colour B")
    assert names(act(t, "seat 2 long")) == ["challenge", "penalty"] and t.pending == 6
    assert unchanged(t, "pad W4") == R_MUST_DRAW
    assert unchanged(t, "pad RD") == R_MUST_DRAW


def test_c1_h1_a_seat_that_stacked_on_a_w4_can_no_longer_challenge_it():
    # seed 004: "只有被罚抽4张牌的人可以提出质疑": seat 2 answered seat 1's W4 with its own (H1), so
    # it owes nothing; while it names its colour a long press is no challenge of seat 1's W4
    # (it was judged with seat 2's verdict and gave seat 1 a debt of 0 cards, drawn for ever)
    t = deal({1: "W4a R1 Y6", 2: "W4b G2 G3", 3: "Y1 Y2 Y3"}, start="B5", stacking="on")
    act(t, "pad W4a", "colour G", "pad W4b")
    assert t.want == 2 and t.stack == 4 and t.w4_from == 0
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    evs = act(t, "colour R")                     # seat 3 owes 8 and may challenge seat 2's W4
    assert evs[2][1:] == (3, 8, W_STACK) and t.w4_from == 2 and t.w4_illegal
    evs = act(t, "seat 3 long")
    assert evs[0][1:] == (3, 2, V_ILLEGAL) and evs[1][1:] == (2, 8, W_W4_ILLEGAL)


def test_c1_judged_from_the_hand_when_the_w4_was_played():
    t = table()
    act(t, "pad W4", "colour R")      # afterwards nobody sees the hand; the verdict was kept
    assert t.w4_illegal


def test_c1_only_the_player_who_must_draw_may_challenge_and_before_drawing():
    t = table()
    act(t, "pad W4", "colour B")
    assert unchanged(t, "seat 3 long") == R_NO_CHALLENGE
    assert unchanged(t, "seat 1 long") == R_NO_CHALLENGE
    act(t, "shoe G5")
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


def test_c1_nothing_to_challenge_after_a_draw_two():
    t = deal({1: "RD R1 G2", 2: "B1 B2 B3"}, start="R5")
    act(t, "pad RD")
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


def test_c1_enforce_rejects_an_illegal_w4_at_once():
    t = table(w4="enforce")
    assert unchanged(t, "pad W4") == R_W4_ILLEGAL
    t = table("W4 G1 G2", w4="enforce")
    act(t, "pad W4", "colour G")
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


def test_c1_free_w4_any_time_and_no_challenge():
    t = table(w4="free")
    act(t, "pad W4", "colour G")
    assert t.pending == 4
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


def test_t5_c1_w4_as_last_card_wins_at_once_the_next_seat_draws_four_unchallenged():
    t = deal({1: "W4 R1", 2: "B1 B2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R1", "seat 1", "shoe G9", "shoe G8")
    evs = act(t, "pad W4")        # seed 002: the round is over, the next seat still draws
    assert names(evs) == ["play", "turn", "owe"] and t.want == 0
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    for c in ("R2", "R3", "R4"):
        act(t, "shoe " + c)
    evs = act(t, "shoe R6")
    assert names(evs) == ["draw", "round_over", "score"] and evs[1][1] == 1
