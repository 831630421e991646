"""Disputed table situations of the record (what a referee would say: skip, reverse, reshuffle,
the colour, who pressed), of H5's sum win and M3's elimination against the other house rules,
and of T2's drawing variants against them: one test each, named after the rule ids they decide
(the seeds' words and docs/rules.md say why). Situations pinned elsewhere are not repeated."""
from kit import act, deal, names, unchanged
from uno.cards import NCARDS, copy_name
from uno.events import *
from uno.state import snapshot


def cards_but(keep):
    """Every physical card's copy name but those in keep (copy names), in deck order."""
    return [copy_name(c) for c in range(NCARDS) if copy_name(c) not in keep]


def hands_of(cards, nseats, size):
    return dict((s + 1, " ".join(cards[s * size:(s + 1) * size])) for s in range(nseats))


def short_shoe(shoe, held, **settings):
    """7 seats of 15 cards, the start card R5a, the shoe holding the two cards of `shoe`;
    held {seat: card}: a card dealt to that seat (dealer seat 7: seat 1 plays first)."""
    rest = cards_but(("R5a",) + tuple(shoe) + tuple(held.values()))
    hands = {}
    i = 0
    for s in range(1, 8):
        mine = [held[s]] if s in held else []
        n = 15 - len(mine)
        hands[s] = " ".join(mine + rest[i:i + n])
        i += n
    t = deal(hands, start="R5a", dealer=7, **settings)
    assert t.turn == 1 and t.shoe == 2
    return t


def of(evs, code):
    return [e for e in evs if e[0] == code]


# ---- the record: reverse ------------------------------------------------------------------

def test_h2_t3_a_jumped_reverse_says_the_direction_goes_back_then_the_jumpers_reverses():
    """jump_in=actions, 4 seats: seat 1's RR reverses (ccw); seat 3 jumps with the other RR:
    the record says the direction goes back (cw), then seat 3's own R reverses it (ccw)."""
    # seed 000/002 on the reverse: "出此牌後出牌順序改為逆時針，由出牌者右手邊的人開始出牌（有搶牌
    # 者除外）" — not when someone jumps in; seed 002: "被抢的牌作用失效". The jumped R's reversal
    # is void: the direction went back without a `reverse` event, so a reader counting them
    # (or the narrator: "direction reverses: now counter-clockwise" twice) was misled
    t = deal({1: "RR R1 R2", 2: "G1 G2 G3", 3: "RR Y2 Y3", 4: "B1 B2 B3"}, start="R5",
             jump_in="actions")
    evs = act(t, "pad RRa")
    assert of(evs, REVERSE) == [(REVERSE, -1)] and t.turn == 4
    evs = act(t, "pad RRb")
    assert names(evs) == ["jump_in", "reverse", "play", "reverse", "turn"]
    assert of(evs, REVERSE) == [(REVERSE, 1), (REVERSE, -1)]
    assert t.dir == -1 and t.turn == 2 and snapshot(t)["direction"] == "ccw"


def test_h2_h3_t3_a_jumped_reverse_of_a_multi_play_voids_only_that_reversal():
    """jump_in=actions, multi=same: seat 1 lays RR and GR (two reversals: clockwise again);
    seat 3 jumps on GR: GR's reversal goes back (ccw), seat 3's GR reverses (cw)."""
    # seed 002: "前一张被抢的功能牌失效" — the card jumped (the last laid), not the multi-play
    t = deal({1: "RR GR R1", 2: "G1 G2 G3", 3: "GR Y2 Y3", 4: "B1 B2 B3"}, start="R5",
             jump_in="actions", multi="same")
    act(t, "pad RR", "pad GRb")                 # (seat 3 was dealt GRa first)
    assert t.dir == 1 and t.turn == 2
    evs = act(t, "pad GRa")
    assert of(evs, REVERSE) == [(REVERSE, -1), (REVERSE, 1)]
    assert t.dir == 1 and t.turn == 4


# ---- the record: skip and the jump-in -----------------------------------------------------

def test_h2_t3_a_jump_in_skips_nobody_its_record_is_the_jump_and_the_turn():
    """jump_in=identical, 4 seats: seat 1 plays R5 (seat 2 in turn); seat 4 jumps with R5:
    seats 2 and 3 lose the chance to play, but no card skipped them: no `skip` event."""
    # seed 002: "可以抢先出牌，中间的玩家失去出牌机会"; seed 000: "令本應發牌的下位玩者喪失發牌機會"
    # — a race for the play, not a card's effect: `jump_in` says who played out of turn and
    # `turn` where play goes on (docs/formats.md: skip is an S's, an R's with two seats, or a
    # D's or W4's victim's once it has drawn)
    t = deal({1: "R5 R1 R2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3", 4: "R5 B2 B3"}, start="R7",
             jump_in="identical")
    act(t, "pad R5a")
    evs = act(t, "pad R5b")
    assert names(evs) == ["jump_in", "play", "turn"] and evs[0][1] == 4 and evs[2][1] == 1


def test_h2_t3_a_jumped_ds_owe_goes_with_the_turn_and_its_victim_is_not_skipped():
    """jump_in=actions: seat 1's RD makes seat 2 owe 2; seat 3 jumps with the other RD: seat
    2 owes nothing and is not skipped; seat 4 owes 2, draws them and is skipped."""
    # seed 002: "如甲出+2，乙（不是甲的下家）抢+2，则是乙的下家摸2张牌（注意不是4张，因为前一张+2失效
    # 了）"; seed 000: "draw 2 功能：出牌者下家需要從牌庫里摸兩張牌（有搶牌者除外）". An `owe` is the
    # turn seat's while it holds the turn (as a stacked D's, H1): the turn moving on ends it
    t = deal({1: "RD R1 R2", 2: "G1 G2 G3", 3: "RD Y2 Y3", 4: "B1 B2 B3"}, start="R5",
             jump_in="actions")
    evs = act(t, "pad RDa")
    assert of(evs, OWE) == [(OWE, 2, 2, W_DRAW2)]
    evs = act(t, "pad RDb")
    assert names(evs) == ["jump_in", "play", "turn", "owe"] and evs[3][1:3] == (4, 2)
    assert t.owes(2) == 0 and t.owes(4) == 2
    act(t, "shoe B5")
    evs = act(t, "shoe B6")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 4 and evs[2][1] == 1


def test_t3_c1_the_w4s_victim_and_a_lost_challenger_are_each_skipped_by_name():
    """A W4's victim that draws its 4, and a challenger that loses and draws 6, each get a
    `skip` naming it once the draws are in, then the turn of the seat after it."""
    # seed 000: "Wild draw four…下位玩者停止出牌一次，並罰抽4張牌"; seed 001: "检举失败，则被跳过回合，
    # 不可以出牌"
    t = deal({1: "W4 G1 G2", 2: "G3 G4 G5", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G", "shoe B1", "shoe B2", "shoe B3")
    evs = act(t, "shoe B4")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and evs[2][1] == 3
    t = deal({1: "W4 G1 G2", 2: "G3 G4 G5", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad W4", "colour G")
    evs = act(t, "seat 2 long")
    assert names(evs) == ["challenge", "penalty"] and evs[0][3] == V_LEGAL
    for c in ("B1", "B2", "B3", "B4", "B5"):
        act(t, "shoe " + c)
    evs = act(t, "shoe B6")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and evs[2][1] == 3


# ---- the record: reshuffle --------------------------------------------------------------

def test_t4_a_last_card_drawn_that_fits_asks_for_the_reshuffle_once_a_seat_is_due_to_draw():
    """The shoe holds B9a and R7a. Seat 2 draws B9a (no fit), seat 3 draws R7a, which fits: no
    seat is due to draw while seat 3 may play it or pass; when it passes the table asks for the
    reshuffle for seat 4. It had said `reshuffle` for seat 0 (nobody) at seat 3's draw."""
    # seed 000: "若牌庫中的牌一用完，而尚未有人獲勝時，則將廢牌堆中的牌(最上一張除外)重洗過"; docs/
    # formats.md: `reshuffle` names "this seat is due to draw"; seed 001: "若这张牌可出即可立即打出，
    # 也可以保留" — seat 3's choice comes first
    t = short_shoe(("B9a", "R7a"), {1: "R6a"})
    act(t, "pad R6a", "shoe B9a")
    evs = act(t, "shoe R7a")
    assert names(evs) == ["draw"] and t.shoe == 0 and t.drawer() == 0
    assert not t.due and snapshot(t)["reshuffle"] is False
    evs = act(t, "seat 3")
    assert names(evs) == ["pass", "turn", "reshuffle"] and evs[2][1] == 4
    assert t.due and snapshot(t)["reshuffle"] is True
    assert of(act(t, "pad " + copy_name(t.hands[4][0])), RESHUFFLE) == []  # said once
    assert names(act(t, "shuffle"))[0] == "shuffle" and not t.due


def test_t4_p2_the_seat_holding_the_last_card_drawn_is_timed_until_it_plays_or_passes():
    """turn_timer=5: seat 3 draws the shoe's last card, which fits, and sits on it: the table
    is not waiting for a reshuffle (no seat is due to draw) but for seat 3: its time runs, and
    past 5 s it draws 2, for which the table then asks for the reshuffle, naming seat 3."""
    # seed 003: "超過5秒不出牌者，罰摸2張牌" charges the seat that sits (docs/rules.md, P2: no time
    # runs while the table waits for "the reshuffle it asked for"; none had run for seat 3)
    t = short_shoe(("B9a", "R7a"), {1: "R6a"}, turn_timer=5)
    act(t, "tick 1000", "pad R6a", "shoe B9a", "shoe R7a")
    assert t.deadline() == 4000
    assert names(act(t, "tick 4000")) == ["timer_warn"]
    evs = act(t, "tick 6001")
    assert names(evs) == ["penalty", "reshuffle"] and evs[0][1:] == (3, 2, W_SLOW)
    assert evs[1][1] == 3 and t.due and t.deadline() == -1


def test_t4_a_wild_played_onto_an_empty_shoe_asks_for_the_reshuffle_for_the_next_seat():
    """Seats 1 and 2 draw the shoe's two cards (no fit); the pile holds the start card only:
    nothing to reshuffle yet. Seat 3 plays a W: now the pile can be reshuffled, and once the
    colour is named the table asks for it for seat 4, whose turn it is (it had named seat 0
    with the W, while the colour was wanted)."""
    t = short_shoe(("B9a", "G3a"), {3: "Wa"})
    act(t, "shoe B9a")
    evs = act(t, "shoe G3a")
    assert t.shoe == 0 and t.pile == 1 and not t.due and of(evs, RESHUFFLE) == []
    evs = act(t, "pad Wa")
    assert names(evs) == ["play", "colour_wanted"] and not t.due
    evs = act(t, "colour B")
    assert names(evs) == ["colour", "turn", "reshuffle"] and evs[2][1] == 4 and t.due


def test_t4_h7_a_4_played_onto_an_empty_shoe_asks_for_the_reshuffle_for_the_last_to_slap():
    """slap4: the shoe is empty, the pile holds the start card only; seat 3 plays R4: every
    seat slaps first; the last to slap (seat 7) draws 2 and the table asks for the reshuffle
    naming it (it had named seat 0 with the 4, while the slap was open)."""
    # seed 003: "當有人打出數字四的時候所有人要立刻將手拍到這張牌上…最慢的要發牌兩張"
    t = short_shoe(("B9a", "G3a"), {3: "R4a"}, slap4="yes")
    act(t, "shoe B9a", "shoe G3a")
    evs = act(t, "pad R4a")
    assert names(evs) == ["play", "slap_open", "turn"] and not t.due
    for s in range(1, 6):
        assert names(act(t, "seat %d" % s)) == ["slap"]
    evs = act(t, "seat 6")
    assert names(evs) == ["slap", "penalty", "reshuffle"] and evs[2][1] == 7


# ---- H5 and M3 with the other house rules ------------------------------------------------

def test_h5_h3_m3_no_second_lay_down_on_a_card_added_to_the_same_multi_play():
    """sum_win, multi=same, elimination: seat 1 plays R5; seat 3 (Y1 Y4 B0) lays down on it and
    is out; seat 1 adds G5: one play of one number, so seat 4 (Y1 Y9 Y0, 10) cannot lay down
    on it; the next number played (seat 2's G2) opens the lay-down again, and seat 4 takes it."""
    # seed 002: "玩者每次出牌不限一张…只要有相同的号码" — the cards laid are one play of one number;
    # seed 003: "總數加起來如果和任意一家打出的牌相等時，亦可馬上勝出" — a race on that number: the
    # first to lay down takes it (docs/rules.md, H5: no second seat on the same number)
    t = deal({1: "R5 G5 B7", 2: "G2 G8 B8", 3: "Y1 Y4 B0", 4: "Y1 Y9 Y0"}, start="R3",
             sum_win="yes", multi="same", elimination="yes")
    act(t, "pad R5")
    assert names(act(t, "seat 3 long")) == ["sum_win", "out"]
    act(t, "pad G5")
    assert t.sum_to == -1 and unchanged(t, "seat 4 long") == R_SUM_LATE
    act(t, "pad G2")
    assert t.turn == 4 and t.hand_sum(4) == 10
    evs = act(t, "seat 4 long")
    assert names(evs) == ["sum_win", "out", "turn"] and t.active == [1, 2] and t.turn == 1


def test_h5_h2_the_first_player_may_lay_down_on_the_identical_number_jumped_onto_its_own():
    """sum_win, jump_in=identical: seat 1 plays R5 and holds R2 R3 (5): not on its own number;
    seat 3 jumps with the other R5: that 5 is seat 3's, and seat 1 lays down on it and wins."""
    # seed 000: "當自己牌上數值之和等與對方打出的牌之數字" — the number the other side played: the
    # jumper's card is its own play (seed 002: "抢牌不是叠加"), and seat 1 is the other side
    t = deal({1: "R5 R2 R3", 2: "G2 G8 B8", 3: "R5 Y4 B0", 4: "Y1 Y9 Y0"}, start="R7",
             sum_win="yes", jump_in="identical")
    act(t, "pad R5a")
    assert unchanged(t, "seat 1 long") == R_NO_SUM
    act(t, "pad R5b")
    assert t.sum_by == 3
    evs = act(t, "seat 1 long")
    assert names(evs)[:2] == ["sum_win", "round_over"] and evs[1][1] == 1


def test_m3_h2_a_jump_in_on_the_card_of_a_seat_gone_out_with_the_jumpers_last_card():
    """jump_in=identical, elimination: seat 1 goes out on R5 (seat 2 in turn); seat 3 jumps with
    its last card, the other R5: it goes out too, and play goes on after it: seat 4."""
    # seed 002: "抢先出牌，中间的玩家失去出牌机会"; seed 000: "然後由搶牌者下家繼續出牌"; seed 003
    # (淘汰制): "有一人勝出，則四人局變成三人局，游戲繼續"
    t = deal({1: "R5 R1", 2: "G3 G4", 3: "R5 R8", 4: "B3 B4"}, start="R7", jump_in="identical",
             elimination="yes")
    act(t, "pad R1", "seat 1", "shoe B9", "pad R8", "seat 3", "shoe G9", "pad R5a")
    assert t.finished == [1] and t.turn == 2
    evs = act(t, "pad R5b")
    assert names(evs) == ["jump_in", "play", "turn", "out"] and evs[2][1] == 4
    assert t.finished == [1, 3] and t.active == [2, 4] and t.turn == 4


def test_m3_t3_a_last_r_with_three_seats_in_reverses_and_leaves_two():
    """elimination, 3 seats: seat 1 goes out on an R: three seats were in when it was played,
    so it reverses (the record says so) and seat 3 plays; from then on an R acts as an S."""
    # seed 000: "Reverse 發牌順序方向逆轉，若只有兩名玩者則效果與"Skip"牌相同" — the players of the
    # play; the seat after seat 1 counter-clockwise (seat 3) is the one an S would also give
    t = deal({1: "RR R1", 2: "G3 G4", 3: "B3 B4"}, start="R7", elimination="yes")
    act(t, "pad R1", "seat 1", "shoe B9", "shoe B8")
    evs = act(t, "pad RR")
    assert names(evs) == ["play", "reverse", "turn", "out"] and evs[1][1] == -1
    assert t.turn == 3 and t.active == [2, 3]


# ---- T2's draw variants with H1, H2, H5 ----------------------------------------------------

def test_t2_h2_draw_until_a_jump_in_ends_the_turn_of_the_seat_drawing_on():
    """draw=until, jump_in=identical: seat 2 draws B9 (no fit) and draws on; seat 3 jumps with
    R5 meanwhile: seat 2's turn is over (the seat jumped past loses it), play goes on from seat
    3, and seat 2 may no longer play nor draw."""
    # seed 002: "若玩家无牌可出，要一直抽到可以出牌为止"; "可以抢先出牌，中间的玩家失去出牌机会" — the
    # jump is open while the seat in turn draws on: it has not played
    t = deal({1: "R5 R1", 2: "G3 G4", 3: "R5 R8", 4: "B3 B4"}, start="R7", jump_in="identical",
             draw="until")
    act(t, "pad R5a", "shoe B9")
    assert t.turn == 2 and t.drawn == -2
    evs = act(t, "pad R5b")
    assert names(evs)[:2] == ["jump_in", "play"] and t.turn == 4 and t.drawn == -1
    assert unchanged(t, "pad B9") == R_NOT_TURN


def test_t2_h2_forced_play_a_jump_in_frees_the_seat_holding_a_drawn_card_that_fits():
    """forced=yes, jump_in=identical: seat 2 draws R9, which fits: it must play it (no pass);
    seat 3 jumps with R5: the turn is seat 4's, and seat 2 keeps R9."""
    # seed 001: "玩家不能在有牌可出的情况下不出牌" is the turn seat's; seed 000: "令本應發牌的下位玩者
    # 喪失發牌機會" — the jump takes that turn, and the obligation with it
    t = deal({1: "R5 R1", 2: "G3 G4", 3: "R5 R8", 4: "B3 B4"}, start="R7", jump_in="identical",
             forced="yes")
    act(t, "pad R5a", "shoe R9")
    assert unchanged(t, "seat 2") == R_MUST_PLAY
    act(t, "pad R5b")
    assert t.turn == 4 and t.drawn == -1 and sorted(copy_name(c)[:2] for c in t.hands[2]) == \
        ["G3", "G4", "R9"]


def test_t2_h1_draw_until_a_ds_victim_draws_its_two_whatever_they_are():
    """draw=until, stacking=on: seat 2 owes RD's 2 and draws them (neither fits): it does not
    draw on until a card fits; it has drawn what the D costs and is skipped."""
    # seed 001: "当被+2、+4罚抽牌时，要从牌堆顶抽取对应的牌，且不能再出牌"; seed 002's "一直抽到可以出
    # 牌为止" is for "若玩家无牌可出", the turn's own draw
    t = deal({1: "RD R1", 2: "G3 G4", 3: "B3 B4"}, start="R7", draw="until", stacking="on")
    act(t, "pad RD", "shoe B9")
    evs = act(t, "shoe B8")
    assert names(evs) == ["draw", "skip", "turn"] and evs[1][1] == 2 and t.turn == 3


def test_t2_h5_forced_play_a_turn_seat_holding_a_card_that_fits_may_lay_down():
    """forced=yes, sum_win: seat 2 holds R1 R4, both fit seat 1's R5, and they add up to 5: it
    may not draw, but it may lay down its hand and win."""
    # seed 000: "當自己牌上數值之和等與對方打出的牌之數字…可以無視任何情況，攤牌勝出" (whatever the
    # situation); seed 001's "玩家不能在有牌可出的情况下不出牌" forbids holding back to draw
    t = deal({1: "R5 R1", 2: "R1 R4", 3: "Y5 Y8", 4: "B3 B4"}, start="R7", forced="yes",
             sum_win="yes")
    act(t, "pad R5")
    assert unchanged(t, "shoe G9") == R_MUST_PLAY
    evs = act(t, "seat 2 long")
    assert names(evs)[0] == "sum_win" and names(evs)[-2] == "round_over" and t.winner == 2


def test_t3_an_r_taken_back_says_the_direction_goes_back():
    """A take-back of seat 1's RR: the direction is clockwise again, and the record says so
    with a `reverse` event (cw) before the `turn` (seat 2 again), as it said the R's."""
    # the record says every change of direction (docs/rules.md, what the record says): a reader
    # counting `reverse` events across a take-back had been left counter-clockwise
    t = deal({1: "RR R1 R2", 2: "G1 G2 G3", 3: "Y1 Y2 Y3"}, start="R5")
    act(t, "pad RR")
    assert t.dir == -1 and t.turn == 3
    evs = act(t, "undo")
    assert names(evs) == ["undo", "card_back", "reverse", "turn"]
    assert evs[2] == (REVERSE, 1) and evs[3][1] == 1 and t.dir == 1
