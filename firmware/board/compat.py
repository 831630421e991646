"""MicroPython's time.ticks_ms / ticks_add / ticks_diff / sleep_ms, with CPython stand-ins: the board code
also runs under CPython in the tests. The stand-ins wrap like the ESP32's 30-bit ticks counter.
On MicroPython this module only re-exports time's own functions (nothing else on the heap)."""
try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time

    def ticks_add(ticks, delta):
        return (ticks + delta) & ((1 << 30) - 1)

    def ticks_diff(ticks1, ticks2):  # type: ignore[no-redef]
        return ((ticks1 - ticks2 + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)

    def ticks_ms():
        return int(getattr(time, "monotonic")() * 1000) & ((1 << 30) - 1)

    def sleep_ms(ms):
        time.sleep(ms / 1000)
