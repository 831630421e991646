"""Words for the codes of uno/events.py: the names the text forms use, and plain reasons.

Only the text-facing modules (script, state, narrate) import this, so the engine's heap on
the board carries none of it.
"""

INPUTS = (None, "shoe", "pad", "seat", "colour", "shuffle", "tick")

# code -> (name, field names)
EVENTS = (
    None,
    ("join", ("seat",)),
    ("leave", ("seat",)),
    ("shuffle", ("shoe",)),             # cards now in the shoe
    ("drawoff", ("seat", "card")),      # a card drawn to choose the dealer
    ("dealer", ("seat",)),
    ("deal", ("seat", "card")),
    ("start", ("card",)),
    ("back", ("card",)),                # a W4 start card goes back into the pile
    ("play", ("seat", "card")),
    ("colour_wanted", ("seat",)),
    ("colour", ("seat", "colour")),
    ("draw", ("seat", "card", "why")),
    ("owe", ("seat", "n", "why")),      # the next player owes draws (D, W4)
    ("penalty", ("seat", "n", "why")),
    ("skip", ("seat",)),
    ("reverse", ("direction",)),
    ("turn", ("seat",)),
    ("pass", ("seat",)),
    ("uno_open", ("seat",)),
    ("uno_close", ("seat",)),
    ("uno", ("seat",)),
    ("catch", ("seat", "caught")),
    ("challenge", ("seat", "against", "verdict")),
    ("waive", ("seat", "n")),           # draws owed that no card is left for
    ("reject", ("why", "seat", "card")),
    ("round_over", ("seat", "points")),
    ("score", ("seat", "total")),
    ("match_over", ("seat",)),
    ("round", ("round", "dealer")),
)

WHY = ("turn", "draw two", "wild draw four", "caught without UNO", "misplay",
       "illegal W4 challenged", "failed challenge")

VERDICTS = ("legal", "illegal")

# Every bad input gets one and changes nothing.
REASONS = (
    None,
    "unknown tag",
    "card is in a hand, not in the shoe",
    "card is already on the discard pile",
    "same card read twice",
    "card was never drawn: it is still in the shoe",
    "card was set aside in the draw for dealer",
    "not this seat's turn",
    "card matches neither colour, number nor symbol",
    "W4 while holding a card of the active colour",
    "only the card just drawn may be played",
    "cards owed must be drawn first",
    "choose the colour first",
    "already drew this turn: play that card or pass",
    "no such seat",
    "seat is not in this game",
    "seat already joined",
    "at least 2 seats must join",
    "the shoe still has cards",
    "the discard pile has no cards to reshuffle",
    "load the shuffled pile first (shuffle sensor)",
    "no card is expected here now",
    "this press means nothing now",
    "UNO was already called",
    "nothing to challenge",
    "no colour is wanted now",
    "wait: a seat is drawing the cards it owes",
    "not a table input",
    "not enough cards to deal that hand size to every seat",
)

PHASES = ("lobby", "drawoff", "dealer", "deal", "start", "play", "round_over", "match_over")
