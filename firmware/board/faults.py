"""The numbered codes the table shows when something needs a hand (docs/firmware.md, "Error
codes", says what to do for each). A code is shown three ways: on the display's last row
("E21 PAD 2 CARDS"), as an LED pattern (board/leds.py Leds.alert: the colour LED of the tens
digit blinks, 1 red .. 4 blue, and the seat LED of the units digit is lit), and by the buzzer
(FAULT for 1x and 3x, REJECTED for 2x). 4x codes are notices: printed at boot, on the boot
screen, never an LED pattern: the table plays as usual.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PAD_READER = const(11)      # the PLAY pad's reader does not answer
SHOE_READER = const(12)     # the DRAW shoe's reader does not answer
PAD_TWO_CARDS = const(21)   # two cards at the PLAY pad: take one away
SHOE_TWO_CARDS = const(22)  # two cards at the DRAW shoe: take one away
BUTTONS_I2C = const(31)     # the button expander (0x20) does not answer
LEDS_I2C = const(32)        # the seat-LED expander (0x21) does not answer
BUTTON_STUCK = const(33)    # a seat or colour button held down for STUCK_MS: stuck or weighed on
PAD_IRQ = const(41)         # notice: the PLAY reader's IRQ line is not used (status polled)
SHOE_IRQ = const(42)        # notice: the DRAW reader's IRQ line is not used

_TEXT = {PAD_READER: "PAD READER", SHOE_READER: "SHOE READER", PAD_TWO_CARDS: "PAD 2 CARDS",
         SHOE_TWO_CARDS: "SHOE 2 CARDS", BUTTONS_I2C: "BUTTONS I2C", LEDS_I2C: "LEDS I2C",
         BUTTON_STUCK: "BUTTON STUCK",
         PAD_IRQ: "PAD IRQ OFF", SHOE_IRQ: "SHOE IRQ OFF"}

CODES = (PAD_READER, SHOE_READER, PAD_TWO_CARDS, SHOE_TWO_CARDS, BUTTONS_I2C, LEDS_I2C,
         BUTTON_STUCK, PAD_IRQ, SHOE_IRQ)


def note(code):
    """The display line for a code: at most 16 characters."""
    return "E%02d %s" % (code, _TEXT.get(code, "?"))


def notice(code):
    """True for codes that are said at boot only (the table plays as usual)."""
    return code // 10 == 4
