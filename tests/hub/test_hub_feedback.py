"""What a referee hears from the table itself: a take-back has a buzzer pattern of its own
(docs/firmware.md, ## Sound), on the simulated board of test_referee_output."""
from board import buzzer
from hub import app
from test_referee_output import act, deal, tune
from uno.events import PENALTY, ROUND_OVER, UNDO, UNO_OPEN


def rhythm(pat):
    return tuple(-ms if f == 0 else ms for f, ms in pat)


# ---- the take-back's pattern --------------------------------------------------------------

def test_a_take_back_plays_its_own_pattern_and_status_names_it():
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    act(h, "pad R2")
    assert tune(h) == "accepted"
    evs = act(h, "undo")
    assert evs[0] == (UNDO, 1) and h.tune is buzzer.TAKE_BACK
    assert tune(h) == "take_back" and h.status()["tune"] == "take_back"
    act(h, "pad R2")  # played again: the usual blip
    assert tune(h) == "accepted"


def test_the_take_back_pattern_is_short_in_the_band_and_like_no_other():
    """Told apart by rhythm from every pattern of the buzzer and the hub's own (log full,
    damaged, the laptop let in), shorter than the rejected trill."""
    tb = buzzer.TAKE_BACK
    others = [buzzer.PATTERNS[n] for n in buzzer.PATTERNS if buzzer.PATTERNS[n] is not tb]
    others += [app.LOG_FULL, app.DAMAGED, app.AGREED]
    for pat in others:
        assert rhythm(pat) != rhythm(tb), pat
    for f, ms in tb:
        assert (f == 0 or buzzer.LOW_HZ <= f <= buzzer.HIGH_HZ) and 30 <= ms <= 1000
    assert sum(ms for f, ms in tb) < sum(ms for f, ms in buzzer.REJECTED)


def test_a_take_back_that_opens_the_uno_window_again_sounds_as_a_take_back():
    """Seat 1's R2 opens its UNO window; seat 2's draw closes it; the draw taken back opens it
    again: the table hears the take-back (the cards go back first), not the window."""
    h = deal({1: "R2 R3", 2: "G5 B7", 3: "Y1 Y2"})
    act(h, "pad R2")
    assert tune(h) == "uno"
    act(h, "shoe G1")
    evs = act(h, "undo")
    assert UNO_OPEN in [e[0] for e in evs] and tune(h) == "take_back"


def test_a_round_end_wins_over_a_take_back_and_a_take_back_over_a_penalty():
    """The order of _TUNES, whatever the order of the events."""
    h = deal({1: "R2 R3", 2: "G5 B7", 3: "Y1 Y2"})
    h.answer([(UNDO, 1), (ROUND_OVER, 1, 10)])
    assert tune(h) == "round_over"
    h.answer([(PENALTY, 2, 2, 4), (UNO_OPEN, 1), (UNDO, 1)])
    assert tune(h) == "take_back"
