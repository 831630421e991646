"""Runs the firmware from a ROMFS image under the `micropython` unix port, as a board with a
ROMFS partition does: the image is mounted at /rom and imported bytecode runs in place.

    micropython tools/romrun.py [--say] IMAGE MODULE[:FUNCTION] [ARGS...]

The image sits in a bytes object (the unix port's stand-in for memory-mapped flash), so its
bytes are in the heap here and not on a board: --say prints them, for the bench to take off.
IMAGE "-" mounts nothing (the same runner on the .mpy files of MICROPYPATH). MODULE is
imported; FUNCTION, if named, is then called with ARGS (hub.sim:main takes its argv).
"""
import gc
import sys

MOUNT = "/rom"


def mount(path, at=MOUNT):
    """Mounts the image file at `at`, first on sys.path; returns (image, its heap bytes)."""
    import vfs
    gc.collect()
    before = gc.mem_alloc()
    with open(path, "rb") as f:
        image = f.read()
    gc.collect()
    vfs.mount(vfs.VfsRom(image), at)
    sys.path.insert(0, at)  # before any other copy of the code (a board appends /rom)
    return image, gc.mem_alloc() - before


def main(argv):
    say = argv and argv[0] == "--say"
    if say:
        argv = argv[1:]
    if len(argv) < 2:
        print("usage: romrun.py [--say] IMAGE MODULE[:FUNCTION] [ARGS...]")
        return 2
    image = None
    if argv[0] != "-":
        try:
            image, cost = mount(argv[0])
        except OSError as e:
            print("romrun: cannot mount %s: %s" % (argv[0], e))
            return 1
        if say:
            print("romfs image: %d bytes, %d bytes of heap here" % (len(image), cost))
    name, _, func = argv[1].partition(":")
    while sys.argv:  # the module sees its own argv, as under -m (sys.argv is not assignable)
        sys.argv.pop()
    sys.argv.extend([name] + argv[2:])
    mod = __import__(name)
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    if func:
        getattr(mod, func)(argv[2:])
    if say:  # where the engine came from: /rom/..., a .mpy file, or frozen (uno/table.py)
        engine = sys.modules.get("uno.table")
        print("code from: %s" % (engine.__file__ if engine else "-"))
    return 0


_rc = main(sys.argv[1:])
if _rc:  # a clean return leaves `micropython -i` its REPL, as hub.sim's -m run does
    sys.exit(_rc)
