"""One parser for rule settings on the command line: `replay --set`, `sync --set`, `rules set`.

Checked here, as the table checks them, before anything is sent: a bad one is refused with
what is allowed, and nothing of the command is done.
"""
from uno.rules import catalogue, check, preset
from unotable.errors import UsageError

EXAMPLE = "e.g. stacking=on or preset=house"


def _names():
    return [row[0] for row in catalogue()]


def parse(items):
    """[(name, value)] from NAME=VALUE words (a preset first: it sets every rule); values as
    the table holds them (hand_size=7 -> 7). UsageError naming the first bad one."""
    pairs = []
    for item in items:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name or not value:
            raise UsageError("write NAME=VALUE, %s (got %r)" % (EXAMPLE, item))
        if name == "preset":
            try:
                preset(value)
            except ValueError as e:
                raise UsageError(str(e)) from None
            pairs.insert(0, (name, value))
            continue
        if name not in _names():
            raise UsageError("no setting %r: `unotable rules show` lists them, %s" % (
                name, EXAMPLE))
        try:
            pairs.append((name, check(name, value)))
        except ValueError as e:
            raise UsageError(str(e)) from None
    return pairs


def overrides(items):
    """The settings of `replay --set` as one dict over the script's own: a preset is every
    rule (its values, the others official), then the NAME=VALUE after it."""
    out = {}
    for name, value in parse(items):
        if name == "preset":
            out.update((row[0], row[1]) for row in catalogue())
            out.update(preset(value))
        else:
            out[name] = value
    return out
