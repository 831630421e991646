"""The ROMFS deploy path: the firmware packed by `mpremote romfs build`, mounted from a buffer
under the unix port (vfs.VfsRom), plays a bundled round as the engine replays it."""
import os
import subprocess
import time

import pytest

from uno.record import Replay
from uno.state import snapshot
from unotable import romfs, sim
from unotable.build import BuildError, tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUND = os.path.join(ROOT, "examples", "round-4p.jsonl")


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    work = tmp_path_factory.mktemp("romfs")
    path = str(work / "unotable.romfs")
    size, sources = romfs.build_image(path, str(work))
    return path, size, sources


def test_the_image_holds_every_package_compiled_and_leaves_boot_and_main_out(image):
    path, size, sources = image
    assert 0 < size <= romfs.PARTITION, (
        "the image (%d B) outgrew the 128 KB romfs partition of partitions-4MiB-romfs.csv, "
        "the one docs/deploy.md recommends: say there what partition it needs now" % size)
    assert sorted(os.path.basename(s) for s in sources) == ["boot.py", "main.py"]
    probe = ("import os\nprint(sorted(os.listdir('/rom')))\n"
             "print(sorted(os.listdir('/rom/uno')))\n"
             "from uno.table import Table\n"
             "print(Table().feed((3, 1, 0))[0][0])\n"  # IN_SEAT: seat 1 joins
             "import uno.table\nprint(uno.table.__file__)\n")
    with open(os.path.join(os.path.dirname(path), "probe.py"), "w") as f:
        f.write(probe)
    r = subprocess.run([tool("micropython"), romfs.RUNNER, path, "probe"], capture_output=True,
                       text=True,
                       env=dict(os.environ, MICROPYPATH=os.path.dirname(path) + ":.frozen"),
                       timeout=10)
    assert r.returncode == 0, r.stderr
    top, uno, fed, where = r.stdout.splitlines()
    assert eval(top) == romfs.packages()
    assert "table.mpy" in eval(uno) and not any(n.endswith(".py") for n in eval(uno))
    assert fed == "1" and where == "/rom/uno/table.mpy"  # imported from the image, not a .py


def test_the_simulated_table_runs_from_the_image_and_ends_the_round_as_the_engine(image):
    code, run, heap = romfs.sim_run(image[0])
    table = sim.SimTable(ROUND, pace=0, code=code, run=run, heap=heap)
    try:
        end = time.monotonic() + 8
        s = None
        while time.monotonic() < end:
            s = table.status()
            assert s is not None, "the simulated table stopped"
            if s["board"]["script_done"]:
                break
            time.sleep(0.05)
        assert s["board"]["script_done"], "the round did not finish"
        replay = Replay()
        with open(ROUND) as f:
            for _ in replay.run(f):
                pass
        assert sim.state_only(s) == snapshot(replay.table)
        assert s["phase"] in ("round_over", "match_over")
    finally:
        assert "Traceback" not in table.close()


def test_deploy_writes_the_image_then_boot_and_main_then_resets(image):
    path, _, sources = image
    argv = romfs.deploy_argv("/dev/ttyUSB0", path, sources)
    assert argv[1:6] == ["connect", "/dev/ttyUSB0", "romfs", "deploy", path]
    assert "resume" not in argv and argv[-2:] == ["+", "reset"]
    steps, step = [], []
    for a in argv[3:]:
        if a == "+":
            steps.append(step)
            step = []
        else:
            step.append(a)
    assert steps[1][0] == "exec" and "'uno'" in steps[1][1] and "'log'" not in steps[1][1]
    assert [s[:2] + s[-1:] for s in steps[2:4]] == [["fs", "cp", ":boot.py"],
                                                    ["fs", "cp", ":main.py"]]


def test_the_clean_step_removes_stale_packages_and_keeps_the_log(tmp_path):
    """The exec step of deploy, run under micropython on a folder standing in for the flash."""
    for d in ("uno", "hub/sub", "log"):
        os.makedirs(tmp_path / d)
    for f in ("uno/table.mpy", "hub/app.mpy", "hub/sub/x.mpy", "log/seg0", "main.py"):
        (tmp_path / f).write_text("x")
    code = (romfs.CLEAN % (romfs.packages(),)).replace("'/' + d", "%r + d" % (str(tmp_path) + "/"))
    r = subprocess.run([tool("micropython"), "-c", code], capture_output=True, text=True,
                       timeout=10)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["log", "main.py"]
    assert os.listdir(tmp_path / "log") == ["seg0"]


def test_a_wrong_image_name_gets_an_answer(tmp_path):
    with pytest.raises(BuildError, match="romfs"):
        romfs.build_image(str(tmp_path / "image.bin"), str(tmp_path))


def test_deploy_dry_run_plans_and_a_missing_board_gets_one_line(image, tmp_path, capsys,
                                                                 monkeypatch):
    # built once above
    monkeypatch.setattr(romfs, "build_image", lambda path, work, native=None: image[1:])
    assert romfs.deploy("/dev/ttyUSB0", str(tmp_path / "a"), dry_run=True) == 0
    out = capsys.readouterr().out
    assert "ROMFS image" in out and "boot.py, main.py" in out
    assert romfs.deploy("/dev/unotable-no-such-port", str(tmp_path / "b")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("unotable deploy: mpremote failed") and "\n" not in err
    assert "Traceback" not in err
