"""A board that only remembers what it was told, for the hub's tests on either interpreter."""
from uno.bot import Bot
from uno.events import ROUND_OVER
from uno.rules import Settings
from uno.table import Table


class Recorder:
    def __init__(self):
        self.played = []
        self.shown = []

    def play(self, pattern, ticks=None):
        self.played.append(pattern)

    def show(self, turn=0, owing=0, colour=-1, blink=False):
        self.shown.append((turn, owing, colour, blink))

    def lit(self):
        return 0


class FakeBoard:
    def __init__(self):
        self.clock = 0
        self.buzzer = Recorder()
        self.leds = self.buzzer
        self.display = None
        self.dog = 0

    def now(self):
        return self.clock

    def ticks(self):
        return self.clock

    def feed_dog(self):
        self.dog += 1

    def info(self):
        return {"name": "fake"}


def game(seed=3, rounds=1, extra=15, settings=None):
    """Inputs of a short game (hand size 3, 3 seats) through `rounds` rounds and `extra` more,
    with the time of each: [(ms, input)]."""
    values = {"hand_size": 3}
    if settings:
        values.update(settings)
    t = Table(Settings(values))
    bot = Bot(t, [1, 2, 3], seed=seed, mistakes=40)
    out = []
    done = 0
    ms = 1000
    while done < rounds or extra > 0:
        inp, evs = bot.step()
        ms += 700
        out.append((ms, inp))
        if done >= rounds:
            extra -= 1
        for e in evs:
            if e[0] == ROUND_OVER:
                done += 1
    return values, out
