"""board.compat: the ticks functions the board code uses, the same under both interpreters."""
from board import compat


def test_ticks_diff_wraps_like_the_esp32_counter():
    assert compat._ticks_diff(5, 3) == 2 and compat._ticks_diff(3, 5) == -2
    top = (1 << 30) - 1
    assert compat._ticks_diff(2, top - 2) == 5  # across the wrap
    assert compat._ticks_diff(top - 2, 2) == -5


def test_ticks_ms_and_sleep_ms_move_forward():
    t0 = compat.ticks_ms()
    compat.sleep_ms(3)
    d = compat.ticks_diff(compat.ticks_ms(), t0)
    assert 2 <= d < 1000, d
    if hasattr(compat.time, "monotonic"):  # CPython: the stand-ins themselves
        t0 = compat._ticks_ms()
        compat._sleep_ms(2)
        assert 1 <= compat._ticks_diff(compat._ticks_ms(), t0) < 1000
