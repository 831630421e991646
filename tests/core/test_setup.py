"""S1-S5: seats, the dealer, the deal, the start card, the direction."""
from kit import act, deal, seated, names, unchanged, hand
from uno.events import *
from uno.state import snapshot
from uno.rules import Settings
from uno.table import Table


def test_s1_seats_join_in_the_lobby_and_leave_with_a_long_press():
    t = Table()
    assert names(act(t, "seat 3")) == ["join"]
    assert names(act(t, "seat 7")) == ["join"]
    assert t.seats == [3, 7]
    assert unchanged(t, "seat 3") == R_JOINED
    assert names(act(t, "seat 7 long")) == ["leave"]
    assert unchanged(t, "seat 7 long") == R_NOT_SEATED
    assert t.seats == [3]


def test_s1_two_to_ten_seats():
    t = Table()
    act(t, "seat 1")
    assert unchanged(t, "shuffle") == R_FEW
    for s in range(2, 11):
        act(t, "seat %d" % s)
    assert t.seats == list(range(1, 11))
    assert unchanged(t, "seat 11") == R_BAD_SEAT
    assert unchanged(t, "seat 0") == R_BAD_SEAT


def test_s1_no_joining_after_the_first_deal():
    t = seated((1, 2), first_dealer=1)
    act(t, "shuffle")
    assert unchanged(t, "seat 5") == R_NOT_SEATED


def _match_over(**settings):
    # seats 1, 2, 3 (3 deals); seat 1 wins the match's one round at a target of 50
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5", target=50, **settings)
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    assert names(act(t, "pad R2"))[-1] == "match_over" and t.phase == P_MATCH_OVER
    return t


def test_s1_a_join_after_a_match_opens_the_lobby_for_a_new_group():
    t = _match_over()
    assert t.scores[1] == 103 and t.round == 1
    assert names(act(t, "seat 5")) == ["join"]
    assert t.phase == P_LOBBY and t.seats == [1, 2, 3, 5] and t.naming == 5
    assert t.scores == [0] * 11 and t.round == 0
    assert t.loc[t.top] == 11  # the cards stay where they are until the shuffle
    assert names(act(t, "seat 1 long", "seat 2 long")) == ["leave"]
    assert unchanged(t, "seat 5") == R_JOINED  # the lobby's own answers from now on
    assert names(act(t, "shuffle")) == ["shuffle", "round"]  # first_dealer 3, still in the game
    assert t.seats == [3, 5] and t.dealer == 3 and t.round == 1 and t.shoe == 108


def test_s1_a_leave_after_a_match_opens_the_lobby_and_the_dealer_is_drawn():
    t = _match_over()
    act(t, "rule first_dealer 0")
    assert names(act(t, "seat 3 long")) == ["leave"]
    assert t.phase == P_LOBBY and t.seats == [1, 2] and t.scores == [0] * 11
    assert names(act(t, "shuffle")) == ["shuffle"] and t.phase == P_DRAWOFF  # S2 as at first


def test_s1_after_a_match_a_press_that_neither_joins_nor_leaves_opens_nothing():
    t = _match_over()
    assert unchanged(t, "seat 2") == R_NOTHING
    assert unchanged(t, "seat 6 long") == R_NOT_SEATED
    assert t.phase == P_MATCH_OVER and t.scores[1] == 103
    # without a new group the next match keeps the seats; the last round's winner deals
    assert names(act(t, "shuffle")) == ["shuffle", "round"]
    assert t.seats == [1, 2, 3] and t.dealer == 1 and t.scores == [0] * 11


def test_s1_a_new_group_only_after_the_match_not_between_its_rounds():
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5", target=500)
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9", "pad R2")
    assert t.phase == P_ROUND_OVER
    assert unchanged(t, "seat 5") == R_NOT_SEATED
    assert unchanged(t, "seat 2 long") == R_LEAVE_LATER


def test_s1_a_take_back_of_the_join_returns_to_the_match_end_with_its_scores():
    t = _match_over()
    before = snapshot(t)
    act(t, "seat 5")
    evs = act(t, "undo 1")
    assert evs == [(UNDO, 1), (LEAVE, 5)]  # no card moved: none was put back
    assert snapshot(t) == before and t.phase == P_MATCH_OVER


def test_s2_dealer_chosen_on_the_host():
    t = seated((2, 4, 6), first_dealer=4)
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"]
    assert t.dealer == 4 and t.phase == P_DEAL


def test_s2_draw_off_highest_number_deals_non_numbers_redrawn():
    t = seated((1, 2, 3))
    act(t, "shuffle")
    assert t.phase == P_DRAWOFF and t.drawer() == 1
    act(t, "shoe R3")
    assert t.drawer() == 2
    act(t, "shoe GS")          # a symbol: seat 2 draws again
    assert t.drawer() == 2
    act(t, "shoe W4")
    assert t.drawer() == 2
    act(t, "shoe B8")
    evs = act(t, "shoe Y5")
    assert names(evs) == ["drawoff", "dealer"] and t.dealer == 2
    assert t.phase == P_DEALER
    assert unchanged(t, "shoe R9") == R_WANT_SHUFFLE
    assert names(act(t, "shuffle")) == ["shuffle", "round"]
    assert t.shoe == 108 and t.drawer() == 3  # dealing starts left of the dealer


def test_s2_draw_off_ties_for_highest_draw_again():
    t = seated((1, 2, 3))
    act(t, "shuffle", "shoe R9", "shoe G2", "shoe B9")
    assert t.phase == P_DRAWOFF and t.offs == [1, 3]
    act(t, "shoe Y1")
    evs = act(t, "shoe Y7")
    assert names(evs) == ["drawoff", "dealer"] and t.dealer == 3


def test_s2_set_aside_cards_cannot_be_played_or_drawn_again():
    t = seated((1, 2))
    act(t, "shuffle", "shoe R9a")
    assert unchanged(t, "shoe R9a") == R_ASIDE


def test_s3_deal_card_by_card_starting_left_of_the_dealer():
    t = seated((1, 2, 3), first_dealer=2, hand_size=2)
    act(t, "shuffle")
    order = []
    for card in ("R1", "R2", "R3", "R4", "R5", "R6"):
        evs = act(t, "shoe " + card)
        order.append(evs[0][1])
    assert order == [3, 1, 2, 3, 1, 2]
    assert hand(t, 3) == ["R1", "R4"] and hand(t, 2) == ["R3", "R6"]
    assert t.phase == P_START


def test_s3_hand_size_setting():
    t = deal({1: "R1 R2 R3 R4 R5 R6 R7 R8 R9 G1 G2 G3", 2: "B1 B2 B3 B4 B5 B6 B7 B8 B9 Y1 Y2 Y3"})
    assert len(t.hands[1]) == 12 and t.rules.hand_size == 12


def test_s4_number_start_card_first_player_left_of_dealer():
    t = deal({1: "R1", 2: "G1", 3: "B1"}, start="Y5", dealer=2)
    assert t.turn == 3 and t.colour == 1 and t.pile == 1


def test_s4_w4_start_card_goes_back_into_the_pile():
    t = deal({1: "R1", 2: "G1"}, start=None)
    evs = act(t, "shoe W4")
    assert names(evs) == ["back"]
    assert t.phase == P_START and t.shoe == 108 - 2
    evs = act(t, "shoe R7")
    assert names(evs) == ["start", "turn"]


def test_s4_wild_start_card_first_player_names_the_colour():
    t = deal({1: "R1", 2: "G1", 3: "B1"}, start="W")
    assert t.want == 1 and t.turn == 1
    assert unchanged(t, "pad R1") == R_WANT_COLOUR
    evs = act(t, "colour G")
    assert names(evs) == ["colour"] and t.turn == 1 and t.colour == 2


def test_s4_draw_two_start_card_first_player_draws_and_is_skipped():
    t = deal({1: "R1", 2: "G1", 3: "B1"}, start="YD")
    assert t.turn == 1 and t.pending == 2
    assert unchanged(t, "pad R1") == R_MUST_DRAW
    act(t, "shoe B9")
    evs = act(t, "shoe B8")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 1 and t.turn == 2


def test_s4_skip_start_card_skips_the_first_player():
    evs_t = deal({1: "R1", 2: "G1", 3: "B1"}, start="YS")
    assert evs_t.turn == 2


def test_s4_reverse_start_card_player_right_of_dealer_begins():
    t = deal({1: "R1", 2: "G1", 3: "B1", 4: "Y1"}, start="YR", dealer=2)
    assert t.dir == -1 and t.turn == 1


def test_s4_reverse_start_card_option_dealer_begins():
    t = deal({1: "R1", 2: "G1", 3: "B1", 4: "Y1"}, start="YR", dealer=2, start_reverse="dealer")
    assert t.dir == -1 and t.turn == 2


def test_s4_reverse_start_card_with_two_players_acts_as_skip():
    t = deal({1: "R1", 2: "G1"}, start="YR", dealer=2)
    assert t.turn == 2


def test_s5_counter_clockwise_option():
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "B1 B2"}, start="Y5", dealer=2, direction="ccw")
    assert t.turn == 1 and t.dir == -1
    assert hand(t, 1) == ["R1", "R2"]  # dealt first: ccw left of seat 2 is seat 1
    act(t, "shoe Y9")                  # seat 1 draws, cannot play it... Y9 can: it waits
    assert t.drawn >= 0


def test_s5_clockwise_by_default():
    t = deal({1: "R1", 2: "G1", 3: "B1"}, start="Y5", dealer=3)
    assert Settings().direction == "cw" and t.dir == 1 and t.turn == 1
