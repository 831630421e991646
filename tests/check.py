"""Tiny assertion helpers that work under CPython and MicroPython alike (no pytest needed)."""


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc as e:
        return e
    raise AssertionError("%s not raised" % exc.__name__)
