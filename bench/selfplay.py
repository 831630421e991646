"""Self-play throughput: random legal players drive the engine through table inputs.

Every round goes through the shoe: the shuffle, the deal card by card, the start card, every
play, draw, UNO call and catch, challenge and penalty, to the round's score. Prints rounds per
second under this interpreter (CPython: `make bench`, or `python bench/selfplay.py`).

  python bench/selfplay.py [rounds]                   this tree
  python bench/selfplay.py --compare [pairs] [rounds] base commit beside this tree, interleaved
  python bench/selfplay.py --firmware DIR [rounds]    the engine and players of another tree
  python bench/selfplay.py --case K [rounds]          one case only (0 official 4 players,
                                                      1 official 2, 2 every house rule)

When the shared machine is too loaded for CPU time to mean much, count instructions instead
(deterministic): valgrind --tool=cachegrind --cache-sim=no over `--case K` at 20 and 320 rounds
(with --firmware for the base tree), the difference divided by 300. On 2026-12-01, a round at
c6af61c / before the players' new generator / after it: official 4 players 5.63 / 3.89 / 3.55 M
instructions, 2 players 4.55 / 3.21 / 2.81 M, every house rule 13.43 / 9.09 / 7.51 M. At 20:00
that day, after CPython's specialised reads (DECK a tuple, the settings never read through
__dict__) and the rules audits: 3.29 / 2.60 / 8.25 M. The house rule rounds got longer then
(229 inputs, 195 before, 210 at c6af61c: a seat may no longer sum-win on its own number), so
compare per input too: 64.0 k instructions an input at c6af61c, 36.0 k now. On 2026-12-01 at
23:00, after the players' one-digit generator, their unordered shoe (a read takes a card left at
random: no 108-card shuffle a round) and cheaper look-ups, instructions an input at c6af61c /
now: official 4 players 46.8 k / 22.8 k (2.05x), 2 players 49.5 k / 23.7 k (2.09x), every house
rule 63.6 k / 30.9 k (2.06x; 32.8 k, 1.94x, after that night's P2 fixes: the timer asks at each
input whether the table waits). The rounds' lengths differ by seed far more than by code (four
seeds of 1,000 rounds: 122-128 inputs, 4 players), and the rules fixed since make house rounds
longer (202 inputs at c6af61c, 227 now, the same four seeds): a round, 2.08x, 2.04x and 1.73x.
On 2026-12-02, after the draw=until fix (a seat drawing on may play no card of its hand: it
draws on), house rounds are longer again, 257 inputs; instructions an input: 22.8 k, 23.7 k and
32.0 k (2.05x, 2.09x, 1.99x). On 2026-12-02 at 04:00, after that day's rules audits and feed's
inline clock, a round / an input at c6af61c -> now: official 4 players 5.66 M / 47.0 k -> 2.77 M /
22.7 k (2.04x / 2.07x), 2 players 4.57 M / 49.8 k -> 2.32 M / 23.6 k (1.97x / 2.11x), every house
rule 13.48 M / 64.0 k -> 7.97 M / 30.9 k (1.69x / 2.07x: 257 inputs a round, 210 at c6af61c);
CPU time (`--compare 5 3000`, quiet): 1.95x, 2.06x, 1.52x. CPU time moves less than instructions (`--compare 7 300`, a helper's job running: 1.72x, 1.81x,
1.68x): CPython's time goes with the bytecodes dispatched more than with the instructions, and
most of the instructions saved were C loops (the long division).
On 2026-12-02 at 10:30, after the players' cheaper choices (an H5 sum ruled out by one set test,
the sieves in a list with a set test of the hand, each card's read made once), a round / an
input, before -> after: 2.79 M / 22.8 k -> 2.74 M / 22.4 k, 2.33 M / 23.7 k -> 2.28 M / 23.2 k,
8.01 M / 31.1 k -> 7.75 M / 30.1 k; bytecodes an input (f_trace_opcodes): 550 -> 541, 572 ->
561, 758 -> 722, the players' own 199 -> 194, 209 -> 203, 232 -> 232 (and the hand_sum they ask,
41 -> 10). CPU time (`--compare 3 1000`, shared machine): 2.01x, 2.01x, 1.41x.
On 2026-12-02 at 13:30, after the house paths' trim (feed asks whether the table waits only when
since would move: between two ticks self-play's inputs share their time; U6's last-card test
looks at a hand's second card first; M3's team check waits for a team's number of seats out; the
players skip the H5 sum of the seat whose number it is and ask a rank's set before H3's scan),
every house rule a round (PYTHONHASHSEED=0): 7.61 M -> 7.25 M (c6af61c 13.42 M: 1.85x; 254.6
inputs a round, the same inputs), 725 -> 695 bytecodes an input; the engine alone, fed those
inputs with their times, 5.12 -> 4.84 M, so the players take 2.4 M. Official cases unchanged
(2.68 M, 2.23 M), and so are the replay nights (official 13.40 k, clock 16.43 k, house 9.00 k an
input: half the house night's inputs are rejects, 43 plays, and none has a time).

Peer: bench/peers/peer_bench.py (`make bench-peers`) plays RLCard 1.2.0's UNO env, 2 random
players, interleaved with ours, in CPU time: RLCard steps about 800-900 games a second here
(620 through env.run), about 14-20 us per card moved; ours was about 2.7-3.1x faster per card
moved (the fair ratio: RLCard's games are shorter, its rules fewer) at c6af61c; 3.9x on
2026-12-01 (5 pairs of 300 games: RLCard 15.4 us, ours 4.0 us a card; c6af61c 5.6 us, 2.75x);
4.7x at 18:00 that day, after the players' cheaper generator (RLCard 17.6 us, ours 3.8 us;
c6af61c 5.3 us, 3.3x in the same run: RLCard's own figure moves by a fifth from run to run);
4.0x and 4.4x at 20:10 that day (RLCard 14.0 and 16.5 us, ours 3.5 and 3.7 us); on 2026-12-02,
5.65x and 8.43x in two runs (RLCard 16.8 and 23.5 us, ours 3.0 and 2.8 us; c6af61c 5.5 and 6.5 us);
5.15x at 10:30 that day, a shared machine (RLCard 14.5 us, ours 2.8 us; c6af61c 5.4 us, 2.67x).
"""
import os
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
BASE = "c6af61c"  # the commit issue 10's work started from
if "--firmware" in sys.argv:
    i = sys.argv.index("--firmware")
    sys.path.insert(0, sys.argv[i + 1])
    del sys.argv[i:i + 2]
else:
    sys.path.insert(0, os.path.join(BENCH, "..", "firmware"))

from uno.bot import Bot  # noqa: E402
from uno.events import ROUND_OVER  # noqa: E402
from uno.rules import Settings  # noqa: E402
from uno.table import Table  # noqa: E402


# Every house rule on at once (issue 3): the party preset and the scoring variants.
EVERYTHING = {"preset": "party", "forced": "yes", "scoring": "losers", "elimination": "yes",
              "teams": 2}


# CPU time of this process: the machine is shared, and wall time counts the others' work
CLOCK = getattr(time, "process_time", None) or time.perf_counter


def selfplay(seats, rounds, settings=None, seed=7):
    t = Table(Settings(settings))
    bot = Bot(t, seats, seed=seed, tick=100 if settings else 0)
    done = inputs = 0
    start = CLOCK()
    while done < rounds:
        _, evs = bot.step()
        inputs += 1
        for e in evs:
            if e[0] == ROUND_OVER:
                done += 1
    return CLOCK() - start, inputs


CASES = (("official", None, [1, 2, 3, 4]), ("official", None, [1, 2]),
         ("every house rule", EVERYTHING, [1, 2, 3, 4]))


def compare(pairs, rounds):
    """Base and this tree in turns (the machine is shared): median rounds/s and spread."""
    import statistics
    import subprocess
    sys.path.insert(0, BENCH)
    from replay_bench import base_tree
    os.chdir(os.path.join(BENCH, ".."))
    trees = (("base " + BASE, base_tree()), ("this tree", "firmware"))
    runs = {}
    for i in range(pairs):
        for name, fw in (trees if i % 2 == 0 else trees[::-1]):
            out = subprocess.run([sys.executable, __file__, "--firmware", fw, str(rounds)],
                                 capture_output=True, text=True, check=True).stdout
            for k, line in enumerate(out.split("\n")[1:len(CASES) + 1]):
                runs.setdefault((k, name), []).append(float(line.split(":")[1].split()[0]))
    print("self-play, %s, %d pairs interleaved, %d rounds each (median rounds/s, min-max)" % (
        sys.implementation.name, pairs, rounds))
    for k, (label, _, seats) in enumerate(CASES):
        figs = []
        for name, _ in trees:
            r = runs[(k, name)]
            figs.append(statistics.median(r))
            print("  %-16s %2d players  %-16s %6.0f  (%.0f-%.0f)" % (
                label, len(seats), name, figs[-1], min(r), max(r)))
        print("  %-16s %2d players  %-16s %6.2fx" % (label, len(seats), "speed-up", figs[1] / figs[0]))


def main():
    if sys.argv[1:2] == ["--compare"]:
        compare(int(sys.argv[2]) if len(sys.argv) > 2 else 5,
                int(sys.argv[3]) if len(sys.argv) > 3 else 1000)
        return
    cases = CASES
    if sys.argv[1:2] == ["--case"]:
        cases = (CASES[int(sys.argv[2])],)
        del sys.argv[1:3]
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    print("self-play, %s %s" % (sys.implementation.name, sys.version.split()[0]))
    for label, settings, seats in cases:
        secs, inputs = selfplay(seats, rounds, settings)
        print("  %-16s %2d players: %6.0f rounds/s  %5.1f inputs/round  %5.2f us/input  (%d rounds)" % (
            label, len(seats), rounds / secs, inputs / rounds, secs / inputs * 1e6, rounds))


if __name__ == "__main__":
    main()
