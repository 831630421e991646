"""The take-back's rebuild (uno/rebuild.py) is loaded at the first take-back, not at boot; a
board drops it again at a segment's start with no copies in doubt; a board with no heap left to
load it refuses the take-back (R_NO_ROOM) and changes nothing (issue 10: heap)."""
import builtins
import sys

from uno.events import IN_SHOE, IN_UNDO, REJECT, R_NO_ROOM
from uno.state import snapshot
from kit import act, deal, names
from test_takeback_twins import _drew_and_took_back, _read, doubted

_HOST = sys.implementation.name != "micropython"


def _played():
    t = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    assert names(act(t, "pad R1")) == ["play", "uno_open", "turn"]
    return t


def _no_heap_for_the_rebuild(name, *args):
    if name == "uno.rebuild" or name == "uno" and len(args) > 2 and args[2] and \
            "rebuild" in args[2]:
        raise MemoryError("memory allocation failed (a test's)")
    return _import(name, *args)


_import = builtins.__import__


def test_takeback_rebuild_is_loaded_at_the_first_take_back():
    t = _played()
    assert t.back.rebuild is None  # a round with no take-back never loads it
    assert names(act(t, "undo")) == ["undo", "card_back", "uno_close", "turn"]
    assert t.back.rebuild is not None and t.back.rebuild.__name__ == "uno.rebuild"


def test_takeback_refused_with_nothing_changed_when_the_rebuild_finds_no_heap():
    t = _played()
    before = snapshot(t)
    log = (t.back.n, list(t.back.log[:t.back.n]), t.back.start, t.back.prev)
    builtins.__import__ = _no_heap_for_the_rebuild
    try:
        evs = list(t.feed((IN_UNDO, 1)))
    finally:
        builtins.__import__ = _import
    assert evs == [(REJECT, R_NO_ROOM, 0, -1)]
    assert snapshot(t) == before and t.back.rebuild is None
    assert (t.back.n, list(t.back.log[:t.back.n]), t.back.start, t.back.prev) == log
    # with the heap back, the same take-back goes as if the first had never come
    assert names(act(t, "undo")) == ["undo", "card_back", "uno_close", "turn"]
    u = deal({1: "R1 R2", 2: "G5 B7"}, start="R5")
    assert snapshot(t) == snapshot(u)


def test_takeback_refused_for_heap_logs_its_time_as_any_refusal():
    t = _played()
    n = t.back.n
    builtins.__import__ = _no_heap_for_the_rebuild
    try:
        evs = list(t.feed((IN_UNDO, 1), 5000))
    finally:
        builtins.__import__ = _import
    # its time only, as R_UNDO_PAST's: a later take-back counts accepted inputs, not it
    assert evs == [(REJECT, R_NO_ROOM, 0, -1)] and t.back.n > n and t.clock == 5000
    assert names(list(t.feed((IN_UNDO, 1), 6000))) == ["undo", "card_back", "uno_close", "turn"]
    assert len(t.hands[1]) == 2


def test_takeback_rebuild_goes_at_a_round_end_with_no_copies_in_doubt():
    t = _played()
    act(t, "undo", "pad R1", "shoe Y9")  # seat 2 draws what fits nothing: seat 1's turn
    assert t.back.rebuild is not None and t.doubt == []
    assert names(act(t, "pad R2"))[:2] == ["play", "round_over"]
    if _HOST:  # the host keeps it (no heap to win; an import a round would cost replays time)
        assert t.back.rebuild is not None
    else:  # the board: its heap back until the next take-back
        assert t.back.rebuild is None and "uno.rebuild" not in sys.modules
        import uno
        assert "rebuild" not in uno.__dict__
    act(t, "shuffle")
    assert t.back.rebuild is None or _HOST
    assert names(act(t, "undo"))[0] == "undo"  # the shuffle taken back: loaded again
    assert t.back.rebuild is not None


def test_takeback_rebuild_stays_while_copies_are_in_doubt():
    # a segment's start with a pair still in doubt keeps it: twin() needs it, and a state
    # loaded from the table's snapshot has no pairs (state.load starts with none)
    t = _drew_and_took_back()
    rebuild = t.back.rebuild
    t.back.mark()
    assert t.back.rebuild is rebuild and doubted(t)
    assert names(_read(t, IN_SHOE, "R1a"))[0] == "twins"
