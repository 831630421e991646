"""A test that cannot run on this interpreter says so instead of passing without checking.

Under pytest it is reported skipped (with its reason, in the summary); under tests/mprun.py
(micropython), which has no skip, a SKIP line is printed. Each such test runs on the other
interpreter in `make test` (the reason says where).
"""


def skip(why):
    try:
        import pytest
    except ImportError:
        print("SKIP: " + why)
        return
    pytest.skip(why)
