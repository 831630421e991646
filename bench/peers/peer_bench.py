"""Peer bench: our self-play against RLCard 1.2.0's UNO env, 2 players, random agents.

`make bench-peers` makes build/peers-venv (rlcard==1.2.0, numpy) and runs this with our venv's
python; each side runs in its own process, interleaved (ours, RLCard, ours at the base commit
of issue 10, then the other way round, ...),
repeated, and is timed in CPU seconds (the machine is shared). Printed per game, per card moved
and per decision, as medians with their spread.

Which ratio is fair: per card moved. A card moved (dealt, drawn or played) is the unit of work
both engines do. Per game favours RLCard: its rules are fewer (no UNO call, catch, challenge
or stacking; its drawn card is played at once), so its games are shorter. Per decision favours
us: our table counts every press (UNO calls, colour choices) as its own input, where RLCard
folds the colour into the play and has no presses.

  python bench/peers/peer_bench.py [pairs] [games]          # compare (needs build/peers-venv)
  build/peers-venv/bin/python bench/peers/peer_bench.py --rlcard GAMES
  python bench/peers/peer_bench.py --ours FIRMWARE_DIR GAMES
A side prints: games, CPU seconds, cards moved, decisions (counted in a second, untimed pass
over the same seeds, so that counting costs neither side anything).
"""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEERS = os.path.join(ROOT, "build", "peers-venv", "bin", "python")


def rlcard_side(games):
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.games.uno.round import UnoRound

    env = rlcard.make("uno", config={"seed": 1})
    pick = RandomAgent.step  # random over the legal actions, as RLCard's own examples play
    np.random.seed(1)
    a = time.process_time()
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(pick(state))
    secs = time.process_time() - a

    # the same games again, counted: cards that left the deck, and cards played
    moved = [0]
    refill = [0]
    proceed, replace = UnoRound.proceed_round, UnoRound.replace_deck

    def counted_replace(self):
        refill[0] += len(self.played_cards)
        replace(self)

    def counted_proceed(self, players, action):
        d0, p0 = len(self.dealer.deck), len(self.played_cards)
        refill[0] = 0
        proceed(self, players, action)
        r = refill[0]
        moved[0] += (d0 + r - len(self.dealer.deck)) + (len(self.played_cards) - p0 + r)

    UnoRound.proceed_round, UnoRound.replace_deck = counted_proceed, counted_replace
    env = rlcard.make("uno", config={"seed": 1})
    np.random.seed(1)
    decisions = 0
    for _ in range(games):
        state, _ = env.reset()
        moved[0] += 108 - len(env.game.dealer.deck)  # the deal and the start card
        while not env.is_over():
            state, _ = env.step(pick(state))
            decisions += 1
    print(games, secs, moved[0], decisions)


def ours_side(games, firmware):
    sys.path.insert(0, firmware)
    from uno.bot import Bot
    from uno.events import DEAL, DRAW, PLAY, START, ROUND_OVER, P_PLAY
    from uno.table import Table

    def play(count):
        t = Table()
        bot = Bot(t, [1, 2], seed=7)
        done = moved = decisions = 0
        step = bot.step
        while done < games:
            ph = t.phase
            _, evs = step()
            if count:
                decisions += ph == P_PLAY  # the deal's card reads are no decisions
                for e in evs:
                    if e[0] == DEAL or e[0] == DRAW or e[0] == PLAY or e[0] == START:
                        moved += 1
            for e in evs:
                if e[0] == ROUND_OVER:
                    done += 1
        return moved, decisions

    a = time.process_time()
    play(False)
    secs = time.process_time() - a
    moved, decisions = play(True)
    print(games, secs, moved, decisions)


def compare(pairs, games):
    if not os.path.exists(PEERS):
        sys.exit("no %s: run `make bench-peers`" % PEERS)
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    os.chdir(ROOT)
    from replay_bench import BASE, base_tree
    sides = (("ours", [sys.executable, __file__, "--ours", "firmware"]),
             ("RLCard 1.2.0", [PEERS, __file__, "--rlcard"]),
             ("ours " + BASE, [sys.executable, __file__, "--ours", base_tree()]))
    runs = {}
    for i in range(pairs):
        for name, cmd in (sides if i % 2 == 0 else sides[::-1]):
            r = subprocess.run(cmd + [str(games)], capture_output=True, text=True)
            if r.returncode:
                sys.exit("%s failed:\n%s" % (name, r.stderr))
            g, secs, moved, decisions = r.stdout.split()
            g, secs, moved, decisions = int(g), float(secs), int(moved), int(decisions)
            runs.setdefault(name, []).append(
                (secs / g * 1e6, secs / moved * 1e6, secs / decisions * 1e6,
                 moved / g, decisions / g))
    print("peers: 2 players, random legal agents, %d games a run, %d pairs interleaved, "
          "CPU time (median, min-max)" % (games, pairs))
    med = {}
    for name, _ in sides:
        rs = runs[name]
        row = []
        for k, unit in enumerate(("us/game", "us/card moved", "us/decision")):
            xs = [r[k] for r in rs]
            med[(name, k)] = statistics.median(xs)
            row.append("%8.1f %s (%.1f-%.1f)" % (med[(name, k)], unit, min(xs), max(xs)))
        print("  %-14s %s" % (name, "  ".join(row)))
        print("  %-14s %.1f cards moved and %.1f decisions a game" % ("", rs[0][3], rs[0][4]))
    for k, label in enumerate(("per game", "per card moved (the fair ratio)", "per decision")):
        print("  ours faster %s: %.2fx (at %s: %.2fx)" % (
            label, med[("RLCard 1.2.0", k)] / med[("ours", k)], BASE,
            med[("RLCard 1.2.0", k)] / med[("ours " + BASE, k)]))


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["--rlcard"]:
        rlcard_side(int(argv[1]))
    elif argv[:1] == ["--ours"]:
        ours_side(int(argv[2]), argv[1])
    else:
        compare(int(argv[0]) if argv else 5, int(argv[1]) if len(argv) > 1 else 300)


if __name__ == "__main__":
    main()
