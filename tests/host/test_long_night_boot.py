"""A long night without a sync still boots at the simulated table's heap: recovery walks every
segment's header (one per round), and the garbage of that walk must not scatter the heap so
that the round's snapshot finds no free run of its size (a MemoryError there was a fresh
table: the night's scores gone). 150 rounds, files and the NOR ring."""
import os
import shutil
import subprocess
import tempfile

import pytest

from unotable import sim
from unotable.build import tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OPEN = """
import os, sys
from gamelog import Log
def store(p, durable):
    if sys.argv[2] == "files":
        return Log(p, durable=durable)
    from gamelog.nor import Nor
    from gamelog.ring import RingLog
    try:
        os.mkdir(p)
    except OSError:
        pass
    return RingLog(Nor(256, 4096, p + "/ring.nor"), p)
"""

PLAY = OPEN + """
from hub.app import Hub
from hub.sim import SimBoard
from uno.bot import Bot
h = Hub(SimBoard(), store(sys.argv[1], False))
h.start({"preset": "party"})
bot = Bot(h.table, list(range(1, 11)), seed=4, mistakes=30)
rounds = 0
while rounds < int(sys.argv[3]):
    evs = h.feed(bot.next_input())
    bot.keep(evs)
    for e in evs:
        if e[0] == 26:
            rounds += 1
h.log.close()
print(h.seq, len(h.log.segments()))
"""

BOOT = OPEN + """
from hub.app import Hub
from hub.sim import SimBoard
h = Hub(SimBoard(), store(sys.argv[1], True))
h.start()
print(h.seq, h.fault, h.damage)
"""


def _run(code, text, *args, heap="4m"):
    r = subprocess.run([tool("micropython"), "-X", "heapsize=" + heap, "-c", text, *args],
                       capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env=dict(os.environ, MICROPYPATH=code + ":.frozen"))
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


@pytest.mark.parametrize("store", ["files", "ring"])
def test_a_long_night_without_sync_boots_at_the_simulated_tables_heap(code, tmp_path, store):
    shm = "/dev/shm"           # a flush is an fsync on the unix port: keep this off the disk
    d = tempfile.mkdtemp(dir=shm) if os.path.isdir(shm) else str(tmp_path)
    log = os.path.join(d, "log")
    seq, segs = _run("firmware", PLAY, log, store, "150")   # from source: the bot is host-only
    assert int(segs) > 140
    got = _run(code, BOOT, log, store, heap=sim.HEAP)
    shutil.rmtree(d, ignore_errors=True)
    assert int(got[0]) >= int(seq) and got[1:] == ["None", "[]"], got
