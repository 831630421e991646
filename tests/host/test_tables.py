"""Tables by id, labels on them, pairing, take-back, gaps shown; a version 1 database still
opens and its tables keep their nights. The table is hostkit.FakeLink behind the commands."""
import json
import sqlite3

import pytest

from hostkit import KEY, TID, FakeLink, bot_records, chained
from unotable import commands
from unotable.cli import main
from unotable.store import Store

V1_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, board TEXT NOT NULL DEFAULT '',
    port TEXT NOT NULL DEFAULT '', first_seen TEXT NOT NULL, last_seen TEXT NOT NULL,
    registry TEXT);
CREATE TABLE inputs (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
    t INTEGER NOT NULL, wall INTEGER NOT NULL, kind TEXT NOT NULL, line TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
PRAGMA user_version = 1;
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def night():
    recs, heads = chained(bot_records(300))
    return recs, heads


@pytest.fixture
def plug(monkeypatch):
    """plug(link): the commands talk to this link, whatever port they are given."""
    def use(link):
        monkeypatch.setattr(commands, "connect", lambda args: link)
        return link
    return use


def v1_database(path, recs):
    """A database as the host tool before table ids wrote it: a night under the name "t1"."""
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    with db:
        db.execute("INSERT INTO tables VALUES ('t1', 'uno-hub', '/dev/ttyUSB0', '2026-01-01', "
                   "'2026-01-01', NULL)")
        from uno.cards import synthetic_registry
        from uno.names import INPUTS
        from uno.script import dumps, input_dict
        reg = synthetic_registry()
        db.executemany("INSERT INTO inputs VALUES ('t1',?,?,?,?,?)",
                       [(s, t, int(w), INPUTS[i[0]], dumps(input_dict(i, reg)))
                        for s, t, w, i in recs])
    db.close()


def test_a_version_1_database_opens_and_its_table_takes_its_id(tmp_path, capsys, plug, night):
    recs, heads = night
    path = str(tmp_path / "old.sqlite3")
    v1_database(path, [r[:4] for r in recs[:100]])
    c, out, err = run(capsys, "logs", "list", "--db", path)
    assert c == 0 and out.startswith("t1 ") and "(no id)" in out and "100 inputs" in out
    c, out, _ = run(capsys, "logs", "show", "t1", "--db", path)
    assert c == 0 and "round 1" in out
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone() == (2,)
    # the same board, now reporting its id: synced under the old name, it takes the id
    plug(FakeLink(recs, heads))
    c, out, err = run(capsys, "sync", "--port", "x", "--table", "t1", "--db", path)
    assert c == 0, err
    assert "t1 (%s): %d new inputs stored" % (TID, len(recs) - 100) in out
    c, out, _ = run(capsys, "logs", "list", "--db", path)
    assert out.split()[:3] == ["t1", TID, "300"]
    with Store(path) as s:
        assert [r["id"] for r in s.tables()] == [TID]
        assert s.records(TID).fetchone()[4] is None          # synced before tags: none
        assert s.records(TID, 101).fetchone()[4]              # since: the table's tag


def test_the_same_table_on_another_port_is_the_same_table(tmp_path, capsys, plug, night):
    recs, heads = night
    db = str(tmp_path / "h.sqlite3")
    link = plug(FakeLink(recs[:150], heads))
    c, out, err = run(capsys, "sync", "--port", "/dev/ttyUSB0", "--table", "hall", "--db", db)
    assert c == 0, err
    link = plug(FakeLink(recs, heads))
    link.port = "/dev/ttyACM3"
    c, out, err = run(capsys, "sync", "--port", "/dev/ttyACM3", "--db", db)   # no name given
    assert c == 0 and "hall (%s): 150 new inputs stored" % TID in out, out + err
    c, out, _ = run(capsys, "logs", "list", "--db", db)
    assert len(out.splitlines()) == 1 and out.startswith("hall ")
    for name in ("hall", TID, TID[:6]):
        c, out, _ = run(capsys, "logs", "show", name, "--db", db)
        assert c == 0 and out.startswith("table hall (%s)" % TID)
    # another table may not take a label that names this one
    plug(FakeLink(recs[:10], tid="fedcba9876543210"))
    c, out, err = run(capsys, "sync", "--port", "p", "--table", "hall", "--db", db)
    assert c == 2 and "label of table %s already" % TID in err and len(err.splitlines()) == 1


def test_pair_keeps_the_key_and_says_when_the_table_refuses(tmp_path, capsys, plug, night):
    db = str(tmp_path / "h.sqlite3")
    link = plug(FakeLink(*night))
    c, out, err = run(capsys, "pair", "--port", "x", "--table", "hall", "--db", db)
    assert c == 0 and "paired with table hall (%s)" % TID in out, err
    with Store(db) as s:
        assert s.key(TID) == KEY
    c, out, _ = run(capsys, "pair", "--port", "x", "--db", db)
    assert c == 0 and "paired already" in out
    link.pairing = False
    c, out, err = run(capsys, "pair", "--port", "x", "--db", db)
    assert c == 2 and err.count("\n") == 1
    assert "refused to pair: pairing is closed" in err and "holds its key already" in err
    link.pairing, link.key = True, bytes(32)
    c, out, err = run(capsys, "pair", "--port", "x", "--db", db)
    assert c == 2 and "another key" in err and "--replace" in err
    c, out, err = run(capsys, "pair", "--port", "x", "--db", db, "--replace")
    assert c == 0
    plug(FakeLink(tid=None))
    c, out, err = run(capsys, "pair", "--port", "x", "--db", db)
    assert c == 2 and "reports no table id" in err


def test_undo_takes_back_n_inputs(capsys, plug):
    link = plug(FakeLink())
    c, out, _ = run(capsys, "undo", "--port", "x")
    assert c == 0 and link.undone == [1] and "took back the last 1 input of" in out
    c, out, _ = run(capsys, "undo", "3", "--port", "x")
    assert c == 0 and link.undone == [1, 3] and "last 3 inputs" in out
    for bad in ("0", "-2", "many"):
        with pytest.raises(SystemExit) as e:
            main(["undo", bad, "--port", "x"])
        assert e.value.code == 2
        assert "N is how many" in capsys.readouterr().err

    def refuse(n):
        from unotable.link import Refused
        raise Refused("x", "undo", "nothing to take back in this round")
    link.undo = refuse
    c, _, err = run(capsys, "undo", "--port", "x")
    assert c == 2 and err == ("unotable undo: the table did not take back 1 input: nothing to "
                              "take back in this round\n")


def test_gaps_and_the_chain_after_sync_in_every_view(tmp_path, capsys, plug):
    gaps = [(40, 45, "damaged"), (120, 120, "foreign")]
    recs, heads = chained(bot_records(300), gaps=gaps)
    db = str(tmp_path / "h.sqlite3")
    link = plug(FakeLink(recs, heads, gaps))
    run(capsys, "pair", "--port", "x", "--table", "hall", "--db", db)
    c, out, err = run(capsys, "sync", "--port", "x", "--db", db, "--ack")
    assert c == 0, err
    assert "gap: seqs 40..45 are not in the table's log (damaged)" in out
    assert "gap: seqs 120..120" in out and "inputs checked" in out and "signed" in out
    assert link.acked == recs[-1][0]
    c, out, _ = run(capsys, "logs", "list", "--db", db)
    assert "2 gaps" in out and "paired" in out
    c, out, _ = run(capsys, "logs", "show", "hall", "--db", db)
    assert "gap: seqs 40..45 are not in the table's log: damaged" in out
    c, out, _ = run(capsys, "verify", "--table", "hall", "--db", db)
    assert c == 0, out
    assert "note: seqs 40..45 are not in the table's log: damaged" in out
    rec = str(tmp_path / "hall.jsonl")
    run(capsys, "logs", "export", "hall", "--db", db, "-o", rec)
    c, out, _ = run(capsys, "verify", rec, "--db", db)
    assert c == 0 and "covered by heads signed with the table's key" in out, out
    # the file alone, somewhere without the host database
    c, out, _ = run(capsys, "verify", rec, "--db", str(tmp_path / "other.sqlite3"))
    assert c == 0 and "holds nothing of table" in out
    lines = open(rec).read().splitlines()
    i = next(i for i, l in enumerate(lines) if '"seq":200,' in l and '"in"' in l)
    d = json.loads(lines[i])
    d["t"] = d["t"] * 3
    lines[i] = json.dumps(d)
    with open(rec, "w") as f:
        f.write("\n".join(lines) + "\n")
    c, out, _ = run(capsys, "verify", rec, "--db", db)
    assert c == 1 and "line %d: the chain breaks at this input" % (i + 1) in out


def test_a_chain_that_does_not_hold_up_at_sync_is_said(tmp_path, capsys, plug, night):
    recs, heads = night
    bad = list(recs)
    bad[50] = bad[50][:4] + (b"\0\0\0\0",)
    db = str(tmp_path / "h.sqlite3")
    plug(FakeLink(bad, heads))
    c, out, err = run(capsys, "sync", "--port", "x", "--db", db)
    assert c == 1 and "the chain does NOT hold up" in out and "seq %d" % bad[50][0] in out
    with Store(db) as s:
        assert s.next_seq(TID) == recs[-1][0] + 1     # everything stored all the same


def test_verify_takes_the_deck_of_an_enrolled_table(tmp_path, capsys):
    from uno.bot import Bot
    from uno.cards import NCARDS, Registry
    from uno.table import Table
    uids = [bytes((4, i, 7, 7, 7, 7, 255 - i)) for i in range(NCARDS)]
    deck = Registry(uids)
    t = Table(registry=deck)
    b = Bot(t, [1, 2, 3], seed=2)
    raw = [(i + 1, (i + 1) * 500, False, b.step()[0]) for i in range(400)]
    recs, heads = chained(raw)
    db = str(tmp_path / "h.sqlite3")
    link = FakeLink(recs, heads)
    link.fetch_registry = lambda: deck
    with Store(db) as s:
        s.name_table(TID, "hall")
        s.sync(TID, link)
    rec = str(tmp_path / "hall.jsonl")
    c, _, _ = run(capsys, "logs", "export", "hall", "--db", db, "-o", rec)
    deckfile = tmp_path / "deck.txt"
    deckfile.write_text("\n".join(u.hex() for u in uids))
    blob = tmp_path / "deck.bin"
    blob.write_bytes(deck.blob)
    nodb = str(tmp_path / "none.sqlite3")
    c, out, _ = run(capsys, "verify", rec, "--db", nodb)
    assert c == 1 and "give its registry" in out and "--deck FILE" in out
    for f in (deckfile, blob):
        c, out, _ = run(capsys, "verify", rec, "--db", nodb, "--deck", str(f))
        assert c == 0, out
    c, out, _ = run(capsys, "verify", rec, "--db", db)          # the deck the host holds
    assert c == 0, out
    c, out, _ = run(capsys, "verify", "--table", "hall", "--db", db)
    assert c == 0, out
    (tmp_path / "bad.txt").write_text("04aa 04bb")
    c, _, err = run(capsys, "verify", rec, "--deck", str(tmp_path / "bad.txt"))
    assert c == 2 and "is not a deck" in err and len(err.splitlines()) == 1


def test_status_says_the_id_the_chain_head_the_flash_and_the_damage(capsys, plug):
    link = plug(FakeLink(gaps=[(3, 9, "damaged")]))
    st = link.status()
    st.update(head=[41, "ab" * 32], mac="cd" * 32, flash=[800 * 1024, 1000 * 1024],
              log_full=True)
    link.status = lambda: st
    c, out, err = run(capsys, "status", "--port", "x")
    assert c == 0, err
    assert "table id %s" % TID in out and "chain head after seq 41: abababab" in out
    assert "800 of 1000 KB of flash used (80%): FULL" in out
    assert "damage: seqs 3..9 are not in the log (damaged)" in out
    del st["phase"]                     # an answer this host tool cannot read: one line
    c, out, err = run(capsys, "status", "--port", "x")
    assert c == 2 and "makes no sense" in err


def test_an_input_this_host_does_not_know_stops_the_sync_in_one_line(tmp_path, capsys, plug,
                                                                     night):
    recs, heads = night
    odd = recs[:20] + [(recs[20][0], recs[20][1], False, (99, 1), b"\0\0\0\0")] + recs[21:]
    db = str(tmp_path / "h.sqlite3")
    plug(FakeLink(odd, heads))
    c, out, err = run(capsys, "sync", "--port", "x", "--db", db)
    assert c == 2 and "does not know (seq 21, kind 99): update the host tool" in err
    with Store(db) as s:
        assert s.next_seq(TID) == 21               # what came before it is stored


def test_sync_keeps_the_head_status_reported(tmp_path, plug, night):
    recs, heads = night
    link = FakeLink(recs, heads[:1])
    st = link.status()
    st.update(head=list(heads[-1][:2]), mac=heads[-1][2])
    link.status = lambda: st
    with Store(str(tmp_path / "h.sqlite3")) as s:
        s.sync(TID, link)
        assert s.heads(TID) == [heads[0], heads[-1]]


def test_deploy_lets_mpremote_in_first(capsys, monkeypatch):
    import subprocess
    from unotable import link as linkmod
    calls = []
    monkeypatch.setattr(linkmod, "open_repl", lambda port, timeout=1.0: calls.append("repl")
                        or True, raising=False)

    class Done:
        returncode, stdout, stderr = 0, "", ""
    real = subprocess.run

    def fake(argv, **kw):               # mpy-cross runs; mpremote is only noted
        if "mpremote" not in argv[0]:
            return real(argv, **kw)
        calls.append(argv[1:3])
        return Done()
    monkeypatch.setattr(subprocess, "run", fake)
    c, out, err = run(capsys, "deploy", "--port", "/dev/ttyUSB9")
    assert c == 0, err
    assert calls == ["repl", ["connect", "/dev/ttyUSB9"]]
