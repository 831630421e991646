"""Common table disputes, one test each, under the official rules (the defaults) and the
presets: the questions people argue over at UNO tables that no other test pinned yet. Named
after the rule ids they decide; the seeds' words (shared/seeds/) and docs/rules.md say why."""
from kit import act, deal, names, unchanged, hand
from uno.events import *


# ---- U2-U4: the catch --------------------------------------------------------------------

def test_u2_u4_a_late_catch_while_another_seat_has_called_costs_nobody():
    """Seat 1 forgets; seat 2 plays to one card and calls; seat 3's press then (a late catch of
    seat 1) is no false catch of seat 2, and seat 1's own late call costs it nothing either."""
    # seed 000: "若不被及時發現則不可追究" — a catch too late is not pursued, at no one's cost; the
    # press cannot say whom it accuses, and seat 1 still holds its last card. It had cost the
    # presser 2 as a false catch of seat 2 (U4), which the same press with no window open did not
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "B7 B8"}, start="R5", preset="house")
    act(t, "pad R1", "pad R3", "seat 2")
    assert t.late == 1 and t.window == 2 and t.called
    assert unchanged(t, "seat 3") == R_CALLED
    assert unchanged(t, "seat 1") == R_CALLED
    assert t.debts == []


def test_u4_a_false_catch_of_a_seat_that_called_still_costs():
    """House preset: with no other seat holding an uncalled last card, catching a seat that
    called costs the catcher 2 (seed 002: 那么那个人要从牌堆中抽取两张牌)."""
    t = deal({1: "R1 R2", 2: "R3 R4", 3: "B7 B8"}, start="R5", preset="house")
    act(t, "pad R1", "seat 1")
    evs = act(t, "seat 3")
    assert names(evs) == ["reject", "penalty"] and evs[1][1:] == (3, 2, W_FALSE_CATCH)
