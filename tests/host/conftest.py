"""Fixtures shared by the tests of the simulated table."""
import pytest

from unotable import sim


@pytest.fixture(scope="session")
def code(tmp_path_factory):
    """The firmware compiled once for every test of the simulated table, as it is deployed."""
    out = str(tmp_path_factory.mktemp("mpy"))
    sim.compile_firmware(out)
    return out
