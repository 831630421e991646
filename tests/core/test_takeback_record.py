"""What the table says after a take-back (issue 10), rule situation by rule situation: which
card goes back where, in an order a referee can follow (off the discard pile top card first:
two copies of a face look alike). The state itself is test_takeback.py's: here the events.
One test per situation; the docstring says the situation and the outcome."""
from kit import act, deal, names
from uno.cards import copy_name, parse_card
from uno.events import *
from uno.table import PILE
from test_disputes_record import short_shoe


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
    """zero_rotate: seat 1's R0 passed every hand on (1 to 2, 2 to 3, 3 to 1). Taken back: the
    0 goes back off the pile first, then each hand goes back whole, its cards one after the
    other (they came in deck order, the three hands' cards interleaved); the turn is seat 1's
    again and no window is said (R0 left seat 1 two cards)."""
    t = deal({1: "R0 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, start="R5", zero_rotate="yes")
    assert names(act(t, "pad R0")) == ["play", "rotate", "turn"]
    evs = act(t, "undo")
    moves = [(f, to) for _, f, to in backs(evs)]
    assert moves == [(PILE, 1)] + [(1, 3)] * 3 + [(2, 1)] * 2 + [(3, 2)] * 3, moves
    assert names(evs)[-1] == "turn" and evs[-1][1] == 1
    assert sorted(copy_name(c) for c in t.hands[1]) == ["G2a", "G3a", "R0a"]


def test_t4_a_card_that_goes_back_on_top_of_the_pile_goes_back_last():
    """The shoe holds B9a and G9a. Seat 1 plays R6a; then seat 2 covers it with R3a, seats 3
    and 4 draw the shoe empty, the pile but R3a (R5a, R6a) is reshuffled into the shoe and seat
    5 plays R1a. Taking back the last five inputs: R1a, then R3a, off the pile (top first);
    then R5a and R6a from the shoe to the pile, R6a last, as it is the top card again; then the
    drawn cards back to the shoe."""
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R3a", 5: "R1a"})
    act(t, "pad R6a", "pad R3a", "shoe B9a")
    assert names(act(t, "shoe G9a"))[-1] == "reshuffle"
    assert names(act(t, "shuffle")) == ["shuffle"] and t.shoe == 2
    assert names(act(t, "pad R1a"))[0] == "play"
    evs = act(t, "undo 5")
    assert backs(evs) == [("R1a", PILE, 5), ("R3a", PILE, 2), ("R5a", 0, PILE),
                          ("R6a", 0, PILE), ("B9a", 3, 0), ("G9a", 4, 0)], backs(evs)
    assert t.top == card("R6a") and t.turn == 2
