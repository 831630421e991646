"""The simulated table end to end: the firmware under `micropython` (compiled, ESP32-sized
heap) on a real pseudo-terminal, and the host over pyserial."""
import json
import os
import signal
import time

import pytest

from uno.record import Replay
from uno.state import snapshot
from unotable import sim
from hostkit import until_done
from unotable.link import Link

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = [os.path.join(ROOT, "examples", n) for n in
            ("round-2p.jsonl", "round-4p.jsonl", "round-10p.jsonl", "party-4p.jsonl")]


def replayed(path):
    run = Replay()
    with open(path) as f:
        for _ in run.run(f):
            pass
    return snapshot(run.table)


@pytest.mark.parametrize("example", EXAMPLES, ids=os.path.basename)
def test_the_simulated_table_ends_each_bundled_round_as_the_engine_replays_it(code, example):
    table = sim.SimTable(example, pace=0, code=code)
    try:
        s = until_done(table)
        assert sim.state_only(s) == replayed(example)
        assert s["phase"] in ("round_over", "match_over")
    finally:
        assert "Traceback" not in table.close()


def test_its_log_replays_on_the_host_to_the_same_state(code):
    table = sim.SimTable(EXAMPLES[3], pace=0, code=code)
    try:
        s = until_done(table)
        table.link.write(b"dump\n")
        lines = []
        while not lines or "end" not in lines[-1]:
            got = table.lines(1.0)
            assert got, "no dump"
            lines += [x for x in got if x.startswith("{")]
        records = [json.loads(x) for x in lines[:-1]]
        assert json.loads(lines[-1])["end"] == s["seq"] + 1
        # the log keeps the rule inputs of the script's settings line, and every input's time
        run = Replay()
        for _ in run.run([json.dumps(r) for r in records if "in" in r]):
            pass
        assert snapshot(run.table) == sim.state_only(s)
    finally:
        table.close()


def test_typed_inputs_reach_the_table_and_bad_lines_get_an_answer(code):
    table = sim.SimTable(code=code)
    try:
        for line in ({"in": "seat", "seat": 2}, {"in": "seat", "seat": 5}, {"in": "shuffle"}):
            table.send(line)
        time.sleep(0.3)
        s = table.status()
        assert [x["seat"] for x in s["seats"]] == [2, 5] and s["phase"] == "drawoff"
        assert s["leds"] == 1 << (2 - 1) and s["tune"] == "accepted"  # seat 2 draws first
        table.send('{"in": "pad", "card": "Q9"}')     # said on the view channel, not the port
        table.send({"in": "pad", "uid": "00" * 17})     # no reader gives a 17-byte UID
        s, said = table.ask()
        errors = [d["error"] for d in said if "error" in d]
        assert len(errors) == 2 and "Q9" in errors[0] and "4, 7 or 10 bytes" in errors[1]
        assert s["seq"] == 3 and table.running()          # nothing changed, the table plays on
        table.link.write(b"frobnicate\n")
        assert any("unknown command" in x for x in table.lines(1.0))
    finally:
        table.close()


def test_a_power_cut_mid_round_loses_nothing_that_was_answered(code, tmp_path):
    log = str(tmp_path / "log")
    table = sim.SimTable(EXAMPLES[2], pace=5, log=log, code=code)   # 10 seats: a long round
    try:
        time.sleep(0.6)
        before = table.status()
        assert before["phase"] in ("deal", "start", "play")
        os.kill(table.proc.pid, signal.SIGKILL)  # the power goes
        table.proc.wait()
    finally:
        table.close()
    again = sim.SimTable(log=log, code=code)
    try:
        s = again.status()
        assert s["seq"] >= before["seq"]
        run = Replay()
        lines = []
        again.link.write(b"dump\n")
        while not lines or "end" not in lines[-1]:
            got = again.lines(1.0)
            assert got
            lines += [x for x in got if x.startswith("{")]
        for _ in run.run(lines[:-1]):
            pass
        assert snapshot(run.table) == sim.state_only(s)
    finally:
        again.close()


def test_the_host_link_talks_to_the_simulated_table(code):
    table = sim.SimTable(EXAMPLES[0], pace=0, code=code)
    try:
        s = until_done(table)
        with Link.open(table.port, timeout=2.0) as link:
            hello = link.hello()
            assert hello["board"] == "sim" and hello["proto"] == 1
            st = link.status()
            assert st["next_seq"] == s["seq"] + 1
            records = list(link.sync_records(1))
        assert [r[0] for r in records] == list(range(1, s["seq"] + 1))
    finally:
        table.close()


def test_ctrl_c_stops_the_firmware_and_mpremote_takes_the_port(code):
    import subprocess
    table = sim.SimTable(code=code)
    try:
        assert table.status() is not None
        table.link.close()   # one program on the port at a time, as with a board
        r = subprocess.run([sim.tool("mpremote"), "connect", table.port, "resume", "exec",
                            "import hub.app; print('table', hub.app.VERSION)"],
                           capture_output=True, text=True, timeout=20)
        assert r.returncode == 0, r.stderr
        assert "table 0." in r.stdout
    finally:
        table.close()


def test_the_host_works_out_the_tags_the_table_logged_and_its_head_and_mac_check(code):
    from gamelog import chain
    table = sim.SimTable(EXAMPLES[1], pace=0, code=code)
    try:
        until_done(table)
        table.link.close()
        with Link.open(table.port, timeout=2.0) as link:
            tagged = list(link.sync_records(1, max_bytes=400))
            key = bytes.fromhex(link.pair()["key"])
            tid = bytes.fromhex(link.hello()["id"])
        with Link.open(table.port, timeout=2.0) as link:
            worked = list(link.sync_records(1, head=chain.GENESIS))
            assert link.mismatch == [] and len(link.heads) == 1
            seq, head, mac = link.heads[0]
            st = link.status()
        assert worked == tagged and all(len(r[4]) == 4 for r in tagged)
        assert seq == tagged[-1][0] == st["head"][0] and head == st["head"][1]
        assert bytes.fromhex(mac) == chain.mac_head(key, tid, seq, bytes.fromhex(head))
    finally:
        table.close()


def _flip(path, at):
    data = bytearray(open(path, "rb").read())
    data[at if at >= 0 else len(data) + at] ^= 0x5A
    open(path, "wb").write(bytes(data))


def test_damage_in_an_older_segment_is_a_gap_at_sync_and_hides_nothing_else(code, tmp_path):
    from unotable.link import Gap
    log = str(tmp_path / "log")
    table = sim.SimTable(EXAMPLES[1], pace=0, log=log, code=code, store="files")
    try:
        s = until_done(table)
    finally:
        table.close()
    segs = sorted(n for n in os.listdir(log) if n.endswith(".log"))
    _flip(os.path.join(log, segs[0]), os.path.getsize(os.path.join(log, segs[0])) // 2)
    again = sim.SimTable(log=log, code=code, store="files")
    try:
        assert sim.state_only(again.status()) == sim.state_only(s)   # the round is intact
        again.link.close()
        with Link.open(again.port, timeout=2.0) as link:
            got = list(link.sync_records(1))
        gaps = [g for g in got if isinstance(g, Gap)]
        assert len(gaps) == 1 and gaps[0].cause == "damaged"
        seqs = [r[0] for r in got if not isinstance(r, Gap)]
        assert seqs[0] == 1 and seqs[-1] == s["seq"]
        assert not [q for q in seqs if gaps[0].first <= q <= gaps[0].last]
        assert len(seqs) + gaps[0].last - gaps[0].first + 1 == s["seq"]
    finally:
        assert "Traceback" not in again.close()


def test_a_damaged_snapshot_boots_says_so_and_plays_on(code, tmp_path):
    log = str(tmp_path / "log")
    table = sim.SimTable(EXAMPLES[1], pace=0, log=log, code=code, store="files")
    try:
        until_done(table)
    finally:
        table.close()
    segs = sorted(n for n in os.listdir(log) if n.endswith(".log"))
    _flip(os.path.join(log, segs[-1]), -6)                          # inside the snapshot
    again = sim.SimTable(log=log, code=code, store="files")
    try:
        st = again.status()
        assert st["damage"] and st["tune"] == "damaged" and "DAMAGED" in st["notice"]
        again.send({"in": "seat", "seat": 7})
        time.sleep(0.3)
        assert again.status()["seq"] == st["seq"] + 1
    finally:
        assert "Traceback" not in again.close()
