"""Codes of table inputs, decided events, reasons and phases (their words: uno/words.py).

An input is a tuple (kind, a, b); an event is a tuple (code, ...fields of words.EVENTS[code]).
Codes are small ints so that the log and the wire stay compact; the engine needs no words.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# Table inputs: (kind, a, b)
IN_SHOE = const(1)     # (IN_SHOE, uid)       a card read at the DRAW shoe
IN_PAD = const(2)      # (IN_PAD, uid)        a card read on the PLAY pad
IN_SEAT = const(3)     # (IN_SEAT, seat, long) seat button 1..10
IN_COLOUR = const(4)   # (IN_COLOUR, colour, long) colour button 0..3 (R Y G B)
IN_SHUFFLE = const(5)  # (IN_SHUFFLE,)        shuffle sensor: a shuffled pile was loaded
IN_TICK = const(6)     # (IN_TICK, ms)        time passes (timers of the house rules)
IN_RULE = const(7)     # (IN_RULE, name, value) the host sets a rule (or "preset") between rounds
IN_UNDO = const(8)     # (IN_UNDO, n)         take back the last n accepted inputs of the round
IN_PLAYER = const(9)   # (IN_PLAYER, seat, name) the host names a joined seat's player (lobby)

# Events (fields in words.EVENTS)
JOIN = const(1)
LEAVE = const(2)
SHUFFLE = const(3)
DRAWOFF = const(4)
DEALER = const(5)
DEAL = const(6)
START = const(7)
BACK = const(8)
PLAY = const(9)
WANT = const(10)
COLOUR = const(11)
DRAW = const(12)
OWE = const(13)
PENALTY = const(14)
SKIP = const(15)
REVERSE = const(16)
TURN = const(17)
PASS = const(18)
UNO_OPEN = const(19)
UNO_CLOSE = const(20)
UNO = const(21)
CATCH = const(22)
CHALLENGE = const(23)
WAIVE = const(24)
REJECT = const(25)
ROUND_OVER = const(26)
SCORE = const(27)
MATCH_OVER = const(28)
ROUND = const(29)
RULE = const(30)
JUMP = const(31)
ROTATE = const(32)
SLAP_OPEN = const(33)
SLAP = const(34)
TIMER_WARN = const(35)
OUT = const(36)
SUM_WIN = const(37)
RESHUFFLE = const(38)   # the shoe is empty and a draw is due: shuffle the pile (T4)
BLOCKED = const(39)     # nobody can play and nothing is left to draw: the round ends (T6)
# take-back (issue 10, uno/takeback.py)
UNDO = const(40)       # (UNDO, n): the last n accepted inputs of the round are taken back
CARD_BACK = const(41)  # (CARD_BACK, card, from, to): places as Table.loc (0 shoe, seat, 11 pile, 12 aside)
# players (issue 12)
PLAYER = const(42)     # (PLAYER, seat, who): who = a badge UID (bytes), a name from the host (str), None: none
# take-back (issue 10): two copies of one face the table had the other way round
TWINS = const(43)      # (TWINS, card, copy): card read where the table had copy, and copy now where card was


# Why a seat draws (DRAW / OWE / PENALTY)
W_TURN = const(0)        # T2: chose to or had to draw
W_DRAW2 = const(1)       # T3: D
W_DRAW4 = const(2)       # T3: W4
W_CAUGHT = const(3)      # U2: caught without calling UNO
W_MISPLAY = const(4)     # P1 option
W_W4_ILLEGAL = const(5)  # C1: challenged W4 was illegal
W_W4_LEGAL = const(6)    # C1: challenged W4 was legal, the challenger draws 2 more
W_FALSE_UNO = const(7)   # U3
W_FALSE_CATCH = const(8) # U4
W_SLOW = const(9)        # P2: turn timer
W_SLAP = const(10)       # H7: last to slap the 4
W_STACK = const(11)      # H1: the stacked total

# Challenge verdicts
V_LEGAL = const(0)
V_ILLEGAL = const(1)

# Reasons for a rejection: every bad input gets one and changes nothing.
R_UNKNOWN = const(1)
R_IN_HAND = const(2)
R_ON_PILE = const(3)
R_TWICE = const(4)
R_IN_SHOE = const(5)
R_ASIDE = const(6)
R_NOT_TURN = const(7)
R_UNPLAYABLE = const(8)
R_W4_ILLEGAL = const(9)
R_ONLY_DRAWN = const(10)
R_MUST_DRAW = const(11)
R_WANT_COLOUR = const(12)
R_DREW = const(13)
R_BAD_SEAT = const(14)
R_NOT_SEATED = const(15)
R_JOINED = const(16)
R_FEW = const(17)
R_SHOE_LEFT = const(18)
R_NO_RESHUFFLE = const(19)
R_WANT_SHUFFLE = const(20)
R_NOT_NOW = const(21)
R_NOTHING = const(22)
R_CALLED = const(23)
R_NO_CHALLENGE = const(24)
R_NO_COLOUR = const(25)
R_WAIT_DRAW = const(26)
R_BAD_INPUT = const(27)
R_DEAL_SIZE = const(28)
R_LOCKED = const(29)
R_BAD_RULE = const(30)
R_MUST_PLAY = const(31)
R_WAIT_SLAP = const(32)
R_LAST_CARD = const(33)
R_NO_SUM = const(34)
R_TEAMS = const(35)
R_CAUGHT = const(36)
R_NO_DEALER = const(37)
R_UNDO_PAST = const(38)  # a take-back reaches past the round's start or end
R_SEAT_FIRST = const(39)  # a badge tapped with no seat just joined to bind it to
R_PLAYER_TAKEN = const(40)  # that badge or name is another seat's player already
R_BAD_NAME = const(41)  # a player's name must be 1..24 bytes of printable text
R_MATCH_ON = const(42)  # scoring and teams hold for a whole match (M2, M4)
R_SLAPPED = const(43)  # H7: a seat that slapped presses again while the slap is open
R_SUM_LATE = const(44)  # H5: a lay-down after the number just played has closed
R_FALSE_UNO = const(45)  # U3: a false UNO call that costs (with its penalty)
R_START_SUM = const(46)  # H5 with S4: a lay-down on the start card, which nobody played
R_LEAVE_LATER = const(47)  # a long press (leave) in a match: seats leave once it is over
R_NO_ROOM = const(48)  # a take-back on a board with no heap left to load uno/rebuild.py
# Rejections that count as misplays (P1): the card goes back, optionally at a cost.
MISPLAYS = (R_NOT_TURN, R_UNPLAYABLE, R_W4_ILLEGAL, R_ONLY_DRAWN, R_MUST_DRAW, R_LAST_CARD)

# Phases of the table
P_LOBBY = const(0)    # seats join; the shuffle sensor starts the match
P_DRAWOFF = const(1)  # S2: each seat draws a card to choose the dealer
P_DEALER = const(2)   # dealer chosen: put the cards back and shuffle
P_DEAL = const(3)     # S3: card by card from the shoe
P_START = const(4)    # S4: the start card comes from the shoe
P_PLAY = const(5)
P_ROUND_OVER = const(6)
P_MATCH_OVER = const(7)
