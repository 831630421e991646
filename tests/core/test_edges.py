"""Tests that would notice (issue 10): each kills a mutant of table.py that once survived, or
pins a threshold on both sides."""
from kit import act, deal, names, unchanged, seated, hand
from uno.state import snapshot
from uno.events import *
from uno.cards import NCARDS, copy_name


def test_h1_the_stack_is_spent_once_a_stacked_d_is_drawn():
    t = deal({1: "RD GD R1 R2", 2: "RD G5 G6 G7", 3: "Y1 Y2 Y3 Y4"}, start="R5", stacking="on")
    act(t, "pad RDa", "pad RDb")                 # seat 3 owes 4
    assert t.turn == 3 and t.pending == 4 and t.pending_why == W_STACK
    act(t, "shoe B1", "shoe B2", "shoe B3", "shoe B4")
    assert t.turn == 1 and t.stack == 0
    evs = act(t, "pad GD")                       # a plain D after a stacked one
    assert evs[-1] == (OWE, 2, 2, W_DRAW2) and t.pending == 2


def test_c1_a_w4_cannot_be_challenged_twice():
    t = deal({1: "W4 R1 R2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert evs[0][3] == V_ILLEGAL and t.owes(1) == 4
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    t = deal({1: "W4 B1 B2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert evs[0][3] == V_LEGAL and t.pending == 6
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


def test_m1_a_score_exactly_on_the_target_ends_the_match():
    t = deal({1: "R1", 2: "G9"}, start="R5", target=9)
    evs = act(t, "pad R1")
    assert t.scores[1] == 9 and t.phase == P_MATCH_OVER and names(evs)[-1] == "match_over"


def test_m1_a_score_one_below_the_target_does_not():
    t = deal({1: "R1", 2: "G9"}, start="R5", target=10)
    act(t, "pad R1")
    assert t.scores[1] == 9 and t.phase == P_ROUND_OVER


def test_m2_a_loser_exactly_on_the_target_ends_the_match():
    t = deal({1: "R1", 2: "G9"}, start="R5", scoring="losers", target=9)
    act(t, "pad R1")
    assert t.scores[2] == 9 and t.phase == P_MATCH_OVER


def test_s1_s5_seats_joining_3_1_2_play_in_seat_order():
    t = seated((3, 1, 2), hand_size=1, first_dealer=3)
    assert t.seats == [1, 2, 3]
    act(t, "shuffle")
    got = []
    for c in ("R1", "R2", "R3"):
        got.append(t.drawer())
        act(t, "shoe " + c)
    assert got == [1, 2, 3]
    act(t, "shoe R5")
    assert t.turn == 1
    act(t, "shoe G1")                            # seat 1 draws (no fit): seat 2's turn
    assert t.turn == 2
    act(t, "shoe G2")
    assert t.turn == 3


def test_h3_a_reverse_added_in_a_multi_play_reverses_again():
    t = deal({1: "RR GR R1 R2", 2: "G1 G2 G3 G4", 3: "Y1 Y2 Y3 Y4", 4: "B1 B2 B3 B4"}, start="R5",
             multi="same")
    evs = act(t, "pad RR")
    assert t.dir == -1 and t.turn == 4
    evs = act(t, "pad GR")
    assert names(evs) == ["play", "reverse", "turn"] and t.dir == 1 and t.turn == 2


def test_h3_a_skip_added_in_a_multi_play_skips_one_more():
    t = deal({1: "RS GS R1 R2", 2: "G1 G2 G3 G4", 3: "Y1 Y2 Y3 Y4", 4: "B1 B2 B3 B4"}, start="R5",
             multi="same")
    act(t, "pad RS")
    assert t.turn == 3
    evs = act(t, "pad GS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 3 and t.turn == 4


def test_h6_h3_with_two_seats_each_skip_lets_the_player_play_again():
    t = deal({1: "RS GS R1 R2", 2: "G1 G2 G3 G4"}, start="R5", multi="same")
    act(t, "pad RS")
    assert t.turn == 1
    evs = act(t, "pad GS")                       # its own turn again: a play, not an addition
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 2 and t.turn == 1


def test_h2_a_jump_in_on_a_reverse_with_three_players_goes_on_from_the_jumper():
    t = deal({1: "RR R1 R2", 2: "RR G2 G3", 3: "Y1 Y2 Y3"}, start="R5", jump_in="actions")
    act(t, "pad RRa")                            # counter-clockwise: seat 3 is next
    assert t.dir == -1 and t.turn == 3
    evs = act(t, "pad RRb")                      # seat 2 jumps: seat 1's R is void
    assert names(evs) == ["jump_in", "reverse", "play", "reverse", "turn"]
    assert [e[1] for e in evs if e[0] == REVERSE] == [1, -1]
    assert t.dir == -1 and t.turn == 1           # seat 2's own R: on from seat 2, ccw


def test_h2_a_jump_in_on_a_reverse_with_two_players():
    t = deal({1: "RR R1 R2", 2: "RR G2 G3"}, start="R5", jump_in="actions")
    act(t, "pad RRa")                            # as a skip: seat 1 again
    assert t.turn == 1
    act(t, "pad RRb")                            # seat 2 jumps: as a skip, seat 2 again
    assert t.turn == 2 and t.dir == 1


def test_m3_a_seat_that_goes_out_does_not_keep_the_turn():
    t = deal({1: "RS", 2: "G1", 3: "Y1", 4: "B1"}, start="R5", elimination="yes")
    evs = act(t, "pad RS")                       # skips seat 2; seat 1 is out
    assert "out" in names(evs) and 1 not in t.active and t.turn == 3
    act(t, "shoe G9")                            # seat 3 draws (no fit): on to seat 4
    assert t.turn == 4
    act(t, "shoe G8")
    assert t.turn == 2                           # past seat 1, which is out


def test_m3_a_seat_out_with_a_wild_names_the_colour_then_leaves_the_turn():
    t = deal({1: "W", 2: "G1", 3: "Y1"}, start="R5", elimination="yes")
    act(t, "pad W")
    assert t.want == 1 and t.turn == 1 and t.leaving == 1
    act(t, "colour Y")
    assert t.turn == 2 and 1 not in t.active and t.leaving == 0
    assert unchanged(t, "seat 1") == R_NOT_SEATED


def test_m3_t5_a_last_d_that_decides_the_round_cannot_be_stacked():
    t = deal({1: "RDa", 2: "RDb"}, start="R5", elimination="yes", stacking="on")
    evs = act(t, "pad RDa")                      # seat 1 out: one seat left, the round is won
    assert t.pending == 2 and not t.stackable and not t.answerable
    assert unchanged(t, "pad RDb") == R_MUST_DRAW
    act(t, "shoe B1")
    evs = act(t, "shoe B2")
    assert "round_over" in names(evs) and t.winner == 1


def test_h3_t5_a_last_d_added_in_a_multi_play_cannot_be_stacked():
    t = deal({1: "RD GD", 2: "BD B1", 3: "Y1 Y2"}, start="R5", multi="same", stacking="on")
    act(t, "pad RD")
    evs = act(t, "pad GD")                       # seat 1 out: the round is won, 4 to draw
    assert t.pending == 4 and not t.stackable and not t.answerable
    assert unchanged(t, "pad BD") == R_MUST_DRAW


def test_m4_m3_a_team_wins_when_all_its_members_are_out():
    t = deal({1: "R1", 2: "G9", 3: "R2", 4: "BS"}, start="R5", teams=2, elimination="yes")
    act(t, "pad R1")                             # seat 1 out, seat 3 still in: play on
    assert t.phase == P_PLAY
    act(t, "shoe B9")                            # seat 2 cannot play
    evs = act(t, "pad R2")                       # seat 3 out: team {1, 3} wins
    assert "round_over" in names(evs) and t.winner == 1  # M3: the first out
    # the team's first seat out wins, whichever seat of the table it is (team i mod N)
    t = deal({1: "R1", 2: "G9", 3: "R2", 4: "BS"}, start="R5", dealer=2, teams=2,
             elimination="yes")
    act(t, "pad R2")                             # seat 3 out first, seat 1 still in
    act(t, "shoe B9")                            # seat 4 cannot play
    evs = act(t, "pad R1")                       # seat 1 out: team {1, 3} wins
    assert "round_over" in names(evs) and t.winner == 3


# ---- thresholds on both sides ---------------------------------------------------------

def test_p2_a_short_timer_warns_at_half_its_time():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=1)
    act(t, "tick 0")
    assert act(t, "tick 499") == []
    assert names(act(t, "tick 500")) == ["timer_warn"]
    assert act(t, "tick 1000") == []
    assert names(act(t, "tick 1001")) == ["penalty"]


def test_p2_the_warning_is_two_seconds_before_a_long_timer():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=4)
    act(t, "tick 0")
    assert act(t, "tick 1999") == []
    assert names(act(t, "tick 2000")) == ["timer_warn"]
    assert t.deadline() == 4001


def test_t4_the_shoe_at_exactly_one_card_needs_no_shuffle():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5")
    t.shoe = 1   # a count only: the threshold of the reshuffle flag is the empty shoe
    t._check_due()
    assert not t.due


def test_t2_t4_with_a_pile_to_shuffle_the_turn_seat_may_not_pass():
    # the shoe is empty but the pile holds two cards: the table wants a shuffle, not a pass
    from test_referee import cards_but, hands_of
    left = ("R5a", "R6a", "B9a")
    hs = hands_of(cards_but(left), 7, 15)
    hs[1] = " ".join(["R6a"] + hs[1].split()[1:])
    t = deal(hs, start="R5a", dealer=7)
    act(t, "pad R6a", "shoe B9a")
    seat = t.turn
    if t.drawn >= 0:
        act(t, "seat %d" % seat)
    last = [c for c in range(108) if t.loc[c] == 0]
    from uno.cards import copy_name
    act(t, "shoe " + copy_name(last[0]))
    if t.drawn >= 0:
        act(t, "seat %d" % t.turn)
    assert t.shoe == 0 and t.pile == 2 and t.drawn < 0
    assert unchanged(t, "seat %d" % t.turn) == R_NOTHING      # not a pass: shuffle the pile


def test_u5_a_new_window_lets_every_seat_catch_again():
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "Y1 Y2"}, start="R5", catchers="each")
    act(t, "pad R1", "seat 3")                   # seat 3 catches seat 1
    assert t.caught == 1 << 3
    act(t, "shoe B1", "shoe B2")                 # seat 1 draws its 2
    act(t, "pad R3")                             # seat 2 down to one card: a new window
    assert t.window == 2 and t.caught == 0
    evs = act(t, "seat 3")
    assert names(evs)[0] == "catch" and evs[0][1:] == (3, 2)


def test_m3_t5_a_last_w4_that_decides_the_round_makes_the_next_seat_draw_4():
    t = deal({1: "W4", 2: "G1"}, start="R5", elimination="yes")
    evs = act(t, "pad W4")
    assert names(evs) == ["play", "out", "turn", "owe"] and t.pending == 4
    assert not t.want and not t.answerable and t.w4_from == 0
    for c in ("B1", "B2", "B3"):
        act(t, "shoe " + c)
    evs = act(t, "shoe B4")
    over = [e for e in evs if e[0] == ROUND_OVER]
    assert over == [(ROUND_OVER, 1, 1 + 1 + 2 + 3 + 4)]     # G1 and the four drawn


def test_m3_a_last_w_that_decides_the_round_ends_it_at_once():
    t = deal({1: "W", 2: "G1"}, start="R5", elimination="yes")
    evs = act(t, "pad W")
    assert names(evs)[:2] == ["play", "out"] and "round_over" in names(evs) and not t.want


def test_h5_a_nine_can_be_summed():
    t = deal({1: "R9 R1", 2: "G4 G5", 3: "Y1 Y2"}, start="R5", sum_win="yes")
    act(t, "pad R9")
    assert t.sum_to == 9
    evs = act(t, "seat 2 long")
    assert names(evs)[0] == "sum_win" and evs[0][1:] == (2, 9)


def test_h3_the_last_card_of_a_multi_play_wins_the_round():
    t = deal({1: "R7 G7", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", multi="same")
    act(t, "pad R7")
    evs = act(t, "pad G7")
    assert "round_over" in names(evs) and t.winner == 1 and t.phase != P_PLAY


def test_h3_h5_a_nine_added_in_a_multi_play_can_be_summed():
    t = deal({1: "R9 G9 R1", 2: "G4 G5 B0", 3: "Y1 Y2 Y3"}, start="R5", multi="same",
             sum_win="yes")
    act(t, "pad R9", "pad G9")
    assert t.sum_to == 9


def test_s2_a_tie_for_highest_forgets_the_lower_draws():
    t = seated((1, 2, 3))
    act(t, "shuffle", "shoe R9a", "shoe G9a", "shoe B5a")   # 1 and 2 tie on 9; 3 drew 5
    assert t.phase == P_DRAWOFF and t.offs == [1, 2] and t.drawer() == 1
    act(t, "shoe R1a", "shoe R2a")               # both draw again, lower than seat 3's 5
    assert t.phase == P_DEALER and t.dealer == 2


def test_t2_no_card_is_expected_at_the_shoe_while_the_drawn_card_may_be_played():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5")
    assert seated((1, 2)).drawer() == 0          # the lobby expects no card
    act(t, "shoe R9")                            # it fits: play it or pass
    assert t.drawn >= 0 and t.drawer() == 0
    assert unchanged(t, "shoe B1") == R_DREW


def test_a_dealt_card_read_at_the_shoe_again_before_the_start_card():
    t = seated((1, 2), hand_size=1, first_dealer=2)
    act(t, "shuffle", "shoe R1a", "shoe R2a")      # dealt: the start card is next
    assert t.phase == P_START
    assert unchanged(t, "shoe R2a") == R_TWICE     # the same tap read twice
    assert unchanged(t, "shoe R1a") == R_IN_HAND   # a card in seat 1's hand


def test_t2_the_drawn_card_may_be_card_0_too():
    # R0 is the deck's card 0: a drawn card like any other (only it may be played, the shoe
    # waits), not "no card drawn"
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5")
    act(t, "shoe R0")
    assert t.drawn == 0 and t.drawer() == 0
    assert unchanged(t, "pad R1") == R_ONLY_DRAWN
    assert unchanged(t, "shoe B1") == R_DREW
    assert names(act(t, "pad R0"))[0] == "play" and t.turn == 2


def test_h5_h7_m3_after_a_sum_win_the_others_still_slap():
    # seat 1's 4 opens a slap; seat 3 slaps, then lays down 1 + 3 = 4 and is out. The round
    # goes on (M3), and so does the slap: the last of the others draws 2 (seed 003: 最慢的要發牌兩張)
    t = deal({1: "R4 R7", 2: "G1 G2", 3: "Y1 Y3", 4: "B8 B9"}, start="R5", sum_win="yes",
             slap4="yes", elimination="yes")
    act(t, "pad R4")
    assert t.slap and t.drawer() == 0            # no card is expected while seats slap
    act(t, "seat 3")                             # a slap
    evs = act(t, "seat 3 long")                  # the sum win
    assert names(evs)[0] == "sum_win" and 3 not in t.active and t.phase == P_PLAY
    assert t.slap == (1 << 1) | (1 << 2) | (1 << 4)
    act(t, "seat 4", "seat 1")
    assert t.slap == 0 and t.debts == [[2, 2, W_SLAP]]


def test_t5_u3_the_round_is_scored_once_every_owed_card_is_drawn():
    t = deal({1: "RD", 2: "G1", 3: "Y1"}, start="R5", misplay=2)
    act(t, "pad RD")                             # seat 2 owes 2; the round is won
    act(t, "pad Y1")                             # no misplay once the round is won: no cost
    assert t.owes(3) == 0 and t.owes(2) == 2     # (test_disputes_misplay.py: P1 with T5)
    act(t, "shoe B3")
    assert t.phase == P_PLAY
    evs = act(t, "shoe B4")
    assert names(evs) == ["draw", "round_over", "score"]
    assert evs[1][1:] == (1, (1 + 3 + 4) + 1)


def test_p2_an_input_at_the_time_of_the_last_tick_does_not_restart_the_timer():
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", turn_timer=5)
    t.feed((IN_TICK, 0))
    t.feed((IN_TICK, 2000))
    t.feed((IN_SEAT, 3, 0), 2000)                # a press logged at the same ms
    evs = t.feed((IN_TICK, 5001))
    assert names(evs) == ["penalty"]


def test_p2_an_input_at_time_zero_starts_the_clock():
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", turn_timer=5)
    t.feed((IN_SEAT, 3, 0), 0)
    assert t.clock == 0
    assert names(t.feed((IN_TICK, 5001))) == ["penalty"]


def test_p2_after_a_timer_penalty_the_seat_has_its_full_time_again():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=5)
    t.feed((IN_TICK, 0))
    assert names(t.feed((IN_TICK, 5001))) == ["penalty"]
    act(t, "shoe B1", "shoe B2")
    assert t.feed((IN_TICK, 5500)) == []
    assert t.deadline() == 5001 + 3000  # its time starts again at the penalty


def test_a_malformed_input_names_no_seat_and_no_card():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5")
    for inp in ((99,), (), (IN_SEAT, "1", 0), (IN_TICK, "x"), (IN_COLOUR, 7, 0)):
        assert list(t.feed(inp)) == [(REJECT, R_BAD_INPUT, 0, -1)], inp


def test_h1_nothing_is_owed_while_a_stacked_w4_names_its_colour():
    t = deal({1: "W4a B1 B2", 2: "W4b G1 G2", 3: "Y1 Y2 Y3"}, start="B5", stacking="on")
    act(t, "pad W4a", "colour G", "pad W4b")
    assert t.want == 2 and t.pending == 0 and t.stack == 4
    assert t.owes(3) == 0 and t.owes(2) == 0


def test_h5_a_hand_of_zeros_wins_on_a_zero():
    t = deal({1: "R0 R1", 2: "G0 B0", 3: "Y1 Y2"}, start="R5", sum_win="yes")
    act(t, "pad R0")
    evs = act(t, "seat 2 long")
    assert names(evs)[0] == "sum_win" and evs[0][1:] == (2, 0)


def test_m3_h1_a_last_d_that_leaves_the_round_going_on_can_be_stacked():
    t = deal({1: "RDa", 2: "RDb", 3: "Y1"}, start="R5", elimination="yes", stacking="on")
    evs = act(t, "pad RDa")                      # seat 1 out: two seats left, the round goes on
    assert "out" in names(evs) and "round_over" not in names(evs)
    assert t.turn == 2 and t.pending == 2 and t.stackable and t.answerable
    evs = act(t, "pad RDb")                      # seat 2 answers it with its D
    assert names(evs)[0] == "play" and t.turn == 3 and t.pending == 4


def test_m1_no_seat_has_won_a_round_before_the_first_round_is_over():
    t = seated((1, 2, 3))
    assert t.winner == 0 and snapshot(t)["winner"] == 0
    t = deal({1: "R1", 2: "G9", 3: "Y7"}, start="R5")
    assert t.winner == 0 and snapshot(t)["winner"] == 0
    evs = act(t, "pad R1")
    assert "round_over" in names(evs) and t.winner == 1 and snapshot(t)["winner"] == 1


def test_m3_h3_h1_a_last_d_added_in_a_multi_play_that_leaves_the_round_going_on_can_be_stacked():
    t = deal({1: "RD GD", 2: "BD B1", 3: "Y1 Y2"}, start="R5", multi="same", stacking="on",
             elimination="yes")
    act(t, "pad RD")
    evs = act(t, "pad GD")                       # seat 1 out: two seats left, 4 to draw
    assert "out" in names(evs) and "round_over" not in names(evs)
    assert t.turn == 2 and t.pending == 4 and t.stackable
    evs = act(t, "pad BD")                       # seat 2 answers with its D
    assert names(evs)[0] == "play" and t.turn == 3 and t.pending == 6


def test_h3_h7_a_4_added_in_a_multi_play_wants_a_slap_too_a_5_none():
    t = deal({1: "R4 G4 B5 B6", 2: "B1 B2 B3 B7", 3: "Y1 Y2 Y3 Y7"}, start="R9", multi="same",
             slap4="yes")
    assert names(act(t, "pad R4")) == ["play", "slap_open", "turn"]
    act(t, "seat 1", "seat 2", "seat 3", "shoe B8", "shoe B9")   # seat 3 was slowest: draws 2
    assert t.slap == 0 and t.chain == 1 and t.turn == 2
    evs = act(t, "pad G4")                       # seat 1 adds its other 4
    assert names(evs) == ["play", "slap_open"] and t.slap == 14
    t = deal({1: "R5 G5 B5 B6", 2: "B1 B2 B3 B7", 3: "Y1 Y2 Y3 Y7"}, start="R9", multi="same",
             slap4="yes")
    act(t, "pad R5")
    evs = act(t, "pad G5")
    assert names(evs) == ["play"] and t.slap == 0


def test_h3_h7_t5_a_winning_4_added_in_a_multi_play_opens_no_slap():
    # seat 1 wins on the G4 it adds to its R4: the round is over, so no slap opens (as for a
    # winning 4 played alone). With M3 the round goes on and the others slap
    t = deal({1: "R4 G4", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", multi="same", slap4="yes")
    act(t, "pad R4", "seat 1", "seat 2", "seat 1", "shoe B1", "shoe B2")  # slaps; UNO
    assert t.slap == 0 and t.chain == 1
    # (its window, called, closes with the round: docs/rules.md, U1 when the round ends)
    assert names(act(t, "pad G4")) == ["play", "uno_close", "round_over", "score"]
    t = deal({1: "R4 G4", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", multi="same", slap4="yes",
             elimination="yes")
    act(t, "pad R4", "seat 1", "seat 2", "seat 1", "shoe B1", "shoe B2")
    assert names(act(t, "pad G4")) == ["play", "slap_open", "out", "uno_close"] \
        and t.slap == (1 << 2) | (1 << 3)


def test_s4_no_card_is_on_the_pile_before_the_start_card():
    t = seated((1, 2))
    assert t.top == -1 and snapshot(t)["top"] is None
    t = deal({1: "R1", 2: "G9"}, start=None)     # dealt, no start card yet
    assert t.top == -1 and snapshot(t)["top"] is None and snapshot(t)["top_card"] == -1
    act(t, "shoe R5")
    assert snapshot(t)["top"] == "R5"
    act(t, "pad R1", "shuffle")                  # round 2: every card back in the shoe
    assert t.round == 2 and t.top == -1 and snapshot(t)["top"] is None


def test_h5_a_hand_holding_an_s_makes_no_sum():
    t = deal({1: "R5 R1", 2: "GS B5", 3: "Y1 Y2"}, start="R9", sum_win="yes")
    act(t, "pad R5")                             # 5 + S would be 15, a multiple of 5
    assert t.hand_sum(2) == -1
    assert unchanged(t, "seat 2 long") == R_NO_SUM


def test_m4_two_seats_cannot_make_two_teams():
    t = seated((1, 2), teams=2)                  # a team of one seat each: no partners
    assert unchanged(t, "shuffle") == R_TEAMS
    t = seated((1, 2, 3, 4), teams=2)
    assert names(act(t, "shuffle"))[0] == "shuffle"


def test_h3_s4_no_seat_may_add_to_a_multi_play_outside_play_nor_to_the_start_card():
    # H3's multi-playing seat (the state's "chain"): none once the round is won on a card added,
    # none through the shuffle and the deal; the start card is no seat's play, so the dealer
    # (seat 1, not the first player) may not add its 5 to the start R5
    t = deal({1: "R7 G7", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", multi="same", target=1000)
    act(t, "pad R7")
    assert t.chain == 1
    assert names(act(t, "pad G7"))[-2:] == ["round_over", "score"]
    assert t.chain == 0 and snapshot(t)["chain"] == [0, 0]
    act(t, "shuffle")                            # round 2: seat 1, the winner, deals
    assert t.dealer == 1 and snapshot(t)["chain"] == [0, 0]
    for c in ("G1", "Y1", "B5", "G2", "Y2", "B3"):   # to seats 2, 3, 1, 2, 3, 1
        act(t, "shoe " + c)
        assert snapshot(t)["chain"] == [0, 0]
    act(t, "shoe R5")
    assert t.turn == 2 and t.chain == 0
    assert unchanged(t, "pad B5") == R_NOT_TURN


def test_h5_u2_a_sum_win_is_scored_at_the_caught_seats_last_draw_with_cards_left_in_the_shoe():
    # seat 3 catches seat 1 (no UNO call), then seat 2 lays down 2 + 3 = 5 before seat 1 has
    # drawn its 2: those are drawn and count (H5: the other seats' draws), and the round is
    # scored at the last of them, though the shoe still holds cards
    t = deal({1: "R5 R7", 2: "G2 G3", 3: "Y1 Y2"}, start="R1", sum_win="yes", target=1000)
    act(t, "pad R5")
    assert names(act(t, "seat 3")) == ["catch", "uno_close", "penalty"]
    assert names(act(t, "seat 2 long")) == ["sum_win"] and t.laid == 2 and t.phase == P_PLAY
    assert names(act(t, "shoe B9")) == ["draw"] and t.phase == P_PLAY
    evs = act(t, "shoe B8")
    assert names(evs) == ["draw", "round_over", "score"] and t.shoe > 0
    assert evs[1][1:] == (2, 7 + 9 + 8 + 1 + 2) and t.phase == P_ROUND_OVER


def test_t6_u3_after_a_penalty_card_drawn_last_a_full_round_of_passes_blocks_the_round():
    # 7 seats x 15; seat 1 draws B9a, seat 5's false call costs it the last card, B9b: the shoe
    # is empty and the pile holds only its top card. The passes count from that penalty draw:
    # the seventh blocks the round, not the sixth
    keep = ("R5a", "B9a", "B9b")
    cards = [copy_name(c) for c in range(NCARDS) if copy_name(c) not in keep]
    t = deal(dict((s + 1, " ".join(cards[15 * s:15 * s + 15])) for s in range(7)),
             start="R5a", false_uno=1, target=10000)
    act(t, "shoe B9a", "seat 5")
    assert names(act(t, "shoe B9b")) == ["draw"] and "B9b" in [copy_name(c) for c in t.hands[5]]
    assert t.shoe == 0 and t.pile == 1 and t.turn == 2 and t.dry == 0
    for k in range(6):
        assert names(act(t, "seat %d" % t.turn)) == ["pass", "turn"] and t.dry == k + 1
    evs = act(t, "seat %d" % t.turn)
    assert names(evs)[:3] == ["pass", "blocked", "round_over"]


def test_m2_m3_m4_h5_a_hand_laid_down_adds_nothing_to_its_losing_teams_score():
    # teams 1+3 and 2+4, losers' scoring, elimination: seat 2 lays down G2 G3 on seat 1's 5 and
    # is out (its hand stays on the table); seats 1 and 3 then go out and win. Each member of
    # the losing team adds its team's hands in the round: seat 4's only (B1 B2 B9 = 12)
    t = deal({1: "R5 R7", 2: "G2 G3", 3: "R8 R9", 4: "B1 B2"}, start="R1", sum_win="yes",
             elimination="yes", teams=2, scoring="losers", target=1000)
    act(t, "pad R5")
    assert names(act(t, "seat 2 long")) == ["sum_win", "uno_close", "out", "turn"]
    act(t, "pad R8", "shoe B9", "pad R7")
    evs = act(t, "pad R9")
    assert names(evs)[-3:] == ["round_over", "score", "score"] and t.winner == 1
    assert hand(t, 2) == ["G2", "G3"] and hand(t, 4) == ["B1", "B2", "B9"]
    assert [e[1:] for e in evs if e[0] == SCORE] == [(2, 12), (4, 12)]
