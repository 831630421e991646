"""A small AST mutation tester: do the tests notice when the code is changed?

Each mutant changes one operator, constant or condition of a source file; the tests run against
it in a scratch copy of the repo (the real files are never touched). A mutant the tests fail on
is killed; one they pass on survived, and is printed with its place, so a test can be written
for it (or it is judged equivalent: no behaviour can tell it apart).

    python tools/mutate.py [--jobs N] [--timeout S] [--limit N] [--only LINE[,LINE]]
                           [--sample N [--seed S]] [--mp] [--tests CMD] FILE [FILE ...]

--tests: the command run per mutant from the copy's root (default: the test functions of the
file's test folder, e.g. tests/gamelog for firmware/gamelog/*.py and tests/core for
firmware/uno/*.py, in one CPython process that stops at the first failure); --mp also runs the
same folder under micropython. The tests first run once on the file as it is: if they fail
there, nothing is measured (every mutant would count as killed). --sample N runs N mutants per
file drawn at random (--seed: the same draw again), for a figure in minutes. A mutant's tests
are stopped after --timeout seconds (default three times the unmutated run's: a hung mutant).
Listing a file's mutants takes a second or two (uno/table.py's 2,449 included): one parse, each
mutation made in place and only its method or statement unparsed; a mutant's whole source is
made when it runs.

Survivors judged equivalent are listed in tools/mutate_equiv.txt, one a line:
`FILE:FUNCTION | source line, stripped | mutation  # why`, FUNCTION the innermost def's
qualified name (Table._play; <module> outside any). An entry names every such mutant in that
function, wherever the code moves; FILE:FUNCTION#K only the K-th of them (from 1, in file
order) where a twin is not equivalent. A survivor is printed with the entry that would name
it. They are counted apart. Per file, and in all:
`killed K / N non-equivalent (P%), equivalent E, survived S, timeout T`. Exit status 0, or
non-zero when the tests fail on the unmutated file.
"""
import argparse
import ast
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
        ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
        ast.In: ast.NotIn, ast.NotIn: ast.In}
_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
        ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
        ast.BitXor: ast.BitOr, ast.LShift: ast.RShift, ast.RShift: ast.LShift}
_SYM = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
        ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.Add: "+",
        ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.BitAnd: "&",
        ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>", ast.And: "and",
        ast.Or: "or"}


def _docs(tree):
    out = set()
    for n in ast.walk(tree):
        body = getattr(n, "body", None)
        if (isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)):
            out.add(id(body[0].value))
    return out


def _points(node, docs):
    """The mutations of one node: [(description, change)], change(node, parent) edits in place."""
    out = []
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            new = _CMP.get(type(op))
            if new:
                out.append(("%s -> %s" % (_SYM[type(op)], _SYM[new]),
                            lambda n, p, k=k, new=new: n.ops.__setitem__(k, new())))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        new = _BIN.get(type(node.op))
        if new:
            eq = "=" if isinstance(node, ast.AugAssign) else ""
            out.append(("%s%s -> %s%s" % (_SYM[type(node.op)], eq, _SYM[new], eq),
                        lambda n, p, new=new: setattr(n, "op", new())))
    elif isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        out.append(("%s -> %s" % (_SYM[type(node.op)], _SYM[new]),
                    lambda n, p, new=new: setattr(n, "op", new())))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("drop not", lambda n, p: _replace(p, n, n.operand)))
    elif isinstance(node, ast.Constant) and id(node) not in docs:
        v = node.value
        if isinstance(v, bool):
            out.append(("%r -> %r" % (v, not v), lambda n, p: setattr(n, "value", not n.value)))
        elif isinstance(v, int):
            out.append(("%d -> %d" % (v, v + 1), lambda n, p: setattr(n, "value", n.value + 1)))
            if v != 0:
                out.append(("%d -> 0" % v, lambda n, p: setattr(n, "value", 0)))
    elif isinstance(node, (ast.If, ast.While)):
        kw = "if" if isinstance(node, ast.If) else "while"
        if not (isinstance(node.test, ast.Constant)):
            out.append(("%s-condition -> False" % kw,
                        lambda n, p: setattr(n, "test", ast.Constant(False))))
        if kw == "if":
            out.append(("if-condition -> True",
                        lambda n, p: setattr(n, "test", ast.Constant(True))))
    elif isinstance(node, ast.Break):
        out.append(("break -> continue", lambda n, p: _replace(p, n, ast.Continue())))
    elif isinstance(node, ast.Continue):
        out.append(("continue -> break", lambda n, p: _replace(p, n, ast.Break())))
    elif isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        out.append(("return value -> None", lambda n, p: setattr(n, "value", ast.Constant(None))))
    return out


def _replace(parent, old, new):
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            return
        if isinstance(value, list):
            for i, v in enumerate(value):
                if v is old:
                    value[i] = new
                    return


def _walk(tree):
    """Nodes in a fixed order with their parents (the same order on every parse)."""
    out = [(tree, None)]
    i = 0
    while i < len(out):
        n = out[i][0]
        for c in ast.iter_child_nodes(n):
            out.append((c, n))
        i += 1
    return out


def _plan(src):
    # every mutation point: (node index, point index, line, col, description), in file order
    tree = ast.parse(src)
    docs = _docs(tree)
    plan = []
    for idx, (node, parent) in enumerate(_walk(tree)):
        for j, (what, _) in enumerate(_points(node, docs)):
            plan.append((idx, j, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), what))
    plan.sort(key=lambda p: (p[2], p[3], p[0], p[1]))
    return plan


def points(src):
    """[(line, col, description)] of every place a mutant could be made, without making them
    (fast; mutants() then drops the ones that change nothing or repeat another)."""
    return [p[2:] for p in _plan(src)]


def _units(nodes):
    """Per node of _walk: the index of its unit, the statement that holds it in the module's
    or a class's body (a method, a module-level statement): a mutant changes only its unit."""
    unit = [0] * len(nodes)
    index = dict((id(n), i) for i, (n, _) in enumerate(nodes))
    for i, (n, p) in enumerate(nodes):
        if p is None:
            unit[i] = i
        elif isinstance(p, (ast.Module, ast.ClassDef)) and isinstance(n, ast.stmt):
            unit[i] = i
        else:
            unit[i] = unit[index[id(p)]]
    return unit


def _fields(*objs):
    """What _points' changes may edit: each object's fields, lists copied (restored after)."""
    return [(o, [(f, v[:] if isinstance(v, list) else v) for f, v in ast.iter_fields(o)])
            for o in objs if o is not None]


def _mutated(src, idx, j):
    """The whole source with mutation j of node idx (_plan's numbering)."""
    t = ast.parse(src)
    node, parent = _walk(t)[idx]
    _points(node, _docs(t))[j][1](node, parent)
    ast.fix_missing_locations(t)
    return ast.unparse(t)


class Mutant:
    """(line, col, description, mutated source); the source is made when asked (a parse and an
    unparse of the whole file: only for the mutants that run)."""

    def __init__(self, src, idx, j, line, col, what):
        self._at = (src, idx, j)
        self._head = (line, col, what)
        self._new = None

    def _all(self):
        if self._new is None:
            self._new = _mutated(*self._at)
        return self._head + (self._new,)

    def __getitem__(self, k):
        if isinstance(k, int) and -4 < k < 3:
            return self._head[k]
        if isinstance(k, slice) and k.start is None and k.step is None and k.stop == 3:
            return self._head
        return self._all()[k]

    def __len__(self):
        return 4

    def __iter__(self):
        return iter(self._all())


def mutants(src):
    """[Mutant] for one file's source, but those that change nothing or repeat another. One
    parse: each mutation is made in place, its unit (a method, a module-level statement)
    unparsed and compared, and the change undone (a parse and an unparse of the whole file a
    mutant took minutes for uno/table.py)."""
    tree = ast.parse(src)
    nodes = _walk(tree)
    units = _units(nodes)
    docs = _docs(tree)
    base = {}
    out = []
    seen = set()
    for idx, j, line, col, what in _plan(src):
        node, parent = nodes[idx]
        u = units[idx]
        if u not in base:
            base[u] = ast.unparse(nodes[u][0])
        saved = _fields(node, parent)
        _points(node, docs)[j][1](node, parent)
        try:
            new = ast.unparse(nodes[u][0])
        except Exception:
            new = None
        for o, fields in saved:
            for f, v in fields:
                setattr(o, f, v)
        if new is None or new == base[u] or (u, new) in seen:
            continue
        seen.add((u, new))
        out.append(Mutant(src, idx, j, line, col, what))
    return out


EQUIV = os.path.join(ROOT, "tools", "mutate_equiv.txt")


def functions(src):
    """[(first line, last line, qualified name)] of every def, outermost first."""
    out = []

    def visit(node, prefix):
        for c in ast.iter_child_nodes(node):
            if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + c.name
                if not isinstance(c, ast.ClassDef):
                    out.append((c.lineno, c.end_lineno, name))
                visit(c, name + ".")
            else:
                visit(c, prefix)
    visit(ast.parse(src), "")
    return out


def function_at(defs, line):
    """The innermost def (functions()) holding line, or "<module>" (a class body's too)."""
    best = "<module>"
    for first, last, name in defs:
        if first <= line <= last:
            best = name  # outermost first: a nested def comes later
    return best


def equivalents(path=EQUIV):
    """{(FILE:FUNCTION[#K], "source | mutation  # why")} judged equivalent (the docstring);
    ValueError for an entry that names no function. The rest is matched whole against each
    mutant (equivalent_in): a source line or a mutation may hold a " | " or a "#" itself."""
    out = set()
    try:
        f = open(path)
    except OSError:
        return out
    with f:
        for ln in f:
            if not ln.strip() or ln.lstrip().startswith("#"):
                continue
            where, _, rest = ln.strip().partition(" | ")
            if len(where.split(":")) != 2 or not rest:
                raise ValueError("%s: want FILE:FUNCTION[#K] | source | mutation  # why: %s"
                                 % (path, ln.strip()))
            out.add((where, rest))
    return out


def _names(rest, src, what):
    key = src + " | " + what
    return rest == key or rest.startswith(key + " ") and rest[len(key):].lstrip()[:1] == "#"


def equivalent_in(eq, rel, ms, text):
    """{(line, col, mutation)} of rel's mutants ms (all of the file's, in file order) judged
    equivalent by eq: those in the entry's function with its source line and mutation, or only
    the K-th of them (#K). A function, not a line number: code that moves keeps its entries,
    and an entry never drifts onto a twin in another function."""
    out = set()
    defs = None
    for where, rest in eq:
        rel_e, func = where.split(":")
        if rel_e != rel:
            continue
        func, _, k = func.partition("#")
        if defs is None:
            defs = functions("\n".join(text))
        found = [m[:3] for m in ms if 0 < m[0] <= len(text)
                 and _names(rest, text[m[0] - 1].strip(), m[2]) and function_at(defs, m[0]) == func]
        if k:
            found = found[int(k) - 1:int(k)] if int(k) > 0 else []
        out.update(found)
    return out


def _copy_repo(dst):
    def ignore(d, names):
        return [n for n in names if n in (".venv", ".git", "build", "typings", ".pytest_cache",
                                          ".mypy_cache", "__pycache__")]
    shutil.copytree(ROOT, dst, ignore=ignore, symlinks=True)
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(dst, ".venv"))


_TESTS = {"uno": "tests/core"}                     # else firmware/X is tests/X
_DRIVERS = ("mfrc522.py", "pn532.py", "pins.py")   # board/ files whose tests are tests/drivers


def _default_tests(rel):
    """The test folder of a firmware file."""
    parts = rel.split("/")
    if len(parts) < 3 or parts[0] != "firmware":
        return "tests"
    if parts[1] == "board" and parts[-1] in _DRIVERS:
        return "tests/drivers"
    return _TESTS.get(parts[1], "tests/" + parts[1])


def run_one(work, rel, new, cmds, timeout):
    path = os.path.join(work, rel)
    with open(path, "w") as f:
        f.write(new)
    for cmd in cmds:
        # its own process group: on a timeout the whole group goes, not only the shell (a
        # mutant's endless loop would otherwise run on, orphaned, for the rest of the session)
        r = subprocess.Popen(cmd, shell=True, cwd=work, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            r.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(r.pid, signal.SIGKILL)
            except OSError:
                pass
            r.wait()
            return "timeout"
        if r.returncode != 0:
            return "killed"
    return "survived"


def run_tests(folder):
    """Run a test folder's test functions in this process, stopping at the first failure
    (fault-injection files last: they are the slow ones). Exit status 1 on a failure."""
    import importlib
    sys.path[:0] = ["firmware", "tests", folder]
    names = sorted((n for n in os.listdir(folder) if n.startswith("test_") and n.endswith(".py")),
                   key=lambda n: ("fault" in n, n))
    for n in names:
        mod = importlib.import_module(n[:-3])
        for attr in sorted(dir(mod)):
            if attr.startswith("test_"):
                try:
                    getattr(mod, attr)()
                except BaseException as e:
                    if type(e).__name__ == "Skipped":     # pytest.skip: not a failure
                        continue
                    sys.exit(1)
    sys.exit(0)


def main(argv):
    if argv[:1] == ["--run"]:
        run_tests(argv[1])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=0,
                    help="seconds a mutant's tests may take (default: 3x the unmutated run's)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N mutants per file")
    ap.add_argument("--only", default="", help="only mutants on these lines (comma list)")
    ap.add_argument("--every", type=int, default=1, help="a sample: every Nth mutant")
    ap.add_argument("--sample", type=int, default=0, help="a random sample of N mutants a file")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed")
    ap.add_argument("--tests", default="", help="command run per mutant (default: pytest)")
    ap.add_argument("--mp", action="store_true", help="also run the folder under micropython")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    a = ap.parse_args(argv)
    lines = set(int(x) for x in a.only.split(",") if x)
    total = killed = timeouts = nequiv = 0
    survivors = []
    eq = equivalents()
    for rel in a.files:
        rel = os.path.relpath(os.path.abspath(rel), ROOT)
        with open(os.path.join(ROOT, rel)) as f:
            src = f.read()
        ms = mutants(src)
        text = src.split("\n")
        eq_here = equivalent_in(eq, rel, ms, text)
        defs = functions(src)
        if lines:
            ms = [m for m in ms if m[0] in lines]
        if a.every > 1:
            ms = ms[::a.every]
        if a.sample and a.sample < len(ms):
            ms = sorted(random.Random(a.seed).sample(ms, a.sample), key=lambda m: (m[0], m[1]))
        if a.limit:
            ms = ms[:a.limit]
        if a.list:
            for m in ms:
                print("%s:%d:%d %s" % ((rel,) + m[:3]))
            continue
        folder = _default_tests(rel)
        cmds = [a.tests] if a.tests else [".venv/bin/python tools/mutate.py --run %s" % folder]
        if a.mp:
            cmds.append("MICROPYPATH=firmware:tests:.frozen .venv/bin/micropython -X heapsize=8m "
                        "tests/mprun.py %s" % folder)
        works = []
        for _ in range(max(1, a.jobs)):
            w = tempfile.mkdtemp(prefix="mutate")
            _copy_repo(w + "/r")
            works.append(w + "/r")
        free = list(works)
        # the tests must pass on the code as it is, or every mutant would count as killed
        t0 = time.monotonic()
        if run_one(works[0], rel, src, cmds, a.timeout or 3600) != "survived":
            for w in works:
                shutil.rmtree(os.path.dirname(w), ignore_errors=True)
            sys.exit("%s: the tests fail without any mutant (%s): nothing can be measured"
                     % (rel, " && ".join(cmds)))
        # a mutant that hangs is stopped; a slow machine's whole run (tests/core under
        # micropython: over 2 minutes here) is not taken for one
        timeout = a.timeout or max(60.0, 3 * (time.monotonic() - t0))

        def job(m):
            w = free.pop()
            try:
                return m, run_one(w, rel, m[3], cmds, timeout)
            finally:
                free.append(w)

        fk = fe = fs = ft = 0
        done = 0
        with ThreadPoolExecutor(max_workers=len(works)) as ex:
            for m, res in ex.map(job, ms):
                done += 1
                if done % 25 == 0:
                    print("... %s: %d / %d" % (rel, done, len(ms)), flush=True)
                src_line = text[m[0] - 1].strip() if 0 < m[0] <= len(text) else ""
                if res == "survived" and m[:3] in eq_here:
                    fe += 1
                    print("equivalent %s:%d:%d %s" % (rel, m[0], m[1], m[2]), flush=True)
                elif res == "survived":
                    fs += 1
                    survivors.append((rel, m[0], m[1], m[2]))
                    print("survived %s:%d:%d %s   | %s\n    (if equivalent: %s:%s | %s | %s)" % (
                        rel, m[0], m[1], m[2], src_line, rel, function_at(defs, m[0]), src_line,
                        m[2]), flush=True)
                elif res == "timeout":
                    ft += 1
                    fk += 1
                else:
                    fk += 1
        for w in works:
            shutil.rmtree(os.path.dirname(w), ignore_errors=True)
        total += len(ms) - fe
        killed += fk
        nequiv += fe
        timeouts += ft
        print("%s: %s" % (rel, _figure(fk, len(ms) - fe, fe, fs, ft)), flush=True)
    if not a.list:
        print("all: %s" % _figure(killed, total, nequiv, len(survivors), timeouts))


def _figure(k, n, e, s, t):
    return ("killed %d / %d non-equivalent (%.1f%%), equivalent %d, survived %d, timeout %d"
            % (k, n, 100.0 * k / max(1, n), e, s, t))


if __name__ == "__main__":
    main(sys.argv[1:])
