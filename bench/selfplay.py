"""Self-play throughput: random legal players drive the engine through table inputs.

Every round goes through the shoe: the shuffle, the deal card by card, the start card, every
play, draw, UNO call and catch, challenge and penalty, to the round's score. Prints rounds per
second under this interpreter (CPython: `make bench`, or `python bench/selfplay.py`).
Peer (TOOLING.md): RLCard's UNO env plays 300-400 random 2-player games a second here with far
fewer rules; the aim is at least 5x that.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware"))

from uno.bot import Bot  # noqa: E402
from uno.events import ROUND_OVER  # noqa: E402
from uno.rules import Settings  # noqa: E402
from uno.table import Table  # noqa: E402


# Every house rule on at once (issue 3): the party preset and the scoring variants.
EVERYTHING = {"preset": "party", "forced": "yes", "scoring": "losers", "elimination": "yes",
              "teams": 2}


def selfplay(seats, rounds, settings=None, seed=7):
    t = Table(Settings(settings))
    bot = Bot(t, seats, seed=seed, tick=100 if settings else 0)
    done = inputs = 0
    start = time.perf_counter()
    while done < rounds:
        _, evs = bot.step()
        inputs += 1
        for e in evs:
            if e[0] == ROUND_OVER:
                done += 1
    return time.perf_counter() - start, inputs


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    print("self-play, %s %s" % (sys.implementation.name, sys.version.split()[0]))
    for label, settings, seats in (("official", None, [1, 2, 3, 4]), ("official", None, [1, 2]),
                                   ("every house rule", EVERYTHING, [1, 2, 3, 4])):
        secs, inputs = selfplay(seats, rounds, settings)
        print("  %-16s %2d players: %6.0f rounds/s  %5.1f inputs/round  %5.2f us/input  (%d rounds)" % (
            label, len(seats), rounds / secs, inputs / rounds, secs / inputs * 1e6, rounds))


if __name__ == "__main__":
    main()
