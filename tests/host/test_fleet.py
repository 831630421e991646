"""Several tables at once (issue 12): sync, status and monitor --all over simulated tables on
pseudo-terminals, with one table that dies mid-sync, one port where no table answers, and a
database another program holds locked."""
import json
import os
import signal
import sqlite3
import threading
import time

import pytest

from unotable import commands, fleet, sim
from unotable.cli import main
from unotable.link import Link
from unotable.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples")
SCRIPTS = ["round-4p.jsonl", "round-2p.jsonl", "party-4p.jsonl", "round-10p.jsonl"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def played(table):
    end = time.monotonic() + 60
    while True:
        s = table.status()
        if s and s["board"]["script_done"]:
            return s
        assert time.monotonic() < end, "the script never finished"
        time.sleep(0.05)


@pytest.fixture
def room(code, monkeypatch):
    """Four simulated tables that played their scripts, and a port where nothing answers; the
    fleet sees exactly these (no board plugged in)."""
    tables = [sim.SimTable(os.path.join(EX, s), pace=0, code=code) for s in SCRIPTS]
    master, slave = os.openpty()
    mute = os.ttyname(slave)
    try:
        said = [played(t) for t in tables]
        for t in tables:
            t.link.close()
        monkeypatch.setattr(commands, "likely_boards", lambda: [])
        monkeypatch.setattr(sim, "running", lambda: [{"port": t.port} for t in tables] +
                            [{"port": mute}])
        yield tables, said, mute
    finally:
        for t in tables:
            t.close()
        os.close(master)
        os.close(slave)


def lines_of(out, name):
    """The lines of one table: each starts with its name (its label, or its id)."""
    return [x for x in out.splitlines() if x.startswith(name + ": ") or
            x.startswith(name + " (")]


def test_sync_all_while_one_table_dies_mid_sync_and_one_port_is_mute(room, tmp_path, capsys,
                                                                     monkeypatch):
    tables, said, mute = room
    db = str(tmp_path / "night.sqlite3")
    victim = tables[3]                     # the 10-seat round: long enough to die half-way
    real = Link.sync_records

    def dying(self, from_seq=1, max_bytes=0, head=None):
        small = 200 if self.port == victim.port else max_bytes
        for i, r in enumerate(real(self, from_seq, small, head)):
            if i == 60 and self.port == victim.port:
                os.kill(victim.proc.pid, signal.SIGKILL)     # the table goes, for real
                victim.proc.wait()
            yield r
    monkeypatch.setattr(Link, "sync_records", dying)
    c, out, err = run(capsys, "sync", "--all", "--timeout", "0.3", "--db", db)
    ids = [s["id"] for s in said]
    errs = err.splitlines()
    assert c == 2, (out, err)
    assert len(errs) == 2, err                    # one line each: the dead and the mute
    assert any(x.startswith("unotable sync: %s: " % mute) for x in errs), err
    assert any(x.startswith("unotable sync: %s: " % ids[3]) and "run sync again" in x
               for x in errs), err
    for s in said[:3]:
        mine = lines_of(out, s["id"])
        assert any("%d new inputs stored" % s["seq"] in x for x in mine), out
    assert "3 tables synced; 2 did not: " in out
    for line in out.splitlines():               # no line mixes two tables
        assert sum(1 for i in ids if i in line) <= 1 or line.startswith("3 tables"), line
        assert line.startswith(tuple(ids)) or line.startswith("3 tables"), line
    with Store(db) as st:
        for s in said[:3]:
            assert st._count(s["id"]) == s["seq"]
        assert 60 <= st._count(ids[3]) < said[3]["seq"]    # what came before the death is kept
        n = st.db.execute("SELECT count(DISTINCT table_id) FROM results").fetchone()[0]
        assert n == 3                             # the standings index of each table synced


def test_sync_all_json_and_status_all(room, tmp_path, capsys):
    tables, said, mute = room
    db = str(tmp_path / "night.sqlite3")
    c, out, err = run(capsys, "sync", "--all", "--json", "--timeout", "0.3", "--db", db)
    got = json.loads(out)                          # one document
    assert c == 2 and isinstance(got, list) and len(got) == 5
    byport = {d["port"]: d for d in got}
    assert byport[mute]["code"] == 2 and byport[mute]["error"]
    for t, s in zip(tables, said):
        d = byport[t.port]
        assert d["code"] == 0 and d["error"] is None and d["id"] == s["id"], d
        assert d["new"] == s["seq"] and d["table"] == s["id"]
    with Store(db) as st:
        st.name_table(said[0]["id"], "hall-1")     # a label names the table from now on
    c, out, err = run(capsys, "status", "--all", "--timeout", "0.3", "--db", db)
    assert c == 2 and len(err.splitlines()) == 1 and mute in err
    assert lines_of(out, "hall-1") and "table id %s" % said[0]["id"] in out
    for s in said[1:]:
        assert any(x.endswith("table id %s" % s["id"]) for x in lines_of(out, s["id"]))
    c, out, err = run(capsys, "status", "--all", "--json", "--timeout", "0.3", "--db", db)
    got = json.loads(out)
    assert [d["table"] for d in got][:4] == ["hall-1"] + [s["id"] for s in said[1:]]
    assert all(d["hello"]["id"] == s["id"] for d, s in zip(got, said))
    assert got[4]["port"] == mute and got[4]["code"] == 2


def test_a_database_locked_by_another_program_loses_no_tables_sync(room, tmp_path, capsys):
    tables, said, mute = room
    db = str(tmp_path / "night.sqlite3")
    Store(db).close()
    hold = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    hold.execute("BEGIN EXCLUSIVE")               # another program writing, for a while:
    threading.Timer(7, hold.execute, ("COMMIT",)).start()    # longer than SQLite's 5 s
    c, out, err = run(capsys, "sync", "--all", "--timeout", "0.3", "--db", db)
    hold.close()
    assert c == 2 and len(err.splitlines()) == 1 and mute in err, err
    with Store(db) as st:
        for s in said:
            assert st._count(s["id"]) == s["seq"], s["id"]


def test_monitor_all_prefixes_every_line_with_its_table(room, tmp_path, capsys):
    tables, said, mute = room
    db = str(tmp_path / "m.sqlite3")

    def play():                 # a press at every table once the monitors watch
        time.sleep(3)
        for t in tables:
            t.send({"in": "seat", "seat": 1})
    th = threading.Thread(target=play)
    th.start()
    c, out, err = run(capsys, "monitor", "--all", "--count", "1", "--every", "0.2",
                      "--timeout", "0.3", "--db", db)
    th.join()
    assert c == 2 and len(err.splitlines()) == 1 and mute in err
    for s in said:
        mine = lines_of(out, s["id"])
        assert any("so far; watching" in x for x in mine), out
        assert any(x.split(": ", 1)[1].split()[0] == str(s["seq"] + 2) or "seat 1" in x
                   for x in mine[1:]), out


def test_no_table_connected(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(commands, "likely_boards", lambda: [])
    monkeypatch.setattr(sim, "running", lambda: [])
    for cmd in ("sync", "status", "monitor"):
        c, out, err = run(capsys, cmd, "--all", "--db", str(tmp_path / "x.sqlite3"))
        assert c == 2 and err.startswith("unotable %s: no table connected" % cmd)
        assert len(err.splitlines()) == 1
    assert fleet.ports() == []
