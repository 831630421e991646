"""board.faults: every code fits the display and has a line in docs/firmware.md saying what to do."""
from board import faults

_parts = __file__.replace("\\", "/").split("/")
ROOT = "/".join(_parts[:-3]) or "."


def test_every_code_fits_the_display_row():
    for c in faults.CODES:
        n = faults.note(c)
        assert len(n) <= 16 and n.startswith("E%02d " % c), n
    assert len(set(faults.CODES)) == len(faults.CODES)


def test_every_code_has_a_line_in_the_docs():
    with open(ROOT + "/docs/firmware.md") as f:
        doc = f.read()
    for c in faults.CODES:
        row = "| E%02d | `%s` |" % (c, faults.note(c))
        assert row in doc, row


def test_notices_are_the_4x_codes():
    assert [c for c in faults.CODES if faults.notice(c)] == [faults.PAD_IRQ, faults.SHOE_IRQ]
