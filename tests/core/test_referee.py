"""Issue 10: the seeds' exact word on stacking and jump-ins, what the record says, and a way
forward from every state (docs/rules.md quotes the seeds where these are decided)."""
from kit import act, deal, names, unchanged, hand, seated
from uno.cards import NCARDS, DECK, copy_name, points
from uno.events import *
from uno.rules import Settings, check
from uno.state import snapshot, load
from uno.table import Table, PILE
from check import raises


def cards_but(keep):
    """Every physical card's copy name but those in keep (copy names), in deck order."""
    return [copy_name(c) for c in range(NCARDS) if copy_name(c) not in keep]


def hands_of(cards, nseats, size):
    return dict((s + 1, " ".join(cards[s * size:(s + 1) * size])) for s in range(nseats))


# ---- H1: only a draw card played in turn can be stacked -------------------------------

def test_h1_s4_a_start_d_cannot_be_stacked():
    t = deal({1: "RD R1", 2: "G1 G2", 3: "B1 B2"}, start="YD", stacking="on")
    assert t.turn == 1 and t.pending == 2 and not t.stackable and t.answerable
    assert unchanged(t, "pad RD") == R_MUST_DRAW
    act(t, "shoe Y5")
    evs = act(t, "shoe Y6")
    assert names(evs) == ["draw", "skip", "turn"] and t.turn == 2


def test_h2_s4_a_start_d_may_be_jumped_seed_000():
    # seed 000: "第一位玩家要從牌庫最上面拿走兩張牌（有搶牌除外）"
    t = deal({1: "R1 R2", 2: "YDb G2", 3: "B1 B2"}, start="YDa", jump_in="actions")
    evs = act(t, "pad YDb")
    assert names(evs)[:2] == ["jump_in", "play"]
    assert t.turn == 3 and t.pending == 2 and t.owes(1) == 0   # the start D's draws are void
    assert t.stackable                                         # seat 2 played it: H1 applies


def test_h1_h2_a_jump_in_on_a_stacked_d_voids_only_the_jumped_card():
    # seed 002: "被抢的牌作用失效" and "抢牌不是叠加": the jumped D's own +2 is void; the draws
    # stacked before it go on down the stack ("由最后一个没有+2牌的罚摸"), now after the jumper's D
    t = deal({1: "RD R1 R2", 2: "GDa G1 G2", 3: "Y1 Y2 Y3", 4: "GDb B1 B2", 5: "B3 B4 B5"},
             start="R5", stacking="on", jump_in="actions")
    act(t, "pad RD", "pad GDa")                  # seat 2 stacks: seat 3 owes 4
    assert t.turn == 3 and t.pending == 4
    evs = act(t, "pad GDb")                      # seat 4 jumps seat 2's D
    assert names(evs) == ["jump_in", "play", "turn", "owe"]
    assert evs[3][1:] == (5, 4, W_STACK)         # seat 1's 2 and seat 4's 2, not seat 2's
    assert t.owes(3) == 0 and t.owes(2) == 0 and t.stack == 0 and t.stackable
    # the same with W4s: seat 2's W4 is void, seat 1's 4 and seat 4's go to seat 5
    t = deal({1: "W4a R1 R2", 2: "W4b G1 G2", 3: "Y1 Y2 Y3", 4: "W4c B1 B2", 5: "B3 B4 B5"},
             start="R5", stacking="on", jump_in="actions")
    act(t, "pad W4a", "colour B", "pad W4b", "colour Y")
    assert t.turn == 3 and t.pending == 8
    act(t, "pad W4c")
    evs = act(t, "colour G")
    assert evs[2][1:] == (5, 8, W_STACK) and t.w4_from == 4 and t.owes(3) == 0
    # and a multi-play's second D (H3): the first still counts
    t = deal({1: "RD GDa R1 R2", 2: "G1 G2 G3 G4", 3: "GDb Y2 Y3 Y4", 4: "B1 B2 B3 B4"},
             start="R5", multi="same", jump_in="actions")
    act(t, "pad RD", "pad GDa")
    assert t.turn == 2 and t.pending == 4
    evs = act(t, "pad GDb")                      # seat 3 jumps the second D
    assert evs[3][1:] == (4, 4, W_STACK) and t.owes(2) == 0


def test_h1_t5_a_winners_last_d_cannot_be_stacked_nor_jumped():
    # seed 002: "此局游戏已结束，但赢家的下一家仍需受罚"
    t = deal({1: "RDa", 2: "GD", 3: "RDb"}, start="R5", stacking="on", jump_in="actions")
    evs = act(t, "pad RDa")
    assert names(evs) == ["play", "turn", "owe"] and t.turn == 2 and t.pending == 2
    assert not t.stackable and not t.answerable
    assert unchanged(t, "pad GD") == R_MUST_DRAW
    assert unchanged(t, "pad RDb") == R_NOT_TURN
    act(t, "shoe B5")
    evs = act(t, "shoe B6")
    assert names(evs) == ["draw", "round_over", "score"]
    assert evs[1][1:] == (1, 20 + 5 + 6 + 20) and t.colour == 0   # the D's colour stands


def test_h1_t5_a_winners_last_w4_cannot_be_stacked_or_challenged():
    t = deal({1: "W4a", 2: "W4b", 3: "B1"}, start="R5", stacking="on")
    evs = act(t, "pad W4a")
    assert names(evs) == ["play", "turn", "owe"] and t.pending == 4 and t.colour == -1
    assert unchanged(t, "pad W4b") == R_MUST_DRAW
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE


# ---- H1 w4_on_d: seed 002 -----------------------------------------------------------------

def test_h1_w4_on_d_a_w4_stacked_on_a_d_is_legal_whatever_the_hand():
    # seed 002: "+4牌只能跟在+2或+4后面。或者没有与上家颜色一样的牌才可出"
    t = deal({1: "RD R1 R2", 2: "W4 R3 G1", 3: "Y1 Y2 Y3"}, start="R5", stacking="w4_on_d")
    act(t, "pad RD")
    act(t, "pad W4", "colour G")                 # seat 2 holds red: still legal on a D
    assert t.turn == 3 and t.pending == 6 and t.w4_from == 2 and not t.w4_illegal
    evs = act(t, "seat 3 long")
    assert evs[0][1:] == (3, 2, V_LEGAL) and t.pending == 8


def test_h1_w4_on_d_a_w4_stacked_on_a_w4_is_legal_too():
    t = deal({1: "W4a B1 B2", 2: "W4b G1 G2", 3: "Y1 Y2 Y3"}, start="B5", stacking="w4_on_d")
    act(t, "pad W4a", "colour G")                # seat 2 now holds green
    act(t, "pad W4b", "colour R")
    assert t.pending == 8 and not t.w4_illegal
    evs = act(t, "seat 3 long")
    assert evs[0][3] == V_LEGAL


def test_h1_w4_on_d_a_w4_played_otherwise_is_judged_from_the_hand():
    t = deal({1: "W4 R1 R2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", stacking="w4_on_d")
    act(t, "pad W4", "colour G")
    assert t.w4_illegal
    evs = act(t, "seat 2 long")
    assert evs[0][3] == V_ILLEGAL


def test_h1_on_allows_no_w4_on_a_d():
    t = deal({1: "RD R1 R2", 2: "W4 R3 G1", 3: "Y1 Y2 Y3"}, start="R5", stacking="on")
    act(t, "pad RD")
    assert unchanged(t, "pad W4") == R_MUST_DRAW  # "on": no W4 on a D


# ---- H2: jump-in with identical wilds --------------------------------------------------

def test_h2_an_identical_w_jumps_in_with_actions():
    # seed 002: "功能牌和万能牌也可以抢，被抢的牌作用失效"
    t = deal({1: "Wa R1 R2", 2: "G1 G2 G3", 3: "Wb Y2 Y3"}, start="R5", jump_in="actions")
    act(t, "pad Wa", "colour G")
    assert t.turn == 2
    evs = act(t, "pad Wb")
    assert names(evs) == ["jump_in", "play", "colour_wanted"] and t.want == 3
    evs = act(t, "colour Y")
    assert names(evs) == ["colour", "turn"] and t.turn == 1 and t.colour == 1


def test_h2_wilds_do_not_jump_in_with_identical_only():
    t = deal({1: "Wa R1 R2", 2: "G1 G2 G3", 3: "Wb Y2 Y3"}, start="R5", jump_in="identical")
    act(t, "pad Wa", "colour G")
    assert unchanged(t, "pad Wb") == R_NOT_TURN


def test_h2_c1_a_jumped_w4s_draws_and_challenge_are_void():
    t = deal({1: "W4a R1 R2", 2: "G1 G2 G3", 3: "W4b Y2 B3"}, start="R5", jump_in="actions")
    act(t, "pad W4a", "colour B")
    assert t.turn == 2 and t.pending == 4 and t.w4_from == 1
    evs = act(t, "pad W4b")                      # seat 3 jumps in with the identical W4
    assert names(evs)[:2] == ["jump_in", "play"]
    assert t.pending == 0 and t.w4_from == 0 and t.owes(2) == 0 and t.want == 3
    assert unchanged(t, "seat 2 long") == R_NO_CHALLENGE
    act(t, "colour Y")
    # seat 3's own W4: its next seat (1) owes 4 and may challenge it, judged from seat 3's
    # hand when it jumped (it held B3 of the active colour blue): illegal
    assert t.turn == 1 and t.pending == 4 and t.w4_from == 3 and t.w4_illegal
    evs = act(t, "seat 1 long")
    assert evs[0][1:] == (1, 3, V_ILLEGAL) and t.owes(3) == 4


def test_h2_a_jump_in_is_not_possible_while_the_colour_is_wanted():
    t = deal({1: "Wa R1 R2", 2: "G1 G2 G3", 3: "Wb Y2 Y3"}, start="R5", jump_in="actions")
    act(t, "pad Wa")
    assert unchanged(t, "pad Wb") == R_WANT_COLOUR


# ---- the record says everything -----------------------------------------------------

def test_t3_a_d_victim_gets_a_skip_event():
    t = deal({1: "RD R1", 2: "G1 G2", 3: "B1 B2"}, start="R5")
    act(t, "pad RD", "shoe Y5")
    evs = act(t, "shoe Y6")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2


def test_t4_t3_a_waived_d_still_skips_its_victim():
    # 7 x 15 dealt, start card RDa, two cards in the shoe; seat 1 owes 2 and misplays (a
    # debt of 1 comes first): one card is left for the D, the other draw is waived
    left = ("RDa", "B9a", "B9b")
    t = deal(hands_of(cards_but(left), 7, 15), start="RDa", misplay=1)
    assert t.turn == 1 and t.pending == 2 and t.shoe == 2
    act(t, "pad R1a")                            # a misplay: it costs 1
    assert t.debts == [[1, 1, W_MISPLAY]]
    act(t, "shoe B9a")
    evs = act(t, "shoe B9b")
    assert names(evs) == ["draw", "waive", "skip", "turn"]
    assert evs[1][1:] == (1, 1) and evs[2][1] == 1 and t.turn == 2


def test_t4_the_table_says_when_the_pile_must_be_shuffled():
    # 7 x 15 dealt; seat 1 holds R6a for the start card R5a; the shoe holds B9a and one more
    left = ("R5a", "R6a", "B9a")
    cards = cards_but(left)
    hs = hands_of(cards, 7, 15)
    hs[1] = " ".join(["R6a"] + hs[1].split()[1:])
    t = deal(hs, start="R5a", dealer=7)
    assert t.turn == 1 and t.shoe == 2 and not t.due
    act(t, "pad R6a")                            # the pile now has a card to reshuffle
    said = []
    for k in range(2):
        seat = t.turn
        last = [c for c in range(NCARDS) if t.loc[c] == 0][-1]
        said += [e for e in act(t, "shoe " + copy_name(last)) if e[0] == RESHUFFLE]
        if t.drawn >= 0:
            said += [e for e in act(t, "seat %d" % seat) if e[0] == RESHUFFLE]  # pass
    assert t.shoe == 0 and len(said) == 1     # said once, by the draw that emptied the shoe
    assert t.due and snapshot(t)["reshuffle"] is True and load(snapshot(t)).due
    assert unchanged(t, "pad R5a") == R_ON_PILE  # a reject says nothing more
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle"] and evs[0][1] == 1 and not t.due


def test_t4_the_reshuffle_names_the_seat_that_draws_next():
    # the shoe holds B9a and G3a, neither fits R6a: seats 2 and 3 draw them and pass, and the
    # table asks for the pile for seat 4, the next to draw
    cards = cards_but(("R5a", "R6a", "B9a", "G3a"))
    t = deal(hands_of(["R6a"] + cards, 7, 15), start="R5a", dealer=7)
    act(t, "pad R6a", "shoe B9a")
    evs = act(t, "shoe G3a")
    assert t.shoe == 0 and t.turn == 4 and t.drawer() == 4
    assert [e for e in evs if e[0] == RESHUFFLE] == [(RESHUFFLE, 4)]


def test_m1_the_active_colour_follows_the_winning_play():
    t = deal({1: "G5", 2: "B1", 3: "Y1"}, start="R5")
    act(t, "pad G5")
    assert t.phase == P_ROUND_OVER and t.colour == 2 and snapshot(t)["colour"] == "G"


def test_u4_a_false_catch_names_the_seat_that_pressed():
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5", false_catch=2)
    act(t, "pad R1", "seat 1")                   # seat 1 calls UNO
    evs = act(t, "seat 3")                       # seat 3 "catches" it anyway
    assert evs[0] == (REJECT, R_CALLED, 3, -1) and evs[1][1:] == (3, 2, W_FALSE_CATCH)


def test_p1_a_card_read_while_another_seat_draws_names_its_holder():
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R1", "seat 2")                   # seat 2 catches seat 1: seat 1 draws 2
    y1 = [c for c in t.hands[3] if copy_name(c)[:2] == "Y1"][0]
    evs = act(t, "pad " + copy_name(y1))
    assert evs == [(REJECT, R_WAIT_DRAW, 3, y1)]


# ---- settings that cannot apply ----------------------------------------------------------

def test_s2_a_first_dealer_not_in_the_game_is_refused_with_a_reason():
    t = seated((1, 2, 3), first_dealer=7)
    assert unchanged(t, "shuffle") == R_NO_DEALER
    act(t, "seat 7")
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[1][2] == 7


def test_s2_a_first_dealer_not_seated_is_refused_between_rounds():
    t = deal({1: "R1", 2: "G1"}, start="R5")
    act(t, "pad R1")
    assert t.phase == P_ROUND_OVER
    evs = act(t, 'rule first_dealer 5')
    assert evs == [(REJECT, R_NO_DEALER, 0, -1)] and t.rules.first_dealer == 2


def test_s3_a_hand_size_set_during_the_draw_for_dealer_is_checked_against_the_seats():
    t = seated((1, 2, 3, 4, 5, 6, 7, 8))
    act(t, "shuffle")
    assert t.phase == P_DRAWOFF
    before = snapshot(t)
    evs = act(t, "rule hand_size 15")            # 8 x 15 = 120 cards: cannot be dealt
    assert evs == [(REJECT, R_DEAL_SIZE, 0, -1)] and snapshot(t) == before
    assert names(act(t, "rule hand_size 13")) == ["rule"]   # 104 + the start card: fits


def test_s3_hand_size_boundary_at_the_deal():
    # n x hand_size must leave at least one card for the start card
    t = seated((1, 2, 3, 4, 5, 6, 7), hand_size=15)
    assert names(act(t, "shuffle"))[0] == "shuffle"
    t = seated((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), hand_size=11)   # 110
    assert unchanged(t, "shuffle") == R_DEAL_SIZE
    t = seated((1, 2, 3, 4, 5, 6, 7, 8, 9), hand_size=12)       # 108: no start card
    assert unchanged(t, "shuffle") == R_DEAL_SIZE
    t = seated((1, 2, 3, 4, 5, 6, 7, 8, 9), hand_size=11)       # 99
    assert names(act(t, "shuffle"))[0] == "shuffle"


def test_m4_teams_of_one_are_refused():
    assert raises(ValueError, check, "teams", 1)
    assert raises(ValueError, Settings, {"teams": 1})
    t = seated((1, 2, 3, 4))
    assert unchanged(t, "rule teams 1") == R_BAD_RULE
    assert names(act(t, "rule teams 2")) == ["rule"]


def test_m4_teams_that_do_not_fit_the_seats_are_refused_during_the_draw_for_dealer():
    t = seated((1, 2, 3, 4, 5, 6, 7, 8))
    act(t, "shuffle")
    assert unchanged(t, "rule teams 3") == R_TEAMS
    assert names(act(t, "rule teams 4")) == ["rule"]


def test_m4_a_preset_that_changes_nothing_that_matters_is_taken_between_rounds():
    t = deal({1: "R1", 2: "G1"}, start="R5")
    act(t, "pad R1")
    evs = act(t, "rule preset house")
    assert "rule" in names(evs)


# ---- a way forward from every state ----------------------------------------------------

def test_s4_a_start_card_goes_back_while_another_card_could_start():
    left = ("RSa", "R3a", "GRa")
    t = deal(hands_of(cards_but(left), 7, 15), start=None, start_card="number")
    assert names(act(t, "shoe RSa")) == ["back"]
    assert names(act(t, "shoe GRa")) == ["back"]
    assert names(act(t, "shoe R3a"))[0] == "start"


def test_s4_a_shoe_of_non_starters_starts_with_the_card_read():
    left = ("RSa", "GRa", "BDa")
    hs = hands_of(cards_but(left), 7, 15)
    t = deal(hs, start=None, start_card="number")
    evs = act(t, "shoe GRa")
    assert names(evs)[0] == "start" and t.phase == P_PLAY


def test_s4_a_shoe_of_w4s_only_starts_with_a_w4_as_a_w():
    left = ("W4a", "W4b", "W4c", "W4d")
    hs = hands_of(cards_but(left), 8, 13)        # 104 dealt: only the W4s are left
    t = deal(hs, start=None)
    evs = act(t, "shoe W4b")
    assert names(evs) == ["start", "turn", "colour_wanted"] and t.pending == 0
    assert t.want == t.turn == 1
    act(t, "colour B")
    assert t.turn == 1 and t.colour == 3


def test_s2_the_draw_for_dealer_may_use_up_the_shoe_then_the_set_aside_cards_come_back():
    t = seated((1, 2))
    act(t, "shuffle")
    order = []
    for c in range(NCARDS):
        if DECK[c] & 15 > 9:
            order.append(c)                      # non-numbers: the same seat draws again
    nums = [c for c in range(NCARDS) if DECK[c] & 15 <= 9]
    nums.sort(key=lambda c: DECK[c] & 15)
    order += nums                                # equal numbers in pairs: ties, again
    evs = []
    for c in order:
        evs = act(t, "shoe " + copy_name(c))
    assert t.shoe == 0 and t.phase == P_DRAWOFF and t.due
    assert names(evs)[-1] == "reshuffle" and evs[-1][1] == t.drawer() == 1
    assert unchanged(t, "pad R1a") == R_ASIDE
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle"] and evs[0][1] == NCARDS and not t.due
    act(t, "shoe R9a", "shoe R1a")
    assert t.phase == P_DEALER and t.dealer == 1


def test_s2_a_shuffle_during_the_draw_for_dealer_with_cards_in_the_shoe_is_refused():
    t = seated((1, 2))
    act(t, "shuffle")
    assert unchanged(t, "shuffle") == R_SHOE_LEFT


def stuck_table(**settings):
    """7 seats x 15 (seat 1: reds), start card R5a; the last two cards are drawn: the shoe is
    empty and the pile holds only its top card. The turn is then seat 3's."""
    left = ("R5a", "B9a", "B9b")
    t = deal(hands_of(cards_but(left), 7, 15), start="R5a", **settings)
    act(t, "shoe B9a", "shoe B9b")               # neither fits: seats 1 and 2 draw them
    assert t.shoe == 0 and t.pile == 1 and t.turn == 3 and t.dry == 0
    return t


def test_t2_forced_play_holds_with_nothing_left_to_draw():
    t = stuck_table()
    t.rules.forced = "yes"                       # as if set before the round
    assert t._can_play(3)                        # seat 3 holds Y5 for R5
    assert unchanged(t, "seat 3") == R_MUST_PLAY
    t = stuck_table()
    assert names(act(t, "seat 3")) == ["pass", "turn"]


def test_t6_a_full_round_of_passes_with_nothing_to_draw_ends_the_round():
    t = stuck_table()
    for k in range(6):
        evs = act(t, "seat %d" % t.turn)
        assert names(evs) == ["pass", "turn"] and t.dry == k + 1
    pts = dict((s, t._hand_points(s)) for s in t.seats)
    evs = act(t, "seat %d" % t.turn)
    assert names(evs)[:3] == ["pass", "blocked", "round_over"]
    w = evs[1][1]
    best = min((pts[s], len(t.hands[s]), s) for s in t.seats)
    assert w == best[2] and t.winner == w and t.phase in (P_ROUND_OVER, P_MATCH_OVER)
    assert evs[2][2] == sum(pts[s] for s in t.seats if s != w)
    assert load(snapshot(t)).dry == 0


def test_t6_m4_a_blocked_round_with_teams_goes_to_the_team_holding_the_fewest_points():
    # seeds 001/002 on teams: "以队为单位来进行计算，总计每位队员手中持牌的点数和来做为该队的分数" (the
    # team is the unit; its points are its members' hands added up). Seat 2 holds the fewest
    # points of any seat, but its team holds far more than seats 1, 3, 5 and 7 together
    left = ("R5a", "B9a", "B9b", "Y9a")
    cards = [copy_name(c) for _, c in sorted((points(c), c) for c in range(NCARDS)
                                          if copy_name(c) not in left)]
    hands = {2: cards[:13]}
    for k, s in enumerate((1, 3, 5, 7)):         # the next lowest, seat 1 the lowest of them
        hands[s] = cards[13 + 13 * k:26 + 13 * k]
    for k, s in enumerate((4, 6, 8)):
        hands[s] = cards[65 + 13 * k:78 + 13 * k]
    t = deal(dict((s, " ".join(hands[s])) for s in hands), start="R5a", teams=2,
             target=10000)
    act(t, "shoe B9a", "shoe B9b", "shoe Y9a")   # none fits: seats 1, 2 and 3 draw them
    assert t.shoe == 0 and t.pile == 1 and t.turn == 4
    for k in range(7):
        act(t, "seat %d" % t.turn)
    pts = dict((s, t._hand_points(s)) for s in t.seats)
    assert min(pts, key=lambda s: pts[s]) == 2
    evs = act(t, "seat %d" % t.turn)
    assert names(evs) == ["pass", "blocked", "round_over", "score", "score", "score", "score"]
    assert evs[1][1] == 1 and t.winner == 1        # the team of 1, 3, 5, 7; seat 1 its lowest
    assert evs[2][2] == pts[2] + pts[4] + pts[6] + pts[8]
    assert [e[1] for e in evs[3:]] == [1, 3, 5, 7] and t.scores[7] == evs[2][2]


def test_t6_a_play_restarts_the_count_of_passes():
    t = stuck_table()
    while t.turn != 1:
        act(t, "seat %d" % t.turn)
    assert t.dry == 5
    assert load(snapshot(t)).dry == 5
    act(t, "pad R1a")
    assert t.dry == 0 and t.phase == P_PLAY


def test_t6_h3_a_card_added_to_a_multi_play_restarts_the_count_too():
    t = stuck_table(multi="same")
    while t.turn != 1:
        act(t, "seat %d" % t.turn)
    assert t.dry == 5
    act(t, "pad R1a")
    assert names(act(t, "pad R1b"))[0] == "play" and t.dry == 0



def _going_round():
    """Found by a sweep of the property test (9 seats, forced play, draw until), here set up
    by hand: seats 6 and 7 hold no R, no wild and no card of one R's colour. With the shoe
    empty and a red R on a blue R (or the other way), the turn seat draws the one card under
    the top after the reshuffle, must play it (forced), and it sends play back to the other
    seat. The table when the shoe first runs out (seat 7 to draw)."""
    loop = ("RRa", "BRa", "Y9b")                         # Y9b: drawn first, it fits nothing
    plain = [n for n in cards_but(loop) if n[0] != "W" and n[1] != "R"]
    seat6 = [n for n in plain if n[0] == "B"][:15]
    seat7 = [n for n in plain if n[0] == "R"][:15]
    hands = hands_of(cards_but(list(loop) + seat6 + seat7), 5, 15)
    hands[6] = " ".join(seat6)
    hands[7] = " ".join(seat7)
    t = deal(hands, start="RRa", forced="yes", draw="until")
    assert t.turn == 6 and t.dir < 0                     # S4: the dealer's right begins
    act(t, "shoe Y9b", "shoe BRa", "pad BRa")            # draws until one fits, plays it
    assert t.turn == 7 and t.shoe == 0
    return t


def _round_and_round(t):
    """One-card reshuffles, each card drawn and played, until the round is blocked: how many
    reshuffles that took, and the last one's events."""
    reshuffles = 0
    for _ in range(60):
        evs = act(t, "shuffle")
        reshuffles += 1
        if "blocked" in names(evs):
            return reshuffles, evs
        assert names(evs) == ["shuffle"] and evs[0][1] == 1
        back = "RRa" if copy_name(t.top) == "BRa" else "BRa"
        seat = t.turn
        assert names(act(t, "shoe " + back)) == ["draw"]
        assert names(act(t, "pad " + back))[:3] == ["play", "reverse", "turn"]
        assert t.turn == 13 - seat                       # back to the other seat
    raise AssertionError("never blocked")


def test_t6_a_card_going_round_under_forced_play_blocks_the_round():
    # Past 4 x seats one-card reshuffles in a row the round is blocked (T6), instead of going
    # round for ever.
    t = _going_round()
    reshuffles, evs = _round_and_round(t)
    assert reshuffles == 4 * 7 + 1
    assert names(evs)[:3] == ["shuffle", "blocked", "round_over"]
    assert t.phase in (P_ROUND_OVER, P_MATCH_OVER)


def test_t6_a_reshuffle_of_more_than_one_card_starts_the_count_again():
    # "in a row": one short of the block, a reshuffle that brings back two cards means the
    # table is not going round; the count starts again from it (a mutant kept 1 there)
    t = _going_round()
    for _ in range(4 * 7):                               # one short of the block
        act(t, "shuffle")
        back = "RRa" if copy_name(t.top) == "BRa" else "BRa"
        act(t, "shoe " + back, "pad " + back)
    assert t.thin == 4 * 7 and t.shoe == 0 and copy_name(t.top) == "BRa"
    # by hand: a Y number of seat 1's lies under the top card, as if played before the loop
    extra = [c for c in t.hands[1] if DECK[c] >> 4 == 1 and DECK[c] & 15 < 10][0]
    t.hands[1].remove(extra)
    t.loc[extra] = PILE
    t.pile += 1
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle"] and evs[0][1] == 2 and t.thin == 0
    act(t, "shoe RRa", "pad RRa")                        # seat 7: the R fits; Y stays in the shoe
    act(t, "shoe " + copy_name(extra))                   # seat 6 draws the Y: it fits nothing
    reshuffles, evs = _round_and_round(t)                # the R's going round again
    assert reshuffles == 4 * 7 + 1 and names(evs)[:2] == ["shuffle", "blocked"]


# ---- bounded memory, validated rule requests ------------------------------------------

def test_u3_repeated_penalties_add_up_in_one_debt_per_seat_and_reason():
    t = deal({1: "R1 R2 R3", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5", preset="party")
    act(t, "pad Y1")                             # a card out of turn: a misplay
    for k in range(300):
        act(t, "seat 2")                         # a false UNO call, every time
        act(t, "seat 3")
    assert t.debts == [[3, 2, W_MISPLAY], [2, 600, W_FALSE_UNO], [3, 600, W_FALSE_UNO]]
    assert t.owes(2) == 600 and t.owes(3) == 602
    assert load(snapshot(t)).debts == t.debts


def test_rule_values_in_other_scripts_digits_are_refused_on_every_interpreter():
    seven = "\u0667"                             # ARABIC-INDIC DIGIT SEVEN
    for bad in (seven, "1" + seven, "\uff17", "", "-", " 7", "7 ", "+7", "7.0", "٣٠"):
        t = seated((1, 2))
        before = snapshot(t)
        evs = list(t.feed((IN_RULE, "hand_size", bad)))
        assert evs == [(REJECT, R_BAD_RULE, 0, -1)] and snapshot(t) == before, repr(bad)
    t = seated((1, 2))
    assert list(t.feed((IN_RULE, "hand_size", "9"))) == [(RULE, "hand_size", 9)]
    assert list(t.feed((IN_RULE, "turn_timer", "-0"))) == []          # 0 already
    assert list(t.feed((IN_RULE, "hand_size", "07"))) == [(RULE, "hand_size", 7)]


def test_rule_names_must_match_a_setting_exactly():
    t = seated((1, 2))
    for name in ("hand_size 7", "hand_size ", "hand", "", 7, None, "preset "):
        before = snapshot(t)
        evs = list(t.feed((IN_RULE, name, 5)))
        assert evs == [(REJECT, R_BAD_RULE, 0, -1)] and snapshot(t) == before, repr(name)
    assert not hasattr(t.rules, "hand_size 7")
