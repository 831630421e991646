"""Exports of a stored night are the engine's record of it; verify catches what was changed."""
import csv
import io
import json
import os

import pytest

from uno.bot import Bot
from uno.cards import NCARDS, Registry
from uno.events import ROUND_OVER
from uno.record import Replay
from uno.table import Table
from unotable import export
from unotable.export import CSV_COLUMNS, export_csv, export_jsonl, verify, verify_stored
from unotable.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = {n: os.path.join(ROOT, "examples", n + ".jsonl")
            for n in ("round-2p", "round-4p", "round-10p", "party-4p")}


def script(name):
    with open(EXAMPLES[name]) as f:
        return f.read().splitlines()


def stored(name):
    """A store holding an example as synced records (the official-rules examples only: a
    record carries no settings line, its rules come from rule inputs)."""
    run = Replay()
    recs = [(seq, run.t, False, inp) for seq, inp, evs in run.run(script(name))]
    s = Store(":memory:")
    s.add("t", recs)
    return s


def exported(name):
    out = io.StringIO()
    export_jsonl(stored(name), "t", out)
    return out.getvalue().splitlines()


def edit(lines, pick, change):
    """The record with the first line that pick() accepts changed by change(d)."""
    out = list(lines)
    for i, line in enumerate(out):
        d = json.loads(line)
        if pick(d):
            change(d)
            out[i] = json.dumps(d)
            return out, d
    raise AssertionError("no such line")


@pytest.mark.parametrize("name", ["round-2p", "round-4p", "round-10p"])
def test_export_jsonl_is_the_engines_record_of_the_inputs(name):
    assert exported(name) == list(Replay().record(script(name)))


def test_export_of_a_range_is_that_part_of_the_whole():
    s = stored("round-4p")
    whole, part = io.StringIO(), io.StringIO()
    export_jsonl(s, "t", whole)
    n = export_jsonl(s, "t", part, from_seq=100, to_seq=120)
    lines = part.getvalue().splitlines()
    head = json.loads(lines[0])
    assert head.pop("range") == [100, 120]        # the header says it is a part
    assert n == len(lines) and head == json.loads(whole.getvalue().splitlines()[0])
    want = [l for l in whole.getvalue().splitlines()[1:] if 100 <= json.loads(l)["seq"] <= 120]
    assert lines[1:] == want and want


def test_csv_has_a_header_and_one_row_per_event():
    s = stored("round-4p")
    out = io.StringIO()
    n = export_csv(s, "t", out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    events = [(seq, len(evs)) for seq, inp, evs in Replay().run(script("round-4p"))]
    assert rows[0] == list(CSV_COLUMNS)
    assert n == len(rows) - 1 == sum(k for _, k in events)
    by = {}
    for r in rows[1:]:
        by.setdefault(int(r[0]), []).append(r)
    assert {seq: len(v) for seq, v in by.items()} == {seq: k for seq, k in events if k}
    over = [r for r in rows if r[3] == "round_over"][0]
    assert over[5:8] == ["", "", ""] and over[8].startswith("points=")
    assert any(r[3] == "play" and r[2].startswith("pad ") and r[5] for r in rows)
    reject = [r for r in rows if r[3] == "reject"][0]
    assert reject[7] and reject[6] == ""


def inputs_of(name):
    with open(EXAMPLES[name]) as f:
        return sum(1 for line in f if '"in"' in line)


def test_verify_passes_on_an_exported_record_and_on_table_scripts():
    rep = verify(exported("round-4p"))
    assert rep.ok and rep.kind == "record", str(rep)
    assert (rep.inputs, rep.rounds) == (inputs_of("round-4p"), 1) and rep.rejections > 0
    for name in EXAMPLES:
        rep = verify(script(name))
        assert rep.ok and rep.kind == "script", (name, str(rep))
    assert verify(Replay().record(script("party-4p"))).ok       # a house-rules record


def test_verify_names_the_seq_whose_events_were_edited():
    lines, d = edit(exported("round-4p"), lambda d: d.get("ev") == "play" and d["seq"] > 60,
                    lambda d: d.update(card="B9" if d["card"] != "B9" else "R9"))
    rep = verify(lines)
    assert not rep.ok
    (seq, what), = rep.problems
    assert seq == d["seq"] and '"card":"%s"' % d["card"] in what and "engine decides" in what
    lines, d = edit(exported("round-4p"), lambda d: d.get("ev") == "round_over",
                    lambda d: d.update(points=d["points"] + 1))
    assert [p[0] for p in verify(lines).problems] == [d["seq"]]


def test_verify_finds_a_dropped_event():
    lines = exported("round-4p")
    i = next(i for i, l in enumerate(lines) if '"ev":"turn"' in l)
    rep = verify(lines[:i] + lines[i + 1:])
    assert rep.problems[0][0] == json.loads(lines[i])["seq"]
    assert "no more events" in rep.problems[0][1]


def renumber(lines, after, by):
    out = []
    for l in lines:
        d = json.loads(l)
        if d.get("seq", 0) > after:
            d["seq"] += by
        out.append(json.dumps(d))
    return out


def test_verify_finds_a_gap():
    rep = verify(renumber(exported("round-4p"), 90, 2))
    assert [p[0] for p in rep.problems] == [93] and "91..92" in rep.problems[0][1]
    lines = exported("round-4p")                      # an input lost: the replay goes on
    cut = [l for l in lines if json.loads(l).get("seq") != 50]
    assert verify(cut).problems[0][0] == 51


def at(lines, seq):
    """The line number of the input line of seq."""
    return next(i for i, l in enumerate(lines, 1) if l.startswith('{"seq":%d,' % seq)
                and '"in"' in l)


def test_the_seq_a_hub_snapshot_takes_after_a_round_is_no_gap():
    lines = exported("round-4p")
    last = json.loads(lines[-1])["seq"]
    for skip, ok in ((2, True), (3, False)):     # the next round, after the snapshot
        more = list(Replay().record(lines + ['{"seq":%d,"in":"shuffle"}' % (last + skip)]))
        assert more[-1].startswith('{"seq":%d,"ev":"round"' % (last + skip))
        rep = verify(more)
        assert rep.ok == ok and rep.rounds == 2
        assert ok or rep.problems == [(last + 3, "line %d: seqs %d..%d are missing before it"
                                       % (at(more, last + 3), last + 1, last + 2))]


def test_verify_finds_a_duplicate():
    lines = exported("round-4p")
    i = next(i for i, l in enumerate(lines) if l.startswith('{"seq":70,'))
    j = next(j for j, l in enumerate(lines) if l.startswith('{"seq":71,'))
    rep = verify(lines[:j] + lines[i:j] + lines[j:])
    assert rep.problems[0][0] == 70 and "again" in rep.problems[0][1]
    rep = verify(script("round-2p")[:30] + ['{"seq":3,"in":"seat","seat":2}'])
    assert [p[0] for p in rep.problems] == [3]


def test_verify_counts_every_card_at_each_round_end(monkeypatch):
    real = export.snapshot

    def one_card_lost(t):
        s = real(t)
        s["where"] = s["where"].replace("s", "p", 1)
        return s

    monkeypatch.setattr(export, "snapshot", one_card_lost)
    rep = verify(script("round-4p"))
    n = inputs_of("round-4p")           # the round ends at its last input
    assert [p[0] for p in rep.problems] == [n, n]
    assert "the shoe" in rep.problems[0][1] and "the pile" in rep.problems[1][1]


def test_verify_a_bot_night_with_an_enrolled_deck():
    uids = [bytes((4, i, 7, 7, 7, 7, 255 - i)) for i in range(NCARDS)]
    deck = Registry(uids)
    t = Table(registry=deck)
    b = Bot(t, [1, 2, 3, 4], seed=5, mistakes=30)
    s = Store(":memory:")
    s.set_registry("hall", deck)
    seq, recs = 1, []
    for _ in range(3000):
        inp, evs = b.step()
        recs.append((seq, seq * 900, False, inp))
        seq += 2 if any(e[0] == ROUND_OVER for e in evs) else 1   # as the hub logs them
    s.add("hall", recs)
    rep = verify_stored(s, "hall")
    assert rep.ok and rep.inputs == 3000 and rep.rounds > 5, str(rep)
    out = io.StringIO()
    export_jsonl(s, "hall", out)
    lines = out.getvalue().splitlines()
    assert any('"in":"pad","uid":"' in l for l in lines) and verify(lines, deck).ok
    assert not verify(lines).ok                  # without the deck it cannot be checked


def test_csv_names_each_seats_player():
    """Issue 12: a badge by its enrolled name, a name the host gave as it is, an unnamed seat
    empty; the record keeps the badge's UID (names live on the host)."""
    from unotable.players import add
    lines = script("round-4p")                         # seats 1 and 2 named as they join
    assert lines[1:3] == ['{"in":"seat","seat":1}', '{"in":"seat","seat":2}']
    lines[2:2] = ['{"in":"pad","uid":"04a1b2c3d4e5f6"}']
    lines[4:4] = ['{"in":"player","seat":2,"name":"\u674e\u4f1f"}',
                  '{"in":"seat","seat":3}', '{"in":"player","seat":3,"name":"=1+1"}',
                  '{"in":"seat","seat":3,"long":true}']   # joins, is named, leaves
    run = Replay()
    recs = [(seq, run.t, False, inp) for seq, inp, evs in run.run(lines)]
    s = Store(":memory:")
    s.add("t", recs)
    add(s, "Ann", "04a1b2c3d4e5f6")
    out = io.StringIO()
    export_csv(s, "t", out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0][-1] == "player"
    by_seat = {}
    for r in rows[1:]:
        if r[4] and int(r[0]) > 4:                     # after the names (a join has none yet)
            by_seat.setdefault(int(r[4]), set()).add(r[-1])
    assert by_seat[1] == {"Ann"} and by_seat[2] == {"\u674e\u4f1f"}
    assert by_seat[3] == {"", "'=1+1"}                 # named while it sat, none after
    assert ["'=1+1"] == [r[-1] for r in rows if r[3] == "player" and r[4] == "3"]   # text

    rec = io.StringIO()
    export_jsonl(s, "t", rec)
    assert '"ev":"player","seat":1,"uid":"04a1b2c3d4e5f6"' in rec.getvalue()
