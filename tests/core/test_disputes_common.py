"""Common table disputes, one test each, under the official rules (the defaults) and the
presets: the questions people argue over at UNO tables that no other test pinned yet. Named
after the rule ids they decide; the seeds' words (shared/seeds/) and docs/rules.md say why."""
from kit import act, deal, names, unchanged, hand
from uno.events import *


# ---- T1, T3: what may be played ---------------------------------------------------------

def test_t1_a_w_may_be_played_while_holding_the_active_colour():
    """A W is playable any time, even holding a card of the active colour, and may name that colour."""
    # seed 004: "玩家随时可出这张【万用牌】，即使玩家手中有其他可出的牌" and "可以改变正在出的牌色颜色
    # （包含本来的颜色）"
    t = deal({1: "W R1 B1", 2: "R2 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    assert names(act(t, "pad W")) == ["play", "colour_wanted"]
    assert names(act(t, "colour R")) == ["colour", "turn"] and t.colour == 0
    assert names(act(t, "pad R2")) == ["play", "turn"]


def test_t1_an_s_does_not_go_on_an_r_of_another_colour():
    """Action cards match by colour or by the same symbol: a green S on a red R is refused."""
    # seed 004: "【阻挡牌】…必须是与上一家同样的颜色的牌或者是同样的【阻挡牌】时才能出"
    t = deal({1: "RR B1 B2", 2: "Y1 Y2 Y3", 3: "GS GR B9"}, start="R5")
    act(t, "pad RR")                      # three seats: the direction turns, seat 3 plays
    assert t.turn == 3
    assert unchanged(t, "pad GS") == R_UNPLAYABLE
    assert names(act(t, "pad GR")) == ["play", "reverse", "turn"]


def test_t1_on_a_w_only_the_named_colour_or_a_wild_goes():
    """On a W the named colour is what counts: a card of the colour the W replaced is refused."""
    t = deal({1: "W B1 B2", 2: "R7 G2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W", "colour G")
    assert unchanged(t, "pad R7") == R_UNPLAYABLE
    assert names(act(t, "pad G2")) == ["play", "turn"]


# ---- T2: drawing ------------------------------------------------------------------------

def test_t2_a_seat_may_draw_while_holding_a_card_that_fits():
    """Official rules: a seat may draw instead of playing (seed 000: "也可假裝手上沒有牌而抽牌")."""
    t = deal({1: "R1 B1 B2", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    evs = act(t, "shoe G9")
    assert names(evs) == ["draw", "turn"] and t.turn == 2 and "R1" in hand(t, 1)


def test_t2_after_a_drawn_card_that_does_not_fit_the_turn_is_over():
    """Draw one: a drawn card that does not fit ends the turn; the hand's R1 may not be played then."""
    # seed 004: "如果抽到可以出的牌就出牌。如果不是，就换下一个人出牌"
    t = deal({1: "R1 B1 B2", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "shoe G9")
    assert t.turn == 2
    assert unchanged(t, "pad R1") == R_NOT_TURN


# ---- T3: draw cards ---------------------------------------------------------------------

def test_t3_h1_without_stacking_a_d_does_not_answer_a_d():
    """Official rules: the D's victim draws 2 and loses its turn; its own D is refused."""
    # seed 000: "Draw two 下位玩者停止出牌一次，並罰抽2張牌"
    t = deal({1: "RD R1 B1", 2: "GD Y2 Y3", 3: "R7 B8 B9"}, start="R5")
    act(t, "pad RD")
    assert unchanged(t, "pad GD") == R_MUST_DRAW
    act(t, "shoe B3", "shoe B4")
    assert t.turn == 3 and names(act(t, "pad R7")) == ["play", "turn"]


def test_t3_h1_without_stacking_a_w4_does_not_answer_a_w4():
    """Official rules: nothing answers a W4's draws, not a W4 and not a W."""
    # seed 000 (二人玩): "Wild牌可以在任何時候出，但在被Drop2或者Wild Drop4時就不能出"
    t = deal({1: "W4 B1 B2", 2: "W4 W Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W4", "colour G")
    assert unchanged(t, "pad W4") == R_MUST_DRAW
    assert unchanged(t, "pad W") == R_MUST_DRAW


def test_t3_a_w_goes_on_a_w4_once_its_draws_are_drawn():
    """After the victim drew its 4, the next seat may play a W on the W4 (or the named colour)."""
    t = deal({1: "W4 B1 B2", 2: "Y1 Y2 Y3", 3: "W B8 B9"}, start="R5")
    act(t, "pad W4", "colour G", "shoe G1", "shoe G2", "shoe G3", "shoe G4")
    assert t.turn == 3
    assert names(act(t, "pad W")) == ["play", "colour_wanted"]


def test_t3_h6_two_players_a_w4_lets_its_player_play_again():
    """Two players: the other seat draws 4 and loses its turn, so the W4's player plays again."""
    t = deal({1: "W4 B1 B2", 2: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G", "shoe G1", "shoe G2", "shoe G3")
    evs = act(t, "shoe G4")
    assert names(evs) == ["draw", "skip", "turn"] and t.turn == 1


# ---- C1: the W4 challenge ---------------------------------------------------------------

def test_c1_a_w4_holding_only_a_wild_and_other_colours_is_legal():
    """W4 from a hand holding a W and another colour's card of the same number: the challenge fails."""
    # seed 004: "即使他手上有与上一家相同数字但不同颜色的牌或不同颜色的技术牌"; seed 000: "（黑色牌不算）"
    t = deal({1: "W4 W G5", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert names(evs) == ["challenge", "penalty"] and evs[0][3] == V_LEGAL
    assert t.pending == 6


def test_c1_no_challenge_once_the_victim_has_drawn():
    """The challenge comes before the victim draws: after its first card it is too late."""
    # seed 004: "只有被罚抽4张牌的人可以提出质疑"; C1: "before drawing"
    t = deal({1: "W4 R1 B1", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W4", "colour G", "shoe G9")
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    assert t.pending == 3


def test_c1_only_the_victim_challenges_not_a_third_seat_nor_the_w4s_player():
    """Seat 3 and the W4's own player cannot challenge; a W cannot be challenged at all."""
    t = deal({1: "W4 R1 B1", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W4", "colour G")
    assert unchanged(t, "seat 3 long") == R_NO_CHALLENGE
    assert unchanged(t, "seat 1 long") == R_NO_CHALLENGE
    t = deal({1: "W R1 B1", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W", "colour G")
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


def test_c1_a_guilty_w4s_colour_stands_and_the_challenger_plays_to_it():
    """Guilty W4: its player draws 4, the colour it named stands, the challenger plays green."""
    # seed 001: "下家若检举成功，则仍然可以出牌"; SPEC C1: "The chosen colour stands either way"
    t = deal({1: "W4 R1 B1", 2: "G1 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert evs[0][3] == V_ILLEGAL and t.debts == [[1, 4, W_W4_ILLEGAL]]
    act(t, "shoe B3", "shoe B4", "shoe B5", "shoe B6")
    assert t.colour == 2 and t.turn == 2
    assert unchanged(t, "pad Y2") == R_UNPLAYABLE
    assert names(act(t, "pad G1")) == ["play", "turn"]


def test_c1_a_w4_after_a_w_is_judged_by_the_colour_the_w_named():
    """The active colour after a W is the named one: holding it makes the W4 guilty."""
    t = deal({1: "W B1 B2", 2: "W4 G3 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad W", "colour G", "pad W4", "colour Y")
    evs = act(t, "seat 3 long")
    assert evs[0][3] == V_ILLEGAL


def test_c1_s4_a_w4_after_a_start_w_is_judged_by_the_colour_the_first_player_named():
    """Start W: the first player names green and plays a W4 while holding green: guilty."""
    # seed 004: "发牌者左边的每一位玩家将可决定要玩的颜色并出第一张牌"
    t = deal({1: "W4 G3 B1", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="W")
    assert t.want == 1
    act(t, "colour G", "pad W4", "colour Y")
    assert act(t, "seat 2 long")[0][3] == V_ILLEGAL


def test_s4_c1_a_start_d_cannot_be_challenged():
    """A start D's draws are owed by the first player; there is nothing to challenge."""
    t = deal({1: "R1 B1 B2", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="RD")
    assert t.turn == 1 and t.pending == 2
    assert unchanged(t, "seat 1 long") == R_NO_CHALLENGE


def test_s4_only_the_first_player_names_a_start_ws_colour():
    """Start W: the first player (left of the dealer) names the colour; it has no turn before."""
    t = deal({1: "R1 B1 B2", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, start="W")
    assert t.want == 1
    assert unchanged(t, "pad B1") == R_WANT_COLOUR
    assert names(act(t, "colour B")) == ["colour"] and t.turn == 1
    assert names(act(t, "pad B1")) == ["play", "turn"]


# ---- U1-U4: the UNO call ----------------------------------------------------------------

def test_u1_no_call_is_needed_for_the_last_card():
    """The call is for the second-to-last card; a seat that called wins on its last card at once."""
    # seed 004: "当玩家出到倒数牌时（出完该牌只剩一张牌），玩家就要大喊一声【UNO】"
    t = deal({1: "R1 R2", 2: "Y1 Y2", 3: "R7 B9"}, start="R5")
    act(t, "pad R1", "seat 1", "shoe G9", "pad R7")
    evs = act(t, "pad R2")
    assert "round_over" in names(evs) and PENALTY not in [e[0] for e in evs]


def test_u3_a_late_call_on_ones_last_card_costs_nothing():
    """A seat that forgot and calls after its window closed holds one card: no false call."""
    # seed 002: "错喊UNO也需要罚两张牌" is a call "not down to one card" (U3)
    t = deal({1: "R1 R2 B5", 2: "R3 G2 B4", 3: "Y1 Y2 Y9"}, start="R5", false_uno=2)
    act(t, "pad R1")                   # seat 1: two cards left, no window
    act(t, "pad R3", "shoe G8")        # seat 2 plays, seat 3 draws: turn 1
    act(t, "pad R2")                   # seat 1 down to one card, forgets
    act(t, "shoe Y8")                  # seat 2 draws: the window is closed
    assert t.window != 1
    evs = act(t, "seat 1")
    assert PENALTY not in [e[0] for e in evs] and t.debts == []


def test_u2_m4_a_partner_may_catch_too():
    """Teams: any other seat may catch, a partner as well (seed 000: "被其他人發現")."""
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2", 4: "B1 B2"}, start="R5", teams=2)
    act(t, "pad R1")
    evs = act(t, "seat 3")
    assert names(evs) == ["catch", "uno_close", "penalty"] and t.debts == [[1, 2, W_CAUGHT]]


def test_u1_u5_a_caught_seat_can_no_longer_call():
    """Caught before calling: its press afterwards is no call and undoes nothing."""
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R1", "seat 2")
    assert t.debts == [[1, 2, W_CAUGHT]]
    evs = act(t, "seat 1")
    assert evs[0][0] == REJECT and t.debts == [[1, 2, W_CAUGHT]]


def test_p1_two_cards_at_once_without_multi_play_the_second_is_refused():
    """Without multi-play one card a turn: a second card of the same number is out of turn."""
    # seed 000's "配對" is a house rule (H3)
    t = deal({1: "R1 G1 B1", 2: "Y7 Y2 Y3", 3: "B7 B8 B9"}, start="R5")
    act(t, "pad R1")
    assert unchanged(t, "pad G1") == R_NOT_TURN


def test_u2_u4_a_late_catch_while_another_seat_has_called_costs_nobody():
    """Seat 1 forgets; seat 2 plays to one card and calls; seat 3's press then (a late catch of
    seat 1) is no false catch of seat 2, and seat 1's own late call costs it nothing either."""
    # seed 000: "若不被及時發現則不可追究" — a catch too late is not pursued, at no one's cost; the
    # press cannot say whom it accuses, and seat 1 still holds its last card. It had cost the
    # presser 2 as a false catch of seat 2 (U4), which the same press with no window open did not
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "B7 B8"}, start="R5", preset="house")
    act(t, "pad R1", "pad R3", "seat 2")
    assert t.late == 1 and t.window == 2 and t.called
    assert unchanged(t, "seat 3") == R_CALLED
    assert unchanged(t, "seat 1") == R_CALLED
    assert t.debts == []


def test_u4_a_false_catch_of_a_seat_that_called_still_costs():
    """House preset: with no other seat holding an uncalled last card, catching a seat that
    called costs the catcher 2 (seed 002: 那么那个人要从牌堆中抽取两张牌)."""
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "B7 B8"}, start="R5", preset="house")
    act(t, "pad R1", "seat 1")
    evs = act(t, "seat 3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (3, 2, W_FALSE_CATCH)


# ---- T5, M1: the last card and the score ------------------------------------------------

def test_t5_a_last_s_ends_the_round_at_once():
    """A last S wins: nobody is skipped any more, the round is over and scored."""
    t = deal({1: "RS R2", 2: "Y1 Y2", 3: "R7 B9"}, start="R5")
    act(t, "pad R2", "seat 1", "shoe G1", "pad R7")
    evs = act(t, "pad RS")
    assert "round_over" in names(evs) and "skip" not in names(evs)
    assert t.phase == P_ROUND_OVER and t.scores[1] == 1 + 2 + 9 + 1


def test_t5_h6_two_players_a_last_r_ends_the_round():
    """Two players, a last R: the round is won; nothing acts as an S any more."""
    t = deal({1: "RR R2", 2: "Y1 R3"}, start="R5")
    act(t, "pad R2", "seat 1", "pad R3")
    evs = act(t, "pad RR")
    assert "round_over" in names(evs) and t.scores[1] == 1


def test_m1_the_winner_scores_cards_drawn_by_a_catch_too():
    """Caught cards are in the hand at the end: the winner scores them (seed 004: 剩余牌的点数总和)."""
    t = deal({1: "R1 R2", 2: "G1 R9", 3: "R7 B9"}, start="R5")
    act(t, "pad R1", "seat 1", "pad R9")           # seat 2 forgets
    act(t, "seat 3", "shoe G5", "shoe G6")         # caught: G5 G6
    act(t, "pad R7")
    evs = act(t, "pad R2")
    assert evs[-2][0] == ROUND_OVER and evs[-2][1:] == (1, 1 + 5 + 6 + 9)


def test_m2_a_tie_for_the_lowest_score_names_the_lowest_seat():
    """Losers' scoring: two seats tied lowest when the match ends: the lower seat number wins."""
    t = deal({1: "R1 R2", 2: "Y1 Y9", 3: "B4 B6"}, start="R5", scoring="losers", target=10)
    act(t, "pad R1", "seat 1", "shoe G5")
    # seat 2 drew: turn 3 draws, seat 1 goes out
    act(t, "shoe G6")
    evs = act(t, "pad R2")
    assert MATCH_OVER in [e[0] for e in evs]
    assert t.scores[2] == 1 + 9 + 5 and t.scores[3] == 4 + 6 + 6 and t.scores[1] == 0
    assert [e for e in evs if e[0] == MATCH_OVER][0][1] == 1


# ---- presets ----------------------------------------------------------------------------

def test_h2_house_identical_jump_ins_are_numbers_only():
    """House preset (jump_in=identical): an identical D may not jump in; the misplay costs 2."""
    t = deal({1: "RD B1 B2", 2: "Y1 Y2 Y3", 3: "RD B8 B9"}, start="R5", preset="house")
    act(t, "pad RD")
    evs = act(t, "pad RD")
    assert evs[0][0] == REJECT and evs[0][1] == R_NOT_TURN and t.debts == [[3, 2, W_MISPLAY]]


def test_h2_u1_house_a_jump_in_to_one_card_opens_the_jumpers_window():
    """House preset: a jump-in that leaves one card is a second-to-last card: the jumper must call."""
    t = deal({1: "R1 R2", 2: "Y1 Y2", 3: "R1 B3"}, start="R5", preset="house")
    act(t, "pad R1")
    evs = act(t, "pad R1")
    assert names(evs) == ["jump_in", "uno_close", "play", "uno_open", "turn"] and t.window == 3
    evs = act(t, "seat 2")
    assert names(evs) == ["catch", "uno_close", "penalty"] and t.debts[0][0] == 3


def test_h1_house_no_wild_nor_w4_answers_a_d():
    """House preset (stacking=on): a D's victim may answer with a D only; a W or W4 is a misplay."""
    # seed 000 (二人玩): "Wild牌可以在任何時候出，但在被Drop2或者Wild Drop4時就不能出"; W4 on D is
    # the w4_on_d option (H1)
    t = deal({1: "RD B1 B2", 2: "W4 W Y3", 3: "B7 B8 B9"}, start="R5", preset="house")
    act(t, "pad RD")
    evs = act(t, "pad W4")
    assert evs[0][1] == R_MUST_DRAW and t.debts == [[2, 2, W_MISPLAY]]


def test_t5_h1_party_a_last_w4_is_allowed_under_no_srw_and_answers_nothing():
    """Party preset (last_card=no_srw): a last W4 is no S, R or W: it wins, the next seat draws 4."""
    # seed 002: "最后一张牌不能是"reverse翻转”，“skip"跳过"或者是"wild变色"" — not a W4 nor a D
    t = deal({1: "W4 R2", 2: "R1 Y2", 3: "R7 B3"}, start="R5", preset="party")
    act(t, "pad R2", "seat 1", "pad R1", "pad R7")
    evs = act(t, "pad W4")
    assert names(evs)[-3:] == ["play", "turn", "owe"] and evs[-1][1:] == (2, 4, W_DRAW4)
    assert t.want == 0 and unchanged(t, "seat 2 long") == R_NO_CHALLENGE
