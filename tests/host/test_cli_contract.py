"""The CLI contract (docs/host.md, issue 11): every subcommand, given a missing, malformed,
empty, directory, read-only or wrong-type argument, or interrupted half-way, answers with one
line on stderr (a bad option too, with where `--help` is), no traceback, the
documented exit code (0 done, 1 a check failed, 2 nothing done, 130 interrupted), and leaves
nothing lost or half-written. test_no_traceback.py holds the dead and silent ports and the
damaged databases; this file the rest."""
import hashlib
import os
import signal
import subprocess
import sys
import time

import pytest

from hostkit import FakeLink, bot_records, chained
from unotable import commands
from unotable.cli import main
from unotable.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "round-2p.jsonl")
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))
ENV.pop("UNOTABLE_PORT", None)
TID = "0123456789abcdef"
# Every subcommand and how it is given a port: those that talk to a table.
PORTED = ["status", "rules set stacking=on", "enroll", "deploy", "sync", "pair", "selftest",
          "undo", "monitor", "seat 1 Ann", "players add Ann"]


def run(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:         # argparse: its usage, then one line
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, (argv, out, err)
    return code, out, err


def said(err, cmd, usage=False):
    """The one line; for a bad argument, it says where help is."""
    lines = [x for x in err.splitlines() if x.strip()]
    prog = "unotable %s" % cmd if cmd else "unotable"
    assert len(lines) == 1 and lines[0].startswith(prog + ": "), err
    if usage:
        assert lines[0].endswith("(`%s --help` says more)" % prog), err
    return lines[0]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture
def place(tmp_path, monkeypatch):
    """Files of every kind, a host database holding one table ("hall"), and a read-only place
    (a folder no one, root included, may write in)."""
    monkeypatch.delenv("UNOTABLE_PORT", raising=False)
    monkeypatch.delenv("UNOTABLE_DB", raising=False)
    monkeypatch.setattr(commands, "likely_boards", lambda: [])
    p = {"dir": str(tmp_path), "missing": str(tmp_path / "nope.jsonl"),
         "empty": str(tmp_path / "empty.jsonl"), "text": str(tmp_path / "notes.txt"),
         "db": str(tmp_path / "h.sqlite3"), "ro": "/proc/unotable-ro/x",
         "rodir": "/proc/unotable-ro"}
    open(p["empty"], "w").close()
    with open(p["text"], "w") as f:
        f.write("shopping list: milk\n")
    with Store(p["db"]) as s:
        s.name_table(TID, "hall")
        s.sync(TID, FakeLink(*chained(bot_records(60))))
    return p


def test_every_subcommand_has_help_with_a_description_and_the_defaults(capsys):
    import argparse
    from unotable.cli import parser
    code, out, _ = run(capsys, ["--help"])
    assert code == 0 and "UNOTABLE_PORT" in out and "--version" in out
    subs = [a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)][0]
    assert sorted(subs.choices) == sorted(["replay", "sim", "ports", "status", "rules",
                                           "enroll", "deploy", "sync", "logs", "verify", "pair",
                                           "selftest", "undo", "monitor", "players", "seat",
                                           "night", "standings", "serve"])
    for name, sp in subs.choices.items():
        assert sp.description and len(sp.description) > 12, name
        for a in sp._actions:
            if a.help == argparse.SUPPRESS or isinstance(a, argparse._HelpAction) or \
                    a.required or (not a.option_strings and a.default in (None, [])):
                continue                        # an argument to give has no default
            assert a.help and "default" in a.help, (name, a.option_strings or a.dest, a.help)
        code, out, _ = run(capsys, [name, "--help"])
        assert code == 0 and out.startswith("usage: unotable %s" % name)
    code, out, _ = run(capsys, ["--version"])
    assert code == 0 and out.startswith("unotable ")


@pytest.mark.parametrize("cmd", PORTED)
def test_no_port_given_and_no_board_found(capsys, place, cmd):
    argv = cmd.split() + ["--db", place["db"]] if cmd.split()[0] in (
        "sync", "pair", "monitor", "players") else cmd.split()
    code, out, err = run(capsys, argv)
    assert code == 2 and "which port?" in said(err, cmd.split()[0])


@pytest.mark.parametrize("kind", ["empty", "dir", "text"])
@pytest.mark.parametrize("cmd", ["status", "rules set stacking=on", "sync", "undo"])
def test_a_port_that_is_no_serial_port(capsys, place, cmd, kind):
    """--port "" (empty), a folder, a text file: one line, exit 2, and the table's database
    untouched."""
    before = digest(place["db"])
    port = "" if kind == "empty" else place[kind]
    code, out, err = run(capsys, cmd.split() + ["--port", port, "--db", place["db"]]
                         if cmd == "sync" else cmd.split() + ["--port", port])
    line = said(err, cmd.split()[0])
    assert code == 2 and ("cannot open" in line or "which port?" in line), line
    assert digest(place["db"]) == before


@pytest.mark.parametrize("argv, usage", [
    (["replay"], True), (["verify"], False), (["logs", "show"], False),
    (["logs", "export"], False), (["rules", "set"], False), (["rules"], True), (["logs"], True),
    ([], True)])
def test_a_missing_argument(capsys, place, argv, usage):
    code, out, err = run(capsys, argv + (["--db", place["db"]] if argv[:1] == ["logs"] else []))
    assert code == 2
    said(err, argv[0] if argv else "", usage)


@pytest.mark.parametrize("argv", [
    "undo 0", "undo two", "undo -- -3", "monitor --every 0", "monitor --every soon",
    "enroll --wait -1", "selftest --press nan", "status --timeout 0", "sync --timeout inf",
    "logs export hall --from 0", "logs export hall --to x", "logs export hall --format xml",
    "sim --pace -5", "sim --pace fast", "rules frob", "logs frob", "seat two Ann",
    "players frob", "players add Ann --wait soon", "night frob", "standings --night 1 --season",
    "standings --night", "logs export hall --to 99999999999999999999",
    "logs export hall --from 99999999999999999999"])
def test_a_value_of_the_wrong_type(capsys, place, argv):
    code, out, err = run(capsys, argv.split())
    assert code == 2
    said(err, argv.split()[0], usage=True)


@pytest.mark.parametrize("argv, want", [
    ("rules set stacking", "NAME=VALUE"), ("rules set stacking=maybe", "must be one of"),
    ("rules set =on", "NAME=VALUE"), ("rules set nosuch=1", "no setting"),
    ("rules set preset=nosuch", "preset"), ("rules show nosuch", "no setting"),
    ("sync --set stacking=maybe", "must be one of"), ("sync --set w4", "NAME=VALUE"),
    ("replay EXAMPLE --set stacking=maybe", "must be one of"),
    ("replay EXAMPLE --set hand_size=0", "hand_size"),
    ("logs export hall --from 50 --to 10", "--from"),
    ("logs export hall --from 99999", "past the last seq"),   # was a header alone, exit 0
    ("verify EXAMPLE --table hall", "not both"),
    ("standings --league-points 3", "M,R"), ("standings --league-points a,b", "M,R"),
    ("standings --keep", "--keep"), ("standings --night nosuch", "no night"),
    ("standings --night 2026-13-45", "no date"), ("night start", "NAME"),
    ("night close x", "no NAME"), ("night close", "no night is on"),
    ("night start 2026-12-01", "date"), ("sync --all --table x", "--table"),
    ("standings --night \u00b2", "no night"), ("standings --night 99999999999999999999",
                                                "no night"),
    ("standings --night 9999-12-31", "out of the dates"),
    # bytes from the shell that are not UTF-8 (surrogate escapes): refused, not a bug
    ("sync --table \udcff\udcfe", "not UTF-8"), ("logs show \udcff", "not UTF-8"),
    ("verify --table \udcff", "not UTF-8"), ("night start \udcff", "not UTF-8"),
    ("standings --night \udcff", "not UTF-8"), ("seat 2 \udcff", "not UTF-8"),
    ("players add \udcff --no-badge", "not UTF-8"), ("players remove \udcff", "not UTF-8"),
    ("pair --table \udcff --port x", "not UTF-8"),
])
def test_a_malformed_setting_or_range_is_refused_before_anything_is_sent(capsys, place,
                                                                        monkeypatch, argv,
                                                                        want):
    sent = []
    monkeypatch.setattr(commands, "connect", lambda args: sent.append(args) or FakeLink())
    argv = [place["db"] if a == "DB" else EXAMPLE if a == "EXAMPLE" else a
            for a in argv.split()]
    if argv[0] in ("sync", "logs", "verify", "standings", "night", "players", "pair"):
        argv += ["--db", place["db"]]
    if argv[0] in ("sync", "rules") and "--all" not in argv:
        argv += ["--port", "/dev/fake"]
    before = digest(place["db"])
    code, out, err = run(capsys, argv)
    assert code == 2 and want in said(err, argv[0]), err
    assert not sent and digest(place["db"]) == before


@pytest.mark.parametrize("kind", ["missing", "empty", "dir", "text"])
@pytest.mark.parametrize("cmd", ["replay FILE", "verify FILE", "sim FILE --exit",
                                 "verify EXAMPLE --deck FILE", "sync --deck FILE --port x",
                                 "replay FILE --json"])
def test_a_file_argument_that_is_missing_empty_a_folder_or_not_what_it_should_be(
        capsys, place, cmd, kind):
    argv = [place[kind] if a == "FILE" else EXAMPLE if a == "EXAMPLE" else a
            for a in cmd.split()]
    if argv[0] in ("sync", "verify"):
        argv += ["--db", place["db"]]
    before = digest(place["db"])
    code, out, err = run(capsys, argv)
    if kind == "text" and argv[0] == "verify" and "--deck" not in argv:
        # it was read and checked: line 1 is no record (a check that failed)
        assert code == 1 and "NOT OK" in out and "line 1" in out
    else:
        assert code == 2, (argv, code, out, err)
        said(err, argv[0])
    assert digest(place["db"]) == before


@pytest.mark.parametrize("cmd", ["logs list", "logs show hall", "logs export hall",
                                 "verify --table hall", "logs list --json",
                                 "verify EXAMPLE", "players list", "night list",
                                 "standings --season", "standings --csv",
                                 "night list --json"])
def test_a_read_only_database_is_read_and_nothing_is_written_to_it(capsys, place, cmd):
    os.chmod(place["db"], 0o444)
    before = (digest(place["db"]), sorted(os.listdir(place["dir"])))
    argv = [EXAMPLE if a == "EXAMPLE" else a for a in cmd.split()] + ["--db", place["db"]]
    code, out, err = run(capsys, argv)
    assert code == 0, err
    assert (digest(place["db"]), sorted(os.listdir(place["dir"]))) == before


@pytest.mark.parametrize("cmd", ["sync --port x", "pair --port x", "monitor --port x --count 1",
                                 "logs list", "verify --table hall"])
def test_a_database_in_a_place_that_cannot_be_written(capsys, place, monkeypatch, cmd):
    monkeypatch.setattr(commands, "connect", lambda args: FakeLink())
    code, out, err = run(capsys, cmd.split() + ["--db", place["ro"]])
    if cmd == "logs list":              # nothing there: nothing synced, and nothing made
        assert code == 0 and "no tables synced yet" in out
        return
    assert code == 2
    line = said(err, cmd.split()[0])
    assert "database" in line or "no table" in line, line


@pytest.mark.parametrize("where", ["dir", "ro", "missing-folder"])
def test_an_export_to_a_place_that_cannot_be_written_leaves_nothing(capsys, place, where):
    out_path = {"dir": place["dir"], "ro": place["ro"],
                "missing-folder": os.path.join(place["dir"], "no", "x.jsonl")}[where]
    before = sorted(os.listdir(place["dir"]))
    code, out, err = run(capsys, ["logs", "export", "hall", "--db", place["db"], "-o", out_path])
    assert code == 2 and "cannot write" in said(err, "logs")
    assert sorted(os.listdir(place["dir"])) == before


def test_an_export_onto_the_database_a_link_or_a_pipe(capsys, place):
    """-o the host database itself is refused (the export replaced it); -o a symlink writes
    its file (the link was replaced by a plain file); -o a FIFO (or a device, /dev/stdout)
    is written to, and stays a FIFO (a plain file was renamed over it: as root, over
    /dev/full)."""
    import threading
    before = digest(place["db"])
    link = os.path.join(place["dir"], "db-link")
    os.symlink(place["db"], link)
    for out in (place["db"], link):
        code, _, err = run(capsys, ["logs", "export", "hall", "--db", place["db"], "-o", out])
        assert code == 2 and "it is the host database" in said(err, "logs")
    assert digest(place["db"]) == before
    real = os.path.join(place["dir"], "real.jsonl")
    os.symlink(real, os.path.join(place["dir"], "out.jsonl"))
    code, _, err = run(capsys, ["logs", "export", "hall", "--db", place["db"], "-o",
                                os.path.join(place["dir"], "out.jsonl")])
    assert code == 0 and os.path.islink(os.path.join(place["dir"], "out.jsonl"))
    with open(real) as f:
        assert f.readline().startswith('{"record":1')
    fifo = os.path.join(place["dir"], "fifo")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
    reader.start()
    code, _, err = run(capsys, ["logs", "export", "hall", "--db", place["db"], "-o", fifo])
    reader.join(10)
    assert code == 0 and got and got[0].startswith('{"record":1'), err
    import stat
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_to_a_full_disk_says_so(place):
    """`> file` on a full disk: "cannot write the output", not "cannot read the file"."""
    for argv in (["logs", "export", "hall", "--db", place["db"]], ["replay", EXAMPLE]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "unotable.cli", *argv], env=ENV,
                               stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert r.returncode == 2 and "cannot write the output: No space left" in said(
            r.stderr, argv[0]), r.stderr


def test_an_export_over_a_file_is_whole_or_not_at_all(capsys, place, monkeypatch):
    """Interrupted half-way (Ctrl-C): the file it was to replace is as it was, no part file."""
    target = os.path.join(place["dir"], "night.jsonl")
    with open(target, "w") as f:
        f.write("yesterday's export\n")
    from unotable import export
    real = export.export_jsonl

    def cut(store, table, out, *a, **kw):
        out.write('{"record":1}\n')
        raise KeyboardInterrupt
    monkeypatch.setattr(export, "export_jsonl", cut)
    code, out, err = run(capsys, ["logs", "export", "hall", "--db", place["db"], "-o", target])
    assert code == 130 and "left the file as it was" in said(err, "logs")
    with open(target) as f:
        assert f.read() == "yesterday's export\n"
    assert sorted(os.listdir(place["dir"])) == sorted(["empty.jsonl", "notes.txt", "h.sqlite3",
                                                       "night.jsonl"])
    monkeypatch.setattr(export, "export_jsonl", real)
    code, out, err = run(capsys, ["logs", "export", "hall", "--db", place["db"], "-o", target])
    assert code == 0 and "written" in err
    with open(target) as f:
        assert f.readline().startswith('{"record":1')


def test_a_sync_interrupted_half_way_keeps_what_it_stored_and_resumes(capsys, place,
                                                                     monkeypatch):
    db = os.path.join(place["dir"], "night.sqlite3")
    recs, heads = chained(bot_records(300))

    class Cut(FakeLink):
        def sync_records(self, from_seq=1, max_bytes=0, head=None):
            for i, r in enumerate(FakeLink.sync_records(self, from_seq, max_bytes, head)):
                if i == 120:
                    raise KeyboardInterrupt
                yield r
    monkeypatch.setattr(commands, "connect", lambda args: Cut(recs, heads))
    monkeypatch.setattr("unotable.store.BATCH", 50)
    code, out, err = run(capsys, ["sync", "--port", "x", "--db", db])
    assert code == 130 and "run sync again to resume" in said(err, "sync")
    with Store(db) as s:
        kept = s.next_seq(TID) - 1
    assert 50 <= kept < recs[-1][0]         # whole batches kept, none half
    monkeypatch.setattr(commands, "connect", lambda args: FakeLink(recs, heads))
    code, out, err = run(capsys, ["sync", "--port", "x", "--db", db])
    assert code == 0, err
    with Store(db) as s:
        got = list(s.db.execute("SELECT seq FROM inputs WHERE table_id = ? ORDER BY seq",
                                (TID,)))
    assert [g[0] for g in got] == [r[0] for r in recs]      # each once, none lost


def test_an_enrolment_interrupted_half_way_changes_no_deck(capsys, monkeypatch):
    calls = []

    class Taps(FakeLink):
        n = 0

        def enroll(self, on):
            calls.append(("enroll", on))

        def status(self):
            self.n += 1
            if self.n > 5:
                raise KeyboardInterrupt
            return {"enroll": [self.n, ["%014x" % k for k in range(1, self.n + 1)]]}

        def upload_registry(self, uids):
            calls.append("upload")
    monkeypatch.setattr(commands, "connect", lambda args: Taps())
    code, out, err = run(capsys, ["enroll", "--port", "x"])
    assert code == 130 and "its deck is as it was" in said(err, "enroll")
    assert calls == [("enroll", True), ("enroll", False)]       # the table left enrolling


def _unotable(*argv, **kw):
    return subprocess.Popen([sys.executable, "-m", "unotable.cli", *argv], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def test_ctrl_c_in_a_long_replay_is_one_line_exit_130(tmp_path):
    """A real SIGINT, as a terminal sends it, half-way through a long file."""
    long = tmp_path / "long.jsonl"
    with open(EXAMPLE) as f:
        lines = f.read().splitlines()
    with open(long, "w") as f:
        f.write(lines[0] + "\n")
        for _ in range(400):                 # the same round again and again: a long night
            f.write("\n".join(lines[1:]) + "\n")
    p = _unotable("replay", str(long))
    assert p.stdout.readline()               # it has started
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    err = err.decode()
    assert p.returncode == 130, err
    assert "Traceback" not in err and said(err, "replay")


def test_ctrl_c_in_an_export_leaves_the_old_file(tmp_path):
    db = str(tmp_path / "big.sqlite3")
    with Store(db) as s:
        s.name_table(TID, "hall")
        s.sync(TID, FakeLink(*chained(bot_records(4000))))
    target = tmp_path / "night.csv"
    target.write_text("old\n")
    p = _unotable("logs", "export", "hall", "--db", db, "--format", "csv", "-o", str(target))
    end = time.monotonic() + 20
    while time.monotonic() < end and not any(".part" in n for n in os.listdir(tmp_path)):
        time.sleep(0.01)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    err = err.decode()
    assert "Traceback" not in err
    if p.returncode == 130:                  # caught half-way: the old file stands
        said(err, "logs")
        assert target.read_text() == "old\n"
    else:                                    # a fast machine finished first: all of it
        assert p.returncode == 0 and target.read_text().startswith("seq,")
    assert not [n for n in os.listdir(tmp_path) if ".part" in n]


def test_ctrl_c_stops_a_simulated_table_that_plays_on_and_its_log_stays(tmp_path):
    """No --log: the log goes to the per-user data folder, is named at the start, and
    outlives the table; the script's end does not stop it, Ctrl-C does (exit 0)."""
    env = dict(ENV, XDG_DATA_HOME=str(tmp_path / "data"))
    p = subprocess.Popen([sys.executable, "-m", "unotable.cli", "sim", EXAMPLE, "--pace", "0"],
                         env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    first = p.stdout.readline()
    log = first.split("its log: ")[1].strip()
    port = first.split()[3].rstrip(";")
    assert log.startswith(str(tmp_path / "data" / "unotable" / "sim")), first
    banner = p.stdout.readline().split("terminal: ")[1].split("|")[0].split()
    assert banner == ["unotable", "-p", port, "status"]      # the command it gives works
    r = subprocess.run([sys.executable, "-m", "unotable.cli"] + banner[1:], env=env,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and "sim on %s" % port in r.stdout, r.stderr
    r = subprocess.run([sys.executable, "-m", "unotable.cli", "status", "--json"], timeout=30,
                       env=dict(env, UNOTABLE_PORT=port), capture_output=True, text=True)
    assert r.returncode == 0 and '"board": "sim"' in r.stdout, r.stderr
    r = subprocess.run([sys.executable, "-m", "unotable.cli", "ports"], env=env, timeout=30,
                       capture_output=True, text=True)
    assert "%s" % port in r.stdout and "simulated table" in r.stdout, r.stdout
    while True:
        line = p.stdout.readline()
        assert line, "the simulated table stopped at the script's end"
        if "the script has played" in line:
            break
    assert p.poll() is None                  # it plays on
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0 and "Traceback" not in out + err, err
    assert "its log stays in %s" % log in out
    assert os.listdir(log)


def test_a_log_folder_the_simulated_table_cannot_use_or_has_to_make(tmp_path):
    """--log in a folder not made yet: made, and the table plays (the firmware, unable to
    make it, stopped at its REPL and the sim waited for ever); a device or a place no one can
    write in: one line, exit 2."""
    for log, want in (("/dev/null", "is a file"), ("/proc/unotable-log", "cannot make")):
        r = subprocess.run([sys.executable, "-m", "unotable.cli", "sim", EXAMPLE, "--exit",
                            "--log", log], env=ENV, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and want in said(r.stderr, "sim"), r.stderr
    log = tmp_path / "no" / "such" / "log"
    r = subprocess.run([sys.executable, "-m", "unotable.cli", "sim", EXAMPLE, "--exit", "--pace",
                        "0", "--log", str(log)], env=ENV, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "ROUND OVER" in r.stdout, r.stderr
    assert os.listdir(log)


def test_a_firmware_that_stops_with_an_error_is_said_not_waited_for(tmp_path):
    """A heap too small for the table: the firmware's MemoryError left micropython at its REPL
    (-i), alive, and `unotable sim` waited for ever, silent. Now one line, exit 2, and the
    micropython under it is stopped. A heap micropython cannot have is refused first."""
    for heap in ("99999999999999k", "x", "32k"):
        r = subprocess.run([sys.executable, "-m", "unotable.cli", "sim", EXAMPLE, "--exit",
                            "--heap", heap], env=ENV, capture_output=True, text=True, timeout=30)
        assert r.returncode == 2 and "64k to 1024m" in said(r.stderr, "sim"), r.stderr
    log = str(tmp_path / "log")
    r = subprocess.run([sys.executable, "-m", "unotable.cli", "sim", EXAMPLE, "--exit", "--heap",
                        "70k", "--log", log], env=ENV, capture_output=True, text=True,
                       timeout=60)
    line = said(r.stderr, "sim")
    assert r.returncode == 2 and "MemoryError" in line and "--heap" in line, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    left = []
    for pid in os.listdir("/proc"):          # no micropython on that log outlives it
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if pid.isdigit() and log.encode() in argv:
            left.append(pid)
    assert not left, "left running: %s" % left


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_kill_or_a_closed_terminal_stops_the_simulated_tables_firmware_too(tmp_path, sig):
    """`kill PID` or closing its terminal: as Ctrl-C, the micropython under it stops too (it
    was left running, on the log and the port, with no one to stop it)."""
    log = str(tmp_path / "log")
    p = subprocess.Popen([sys.executable, "-m", "unotable.cli", "sim", EXAMPLE, "--pace", "0",
                          "--log", log], env=ENV, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids = []
    try:
        while "the script has played" not in p.stdout.readline():
            assert p.poll() is None
        with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
            kids = [int(x) for x in f.read().split()]
        assert kids                          # the firmware, under micropython
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
        assert p.returncode == 0 and "Traceback" not in out + err, err
        assert "its log stays in %s" % log in out
        for kid in kids:
            assert not os.path.exists("/proc/%d" % kid) or \
                open("/proc/%d/stat" % kid).read().split()[2] == "Z", "left running"
    finally:
        for pid in [p.pid] + kids:          # nothing of it outlives a failed test
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        p.wait()


def test_global_options_go_before_or_after_the_subcommand_or_come_from_the_environment(
        capsys, place, monkeypatch):
    asked = []

    def connect(args):
        asked.append(args.port)
        return FakeLink()
    monkeypatch.setattr(commands, "connect", connect)
    for argv in (["-p", "A", "status"], ["status", "-p", "A"], ["--port", "A", "status"],
                 ["-p", "B", "status", "--port", "A"]):
        code, out, err = run(capsys, argv)
        assert code == 0, err
    monkeypatch.setenv("UNOTABLE_PORT", "A")
    run(capsys, ["status"])
    assert asked == ["A"] * 5
    outs = []
    for argv in (["--db", place["db"], "logs", "list"], ["logs", "list", "--db", place["db"]]):
        outs.append(run(capsys, argv)[1])
    monkeypatch.setenv("UNOTABLE_DB", place["db"])
    outs.append(run(capsys, ["logs", "list"])[1])
    assert outs[0] == outs[1] == outs[2] and "hall" in outs[0]
    code, out, err = run(capsys, ["logs", "list", "--debug"])
    assert code == 0


def test_the_port_may_come_between_rules_set_and_its_values(capsys, monkeypatch):
    # argparse took `rules set -p PORT w4=free`'s values as done ("unrecognized arguments")
    seen = []
    monkeypatch.setattr(commands, "cmd_rules", lambda args: seen.append(
        (args.port, args.action, args.settings)) or 0)
    for argv in (["rules", "set", "-p", "A", "w4=free", "stacking=on"],
                 ["rules", "set", "w4=free", "-p", "A", "stacking=on"],
                 ["-p", "A", "rules", "set", "w4=free", "stacking=on"]):
        assert run(capsys, argv)[0] == 0
    assert seen == [("A", "set", ["w4=free", "stacking=on"])] * 3
    code, out, err = run(capsys, ["rules", "set", "-p", "A", "w4=free", "--frob"])
    assert code == 2 and "unrecognized arguments: --frob" in err


def test_json_for_programs(capsys, place, monkeypatch):
    import json
    monkeypatch.setattr(commands, "connect", lambda args: FakeLink())
    for argv in (["logs", "list"], ["logs", "show", "hall"], ["rules", "show"],
                 ["rules", "show", "stacking"], ["verify", "--table", "hall"],
                 ["verify", EXAMPLE], ["status", "-p", "x"], ["ports"]):
        code, out, err = run(capsys, argv + ["--json", "--db", place["db"]]
                             if argv[0] in ("logs", "verify") else argv + ["--json"])
        assert code == 0, (argv, err)
        json.loads(out)
    code, out, _ = run(capsys, ["rules", "show", "stacking", "--json"])
    assert [r["name"] for r in json.loads(out)["rules"]] == ["stacking"]    # the filter holds


def test_a_rule_the_table_refuses_mid_round_is_one_line_without_a_false_resume(capsys, place,
                                                                              monkeypatch):
    from unotable.link import Refused

    class MidRound(FakeLink):
        def set_rule(self, name, value):
            why = "rules are locked while a round is on: set them after the round"
            raise Refused("the table refused `rule`: " + why, "rule", why)
    monkeypatch.setattr(commands, "connect", lambda args: MidRound())
    before = digest(place["db"])
    code, out, err = run(capsys, ["sync", "-p", "x", "--set", "stacking=on", "--db",
                                  place["db"]])
    line = said(err, "sync")
    assert code == 2 and "locked while a round is on" in line and "resume" not in line, line
    assert "between rounds" in line and digest(place["db"]) == before


@pytest.mark.parametrize("argv, closed, want", [
    (["logs", "list", "--db", "DB"], 1, 0), (["logs", "export", "hall", "--db", "DB"], 1, 0),
    (["replay", EXAMPLE], 1, 0), (["replay", "-"], 0, 2), (["logs", "list", "--db", "DIR"], 2, 2)])
def test_a_standard_stream_the_shell_closed(place, argv, closed, want):
    """`unotable ... >&-` (or `<&-`, `2>&-`): as if it were /dev/null, no traceback, and the
    host database never takes the closed fd."""
    argv = [place["db"] if a == "DB" else place["dir"] if a == "DIR" else a for a in argv]
    before = digest(place["db"])
    r = subprocess.run([sys.executable, "-m", "unotable.cli", *argv], env=ENV,
                       capture_output=True, timeout=60, preexec_fn=lambda: os.close(closed))
    assert r.returncode == want, r
    assert b"Traceback" not in r.stdout + r.stderr and digest(place["db"]) == before
    if closed == 0:
        assert b"is empty" in r.stderr
    if closed == 2:                     # its one line goes nowhere, not into the output
        assert not r.stdout


def test_ctrl_c_while_the_tool_still_loads_is_one_line_exit_130():
    """The `unotable` command, Ctrl-C'd before cli.main is running (Python importing it, a
    few tenths of a second): one line, exit 130, not a traceback through the imports. Once
    main runs, Ctrl-C is its own again (the contract above)."""
    code = ("import os, signal, sys; sys.argv[0] = '/usr/bin/unotable'; import unotable; "
            "os.kill(os.getpid(), signal.SIGINT); print('not reached')")
    r = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 130 and not r.stdout, r
    assert r.stderr.strip() == "unotable: interrupted; nothing was done", r.stderr
    code = ("import signal, sys; sys.argv[0] = 'unotable'; from unotable.cli import main; "
            "main(['rules', 'show', 'stacking']); "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    r = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True,
                       timeout=60)
    assert r.stdout.strip().endswith("True"), r


def test_ctrl_c_while_players_add_waits_for_a_tap_says_nothing_was_added(capsys, monkeypatch,
                                                                          tmp_path):
    from unotable import players

    def tap(args, db):
        raise KeyboardInterrupt
    monkeypatch.setattr(players, "_tapped", tap)
    db = str(tmp_path / "h.sqlite3")
    code, out, err = run(capsys, ["players", "add", "Ann", "--port", "x", "--db", db])
    assert code == 130 and "no player was added" in err and "what was done" not in err, err
    code, out, err = run(capsys, ["players", "list", "--db", db])
    assert "Ann" not in out
