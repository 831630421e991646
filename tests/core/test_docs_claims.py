"""Claims of docs/rules.md and docs/buttons.md that no other test pinned, one test each, named
after the rule ids they check; each docstring quotes the page's sentence."""
from kit import act, deal, names, unchanged, hand, seated
from uno.events import *


def _match_won_by_seat_2(**settings):
    """Three seats, seat 3 deals, target 1: seat 2 wins the round and the match."""
    t = deal({1: "R1 B7", 2: "R2 R3", 3: "Y1 Y2"}, start="R5", target=1, **settings)
    assert t.dealer == 3
    evs = act(t, "pad R1", "seat 1", "pad R2", "seat 2", "shoe B8", "shoe B9", "pad R3")
    assert names(evs)[-1] == "match_over" and t.phase == P_MATCH_OVER and t.winner == 2
    return t


# ---- S2: the dealer ------------------------------------------------------------------------

def test_s2_m1_after_a_match_rotate_passes_the_deal_on_the_winner_deals_by_default():
    """docs/buttons.md, shuffle sensor: "match over | new match, scores back to 0, the dealer as
    after a round (S2)" — the last round's winner, or the next seat with next_dealer=rotate."""
    t = _match_won_by_seat_2(next_dealer="rotate")
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[1][1:] == (1, 1)  # seat 3's next: seat 1
    assert t.scores[2] == 0
    t = _match_won_by_seat_2()
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[1][1:] == (1, 2)  # the winner


def test_s2_a_first_dealer_set_once_the_dealer_is_drawn_waits_for_a_match_from_the_lobby():
    """docs/rules.md, S2: "set once the dealer is drawn or between rounds, it is kept (the `rule`
    event) for that next match from the lobby"."""
    t = seated((1, 2, 3))
    act(t, "shuffle", "shoe R1", "shoe R2")
    evs = act(t, "shoe R9")
    assert names(evs)[-1] == "dealer" and t.phase == P_DEALER and t.dealer == 3
    assert names(act(t, "rule first_dealer 2")) == ["rule"]
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[1][1:] == (1, 3)  # the dealer drawn
    assert t.rules.first_dealer == 2
    # set at match over: the same group's next match is the winner's deal; a new group's, its
    t = _match_won_by_seat_2()
    assert names(act(t, "rule first_dealer 1")) == ["rule"]
    assert act(t, "shuffle")[1][1:] == (1, 2)
    t = _match_won_by_seat_2()
    act(t, "rule first_dealer 1")
    assert names(act(t, "seat 4")) == ["join"] and t.phase == P_LOBBY
    assert act(t, "shuffle")[1][1:] == (1, 1)


# ---- T2 with P1 and U3 -----------------------------------------------------------------------

def test_t2_p1_u3_forced_play_a_pass_refused_costs_nothing():
    """docs/rules.md, "T2's forced play with P1": a card read at the shoe while a card fits "is
    refused ... and costs nothing, with `misplay` set too; so does a pass refused for the same
    reason"."""
    t = deal({1: "B1 B2", 2: "G1 G3"}, start="R5", forced="yes", misplay=2, false_uno=2)
    act(t, "shoe R7")                            # no card in hand fits: it draws R7, which fits
    assert unchanged(t, "seat 1") == R_MUST_PLAY
    assert t.debts == [] and hand(t, 1) == ["B1", "B2", "R7"]


# ---- U1: a penalty closes the window -------------------------------------------------------

def test_u1_h7_the_last_slap_falling_on_the_windows_seat_closes_its_window():
    """docs/rules.md, U1: the window closes "when a penalty other than the catch falls on the
    seat (a lost challenge, the turn timer, the last slap, a misplay): it no longer holds its
    last card, so a press is no catch"."""
    t = deal({1: "R4 R1", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", slap4="yes")
    assert names(act(t, "pad R4")) == ["play", "uno_open", "slap_open", "turn"]
    assert names(act(t, "seat 2")) == ["slap"]
    evs = act(t, "seat 3")                       # seat 1, the window's seat, slaps last
    assert names(evs) == ["slap", "penalty", "uno_close"] and evs[1][1:] == (1, 2, W_SLAP)
    assert t.window == 0
    act(t, "shoe B8", "shoe B9")
    assert unchanged(t, "seat 2") == R_NOTHING   # no catch: seat 1 holds three cards
    assert len(t.hands[1]) == 3


# ---- P2: when no time runs ----------------------------------------------------------------

def test_p2_no_time_runs_while_a_colour_is_wanted():
    """docs/rules.md, "P2 — when no time runs": "The turn seat's time runs only while it is free
    to act: not while the table waits for a colour ..."; "The time starts again when the wait is
    over, from the input that ends it"."""
    t = deal({1: "W R2 R3", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", turn_timer=5)
    t.feed((IN_TICK, 0))
    assert names(list(t.feed((IN_PAD, b"Wa"), 1000))) == ["play", "colour_wanted"]
    assert t.deadline() == -1 and list(t.feed((IN_TICK, 20000))) == []
    assert names(list(t.feed((IN_COLOUR, 2, 0), 30000))) == ["colour", "turn"]
    assert t.turn == 2 and t.deadline() == 33000              # seat 2 warned 2 s before its 5 s
    assert names(list(t.feed((IN_TICK, 33000)))) == ["timer_warn"]
    assert list(t.feed((IN_TICK, 35000))) == []               # at 5 s exactly, not yet
    evs = list(t.feed((IN_TICK, 35001)))
    assert names(evs) == ["penalty"] and evs[0][1:] == (2, 2, W_SLOW)


# ---- H2, H3: jump-ins and multi-plays ------------------------------------------------------

def test_h2_t3_two_rss_of_one_seat_skip_one_seat():
    """docs/rules.md, "H2: a jump-in on one's own card": "the first card's effect is void, so two
    RDs make the next seat owe 2, two RSs skip one seat"."""
    t = deal({1: "RS RS G2", 2: "B1 G3 B3", 3: "Y1 Y2 Y3", 4: "B7 B8 B9"}, start="R4",
             jump_in="actions")
    assert names(act(t, "pad RS")) == ["play", "skip", "turn"] and t.turn == 3
    evs = act(t, "pad RS")
    assert names(evs) == ["jump_in", "play", "uno_open", "skip", "turn"]
    assert evs[3][1:] == (2,) and t.turn == 3    # seat 2 skipped once, not seats 2 and 3


def test_h3_wilds_are_single():
    """docs/rules.md, H3: "the seat that just played adds cards of the same number or symbol ...
    wilds are single"."""
    t = deal({1: "W W G2", 2: "G1 B3 B4", 3: "Y1 Y2 Y3"}, start="R5", multi="same")
    assert names(act(t, "pad W", "colour G")) == ["colour", "turn"]
    assert unchanged(t, "pad W") == R_NOT_TURN
    assert t.turn == 2 and len(t.hands[1]) == 2


# ---- H5: the sum win -----------------------------------------------------------------------

def test_h5_a_hand_of_zeros_lays_down_on_no_other_number():
    """docs/rules.md, "H5 — what counts as a multiple": "A hand adding up to 0 (only 0s) makes a
    played 0 and nothing else: 0 is no multiple a player could lay down on"."""
    t = deal({1: "R5 R1", 2: "G0 B0", 3: "Y1 Y2"}, start="R3", sum_win="yes")
    act(t, "pad R5")
    assert unchanged(t, "seat 2 long") == R_NO_SUM


def test_h5_m3_no_second_seat_lays_down_on_the_same_number():
    """docs/rules.md, "H5 — what counts as a multiple, and how many lay down": "the first seat to
    lay down takes it, and with M3, where the round goes on, no second seat lays down on the same
    number"."""
    t = deal({1: "R4 R1 R9", 2: "G1 G3 Y4", 3: "Y2 B2 Y8", 4: "B5 B6 B7"}, start="R5",
             sum_win="yes", elimination="yes")
    act(t, "pad R4")
    assert names(act(t, "seat 2 long")) == ["sum_win", "out", "turn"]   # 8 = 2 x 4
    assert t.sum_to == -1
    assert unchanged(t, "seat 3 long") == R_SUM_LATE        # 12 = 3 x 4, but too late
    assert len(t.hands[3]) == 3 and t.phase == P_PLAY


# ---- M4: teams ------------------------------------------------------------------------------

def test_m4_the_ith_seat_of_the_table_is_on_team_i_mod_n():
    """docs/rules.md, M4: "the i-th seat of the table is on team i mod N" — by its place among the
    seats that joined, not by its seat number."""
    t = deal({1: "R1 R2", 2: "G1 G2", 4: "Y1 Y2", 6: "B1 B2"}, start="R5", teams=2)
    assert t.team(1) == [1, 4] and t.team(4) == [1, 4]
    assert t.team(2) == [2, 6] and t.team(6) == [2, 6]
