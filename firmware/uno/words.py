"""Words for the codes of uno/events.py: the names the text forms use, and plain reasons.

Only the text-facing modules (script, state, narrate) import this, so the engine's heap on
the board carries none of it.
"""

INPUTS = (None, "shoe", "pad", "seat", "colour", "shuffle", "tick", "rule")

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
    ("rule", ("name", "value")),         # a setting changed (applies from the next round)
    ("jump_in", ("seat",)),             # H2: this seat plays out of turn
    ("rotate", ("direction",)),         # H4: every hand passes to the next seat
    ("slap_open", ("seat",)),           # H7: a 4 was played: every seat slaps
    ("slap", ("seat",)),
    ("timer_warn", ("seat",)),          # P2: the turn timer is about to expire
    ("out", ("seat", "place")),         # M3: this seat has no cards left and leaves the round
    ("sum_win", ("seat", "sum")),       # H5: this seat lays down its hand and wins
)

WHY = ("turn", "draw two", "wild draw four", "caught without UNO", "misplay",
       "illegal W4 challenged", "failed challenge", "false UNO call", "false catch", "too slow",
       "last to slap", "stacked draws")

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
    "rules are locked while a round is on: set them after the round",
    "no such setting, or a value it does not take",
    "a card in this hand can be played: play it",
    "slap the 4 first",
    "S, R or W may not be the last card",
    "this hand's numbers do not make the number just played",
    "these seats cannot form teams of that many",
    "this seat has already caught",
)

PHASES = ("lobby", "drawoff", "dealer", "deal", "start", "play", "round_over", "match_over")

# What each setting of rules.catalogue() does (docs/rules.md and `unotable rules` show these).
RULE_TEXT = {
    "hand_size": "cards dealt to each seat",
    "first_dealer": "first dealer's seat; 0: the table draws for it (highest number deals)",
    "next_dealer": "dealer of the next round: the last round's winner, or the next seat clockwise",
    "start_card": "official: only a W4 start card goes back; number: every non-number goes back",
    "start_reverse": "R as start card: the player on the dealer's right begins, or the dealer",
    "direction": "direction of play at the start of a round",
    "draw": "one: draw one card when not playing; until: draw until a card can be played",
    "forced": "yes: no drawing (or passing) while holding a card that can be played",
    "last_card": "no_srw: S, R or W may not be the last card (it counts as unplayable)",
    "false_uno": "cards a false UNO call costs (a seat not down to its last card)",
    "false_catch": "cards a false catch costs the catcher (the caught seat had called)",
    "catchers": "first: one catch closes the window; each: every catcher adds 2 cards",
    "uno_identical": "yes: a hand of several identical cards counts as a last card",
    "w4": "W4 with a card of the active colour: challengeable, rejected, or allowed",
    "misplay": "cards a rejected misplay costs",
    "turn_timer": "seconds a seat may take to act before it draws 2 (0: no timer)",
    "stacking": "on: D on D and W4 on W4 add up; w4_on_d: W4 on D too",
    "jump_in": "identical: a card identical to the top card may be played out of turn; "
               "actions: action cards too, cancelling the jumped card's effect",
    "multi": "same: several cards of one number or symbol in one turn; identical: identical only",
    "zero_rotate": "yes: a played 0 passes every hand to the next seat",
    "sum_win": "yes: a seat whose numbers add up to the number just played may win at once",
    "slap4": "yes: a played 4 makes every seat slap its button; the last draws 2",
    "scoring": "winner: the winner scores the other hands; losers: each loser adds its own "
               "hand, first to the target loses and the lowest wins",
    "elimination": "yes: a seat with no cards leaves and the round goes on until one is left",
    "teams": "number of teams of partners sitting apart (0: none); a member going out wins "
             "for the team",
    "target": "points that end the match",
}
