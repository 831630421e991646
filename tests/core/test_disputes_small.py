"""Disputed situations of small tables: two players (H6: seed 002's 两人对玩, seed 000's
二人玩UNO的新規則補充) and three, against the other rules (T3, H1-H5, H7, M3, M4, U1-U5, C1, T5,
P2, T6, S2, S4): one test each, named after the rule ids they decide (the seeds' words and
docs/rules.md say why). Situations already pinned elsewhere are not repeated."""
from kit import act, deal, empty_the_shoe, names, unchanged, hand
from uno.cards import NCARDS
from uno.events import *
from uno.table import SHOE


# ---- T3, H6: who plays next with two players --------------------------------------------

def test_s4_h6_two_players_a_start_r_is_a_start_s_whichever_seat_start_reverse_names():
    """Two players, R turned up: it acts as an S: the first player is skipped (the record says
    so) and the dealer plays, with start_reverse=right or dealer alike; the direction stays."""
    # seed 000: "Reverse…若只有兩名玩者則效果與"Skip"牌相同"; seed 002 (两人对玩): "Reverse牌时，
    # 该卡的功能相当于Skip牌"; seed 004 on a start S: "第一位玩家（发牌者左边的玩家）停止出牌一次"
    for how in ("right", "dealer"):
        t = deal({1: "R1 R2", 2: "G1 G2"}, start=None, start_reverse=how)   # seat 2 deals
        evs = act(t, "shoe YR")
        assert names(evs) == ["start", "skip", "turn"] and evs[1][1] == 1 and evs[2][1] == 2
        assert t.turn == 2 and t.dir == 1


def test_h1_h6_two_players_ds_stack_back_and_forth_until_one_draws_the_total():
    """Two players, stacking: seat 1's D, seat 2 answers with a D, seat 1 with another: seat 2
    owes 6, draws them and is skipped: seat 1 plays again."""
    # seed 000 (二人玩UNO的新規則補充): "Drop2牌具有累積性，我打出Drop2後，下家若有可繼續打，一直累積
    # 到沒有的玩家" — with two players the 下家 of each answer is the other seat, back and forth
    t = deal({1: "RDa GDa G1 R2", 2: "RDb B1 B2 B3"}, start="R5", stacking="on")
    act(t, "pad RDa")
    evs = act(t, "pad RDb")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (1, 4, W_STACK)
    evs = act(t, "pad GDa")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (2, 6, W_STACK)
    for c in ("Y1", "Y2", "Y3", "Y4", "Y5"):
        act(t, "shoe " + c)
    evs = act(t, "shoe Y6")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1
    assert len(t.hands[2]) == 9
    assert names(act(t, "pad G1")) == ["play", "uno_open", "turn"] and t.turn == 2


# ---- H2: jump-ins with two players --------------------------------------------------------

def test_h2_h6_two_players_the_opponent_jumps_an_s_and_plays_again_the_players_own_is_its_turn():
    """jump_in=actions, two players: seat 1's RS gives it the turn again; seat 2 jumps with the
    other RS: seat 1's S is void, seat 2's skips seat 1 and seat 2 plays again. Seat 1's own
    second RS, played on its own turn again, is a play of that turn, not a jump."""
    # seed 002: "某位玩家打出Skip牌，该玩家可以继续打出下一张牌"; "功能牌和万能牌也可以抢，被抢的牌作用
    # 失效"; seed 003: "可以不管是否輪到你出牌而立刻打出這張牌…接下來就輪到下家出牌"
    t = deal({1: "RSa G1 G2", 2: "RSb B1 B2"}, start="R5", jump_in="actions")
    act(t, "pad RSa")
    assert t.turn == 1
    evs = act(t, "pad RSb")
    assert names(evs) == ["jump_in", "play", "skip", "turn"] and evs[2][1] == 1
    assert t.turn == 2
    t = deal({1: "RSa RSb G1", 2: "B1 B2 B3"}, start="R5", jump_in="actions")
    act(t, "pad RSa")
    evs = act(t, "pad RSb")
    assert names(evs) == ["play", "uno_open", "skip", "turn"] and evs[2][1] == 2
    assert t.turn == 1


def test_u1_h2_h6_two_players_after_an_r_the_opponent_may_catch_its_jump_in_closes_the_window():
    """Two players, RR as second-to-last card: the turn is seat 1's again and its window stays
    open: seat 2 may catch; if seat 2 jumps in with the other RR instead, that is its act: the
    window closes, and a press of seat 2's afterwards is a catch too late (it costs nothing)."""
    # seed 002 (两人对玩): "Reverse牌时，该卡的功能相当于Skip牌，也就是该玩家可以继续打出下一张牌";
    # seed 004: "玩家也不能在轮到对方下家出牌之后检举他忘了喊【UNO】。轮到对方下家出牌包含自【牌库】取牌
    # 或自他手中的牌" — seat 2's jump takes a card from its hand; seed 000: "若不被及時發現則不可追究"
    t = deal({1: "R3 RRa G1", 2: "RRb B1 B2"}, start="R5", jump_in="actions", false_uno=2)
    act(t, "pad R3", "shoe Y9")
    assert names(act(t, "pad RRa")) == ["play", "uno_open", "skip", "turn"] and t.turn == 1
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]
    t = deal({1: "R3 RRa G1", 2: "RRb B1 B2"}, start="R5", jump_in="actions", false_uno=2)
    act(t, "pad R3", "shoe Y9", "pad RRa")
    evs = act(t, "pad RRb")
    assert names(evs) == ["jump_in", "uno_close", "play", "skip", "turn"] and t.turn == 2
    assert t.dir == 1
    assert unchanged(t, "seat 2") == R_NOTHING and t.debts == []


# ---- H3: multi-play of R and S with two and three players ----------------------------------

def test_h3_t3_three_players_two_rs_laid_together_reverse_twice():
    """multi=same, three players: RR then GR in one play: each R reverses again, so the
    direction is back where it was and seat 2 plays; with two players each R is an S and the
    second is a new turn's card (as two S, test_h6_h3_with_two_seats_each_skip...)."""
    # seed 000 (配對): "玩者每次可發多於一張牌，只要有相同的號碼或功能"; seed 002: "玩者每次出牌不限一张"
    t = deal({1: "RR GR R1", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", multi="same")
    evs = act(t, "pad RR")
    assert names(evs) == ["play", "reverse", "turn"] and t.dir == -1 and t.turn == 3
    evs = act(t, "pad GR")
    assert names(evs) == ["play", "uno_open", "reverse", "turn"] and evs[2][1] == 1
    assert t.dir == 1 and t.turn == 2
    t = deal({1: "RR GR R1", 2: "G1 G2 G3"}, start="R5", multi="same")
    act(t, "pad RR")
    evs = act(t, "pad GR")
    assert names(evs) == ["play", "uno_open", "skip", "turn"] and evs[2][1] == 2
    assert t.turn == 1 and t.dir == 1


# ---- H4, H5, H7 with two and three players ---------------------------------------------------

def test_h4_h6_two_players_a_0_swaps_the_hands_and_the_one_card_received_needs_no_call():
    """zero_rotate, two players: seat 1 plays R0 from R0 R1: the hands swap; seat 2 now holds
    R1 alone, opened no window (it played no second-to-last card) and wins with it uncaught."""
    # seed 003: "當有人打出數字零的時候…每個人都把自己手上的牌交給自己的下家" — with two players each
    # seat's 下家 is the other; seed 001: "当你在打剩1张牌的时候（即打出倒数第2张牌），喊出UNO"
    t = deal({1: "R0 R1", 2: "G1 G2"}, start="R5", zero_rotate="yes", false_uno=2)
    evs = act(t, "pad R0")
    assert names(evs) == ["play", "rotate", "turn"] and t.turn == 2 and t.window == 0
    assert hand(t, 1) == ["G1", "G2"] and hand(t, 2) == ["R1"]
    assert unchanged(t, "seat 2") == R_NOTHING                # holds one card: no false call
    evs = act(t, "pad R1")
    assert names(evs) == ["play", "round_over", "score"] and evs[1][1:] == (2, 3)


def test_h5_h6_two_players_only_the_opponent_lays_down_and_that_closes_the_window():
    """sum_win, two players: seat 1 plays R5 from R5 R5: its own last R5 adds up to 5 but the
    number is its own; seat 2 (G1 G4, the turn seat) lays down: its act closes seat 1's window."""
    # seed 000: "當自己牌上數值之和等與對方打出的牌之數字，或整倍數時，可以無視任何情況，攤牌勝出" —
    # with two players 對方 is the one other seat
    t = deal({1: "R5a R5b", 2: "G1 G4"}, start="R6", sum_win="yes")
    act(t, "pad R5a")
    assert t.window == 1 and t.turn == 2
    assert unchanged(t, "seat 1 long") == R_NO_SUM
    evs = act(t, "seat 2 long")
    assert names(evs) == ["sum_win", "uno_close", "round_over", "score"]
    assert evs[2][1:] == (2, 5) and t.scores[2] == 5


def test_h7_three_players_the_4s_player_slaps_too_the_last_of_three_draws():
    """slap4, three players: seat 1 plays R4; seats 3 and 2 slap: seat 1, its own 4's slapper,
    is the last and draws 2; then seat 2 plays its turn."""
    # seed 003: "當有人打出數字四的時候所有人要立刻將手拍到這張牌上，這時手在最上面的那個人也就是最慢的
    # 要發牌兩張" — everyone (所有人), the 4's player too
    t = deal({1: "R4 R1 R2", 2: "R7 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", slap4="yes")
    assert names(act(t, "pad R4")) == ["play", "slap_open", "turn"] and t.turn == 2
    assert unchanged(t, "pad R7") == R_WAIT_SLAP
    assert names(act(t, "seat 3")) == ["slap"]
    evs = act(t, "seat 2")
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (1, 2, W_SLAP)
    act(t, "shoe B8", "shoe B9")
    assert names(act(t, "pad R7")) == ["play", "turn"] and len(t.hands[1]) == 4


# ---- M3, M4: eliminations down to two and to one ------------------------------------------

def test_m3_three_seats_down_to_one_the_second_out_ends_the_round_the_first_wins():
    """elimination, three seats: seat 1 goes out, then seat 2: one seat is left, the round is
    over: seat 1 (first out) wins and scores seat 3's hand."""
    # seed 003 (淘汰制): "三人局會變成二人局，最後有一個人輸" — the round goes on until one is left
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "G7 B8"}, start="R5", elimination="yes")
    act(t, "pad R1", "seat 1", "pad R3", "seat 2", "shoe Y9")
    assert t.turn == 1
    evs = act(t, "pad R2")
    assert names(evs) == ["play", "turn", "out"] and t.active == [2, 3] and t.turn == 2
    evs = act(t, "pad R4")
    assert names(evs) == ["play", "turn", "out", "round_over", "score"]
    assert evs[3][1:] == (1, 7 + 8 + 9) and t.winner == 1 and t.scores[1] == 24


def test_m3_m4_four_seats_two_left_an_r_acts_as_an_s():
    """elimination, two teams of four seats: seat 1 (team 1-3) and seat 2 (team 2-4) go out;
    seats 3 and 4 are left, one of each team: an R of seat 3 acts as an S (seat 3 plays
    again, the direction stays)."""
    # seed 003: "四人局變成三人局，游戲繼續，三人局會變成二人局"; seed 000: "Reverse…若只有兩名玩者則
    # 效果與"Skip"牌相同" — the players left in the game
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "RR G4", 4: "Y7 B8"}, start="R5", elimination="yes",
             teams=2)
    act(t, "pad R1", "seat 1", "pad R3", "seat 2", "shoe Y9", "shoe B9")
    act(t, "pad R2", "pad R4")
    assert t.finished == [1, 2] and t.active == [3, 4] and t.turn == 3
    evs = act(t, "pad RR")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 4
    assert t.turn == 3 and t.dir == 1



def test_h2_m3_t3_a_jump_on_an_r_that_reversed_with_three_in_and_left_two_says_it_goes_back():
    """elimination, jump_in=actions, three seats: seat 1 goes out on RR (three seats in: it
    reverses, ccw); seat 2 jumps it with the other RR: the jumped R's reversal is void, the
    direction goes back (cw) and the record says so; seat 2's own R, two seats in, is an S."""
    # seed 000: "出此牌後出牌順序改為逆時針…（有搶牌者除外）"; seed 002: "被抢的牌作用失效". The jump
    # had been taken for a jump on an R of two seats (an S, nothing to void): seat 1's R had
    # reversed, and the direction stayed turned with no `reverse` event to undo it
    t = deal({1: "RRa R1", 2: "RRb G4", 3: "B3 B4"}, start="R7", elimination="yes",
             jump_in="actions")
    act(t, "pad R1", "seat 1", "shoe B9", "shoe B8")
    evs = act(t, "pad RRa")
    assert names(evs) == ["play", "reverse", "turn", "out"] and t.dir == -1
    assert t.active == [2, 3] and t.turn == 3
    evs = act(t, "pad RRb")
    assert names(evs) == ["jump_in", "reverse", "play", "skip", "turn"]
    assert evs[1][1] == 1 and evs[3][1] == 3 and t.turn == 2 and t.dir == 1

# ---- U2, U5: catching with two players -----------------------------------------------------

def test_u2_u5_h6_two_players_the_one_catcher_adds_two_once_the_caught_seat_no_longer_calls():
    """catchers=each, two players: only seat 2 can catch seat 1: 2 cards; its second press
    adds nothing (it caught already) and seat 1's press is no call now."""
    # seed 000 (二人玩UNO): "如果沒喊UNO而又被人拍桌子捉到的話，一個人捉到就罰2張牌，如此類推" — per
    # catcher; with two players there is one
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", catchers="each")
    act(t, "pad R1")
    evs = act(t, "seat 2")
    assert names(evs) == ["catch", "penalty"] and evs[1][1:] == (1, 2, W_CAUGHT)
    assert unchanged(t, "seat 2") == R_CAUGHT
    assert unchanged(t, "seat 1") == R_CALLED
    assert t.debts == [[1, 2, W_CAUGHT]]


# ---- T5, P2, T6 with two players -----------------------------------------------------------

def test_t5_h6_two_players_a_last_w4_the_other_draws_4_unanswered_and_they_count():
    """Two players, stacking on: seat 1 goes out on a W4: no colour, no challenge, no stack:
    seat 2 draws 4 and they count in seat 1's score."""
    # seed 002: "若赢家最后一张打出的是罚抽2张牌或罚抽4张牌，此局游戏已结束，但赢家的下一家仍需受罚";
    # seed 004: "而他们所抽出的牌也要计分"
    t = deal({1: "R1 W4a", 2: "G1 W4b"}, start="R5", stacking="on")
    act(t, "pad R1", "seat 1", "pad G1", "seat 2")
    evs = act(t, "pad W4a")
    assert names(evs) == ["uno_close", "play", "turn", "owe"] and evs[3][1:] == (2, 4, W_DRAW4)
    assert t.want == 0
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    assert unchanged(t, "pad W4b") == R_MUST_DRAW
    act(t, "shoe Y1", "shoe Y2", "shoe Y3")
    evs = act(t, "shoe Y4")
    assert names(evs) == ["draw", "round_over", "score"] and evs[1][1:] == (1, 50 + 1 + 2 + 3 + 4)


def test_p2_h6_two_players_after_an_s_the_players_new_turn_has_its_full_time():
    """turn_timer=5, two players: seat 1, warned, plays RS at 4 s: the turn is its own again, a
    new one: its time runs from the S (warned again at 7 s, charged past 9 s), not from 0."""
    # seed 002 (两人对玩): "某位玩家打出Skip牌，该玩家可以继续打出下一张牌" — a next card, a new turn;
    # seed 003: "超過5秒不出牌者，罰摸2張牌" — seat 1 played a card at 4 s
    t = deal({1: "RS R1 R2", 2: "G1 G2 G3"}, start="R5", turn_timer=5)
    act(t, "tick 0")
    assert names(act(t, "tick 4000")) == ["timer_warn"]
    act(t, "pad RS")
    assert t.turn == 1 and t.deadline() == 7000
    assert names(act(t, "tick 7000")) == ["timer_warn"]
    assert names(act(t, "tick 9000")) == []
    evs = act(t, "tick 9001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (1, 2, W_SLOW)


def test_t6_h6_two_players_two_passes_with_nothing_to_draw_block_the_round():
    """Two players draw every card and pass: with the shoe and the pile empty, two passes in a
    row block the round; the seat holding fewer points wins and scores the other's hand."""
    # no seed has a blocked round (docs/rules.md, T6): every seat in play has passed, here two
    t = deal({1: "R1 R2", 2: "G9 G8"}, start="R5", target=10000)
    empty_the_shoe(t)
    act(t, "shuffle")
    empty_the_shoe(t)
    assert t.shoe == 0 and t.pile == 1
    pts = [t._hand_points(s) for s in (1, 2)]
    first = t.turn
    assert names(act(t, "seat %d" % first)) == ["pass", "turn"]
    evs = act(t, "seat %d" % t.turn)
    assert names(evs) == ["pass", "blocked", "round_over", "score"]
    low = 1 if (pts[0], len(t.hands[1])) < (pts[1], len(t.hands[2])) else 2
    assert evs[1][1] == low and evs[2][1:] == (low, pts[2 - low])


# ---- S2: the deal with two players --------------------------------------------------------

def test_s2_h6_rotate_with_two_players_the_deal_alternates():
    """next_dealer=rotate, two players: seat 2 deals, seat 1 wins; seat 1 deals next (the seat
    after seat 2), whoever won, and seat 2 gets the first card and plays first."""
    # no seed passes the deal round the table (docs/rules.md, S2 rotate); the seat after the
    # dealer is the only other one
    t = deal({1: "R1", 2: "G1"}, start="R5", next_dealer="rotate")
    act(t, "pad R1")
    evs = act(t, "shuffle")
    assert evs[-1][0] == ROUND and evs[-1][1:] == (2, 1) and t.drawer() == 2


# ---- C1 with two players -------------------------------------------------------------------

def test_c1_h6_two_players_a_won_challenge_the_challenger_plays_then_the_w4s_player():
    """Two players, an illegal W4 (seat 1 held red): seat 2 challenges: seat 1 draws the 4,
    seat 2 is not skipped and plays in the colour named; then it is seat 1's turn."""
    # seed 001: "下家若检举成功，则仍然可以出牌"; seed 000: "故意出牌的需罰抽4張" — with two players
    # the 下家 is the other seat, and after its play the turn is the W4's player's
    t = deal({1: "W4 R1 G2", 2: "B1 B2 B3"}, start="R5")
    act(t, "pad W4", "colour B")
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_ILLEGAL) and evs[1][1:] == (1, 4, W_W4_ILLEGAL)
    act(t, "shoe G5", "shoe G6", "shoe G7", "shoe G8")
    assert t.turn == 2 and len(t.hands[1]) == 6 and len(t.hands[2]) == 3
    assert names(act(t, "pad B1")) == ["play", "turn"] and t.turn == 1
