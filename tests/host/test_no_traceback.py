"""Every subcommand, given bad arguments, missing files, a dead port or a damaged database,
answers in one line with its exit code (docs/host.md) and never shows a Python traceback."""
import os
import subprocess
import sys

import pytest

from unotable import commands
from unotable.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "round-2p.jsonl")
PORTED = ("status", "rules show", "rules set stacking=on", "enroll --wait 0.1", "sync",
          "monitor --count 1", "pair", "undo", "undo 2")


def run(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:         # argparse: one line
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, (argv, out, err)
    return code, out, err


def one_line(err, cmd):
    lines = [l for l in err.splitlines() if l.strip()]
    assert lines and lines[0].startswith("unotable %s: " % cmd), err
    return lines


@pytest.fixture
def files(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(os.urandom(3000))
    newer = tmp_path / "newer.sqlite3"
    import sqlite3
    db = sqlite3.connect(str(newer))
    db.execute("PRAGMA user_version = 99")
    db.close()
    foreign = tmp_path / "places.sqlite"         # another program's: never written into
    db = sqlite3.connect(str(foreign))
    db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    db.close()
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n{\"record\":1}\n\x80\x81")
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100000 + "\n")
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"in":"seat","seat":1e300}\n{"in":"rule","name":[1],"value":{}}\n')
    tabled = tmp_path / "tabled.jsonl"
    tabled.write_text('{"record":1,"table":"0123456789abcdef"}\n')
    return {"tabled": str(tabled), "junk": str(junk), "newer": str(newer), "dir": str(tmp_path),
            "foreign": str(foreign),
            "missing": str(tmp_path / "nope" / "x.jsonl"), "binary": str(binary),
            "deep": str(deep), "odd": str(odd), "ro": "/proc/unotable/x.sqlite3"}


@pytest.mark.parametrize("cmd", PORTED)
def test_a_port_that_is_not_there(capsys, cmd, tmp_path):
    argv = cmd.split() + ["--port", "/dev/does-not-exist"]
    if cmd.split()[0] in ("sync", "monitor", "pair"):
        argv += ["--db", str(tmp_path / "h.sqlite3")]
    code, out, err = run(capsys, argv)
    assert code == 2 and "cannot open /dev/does-not-exist" in one_line(err, cmd.split()[0])[0]


@pytest.mark.parametrize("cmd", PORTED)
def test_a_port_where_nothing_answers(capsys, cmd, tmp_path):
    master, slave = os.openpty()        # a port that opens, and is silent
    try:
        argv = cmd.split() + ["--port", os.ttyname(slave), "--timeout", "0.05"]
        if cmd.split()[0] in ("sync", "monitor", "pair"):
            argv += ["--db", str(tmp_path / "h.sqlite3")]
        code, out, err = run(capsys, argv)
        assert code == 2 and "no answer from" in err, err
        one_line(err, cmd.split()[0])
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("db", ["junk", "newer", "dir", "ro", "foreign"])
@pytest.mark.parametrize("cmd", ["logs list", "logs show t1", "logs export t1",
                                 "verify --table t1", "sync", "pair", "monitor"])
def test_a_database_that_cannot_be_used(capsys, files, monkeypatch, cmd, db):
    from hostkit import FakeLink
    monkeypatch.setattr(commands, "connect", lambda args: FakeLink())
    code, out, err = run(capsys, cmd.split() + ["--db", files[db], "--port", "x"]
                         if cmd.split()[0] in ("sync", "pair", "monitor")
                         else cmd.split() + ["--db", files[db]])
    if db == "ro" and cmd == "logs list":     # nothing there: nothing synced, and nothing made
        assert code == 0 and "no tables synced yet" in out and not os.path.exists(files[db])
        return
    assert code == 2, (code, out, err)
    line = one_line(err, cmd.split()[0])[0]
    assert "database" in line
    if db == "newer":
        assert "newer unotable" in line
    if db == "foreign":
        assert "another program's" in line
        import sqlite3
        names = sqlite3.connect(files[db]).execute("SELECT name FROM sqlite_master").fetchall()
        assert names == [("moz_places",)]


@pytest.mark.parametrize("cmd", ["logs list", "logs show t1", "logs export t1",
                                 "verify --table t1", "standings --season", "night list",
                                 "sync --port x", "sync --all"])
def test_a_database_damaged_past_its_first_page(capsys, tmp_path, monkeypatch, cmd):
    """The file opens (its first page is whole) and a query meets the damage: one line naming
    the database, exit 2, not "a bug in unotable"."""
    from hostkit import FakeLink, bot_records, chained
    from unotable import fleet
    from unotable.store import Store
    db = str(tmp_path / "h.sqlite3")
    with Store(db) as s:
        s.name_table("0123456789abcdef", "t1")
        s.sync("0123456789abcdef", FakeLink(*chained(bot_records(600))))
    with open(db, "r+b") as f:
        data = f.read()
        f.seek(4096)
        f.write(b"\xa5" * (len(data) - 4096))          # every page but the schema's
    monkeypatch.setattr(commands, "connect", lambda args: FakeLink())
    monkeypatch.setattr(fleet, "need_ports", lambda: ["/dev/fake"])
    monkeypatch.setattr("unotable.link.Link.open", lambda *a, **k: FakeLink())
    code, out, err = run(capsys, cmd.split() + ["--db", db])
    assert code == 2, (code, out, err)
    line = one_line(err, cmd.split()[0])[-1]
    assert "database disk image is malformed" in line and db in line, line


def test_a_database_another_program_holds_locked(capsys, tmp_path):
    """Locked past SQLite's wait: one line that says so (exit 2), not "if it is damaged,
    move it away" (which would lose the night) nor "a bug"."""
    import sqlite3
    from unotable.store import Store
    db = str(tmp_path / "h.sqlite3")
    Store(db).close()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        code, out, err = run(capsys, ["logs", "list", "--db", db])
    finally:
        other.close()
    line = one_line(err, "logs")[0]
    assert code == 2 and "is locked by another program" in line and "damaged" not in line


def test_bad_files_and_arguments(capsys, files, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    cases = [
        (["verify"], 2, "give an exported record"),
        (["verify", files["missing"]], 2, "cannot read"),
        (["verify", files["dir"]], 2, "cannot read"),
        (["verify", files["binary"], "--db", db], 1, "not UTF-8"),
        (["verify", files["deep"], "--db", db], 1, "line 1"),
        (["verify", files["odd"], "--db", db], 0, "2 rejected"),   # the engine refuses them
        (["verify", files["tabled"], "--db", files["junk"]], 2, "database"),
        (["verify", EXAMPLE, "--deck", files["missing"]], 2, "cannot read"),
        (["verify", EXAMPLE, "--deck", files["binary"]], 2, "is not a deck"),
        (["verify", "--table", "nobody", "--db", db], 2, "no table 'nobody'"),
        (["replay", files["missing"]], 2, "cannot read"),
        (["replay", files["binary"]], 2, ""),
        (["replay", files["deep"]], 2, ""),
        (["replay", "/dev/zero"], 2, "is a device"),      # read whole: it filled the memory
        (["verify", "/dev/urandom"], 2, "is a device"),
        (["sim", "/dev/zero", "--exit"], 2, "is a device"),
        (["logs", "show", "--db", db], 2, "which table"),
        (["logs", "show", "nobody", "--db", db], 2, "no table 'nobody'"),
        (["logs", "export", "nobody", "--db", db], 2, "no table"),
        (["sync", "--port", "x", "--deck", files["missing"], "--db", db], 2, "x.jsonl"),
        (["sync", "--port", "x", "--deck", files["binary"], "--db", db], 2, "is not a deck"),
        (["sync", "--port", "x", "--set", "nonsense", "--db", db], 2, "NAME=VALUE"),
        (["rules", "set", "w4", "--port", "x"], 2, "NAME=VALUE"),
        (["rules", "set", "w4=never", "--port", "x"], 2, "w4 must be one of"),
        (["deploy", "--port", "/dev/does-not-exist"], 2, "mpremote failed"),
        (["selftest", "--port", "/dev/does-not-exist"], 2, "cannot open"),
    ]
    for argv, want, text in cases:
        code, out, err = run(capsys, argv)
        assert code == want, (argv, code, out, err)
        said = err if want == 2 else out
        assert text in said, (argv, said)
        if want == 2:
            one_line(err, argv[0])
    code, out, err = run(capsys, ["replay", files["odd"]])
    assert code == 0 and "REJECTED" in out
    for argv in (["undo", "x"], ["undo", "256"], ["selftest", "--press", "soon"],
                 ["logs", "nothing"], ["sync", "--timeout", "soon"], ["frob"],
                 ["logs", "export", "t", "--from", "a"], ["verify", "--deck"]):
        code, out, err = run(capsys, argv)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "--help` says more" in err


def test_export_to_a_place_that_cannot_be_written(capsys, tmp_path):
    from hostkit import FakeLink, bot_records, chained
    from unotable.store import Store
    db = str(tmp_path / "h.sqlite3")
    with Store(db) as s:
        s.name_table("0123456789abcdef", "hall")
        s.sync("0123456789abcdef", FakeLink(*chained(bot_records(30))))
    code, out, err = run(capsys, ["logs", "export", "hall", "--db", db, "-o",
                                  str(tmp_path / "no" / "such" / "dir.jsonl")])
    assert code == 2 and "cannot write" in one_line(err, "logs")[0]


def test_a_bug_is_one_line_too(capsys, monkeypatch):
    def boom(args):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(commands, "cmd_ports", boom)
    import unotable.cli as cli
    monkeypatch.setattr(cli.commands, "cmd_ports", boom)
    p = cli.parser()
    args = p.parse_args(["ports"])
    args.func = boom
    monkeypatch.setattr(cli, "parser", lambda: type("P", (), {
        "parse_known_args": lambda s, a: (args, [])})())
    code, out, err = run(capsys, ["ports"])
    assert code == 3 and err.startswith("unotable ports: unexpected error (ZeroDivisionError")


def test_the_installed_command_shows_no_traceback(files):
    exe = os.path.join(os.path.dirname(sys.executable), "unotable")
    if not os.path.exists(exe):
        pytest.skip("unotable is not installed in this venv")
    for argv, want in ((["verify", files["tabled"], "--db", files["junk"]], 2),
                       (["logs", "list", "--db", files["junk"]], 2),
                       (["verify", files["binary"], "--db",
                         os.path.join(files["dir"], "n.db")], 1),
                       (["status", "--port", "/dev/does-not-exist"], 2)):
        r = subprocess.run([exe] + argv, capture_output=True, text=True, timeout=60)
        assert r.returncode == want and "Traceback" not in r.stderr + r.stdout, (argv, r.stderr)
        assert len(r.stderr.strip().splitlines()) <= 1, r.stderr
