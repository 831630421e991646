"""What the table shows and sounds for each thing that happens in a round (the referee's
output): the buzzer's pattern, the seat and colour LEDs, the display's note row, and the host's
narration line, on a simulated board as hub/sim.py's (the real Buzzer, Leds and Screen over
outputs that remember, a TextPanel for the display). docs/firmware.md (## Sound, ## LEDs,
## The display) and docs/buttons.md say what each must be."""
import logkit
from board.buzzer import Buzzer
from board.leds import Leds
from board.screen import Screen, TextPanel
from hub.app import Hub, WHY_MS, _tune_name
from hub.sim import _Out  # outputs that only remember what they were told
from hubkit import FakeBoard
from uno.cards import DECK, NCARDS, copy_name
from uno.events import BLOCKED, REJECT, RESHUFFLE, R_WANT_COLOUR, SLAP_OPEN, TIMER_WARN, \
    UNO_OPEN, CATCH, PENALTY, ROUND_OVER, P_DRAWOFF, P_PLAY
from uno.narrate import say
from uno.record import from_words
from uno.script import to_input

COLOURS = 0xF << 16  # colour c is bit 16 + c of Leds.lit(); seat s is bit s - 1


def board():
    b = FakeBoard()  # its clock is the test's
    b.buzzer = Buzzer(_Out())
    b.leds = Leds(_Out(), colour_pins=(_Out(), _Out(), _Out(), _Out()))
    b.display = Screen(TextPanel())
    return b


def hub(**settings):
    h = Hub(board(), logkit.log(logkit.fresh()))
    h.start(settings)
    return h


def act(h, text):
    """One input in script words ("pad R7", "seat 2 long", "undo"), 0.5 s after the last (a
    tick at its own time); its events."""
    w = text.split()
    h.board.clock = int(w[1]) if w[0] == "tick" else h.board.clock + 500
    return list(h.feed(to_input(from_words(text), h.table)))


def deal(hands, start="R5", dealer=None, **settings):
    """A hub in play: hands {seat: "R1 R2 ..."} dealt through its shoe, then the start card."""
    seats = sorted(hands)
    cards = dict((s, hands[s].split()) for s in seats)
    size = len(cards[seats[0]])
    settings["hand_size"] = size
    settings["first_dealer"] = dealer or seats[-1]
    h = hub(**settings)
    for s in seats:
        act(h, "seat %d" % s)
    act(h, "shuffle")
    for k in range(size * len(seats)):
        act(h, "shoe " + cards[h.table.drawer()][k // len(seats)])
    act(h, "shoe " + start)
    assert h.table.phase == P_PLAY
    return h


_t = [0]


def lights(h):
    """(steady, blinking) LED bits now: the blink phase is turned once between two looks."""
    leds = h.board.leds
    t = _t[0] = _t[0] + 1000
    leds.step(t)
    a = leds.lit()
    leds.step(t + leds.blink_ms)
    b = leds.lit()
    return a & b, a ^ b


def seats(bits):
    return [s for s in range(1, 11) if bits >> (s - 1) & 1]


def tune(h):
    return _tune_name(h.tune)


def note(h):
    """The display's note row (row 7)."""
    return h.board.display.oled.rows()[7]


# ---- a colour to name ---------------------------------------------------------------------

def test_a_wild_blinks_every_colour_led_lights_its_seat_and_asks_for_the_colour():
    """Seat 1 plays W: the table has no colour until one is named, so every colour LED blinks
    (it had blinked none: the hub passed colour -1, and the LEDs blinked only an active colour),
    seat 1's LED stays lit (it names it), and the display's note row says so. Named: that colour
    steady, the note gone."""
    h = deal({1: "W R2 R3", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    assert [say(e) for e in act(h, "pad W")] == ["seat 1 plays W", "seat 1: name a colour"]
    steady, blink = lights(h)
    assert blink & COLOURS == COLOURS and seats(steady) == [1] and not seats(blink)
    assert note(h) == "NAME A COLOUR" and h.notice() == "NAME A COLOUR"
    act(h, "colour G")
    steady, blink = lights(h)
    assert steady & COLOURS == 1 << 18 and not blink and seats(steady) == [2]
    assert note(h) == "" and h.notice() is None


def test_a_start_w_asks_the_first_player_for_the_colour_and_a_take_back_asks_again():
    """S4: a W start card: seat 1 names the colour (colour LEDs blink, its seat lit). The colour
    taken back: nothing moved, the table asks for the colour again, LEDs and note as before."""
    h = deal({1: "B1 R2", 2: "G5 B7", 3: "Y1 Y2"}, start="W")
    steady, blink = lights(h)
    assert blink & COLOURS == COLOURS and seats(steady) == [1] and note(h) == "NAME A COLOUR"
    act(h, "colour B")
    assert lights(h)[0] & COLOURS == 1 << 19 and note(h) == ""
    evs = act(h, "undo")
    assert [say(e) for e in evs] == ["TAKE-BACK: the last 1 input taken back",
                                     "seat 1: name a colour"]
    steady, blink = lights(h)
    assert blink & COLOURS == COLOURS and seats(steady) == [1] and note(h) == "NAME A COLOUR"
    assert tune(h) == "take_back"


def test_an_early_challenge_is_rejected_with_the_trill_while_the_colours_blink():
    """C1: seat 2 long-presses to challenge seat 1's W4 before its colour is named: rejected,
    "choose the colour first" (the trill, and the display says so for a few seconds); the
    colour LEDs go on blinking and seat 1 stays lit: the colour is seat 1's to name. Named,
    seat 2 owes 4 (its LED blinks, the display says +4)."""
    h = deal({1: "W4 R2 R3", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    act(h, "pad W4")
    evs = act(h, "seat 2 long")
    assert evs == [(REJECT, R_WANT_COLOUR, 2, -1)] and tune(h) == "rejected"
    assert say(evs[0]) == "REJECTED seat 2: choose the colour first"
    steady, blink = lights(h)
    assert blink & COLOURS == COLOURS and seats(steady) == [1] and note(h) == "colour first"
    act(h, "colour G")
    steady, blink = lights(h)
    assert seats(blink) == [2] and not seats(steady) and steady & COLOURS == 1 << 18
    assert h.board.display.oled.rows()[1].endswith("draw +4")


# ---- H7: the slap -------------------------------------------------------------------------

def test_the_seats_still_to_slap_blink_until_each_has_slapped():
    """slap4: seat 1's R4 opens the slap; every seat still to slap blinks (the table waits for
    them: nobody may draw or play), the one that slapped stops; the last to slap owes 2 (the
    penalty pattern, its LED blinks for the draws). The last slap taken back: seats 1 and 3
    blink again, nothing is owed."""
    h = deal({1: "R4 R2 R3", 2: "G5 B7 R8", 3: "Y1 Y2 Y3"}, slap4="yes")
    evs = act(h, "pad R4")
    assert SLAP_OPEN in [e[0] for e in evs] and say([e for e in evs if e[0] == SLAP_OPEN][0]) \
        == "a 4: everybody slap!"
    assert seats(lights(h)[1]) == [1, 2, 3]
    act(h, "seat 2")
    assert seats(lights(h)[1]) == [1, 3]
    act(h, "seat 1")
    assert tune(h) == "penalty" and seats(lights(h)[1]) == [3]
    act(h, "undo")
    steady, blink = lights(h)
    assert seats(blink) == [1, 3] and seats(steady) == [2]


# ---- T4 and S2: the shoe runs empty -------------------------------------------------------

def _short_shoe(shoe, held):
    """7 seats of 15 cards, the start card R5a, the shoe holding the cards of `shoe`; held
    {seat: card}: a card dealt to that seat (dealer seat 7: seat 1 plays first)."""
    keep = ("R5a",) + tuple(shoe) + tuple(held.values())
    rest = [copy_name(c) for c in range(NCARDS) if copy_name(c) not in keep]
    hands = {}
    i = 0
    for s in range(1, 8):
        mine = [held[s]] if s in held else []
        n = 15 - len(mine)
        hands[s] = " ".join(mine + rest[i:i + n])
        i += n
    return deal(hands, start="R5a", dealer=7)


def test_an_empty_shoe_with_a_seat_due_to_draw_asks_for_the_shuffle_on_the_display():
    """T4: the shoe runs empty and seat 4 is due to draw: `reshuffle` names it, its LED is lit,
    and the display's note row asks for the pile to be shuffled (nothing at the table said the
    table waits for it). The shuffle: the note goes. The shuffle taken back: first the card
    note, then (the next input) the shuffle asked for again."""
    h = _short_shoe(("B9a", "R7a"), {1: "R6a"})
    act(h, "pad R6a")
    act(h, "shoe B9a")
    act(h, "shoe R7a")
    evs = act(h, "seat 3")
    assert evs[-1] == (RESHUFFLE, 4) and seats(lights(h)[0]) == [4]
    assert h.notice() == "SHOE EMPTY - shuffle the pile" and note(h) == "SHOE EMPTY -"
    act(h, "shuffle")
    assert h.notice() is None and note(h) == ""
    evs = act(h, "undo")
    assert evs[-1] == (RESHUFFLE, 4) and h.notice() == "R5 to pile"
    # rejected: the card note gives way to the reason, and a few seconds on to what the table
    # waits for
    act(h, "colour R")
    assert tune(h) == "rejected" and h.notice() == "no colour wanted"
    h.board.clock += WHY_MS
    h.housekeeping()
    assert h.notice() == "SHOE EMPTY - shuffle the pile"


def test_the_draw_for_dealer_emptying_the_shoe_asks_for_the_set_aside_cards():
    """S2: two seats draw for dealer; non-numbers are drawn again and every number ties, so the
    whole deck ends aside. `reshuffle` names seat 1, the display asks for the set-aside cards
    (not the discard pile: there is none), and so does the narration."""
    h = hub()
    act(h, "seat 1")
    act(h, "seat 2")
    act(h, "shuffle")
    assert h.table.phase == P_DRAWOFF
    others = [c for c in range(NCARDS) if DECK[c] & 15 > 9]
    numbers = sorted((c for c in range(NCARDS) if DECK[c] & 15 <= 9), key=lambda c: DECK[c] & 15)
    for c in others + numbers:  # each number after its twin in rank: a tie every time
        evs = act(h, "shoe " + copy_name(c))
    assert evs[-1] == (RESHUFFLE, 1) and h.table.phase == P_DRAWOFF
    assert "the set-aside cards" in say(evs[-1])
    assert h.notice() == "SHOE EMPTY - shuffle the set-aside cards"
    assert seats(lights(h)[0]) == [1]
    act(h, "shuffle")
    assert h.notice() is None


# ---- the buzzer: the patterns docs/firmware.md promises --------------------------------------

def test_the_uno_window_the_catch_and_a_misplay_each_have_their_pattern():
    """Seat 1 plays its second-to-last card: the UNO window's rising triple. Seat 3 catches it:
    the penalty (seat 1 owes 2: its LED blinks over seat 2's turn light). A card out of turn:
    the rejected trill."""
    h = deal({1: "R2 R3", 2: "G5 B7", 3: "Y1 Y2"})
    evs = act(h, "pad R2")
    assert UNO_OPEN in [e[0] for e in evs] and tune(h) == "uno"
    evs = act(h, "seat 3")
    assert CATCH in [e[0] for e in evs] and PENALTY in [e[0] for e in evs]
    assert tune(h) == "penalty" and seats(lights(h)[1]) == [1] and seats(lights(h)[0]) == [2]
    act(h, "shoe G1")
    act(h, "shoe G2")  # seat 1 has drawn its 2
    steady, blink = lights(h)
    assert not seats(blink) and seats(steady) == [2]
    assert act(h, "pad Y1")[0][0] == REJECT and tune(h) == "rejected"  # not seat 3's turn


def test_the_last_card_plays_the_round_over_pattern_and_lights_no_seat():
    h = deal({1: "R2 R3", 2: "G5 B7", 3: "Y1 Y2"})
    act(h, "pad R2")
    act(h, "seat 1")    # UNO
    act(h, "shoe G1")   # seat 2 draws, it does not fit: seat 3
    act(h, "shoe Y5")   # seat 3 likewise: seat 1
    evs = act(h, "pad R3")
    assert ROUND_OVER in [e[0] for e in evs] and tune(h) == "round_over"
    assert not seats(lights(h)[0] | lights(h)[1])


def test_the_turn_timer_warns_with_its_ticks_then_costs_two():
    """P2: near the time the warning's two ticks; past it the penalty, the seat's LED blinks."""
    h = deal({1: "R1 G2 G3", 2: "GD B7 R8", 3: "R1 Y2 Y3"}, turn_timer=5)
    evs = act(h, "tick %d" % h.table.deadline())
    assert evs == [(TIMER_WARN, 1)] and tune(h) == "warning"
    assert say(evs[0]) == "seat 1: time is nearly up"
    evs = act(h, "tick %d" % h.table.deadline())
    assert [e[0] for e in evs] == [PENALTY] and tune(h) == "penalty"
    assert seats(lights(h)[1]) == [1]


# ---- the take-back: LEDs and display (docs/buttons.md) ---------------------------------------

def test_a_take_back_lights_the_seat_the_turn_is_back_on_and_names_the_card():
    """buttons.md: after a take-back the seat LEDs light the seat the turn is back on, and the
    display names the card and where it goes (off the pile to seat 1)."""
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    act(h, "pad R2")
    assert seats(lights(h)[0]) == [2]
    evs = act(h, "undo")
    assert seats(lights(h)[0]) == [1] and note(h) == "R2 to seat 1"
    assert [say(e) for e in evs][1:] == [
        "R2 goes back from the top of the discard pile to seat 1's hand", "turn: seat 1"]
    assert tune(h) == "take_back"


def test_in_the_deal_the_seat_the_next_card_goes_to_is_lit():
    """buttons.md: a card read at the shoe goes to the next seat in dealing order, and the seat
    LEDs show who that is."""
    h = hub(hand_size=2, first_dealer=3)
    for s in (1, 2, 3):
        act(h, "seat %d" % s)
    act(h, "shuffle")
    assert seats(lights(h)[0]) == [1]
    act(h, "shoe R1")
    assert seats(lights(h)[0]) == [2]


def test_a_blocked_round_is_narrated_without_claiming_the_fewest_points():
    """T6: the winner is the first seat out (M3), else the fewest points (a team's, M4), and
    under forced play a card may still go round: the line names the winner, no false reason."""
    line = say((BLOCKED, 2))
    assert "seat 2 wins" in line and "no card can move" in line
    assert "nothing is left to draw" not in line and "holds the fewest" not in line
