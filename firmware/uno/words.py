"""Words for the codes of uno/events.py: event names and fields, and plain reasons.

The host's records and narration use these; the board does not import them, so its heap
carries none of it (the short names the JSON forms need are in uno/names.py).
"""


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
    ("back", ("card",)),                # a start card goes back into the shoe (S4)
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
    ("rule", ("name", "value")),         # a setting changed (applies from the next round)
    ("jump_in", ("seat",)),             # H2: this seat plays out of turn
    ("rotate", ("direction",)),         # H4: every hand passes to the next seat
    ("slap_open", ("seat",)),           # H7: a 4 was played: every seat slaps
    ("slap", ("seat",)),
    ("timer_warn", ("seat",)),          # P2: the turn timer is about to expire
    ("out", ("seat", "place")),         # M3: no cards left (or a sum win): it leaves the round
    ("sum_win", ("seat", "sum")),       # H5: this seat lays down its hand and wins
    ("reshuffle", ("seat",)),           # T4: the shoe is empty and this seat must draw
    ("blocked", ("seat",)),             # T6: nothing can move; the first out, else fewest points
    # take-back (issue 10)
    ("undo", ("n",)),                   # the last n accepted inputs are taken back
    ("card_back", ("card", "from", "to")),  # a card goes back: shoe, pile, aside or a seat
    ("player", ("seat", "who")),        # issue 12: the seat's player (badge uid or name; none)
    ("twins", ("card", "copy")),        # card was read where the table had its twin copy: they swap
)


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
    "rules are locked while a round is on: set them after the round",
    "no such setting, or a value it does not take",
    "a card in this hand can be played: play it",
    "slap the 4 first",
    "S, R or W may not be the last card",
    "this hand's numbers do not make the number another seat just played",
    "these seats cannot form teams of that many",
    "this seat has already caught",
    "the first dealer named is not in the game",
    "nothing that far back in this round: a take-back cannot cross a round's end",
    "press your seat button first, then tap your badge",
    "that player is at another seat already",
    "a player's name is 1 to 24 bytes of printable text",
    "scoring and teams hold for the whole match: set them once it is over",
    "this seat has already slapped the 4",
    "too late to lay down on that number: the next play or draw, or a lay-down on it, came first",
    "a false UNO call: this seat is not down to its last card",
    "the start card is nobody's play: no lay-down on it",
    "seats stay for the whole match: leave once it is over",
    "no room in memory for a take-back now: nothing was changed",
)
