"""Players (issue 12) on the host: badges enrolled by a tap at a simulated table or by UID, seats
named by the host, and names looked up for every record."""
import json
import threading
import time

from uno.table import Table
from unotable import sim
from unotable.cli import main
from unotable.players import display, seat_names
from unotable.store import Store

BADGE = "04a1b2c3d4e5f6"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def wait_for(table, check, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = table.status()
        if s and check(s):
            return s
        time.sleep(0.05)
    raise AssertionError("the table never got there: %r" % (table.status(),))


def test_players_add_list_remove_by_uid(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    assert run(capsys, "players", "list", "--db", db)[1].startswith("no players yet")
    c, out, err = run(capsys, "players", "add", "\u674e\u4f1f", "--uid", "04:A1:B2:C3:D4:E5:F6",
                      "--db", db)
    assert c == 0 and out == "\u674e\u4f1f has badge %s\n" % BADGE, err
    assert run(capsys, "players", "add", "Ann", "--no-badge", "--db", db)[0] == 0
    c, out, err = run(capsys, "players", "list", "--json", "--db", db)
    assert json.loads(out) == [{"name": "Ann", "uid": None}, {"name": "\u674e\u4f1f",
                                                                "uid": BADGE}]
    c, out, err = run(capsys, "players", "add", "Bo", "--uid", BADGE, "--db", db)
    assert c == 2 and "is \u674e\u4f1f's already" in err and len(err.splitlines()) == 1
    for bad in (["--uid", "xyz"], ["--uid", "0102"]):
        c, out, err = run(capsys, "players", "add", "Bo", *bad, "--db", db)
        assert c == 2 and "4, 7 or 10 bytes" in err and len(err.splitlines()) == 1
    c, out, err = run(capsys, "players", "add", "x" * 25, "--no-badge", "--db", db)
    assert c == 2 and "1 to 24 bytes" in err
    c, out, err = run(capsys, "players", "remove", "Nobody", "--db", db)
    assert c == 2 and "no player 'Nobody'" in err
    assert run(capsys, "players", "remove", "Ann", "--db", db)[0] == 0
    with Store(db) as s:
        assert display(s, "uid", BADGE) == "\u674e\u4f1f"
        assert display(s, "uid", "04010203") == "badge 04010203"
        assert display(s, "name", "Ann") == "Ann"
        t = Table()
        t.feed((3, 2, 0))
        t.feed((2, bytes.fromhex(BADGE)))
        t.feed((3, 5, 0))
        t.feed((9, 5, "Cy"))
        assert seat_names(s, t) == {2: "\u674e\u4f1f", 5: "Cy"}


def test_players_list_of_a_database_from_before_players(tmp_path, capsys):
    db = str(tmp_path / "old.sqlite3")
    Store(db).close()
    c, out, err = run(capsys, "players", "list", "--db", db)
    assert c == 0 and out.startswith("no players yet")


def test_seat_names_and_badge_taps_at_a_simulated_table(code, tmp_path, capsys):
    db = str(tmp_path / "night.sqlite3")
    table = sim.SimTable(None, pace=0, code=code)
    try:
        table.link.close()
        c, out, err = run(capsys, "seat", "1", "Ann", "--port", table.port)
        assert c == 2 and "has not joined" in err and len(err.splitlines()) == 1
        table.send({"in": "seat", "seat": 1})
        wait_for(table, lambda s: [x["seat"] for x in s["seats"]] == [1])
        c, out, err = run(capsys, "seat", "1", "Ann", "--port", table.port)
        assert c == 0 and out == "seat 1 is Ann\n", err
        wait_for(table, lambda s: s["players"] == [[1, "name", "Ann"]])
        # enrolling a badge: the tap comes while `players add` waits for it
        got = {}

        def enrol():
            got["r"] = main(["players", "add", "Bo", "--port", table.port, "--db", db,
                             "--wait", "20"])
        th = threading.Thread(target=enrol)
        th.start()
        time.sleep(1.5)
        table.send({"in": "seat", "seat": 2})
        table.send({"in": "pad", "uid": BADGE})
        th.join(30)
        assert got.get("r") == 0
        out, err = capsys.readouterr()
        assert "tap the badge" in out and "Bo has badge %s" % BADGE in out, err
        s = wait_for(table, lambda s: len(s["players"]) == 2)
        assert s["players"] == [[1, "name", "Ann"], [2, "uid", BADGE]]
        assert s["events"] == [[42, 2, "badge " + BADGE]]     # JSON: a UID in words
        shown = sim.view(s)
        assert "seat 1  (Ann)" in shown and "seat 2  (badge 04a1b2c3)" in shown, shown
        assert "seat 2 is badge %s" % BADGE in shown
        # the log says who sat where: replayed on the host, the names come back
        assert run(capsys, "sync", "--port", table.port, "--db", db)[0] == 0
        with Store(db) as st:
            tid = st.tables()[0]["id"]
            from uno.record import Replay
            rep = Replay()
            for _ in rep.run(st.script_lines(tid)):
                pass
            assert seat_names(st, rep.table) == {1: "Ann", 2: "Bo"}
        # after the match starts, the host can name nobody
        table.send({"in": "shuffle"})
        wait_for(table, lambda s: s["phase"] != "lobby")
        c, out, err = run(capsys, "seat", "2", "Cy", "--port", table.port)
        assert c == 2 and "lobby" in err and len(err.splitlines()) == 1
    finally:
        table.close()


def test_logs_show_names_the_winner_and_json_every_named_seat(tmp_path, capsys):
    from uno.record import Replay
    from unotable.players import add
    path = __file__.rsplit("/tests/", 1)[0] + "/examples/round-2p.jsonl"
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[1:3] == ['{"in":"seat","seat":1}', '{"in":"seat","seat":2}']
    lines[2:2] = ['{"in":"pad","uid":"%s"}' % BADGE]
    lines[4:4] = ['{"in":"player","seat":2,"name":"\u674e\u4f1f"}']
    rep = Replay()
    recs = [(seq, rep.t, False, inp) for seq, inp, evs in rep.run(lines)]
    winner = rep.table.winner
    db = str(tmp_path / "h.sqlite3")
    with Store(db) as s:
        s.add("t", recs)
        add(s, "Ann", BADGE)
    c, out, err = run(capsys, "logs", "show", "t", "--db", db)
    assert c == 0 and "winner %d (%s)" % (winner, ["Ann", "\u674e\u4f1f"][winner - 1]) in out
    c, out, err = run(capsys, "logs", "show", "t", "--json", "--db", db)
    assert json.loads(out)["rounds"][0]["players"] == {"1": "Ann", "2": "\u674e\u4f1f"}

