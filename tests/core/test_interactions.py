"""House rules that players argue about, decided one way and documented (docs/rules.md)."""
from kit import act, deal, names, unchanged, hand
from uno.events import *


def test_h1_c1_a_stacked_w4_is_challenged_by_its_victim_for_the_whole_stack():
    # seat 1's W4 is legal (no blue), seat 2 stacks a W4 while holding green: illegal
    t = deal({1: "W4 R1 Y6", 2: "W4 G2 Y8", 3: "Y1 Y2 Y3"}, start="B5", stacking="on")
    act(t, "pad W4", "colour G")
    assert t.w4_from == 1
    act(t, "pad W4", "colour R")                # stacked: seat 3 faces 8
    assert t.turn == 3 and t.pending == 8 and t.w4_from == 2
    evs = act(t, "seat 3 long")
    assert names(evs) == ["challenge", "penalty"]
    assert evs[0][1:] == (3, 2, V_ILLEGAL) and evs[1][1:] == (2, 8, W_W4_ILLEGAL)
    assert t.pending == 0 and t.turn == 3


def test_h1_c1_a_legal_stacked_w4_costs_the_challenger_the_stack_and_two():
    t = deal({1: "W4 R1 Y6", 2: "W4 B2 Y8", 3: "Y1 Y2 Y3"}, start="B5", stacking="on")
    act(t, "pad W4", "colour G", "pad W4", "colour R")
    evs = act(t, "seat 3 long")
    assert evs[0][3] == V_LEGAL and t.pending == 10
    assert unchanged(t, "pad Y1") == R_MUST_DRAW       # a challenge is an answer: no stacking after


def test_h2_u1_a_jump_in_closes_an_open_uno_window():
    t = deal({1: "R7 R1", 2: "G1 G2", 3: "R7 Y2"}, start="R5", jump_in="identical")
    act(t, "pad R7a")                           # seat 1 down to one card, not called
    assert t.window == 1
    evs = act(t, "pad R7b")                     # seat 3 jumps in
    assert names(evs)[:3] == ["jump_in", "uno_close", "play"]
    assert t.window == 3                        # the jumper's own last card now; seat 1 is safe
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]
    assert t.owes(1) == 0 and t.owes(3) == 2


def test_h3_u1_multi_play_down_to_one_card_opens_the_window_then():
    t = deal({1: "R7 G7 B2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", multi="same")
    evs = act(t, "pad R7")
    assert "uno_open" not in names(evs)
    evs = act(t, "pad G7")
    assert names(evs) == ["play", "uno_open"] and t.window == 1
    assert names(act(t, "seat 1")) == ["uno"]


def test_m3_m4_elimination_with_teams_scores_for_the_whole_team():
    t = deal({1: "R1", 2: "G9", 3: "Y7", 4: "BS"}, start="R5", teams=2, elimination="yes")
    evs = act(t, "pad R1")                      # seat 1 out: its partner, seat 3, plays on
    assert "out" in names(evs) and t.phase == P_PLAY and t.active == [2, 3, 4]


def test_h4_u1_a_zero_that_rotates_closes_the_window_it_opened():
    t = deal({1: "R0 R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", zero_rotate="yes")
    evs = act(t, "pad R0")
    assert names(evs) == ["play", "rotate", "turn"] and t.window == 0
    assert hand(t, 2) == ["R1"]                 # seat 2 holds the last card now, and no window
    assert unchanged(t, "seat 3") == R_NOTHING


def test_h5_t5_a_sum_win_waives_only_the_winners_own_draws():
    # seat 1 plays R4 and calls; seats 2 and 3 catch it all the same (false catches, 2 each).
    # Seat 3, which owes 2, holds Y1 Y3 (4 = 4) and still wins at once (seed 000:
    # 可以無視任何情況，攤牌勝出): its own 2 are void. Seat 2's 2 were owed before the round
    # ended: they are drawn and count (T5)
    t = deal({1: "R4 G7", 2: "G1 G2", 3: "Y1 Y3"}, start="R5", sum_win="yes", false_catch=2)
    act(t, "pad R4", "seat 1", "seat 2")
    assert t.debts == [[2, 2, W_FALSE_CATCH]]
    act(t, "seat 3")
    assert t.owes(3) == 2
    evs = act(t, "seat 3 long")                 # (the round is over: seat 1's window closes)
    assert names(evs) == ["sum_win", "waive", "uno_close"] and evs[1][1:] == (3, 2)
    assert t.laid == 3 and t.debts == [[2, 2, W_FALSE_CATCH]] and t.drawer() == 2
    assert unchanged(t, "seat 3") == R_NOTHING  # the winner is out of the round: no cost
    assert unchanged(t, "pad G1") == R_WAIT_DRAW
    evs = act(t, "shoe B2", "shoe B9")
    assert names(evs) == ["draw", "round_over", "score"]
    assert t.winner == 3 and t.scores[3] == 7 + 2 + 9 + 1 + 2


def test_c1_u2_a_w4_player_who_loses_the_challenge_can_no_longer_be_caught():
    # seat 1 plays an illegal W4 as its second-to-last card and does not call; the challenge
    # costs it 4: it no longer holds its last card, so its window closes (U1) and a press is
    # no catch (seed 002: 如果你手中并非剩下一张牌而被别人指出说你没喊"UNO"，那么那个人要从牌堆中抽取两张牌)
    t = deal({1: "W4 R1", 2: "B1 B2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad W4", "colour B")
    assert t.window == 1
    evs = act(t, "seat 2 long")
    assert names(evs) == ["challenge", "penalty", "uno_close"] and t.window == 0
    assert unchanged(t, "seat 3") == R_NOTHING
    assert t.debts == [[1, 4, W_W4_ILLEGAL]]


def test_p2_u1_a_slow_seat_penalised_on_its_last_card_can_no_longer_be_caught():
    # two seats: seat 1's S is its second-to-last card and the turn is its own again; past its
    # time it owes 2 and holds its last card no more: the window closes
    t = deal({1: "RS R1", 2: "B1 B2"}, start="R5", turn_timer=5)
    act(t, "tick 0", "pad RS")
    assert t.window == 1 and t.turn == 1
    evs = act(t, "tick 5001")
    assert names(evs) == ["penalty", "uno_close"] and t.window == 0
