"""Cost of one table input in the engine under the `micropython` command: p50 / p99 / max in us.

Random legal players (with some bad inputs) play whole 10-player rounds; only Table.feed is
timed. Run: MICROPYPATH=firmware:.frozen micropython bench/input_cost.py [rounds]
Aim (issue 2): p99 <= 300 us (an ESP32 at 240 MHz is 50-100x slower; tap-to-beep is 100 ms).
"""
import sys
import time
from uno.bot import Bot
from uno.events import ROUND_OVER
from uno.rules import Settings
from uno.table import Table


EVERYTHING = {"preset": "party", "forced": "yes", "scoring": "losers", "elimination": "yes",
              "teams": 2}


def cost(label, settings, rounds):
    t = Table(Settings(settings))
    bot = Bot(t, list(range(1, 11)), seed=5, mistakes=20, tick=100 if settings else 0)
    costs = []
    done = 0
    ticks_us, diff = time.ticks_us, time.ticks_diff
    while done < rounds:
        inp = bot.next_input()
        a = ticks_us()
        evs = t.feed(inp)
        b = ticks_us()
        costs.append(diff(b, a))
        bot.keep(evs)
        for e in evs:
            if e[0] == ROUND_OVER:
                done += 1
    costs.sort()
    n = len(costs)
    print("  %-16s p50 %d us  p90 %d us  p99 %d us  max %d us  mean %.1f us  (%d inputs, %d rounds)" % (
        label, costs[n // 2], costs[n * 9 // 10], costs[n * 99 // 100], costs[-1], sum(costs) / n,
        n, rounds))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print("input cost in Table.feed, 10 players, %s" % sys.implementation.name)
    cost("official", None, rounds)
    cost("every house rule", EVERYTHING, rounds)


main()
