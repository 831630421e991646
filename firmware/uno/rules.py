"""The settings a referee can switch, one row per setting (SPEC 4); defaults are the official rules.

Rows are kept as text and read when needed: a tuple of tuples costs the board's heap several
times more. catalogue() gives them as (name, default, allowed, rule id), where `allowed` is a
tuple of values or a (lo, hi) pair of ints. What each does, in words: words.RULE_TEXT;
docs/rules.md is written from both.
"""

# name default allowed rule-id
_ROWS = (
    "hand_size 7 1..15 S3",
    "first_dealer 0 0..10 S2",
    "next_dealer winner winner/rotate S2",
    "start_card official official/number S4",
    "start_reverse right right/dealer S4",
    "direction cw cw/ccw S5",
    "draw one one/until T2",
    "forced no no/yes T2",
    "last_card any any/no_srw T5",
    "false_uno 0 0..4 U3",
    "false_catch 0 0..4 U4",
    "catchers first first/each U5",
    "uno_identical no no/yes U6",
    "w4 challenge challenge/enforce/free C1",
    "misplay 0 0..4 P1",
    "turn_timer 0 0..120 P2",
    "stacking off off/on/w4_on_d H1",
    "jump_in off off/identical/actions H2",
    "multi off off/same/identical H3",
    "zero_rotate no no/yes H4",
    "sum_win no no/yes H5",
    "slap4 no no/yes H7",
    "scoring winner winner/losers M2",
    "elimination no no/yes M3",
    "teams 0 0..5 M4",
    "target 500 1..100000 M1",
)

# Named sets of settings; a preset sets every setting it does not name back to the default.
_PRESETS = (
    "official",
    "house stacking=on jump_in=identical draw=until false_uno=2 false_catch=2 misplay=2",
    "party stacking=w4_on_d jump_in=actions multi=same zero_rotate=yes sum_win=yes slap4=yes"
    " catchers=each uno_identical=yes false_uno=2 false_catch=2 misplay=2 turn_timer=10"
    " last_card=no_srw draw=until",
)


def _parse(row):
    name, default, allowed, rule = row.split()
    if ".." in allowed:
        lo, hi = allowed.split("..")
        return name, int(default), (int(lo), int(hi)), rule
    return name, default, tuple(allowed.split("/")), rule


def catalogue():
    """Every setting: (name, default, allowed, rule id), in the order of SPEC 4."""
    return [_parse(r) for r in _ROWS]


def _defaults():
    # (name, default) one row at a time: the board never holds the whole parsed catalogue
    for r in _ROWS:
        name, default, allowed, _ = r.split()
        yield name, int(default) if ".." in allowed else default


def _row(name):
    if isinstance(name, str) and name and " " not in name:
        key = name + " "
        for r in _ROWS:
            if r.startswith(key):
                return _parse(r)
    raise ValueError("no setting %r" % (name,))


def whole(text):
    """An int from ASCII digits (optional leading '-') only, else None: CPython's int() and
    str.isdigit() take other scripts' digits and MicroPython's do not, and both must agree."""
    digits = text[1:] if text[:1] == "-" else text
    if not digits:
        return None
    for ch in digits:
        if ch not in "0123456789":
            return None
    return int(text)


def check(name, value):
    """The value as the setting holds it, or ValueError saying what is allowed."""
    allowed = _row(name)[2]
    if isinstance(allowed[0], int):
        if isinstance(value, str):
            value = whole(value)
        if not isinstance(value, int) or isinstance(value, bool) \
                or not allowed[0] <= value <= allowed[1]:
            raise ValueError("%s must be a whole number from %d to %d" % (name, allowed[0], allowed[1]))
        if name == "teams" and value == 1:  # one team: every round would score 0 (M4)
            raise ValueError("teams must be 0 (no teams) or 2 to 5")
        return value
    if value not in allowed:
        raise ValueError("%s must be one of %s" % (name, ", ".join(allowed)))
    return value


def presets():
    """[(name, {setting: value})] of every preset."""
    out = []
    for p in _PRESETS:
        words = p.split()
        values = {}
        for w in words[1:]:
            k, v = w.split("=")
            values[k] = check(k, v)
        out.append((words[0], values))
    return out


def preset(name):
    for p, values in presets():
        if p == name:
            return values
    raise ValueError("preset must be one of %s" % ", ".join(p.split()[0] for p in _PRESETS))


class Settings:
    """Rule settings in force; attributes named as in the catalogue."""

    def __init__(self, values=None):
        for name, default in _defaults():
            setattr(self, name, default)
        if values:
            if "preset" in values:
                self.apply_preset(values["preset"])
            for k in values:
                if k != "preset":
                    self.set(k, values[k])

    def set(self, name, value):
        value = check(name, value)
        setattr(self, name, value)

    def apply_preset(self, name):
        """Every setting to its default, then the preset's values; returns the changed names."""
        values = preset(name)
        changed = []
        for k, default in _defaults():
            v = values.get(k, default)
            if getattr(self, k) != v:
                setattr(self, k, v)
                changed.append(k)
        return changed

    def as_dict(self):
        d = {}
        for k, _ in _defaults():
            d[k] = getattr(self, k)
        return d

    def changed(self):
        """Only the settings that differ from the official rules."""
        d = {}
        for k, default in _defaults():
            v = getattr(self, k)
            if v != default:
                d[k] = v
        return d
