"""T2, T5, S2, S4 options and P2's turn timer."""
from kit import act, deal, names, unchanged
from test_referee import cards_but, hands_of
from uno.cards import NCARDS, copy_name
from uno.cards import name
from uno.events import *


def test_t2_draw_until_playable():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="B5", draw="until")
    evs = act(t, "shoe Y7")
    assert names(evs) == ["draw"] and t.turn == 1 and t.drawn < 0
    evs = act(t, "shoe G8")
    assert names(evs) == ["draw"] and t.turn == 1
    evs = act(t, "shoe B9")
    assert names(evs) == ["draw"] and t.drawn >= 0
    assert names(act(t, "pad B9")) == ["play", "turn"]


def test_t2_forced_play_no_drawing_while_a_card_fits():
    t = deal({1: "R1 B2", 2: "G1 G3"}, start="B5", forced="yes")
    assert unchanged(t, "shoe Y7") == R_MUST_PLAY
    act(t, "pad B2")
    act(t, "shoe Y8")                      # seat 2 has nothing for B2: it draws
    assert t.turn == 1


def test_t2_t5_forced_play_counts_a_last_s_r_or_w_only_under_last_card_no_srw():
    # one card left, an S that fits: it must be played (last_card=any), but with no_srw it may
    # not be the last card (T5's option), so the seat draws
    t = deal({1: "RS", 2: "G1"}, start="R5", forced="yes")
    assert unchanged(t, "shoe Y7") == R_MUST_PLAY
    t = deal({1: "RS", 2: "G1"}, start="R5", forced="yes", last_card="no_srw")
    assert names(act(t, "shoe Y7"))[0] == "draw"


def test_t2_c1_forced_play_looks_past_a_w4_it_may_not_play():
    # under C1's enforce a W4 is not playable while the hand holds the colour; the colour's
    # card after it in the hand still forces the play
    t = deal({1: "W4 R7", 2: "G1 G3"}, start="R5", forced="yes", w4="enforce")
    assert [name(c) for c in t.hands[1]] == ["W4", "R7"]  # the W4 is looked at first
    assert unchanged(t, "shoe Y7") == R_MUST_PLAY
    assert names(act(t, "pad R7")) == ["play", "uno_open", "turn"]


def test_t2_forced_play_the_drawn_card_must_be_played():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="B5", forced="yes")
    act(t, "shoe B7")
    assert unchanged(t, "seat 1") == R_MUST_PLAY
    assert names(act(t, "pad B7")) == ["play", "turn"]


def test_t2_c1_p1_a_drawn_w4_that_no_longer_fits_lets_the_seat_pass():
    # Forced play, C1's enforce: seat 1 draws a W4 (no blue in hand: it fits), then misplays
    # and its penalty brings a blue card. The W4 no longer fits and it is the only card seat
    # 1 may play (T2), yet the pass was refused as "must play": no input could move the
    # round on (found by a sweep of the property test, seed 4258)
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="B5", forced="yes", w4="enforce", misplay=2)
    act(t, "shoe W4")
    assert name(t.drawn) == "W4"
    assert names(act(t, "pad R1")) == ["reject", "penalty"]
    act(t, "shoe B7", "shoe Y7")                          # the penalty's two cards
    assert t.judge(1, t.drawn)[0] == 0 and t.turn == 1
    assert names(act(t, "seat 1")) == ["pass", "turn"] and t.turn == 2


def test_t5_option_no_skip_reverse_or_wild_as_last_card():
    for last in ("RS", "RR", "W"):
        t = deal({1: last + " R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", last_card="no_srw")
        act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
        assert unchanged(t, "pad " + last) == R_LAST_CARD
    t = deal({1: "RD R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", last_card="no_srw")
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    assert names(act(t, "pad RD"))[0] == "play"          # D may still end a round


def test_t5_option_counts_as_a_misplay():
    t = deal({1: "RS R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", last_card="no_srw", misplay=2)
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    assert names(act(t, "pad RS")) == ["reject", "penalty"]


def _seat3_wins(**kw):
    t = deal({1: "G1", 2: "B1", 3: "R1"}, start="R5", dealer=1, **kw)
    act(t, "shoe Y9", "pad R1")                    # seat 2 draws, seat 3 goes out
    assert t.phase == P_ROUND_OVER and t.winner == 3
    return t


def test_s2_option_rotate_the_dealer():
    t = _seat3_wins(next_dealer="rotate")
    assert act(t, "shuffle")[1][1:] == (2, 2)      # round 2: seat 2 deals, after seat 1


def test_s2_s5_rotate_passes_the_deal_in_the_direction_of_play():
    # the official deal passes to the left, the side play goes to (seed 000: "從發牌左邊的玩家開
    # 始，出牌順序為順時針方向"); counter-clockwise (seed 000: "按逆時針序一家接一家出牌") everything
    # goes the other way: the deal, the first player, and so the next dealer
    t = deal({1: "G1", 2: "B1", 3: "R1"}, start="R5", dealer=1, direction="ccw",
             next_dealer="rotate")
    assert t.turn == 3
    act(t, "pad R1")                               # seat 3, on the dealer's right, goes out
    assert t.phase == P_ROUND_OVER
    evs = act(t, "shuffle")
    assert evs[1][1:] == (2, 3) and t.drawer() == 2   # seat 3 deals; seat 2 gets the first card


def test_s2_winner_deals_by_default():
    t = _seat3_wins()
    assert act(t, "shuffle")[1][1:] == (2, 3)


def test_s4_option_any_non_number_start_card_goes_back():
    t = deal({1: "R1", 2: "G1"}, start=None, start_card="number")
    for card in ("RS", "GD", "BR", "W", "W4"):
        assert names(act(t, "shoe " + card)) == ["back"]
    assert names(act(t, "shoe Y3")) == ["start", "turn"]


def test_p2_turn_timer_warns_then_costs_two():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=5)
    assert act(t, "tick 1000") == []                # the first tick starts the clock
    assert act(t, "tick 3900") == []
    evs = act(t, "tick 4000")                       # 2 s before the end
    assert names(evs) == ["timer_warn"] and evs[0][1] == 1
    assert act(t, "tick 6000") == []                # 5 s: not more than its time yet
    evs = act(t, "tick 6001")
    assert names(evs) == ["penalty"] and evs[0][1:] == (1, 2, W_SLOW)
    act(t, "tick 20000")                            # no time runs while it draws the penalty
    act(t, "shoe B8", "shoe B9")
    assert act(t, "tick 22900") == []
    act(t, "pad R1")                                # acting gives seat 2 its own time
    assert t.turn == 2
    assert names(act(t, "tick 25900")) == ["timer_warn"]
    assert act(t, "tick 27900") == []
    assert names(act(t, "tick 27901")) == ["penalty"]


def test_p2_off_by_default():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5")
    assert act(t, "tick 0", "tick 100000") == []


def test_p2_a_clock_that_restarts_starts_the_time_again():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=5)
    act(t, "tick 90000", "tick 93000")
    assert act(t, "tick 500") == []                 # the board rebooted
    assert act(t, "tick 4000") == []
    assert names(act(t, "tick 5600")) == ["penalty"]


def test_p2_inputs_carry_their_time_and_ticks_come_at_the_deadline():
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=5)
    assert t.deadline() == -1                       # no time seen yet
    t.feed((IN_SHOE, b"B8a"), 10000)                # seat 1 draws at 10 s: seat 2's time starts
    assert t.turn == 2 and t.deadline() == 13000
    assert names(list(t.feed((IN_TICK, 13000)))) == ["timer_warn"]
    assert t.deadline() == 15001                    # the first ms past 5 s
    assert names(list(t.feed((IN_TICK, 15001)))) == ["penalty"]
    assert t.deadline() == -1                       # it owes cards: no time runs


def test_p2_more_than_the_time_costs_not_the_time_itself():
    # SPEC P2 "more than N seconds", seed 003 "超過5秒不出牌者": at 5 s exactly, not yet
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=5)
    act(t, "tick 0")
    assert names(act(t, "tick 3000")) == ["timer_warn"]
    assert act(t, "tick 5000") == [] and t.deadline() == 5001
    assert names(act(t, "tick 5001")) == ["penalty"]


def test_t2_p1_forced_play_the_drawn_card_must_be_played_while_another_seat_owes_a_misplay():
    # forced play: seat 1 draws B7, which fits. Seat 2 misplays (P1, 2 cards): play waits
    # until they are drawn, but the drawn card still fits, so seat 1 may not pass it (it had
    # been let pass: the card was asked whether it could be played this instant)
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="B5", forced="yes", misplay=2)
    act(t, "shoe B7")
    assert names(act(t, "pad G1")) == ["reject", "penalty"]
    assert unchanged(t, "seat 1") == R_MUST_PLAY
    act(t, "shoe Y8", "shoe Y9")                          # seat 2 draws its penalty
    assert unchanged(t, "seat 1") == R_MUST_PLAY
    assert names(act(t, "pad B7")) == ["play", "turn"]


def test_p2_t4_no_time_runs_while_the_table_asks_for_a_reshuffle():
    # "its time runs only while nothing else is awaited": the shoe is empty and the table asks
    # for the pile to be shuffled into it (T4); the turn seat is not the one late (it had been
    # charged 2 for it). After the shuffle its time starts again
    hs = hands_of(cards_but(("R5a", "R6a", "B9a")), 7, 15)
    hs[1] = " ".join(["R6a"] + hs[1].split()[1:])
    t = deal(hs, start="R5a", dealer=7, turn_timer=5)
    act(t, "pad R6a")
    for k in range(2):                           # the shoe's last two cards are drawn
        seat = t.turn
        act(t, "shoe " + copy_name([c for c in range(NCARDS) if t.loc[c] == 0][-1]))
        if t.drawn >= 0:
            act(t, "seat %d" % seat)
    assert t.shoe == 0 and t.due and t.deadline() == -1
    assert act(t, "tick 1000", "tick 60000") == []
    act(t, "shuffle")
    assert t.deadline() == 63000
    assert names(act(t, "tick 65001")) == ["penalty"]


def test_p2_t5_no_time_runs_once_the_round_is_won():
    # seat 1 wins on its D; seat 2 still draws the 2 (T5) for the score, but no turn is left
    # to play a card in (seed 003: "超過5秒不出牌者"): slow drawing costs no more cards
    t = deal({1: "R2 RD", 2: "R3 R4"}, start="R5", turn_timer=5)
    act(t, "pad R2", "seat 1", "pad R3", "seat 2", "pad RD")
    assert t.pending == 2 and t.deadline() == -1
    assert act(t, "tick 1000", "tick 60000") == []
    evs = act(t, "shoe B2", "shoe B3")
    assert names(evs) == ["draw", "round_over", "score"] and t.scores[1] == 4 + 2 + 3


def test_p2_the_time_starts_again_when_the_wait_ends_with_no_tick_meanwhile():
    # the hub sends a tick only at deadline(), and deadline() is -1 while the table waits (here
    # for the timer's own penalty): the draw that ends the wait starts the seat's time again.
    # It had started from the penalty, long past: the hub ticked at once and the seat drew 2
    # more, and again after each penalty, without a moment to play
    t = deal({1: "R1 R2", 2: "G1 G2"}, start="R5", turn_timer=5)
    t.feed((IN_TICK, 0))
    assert names(list(t.feed((IN_TICK, 5001)))) == ["penalty"] and t.deadline() == -1
    t.feed((IN_SHOE, b"B8a"), 20000)
    t.feed((IN_SHOE, b"B9a"), 20001)
    assert t.turn == 1 and t.deadline() == 23001
    assert list(t.feed((IN_TICK, 23000))) == []
    assert names(list(t.feed((IN_TICK, 23001)))) == ["timer_warn"]
