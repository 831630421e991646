"""What the table says after a take-back (issue 10), rule situation by rule situation: which
card goes back where, in an order a referee can follow (off the discard pile top card first:
two copies of a face look alike), and what the table waits for again (the turn, the colour to
name, the UNO window, a D or W4 owed, the reshuffle), said in the words it first used. The
state itself is test_takeback.py's: here the events. One test per situation; the
docstring says the situation and the outcome."""
from kit import act, deal, names
from uno.cards import copy_name, parse_card
from uno.events import *
from uno.rules import Settings
from uno.table import Table, PILE
from test_disputes_record import short_shoe, of
from test_takeback import _night


def card(text):
    return parse_card(text)[1]


def backs(evs):
    """The card_back events as (copy name, from, to), in order."""
    return [(copy_name(e[1]), e[2], e[3]) for e in evs if e[0] == CARD_BACK]


# ---- the order cards go back in ---------------------------------------------------------

def test_h2_a_jump_in_and_the_card_it_jumped_go_back_off_the_pile_top_card_first():
    """jump_in=identical: seat 1 plays R1b, seat 3 jumps in with its twin R1a; both are taken
    back (undo 2). The two copies look alike, so the referee can only tell them apart by the
    pile's order: R1a (on top) goes back to seat 3 first, then R1b to seat 1. The events came
    in deck order (R1a to seat 3 was first only by luck of the copies; here it is R1a)."""
    for first, twin in (("R1b", "R1a"), ("R1a", "R1b")):
        t = deal({1: first + " G2 G3", 2: "G5 B7 B8", 3: twin + " Y2 Y3"}, start="R5",
                 jump_in="identical")
        act(t, "pad " + first)
        assert names(act(t, "pad " + twin))[:2] == ["jump_in", "play"]
        evs = act(t, "undo 2")
        assert backs(evs) == [(twin, PILE, 3), (first, PILE, 1)], (first, backs(evs))
        # (seat 3's jump had given the turn to seat 1 already: no turn is said)
        assert names(evs) == ["undo", "card_back", "card_back"] and t.turn == 1


def test_h2_the_narration_says_each_card_comes_off_the_top_of_the_pile():
    """The same take-back in words: each card named comes off the top of the discard pile
    (the referee takes the top card, not either R1), then the other goes to seat 1."""
    from uno.narrate import say
    t = deal({1: "R1b G2 G3", 2: "G5 B7 B8", 3: "R1a Y2 Y3"}, start="R5", jump_in="identical")
    act(t, "pad R1b", "pad R1a")
    assert [say(e) for e in act(t, "undo 2")] == [
        "TAKE-BACK: the last 2 inputs taken back",
        "R1 goes back from the top of the discard pile to seat 3's hand",
        "R1 goes back from the top of the discard pile to seat 1's hand"]
    assert say((CARD_BACK, card("R1a"), 3, 0)) == "R1 goes back from seat 3's hand to the shoe"


def test_h1_two_stacked_twins_taken_back_go_back_top_card_first():
    """stacking=on: seat 1 plays RDb, seat 2 stacks its twin RDa; undo 2 sends RDa (on top)
    back to seat 2 first, then RDb to seat 1; the turn is seat 1's and nothing is owed."""
    t = deal({1: "RDb R2 R3", 2: "RDa B7 B8", 3: "Y1 Y2 Y3"}, start="R5", stacking="on")
    act(t, "pad RDb", "pad RDa")
    assert t.pending == 4 and t.turn == 3
    evs = act(t, "undo 2")
    assert backs(evs) == [("RDa", PILE, 2), ("RDb", PILE, 1)]
    assert names(evs) == ["undo", "card_back", "card_back", "turn"]
    assert t.turn == 1 and t.pending == 0


def test_h4_a_zero_taken_back_passes_each_hand_back_whole():
    """zero_rotate: seat 1's R0 passed every hand on (1 to 2, 2 to 3, 3 to 1). Taken back: each
    hand goes back whole, its cards one after the other (they came in deck order, the three
    hands' cards interleaved), then the 0 off the pile (the hands first, before a card comes
    into them: tests/core/test_takeback_physical.py); the turn is seat 1's again and no window
    is said (R0 left seat 1 two cards)."""
    t = deal({1: "R0 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5", zero_rotate="yes")
    assert names(act(t, "pad R0")) == ["play", "rotate", "turn"]
    evs = act(t, "undo")
    moves = [(f, to) for _, f, to in backs(evs)]
    assert moves == [(1, 3)] * 3 + [(2, 1)] * 2 + [(3, 2)] * 3 + [(PILE, 1)], moves
    assert names(evs)[-1] == "turn" and evs[-1][1] == 1
    assert sorted(copy_name(c) for c in t.hands[1]) == ["G2a", "G3a", "R0a"]


def test_t4_a_card_that_goes_back_on_top_of_the_pile_goes_back_last():
    """The shoe holds B9a and G9a. Seat 1 plays R6a; then seat 2 covers it with R3a, seats 3
    and 4 draw the shoe empty, the pile but R3a (R5a, R6a) is reshuffled into the shoe and seat
    5 plays R1a. Taking back the last five inputs: the drawn cards back to the shoe first
    (before a card comes into those hands); R1a, then R3a, off the pile (top first); then R5a
    from the shoe to the pile; R6a last of all, as it is the top card again (it had come before
    the drawn cards: in deck order among those from the shoe to the pile only)."""
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R3a", 5: "R1a"})
    act(t, "pad R6a", "pad R3a", "shoe B9a")
    assert names(act(t, "shoe G9a"))[-1] == "reshuffle"
    assert names(act(t, "shuffle")) == ["shuffle"] and t.shoe == 2
    assert names(act(t, "pad R1a"))[0] == "play"
    evs = act(t, "undo 5")
    assert backs(evs) == [("B9a", 3, 0), ("G9a", 4, 0), ("R1a", PILE, 5), ("R3a", PILE, 2),
                          ("R5a", 0, PILE), ("R6a", 0, PILE)], backs(evs)
    assert t.top == card("R6a") and t.turn == 2


# ---- what the table waits for again -------------------------------------------------------

def test_a_colour_named_taken_back_asks_for_it_again():
    """Seat 1 plays W and names green; the turn moves to seat 2. Taken back: the turn is seat
    1's and it must name the colour again (`colour_wanted`: it had said only the turn, and a
    reader of the record still had green)."""
    t = deal({1: "W R2 R3", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W", "colour G")
    evs = act(t, "undo")
    assert evs == [(UNDO, 1), (TURN, 1), (WANT, 1)]
    assert t.want == 1 and t.colour == -1
    evs = act(t, "undo")  # then the W itself: no colour is wanted, the previous one stands
    assert names(evs) == ["undo", "card_back"] and t.want == 0 and t.colour == 0


def test_c1_a_w4s_colour_taken_back_asks_for_it_again_and_owes_nothing_yet():
    """Seat 1 plays W4 and names green: seat 2 owes 4. Taken back: seat 1 names the colour
    again, and no draw is owed until it has (the W4's draws land with the colour)."""
    t = deal({1: "W4 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G")
    assert t.pending == 4
    assert act(t, "undo") == [(UNDO, 1), (TURN, 1), (WANT, 1)] and t.pending == 0


def test_u1_a_uno_call_taken_back_says_the_window_is_open_again():
    """Seat 1 plays down to one card and calls UNO; the call is taken back: the window is open
    again, uncalled (`uno_open`): a catch of seat 1 now costs it 2."""
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    act(t, "pad R2", "seat 1")
    assert act(t, "undo") == [(UNDO, 1), (UNO_OPEN, 1)] and t.window == 1 and not t.called
    assert names(act(t, "seat 2"))[0] == "catch"


def test_u2_a_catch_taken_back_says_the_window_is_open_again_and_nothing_is_owed():
    """Seat 2 catches seat 1 (2 cards owed, the window closed). Taken back: the window is open
    again (`uno_open`), the debt is gone (the seat LEDs show who owes: nobody); no `penalty`
    or `catch` is said again (the standings count those: the take-back takes them back)."""
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    act(t, "pad R2", "seat 2")
    assert t.debts == [[1, 2, W_CAUGHT]] and t.window == 0
    assert act(t, "undo") == [(UNDO, 1), (UNO_OPEN, 1)]
    assert t.debts == [] and t.window == 1 and t.owes(1) == 0


def test_u2_the_penalty_draws_of_a_catch_taken_back_one_by_one():
    """Seat 1 draws the two cards of its catch; each taken back goes back to the shoe (it owes
    it again: the card_back says so, nothing more); then the catch: the window is open again."""
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    act(t, "pad R2", "seat 2", "shoe Y9", "shoe Y8")
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("Y8a"), 1, 0)] and t.owes(1) == 1
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("Y9a"), 1, 0)] and t.owes(1) == 2
    assert act(t, "undo") == [(UNDO, 1), (UNO_OPEN, 1)] and t.owes(1) == 0


def test_u5_a_second_catch_taken_back_leaves_the_window_as_the_first_catch_left_it():
    """catchers=each: seats 2 and 3 catch seat 1 (2 cards each); the second catch taken back:
    the window stays open with the first catch standing, so nothing is said of it."""
    t = deal({1: "R1 R2", 2: "G5 B7", 3: "Y1 Y2"}, start="R5", catchers="each")
    act(t, "pad R2", "seat 2", "seat 3")
    assert t.debts == [[1, 4, W_CAUGHT]]
    assert act(t, "undo") == [(UNDO, 1)] and t.debts == [[1, 2, W_CAUGHT]] and t.window == 1


def test_u1_a_play_that_closed_a_called_window_taken_back_says_it_open_and_called():
    """Seat 1 plays down to one card and calls; seat 2 draws, which closes the window. Taken
    back: seat 2's card goes back, the window is open again and seat 1 had called (`uno_open`,
    `uno`): a catch of it now is false, as before."""
    t = deal({1: "R1 R2", 2: "G7 B7", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R2", "seat 1")
    assert names(act(t, "shoe Y9"))[0] == "uno_close" and t.turn == 3
    evs = act(t, "undo")
    assert evs == [(UNDO, 1), (CARD_BACK, card("Y9a"), 2, 0), (UNO_OPEN, 1), (UNO, 1),
                   (TURN, 2)], evs
    assert t.window == 1 and t.called


def test_u1_a_card_that_opened_a_window_taken_back_closes_it():
    """H3 multi=same: seat 1 adds G1 to its R1 and is down to one card (window open); G1 taken
    back: it goes back to seat 1's hand and the window closes (`uno_close`); the turn was and
    stays seat 2's."""
    t = deal({1: "R1 G1 R3", 2: "G5 B7 R8", 3: "R9 Y2 Y3"}, start="R5", multi="same")
    act(t, "pad R1")
    assert names(act(t, "pad G1")) == ["play", "uno_open"]
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("G1a"), PILE, 1), (UNO_CLOSE, 1)]
    assert t.window == 0 and t.turn == 2 and t.chain == 1


def test_h1_a_stacked_d_taken_back_says_what_the_seat_before_owes_again():
    """stacking=on: seat 1's RD makes seat 2 owe 2, seat 2 stacks GD: seat 3 owes 4. GD taken
    back: it goes back, the turn is seat 2's and it owes 2 again (`owe`: a reader had 4 for
    seat 3)."""
    t = deal({1: "RD R2 R3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5", stacking="on")
    act(t, "pad RD", "pad GD")
    evs = act(t, "undo")
    assert evs == [(UNDO, 1), (CARD_BACK, card("GDa"), PILE, 2), (TURN, 2),
                   (OWE, 2, 2, W_DRAW2)], evs
    assert act(t, "undo")[-1] == (TURN, 1) and t.pending == 0


def test_c1_a_lost_challenge_taken_back_says_the_w4s_four_again():
    """Seat 2 challenges a legal W4 (it owes 6 now); taken back: it owes the W4's 4 again and
    may still challenge (`owe` 4, wild draw four). No `challenge` or `penalty` is said again."""
    t = deal({1: "W4 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G")
    assert names(act(t, "seat 2 long"))[:2] == ["challenge", "penalty"] and t.pending == 6
    assert act(t, "undo") == [(UNDO, 1), (OWE, 2, 4, W_DRAW4)]
    assert t.pending == 4 and t.w4_from == 1


def test_c1_a_won_challenge_taken_back_says_the_w4s_four_again_and_its_player_owes_nothing():
    """Seat 1's W4 was illegal (it held a red card): seat 2's challenge makes seat 1 owe 4 and
    seat 2 nothing. Taken back: seat 2 owes the 4 again (`owe`), seat 1 owes nothing."""
    t = deal({1: "W4 R2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert evs[0] == (CHALLENGE, 2, 1, V_ILLEGAL) and t.pending == 0 and t.owes(1) == 4
    assert act(t, "undo") == [(UNDO, 1), (OWE, 2, 4, W_DRAW4)]
    assert t.owes(1) == 0 and t.pending == 4


def test_c1_the_draws_of_a_lost_challenge_taken_back_say_only_the_card():
    """Seat 2 lost its challenge and draws 2 of its 6; each draw taken back says its card goes
    back to the shoe (one more owed), not the total again; the challenge taken back then says
    the W4's 4."""
    t = deal({1: "W4 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G", "seat 2 long", "shoe Y5", "shoe Y6")
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("Y6a"), 2, 0)] and t.pending == 5
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("Y5a"), 2, 0)] and t.pending == 6
    assert act(t, "undo") == [(UNDO, 1), (OWE, 2, 4, W_DRAW4)]


def test_t3_the_last_draw_of_a_d_taken_back_says_the_turn_and_the_card_owed():
    """Seat 2 draws the 2 of seat 1's RD and is skipped (the turn is seat 3's). The last draw
    taken back: its card goes back, the turn is seat 2's and it owes 1 (`owe`)."""
    t = deal({1: "RD R2 R3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "pad RD", "shoe Y5")
    assert names(act(t, "shoe Y6"))[-2:] == ["skip", "turn"] and t.turn == 3
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("Y6a"), 2, 0), (TURN, 2),
                              (OWE, 2, 1, W_DRAW2)]


def test_t4_a_reshuffle_taken_back_asks_for_it_again():
    """The shoe runs empty and the table asks seat 4's reshuffle; the shuffle taken back: the
    reshuffled card goes back from the shoe to the pile and the table asks for the reshuffle
    again, naming seat 4 (it had said nothing: the narration and the monitor never told the
    referee the table waits for the shuffle again)."""
    t = short_shoe(("B9a", "R7a"), {1: "R6a"})
    act(t, "pad R6a", "shoe B9a", "shoe R7a")
    assert names(act(t, "seat 3"))[-1] == "reshuffle"
    assert names(act(t, "shuffle")) == ["shuffle"] and not t.due
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("R5a"), 0, PILE), (RESHUFFLE, 4)]
    assert t.due and t.drawer() == 4
    evs = act(t, "undo")  # the pass that made seat 4 due: no reshuffle is asked now
    assert evs == [(UNDO, 1), (TURN, 3)] and not t.due


def test_t4_a_reshuffle_taken_back_while_a_colour_is_wanted_names_no_seat():
    """The table asks seat 4's reshuffle; seat 4 plays its W instead and, while it is to name
    the colour, the pile is reshuffled. Taken back: the cards go back to the pile and the
    reshuffle is due again, but no seat is due to draw while a colour is wanted: no
    `reshuffle` naming seat 0 (the state's `reshuffle` says it; the table had asked already,
    and the stream without the shuffle asks nothing more either)."""
    t = short_shoe(("B9a", "R7a"), {1: "R6a", 4: "Wa"})
    act(t, "pad R6a", "shoe B9a", "shoe R7a")
    assert of(act(t, "seat 3"), RESHUFFLE) == [(RESHUFFLE, 4)]
    assert names(act(t, "pad Wa")) == ["play", "colour_wanted"] and t.due
    assert names(act(t, "shuffle")) == ["shuffle"]
    evs = act(t, "undo")
    assert names(evs) == ["undo", "card_back", "card_back"] and t.due and t.want == 4
    assert of(act(t, "colour B"), RESHUFFLE) == []


# ---- the take-backs that say only what moved ------------------------------------------------

def test_p1_a_misplay_penalty_taken_back_says_nothing_more():
    """misplay=2: seat 1's unplayable card costs it 2. Taken back: nothing moved, nothing is
    said but the take-back; the debt is gone (the seat LEDs show who owes)."""
    t = deal({1: "R1 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5", misplay=2)
    assert names(act(t, "pad G2")) == ["reject", "penalty"]
    assert act(t, "undo") == [(UNDO, 1)] and t.debts == [] and t.turn == 1


def test_p2_a_turn_timer_penalty_taken_back_says_nothing_more():
    """turn_timer=5: seat 1 sits past 5 s and owes 2; taken back, its time starts again (the
    correction is not its time) and nothing more is said."""
    t = deal({1: "R1 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5", turn_timer=5)
    act(t, "tick 1000", "tick 5000")
    assert names(act(t, "tick 6100")) == ["penalty"]
    assert t.feed((IN_UNDO, 1), 6200) == [(UNDO, 1)]
    assert t.debts == [] and t.since == 6200 and not t.warned


def test_h7_a_last_slap_and_its_penalty_taken_back_reopen_the_slap():
    """slap4: seats 2 and 1 slap seat 1's R4, seat 3 (the last) owes 2. The last slap taken
    back: the slap is open again for seats 1 and 3, the debt gone; nothing more is said (no
    seat may draw or play until the slaps are in, as before)."""
    t = deal({1: "R4 R2 R3", 2: "G5 B7 R8", 3: "Y1 Y2 Y3"}, start="R5", slap4="yes")
    act(t, "pad R4", "seat 2")
    assert names(act(t, "seat 1")) == ["slap", "penalty"]
    assert act(t, "undo") == [(UNDO, 1)]
    assert t.slap == (1 << 1) | (1 << 3) and t.debts == []


def test_h5_m3_a_sum_win_taken_back_puts_the_seat_back_in_the_round():
    """sum_win, elimination: seat 3 lays down Y1 Y2 Y3 (6, a multiple of seat 1's 1) and is
    out; taken back, seat 3 is in the round again with its hand. No card moved (a laid-down
    hand stays the seat's) and no event says a seat is back in: the take-back alone is said
    (found, left: see the audit's report)."""
    t = deal({1: "R1 R2 R3", 2: "G5 B7 R8", 3: "Y1 Y2 Y3"}, start="R5", sum_win="yes",
             elimination="yes")
    act(t, "pad R1")
    assert names(act(t, "seat 3 long")) == ["sum_win", "out"]
    assert act(t, "undo") == [(UNDO, 1)]
    assert 3 in t.active and t.finished == [] and t.laid == 0 and len(t.hands[3]) == 3


def test_h5_a_sum_win_that_ends_the_round_is_not_taken_back():
    """Without M3 a sum win ends the round: a take-back of it is refused (never across a
    round's end)."""
    t = deal({1: "R1 R2 R3", 2: "G5 B7 R8", 3: "Y1 Y2 Y3"}, start="R5", sum_win="yes")
    act(t, "pad R1")
    assert names(act(t, "seat 3 long"))[0] == "sum_win" and t.phase == P_ROUND_OVER
    assert act(t, "undo") == [(REJECT, R_UNDO_PAST, 0, -1)]


def test_t2_a_pass_taken_back_gives_the_turn_back():
    """Seat 1 draws R9, which fits, and passes. The pass taken back gives it the turn back
    (`turn`) with R9 still to play or keep; then the draw: R9 goes back to the shoe."""
    t = deal({1: "G1 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "shoe R9")
    assert t.drawn == card("R9a")
    assert names(act(t, "seat 1")) == ["pass", "turn"]
    assert act(t, "undo") == [(UNDO, 1), (TURN, 1)] and t.drawn == card("R9a")
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("R9a"), 1, 0)]


def test_s3_a_dealt_card_taken_back_goes_back_to_the_shoe():
    """The deal's last card taken back: it goes back from the hand to the shoe; no turn yet
    (the seat LEDs show who takes the next card)."""
    t = deal({1: "G1 G2", 2: "GD B7"}, start=None)
    assert t.phase == P_START
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("B7a"), 2, 0)]
    assert t.phase == P_DEAL and t.drawer() == 2


def test_several_inputs_at_once_say_the_state_before_all_of_them():
    """A W4, its colour and a lost challenge taken back at once (undo 3): the W4 goes back to
    seat 1, whose turn it is; no colour is wanted and nothing is owed any more."""
    t = deal({1: "W4 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G", "seat 2 long")
    assert act(t, "undo 3") == [(UNDO, 3), (CARD_BACK, card("W4a"), PILE, 1), (TURN, 1)]
    assert t.want == 0 and t.pending == 0 and t.debts == []


def test_a_take_back_is_not_taken_back_and_past_the_segment_is_refused():
    """Seat 1 plays R2; a take-back returns it; a second take-back takes back the input before
    (the start card back to the shoe), not the first take-back. The table takes back as far as
    it was made (reach) and says the seats leave; one more is refused, with its reason."""
    t = deal({1: "R1 R2 R3", 2: "G5 B7 B8"}, start="R5")
    act(t, "pad R2")
    assert names(act(t, "undo")) == ["undo", "card_back", "turn"]
    assert act(t, "undo") == [(UNDO, 1), (CARD_BACK, card("R5a"), PILE, 0)]
    assert t.phase == P_START
    n = t.back.reach()
    assert act(t, "undo %d" % (n + 1)) == [(REJECT, R_UNDO_PAST, 0, -1)]
    evs = act(t, "undo %d" % n)
    assert of(evs, LEAVE) == [(LEAVE, 1), (LEAVE, 2)] and len(of(evs, CARD_BACK)) == 6
    assert t.phase == P_LOBBY and t.seats == []
    assert act(t, "undo") == [(REJECT, R_UNDO_PAST, 0, -1)]


# ---- every take-back of random nights --------------------------------------------------------

_COUNTED = (PLAY, DRAW, DEAL, PENALTY, CATCH, CHALLENGE, SCORE, ROUND_OVER, MATCH_OVER, JUMP,
            SLAP, SLAP_OPEN, OUT, SUM_WIN, REJECT)


def _says_what_it_waits_for(settings, seats, seed, ns, step, **kw):
    """After every step-th input of a bot's night, take back n: the cards drawn go back to the
    shoe first, then the hands a 0 passed, then the cards come off the pile top card first,
    before any other card moves (but a card laid again since a reshuffle: from the pile to the
    pile, among the cards going back onto it); the card that is the top card again goes last
    of all; the colour wanted, an UNO window opened or closed, a D or W4 owed anew and a
    reshuffle due again are said; nothing the records count is."""
    stream, _ = _night(settings, seats, seed, 1, False, **kw)
    told = {}
    for k in range(1, len(stream) + 1, step):
        for n in ns:
            t = Table(Settings(settings))
            pile = []
            for inp, ms, _, _, _, _ in stream[:k]:
                for e in t.feed(inp, ms):
                    if e[0] == PLAY:
                        pile.append(e[2])
                    elif e[0] == START:
                        pile.append(e[1])
                pile = [c for c in pile if t.loc[c] == PILE]
            if n > t.back.reach():
                continue
            was = (t.want, t.window, t.due, t.turn, t.pending, t.pending_why)
            evs = list(t.feed((IN_UNDO, n)))
            assert evs[0] == (UNDO, n)
            got = [e[0] for e in evs]
            for code in _COUNTED:
                assert code not in got, (k, n, evs)
            moved = [e for e in evs if e[0] == CARD_BACK]
            off = [e[1] for e in moved if e[2] == PILE and e[3] != PILE]
            assert off == [c for c in reversed(pile) if t.loc[c] != PILE], (k, n, evs)
            steps = [(0 if e[3] == 0 else 1 if 0 < e[3] < PILE else 3) if 0 < e[2] < PILE
                     else 2 if e[1] in off else 3 for e in moved]
            assert steps == sorted(steps), (k, n, evs)
            if t.top in [e[1] for e in moved if e[3] == PILE]:  # the top card again: last
                assert moved[-1][1] == t.top, (k, n, evs)
            assert (WANT in got) == bool(t.want and t.want != was[0]), (k, n, evs)
            if t.want and t.want != was[0]:
                assert (WANT, t.want) in evs
            if t.window != was[1]:
                assert (t.window == 0 or (UNO_OPEN, t.window) in evs) and \
                    (was[1] == 0 or (UNO_CLOSE, was[1]) in evs), (k, n, evs)
            assert (RESHUFFLE in got) == bool(t.due and not was[2] and t.drawer()), (k, n, evs)
            if RESHUFFLE in got:
                assert (RESHUFFLE, t.drawer()) in evs and t.drawer(), (k, n, evs)
            if t.pending and (t.turn != was[3] or not was[4] or t.pending_why != was[5]):
                assert (OWE, t.turn, t.pending, t.pending_why) in evs, (k, n, evs)
            else:
                assert OWE not in got, (k, n, evs)
            for code in got:
                told[code] = told.get(code, 0) + 1
    return told


def test_every_take_back_of_an_official_night_says_what_it_must():
    told = _says_what_it_waits_for({"hand_size": 3}, [1, 2, 3], 4, (1, 2), 2, mistakes=60)
    for code in (CARD_BACK, TURN, UNO_OPEN, UNO_CLOSE):
        assert told.get(code), code


def test_every_take_back_of_a_house_night_says_what_it_must():
    party = {"preset": "party", "hand_size": 4, "turn_timer": 0}
    told = _says_what_it_waits_for(party, [1, 2, 3, 4], 4, (1, 3), 3, mistakes=40)
    for code in (CARD_BACK, TURN, WANT, OWE, UNO_OPEN, UNO, UNO_CLOSE, REVERSE):
        assert told.get(code), code


def test_every_take_back_of_a_night_that_reshuffles_says_what_it_must():
    settings = {"draw": "until", "hand_size": 15}
    told = _says_what_it_waits_for(settings, [1, 2, 3, 4, 5, 6], 1, (1, 4), 5)
    assert told.get(RESHUFFLE), told
