"""A take-back on a board without the heap to load its rebuild (uno/rebuild.py) is refused
before the hub logs it: a recovery, with the heap, would otherwise take back what the table
refused (issue 10: heap)."""
import builtins

import logkit
from hub.app import Hub
from uno.cards import name
from uno.events import REJECT, R_NO_ROOM, UNDO
from uno.state import snapshot as state
from test_referee_output import act, board, deal, note, tune

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


def _a_logged_take_back():
    """A hub whose log holds a take-back (R2 played, taken back); the log's path."""
    path = logkit.fresh()
    h = Hub(board(), logkit.log(path))
    h.start({"hand_size": 3, "first_dealer": 3})
    for s in (1, 2, 3):
        act(h, "seat %d" % s)
    act(h, "shuffle")
    hands = ("R2 R3 R4".split(), "G5 B7 B8".split(), "Y1 Y2 Y3".split())
    for k in range(9):
        act(h, "shoe " + hands[h.table.drawer() - 1][k // 3])
    act(h, "shoe R5")
    act(h, "pad R2")
    assert act(h, "undo")[0] == (UNDO, 1)
    act(h, "pad R3")
    h.log.close()
    return path, state(h.table)


def _boot(path, fails):
    """The hub again on that log, the rebuild's import failing `fails` times."""
    left = [fails]

    def short(name, *args):
        if left[0] and (name == "uno.rebuild" or name == "uno" and len(args) > 2 and args[2]
                        and "rebuild" in args[2]):
            left[0] -= 1
            raise MemoryError("memory allocation failed (a test's)")
        return _import(name, *args)
    builtins.__import__ = short
    try:
        h = Hub(board(), logkit.log(path))
        h.start()
    finally:
        builtins.__import__ = _import
    return h


def test_a_logged_take_back_is_replayed_at_boot_after_a_collection():
    """The take-back's code did not fit at first while the log replayed: after a collection
    it does, and the table is the one that answered before the boot."""
    path, before = _a_logged_take_back()
    h = _boot(path, 1)
    assert h.fault is None and state(h.table) == before
    assert h.notice() != "TAKE-BACK LOST - see status"


def test_a_logged_take_back_that_cannot_be_replayed_is_said_and_the_table_plays_on():
    """No heap for the take-back's code even collected: the table refuses it at the replay,
    so it is not the one that answered before; it says so (the log is whole: the host's
    verify and a restart replay it) and plays on."""
    path, before = _a_logged_take_back()
    h = _boot(path, 99)  # (the replay asks again, as any take-back: refused)
    assert h.fault.startswith("recovery: no memory to take back, input ")
    assert h.notice() == "TAKE-BACK LOST - see status"
    assert tune(h) == "damaged" and state(h.table) != before
    n = h.seq
    act(h, "seat 2")  # a press: judged and logged
    assert h.seq == n + 1
    again = _boot(path, 0)  # with the heap: R2 back in seat 1's hand, R3 played, no fault
    assert again.fault is None and sorted(name(c) for c in again.table.hands[1]) == ["R2", "R4"]
