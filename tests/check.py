"""Tiny assertion helpers that work under CPython and MicroPython alike (no pytest needed)."""


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc as e:
        return e
    raise AssertionError("%s not raised" % exc.__name__)


def skip(why):
    """A test that cannot run on this interpreter says so instead of passing without checking:
    reported skipped under pytest; a SKIP line under tests/mprun.py (micropython has no skip).
    The reason says where it runs in `make test`."""
    try:
        import pytest
    except ImportError:
        print("SKIP: " + why)
        return
    pytest.skip(why)
