"""What the table says, and what it charges, where a referee noticed the wrong words: a slap's
bounce, a late lay-down, a costly false call, a card read at the shoe between rounds and the
narration of a jumped R, a lay-down on the start card, a leave in a match. Named after the rule ids they decide; the seeds' words
(shared/seeds/) and docs/rules.md ("Decided where the seeds are read closely") say why."""
from kit import act, deal, names, unchanged, seated, hand
from uno.events import *
from uno.narrate import say, says
from uno.words import REASONS


# ---- H7 with U3 and U4: a slap's bounce -----------------------------------------------------

def test_h7_u3_a_second_slap_while_the_slap_is_open_costs_nothing_even_with_false_uno():
    """slap4, false_uno=2: seat 2 slaps seat 1's 4 and presses again (its hand bounced) while
    seat 3 has not slapped: refused "already slapped", nothing owed, short or long. Once the
    slap is over, the same press is a false UNO call again and costs 2."""
    # seed 003: "當有人打出數字四的時候所有人要立刻將手拍到這張牌上，這時手在最上面的那個人也就是最慢
    # 的要發牌兩張" — one hand each on the 4, the slowest on top; "喊錯UNO" (calling UNO wrongly,
    # "打錯牌、拍錯桌子、喊錯UNO…罰摸2張牌") is a call, and a hand already on the 4 calls nothing
    t = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9"}, start="R5", slap4="yes",
             false_uno=2)
    act(t, "pad R4")
    assert names(act(t, "seat 2")) == ["slap"]
    assert unchanged(t, "seat 2") == R_SLAPPED
    assert unchanged(t, "seat 2") == R_SLAPPED        # bounced twice: still nothing
    assert unchanged(t, "seat 2 long") == R_SLAPPED   # (no lay-down without sum_win)
    assert t.debts == [] and t.slap == 1 << 1 | 1 << 3
    assert names(act(t, "seat 1")) == ["slap", "penalty"] and t.debts == [[3, 2, W_SLAP]]
    act(t, "shoe B1", "shoe B2")                      # seat 3 draws the slap's 2
    evs = act(t, "seat 2")
    assert names(evs) == ["reject", "penalty"] and evs[0][1] == R_FALSE_UNO
    assert evs[1][1:] == (2, 2, W_FALSE_UNO)


def test_h7_u4_a_slapped_seats_second_press_is_no_false_catch_of_a_called_window():
    """slap4, false_catch=2: seat 1 plays its second-to-last card, a 4; it slaps and calls
    UNO; seat 2 slaps and presses again: not a false catch of seat 1 (it called) but its slap
    bouncing: "already slapped", nothing owed."""
    # seed 003: one hand each on the 4 ("所有人要立刻將手拍到這張牌上"); seed 002's false catch is an
    # accusation ("被别人指出说你没喊UNO"), which a hand resting on the 4 makes of no one
    t = deal({1: "R4 R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", slap4="yes", false_catch=2)
    assert names(act(t, "pad R4")) == ["play", "uno_open", "slap_open", "turn"]
    assert names(act(t, "seat 1")) == ["slap"]        # a seat's press is its slap first
    assert names(act(t, "seat 1")) == ["uno"]         # then its call
    assert names(act(t, "seat 2")) == ["slap", "penalty"] and t.debts == [[3, 2, W_SLAP]]
    t = deal({1: "R4 R1", 2: "G1 G2", 3: "Y1 Y2", 4: "B1 B2"}, start="R5", slap4="yes",
             false_catch=2)
    act(t, "pad R4", "seat 1", "seat 1", "seat 2")
    assert t.called and t.window == 1
    assert unchanged(t, "seat 2") == R_SLAPPED and t.debts == []


def test_h7_u2_h5_a_slapped_seat_still_catches_a_window_not_called_and_still_lays_down():
    """slap4: a seat that slapped still catches the 4's player who has not called (a true
    accusation: it draws 2), and with sum_win still lays down a hand adding up to the 4."""
    # seed 000: "在下位玩者發牌前被其他人發現，則需罰2張牌" — the window lasts until the next player
    # acts, which waits for the slap; seed 003: "總數加起來如果和任意一家打出的牌相等時，亦可馬上勝出"
    t = deal({1: "R4 R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", slap4="yes")
    act(t, "pad R4", "seat 2")
    evs = act(t, "seat 2")
    assert names(evs) == ["catch", "uno_close", "penalty"] and evs[2][1:] == (1, 2, W_CAUGHT)
    t = deal({1: "R4 R1 B9", 2: "G1 G3 Y8", 3: "Y1 Y3 Y0"}, start="R5", slap4="yes",
             sum_win="yes")
    act(t, "pad R4", "seat 3")
    evs = act(t, "seat 3 long")                      # 1 + 3 + 0 = 4
    assert names(evs)[0] == "sum_win" and evs[0][1:] == (3, 4)


# ---- H5: a lay-down too late ----------------------------------------------------------------

def test_h5_a_lay_down_after_the_number_closed_is_too_late_not_nothing_to_challenge():
    """sum_win: seat 3's Y1 Y3 B0 make seat 1's 4, but seat 2 drew first: "too late to lay down"
    (it had heard "nothing to challenge"). With M3, a second seat on the same number is too
    late too. A long press after a W4's draw is still "nothing to challenge"."""
    # seed 003: "手上剩下的牌，總數加起來如果和任意一家打出的牌相等時，亦可馬上勝出" — on the card just
    # played (打出); docs/rules.md (H5): until the next play or draw, the first to lay down takes it
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G5", 3: "Y1 Y3 B0"}, start="R5", sum_win="yes")
    act(t, "pad R4", "shoe B5")
    assert unchanged(t, "seat 3 long") == R_SUM_LATE
    assert REASONS[R_SUM_LATE].startswith("too late to lay down")
    t = deal({1: "R4 R1 R9", 2: "G1 G3 Y4", 3: "Y2 B2 Y8", 4: "B5 B6 B7"}, start="R5",
             sum_win="yes", elimination="yes")
    act(t, "pad R4", "seat 2 long")                 # 8 = 2 x 4: seat 2 is out
    assert unchanged(t, "seat 3 long") == R_SUM_LATE  # 12 = 3 x 4, the race was lost
    t = deal({1: "W4 R1 B1", 2: "G0 G1 G5", 3: "Y1 Y3 B0"}, start="R5", sum_win="yes")
    act(t, "pad W4", "colour G", "shoe G9")
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G5", 3: "Y1 Y3 B0"}, start="R5", sum_win="yes")
    act(t, "pad R4")
    assert unchanged(t, "seat 2 long") == R_NO_SUM  # still open: 0 + 1 + 5 makes no 4
    assert names(act(t, "seat 3 long"))[0] == "sum_win"


def test_h5_s4_a_lay_down_on_the_start_number_is_refused_as_nobodys_play():
    """sum_win: seat 2's G1 G3 G0 make the start card's 4, but nobody played it (S4): refused
    "the start card is nobody's play", not "nothing to challenge" (the table had said so in a
    first round) nor "too late" (it is no later). Once seat 1 plays a 4, seat 2 lays down."""
    # seed 003: "總數加起來如果和任意一家打出的牌相等時" — a card some seat played (打出); the start
    # card is turned up from the shoe ("翻開牌庫，作為第一張"), docs/rules.md "S4 with H4, H5, H7"
    t = deal({1: "R4 R1 B1", 2: "G1 G3 G0", 3: "Y1 Y3 B9"}, start="Y4", sum_win="yes")
    assert unchanged(t, "seat 2 long") == R_START_SUM
    assert unchanged(t, "seat 1 long") == R_START_SUM   # its hand makes nothing: the same words
    act(t, "shoe B5")                                   # seat 1 draws: the start card still tops
    assert unchanged(t, "seat 2 long") == R_START_SUM
    t = deal({1: "R4 R1 B1", 2: "G1 G3 G0", 3: "Y1 Y3 B9"}, start="Y4", sum_win="yes")
    act(t, "pad R4")
    assert names(act(t, "seat 2 long"))[0] == "sum_win"
    assert REASONS[R_START_SUM] == "the start card is nobody's play: no lay-down on it"


def test_s1_m1_a_long_press_in_a_match_but_not_in_play_says_seats_stay_for_the_match():
    """A long press is a leave in the lobby and once a match is over; between rounds (and in
    the draw for dealer, the deal, the start card) the match keeps its seats: refused "leave once
    it is over", not "this press means nothing now". A short press still means nothing."""
    # seed 002: "多盤累計" — a match adds up its rounds, seat by seat; docs/buttons.md
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5")
    act(t, "pad R1", "seat 1", "pad R7", "pad R8", "pad R2")
    assert t.phase == P_ROUND_OVER
    assert unchanged(t, "seat 2 long") == R_LEAVE_LATER
    assert unchanged(t, "seat 2") == R_NOTHING
    assert unchanged(t, "seat 5 long") == R_NOT_SEATED
    t = seated((1, 2, 3))
    act(t, "shuffle", "shoe R9a")                       # the draw for dealer
    assert unchanged(t, "seat 3 long") == R_LEAVE_LATER
    assert REASONS[R_LEAVE_LATER] == "seats stay for the whole match: leave once it is over"


# ---- U3: a costly false call says it was one -------------------------------------------------

def test_u3_a_false_uno_call_that_costs_is_rejected_as_a_false_uno_call():
    """false_uno=2: seat 2 (three cards) presses with nothing to call or catch: the reject says
    "a false UNO call", then the penalty. Free, it still "means nothing": false_uno=0, a seat
    down to its last card (its own call), a catch too late."""
    # seed 002: "错喊UNO也需要罚两张牌"; seed 001: "若有人在不是打出倒数第2张手牌时宣言UNO…罚抽牌2张"
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G3", 3: "Y1 Y3 B9"}, start="R5", false_uno=2)
    evs = act(t, "seat 2")
    assert evs == [(REJECT, R_FALSE_UNO, 2, -1), (PENALTY, 2, 2, W_FALSE_UNO)]
    assert [say(e) for e in evs] == [
        "REJECTED seat 2: a false UNO call: this seat is not down to its last card",
        "PENALTY seat 2 draws 2: false UNO call"]
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G3", 3: "Y1 Y3 B9"}, start="R5")
    assert unchanged(t, "seat 2") == R_NOTHING
    t = deal({1: "R4 R1", 2: "G0 G1", 3: "Y1 Y3"}, start="R5", false_uno=2)
    act(t, "pad R4", "shoe G5")                     # seat 1 forgot its call; the window closes
    assert unchanged(t, "seat 3") == R_NOTHING      # a catch too late: nobody pays (U2)
    assert unchanged(t, "seat 1") == R_NOTHING      # its own call, late: it holds one card


# ---- S2, M1: a card read at the shoe between rounds ------------------------------------------

def test_s2_m1_between_rounds_a_card_read_at_the_shoe_asks_for_the_shuffled_pile():
    """After a round, after a match, with the dealer chosen, and in a new group's lobby, every
    card is being gathered: a card read at the shoe (in a hand, on the pile, set aside) is
    answered "load the shuffled pile first", naming the seat that held it, and costs nothing.
    During the draw for dealer a set-aside card and during the deal a hand's card keep theirs."""
    # seeds 001, 002, 003: "将大家的牌重新洗混即可进行下一局" — between rounds everyone's cards are
    # shuffled together again; what the table waits for is the shuffle sensor
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5", misplay=2)
    act(t, "pad R1", "seat 1", "pad R7", "pad R8", "pad R2")
    assert t.phase == P_ROUND_OVER
    assert unchanged(t, "shoe G2a") == R_WANT_SHUFFLE   # seat 2's (unchanged checks the seat)
    assert unchanged(t, "shoe R2a") == R_WANT_SHUFFLE   # the last card played, on the pile
    assert unchanged(t, "shoe R5a") == R_WANT_SHUFFLE   # the start card, under it
    assert unchanged(t, "shoe B9a") == R_WANT_SHUFFLE   # one still in the shoe (as before)
    assert t.debts == []
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5", target=1)
    act(t, "pad R1", "seat 1", "pad R7", "pad R8", "pad R2")
    assert t.phase == P_MATCH_OVER
    assert unchanged(t, "shoe Y2a") == R_WANT_SHUFFLE
    act(t, "seat 4")                                  # a new group: the lobby opens again
    assert t.phase == P_LOBBY and unchanged(t, "shoe Y2a") == R_WANT_SHUFFLE
    t = seated((1, 2, 3))
    act(t, "shuffle", "shoe R9a")
    assert unchanged(t, "shoe R9a") == R_ASIDE        # the draw for dealer: set aside
    act(t, "shoe G2a", "shoe B1a")
    assert t.phase == P_DEALER and t.dealer == 1
    assert unchanged(t, "shoe R9a") == R_WANT_SHUFFLE  # the dealer is chosen: shuffle
    t = seated((1, 2), first_dealer=2, hand_size=2)
    act(t, "shuffle", "shoe R1a", "shoe G1a")
    assert unchanged(t, "shoe R1a") == R_IN_HAND      # the deal: a hand's card, as before
    assert hand(t, 1) == ["R1"]


# ---- H2, T3: the narration of a jumped R -----------------------------------------------------

def test_h2_t3_the_narration_of_a_jumped_r_says_the_direction_goes_back_then_reverses():
    """jump_in=actions, 4 seats: seat 3 jumps seat 1's RR with the other: the narration says the
    jumped R is void and the direction goes back (clockwise), then that seat 3's R reverses
    it (counter-clockwise); it had said "direction reverses" twice. A take-back of an R says
    the direction goes back; a plain R still says it reverses."""
    # seed 000: "出此牌後出牌順序改為逆時針…（有搶牌者除外）"; seed 002: "被抢的牌作用失效"
    t = deal({1: "RR R1 R2", 2: "G1 G2 G3", 3: "RR Y2 Y3", 4: "B1 B2 B3"}, start="R5",
             jump_in="actions")
    evs = act(t, "pad RRa")
    assert says(evs) == ["seat 1 plays RR", "direction reverses: now counter-clockwise",
                         "turn: seat 4"]
    evs = act(t, "pad RRb")
    assert says(evs) == ["seat 3 jumps in", "the jumped R is void: direction goes back to "
                         "clockwise", "seat 3 plays RR",
                         "direction reverses: now counter-clockwise", "turn: seat 2"]
    assert [say(e) for e in evs][1] == "direction reverses: now clockwise"  # one event alone
    t = deal({1: "RR R1 R2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad RR")
    evs = act(t, "undo")
    assert names(evs) == ["undo", "card_back", "reverse", "turn"]
    assert says(evs)[2] == "direction goes back to clockwise"
