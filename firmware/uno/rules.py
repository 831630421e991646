"""The settings a referee can switch, one row per rule id (SPEC 4); defaults are the official rules.

A row: (name, default, allowed, rule id, what it means). `allowed` is a tuple of values, or a
(lo, hi) pair of ints for a range. docs/rules.md is written from the same rows.
"""

CATALOGUE = (
    ("hand_size", 7, (1, 15), "S3", "cards dealt to each seat"),
    ("first_dealer", 0, (0, 10), "S2", "first dealer's seat; 0: the table draws for it"),
    ("direction", "cw", ("cw", "ccw"), "S5", "direction of play at the start of a round"),
    ("start_reverse", "right", ("right", "dealer"), "S4",
     "R as start card: the player on the dealer's right begins, or the dealer"),
    ("w4", "challenge", ("challenge", "enforce", "free"), "C1",
     "W4 with a card of the active colour: challengeable, rejected, or allowed"),
    ("misplay", 0, (0, 2), "P1", "cards a rejected misplay costs"),
    ("target", 500, (1, 100000), "M1", "points that win the match"),
)


def _row(name):
    for row in CATALOGUE:
        if row[0] == name:
            return row
    raise ValueError("no setting %r" % name)


def check(name, value):
    """The value as the setting holds it, or ValueError saying what is allowed."""
    allowed = _row(name)[2]
    if isinstance(allowed[0], int):
        if isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) \
                or not allowed[0] <= value <= allowed[1]:
            raise ValueError("%s must be a whole number from %d to %d" % (name, allowed[0], allowed[1]))
        return value
    if value not in allowed:
        raise ValueError("%s must be one of %s" % (name, ", ".join(allowed)))
    return value


class Settings:
    """Rule settings in force; attributes named as in CATALOGUE."""

    def __init__(self, values=None):
        for row in CATALOGUE:
            setattr(self, row[0], row[1])
        if values:
            for k in values:
                self.set(k, values[k])

    def set(self, name, value):
        setattr(self, name, check(name, value))

    def as_dict(self):
        d = {}
        for row in CATALOGUE:
            d[row[0]] = getattr(self, row[0])
        return d

    def changed(self):
        """Only the settings that differ from the official rules."""
        d = {}
        for row in CATALOGUE:
            v = getattr(self, row[0])
            if v != row[1]:
                d[row[0]] = v
        return d
