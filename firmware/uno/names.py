"""Short names of codes that the text forms (state JSON, table script) carry, on the board too."""

INPUTS = (None, "shoe", "pad", "seat", "colour", "shuffle", "tick", "rule", "undo", "player")

PHASES = ("lobby", "drawoff", "dealer", "deal", "start", "play", "round_over", "match_over")

WHY = ("turn", "draw two", "wild draw four", "caught without UNO", "misplay",
       "illegal W4 challenged", "failed challenge", "false UNO call", "false catch", "too slow",
       "last to slap", "stacked draws")

VERDICTS = ("legal", "illegal")
