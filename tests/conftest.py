"""Test files import their siblings by bare name (as tests/mprun.py lets them under MicroPython)."""
import os
import sys

_here = os.path.dirname(__file__)
for _d in sorted(os.listdir(_here)):
    if os.path.isdir(os.path.join(_here, _d)) and not _d.startswith(("_", ".")):
        sys.path.insert(0, os.path.join(_here, _d))
