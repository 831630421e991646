"""A take-back on a board without the heap to load its rebuild (uno/rebuild.py) is refused
before the hub logs it: a recovery, with the heap, would otherwise take back what the table
refused (issue 10: heap)."""
import builtins

from uno.events import REJECT, R_NO_ROOM, UNDO
from test_referee_output import act, deal, note, tune

_import = builtins.__import__


def _no_heap_for_the_rebuild(name, *args):
    if name == "uno.rebuild" or name == "uno" and len(args) > 2 and args[2] and \
            "rebuild" in args[2]:
        raise MemoryError("memory allocation failed (a test's)")
    return _import(name, *args)


def test_a_take_back_with_no_room_for_its_code_is_refused_and_not_logged():
    h = deal({1: "R2 R3 R4", 2: "G5 B7 B8", 3: "Y1 Y2 Y3"})
    act(h, "pad R2")
    seq = h.seq
    assert h.table.back.rebuild is None  # no take-back yet: not loaded
    builtins.__import__ = _no_heap_for_the_rebuild
    try:
        evs = act(h, "undo")
    finally:
        builtins.__import__ = _import
    assert evs == [(REJECT, R_NO_ROOM, 0, -1)] and h.seq == seq  # not logged
    assert tune(h) == "rejected" and note(h) == "no room to undo"
    assert len(h.table.hands[1]) == 2  # R2 still played
    evs = act(h, "undo")  # the heap back: taken back, and logged
    assert evs[0] == (UNDO, 1) and h.seq == seq + 1 and len(h.table.hands[1]) == 3
