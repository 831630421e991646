"""A careless or hostile laptop on the simulated table's USB serial (issue 8, items 7-9): the
firmware under `micropython` on a real pseudo-terminal, the host over pyserial."""
import json
import os
import subprocess
import time

import pytest
import serial

from uno.record import Replay
from uno.state import snapshot
from unotable import sim
from hostkit import until_done
from unotable.link import Link, Refused, open_repl
from link import frame as fr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUND = os.path.join(ROOT, "examples", "round-4p.jsonl")


def script_lines(path=ROUND):
    with open(path) as f:
        return [x for x in f if x.strip()]


def first_lines(tmp_path, n):
    """A script that stops in the middle of the round (n lines of ROUND)."""
    p = tmp_path / "part.jsonl"
    p.write_text("".join(script_lines()[:n]))
    return str(p)


def dump(table):
    table.link.write(b"dump\n")
    lines = []
    while not lines or '"end"' not in lines[-1]:
        got = table.lines(1.0)
        assert got, "no dump"
        lines += [x for x in got if x.startswith("{")]
    return [r for r in map(_json, lines[:-1]) if r is not None]


def _json(line):
    """A line's object, or None for an answer the table cut short because the host did not
    read (hub/serial.py's _drop: the host skips it). The count of logged inputs checked after
    the dump would tell a record lost so."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def replayed(records):
    run = Replay()
    for _ in run.run([json.dumps(r) for r in records if "in" in r]):
        pass
    return snapshot(run.table)


def test_a_host_that_never_reads_holds_up_no_input(code):
    pace = 20
    n = len([x for x in script_lines() if '"in"' in x])
    table = sim.SimTable(ROUND, pace=pace, code=code)
    try:
        table.link.write_timeout = 0.2
        req = fr.encode(7, "status", fr.REQ) + fr.encode(8, "records", fr.REQ, b'{"from":1}')
        end = time.monotonic() + n * pace / 1000.0 + 4.0    # the round's length, and spare
        sent = 0
        while time.monotonic() < end:                       # ask and ask, never read
            try:
                table.link.write(req + b"status\n")
                sent += 1
            except serial.SerialTimeoutException:           # the host's side is full: its
                pass                                        # problem, not the table's
            time.sleep(0.002)
        assert sent > 100
        table.link.reset_input_buffer()
        time.sleep(0.3)
        table.link.reset_input_buffer()
        table.buf = b""
        s = table.status(10.0)
        assert s is not None and s["board"]["script_done"], "inputs were held up"
        assert s["seq"] == n and s["phase"] in ("round_over", "match_over")
        records = dump(table)
        assert len([r for r in records if "in" in r]) == n     # every input logged
        assert replayed(records) == sim.state_only(s)          # and judged as the engine does
    finally:
        assert "Traceback" not in table.close()


def test_the_laptop_cannot_change_a_round(code, tmp_path):
    table = sim.SimTable(first_lines(tmp_path, 50), pace=0, code=code)
    try:
        s = until_done(table)
        assert s["phase"] == "play"
        table.link.close()
        with Link.open(table.port, timeout=2.0) as link:
            n = link.status()["next_seq"]
            with pytest.raises(Refused) as e:
                link.enroll(True)
            assert "locked" in str(e.value)
            with pytest.raises(Refused):
                link.upload_registry([bytes((4, i, 1, 2, 3, 4, 5)) for i in range(108)])
            for name, value in (("stacking", "on"), ("hand_size", "\u0667"), ("nope", 1)):
                with pytest.raises(Refused):
                    link.set_rule(name, value)
            with pytest.raises(Refused) as e:
                link.ack(n - 1)                              # nothing sent yet
            assert "sync first" in str(e.value)
            got = list(link.sync_records(1))
            assert link.status()["next_seq"] == n            # nothing refused was logged
            assert got[-1][0] == n - 1
            assert [h[0] for h in link.heads] == [n - 1]          # the chain head closes it
            with pytest.raises(Refused):
                link.ack(n)                                  # past what was sent
            assert link.ack(n - 1) is not None
    finally:
        assert "Traceback" not in table.close()


def test_a_cable_pulled_during_enrolment_ends_it(code):
    table = sim.SimTable(code=code)
    try:
        assert table.status() is not None
        table.link.close()
        link = Link.open(table.port, timeout=2.0)
        link.enroll(True)
        assert link.status()["enroll"] == [0, []]
        link.close()                                         # the cable goes
        # and stays out until the table has polled the port since: its view answers twice
        # (the poll that brings the first ask brings the hang-up too)
        assert table.status() is not None and table.status() is not None
        table.link = serial.Serial(table.port, 115200, timeout=0.2)
        with Link.open(table.port, timeout=2.0) as link:
            assert link.status()["enroll"] is None
    finally:
        assert "Traceback" not in table.close()


def test_a_full_flash_refuses_inputs_keeps_the_link_and_plays_on_after_sync_ack(code, tmp_path):
    log = str(tmp_path / "log")
    table = sim.SimTable(ROUND, pace=0, log=log, code=code,      # a round, then its snapshot
                         store="files")
    try:
        s = until_done(table)
        assert s["phase"] in ("round_over", "match_over")
    finally:
        table.close()
    used = sum(os.path.getsize(os.path.join(log, n)) for n in os.listdir(log))
    table = sim.SimTable(log=log, code=code, flash=used + 300,  # room for ~25 more inputs
                         store="files")
    try:
        seq0 = table.status()["seq"]
        for _ in range(60):
            table.send({"in": "seat", "seat": 3})                # rejected, but logged
        time.sleep(1.0)
        s = table.status()
        assert s["log_full"] and s["tune"] == "log_full" and s["notice"].startswith("LOG FULL")
        full_at = s["seq"]
        assert seq0 < full_at < seq0 + 60                        # inputs past it: not judged
        table.link.close()
        with Link.open(table.port, timeout=2.0) as link:         # the link keeps working
            st = link.status()
            assert st["log_full"] and st["warn"].startswith("LOG FULL")
            got = list(link.sync_records(1))
            assert got[-1][0] == full_at
            assert link.ack(full_at)["pruned"] >= 1               # room again
        table.link = serial.Serial(table.port, 115200, timeout=0.2)
        table.send({"in": "seat", "seat": 3})
        time.sleep(0.5)
        s = table.status()
        assert s["seq"] == full_at + 1 and not s["log_full"]
    finally:
        assert "Traceback" not in table.close()


def test_a_stray_ctrl_c_in_a_round_does_not_stop_the_table(code, tmp_path):
    table = sim.SimTable(first_lines(tmp_path, 50), pace=0, code=code)
    try:
        s = until_done(table)
        assert s["phase"] == "play"
        table.link.write(b"\x03\x03noise\x03\n")
        time.sleep(0.3)
        assert table.running() and table.status()["seq"] == s["seq"]
    finally:
        assert "Traceback" not in table.close()


def test_after_a_repl_request_and_a_yes_at_the_table_mpremote_takes_the_port_in_a_round(
        code, tmp_path):
    table = sim.SimTable(first_lines(tmp_path, 50), pace=0, code=code)
    try:
        assert until_done(table)["phase"] == "play"
        table.link.close()
        with pytest.raises(Refused) as e:          # the laptop alone: no
            open_repl(table.port)
        assert "hold Y and G" in e.value.reason and "\n" not in str(e.value)
        s = table.status()
        assert s["notice"].startswith("LAPTOP ASKS") and s["phase"] == "play"
        table.confirm()                            # yellow and green held 5 s
        assert table.status()["tune"] == "repl_agreed"
        assert open_repl(table.port)
        r = subprocess.run([sim.tool("mpremote"), "connect", table.port, "resume", "exec",
                            "import hub.app; print('table', hub.app.VERSION)"],
                           capture_output=True, text=True, timeout=20)
        assert r.returncode == 0, r.stderr
        assert "table 0." in r.stdout
    finally:
        table.close()


def test_a_repl_window_closes_again(code, tmp_path):
    table = sim.SimTable(first_lines(tmp_path, 50), pace=0, code=code)
    try:
        until_done(table)
        table.link.write(b"repl\n")                        # in a round: no, until a yes
        assert any("hold Y and G" in x for x in table.lines(1.0))
        table.link.write(b"\x03")
        time.sleep(0.3)
        assert table.running() and table.status(1.0) is not None
        table.confirm()
        table.link.write(b"repl\n")
        assert any("Ctrl-C" in x for x in table.lines(1.0))
        table.link.write(b"\x03")                          # within the window: stops
        time.sleep(0.5)
        assert table.status(1.0) is None
    finally:
        table.close()


def test_repl_typed_at_the_simulated_table_says_yes_for_the_person_there(code, tmp_path):
    table = sim.SimTable(first_lines(tmp_path, 50), pace=0, code=code)
    try:
        assert until_done(table)["phase"] == "play"
        table.open_repl()                  # `repl` at its `table>` prompt: asks, yes, asks
        table.link.write(b"\x03")
        time.sleep(0.5)
        assert table.status(1.0) is None   # the window was open: Ctrl-C stopped it
    finally:
        table.close()
