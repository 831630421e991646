"""LinkServer at its edges (issue 8, "Tests that would notice"): registry chunks at their
bounds and in any order, messages exact, only changing verbs cached, ack before any sync."""
import json
from binascii import b2a_base64

from linkkit import FakeHub, registry, deck_uids, random_records
from link import frame as fr
from link.server import chunks, chunk_uids
from test_server import Client


def _reg(c, b):
    return c.ask("registry", b2a_base64(bytes(b), newline=False))


def test_registry_chunks_need_not_start_at_card_0_and_card_0_starts_anew():
    hub = FakeHub(reg=None)
    c = Client(hub)
    uids = deck_uids(salt=3)
    parts = chunks(uids)
    have = []
    for k in (1, 2, 3, 0, 1, 2, 3):       # the first frame sent is not card 0's
        st, p = _reg(c, parts[k])
        assert st == fr.OK, p
        have.append(json.loads(p)["have"])
    # card 0's chunk starts a new upload: what was pending is dropped
    assert have == [27, 54, 81, 27, 54, 81, 108]
    assert [hub.reg.uid(i) for i in range(108)] == uids


def test_registry_chunks_at_their_bounds():
    hub = FakeHub(reg=registry())
    c = Client(hub)
    # the last card index is 107: a chunk at 108 is out of range, even an empty one
    st, p = _reg(c, (108, 0))
    assert st == fr.ERR and p == b"registry chunk out of range", p
    st, p = _reg(c, (107, 0))
    assert st == fr.OK and chunk_uids(__import__("binascii").a2b_base64(p)) == (
        107, [hub.reg.uid(107)])
    st, p = _reg(c, (100, 9))
    assert st == fr.ERR and p == b"registry chunk out of range", p
    assert chunk_uids(bytes((27, 0))) == (27, [])


def test_a_bad_uid_in_a_chunk_names_its_card_and_drops_the_upload():
    hub = FakeHub(reg=None)
    c = Client(hub)
    parts = chunks(deck_uids())
    assert _reg(c, parts[0])[0] == fr.OK
    short = bytearray(parts[1][:2 + 8 * 5])      # 5 whole UIDs (7 bytes + length), then none
    st, p = _reg(c, short)
    assert st == fr.ERR and p == b"bad UID in registry chunk at card 32", p
    runs = bytearray(parts[1][:2 + 8 * 5 + 4])   # the 6th UID's length runs past the end
    st, p = _reg(c, runs)
    assert st == fr.ERR and p == b"bad UID in registry chunk at card 32", p
    # the upload was dropped: card 27's chunk now counts alone
    st, p = _reg(c, parts[1])
    assert st == fr.OK and json.loads(p)["have"] == 27, p


def test_only_verbs_that_change_the_hub_are_answered_from_the_cache():
    hub = FakeHub(reg=registry())
    c = Client(hub)
    st, p = c.ask("status", b"", rid=7)
    assert json.loads(p)["enrolling"] is False
    hub.enrolling = True
    st, p = c.ask("status", b"", rid=7)              # the same id again: asked anew
    assert json.loads(p)["enrolling"] is True
    assert hub.calls.count("status") == 2


def test_ack_before_any_records_answer_is_refused():
    hub = FakeHub(reg=registry())
    c = Client(hub)
    st, p = c.ask("ack", {"upto": 1})
    assert st == fr.ERR and b"sync first" in p and hub.pruned == 0


def test_selftest_passes_its_flags_through():
    class Hub(FakeHub):
        def selftest(self, start, press_ms, quick, frm):
            self.calls.append(("selftest", start, press_ms, quick, frm))
            return {"lines": []}
    hub = Hub(reg=registry())
    c = Client(hub)
    c.ok("selftest", {"start": True, "press_ms": 40, "quick": True, "from": 3})
    c.ok("selftest", {"from": 1})
    c.ok("selftest", {"start": 1, "quick": "yes"})      # only true is true
    assert [x for x in hub.calls if x[0] == "selftest"] == [
        ("selftest", True, 40, True, 3), ("selftest", False, 0, False, 1),
        ("selftest", False, 0, False, 0)]


class _Clocks:
    """A table whose only optional verb is `clocks`: it says what it was asked, or fails."""

    def __init__(self, fail=None):
        self.fail = fail

    def clocks(self, frm):
        if self.fail:
            raise self.fail
        return {"from": frm}


def test_clocks_start_from_seq_1_unless_asked():
    c = Client(_Clocks())
    assert json.loads(c.ok("clocks")) == {"from": 1}
    assert json.loads(c.ok("clocks", {"from": 40})) == {"from": 40}
    st, p = c.ask("clocks", {"from": "40"})
    assert st == fr.ERR and p == b"from must be an integer", p
    st, p = Client(FakeHub()).ask("clocks")
    assert st == fr.ERR and p == b"this table does not do `clocks`", p


def test_an_error_message_is_cut_to_200_characters_of_printable_ascii():
    for e in (ValueError("\u540d" + "x" * 500), RuntimeError("\x07bell")):
        st, p = Client(_Clocks(e)).ask("clocks")       # (Client checks every byte printable)
        assert st == fr.ERR and fr.printable(p), p
        if isinstance(e, ValueError):
            assert p == b"\\u540d" + b"x" * 199, p
        else:
            assert p == b"RuntimeError: ?bell", p


def test_a_downloaded_chunk_cut_short_is_refused():
    good = chunks(deck_uids())[0]
    assert chunk_uids(good)[1] == deck_uids()[:27]
    for cut in (0, 1, 2, 3, 10, len(good) - 1):
        try:
            chunk_uids(good[:cut])
        except ValueError as e:
            assert str(e) == ("registry chunk too short" if cut < 2 else
                              "registry chunk truncated"), (cut, e)
        else:
            raise AssertionError(cut)


def test_records_without_a_tag_sync_whole():
    # a handler may give (seq, t, wall, input) without a tag: where tags travel, none is sent
    log = [r[:4] for r in random_records(60, 4)]
    c = Client(FakeHub(log, registry()))
    got, rounds = c.sync(mx=200)
    assert rounds > 1 and [r[:4] for r in got] == log and all(r[4] is None for r in got)


def test_a_uid_of_10_bytes_packs_and_one_of_none_or_11_is_refused():
    uids = deck_uids()
    uids[5] = b"\x01" * 10
    assert chunk_uids(chunks(uids)[0])[1][5] == b"\x01" * 10
    for bad in (b"", b"\x01" * 11):
        uids[5] = bad
        try:
            chunks(uids)
        except ValueError as e:
            assert str(e) == "a UID has 1 to 10 bytes: card 5", e
        else:
            raise AssertionError(bad)


class _Tight(FakeHub):
    """A hub whose first read of its log runs out of memory (a fragmented heap)."""

    def __init__(self):
        FakeHub.__init__(self, reg=registry())
        self.failed = 0

    def records(self, seq):
        if not self.failed:
            self.failed += 1
            raise MemoryError
        return FakeHub.records(self, seq)


def test_records_that_run_out_of_memory_once_are_read_again_after_a_collect():
    c = Client(_Tight())
    got, rounds = c.sync()
    assert c.hub.failed == 1 and got == c.hub.log
