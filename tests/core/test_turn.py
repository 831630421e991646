"""T1-T5: what may be played, drawing, the action cards, the reshuffle, the last card."""
from kit import act, deal, empty_the_shoe, names, unchanged, hand
from uno.events import *
from uno.names import WHY
from uno.table import PLAY_TURN


def three(start="R5", **kw):
    return deal({1: "R1 G5 B2 W Y7", 2: "G1 G2 YS B9 BD", 3: "Y1 Y2 Y3 Y4 GR"}, start=start, **kw)


def test_t1_colour_number_and_symbol_match():
    t = three()
    evs = act(t, "pad G5")                    # number matches R5
    assert names(evs) == ["play", "turn"] and t.colour == 2
    t = three()
    assert names(act(t, "pad R1")) == ["play", "turn"]   # colour matches
    t = three(start="BS")
    assert t.turn == 2
    assert names(act(t, "pad YS")) == ["play", "skip", "turn"]  # symbol matches


def test_t1_unplayable_card_is_rejected():
    t = three()
    assert unchanged(t, "pad B2") == R_UNPLAYABLE


def test_t1_wild_is_always_playable():
    t = three(start="G9")
    evs = act(t, "pad W")
    assert names(evs) == ["play", "colour_wanted"] and t.want == 1
    evs = act(t, "colour B")
    assert names(evs) == ["colour", "turn"] and t.colour == 3 and t.turn == 2
    assert names(act(t, "pad B9")) == ["play", "turn"]


def test_t1_w4_counts_only_the_active_colour():
    t = deal({1: "G5 W4 B2", 2: "G1 G2 Y3"}, start="R5", w4="enforce")
    # G5 matches by number, but only a red card would make the W4 illegal
    assert names(act(t, "pad W4")) == ["play", "colour_wanted"]
    t = deal({1: "R9 W4 B2", 2: "G1 G2 Y3"}, start="R5", w4="enforce")
    assert unchanged(t, "pad W4") == R_W4_ILLEGAL
    t = deal({1: "W W4 B2", 2: "G1 G2 Y3"}, start="R5", w4="enforce")
    assert names(act(t, "pad W4")) == ["play", "colour_wanted"]  # wilds do not count


def test_t1_playable_says_what_judge_takes_as_the_turn_seats_play():
    # playable() is the table's public question (bots, displays): the same answer as judge()
    # for every card of the turn seat, a W4 under each C1 mode with and without the colour
    for w4 in ("enforce", "challenge", "free"):
        for first in ("G5 W4 B2 W", "R9 W4 B2 RS", "Y1 W4 GD B7"):
            t = deal({1: first, 2: "G1 G2 Y3 B4"}, start="R5", w4=w4)
            for c in t.hands[1]:
                want = t.judge(1, c)[0] == PLAY_TURN
                assert t.playable(1, c) == want, (w4, first, c)
            assert t.playable(1, t.hands[1][1]) == (w4 != "enforce" or first[0] != "R")


def test_judge_answers_a_way_to_play_and_0_or_0_and_a_reason():
    # Its contract (bots and displays read it): (PLAY_*, 0) or (0, R_*), for every card of
    # every seat in every state of a party night (stacking, jump-ins, multi-plays)
    from uno.bot import Bot
    from uno.rules import Settings
    from uno.table import Table
    from uno.events import ROUND_OVER
    t = Table(Settings({"preset": "party"}))
    bot = Bot(t, [1, 2, 3, 4], seed=5)
    done = asked = taken = 0
    while done < 3:
        if t.phase == P_PLAY:
            for s in t.active:
                for c in t.hands[s]:
                    how, why = t.judge(s, c)
                    assert (how > 0 and why == 0) or (how == 0 and why > 0), (s, c, how, why)
                    asked += 1
                    taken += how > 0
        for e in bot.step()[1]:
            done += e[0] == ROUND_OVER
    assert asked > 1000 and 0 < taken < asked


def test_t2_draw_one_not_playable_turn_moves_on():
    t = three()
    evs = act(t, "shoe B7")
    assert names(evs) == ["draw", "turn"] and evs[0][3] == W_TURN and t.turn == 2


def test_t2_drawn_playable_card_may_be_played_at_once_only_that_card():
    t = three()
    evs = act(t, "shoe R8")
    assert names(evs) == ["draw"] and t.turn == 1 and t.drawn >= 0
    assert unchanged(t, "pad R1") == R_ONLY_DRAWN
    assert unchanged(t, "shoe B8") == R_DREW
    assert names(act(t, "pad R8")) == ["play", "turn"] and t.turn == 2


def test_t2_drawn_playable_card_may_be_kept_by_passing():
    t = three()
    act(t, "shoe R8")
    evs = act(t, "seat 1")
    assert names(evs) == ["pass", "turn"] and t.turn == 2 and "R8" in hand(t, 1)


def test_t2_pass_without_drawing_means_nothing():
    t = three()
    assert unchanged(t, "seat 1") == R_NOTHING


def test_t3_skip():
    t = three(start="BS")          # seat 1 skipped: seat 2 begins
    evs = act(t, "pad YS")
    assert names(evs) == ["play", "skip", "turn"] and evs[1][1] == 3 and t.turn == 1


def test_t3_reverse():
    t = three(start="G9")
    act(t, "pad G5")               # seat 2's turn
    act(t, "pad G1")               # seat 3
    evs = act(t, "pad GR")
    assert names(evs) == ["play", "reverse", "turn"] and t.dir == -1 and t.turn == 2


def test_t3_reverse_with_two_players_acts_as_skip():
    t = deal({1: "RR R3 R4", 2: "G1 G2 G3"}, start="R5")
    evs = act(t, "pad RR")
    assert names(evs) == ["play", "skip", "turn"] and t.turn == 1 and t.dir == 1


def test_t3_draw_two_next_player_draws_and_loses_the_turn():
    t = three(start="B5")
    act(t, "pad B2")
    evs = act(t, "pad BD")
    assert names(evs) == ["play", "turn", "owe"] and t.turn == 3 and t.pending == 2
    assert unchanged(t, "pad Y1") == R_MUST_DRAW
    act(t, "shoe R3")
    evs = act(t, "shoe R4")
    assert names(evs) == ["draw", "skip", "turn"] and evs[0][3] == W_DRAW2 and evs[1][1] == 3 and t.turn == 1


def test_t3_wild_draw_four():
    t = deal({1: "W4 G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W4")
    evs = act(t, "colour Y")
    assert names(evs) == ["colour", "turn", "owe"] and t.pending == 4 and t.turn == 2
    for c in ("R1", "R2", "R3"):
        act(t, "shoe " + c)
    evs = act(t, "shoe R4")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and t.turn == 3 and t.colour == 1


def test_t4_no_reshuffle_while_the_shoe_has_cards():
    t = deal({1: "R1", 2: "G1"}, start="R5")
    assert unchanged(t, "shuffle") == R_SHOE_LEFT


def test_t4_reshuffle_loads_the_pile_but_its_top_card():
    t = deal({1: "R1 R2 R3 R4", 2: "R6 R7 R8 R9"}, start="R5")
    empty_the_shoe(t)
    assert unchanged(t, "shuffle") == R_NO_RESHUFFLE    # only the start card is on the pile
    act(t, "pad R1" if t.turn == 1 else "pad R6")
    act(t, "pad R7" if t.turn == 2 else "pad R2")
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle"] and evs[0][1] == 2 and t.shoe == 2 and t.pile == 1
    assert sum(len(t.hands[s]) for s in (1, 2)) + t.shoe + t.pile == 108


def test_t4_with_no_card_to_draw_the_turn_seat_passes():
    t = deal({1: "R1 R2 R3 R4", 2: "R6 R7 R8 R9"}, start="R5")
    empty_the_shoe(t)
    assert names(act(t, "seat %d" % t.turn)) == ["pass", "turn"]


def test_t4_draws_owed_with_no_card_left_are_waived():
    from uno.cards import NCARDS
    from uno.table import SHOE
    t = deal({1: "R1 R2", 2: "R6 R7"}, start="R5", misplay=2)
    empty_the_shoe(t)
    s = t.turn
    other = 1 if s == 2 else 2
    card = [c for c in t.hands[s] if t.playable(s, c)][0]
    t.feed((IN_PAD, t.registry.uid(card)))             # the pile: the start card and this one
    wrong = [c for c in t.hands[other] if not t.playable(other, c)][0]
    t.feed((IN_PAD, t.registry.uid(wrong)))            # a misplay: it owes 2
    assert t.owes(other) == 2 and t.pile == 2
    assert names(act(t, "shuffle")) == ["shuffle"] and t.shoe == 1   # one card to draw
    last = [c for c in range(NCARDS) if t.loc[c] == SHOE][0]
    evs = list(t.feed((IN_SHOE, t.registry.uid(last))))
    assert names(evs) == ["draw", "waive"] and evs[1][1:] == (other, 1) and not t.debts


def test_t5_last_card_draw_two_next_player_still_draws_and_it_counts():
    t = deal({1: "RD R3", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "pad R3", "seat 1")                  # seat 1 calls UNO
    act(t, "shoe B1", "shoe B2")                # seats 2, 3 draw and cannot play
    evs = act(t, "pad RD")
    assert names(evs) == ["play", "turn", "owe"] and t.phase == P_PLAY
    act(t, "shoe B9")
    evs = act(t, "shoe BS")
    assert names(evs) == ["draw", "round_over", "score"]
    # seat 2: G1 G2 B1 B9 BS = 1 + 2 + 1 + 9 + 20; seat 3: Y1 Y2 B2 = 5
    assert evs[1][1:] == (1, 33 + 5)
    assert t.scores[1] == 38 and t.phase == P_ROUND_OVER


def test_t5_last_card_wild_ends_the_round_without_a_colour():
    t = deal({1: "W R3", 2: "G1 G2"}, start="R5")
    act(t, "pad R3", "seat 1", "shoe B1")
    evs = act(t, "pad W")
    assert names(evs) == ["play", "round_over", "score"]


def test_why_texts_cover_every_draw_reason():
    assert len(WHY) == 12 and all(WHY)
