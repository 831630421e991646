"""`unotable deploy --romfs`: the image goes up with mpremote after the running firmware has
handed the port over (`repl`), as `unotable deploy` does for files; a dry run only plans."""
import subprocess

import pytest

from unotable import link as linkmod
from unotable import romfs
from unotable.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def board(monkeypatch, tmp_path):
    """mpremote and the firmware's `repl` answer only noted, in the order they come; the image
    is not built (tests/host/test_romfs.py builds one)."""
    calls = []
    monkeypatch.setattr(linkmod, "open_repl", lambda port, timeout=1.0: calls.append("repl")
                        or True, raising=False)

    def image(path, work, native=None):
        sources = []
        for name in ("boot.py", "main.py"):
            sources.append(str(tmp_path / name))
        return 4096, sources
    monkeypatch.setattr(romfs, "build_image", image)

    class Done:
        returncode, stdout, stderr = 0, "", ""

    def fake(argv, **kw):
        assert "mpremote" in argv[0], argv
        calls.append(argv[1:6])
        return Done()
    monkeypatch.setattr(subprocess, "run", fake)
    return calls


def test_deploy_romfs_lets_mpremote_in_first_then_writes_the_image(capsys, board):
    c, out, err = run(capsys, "deploy", "--romfs", "--port", "/dev/ttyUSB9")
    assert c == 0, err
    assert board[0] == "repl"
    assert board[1][:4] == ["connect", "/dev/ttyUSB9", "romfs", "deploy"]
    assert board[1][4].endswith(".romfs") and len(board) == 2
    assert "ROMFS image 4096 bytes" in out and "deployed the ROMFS image" in out


def test_deploy_romfs_dry_run_plans_only(capsys, board):
    c, out, err = run(capsys, "deploy", "--romfs", "--dry-run", "--port", "/dev/ttyUSB9")
    assert c == 0 and board == [] and "boot.py, main.py" in out


def test_deploy_romfs_with_resume_is_one_line(capsys, board):
    c, out, err = run(capsys, "deploy", "--romfs", "--resume", "--port", "/dev/ttyUSB9")
    assert c == 2 and board == [] and err.count("\n") == 1 and "--resume" in err


def test_deploy_romfs_native_builds_the_engine_for_the_board(capsys, board, monkeypatch):
    asked = []
    monkeypatch.setattr(romfs, "build_image", lambda path, work, native=None: asked.append(
        native) or (4096, []))
    c, out, err = run(capsys, "deploy", "--romfs", "--native", "--dry-run", "--port", "/dev/x")
    assert c == 0 and asked == ["xtensawin"], err
    c, out, err = run(capsys, "deploy", "--romfs", "--dry-run", "--port", "/dev/x")
    assert c == 0 and asked == ["xtensawin", None], err
