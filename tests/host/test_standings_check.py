"""The standings checked against a recomputation of their own: random nights of random players
(uno.bot, 2..10 seats, several matches, rules changed between matches, new groups, seats named
by name and by badge, seats rebound, take-backs), stored as sync stores them, and every
standings field counted here again from the engine's events, as the players saw them, without
league.py's replay. Then: the same rounds synced twice, two tables a night, a night's start
and close, a badge enrolled after the night."""
import time
from binascii import hexlify

from hostkit import FakeLink
from uno.bot import Bot, Rng
from uno.cards import rank
from uno.events import (CARD_BACK, CATCH, CHALLENGE, IN_PAD, IN_PLAYER, IN_RULE, IN_SEAT,
                        IN_UNDO, LEAVE, MATCH_OVER, P_LOBBY, P_MATCH_OVER, P_PLAY, P_ROUND_OVER,
                        PENALTY, PLAY, PLAYER, REJECT, ROUND, ROUND_OVER, R_UNDO_PAST, UNDO,
                        V_ILLEGAL, W_FALSE_CATCH, W_FALSE_UNO)
from uno.rules import Settings
from uno.table import Table
from unotable import league, players
from unotable.store import Store

WALL = 1780000000
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu",
         "\u674e\u4f1f", "Mo"]
BADGES = ["04%012x" % (0xa1b2c3d4e5f6 + 17 * i) for i in range(8)]
ENROLLED = {BADGES[0]: "Ann", BADGES[1]: "Zed", BADGES[2]: "Yul"}   # Ann: by name and by badge
FIELDS = ("rounds", "rounds_won", "matches", "matches_won", "points", "points_table",
          "unos_forgotten", "false_calls", "false_catches", "challenges_won", "challenges_lost",
          "penalties", "penalty_cards", "w4s")
W4 = rank(next(c for c in range(108) if c // 4 == 26))      # a W4's rank, from the deck


class Session:
    """One table through an evening: the inputs as the hub logs them (seq, ms, wall, inp),
    and each ended round as counted here: (last seq, ms, {seat: (who, counts)})."""

    def __init__(self, seed, start_ms=0):
        self.t = Table(Settings())
        self.rng = Rng(seed)
        self.seed = seed
        self.recs = []
        self.seq = 1
        self.ms = start_ms
        self.bound = {}          # seat: who, from the PLAYER and LEAVE events
        self.rounds = []
        self.cur = None
        self.stack = []          # the counts of the round's accepted inputs (take-backs)
        self.undone = 0
        self.refused = 0
        self.bot = None
        self.live = {}

    def team(self, seat):
        n = self.t.rules.teams
        seats = self.t.seats
        if not n:
            return [seat]
        return [s for k, s in enumerate(seats) if k % n == seats.index(seat) % n]

    def feed(self, inp):
        """The input at the table as the hub feeds it (with its time), kept as it logs it."""
        before = list(self.t.scores)
        self.ms += 1000
        evs = [tuple(e) for e in self.t.feed(inp, self.ms)]
        if self.bot is not None:
            self.bot.keep(evs)
        self.after(inp, evs, before)
        return evs

    def step(self):
        return self.feed(self.bot.next_input())

    def after(self, inp, evs, before):
        self.recs.append((self.seq, self.ms, False, inp))
        self.live[self.seq] = evs
        self.seq += 1
        mine = []
        for e in evs:
            c = e[0]
            if c == PLAYER:
                self.bound[e[1]] = e[2]
            elif c == LEAVE:
                self.bound.pop(e[1], None)
            elif c == CARD_BACK and self.bot is not None:   # the physical shoe, as put back
                shoe = self.bot.shoe
                if e[2] == 0 and e[1] in shoe:
                    shoe.remove(e[1])
                if e[3] == 0:
                    shoe.append(e[1])
            elif c == ROUND:
                self.cur = {"seats": list(self.t.seats), "n": {}}
                self.stack = []
            elif c == CATCH:
                mine.append((e[2], "unos_forgotten", 1))
            elif c == PENALTY:
                mine += [(e[1], "penalties", 1), (e[1], "penalty_cards", e[2])]
                if e[3] in (W_FALSE_UNO, W_FALSE_CATCH):
                    mine.append((e[1], "false_calls" if e[3] == W_FALSE_UNO else
                                 "false_catches", 1))
            elif c == CHALLENGE:
                ok = e[3] == V_ILLEGAL
                mine += [(e[1], "challenges_won" if ok else "challenges_lost", 1),
                         (e[2], "challenges_lost" if ok else "challenges_won", 1)]
            elif c == PLAY and rank(e[2]) == W4:
                mine.append((e[1], "w4s", 1))
            elif c == ROUND_OVER:       # M4: a member going out wins for the team
                for s in self.team(e[1]):
                    mine += [(s, "rounds_won", 1), (s, "points", e[2])]
            elif c == MATCH_OVER:
                mine += [(s, "matches_won", 1) for s in self.team(e[1])]
                mine += [(s, "matches", 1) for s in self.cur["seats"]]
        if evs and evs[0][0] == UNDO:
            del self.stack[len(self.stack) - evs[0][1]:]
        elif self.cur is not None and evs and not (len(evs) == 1 and evs[0][0] == REJECT):
            self.stack.append(mine)
        if any(e[0] == ROUND_OVER for e in evs):
            n = {s: dict.fromkeys(FIELDS, 0) for s in self.cur["seats"]}
            for s in n:
                n[s]["rounds"] = 1
                n[s]["points_table"] = self.t.scores[s] - before[s]
            for s, k, v in (x for m in self.stack for x in m):
                if s in n:
                    n[s][k] += v
            self.rounds.append((self.seq - 1, self.ms, {s: (self.bound.get(s), n[s])
                                                        for s in n}))
            assert {s: self.bound.get(s) for s in n} == {s: self.t.players[s] for s in n}
            self.seq += 1               # the round's end takes a seq more (its snapshot)
            self.cur = None

    def sit(self, seats, who):
        """A new group in the lobby: seats join and are named (a name, or a badge tapped)."""
        for s in list(self.t.seats):
            if s not in seats:
                self.feed((IN_SEAT, s, 1))
        for s in seats:
            if s not in self.t.seats:
                self.feed((IN_SEAT, s, 0))
                w = who.pop()
                if w is None:
                    continue
                self.feed((IN_PAD, bytes.fromhex(w)) if w.startswith("04") else
                          (IN_PLAYER, s, w))

    def match(self, seats, regroup):
        rng = self.rng
        t = self.t
        pool = NAMES[:] + BADGES[:] + [None, None]
        rng.shuffle(pool)
        if t.phase == P_MATCH_OVER and regroup:
            free = [s for s in range(1, 11) if s not in t.seats]
            self.feed((IN_SEAT, free[0], 0) if free else (IN_SEAT, t.seats[-1], 1))
            if free:
                self.feed((IN_SEAT, free[0], 1))
        if t.phase == P_LOBBY:
            taken = set(self.bound.values())
            self.sit(seats, [w for w in pool if w is None or
                             (bytes.fromhex(w) if w.startswith("04") else w) not in taken])
            for s in seats[:1] if rng.chance(500) else ():     # a seat rebound to another
                self.feed((IN_PLAYER, s, [w for w in NAMES if w not in self.bound.values()
                                          ][0]))
        n = len(seats)
        self.feed((IN_RULE, "false_uno", rng.below(3)))     # rules as the host sets them
        self.feed((IN_RULE, "false_catch", rng.below(3)))
        self.feed((IN_RULE, "scoring", rng.pick(["winner", "losers"])))
        self.feed((IN_RULE, "elimination", rng.pick(["no", "no", "yes"])))
        teams = [k for k in (2, 3, 5) if n % k == 0 and n // k >= 2]
        self.feed((IN_RULE, "teams", rng.pick(teams) if teams and rng.chance(700) else 0))
        self.feed((IN_RULE, "target", 30 + rng.below(120)))
        if self.bot is None:
            self.bot = Bot(t, seats, seed=self.seed, mistakes=20, call=600, catch=700,
                           challenge=500)
        self.bot.players = list(seats)
        while True:
            evs = self.step()
            if t.phase == P_PLAY and rng.chance(40) and len(evs) > 1 and evs[0][0] != REJECT:
                self.undone += 1
                assert self.feed((IN_UNDO, 1 + rng.below(2)))[0][0] in (UNDO, REJECT)
            if any(e[0] == ROUND_OVER for e in evs):
                # the round's end is never taken back (a take-back never crosses it)
                if rng.chance(300):
                    self.refused += 1
                    assert self.feed((IN_UNDO, 1))[0][:2] == (REJECT, R_UNDO_PAST)
                if t.phase == P_MATCH_OVER:
                    return
                assert t.phase == P_ROUND_OVER

    def evening(self, matches):
        seats = None
        for i in range(matches):
            regroup = seats is None or self.rng.chance(600)
            if regroup:
                n = 2 + self.rng.below(9)
                pick = list(range(1, 11))
                self.rng.shuffle(pick)
                seats = sorted(pick[:n])
            self.match(seats, regroup)
        return self


def display(who, tid, label, seat, enrolled):
    if who is None:
        return "seat %d @ %s" % (seat, label or tid)
    if isinstance(who, str):
        return who
    h = hexlify(who).decode()
    return enrolled.get(h) or "badge " + h[:8]


def expect(tables, pick, enrolled, rule=(3, 1)):
    """The standings as counted here: the rounds pick(wall) keeps, by the player's name."""
    out = {}
    for tid, label, wall0, sess in tables:
        for last, ms, seats in sess.rounds:
            if not pick(wall0 + ms // 1000):
                continue
            for s, (who, n) in seats.items():
                d = out.setdefault(display(who, tid, label, s, enrolled),
                                   dict.fromkeys(FIELDS, 0))
                for k in FIELDS:
                    d[k] += n[k]
    for name, d in out.items():
        d["player"] = name
        d["avg_points"] = round(d["points"] / d["rounds"], 1) if d["rounds"] else 0.0
        d["league_points"] = rule[0] * d["matches_won"] + rule[1] * d["rounds_won"]
    return sorted(out.values(), key=lambda d: (-d["league_points"], -d["points"], d["player"]))


def store(db, tid, label, sess, wall0, parts=3):
    """As sync stores a table: in parts (a round cut in two among them), each part synced
    twice, the clock note dating the table's first input at wall0; the index refreshed."""
    recs = sess.recs
    with Store(db) as s:
        s.name_table(tid, label)
        s.add_clocks(tid, [(1, wall0, 0)])
        for k in range(1, parts + 1):
            part = recs[:len(recs) * k // parts]
            for _ in range(2):
                s.sync(tid, FakeLink(part, tid=tid))
                league.refresh(s, tid)


def test_standings_hold_up_against_the_events_counted_again(tmp_path):
    t0 = time.monotonic()
    db = str(tmp_path / "h.sqlite3")
    day = 86400
    # night 1: two tables, the night closed after the first one's third round; the rest of
    # that evening is its date's night. Night 2: a table; the day after, a table unnamed.
    a = Session(1).evening(3)
    b = Session(2, start_ms=37000).evening(3)
    c = Session(3).evening(4)
    d = Session(4).evening(2)
    tables = [("a000000000000001", "hall-1", WALL, a), ("b000000000000002", "hall-2", WALL, b),
              ("c000000000000003", None, WALL + 3 * day, c),
              ("d000000000000004", "hall-4", WALL + 4 * day, d)]
    assert len(a.rounds) > 3
    close = WALL + a.rounds[2][1] // 1000 + 1     # a second after a's third round ended
    with Store(db) as s:
        league.start_night(s, "Friday", now=WALL)
        league.close_night(s, now=close)
        league.start_night(s, "Monday", now=WALL + 3 * day)
        league.close_night(s, now=WALL + 4 * day - 1)
    for tid, label, wall0, sess in tables:
        store(db, tid, label, sess, wall0)
    with Store(db) as s:
        for badge, name in ENROLLED.items():      # badges enrolled after the nights
            players.add(s, name, badge)
        league.refresh_all(s)

        def check(got, want):
            g_ = {r["player"]: r for r in got}
            w_ = {r["player"]: r for r in want}
            for k in sorted(set(g_) | set(w_)):
                x, y = g_.get(k, {}), w_.get(k, {})
                dif = {f: (x.get(f), y.get(f)) for f in FIELDS + ("league_points",)
                       if x.get(f) != y.get(f)}
                if dif:
                    print("DIFF", k, dif)
            assert [r["player"] for r in got] == [r["player"] for r in want]
            for g, w in zip(got, want):
                assert {k: g[k] for k in w} == w, g["player"]
        friday = lambda w: WALL <= w <= close                                 # noqa: E731
        check(league.standings(s, night="Friday"), expect(tables, friday, ENROLLED))
        date = time.strftime("%Y-%m-%d", time.localtime(WALL))
        start, end = league._day(date)
        check(league.standings(s, night=date), expect(
            tables, lambda w: start <= w <= end and not friday(w), ENROLLED))
        check(league.standings(s, night="Monday"), expect(
            tables, lambda w: WALL + 3 * day <= w < WALL + 4 * day, ENROLLED))
        check(league.standings(s, season=True, rule=(2, 1)),
              expect(tables, lambda w: True, ENROLLED, (2, 1)))
        n = s.db.execute("SELECT count(DISTINCT table_id || ':' || first) FROM results"
                         ).fetchone()[0]
        assert n == sum(len(x[3].rounds) for x in tables)
    assert sum(x[3].undone for x in tables) > 3 and sum(x[3].refused for x in tables) > 0
    assert time.monotonic() - t0 < 20
