"""Several host programs on one table's port at once (issue 11, point 1): `monitor`, `status`
and `sync` run side by side against a simulated table that keeps playing. None of them dies,
none takes another's answer, and the game goes on. Real processes on the pseudo-terminal, as
a user would start them in three terminals."""
import json
import os
import re
import subprocess
import sys
import threading
import time

import pytest

from unotable import sim
from unotable.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "examples", "round-10p.jsonl")
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))


def unotable(*argv):
    """The command as a user runs it (this tree's code), in a process of its own."""
    return subprocess.Popen([sys.executable, "-m", "unotable.cli", *argv], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(p, timeout=60):
    out, err = p.communicate(timeout=timeout)
    assert "Traceback" not in out + err, err
    return p.returncode, out, err


def test_monitor_status_and_sync_take_turns_on_the_port_of_a_table_that_plays_on(code,
                                                                                tmp_path):
    table = sim.SimTable(SCRIPT, pace=60, code=code, log=str(tmp_path / "log"))
    try:
        assert table.status() is not None
        table.link.close()          # the port is the host programs'
        port = table.port
        # one host database, as when both use the default: they take turns there too
        mon_db = sync_db = str(tmp_path / "night.sqlite3")
        monitor = unotable("monitor", "-p", port, "--db", mon_db, "--every", "0.1",
                           "--count", "40")
        seq0 = table.status()["seq"]
        statuses, syncs = 0, 0
        while monitor.poll() is None and (statuses < 3 or syncs < 3):
            c, out, err = finished(unotable("status", "--json", "-p", port))
            assert c == 0, err
            d = json.loads(out)             # its own answers: a hello and a status
            assert d["hello"]["board"] == "sim" and "next_seq" in d["status"]
            statuses += 1
            c, out, err = finished(unotable("sync", "-p", port, "--db", sync_db))
            assert c == 0, err
            assert "stored" in out
            syncs += 1
        c, out, err = finished(monitor, 120)
        assert c == 0, err
        assert statuses >= 2 and syncs >= 2, (statuses, syncs)
        seqs = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)  ", out, re.M)]
        assert len(seqs) >= 40 and seqs == sorted(set(seqs)), out    # each once, in order
        assert table.running(), table.close()
        s = table.status()
        assert s is not None and s["seq"] > seq0          # the game went on
        c, out, err = finished(unotable("sync", "-p", port, "--db", sync_db))
        assert c == 0, err
        check = str(tmp_path / "check.sqlite3")         # the table's log, fetched alone
        c, out, err = finished(unotable("sync", "-p", port, "--db", check))
        assert c == 0, err
        with Store(sync_db) as db, Store(check) as alone:
            tid = db.tables()[0]["id"]
            held = _inputs(alone, tid)
            got = _inputs(db, tid)
            assert got == held[:len(got)] and len(got) >= 40     # each once, as the table has it
        thief = threading.Thread(target=_steal, args=(port, 2.0))   # a terminal left open
        thief.start()
        c, out, err = finished(unotable("status", "-p", port, "--timeout", "0.2"))
        thief.join()
        if c:                       # it may win the race for its answers: else it says why
            assert c == 2 and len(err.strip().splitlines()) == 1, err
            # the thief's reads were seen: named; it took every byte: nothing to tell it by
            assert "reading the port" in err or "no answer from" in err, err
        assert table.running() and table.status() is not None    # the table did not mind
    finally:
        table.close()


def _steal(port, seconds):
    """A program that reads the port and does not take turns (screen, a terminal)."""
    fd = os.open(port, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            try:
                os.read(fd, 4096)
            except BlockingIOError:
                time.sleep(0.002)
    finally:
        os.close(fd)


def _inputs(db, tid):
    return list(db.db.execute("SELECT seq, t, line FROM inputs WHERE table_id = ? ORDER BY seq",
                              (tid,)))


def test_a_port_kept_too_long_by_another_program_is_busy_and_nothing_is_sent(monkeypatch):
    import fcntl
    from unotable import link as linkmod
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        other = os.open(port, os.O_RDWR | os.O_NOCTTY)
        fcntl.flock(other, fcntl.LOCK_EX)            # mpremote, or a long request elsewhere
        monkeypatch.setattr(linkmod, "TURN", 0.2)
        with linkmod.Link.open(port, timeout=0.1, retries=1) as link:
            try:
                link.status()
                raise AssertionError("a busy port answered")
            except linkmod.PortBusy as e:
                assert "is busy" in str(e) and "Nothing was sent" in str(e)
            os.set_blocking(master, False)
            try:
                assert os.read(master, 100) == b""
            except BlockingIOError:
                pass                                     # nothing came: nothing was sent
            fcntl.flock(other, fcntl.LOCK_UN)            # its turn is over: ours comes
            with pytest.raises(linkmod.NoAnswer):
                link.status()
        os.close(other)
    finally:
        os.close(master)
        os.close(slave)
