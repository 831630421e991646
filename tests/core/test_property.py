"""Random legal and illegal input streams, 2-10 seats, random settings, thousands of rounds.

Every step: no exception, all 108 cards in exactly one place, a legal input is accepted,
a rejected input changes nothing (but P1's optional cost). Every round ends with a winner
holding no card and the right score.
"""
import sys
from uno.bot import Bot, Rng
from uno.cards import NCARDS, points, name as card_name
from uno.events import *
from uno.rules import catalogue, Settings
from uno.state import snapshot, load
from uno.table import Table, SHOE, PILE, ASIDE, MAX_SEAT
from kit import expected_reject, deal, act, hand, random_seats, random_values
from reference import Reference, team_of

MICRO = sys.implementation.name == "micropython"
ROUNDS = 60 if MICRO else 2500
# Inputs a round of play_match may take before it counts as stuck: a safety net, not a bound
# (the liveness test below has that). Costly mistakes and timers (P1, P2, U3) under elimination
# (M3) with draw until (T2) make rounds of tens of thousands of inputs: over 18,000 sampled
# rounds the median took 174 inputs and 1 in 1,000 over 9,800; the soak found rounds of 37,479
# (seed 351140563) and 65,613 (seed 540760071), with the players' generator before 2**30 - 35.
ROUND_CAP = 200000


def random_settings(rng, seats):
    values = random_values(rng, seats)
    if values.get("first_dealer", 0) > 0:
        values["first_dealer"] = rng.pick(seats)
    return Settings(values)


def check_places(t):
    hands = 0
    for s in range(1, MAX_SEAT + 1):
        for c in t.hands[s]:
            assert t.loc[c] == s
        hands += len(t.hands[s])
    shoe = pile = aside = 0
    for c in range(NCARDS):
        p = t.loc[c]
        if p == SHOE:
            shoe += 1
        elif p == PILE:
            pile += 1
        elif p == ASIDE:
            aside += 1
    assert shoe == t.shoe and pile == t.pile
    assert hands + shoe + pile + aside == NCARDS


def costs(t, evs):
    """A rejection may cost cards only where a setting says so (P1, U3, U4)."""
    assert [e[0] for e in evs[:2]] == [REJECT, PENALTY], evs
    why = evs[0][1]
    r = t.rules
    assert (why in MISPLAYS and r.misplay) or (why == R_FALSE_UNO and r.false_uno) \
        or (why == R_CALLED and r.false_catch), evs


def team(t, seat):
    return team_of(t.rules.teams, t.seats, seat)


def check_round(t, evs, i, laid=0):
    """The winner went out (or laid down a sum) and the scores are M1/M2/M4's. laid: the seat
    that laid its hand down (H5) this round, which may be inputs before the round's end."""
    w = evs[i][1]
    names = [e[0] for e in evs]
    if BLOCKED in names:  # T6: the first seat out (M3), else the fewest points (a team's, M4)
        if t.finished:
            assert w == t.finished[0]
        else:
            def held(seats):
                return (sum(points(c) for s in seats for c in t.hands[s]),
                        sum(len(t.hands[s]) for s in seats))
            assert w == min(t.active, key=lambda s: held(team(t, s)) + held([s]) + (s,))
    elif t.rules.elimination == "yes":
        assert w in t.finished  # laid down (H5) or out of cards
    elif w != laid:
        assert not t.hands[w]
    mates = team(t, w)
    losers = [s for s in t.seats if s not in mates and s not in t.finished]
    pts = sum(points(c) for s in losers for c in t.hands[s])
    assert evs[i][2] == pts
    scored = [e for e in evs[i + 1:] if e[0] == SCORE]
    if t.rules.scoring == "losers":
        # M3 with M4: a losing team's member that went out adds its team's hands too
        assert [e[1] for e in scored] == [s for s in t.seats if s not in mates and
                                          (t.rules.teams or s not in t.finished)]
    else:
        assert [e[1] for e in scored] == mates
    for e in scored:
        assert e[2] == t.scores[e[1]]


def see_rounds(t, evs, laid):
    """Checks each round that ends among one input's events; laid: the seat that laid its hand
    down (H5) this round so far, else 0 (with draws still owed the round ends inputs later,
    once they are drawn). Returns (rounds ended, laid)."""
    ended = 0
    for i in range(len(evs)):
        e = evs[i]
        if e[0] == SUM_WIN:
            laid = e[1]
        elif e[0] == ROUND_OVER:
            ended += 1
            check_round(t, evs, i, laid)
            check_places(t)
            laid = 0
    return ended, laid


def play_match(seed, rounds_wanted):
    rng = Rng(seed)
    seats = random_seats(rng)
    t = Table(random_settings(rng, seats))
    bot = Bot(t, seats, seed=seed, mistakes=rng.pick((0, 30, 150)),
              call=rng.below(1000), catch=rng.below(1000), challenge=rng.below(1000),
              rules=rng.pick((0, 300)), tick=rng.pick((0, 100)))
    rounds = steps = since = laid = 0
    while rounds < rounds_wanted:
        inp = bot.next_input()
        before = snapshot(t) if bot.last_mistake or inp[0] == IN_RULE else None
        evs = list(t.feed(inp))
        bot.keep(evs)
        steps += 1
        since += 1
        assert since < ROUND_CAP, "round %d does not end (seed %d)" % (rounds, seed)
        if evs and evs[0][0] == REJECT:
            # (the referee's scoring changed between two rounds of a match: M2, M4 refuse it)
            assert bot.last_mistake or inp[0] == IN_RULE and inp[1] == "scoring" and \
                evs[0][1] == R_MATCH_ON, "legal input rejected: %r %r (seed %d)" % (inp, evs, seed)
            assert evs[0][2:] == expected_reject(t, inp, evs[0][1]), (inp, evs, seed)
            if len(evs) == 1:
                assert snapshot(t) == before, "rejection changed the state (seed %d)" % seed
            else:
                costs(t, evs)
        ended, laid = see_rounds(t, evs, laid)
        if ended:
            rounds += ended
            since = 0
        if t.phase == P_PLAY:
            assert t.turn in t.active or t.turn == t.leaving, (t.turn, t.active, seed)
            for d in t.debts:   # M3: a seat that is out owes nothing
                assert d[0] not in t.finished, (t.debts, t.finished, seed)
        if steps % 37 == 0:
            check_places(t)
        else:
            assert sum(len(h) for h in t.hands) + t.shoe + t.pile <= NCARDS
    return steps


# What a seed once found stays as a test of its own (a seed's stream is only as lasting as the
# players' generator): test_match.py's M3 tests of the seat that goes out on a skip.


def test_random_streams_keep_every_invariant():
    seed = 1
    done = 0
    while done < ROUNDS:
        n = 3
        play_match(seed, n)
        done += n
        seed += 1


def test_h5_t5_a_sum_win_scored_inputs_later_passes_the_round_check():
    # The soak's play_match seed 351151191: a seat laid its hand down (H5) while another still
    # owed 2 (a turn timer's there, a catch here); the round ended once those were drawn (T5),
    # inputs later, and the round check, which looked for the sum win among that last input's
    # events only, found the winner holding cards
    t = deal({1: "R4 G7", 2: "G1 G2", 3: "Y1 Y3"}, start="R5", sum_win="yes")
    laid = rounds = 0
    for text in ("pad R4", "seat 2", "seat 3 long", "shoe B2", "shoe B9"):
        ended, laid = see_rounds(t, act(t, text), laid)
        rounds += ended
    assert rounds == 1 and t.winner == 3 and hand(t, 3) == ["Y1", "Y3"]


# ---- liveness: every state has a way forward ---------------------------------------------
#
# The bound, per turn (from one `turn` event to the next, or to the round's end): within one
# turn the cards drawn stay in hands, and only a play puts a card back on the pile, so a turn
# holds at most 107 draws (the whole deck but the top card) and a reshuffle after each play
# of it (a multi-play: at most 8 cards of a number or symbol); beside them one press per seat
# per window, slap and challenge (UNO calls and catches, H7's slaps, C1), a colour and a pass:
# 107 + 2 x 8 + 3 x 10 + 4 = 157 inputs; LIVE_TURN = 160. The setup (deal, start card, draw for
# dealer) moves each card at most once per pass through the shoe: at most 2 x 108 + a few
# start cards put back. No rule can hold a turn: with the shoe and the pile empty every seat
# may pass and a full round of passes ends the round (T6); a dead shoe in the draw for dealer
# is reloaded (S2); penalties merge and are waived when nothing is left to draw (T4).
# A round is a random walk of turns with no hard ceiling; LIVE_ROUND caps it as a safety net
# (over 9,000 sampled rounds the longest took 15,795 inputs, the median about 230, and the
# longest turn or setup 105 inputs).

LIVE_TURN = 160
LIVE_SETUP = 400
LIVE_ROUND = 40000
LIVE_ROUNDS = 40 if MICRO else 1500
_REFUSALS = (R_BAD_RULE, R_DEAL_SIZE, R_TEAMS, R_NO_DEALER, R_LOCKED, R_MATCH_ON)


def any_rule(rng):
    """Any setting at any value it takes (hand size 15 at 10 seats, teams 1 ...)."""
    name, default, allowed, rule = rng.pick(catalogue())
    if isinstance(allowed[0], int):
        return (IN_RULE, name, allowed[0] + rng.below(min(allowed[1], 20) - allowed[0] + 1))
    return (IN_RULE, name, rng.pick(allowed))


def live_match(seed, rounds_wanted):
    """A random legal player and a referee who changes any rule between rounds and while
    the players draw for dealer; the settings at the start may not fit the seats."""
    rng = Rng(seed)
    seats = random_seats(rng)  # joining in any order: play goes by seat number
    values = random_settings(rng, seats).as_dict()
    if rng.chance(200):
        values["first_dealer"] = 1 + rng.below(MAX_SEAT)    # maybe a seat not in the game
    if rng.chance(200):
        values["teams"] = 2 + rng.below(4)                  # maybe teams that do not fit
    t = Table(Settings(values))
    bot = Bot(t, seats, seed=seed, call=rng.below(1000), catch=rng.below(1000),
              challenge=rng.below(1000), rules=rng.pick((0, 300)))
    rounds = 0
    since = -1          # inputs since the round's deal began
    turn = 0            # inputs since the turn began (or the setup, before the first turn)
    started = False
    longest = worst = 0
    while rounds < rounds_wanted:
        ph = t.phase
        if ph in (P_DRAWOFF, P_DEALER, P_ROUND_OVER, P_MATCH_OVER) and rng.chance(30):
            inp = any_rule(rng)
            before = snapshot(t)
            evs = list(t.feed(inp))
            if evs and evs[0][0] == REJECT:
                assert evs[0][1] in _REFUSALS and len(evs) == 1, (inp, evs, seed)
                assert snapshot(t) == before
            continue
        if ph == P_MATCH_OVER and rng.chance(300):
            # a new group (S1): a seat joins, or one leaves while two stay; the lobby opens
            s = 1 + rng.below(MAX_SEAT)
            if s in t.seats and len(t.seats) == 2:
                continue
            evs = list(t.feed((IN_SEAT, s, 1 if s in t.seats else 0)))
            assert evs[0][0] in (JOIN, LEAVE) and t.phase == P_LOBBY, (evs, seed)
            bot.players = list(t.seats)
            continue
        inp = bot.next_input()
        evs = list(t.feed(inp))
        bot.keep(evs)
        if evs and evs[0][0] == REJECT and inp[0] == IN_RULE:
            # the bot's referee changed the scoring between two rounds of a match (M2, M4)
            assert inp[1] == "scoring" and evs[0][1] == R_MATCH_ON and len(evs) == 1, (
                inp, evs, seed)
            continue
        if evs and evs[0][0] == REJECT:
            # the only legal input refused: a shuffle when the settings do not fit the
            # seats; the referee puts that right and the table says which setting it is
            assert inp == (IN_SHUFFLE,) and evs[0][1] in _REFUSALS[1:4], (inp, evs, seed)
            fix = {R_DEAL_SIZE: ("hand_size", 7), R_TEAMS: ("teams", 0),
                   R_NO_DEALER: ("first_dealer", 0)}[evs[0][1]]
            assert t.feed((IN_RULE, fix[0], fix[1]))[0][0] == RULE
        if since >= 0:
            since += 1
            turn += 1
            limit = LIVE_TURN if t.phase == P_PLAY and started else LIVE_SETUP
            assert turn <= limit and since <= LIVE_ROUND, \
                "round %d has no way forward (seed %d)" % (rounds, seed)
            if rng.chance(5):
                # the same state, loaded from its snapshot, plays on (a reboot's recovery)
                t2 = load(snapshot(t), t.registry)
                assert snapshot(t2) == snapshot(t)
                t = bot.t = t2
        for ev in evs:
            if ev[0] == TURN:
                worst = max(worst, turn)
                turn = 0
                started = True
            elif ev[0] == ROUND:
                since = turn = 0
                started = False
            elif ev[0] == ROUND_OVER:
                rounds += 1
                longest = max(longest, since)
                worst = max(worst, turn)
                since = -1
                check_places(t)
    return longest, worst


def test_liveness_every_turn_ends_within_the_bound():
    seed = 1
    done = 0
    while done < LIVE_ROUNDS:
        live_match(100000 + seed, 3)
        done += 3
        seed += 1


# ---- an independent reference of the official rules -------------------------------------

REF_ROUNDS = 20 if MICRO else 600
_HOUSE = ("stacking", "jump_in", "multi", "zero_rotate", "sum_win", "slap4", "elimination",
          "teams", "misplay", "false_uno", "false_catch", "turn_timer", "scoring")


def ref_match(seed, rounds_wanted):
    """Official tables (with their options) checked event by event by reference.py."""
    rng = Rng(seed)
    seats = random_seats(rng)
    rules = random_settings(rng, seats)
    defaults = Settings()
    for k in _HOUSE:
        setattr(rules, k, getattr(defaults, k))
    t = Table(rules)
    ref = Reference(rules, seats)
    bot = Bot(t, seats, seed=seed, call=rng.below(1000), catch=rng.below(1000),
              challenge=rng.below(1000))
    rounds = 0
    while rounds < rounds_wanted:
        inp, evs = bot.step()
        assert not evs or evs[0][0] != REJECT, (inp, evs, seed)
        rounds += follow(ref, seed, inp, evs)


def follow(ref, seed, inp, evs):
    """Every event of an input through the reference; returns the rounds that ended."""
    ended = 0
    for ev in evs + [None]:
        try:
            if ev is None:
                ref.end_input()
            else:
                ref.see(ev)
        except AssertionError as e:
            raise AssertionError("seed %d: %r at %r: %s" % (seed, inp, ev, e))
        if ev and ev[0] == ROUND_OVER:
            ended += 1
    return ended


def test_an_independent_reference_agrees_on_every_event_of_official_tables():
    seed = 1
    done = 0
    while done < REF_ROUNDS:
        ref_match(200000 + seed, 3)
        done += 3
        seed += 1


# ---- the reference with the house rules it knows -------------------------------------------

HOUSE_ROUNDS = 12 if MICRO else 400
PRESSES = False     # press_all too (slow: a copy of the table per press; for sweeps)
PRESET = 200        # per mille: a house rule as the house or party preset has it
# what the reference models (reference.py; of P2 only whose time it is)
_KNOWN = ("stacking", "jump_in", "multi", "zero_rotate", "sum_win", "slap4", "elimination",
          "teams", "misplay", "false_uno", "false_catch", "scoring", "turn_timer")


def judge_all(t, ref, seed, inp):
    """Every card of every hand in play: the table takes it on the pad (judge) if and only if
    the reference would (a rule wrongly refused is found too, not only one wrongly taken)."""
    if t.phase != P_PLAY:
        return
    for s in t.seats:
        if s in ref.laid:   # H5: the table keeps a laid-down hand where it lies
            continue
        assert sorted(t.hands[s]) == sorted(ref.hands[s]), "seed %d: after %r seat %d's hand" % (
            seed, inp, s)
    assert [list(d) for d in t.debts] == ref.debts, "seed %d: after %r debts %r, not %r" % (
        seed, inp, t.debts, ref.debts)
    for s in ref.active:
        mine = ref.may_sum(s)
        assert mine == (t.hand_sum(s) >= 0), "seed %d: after %r seat %d: H5 %r, the table %d" % (
            seed, inp, s, mine, t.hand_sum(s))
        for c in t.hands[s]:
            mine = ref.may_play(s, c)
            assert mine == (t.judge(s, c)[0] != 0), \
                "seed %d: after %r seat %d card %s: the reference %s it, the table %r" % (
                    seed, inp, s, card_name(c), "takes" if mine else "refuses", t.judge(s, c))


def _press_outcome(evs):
    """What a press did, in press_means' words."""
    if evs[0][0] == UNO_CLOSE:  # (a pass is an act: it closes an open window first)
        evs = evs[1:]
    code = evs[0][0]
    if code == REJECT:
        if len(evs) > 1 and evs[1][0] == PENALTY:
            return {W_FALSE_UNO: ("false_uno",), W_FALSE_CATCH: ("false_catch",)}.get(
                evs[1][3], ("penalty", evs[1][3]))
        return ("reject", evs[0][1])
    return {SLAP: ("slap",), SUM_WIN: ("sum",), CHALLENGE: ("challenge",), UNO: ("call",),
            PASS: ("pass",), CATCH: ("catch",)}.get(code, ("event", code))


def press_all(t, ref, seed, inp):
    """Every seat's short and long press, each on a copy of the table: it does what the
    reference reads in docs/buttons.md's decision table."""
    if t.phase != P_PLAY:
        return
    snap = snapshot(t)
    for s in t.seats:
        for long in (0, 1):
            evs = list(load(snap, t.registry).feed((IN_SEAT, s, long)))
            got = _press_outcome(evs)
            want = ref.press_means(s, long)
            assert got == want, "seed %d: after %r seat %d %s press: the reference %r, the " \
                "table %r" % (seed, inp, s, "long" if long else "short", want, got)


def house_match(seed, rounds_wanted, judge_every=0):
    """Tables with house rules switched on at random, checked event by event by reference.py;
    the players make mistakes too (P1, U3, U4), but change no rule. judge_every: every so
    many inputs, judge_all."""
    rng = Rng(seed)
    seats = random_seats(rng)
    rules = random_settings(rng, seats)
    defaults = Settings()
    party = Settings({"preset": rng.pick(("house", "party"))})
    for k in _HOUSE:
        if k not in _KNOWN or rng.chance(400):
            setattr(rules, k, getattr(defaults, k))
        if rng.chance(PRESET):  # a game night's preset, most of it
            setattr(rules, k, getattr(party, k))
    t = Table(rules)
    ref = Reference(rules, [])
    bot = Bot(t, seats, seed=seed, mistakes=rng.pick((0, 20, 80, 200)), call=rng.below(1000),
              catch=rng.below(1000), challenge=rng.below(1000),
              tick=rng.pick((0, 100)) if rules.turn_timer else 0)
    rounds = steps = laid = 0
    while rounds < rounds_wanted:
        inp = bot.next_input()
        if inp[0] == IN_RULE:
            continue
        evs = list(t.feed(inp, bot.ms))  # (as bot.step)
        bot.keep(evs)
        steps += 1
        # (elimination with stacking and rotating hands makes long rounds: 44,424 inputs once)
        assert steps < ROUND_CAP * rounds_wanted, "round does not end (seed %d)" % seed
        assert bot.last_mistake or not evs or evs[0][0] != REJECT, (inp, evs, seed)
        rounds += follow(ref, seed, inp, evs)
        _, laid = see_rounds(t, evs, laid)  # (a sum win may end its round inputs later)
        if judge_every and steps % judge_every == 0:
            judge_all(t, ref, seed, inp)
            if PRESSES:
                press_all(t, ref, seed, inp)


def test_h1_h2_h3_h4_h5_h7_m3_m4_p1_u3_u4_the_reference_agrees_on_house_tables():
    seed = 1
    done = 0
    while done < HOUSE_ROUNDS:
        house_match(300000 + seed, 3, 7)
        done += 3
        seed += 1
