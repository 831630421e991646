"""board.compat: the ticks functions the board code uses, the same under both interpreters."""
import time

from board import compat


def test_ticks_diff_wraps_like_the_board_counter():
    assert compat.ticks_diff(5, 3) == 2 and compat.ticks_diff(3, 5) == -2
    if hasattr(time, "ticks_add"):  # MicroPython: the port's own period
        top = time.ticks_add(0, -1)
    else:  # CPython: the stand-in wraps like the ESP32
        top = (1 << 30) - 1
    assert compat.ticks_diff(2, top - 2) == 5  # across the wrap
    assert compat.ticks_diff(top - 2, 2) == -5


def test_ticks_ms_and_sleep_ms_move_forward():
    t0 = compat.ticks_ms()
    compat.sleep_ms(3)
    d = compat.ticks_diff(compat.ticks_ms(), t0)
    assert 2 <= d < 1000, d


def test_on_micropython_they_are_times_own():
    if hasattr(time, "ticks_ms"):
        assert compat.ticks_ms is time.ticks_ms and compat.ticks_diff is time.ticks_diff
        assert compat.sleep_ms is time.sleep_ms
