"""Copies the codes of uno/events.py and uno/cards.py into the board's modules as private consts.

MicroPython compiles `_NAME = const(n)` into the bytecode: no global, no import. Public codes
imported from another module cost the board a module and a dict entry each (about 9 KB for
the engine). So events.py stays the one place codes are defined, and each board module gets a
generated block of the codes it uses, between the markers below.

    python tools/gen_consts.py           rewrite the blocks
    python tools/gen_consts.py --check   fail if a block is out of date (make test runs it)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("firmware/uno/events.py", "firmware/uno/cards.py")
TARGETS = ("firmware/uno/table.py", "firmware/uno/takeback.py", "firmware/uno/rebuild.py",
           "firmware/uno/script.py", "firmware/hub/app.py",
           "firmware/hub/sim.py", "firmware/hub/handler.py", "firmware/hub/esp32.py")
BEGIN = "# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --\n"
END = "# -- end of codes --\n"


def codes():
    found = {}
    tuples = {}
    for rel in SOURCES:
        with open(os.path.join(ROOT, rel)) as f:
            text = f.read()
        for name, value in re.findall(r"^([A-Z][A-Z0-9_]*) = const\((\d+)\)", text, re.M):
            found[name] = int(value)
        for name, body in re.findall(r"^([A-Z][A-Z0-9_]*) = \(([A-Z0-9_, ]+)\)", text, re.M):
            tuples[name] = [n.strip() for n in body.split(",") if n.strip()]
    return found, tuples


def block(text, found, tuples):
    body = text.split(BEGIN)[0] + text.split(END)[1] if BEGIN in text else text
    used = set(re.findall(r"\b_([A-Z][A-Z0-9_]*)\b", body))
    lines = [BEGIN]
    for name in sorted((n for n in used if n in found), key=lambda n: (n.split("_")[0], found[n], n)):
        lines.append("_%s = const(%d)\n" % (name, found[name]))
    for name in sorted(n for n in used if n in tuples):
        lines.append("_%s = (%s)\n" % (name, ", ".join("_" + n for n in tuples[name])))
    lines.append(END)
    return "".join(lines)


def render(text, found, tuples):
    if BEGIN not in text or END not in text:
        raise SystemExit("no code block markers")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    return head + block(text, found, tuples) + tail


def main():
    found, tuples = codes()
    stale = []
    for rel in TARGETS:
        path = os.path.join(ROOT, rel)
        with open(path) as f:
            text = f.read()
        new = render(text, found, tuples)
        if new != text:
            stale.append(rel)
            if "--check" not in sys.argv:
                with open(path, "w") as f:
                    f.write(new)
    if "--check" in sys.argv:
        if stale:
            print("out of date (run: python tools/gen_consts.py): " + ", ".join(stale))
            sys.exit(1)
        print("codes: %d board modules up to date with uno/events.py" % len(TARGETS))
    elif stale:
        print("rewrote: " + ", ".join(stale))


if __name__ == "__main__":
    main()
