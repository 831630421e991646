"""Game nights and standings (issue 12): rounds played at simulated tables, synced, counted per
player; nights by start and close or by date; the derived index rebuilt gives the same; the CSV
a spreadsheet opens."""
import json
import os
import time

from hostkit import FakeLink
from uno.events import CATCH, CHALLENGE, PENALTY, ROUND_OVER, V_ILLEGAL
from uno.record import Replay
from unotable import league, sim
from unotable.cli import main
from unotable.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUND4 = os.path.join(ROOT, "examples", "round-4p.jsonl")
ROUND2 = os.path.join(ROOT, "examples", "round-2p.jsonl")
BADGE = "04a1b2c3d4e5f6"
LI = "\u674e\u4f1f"
WALL = 1780000000         # 2026-05-28, mid-morning in Europe


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def named(src, dst, names, settings=None):
    """The script src with its seats named in the lobby (before the shuffle): a name, or a
    badge tapped after the seat's press; settings over the script's."""
    with open(src) as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        d = json.loads(line)
        if d.get("in") == "shuffle" and settings:     # rule inputs: the log keeps them
            out += [json.dumps({"in": "rule", "name": k, "value": v})
                    for k, v in settings.items()]
            settings = None
        if d.get("in") == "shuffle" and names:
            for seat, who in sorted(names.items()):
                if who.startswith("04"):
                    out.append(json.dumps({"in": "seat", "seat": seat}))
                    out.append(json.dumps({"in": "pad", "uid": who}))
                else:
                    out.append(json.dumps({"in": "player", "seat": seat, "name": who}))
            names = None
        out.append(line)
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")
    return dst


def records(path):
    """The script's inputs as a hub logs them: (seq, t, wall, inp); a round's end takes a
    seq more (its snapshot)."""
    with open(path) as f:
        lines = f.read().splitlines()
    rep = Replay()
    out, seq = [], 0
    for _, inp, evs in rep.run(lines):
        seq += 1
        out.append((seq, max(rep.t, 0), False, inp))
        if any(e[0] == ROUND_OVER for e in evs):
            seq += 1
    return out, rep


def stored(db, tid, label, path, wall):
    """A table's log in the host database, its clock note dating the first input at wall."""
    recs, _ = records(path)
    with Store(db) as s:
        s.name_table(tid, label)
        s.sync(tid, FakeLink(recs, tid=tid))
        s.add_clocks(tid, [(1, wall, 0)])
    return recs


def season(tmp_path, lines):
    """The season's standings by player, and the games, of one table whose log is these
    script lines."""
    path = str(tmp_path / "table.jsonl")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    db = str(tmp_path / "h.sqlite3")
    stored(db, "a000000000000001", "hall-1", path, WALL)
    with Store(db) as s:
        league.refresh_all(s)
        return by_player(league.standings(s, season=True)), s.games("a000000000000001")


def by_player(rows):
    return {d["player"]: d for d in rows}


def expected(path):
    """What the round's events say, counted here from the engine's own events."""
    _, rep = records(path)
    with open(path) as f:
        evs = [e for _, _, es in Replay().run(f.read().splitlines()) for e in list(es)]
    return rep, evs


def test_standings_from_rounds_played_at_simulated_tables(code, tmp_path, capsys):
    db = str(tmp_path / "night.sqlite3")
    one = named(ROUND4, str(tmp_path / "one.jsonl"), {1: "Ann", 2: "Bo", 3: LI, 4: BADGE})
    two = named(ROUND2, str(tmp_path / "two.jsonl"), {1: "Ann", 2: "Cy"})
    tables = [sim.SimTable(p, pace=0, code=code) for p in (one, two)]
    try:
        for t in tables:
            end = time.monotonic() + 30
            while not (t.status() or {}).get("board", {}).get("script_done"):
                assert time.monotonic() < end
                time.sleep(0.05)
            t.link.close()
        assert run(capsys, "players", "add", "Dee", "--uid", BADGE, "--db", db)[0] == 0
        for t, label in zip(tables, ("hall-1", "hall-2")):
            c, out, err = run(capsys, "sync", "--port", t.port, "--table", label, "--db", db)
            assert c == 0 and "1 new round for the standings" in out, out + err
    finally:
        for t in tables:
            t.close()
    c, out, err = run(capsys, "standings", "--season", "--json", "--db", db)
    assert c == 0, err
    got = json.loads(out)
    assert got["league_points"] == [3, 1] and got["night"] is None
    rows = by_player(got["standings"])
    assert sorted(rows) == sorted(["Ann", "Bo", LI, "Dee", "Cy"])   # the badge is Dee's
    assert [d["player"] for d in got["standings"]] == [
        d["player"] for d in sorted(got["standings"], key=lambda d: (
            -d["league_points"], -d["points"], d["player"]))]
    assert rows["Ann"]["rounds"] == 2 and rows["Bo"]["rounds"] == 1   # Ann at both tables
    # what the engine decided at each table, counted from its events
    want = {}
    counts = ("won", "points", "unos_forgotten", "penalties", "challenges_lost")
    for path, names in ((one, {1: "Ann", 2: "Bo", 3: LI, 4: "Dee"}), (two, {1: "Ann", 2: "Cy"})):
        _, evs = expected(path)
        for e in evs:
            if e[0] == ROUND_OVER:
                who, k, n = e[1], "won", 1
                want.setdefault(names[who], dict.fromkeys(counts, 0))["points"] += e[2]
            elif e[0] == CATCH:            # U2: e[2] was caught without UNO
                who, k, n = e[2], "unos_forgotten", 1
            elif e[0] == PENALTY:
                who, k, n = e[1], "penalties", 1
            elif e[0] == CHALLENGE:        # C1: (challenger, W4's seat, verdict)
                who, k, n = e[2] if e[3] == V_ILLEGAL else e[1], "challenges_lost", 1
            else:
                continue
            want.setdefault(names[who], dict.fromkeys(counts, 0))[k] += n
    for who, w in want.items():
        assert rows[who]["rounds_won"] == w["won"] and rows[who]["points"] == w["points"]
        assert rows[who]["league_points"] == w["won"]          # no match ended: 1 a round
        for k in counts[2:]:
            assert rows[who][k] == w[k], (who, k, rows[who], w)
    assert sum(d["rounds_won"] for d in rows.values()) == 2
    # the examples are picked to show a catch (U2) and a W4 challenge (tools/make_examples.py)
    assert sum(w["unos_forgotten"] for w in want.values()) >= 1
    assert sum(w["challenges_lost"] for w in want.values()) >= 1
    assert all(d["points"] == d["points_table"] for d in rows.values())   # scoring=winner
    c, out, err = run(capsys, "standings", "--season", "--db", db)
    assert c == 0 and out.startswith("season (every round); league points: 3 a match won")
    assert LI in out and "Dee" in out


def test_a_night_holds_the_rounds_that_ended_between_start_and_close(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    short = {"target": 10}              # one round ends the match: a match won counts
    a = named(ROUND4, str(tmp_path / "a.jsonl"), {1: "Ann", 2: "Bo", 3: "Cy", 4: "Dee"}, short)
    b = named(ROUND2, str(tmp_path / "b.jsonl"), {1: "Ann", 2: "Bo"})
    with Store(db) as s:
        league.start_night(s, "Friday league", now=WALL)
        league.close_night(s, now=WALL + 4 * 3600)
    stored(db, "a000000000000001", "hall-1", a, WALL + 3600)           # in the night
    stored(db, "b000000000000002", "hall-2", b, WALL + 2 * 86400)      # two days later
    with Store(db) as s:
        league.refresh_all(s)
        night = league.standings(s, night="Friday league")
        assert league.standings(s, night=1) == night
        assert sum(d["rounds"] for d in night) == 4 and by_player(night)["Ann"]["rounds"] == 1
        win = [d for d in night if d["rounds_won"]][0]
        assert win["matches_won"] == 1 and win["league_points"] == 3 + 1
        assert all(d["matches"] == 1 for d in night)
        day = time.strftime("%Y-%m-%d", time.localtime(WALL + 2 * 86400 + 60))
        dated = league.standings(s, night=day)
        assert sorted(d["player"] for d in dated) == ["Ann", "Bo"]
        assert league.standings(s, night=time.strftime("%Y-%m-%d", time.localtime(
            WALL + 3600 + 60))) == []          # that day's round is the named night's
        season = by_player(league.standings(s, season=True))
        assert season["Ann"]["rounds"] == 2
        series = league.night_series(s, "Friday league")
        assert [r["wall"] for r in series] == sorted(r["wall"] for r in series)
        assert {r["table"] for r in series} == {"hall-1"} and len(series) == 4
        assert league.current_night(s) is None
        three = league.standings(s, night=1, rule=(2, 0))
        assert [d["league_points"] for d in three if d["matches_won"]] == [2]
    c, out, err = run(capsys, "night", "list", "--json", "--db", db)
    rows = json.loads(out)
    assert [(r["id"], r["name"], r["rounds"]) for r in rows] == [
        (1, "Friday league", 1), (None, day, 1)]
    c, out, err = run(capsys, "night", "list", "--db", db)
    assert "Friday league" in out and "by date" in out
    c, out, err = run(capsys, "night", "start", "Saturday", "--db", db)
    assert c == 0 and "started" in out
    c, out, err = run(capsys, "night", "start", "Sunday", "--db", db)
    assert c == 2 and "night 'Saturday' is on already" in err and len(err.splitlines()) == 1
    c, out, err = run(capsys, "standings", "--json", "--db", db)      # the night that is on
    assert json.loads(out)["night"]["name"] == "Saturday"
    assert json.loads(out)["standings"] == []
    c, out, err = run(capsys, "night", "close", "--db", db)
    assert c == 0 and "closed" in out
    c, out, err = run(capsys, "night", "start", "Saturday", "--db", db)
    assert c == 2 and "another name" in err
    c, out, err = run(capsys, "standings", "--league-points", "5,2", "--keep", "--db", db)
    c, out, err = run(capsys, "standings", "--night", "1", "--json", "--db", db)
    assert json.loads(out)["league_points"] == [5, 2]


def test_the_index_rebuilt_from_the_inputs_gives_the_same_standings(tmp_path, monkeypatch):
    db = str(tmp_path / "h.sqlite3")
    stored(db, "a000000000000001", "hall-1", named(
        ROUND4, str(tmp_path / "a.jsonl"), {1: "Ann", 3: LI}), WALL)
    stored(db, "b000000000000002", None, ROUND2, WALL + 60)     # seats nobody named
    with Store(db) as s:
        league.refresh_all(s)
        before = league.standings(s, season=True)
        assert "seat 1 @ b000000000000002" in by_player(before)
        assert "seat 2 @ hall-1" in by_player(before)
        n = s.db.execute("SELECT count(*) FROM results").fetchone()[0]
        s.db.execute("DELETE FROM results")             # lost: it is only derived
        s.db.commit()
    with Store(db) as s:
        monkeypatch.setattr(league, "RESULTS", league.RESULTS + 1)    # a new index version
        assert league.refresh_all(s) == 2
        assert league.standings(s, season=True) == before
        assert s.db.execute("SELECT count(*) FROM results").fetchone()[0] == n
        assert league.refresh_all(s) == 0              # up to date: nothing replayed
    # a database from before nights, read-only: read as empty, nothing written
    old = str(tmp_path / "old.sqlite3")
    Store(old).close()
    with Store(old, readonly=True) as s:
        assert league.standings(s, season=True) == [] and league.nights(s) == []
        assert league.current_night(s) is None


def test_a_take_back_takes_its_counts_back(tmp_path):
    """A catch taken back (issue 10) and pressed again counts once: the index counts what
    stands, as the engine has it after the take-back."""
    names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Dee"}
    src = named(ROUND4, str(tmp_path / "a.jsonl"), names)
    with open(src) as f:
        lines = f.read().splitlines()
    inputs = [i for i, x in enumerate(lines) if '"in"' in x]
    for n, (_, inp, evs) in enumerate(Replay().run(lines)):
        caught = [e[2] for e in evs if e[0] == CATCH]
        if caught:
            break
    k = inputs[n]
    again = lines[:k + 1] + [json.dumps({"in": "undo", "n": 1}), lines[k]] + lines[k + 1:]
    path = str(tmp_path / "undo.jsonl")
    with open(path, "w") as f:
        f.write("\n".join(again) + "\n")
    got = []
    for i, p in enumerate((src, path)):
        db = str(tmp_path / ("h%d.sqlite3" % i))
        stored(db, "a000000000000001", "t", p, WALL)
        with Store(db) as s:
            league.refresh_all(s)
            got.append(league.standings(s, season=True))
    assert by_player(got[0])[names[caught[0]]]["unos_forgotten"] >= 1
    assert got[1] == got[0]


def test_a_new_group_after_a_match_is_counted_as_itself(tmp_path):
    """S1: at match over Bo leaves seat 2 and Cy joins seat 3; the lobby opens again, so the
    second match is Ann's and Cy's, and the standings say so (rounds are credited to the
    players seated when they were dealt)."""
    from uno.bot import Bot
    from uno.events import IN_PLAYER, IN_RULE, IN_SEAT, MATCH_OVER, P_MATCH_OVER
    from uno.rules import Settings
    from uno.script import dumps, input_dict
    from uno.table import Table
    t = Table(Settings())
    bot = Bot(t, [1, 2], seed=5)
    lines, winners = [], []

    def feed(*inps):
        for inp in inps:
            bot.keep(list(t.feed(inp)))
            lines.append(dumps(input_dict(inp, t.registry)))

    def match():
        while t.phase != P_MATCH_OVER:
            inp, evs = bot.step()
            lines.append(dumps(input_dict(inp, t.registry)))
            winners.extend(e[1] for e in evs if e[0] == MATCH_OVER)

    feed((IN_RULE, "target", 1),  # every round ends its match
         (IN_SEAT, 1, 0), (IN_PLAYER, 1, "Ann"), (IN_SEAT, 2, 0), (IN_PLAYER, 2, "Bo"))
    match()
    feed((IN_SEAT, 2, 1), (IN_SEAT, 3, 0), (IN_PLAYER, 3, "Cy"))
    bot.players = [1, 3]
    match()
    names = ({1: "Ann", 2: "Bo"}[winners[0]], {1: "Ann", 3: "Cy"}[winners[1]])
    got, games = season(tmp_path, lines)
    assert sorted(got) == ["Ann", "Bo", "Cy"]
    assert [(got[p]["rounds"], got[p]["matches"]) for p in ("Ann", "Bo", "Cy")] == \
        [(2, 2), (1, 1), (1, 1)]
    for p in ("Ann", "Bo", "Cy"):
        assert got[p]["matches_won"] == names.count(p)
    assert [(g["match"], g["seats"], sorted(g["players"].values())) for g in games] == \
        [(1, [1, 2], ["Ann", "Bo"]), (2, [1, 3], ["Ann", "Cy"])]


def test_csv_opens_right_in_a_spreadsheet(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    stored(db, "a000000000000001", "hall-1", named(
        ROUND4, str(tmp_path / "a.jsonl"), {1: "Ann", 3: LI}), WALL)
    out = tmp_path / "s.csv"
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))
    with open(out, "wb") as f:
        p = subprocess.run([sys.executable, "-m", "unotable.cli", "standings", "--season",
                            "--csv", "--db", db], stdout=f, stderr=subprocess.PIPE, env=env)
    assert p.returncode == 0, p.stderr
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfplayer,rounds,rounds_won,")
    assert LI.encode("utf-8") in data
    text = data[3:].decode("utf-8")
    rows = text.split("\r\n")
    assert rows[-1] == "" and all("\n" not in r for r in rows)   # CRLF, nothing else
    assert len(rows) - 2 == 4                      # one header row, four players
    import csv
    parsed = list(csv.reader(rows[:-1]))
    assert parsed[0] == list(league.KEYS)
    for r in parsed[1:]:
        assert all(x.replace(".", "", 1).isdigit() for x in r[1:]), r   # plain numbers


def test_standings_of_an_empty_database(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    c, out, err = run(capsys, "standings", "--db", db)
    assert c == 0 and "no rounds yet" in out
    c, out, err = run(capsys, "night", "list", "--db", db)
    assert c == 0 and out.startswith("no nights yet")
    assert not os.path.exists(db)              # a read leaves no file behind


def test_the_index_agrees_with_the_rounds_the_store_finds(tmp_path):
    """A long night of bots (several matches): rounds, winners, matches and the table's own
    scores in the index are what Store.games() finds replaying the same inputs."""
    from hostkit import bot_records
    db = str(tmp_path / "h.sqlite3")
    tid = "0123456789abcdef"
    with Store(db) as s:
        s.name_table(tid, "bots")
        s.sync(tid, FakeLink(bot_records(5000), tid=tid))
        league.refresh(s, tid)
        games = [g for g in s.games(tid) if g["winner"] is not None]
        rows = by_player(league.standings(s, season=True))
    assert len({g["match"] for g in games}) >= 3
    for seat in (1, 2, 3, 4):
        d = rows["seat %d @ bots" % seat]
        assert d["rounds"] == len(games)
        assert d["rounds_won"] == sum(g["winner"] == seat for g in games)
        assert d["points"] == sum(g["points"] for g in games if g["winner"] == seat)
        assert d["matches"] == sum(g["match_winner"] is not None for g in games)
        assert d["matches_won"] == sum(g["match_winner"] == seat for g in games)
        last = {}
        for g in games:
            last[g["match"]] = g["scores"]
        assert d["points_table"] == sum(sc[seat] for sc in last.values())


def test_csv_never_hands_a_spreadsheet_a_formula():
    # a player may be named "=1+1" (any printable text): the cell is text, never run
    import csv
    import io
    rows = [dict((k, 0) for k in league.KEYS) for _ in range(4)]
    for d, name in zip(rows, ("=1+1", "@SUM(A1)", "-Li", "Ann")):
        d["player"] = name
    out = io.StringIO()
    league.write_csv(rows, out)
    got = [r[0] for r in csv.reader(io.StringIO(out.getvalue().lstrip("\ufeff")))][1:]
    assert got == ["'=1+1", "'@SUM(A1)", "'-Li", "Ann"]


def test_with_teams_the_partners_win_the_round_and_the_match_too(tmp_path):
    """M4: a member going out wins for the team and each member scores the points. With
    teams=2 at four seats (1 and 3 against 2 and 4) the partner of the seat that went out was
    counted no round won, no points and no match won (the engine names the team's first seat
    as the match's winner)."""
    from uno.bot import Bot
    from uno.events import IN_PLAYER, IN_RULE, IN_SEAT, P_MATCH_OVER
    from uno.script import dumps, input_dict
    from uno.table import Table
    t = Table()
    bot = Bot(t, [1, 2, 3, 4], seed=7)
    lines = []
    for inp in [(IN_RULE, "teams", 2), (IN_RULE, "target", 1)] + [
            x for s, who in zip((1, 2, 3, 4), ("Ann", "Bo", "Cy", "Dee"))
            for x in ((IN_SEAT, s, 0), (IN_PLAYER, s, who))]:
        bot.keep(list(t.feed(inp)))
        lines.append(dumps(input_dict(inp, t.registry)))
    won = None
    while t.phase != P_MATCH_OVER:
        inp, evs = bot.step()
        lines.append(dumps(input_dict(inp, t.registry)))
        won = next((e for e in evs if e[0] == ROUND_OVER), won)
    rows, _ = season(tmp_path, lines)
    team = ("Ann", "Cy") if won[1] in (1, 3) else ("Bo", "Dee")
    for p in rows:
        d = rows[p]
        mine = p in team
        assert (d["rounds_won"], d["matches_won"], d["points"]) == (
            (1, 1, won[2]) if mine else (0, 0, 0)), p
        assert d["league_points"] == (4 if mine else 0)


def test_a_round_indexed_before_a_clock_note_gets_its_date_when_one_comes(tmp_path):
    # A boot synced before its clock was set: the round was indexed without a date and, never
    # looked at again, stayed out of every night. The next sync's clock note dates it.
    db = str(tmp_path / "h.sqlite3")
    recs, _ = records(ROUND4)
    with Store(db) as s:
        s.name_table("t1", "hall")
        s.sync("t1", FakeLink(recs, tid="t1"))
        assert league.refresh(s, "t1") == 1
        walls = s.db.execute("SELECT wall FROM results WHERE table_id = 't1'").fetchall()
        assert walls and all(w[0] is None for w in walls)
        s.add_clocks("t1", [(recs[-1][0] + 2, WALL, recs[-1][1])])   # after the round, same boot
        more = recs + [(recs[-1][0] + 3, recs[-1][1] + 500, False, (3, 1, 0))]
        s.sync("t1", FakeLink(more, tid="t1"))
        assert league.refresh(s, "t1") == 0                          # no new round, one dated
        walls = s.db.execute("SELECT wall FROM results WHERE table_id = 't1'").fetchall()
        assert all(w[0] is not None and abs(w[0] - WALL) < 3600 for w in walls), walls


def test_a_round_belongs_to_one_night_when_the_next_starts_in_the_second_the_last_closed(
        tmp_path):
    # nights are whole seconds, each holding its start and close: a night started in the
    # second the last one closed (a script, or a quick organiser) starts a second later, so a
    # round that ended in that second counts once
    db = str(tmp_path / "h.sqlite3")
    a = named(ROUND2, str(tmp_path / "a.jsonl"), {1: "Ann", 2: "Bo"})
    stored(db, "a000000000000001", "hall-1", a, WALL)
    with Store(db) as s:
        league.refresh_all(s)
        end = s.db.execute("SELECT max(wall) FROM results").fetchone()[0]
        assert end
        league.start_night(s, "Friday", now=end - 3600)
        league.close_night(s, now=end)             # the round ended in the closing second
        second = league.start_night(s, "Saturday", now=end)
        assert second["started"] == end + 1
        league.close_night(s, now=end)             # closed at once: never before it started
        third = league.start_night(s, "Sunday", now=end - 60)   # the host's clock went back
        assert third["started"] == end + 2
        counts = [league.night_rounds(s, n) for n in ("Friday", "Saturday", "Sunday")]
        assert counts == [1, 0, 0], counts
