"""The setup (S1-S5) and the direction of play: `direction=ccw` against every rule that asks
for "the next player", one test each, named after the rule ids they decide (the seeds' words
and docs/rules.md, "S3, S4, S5 and every "next player" with direction=ccw", say why).

Seats are numbered clockwise: clockwise play goes to the seat numbers rising (the seat on a
player's left), counter-clockwise to the numbers falling (on its right). With `direction=ccw`
everything that follows the direction goes the other way: the deal, the first player, a
start R, every "next player" (T3, T5, U1, C1, H2, H3, H4, M3, P2) and a rotating deal (S2).
What does not follow it: the draw for dealer goes round in seat order, teams are formed by
seat order (M4), and ties (T6, M1, M2) name the lower seat."""
import sys

from kit import act, deal, seated, names, unchanged, hand, random_seats, random_values
from uno.bot import Bot, Rng
from uno.cards import DECK, NCARDS
from uno.narrate import says
from uno.events import *
from uno.rules import Settings, catalogue
from uno.state import snapshot, load
from uno.table import Table, SHOE
from uno.words import EVENTS

MICRO = sys.implementation.name == "micropython"


# ---- S1: who sits at the table ---------------------------------------------------------

def test_s1_s2_a_press_during_the_draw_for_dealer_neither_joins_nor_leaves():
    """The shuffle closed the lobby: during the draw for dealer, and with the dealer chosen, a
    new seat's press is refused (not in the game) and a seated one's long press is no leave (the
    match has begun: "leave once it is over");
    a take-back of the draw and the shuffle opens the lobby again for the late seat."""
    # S1: "players join by pressing their seat button" in the lobby; SPEC 5: "Lobby (seats
    # join, rules shown) → shuffle sensor → dealer chosen → deal"
    t = seated((1, 2, 3), direction="ccw")
    act(t, "shuffle", "shoe R5")
    assert t.phase == P_DRAWOFF
    assert unchanged(t, "seat 4") == R_NOT_SEATED
    assert unchanged(t, "seat 4 long") == R_NOT_SEATED
    assert unchanged(t, "seat 2 long") == R_LEAVE_LATER
    act(t, "shoe G3", "shoe B1")
    assert t.phase == P_DEALER and t.dealer == 1
    assert unchanged(t, "seat 4") == R_NOT_SEATED
    assert unchanged(t, "seat 1 long") == R_LEAVE_LATER
    evs = act(t, "undo 4")                        # the three cards drawn and the shuffle
    assert t.phase == P_LOBBY and t.seats == [1, 2, 3] and names(evs)[0] == "undo"
    assert names(act(t, "seat 4")) == ["join"]
    act(t, "shuffle")
    assert t.phase == P_DRAWOFF and t.offs == [1, 2, 3, 4]


# ---- S2: the draw for dealer --------------------------------------------------------------

def test_s2_s5_the_draw_for_dealer_goes_in_seat_order_whatever_the_direction():
    """direction=ccw, seats 2, 5, 7: they draw 2, 5, 7 (a non-number draws again at once);
    5 and 7 tie for the highest and draw again, in seat order; 7 deals."""
    # seed 001: "第一轮时大家依次从牌堆顶抽一张牌，数字最大的为庄家"; seed 000: "(若不是数字牌則再取)"
    # — nobody sits next to a dealer yet, and the order decides nothing
    t = seated((2, 5, 7), direction="ccw")
    act(t, "shuffle")
    order = []
    for card in ("R3", "GS", "W", "B8", "Y8", "R1", "G2"):
        order.append(t.drawer())
        evs = act(t, "shoe " + card)
    assert order == [2, 5, 5, 5, 7, 5, 7]
    assert names(evs) == ["drawoff", "dealer"] and t.dealer == 7


def test_s2_t4_a_draw_for_dealer_that_uses_up_the_shoe_takes_the_set_aside_cards_back():
    """Every card drawn for dealer (non-numbers, then ties, pair after pair): the table asks
    for the reshuffle, naming the seat to draw; the shuffle sensor puts all 108 cards back and
    the draw goes on: the next number that is not a tie decides."""
    # seed 000: "玩者各抽一張牌，數字最大的為莊家"; docs/rules.md S2: "if that empties the shoe,
    # the table asks for a shuffle (`reshuffle`) and the shuffle sensor puts the set-aside
    # cards back"
    t = seated((2, 5), direction="ccw")
    act(t, "shuffle")
    uid = t.registry.uid
    for c in range(NCARDS):
        if DECK[c] & 15 > 9:
            assert t.drawer() == 2
            t.feed((IN_SHOE, uid(c)))
    pairs = {}
    for c in range(NCARDS):
        if DECK[c] & 15 <= 9:
            pairs.setdefault(DECK[c] & 15, []).append(c)
    for r in sorted(pairs):
        cs = pairs[r]
        for i in range(0, len(cs), 2):
            assert t.drawer() == 2
            t.feed((IN_SHOE, uid(cs[i])))
            evs = list(t.feed((IN_SHOE, uid(cs[i + 1]))))
    assert names(evs) == ["drawoff", "reshuffle"] and evs[1][1] == 2
    assert t.shoe == 0 and t.phase == P_DRAWOFF and t.offs == [2, 5]
    assert unchanged(t, "shoe R5a") == R_ASIDE
    assert names(act(t, "shuffle")) == ["shuffle"] and t.shoe == NCARDS
    assert unchanged(t, "shuffle") == R_SHOE_LEFT
    act(t, "shoe R5a")
    evs = act(t, "shoe R4a")
    assert names(evs) == ["drawoff", "dealer"] and t.dealer == 2
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and t.shoe == NCARDS and t.drawer() == 5


def test_s2_s3_s5_a_dealer_drawn_then_ccw_set_deals_from_its_right():
    """Seats 1-4 draw; seat 3 deals. direction=ccw set with the dealer chosen: the deal starts
    on the dealer's right (seat 2) and goes on to 1, 4, 3; seat 2 plays first."""
    # seed 000: "莊家左邊玩家（若是"reverse"則為右邊）根據此牌發牌" — the first player is the dealer's
    # neighbour on the side play goes to; "按逆時針序一家接一家出牌" (seeds 000, 003)
    t = seated((1, 2, 3, 4), hand_size=1)
    act(t, "shuffle", "shoe R1", "shoe R2", "shoe R9", "shoe R3")
    assert t.phase == P_DEALER and t.dealer == 3
    assert names(act(t, "rule direction ccw")) == ["rule"]
    act(t, "shuffle")
    order = []
    for card in ("G1", "G2", "G3", "G4"):
        order.append(act(t, "shoe " + card)[0][1])
    assert order == [2, 1, 4, 3]
    evs = act(t, "shoe Y5")
    assert names(evs) == ["start", "turn"] and t.turn == 2 and t.dir == -1


def test_s2_s5_the_winner_deals_next_in_both_directions():
    """direction=ccw, default next_dealer: seat 4 goes out first and deals round 2; the deal
    then starts on its right (seat 3), which plays first."""
    # seed 002: "本局赢家为下一局的庄家"
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2", 4: "R1 R2"}, start="R5", dealer=1,
             direction="ccw")
    assert t.turn == 4
    act(t, "pad R1", "seat 4", "shoe G9", "shoe B9", "shoe Y9", "pad R2")
    assert t.phase == P_ROUND_OVER and t.winner == 4
    evs = act(t, "shuffle")
    assert evs[1][1:] == (2, 4) and t.drawer() == 3


def test_s2_s5_rotate_follows_the_direction_the_new_round_starts_in_not_the_last_rounds_rs():
    """next_dealer=rotate, direction=ccw: round 1's R leaves the play clockwise; round 2 still
    starts counter-clockwise and the deal passes to the dealer's right. Set to cw between
    rounds, it passes to the left."""
    # no seed passes the deal round; docs/rules.md "S2 `rotate` with S5 `ccw`": the direction
    # the new round starts in (the setting), not where Reverses left the last
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "RR R3", 4: "R1 Y7"}, start="R5", dealer=4,
             direction="ccw", next_dealer="rotate")
    assert t.turn == 3
    act(t, "pad RR", "seat 3")                    # clockwise now: seat 4
    assert t.dir == 1 and t.turn == 4
    act(t, "pad R1", "seat 4", "shoe G9", "shoe B9", "pad R3")
    assert t.phase == P_ROUND_OVER and t.winner == 3
    evs = act(t, "shuffle")
    assert evs[1][1:] == (2, 3) and t.dir == -1 and t.drawer() == 2
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "RR R3", 4: "R1 Y7"}, start="R5", dealer=4,
             direction="ccw", next_dealer="rotate")
    act(t, "pad RR", "seat 3", "pad R1", "seat 4", "shoe G9", "shoe B9", "pad R3")
    assert names(act(t, "rule direction cw")) == ["rule"]
    evs = act(t, "shuffle")
    assert evs[1][1:] == (2, 1) and t.dir == 1 and t.drawer() == 2


# ---- S3: the deal -------------------------------------------------------------------------

def test_s3_s5_ccw_the_deal_goes_card_by_card_from_the_dealers_right_the_dealer_last():
    """direction=ccw, seats 1-4, seat 2 deals two cards each: 1, 4, 3, 2, 1, 4, 3, 2; a card
    read on the pad or a press meanwhile changes nothing; then the start card."""
    # S3: "card by card from the shoe, one to each seat in playing order"
    t = seated((1, 2, 3, 4), first_dealer=2, hand_size=2, direction="ccw")
    act(t, "shuffle")
    order = []
    told = []                                     # the seat the table expects (its LEDs)
    for card in ("R1", "R2", "R3", "R4", "R6", "R7", "R8", "R9"):
        told.append(t.drawer())
        order.append(act(t, "shoe " + card)[0][1])
        if len(order) == 3:
            assert unchanged(t, "pad R1") == R_NOT_NOW
            assert unchanged(t, "seat 3") == R_NOTHING
            assert unchanged(t, "shuffle") == R_NOT_NOW
    assert order == told == [1, 4, 3, 2, 1, 4, 3, 2]
    assert hand(t, 1) == ["R1", "R6"] and hand(t, 2) == ["R4", "R9"]
    assert t.phase == P_START and t.drawer() == 0


def test_s3_s4_s5_seven_seats_of_fifteen_and_three_w4_left_the_first_starts_as_a_w():
    """7 seats x 15 = 105 cards (the most the deck deals with a start card left), ccw; the 3
    cards left are W4s: none could start, so the first read starts as a W and the first player,
    on the dealer's right, names the colour; nobody draws."""
    # docs/rules.md S4: "When every card left in the shoe would go back, the card read starts
    # anyway (a W4 then starts as a W)"
    t = seated((1, 2, 3, 4, 5, 6, 7), first_dealer=4, hand_size=15, direction="ccw")
    act(t, "shuffle")
    uid = t.registry.uid
    w4 = [c for c in range(NCARDS) if DECK[c] & 15 == 14]
    for c in range(NCARDS):
        if c not in w4[1:]:
            t.feed((IN_SHOE, uid(c)))
    assert t.phase == P_START and t.shoe == 3 and len(t.hands[3]) == 15
    evs = list(t.feed((IN_SHOE, uid(w4[1]))))
    assert names(evs) == ["start", "turn", "colour_wanted"] and t.want == 3 and t.pending == 0
    assert names(act(t, "colour G")) == ["colour"] and t.turn == 3


def test_s3_s5_a_table_saved_mid_deal_with_ccw_loads_and_deals_on_to_the_same_seats():
    """direction=ccw, the deal half done: the state saved and loaded deals the next cards to
    the seats the table would have."""
    t = seated((2, 4, 6), first_dealer=4, hand_size=3, direction="ccw")
    act(t, "shuffle", "shoe R1", "shoe R2", "shoe R3", "shoe R4")
    u = load(snapshot(t))
    for card in ("R6", "R7", "R8", "R9", "G1"):
        assert act(u, "shoe " + card) == act(t, "shoe " + card)
    assert snapshot(u) == snapshot(t) and t.phase == P_START


# ---- S4, S5: the start card, the first player -------------------------------------------

def _start(card, dealer=3, **settings):
    return deal({1: "G1 G2 G3", 2: "B1 B2 B3", 3: "Y1 Y2 Y3", 4: "G7 B7 Y7"}, start=card,
                dealer=dealer, direction="ccw", **settings)


def test_s4_s5_ccw_a_number_start_card_the_dealers_right_plays_first():
    """ccw, seat 3 deals, R5 turned up: seat 2 (its right) plays, then seat 1."""
    t = _start("R5")
    assert t.turn == 2 and t.dir == -1 and snapshot(t)["direction"] == "ccw"
    assert names(act(t, "shoe R9")) == ["draw"]
    assert names(act(t, "seat 2")) == ["pass", "turn"] and t.turn == 1


def test_s4_s5_ccw_a_start_w_the_dealers_right_names_the_colour_and_plays():
    """ccw, start W: seat 2 names the colour and keeps its turn; seat 4 (its left) cannot."""
    # seed 004: "发牌者左边的每一位玩家将可决定要玩的颜色并出第一张牌" — the first player
    t = _start("W")
    assert t.want == 2
    assert names(act(t, "colour B")) == ["colour"] and t.turn == 2
    assert unchanged(t, "pad B7") == R_NOT_TURN
    assert names(act(t, "pad B1")) == ["play", "turn"] and t.turn == 1


def test_s4_s5_ccw_a_start_d_the_dealers_right_draws_two_and_is_skipped():
    """ccw, start D: seat 2 owes 2, draws them and is skipped: seat 1 plays."""
    # seed 000: "如果第一張翻出來的是draw 2：那麼第一位玩家要從牌庫最上面拿走兩張牌"
    t = _start("YD")
    assert t.turn == 2 and t.pending == 2
    act(t, "shoe R8")
    evs = act(t, "shoe R9")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1


def test_s4_s5_ccw_a_start_s_skips_the_dealers_right():
    """ccw, start S: seat 2 is skipped, seat 1 plays."""
    # seed 004: "如果这张牌在一开始就被翻开，则第一位玩家（发牌者左边的玩家）停止出牌一次"
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2", 4: "G7 B7"}, start=None, dealer=3,
             direction="ccw")
    evs = act(t, "shoe YS")
    assert names(evs) == ["start", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1


def test_s4_s5_ccw_a_start_r_turns_play_clockwise_and_the_dealers_left_begins():
    """ccw, seat 3 deals, R turned up: the direction turns clockwise and seat 4, the dealer's
    other neighbour, begins (clockwise: the dealer's right); start_reverse=dealer: seat 3
    begins, then seat 4."""
    # seed 000: "莊家左邊玩家（若是"reverse"則為右邊）"; "如果第一張翻出來的是reverse：那麼轉換出牌
    # 方向"; "如一開始按順時針方向輪流出牌，出此牌後出牌順序改為逆時針，由出牌者右手邊的人開始出牌" — the
    # R turns the direction, and play starts next to the dealer in the new one
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2", 4: "G7 B7"}, start=None, dealer=3,
             direction="ccw")
    evs = act(t, "shoe YR")
    assert names(evs) == ["start", "reverse", "turn"] and evs[1][1] == 1 and evs[2][1] == 4
    act(t, "shoe Y9")                             # it fits: seat 4 keeps it and passes
    assert names(act(t, "seat 4")) == ["pass", "turn"] and t.turn == 1
    t = deal({1: "G1 G2 G3", 2: "B1 B2 B3", 3: "Y1 Y2 Y3", 4: "G7 B7 Y7"}, start=None, dealer=3,
             direction="ccw", start_reverse="dealer")
    evs = act(t, "shoe YR")
    assert names(evs) == ["start", "reverse", "turn"] and t.turn == 3 and t.dir == 1
    assert names(act(t, "pad Y1")) == ["play", "turn"] and t.turn == 4


def test_s4_h6_ccw_two_players_a_start_r_is_a_start_s_the_dealer_begins():
    """ccw, two players, start R: it acts as an S: the other seat is skipped, the dealer plays
    and the direction stays counter-clockwise."""
    # seed 000: "Reverse…若只有兩名玩者則效果與"Skip"牌相同"
    t = deal({1: "G1 G2", 2: "B1 B2"}, start=None, dealer=1, direction="ccw")
    evs = act(t, "shoe YR")
    assert names(evs) == ["start", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1
    assert t.dir == -1


def test_s4_h4_h7_ccw_a_start_w4_goes_back_a_start_0_or_4_passes_no_hand_opens_no_slap():
    """ccw: a W4 goes back; a 0 with zero_rotate passes no hand, a 4 with slap4 opens no slap:
    nobody played them; the dealer's right plays."""
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2"}, start=None, dealer=3, direction="ccw",
             zero_rotate="yes", slap4="yes")
    assert names(act(t, "shoe W4")) == ["back"]
    evs = act(t, "shoe R0")
    assert names(evs) == ["start", "turn"] and t.turn == 2 and hand(t, 2) == ["B1", "B2"]
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2"}, start="R4", dealer=3, direction="ccw",
             slap4="yes")
    assert t.slap == 0 and t.turn == 2


def test_s4_ccw_start_card_number_every_non_number_goes_back():
    """start_card=number, ccw: S, R, D, W and W4 go back; the first number starts, the
    dealer's right plays."""
    t = deal({1: "G1", 2: "B1", 3: "Y1"}, start=None, dealer=1, direction="ccw",
             start_card="number")
    for card in ("RS", "GR", "BD", "W", "W4"):
        assert names(act(t, "shoe " + card)) == ["back"]
    assert names(act(t, "shoe Y3")) == ["start", "turn"] and t.turn == 3


# ---- T3, H6: action cards with direction=ccw ----------------------------------------------

def _ccw(hands, start="R5", **settings):
    """Seats 1-4, seat 2 deals, counter-clockwise: seat 1 plays first, then 4, 3, 2."""
    t = deal(hands, start=start, dealer=2, direction="ccw", **settings)
    assert t.turn == 1 and t.dir == -1
    return t


HANDS = {1: "R1 R2 R3", 2: "G1 G2 G3", 3: "Y1 Y2 Y3", 4: "B1 B2 B3"}


def _with(first, **others):
    hands = dict(HANDS)
    hands[1] = first
    for s, h in others.items():
        hands[int(s[1:])] = h
    return hands


def test_t3_ccw_an_r_turns_play_clockwise_the_players_left_is_next():
    """ccw: seat 1's R turns play clockwise: seat 2 (on its left) plays, not seat 4."""
    # seed 000: "出此牌後出牌順序改為逆時針，由出牌者右手邊的人開始出牌" — and back: from
    # counter-clockwise, the player's left
    t = _ccw(_with("RR R2 R3"))
    evs = act(t, "pad RR")
    assert names(evs) == ["play", "reverse", "turn"] and evs[1][1] == 1 and evs[2][1] == 2
    assert unchanged(t, "pad B1") == R_NOT_TURN


def test_t3_h6_ccw_two_players_an_r_acts_as_an_s():
    """ccw, two players: an R skips the other seat and its player plays again; the direction
    stays."""
    t = deal({1: "RR R2 R3", 2: "G1 G2 G3"}, start="R5", dealer=2, direction="ccw")
    evs = act(t, "pad RR")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1
    assert t.dir == -1


def test_t3_ccw_an_s_skips_the_players_right():
    """ccw: seat 1's S skips seat 4; seat 3 plays."""
    # seed 003: "打出「跳過」牌後，你的下家將停止出牌，輪到再下家出牌"
    t = _ccw(_with("RS R2 R3"))
    evs = act(t, "pad RS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 4 and evs[2][1] == 3


def test_t3_ccw_a_d_lands_on_the_players_right_who_draws_and_is_skipped():
    """ccw: seat 1's D: seat 4 owes 2, draws them and is skipped; seat 3 plays; seat 2 may not
    draw them."""
    t = _ccw(_with("RD R2 R3"))
    evs = act(t, "pad RD")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (4, 2, W_DRAW2)
    assert t.drawer() == 4 and t.owes(2) == 0
    act(t, "shoe G8")
    evs = act(t, "shoe G9")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 4 and t.turn == 3


def test_c1_t3_ccw_only_the_w4s_victim_on_the_right_may_challenge():
    """ccw: seat 1's W4 lands on seat 4. Before the colour seat 4 is told to wait for it,
    seat 2 (on the left) that there is nothing to challenge; after it seat 2 still cannot,
    and seat 4's challenge of the guilty W4 costs seat 1 four."""
    # seed 004: "只有被罚抽4张牌的人可以提出质疑"; seed 000: "被下位玩者挑戰並檢查紙牌"
    t = _ccw(_with("W4 R2 R3"))
    act(t, "pad W4")
    assert unchanged(t, "seat 4 long") == R_WANT_COLOUR
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    evs = act(t, "colour G")
    assert names(evs) == ["colour", "turn", "owe"] and evs[2][1:] == (4, 4, W_DRAW4)
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    evs = act(t, "seat 4 long")
    assert names(evs) == ["challenge", "penalty"] and evs[0][1:] == (4, 1, V_ILLEGAL)


# ---- U1, U2: the UNO window with direction=ccw ------------------------------------------

def test_u1_u2_ccw_the_window_lasts_until_the_seat_on_the_right_acts():
    """ccw: seat 1 plays its second-to-last card and forgets. Seat 2 (on its left) trying a
    card out of turn is no act: the window stays open, seat 3 catches; again, and seat 4's
    draw closes it: seat 3's press is then too late and costs nothing."""
    # seed 004: "玩家也不能在轮到对方下家出牌之后检举他忘了喊【UNO】"
    hands = {1: "R7 R8", 2: "G1 G2", 3: "Y1 Y2", 4: "B1 B2"}
    t = _ccw(hands)
    act(t, "pad R7")
    assert t.window == 1 and t.turn == 4
    assert unchanged(t, "pad G1") == R_NOT_TURN
    assert names(act(t, "seat 3")) == ["catch", "uno_close", "penalty"]
    t = _ccw(hands, false_uno=2, false_catch=2)
    act(t, "pad R7")
    evs = act(t, "shoe G9")
    assert names(evs)[:2] == ["uno_close", "draw"] and t.window == 0
    assert unchanged(t, "seat 3") == R_NOTHING


def test_u1_t3_ccw_the_seat_an_s_skips_may_still_catch_until_the_next_one_acts():
    """ccw: seat 1 plays an S as its second-to-last card, forgets; seat 4 is skipped and does
    not act: it catches before seat 3 plays."""
    # docs/rules.md "When the next player acts (U1)": a skipped seat does not act
    t = _ccw({1: "RS R8", 2: "G1 G2", 3: "Y1 Y2", 4: "B1 B2"})
    evs = act(t, "pad RS")
    assert names(evs) == ["play", "uno_open", "skip", "turn"] and t.turn == 3
    assert names(act(t, "seat 4")) == ["catch", "uno_close", "penalty"]


# ---- H2, H3, H4, H6, H7: house rules with direction=ccw ---------------------------------

def test_h2_ccw_a_jump_in_from_behind_play_goes_on_after_the_jumper():
    """jump_in=identical, ccw: seat 1 plays R1 (turn: seat 4); seat 2, behind it, jumps with
    the other R1: seats 4 and 3 lose their chance, and play goes on after the jumper: seat 1."""
    # seed 000: "搶在正常順序出牌者前面出此牌，然後由搶牌者下家繼續出牌"; seed 002: "中间的玩家失去
    # 出牌机会"
    t = _ccw(_with("R1 R2 R3", s2="R1 G2 G3"), jump_in="identical")
    act(t, "pad R1")
    assert t.turn == 4
    evs = act(t, "pad R1")
    assert names(evs) == ["jump_in", "play", "turn"] and evs[0][1] == 2 and evs[2][1] == 1
    assert "skip" not in names(evs)


def test_h2_t3_ccw_a_jumped_r_goes_back_to_ccw_then_the_jumpers_r_turns_clockwise():
    """jump_in=actions, ccw: seat 1's RR turns play clockwise (seat 2's turn); seat 3 jumps
    with the other RR: the direction goes back to ccw, then seat 3's R turns it clockwise:
    seat 4, on the jumper's left, plays."""
    # seed 000: reverse "（有搶牌者除外）"; seed 002: "被抢的牌作用失效"
    t = _ccw(_with("RR R2 R3", s3="RR Y2 Y3"), jump_in="actions")
    act(t, "pad RR")
    assert t.turn == 2 and t.dir == 1
    evs = act(t, "pad RR")
    assert names(evs) == ["jump_in", "reverse", "play", "reverse", "turn"]
    assert (evs[1][1], evs[3][1], evs[4][1]) == (-1, 1, 4)


def test_h3_t3_ccw_two_s_in_one_play_skip_the_two_seats_on_the_right():
    """multi=same, ccw: seat 1 lays RS then GS: seats 4 and 3 are skipped, seat 2 plays."""
    # seed 000: "若玩者出多於一張"Skip"牌，被跳過的玩者數目等於發牌數目"
    t = _ccw(_with("RS GS R3"), multi="same")
    evs = act(t, "pad RS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 4
    evs = act(t, "pad GS")                        # (one card left: its window)
    assert names(evs) == ["play", "uno_open", "skip", "turn"] and evs[2][1] == 3
    assert t.turn == 2


def test_h3_t3_ccw_two_rs_in_one_play_are_back_to_ccw():
    """multi=same, ccw, four seats: RR then GR turn play clockwise and back: seat 4 plays."""
    t = _ccw(_with("RR GR R3"), multi="same")
    act(t, "pad RR")
    assert t.dir == 1 and t.turn == 2
    evs = act(t, "pad GR")
    assert names(evs) == ["play", "uno_open", "reverse", "turn"] and evs[2][1] == -1
    assert t.turn == 4


def test_h4_ccw_a_0_passes_every_hand_to_the_right_after_an_r_to_the_left():
    """zero_rotate, ccw: seat 1's 0 passes every hand to the next seat counter-clockwise (seat
    1's to seat 4, seat 4's to seat 3 ...); once an R turned play clockwise, to the left."""
    # seed 003: "每個人都把自己手上的牌交給自己的下家" — the next player, the way play goes
    t = _ccw(_with("R0 R2 R3"), zero_rotate="yes")
    evs = act(t, "pad R0")
    assert names(evs) == ["play", "rotate", "turn"] and evs[1][1] == -1
    assert hand(t, 4) == ["R2", "R3"] and hand(t, 3) == ["B1", "B2", "B3"]
    assert hand(t, 2) == ["Y1", "Y2", "Y3"] and hand(t, 1) == ["G1", "G2", "G3"]
    t = _ccw(_with("RR R2 R3", s2="R0 G2 G3"), zero_rotate="yes")
    act(t, "pad RR")                              # clockwise: seat 2
    evs = act(t, "pad R0")
    assert evs[1] == (ROTATE, 1)
    assert hand(t, 3) == ["G2", "G3"] and hand(t, 1) == ["B1", "B2", "B3"]
    assert hand(t, 2) == ["R2", "R3"] and hand(t, 4) == ["Y1", "Y2", "Y3"]


def test_h4_ccw_the_narration_says_which_way_the_hands_pass():
    """zero_rotate, ccw: the narration of seat 1's 0 says the hands pass counter-clockwise;
    after an R, clockwise. It had said only "to the next seat"."""
    t = _ccw(_with("R0 R2 R3"), zero_rotate="yes")
    assert says(act(t, "pad R0"))[1] == "every hand passes to the next seat, counter-clockwise"
    t = _ccw(_with("RR R2 R3", s2="R0 G2 G3"), zero_rotate="yes")
    act(t, "pad RR")
    assert says(act(t, "pad R0"))[1] == "every hand passes to the next seat, clockwise"


def test_h6_t3_ccw_two_players_an_s_lets_its_player_play_again():
    """ccw, two players: an S skips the other seat; its player plays again, a new turn."""
    # seed 002: "某位玩家打出Skip牌，该玩家可以继续打出下一张牌"
    t = deal({1: "RS R2 R3", 2: "G1 G2 G3"}, start="R5", dealer=2, direction="ccw")
    evs = act(t, "pad RS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1
    assert names(act(t, "pad R2")) == ["play", "uno_open", "turn"] and t.turn == 2


def test_h7_ccw_the_slowest_slapper_draws_then_play_goes_on_to_the_right():
    """slap4, ccw: seat 1's R4: every seat slaps, seat 2 last draws 2; then seat 4 plays."""
    t = _ccw(_with("R4 R2 R3"), slap4="yes")
    evs = act(t, "pad R4")
    assert names(evs) == ["play", "slap_open", "turn"] and t.turn == 4
    act(t, "seat 4", "seat 1")
    evs = act(t, "seat 3")
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (2, 2, W_SLAP)
    act(t, "shoe G8", "shoe G9")
    assert t.turn == 4 and t.drawer() == 4


# ---- T5, M3, P2 with direction=ccw --------------------------------------------------------

def test_t5_ccw_a_winning_d_is_drawn_by_the_seat_on_the_right_and_scored():
    """ccw: seat 1 wins on a D: seat 4 (not seat 2) draws 2, and they count in the score."""
    # seed 002: "此局游戏已结束，但赢家的下一家仍需受罚"; seed 004: "而他们所抽出的牌也要计分"
    t = _ccw({1: "RD", 2: "G1", 3: "Y1", 4: "B1"})
    evs = act(t, "pad RD")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (4, 2, W_DRAW2)
    act(t, "shoe G8")
    evs = act(t, "shoe G9")
    assert names(evs)[-1] == "score" and ROUND_OVER in [e[0] for e in evs]
    assert t.winner == 1 and t.scores[1] == 1 + 1 + 1 + 8 + 9


def test_m3_ccw_a_seat_out_leaves_the_order_an_s_then_skips_over_it():
    """elimination, ccw: seat 4 goes out; seat 1's S then skips seat 3 (seat 4 is gone) and
    seat 2 plays."""
    # seed 003: "假設這是四人局，有一人勝出，則四人局變成三人局"
    t = _ccw({1: "RS G7", 2: "G1 G2", 3: "Y1 Y2", 4: "R2 R3"}, elimination="yes")
    act(t, "shoe Y8", "pad R2", "seat 4", "shoe Y9", "shoe B8", "shoe B9")
    evs = act(t, "pad R3")
    assert names(evs) == ["play", "turn", "out"] and evs[1][1] == 3 and t.active == [1, 2, 3]
    act(t, "shoe G8", "shoe G9")
    assert t.turn == 1
    evs = act(t, "pad RS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 3 and evs[2][1] == 2


def test_p2_ccw_the_turn_timer_runs_for_the_seat_on_the_right():
    """turn_timer=10, ccw: after seat 1 plays, seat 4's time runs: it is warned, then draws 2."""
    t = _ccw(_with("R7 R8 R9"), turn_timer=10)
    act(t, "tick 1000", "pad R7")
    assert t.turn == 4
    evs = act(t, "tick 9000")
    assert names(evs) == ["timer_warn"] and evs[0][1] == 4
    evs = act(t, "tick 11002")
    assert names(evs) == ["penalty"] and evs[0][1:] == (4, 2, W_SLOW)


# ---- T3 and the take-back, U6 -------------------------------------------------------------

def test_t3_ccw_an_r_taken_back_turns_play_counter_clockwise_again():
    """ccw: seat 1's R (clockwise now, seat 2's turn) is taken back: the record says the
    direction goes back to ccw, and seat 1 plays again; its draw then passes to seat 4."""
    t = _ccw(_with("RR R2 R3"))
    act(t, "pad RR")
    evs = act(t, "undo 1")
    assert (REVERSE, -1) in evs and t.dir == -1 and t.turn == 1
    assert names(act(t, "shoe G9")) == ["draw", "turn"] and t.turn == 4


def test_u6_u1_ccw_identical_cards_open_a_window_the_seat_on_the_left_cannot_close_it():
    """uno_identical, ccw: seat 1 plays R1 and holds G7 G7: its window opens; seat 2 (on its
    left) drawing out of turn is refused, seat 4's draw closes it; seat 1's late call then
    holds identical cards: no false call."""
    # seed 002: "只有多张完全相同的牌的时候要大喊"
    t = _ccw({1: "R1 G7 G7", 2: "G1 G2 G3", 3: "Y1 Y2 Y3", 4: "B1 B2 B3"},
             uno_identical="yes", false_uno=2)
    assert names(act(t, "pad R1")) == ["play", "uno_open", "turn"] and t.turn == 4
    assert names(act(t, "shoe B9")) == ["uno_close", "draw", "turn"] and t.late == 1
    assert unchanged(t, "seat 1") == R_NOTHING


def test_u6_h4_ccw_a_hand_of_identical_cards_passed_on_by_a_0_opens_no_window():
    """uno_identical, zero_rotate, ccw: seat 1 plays R0 keeping G7 G7; its hand passes to seat 4,
    which never played a card for it: no window, and its press is no false call."""
    # seed 003: "當有人打出數字零的時候…每個人都把自己手上的牌交給自己的下家"; docs/rules.md H4:
    # "No UNO window opens for the 0's player"
    t = _ccw({1: "R0 G7 G7", 2: "G1 G2 G3", 3: "Y1 Y2 Y3", 4: "B1 B2 B3"},
             uno_identical="yes", zero_rotate="yes", false_uno=2)
    assert names(act(t, "pad R0")) == ["play", "rotate", "turn"] and t.window == 0
    assert hand(t, 4) == ["G7", "G7"]
    assert unchanged(t, "seat 4") == R_NOTHING
    evs = act(t, "seat 1")                        # three cards: a false call
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (1, 2, W_FALSE_UNO)


def test_u6_h3_a_multi_play_leaving_identical_cards_opens_one_window_that_the_next_card_keeps():
    """uno_identical, multi=same, ccw: seat 1 lays R5 leaving G5 G5 B5 (no window), adds B5:
    G5 G5 are identical: the window opens; it calls, adds G5: one card, the same window, still
    called; seat 3 cannot catch it."""
    # seed 002: "只有多张完全相同的牌的时候要大喊"; docs/rules.md "U1/U3 with H3"
    t = _ccw({1: "R5 B5 G5 G5", 2: "G1 G2 G3 G4", 3: "Y1 Y2 Y3 Y4", 4: "B1 B2 B3 B4"},
             uno_identical="yes", multi="same", false_catch=2, start="R9")
    assert names(act(t, "pad R5")) == ["play", "turn"]
    assert names(act(t, "pad B5")) == ["play", "uno_open"] and t.window == 1
    assert names(act(t, "seat 1")) == ["uno"]
    assert names(act(t, "pad G5")) == ["play"] and t.window == 1 and t.called
    evs = act(t, "seat 3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (3, 2, W_FALSE_CATCH)


# ---- M3, M4 with direction=ccw ------------------------------------------------------------

def test_m4_s5_teams_are_formed_by_seat_order_whatever_the_direction():
    """teams=2, six seats, ccw: partners are seats 1, 3, 5 and 2, 4, 6 in both directions (the
    seats sit apart either way round); seat 5 going out wins for 1, 3, 5."""
    # seed 002: "同队的队友要相隔坐"
    t = deal({1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2", 4: "G7 B7", 5: "R1 R2", 6: "B8 Y8"},
             start="R5", dealer=6, direction="ccw", teams=2)
    assert t.team(5) == [1, 3, 5] and t.team(6) == [2, 4, 6] and t.turn == 5
    act(t, "pad R1", "seat 5")
    for s, card in ((4, "G9"), (3, "G8"), (2, "B9"), (1, "Y9"), (6, "Y6")):
        assert t.turn == s
        act(t, "shoe " + card)
    evs = act(t, "pad R2")
    assert [e[1] for e in evs if e[0] == SCORE] == [1, 3, 5]


def test_s2_m3_ccw_the_first_seat_out_deals_and_the_deal_starts_on_its_right():
    """elimination, ccw, seats 1-3, seat 2 deals: seat 3 goes out first, seat 2 next; seat 3
    wins and deals round 2, dealing first to seat 2, on its right."""
    # seed 003 (淘汰制): "最快出完手中牌的人獲勝"; seed 002: "本局赢家为下一局的庄家"
    t = deal({1: "G7", 2: "R3", 3: "R2"}, start="R5", dealer=2, direction="ccw",
             elimination="yes")
    assert t.turn == 1
    act(t, "shoe Y8", "pad R2")
    evs = act(t, "pad R3")
    assert t.finished == [3, 2] and ROUND_OVER in [e[0] for e in evs] and t.winner == 3
    evs = act(t, "shuffle")
    assert evs[1][1:] == (2, 3) and t.drawer() == 2


# ---- ccw is cw seen in a mirror -------------------------------------------------------------
#
# Seat s sits where seat 11 - s sits in the mirror: the mirror's counter-clockwise table with
# seats 11 - s, its dealer 11 - d and every input's seat mirrored, must say what the clockwise
# table says, seat for seat, with every direction turned. Random players (uno/bot.py) with
# random settings and take-backs; a first dealer named (the draw for dealer goes in seat
# order, the same in both directions). Where the table orders by seat number by design, the
# two tables may differ: events of one kind listed in seat order (scores, a take-back's joins
# and leaves and the cards going back to the hands), and a tie named by its lower seat (T6's
# blocked round, M1/M2's match): there the game ends if the tied seats are truly tied.

MIRROR_GAMES = 12 if MICRO else 30
MIRROR_STEPS = 1500 if MICRO else 2500
_SEAT_FIELDS = ("seat", "caught", "against", "dealer", "from", "to")


def _m(s):
    return 11 - s if type(s) is int and 1 <= s <= 10 else s


def _mirror_input(inp):
    k = inp[0]
    if k == IN_SEAT:
        return (k, _m(inp[1]), inp[2])
    if k == IN_RULE and inp[1] == "direction":
        return (k, inp[1], "ccw" if inp[2] == "cw" else "cw" if inp[2] == "ccw" else inp[2])
    if k == IN_RULE and inp[1] == "first_dealer":
        return (k, inp[1], _m(inp[2]))
    return inp


def _mirror_event(ev):
    out = [ev[0]]
    name, fields = EVENTS[ev[0]]
    for i in range(len(fields)):
        v = ev[i + 1]
        f = fields[i]
        if f in _SEAT_FIELDS:
            v = _m(v)
        elif f == "direction":
            v = -v
        out.append(v)
    if name == "rule" and ev[1] == "direction":
        out[2] = "ccw" if ev[2] == "cw" else "cw"
    elif name == "rule" and ev[1] == "first_dealer":
        out[2] = _m(ev[2])
    return tuple(out)


def _in_seat_order(ev):
    # listed in seat order by design: they may come in another order in the mirror
    return ev[0] in (SCORE, JOIN, LEAVE) or (ev[0] == CARD_BACK and ev[2] != 11)


def _norm(evs):
    out = []
    run = []
    for e in evs:
        if _in_seat_order(e):
            run.append(e)
            continue
        out.extend(sorted(run))
        run = []
        out.append(e)
    out.extend(sorted(run))
    return out


def _tied(t, a, b):
    """Whether seats a and b of table t are tied where T6 or M1/M2 names the lower seat."""
    if t.phase == P_MATCH_OVER:
        return t.scores[a] == t.scores[b]

    def key(s):
        tp = tn = 0
        for m in t.team(s):
            tp += t._hand_points(m)
            tn += len(t.hands[m])
        return tp, tn, t._hand_points(s), len(t.hands[s])
    return key(a) == key(b)


def _mirror_game(seed):
    rng = Rng(seed)
    seats = random_seats(rng)
    values = random_values(rng, seats)
    values["first_dealer"] = rng.pick(seats)
    mirrored = dict(values)
    mirrored["direction"] = "cw" if values.get("direction") == "ccw" else "ccw"
    mirrored["first_dealer"] = _m(values["first_dealer"])
    a = Table(Settings(values))
    b = Table(Settings(mirrored))
    bot = Bot(a, seats, seed=seed, mistakes=rng.below(60), rules=rng.below(100),
              tick=rng.below(200))
    undo = rng.below(30)                          # per mille: take-backs of 1 to 3 inputs
    for step in range(MIRROR_STEPS):
        if rng.chance(undo):
            inp = (IN_UNDO, 1 + rng.below(3))
        else:
            inp = bot.next_input()
        evs = _norm([_mirror_event(e) for e in a.feed(inp, bot.ms)])
        got = _norm(list(b.feed(_mirror_input(inp), bot.ms)))
        bot.shoe[:] = [c for c in range(NCARDS) if a.loc[c] == SHOE]  # (after take-backs too)
        if evs != got:
            for x, y in zip(evs, got):
                if x != y:
                    break
            assert x[0] in (BLOCKED, MATCH_OVER) and x[0] == y[0], \
                ("seed", seed, "step", step, inp, evs, got)
            assert _tied(a, _m(x[1]), _m(y[1])), ("not a tie", seed, step, evs, got)
            return
        for s in range(1, 11):
            assert sorted(a.hands[s]) == sorted(b.hands[_m(s)]), (seed, step, s)
        assert a.dir == -b.dir and a.turn == _m(b.turn) and a.phase == b.phase, (seed, step)


def test_s2_s3_s4_s5_t3_t5_u1_c1_h2_h3_h4_h7_m3_p2_ccw_is_cw_in_a_mirror():
    """Random games with random settings and take-backs, each played on a clockwise table and,
    seat for seat mirrored, on a counter-clockwise one: the same events, hands and turns, but
    for what goes by seat number by design (ties, and lists in seat order)."""
    for seed in range(1, MIRROR_GAMES + 1):
        _mirror_game(seed)
