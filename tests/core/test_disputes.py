"""Disputed table situations, one test each, named after the rule ids they decide (the seeds'
words and docs/rules.md say why). Situations already pinned elsewhere are not repeated."""
from kit import act, deal, names, unchanged, hand
from uno.cards import DECK
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


def test_m2_m3_m4_a_losing_teams_member_already_out_adds_its_teams_hands_too():
    """Negative points, elimination, teams: the losing team's member that went out scores its partner's hand too."""
    # seed 002: "以队为单位来进行计算，总计每位队员手中持牌的点数和来做为该队的分数" — the team is
    # the unit; seat 2 went out before the other team did, seat 4 still holds 34: both add 34
    # (seat 2 had added nothing, so the partners' scores drifted apart)
    t = deal({1: "R1 R2", 2: "R9 R8", 3: "R3 R4", 4: "BS B8"}, start="R5", teams=2,
             elimination="yes", scoring="losers")
    act(t, "pad R1", "seat 1", "pad R9", "seat 2", "pad R3", "seat 3", "shoe Y6")
    act(t, "pad R2", "pad R8")                  # seat 1 out, then seat 2
    assert t.finished == [1, 2]
    evs = act(t, "pad R4")                      # seat 3 out: the team of 1 and 3 wins
    assert names(evs)[-3:] == ["round_over", "score", "score"] and evs[-3][1:] == (1, 34)
    assert [e[1:] for e in evs[-2:]] == [(2, 34), (4, 34)]
    assert t.scores[1] == t.scores[3] == 0 and t.winner == 1


def test_h5_m4_a_partner_cannot_sum_win_on_its_partners_number():
    """Sum win with teams: seat 1 plays a 4, its partner seat 3 holds 1 + 3: no lay-down; an opponent may."""
    # seed 000: "當自己牌上數值之和等與對方打出的牌之數字" — the number *the other side* played; with
    # teams the other side is the other team (else a partner plays a 1 and the team lays down
    # any hand of numbers). It had been taken: seat 3 won the round for the team on seat 1's 4
    t = deal({1: "R4 R1", 2: "G1 G3", 3: "Y1 Y3", 4: "BS B8"}, start="R5", teams=2,
             sum_win="yes")
    act(t, "pad R4", "seat 1")
    assert t.hand_sum(3) == -1 and t.hand_sum(2) == 4
    assert unchanged(t, "seat 3 long") == R_NO_SUM
    evs = act(t, "seat 2 long")
    assert names(evs) == ["sum_win", "uno_close", "round_over", "score", "score"]
    assert evs[2][1:] == (2, 1 + 1 + 3)
    assert t.scores[2] == t.scores[4] == 5


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


def test_t2_t5_c1_forced_play_does_not_oblige_a_drawn_w4_from_a_hand_holding_the_colour():
    """Forced play, last_card=no_srw: a last RS cannot go, the seat draws a W4; it may pass (or play it and be judged)."""
    # seed 004: "玩家只能在玩家手上没有与上一位玩家出的牌相同颜色时出这张牌" — the RS is red; seed 001:
    # "玩家不能在有牌可出的情况下不出牌" asks for a card the seat can play, not one that loses a
    # challenge (it had been refused the pass, then drew 4 for the W4 it was made to play)
    t = deal({1: "RS", 2: "G1", 3: "Y1"}, start="R5", forced="yes", last_card="no_srw")
    act(t, "shoe W4")
    assert names(act(t, "seat 1")) == ["pass", "turn"] and t.turn == 2
    t = deal({1: "RS", 2: "G1", 3: "Y1"}, start="R5", forced="yes", last_card="no_srw")
    act(t, "shoe W4", "pad W4", "colour B")
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_ILLEGAL) and evs[1][1:] == (1, 4, W_W4_ILLEGAL)


def test_t2_p1_c1_forced_play_a_drawn_w4_a_misplay_penalty_made_illegal_may_be_passed():
    """Forced play, w4=challenge: a legal drawn W4, then a misplay's 2 bring the colour: the seat may pass."""
    # seed 001: "抽牌后只能打出抽到的牌" — the W4 is the only card it may play, and from a hand
    # holding blue it is illegal (seed 004: "只能在…没有与上一位玩家出的牌相同颜色时出这张牌")
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="B5", forced="yes", misplay=2)
    act(t, "shoe W4")
    assert names(act(t, "pad R1")) == ["reject", "penalty"]
    act(t, "shoe B7", "shoe Y7")
    assert names(act(t, "seat 1")) == ["pass", "turn"] and t.turn == 2
    assert hand(t, 1) == ["B7", "R1", "R2", "W4", "Y7"]


def test_t2_p1_forced_play_a_draw_refused_is_no_misplay():
    """Forced play, misplay=2: a seat holding a card that fits reads a card at the shoe: refused, it costs nothing."""
    # seed 000: "若玩者發錯牌，需罰抽2張牌" — a card played wrongly; a draw plays no card: the
    # card goes back into the shoe and the seat plays (docs/rules.md, P1)
    t = deal({1: "R1 B2", 2: "G1 G3"}, start="B5", forced="yes", misplay=2)
    assert unchanged(t, "shoe Y7") == R_MUST_PLAY
    assert t.debts == []


# ---- T5 with H2 and H3: a last S, R or W out of turn -------------------------------------

def test_t5_h3_p1_a_last_s_added_to_a_multi_play_is_refused_as_a_last_card():
    """last_card=no_srw, multi=same: RS then GS as the last card: refused as a last S (a misplay), not as out of turn."""
    # seed 002: "最后一张牌不能是reverse翻转，skip跳过或者是wild变色…则视为无牌可出": the same card
    # the seat could not lay as its last on its turn; the reason had said "not your turn"
    t = deal({1: "RS GS", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", multi="same",
             last_card="no_srw", misplay=2)
    act(t, "pad RS")
    evs = act(t, "pad GS")
    assert names(evs) == ["reject", "penalty", "uno_close"] and evs[0][1] == R_LAST_CARD
    assert evs[1][1:] == (1, 2, W_MISPLAY)


def test_t5_h2_p1_a_last_s_cannot_jump_in():
    """last_card=no_srw, jump_in=actions: a seat whose last card is an S identical to the top may not jump in with it."""
    # seed 002: "如果你最后一张牌恰好是这种牌，则视为无牌可出" — no card to play, in turn or out of it
    t = deal({1: "R1 G7", 2: "R2 G8", 3: "Y2 YSa", 4: "YSb Y3"}, start="R5",
             jump_in="actions", last_card="no_srw", misplay=2)
    act(t, "pad R1", "seat 1", "pad R2", "seat 2", "pad Y2", "seat 3", "pad YSb")
    evs = act(t, "pad YSa")
    assert names(evs) == ["reject", "penalty"] and evs[0][1] == R_LAST_CARD
    assert t.turn == 2 and hand(t, 3) == ["YS"]


# ---- U3 with H3, U5 after the draw --------------------------------------------------------

def test_u3_h3_a_call_between_the_cards_of_a_multi_play_is_a_false_call():
    """multi=identical, false_uno=2: R5, a press, then R5 again: the press came before the second-to-last card: it costs."""
    # seed 001: "若有人在不是打出倒数第2张手牌时宣言UNO…罚抽牌2张": the call follows the card that
    # leaves the last one (docs/rules.md); the seat then draws 2 and may still add its R5
    t = deal({1: "R5a R5b G1", 2: "G2 G3 G4", 3: "Y1 Y2 Y3"}, start="R7", multi="identical",
             false_uno=2)
    act(t, "pad R5a")
    evs = act(t, "seat 1")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (1, 2, W_FALSE_UNO)
    act(t, "shoe B1", "shoe B2")
    assert names(act(t, "pad R5b")) == ["play"] and len(t.hands[1]) == 3


def test_u5_a_catcher_after_the_caught_seat_drew_still_adds_two():
    """catchers=each, false_catch=2: a third seat presses after the caught seat drew its 2: still a catch until the next player acts."""
    # seed 003: "一個人捉到就罰3張牌，如此類推" (every catcher adds); the window lasts "在下位玩者發牌前"
    # (seed 000); the accusation is true: it did not call (seed 002's false catch is of a seat
    # "并非剩下一张牌" that had nothing to call)
    t = deal({1: "R1 R2 R3", 2: "G1 G2 G3", 3: "Y1 Y2 Y3", 4: "B1 B2 B3"}, start="R5",
             catchers="each", false_catch=2)
    act(t, "pad R3", "shoe G4", "shoe Y4", "shoe B4")     # the others draw: seat 1's turn
    act(t, "pad R1", "seat 3", "shoe B8", "shoe B9")
    assert len(t.hands[1]) == 3 and t.window == 1
    evs = act(t, "seat 4")
    assert names(evs) == ["catch", "penalty"] and evs[1][1:] == (1, 2, W_CAUGHT)
    act(t, "shoe Y8", "shoe Y9", "pad G1")
    assert t.window == 0 and len(t.hands[1]) == 5 and t.turn == 3


def test_t2_h3_forced_play_does_not_oblige_a_multi_play():
    """Forced play, multi=same: a seat that played R5 and holds G5 need not add it; the next seat plays."""
    # seed 001: "玩家不能在有牌可出的情况下不出牌" — the seat has played; seed 002's multi-play is a
    # may ("玩者每次出牌不限一张，可出多于一张的牌")
    t = deal({1: "R5 G5 B1", 2: "R1 G2 G3", 3: "Y1 Y2 Y3"}, start="R7", forced="yes",
             multi="same")
    act(t, "pad R5")
    assert names(act(t, "pad R1")) == ["play", "turn"] and t.turn == 3
    assert hand(t, 1) == ["B1", "G5"]


# ---- P2 with T2: drawing until a card fits ------------------------------------------------

def test_p2_t2_draw_until_each_card_drawn_starts_the_time_again():
    """turn_timer=5, draw=until: a seat drawing a card every 4 s pays nothing; sitting on the card that fits costs 2."""
    # seed 003: "超過5秒不出牌者，罰摸2張牌" — the seat that sits; one drawing on is acting (seed 002:
    # "要一直抽到可以出牌为止"); once the card fits, its play is the act left
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="B5", draw="until", turn_timer=5)
    act(t, "tick 0", "tick 4000", "shoe Y7", "tick 8000", "shoe G8", "tick 12000")
    assert t.debts == [] and t.turn == 1
    act(t, "shoe B9", "tick 17000")
    evs = act(t, "tick 17001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (1, 2, W_SLOW)


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


# ---- S4: start cards with two players ---------------------------------------------------

def test_s4_t3_a_skip_start_card_with_two_players_lets_the_dealer_play_first():
    """Two players, S turned up: the player left of the dealer is skipped, the dealer plays."""
    # seed 004: "【阻挡牌】…如果这张牌在一开始就被翻开，则第一位玩家（发牌者左边的玩家）停止出牌一次"
    t = deal({1: "R1 R2", 2: "R7 G2"}, start="RS")      # seat 2 deals, seat 1 is first
    assert t.turn == 2
    assert unchanged(t, "pad R1") == R_NOT_TURN
    assert names(act(t, "pad R7")) == ["play", "uno_open", "turn"] and t.turn == 1


def test_s4_t3_a_draw_two_start_card_with_two_players():
    """Two players, D turned up: the first player draws 2 and is skipped; the dealer plays."""
    # seed 004: "如果这张牌在一开始就被翻开，则第一位玩家必须罚抽2张牌，并且停止出牌一次"
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="RD")
    assert t.turn == 1 and t.pending == 2
    act(t, "shoe B1")
    assert names(act(t, "shoe B2")) == ["draw", "skip", "turn"] and t.turn == 2
    assert hand(t, 1) == ["B1", "B2", "R1", "R2"]


def test_s4_a_wild_start_card_with_two_players_the_non_dealer_names_the_colour_and_plays():
    """Two players, W turned up: the player left of the dealer (the other seat) names the colour and plays first."""
    # seed 004: "如果这张牌在一开始就被翻开。则发牌者左边的每一位玩家将可决定要玩的颜色并出第一张牌"
    t = deal({1: "G1 R2", 2: "G5 G7"}, start="W")     # seat 2 deals
    assert t.want == 1 and t.turn == 1
    assert unchanged(t, "pad G1") == R_WANT_COLOUR
    assert names(act(t, "colour G")) == ["colour"] and t.turn == 1
    assert unchanged(t, "pad G5") == R_NOT_TURN
    assert names(act(t, "pad G1")) == ["play", "uno_open", "turn"] and t.turn == 2


# ---- T3 with two players ----------------------------------------------------------------

def test_t3_h6_a_draw_two_with_two_players_lets_its_player_play_again():
    """Two players: after a D the other draws 2 and loses its turn, so the D's player plays again."""
    # seed 000: "Draw two 下位玩者停止出牌一次，並罰抽2張牌"; with two seats the next after the
    # victim is the D's player
    t = deal({1: "RD R1 R2", 2: "G1 G2 G3"}, start="R5")
    act(t, "pad RD", "shoe B1")
    assert names(act(t, "shoe B2")) == ["draw", "skip", "turn"] and t.turn == 1
    assert names(act(t, "pad R1")) == ["play", "uno_open", "turn"]


def test_c1_t3_two_players_a_lost_challenge_gives_the_w4s_player_the_turn_again():
    """Two players, a legal W4 challenged: the challenger draws 6, skipped; the W4's player plays."""
    # seed 004: "提出质疑者就会被罚抽4张牌，并在加抽2张牌"; seed 001: "检举失败，则被跳过回合"
    t = deal({1: "W4 G2 G4", 2: "G1 G3 G5"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_LEGAL) and t.pending == 6
    for c in ("B1", "B2", "B3", "B4", "B5"):
        act(t, "shoe " + c)
    assert names(act(t, "shoe B6")) == ["draw", "skip", "turn"] and t.turn == 1
    assert len(t.hands[2]) == 9


# ---- U1-U2: when the window is open -------------------------------------------------------

def test_u1_a_wild_as_second_to_last_card_may_be_called_before_or_after_its_colour():
    """W as second-to-last card: the window opens with the play; the call counts before the colour or after."""
    # seed 001: "当你在打剩1张牌的时候（即打出倒数第2张牌），喊出UNO"; the colour is part of the same
    # play, and the next player has not acted yet (seed 000: "在下位玩者發牌前")
    t = deal({1: "W R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    assert names(act(t, "pad W")) == ["play", "uno_open", "colour_wanted"]
    assert names(act(t, "seat 1")) == ["uno"]
    act(t, "colour G")
    assert unchanged(t, "seat 3") == R_CALLED            # no catch after the call
    t = deal({1: "W R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad W", "colour G")
    assert t.window == 1 and names(act(t, "seat 1")) == ["uno"]


def test_u2_a_wild_as_second_to_last_card_caught_before_its_colour():
    """W as second-to-last, caught while its colour is wanted: the player draws 2; the colour stands once named."""
    # seed 001: "其他玩家可在下一张牌被打出之前指明，此时被指明的玩家罚抽牌2张"; play waits for them
    t = deal({1: "W R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad W")
    assert names(act(t, "seat 3")) == ["catch", "uno_close", "penalty"]
    assert names(act(t, "colour G")) == ["colour", "turn"] and t.turn == 2
    assert unchanged(t, "pad G1") == R_WAIT_DRAW
    act(t, "shoe B1", "shoe B2")
    assert hand(t, 1) == ["B1", "B2", "R2"] and t.colour == 2
    assert names(act(t, "pad G1")) == ["play", "uno_open", "turn"]


def test_u1_u2_after_a_skip_the_skipped_seat_and_the_next_may_still_catch():
    """S as second-to-last card: the skipped seat does not act, so the window stays open until the seat after it plays or draws."""
    # seed 001: "在下一张牌被打出之前"; seed 004: "轮到对方下家出牌包含自【牌库】取牌或自他手中的牌"
    for catcher in (2, 3):
        t = deal({1: "RS R1", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
        act(t, "pad RS")
        assert t.turn == 3 and t.window == 1
        evs = act(t, "seat %d" % catcher)
        assert names(evs) == ["catch", "uno_close", "penalty"] and evs[0][1:] == (catcher, 1)
    t = deal({1: "RS R1", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
    act(t, "pad RS", "shoe B1")                       # seat 3 draws: too late now
    assert t.window == 0 and unchanged(t, "seat 2") == R_NOTHING


def test_u1_t3_a_draw_two_as_second_to_last_card_the_victims_first_draw_closes_the_window():
    """D as second-to-last card: the next seat's drawing of the 2 is its act, so it closes the window."""
    # seed 004: "玩家也不能在轮到对方下家出牌之后检举他…轮到对方下家出牌包含自【牌库】取牌" — the next
    # seat takes cards from the shoe (docs/rules.md, U1)
    t = deal({1: "RD R1", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
    act(t, "pad RD")
    assert t.window == 1 and t.turn == 2 and t.pending == 2
    assert names(act(t, "shoe B1")) == ["uno_close", "draw"]
    assert unchanged(t, "seat 3") == R_NOTHING
    t = deal({1: "RD R1", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
    act(t, "pad RD")
    assert names(act(t, "seat 3")) == ["catch", "uno_close", "penalty"]
    evs = act(t, "shoe B1")                           # the caught seat draws first
    assert names(evs) == ["draw"] and evs[0][1] == 1 and evs[0][3] == W_CAUGHT


def test_u1_h6_two_players_after_a_skip_the_window_lasts_until_its_player_acts_again():
    """Two players, S as second-to-last: the S's player is the next to act; the other may catch until it plays or draws."""
    # seed 002 (两人对玩): "某位玩家打出Skip牌，该玩家可以继续打出下一张牌"; the window lasts until
    # the next player acts (seed 004: 自【牌库】取牌或自他手中的牌), here the S's player itself
    t = deal({1: "RS G2", 2: "Y1 Y3"}, start="R5")
    act(t, "pad RS")
    assert t.turn == 1 and t.window == 1
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]
    t = deal({1: "RS G2", 2: "Y1 Y3"}, start="R5")
    act(t, "pad RS")
    assert names(act(t, "shoe B7")) == ["uno_close", "draw", "turn"]   # G2 does not fit: it drew
    assert unchanged(t, "seat 2") == R_NOTHING


def test_u1_t2_a_seat_that_draws_off_its_last_card_must_call_again():
    """A seat down to one card draws, then plays the drawn card: one card again, a new window, a new call."""
    # seed 001: "当你在打剩1张牌的时候（即打出倒数第2张牌），喊出UNO" — every time it plays its
    # second-to-last card
    t = deal({1: "R1 G2", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R1", "seat 1", "pad G1", "shoe Y5")   # seat 3 draws and cannot play
    act(t, "shoe G4")                                 # seat 1 draws a card that fits
    assert unchanged(t, "pad G2") == R_ONLY_DRAWN     # only the drawn card (T2)
    assert names(act(t, "pad G4")) == ["play", "uno_open", "turn"]
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]


def test_u2_m1_a_seat_not_caught_in_its_window_wins_and_scores_without_a_penalty():
    """A seat that never called and was not caught in time plays its last card: it wins, nothing owed."""
    # seed 000: "若不被及時發現則不可追究"
    t = deal({1: "R1 R2", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R1", "shoe B8")                       # no call; seat 2 draws: the window closes
    assert unchanged(t, "seat 3") == R_NOTHING
    act(t, "shoe B9")
    evs = act(t, "pad R2")
    assert names(evs) == ["play", "round_over", "score"]
    assert evs[1][1:] == (1, 1 + 3 + 8 + 1 + 2 + 9) and t.scores[1] == 24


# ---- C1: the challenge ------------------------------------------------------------------

def test_c1_t2_a_drawn_w4_played_from_a_hand_holding_the_colour_is_illegal():
    """A W4 just drawn and played at once while the hand holds the active colour: the challenge wins."""
    # seed 001: "+4只有出牌者手中没有与参照牌同颜色…才能合法出牌" — the hand it was played from,
    # whichever card was drawn last
    t = deal({1: "R1 G2", 2: "G1 G3", 3: "Y1 Y2"}, start="R5")
    act(t, "shoe W4", "pad W4", "colour B")
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_ILLEGAL) and evs[1][1:] == (1, 4, W_W4_ILLEGAL)
    assert t.turn == 2 and t.pending == 0


def test_c1_u2_the_w4s_victim_may_catch_its_player_and_then_challenge():
    """W4 as second-to-last, no call: its victim catches (2) and then challenges (4 more for an illegal W4)."""
    # seed 000: "在下位玩者發牌前被其他人發現，則需罰2張牌" (a press, not a play or draw); seed 004:
    # "只有被罚抽4张牌的人可以提出质疑" (before it draws)
    t = deal({1: "W4 R2 R3", 2: "G1 G3 G5", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad R3", "shoe Y5", "shoe Y6")            # seat 1 holds W4 R2, the others drew
    act(t, "pad W4", "colour G")
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]
    act(t, "shoe B1", "shoe B2")
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_ILLEGAL) and evs[1][1:] == (1, 4, W_W4_ILLEGAL)
    for c in ("B3", "B4", "B5", "B6"):
        act(t, "shoe " + c)
    assert len(t.hands[1]) == 7 and t.turn == 2
    assert names(act(t, "pad G1")) == ["play", "turn"]


# ---- T2 and T4 --------------------------------------------------------------------------

def test_t2_draw_until_the_playable_card_drawn_may_be_kept_by_passing():
    """draw=until alone: the seat draws until a card fits, then may keep it and pass."""
    # seed 002: "若玩家无牌可出，要一直抽到可以出牌为止。注：该规则下，建议搭配规则'强制出牌'" —
    # forced play is a separate rule; without it the drawn card may be kept (seed 001: "也可以保留")
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="B5", draw="until")
    act(t, "shoe Y7", "shoe B9")
    assert names(act(t, "seat 1")) == ["pass", "turn"] and t.turn == 2
    assert hand(t, 1) == ["B9", "R1", "R2", "Y7"]


def test_t2_draw_until_a_seat_drawing_on_may_play_no_card_from_its_hand():
    """draw=until: a seat that draws though B3 fits (no forced play), and draws R7, draws on;
    B3 from its hand is refused meanwhile (a misplay with misplay set); a drawn card that fits
    may be played."""
    # seed 001: "抽牌后只能打出抽到的牌，不能从原有手牌中出牌"; seed 002: "要一直抽到可以出牌为止"
    for misplay in (0, 2):
        t = deal({1: "R1 G2 B3", 2: "G1 G4 G6"}, start="B5", draw="until", misplay=misplay)
        act(t, "shoe R7")                 # R7 fits no B5: the seat draws on
        assert t.turn == 1 and t.drawn == -2
        before = t.owes(1)
        evs = act(t, "pad B3")
        assert evs[0] == (REJECT, R_ONLY_DRAWN, 1, evs[0][3]) and t.owes(1) == before + misplay
        if misplay:
            act(t, "shoe G9", "shoe Y9")   # the misplay's 2 (drawn first: debts)
        evs = act(t, "shoe B2")            # fits: the draws stop here
        assert t.drawn >= 0 and names(act(t, "pad B2"))[0] == "play" and t.turn == 2


def test_t2_p1_draw_until_with_forced_play_penalty_cards_that_fit_oblige_nothing():
    """draw=until, forced play, misplay=2: drawing on, a hand card's misplay brings B2 B3, which
    fit; they are no drawn card of the turn: the seat draws on (no must-play) until Y8, B9."""
    t = deal({1: "R1 G2 Y3", 2: "G1 G4 G6"}, start="B5", draw="until", forced="yes", misplay=2)
    act(t, "shoe R7")
    assert names(act(t, "pad R1")) == ["reject", "penalty"]
    act(t, "shoe B2", "shoe B3")             # the penalty: both fit B5
    evs = act(t, "pad B2")                   # a misplay again: 2 more
    assert t.drawn == -2 and evs[0][:2] == (REJECT, R_ONLY_DRAWN) and names(evs)[1] == "penalty"
    act(t, "shoe G8", "shoe G9")
    assert names(act(t, "shoe Y8")) == ["draw"] and t.drawn == -2
    act(t, "shoe B9")
    assert t.drawn >= 0 and names(act(t, "pad B9"))[0] == "play"


def test_t4_a_reshuffle_keeps_a_wild_on_top_and_its_named_colour():
    """The shoe runs out with a W on the pile: the pile but the W is shuffled in; the named colour stays."""
    # seed 000: "將廢牌堆中的牌(最上一張除外)重洗過"; seed 001: "最上一张除外，继续作为参照牌"
    from kit import empty_the_shoe
    t = deal({1: "W R2 R3", 2: "G1 G3 G4"}, start="R5")
    act(t, "pad W", "colour B")
    empty_the_shoe(t)
    assert t.pile == 2 and t.due
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle"] and t.shoe == 1 and t.pile == 1
    assert t.colour == 3 and DECK[t.top] == 0x40 | 13     # the W, blue


# ---- M1 with M4: partners reach the target together ------------------------------------------

def test_m1_m4_partners_reach_the_target_together():
    """Teams: a member's win scores every member alike; both pass the target at once and the match is theirs."""
    # seed 001: "当某一玩家出完手中的牌获胜之后，该队全员获胜…败方队员手中持牌的点数和计入为胜方的分数"
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "R3 Y2", 4: "B7 B6"}, start="R5", teams=2, target=30)
    evs = act(t, "pad R1", "seat 1", "shoe G2", "pad R3", "seat 3", "shoe B1", "pad R2")
    assert names(evs) == ["play", "round_over", "score", "score", "match_over"]
    assert t.scores[1] == t.scores[3] == 31 + 14 and evs[-1][1] == 1


# ---- P2 with T3: the victim of a D ----------------------------------------------------------

def test_p2_t3_a_d_victim_slow_to_draw_its_two_is_charged():
    """turn_timer: a seat that owes a D's 2 and sits on them past its time draws 2 more."""
    # seed 003: "超過5秒不出牌者，罰摸2張牌": the turn seat's act is to draw what the D costs it
    # (docs/rules.md, P2); penalty draws of other seats stop its time, its own D's do not
    t = deal({1: "RD R1 R2", 2: "G1 G3 G4", 3: "Y1 Y2 Y3"}, start="R5", turn_timer=10)
    act(t, "tick 1000", "pad RD")
    assert names(act(t, "tick 9000")) == ["timer_warn"]
    evs = act(t, "tick 11001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)
    for c in ("B1", "B2", "B3"):
        act(t, "shoe " + c)
    evs = act(t, "shoe B4")
    assert names(evs) == ["draw", "skip", "turn"] and len(t.hands[2]) == 7


# ---- H4, H5, H7 with the start card, the UNO window and the W4 challenge ----------------------

def test_s4_h4_h7_h5_a_start_0_passes_no_hand_a_start_4_opens_no_slap_and_neither_is_summed():
    """A 0 or a 4 turned up as the start card: no hand passes, no slap opens, nobody lays down on it."""
    # seed 003: "當有人打出數字零的時候他可以決定是否讓所有人換牌", "當有人打出數字四的時候所有人要立刻將手
    # 拍到這張牌上", "和任意一家打出的牌相等時": each is a card someone *plays*; the start card is
    # turned up (S4, "翻開牌庫"), nobody's play (docs/rules.md)
    for start in ("R0", "R4"):
        t = deal({1: "R1 R2 B7", 2: "G1 G3 B8", 3: "Y0 Y2 B9"}, start=start, zero_rotate="yes",
                 slap4="yes", sum_win="yes")
        assert hand(t, 1) == ["B7", "R1", "R2"] and hand(t, 2) == ["B8", "G1", "G3"]
        assert t.slap == 0
        assert [t.hand_sum(s) for s in (1, 2, 3)] == [-1, -1, -1]
        assert unchanged(t, "seat 2 long") == R_START_SUM  # (it had said "nothing to challenge")
        assert names(act(t, "pad R1")) == ["play", "turn"] and t.turn == 2


def test_u2_u3_h4_a_late_catch_after_a_rotation_accuses_a_seat_no_longer_holding_its_last_card():
    """Seat 3 forgets UNO; seat 1's 0 closes the window and passes seat 3's last card on: a press then is a false call."""
    # seed 000: "若不被及時發現則不可追究" — a catch after the window costs nobody while the seat
    # still holds its last card; after the 0 seat 3 holds seat 2's hand, and seed 002: "如果你手中
    # 并非剩下一张牌而被别人指出说你没喊UNO，那么那个人要从牌堆中抽取两张牌" (docs/rules.md)
    t = deal({1: "R0 R1 R2", 2: "G1 G2 G3", 3: "R6 R8 Y3"}, start="R7", dealer=2,
             zero_rotate="yes", false_uno=2, false_catch=2)
    act(t, "pad R6", "shoe B2", "shoe B3", "pad R8")     # seat 3 down to Y3, no call
    assert names(act(t, "pad R0")) == ["uno_close", "play", "rotate", "turn"]
    assert hand(t, 1) == ["Y3"] and len(t.hands[3]) == 4
    assert unchanged(t, "seat 1") == R_NOTHING           # it holds one card: no false call
    evs = act(t, "seat 2")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (2, 2, W_FALSE_UNO)


def test_c1_h4_a_w4_from_a_hand_passed_by_a_0_is_judged_from_that_hand_its_player_draws():
    """Seat 1's 0 passes its R1 W4 to seat 2, which plays the W4 holding red: the challenge costs seat 2 the 4."""
    # seed 004: "玩家只能在玩家手上没有与上一位玩家出的牌相同颜色时出这张牌" — the hand the W4 is
    # played from, as it was then (C1); the seat that played it draws, not the hand's old holder
    t = deal({1: "R0 R1 W4", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", zero_rotate="yes")
    act(t, "pad R0")
    assert hand(t, 2) == ["R1", "W4"]
    act(t, "pad W4", "colour B")
    evs = act(t, "seat 3 long")
    assert evs[0][1:] == (3, 2, V_ILLEGAL) and evs[1][1:] == (2, 4, W_W4_ILLEGAL)
    assert t.owes(3) == 0 and t.owes(1) == 0


def test_h7_p1_p2_while_a_slap_is_open_a_card_read_costs_nothing_and_no_time_runs():
    """A 4 opens a slap: a card read waits free (misplay=2), the turn seat's time starts when the slap's penalty is drawn."""
    # seed 003: "當有人打出數字四的時候所有人要立刻將手拍到這張牌上" — play waits for the slap; "打錯牌…
    # 超過5秒不出牌者，罰摸2張牌": no card was played wrongly and the seat was not free to act
    t = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9"}, start="R5", slap4="yes",
             misplay=2, turn_timer=5)
    act(t, "tick 0", "pad R4")
    assert unchanged(t, "pad G2") == R_WAIT_SLAP
    assert act(t, "tick 8000") == []
    act(t, "seat 2", "seat 3")                   # seat 1 slaps last: 2 cards
    assert t.debts == [[1, 2, W_SLAP]] and act(t, "tick 12000") == []
    act(t, "shoe B8", "shoe B9")                 # the wait is over: seat 2's time from 12000
    assert names(act(t, "tick 16500")) == ["timer_warn"] and t.turn == 2
    evs = act(t, "tick 17001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)


def test_h7_u1_u2_a_4_as_second_to_last_card_each_seats_first_press_is_its_slap():
    """A 4 leaves its player one card: its first press is its slap, the second its call; another's second press catches it."""
    # seed 003: "所有人要立刻將手拍到這張牌上" (every seat slaps, the 4's player too) and "沒喊UNO而又被
    # 人拍桌子捉到" — the button is the slap first (docs/buttons.md); the window stays open
    # through the slap, as no next player has played or drawn
    t = deal({1: "R4 R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", slap4="yes")
    assert names(act(t, "pad R4")) == ["play", "uno_open", "slap_open", "turn"]
    assert names(act(t, "seat 1")) == ["slap"] and t.window == 1
    assert names(act(t, "seat 1")) == ["uno"]
    assert names(act(t, "seat 2")) == ["slap", "penalty"] and t.debts == [[3, 2, W_SLAP]]
    t = deal({1: "R4 R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", slap4="yes")
    act(t, "pad R4", "seat 2")
    evs = act(t, "seat 2")
    assert names(evs) == ["catch", "uno_close", "penalty"] and evs[2][1:] == (1, 2, W_CAUGHT)
    evs = act(t, "seat 1")                       # its slap, not its call: seat 3 slaps last
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (3, 2, W_SLAP)


# ---- M3: a seat out of the round, the next dealer ----------------------------------------------

def test_m3_u2_h7_a_seat_out_neither_catches_nor_slaps_and_pays_nothing():
    """Elimination: seat 1 is out; seat 2 forgets UNO, then plays a 4: seat 1's press catches nothing, slaps nothing, costs nothing."""
    # seed 003 (淘汰制): "假設這是四人局，有一人勝出，則四人局變成三人局" — the seat out is no longer in
    # the game: only "其它玩家" in it catch (U2) and slap (H7); its press is "not in the game"
    t = deal({1: "R1 G1 B1", 2: "B4 B7 G5", 3: "Y2 Y3 Y5", 4: "Y6 Y8 Y9"}, start="R5",
             elimination="yes", slap4="yes", false_uno=2, multi="same")
    act(t, "pad R1", "pad G1", "pad B1")        # seat 1 out on a multi-play
    assert t.finished == [1] and t.turn == 2
    act(t, "pad B7", "shoe G2", "shoe R3")
    assert names(act(t, "pad B4")) == ["play", "uno_open", "slap_open", "turn"]
    assert t.window == 2 and t.slap == (1 << 2) | (1 << 3) | (1 << 4)
    assert unchanged(t, "seat 1") == R_NOT_SEATED
    assert unchanged(t, "seat 1 long") == R_NOT_SEATED


def test_s2_m3_after_an_elimination_round_the_first_seat_out_deals():
    """Elimination: seat 1 went out first and wins; after the round it deals, though seat 3 lost last."""
    # seed 002: "在淘汰制中，最快出完手中牌的人获胜…(输的人当然要他洗牌啦)" — people shuffle; the
    # table has the winner deal (S2: "本局赢家为下一局的庄家"), docs/rules.md
    t = deal({1: "R1 R2", 2: "R9 R8", 3: "Y7 B7"}, start="R5", elimination="yes")
    act(t, "pad R1", "seat 1", "pad R9", "seat 2", "shoe B1", "pad R2")
    evs = act(t, "pad R8")
    assert names(evs)[-2:] == ["round_over", "score"] and t.winner == 1
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[1][1:] == (2, 1) and t.drawer() == 2


def test_t5_m4_a_member_going_out_on_a_w4_the_next_seat_draws_and_both_partners_score_it():
    """Teams: seat 1 goes out on a W4; seat 2 draws the 4 (no colour, no challenge) and seats 1 and 3 score them."""
    # seed 002: "若赢家最后一张打出的是罚抽2张牌或罚抽4张牌，此局游戏已结束，但赢家的下一家仍需受罚";
    # seed 004: "而他们所抽出的牌也要计分"; "以队为单位来进行计算"
    t = deal({1: "W4 R1", 2: "G9 G8", 3: "Y7 Y3", 4: "BS B8"}, start="R5", teams=2)
    act(t, "pad R1", "seat 1", "shoe B2", "shoe B3", "shoe B6")
    assert names(act(t, "pad W4")) == ["play", "turn", "owe"] and t.owes(2) == 4
    assert unchanged(t, "colour G") == R_NO_COLOUR
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    evs = act(t, "shoe Y1", "shoe Y2", "shoe Y4", "shoe Y5")
    assert names(evs) == ["draw", "round_over", "score", "score"]
    assert evs[1][1:] == (1, 9 + 8 + 2 + 1 + 2 + 4 + 5 + 20 + 8 + 6)
    assert t.scores[1] == t.scores[3] == 65


# ---- H1-H3, U6, P2 against each other -----------------------------------------------------

def test_p2_h3_the_next_seats_time_runs_from_the_last_card_of_a_multi_play():
    """turn_timer=5, multi: seat 1 lays R5 at 1 s and G5 at 4 s; seat 2's time runs from 4 s, not 1 s."""
    # seed 002: "玩者每次出牌不限一张" — the cards laid are one play; seed 003: "超過5秒不出牌者，罰摸
    # 2張牌" charges the seat that sits, and seat 2 cannot know seat 1 is done before its last
    # card. It had been charged at 6 s for a number (an S's skip started its time again: no
    # multi-play of numbers or Ds did)
    t = deal({1: "R5 G5 B5 Y1", 2: "G2 G3 B3 Y2", 3: "Y1 Y2 Y3 Y4"}, start="R4", multi="same",
             turn_timer=5)
    t.feed((IN_TICK, 1000))
    t.feed((IN_PAD, b"R5a"), 1000)
    t.feed((IN_PAD, b"G5a"), 4000)
    assert t.turn == 2 and t.deadline() == 7000
    assert act(t, "tick 6001") == [] and names(act(t, "tick 7000")) == ["timer_warn"]
    evs = act(t, "tick 9001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)


def test_h2_a_seat_may_jump_in_on_its_own_card_and_nothing_adds_up():
    """Jump-in without multi-play: seat 1 plays RD, then its other RD out of turn: seat 2 owes 2, not 4."""
    # seed 000: "搶在正常順序出牌者前面出此牌，然後由搶牌者下家繼續出牌" — ahead of the seat in turn,
    # which seat 1 is not; seed 001 leaves out only that seat ("乙（不是甲的下家）抢+2"). A jump is no
    # multi-play: "抢牌不是叠加…前一张被抢的功能牌失效" (seed 001), so the first RD's 2 are void
    t = deal({1: "RD RD G2", 2: "B1 G3 B3", 3: "Y1 Y2 Y3"}, start="R4", jump_in="actions")
    act(t, "pad RD")
    evs = act(t, "pad RD")
    assert names(evs) == ["jump_in", "play", "uno_open", "turn", "owe"]
    assert t.turn == 2 and t.owes(2) == 2
    t = deal({1: "R5 R5 G2", 2: "B1 G3 B3", 3: "Y1 Y2 Y3"}, start="R4", jump_in="identical",
             multi="same")
    act(t, "pad R5")
    assert names(act(t, "pad R5")) == ["play", "uno_open"]   # with H3 on it is the multi-play


def test_u6_u1_a_seat_that_called_on_identical_cards_calls_again_on_its_last_one():
    """uno_identical: seat 1 calls on R5 R5, later plays one R5 and does not call: seat 2 catches it."""
    # seed 000: "當玩家手裡只有一張牌或者只有有多張完全相同的牌的時候要大喊" — one card and identical
    # cards are each a time to call; the call on R5 R5 closed with its window (U1)
    t = deal({1: "R5 R5 G5", 2: "B5 G3 B3"}, start="G4", uno_identical="yes")
    assert names(act(t, "pad G5", "seat 1")) == ["uno"]
    act(t, "pad B5")
    assert names(act(t, "pad R5")) == ["play", "uno_open", "turn"]
    assert names(act(t, "seat 2")) == ["catch", "uno_close", "penalty"]


def test_h2_h1_the_seat_a_d_lands_on_cannot_jump_it_but_a_third_seat_can():
    """jump_in=actions, no stacking: seat 2 owes seat 1's RD and holds the other RD: refused; seat 3's RD jumps."""
    # seed 001: "如甲出+2，乙（不是甲的下家）抢+2，则是乙的下家摸2张牌" — the jumper is not the seat the
    # +2 lands on; that seat's D would be a stack (H1: "轮序的下家可以出+2牌来累加", off here)
    t = deal({1: "RDa G1 G2", 2: "RDb G3 B3", 3: "Y1 Y2 Y3"}, start="R4", jump_in="actions")
    act(t, "pad RDa")
    assert unchanged(t, "pad RDb") == R_MUST_DRAW
    t = deal({1: "RD G1 G2", 2: "B1 G3 B3", 3: "RD Y2 Y3"}, start="R4", jump_in="actions")
    act(t, "pad RD")
    assert names(act(t, "pad RD")) == ["jump_in", "play", "turn", "owe"]
    assert t.owes(2) == 0 and t.turn == 1 and t.owes(1) == 2


def test_h3_t3_three_s_with_three_players_the_third_is_a_new_turn():
    """3 players, multi-play: RS and GS skip seats 2 and 3, the turn is seat 1's again; its BS
    is a new turn's card, skipping seat 2: seat 3 plays (not seat 2, as a count of 3 skips)."""
    # seed 000: "若玩者出多於一張"Skip"牌，被跳過的玩者數目等於發牌數目" — the skips run out at the
    # player's own seat: no seat is skipped twice, nor the player itself (docs/rules.md)
    t = deal({1: "RS GS BS R1 R2", 2: "G1 G2 G3 G4 G6", 3: "Y1 Y2 Y3 Y4 Y6"}, start="R5", multi="same")
    act(t, "pad RS")
    assert t.turn == 3
    act(t, "pad GS")
    assert t.turn == 1 and t.chain == 1
    evs = act(t, "pad BS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 2 and t.turn == 3


# ---- C1 and P2: audit 6 ---------------------------------------------------------------------

def test_c1_h1_h6_two_players_a_w4_stacked_on_a_w4_is_challenged_by_the_first_w4s_player():
    """Two players, stacking: seat 1's W4, seat 2 stacks a W4; seat 1 owes 8 and alone may
    challenge seat 2's W4. Illegal: seat 2 draws the 8 and seat 1 plays; legal: seat 1 draws
    10 and is skipped, the turn is seat 2's."""
    # seed 000 (二人玩UNO的新規則補充): "Wild Drop4也具備累積性…除了同樣打出Wild Drop4可以化解"; seed
    # 004: "只有被罚抽4张牌的人可以提出质疑" — seat 2 answered with its own W4 and owes nothing;
    # seat 1, the W4 player, is now the seat that owes and judges only seat 2's W4
    t = deal({1: "W4a R1 Y6", 2: "W4b G2 B3"}, start="B5", stacking="on")
    act(t, "pad W4a", "colour G", "pad W4b", "colour R")   # seat 2 held G2: illegal
    assert t.turn == 1 and t.pending == 8 and t.w4_from == 2 and t.w4_illegal
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    evs = act(t, "seat 1 long")
    assert evs[0][1:] == (1, 2, V_ILLEGAL) and evs[1][1:] == (2, 8, W_W4_ILLEGAL)
    for c in ("Y1", "Y2", "Y3", "Y4", "Y5", "Y7", "Y8", "Y9"):
        act(t, "shoe " + c)
    assert len(t.hands[2]) == 10 and t.turn == 1 and t.colour == 0   # the colour stands
    assert names(act(t, "pad R1")) == ["play", "uno_open", "turn"]
    t = deal({1: "W4a R1 Y6", 2: "W4b B2 B3"}, start="B5", stacking="on")
    act(t, "pad W4a", "colour G", "pad W4b", "colour R")   # seat 2 held no green: legal
    evs = act(t, "seat 1 long")
    assert evs[0][1:] == (1, 2, V_LEGAL) and t.pending == 10
    for c in ("R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "G1"):
        act(t, "shoe " + c)
    evs = act(t, "shoe G3")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 1 and t.turn == 2
    assert len(t.hands[1]) == 12


def test_c1_h1_three_players_after_a_reverse_the_stacked_w4_is_challenged_by_the_seat_it_lands_on():
    """Three players, stacking: seat 1's R turns play to seat 3, whose W4 lands on seat 2; seat 2
    stacks a W4, which lands on seat 1 (the direction of play): seat 1 alone may challenge it."""
    # seed 002: "下家可以跟+4牌来转移或累加罚摸的牌，由最后一个没有+4牌的罚摸"; seed 004: "只有被罚抽4张牌的人
    # 可以提出质疑" — the seat that owes the total, wherever the direction sends it
    t = deal({1: "RR G1 G2", 2: "W4b R3 Y4", 3: "W4a B1 B2"}, start="R5", stacking="on")
    act(t, "pad RR")
    assert t.turn == 3
    act(t, "pad W4a", "colour Y")                # seat 3 held no red: legal
    assert t.turn == 2 and t.w4_from == 3 and not t.w4_illegal
    act(t, "pad W4b", "colour G")                # seat 2 held Y4 of the colour yellow: illegal
    assert t.turn == 1 and t.pending == 8 and t.w4_from == 2 and t.w4_illegal
    assert unchanged(t, "seat 3 long") == R_NO_CHALLENGE
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    evs = act(t, "seat 1 long")
    assert evs[0][1:] == (1, 2, V_ILLEGAL) and t.owes(2) == 8 and t.owes(1) == 0


def test_c1_m3_a_seat_going_out_on_a_w4_can_be_challenged_and_the_challenge_fails():
    """Elimination: seat 1 goes out on a W4 and names the colour; the round goes on, seat 2 owes
    4 and may challenge, but a last W4 comes from a hand holding nothing else: legal, seat 2
    draws 6 and seat 1, out, draws nothing."""
    # seed 000: "若出牌者真的無其他符合顏色和數字的牌（黑色牌不算）可出，則挑戰失敗者需罰抽牌6張" — a
    # last card leaves no other card; seed 003 (淘汰制): "有一人勝出，則四人局變成三人局，游戲繼續"
    t = deal({1: "W4 R1", 2: "B1 B2", 3: "Y1 Y2"}, start="R5", elimination="yes")
    act(t, "pad R1", "seat 1", "shoe G9", "shoe G8")
    evs = act(t, "pad W4")
    assert names(evs) == ["play", "out", "colour_wanted"]
    act(t, "colour B")
    assert t.turn == 2 and t.pending == 4 and t.w4_from == 1 and not t.w4_illegal
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_LEGAL) and t.pending == 6 and t.owes(1) == 0
    assert t.active == [2, 3] and not t.hands[1]


def test_c1_m3_m4_a_w4_landing_on_its_players_partner_is_that_partners_to_challenge():
    """Elimination and teams (1 and 3, 2 and 4): seat 2 is out, so seat 1's W4 lands on its
    partner seat 3; seat 3 may challenge it (seat 1 draws 4), seat 4 may not."""
    # seed 004: "只有被罚抽4张牌的人可以提出质疑" — the seat that owes, partner or not; seed 002:
    # "下家有权利质疑你的出牌是否合法"
    t = deal({1: "W4 R1 R2", 2: "R3 R4 R6", 3: "Y1 Y2 Y3", 4: "B1 B2 B3"}, start="R5",
             elimination="yes", teams=2)
    act(t, "pad R1", "pad R3", "shoe G7", "shoe G8", "shoe G9")     # seat 1 keeps its cards
    act(t, "pad R4", "seat 2", "shoe B7", "shoe B8", "shoe B9", "pad R6")
    assert t.finished == [2] and t.active == [1, 3, 4]
    act(t, "shoe Y7", "shoe Y8")
    act(t, "pad W4", "colour B")                 # seat 1 holds R2 of the colour red: illegal
    assert t.turn == 3 and t.w4_from == 1 and t.w4_illegal
    assert unchanged(t, "seat 4 long") == R_NO_CHALLENGE
    evs = act(t, "seat 3 long")
    assert evs[0][1:] == (3, 1, V_ILLEGAL) and evs[1][1:] == (1, 4, W_W4_ILLEGAL)


def test_c1_p1_a_misplay_penalty_drawn_before_the_challenge_leaves_the_challenge_open():
    """misplay=2: seat 2 owes a W4's 4 and taps a card (a misplay: 2 cards); once it has drawn
    them it may still challenge: its misplay's cards are not the W4's draws."""
    # seed 004: "只有被罚抽4张牌的人可以提出质疑"; seed 001: "下家有权利质疑你的出牌是否合法" — a right of
    # the seat before it draws the W4's cards; seed 000: "若玩者發錯牌，需罰抽2張牌" is another penalty
    t = deal({1: "W4 R1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", misplay=2)
    act(t, "pad W4", "colour B")
    evs = act(t, "pad B1")
    assert names(evs) == ["reject", "penalty"] and evs[0][1] == R_MUST_DRAW
    act(t, "shoe G5", "shoe G6")
    assert t.pending == 4 and t.w4_from == 1
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_ILLEGAL) and t.owes(1) == 4 and t.owes(2) == 0


def test_c1_t4_an_empty_shoe_while_a_challenges_draws_are_drawn():
    """7 x 15 dealt, two cards in the shoe: a lost challenge's 6 get the shoe's two and the one
    card the reshuffle brings back, the rest is waived and the challenger still loses its turn;
    a won challenge's 4 alike, and the challenger plays."""
    # seed 000: "若牌庫中的牌一用完…則將廢牌堆中的牌(最上一張除外)重洗過" — only the pile but its top;
    # draws no card is left for are waived (T4), the verdict's skip stands (seed 001: "检举失败，
    # 则被跳过回合"; "下家若检举成功，则仍然可以出牌")
    from uno.cards import NCARDS, copy_name

    def dealt(start):
        keep = (start, "W4a", "G9a", "G9b")
        cards = ["W4a"] + [copy_name(c) for c in range(NCARDS) if copy_name(c) not in keep]
        return deal(dict((s + 1, " ".join(cards[s * 15:(s + 1) * 15])) for s in range(7)),
                    start=start)
    t = dealt("B5a")                             # seat 1 holds reds, no blue: legal
    act(t, "pad W4a", "colour G")
    assert act(t, "seat 2 long")[0][1:] == (2, 1, V_LEGAL)
    evs = act(t, "shoe G9a", "shoe G9b")
    assert names(evs) == ["draw", "reshuffle"]
    act(t, "shuffle")
    evs = act(t, "shoe B5a")
    assert names(evs) == ["draw", "waive", "skip", "turn"] and evs[1][1:] == (2, 3)
    assert t.turn == 3 and len(t.hands[2]) == 18
    t = dealt("R5a")                             # seat 1 holds red: illegal
    act(t, "pad W4a", "colour G")
    assert act(t, "seat 2 long")[0][1:] == (2, 1, V_ILLEGAL)
    act(t, "shoe G9a", "shoe G9b", "shuffle")
    evs = act(t, "shoe R5a")
    assert names(evs) == ["draw", "waive"] and evs[1][1:] == (1, 1)
    assert t.turn == 2 and len(t.hands[1]) == 17 and not t.debts and not t.pending


def test_c1_h1_t5_a_last_w4_stacked_on_a_w4_passes_the_total_unchallenged():
    """Stacking: seat 2 answers seat 1's W4 with its last card, a W4: the round is won, seat 3
    draws the 8 for the score and challenges nothing (neither W4: it answered neither)."""
    # seed 002: "若赢家最后一张打出的是+2牌或+4牌，游戏虽已结束但赢家的下一家仍需受罚" and "由最后一个没有
    # +4牌的罚摸" (the last seat without a +4 draws the total); seed 004: "只有被罚抽4张牌的人可以提出
    # 质疑" — seat 2, which owed seat 1's 4, answered it instead
    t = deal({1: "B1 W4a G1", 2: "B7 B8 W4b", 3: "B3 B4 Y1"}, start="B5", stacking="on")
    act(t, "pad B1", "pad B7", "pad B3", "shoe R9", "pad B8", "seat 2", "pad B4")
    act(t, "pad W4a", "colour G")
    evs = act(t, "pad W4b")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (3, 8, W_STACK)
    assert t.want == 0 and t.w4_from == 0
    assert unchanged(t, "seat 3 long") == R_NO_CHALLENGE
    assert unchanged(t, "seat 1 long") == R_NO_CHALLENGE
    for c in ("R1", "R2", "R3", "R4", "R6", "R7", "R8"):
        act(t, "shoe " + c)
    evs = act(t, "shoe Y9")
    assert names(evs) == ["draw", "round_over", "score"]
    assert evs[1][1:] == (2, 1 + 9 + (1 + 1 + 2 + 3 + 4 + 6 + 7 + 8 + 9))


def test_c1_h2_a_challenged_w4_is_jumped_only_once_the_verdicts_draws_are_drawn():
    """jump_in=actions: after a won challenge, a W4 read while the W4's player draws its 4 waits
    (no cost); then seat 3's identical W4 jumps the judged W4 like any top card. After a lost
    challenge, a jump while the challenger draws its 6 is a misplay."""
    # seed 002: "当自己手上有与一个玩家出的牌完全一样的…时，可以抢先出牌，中间的玩家失去出牌机会" — the W4
    # on the pile is a top card; the verdict's draws are owed first (seed 001: "当被+2、+4罚抽牌时，要从
    # 牌堆顶抽取对应的牌，且不能再出牌")
    t = deal({1: "W4a R1 R2", 2: "B1 B2 B3", 3: "W4b Y2 Y3"}, start="R5", jump_in="actions",
             misplay=2)
    act(t, "pad W4a", "colour B", "seat 2 long")
    assert unchanged(t, "pad W4b") == R_WAIT_DRAW
    act(t, "shoe G1", "shoe G2", "shoe G3", "shoe G4")
    evs = act(t, "pad W4b", "colour Y")
    assert names(evs) == ["colour", "turn", "owe"] and t.turn == 1 and t.w4_from == 3
    assert t.owes(2) == 0
    t = deal({1: "W4a G1 G2", 2: "B1 B2 B3", 3: "W4b Y2 Y3"}, start="R5", jump_in="actions",
             misplay=2)
    act(t, "pad W4a", "colour B", "seat 2 long")
    evs = act(t, "pad W4b")
    assert names(evs) == ["reject", "penalty"] and evs[0][1] == R_NOT_TURN
    assert evs[1][1:] == (3, 2, W_MISPLAY)


def test_p2_c1_a_challenge_starts_the_challengers_time_again():
    """turn_timer=10: seat 2 owes a W4's 4 from 1 s, is warned at 9 s and challenges at 10.5 s;
    the W4 was legal and it owes 6: its time runs from the challenge (warned again at 18.5 s,
    charged past 20.5 s), not from 1 s (charged at 11 s, half a second after the verdict)."""
    # seed 003: "超過5秒不出牌者，罰摸2張牌" charges the seat that sits; the challenge is the seat's
    # act (seed 001: "下家有权利质疑…这时你得把手中的牌给他看"), as each card it draws is
    t = deal({1: "W4 G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", turn_timer=10)
    act(t, "tick 1000", "pad W4", "colour Y")
    assert names(act(t, "tick 9000")) == ["timer_warn"]
    evs = t.feed((IN_SEAT, 2, 1), 10500)
    assert names(evs) == ["challenge", "penalty"] and t.pending == 6
    assert t.deadline() == 18500 and act(t, "tick 11001") == []
    assert names(act(t, "tick 18500")) == ["timer_warn"]
    evs = act(t, "tick 20501")
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)


def test_p2_h2_a_jump_in_after_the_warning_gives_the_seat_in_turn_a_new_time():
    """turn_timer=10, jump_in: seat 2 is warned at 9 s; at 9.5 s seat 1 jumps in on its own R7,
    so seat 2's turn is a new one: its time runs from 9.5 s and it is warned again."""
    # seed 000: "搶在正常順序出牌者前面出此牌，然後由搶牌者下家繼續出牌" — the jump takes the turn, and
    # play goes on after the jumper with a new card to answer; seed 003: "超過5秒不出牌者" counts
    # from there
    t = deal({1: "R7 R7 G2", 2: "B1 B2 B3", 3: "B7 Y2 Y3"}, start="R5", turn_timer=10,
             jump_in="identical")
    act(t, "tick 1000", "pad R7")
    assert names(act(t, "tick 9000")) == ["timer_warn"]
    evs = t.feed((IN_PAD, b"R7b"), 9500)
    assert names(evs) == ["jump_in", "play", "uno_open", "turn"] and t.turn == 2
    assert act(t, "tick 11001") == [] and t.deadline() == 17500
    assert names(act(t, "tick 17500")) == ["timer_warn"]
    assert act(t, "tick 19500") == []
    evs = act(t, "tick 19501")
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)


def test_c1_h1_h3_a_w4_stacked_on_a_multi_plays_ds_is_legal_with_w4_on_d():
    """multi=same, stacking=w4_on_d: seat 1 lays RD and GD (seat 2 owes 4), seat 2 answers with a
    W4 while holding the colour: legal, so seat 3's challenge fails (8 + 2). With stacking=on a
    W4 answers no D."""
    # seed 002: "+4牌只能跟在+2或+4后面。或者没有与上家颜色一样的牌才可出" — after a +2 whatever the
    # hand; "玩者每次出牌不限一张" — the two Ds are one play, the last laid names the colour
    t = deal({1: "RD GD R1", 2: "W4 G2 R3", 3: "Y1 Y2 Y3"}, start="R5", stacking="w4_on_d",
             multi="same")
    act(t, "pad RD", "pad GD")
    assert t.turn == 2 and t.pending == 4
    act(t, "pad W4", "colour B")                 # seat 2 holds G2 of the colour green
    assert t.turn == 3 and t.pending == 8 and t.w4_from == 2 and not t.w4_illegal
    evs = act(t, "seat 3 long")
    assert evs[0][1:] == (3, 2, V_LEGAL) and t.pending == 10
    t = deal({1: "RD GD R1", 2: "W4 G2 R3", 3: "Y1 Y2 Y3"}, start="R5", stacking="on",
             multi="same")
    act(t, "pad RD", "pad GD")
    assert unchanged(t, "pad W4") == R_MUST_DRAW


def test_p2_h5_m3_a_sum_win_out_of_turn_leaves_the_turn_seats_time_running():
    """turn_timer=5, sum_win, elimination: seat 2 is warned at 4 s; seat 3 lays down Y1 Y3 B0 on
    seat 1's 4 at 4.5 s and goes out; seat 2 has not acted: its time runs on (charged past 6 s).
    When the turn seat itself lays down, that is its act: the next seat's time starts."""
    # seed 003: "超過5秒不出牌者，罰摸2張牌" charges the seat that sits; seed 000: "可以無視任何情況，攤
    # 牌勝出" — another seat's lay-down is no act of the turn seat (docs/rules.md, H5 and the UNO
    # window under M3)
    t = deal({1: "R4 G7 B1", 2: "G1 G2 G3", 3: "Y1 Y3 B0"}, start="R5", sum_win="yes",
             elimination="yes", turn_timer=5)
    act(t, "tick 1000", "pad R4")
    assert names(act(t, "tick 4000")) == ["timer_warn"]
    evs = t.feed((IN_SEAT, 3, 1), 4500)
    assert names(evs) == ["sum_win", "out"] and t.turn == 2 and t.deadline() == 6001
    evs = act(t, "tick 6001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)
    t = deal({1: "R4 G7 B1", 2: "G1 G3 B0", 3: "Y1 Y2 Y3"}, start="R5", sum_win="yes",
             elimination="yes", turn_timer=5)
    act(t, "tick 1000", "pad R4")
    assert names(act(t, "tick 4000")) == ["timer_warn"]
    evs = t.feed((IN_SEAT, 2, 1), 4500)
    assert names(evs) == ["sum_win", "out", "turn"] and t.turn == 3
    assert act(t, "tick 6001") == [] and t.deadline() == 7500
