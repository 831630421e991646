"""hub/esp32.py: the take-back press on the table (red and blue held together 3 s)."""
from esp32kit import Rig
from board import pins
from uno.events import IN_COLOUR, IN_UNDO


RED, BLUE = pins.COLOUR_BUTTON_BITS[0], pins.COLOUR_BUTTON_BITS[3]


def _hold_both(r, *spans):
    # red and blue pressed together, held for the spans (ms) in turn, then let go
    r.spin(20)
    r.press(RED)
    r.press(BLUE)
    for ms in spans[:-1]:
        r.spin(ms)
        yield
    r.spin(spans[-1])
    r.release(RED)
    r.release(BLUE)
    r.spin(60)


def test_red_and_blue_held_3_s_take_back_the_last_input():
    r = Rig()
    for _ in _hold_both(r, 2900, 200):
        assert r.take() == []         # neither colour's own long press
    assert r.take() == [(IN_UNDO, 1)]


def test_a_short_press_of_both_is_nothing():
    r = Rig()
    for _ in _hold_both(r, 500):
        pass
    r.press(RED)
    r.spin(60)
    r.release(RED)
    r.spin(60)
    assert r.take() == [(IN_COLOUR, 0, 0)]
