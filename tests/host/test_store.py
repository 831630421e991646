"""The host database: idempotent, resumable sync; conflicts refused; rounds found by replay."""
import os
import sqlite3

import pytest

from uno.bot import Bot
from uno.cards import NCARDS, Registry
from uno.events import MATCH_OVER, ROUND, ROUND_OVER
from uno.record import Replay
from uno.table import Table
from unotable.store import Conflict, Store, default_path, table_id

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUND_4P = os.path.join(ROOT, "examples", "round-4p.jsonl")


def records_of(path):
    """A table script as the board's log would send it: (seq, t, wall, inp)."""
    run = Replay()
    with open(path) as f:
        return [(seq, run.t, False, inp) for seq, inp, evs in run.run(f)]


def bot_night(n, seed=1):
    """n inputs of 4 bots, with their events (copied: the table reuses its list)."""
    t = Table()
    b = Bot(t, [1, 2, 3, 4], seed=seed)
    recs, evs = [], []
    for seq in range(1, n + 1):
        inp, e = b.step()
        recs.append((seq, seq * 700, False, inp))
        evs.append((seq, list(e)))
    return recs, evs


def count(store, table):
    return store.db.execute("SELECT count(*) FROM inputs WHERE table_id = ?",
                            (table,)).fetchone()[0]


@pytest.fixture
def store(tmp_path):
    with Store(str(tmp_path / "db" / "tables.sqlite3")) as s:
        yield s


def test_the_same_records_twice_are_stored_once(store):
    recs = records_of(ROUND_4P)
    assert store.add("t1", recs) == len(recs)
    assert store.add("t1", recs) == 0
    assert store.add("t1", recs[10:20] + recs[:5]) == 0
    assert count(store, "t1") == len(recs)
    assert store.next_seq("t1") == recs[-1][0] + 1
    got = list(store.inputs("t1"))
    assert [g[0] for g in got] == [r[0] for r in recs]
    assert got[0][3] == {"in": "seat", "seat": 1}


def test_a_new_table_asks_from_seq_1(store):
    assert store.next_seq("nothing yet") == 1


def test_resume_after_a_cut_from_next_seq(store):
    recs = records_of(ROUND_4P)
    half = len(recs) // 2
    store.add("t1", recs[:half])
    assert store.next_seq("t1") == recs[half][0]
    store.add("t1", [r for r in recs if r[0] >= store.next_seq("t1")])
    assert [g[0] for g in store.inputs("t1")] == [r[0] for r in recs]


def test_a_cable_pulled_mid_batch_keeps_what_came(store):
    recs = records_of(ROUND_4P)

    def cut_at(k):
        for r in recs[:k]:
            yield r
        raise OSError("cable pulled")

    with pytest.raises(OSError):
        store.add("t1", cut_at(77), batch=50)
    assert store.next_seq("t1") == recs[77][0]
    assert store.add("t1", recs[76:]) == len(recs) - 77    # asked again from one before
    assert count(store, "t1") == len(recs)


def test_the_same_seq_with_other_content_is_refused_and_says_what_to_do(store):
    recs = records_of(ROUND_4P)
    store.add("t1", recs[:50])
    seq, t, wall, _ = recs[40]
    other = [recs[49], (recs[49][0] + 1,) + recs[50][1:], (seq, t, wall, (3, 4, 0))]
    with pytest.raises(Conflict) as e:
        store.add("t1", other)
    msg = str(e.value)
    assert e.value.seq == seq
    assert "seq %d" % seq in msg and "disagree" in msg and "another name" in msg
    assert e.value.incoming == '{"in":"seat","seat":4}'
    assert count(store, "t1") == 50        # nothing of the refused batch was stored
    with pytest.raises(Conflict):          # a different time is different content too
        store.add("t1", [(seq, t + 1, wall, recs[40][3])])


def test_a_real_file_keeps_the_night_and_the_deck(tmp_path):
    path = str(tmp_path / "tables.sqlite3")
    uids = [bytes((4, i, 0xA0, 1, 2, 3, i ^ 0x5A)) for i in range(NCARDS)]
    deck = Registry(uids)
    recs = [(1, 0, False, (3, 1, 0)), (2, 5, False, (1, uids[7])), (3, 1750000000, True, (5,))]
    with Store(path) as s:
        s.add_table("hall-3", board="uno-hub", port="/dev/ttyUSB0")
        s.set_registry("hall-3", deck)
        assert s.add("hall-3", recs) == 3
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with Store(path) as s:
        (row,) = s.tables()
        assert row["id"] == "hall-3" and row["board"] == "uno-hub" and row["inputs"] == 3
        assert (row["first"], row["last"]) == (1, 3)
        assert s.registry("hall-3").uid(7) == uids[7]
        got = list(s.inputs("hall-3"))
        assert got[1][3] == {"in": "shoe", "uid": uids[7].hex()}   # an enrolled deck: UIDs
        assert got[2][1:3] == (1750000000, True)
        assert list(s.script_lines("hall-3"))[2] == '{"seq":3,"in":"shuffle"}'
        s.set_registry("hall-3", deck)                              # the same deck: fine
        with pytest.raises(Conflict, match="deck .* changed"):
            s.set_registry("hall-3", Registry(uids[1:] + uids[:1]))


def test_default_path_and_table_ids(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == str(tmp_path / ".local" / "share" / "unotable" / "tables.sqlite3")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == str(tmp_path / "data" / "unotable" / "tables.sqlite3")
    assert table_id({"board": "uno-hub"}, "/dev/ttyUSB0") == "uno-hub@/dev/ttyUSB0"
    assert table_id({"board": "uno-hub"}, "/dev/ttyUSB0", "hall-3") == "hall-3"


def test_games_finds_the_round_of_the_example(store):
    store.add("t1", records_of(ROUND_4P))
    first = last = None
    with open(ROUND_4P) as f:
        for seq, inp, evs in Replay().run(f):
            for e in evs:
                if e[0] == ROUND:
                    first = seq
                elif e[0] == ROUND_OVER:
                    last, winner, points = seq, e[1], e[2]
    (g,) = store.games("t1")
    assert (g["match"], g["round"], g["seats"]) == (1, 1, [1, 2, 3, 4])
    assert (g["first"], g["last"], g["winner"], g["points"]) == (first, last, winner, points)
    assert g["scores"][winner] == points and g["match_winner"] is None


def test_games_of_a_night_split_into_matches_and_rounds(store):
    recs, evs = bot_night(4000)
    store.add("night", recs)
    want = []
    match = 1
    for seq, es in evs:
        for e in es:
            if e[0] == ROUND:
                if want and want[-1][4]:
                    match += 1
                want.append([match, e[1], seq, None, None])
            elif e[0] == ROUND_OVER:
                want[-1][3] = (seq, e[1], e[2])
            elif e[0] == MATCH_OVER:
                want[-1][4] = e[1]
    got = store.games("night")
    assert len(got) == len(want) > 10 and got[-1]["match"] > 1
    for g, w in zip(got, want):
        over = (g["last"], g["winner"], g["points"]) if g["winner"] else None
        assert [g["match"], g["round"], g["first"], over, g["match_winner"]] == w
    if got[-1]["winner"] is None:      # a round still on ends at the last stored input
        assert got[-1]["last"] == recs[-1][0]


class FakeLink:
    """What Store.sync uses of unotable.link.Link."""

    def __init__(self, recs, next_seq=None):
        self.recs = recs
        self.asked = []
        self.next = next_seq or recs[-1][0] + 1

    def fetch_registry(self):
        from uno.cards import synthetic_registry
        return synthetic_registry()

    def status(self):
        return {"next_seq": self.next}

    def sync_records(self, from_seq):
        self.asked.append(from_seq)
        return (r for r in self.recs if r[0] >= from_seq)


def test_sync_from_a_link_resumes_and_spots_another_log(store):
    recs = records_of(ROUND_4P)
    assert store.sync("t1", FakeLink(recs[:60])) == 60
    link = FakeLink(recs)
    assert store.sync("t1", link) == len(recs) - 60
    assert link.asked == [60]              # the last stored input again, as a check
    assert store.sync("t1", FakeLink(recs)) == 0
    other = [(seq, t, wall, (5,)) for seq, t, wall, _ in recs]   # another log, as long
    with pytest.raises(Conflict, match="disagree"):
        store.sync("t1", FakeLink(other))
    with pytest.raises(Conflict, match="erased"):
        store.sync("t1", FakeLink(recs[:20]))


def test_inputs_stored_with_the_synthetic_deck_refuse_another(store):
    store.add("t1", records_of(ROUND_4P))
    deck = Registry([bytes((4, i, 1, 2, 3, 4, 5)) for i in range(NCARDS)])
    with pytest.raises(Conflict, match="another name"):
        store.add("t1", [], deck)
    store.add("t2", [], deck)                  # a new table takes any deck
    assert store.registry("t2").uid(0) == deck.uid(0)
