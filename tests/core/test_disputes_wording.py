"""What the table says, and what it charges, where a referee noticed the wrong words: a card
read at the shoe between rounds. Named after the rule ids they decide; the seeds' words
(shared/seeds/) and docs/rules.md ("Decided where the seeds are read closely") say why."""
from kit import act, deal, unchanged, seated, hand
from uno.events import *


# ---- S2, M1: a card read at the shoe between rounds ------------------------------------------

def test_s2_m1_between_rounds_a_card_read_at_the_shoe_asks_for_the_shuffled_pile():
    """After a round, after a match, with the dealer chosen, and in a new group's lobby, every
    card is being gathered: a card read at the shoe (in a hand, on the pile, set aside) is
    answered "load the shuffled pile first", naming the seat that held it, and costs nothing.
    During the draw for dealer a set-aside card and during the deal a hand's card keep theirs."""
    # seeds 001, 002, 003: "将大家的牌重新洗混即可进行下一局" — between rounds everyone's cards are
    # shuffled together again; what the table waits for is the shuffle sensor
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5", misplay=2)
    act(t, "pad R1", "seat 1", "pad R7", "pad R8", "pad R2")
    assert t.phase == P_ROUND_OVER
    assert unchanged(t, "shoe G2a") == R_WANT_SHUFFLE   # seat 2's (unchanged checks the seat)
    assert unchanged(t, "shoe R2a") == R_WANT_SHUFFLE   # the last card played, on the pile
    assert unchanged(t, "shoe R5a") == R_WANT_SHUFFLE   # the start card, under it
    assert unchanged(t, "shoe B9a") == R_WANT_SHUFFLE   # one still in the shoe (as before)
    assert t.debts == []
    t = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"}, start="R5", target=1)
    act(t, "pad R1", "seat 1", "pad R7", "pad R8", "pad R2")
    assert t.phase == P_MATCH_OVER
    assert unchanged(t, "shoe Y2a") == R_WANT_SHUFFLE
    act(t, "seat 4")                                  # a new group: the lobby opens again
    assert t.phase == P_LOBBY and unchanged(t, "shoe Y2a") == R_WANT_SHUFFLE
    t = seated((1, 2, 3))
    act(t, "shuffle", "shoe R9a")
    assert unchanged(t, "shoe R9a") == R_ASIDE        # the draw for dealer: set aside
    act(t, "shoe G2a", "shoe B1a")
    assert t.phase == P_DEALER and t.dealer == 1
    assert unchanged(t, "shoe R9a") == R_WANT_SHUFFLE  # the dealer is chosen: shuffle
    t = seated((1, 2), first_dealer=2, hand_size=2)
    act(t, "shuffle", "shoe R1a", "shoe G1a")
    assert unchanged(t, "shoe R1a") == R_IN_HAND      # the deal: a hand's card, as before
    assert hand(t, 1) == ["R1"]
