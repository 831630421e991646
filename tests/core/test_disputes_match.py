"""Disputed situations of the setup, the end of a round and the match (S1-S5, T4-T6, M1-M4,
and the house rules where they meet them: H4, H5, H7, U1), one test each, named after the rule
ids they decide (the seeds' words and docs/rules.md say why). Situations already pinned
elsewhere are not repeated."""
from kit import act, deal, names, unchanged, hand
from uno.cards import NCARDS
from uno.events import *
from uno.table import SHOE


def _draw_the_shoe(t):
    """The turn seats draw every card left in the shoe (a card that fits is kept: a pass)."""
    while t.shoe:
        s = t.turn
        card = [c for c in range(NCARDS) if t.loc[c] == SHOE][0]
        t.feed((IN_SHOE, t.registry.uid(card)))
        if t.drawn >= 0:
            act(t, "seat %d" % s)


# ---- S1, S2: seats and the dealer between rounds -------------------------------------------

def test_s1_m3_between_rounds_a_seat_out_of_the_last_round_is_still_in_the_game():
    """Elimination: seats 1 and 2 went out, the match is over; their presses mean nothing now (not "not in this game"), and a long press leaves."""
    # seed 003 (淘汰制): "四人局變成三人局，游戲繼續" — a seat is out of the *round*; the next round
    # deals to every seat of the game again (docs/buttons.md: between rounds "a seat in the
    # game": "this press means nothing now"). They had been told "seat is not in this game"
    t = deal({1: "R1 R2", 2: "R9 R8", 3: "Y7 B7"}, start="R5", elimination="yes", target=15)
    act(t, "pad R1", "seat 1", "pad R9", "seat 2", "shoe B1", "pad R2")
    assert names(act(t, "pad R8"))[-1] == "match_over" and t.active == [3]
    for s in (1, 2, 3):
        assert unchanged(t, "seat %d" % s) == R_NOTHING
    assert names(act(t, "seat 1 long")) == ["leave"] and t.phase == P_LOBBY


# ---- U1: an UNO window when the round ends ---------------------------------------------------

def test_u1_m3_m4_h5_a_window_still_open_when_the_round_ends_closes_in_the_record():
    """Elimination, teams of 2 of 6 seats, sum win: seat 5 plays R6 down to one card; seat 4 lays down out of turn and its team is all out: uno_close for seat 5, then round_over."""
    # seed 000: "在下位玩者發牌前被其他人發現" — a window lasts until the next player acts, and an
    # out-of-turn lay-down is no such act (M3: it stays open). Here the lay-down ends the round:
    # the window closes with it, and the record says so, as for every window it opened
    # (docs/rules.md, U1 with M3). The record had left seat 5's window open for good
    t = deal({1: "G1 G2", 2: "R3 R9", 3: "R3 R8", 4: "G3 B3", 5: "R6 B7", 6: "B6 B8"},
             start="R5", dealer=2, elimination="yes", sum_win="yes", teams=3)
    act(t, "pad R3", "seat 1 long")              # seat 1 lays down 1 + 2 on seat 3's 3
    assert t.finished == [1]
    act(t, "shoe R0", "seat 4")                  # seat 4 keeps the R0: 3 + 3 + 0
    assert names(act(t, "pad R6")) == ["play", "uno_open", "turn"] and t.turn == 6
    evs = act(t, "seat 4 long")                  # seat 4, partner of seat 1, lays down on 6
    assert names(evs) == ["sum_win", "out", "uno_close", "round_over", "score", "score"]
    assert evs[2][1] == 5 and t.window == 0 and t.winner == 1
