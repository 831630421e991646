"""P1: misplays and the reasons given, one test each, named after the rule ids they decide (the
seeds' words and docs/rules.md say why). For every kind of wrong input: is it refused (or, with
`misplay` set, penalised: seed 000 "若玩者發錯牌，需罰抽2張牌"), for the reason a referee would
give, naming the right seat and card, and does it change nothing else?"""
from kit import act, deal, names, unchanged, hand, seated
from uno.events import *


def misplayed(t, text, why, seat, cost):
    """text is a misplay of seat's card: rejected for why, and (cost) the seat owes cost cards
    for it; nothing else changes: the turn, the top card and the card itself stay."""
    turn, top, colour, held = t.turn, t.top, t.colour, hand(t, seat)
    if not cost:
        assert unchanged(t, text) == why
        return
    evs = act(t, text)
    assert names(evs) == ["reject", "penalty"], evs
    assert evs[0][1:3] == (why, seat) and evs[1][1:] == (seat, cost, W_MISPLAY)
    assert (t.turn, t.top, t.colour, hand(t, seat)) == (turn, top, colour, held)
    assert t.debts == [[seat, cost, W_MISPLAY]]


# ---- P1: each kind of misplay, with misplay=0 and misplay=2 --------------------------------

def test_p1_t1_t2_t3_each_kind_of_misplay_costs_its_seat_only_with_the_setting():
    """An unplayable card, a card out of turn, a card other than the one just drawn, a card while
    owing a D's draws: refused for that reason, naming the card's seat; misplay=2: it draws 2."""
    # seed 000: "若玩者發錯牌，需罰抽2張牌"; "但若要發牌也必須發出剛抽的牌" (only the card drawn);
    # seed 001: "当被+2、+4罚抽牌时，要从牌堆顶抽取对应的牌，且不能再出牌" (owing a D: no card)
    for cost in (0, 2):
        t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", misplay=cost)
        misplayed(t, "pad B2", R_UNPLAYABLE, 1, cost)
        t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", misplay=cost)
        misplayed(t, "pad Y1", R_NOT_TURN, 3, cost)
        t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", misplay=cost)
        act(t, "shoe R9")                        # it fits: only R9 may be played now
        misplayed(t, "pad R1", R_ONLY_DRAWN, 1, cost)
        t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="RD", misplay=cost)
        misplayed(t, "pad R1", R_MUST_DRAW, 1, cost)
        assert t.pending == 2 and t.turn == 1


def test_p1_c1_a_card_while_a_w4_may_be_challenged_is_a_misplay_of_its_seat():
    """W4 on the pile, colour named, seat 2 may challenge: its card (it owes the 4) and seat 3's
    (out of turn) are misplays of each; the challenge stays open either way."""
    # seed 000: "若玩者發錯牌，需罰抽2張牌"; seed 004: "只有被罚抽4张牌的人可以提出质疑"
    for cost in (0, 2):
        t = deal({1: "W4 R1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", misplay=cost)
        act(t, "pad W4", "colour B")
        misplayed(t, "pad Y1", R_NOT_TURN, 3, cost)
        act(t, *["shoe G%d" % k for k in range(1, cost + 1)])
        misplayed(t, "pad B1", R_MUST_DRAW, 2, cost)
        assert t.w4_from == 1 and t.pending == 4


# ---- P1: states where no card can be played: a card read waits and costs nothing ----------

def test_p1_s2_s3_s4_a_card_before_play_begins_costs_nothing():
    """misplay=2: a card read on the pad during the draw for dealer (set aside), the deal (in a
    hand) and before the start card: refused, nothing changes, nothing is owed."""
    # seed 000: "若玩者發錯牌，需罰抽2張牌" — a card played wrongly; before the start card
    # ("從牌疊中取出首張牌…根據此牌發牌，游戲開始") no play has begun: no card could be right
    t = seated((1, 2, 3), misplay=2)
    act(t, "shuffle", "shoe R5a")                # seat 1 draws R5 for dealer
    assert unchanged(t, "pad R5a") == R_ASIDE
    assert unchanged(t, "shoe R5a") == R_ASIDE
    assert unchanged(t, "pad R6a") == R_IN_SHOE
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start=None, misplay=2)
    assert t.phase == P_START
    assert unchanged(t, "pad R1a") == R_NOT_NOW
    assert unchanged(t, "shoe R1a") == R_IN_HAND
    t = seated((1, 2), first_dealer=2, hand_size=2, misplay=2)
    act(t, "shuffle", "shoe R1a")                # the deal: R1 to seat 1
    assert unchanged(t, "pad R1a") == R_NOT_NOW
    assert unchanged(t, "shoe R1a") == R_TWICE   # read again at once: a double read
    act(t, "shoe G1a")
    assert unchanged(t, "shoe R1a") == R_IN_HAND  # (naming seat 1: unchanged() checks)
    assert t.debts == []


def test_p1_a_card_while_a_colour_is_wanted_costs_nothing_from_any_seat():
    """misplay=2: seat 1 played a W and names no colour yet; a card from it, from the next seat,
    from another seat: each waits ("choose the colour first"), nothing is owed."""
    # seed 000: "Wild 發牌者說出四色中其中一種，下位玩者必須跟隨" — the colour is part of the play;
    # a card read before it cannot be judged (docs/rules.md: P1 while penalty cards are drawn)
    t = deal({1: "W R1 R2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", misplay=2)
    act(t, "pad W")
    for text in ("pad R1", "pad G1", "pad Y1"):
        assert unchanged(t, text) == R_WANT_COLOUR
    assert unchanged(t, "shoe B9") == R_WANT_COLOUR   # (naming seat 1, the seat to name it)
    assert t.debts == [] and t.want == 1


def test_p1_m1_after_the_round_and_the_match_a_card_read_costs_nothing():
    """misplay=2: a hand's card read on the pad once the round (or the match) is over means
    nothing now; at the shoe the table asks for the shuffled pile (every card is gathered
    now); no cost, nothing changes."""
    # seed 000: "最快發完手上紙牌者勝出該局" — the round is over; no card is played until the next
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5", misplay=2)
    act(t, "pad R1", "seat 1", "pad R7", "pad R8")
    act(t, "pad R2")
    assert t.phase == P_ROUND_OVER
    assert unchanged(t, "pad G2a") == R_NOT_NOW
    assert unchanged(t, "shoe G2a") == R_WANT_SHUFFLE
    assert unchanged(t, "pad R2a") == R_TWICE
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5", misplay=2, target=1)
    act(t, "pad R1", "seat 1", "pad R7", "pad R8", "pad R2")
    assert t.phase == P_MATCH_OVER
    assert unchanged(t, "pad Y2") == R_NOT_NOW


# ---- P1 once the round is won: T5's and H5's draws still owed -----------------------------

def test_p1_u3_t5_once_a_last_d_wins_the_round_a_card_or_a_press_costs_nothing():
    """misplay=2, false_uno=2: seat 1 wins on a last D, seat 2 draws its 2 for the score. Seat
    2's card (it owes the draws), seat 3's card, their presses: refused, nothing owed; the
    score counts the D's 2 cards only."""
    # seed 002: "若赢家最后一张打出的是罚抽2张牌或罚抽4张牌，此局游戏已结束，但赢家的下一家仍需受罚" —
    # the round is over: no card is played any more, so none is misplayed, nor is a call left to
    # make; the only penalty is the next seat's. Each had cost 2 cards, counted in the score
    # (as P2's timer had: docs/rules.md, P2 — when no time runs)
    t = deal({1: "R1 R4 RD", 2: "R2 R6 G3", 3: "R3 R7 Y3"}, start="R5", misplay=2,
             false_uno=2, false_catch=2)
    act(t, "pad R1", "shoe B9", "shoe B8", "pad R4", "seat 1", "pad R2", "pad R3")
    assert names(act(t, "pad RD")) == ["play", "turn", "owe"] and t.pending == 2
    assert unchanged(t, "pad G3") == R_MUST_DRAW
    assert unchanged(t, "pad Y3") == R_NOT_TURN
    assert unchanged(t, "seat 2") == R_NOTHING
    assert unchanged(t, "seat 3") == R_NOTHING
    assert unchanged(t, "seat 1") == R_NOTHING  # the winner (docs/buttons.md)
    evs = act(t, "shoe B1", "shoe B2")
    assert names(evs) == ["draw", "round_over", "score"]
    assert evs[1][1:] == (1, (6 + 3 + 9 + 1 + 2) + (7 + 3 + 8))


def test_u3_h5_after_a_lay_down_a_press_while_the_others_draw_costs_nothing():
    """sum_win=yes, false_uno=2: seat 3 false-calls (owes 2), seat 2 lays down on seat 1's 4 and
    wins; while seat 3 draws its 2 for the score, its press and seat 1's cost nothing more."""
    # seed 000: "可以無視任何情況，攤牌勝出" — the round is won; the penalty earned before is drawn
    # and scored (docs/rules.md, H5 and the draws still owed), a press after it is no call
    t = deal({1: "R4 R9 G3", 2: "G1 B3 Y0", 3: "Y1 Y2 Y5"}, start="R5", sum_win="yes",
             false_uno=2, misplay=2)
    act(t, "pad R4", "seat 3")
    assert t.debts == [[3, 2, W_FALSE_UNO]]
    assert names(act(t, "seat 2 long"))[0] == "sum_win"
    assert unchanged(t, "seat 3") == R_NOTHING
    assert unchanged(t, "seat 1") == R_NOTHING
    assert unchanged(t, "pad Y1") == R_WAIT_DRAW
    assert t.debts == [[3, 2, W_FALSE_UNO]]
    evs = act(t, "shoe B1", "shoe B2")
    assert names(evs) == ["draw", "round_over", "score"]
    assert evs[1][1:] == (2, (9 + 3) + (1 + 2 + 5 + 1 + 2))


# ---- the round won on a multi-play's last D (T5, H3) -------------------------------------

def test_u1_u2_h3_t5_a_last_d_added_to_a_multi_play_closes_the_window_no_catch_of_the_winner():
    """multi=same: seat 1 plays RD (its window opens, no call), then adds GD, its last card: the
    round is won and seat 2 draws the 4 for the score. The window closes with the last card; a
    press from seat 3 catches nobody, and the round ends once the 4 are drawn."""
    # seed 002: "若赢家最后一张打出的是罚抽2张牌或罚抽4张牌，此局游戏已结束，但赢家的下一家仍需受罚";
    # the winner holds no card to call on or be caught for (docs/rules.md, U1 when a seat goes
    # out). The catch had handed the winner 2 cards: the round was no longer won and play went on
    t = deal({1: "RD GD", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", multi="same", false_catch=2)
    assert names(act(t, "pad RD")) == ["play", "uno_open", "turn", "owe"]
    evs = act(t, "pad GD")
    assert names(evs) == ["play", "owe", "uno_close"] and evs[2][1] == 1
    assert t.window == 0 and t.pending == 4
    assert unchanged(t, "seat 3") == R_NOTHING
    assert unchanged(t, "seat 1") == R_NOTHING
    evs = act(t, "shoe B1", "shoe B2", "shoe B3", "shoe B4")
    assert names(evs) == ["draw", "round_over", "score"] and t.winner == 1
    assert hand(t, 1) == []



# ---- P1 with the other penalties and the UNO window --------------------------------------

def test_p1_u3_penalties_add_up_in_one_debt_per_seat_and_reason():
    """misplay=2, false_uno=2: seat 3 misplays, then false-calls twice: it owes [2 misplay, 4
    false call], drawn oldest first; then play goes on where it was."""
    # seed 003: "打錯牌、拍錯桌子、喊錯UNO、超過5秒不出牌者，罰摸2張牌" — each wrong act costs 2;
    # one debt per seat and reason (docs/rules.md, P1)
    t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", misplay=2, false_uno=2)
    act(t, "pad Y1", "seat 3")
    evs = act(t, "seat 3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (3, 2, W_FALSE_UNO)
    assert t.debts == [[3, 2, W_MISPLAY], [3, 4, W_FALSE_UNO]]
    whys = [act(t, "shoe B%d" % k)[0][3] for k in range(4, 10)]
    assert whys == [W_MISPLAY] * 2 + [W_FALSE_UNO] * 4
    assert t.debts == [] and t.turn == 1 and len(t.hands[3]) == 9
    assert names(act(t, "pad R1")) == ["play", "turn"]


def test_p1_u1_the_next_players_misplay_leaves_the_window_open():
    """misplay=2: seat 1 plays its second-to-last card and does not call; seat 2 misplays and
    draws its 2: it has neither played nor taken its turn's draw, so seat 3 may still catch."""
    # seed 000: "在下位玩者發牌前被其他人發現，則需罰2張牌" — the card went back: nothing was played;
    # the misplay's cards are no draw of the turn (docs/rules.md: U5 after the caught seat has
    # drawn: a penalty drawn is no act of the next player)
    t = deal({1: "R1 R2", 2: "G1 B2", 3: "Y1 Y2"}, start="R5", misplay=2)
    act(t, "pad R1")
    misplayed(t, "pad B2", R_UNPLAYABLE, 2, 2)
    act(t, "shoe B8", "shoe B9")
    assert t.window == 1
    evs = act(t, "seat 3")
    assert names(evs) == ["catch", "uno_close", "penalty"] and evs[2][1:] == (1, 2, W_CAUGHT)


def test_p1_u1_the_windows_own_seat_misplays_its_window_closes():
    """misplay=2: seat 1 holds its last card, its window open, and taps it out of turn: it draws
    2 and holds no last card: its window closes, and a press then is no catch."""
    # seed 002: "如果你手中并非剩下一张牌而被别人指出说你没喊UNO，那么那个人要从牌堆中抽取两张牌"
    t = deal({1: "R1 R2", 2: "G1 B2", 3: "Y1 Y2"}, start="R5", misplay=2, false_uno=2)
    act(t, "pad R1")
    evs = act(t, "pad R2")
    assert names(evs) == ["reject", "penalty", "uno_close"] and evs[0][1:3] == (R_NOT_TURN, 1)
    assert t.window == 0


# ---- P1 with the house rules -------------------------------------------------------------

def test_p1_h1_a_misplays_cards_are_not_the_ds_draws_the_seat_may_still_stack():
    """stacking=on, misplay=2: seat 2 owes a D's 2 and taps G1 (a misplay: 2 cards); once it has
    drawn them it may still answer the D with its own: seat 3 owes 4."""
    # seed 002: "轮序的下家可以出+2牌来累加罚摸的牌" — the answer comes before the D's draws; seed
    # 000: "若玩者發錯牌，需罰抽2張牌" is another penalty (as for C1's challenge)
    t = deal({1: "RD R1 R2", 2: "GD G1 G2", 3: "Y1 Y2 Y3"}, start="R5", stacking="on", misplay=2)
    act(t, "pad RD")
    misplayed(t, "pad G1", R_MUST_DRAW, 2, 2)
    act(t, "shoe B8", "shoe B9")
    assert t.pending == 2 and t.stackable
    evs = act(t, "pad GD")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (3, 4, W_STACK)


def test_p1_h1_a_w_or_a_non_matching_card_while_a_d_is_owed_is_a_misplay():
    """stacking=on, misplay=2: the seat owing a D's 2 taps a W (no W while a draw is owed): a
    misplay, "cards owed must be drawn first"."""
    # seed 000 (二人玩UNO): "Wild牌可以在任何時候出，但在被Drop2或者Wild Drop4時就不能出"
    t = deal({1: "RD R1 R2", 2: "W G1 G2", 3: "Y1 Y2 Y3"}, start="R5", stacking="on", misplay=2)
    act(t, "pad RD")
    misplayed(t, "pad W", R_MUST_DRAW, 2, 2)


def test_p1_h2_a_wrong_jump_in_is_a_misplay():
    """jump_in=identical, misplay=2: on R1 seat 3 jumps with G1 (not identical), and on RS with
    the other RS (actions may not be jumped): each a card out of turn, a misplay."""
    # seed 000: "還有包括出錯牌、搶錯牌之類的~~~大家盡情的罰吧~~~（偶們是罰抓牌）" — a wrong jump
    # (搶錯牌) is punished like a wrong card, by drawing
    t = deal({1: "R1a RSa B7", 2: "G2 G3 G4", 3: "G1 R1b RSb"}, start="R5", jump_in="identical",
             misplay=2)
    act(t, "pad R1a")
    misplayed(t, "pad G1", R_NOT_TURN, 3, 2)
    act(t, "shoe B8", "shoe B9")
    assert names(act(t, "pad R1b")) == ["jump_in", "play", "turn"] and t.turn == 1
    t = deal({1: "RSa R1a B7", 2: "RSb G3 G4", 3: "G1 G2 Y3"}, start="R5", jump_in="identical",
             misplay=2)
    act(t, "pad RSa")                            # seat 2 is skipped: seat 3's turn
    misplayed(t, "pad RSb", R_NOT_TURN, 2, 2)


def test_p1_h3_a_card_that_does_not_match_the_multi_play_is_a_misplay_the_play_stays_open():
    """multi=same, misplay=2: seat 1 plays R5 then taps R6 (another number): out of turn, a
    misplay; once it has drawn its 2 it may still add G5."""
    # seed 002: "玩者每次出牌不限一张…只要有相同的号码或功能"; seed 000: "若玩者發錯牌，需罰抽2張牌";
    # the cost is drawn, then the seat may still add its cards (docs/rules.md, U1/U3 with H3)
    t = deal({1: "R5 R6 G5 B1", 2: "G1 G2 G3 G4", 3: "Y1 Y2 Y3 Y4"}, start="R7", multi="same",
             misplay=2)
    act(t, "pad R5")
    misplayed(t, "pad R6", R_NOT_TURN, 1, 2)
    act(t, "shoe B8", "shoe B9")
    assert names(act(t, "pad G5")) == ["play"] and t.colour == 2 and t.turn == 2


def test_p1_h5_a_wrong_lay_down_claim_is_no_misplay():
    """sum_win=yes, misplay=2: a seat whose numbers do not make the 4 just played, and the 4's
    own player, long-press: refused ("this hand's numbers do not make..."), nothing owed."""
    # seed 000: "當自己牌上數值之和等與對方打出的牌之數字，或整倍數時…攤牌勝出" — a claim is a
    # press, no card played (發錯牌); the seeds name no cost for it
    t = deal({1: "R4 R1 R2", 2: "G1 B3 Y5", 3: "Y1 Y2 YS"}, start="R5", sum_win="yes",
             misplay=2)
    act(t, "pad R4")
    assert unchanged(t, "seat 2 long") == R_NO_SUM
    assert unchanged(t, "seat 3 long") == R_NO_SUM
    assert unchanged(t, "seat 1 long") == R_NO_SUM


def test_p1_h7_a_second_slap_is_no_misplay():
    """slap4=yes, misplay=2: a card read while the slap is open waits (pinned elsewhere); a seat
    that slapped and presses again does nothing and, a press being no card, owes nothing."""
    # seed 003: "打錯牌、拍錯桌子、喊錯UNO…罰摸2張牌" — a slap is no card (打錯牌, P1); a press
    # that means nothing costs only as a false call (U3; a second slap is none: "already
    # slapped", test_h7_u3_a_second_slap_while_the_slap_is_open_costs_nothing_even_with_false_uno)
    t = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9"}, start="R5", slap4="yes", misplay=2)
    act(t, "pad R4", "seat 2")
    assert unchanged(t, "seat 2") == R_SLAPPED
    assert unchanged(t, "pad G1") == R_WAIT_SLAP
    assert names(act(t, "seat 3")) == ["slap", "penalty"] and t.debts == [[1, 2, W_SLAP]]


def test_p1_m3_h5_a_card_of_a_hand_laid_down_is_not_in_the_game_and_costs_nothing():
    """elimination=yes, sum_win=yes, misplay=2: seat 2 lays down G1 B3 Y0 on seat 1's 4 and is
    out; a card of that hand read on the pad is "seat is not in this game", no misplay."""
    # seed 003 (淘汰制): "有一人勝出，則四人局變成三人局" — the seat has left the round's play
    t = deal({1: "R4 R9 G3", 2: "G1 B3 Y0", 3: "Y1 Y2 Y5", 4: "B1 B2 B6"}, start="R5",
             elimination="yes", sum_win="yes", misplay=2)
    act(t, "pad R4", "seat 2 long")
    assert t.finished == [2] and t.turn == 3
    assert unchanged(t, "pad G1") == R_NOT_SEATED
    assert unchanged(t, "seat 2") == R_NOT_SEATED
    assert unchanged(t, "seat 7") == R_NOT_SEATED


def test_p1_u3_presses_are_no_misplays_colour_none_wanted_pass_before_drawing():
    """misplay=2 (false_uno=0): a colour named when none is wanted, the turn seat's press before
    it has drawn (no pass yet), a long press with nothing to challenge: refused, nothing owed."""
    # seed 000: "若玩者發錯牌" — a card played wrongly; a press plays no card. A press that means
    # nothing costs only as a false call (U3: false_uno), the pass comes after a draw (T2:
    # "當玩者無牌可發，則需從牌疊上取牌，若符合可則時發出")
    t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", misplay=2)
    assert unchanged(t, "colour G") == R_NO_COLOUR
    assert unchanged(t, "seat 1") == R_NOTHING
    assert unchanged(t, "seat 1 long") == R_NO_CHALLENGE
    act(t, "shoe R9")
    assert names(act(t, "seat 1")) == ["pass", "turn"]


def test_p1_the_same_card_read_twice_and_a_card_from_the_pile():
    """The card just played read again on the pad or at the shoe: "same card read twice"; an
    older pile card: "already on the discard pile"; neither a misplay (misplay=2)."""
    # a double read is the reader's, not a player's (seed 000's 發錯牌 is a card played)
    t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3", 3: "Y1 Y2 B3"}, start="R5", misplay=2)
    act(t, "pad R1a")
    assert unchanged(t, "pad R1a") == R_TWICE
    assert unchanged(t, "shoe R1a") == R_TWICE
    act(t, "pad G1a")
    assert unchanged(t, "pad R1a") == R_ON_PILE
    assert unchanged(t, "shoe R5a") == R_ON_PILE  # the start card
    act(t, "shoe B9a")                           # seat 3 draws B9: no fit, seat 1's turn
    assert unchanged(t, "shoe B9a") == R_TWICE


# ---- C1: a press that comes too early ----------------------------------------------------

def test_c1_a_challenge_before_the_w4s_colour_is_named_is_told_to_wait_for_it():
    """Seat 1 plays a W4 and has not named the colour: seat 2's long press is refused with
    "choose the colour first" (not "nothing to challenge"); seat 3's is "nothing to challenge";
    once the colour is named seat 2 challenges. Nothing owed (misplay=2, false_uno=2)."""
    # seed 001: "下家有权利质疑你的出牌是否合法"; seed 004: "只有被罚抽4张牌的人可以提出质疑" — the
    # right is the next seat's once it owes the 4, which comes with the colour ("發牌者說出四色中其中
    # 一種，同時下位玩者…罰抽4張牌", seed 000): it may not challenge yet, but it will
    t = deal({1: "W4 R1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", misplay=2, false_uno=2)
    act(t, "pad W4")
    assert unchanged(t, "seat 2 long") == R_WANT_COLOUR
    assert unchanged(t, "seat 3 long") == R_NO_CHALLENGE
    assert unchanged(t, "seat 1 long") == R_NO_CHALLENGE
    act(t, "colour B")
    evs = act(t, "seat 2 long")
    assert evs[0][1:] == (2, 1, V_ILLEGAL)
    t = deal({1: "W R1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W")                              # a W: nothing to challenge, colour or not
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
