"""Disputed table situations, one test each, named after the rule ids they decide (the seeds'
words and docs/rules.md say why). Situations already pinned elsewhere are not repeated."""
from kit import act, deal, names, unchanged, hand
from uno.events import *


# ---- U1-U5: the UNO call and the catch --------------------------------------------------

def test_u2_u3_u5_a_second_catcher_just_after_the_first_pays_nothing():
    """Two seats catch one forgotten UNO at once (catchers=first): the second pays no false call."""
    # seed 000: "若玩者忘記說uno，在下位玩者發牌前被其他人發現，則需罰2張牌" — one penalty; the second
    # press accused a seat that had not called and still holds its last card: no false call
    # (U3 is a call "not down to one card") and no false catch (U4: the accused called, or does
    # not hold one card). Once the caught seat has drawn its 2, a press accuses nobody: it costs
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", false_uno=2, false_catch=2)
    act(t, "pad R1")
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]
    assert unchanged(t, "seat 3") == R_NOTHING
    assert t.debts == [[1, 2, W_CAUGHT]]
    act(t, "shoe B8", "shoe B9")
    evs = act(t, "seat 3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (3, 2, W_FALSE_UNO)


# ---- M1-M4: scoring and matches ---------------------------------------------------------

def test_m2_m4_losers_scoring_with_teams_counts_the_team_as_one():
    """Negative points with teams: each member of the losing team adds its team's hands together."""
    # seed 002 (组队比赛, 前提:必须采用计分制): "此时的分数便以队为单位来进行计算，总计每位队员手中持牌的
    # 点数和来做为该队的分数" — the team is the unit, its score the sum of its members' hands
    t = deal({1: "R1 R2", 2: "R9 G8", 3: "R3 Y2", 4: "R7 B6"}, start="R5", scoring="losers",
             teams=2)
    evs = act(t, "pad R1", "seat 1", "pad R9", "pad R3", "seat 3", "pad R7", "pad R2")
    assert names(evs)[-3:] == ["round_over", "score", "score"]
    assert evs[-3][1:] == (1, 8 + 6)
    assert [e[1:] for e in evs[-2:]] == [(2, 14), (4, 14)]
    assert t.scores[1] == t.scores[3] == 0


# ---- T2 with the house rules ------------------------------------------------------------

def test_t2_h1_forced_play_does_not_oblige_a_stack():
    """Forced play and stacking: the seat owing a D's 2 may draw them though it holds a D."""
    # seed 002: "轮序的下家可以出+2牌来累加" (may); seed 001: "当被+2、+4罚抽牌时，要从牌堆顶抽取对应的
    # 牌，且不能再出牌": the penalty draw is no choice of the turn's (docs/rules.md)
    t = deal({1: "RD R1 R2", 2: "BD G2 G3", 3: "Y1 Y2 Y3"}, start="R5", forced="yes",
             stacking="on")
    act(t, "pad RD")
    act(t, "shoe B1")
    evs = act(t, "shoe B2")
    assert names(evs) == ["draw", "skip", "turn"] and t.turn == 3
    assert "BD" in hand(t, 2)


# ---- P1: what a misplay is --------------------------------------------------------------

def test_p1_u3_a_card_read_while_a_penalty_is_drawn_waits_and_costs_nothing():
    """A card read while a seat draws a penalty waits, from the debtor too: no misplay cost."""
    # seed 001: "罚抽牌2张（可以出牌）": the penalty is drawn, then play goes on (docs/rules.md)
    t = deal({1: "R1 R2 R3", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", misplay=2,
             false_uno=2)
    act(t, "seat 2")                            # a false call: seat 2 owes 2
    assert unchanged(t, "pad R1") == R_WAIT_DRAW   # the turn seat's card waits
    assert unchanged(t, "pad G1") == R_WAIT_DRAW   # the debtor's card waits
    assert t.debts == [[2, 2, W_FALSE_UNO]]
    act(t, "shoe B8", "shoe B9")
    assert names(act(t, "pad R1")) == ["play", "turn"]
