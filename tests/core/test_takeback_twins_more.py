"""Two copies of one face: the cases tests/core/test_takeback_twins.py left refused.

A take-back's `card_back` names one copy; where the place it comes from holds another copy of
the face (a hand, the shoe, the cards set aside), the player may move either. The table then
takes a read of either copy where the other is as the other's: a pair on the pile and in the
shoe or a hand (T4: a reshuffle taken back), two copies put back onto the pile (their order:
the next take-back off the pile may take either), a pair set aside and in the shoe (S2: a draw
for dealer taken back). A reshuffle sends a pair's pile copy into the shoe with its doubt.
And T2: the drawn card's twin from the hand is taken as the drawn card (no take-back).
"""
from uno.cards import NCARDS, copy_name
from uno.events import IN_SHOE, IN_PAD, REJECT, TWINS, R_ON_PILE, R_ASIDE, R_ONLY_DRAWN, \
    R_NOT_TURN, P_DRAWOFF
from uno.rebuild import _swap
from uno.state import snapshot
from uno.table import PILE, SHOE, ASIDE
from kit import act, deal, names, seated, unchanged
from test_disputes_record import short_shoe


def card(text):
    return [c for c in range(NCARDS) if copy_name(c) == text][0]


def read(t, kind, text):
    return list(t.feed((kind, t.registry.uid(card(text)))))


def doubted(t):
    """The copies in t.doubt, pair by pair (x, y, kinds: uno/takeback.py's _in_doubt)."""
    return [copy_name(t.doubt[i]) for i in range(len(t.doubt)) if i % 3 < 2]


def backs(evs):
    return [(copy_name(e[1]), e[2], e[3]) for e in evs if names([e]) == ["card_back"]]


def nothing_logged(t, kind, text):
    """The read is refused, changes nothing and logs nothing (no time: a refusal's own)."""
    before = snapshot(t)
    n = t.back.n
    doubt = list(t.doubt)
    evs = read(t, kind, text)
    assert len(evs) == 1 and evs[0][0] == REJECT, evs
    assert snapshot(t) == before and t.back.n == n and t.doubt == doubt
    return evs[0][1]


def _drawn_after_a_reshuffle():
    """7 seats: R6a, R2a, R3a laid on the start card R5a; the shoe drawn empty (B9a, G9a);
    the pile but R3a reshuffled; seat 6, holding R5b, draws R5a. Both taken back: R5a goes
    from seat 6 back onto the pile, and seat 6 may have put either R5 there."""
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a", 6: "R5b"})
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe B9a", "shoe G9a", "shuffle", "shoe R5a")
    evs = act(t, "undo 2")
    assert backs(evs) == [("R5a", 6, PILE), ("R6a", SHOE, PILE), ("R2a", SHOE, PILE)]
    assert doubted(t) == ["R5b", "R5a"] and t.turn == 6  # the hand's copy, the pile's
    return t


def test_t4_a_drawn_twin_put_back_on_the_pile_is_played_as_the_hands_copy():
    t = _drawn_after_a_reshuffle()
    evs = read(t, IN_PAD, "R5a")  # seat 6 put R5b on the pile and plays the R5 it kept
    assert names(evs)[:2] == ["twins", "play"] and evs[0] == (TWINS, card("R5a"), card("R5b"))
    assert evs[1][1:] == (6, card("R5a")) and t.top == card("R5a")
    assert t.loc[card("R5b")] == PILE and card("R5b") not in t.hands[6] and t.doubt == []


def test_t4_a_pile_copy_read_where_its_twin_is_not_changes_nothing():
    t = _drawn_after_a_reshuffle()
    # R5a at the shoe: its twin is in a hand, not in the shoe
    assert nothing_logged(t, IN_SHOE, "R5a") == R_ON_PILE
    assert nothing_logged(t, IN_PAD, "R6a") == R_ON_PILE  # no R6 in doubt


def test_t4_the_twins_read_refused_all_the_same_changes_nothing():
    t = _drawn_after_a_reshuffle()
    act(t, "shuffle", "shoe R6a")  # seat 6 draws R6a, which fits: only it may be played (T2)
    # seat 6's R5: judged as the pile's twin (now in the shoe), refused: nothing changes
    assert nothing_logged(t, IN_PAD, "R5a") == R_ONLY_DRAWN
    assert doubted(t) == ["R5b", "R5a"] and t.loc[card("R5a")] == SHOE


def test_t4_a_pair_on_the_pile_goes_into_the_shoe_with_the_next_reshuffle():
    t = _drawn_after_a_reshuffle()
    evs = act(t, "shuffle")  # the pile but R3a again: R5a, R6a, R2a into the shoe
    assert names(evs)[0] == "shuffle" and t.loc[card("R5a")] == SHOE
    assert doubted(t) == ["R5b", "R5a"]  # the hand's copy and the shoe's
    evs = read(t, IN_PAD, "R5a")  # seat 6 plays the R5 it kept (R_IN_SHOE before)
    assert names(evs)[:2] == ["twins", "play"] and t.loc[card("R5b")] == SHOE


def test_t4_the_shoes_copy_drawn_after_the_next_reshuffle_is_the_pile_ones_twin():
    t = _drawn_after_a_reshuffle()
    act(t, "shuffle")
    evs = read(t, IN_SHOE, "R5b")  # R5b was on the pile: into the shoe, drawn
    assert names(evs)[:2] == ["twins", "draw"] and evs[1][1:3] == (6, card("R5b"))
    assert t.loc[card("R5a")] == 6 and t.doubt == []


def test_t4_a_take_back_keeps_what_a_twins_read_on_the_pile_found():
    t = _drawn_after_a_reshuffle()
    read(t, IN_PAD, "R5a")
    evs = act(t, "undo")  # the play taken back: the pile's top R5 goes back, R5a
    assert backs(evs) == [("R5a", PILE, 6)] and t.loc[card("R5b")] == PILE
    assert t.doubt == []


def _shoe_twin_back_under_a_reshuffle():
    """R6a, R2a, R3a laid on R5a; seat 4 draws R6b (it fits: it passes), seat 5 draws G9a;
    the pile but R3a reshuffled. The shuffle, the draws and the pass taken back: R6b goes back
    to the shoe, then R6a from the shoe onto the pile: either R6 the shoe then held."""
    t = short_shoe(("R6b", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a"})
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe R6b", "seat 4", "shoe G9a", "shuffle")
    evs = act(t, "undo 4")
    assert backs(evs)[:2] == [("R6b", 4, SHOE), ("G9a", 5, SHOE)]
    assert ("R6a", SHOE, PILE) in backs(evs) and t.turn == 4
    assert doubted(t)[:2] == ["R6b", "R6a"]  # (and G9a with seat 5's G9b)
    return t


def test_t4_the_pile_copy_read_at_the_shoe_is_drawn_as_the_shoes():
    t = _shoe_twin_back_under_a_reshuffle()
    evs = read(t, IN_SHOE, "R6a")  # the player put R6a on the shoe, R6b on the pile
    assert names(evs)[:2] == ["twins", "draw"] and evs[1][1:3] == (4, card("R6a"))
    assert t.loc[card("R6b")] == PILE and doubted(t) == ["G9a", "G9b"]


def test_t4_the_shoes_copy_on_the_pad_is_refused_it_is_no_hands():
    t = _shoe_twin_back_under_a_reshuffle()
    assert nothing_logged(t, IN_PAD, "R6b") != 0  # neither R6 is in a hand


def _restacked():
    """R6a, R6b, R3a laid on R5a; the shoe drawn empty; the pile but R3a reshuffled, and the
    reshuffle taken back: R5a, R6a, R6b go back onto the pile from the shoe, either R6 first."""
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R6b", 3: "R3a"})
    act(t, "pad R6a", "pad R6b", "pad R3a", "shoe B9a", "shoe G9a", "shuffle")
    evs = act(t, "undo")
    assert backs(evs) == [("R5a", SHOE, PILE), ("R6a", SHOE, PILE), ("R6b", SHOE, PILE)]
    assert doubted(t) == ["R6a", "R6b"]  # both on the pile: their order
    return t


def test_t4_two_copies_restacked_the_topmost_may_be_either():
    t = _restacked()
    assert nothing_logged(t, IN_PAD, "R6a") == R_ON_PILE  # the order alone: no read acts on it
    evs = act(t, "undo 4")  # G9a, B9a, R3a and R6b's play: the topmost R6 goes back to seat 2
    assert ("R6b", PILE, 2) in backs(evs) and t.turn == 2
    assert doubted(t)[:2] == ["R6b", "R6a"]  # seat 2's copy and the pile's
    evs = read(t, IN_PAD, "R6a")  # the topmost was R6a: seat 2 plays it
    assert names(evs)[:2] == ["twins", "play"] and evs[1][1:] == (2, card("R6a"))
    assert t.loc[card("R6b")] == PILE and t.top == card("R6a")


def test_t4_two_copies_off_a_restacked_pile_into_two_hands_either_may_be_played():
    t = _restacked()
    evs = act(t, "undo 5")  # ... and R6a's play: the two R6s off the pile, either to either
    assert backs(evs)[-2:] == [("R6b", PILE, 2), ("R6a", PILE, 1)] and t.turn == 1
    assert doubted(t)[:2] == ["R6a", "R6b"]
    evs = read(t, IN_PAD, "R6b")  # seat 1 plays the R6 it got: R6b, seat 2's for the table
    assert names(evs)[:2] == ["twins", "play"] and evs[1][1:] == (1, card("R6b"))
    assert t.loc[card("R6a")] == 2


def test_t4_a_twin_in_another_hand_is_taken_only_if_that_seat_may_play_it():
    t = _restacked()
    act(t, "undo 5", "shoe B9a", "shoe G9a")  # seats 1 and 2 draw, neither fits: seat 3's turn
    assert t.turn == 3 and doubted(t)[:2] == ["R6a", "R6b"]
    assert nothing_logged(t, IN_PAD, "R6a") == R_NOT_TURN  # seat 1's or seat 2's misplay?
    assert nothing_logged(t, IN_PAD, "R6b") == R_NOT_TURN


def test_h4_t4_a_drawn_twin_left_behind_when_a_zeros_hands_go_back_is_in_doubt():
    """Seat 6, holding R5b, draws R5a after the reshuffle and passes; seat 7's R0 passes seat
    6's hand on to seat 7. All taken back: seat 7 passes that hand back to seat 6 but R5a,
    which goes back onto the pile: either R5 could stay behind."""
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a", 6: "R5b", 7: "R0a"},
                   zero_rotate="yes")
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe B9a", "shoe G9a", "shuffle", "shoe R5a",
        "seat 6", "pad R0a")
    assert t.loc[card("R5a")] == t.loc[card("R5b")] == 7
    evs = act(t, "undo 4")
    assert ("R5a", 7, PILE) in backs(evs) and ("R5b", 7, 6) in backs(evs)
    assert doubted(t) == ["R5b", "R5a"] and t.turn == 6
    evs = read(t, IN_PAD, "R5a")  # the R5 that seat 6 got back
    assert names(evs)[:2] == ["twins", "play"] and t.loc[card("R5b")] == PILE


def test_s4_a_start_w4_read_as_its_twin_goes_back_and_ends_the_doubt():
    t = deal({1: "W4a W4b W4c", 2: "G5 B7 B8"}, start=None)
    act(t, "undo 2")  # B8a, then W4c back from seat 1, which holds W4a and W4b
    assert doubted(t) == ["W4c", "W4a", "W4c", "W4b"]
    act(t, "shoe G2a", "shoe B8a")  # dealt again: the start card is next
    evs = read(t, IN_SHOE, "W4b")  # a W4 seat 1 put back, turned up: it goes back (S4)
    assert names(evs) == ["twins", "back"] and t.loc[card("W4b")] == SHOE
    # seat 1 holds the other two: no W4 is in doubt (the other pair, renamed, named W4b)
    assert sorted(t.hands[1]) == [card("G2a"), card("W4a"), card("W4c")] and t.doubt == []


def _drew_off_twice():
    """The draw for dealer: seat 1 draws RSa, a non-number (again), then RSb (again), then
    R3a; RSb's draw and R3a's taken back: RSb goes back to the shoe from the cards set aside,
    which hold RSa too."""
    t = seated((1, 2))
    act(t, "shuffle", "shoe RSa", "shoe RSb", "shoe R3a")
    assert t.phase == P_DRAWOFF and t.loc[card("RSa")] == ASIDE
    evs = act(t, "undo 2")
    assert backs(evs) == [("R3a", ASIDE, SHOE), ("RSb", ASIDE, SHOE)]
    assert doubted(t) == ["RSb", "RSa"]
    return t


def test_s2_a_draw_for_dealer_taken_back_the_set_aside_copy_is_drawn_as_the_shoes():
    t = _drew_off_twice()
    evs = read(t, IN_SHOE, "RSa")  # the player put RSa back in the shoe (R_ASIDE before)
    assert names(evs)[:2] == ["twins", "drawoff"] and evs[1][1:] == (1, card("RSa"))
    assert t.loc[card("RSb")] == ASIDE and t.loc[card("RSa")] == ASIDE and t.doubt == []


def test_s2_without_the_take_back_a_set_aside_card_at_the_shoe_is_refused():
    t = seated((1, 2))
    act(t, "shuffle", "shoe RSa")
    assert unchanged(t, "shoe RSa") == R_ASIDE
    t = _drew_off_twice()
    act(t, "shoe RSb")  # where the table has it: the pair is no longer in doubt
    assert nothing_logged(t, IN_SHOE, "RSa") == R_ASIDE


def test_t2_the_drawn_cards_twin_from_the_hand_is_played_as_it():
    t = deal({1: "R5a G2 B7", 2: "G5 B8 Y9"}, start="R3")
    act(t, "shoe R5b")  # seat 1 draws R5b: it fits, only it may be played
    assert t.drawn == card("R5b")
    evs = read(t, IN_PAD, "R5a")  # the other R5, from the hand: no one can tell them apart
    assert names(evs)[0] == "play" and evs[0][1:] == (1, card("R5a"))
    assert t.hands[1] == [card("G2a"), card("B7a"), card("R5b")] and t.drawn == -1


def test_t2_another_face_from_the_hand_after_a_draw_is_still_refused():
    t = deal({1: "R5a R2 B7", 2: "G5 B8 Y9"}, start="R3")
    act(t, "shoe R5b")
    assert unchanged(t, "pad R2a") == R_ONLY_DRAWN
    assert unchanged(t, "pad B7a") == R_ONLY_DRAWN


def test_t2_h3_no_card_is_added_to_the_drawn_cards_twin():
    t = deal({1: "R5a Y5 B7", 2: "G5 B8 Y9"}, start="R3", multi="same")
    act(t, "shoe R5b")
    assert names(read(t, IN_PAD, "R5a"))[0] == "play"
    assert t.chain == 0  # as for the drawn card: seat 1 may not add its Y5
    evs = read(t, IN_PAD, "Y5a")
    assert evs[0][0] == REJECT and t.loc[card("Y5a")] == 1


def test_t2_drawing_on_no_card_from_the_hand():
    t = deal({1: "R5a G2 B7", 2: "G5 B8 Y9"}, start="R3", draw="until")
    act(t, "shoe Y9b")  # fits no R3: it draws on
    assert t.drawn == -2
    assert unchanged(t, "pad R5a") == R_ONLY_DRAWN
    act(t, "shoe R5b")
    assert names(read(t, IN_PAD, "R5a"))[0] == "play"


def test_t2_misplay_a_twin_of_the_drawn_card_costs_nothing():
    t = deal({1: "R5a G2 B7", 2: "G5 B8 Y9"}, start="R3", misplay=2)
    act(t, "shoe R5b")
    evs = read(t, IN_PAD, "R5a")
    assert names(evs)[0] == "play" and t.debts == []


# ---- what the mutation check asked for ------------------------------------------------------

def test_takeback_a_pair_found_out_renames_the_hands_copy_in_the_other_pairs():
    """Seat 1 holds Wa, draws Wc and Wd (each fits: it passes); all taken back. Two Ws went
    back to the shoe: the hand's W may be any of the three. Wa read at the shoe is drawn as
    Wc's; the hand's copy is then Wc by name, in doubt with Wd still."""
    t = deal({1: "Wa G2", 2: "B7 B8"}, start="R5")
    act(t, "shoe Wc", "seat 1", "shoe Y9a", "shoe Wd", "seat 1")
    assert t.loc[card("Wd")] == 1
    act(t, "undo 5")
    assert doubted(t) == ["Wc", "Wa", "Wd", "Wa"] and t.turn == 1
    evs = read(t, IN_SHOE, "Wa")
    assert evs[0] == (TWINS, card("Wa"), card("Wc")) and doubted(t) == ["Wd", "Wc"]
    act(t, "seat 1", "shoe Y9a")  # seat 2 draws: seat 1's turn again
    evs = read(t, IN_SHOE, "Wc")  # the W the hand had kept was Wd after all
    assert evs[0] == (TWINS, card("Wc"), card("Wd")) and t.loc[card("Wd")] == 1


def test_takeback_two_copies_change_places_whichever_is_named_first():
    """_swap is symmetric (a twins record replays the same whatever its order): the top card,
    the card drawn this turn and the card read last at the shoe follow their places."""
    t = _drawn_after_a_reshuffle()  # R5a on the pile, R5b in seat 6's hand
    before = (bytes(t.loc), [h[:] for h in t.hands])
    for x, y in (("R5a", "R5b"), ("R5b", "R5a")):
        _swap(t.back, card(x), card(y))
        assert t.loc[card("R5b")] == PILE and t.loc[card("R5a")] == 6
        assert card("R5a") in t.hands[6] and card("R5b") not in t.hands[6]
        _swap(t.back, card(y), card(x))
        assert (bytes(t.loc), t.hands) == before
    t.top = t.drawn = t.last = card("R5a")
    _swap(t.back, card("R5a"), card("R5b"))  # named first
    assert t.top == t.drawn == t.last == card("R5b")
    _swap(t.back, card("R5a"), card("R5b"))  # named second
    assert t.top == t.drawn == t.last == card("R5a")


def test_t4_a_reshuffle_keeps_each_pair_in_doubt_with_its_copies_new_places():
    t = _drawn_after_a_reshuffle()  # the shoe is empty: a reshuffle is due; R3a is the top
    r3b = card("R3b")
    s = t.loc[r3b]
    assert 0 < s < PILE
    t.doubt[:] = [card("R5b"), card("R5a"), 1 | 2 << 2,   # hand, pile: into the shoe
                  card("R6a"), card("R6b"), 0 | 1 << 2,   # no longer so (R6a on the pile)
                  card("R3a"), r3b, 2 | 1 << 2,           # the top card stays on the pile
                  r3b, card("R3a"), 1 | 2 << 2,
                  card("R5a"), card("R5b"), 2 | 1 << 2]   # (named the other way round)
    act(t, "shuffle")
    assert t.doubt == [card("R5b"), card("R5a"), 1 | 0 << 2, card("R3a"), r3b, 2 | 1 << 2,
                       r3b, card("R3a"), 1 | 2 << 2, card("R5a"), card("R5b"), 0 | 1 << 2]
    t = _restacked()  # R6a and R6b on the pile, their order in doubt; the shoe is empty
    act(t, "shuffle")
    assert t.doubt == []  # both in the shoe: no place tells them apart


def test_t4_cards_back_onto_the_pile_keep_the_order_a_twins_read_found():
    """R6b back to the shoe and R6a from the shoe onto the pile, in doubt; R6a read at the shoe
    is drawn: R6b lies where R6a was laid. The next reshuffle taken back puts R6b back onto the
    pile where R6a had been laid, between R5a and R2a (it had gone first: never laid)."""
    t = _shoe_twin_back_under_a_reshuffle()
    read(t, IN_SHOE, "R6a")
    act(t, "seat 4", "shoe G9a", "shuffle")  # R6a fits R3: seat 4 passes; seat 5 draws
    evs = act(t, "undo")
    assert backs(evs) == [("R5a", SHOE, PILE), ("R6b", SHOE, PILE), ("R2a", SHOE, PILE)]


def test_t4_cards_off_the_pile_top_card_first_after_a_twins_read():
    """R2a, R8a, R3a laid; R8b back to the shoe, R8a from the shoe onto the pile, in doubt;
    R8a read at the shoe: R8b lies where R8a was laid. Taking back the three plays takes R8b
    off the pile second, where R8a was (it had come off last: never laid)."""
    t = short_shoe(("R8b", "G9a"), {1: "R2a", 2: "R8a", 3: "R3a"})
    act(t, "pad R2a", "pad R8a", "pad R3a", "shoe R8b", "seat 4", "shoe G9a", "shuffle")
    act(t, "undo 4")
    assert doubted(t)[:2] == ["R8b", "R8a"]
    read(t, IN_SHOE, "R8a")
    evs = act(t, "undo 4")  # the draw, R3a's, R8's and R2a's plays
    assert backs(evs)[-3:] == [("R3a", PILE, 3), ("R8b", PILE, 2), ("R2a", PILE, 1)]


def test_t4_a_twin_read_refused_names_the_seat_it_was_judged_for():
    t = _restacked()
    act(t, "undo 5", "shoe B9a", "shoe G9a")  # seat 3's turn: R6a in seat 1, R6b in seat 2
    assert unchanged(t, "pad R6a") == R_NOT_TURN  # judged for seat 1 (seat 2 may not either)
    t = _drawn_after_a_reshuffle()
    fits = [c for c in t.hands[6] if c != card("R5b") and t.judge(6, c)[0]]
    t.feed((IN_PAD, t.registry.uid(fits[0])))  # seat 6 plays another card: seat 7's turn
    assert t.turn == 7
    evs = read(t, IN_PAD, "R5a")  # the pile's R5: judged as seat 6's R5b, out of turn
    assert evs == [(REJECT, R_NOT_TURN, 6, card("R5a"))] and t.loc[card("R5a")] == PILE


def test_h4_a_zeros_hands_go_back_at_once_no_copy_passed_in_is_in_doubt():
    """A 0's hands taken back: every seat passes at once, so a copy passed into a hand is not
    one that hand may pass on (only the copies it held: the two R1s are in no doubt)."""
    for way, dealer in (("cw", 3), ("ccw", 2)):  # (seat 1 plays first)
        for a, b in ((1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2)):
            hands = {1: "R0a G2 G3", 2: "B7 B8 Y9", 3: "Y2 Y3 Y4"}
            for s, c in ((a, "R1a"), (b, "R1b")):
                hands[s] = " ".join(hands[s].split()[:2] + [c])
            t = deal(hands, start="R5", dealer=dealer, zero_rotate="yes", direction=way)
            act(t, "pad R0a")
            assert t.loc[card("R1a")] != a
            act(t, "undo")
            assert t.doubt == [] and t.loc[card("R1a")] == a, (way, a, b)


def test_t4_a_card_reshuffled_back_to_a_hand_may_be_its_twin_just_put_in_the_shoe():
    """R6a played, seat 4 draws R6b (it passes), the pile but R3a reshuffled; all taken back:
    R6b goes back to the shoe first, then R6a from the shoe to seat 1: either R6 there."""
    t = short_shoe(("R6b", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a"})
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe R6b", "seat 4", "shoe G9a", "shuffle")
    evs = act(t, "undo 7")
    assert backs(evs)[0] == ("R6b", 4, SHOE) and ("R6a", SHOE, 1) in backs(evs)
    assert doubted(t)[:2] == ["R6b", "R6a"] and t.turn == 1
    evs = read(t, IN_PAD, "R6b")  # seat 1 got R6b back: it plays it
    assert names(evs)[:2] == ["twins", "play"] and t.loc[card("R6a")] == SHOE


def test_h4_t4_a_hand_passed_back_brings_a_twin_before_a_card_leaves_it_for_the_pile():
    """Seat 7 draws R5a after the reshuffle and passes; seat 1's R0 passes seat 7's hand to
    seat 1, and seat 1's (R5b in it) to seat 2. All taken back: seat 2 passes seat 1's hand
    back, then R5a goes from seat 1 back onto the pile: either R5 seat 1 then holds."""
    t = short_shoe(("B9a", "G9a"), {1: "R6a", 2: "R2a", 3: "R3a", 6: "R7a"}, zero_rotate="yes")
    act(t, "pad R6a", "pad R2a", "pad R3a", "shoe B9a", "shoe G9a", "pad R7a", "shuffle",
        "shoe R5a", "seat 7", "pad R0a")
    assert t.loc[card("R5a")] == 1 and t.loc[card("R5b")] == 2
    evs = act(t, "undo 4")
    assert ("R5b", 2, 1) in backs(evs) and ("R5a", 1, PILE) in backs(evs)
    assert "R5b" in doubted(t) and "R5a" in doubted(t)


def test_t4_a_twins_draw_taken_back_sends_only_the_drawn_copy_back():
    """R6a read at the shoe is drawn as R6b's (R6b lies on the pile where R6a was laid, before
    the take-back's reach): taking back the draw and R3a's play moves R6a and R3a alone."""
    t = _shoe_twin_back_under_a_reshuffle()
    read(t, IN_SHOE, "R6a")
    evs = act(t, "undo 2")
    assert backs(evs) == [("R6a", 4, SHOE), ("R3a", PILE, 3)] and t.loc[card("R6b")] == PILE
    assert "R6a" not in doubted(t)  # the read found them out: no R6 is in doubt


def test_t2_h3_no_card_is_added_to_a_drawn_r0():
    t = deal({1: "G0a Y5 B7", 2: "G5 B8 Y9"}, start="R3", multi="same")
    act(t, "shoe R0a")  # card 0 of the deck: drawn, it fits
    assert names(read(t, IN_PAD, "R0a"))[0] == "play" and t.chain == 0
    assert read(t, IN_PAD, "G0a")[0][0] == REJECT


def test_s4_a_start_card_back_keeps_the_other_faces_pairs():
    t = deal({1: "W4a W4b W4c", 2: "R1a R1b B8"}, start=None)
    act(t, "undo 3")  # B8a, W4c (seat 1 holds W4a, W4b) and R1b (seat 2 holds R1a) back
    assert doubted(t) == ["R1b", "R1a", "W4c", "W4a", "W4c", "W4b"]
    act(t, "shoe G2a", "shoe G3a", "shoe B8a")
    evs = read(t, IN_SHOE, "W4a")
    assert names(evs) == ["twins", "back"] and doubted(t) == ["R1b", "R1a"]


def test_t2_h2_h3_a_jump_in_while_a_drawn_card_waits_may_take_more_cards():
    t = deal({1: "G2a B7 Y9", 2: "R5b Y5 B8"}, start="R5", jump_in="identical", multi="same")
    act(t, "shoe R9a")  # seat 1 draws R9a: it fits, it may play it
    assert t.drawn == card("R9a")
    assert names(read(t, IN_PAD, "R5b"))[:2] == ["jump_in", "play"]  # seat 2 jumps in
    assert t.chain == 2  # its own play: it may add its Y5 (not the drawn card's T2)
