"""Take-backs at a model of the physical table (issue 10): what playing them out found, each
pinned on its own. Two copies of one face look alike: where a player may put back either, the
table must take whichever turns up."""
from uno.cards import copy_name, parse_card
from uno.events import *
from uno.table import SHOE, PILE
from kit import act, deal, names


def card(text):
    return parse_card(text)[1]


def backs(evs):
    return [(copy_name(e[1]), e[2], e[3]) for e in evs if e[0] == CARD_BACK]


def _read(t, kind, text):
    return list(t.feed((kind, t.registry.uid(card(text)))))


def test_takeback_a_twin_passed_back_with_a_hand_a_zero_passed_is_in_doubt():
    """zero_rotate: seat 1's R0 passes R1a to seat 2 with its hand, and seat 2 draws R1b; both
    taken back. Seat 2 holds both R1s: it may put either on the shoe and pass the other back
    to seat 1 with the hand. The pair is in doubt (only a twin left in that hand was): seat 1
    plays the R1 it got, R1b, and the table takes it as R1a (R_IN_SHOE before: the seat could
    not play its own card)."""
    t = deal({1: "R0 R1a G2", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"}, start="R5", zero_rotate="yes")
    act(t, "pad R0", "shoe R1b")
    evs = act(t, "undo 2")
    assert ("R1b", 2, SHOE) in backs(evs) and ("R1a", 2, 1) in backs(evs)
    assert t.doubt == [card("R1b"), card("R1a")]
    evs = _read(t, IN_PAD, "R1b")
    assert names(evs)[:2] == ["twins", "play"] and evs[1][1:] == (1, card("R1b"))
    assert t.loc[card("R1a")] == SHOE and t.doubt == []


def test_takeback_a_third_copy_stays_in_doubt_once_its_twin_is_played():
    """Seat 1 holds Wa and Wb, draws Wc, and the draw is taken back: Wc is in doubt with both.
    The player put Wb back and plays Wc: the table takes Wa as the shoe's W (the first pair).
    The shoe's W may still be Wb: a draw of Wb is taken as Wa's (R_IN_HAND before: the other
    pair still named Wc, on the pile by then)."""
    t = deal({1: "Wa Wb G2", 2: "G5 B7 B8"}, start="B5")
    _read(t, IN_SHOE, "Wc")
    act(t, "undo")
    assert t.doubt == [card("Wc"), card("Wa"), card("Wc"), card("Wb")]
    assert names(_read(t, IN_PAD, "Wc"))[:2] == ["twins", "play"]
    assert t.doubt == [card("Wa"), card("Wb")]
    act(t, "colour G")
    evs = _read(t, IN_SHOE, "Wb")
    assert evs[0] == (TWINS, card("Wb"), card("Wa")) and evs[1][1:3] == (2, card("Wb"))


def test_takeback_t2_the_card_drawn_to_play_is_the_copy_the_hand_kept():
    """Seat 1 draws R4b, which it may play (T2), and passes; seat 2's RD makes it draw R4a. The
    draw, the RD and the pass taken back: seat 1 may play its drawn card again, and R4a is in
    doubt with R4b. The player put R4b back: the R4 it plays is R4a, taken as the card it drew
    (R_ONLY_DRAWN before: the table still named R4b, gone to the shoe)."""
    t = deal({1: "G2 G3", 2: "RD Y2"}, start="R5")
    act(t, "shoe R4b", "seat 1", "pad RD", "shoe R4a")
    act(t, "undo 3")
    assert t.doubt == [card("R4a"), card("R4b")] and t.drawn == card("R4b") and t.turn == 1
    evs = _read(t, IN_PAD, "R4a")
    assert names(evs)[:2] == ["twins", "play"] and t.top == card("R4a")


def test_takeback_a_read_that_found_two_copies_confused_stays_found_once_taken_back():
    """The deal taken back to R1b, which is in doubt with R1a (seat 1's). G2 is dealt to seat 1,
    then the R1 seat 1 put back, R1a, to seat 2 (`twins`). Both deals taken back: G2 and seat
    2's R1 go back to the shoe. It had undone the twins too: seat 1's R1 to the shoe and seat
    2's to seat 1, one copy sent to the other's place (a seat holding two Ws picked either)."""
    t = deal({1: "R1a R1b G2", 2: "G5 B7 B8"}, start=None)
    act(t, "undo", "undo", "undo", "undo")
    assert t.doubt == [card("R1b"), card("R1a")]
    act(t, "shoe G2a")
    assert names(_read(t, IN_SHOE, "R1a")) == ["twins", "deal"]
    evs = act(t, "undo 2")
    assert backs(evs) == [("G2a", 1, SHOE), ("R1a", 2, SHOE)], backs(evs)
    assert t.hands[1] == [card("R1b")]



def test_takeback_the_hands_a_zero_passed_go_back_before_a_card_comes_off_the_pile():
    """zero_rotate, 2 seats: seat 1's R0 passes R7a to seat 2, which plays it; both taken back.
    R7a goes back to seat 1, which holds seat 2's R7b meanwhile, to pass back. Off the pile
    first, seat 1 held both R7s when it passed the hand: either could go to seat 2, and seat
    2's next R7 on the pad would be taken as seat 1's (a misplay charged to a seat that did
    nothing). The hands go back first, then the cards off the pile, top card first."""
    t = deal({1: "R0 R7a G2", 2: "R7b B7 B8"}, start="R5", zero_rotate="yes")
    act(t, "pad R0", "pad R7a")
    evs = act(t, "undo 2")
    assert backs(evs) == [("R7b", 1, 2), ("B7a", 1, 2), ("B8a", 1, 2), ("G2a", 2, 1),
                          ("R7a", PILE, 1), ("R0a", PILE, 1)], backs(evs)


def _reshuffled(play_drawn):
    """7 seats: R6a, R2a and R3a laid on the start card R5a in that order; the shoe drawn
    empty (B9a, G9a); the pile but R3a reshuffled; seat 6 draws R5a (and plays it)."""
    from test_disputes_record import short_shoe
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a"})
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe B9a", "shoe G9a", "shuffle", "shoe R5a")
    if play_drawn:
        act(t, "pad R5a")
    return t


def test_takeback_cards_back_onto_the_pile_go_in_the_order_they_were_laid():
    """The reshuffle and seat 6's draw taken back: R5a, R6a and R2a go back under the top card
    R3a in the order they were laid, bottom first (they went in deck order: R2a, R6a, then R5a
    from the hand). A later take-back of R3a's play left R2a the table's top card and R5a the
    pile's."""
    t = _reshuffled(False)
    evs = act(t, "undo 2")
    assert backs(evs) == [("R5a", 6, PILE), ("R6a", SHOE, PILE), ("R2a", SHOE, PILE)]
    evs = act(t, "undo 3")  # the pile is R5a R6a R2a R3a: the top card comes off
    assert ("R3a", PILE, 3) in backs(evs) and copy_name(t.top) == "R2a"


def test_takeback_a_card_laid_again_since_a_reshuffle_goes_back_under_the_top_card():
    """R5a, reshuffled, drawn and played again: the reshuffle, the draw and the play taken
    back. R5a was on the pile before and is again, on top of R3a, the table's top card again:
    it goes from the pile to the pile, under R3a, in the order it was laid (it had no event:
    the pile showed R5 where the table had R3)."""
    t = _reshuffled(True)
    evs = act(t, "undo 3")
    assert backs(evs) == [("R5a", PILE, PILE), ("R6a", SHOE, PILE), ("R2a", SHOE, PILE)]
    assert copy_name(t.top) == "R3a"
    from uno.narrate import say
    assert say(evs[1]) == "R5 goes back into the discard pile, under its top card"
