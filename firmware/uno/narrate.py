"""One line of plain words per event, for the replay, the monitor and the simulator."""
from binascii import hexlify

from uno.cards import copy_name, name
from uno.events import *  # noqa: F401,F403
from uno.names import WHY, VERDICTS
from uno.words import REASONS

_COLOUR = ("red", "yellow", "green", "blue")


def says(evs):
    """say() for each event of one input, in order (a list of lines). A `reverse` that puts a
    reversal back says so: the one right after a `jump_in` (H2: the jumped R's reversal is
    void, before the jumper's own R reverses again) and a take-back's (its `undo` first)."""
    lines = []
    back = 0
    for ev in evs:
        code = ev[0]
        if code == REVERSE and back:
            lines.append("%sdirection goes back to %s" % (
                "the jumped R is void: " if back == JUMP else "", _way(ev[1])))
        else:
            lines.append(say(ev))
        if back != UNDO:
            back = code if code == JUMP or code == UNDO else 0
    return lines


def _way(d):
    return "clockwise" if d > 0 else "counter-clockwise"


def say(ev):
    """One event in words (says() words a whole input's, each after the one before it)."""
    code = ev[0]
    a = ev[1] if len(ev) > 1 else 0
    if code == JOIN:
        return "seat %d joins" % a
    if code == LEAVE:
        return "seat %d leaves" % a
    if code == SHUFFLE:
        return "shuffled pile loaded: %d cards in the shoe" % a
    if code == DRAWOFF:
        return "seat %d draws %s for dealer" % (a, name(ev[2]))
    if code == DEALER:
        return "seat %d deals" % a
    if code == DEAL:
        return "deal %s to seat %d" % (name(ev[2]), a)
    if code == START:
        return "start card %s" % name(a)
    if code == BACK:
        return "%s as start card goes back into the pile: draw another" % name(a)
    if code == PLAY:
        return "seat %d plays %s" % (a, name(ev[2]))
    if code == WANT:
        return "seat %d: name a colour" % a
    if code == COLOUR:
        return "colour is %s" % _COLOUR[ev[2]]
    if code == DRAW:
        return "seat %d draws %s (%s)" % (a, name(ev[2]), WHY[ev[3]])
    if code == OWE:
        return "seat %d owes %d card%s (%s)" % (a, ev[2], "" if ev[2] == 1 else "s", WHY[ev[3]])
    if code == PENALTY:
        return "PENALTY seat %d draws %d: %s" % (a, ev[2], WHY[ev[3]])
    if code == SKIP:
        return "seat %d is skipped" % a
    if code == REVERSE:
        return "direction reverses: now %s" % _way(a)
    if code == TURN:
        return "turn: seat %d" % a
    if code == PASS:
        return "seat %d passes" % a
    if code == UNO_OPEN:
        return "seat %d is down to one card: UNO window open" % a
    if code == UNO_CLOSE:
        return "UNO window of seat %d closes" % a
    if code == UNO:
        return "seat %d calls UNO" % a
    if code == CATCH:
        return "seat %d catches seat %d" % (a, ev[2])
    if code == CHALLENGE:
        return "seat %d challenges the W4 of seat %d: it was %s" % (a, ev[2], VERDICTS[ev[3]])
    if code == WAIVE:
        return "seat %d: %d draw%s waived, no card left to draw" % (a, ev[2],
                                                                 "" if ev[2] == 1 else "s")
    if code == REJECT:
        who = (" seat %d" % ev[2]) if ev[2] else ""
        what = (" " + name(ev[3])) if ev[3] >= 0 else ""
        return "REJECTED%s%s: %s" % (who, what, REASONS[a])
    if code == ROUND_OVER:
        return "ROUND OVER: seat %d wins %d points" % (a, ev[2])
    if code == SCORE:
        return "seat %d has %d points" % (a, ev[2])
    if code == MATCH_OVER:
        return "MATCH OVER: seat %d wins the match" % a
    if code == ROUND:
        return "round %d, seat %d deals" % (a, ev[2])
    if code == RULE:
        return "rule %s = %s (from the next round)" % (a, ev[2])
    if code == JUMP:
        return "seat %d jumps in" % a
    if code == ROTATE:  # H4: the way play goes (seed 003: 交給自己的下家)
        return "every hand passes to the next seat, %s" % _way(a)
    if code == SLAP_OPEN:
        return "a 4: everybody slap!"
    if code == SLAP:
        return "seat %d slaps" % a
    if code == TIMER_WARN:
        return "seat %d: time is nearly up" % a
    if code == OUT:
        return "seat %d is out (place %d)" % (a, ev[2])
    if code == SUM_WIN:
        return "seat %d lays down a hand that adds up to %d" % (a, ev[2])
    if code == RESHUFFLE:
        return ("the shoe is empty: shuffle the discard pile (but its top card; in the draw for "
                "dealer, the set-aside cards) into it; seat %d draws" % a)
    if code == BLOCKED:
        # T6: every seat passed with nothing to draw, or (forced play) one card goes round
        return ("no card can move any more: the round ends, seat %d wins it (the first seat "
                "out, else the fewest points)" % a)
    if code == UNDO:
        return "TAKE-BACK: the last %d input%s taken back" % (a, "" if a == 1 else "s")
    if code == CARD_BACK:
        if ev[2] == ev[3]:  # laid again since a reshuffle: back where it was laid
            return "%s goes back into the discard pile, under its top card" % name(a)
        # (off the pile, top card first: each is the top card when its turn comes)
        return "%s goes back from %s to %s" % (
            name(a), "the top of the discard pile" if ev[2] == 11 else _place(ev[2]),
            _place(ev[3]))
    if code == TWINS:
        return ("%s read where the table had %s since a take-back (two copies look alike): "
                "the two change places" % (copy_name(a), copy_name(ev[2])))
    if code == PLAYER:
        w = ev[2]
        if w is None:
            return "seat %d has no player named" % a
        return "seat %d is %s" % (a, w if type(w) is str else "badge " + hexlify(w).decode())
    return repr(ev)


def _place(p):
    return ("the shoe", "the discard pile", "aside")[(p > 10) + (p > 11)] if p == 0 or p > 10 \
        else "seat %d's hand" % p
