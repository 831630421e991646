"""examples/ is what `make examples` writes: a change to the engine or the players that changes
a bundled round shows up here, not as a dirty tree after someone runs it."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_make_examples_writes_the_committed_examples(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_examples.py"),
                        str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    made = sorted(os.listdir(str(tmp_path)))
    assert made == sorted(f for f in os.listdir(os.path.join(ROOT, "examples"))
                          if f.endswith(".jsonl"))
    for name in made:
        with open(os.path.join(ROOT, "examples", name)) as f, open(str(tmp_path / name)) as g:
            assert g.read() == f.read(), "%s: run make examples; check the tests using it" % name
