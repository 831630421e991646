"""The host Link over pyserial against a fake table: `micropython` running LinkServer with a
fake hub (tests/link/fakedev.py) on a real pseudo-terminal, with faults injected on the line."""
import os
import subprocess
import sys
import time
import tty
from contextlib import contextmanager

import pytest

from linkkit import random_records, registry, deck_uids, top
from unotable.link import (Link, LinkError, NoAnswer, DeviceGone, Refused, VersionMismatch,
                           PortError, Gap)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
FAKEDEV = os.path.join(ROOT, "tests", "link", "fakedev.py")
RAW = random_records(300, 11, gaps=True)      # what fakedev.py logs by default
LOG = [Gap(*r) if len(r) == 3 else r for r in RAW]   # as sync_records gives it back


@contextmanager
def table(*opts, timeout=0.3, retries=3):
    """A Link on a pty whose other end is a micropython fake table started with opts."""
    m, s = os.openpty()
    tty.setraw(s)                   # before anything is written: no echo, no \n -> \r\n
    link = Link.open(os.ttyname(s), timeout=timeout, retries=retries)  # opening flushes input
    env = dict(os.environ, MICROPYPATH="%s/firmware:%s/tests/link:.frozen" % (ROOT, ROOT))
    p = subprocess.Popen([MICROPYTHON, FAKEDEV] + list(opts), stdin=m, stdout=m,
                         stderr=subprocess.PIPE, env=env)
    os.close(m)
    os.close(s)
    try:
        yield link
    finally:
        link.close()
        p.kill()
        err = p.communicate()[1]
        assert b"Traceback" not in err, err.decode()


def started(link):
    """Waits for the device to be up (first request, generous timeout)."""
    return link.hello(timeout=3.0)


def test_hello_status_and_a_full_sync():
    with table() as link:
        h = started(link)
        assert h["proto"] == 1 and h["board"] == "fake-hub" and h["max"] == 1024
        assert link.status()["next_seq"] == top(RAW) + 1
        got = list(link.sync_records(1))
        assert got == LOG and any(isinstance(r, Gap) for r in got)
        seq, h, mac = link.heads[-1]
        assert len(link.heads) == 1 and seq == RAW[-1][0] and len(h) == len(mac) == 64
        assert link.registry is not None          # fetched when the first batch named cards
        assert link.stats["retries"] == 0


def test_sync_without_a_registry_on_the_table():
    with table("noreg") as link:
        started(link)
        assert list(link.sync_records(1)) == LOG and link.registry is None


def test_noise_echo_and_stale_answers_in_between_are_ignored():
    with table("noise", "echo") as link:
        started(link)
        assert list(link.sync_records(1, max_bytes=200)) == LOG
        assert link.stats["retries"] == 0
        assert link.stats["noise"] > 0 and link.stats["discarded"] > 0 and link.stats["echo"] > 0


def test_a_corrupted_answer_is_asked_again():
    with table("corrupt=2", timeout=2.0) as link:
        started(link)
        t0 = time.monotonic()
        assert link.status()["phase"] == "lobby"
        assert time.monotonic() - t0 < 1.5        # retried at once, not after the timeout
        assert link.stats["corrupt"] == 1 and link.stats["retries"] == 1


def test_an_oversized_line_is_dropped_and_asked_again():
    with table("oversize=2") as link:
        started(link)
        assert link.status()["phase"] == "lobby"
        assert link.stats["corrupt"] == 1 and link.stats["retries"] == 1


def test_a_lost_answer_is_asked_again_after_the_timeout_and_done_once():
    with table("silent=2", timeout=0.2) as link:
        started(link)
        assert link.set_rule("stacking", "on") is None
        assert link.stats["retries"] == 1


def test_no_answer_says_what_to_do():
    with table("silent=all", timeout=0.1, retries=3) as link:
        t0 = time.monotonic()
        with pytest.raises(NoAnswer) as e:
            link.status()
        assert time.monotonic() - t0 < 2.0        # 3 tries of 0.1 s (a loaded machine: more)
        msg = str(e.value)
        assert "no answer from %s" % link.port in msg and "after 3 tries" in msg
        assert "unotable status --port" in msg


def at_prompt(link, wait=10.0):
    """Waits for the fake board's prompt (its start, on a loaded machine, can take longer than
    the short timeouts the test gives the link)."""
    end = time.monotonic() + wait
    got = b""
    while b">>> " not in got and time.monotonic() < end:
        got += link.ser.read(64)
    assert b">>> " in got, got


def test_a_board_at_the_repl_prompt_is_recognised():
    with table("silent=all", "echo", timeout=0.1, retries=2) as link:
        at_prompt(link)
        with pytest.raises(NoAnswer) as e:
            link.status()
        assert "MicroPython prompt" in str(e.value)


def test_the_tables_refusal_is_a_clear_error():
    with table() as link:
        started(link)
        with pytest.raises(Refused) as e:
            link.set_rule("nonsense", 3)
        assert "refused `rule`: no rule 'nonsense'" in str(e.value)


def test_another_protocol_version_is_named():
    with table("version=2") as link:
        with pytest.raises(VersionMismatch) as e:
            link.hello(timeout=3.0)
        assert e.value.version == 2 and "protocol 2" in str(e.value)
        assert "unotable deploy" in str(e.value)


def test_a_device_that_exits_mid_request_is_a_clear_error_not_a_hang():
    with table("exit=2", timeout=1.0) as link:
        started(link)
        t0 = time.monotonic()
        with pytest.raises(DeviceGone) as e:
            for _ in range(5):
                link.status()
        assert time.monotonic() - t0 < 1.5
        assert "lost %s" % link.port in str(e.value) and "resumes" in str(e.value)
        with pytest.raises(LinkError):            # and it stays an error, not a traceback
            link.status()


def test_sync_resumes_after_a_cut():
    stored = []
    with table("exit=4") as link:                 # hello, records, records, then the cut
        started(link)
        link.registry = registry()                # the host already holds the hub's deck
        with pytest.raises(DeviceGone):
            for r in link.sync_records(1, max_bytes=300):
                stored.append(r)
    assert 0 < len(stored) < len(LOG)
    with table() as link:                         # reconnected: ask from the next seq
        started(link)
        last = stored[-1]
        stored.extend(link.sync_records((last.last if isinstance(last, Gap) else last[0]) + 1,
                                        max_bytes=300))
    assert stored == LOG


def test_registry_upload_then_sync_uses_it_and_ack_prunes():
    with table("noreg") as link:
        started(link)
        reg = link.upload_registry(deck_uids(salt=3))
        assert [reg.uid(i) for i in range(108)] == deck_uids(salt=3)
        link.registry = None
        assert link.fetch_registry().uid(107) == deck_uids(salt=3)[107]
        with pytest.raises(Refused) as e:           # nothing sent yet
            link.ack(RAW[149][0])
        assert "sync first" in str(e.value)
        list(link.sync_records(1, max_bytes=300))
        assert link.received == top(RAW)
        assert link.ack(RAW[149][0]) == 150
        assert list(link.sync_records(1)) == LOG[150:]
        assert link.set_clock(1750000000) is None
        assert link.enroll(True) == {"enrolled": 0}


def test_pair_undo_and_repl():
    with table() as link:
        started(link)
        assert link.pair() == {"id": "00112233445566ff", "key": "ab" * 32}
        with pytest.raises(Refused):
            link.pair()
        assert link.undo(2) is None
        assert link.repl() == {"repl_ms": 10000}


def test_opening_a_missing_port_says_what_to_do():
    with pytest.raises(PortError) as e:
        Link.open("/dev/does-not-exist-uno")
    assert "cannot open /dev/does-not-exist-uno" in str(e.value)
    assert "unotable ports" in str(e.value)


def test_open_leaves_dtr_and_rts_low():
    m, s = os.openpty()
    tty.setraw(s)
    try:
        link = Link.open(os.ttyname(s))
        assert link.ser.dtr is False and link.ser.rts is False
        link.close()
    finally:
        os.close(m)
        os.close(s)
