"""bench/takeback_cost.py's copy of the engine: the take-back's log cut out and nothing else
(the night's events are this tree's), so that its figure is the log's cost."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import takeback_cost  # noqa: E402

NIGHT = """import hashlib, sys
sys.path.insert(0, "bench")
from replay_bench import read_night
from uno.rules import Settings
from uno.table import Table
h = hashlib.sha256()
for label, settings, inputs in read_night("bench/replay_night.txt"):
    t = Table(Settings(settings))
    for inp in inputs:
        h.update(repr(t.feed(inp)).encode())
print(h.hexdigest(), t.back.n)
"""


def test_the_copy_without_the_log_judges_the_night_as_this_tree(tmp_path):
    os.makedirs(tmp_path / "uno")
    for name in os.listdir(os.path.join(ROOT, "firmware", "uno")):
        if name.endswith(".py"):
            with open(os.path.join(ROOT, "firmware", "uno", name)) as f:
                text = f.read()
            new = takeback_cost.cut(name, text)
            assert (new != text) == (name in ("table.py", "takeback.py")), name
            (tmp_path / "uno" / name).write_text(new)
    got = {}
    for fw in (os.path.join(ROOT, "firmware"), str(tmp_path)):
        r = subprocess.run([sys.executable, "-c", NIGHT], cwd=ROOT, capture_output=True,
                           text=True, env=dict(os.environ, PYTHONPATH=fw))
        assert r.returncode == 0, r.stderr
        got[fw] = r.stdout.split()
    mine, cut = got.values()
    assert mine[0] == cut[0] and int(mine[1]) > 0 and cut[1] == "0"  # same events, no log


def test_a_log_that_moved_is_one_clear_error():
    try:
        takeback_cost.cut("table.py", "class Table:\n    pass\n")
    except ValueError as e:
        assert "update _CUTS" in str(e)
    else:
        raise AssertionError("no error")
