"""Disputed situations of the setup, the end of a round and the match (S1-S5, T4-T6, M1-M4,
and the house rules where they meet them: H4, H5, H7, U1), one test each, named after the rule
ids they decide (the seeds' words and docs/rules.md say why). Situations already pinned
elsewhere are not repeated."""
from kit import act, deal, empty_the_shoe, names, unchanged, hand
from uno.cards import NCARDS
from uno.events import *
from uno.table import SHOE


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


def test_s2_m3_m4_the_winning_teams_first_seat_out_wins_and_deals_next():
    """Elimination with teams: seat 1 (team 1, 3) goes out first, then seats 2 and 4: their team wins; seat 2 is the winner and deals next."""
    # seed 001 (组队): "当某一玩家出完手中的牌获胜之后，该队全员获胜"; with 淘汰制 a team wins when all
    # its members are out (M4). The round's winner is the winning team's first seat out, and
    # it deals the next round (S2, seed 002: "本局赢家为下一局的庄家"): not seat 1, out first
    # but on the losing team. Seat 3's hand is the team's score
    t = deal({1: "R1 R2", 2: "R9 R8", 3: "Y7 B7", 4: "R3 R6"}, start="R5", elimination="yes",
             teams=2)
    act(t, "pad R1", "seat 1", "pad R9", "seat 2", "shoe B8", "pad R3", "seat 4", "pad R2")
    act(t, "pad R8", "shoe B9")
    assert t.finished == [1, 2] and t.phase == P_PLAY
    evs = act(t, "pad R6")
    assert names(evs)[-4:] == ["out", "round_over", "score", "score"]
    assert evs[-3][1:] == (2, 7 + 7 + 8 + 9) and t.winner == 2
    assert t.scores[2] == t.scores[4] == 31 and t.scores[1] == t.scores[3] == 0
    evs = act(t, "shuffle")
    assert evs[-1][0] == ROUND and evs[-1][1:] == (2, 2) and t.drawer() == 3


def test_s2_s4_rotate_after_a_start_r_the_deal_still_passes_in_the_settings_direction():
    """next_dealer=rotate, clockwise: seat 3 deals, a start R sends play counter-clockwise and seat 2 wins; seat 1 (left of seat 3) deals next, not seat 2."""
    # no seed passes the deal round the table; the official rules pass it to the left, the side
    # the deal goes to ("從發牌左邊的玩家開始", seeds 000, 003): the direction a round starts in
    # (S5's setting), not where a Reverse left the last one (docs/rules.md, S2 rotate with S5)
    t = deal({1: "G1", 2: "R1", 3: "B1"}, start="RR", dealer=3, next_dealer="rotate")
    assert t.turn == 2 and t.dir == -1
    act(t, "pad R1")
    evs = act(t, "shuffle")
    assert evs[-1][0] == ROUND and evs[-1][1:] == (2, 1) and t.drawer() == 2 and t.dir == 1


# ---- T6: a blocked round ----------------------------------------------------------------

def test_t6_m3_a_blocked_round_goes_to_the_first_seat_out_not_the_fewest_points():
    """Elimination: seat 1 went out; seats 2 and 3 draw every card and pass with nothing left: seat 1 wins and scores both hands, though seat 3 holds fewer points."""
    # no seed has a blocked round; seed 003 (淘汰制): "有一人勝出，則四人局變成三人局" — the first
    # seat out has won the round already (M3); the block only ends it. It scores what is left
    # in the hands of the seats still in, as at any end of an M3 round
    t = deal({1: "R1 R2", 2: "G9 G8", 3: "Y7 B7"}, start="R5", elimination="yes", target=10000)
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9", "pad R2")
    assert t.finished == [1]
    empty_the_shoe(t)
    act(t, "shuffle")
    empty_the_shoe(t)
    assert t.shoe == 0 and t.pile == 1
    held = [t._hand_points(s) for s in (2, 3)]
    assert held[1] < held[0]
    act(t, "seat %d" % t.turn)
    evs = act(t, "seat %d" % t.turn)
    assert names(evs) == ["pass", "blocked", "round_over", "score"]
    assert evs[1][1] == 1 and evs[2][1:] == (1, held[0] + held[1]) and t.winner == 1


# ---- M1-M4: the match ------------------------------------------------------------------

def test_m1_a_target_lowered_to_a_tie_at_the_top_names_the_lowest_seat():
    """Scores 16 and 16 (seats 1 and 2), the target is lowered to 16: the match is over and match_over names seat 1; the scores show the tie."""
    # seeds 000/002/003: "達到或超過事先約定的分值（如500分），則以得分最高者為贏家" — the highest wins;
    # no seed breaks a tie of the highest (seed 000's "手中牌數最多的玩家為輸家" is a round's loser):
    # as with M2's lowest, the event names the lowest seat number and the scores show the tie
    t = deal({1: "R1", 2: "G9", 3: "Y7"}, start="R5")
    act(t, "pad R1")
    assert t.phase == P_ROUND_OVER and t.scores[1] == 16
    t.scores[2] = 16                                 # as after an earlier round
    evs = list(t.feed((IN_RULE, "target", 16)))
    assert evs == [(RULE, "target", 16), (MATCH_OVER, 1)] and t.scores[2] == 16


def test_m3_m4_h5_a_lay_down_that_leaves_a_team_all_out_wins_for_it():
    """Elimination, teams, sum win: seat 1 is out, then seat 2; seat 3 (partner of seat 1) lays down Y1 Y5 Y0 on seat 2's R6: its team is all out and wins, seat 1 its winner."""
    # seed 003: "手上剩下的牌，總數加起來如果和任意一家打出的牌相等時，亦可馬上勝出" — a lay-down is a
    # going out like any other (M3); seed 001 (组队): "当某一玩家出完手中的牌获胜之后，该队全员获胜":
    # with elimination, a team whose members are all out. Seat 4's hand is the score
    t = deal({1: "R1 R2", 2: "R9 R6", 3: "Y1 Y5", 4: "R3 B8"}, start="R5", dealer=4,
             elimination="yes", teams=2, sum_win="yes")
    act(t, "pad R1", "seat 1", "pad R9", "seat 2", "shoe Y0", "pad R3", "seat 4", "pad R2")
    act(t, "pad R6")                             # seat 2 out on its 6
    assert t.finished == [1, 2] and t.turn == 3 and t.hand_sum(3) == 6
    evs = act(t, "seat 3 long")
    assert names(evs) == ["sum_win", "out", "round_over", "score", "score"]
    assert evs[2][1:] == (1, 8) and t.winner == 1 and t.scores[1] == t.scores[3] == 8


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


# ---- H4 with H5 and M3 ------------------------------------------------------------------

def test_h4_h5_the_zeros_player_cannot_lay_down_the_zeros_it_received_another_seat_can():
    """Zero rotates, sum win: seat 1 plays R0 and receives Y0 G0: it cannot lay down on its own 0; a seat that receives a hand of 0s can."""
    # seed 003: "每個人都把自己手上的牌交給自己的下家" (the hands pass at once); seed 000: "當自己
    # 牌上數值之和等與對方打出的牌之數字" — the number *the other side* played: the 0 is seat 1's
    # own, whatever hand the pass gave it
    t = deal({1: "R0 R7", 2: "B0 B5", 3: "Y0 G0"}, start="R5", zero_rotate="yes", sum_win="yes")
    assert names(act(t, "pad R0")) == ["play", "rotate", "turn"]
    assert hand(t, 1) == ["G0", "Y0"] and t.hand_sum(1) == -1
    assert unchanged(t, "seat 1 long") == R_NO_SUM
    t = deal({1: "R0 R7", 2: "Y0 G0", 3: "B0 B5"}, start="R5", zero_rotate="yes", sum_win="yes")
    act(t, "pad R0")
    assert hand(t, 3) == ["G0", "Y0"]
    evs = act(t, "seat 3 long")
    assert names(evs) == ["sum_win", "round_over", "score"] and evs[0][1:] == (3, 0)


def test_h4_m3_h5_a_hand_laid_down_stays_out_of_the_rotation():
    """Elimination, sum win, zero rotates: seat 4 laid down B1 B2 B0 and is out; seat 1's 0 passes the hands of seats 1-3 only, seat 3's going to seat 1."""
    # seed 003: "交給自己的下家" — the next player in the game; a seat out (淘汰制: "四人局變成三人局")
    # is no one's next. Its laid-down hand stays where it lies, out of play
    t = deal({1: "R3 R0 R7", 2: "G1 G2 G6", 3: "Y5 Y6 Y7", 4: "B1 B2 B0"}, start="R5",
             zero_rotate="yes", sum_win="yes", elimination="yes")
    act(t, "pad R3")
    assert names(act(t, "seat 4 long")) == ["sum_win", "out"]
    act(t, "shoe Y9", "shoe B9")
    assert t.turn == 1 and t.active == [1, 2, 3]
    assert names(act(t, "pad R0")) == ["play", "rotate", "turn"]
    assert hand(t, 1) == ["B9", "Y5", "Y6", "Y7"] and hand(t, 2) == ["R7"]
    assert hand(t, 3) == ["G1", "G2", "G6", "Y9"] and hand(t, 4) == ["B0", "B1", "B2"]


def test_t5_h4_a_last_0_wins_the_round_and_passes_no_hand():
    """Zero rotates: seat 1's last card is R0: the round is won, no hand passes, and the others' hands are scored where they are."""
    # seed 003: "當有人打出數字零的時候他可以決定是否讓所有人換牌" — a choice of the player, who has no
    # hand left to pass; the round is over (seed 002: "若有玩家出完了手中所有的牌，游戏结束")
    t = deal({1: "R0 R1", 2: "G9 G8", 3: "Y7 B7"}, start="R5", zero_rotate="yes")
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    evs = act(t, "pad R0")
    assert names(evs) == ["play", "round_over", "score"]
    assert evs[1][1:] == (1, 9 + 8 + 8 + 7 + 7 + 9) and hand(t, 2) == ["B8", "G8", "G9"]


# ---- H7 with two players, and with M3 -----------------------------------------------------

def test_h7_two_players_the_first_slap_leaves_the_other_the_slowest_the_4s_player_too():
    """Slap on 4, two players: seat 1 plays R4; seat 2 slaps first: seat 1 is the last and draws 2; had seat 1 slapped first, seat 2 would."""
    # seed 003: "當有人打出數字四的時候所有人要立刻將手拍到這張牌上，這時手在最上面的那個人也就是最慢的
    # 要發牌兩張" — everyone slaps, the 4's player too; of two, the one not first is the slowest
    t = deal({1: "R4 R1 R2", 2: "G1 G2 G3"}, start="R5", slap4="yes")
    assert names(act(t, "pad R4")) == ["play", "slap_open", "turn"]
    evs = act(t, "seat 2")
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (1, 2, W_SLAP)
    act(t, "shoe B8", "shoe B9")
    assert t.turn == 2 and len(t.hands[1]) == 4
    t = deal({1: "R4 R1 R2", 2: "G1 G2 G3"}, start="R5", slap4="yes")
    act(t, "pad R4")
    evs = act(t, "seat 1")
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (2, 2, W_SLAP)


def test_h7_m3_a_4_that_takes_its_player_out_leaves_two_seats_to_slap():
    """Elimination, slap on 4, four seats: seat 1 goes out on R4; seats 2, 3, 4 slap (not seat 1: out), the last draws 2."""
    # seed 003: "所有人要立刻將手拍到這張牌上" — all the players in the game; the round goes on
    # (淘汰制), so the slap is drawn in it. Seat 1 is out: its press is "not in this game"
    t = deal({1: "R1 R4", 2: "R9 R8", 3: "Y7 B7", 4: "G1 G2"}, start="R5", elimination="yes",
             slap4="yes")
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9", "shoe B6")
    evs = act(t, "pad R4")
    assert names(evs) == ["play", "slap_open", "turn", "out"] and t.active == [2, 3, 4]
    assert unchanged(t, "seat 1") == R_NOT_SEATED
    act(t, "seat 2")
    evs = act(t, "seat 4")
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (3, 2, W_SLAP)
