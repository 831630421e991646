"""MicroPython's time.ticks_ms / ticks_diff / sleep_ms, with CPython stand-ins: the board code
also runs under CPython in the tests. The stand-ins wrap like the ESP32's 30-bit ticks counter."""
import time

_PERIOD = 1 << 30
_HALF = 1 << 29


def _ticks_diff(ticks1, ticks2):
    return ((ticks1 - ticks2 + _HALF) & (_PERIOD - 1)) - _HALF


def _ticks_ms():
    return int(getattr(time, "monotonic")() * 1000) & (_PERIOD - 1)  # CPython only


def _sleep_ms(ms):
    time.sleep(ms / 1000)


ticks_diff = getattr(time, "ticks_diff", _ticks_diff)
ticks_ms = getattr(time, "ticks_ms", _ticks_ms)
sleep_ms = getattr(time, "sleep_ms", _sleep_ms)
