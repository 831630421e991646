"""League standings over a season (issue 12): 200 nights x 10 tables x 40 rounds, 4-6 seats a
round, written straight into the results index (unotable/league.py) of a fresh SQLite file;
then `standings --season` and one night's standings timed (best of 5), with the query plans
that show which indexes SQLite uses.

    PYTHONPATH=firmware:host python bench/standings_bench.py [nights] [tables] [rounds]

Aim (issue 12): the season's standings in 1 s or less.
"""
import os
import random
import sys
import tempfile
import time

from unotable import league
from unotable.store import Store

START = 1780000000          # the first night, 19:00 or so
PLAYERS = 120               # names; a few badges and unnamed seats besides


def season(s, nights, tables, rounds, rng):
    tids = ["%016x" % (0xa000 + k) for k in range(tables)]
    for tid in tids:
        s.name_table(tid, "hall-%s" % tid[-2:])
    names = ["Player %03d" % i for i in range(PLAYERS)]
    badges = ["04%012x" % rng.getrandbits(48) for _ in range(10)]
    s.db.executescript("CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, uid TEXT "
                       "UNIQUE)")
    s.db.executemany("INSERT INTO players VALUES (?, ?)",
                     [("Badge %d" % i, u) for i, u in enumerate(badges)])
    cols = 8 + len(league.COUNTS)
    sql = "INSERT INTO results VALUES (%s)" % ",".join("?" * cols)
    rows = 0
    for n in range(nights):
        t0 = START + n * 7 * 86400
        s.db.execute("INSERT INTO nights (name, started, closed) VALUES (?, ?, ?)",
                     ("Night %d" % (n + 1), t0, t0 + 5 * 3600))
        batch = []
        for k, tid in enumerate(tids):
            seq = n * 4000 + 1
            match = n * 4 + 1
            for r in range(rounds):
                seats = rng.randint(4, 6)
                who = rng.sample(range(PLAYERS + len(badges) + 2), seats)
                winner = rng.randrange(seats)
                pts = rng.randint(20, 250)
                ends = r % 10 == 9
                last = seq + rng.randint(60, 120)
                for i, p in enumerate(who):
                    if p < PLAYERS:
                        kind, value = "name", names[p]
                    elif p < PLAYERS + len(badges):
                        kind, value = "uid", badges[p - PLAYERS]
                    else:
                        kind, value = "seat", "%s:%d" % (tid, i + 1)
                    won = i == winner
                    batch.append((kind, value, tid, seq, i + 1, last,
                                  t0 + 300 + r * 420 + k, match, int(won), int(ends),
                                  int(won and ends), pts if won else 0, pts if won else 0,
                                  rng.random() < 0.15, rng.random() < 0.05,
                                  rng.random() < 0.03, rng.random() < 0.04,
                                  rng.random() < 0.04, rng.randint(0, 2), rng.randint(0, 6),
                                  rng.randint(0, 1)))
                seq = last + 2
                match += ends
        s.db.executemany(sql, batch)
        rows += len(batch)
    # the index is up to date with the (empty) stored inputs: `standings` replays nothing
    s.db.executemany("INSERT INTO results_seen VALUES (?, ?, 0)",
                     [(tid, league.RESULTS) for tid in tids])
    s.db.commit()
    s.db.execute("ANALYZE")
    return rows


def best(f, n=5):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        r = f()
        out.append(time.perf_counter() - t)
    return min(out), r


def _cli(path, *argv):
    from unotable.cli import main as cli
    out = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        assert cli(["standings", "--db", path, *argv]) == 0
    finally:
        sys.stdout.close()
        sys.stdout = out


def main():
    a = [int(x) for x in sys.argv[1:4]]
    nights, tables, rounds = a + [200, 10, 40][len(a):]
    rng = random.Random(12)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "season.sqlite3")
        with Store(path) as s:
            league.ready(s)
            t = time.perf_counter()
            rows = season(s, nights, tables, rounds, rng)
            took = time.perf_counter() - t
            print("season: %d nights x %d tables x %d rounds = %d rounds, %d results rows "
                  "(one per seat), written in %.1f s; file %.1f MB" % (
                      nights, tables, rounds, nights * tables * rounds, rows, took,
                      os.path.getsize(path) / 1e6))
        with Store(path) as s:
            sec, table = best(lambda: league.standings(s, season=True))
            print("standings --season: %.3f s (best of 5), %d players; leader %s with %d league "
                  "points" % (sec, len(table), table[0]["player"], table[0]["league_points"]))
            night = "Night %d" % (nights // 2)
            sec, _ = best(lambda: _cli(path, "--season"))
            print("unotable standings --season (the whole command, its table printed): %.3f s "
                  "(best of 5)" % sec)
            sec, table = best(lambda: league.standings(s, night=night))
            print("standings --night %r: %.4f s (best of 5), %d players" % (
                night, sec, len(table)))
            sec, series = best(lambda: league.night_series(s, night))
            print("night_series(%r): %.4f s (best of 5), %d rows" % (night, sec, len(series)))
            day = time.strftime("%Y-%m-%d", time.localtime(START + 3 * 86400))
            s.db.execute("UPDATE results SET wall = wall + 3 * 86400 WHERE table_id = ? AND "
                         "wall < ?", ("%016x" % 0xa000, START + 86400))   # a round off-night
            sec, table = best(lambda: league.standings(s, night=day))
            print("standings --night %s (by date, outside the named nights): %.4f s (best of "
                  "5), %d players" % (day, sec, len(table)))
            print("query plan, season (SCAN of the table in its primary key's order, which "
                  "starts with the player: no temporary B-tree for the GROUP BY):")
            for line in league.query_plan(s):
                print("  " + line)
            print("query plan, one night:")
            for line in league.query_plan(s, night):
                print("  " + line)
            print("query plan, a date night:")
            for line in league.query_plan(s, day):
                print("  " + line)


if __name__ == "__main__":
    main()
