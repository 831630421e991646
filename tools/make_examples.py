"""Writes the bundled example table scripts: one whole round each for 2, 4 and 10 players under
the official rules, and a 4-player round under the `party` preset (every house rule).

Random players (uno.bot) make the inputs, a few of them bad, so that a replay shows the table's
answers too. Seeds are picked so that each round shows a catch, a W4 challenge and rejections.
Run: make examples (python tools/make_examples.py [DIR]: into DIR instead of examples/)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "firmware"))

from uno import script  # noqa: E402
from uno.bot import Bot  # noqa: E402
from uno.events import CATCH, CHALLENGE, JUMP, OWE, REJECT, ROUND_OVER, SLAP, TIMER_WARN  # noqa: E402
from uno.rules import Settings  # noqa: E402
from uno.table import Table  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "examples")


def one_round(seats, seed, mistakes, settings=None):
    t = Table(Settings(settings))
    bot = Bot(t, seats, seed=seed, mistakes=mistakes, call=600, catch=700, challenge=500,
              tick=150 if settings else 0)
    lines = []
    seen = set()
    while True:
        inp, evs = bot.step()
        d = script.input_dict(inp, t.registry)
        if settings:
            d["t"] = bot.clock  # the turn timer counts from it
        lines.append(d)
        for e in evs:
            seen.add(e[0])
        if any(e[0] == ROUND_OVER for e in evs):
            return lines, seen


def main(out=OUT):
    os.makedirs(out, exist_ok=True)
    party = {"preset": "party"}
    for name, seats, mistakes, settings, wanted in (
            ("round-2p", [1, 2], 15, None, {CATCH, CHALLENGE, REJECT}),
            ("round-4p", [1, 2, 3, 4], 15, None, {CATCH, CHALLENGE, REJECT}),
            ("round-10p", list(range(1, 11)), 10, None, {CATCH, CHALLENGE, REJECT}),
            ("party-4p", [1, 2, 3, 4], 10, party, {CATCH, JUMP, SLAP, TIMER_WARN, OWE})):
        for seed in range(1, 500):
            lines, seen = one_round(seats, seed, mistakes, settings)
            if wanted <= seen and len(lines) < 400:
                break
        path = os.path.join(out, name + ".jsonl")
        with open(path, "w") as f:
            f.write(script.dumps({"settings": settings or {}}) + "\n")
            for d in lines:
                f.write(script.dumps(d) + "\n")
        print("%s: seed %d, %d inputs" % (path, seed, len(lines)))


if __name__ == "__main__":
    main(*sys.argv[1:2])
