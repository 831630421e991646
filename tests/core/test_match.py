"""M2-M4, matches of many rounds, presets, and settings locked while a round is on."""
from kit import act, deal, names, unchanged, seated
from uno.events import *
from uno.rules import Settings, catalogue, presets, preset
from uno.rulebook import RULE_TEXT


def test_m2_losers_add_their_own_points_first_to_the_target_loses_lowest_wins():
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5", scoring="losers", target=50)
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9")
    evs = act(t, "pad R2")
    assert names(evs) == ["play", "round_over", "score", "score", "match_over"]
    assert evs[2][1:] == (2, 37) and evs[3][1:] == (3, 66)
    assert evs[4][1] == 1 and t.scores[1] == 0


def test_m2_losers_the_lowest_wins_when_the_first_seat_went_over():
    # the first seat is pushed over the target by its own hand: the lowest score is another's
    t = deal({1: "R1 GS", 2: "R2 R3"}, start="R5", scoring="losers", target=20)
    act(t, "pad R1", "pad R2", "shoe B1")
    evs = act(t, "pad R3")
    assert names(evs) == ["play", "round_over", "score", "match_over"]
    assert evs[2][1:] == (1, 21) and evs[3][1] == 2 and t.phase == P_MATCH_OVER


def test_m3_elimination_the_round_goes_on_until_one_is_left():
    t = deal({1: "R1 R2", 2: "R9 R8", 3: "Y7 B7"}, start="R5", elimination="yes")
    act(t, "pad R1", "seat 1", "pad R9", "seat 2", "shoe B1")
    evs = act(t, "pad R2")
    assert names(evs)[-2:] == ["turn", "out"] and evs[-1][1:] == (1, 1)
    assert t.phase == P_PLAY and t.active == [2, 3] and t.turn == 2
    evs = act(t, "pad R8")
    assert names(evs)[-4:] == ["turn", "out", "round_over", "score"]
    assert t.winner == 1 and evs[-2][1:] == (1, 15) and t.scores[1] == 15


def test_m4_teams_a_member_going_out_wins_for_the_team():
    t = deal({1: "R1", 2: "G9", 3: "Y7", 4: "BS"}, start="R5", teams=2)
    evs = act(t, "pad R1")
    assert names(evs) == ["play", "round_over", "score", "score"]
    assert evs[1][1:] == (1, 9 + 20)                  # seats 2 and 4 are the other team
    assert [e[1] for e in evs[2:]] == [1, 3] and t.scores[3] == 29


def test_m4_teams_need_seats_that_split_evenly():
    t = seated((1, 2, 3), teams=2)
    assert unchanged(t, "shuffle") == R_TEAMS


def test_m3_m4_elimination_with_teams_ends_when_a_team_is_all_out():
    t = deal({1: "R1 R2", 2: "G9 B2", 3: "R3 R4", 4: "BS B8"}, start="R5",
             teams=2, elimination="yes")
    act(t, "pad R1", "seat 1", "shoe Y6", "pad R3", "seat 3", "shoe Y8")
    evs = act(t, "pad R2")                           # seat 1 is out; seat 3 plays on
    assert "out" in names(evs) and t.phase == P_PLAY
    act(t, "shoe G6")
    evs = act(t, "pad R4")                           # seat 3 out: the team of 1 and 3 wins
    assert names(evs)[-4:] == ["out", "round_over", "score", "score"]
    assert t.winner == 1 and evs[-3][2] == 23 + 36
    assert t.scores[1] == t.scores[3] == 59 and t.scores[2] == t.scores[4] == 0


def test_m3_h3_a_seat_out_on_skips_that_give_it_the_turn_back_passes_it_on():
    # found by the property test (then seed 2310): two S of a multi-play skip both others
    t = deal({1: "RS GS R9", 2: "R1 G2 G3", 3: "R2 Y2 Y3"}, start="R5", elimination="yes",
             multi="same")
    act(t, "pad R9", "pad R1", "pad R2", "pad RS", "seat 1")
    evs = act(t, "pad GS")
    assert names(evs) == ["play", "skip", "turn", "out", "uno_close", "turn"] and evs[2][1] == 1
    assert t.turn == 2 and t.active == [2, 3] and t.phase == P_PLAY


def test_m3_h5_a_hand_laid_down_is_out_of_play():
    # found with the one above: the laid-down cards of a seat that is out are never played
    t = deal({1: "R4 R1 B1", 2: "G0 G1 G3", 3: "Y1 Y5 Y3"}, start="R5", sum_win="yes",
             elimination="yes")
    act(t, "pad R4")
    assert names(act(t, "seat 2 long")) == ["sum_win", "out", "turn"] and t.active == [1, 3]
    assert unchanged(t, "pad G0") == R_NOT_SEATED


def test_match_running_scores_to_the_target_over_rounds():
    t = deal({1: "R1", 2: "G9", 3: "Y7"}, start="R5", target=20)
    act(t, "pad R1")                                 # seat 1 scores 9 + 7
    assert t.phase == P_ROUND_OVER and t.scores[1] == 16
    act(t, "shuffle")                                # round 2: seat 1, the winner, deals
    assert t.round == 2 and t.dealer == 1 and t.drawer() == 2
    act(t, "shoe G5", "shoe W4", "shoe Y2", "shoe G7")
    evs = act(t, "pad G5")
    assert names(evs) == ["play", "round_over", "score", "match_over"]
    assert t.scores[2] == 52 and evs[-1][1] == 2 and t.phase == P_MATCH_OVER
    act(t, "shuffle")                                # a new match: the winner deals
    assert t.round == 1 and t.dealer == 2 and t.scores[1] == t.scores[2] == 0


def test_rules_are_locked_while_a_round_is_on():
    t = deal({1: "R1 R2", 2: "G9 G8"}, start="R5")
    assert unchanged(t, "rule w4 free") == R_LOCKED
    assert t.rules.w4 == "challenge"


def test_rules_change_between_rounds_and_apply_from_the_next():
    t = deal({1: "R1", 2: "G9"}, start="R5")
    act(t, "pad R1")
    evs = t.feed((IN_RULE, "stacking", "on"))
    assert list(evs) == [(RULE, "stacking", "on")]
    assert t.feed((IN_RULE, "stacking", "sideways"))[0][:2] == (REJECT, R_BAD_RULE)
    assert t.feed((IN_RULE, "nonsense", 1))[0][:2] == (REJECT, R_BAD_RULE)
    evs = t.feed((IN_RULE, "preset", "house"))
    assert (RULE, "jump_in", "identical") in evs and t.rules.stacking == "on"
    evs = t.feed((IN_RULE, "preset", "official"))
    assert t.rules.changed() == {}


def test_m1_m2_a_target_lowered_below_a_score_ends_the_match_at_once():
    # seeds: "達到或超過事先約定的分值（如500分），則以得分最高者為贏家" (reaching or passing the agreed
    # score ends the match, the highest wins): a seat already at the new target has reached it
    t = deal({1: "R1", 2: "G9", 3: "Y7"}, start="R5")
    act(t, "pad R1")                                 # seat 1 scores 9 + 7
    assert t.phase == P_ROUND_OVER and t.scores[1] == 16
    assert list(t.feed((IN_RULE, "target", 17))) == [(RULE, "target", 17)]   # above: no end
    assert t.phase == P_ROUND_OVER
    assert list(t.feed((IN_RULE, "target", 16))) == [(RULE, "target", 16), (MATCH_OVER, 1)]
    assert t.phase == P_MATCH_OVER and t.scores[1] == 16
    assert t.feed((IN_UNDO, 1))[0][:2] == (REJECT, R_UNDO_PAST)   # a match's end, as a round's
    act(t, "shuffle")                                # a new match: the winner deals
    assert t.round == 1 and t.dealer == 1 and t.scores[1] == 0
    # M2: the first to the target loses, the lowest wins
    t = deal({1: "R1 R2", 2: "G9 GS", 3: "W4 B7"}, start="R5", scoring="losers")
    act(t, "pad R1", "seat 1", "shoe B8", "shoe B9", "pad R2")
    assert t.phase == P_ROUND_OVER and t.scores[2] == 37 and t.scores[3] == 66
    assert list(t.feed((IN_RULE, "target", 50))) == [(RULE, "target", 50), (MATCH_OVER, 1)]
    # a preset that lowers it too
    t = deal({1: "R1", 2: "GS", 3: "W4"}, start="R5", target=1000)
    act(t, "pad R1")
    t.scores[1] = 600                                # as after earlier rounds
    evs = list(t.feed((IN_RULE, "preset", "official")))
    assert evs[-2:] == [(RULE, "target", 500), (MATCH_OVER, 1)] and t.phase == P_MATCH_OVER


def test_rules_in_the_lobby():
    t = seated((1, 2))
    assert list(t.feed((IN_RULE, "hand_size", 5))) == [(RULE, "hand_size", 5)]
    assert list(t.feed((IN_RULE, "hand_size", 5))) == []     # no change, no event


def test_presets_are_valid_settings_and_every_setting_has_words():
    for name, values in presets():
        s = Settings({"preset": name})
        for k in values:
            assert getattr(s, k) == values[k]
    for row in catalogue():
        assert RULE_TEXT[row[0]]
    assert preset("official") == {}


def test_m2_a_tie_for_the_lowest_score_names_the_lowest_seat():
    # seat 2 keeps a 0 only and ties seat 1 (the winner) at 0; seat 3 passes the target
    t = deal({1: "G1 G2", 2: "G0 B0", 3: "Y5 Y6"}, start="G5", scoring="losers", target=3)
    act(t, "pad G1", "seat 1", "pad G0", "seat 2", "shoe Y9")
    evs = act(t, "pad G2")
    assert names(evs)[-1] == "match_over" and evs[-1][1] == 1
    assert t.scores[1:4] == [0, 0, 20]


def test_m3_h5_a_sum_win_waives_only_the_winners_own_draws():
    # elimination: the round goes on after seat 3 lays down 1 + 3 = 4, so seat 1's penalty
    # for not calling (caught by seat 4) is still drawn; only an out seat's draws are void
    t = deal({1: "R4 R7", 2: "G1 G2", 3: "Y1 Y3", 4: "B5 B6"}, start="R5", sum_win="yes",
             elimination="yes")
    act(t, "pad R4", "seat 4")
    assert t.debts == [[1, 2, W_CAUGHT]]
    evs = act(t, "seat 3 long")
    assert names(evs) == ["sum_win", "out"] and t.active == [1, 2, 4]
    assert t.debts == [[1, 2, W_CAUGHT]] and t.drawer() == 1


def test_m3_h5_u1_a_sum_win_out_of_turn_leaves_the_uno_window_open():
    # elimination: seat 1 plays R4, its second-to-last card, and does not call. Seat 3 lays down
    # 1 + 3 = 4 and is out, but seat 2, the next player, has not played or drawn: the window
    # stays open (seed 000: 在下位玩者發牌前被其他人發現) and seat 4 still catches seat 1
    t = deal({1: "R4 R7", 2: "G1 G2", 3: "Y1 Y3", 4: "B5 B6"}, start="R5", sum_win="yes",
             elimination="yes")
    act(t, "pad R4")
    assert names(act(t, "seat 3 long")) == ["sum_win", "out"] and t.window == 1
    assert names(act(t, "seat 4")) == ["catch", "uno_close", "penalty"]
    assert t.debts == [[1, 2, W_CAUGHT]]
    # laid down by the next player itself, it is that player's act: the window closes
    t = deal({1: "R4 R7", 2: "G1 G3", 3: "Y1 Y2", 4: "B5 B6"}, start="R5", sum_win="yes",
             elimination="yes")
    act(t, "pad R4")
    assert names(act(t, "seat 2 long")) == ["sum_win", "uno_close", "out", "turn"]
    assert t.window == 0 and t.turn == 3 and unchanged(t, "seat 4") == R_NOTHING


def test_m3_h3_u1_a_seat_out_on_a_multi_play_closes_its_window_in_the_record():
    # elimination: seat 1 plays R7, its second-to-last card (its window opens), then adds G7,
    # its last, and is out. The window is gone with it; the record says so (uno_close), as it
    # says of every window it opened: a reader of the record saw it open
    t = deal({1: "R7 G7", 2: "B2 B3", 3: "Y1 Y2", 4: "G1 G2"}, start="R5", multi="same",
             elimination="yes")
    assert names(act(t, "pad R7")) == ["play", "uno_open", "turn"]
    evs = act(t, "pad G7")
    assert names(evs) == ["play", "out", "uno_close"] and t.window == 0 and t.active == [2, 3, 4]
