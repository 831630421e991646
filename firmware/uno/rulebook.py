"""What each rule setting does, in words (docs/rules.md, `unotable rules`); host side only."""

RULE_TEXT = {
    "hand_size": "cards dealt to each seat",
    "first_dealer": "first dealer's seat; 0: the table draws for it (highest number deals)",
    "next_dealer": "dealer of the next round: the last round's winner, or the next seat in "
                   "the direction of play",
    "start_card": "official: only a W4 start card goes back; number: every non-number goes back",
    "start_reverse": "R as start card: the dealer's neighbour in the new direction begins (its "
                     "right; with direction ccw its left), or the dealer",
    "direction": "direction of play at the start of a round (cw: seat numbers rising); the "
                 "deal, the first player and a rotating deal go the same way",
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
    "stacking": "on: D on D and W4 on W4 add up; w4_on_d: W4 on D too, and a W4 that "
                "answers a D or W4 is legal whatever the hand holds",
    "jump_in": "identical: a number card identical to the top card may be played out of "
               "turn; actions: action cards and wilds too, cancelling the jumped card's effect",
    "multi": "same: several cards of one number or symbol in one turn; identical: identical only",
    "zero_rotate": "yes: a played 0 passes every hand to the next seat",
    "sum_win": "yes: a seat whose numbers add up to the number just played may win at once",
    "slap4": "yes: a played 4 makes every seat slap its button; the last draws 2",
    "scoring": "winner: the winner scores the other hands; losers: each loser adds its own "
               "hand (with teams, its team's), first to the target loses and the lowest wins",
    "elimination": "yes: a seat with no cards leaves and the round goes on until one is left",
    "teams": "number of teams of partners sitting apart (0: none; 1 is refused); a member "
             "going out wins for the team",
    "target": "points that end the match",
}
