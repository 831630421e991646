"""Test kit: set a table up through real table inputs, then act on it in script words.

    t = deal({1: "R1 R2", 2: "G5 B7", 3: "Y1 Y2"}, start="R5")
    evs = act(t, "pad R2")         # a script line, shortened: "pad R2", "shoe W4", "seat 2",
    assert names(evs) == [...]     # "seat 2 long", "colour G", "shuffle", "tick 500"
"""
from uno.words import EVENTS
from uno.events import REJECT, IN_SEAT, IN_SHUFFLE, IN_SHOE, IN_PAD, P_PLAY, R_WANT_COLOUR, \
    R_DREW, R_MUST_PLAY
from uno.cards import NCARDS
from uno.rules import Settings, catalogue
from uno.record import from_words
from uno.script import to_input
from uno.state import snapshot
from uno.table import Table, SHOE, MAX_SEAT


def line(text):
    return from_words(text)


def act(t, *texts):
    """Feeds each text as an input; returns the events of the last one (copied)."""
    evs = []
    for text in texts:
        evs = list(t.feed(to_input(line(text), t)))
    return evs


def names(evs):
    return [EVENTS[e[0]][0] for e in evs]


def rejected(evs, why):
    assert len(evs) >= 1 and evs[0][0] == REJECT, "not rejected: %r" % (evs,)
    assert evs[0][1] == why, "rejected for %d, not %d" % (evs[0][1], why)
    return True


def seated(seats=(1, 2, 3), **settings):
    t = Table(Settings(settings))
    for s in seats:
        t.feed((IN_SEAT, s, 0))
    return t


def deal(hands, start="R5", dealer=None, **settings):
    """A table in play: hands {seat: "R1 R2 ..."} dealt through the shoe, then the start card.

    All hands have the same size (the hand_size setting); the dealer defaults to the last seat,
    so that the lowest seat plays first.
    """
    seats = sorted(hands)
    cards = dict((s, hands[s].split()) for s in seats)
    size = len(cards[seats[0]])
    assert all(len(cards[s]) == size for s in seats), "hands must be of one size"
    settings["hand_size"] = size
    settings["first_dealer"] = dealer or seats[-1]
    t = seated(seats, **settings)
    t.feed((IN_SHUFFLE,))
    for k in range(size * len(seats)):
        s = t.drawer()
        act(t, "shoe " + cards[s][k // len(seats)])
    if start:
        act(t, "shoe " + start)
        assert t.phase == P_PLAY
    return t


def hand(t, seat):
    from uno.cards import name
    return sorted(name(c) for c in t.hands[seat])


def empty_the_shoe(t):
    """Seats take turns drawing until the shoe is empty (cards that fit are kept by passing)."""
    from uno.cards import NCARDS
    while t.shoe:
        s = t.turn
        card = [c for c in range(NCARDS) if t.loc[c] == SHOE][0]
        t.feed((IN_SHOE, t.registry.uid(card)))
        if t.drawn >= 0:
            act(t, "seat %d" % s)


def expected_reject(t, inp, why):
    """The seat and card a reject event must name (docs/formats.md): the card read (-1 for an
    unknown tag or a press); the seat that pressed, or whose hand holds the card read; at the
    shoe, the seat the table waits for (a colour, the turn seat's choice); else 0."""
    kind = inp[0]
    if kind == IN_SEAT:
        return (inp[1] if 1 <= inp[1] <= 10 else 0), -1
    if kind == IN_SHOE or kind == IN_PAD:
        card = t.registry.card(inp[1])
        if card < 0:
            return 0, -1
        where = t.loc[card]
        if 1 <= where <= 10:
            return where, card
        if kind == IN_SHOE and where == SHOE:
            if why == R_WANT_COLOUR:
                return t.want, card
            if why == R_DREW or why == R_MUST_PLAY:
                return t.turn, card
        return 0, card
    return 0, -1


def unchanged(t, text):
    """The input is rejected, the whole reject event is the one expected, and the state is
    exactly as before. Returns the reason."""
    before = snapshot(t)
    inp = to_input(line(text), t)
    evs = list(t.feed(inp))
    assert evs and evs[0][0] == REJECT, "accepted: %s -> %r" % (text, evs)
    assert len(evs) == 1, "rejection came with more: %r" % (evs,)
    seat, card = expected_reject(t, inp, evs[0][1])
    assert evs[0][2:] == (seat, card), "%s: reject names %r, not %r" % (text, evs[0][2:], (seat, card))
    assert snapshot(t) == before, "state changed by rejected %s" % text
    return evs[0][1]


def random_seats(rng, most=MAX_SEAT):
    """2 to most distinct seats, in the order they join."""
    n = 2 + rng.below(most - 1)
    seats = []
    while len(seats) < n:
        s = 1 + rng.below(MAX_SEAT)
        if s not in seats:
            seats.append(s)
    return seats


def random_values(rng, seats):
    """Random settings that fit the seats: {name: value}, most settings set."""
    n = len(seats)
    values = {}
    for name, default, allowed, rule in catalogue():
        if rng.chance(500):
            continue
        if isinstance(allowed[0], int):
            values[name] = allowed[0] + rng.below(allowed[1] - allowed[0] + 1)
        else:
            values[name] = rng.pick(allowed)
    values["hand_size"] = 1 + rng.below(min(15, (NCARDS - 1) // n - 3))
    values["target"] = 100 + rng.below(500)
    teams = [k for k in range(2, 6) if n % k == 0 and n // k >= 2]
    values["teams"] = rng.pick(teams) if teams and rng.chance(300) else 0
    return values
