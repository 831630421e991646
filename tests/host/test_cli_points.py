"""Issue 11's points that need a table to show: the simulated table's piped narration holds
every input (point 2), sync and logs say what the seqs that are not inputs are (point 8),
and an export dates every round from the clock notes the table logs at sync (point 10)."""
import json
import os
import re
import subprocess
import sys
import time

from hostkit import until_done
from unotable import sim
from unotable.cli import main
from unotable.export import input_dates

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUND = os.path.join(ROOT, "examples", "round-4p.jsonl")
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_the_piped_view_of_a_simulated_table_narrates_every_input(tmp_path):
    """`unotable sim SCRIPT | ...`: one plain line per input, none dropped (point 2)."""
    with open(ROUND) as f:
        inputs = sum(1 for line in f if '"in"' in line)
    r = subprocess.run([sys.executable, "-m", "unotable.cli", "sim", ROUND, "--pace", "0",
                        "--exit", "--log", str(tmp_path / "log")], env=ENV, text=True,
                       capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "\x1b" not in r.stdout and "\r" not in r.stdout         # plain when piped
    seqs = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)  ", r.stdout, re.M)]
    assert seqs == list(range(1, inputs + 1)), r.stdout
    assert "joins" in r.stdout and "plays" in r.stdout and "ROUND OVER" in r.stdout


def test_sync_and_logs_say_what_the_other_seqs_are_and_exports_are_dated(code, tmp_path,
                                                                         capsys):
    db = str(tmp_path / "h.sqlite3")
    with open(ROUND) as f:  # the example's inputs, and the next round's shuffle
        n = sum('"in"' in x for x in f) + 1
    table = sim.SimTable(ROUND, pace=0, code=code, log=str(tmp_path / "log"))
    try:
        until_done(table)
        table.link.close()
        c, out, err = run(capsys, "sync", "-p", table.port, "--db", db, "--table", "hall")
        assert c == 0, err
        assert "a round's end also takes a seq" in out          # said before the fetch
        table.send({"in": "shuffle"})       # the next round: past the snapshot and the clock
        end = time.monotonic() + 20
        while table.status()["seq"] <= n and time.monotonic() < end:
            time.sleep(0.05)
        c, out, err = run(capsys, "sync", "-p", table.port, "--db", db)
        assert c == 0, err
        stored = [x for x in out.splitlines() if "stored" in x][0]
        assert re.search(r"1 new input stored .* seq 1\.\.%d \(%d inputs; the other 2 seqs: "
                         r"1 round-end snapshot, 1 clock note\)" % (n + 2, n), stored), stored
        c, out, err = run(capsys, "logs", "list", "--db", db)
        assert c == 0 and "%d inputs" % n in out and "2 other" in out and "snapshot" in out, out
        c, out, err = run(capsys, "logs", "show", "hall", "--db", db)
        assert c == 0 and re.search(r"round 1 at 20\d\d-\d\d-\d\dT", out), out
        c, out, err = run(capsys, "logs", "export", "hall", "--db", db)
        lines = [json.loads(x) for x in out.splitlines()[1:]]
        ins = [d for d in lines if "in" in d]
        assert len(ins) == n and all(re.match(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["at"])
                                     for d in ins), ins[:3]
        assert abs(time.mktime(time.strptime(ins[-1]["at"], "%Y-%m-%dT%H:%M:%SZ"))
                   - time.mktime(time.gmtime())) < 120      # it happened just now
        c, out, err = run(capsys, "sync", "-p", table.port, "--db", db)
        assert c == 0 and "0 new inputs stored" in out or "nothing new" in out, out
    finally:
        table.close()


def test_clock_notes_date_each_boot_of_the_table_and_no_other():
    """The table's ms start again at each boot: a note dates the boot it was logged in."""
    recs = [(1, 100, 0), (2, 2000, 0), (3, 3000, 0),      # boot 1, clock set at seq 4
            (5, 50, 0), (6, 1050, 0),                      # boot 2, never set: undated
            (7, 10, 0), (8, 5010, 0)]                      # boot 3, set at seq 9 after it
    clocks = [(4, 1_800_000_000, 3500), (9, 1_900_000_000, 6010)]
    d = input_dates(recs, clocks)
    assert d[1] == 1_800_000_000 - 4 and d[3] == 1_800_000_000 - 1   # 0.5 s before: -1 s
    assert 5 not in d and 6 not in d
    assert d[7] == 1_900_000_000 - 6 and d[8] == 1_900_000_000 - 1
    assert input_dates([(1, 1_700_000_000, 1)], []) == {1: 1_700_000_000}   # a wall input


def test_progress_shows_on_a_terminal_only():
    import io
    from unotable.ui import Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True
    for stream, shown in ((Tty(), True), (io.StringIO(), False)):
        p = Progress("lines written", 10, stream=stream)
        p.t0 -= 1                            # the work has taken a while
        p(5)
        p.done()
        assert ("\r  lines written: 5 of 10" in stream.getvalue()) == shown
        assert shown or stream.getvalue() == ""      # piped: nothing, no \\r, no escapes


def test_typing_at_the_simulated_table_on_a_terminal(tmp_path):
    """`unotable sim` on a terminal (a pty): a line the table cannot take is answered, a good
    one is narrated, `quit` ends it with its log kept (point 4, point 11)."""
    import pty
    import select
    pid, fd = pty.fork()
    if pid == 0:                                    # the child: the command on the terminal
        os.environ.update(ENV)
        os.execv(sys.executable, [sys.executable, "-m", "unotable.cli", "sim", "--log",
                                  str(tmp_path / "log")])
    seen = b""

    def until(text, timeout=60):
        nonlocal seen
        end = time.monotonic() + timeout
        while text.encode() not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        assert text.encode() in seen, seen.decode(errors="replace")[-800:]
        at = seen.index(text.encode()) + len(text)
        seen = seen[at:]
    try:
        until("table> ")
        os.write(fd, b"pad Q9\n")
        until("not a card")                     # answered, not ignored
        until("table> ")
        os.write(fd, b"seat 3\n")
        until("seat 3 joins")
        until("table> ")
        os.write(fd, b"quit\n")
        _, status = os.waitpid(pid, 0)
        pid = 0
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert b"Traceback" not in seen
        assert os.listdir(tmp_path / "log")                  # the log stays
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
