"""Heap of the engine through 10-player rounds under `micropython -X heapsize=256k`.

Run on the compiled firmware, as deployed: `make bench`, or
  python tools/build_mpy.py && MICROPYPATH=build/mpy:.frozen micropython -X heapsize=256k bench/heap.py
(the players that make the inputs come from build/mpy-host: they are not deployed)
First random players write the rounds' inputs to a file and are thrown away; then a fresh
table replays that file, read one input at a time as the firmware reads its log, so what is
measured is the engine and nothing of the players. Each input comes with its time, as the hub
feeds it (hub/app.py: feed(inp, ms)), 0.7 s apart, and a tick comes at that time: the
take-back logs every input's time then. Prints the heap after importing the
engine, the table's own state, the peak live heap (collected after every input) and the peak
before collection. Aim (issue 2): the rounds complete; peak <= 48 KB.
"""
import gc
import sys

PATH = "/tmp/uno-heap-inputs.bin"
EVERYTHING = {"preset": "party", "forced": "yes", "scoring": "losers", "elimination": "yes",
              "teams": 2}


def write_inputs(rounds, settings):
    """Random players play; each input goes to the file as kind, length, payload.

    The players and the codes' names are host-only (not in the deployed set): they come from
    build/mpy-host (tools/build_mpy.py), and are gone before the replay is measured."""
    sys.path.insert(0, "build/mpy-host")
    from uno.bot import Bot
    from uno.events import ROUND_OVER, IN_SHOE, IN_PAD, IN_TICK, IN_RULE
    from uno.rules import Settings
    from uno.table import Table
    t = Table(Settings(settings))
    bot = Bot(t, list(range(1, 11)), seed=9, mistakes=20, tick=100 if settings else 0)
    done = n = 0
    with open(PATH, "wb") as f:
        while done < rounds:
            inp = bot.next_input()
            kind = inp[0]
            if kind == IN_RULE:
                continue
            ms = n * 700  # the hub's clock (replay's too)
            if kind == IN_TICK:
                inp = (kind, ms)
            if kind == IN_SHOE or kind == IN_PAD:
                body = bytes(inp[1])
            elif kind == IN_TICK:
                body = inp[1].to_bytes(4, "little")
            else:
                body = bytes(inp[1:])
            f.write(bytes((kind, len(body))) + body)
            evs = t.feed(inp, ms)
            bot.keep(evs)
            n += 1
            for e in evs:
                if e[0] == ROUND_OVER:
                    done += 1
    sys.path.pop(0)
    return n


IN_SHOE, IN_PAD, IN_SHUFFLE, IN_TICK = 1, 2, 5, 6  # uno/events.py, which the board does not get


def replay(settings):
    gc.collect()
    base = gc.mem_alloc()
    from uno.rules import Settings
    from uno.table import Table
    gc.collect()
    engine = gc.mem_alloc()
    t = Table(Settings(settings))
    gc.collect()
    table = gc.mem_alloc()
    live = raw = 0
    n = ms = 0
    with open(PATH, "rb") as f:
        while True:
            head = f.read(2)
            if not head:
                break
            body = f.read(head[1])
            kind = head[0]
            if kind == IN_SHOE or kind == IN_PAD:
                inp = (kind, body)
            elif kind == IN_TICK:
                inp = (kind, int.from_bytes(body, "little"))
            elif kind == IN_SHUFFLE:
                inp = (kind,)
            else:
                inp = (kind, body[0], body[1])
            t.feed(inp, ms)
            n += 1
            ms += 700
            raw = max(raw, gc.mem_alloc())
            gc.collect()
            live = max(live, gc.mem_alloc())
    return base, engine, table, live, raw, n, t.round


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    label = sys.argv[2] if len(sys.argv) > 2 else "official"
    settings = EVERYTHING if label == "house" else None
    n = write_inputs(rounds, settings)
    for name in list(sys.modules):
        if name.startswith("uno"):
            del sys.modules[name]
    base, engine, table, live, raw, m, played = replay(settings)
    assert m == n and played >= 1
    print("heap, 10 players, %s rules, %d rounds, %d inputs, heap %d KB" % (
        "every house" if settings else "official", rounds, n, (gc.mem_alloc() + gc.mem_free()) // 1024))
    print("  engine imported %d B, with its table %d B" % (engine - base, table - base))
    print("  peak live %d B (%.1f KB), peak before collection %d B (%.1f KB)" % (
        live, live / 1024, raw, raw / 1024))


main()
