"""The live scoreboard without a browser: what a table shows (never a hand's card), the routes
and the event stream's framing, a table that vanishes, and `unotable serve` against simulated
tables playing, its every message checked for hidden cards."""
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from uno.cards import name
from uno.events import BACK, DRAWOFF, PLAY, START
from uno.narrate import say
from uno.record import Replay
from uno.state import snapshot
from unotable import sim
from unotable.cli import main
from unotable.serve.app import Hub, make_app, sse
from unotable.serve.model import Board, tally
from unotable.serve.watch import Watcher

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = [os.path.join(ROOT, "examples", n) for n in ("round-2p.jsonl", "round-4p.jsonl",
                                                         "party-4p.jsonl")]
UNOTABLE = os.path.join(ROOT, ".venv", "bin", "unotable")
# A card's name as text shows it (R7, GS, BD, W, W4; a played wild as W4>R): a word of its own.
CARD = re.compile(r"(?<![A-Za-z0-9])([RYGB][0-9SRD]|W4|W)(?![A-Za-z0-9])")


def cards_in(text):
    return set(CARD.findall(text))


class Seen:
    """What was public at the table (played, start and draw-off cards) and what sat in a hand
    at some moment: a name in a payload must be one of the first."""

    def __init__(self):
        self.public = set()
        self.hands = set()

    def feed(self, table, evs):
        for e in evs:
            if e[0] in (PLAY, START, BACK):
                self.public.add(name(e[2] if e[0] == PLAY else e[1]))
            elif e[0] == DRAWOFF:
                self.public.add(name(e[2]))
        for s in snapshot(table)["seats"]:
            self.hands.update(s["hand"])

    def leaked(self, text):
        return cards_in(text) - self.public


def test_a_table_view_never_names_a_card_in_a_hand():
    """Every view and attention item of three whole rounds (deals, draws, rejected cards,
    take-backs, penalties): the only card names are cards shown on the table."""
    for path in EXAMPLES:
        b = Board("t", "hall")
        seen = Seen()
        said = []
        with open(path) as f:
            for seq, inp, evs in b.run.run(f):
                b.seq = seq
                items = b._feed(seq, evs)
                seen.feed(b.run.table, evs)
                said += [say(e) for e in evs]
                text = json.dumps([b.view(), items])
                assert not seen.leaked(text), (path, seq, seen.leaked(text), text)
        private = seen.hands - seen.public
        assert private, "the round kept no card hidden: the check would prove nothing"
        assert cards_in(" ".join(said)) & private, "the engine's own words name hands' cards"
        v = b.view()
        assert '"hand' not in json.dumps(v) and all(set(s) == {"seat", "who", "cards", "score",
                                                              "turn"} for s in v["seats"])


def test_a_view_says_whose_turn_top_card_colour_hand_sizes_and_the_uno_window():
    b = Board("0123456789abcdef", "hall")
    with open(EXAMPLES[1]) as f:
        lines = f.read().splitlines()
    k = 60  # well into the round, at a moment with a colour to show (no wild's pending)
    b.replay(lines[:k])
    t = b.run.table
    while t.colour < 0:
        b.replay(lines[k:k + 1])
        k += 1
        t = b.run.table
    v = b.view()
    assert v["turn"] == "seat %d" % t.turn and v["phase"] == "play"
    assert [s["cards"] for s in v["seats"]] == [len(t.hands[s]) for s in t.seats]
    assert v["top"] and v["colour"] in "RYGB" and v["direction"] in ("clockwise",
                                                                       "counter-clockwise")
    assert 0 < len(v["lines"]) <= 8
    run = Replay()
    for _, _, evs in run.run(lines):
        pass
    b.replay(lines[k:])
    rows, series = tally([b])
    assert sum(r["points"] for r in rows) == sum(s["round_points"] for s in series) > 0
    assert rows[0]["player"] == "seat %d @ hall" % run.table.winner


def test_a_catch_taken_back_is_no_uno_forgotten_on_the_scoreboard():
    """Seat 2 catches seat 1, the referee takes the catch back, seat 2 plays and seat 1 wins
    the round: the scoreboard's round counts no UNO forgotten (it had kept the catch: the
    standings took it back, the live tally did not)."""
    from uno.record import from_words
    from uno.script import dumps
    words = ["seat 1", "seat 2", "shuffle", "shoe R1a", "shoe G5a", "shoe R2a", "shoe R7a",
             "shoe R5a", "pad R2a", "seat 2", "undo", "pad R7a", "pad R1a"]
    b = Board("k", "T1")
    b.replay(['{"settings":{"hand_size":2,"first_dealer":2}}'] +
             [dumps(from_words(w)) for w in words])
    assert [r[1:4] for r in b.rounds_over] == [("seat 1 @ T1", 5, {})], b.rounds_over
    assert tally([b])[0][0]["unos_forgotten"] == 0


def test_status_faults_damage_and_notices_raise_each_item_once_and_show_no_card():
    b = Board("t", "hall")
    items = b.status_items({"fault": "log: OSError 5", "warn": "R7 to seat 2"}, [(5, 7, "crc")])
    assert [(i["kind"], i["what"]) for i in items] == [
        ("fault", "table fault: log: OSError 5"),
        ("damage", "log damage: seqs 5..7 are not in the table's log (crc)")]
    assert b.view()["notice"] is None                 # a take-back's card note stays away
    assert b.status_items({"fault": "log: OSError 5", "warn": "LOG DAMAGED - sync, see status"},
                          []) == []
    assert b.view()["notice"] == "LOG DAMAGED - sync, see status"


def test_reader_faults_reach_the_referee_queue_once_each():
    """The table's status says each reader's health (up, read errors, two cards at once):
    a change is one referee item; the same health again raises nothing."""
    b = Board("t", "hall")
    assert b.status_items({"readers": [[1, 0, 0], [1, 0, 0]]}, []) == []
    items = b.status_items({"readers": [[1, 3, 0], [0, 0, 1]]}, [])
    assert [(i["kind"], i["what"]) for i in items] == [
        ("reader", "PLAY pad reader: 3 read errors"),
        ("reader", "DRAW shoe reader is down: its cards are not read"),
        ("reader", "DRAW shoe reader: two cards in its field at once: one at a time")]
    assert b.status_items({"readers": [[1, 3, 0], [0, 0, 1]]}, []) == []
    assert [i["what"] for i in b.status_items({"readers": [[1, 4, 0], [1, 0, 1]]}, [])] == [
        "PLAY pad reader: 1 read error", "DRAW shoe reader is back"]
    for junk in (None, "x", [[1, 0]], [[1, 0, 0]], [[1, 0, "a"], [1, 0, 0]]):
        assert b.status_items({"readers": junk}, []) == []   # a status that makes no sense


def played(lines):
    """Whether the last of these script lines is a card played (not a tag the deck does not
    know, nor a card refused)."""
    evs = []
    for _, _, evs in Replay().run(lines):
        pass
    return any(e[0] == PLAY for e in evs)


def with_takeback(tmp_path, example, at=60):
    """The example with a take-back of the card played at its `at`-th input or after, played
    again: the round ends as before."""
    with open(example) as f:
        lines = f.read().splitlines()
    n = 0
    for i, line in enumerate(lines):
        if '"in"' in line:
            n += 1
        if n >= at and '"in":"pad"' in line and played(lines[:i + 1]):
            lines[i + 1:i + 1] = ['{"in":"undo","n":1}', line]
            break
    path = tmp_path / ("undo-" + os.path.basename(example))
    path.write_text("\n".join(lines) + "\n")
    run = Replay()
    for _ in run.run(lines):
        pass
    assert snapshot(run.table)["phase"] == "round_over"
    return str(path)


def test_names_replace_seat_numbers_where_players_are_named():
    b = Board("t", "hall")
    lines = ['{"in":"seat","seat":3}', '{"in":"player","seat":3,"name":"Li Wei"}',
             '{"in":"seat","seat":5}', '{"in":"pad","uid":"04a1b2c3d4e5f6"}']
    b.badges = {"04a1b2c3d4e5f6": "Ana"}
    b.replay(lines)
    v = b.view()
    assert [s["who"] for s in v["seats"]] == ["Li Wei", "Ana"]
    assert "Li Wei sits at seat 3" in v["lines"] and "Ana sits at seat 5" in v["lines"]


def _serve_app(hub):
    from aiohttp.test_utils import TestClient, TestServer
    return TestClient(TestServer(make_app(hub)))


def test_routes_state_and_the_event_stream_framing():
    async def go():
        hub = Hub()
        hub.publish("table", {"slot": "/dev/x", "label": "hall", "seq": 1})
        async with _serve_app(hub) as client:
            r = await client.get("/")
            page = await r.text()
            assert r.status == 200 and "EventSource" not in page and "/static/app.js" in page
            for asset in ("/static/app.js", "/static/style.css"):
                r = await client.get(asset)
                assert r.status == 200 and len(await r.read()) > 500, asset
            assert (await client.get("/static/nope.js")).status == 404
            assert (await client.get("/nowhere")).status == 404
            r = await client.get("/state.json")
            assert (await r.json())["tables"][0]["label"] == "hall"
            r = await client.get("/events")
            assert r.headers["Content-Type"].startswith("text/event-stream")
            got = b""
            while got.count(b"\n\n") < 2:
                got += await r.content.readany()
            hub.publish("attention", [{"table": "hall", "what": "rejected: not your turn"}])
            hub.publish("table", {"slot": "/dev/x", "label": "hall", "seq": 2})
            while got.count(b"\n\n") < 4:
                got += await r.content.readany()
            r.close()
            return got
    got = asyncio.run(go()).decode()
    frames = got.split("\n\n")
    assert frames[0] == "retry: 2000"
    kinds = []
    for fr in frames[1:4]:
        ev, data = fr.split("\n")
        assert ev.startswith("event: ") and data.startswith("data: ")
        kinds.append(ev[7:])
        json.loads(data[6:])             # one line of JSON per event
    assert kinds == ["state", "attention", "table"]
    assert sse("x", {"a": "b\nc"}).count(b"\n") == 3     # a newline in text stays escaped


def test_a_table_that_vanishes_shows_not_connected_and_the_others_go_on(tmp_path):
    posts = []
    w = Watcher(str(tmp_path / "no-such-port"), str(tmp_path / "db.sqlite3"),
                lambda k, d: posts.append((k, d)), every=0.05, timeout=0.3)
    w.start()
    end = time.monotonic() + 10
    while not posts and time.monotonic() < end:
        time.sleep(0.05)
    w.stop.set()
    w.join(5)
    kind, v = posts[0]
    assert kind == "table" and v["connected"] is False and "cannot open" in v["why"]
    assert "\n" not in v["why"] and "Traceback" not in v["why"]


class FakeLeague:
    """unotable.league's interface (helper LEAGUE's module), as the scoreboard uses it."""
    night = {"id": 3, "name": "Friday", "started": "2026-12-01", "closed": None}

    def __init__(self, tid):
        self.tid = tid
        self.filled = []

    def current_night(self, store):
        return self.night

    def find_night(self, store, night):
        return self.night

    def refresh(self, store, tid):
        self.filled.append(tid)

    def refresh_all(self, store):
        self.filled.append("all")

    def standings(self, store, night=None, season=False, rule=None):
        assert night == 3
        return [{"player": "Li Wei", "rounds": 2, "rounds_won": 1, "points": 90,
                 "unos_forgotten": 1}]

    def night_series(self, store, night):
        return [{"player": "Li Wei", "table": self.tid, "wall": 0, "round_points": 90,
                 "unos_forgotten": 1}]


def test_a_closed_night_comes_from_the_database_with_the_leagues_standings(tmp_path,
                                                                         monkeypatch):
    import types
    from hostkit import TID, FakeLink, bot_records, chained
    from unotable.serve import closed_night
    from unotable.serve.watch import standings
    from unotable.store import Store
    db = str(tmp_path / "n.sqlite3")
    with Store(db) as s:
        s.name_table(TID, "hall")
        s.sync(TID, FakeLink(*chained(bot_records(300))))
    league = FakeLeague(TID)
    monkeypatch.setitem(sys.modules, "unotable.league", types.SimpleNamespace(**{
        k: getattr(league, k) for k in ("current_night", "standings", "night_series", "refresh",
                                  "refresh_all", "find_night")}))
    monkeypatch.setattr("unotable.league", sys.modules["unotable.league"], raising=False)
    hub = Hub()
    closed_night(types.SimpleNamespace(db=db, night=3), hub)
    st = hub.state()
    assert [t["label"] for t in st["tables"]] == ["hall"] and st["tables"][0]["seq"] > 250
    assert not st["tables"][0]["connected"] and "Friday" in st["tables"][0]["why"]
    assert st["standings"]["source"] == "league" and st["standings"]["rows"][0]["points"] == 90
    assert league.filled == ["all"]                 # the index filled before it is read
    with Store(db) as s:                            # live: the current night's
        assert standings(s, [], fill=TID)["night"] == 3
    assert league.filled == ["all", TID]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_refuses_what_it_cannot_do_in_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("UNOTABLE_PORT", raising=False)
    monkeypatch.setattr("unotable.commands.likely_boards", lambda: [])
    monkeypatch.setattr("unotable.sim.running", lambda: [])
    for argv, want in ((["serve"], "which tables?"),
                       (["serve", "--http-port", "99999"], "0..65535"),
                       (["serve", "--every", "0"], "above 0")):
        try:
            code = main(argv + ["--db", str(tmp_path / "d.sqlite3")])
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and want in lines[0], (argv, err)
        assert lines[0].startswith("unotable serve: ")
    code = main(["serve", "-p", "/dev/null", "--db", str(tmp_path)])    # a folder for a file
    out, err = capsys.readouterr()
    assert code == 2 and "it is a directory" in err and len(err.splitlines()) == 1
    with socket.socket() as s:       # a port in use
        s.bind(("127.0.0.1", 0))
        s.listen()
        code = main(["serve", "-p", "/dev/null", "--http-port", str(s.getsockname()[1]),
                     "--db", str(tmp_path / "d.sqlite3")])
    out, err = capsys.readouterr()
    assert code == 2 and "cannot listen on 127.0.0.1:" in err and len(err.splitlines()) == 1


class Stream(threading.Thread):
    """Reads the server's event stream as a browser would, keeping every message."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.messages = []
        self.stopped = False

    def run(self):
        with urllib.request.urlopen(self.url, timeout=30) as r:
            kind = None
            for raw in r:
                if self.stopped:
                    break
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    self.messages.append((kind, line[6:], time.monotonic()))

    def tables(self):
        out = {}
        for kind, data, _ in self.messages:
            if kind == "state":
                out.update((t["slot"], t) for t in json.loads(data)["tables"])
            elif kind == "table":
                t = json.loads(data)
                out[t["slot"]] = t
        return out


def start_serve(ports, db, extra=(), env=None):
    port = _free_port()
    argv = [UNOTABLE if os.path.exists(UNOTABLE) else sys.executable]
    if argv[0] == sys.executable:
        argv += ["-m", "unotable.cli"]
    argv += ["serve", "--db", db, "--http-port", str(port), *extra]
    for p in ports:
        argv += ["-p", p]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    line = proc.stdout.readline()
    assert line.startswith("scoreboard on http://127.0.0.1:%d/" % port), \
        line + proc.stderr.read()
    return proc, "http://127.0.0.1:%d" % port


def stop_serve(proc):
    """Stops the server as a service manager would (SIGTERM); killed if it does not stop in
    10 s, and that fails the test. Returns what it said on stderr (never a traceback)."""
    proc.terminate()
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("unotable serve did not stop on SIGTERM within 10 s")
    assert proc.returncode == 0 and "Traceback" not in err, (proc.returncode, err)
    return err


def stop_serve_and(proc, tables):
    """The server stopped (if it started), then the simulated tables closed whatever that
    did."""
    try:
        if proc:
            stop_serve(proc)
    finally:
        for t in tables:
            if t:
                t.close()


def test_serve_live_tables_every_message_and_page_free_of_hidden_cards(code, tmp_path):
    """Two simulated tables play whole rounds (the house rules' too) while `unotable serve`
    watches them; every server-sent event and the page's state are searched for any card
    that sat in a hand and was never shown."""
    scripts = [with_takeback(tmp_path, EXAMPLES[2]), EXAMPLES[1]]
    tables = [sim.SimTable(scripts[0], pace=5, code=code),
              sim.SimTable(scripts[1], pace=5, code=code)]
    for t in tables:
        t.link.close()
    proc = None
    try:
        proc, url = start_serve([t.port for t in tables], str(tmp_path / "night.sqlite3"))
        stream = Stream(url + "/events")
        stream.start()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            done = all(t.done for t in tables)
            views = stream.tables()
            if done and len(views) == 2 and all(v["phase"] == "round over"
                                                for v in views.values()):
                break
            time.sleep(0.2)
        views = stream.tables()
        assert sorted(v["phase"] for v in views.values()) == ["round over", "round over"], \
            views
        with urllib.request.urlopen(url + "/state.json", timeout=10) as r:
            page_state = r.read().decode()
        with urllib.request.urlopen(url + "/", timeout=10) as r:
            page = r.read().decode()
        seen = Seen()
        for path in scripts:
            run = Replay()
            with open(path) as f:
                for _, _, evs in run.run(f):
                    seen.feed(run.table, evs)
        assert seen.hands - seen.public
        everything = "\n".join(m[1] for m in stream.messages) + page_state + page
        assert not seen.leaked(everything), seen.leaked(everything)
        kinds = {m[0] for m in stream.messages}
        assert {"state", "table", "attention", "standings"} <= kinds, kinds
        st = json.loads(page_state)
        assert {"penalty", "reject", "undo"} <= {a["kind"] for a in st["attention"]}
        assert [a["at"] for a in st["attention"]] == sorted(
            (a["at"] for a in st["attention"]), reverse=True)      # newest first
        assert len(st["standings"]["rows"]) >= 2
    finally:
        stop_serve_and(proc, tables)


def test_serve_keeps_serving_when_a_table_dies(code, tmp_path):
    table = sim.SimTable(EXAMPLES[0], pace=0, code=code)
    table.link.close()
    proc = None
    try:
        port = table.port
        proc, url = start_serve([port, "/dev/unotable-nothing-here"],
                                str(tmp_path / "n.sqlite3"))
        stream = Stream(url + "/events")
        stream.start()
        end = time.monotonic() + 30
        while time.monotonic() < end and not stream.tables().get(port, {}).get("connected"):
            time.sleep(0.1)
        assert stream.tables()[port]["connected"]
        table.close()
        table = None
        while time.monotonic() < end and stream.tables()[port]["connected"]:
            time.sleep(0.1)
        views = stream.tables()
        assert not views[port]["connected"] and views[port]["why"]
        assert not views["/dev/unotable-nothing-here"]["connected"]
        with urllib.request.urlopen(url + "/state.json", timeout=10) as r:
            assert r.status == 200
        assert proc.poll() is None
    finally:
        stop_serve_and(proc, [table])




def test_the_tables_to_watch_given_found_or_both_each_once(monkeypatch):
    import types
    from unotable.serve import table_ports
    monkeypatch.setattr("unotable.commands.likely_boards",
                        lambda: [types.SimpleNamespace(device="/dev/ttyUSB0")])
    monkeypatch.setattr("unotable.sim.running", lambda: [{"port": "/dev/pts/7", "pid": 1}])

    def args(port, all_=False):
        return types.SimpleNamespace(port=port, all=all_)
    assert table_ports(args(["/dev/a", "/dev/b", "/dev/a"])) == ["/dev/a", "/dev/b"]
    assert table_ports(args("/dev/a")) == ["/dev/a"]          # `unotable -p X serve`
    assert table_ports(args(None, True)) == ["/dev/ttyUSB0", "/dev/pts/7"]
    assert table_ports(args(["/dev/pts/7"], True)) == ["/dev/pts/7", "/dev/ttyUSB0"]


def test_a_closed_night_served_from_the_database_as_standings_has_it(code, tmp_path, capsys):
    """`night start`, a round played and synced, `night close`; then `serve --night 1` shows
    the night's table and the very rows `standings --night 1 --json` prints."""
    db = str(tmp_path / "league.sqlite3")
    assert main(["night", "start", "Friday", "--db", db]) == 0
    table = sim.SimTable(EXAMPLES[0], pace=0, code=code)
    try:
        table.link.close()
        end = time.monotonic() + 30
        while not table.done and time.monotonic() < end:
            time.sleep(0.1)
        assert main(["sync", "-p", table.port, "--table", "hall", "--db", db]) == 0
    finally:
        table.close()
    assert main(["night", "close", "--db", db]) == 0
    capsys.readouterr()
    assert main(["standings", "--night", "1", "--json", "--db", db]) == 0
    want = json.loads(capsys.readouterr().out)
    proc, url = start_serve([], db, ["--night", "1"])
    try:
        with urllib.request.urlopen(url + "/state.json", timeout=10) as r:
            st = json.loads(r.read())
    finally:
        stop_serve(proc)
    assert [t["label"] for t in st["tables"]] == ["hall"]
    assert st["tables"][0]["phase"] == "round over" and "closed" in st["tables"][0]["why"]
    rows = want["standings"]
    assert st["standings"]["rows"] == rows and rows
    assert st["standings"]["source"] == "league" and st["standings"]["series"]
    assert {"penalty", "reject"} <= {a["kind"] for a in st["attention"]}   # the night's


def test_serve_all_finds_a_table_started_after_it(code, tmp_path):
    """--all with no table yet: the page is up; a simulated table started later (as `unotable
    sim` registers itself) shows within seconds."""
    data = tmp_path / "data"
    env = dict(os.environ, XDG_DATA_HOME=str(data))
    env.pop("UNOTABLE_PORT", None)
    proc, url = start_serve([], str(tmp_path / "all.sqlite3"), ["--all"], env=env)
    table = None
    try:
        stream = Stream(url + "/events")
        stream.start()
        table = sim.SimTable(EXAMPLES[0], pace=0, code=code)
        table.link.close()
        running = data / "unotable" / "running"
        running.mkdir(parents=True)
        (running / "1.json").write_text(json.dumps({"port": table.port, "pid": table.proc.pid,
                                                    "log": table.log}))
        end = time.monotonic() + 20
        while time.monotonic() < end and not stream.tables().get(table.port, {}).get(
                "connected"):
            time.sleep(0.1)
        assert stream.tables()[table.port]["connected"]
    finally:
        try:
            stop_serve(proc)
        finally:
            if table:
                table.close()


def test_a_table_back_on_another_port_leaves_no_dead_card():
    hub = Hub()
    hub.publish("table", {"slot": "/dev/ttyUSB0", "key": "k1", "connected": False})
    hub.publish("table", {"slot": "/dev/ttyUSB3", "key": "k2", "connected": False})
    hub.publish("table", {"slot": "/dev/ttyUSB1", "key": "k1", "connected": True})
    assert sorted(hub.tables) == ["/dev/ttyUSB1", "/dev/ttyUSB3"]


def test_a_table_that_comes_back_raises_its_old_items_no_more(tmp_path):
    posts = []
    w = Watcher("/dev/x", str(tmp_path / "d.sqlite3"), lambda k, d: posts.append((k, d)))
    b = Board("t", "hall")
    with open(EXAMPLES[1]) as f:
        items = b.replay(f)
    assert items
    w.board = b
    w._news(None, items, False)
    with open(EXAMPLES[1]) as f:             # connected again: the log replayed from its start
        again = Board("t", "hall").replay(f)
    w._news(None, again, False)
    sent = [d for k, d in posts if k == "attention"]
    assert len(sent) == 1 and len(sent[0]) == len(items)


def test_ctrl_c_stops_the_scoreboard_with_exit_0(tmp_path):
    import signal
    proc, url = start_serve(["/dev/unotable-nothing-here"], str(tmp_path / "c.sqlite3"))
    with urllib.request.urlopen(url + "/state.json", timeout=10) as r:
        assert r.status == 200
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and "Traceback" not in err and not err.strip(), err
