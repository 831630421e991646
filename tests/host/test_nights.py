"""A night at the simulated table, end to end: play, sync, pull the cable mid-sync and resume,
export, verify, replay; a monitor watching; a table that vanishes."""
import json
import os
import signal
import threading
import time


from uno.record import Replay
from uno.state import snapshot
from unotable import sim
from unotable.cli import main
from unotable.link import Link

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARTY = os.path.join(ROOT, "examples", "party-4p.jsonl")
ROUND4 = os.path.join(ROOT, "examples", "round-4p.jsonl")


def played(code, script):
    table = sim.SimTable(script, pace=0, code=code)
    end = time.monotonic() + 30
    while True:
        s = table.status()
        if s["board"]["script_done"]:
            break
        assert time.monotonic() < end
        time.sleep(0.05)
    table.link.close()
    return table, s


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sync_export_verify_replay_a_played_round(code, tmp_path, capsys):
    db = str(tmp_path / "night.sqlite3")
    table, s = played(code, PARTY)
    try:
        c, out, err = run(capsys, "pair", "--port", table.port, "--table", "t1", "--db", db)
        assert c == 0 and out.startswith("paired with table t1 (%s)" % s["id"]), err
        c, out, err = run(capsys, "pair", "--port", table.port, "--db", db)   # once only
        assert c == 2 and "paired already" in err and len(err.splitlines()) == 1
        c, out, err = run(capsys, "sync", "--port", table.port, "--db", db)    # by its id
        assert c == 0, err
        assert "t1 (%s): %d new inputs stored" % (s["id"], s["seq"]) in out
        assert "covered by heads signed with the table's key" in out, out
        c, out, _ = run(capsys, "sync", "--port", table.port, "--table", "t1", "--db", db)
        assert c == 0 and "t1 (%s): 0 new inputs stored" % s["id"] in out    # idempotent
    finally:
        table.close()
    c, out, _ = run(capsys, "logs", "list", "--db", db)
    assert out.startswith("t1 ")
    c, out, _ = run(capsys, "logs", "show", "t1", "--db", db)
    assert "round 1" in out and "winner" in out
    record = str(tmp_path / "t1.jsonl")
    c, _, _ = run(capsys, "logs", "export", "t1", "--db", db, "-o", record)
    with open(record) as f:
        lines = f.read().splitlines()
    inputs = [json.loads(x) for x in lines if '"in"' in x]
    seqs = [d["seq"] for d in inputs]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1 and seqs[-1] == s["seq"]
    # what the host decides again is what the table decided
    run_ = Replay()
    for _ in run_.run(lines):
        pass
    assert snapshot(run_.table) == sim.state_only(s)
    c, out, _ = run(capsys, "verify", record, "--db", db)
    assert c == 0 and "%d inputs checked" % len(inputs) in out, out
    assert "%d covered by heads signed" % len(inputs) in out
    slow = [json.dumps(dict(d, t=d["t"] * 3)) if "t" in d and "in" in d else x
            for d, x in ((json.loads(x), x) for x in lines)]
    with open(record + ".x3", "w") as f:
        f.write("\n".join(slow) + "\n")
    c, out, _ = run(capsys, "verify", record + ".x3", "--db", db)
    assert c == 1 and "the chain breaks at this input" in out
    c, out, _ = run(capsys, "verify", "--table", "t1", "--db", db)
    assert c == 0, out
    c, out, _ = run(capsys, "replay", record)
    assert c == 0 and "lays down" in out or "ROUND OVER" in out
    c, out, _ = run(capsys, "logs", "export", "t1", "--db", db, "--format", "csv")
    rows = out.splitlines()
    assert rows[0].startswith("seq,t,input,event") and len(rows) > len(inputs)


def test_a_pulled_cable_mid_sync_resumes_with_nothing_lost_or_doubled(code, tmp_path, capsys,
                                                                      monkeypatch):
    db = str(tmp_path / "night.sqlite3")
    table, s = played(code, ROUND4)
    real = Link.sync_records

    def cut(self, from_seq=1, max_bytes=0):
        for i, r in enumerate(real(self, from_seq, 200)):   # small batches, then the cable goes
            if i == 60:
                raise self._gone("records", OSError(5, "Input/output error"))
            yield r
    try:
        monkeypatch.setattr(Link, "sync_records", cut)
        c, out, err = run(capsys, "sync", "--port", table.port, "--table", "t", "--db", db)
        assert c == 2 and "run sync again to resume" in err
        assert err.count("resume") == 1 and ".;" not in err, err   # said once
        monkeypatch.setattr(Link, "sync_records", real)
        c, out, err = run(capsys, "sync", "--port", table.port, "--table", "t", "--db", db)
        assert c == 0, err
    finally:
        table.close()
    from unotable.store import Store
    with Store(db) as st:
        seqs = [r[0] for r in st.inputs(st.find("t"))]    # "t" labels the table's id
    assert seqs == list(range(1, s["seq"] + 1))


def test_garbage_on_the_line_and_a_table_that_vanishes(code, tmp_path, capsys):
    table = sim.SimTable(code=code)
    try:
        table.link.write(b"\x00\xff garbage ~1 zz bad frame\n~" + b"x" * 3000 + b"\n")
        table.link.close()
        c, out, err = run(capsys, "status", "--port", table.port)
        assert c == 0, err
        os.kill(table.proc.pid, signal.SIGKILL)
        table.proc.wait()
        c, out, err = run(capsys, "status", "--port", table.port, "--timeout", "0.3")
        assert c == 2 and err.startswith("unotable status: ")
        assert "Traceback" not in err
    finally:
        table.close()


def test_monitor_narrates_the_table_as_it_plays(code, tmp_path, capsys):
    db = str(tmp_path / "m.sqlite3")
    table = sim.SimTable(code=code)
    table.status()
    table.link.close()

    def play():
        time.sleep(1.0)
        for line in ({"in": "seat", "seat": 3}, {"in": "seat", "seat": 4}, {"in": "shuffle"}):
            table.send(line)
            time.sleep(0.1)
    th = threading.Thread(target=play)
    th.start()
    try:
        c, out, err = run(capsys, "monitor", "--port", table.port, "--db", db, "--every", "0.2",
                          "--count", "3")
        th.join()
        assert c == 0, err
        assert "seat 3 joins" in out and "seat 4 joins" in out and "shuffled pile loaded" in out
    finally:
        table.close()
    from unotable.store import Store
    with Store(db) as st:            # monitor sets the clock as sync does: the inputs of a boot
        tid = st.tables()[0]["id"]   # only monitored are dated, their rounds in their night
        assert st.clocks(tid), "no clock note: the rounds would have no date"
