"""The live scoreboard with 10 tables playing: latency from an input fed to a simulated table to
the server-sent event that shows it arriving at a client, and the server's CPU per table.

    .venv/bin/python bench/scoreboard_bench.py [TABLES] [SECONDS] [--every S]

Each simulated table gets the inputs of a bundled round, one every GAP s (the tables start
staggered), fed by this bench; `unotable serve` (a process of its own) watches all of them;
a client reads its event stream. An input's latency: from the moment the bench fed it to the
first `table` event whose seq reached it. CPU: the server process's user+system time
(/proc/PID/stat) over the measured part, per table per minute of play.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host")]

from unotable import sim  # noqa: E402

SCRIPTS = ["round-4p.jsonl", "round-2p.jsonl", "party-4p.jsonl", "round-10p.jsonl"]
GAP = 0.3       # seconds between two inputs at one table: a brisk game, far above a person's
IDLE = 10.0     # seconds of tables doing nothing, measured first


def inputs(name):
    with open(os.path.join(ROOT, "examples", name)) as f:
        return [json.loads(x) for x in f if '"in"' in x]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Stream(threading.Thread):
    """The client: every `table` event's (arrival time, slot, seq)."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.seen = {}            # slot -> [(time, seq)]
        self.connected = {}
        self.lock = threading.Lock()

    def run(self):
        with urllib.request.urlopen(self.url, timeout=60) as r:
            kind = None
            for raw in r:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind in ("table", "state"):
                    now = time.monotonic()
                    d = json.loads(line[6:])
                    for t in d["tables"] if kind == "state" else [d]:
                        with self.lock:
                            self.seen.setdefault(t["slot"], []).append((now, t["seq"]))
                            self.connected[t["slot"]] = t["connected"]

    def last_seq(self, slot):
        with self.lock:
            s = self.seen.get(slot)
            return s[-1][1] if s else 0

    def first_after(self, slot, t0, seq):
        with self.lock:
            for t, s in self.seen.get(slot, ()):
                if t >= t0 and s >= seq:
                    return t
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tables", nargs="?", type=int, default=10)
    ap.add_argument("seconds", nargs="?", type=float, default=40.0)
    ap.add_argument("--every", default="0.1", help="serve's --every (default: 0.1)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="scoreboard-bench-")
    code = os.path.join(tmp, "mpy")
    sim.compile_firmware(code)
    tables = [sim.SimTable(None, pace=0, code=code) for _ in range(args.tables)]
    for t in tables:
        t.link.close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = os.path.join(ROOT, ".venv", "bin", "unotable")
    argv = [exe, "serve", "--db", os.path.join(tmp, "night.sqlite3"), "--http-port", str(port),
            "--every", args.every]
    for t in tables:
        argv += ["-p", t.port]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server.stdout.readline()
    stream = Stream("http://127.0.0.1:%d/events" % port)
    stream.start()
    lat = []
    missed = 0
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and not (len(stream.connected) == len(tables) and all(
                stream.connected.values())):
            time.sleep(0.1)
        if not all(stream.connected.values()):
            sys.exit("not every table connected: %r" % stream.connected)
        time.sleep(1.0)
        idle0, iwall0 = cpu_seconds(server.pid), time.monotonic()
        time.sleep(IDLE)          # tables on, nothing played: the cost of looking alone
        idle1, iwall1 = cpu_seconds(server.pid), time.monotonic()
        plays = [inputs(SCRIPTS[i % len(SCRIPTS)]) for i in range(len(tables))]
        pending = []              # (table index, fed at, seq it will have)
        base = [stream.last_seq(t.port) for t in tables]
        fed = [0] * len(tables)
        cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
        stop = wall0 + args.seconds
        step = GAP / len(tables)
        k = 0
        while time.monotonic() < stop:
            i = k % len(tables)
            k += 1
            if fed[i] < len(plays[i]):
                tables[i].send(plays[i][fed[i]])
                fed[i] += 1
                pending.append((i, time.monotonic(), base[i] + fed[i]))
            time.sleep(step)
        time.sleep(1.0)           # the last inputs' events arrive
        cpu1, wall1 = cpu_seconds(server.pid), time.monotonic()
        for i, t0, seq in pending:
            t1 = stream.first_after(tables[i].port, t0, seq)
            if t1 is None:
                missed += 1
            else:
                lat.append(t1 - t0)
    finally:
        server.terminate()
        server.communicate(timeout=10)
        for t in tables:
            t.close()
    lat.sort()
    n = len(lat)
    minutes = (wall1 - wall0) / 60

    def pct(p):
        return lat[min(n - 1, int(p * n))] * 1000
    print("scoreboard: %d simulated tables, %d inputs fed over %.0f s (one every %.2f s a "
          "table), serve --every %s" % (len(tables), len(pending), wall1 - wall0, GAP,
                                          args.every))
    print("  input -> server-sent event at the client: p50 %.0f ms, p99 %.0f ms, max %.0f ms "
          "(%d seen, %d not seen)" % (pct(0.5), pct(0.99), lat[-1] * 1000, n, missed))
    print("  server CPU while playing: %.2f s over %.1f min = %.2f CPU s per table per minute "
          "(%d%% of one core for all)" % (cpu1 - cpu0, minutes, (cpu1 - cpu0) / len(tables) /
                                          minutes, 100 * (cpu1 - cpu0) / (wall1 - wall0)))
    im = (iwall1 - iwall0) / 60
    print("  server CPU with the tables idle (a status a look): %.2f CPU s per table per minute"
          % ((idle1 - idle0) / len(tables) / im))


if __name__ == "__main__":
    main()
