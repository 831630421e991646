"""The table's chain in the host: sync keeps tags, heads and gaps; an export carries them;
verify finds every change a forger can make without the table's key, and names the line."""
import json
import random

import pytest

from hostkit import KEY, TID, FakeLink, bot_records, chained, export_lines, regenerate
from unotable.export import verify, verify_stored
from unotable.store import Store


def synced(n=600, gaps=(), wall_every=0, key=KEY, every=50):
    recs, heads = chained(bot_records(n, wall_every=wall_every), gaps=gaps, every=every)
    s = Store(":memory:")
    s.name_table(TID, "hall")
    if key:
        s.set_key(TID, key)
    s.sync(TID, FakeLink(recs, heads, gaps))
    return s


@pytest.fixture(scope="module")
def night():
    s = synced(wall_every=97)
    return s, export_lines(s, TID)


def check(lines, s, key=KEY, known=True):
    kn = {"heads": s.heads(TID), "gaps": s.gaps(TID)} if known else None
    return verify(lines, None, key, kn)


def input_lines(lines):
    return [i for i, l in enumerate(lines) if '"in"' in l]


def lineno_of(lines, seq):
    return next(i for i, l in enumerate(lines, 1) if l.startswith('{"seq":%d,' % seq)) 


def test_an_honest_export_verifies_with_and_without_the_key(night):
    s, lines = night
    head = json.loads(lines[0])
    assert head["table"] == TID and head["heads"] and all(len(h[2]) == 64 for h in head["heads"])
    assert all('"tag":"' in lines[i] for i in input_lines(lines))
    assert any('"wall":' in l for l in lines)
    for key in (KEY, None):
        rep = check(lines, s, key)
        assert rep.ok, str(rep)
        assert rep.checked == rep.inputs == 600 and rep.unchecked == 0
    assert check(lines, s).signed == 600
    assert check(lines, s, None, known=False).ok
    rep = verify_stored(s, TID)
    assert rep.ok and rep.signed == 600, str(rep)
    assert "chain of table %s: 600 inputs checked" % TID in str(rep)


def first_problem_line(rep):
    return int(rep.problems[0][1].split(":")[0].split()[1])


def test_an_edited_input_line_is_found_at_its_line(night):
    s, lines = night
    i = input_lines(lines)[300]
    d = json.loads(lines[i])
    d["t"] += 1
    bad = lines[:i] + [json.dumps(d)] + lines[i + 1:]
    for key in (KEY, None):
        rep = check(bad, s, key, known=False)
        assert not rep.ok and first_problem_line(rep) == i + 1
        assert "chain breaks at this input" in rep.problems[0][1]


def test_a_dropped_input_line_is_found(night):
    s, lines = night
    ins = input_lines(lines)
    i, j = ins[200], ins[201]
    bad = lines[:i] + lines[j:]          # the input and its events gone
    rep = check(bad, s, None, known=False)
    assert not rep.ok
    assert any(p[0] == json.loads(lines[j])["seq"] and "chain breaks" in p[1]
               for p in rep.problems)


def test_an_inserted_input_line_is_found(night):
    s, lines = night
    i = input_lines(lines)[150]
    d = json.loads(lines[i])
    extra = dict(d, seq=d["seq"])
    bad = lines[:i] + [json.dumps(extra)] + lines[i:]
    rep = check(bad, s, None, known=False)
    assert not rep.ok and first_problem_line(rep) <= i + 2


def test_reordered_lines_are_found(night):
    s, lines = night
    ins = input_lines(lines)
    a, b, c = ins[100], ins[101], ins[102]
    bad = lines[:a] + lines[b:c] + lines[a:b] + lines[c:]
    rep = check(bad, s, None, known=False)
    assert not rep.ok and first_problem_line(rep) == a + 1


def test_truncating_the_last_rounds_fails_verification(night):
    s, lines = night
    ins = input_lines(lines)
    cut = lines[:ins[455]]          # a few inputs past a head: not a whole batch
    rep = check(cut, s, KEY, known=False)       # the file alone: its heads say more came
    assert not rep.ok and "the inputs after seq" in str(rep)
    head = json.loads(cut[0])
    last = json.loads(cut[ins[454]])["seq"]
    head["heads"] = [h for h in head["heads"] if h[0] <= last]      # heads trimmed too
    cut[0] = json.dumps(head)
    rep = check(cut, s, None, known=True)        # the heads the host saw say more came
    assert not rep.ok and "record ends at seq %d" % last in str(rep)
    assert not check(cut, s, KEY, known=False).ok    # the key: no signed head covers the end


def test_every_time_times_three_fails_verification(night):
    s, lines = night

    def slow(ins):
        for d in ins:
            if "t" in d:
                d["t"] *= 3
    for forged in (regenerate(lines, slow, "keep"), regenerate(lines, slow, "recompute"),
                   regenerate(lines, slow, "strip")):
        assert not check(forged, s, KEY, known=False).ok
        assert not check(forged, s, None, known=True).ok
    # and without regenerating: the first timed line is named
    bad = [l for l in lines]
    for i in input_lines(lines):
        d = json.loads(bad[i])
        if "t" in d:
            d["t"] *= 3
            bad[i] = json.dumps(d)
    rep = check(bad, s, None, known=False)
    assert not rep.ok and first_problem_line(rep) == 2 + (lines[1].count('"t":0') > 0)


def test_an_edited_input_with_the_whole_record_regenerated_without_the_key_fails(night):
    s, lines = night

    def edit(ins):          # a seat press changed to another seat's
        d = next(d for d in ins[400:] if d["in"] == "seat")
        d["seat"] = 1 + d["seat"] % 4
    for how in ("keep", "recompute", "strip"):
        forged = regenerate(lines, edit, how)
        rep = check(forged, s, KEY, known=False)       # the key alone finds it
        assert not rep.ok, (how, str(rep))
        if how == "recompute":
            assert "not signed with the key" in str(rep)
        assert not check(forged, s, None, known=True).ok, how   # the heads the host saw too
    # without the key and without the host's heads, only the chain itself: a careful forger
    # passes (docs/host.md says so)
    def later(ins):
        ins[-1]["t"] += 1000
    assert check(regenerate(lines, later, "strip"), s, None, known=False).ok
    assert not check(regenerate(lines, later, "strip"), s, KEY, known=False).ok


def test_a_head_the_host_saw_that_the_record_lacks_is_used(night):
    s, lines = night
    head = json.loads(lines[0])
    head.pop("heads")
    bare = [json.dumps(head)] + lines[1:]
    assert check(bare, s, KEY, known=True).ok
    rep = check(bare, s, KEY, known=False)
    assert not rep.ok and "not covered by a chain head signed" in str(rep)


def test_a_wrong_key_is_said():
    s = synced(200)
    lines = export_lines(s, TID)
    rep = check(lines, s, bytes(32))
    assert not rep.ok and "not signed with the key" in str(rep)


def test_gaps_are_stored_shown_and_do_not_fail_verification():
    gaps = [(101, 130, "damaged"), (250, 260, "missing")]
    s = synced(400, gaps=gaps)
    assert s.gaps(TID) == [(101, 130, "damaged"), (250, 260, "missing")]
    row, = s.tables()
    assert row["gaps"] == 2 and row["label"] == "hall" and row["paired"]
    lines = export_lines(s, TID)
    assert json.loads(lines[0])["gaps"] == [[101, 130, "damaged"], [250, 260, "missing"]]
    rep = check(lines, s)
    assert not [p for p in rep.problems if "chain" in p[1] or "missing" in p[1]], str(rep)
    assert "seqs 101..130 are not in the table's log: damaged" in str(rep)
    assert rep.unchecked > 0 and "could not be checked by the chain" in str(rep)
    # a gap the table never reported, added to hide an edit, is found
    head = json.loads(lines[0])
    head["gaps"].append([300, 300, "damaged"])
    rep = check([json.dumps(head)] + lines[1:], s)
    assert any("never reported" in p[1] for p in rep.problems)


def test_a_part_of_the_night_carries_the_chain_head_before_it(night):
    s, lines = night
    part = export_lines(s, TID, from_seq=200, to_seq=400)
    head = json.loads(part[0])
    assert head["range"] == [200, 400] and head["anchor"][0] == 199
    rep = check(part, s, KEY)
    assert rep.ok and rep.unchecked == 0 and rep.part == (200, 400), str(rep)


def walk_to(recs, seq):
    from hostkit import chain
    h = chain.GENESIS
    for r in recs:
        if r[0] <= seq:
            h = chain.step(h, *r[:4])
    return h


def test_sync_keeps_tags_heads_and_gaps_and_resumes(night):
    recs, heads = chained(bot_records(300))
    s = Store(":memory:")
    link = FakeLink(recs[:120], heads)
    s.sync(TID, link)
    assert [h[0] for h in s.heads(TID)] == [h[0] for h in heads if h[0] <= recs[119][0]]
    link = FakeLink(recs, heads)
    s.sync(TID, link)
    assert link.asked == [recs[119][0]]      # the last stored again, and the chain before it:
    assert link.head_given == walk_to(recs, recs[118][0])   # the table need not send tags
    assert len(s.heads(TID)) == len(heads)
    assert all(r[4] for r in s.records(TID))
    other = [(h[0], "00" * 32, h[2]) for h in heads]
    s.sync(TID, FakeLink(recs, other))
    assert [h[0] for h in s.odd_heads] == [heads[-1][0]]   # the last one again: kept, said
    assert s.heads(TID)[-1][1] == heads[-1][1]


def test_verify_never_crashes_on_random_damage(night):
    s, lines = night
    rnd = random.Random(8)
    junk = ['{"seq":1,"in":"shuffle","record":1}', '{"record":1,"in":"seat","seat":1}',
            '{"seq":"x","in":"seat","seat":1}', '{"seq":5,"t":-3,"in":"shuffle"}',
            '{"in":"pad","card":5}', '{"in":"seat","seat":1e300}', '{"in":"rule","name":[1]}',
            '[1,2]', '{"record":1,"table":"zz","heads":7}', '{"seq":3,"ev":"play"}',
            '{"in":"seat","seat":"1"}', '\x00\x01', '{"seq":9,"tag":123,"in":"shuffle"}',
            '{"record":1,"table":"%s","heads":[[1,2,3]],"gaps":[["a"]]}' % TID,
            '{"seq":2,"in":"tick","ms":"x"}', '{"in":"colour","colour":99999999999999999999}',
            '{' * 5000, '"' * 3, '{"seq":1,"in":"pad","uid":"zz"}']
    for k in range(300):
        bad = list(lines[:60])
        for _ in range(rnd.randrange(1, 4)):
            i = rnd.randrange(len(bad))
            what = rnd.randrange(4)
            if what == 0:
                bad[i] = rnd.choice(junk)
            elif what == 1:
                b = bytearray(bad[i] if isinstance(bad[i], bytes) else bad[i].encode())
                b[rnd.randrange(len(b))] = rnd.randrange(256)
                bad[i] = bytes(b)
            elif what == 2:
                bad.insert(i, rnd.choice(junk))
            else:
                bad = bad[:i] + bad[i + 1:] if rnd.random() < 0.3 else bad
                if i < len(bad):
                    bad[i] = bad[i][:rnd.randrange(len(bad[i]) + 1)]
        rep = check(bad, s, rnd.choice([KEY, None]), rnd.random() < 0.5)
        str(rep)
        assert not any("could not be checked to the end" in p[1] for p in rep.problems), \
            (bad, str(rep))


def test_an_input_line_carrying_a_record_key_is_a_problem_not_a_crash():
    rep = verify(['{"record":1,"registry":"synthetic","settings":{}}',
                  '{"seq":1,"in":"seat","seat":1,"record":1}'])
    assert not rep.ok and "line 2" in rep.problems[0][1]


def test_a_take_back_is_chained_and_verified_like_any_input():
    raw = bot_records(120)
    seq, t = raw[-1][0] + 1, raw[-1][1] + 500
    raw.append((seq, t, False, (8, 1)))                 # unotable undo: (IN_UNDO, n)
    recs, heads = chained(raw)
    s = Store(":memory:")
    s.sync(TID, FakeLink(recs, heads))
    lines = export_lines(s, TID)
    assert '"in":"undo","n":1' in lines[-1] or any('"in":"undo"' in l for l in lines)
    rep = check(lines, s)
    assert rep.ok and rep.checked == 121, str(rep)
    i = next(i for i, l in enumerate(lines) if '"in":"undo"' in l)
    d = json.loads(lines[i])
    d["n"] = 2
    rep = check(lines[:i] + [json.dumps(d)] + lines[i + 1:], s, None, known=False)
    assert not rep.ok and "line %d: the chain breaks" % (i + 1) in str(rep)
