"""tools/mutate.py: its mutants and how tools/mutate_equiv.txt names the equivalent ones."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import mutate  # noqa: E402

SRC = """def f(a, b):
    if a > 1:
        return b
""" + "    b += 1\n" * 20 + """    if a > 1:
        return b + 1
    return 0
"""


def _ms(src):
    return mutate.mutants(src), src.split("\n")


def test_an_entry_without_a_line_names_every_mutant_with_its_source_and_mutation():
    ms, text = _ms(SRC)
    eq = {("x.py", "if a > 1:", "> -> >=")}
    got = mutate.equivalent_in(eq, "x.py", ms, text)
    assert sorted(m[0] for m in got) == [2, 24]
    assert mutate.equivalent_in(eq, "y.py", ms, text) == set()


def test_a_line_entry_names_the_nearest_twin_even_after_the_code_moved():
    ms, text = _ms(SRC)
    # (twins further apart than the drift: the nearest is the one meant)
    eq = {("x.py:24", "if a > 1:", "> -> >=")}
    assert [m[0] for m in mutate.equivalent_in(eq, "x.py", ms, text)] == [24]
    moved = "import os\n\n\n" + SRC            # three lines added above: still the second one
    ms2, text2 = _ms(moved)
    assert [m[0] for m in mutate.equivalent_in(eq, "x.py", ms2, text2)] == [27]
    eq = {("x.py:1", "if a > 1:", "> -> >=")}
    assert [m[0] for m in mutate.equivalent_in(eq, "x.py", ms, text)] == [2]


def test_a_column_must_match_and_another_mutation_is_not_named():
    ms, text = _ms(SRC)
    col = [m for m in ms if m[0] == 2 and m[2] == "> -> >="][0][1]
    assert mutate.equivalent_in({("x.py:2:%d" % col, "if a > 1:", "> -> >=")}, "x.py", ms,
                                text) == {(2, col, "> -> >=")}
    assert mutate.equivalent_in({("x.py:2:%d" % (col + 1), "if a > 1:", "> -> >=")}, "x.py",
                                ms, text) == set()
    assert mutate.equivalent_in({("x.py:2", "if a > 1:", "> -> <")}, "x.py", ms, text) == set()


def test_the_listed_equivalents_all_still_name_a_mutant():
    # A stale entry (its source line rewritten) would quietly count nothing: say which.
    eq = mutate.equivalents()
    stale = []
    by_file = {}
    for e in eq:
        by_file.setdefault(e[0].split(":")[0], []).append(e)
    for rel, es in by_file.items():
        with open(os.path.join(ROOT, rel)) as f:
            src = f.read()
        ms, text = mutate.points(src), src.split("\n")   # (making every mutant takes minutes)
        for e in es:
            if not mutate.equivalent_in({e}, rel, ms, text):
                stale.append(e)
    assert stale == []


def test_each_firmware_file_is_tested_by_a_folder_that_exists():
    # (firmware/uno's tests are tests/core: a folder that is not there failed every mutant,
    # which counted them all as killed)
    seen = set()
    for d in sorted(os.listdir(os.path.join(ROOT, "firmware"))):
        full = os.path.join(ROOT, "firmware", d)
        if not os.path.isdir(full) or d.startswith("__"):
            continue
        for n in sorted(os.listdir(full)):
            if n.endswith(".py") and n != "__init__.py":
                folder = mutate._default_tests("firmware/%s/%s" % (d, n))
                assert os.path.isdir(os.path.join(ROOT, folder)), (d, n, folder)
                seen.add(folder)
    assert {"tests/core", "tests/drivers", "tests/gamelog", "tests/link"} <= seen


def test_a_run_whose_tests_fail_without_a_mutant_measures_nothing():
    import subprocess
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mutate.py"), "--limit", "1",
                        "--tests", "false", "firmware/gamelog/chain.py"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "the tests fail without any mutant" in r.stderr, r
    assert "killed" not in r.stdout
