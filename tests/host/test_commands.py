"""The host command against the simulated table over its pseudo-terminal: status, rules,
enroll, deploy; and the answers when something is wrong."""
import os
import threading
import time

import pytest

from uno.cards import NCARDS
from unotable import sim
from unotable.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def table(code):
    t = sim.SimTable(code=code)
    t.status()            # up and answering
    t.link.close()        # the port is the command's now
    yield t
    t.close()


def settled(table, inputs, wait=10.0):
    """The table's status once it has judged `inputs` inputs (a loaded machine is slow)."""
    end = time.monotonic() + wait
    while True:
        s = table.status()
        if (s.get("seq") or 0) >= inputs and s.get("events") or time.monotonic() > end:
            return s
        time.sleep(0.05)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_status_of_a_fresh_table(table, capsys):
    code, out, err = run(capsys, "status", "--port", table.port)
    assert code == 0, err
    assert out.splitlines()[0].startswith("sim on ") and "rules: official" in out
    assert "round 0, lobby" in out


def test_rules_set_between_rounds_and_refused_mid_round(table, capsys):
    code, out, err = run(capsys, "rules", "set", "stacking=on", "preset=house", "--port",
                         table.port)
    assert code == 0, err
    assert "taken" in out
    code, out, _ = run(capsys, "rules", "show", "--port", table.port)
    assert "* H2  jump_in        identical" in out
    for line in ({"in": "seat", "seat": 1}, {"in": "seat", "seat": 2}, {"in": "shuffle"},
                 {"in": "shoe", "card": "R9"}, {"in": "shoe", "card": "R1"},  # seat 1 deals
                 {"in": "shuffle"}, {"in": "shoe", "card": "G5"}):           # the deal is on
        table.send(line)
        time.sleep(0.05)
    code, out, err = run(capsys, "rules", "set", "w4=free", "--port", table.port)
    assert code == 2 and "locked while a round is on" in err
    code, _, err = run(capsys, "rules", "set", "w4=sometimes", "--port", table.port)
    assert code == 2 and "w4 must be one of" in err


def test_enroll_a_deck_by_tapping_every_card(table, capsys):
    uids = ["04%012x" % (0x1000 + i) for i in range(NCARDS)]

    def tap():
        time.sleep(0.3)
        for i, u in enumerate(uids):
            table.send({"in": "pad" if i % 2 else "shoe", "uid": u})
            if i == 5:
                table.send({"in": "pad", "uid": uids[2]})   # a card tapped twice
            time.sleep(0.02)

    th = threading.Thread(target=tap)
    th.start()
    code, out, err = run(capsys, "enroll", "--port", table.port, "--wait", "3")
    th.join()
    assert code == 0, err
    assert "tap R0a" in out and "enrolled already as R1b" in out
    assert "deck enrolled: 108 cards" in out
    # the table now knows the deck: a known tag in the lobby is not an unknown tag
    table.link.open()
    table.send({"in": "seat", "seat": 1})
    table.send({"in": "pad", "uid": uids[7]})
    s = settled(table, 2)
    assert s["events"][0][:2] == [25, 5]     # rejected: never drawn (known card), not unknown
    table.link.close()


def test_enroll_reports_missing_cards_and_changes_nothing(table, capsys):
    def tap():
        time.sleep(0.3)
        for i in range(3):
            table.send({"in": "pad", "uid": "04aabbcc0000%02x" % i})
            time.sleep(0.02)

    th = threading.Thread(target=tap)
    th.start()
    code, out, err = run(capsys, "enroll", "--port", table.port, "--wait", "0.02")
    th.join()
    assert code == 2 and "cards were not read" in err and "Nothing was changed" in err


def test_deploy_copies_the_compiled_firmware_with_mpremote(table, capsys):
    # a running simulated table is refused: a copy would only stop it (issue 11, point 5)
    code, out, err = run(capsys, "deploy", "--port", table.port, "--resume")
    assert code == 2 and "is a simulated table" in err and "--log" in err
    assert table.status() is not None                   # and it plays on
    # at its prompt (the firmware stopped), mpremote copies as to a board's
    table.link.open()
    table.link.write(b"repl\n")
    time.sleep(0.3)
    table.link.write(b"\x03")
    time.sleep(0.3)
    table.link.close()
    code, out, err = run(capsys, "deploy", "--port", table.port, "--resume")
    assert code == 0, err
    assert os.path.exists(os.path.join(table.tmp, "uno", "table.mpy"))
    assert os.path.exists(os.path.join(table.tmp, "main.py"))
    code, out, _ = run(capsys, "deploy", "--port", "/dev/null/none", "--dry-run")
    assert code == 0 and "mpremote connect /dev/null/none: " in out and ":uno/table.mpy" in out


def test_deploy_in_a_round_says_in_one_line_what_to_do_at_the_table(table, capsys):
    for line in ({"in": "seat", "seat": 1}, {"in": "seat", "seat": 2}, {"in": "shuffle"},
                 {"in": "shoe", "card": "R9"}, {"in": "shoe", "card": "R1"},  # seat 1 deals
                 {"in": "shuffle"}, {"in": "shoe", "card": "G5"}):           # the deal is on
        table.send(line)
    assert settled(table, 7)["phase"] == "deal"
    code, out, err = run(capsys, "deploy", "--port", table.port)
    assert code == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unotable deploy: "), err
    assert "hold Y and G" in err and "Nothing was copied" in err
    s = table.status()                                  # mpremote never ran: it plays on
    assert s["phase"] == "deal" and s["seq"] == 7 and s["notice"].startswith("LAPTOP ASKS")


def test_errors_say_what_to_do(capsys):
    code, _, err = run(capsys, "status", "--port", "/dev/does-not-exist")
    assert code == 2 and "cannot open /dev/does-not-exist" in err and "unotable ports" in err
    code, _, err = run(capsys, "rules", "set", "stacking", "--port", "/dev/x")
    assert code == 2 and "NAME=VALUE" in err


def test_an_enrolled_deck_survives_a_restart_of_the_table(code, tmp_path):
    from unotable.link import Link
    log = str(tmp_path / "log")
    uids = [bytes.fromhex("04%012x" % (0x2000 + i)) for i in range(NCARDS)]
    t = sim.SimTable(log=log, code=code)
    try:
        t.status()
        t.link.close()
        with Link.open(t.port, timeout=2.0) as link:
            link.upload_registry(uids)
    finally:
        t.close()
    again = sim.SimTable(log=log, code=code)
    try:
        again.send({"in": "pad", "uid": uids[3].hex()})
        assert settled(again, 1)["events"][0][:2] == [25, 5]   # known: never drawn, not unknown
    finally:
        again.close()


def test_status_lines_name_a_reader_that_is_down_or_failing_and_nothing_when_all_is_well():
    from unotable.commands import status_lines
    base = {"phase": 0, "colour": None, "round": 0, "dealer": 0, "turn": 0, "next_seq": 1,
            "seats": []}
    hello = {"board": "esp32", "fw": "0.1.0", "proto": 1}
    said = list(status_lines(hello, dict(base, readers=[[1, 3, 0], [0, 0, 2]])))
    assert "readers: PLAY pad up, 3 read errors; DRAW shoe DOWN, two cards at once 2 times" \
        in said
    for fine in ([[1, 0, 0], [1, 0, 0]], None, "x", [[1, 0]]):
        assert not [x for x in status_lines(hello, dict(base, readers=fine))
                    if x.startswith("readers")]


def test_a_refused_take_back_says_why_in_words(table, capsys):
    """The table refuses a take-back past what the round holds before it logs it, in words
    (it said "the table refused it (reason 38)"): the host passes them on."""
    code, out, err = run(capsys, "undo", "--port", table.port)
    assert code == 2 and "(reason" not in err and "cannot cross a round's end" in err, err
    assert "nothing to take back in this round" in err, err
    assert len(err.strip().splitlines()) == 1
