"""The engine's hot methods as native code (issue 10's speed on the board): a frozen image
compiles them to machine code in flash; copied files and ROMFS get bytecode unless asked
(unotable.build). Both must judge every input alike."""
import hashlib
import os
import subprocess

import pytest

from unotable import build as buildmod
from unotable.cli import main

MP = buildmod.tool("micropython")
ROOT = buildmod.ROOT

# Replays bench/replay_night.txt (both nights) and prints a digest of every event.
REPLAY = """
import sys
sys.path.append('bench')
from replay_bench import read_night
from uno.rules import Settings
from uno.table import Table
import hashlib
h = hashlib.sha256()
n = 0
for label, settings, inputs in read_night('bench/replay_night.txt'):
    t = Table(Settings(settings))
    for inp in inputs:
        h.update(repr(t.feed(inp)).encode())
        n += 1
print(n, h.digest().hex())
"""


def header(path):
    with open(path, "rb") as f:
        b = f.read(3)
    return b[2] >> 2  # the native arch (0: bytecode only)


def test_bytecode_source_blanks_only_the_marks_and_keeps_the_lines():
    text = "class A:\n    @micropython.native\n    def f(self):\n        return 1  # %s\n"
    out = buildmod.bytecode_source(text % buildmod.NATIVE)
    assert out == "class A:\n\n    def f(self):\n        return 1  # %s\n" % buildmod.NATIVE
    with open(os.path.join(buildmod.FIRMWARE, "uno", "table.py")) as f:
        src = f.read()
    assert src.count("\n    @micropython.native\n") >= 10  # the frozen image's native code
    assert buildmod.NATIVE not in buildmod.bytecode_source(src).replace("# @", "")


def test_the_board_gets_bytecode_unless_asked(tmp_path):
    plain = buildmod.build(str(tmp_path / "plain"))
    board = buildmod.build(str(tmp_path / "board"), native=buildmod.BOARD_ARCH)
    table = [p for p in plain if p.endswith("table.mpy")]
    assert table and all(header(p) == 0 for p in plain)
    native = dict((os.path.basename(p), header(p)) for p in board)
    assert native["table.mpy"] == native["takeback.mpy"] == 10  # mpy-cross's xtensawin
    assert native["cards.mpy"] == 0   # no marks: bytecode only


@pytest.mark.skipif(not os.path.exists(MP), reason="no micropython in the venv")
def test_native_and_bytecode_engines_judge_a_night_alike(tmp_path):
    digests = set()
    for name, native in (("bytecode", None), ("native", "host")):
        out = str(tmp_path / name)
        buildmod.build(out, native=native)
        r = subprocess.run([MP, "-X", "heapsize=8m", "-c", REPLAY], capture_output=True,
                           text=True, cwd=ROOT, env=dict(os.environ, MICROPYPATH=out + ":.frozen"))
        assert r.returncode == 0, r.stderr
        digests.add(r.stdout.split()[1])
        n = int(r.stdout.split()[0])
    assert len(digests) == 1 and n > 7000
    # and CPython, running the source, agrees with both
    import sys
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from replay_bench import read_night
    from uno.rules import Settings
    from uno.table import Table
    h = hashlib.sha256()
    for label, settings, inputs in read_night(os.path.join(ROOT, "bench", "replay_night.txt")):
        t = Table(Settings(settings))
        for inp in inputs:
            h.update(repr(t.feed(inp)).encode())
    assert digests == {h.hexdigest()}


def test_deploy_native_says_so_and_an_unknown_arch_is_one_line(capsys):
    code = main(["deploy", "--native", "--dry-run", "--port", "/dev/null/none"])
    out, err = capsys.readouterr()
    assert code == 0 and "the engine as native code for xtensawin" in out, err
    code = main(["deploy", "--dry-run", "--port", "/dev/null/none"])
    out, err = capsys.readouterr()
    assert code == 0 and "the engine as bytecode" in out, err
    code = main(["deploy", "--native", "z80", "--dry-run", "--port", "/dev/null/none"])
    out, err = capsys.readouterr()
    assert code == 2 and "no native code for 'z80': mpy-cross knows x86" in err
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1
