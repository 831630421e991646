"""H1-H5, H7: stacking, jump-in, multi-play, zero rotates, sum win, slap on 4."""
from kit import act, deal, names, unchanged, hand
from uno.events import *
from uno.state import snapshot


def test_h1_draw_two_on_draw_two_adds_up_and_the_first_who_cannot_draws_all():
    t = deal({1: "RD R1 Y6", 2: "GD G2 Y8", 3: "Y1 Y2 Y9"}, start="R5", stacking="on")
    act(t, "pad RD")
    evs = act(t, "pad GD")
    assert names(evs) == ["play", "turn", "owe"] and evs[2][1:] == (3, 4, W_STACK)
    assert unchanged(t, "pad Y1") == R_MUST_DRAW
    for c in ("B1", "B2", "B3"):
        act(t, "shoe " + c)
    evs = act(t, "shoe B4")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 3 and t.turn == 1 and len(t.hands[3]) == 7


def test_h1_w4_on_w4_and_never_d_on_w4():
    t = deal({1: "W4 R1 Y6", 2: "W4 GD G2", 3: "Y1 Y2 Y3"}, start="B5", stacking="on")
    act(t, "pad W4", "colour G")
    assert unchanged(t, "pad GD") == R_MUST_DRAW
    act(t, "pad W4")
    evs = act(t, "colour Y")
    assert names(evs) == ["colour", "turn", "owe"] and evs[2][1:] == (3, 8, W_STACK)


def test_h1_w4_on_d_only_as_an_option_and_no_wild_on_a_pending_draw():
    t = deal({1: "RD R1 Y6", 2: "W4 W G2", 3: "Y1 Y2 Y3"}, start="R5", stacking="on")
    act(t, "pad RD")
    assert unchanged(t, "pad W4") == R_MUST_DRAW
    assert unchanged(t, "pad W") == R_MUST_DRAW
    t = deal({1: "RD R1 Y6", 2: "W4 W G2", 3: "Y1 Y2 Y3"}, start="R5", stacking="w4_on_d")
    act(t, "pad RD", "pad W4")
    evs = act(t, "colour B")
    assert evs[2][1:] == (3, 6, W_STACK)


def test_h1_no_answer_once_drawing_began_and_off_by_default():
    t = deal({1: "RD R1 Y6", 2: "GD G2 G3", 3: "Y1 Y2 Y3"}, start="R5", stacking="on")
    act(t, "pad RD", "shoe B1")
    assert unchanged(t, "pad GD") == R_MUST_DRAW
    t = deal({1: "RD R1", 2: "GD G2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad RD")
    assert unchanged(t, "pad GD") == R_MUST_DRAW


def test_h2_jump_in_with_an_identical_card_play_goes_on_after_the_jumper():
    t = deal({1: "R7 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9", 4: "R7 B2 B6"}, start="R5", jump_in="identical")
    act(t, "pad R7a")
    evs = act(t, "pad R7b")                      # seat 4 jumps over seats 2 and 3
    assert names(evs) == ["jump_in", "play", "turn"] and t.turn == 1


def test_h2_only_identical_cards_and_only_numbers_by_default():
    t = deal({1: "R7 R1", 2: "G1 G2", 3: "Y1 Y2", 4: "G7 RS"}, start="R5", jump_in="identical")
    act(t, "pad R7")
    assert unchanged(t, "pad G7") == R_NOT_TURN
    t = deal({1: "RS R1", 2: "G1 G2", 3: "Y1 Y2", 4: "RS B2"}, start="R5", jump_in="identical")
    act(t, "pad RSa")
    assert unchanged(t, "pad RSb") == R_NOT_TURN
    t = deal({1: "R7 R1", 2: "G1 G2", 3: "Y1 Y2", 4: "R7 B2"}, start="R5")
    act(t, "pad R7a")
    assert unchanged(t, "pad R7b") == R_NOT_TURN


def test_h2_option_action_cards_the_jumped_cards_effect_is_cancelled():
    # seed 002: A plays +2, B (not A's next) jumps with +2: B's next draws 2, not 4
    t = deal({1: "RD R1 Y6", 2: "G1 G2 Y8", 3: "RD Y2 Y9", 4: "B1 B2 B6"}, start="R5", jump_in="actions")
    act(t, "pad RDa")
    assert t.turn == 2 and t.pending == 2
    evs = act(t, "pad RDb")
    assert names(evs) == ["jump_in", "play", "turn", "owe"]
    assert t.turn == 4 and t.pending == 2 and len(t.hands[2]) == 3
    t = deal({1: "RR R1", 2: "G1 G2", 3: "RR Y2", 4: "B1 B2"}, start="R5", jump_in="actions")
    act(t, "pad RRa")                            # ccw: seat 4's turn
    act(t, "pad RRb")                            # seat 3 jumps: its R replaces the first
    assert t.dir == -1 and t.turn == 2


def test_h3_multi_play_same_number_the_last_card_names_the_colour():
    t = deal({1: "R7 G7 B7 Y1 Y8", 2: "G1 G2 G3 G4 B2", 3: "Y1 Y2 Y3 Y4 B3"}, start="R5", multi="same")
    act(t, "pad R7")
    assert t.turn == 2
    act(t, "pad G7")
    evs = act(t, "pad B7")
    assert names(evs) == ["play"] and t.colour == 3 and t.turn == 2 and hand(t, 1) == ["Y1", "Y8"]


def test_h3_skips_and_draws_add_up():
    t = deal({1: "RS GS R1 R2", 2: "G1 G2 G3 G4", 3: "Y1 Y2 Y3 Y4", 4: "B1 B2 B3 B4"}, start="R5", multi="same")
    act(t, "pad RS")
    assert t.turn == 3
    evs = act(t, "pad GS")
    assert names(evs) == ["play", "skip", "turn"] and t.turn == 4
    t = deal({1: "RD GD R1 R2", 2: "G1 G2 G3 G4", 3: "Y1 Y2 Y3 Y4"}, start="R5", multi="same")
    act(t, "pad RD", "pad GD")
    assert t.turn == 2 and t.pending == 4


def test_h3_identical_only_option_and_it_ends_when_the_next_seat_acts():
    t = deal({1: "R7 R7 G7", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", multi="identical")
    act(t, "pad R7a")
    assert unchanged(t, "pad G7") == R_NOT_TURN
    act(t, "pad R7b")
    act(t, "shoe B9")                            # seat 2 draws: the multi-play is over
    assert unchanged(t, "pad G7") == R_NOT_TURN


def test_h4_zero_passes_every_hand_to_the_next_seat():
    t = deal({1: "R0 R1 B1", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", zero_rotate="yes")
    evs = act(t, "pad R0")
    assert names(evs) == ["play", "rotate", "turn"]
    assert hand(t, 2) == ["B1", "R1"] and hand(t, 3) == ["G1", "G2", "G3"]
    assert hand(t, 1) == ["Y1", "Y2", "Y3"]
    assert t.owes(1) == 0 and t.turn == 2


def test_h5_sum_win():
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G3", 3: "Y1 Y5 Y3"}, start="R5", sum_win="yes")
    act(t, "pad R4")                             # seat 2 holds 0 + 1 + 3 = 4
    assert unchanged(t, "seat 3 long") == R_NO_SUM
    evs = act(t, "seat 2 long")
    assert names(evs) == ["sum_win", "round_over", "score"] and evs[0][1:] == (2, 4)
    assert evs[1][1:] == (2, 1 + 1 + 1 + 5 + 3)


def test_h3_m3_a_seat_out_on_its_last_card_adds_no_more():
    # the state names no multi-playing seat once that seat is out: nothing lights it to add
    t = deal({1: "R1", 2: "G2", 3: "Y3"}, start="R5", elimination="yes", multi="same")
    assert names(act(t, "pad R1")) == ["play", "turn", "out"]
    assert t.chain == 0 and snapshot(t)["chain"][0] == 0 and t.turn == 2


def test_h5_hand_sum_says_minus_one_until_a_number_is_played():
    # the public question the random players ask (uno/bot.py): -1 is "no sum win", never None
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G3", 3: "Y1 Y5 Y3"}, start="R5", sum_win="yes")
    assert [t.hand_sum(s) for s in (1, 2, 3)] == [-1, -1, -1]   # the start card is no play
    act(t, "pad R4")
    assert [t.hand_sum(s) for s in (1, 2, 3)] == [-1, 4, -1]
    t.hands[3] = []                              # no cards, no sum
    assert t.hand_sum(3) == -1


def test_h5_a_multiple_counts_and_action_cards_spoil_the_sum():
    t = deal({1: "R4 R1 B1", 2: "G0 G5 G3", 3: "Y1 Y5 YS"}, start="R5", sum_win="yes")
    act(t, "pad R4")
    assert names(act(t, "seat 2 long"))[0] == "sum_win"   # 8 = 2 x 4
    t = deal({1: "R4 R1 B1", 2: "G0 G5 G9", 3: "Y1 Y3 YS"}, start="R5", sum_win="yes")
    act(t, "pad R4")
    assert unchanged(t, "seat 3 long") == R_NO_SUM


def test_h5_an_action_card_is_no_number_to_sum_to():
    # a skip's rank comes after the 9 in the deck's order; it is no number (H5: the number
    # just played), so 4 + 6 does not win on it, nor on a reverse
    for action in ("RS", "RR"):
        t = deal({1: action + " R1 B1", 2: "G4 G6 Y0", 3: "Y4 Y6 B0"}, start="R5",
                 sum_win="yes")
        act(t, "pad " + action)
        assert t.sum_to < 0
        for s in (2, 3):
            assert unchanged(t, "seat %d long" % s) in (R_NO_SUM, R_NO_CHALLENGE), action


def test_h5_only_until_the_next_play():
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G3", 3: "Y1 Y5 Y3"}, start="R5", sum_win="yes")
    act(t, "pad R4", "shoe B9")
    assert unchanged(t, "seat 2 long") == R_SUM_LATE


def test_h7_slap_on_four_the_last_to_slap_draws_two():
    t = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8", 3: "Y1 Y2 Y9", 4: "B1 B2 B6"}, start="R5", slap4="yes")
    evs = act(t, "pad R4")
    assert names(evs) == ["play", "slap_open", "turn"]
    assert unchanged(t, "pad G2") == R_WAIT_SLAP
    assert names(act(t, "seat 3")) == ["slap"]
    assert names(act(t, "seat 1")) == ["slap"]
    evs = act(t, "seat 2")
    assert names(evs) == ["slap", "penalty"] and evs[1][1:] == (4, 2, W_SLAP)
    assert t.slap == 0 and t.drawer() == 4


def test_h7_off_by_default():
    t = deal({1: "R4 R1 Y6", 2: "G1 G2 Y8"}, start="R5")
    assert names(act(t, "pad R4")) == ["play", "turn"]


def test_t2_h3_after_playing_the_drawn_card_no_card_is_added():
    # seed 001: "抽牌后只能打出抽到的牌，不能从原有手牌中出牌": the drawn card only, no multi-play
    t = deal({1: "B7 G3 G4", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", multi="same")
    act(t, "shoe R7", "pad R7")
    assert t.turn == 2 and t.chain == 0
    assert unchanged(t, "pad B7") == R_NOT_TURN



def test_h5_not_on_the_seats_own_number():
    # seed 000: "自己牌上數值之和等與對方打出的牌之數字" (the number the other side played)
    t = deal({1: "R4 G1 G3", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5", sum_win="yes")
    act(t, "pad R4")
    assert t.hand_sum(1) == -1
    assert unchanged(t, "seat 1 long") == R_NO_SUM


def test_h3_h4_a_zero_that_passes_the_hands_takes_no_more_cards():
    # multi-play and zero rotates (the party preset): seat 1's R0 passes every hand on at once
    # (its G0 goes to seat 2), so no card can be added from the hand seat 1 now holds (seat 3's
    # B0): it is not the hand the R0 came from
    t = deal({1: "R0 G0 B5", 2: "Y1 Y3 Y4", 3: "B0 B7 B8"}, start="R5", multi="same",
             zero_rotate="yes")
    assert names(act(t, "pad R0")) == ["play", "rotate", "turn"]
    assert hand(t, 1) == ["B0", "B7", "B8"] and hand(t, 2) == ["B5", "G0"]
    assert t.chain == 0
    assert unchanged(t, "pad B0") == R_NOT_TURN
    # without zero_rotate the same seat adds its G0
    t = deal({1: "R0 G0 B5", 2: "Y1 Y3 Y4", 3: "B0 B7 B8"}, start="R5", multi="same")
    assert names(act(t, "pad R0", "pad G0")) == ["play", "uno_open"] and t.colour == 2


def test_h4_m3_a_zero_that_is_the_last_card_passes_no_hand():
    # elimination: seat 1 goes out on its R0; passing the hands would hand seat 2 its empty
    # one (out of the round at once): no hand passes, the round goes on
    t = deal({1: "R0", 2: "G1", 3: "Y1"}, start="R5", zero_rotate="yes", elimination="yes")
    assert names(act(t, "pad R0")) == ["play", "turn", "out"]
    assert hand(t, 2) == ["G1"] and hand(t, 3) == ["Y1"] and t.active == [2, 3]


def test_h1_c1_enforce_rejects_a_stacked_w4_from_a_hand_that_holds_the_colour():
    # stacking=on (W4 on W4) with C1's enforce: a stacked W4 is judged from the hand as any W4
    # (docs/rules.md, w4_on_d: "With stacking=on … a stacked W4 is judged from the hand"), so
    # seat 2, holding green after the first W4 named green, may not answer with its W4
    t = deal({1: "W4 R1 Y6", 2: "W4 G2 Y8", 3: "Y1 Y2 Y3"}, start="B5", stacking="on",
             w4="enforce")
    act(t, "pad W4a", "colour G")
    assert unchanged(t, "pad W4b") == R_W4_ILLEGAL
    t = deal({1: "W4 R1 Y6", 2: "W4 G2 Y8", 3: "Y1 Y2 Y3"}, start="B5", stacking="on",
             w4="enforce", misplay=2)
    act(t, "pad W4a", "colour G")
    assert names(act(t, "pad W4b")) == ["reject", "penalty"]      # a misplay (P1)
    # without the colour it stacks; with w4_on_d a W4 that answers is legal whatever the hand
    t = deal({1: "W4 R1 Y6", 2: "W4 B2 Y8", 3: "Y1 Y2 Y3"}, start="B5", stacking="on",
             w4="enforce")
    act(t, "pad W4a", "colour G", "pad W4b")
    assert names(act(t, "colour Y"))[-1] == "owe" and t.pending == 8
    t = deal({1: "W4 R1 Y6", 2: "W4 G2 Y8", 3: "Y1 Y2 Y3"}, start="B5", stacking="w4_on_d",
             w4="enforce")
    act(t, "pad W4a", "colour G", "pad W4b")
    assert names(act(t, "colour Y"))[-1] == "owe" and t.pending == 8


def test_h2_c1_enforce_rejects_a_jumped_w4_from_a_hand_that_holds_the_colour():
    # jump_in=actions with C1's enforce: the jumper's W4 is judged from the jumper's hand
    # against the colour in force when it jumps (docs/rules.md, H2 with wilds)
    t = deal({1: "W4 B1 Y6", 2: "G1 G2 Y8", 3: "W4 B2 Y9"}, start="R5", jump_in="actions",
             w4="enforce")
    act(t, "pad W4a", "colour B")
    assert unchanged(t, "pad W4b") == R_W4_ILLEGAL
    t = deal({1: "W4 B1 Y6", 2: "G1 G2 Y8", 3: "W4 R2 Y9"}, start="R5", jump_in="actions",
             w4="enforce")
    act(t, "pad W4a", "colour B")
    assert names(act(t, "pad W4b")) == ["jump_in", "play", "colour_wanted"]


def test_h7_m3_m4_a_4_that_wins_the_round_for_the_team_opens_no_slap():
    # elimination with teams {1, 3} and {2, 4}: seat 3's 4 is the last card of its team still
    # in, so it wins the round, and a 4 that wins the round opens no slap (docs/rules.md, H7);
    # the others still held cards, and a slap_open came before the round_over
    t = deal({1: "R1", 2: "G9", 3: "R4", 4: "BS"}, start="R5", teams=2, elimination="yes",
             slap4="yes")
    act(t, "pad R1", "shoe B9")                  # seat 1 out, seat 2 draws: seat 3's turn
    evs = act(t, "pad R4")
    assert "slap_open" not in names(evs) and "round_over" in names(evs) and t.slap == 0
    # the same for a 4 added in a multi-play (H3)
    t = deal({1: "R1 G1", 2: "G9 G8", 3: "G4 R4", 4: "BS B7"}, start="R5", teams=2,
             elimination="yes", slap4="yes", multi="same")
    act(t, "pad R1", "pad G1", "pad G9")         # seat 1 out; seat 2 plays: seat 3's turn
    assert "slap_open" in names(act(t, "pad G4"))   # not the last card: a slap
    act(t, "seat 1", "seat 2", "seat 3")         # seat 1 is out: seat 4 slaps last
    assert t.slap == 0 and t.debts == [[4, 2, W_SLAP]]
    act(t, "seat 3", "shoe Y1", "shoe Y2")       # seat 3 calls; seat 4 draws its penalty
    evs = act(t, "pad R4")
    assert "slap_open" not in names(evs) and "round_over" in names(evs) and t.slap == 0
