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


class C:
    def g(self, a):
        if a > 1:
            return 2
        return 0
"""


def _ms(src):
    return mutate.mutants(src), src.split("\n")


def _lines(got):
    return sorted(m[0] for m in got)


def test_an_entry_names_its_functions_twins_and_no_other_functions():
    ms, text = _ms(SRC)
    eq = {("x.py:f", "if a > 1: | > -> >=")}
    assert _lines(mutate.equivalent_in(eq, "x.py", ms, text)) == [2, 24]
    assert _lines(mutate.equivalent_in({("x.py:C.g", "if a > 1: | > -> >=")}, "x.py", ms,
                                       text)) == [31]
    assert mutate.equivalent_in(eq, "y.py", ms, text) == set()
    assert mutate.equivalent_in({("x.py:g", "if a > 1: | > -> >=")}, "x.py", ms, text) == set()


def test_k_names_one_twin_in_file_order_wherever_the_code_moves():
    ms, text = _ms(SRC)
    eq = {("x.py:f#2", "if a > 1: | > -> >=")}
    assert _lines(mutate.equivalent_in(eq, "x.py", ms, text)) == [24]
    moved = "import os\n\n\n" + SRC.replace("    b += 1\n", "    b += 1\n    b -= 1\n", 3)
    ms2, text2 = _ms(moved)
    assert _lines(mutate.equivalent_in(eq, "x.py", ms2, text2)) == [30]
    for k in (0, 3):
        assert mutate.equivalent_in({("x.py:f#%d" % k, "if a > 1: | > -> >=")}, "x.py", ms,
                                    text) == set()


def test_another_mutation_or_source_is_not_named():
    ms, text = _ms(SRC)
    assert _lines(mutate.equivalent_in({("x.py:f", "if a > 1: | > -> >=  # why | x")}, "x.py",
                                       ms, text)) == [2, 24]
    assert mutate.equivalent_in({("x.py:f", "if a > 1: | > -> >= x")}, "x.py", ms, text) == set()
    assert mutate.equivalent_in({("x.py:f", "if a > 1: | > -> <")}, "x.py", ms, text) == set()
    assert mutate.equivalent_in({("x.py:f", "if a > 2: | > -> >=")}, "x.py", ms, text) == set()


def test_a_mutation_holding_a_bar_is_read_whole():
    # ("& -> |" before the reason read as a fourth field once: the entry named nothing)
    src = "def f(i):\n    if i & 15 == 15:  # x | y\n        return 1\n"
    ms, text = _ms(src)
    eq = {("x.py:f", "if i & 15 == 15:  # x | y | & -> |  # why")}
    assert mutate.equivalent_in(eq, "x.py", ms, text) == {(2, 7, "& -> |")}


def test_module_code_and_a_class_body_are_module():
    src = "X = 1\n\n\nclass K:\n    Y = 2\n\n    def h(self):\n        return 3\n"
    defs = mutate.functions(src)
    assert [mutate.function_at(defs, n) for n in (1, 5, 8)] == ["<module>", "<module>", "K.h"]


def test_an_entry_without_a_function_is_refused(tmp_path):
    import pytest
    p = tmp_path / "eq.txt"
    p.write_text("# a comment\n\nx.py:f | return 0 | 0 -> 1  # why\n")
    assert mutate.equivalents(str(p)) == {("x.py:f", "return 0 | 0 -> 1  # why")}
    for bad in ("x.py | return 0 | 0 -> 1  # why\n", "x.py:12:4 | return 0 | 0 -> 1\n"):
        p.write_text(bad)
        with pytest.raises(ValueError, match="FILE:FUNCTION"):
            mutate.equivalents(str(p))


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
        ms, text = mutate.points(src), src.split("\n")  # (no unparse: enough to name one)
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


def test_a_mutants_source_is_the_whole_file_with_that_one_change():
    ms, text = _ms(SRC)
    m = [m for m in ms if m[0] == 31 and m[2] == "> -> >="][0]
    assert m[:3] == (31, 11, "> -> >=") and len(m) == 4
    new = m[3].split("\n")
    assert new.count("        if a >= 1:") == 1 and new.count("    if a > 1:") == 2  # f: untouched
    assert list(m) == [31, 11, "> -> >=", m[3]]
