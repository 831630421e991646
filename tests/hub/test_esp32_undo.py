"""hub/esp32.py: the take-back press on the table (red and blue held together 3 s)."""
from esp32kit import Rig
from board import pins
from uno.events import IN_COLOUR, IN_UNDO


def test_red_and_blue_held_3_s_take_back_the_last_input():
    r = Rig()
    r.spin(20)
    red, blue = pins.COLOUR_BUTTON_BITS[0], pins.COLOUR_BUTTON_BITS[3]
    r.press(red)
    r.press(blue)
    r.spin(2900)
    assert r.take() == []             # neither colour's own long press
    r.spin(200)
    r.release(red)
    r.release(blue)
    r.spin(60)
    assert r.take() == [(IN_UNDO, 1)]


def test_a_short_press_of_both_is_nothing():
    r = Rig()
    r.spin(20)
    red, blue = pins.COLOUR_BUTTON_BITS[0], pins.COLOUR_BUTTON_BITS[3]
    r.press(red)
    r.press(blue)
    r.spin(500)
    r.release(red)
    r.release(blue)
    r.spin(60)
    r.press(red)
    r.spin(60)
    r.release(red)
    r.spin(60)
    assert r.take() == [(IN_COLOUR, 0, 0)]
