"""What a referee hears and reads from the table itself: a take-back has a buzzer pattern of
its own, and a rejected input says why on the display's note row (docs/firmware.md, ## Sound and
## The display), on the simulated board of test_referee_output."""
from board import buzzer
from board.screen import COLS, fold
from hub import app
from hub.app import WHY_MS, why
from test_referee_output import act, deal, hub, note, tune
from uno import events
from uno.events import PENALTY, REJECT, ROUND_OVER, R_NOT_TURN, R_UNDO_PAST, R_WANT_COLOUR, \
    UNDO, UNO_OPEN


_parts = __file__.replace("\\", "/").split("/")
ROOT = "/".join(_parts[:-3]) or "."


def reasons():
    return sorted(getattr(events, n) for n in dir(events) if n.startswith("R_"))


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


# ---- a reject's reason on the display -----------------------------------------------------

def test_every_reason_has_a_row_of_its_own():
    """Every R_* code of uno/events.py has its words, one display row long, each different:
    a reason added without words fails here (so does a text left over)."""
    codes = reasons()
    assert codes == list(range(1, len(codes) + 1))
    texts = [why(r) for r in codes]
    for r in codes:
        t = texts[r - 1]
        assert t and len(t) <= COLS and fold(t) == [t], (r, t)
    assert len(set(texts)) == len(texts)
    assert app._WHY.count("\n") == len(codes)
    assert why(0) is None and why(len(codes) + 1) is None


def test_every_reason_has_its_row_in_the_docs():
    with open(ROOT + "/docs/firmware.md") as f:
        doc = f.read()
    for r in reasons():
        row = "| %d | `%s` |" % (r, why(r))
        assert row in doc, row


def test_a_reject_shows_its_reason_until_the_next_accepted_input():
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    evs = act(h, "pad Y1")  # seat 3's card, seat 1's turn
    assert evs[0][:2] == (REJECT, R_NOT_TURN) and tune(h) == "rejected"
    assert note(h) == why(R_NOT_TURN) == "not your turn"
    assert h.status()["notice"] == "not your turn"
    act(h, "pad R3")
    assert tune(h) == "accepted" and note(h) == "" and h.notice() is None


def test_the_reason_goes_after_a_few_seconds_and_the_table_asks_again():
    h = deal({1: "W4 R2 R3", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    act(h, "pad W4")
    assert note(h) == "NAME A COLOUR"
    act(h, "seat 2 long")  # a challenge before the colour is named
    assert note(h) == why(R_WANT_COLOUR)
    h.board.clock += WHY_MS - 1
    h.housekeeping()
    assert note(h) == why(R_WANT_COLOUR)
    h.board.clock += 1
    h.housekeeping()
    assert note(h) == "NAME A COLOUR" and h.why is None


def test_a_misplay_that_costs_plays_the_penalty_and_shows_why():
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"}, misplay=2)
    evs = act(h, "pad Y1")
    assert [e[0] for e in evs][:2] == [REJECT, PENALTY]
    assert tune(h) == "penalty" and note(h) == "not your turn"


def test_a_refused_take_back_says_it_reaches_too_far():
    h = hub()
    evs = act(h, "undo")
    assert evs == [(REJECT, R_UNDO_PAST, 0, -1)] and tune(h) == "rejected"
    assert note(h) == "too far back"


def test_the_reason_shows_over_the_logs_standing_warning():
    """The log's warning stays all evening; the reason is there a few seconds, then the
    warning again."""
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    h.flash = (90, 100)
    h.show()
    assert h.notice() == "log 90% full - sync soon"
    act(h, "pad Y1")
    assert h.notice() == "not your turn"
    h.board.clock += WHY_MS
    h.housekeeping()
    assert h.notice() == "log 90% full - sync soon"


def test_a_take_backs_card_shows_over_the_logs_standing_warning():
    """Which card goes back where is needed now, once; the log's warning stays all evening and
    comes back with the next input."""
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    h.flash = (90, 100)
    h.damage = 1
    act(h, "pad R2")
    act(h, "undo")
    assert h.notice() == h.back and "R2" in h.notice()
    act(h, "pad R2")
    assert h.notice() == "LOG DAMAGED - sync, see status"
