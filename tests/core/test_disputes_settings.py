"""Disputed situations of the settings themselves: a rule input in every phase of a match and
every wait of a round (refused, taken now, or from the next round or match), a rule taken back,
and a table saved and loaded (state.py) in every phase with settings changed mid-match. One
test each, named after the rule ids they decide (the seeds' words and docs/rules.md, "Settings
between rounds", say why)."""
import json
from kit import act, deal, empty_the_shoe, names, seated, unchanged
from uno.events import *
from uno.rules import catalogue
from uno.state import snapshot, load


# ---- helpers --------------------------------------------------------------------------------

def _other(name, default, allowed):
    """A value other than the default that four seats can take (hand size, teams, dealer)."""
    if name == "hand_size":
        return 5
    if name == "first_dealer":
        return 2
    if name == "teams":
        return 2
    if name == "target":
        return 300
    if isinstance(allowed[0], int):
        return 2
    return allowed[1]


def _changes():
    """(name, value) for every setting of the catalogue, each at a value it does not hold."""
    return [(r[0], _other(r[0], r[1], r[2])) for r in catalogue()]


_FOUR = {1: "R1", 2: "G1", 3: "Y1", 4: "B1"}


def _lobby():
    return seated((1, 2, 3, 4))


def _drawoff():
    t = _lobby()
    act(t, "shuffle")
    assert t.phase == P_DRAWOFF
    return t


def _dealer():
    t = _drawoff()
    act(t, "shoe R1", "shoe R2", "shoe R3", "shoe R9")
    assert t.phase == P_DEALER and t.dealer == 4
    return t


def _deal():
    t = seated((1, 2, 3, 4), hand_size=2, first_dealer=4)
    act(t, "shuffle", "shoe R1")
    assert t.phase == P_DEAL
    return t


def _start():
    t = deal(_FOUR, start=None)
    assert t.phase == P_START
    return t


def _play():
    return deal(_FOUR, start="R5")


def _round_over():
    t = deal(_FOUR, start="R5")
    act(t, "pad R1")                 # seat 1 goes out: 3 points
    assert t.phase == P_ROUND_OVER and t.scores[1] == 3
    return t


def _match_over():
    t = deal(_FOUR, start="R5", target=1)
    act(t, "pad R1")
    assert t.phase == P_MATCH_OVER
    return t


_PHASES = (("lobby", _lobby), ("drawoff", _drawoff), ("dealer", _dealer), ("deal", _deal),
           ("start", _start), ("play", _play), ("round_over", _round_over),
           ("match_over", _match_over))


def _state(t):
    """The table's snapshot through JSON (a copy: a snapshot shares some of the table's lists)."""
    return json.loads(json.dumps(snapshot(t)))


def _same(a, b):
    """Snapshots equal but for when the turn seat's time began (a take-back restarts it: P2)."""
    a = dict(a)
    b = dict(b)
    ca, cb = a.pop("clock"), b.pop("clock")
    return a == b and ca[0] == cb[0] and ca[2] == cb[2]


# ---- S1-S5, T2-T5, U3-U6, C1, P1, P2, H1-H7, M1-M4: a rule input in every phase ----------------

def test_s1_m1_m2_m4_every_setting_is_refused_in_a_round_taken_between_rounds_scoring_and_teams_between_matches():
    """Each setting at another value, in each phase: refused while the deal, the start card or play is on; taken in the lobby, the draw for dealer, once the dealer is drawn and at match over; between two rounds too, but for scoring and teams (the match's)."""
    # SPEC 4: "settings are locked while a round is on"; docs/rules.md "Rules are locked while a
    # round is on ... between rounds ... it is taken". Scoring and teams: see the M2/M4 tests below
    for phase, make in _PHASES:
        for name, value in _changes():
            t = make()
            text = "rule %s %s" % (name, value)
            if phase in ("deal", "start", "play"):
                assert unchanged(t, text) == R_LOCKED, (phase, name)
            elif phase == "round_over" and name in ("scoring", "teams"):
                assert unchanged(t, text) == R_MATCH_ON, (phase, name)
            else:
                evs = act(t, text)
                assert evs == [(RULE, name, value)], (phase, name, evs)
                assert getattr(t.rules, name) == value


def _waits():
    """(what the table waits for, a table waiting for it, the input that moves it on, the first
    event that input gives): every wait a round has, each with the house rule it needs."""
    three = {1: "R1 R2 B7", 2: "G1 G2 Y3", 3: "B8 B9 Y9"}
    two = {1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}
    # (what, hands, settings, the inputs that make the wait, the input that ends it, its event)
    waits = (
        ("a colour (T3)", {1: "W R1 B1", 2: "G2 Y2 Y3", 3: "B7 B8 B9"}, {}, ("pad W",),
         "colour G", COLOUR),
        ("a D's draws (T3)", {1: "RD R1 B1", 2: "G2 Y2 Y3", 3: "B7 B8 B9"}, {}, ("pad RD",),
         "shoe B3", DRAW),
        ("a W4's challenge (C1)", {1: "W4 B1 B2", 2: "Y1 Y2 Y3", 3: "B7 B8 B9"}, {},
         ("pad W4", "colour G"), "seat 2 long", CHALLENGE),
        ("an UNO window (U1)", two, {}, ("pad R1",), "seat 2", CATCH),
        ("a catch's draws (U2)", two, {}, ("pad R1", "seat 2"), "shoe B3", DRAW),
        ("a stack (H1)", {1: "RD R1 B1", 2: "GD Y2 Y3", 3: "B7 B8 B9"}, {"stacking": "on"},
         ("pad RD", "pad GD"), "shoe B3", DRAW),
        ("a multi-play (H3)", {1: "R1 G1 B7", 2: "G2 Y2 Y3", 3: "B8 B9 Y9"}, {"multi": "same"},
         ("pad R1",), "pad G1", PLAY),
        ("a slap (H7)", {1: "R4 B1 B2", 2: "G2 Y2 Y3", 3: "B7 B8 B9"}, {"slap4": "yes"},
         ("pad R4",), "seat 1", SLAP),
        ("a sum win's number (H5)", {1: "R3 B1 B2", 2: "G1 G2 Y0", 3: "B7 B8 B9"},
         {"sum_win": "yes"}, ("pad R3",), "seat 2 long", SUM_WIN),
    )
    out = []
    for what, hands, settings, inputs, then, ev in waits:
        t = deal(hands, start="R5", **settings)
        act(t, *inputs)
        out.append((what, t, then, ev))
    t = deal(three, start="R5", turn_timer=5)
    act(t, "tick 1000", "tick 4000")
    assert t.warned
    out.append(("a turn timer warned (P2)", t, "tick 6001", PENALTY))
    t = deal({1: "B1 B2 B3", 2: "G2 Y2 Y3", 3: "B7 B8 B9"}, start="R5", draw="until")
    act(t, "shoe G9")
    assert t.drawn == -2
    out.append(("draws until a card fits (T2)", t, "shoe R7", DRAW))
    t = deal({1: "RD", 2: "G2", 3: "B7"}, start="R5")
    act(t, "pad RD")
    out.append(("a last D's draws (T5)", t, "shoe B3", DRAW))
    t = deal({1: "W R2 R3", 2: "G1 G3 G4", 3: "Y1 Y3 Y4"}, start="R5")
    act(t, "pad W", "colour B")
    empty_the_shoe(t)
    assert t.due
    out.append(("a reshuffle (T4)", t, "shuffle", SHUFFLE))
    return out


def test_t2_t3_t4_t5_u1_u2_c1_p2_h1_h3_h5_h7_a_rule_input_in_every_wait_of_a_round_is_refused_and_the_wait_goes_on():
    """Every setting, and a preset, while the table waits for a colour, draws, a challenge, a catch, a stack, a multi-play, a slap, a lay-down, the timer, a reshuffle: refused ("locked"), nothing changes, and the input waited for is taken as before."""
    for what, t, then, ev in _waits():
        for name, value in _changes() + [("preset", "party"), ("preset", "official")]:
            assert unchanged(t, "rule %s %s" % (name, value)) == R_LOCKED, (what, name)
        evs = act(t, then)
        assert evs and evs[0][0] == ev, (what, evs)


def test_p2_a_rule_refused_in_a_round_is_no_act_the_turn_seats_time_runs_on():
    """Turn timer 5 s: the host's rule input, refused 4.5 s into seat 1's time, leaves that time where it was: past 5 s seat 1 draws 2."""
    # P2: "超過5秒不出牌者，罰摸2張牌" (seed 003) charges the seat that sits; a host's refused
    # input is no act of that seat (nor of anyone): the table's clock moves, its time does not
    t = deal({1: "R1 R2 B7", 2: "G1 G2 Y3", 3: "B8 B9 Y9"}, start="R5", turn_timer=5)
    act(t, "tick 1000")
    evs = list(t.feed((IN_RULE, "turn_timer", 60), 5500))
    assert evs == [(REJECT, R_LOCKED, 0, -1)] and t.rules.turn_timer == 5
    assert act(t, "tick 6001") == [(PENALTY, 1, 2, W_SLOW)]       # 5001 ms since 1000


# ---- M1, M2, M4: what a match holds to -------------------------------------------------------

def test_m2_scoring_holds_for_the_whole_match_a_change_between_two_rounds_is_refused():
    """Round 1 scored seat 1's 3 points as a winner's; switching to losers' scoring before round 2 is refused (the 3 points would become a loser's); once the match is over it is taken."""
    # seeds 000, 002, 003: "得分制：…多盤累計，達到或超過事先約定的分值…則以得分最高者為贏家" and
    # "輸分制：只計輸家的輸分…則以輸分最多者為輸家": one kind of points, added up round after round
    # (多盤累計), agreed before (事先約定). The table had taken it: seat 1's 3 won points then
    # counted against it, first to the target losing
    t = _round_over()
    assert unchanged(t, "rule scoring losers") == R_MATCH_ON
    assert t.rules.scoring == "winner"
    t = _match_over()
    assert act(t, "rule scoring losers") == [(RULE, "scoring", "losers")]
    act(t, "shuffle")                # a new match: scores from 0, losers' scoring
    assert t.round == 1 and t.scores[1] == 0 and t.rules.scoring == "losers"


def test_m4_m1_teams_hold_for_the_whole_match_a_change_between_two_rounds_is_refused_a_preset_too():
    """Teams of 2 at four seats: between two rounds teams=0 is refused, and so is a preset that would set it back (house); teams the seats cannot form are refused for that; other settings are taken; the target lowered ends the match, and then teams change."""
    # seed 002: "组队比赛 (前提:必须采用计分制。)…此时的分数便以队为单位来进行计算"; partners keep
    # one score (M4, M2 with M4). Teams formed or split mid-match leave partners with two scores,
    # or one seat with its team's points; the table had taken it. Seeds 001, 002 change
    # partners every four rounds ("每换一次对家就玩四局…把每局的分数记录下来"): four rounds, then
    # the target lowered to a score made ends the match (M1), and the next one has new partners
    t = deal(_FOUR, start="R5", teams=2)
    act(t, "pad R1")
    assert t.phase == P_ROUND_OVER and t.scores[1] == t.scores[3] == 2   # G1 + B1
    before = _state(t)
    assert unchanged(t, "rule teams 0") == R_MATCH_ON
    assert unchanged(t, "rule teams 3") == R_TEAMS          # what the seats cannot take: first
    assert unchanged(t, "rule preset house") == R_MATCH_ON   # a preset sets teams to 0 too
    assert _state(t) == before
    assert act(t, "rule stacking on") == [(RULE, "stacking", "on")]
    assert names(act(t, "rule target 2")) == ["rule", "match_over"]
    assert act(t, "rule teams 0") == [(RULE, "teams", 0)]


def test_m2_m4_scoring_and_teams_are_taken_before_a_matchs_first_round():
    """In the draw for dealer and once the dealer is drawn (round 0, no score yet) scoring and teams are taken, checked against the seats."""
    for make in (_drawoff, _dealer):
        t = make()
        assert act(t, "rule scoring losers", "rule teams 2") == [(RULE, "teams", 2)]
        assert t.rules.scoring == "losers" and t.rules.teams == 2
        assert unchanged(t, "rule teams 3") == R_TEAMS


def test_m1_a_target_raised_once_the_match_is_over_does_not_reopen_it():
    """Target 1, seat 1 won the match with 3; the target raised to 300: the match stays over, and the next shuffle starts a new one from 0."""
    # seeds: "達到或超過事先約定的分值…則以得分最高者為贏家": the match was won when the score was
    # reached; a target lowered between rounds ends one at once (M1), none raised reopens one
    t = _match_over()
    assert act(t, "rule target 300") == [(RULE, "target", 300)]
    assert t.phase == P_MATCH_OVER and t.scores[1] == 3
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and t.round == 1 and t.scores[1] == 0


def test_m1_a_target_lowered_between_rounds_ends_the_match_and_no_take_back_reopens_it():
    """Seat 1 has 3 points; the target lowered to 3 ends the match (rule, match_over); a take-back of it is refused."""
    t = _round_over()
    evs = act(t, "rule target 3")
    assert names(evs) == ["rule", "match_over"] and t.phase == P_MATCH_OVER
    assert unchanged(t, "undo 1") == R_UNDO_PAST


# ---- S2, S3, S5: from the next deal, and checked against the seats ---------------------------

def test_s3_s5_t2_settings_taken_between_rounds_act_from_the_next_deal():
    """At round over: hand size 2, counter-clockwise, draw until: the round just over stays as it was; the next round deals 2 each, starting on the dealer's right."""
    t = _round_over()
    before = _state(t)
    act(t, "rule hand_size 2", "rule direction ccw", "rule draw until")
    after = _state(t)
    del before["settings"], after["settings"]
    assert after == before and t.dir == 1
    evs = act(t, "shuffle")
    assert evs[-1][0] == ROUND and evs[-1][1:] == (2, 1) and t.dir == -1
    assert t.drawer() == 4           # counter-clockwise: the dealer's right
    for _ in range(8):
        act(t, "shoe %s" % ("R2 R3 R4 R6 G2 G3 G4 G6".split()[_]))
    assert t.phase == P_START and [len(t.hands[s]) for s in (1, 2, 3, 4)] == [2, 2, 2, 2]


def test_s1_s2_m4_settings_a_new_group_cannot_take_are_refused_again_at_the_shuffle():
    """Teams of 2 and seat 4 as first dealer fit four seats at match over; a fifth joins (the lobby opens): the shuffle is refused for the teams; seat 4 leaves: refused for the dealer; fixed, it starts."""
    # docs/rules.md, "Settings that cannot apply": checked when set once the seats are known, and
    # again at every deal (the lobby's joins and leaves change the seats after the check)
    t = _match_over()
    act(t, "rule teams 2", "rule first_dealer 4")
    assert names(act(t, "seat 5")) == ["join"] and t.phase == P_LOBBY
    assert unchanged(t, "shuffle") == R_TEAMS
    act(t, "rule teams 0", "seat 4 long")
    assert t.seats == [1, 2, 3, 5] and unchanged(t, "shuffle") == R_NO_DEALER
    act(t, "rule first_dealer 5")
    evs = act(t, "shuffle")
    assert names(evs) == ["shuffle", "round"] and evs[-1][1:] == (1, 5)


# ---- a rule taken back (issue 10) ------------------------------------------------------------

def test_s1_s2_s3_m1_a_rule_taken_back_between_rounds_leaves_the_table_as_without_it():
    """Each setting set in the lobby, the draw for dealer, once the dealer is drawn, at round over and at match over, then taken back: the table is as before it, and a rule event says the value it is back to."""
    # docs/rules.md, "What a take-back says": "(RULE, name, value) for each setting that changed
    # back"; takeback.py: "a rule set there is taken back like any other input"
    for phase, make in _PHASES:
        if phase in ("deal", "start", "play"):
            continue
        for name, value in _changes():
            if phase == "round_over" and name in ("scoring", "teams"):
                continue
            t = make()
            was = getattr(t.rules, name)
            before = _state(t)
            act(t, "rule %s %s" % (name, value))
            evs = act(t, "undo 1")
            assert evs == [(UNDO, 1), (RULE, name, was)], (phase, name, evs)
            assert _same(_state(t), before), (phase, name)


def test_s1_a_preset_taken_back_says_every_setting_it_changed_back():
    """The party preset set at round over, taken back: one rule event a setting, in name order, each back to its value."""
    t = _round_over()
    before = _state(t)
    changed = [e[1] for e in act(t, "rule preset party")]
    evs = act(t, "undo 1")
    assert evs[0] == (UNDO, 1) and [e[1] for e in evs[1:]] == sorted(changed)
    assert all(e[0] == RULE and e[2] == before["settings"][e[1]] for e in evs[1:])
    assert _same(_state(t), before)


def test_s3_a_take_back_reaches_over_the_rounds_start_into_a_rule_set_between_rounds():
    """Hand size 2 set at round over, the shuffle and three cards dealt: four inputs taken back leave the round over with hand size 2; one more takes the rule back too."""
    t = _round_over()
    first = _state(t)
    act(t, "rule hand_size 2")
    ruled = _state(t)
    act(t, "shuffle", "shoe R2", "shoe R3", "shoe R4")
    assert t.phase == P_DEAL and t.rules.hand_size == 2
    evs = act(t, "undo 4")
    assert names(evs)[0] == "undo" and set(names(evs)[1:]) == set(["card_back"])
    assert t.phase == P_ROUND_OVER
    assert _same(_state(t), ruled)
    assert act(t, "undo 1") == [(UNDO, 1), (RULE, "hand_size", 1)] and _same(_state(t), first)
    assert unchanged(t, "undo 1") == R_UNDO_PAST        # the round's end is no further back


def test_s1_a_rule_refused_or_changing_nothing_is_no_input_a_take_back_counts():
    """A rule refused in play, and between rounds a rule at the value it holds: the take-back passes over them to the input before."""
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "shoe B3")                                   # seat 1 draws: B3 does not fit
    assert t.turn == 2 and unchanged(t, "rule stacking on") == R_LOCKED
    evs = act(t, "undo 1")
    assert names(evs) == ["undo", "card_back", "turn"] and t.turn == 1 and t.shoe == 108 - 7
    t = _round_over()
    assert act(t, "rule stacking off") == []            # nothing to log, nothing to take back
    assert unchanged(t, "undo 1") == R_UNDO_PAST


# ---- state.py: a table saved and loaded -----------------------------------------------------

def _alike(t, inputs, what):
    """t saved through JSON and loaded: the same snapshot, and the same events and snapshots
    for each further input fed to both."""
    d = _state(t)
    u = load(d, t.registry)
    assert _state(u) == d, what
    for text in inputs:
        a = act(t, text)
        b = act(u, text)
        assert a == b, (what, text, a, b)
        assert _state(t) == _state(u), (what, text)


def test_s1_s3_a_table_saved_in_every_phase_and_every_wait_loads_back_equal_and_goes_on_alike():
    """Saved in the lobby, the draw for dealer, once the dealer is drawn, the deal, the start card, play, round over, match over, and in each wait of a round (colour, draws, challenge, window, stack, multi-play, slap, lay-down, timer, reshuffle): the loaded table is equal and judges the next inputs alike."""
    nexts = {"lobby": ("seat 5", "rule hand_size 3", "shuffle", "shoe R1"),
             "drawoff": ("shoe R1", "rule hand_size 3", "shoe R2"),
             "dealer": ("rule direction ccw", "shuffle", "shoe R2"),
             "deal": ("shoe R2", "shoe R3", "rule stacking on"),
             "start": ("shoe W4", "shoe R5", "pad R1"),
             "play": ("rule w4 free", "pad R1", "shuffle"),
             "round_over": ("rule stacking on", "rule scoring losers", "shuffle", "shoe R2"),
             "match_over": ("rule scoring losers", "shuffle", "shoe R2")}
    for phase, make in _PHASES:
        _alike(make(), nexts[phase], phase)
    for what, t, then, _ in _waits():
        _alike(t, ("rule stacking on", then, "seat 1", "seat 2 long"), what)


def test_s2_s5_h1_m1_settings_changed_mid_match_are_saved_and_the_next_round_goes_alike():
    """At round over: stacking on, counter-clockwise, the deal passing on, target 50, hand size 2; saved, loaded: the settings are those, and the next round (its deal, a stacked D) goes alike."""
    t = _round_over()
    act(t, "rule stacking on", "rule direction ccw", "rule next_dealer rotate", "rule target 50",
        "rule hand_size 2")
    d = _state(t)
    assert load(d).rules.as_dict() == t.rules.as_dict() == d["settings"]
    _alike(t, ("shuffle",) + tuple("shoe " + c for c in "RD GD B1 B2 Y1 Y2 G7 G8".split())
           + ("shoe R5",), "the deal")
    assert t.phase == P_PLAY and t.dir == -1 and t.dealer == 3 and t.turn == 2
    _alike(t, ("pad RD", "rule stacking off", "pad GD", "shoe G9", "shoe B9", "shoe R9"),
           "a stack")
    assert t.turn == 4 and t.owes(4) == 1 and t.rules.stacking == "on"    # 2 + 2, 3 drawn


def test_s1_a_table_loaded_mid_round_takes_back_only_to_where_it_was_loaded():
    """Loaded in play, a take-back of the input before the load is refused there (the original takes it); loaded at round over, both take back alike, over the shuffle into a rule set between rounds."""
    # takeback.py: "A segment starts when the table is made (or loaded, state.load)"; the hub
    # saves at the end of each round, where no take-back reaches past anyway (docs/formats.md)
    t = deal({1: "R1 R2", 2: "G1 G2", 3: "Y1 Y2"}, start="R5")
    act(t, "shoe B3")
    u = load(_state(t), t.registry)
    assert t.back.reach() > 0 and u.back.reach() == 0
    assert unchanged(u, "undo 1") == R_UNDO_PAST
    assert names(act(t, "undo 1")) == ["undo", "card_back", "turn"]
    t = _round_over()
    u = load(_state(t), t.registry)
    for text in ("rule hand_size 2", "shuffle", "shoe R2", "shoe R3", "undo 4", "undo 1"):
        assert act(t, text) == act(u, text), text
        assert _state(t) == _state(u) and t.back.reach() == u.back.reach(), text
    assert t.rules.hand_size == 1 and t.phase == P_ROUND_OVER
