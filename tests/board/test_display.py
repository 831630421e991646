"""board.display: the layout everywhere; the SSD1306 itself where framebuf exists (MicroPython)."""
import boardfakes as fk
from check import raises
from board.display import table_lines, Display, COLS

try:
    __import__("framebuf")
    HAVE_FB = True
except ImportError:
    HAVE_FB = False


def fits(lines):
    return len(lines) <= 8 and all(len(ln) <= COLS for ln in lines)


def test_layout_colour_direction_turn_pending():
    lines = table_lines(colour=0, direction=1, turn=3, pending=4)
    assert lines == ["RED        >> cw", "turn 3   draw +4"]
    lines = table_lines(colour=1, direction=-1, turn=10)
    assert lines == ["YELLOW    << ccw", "turn 10"]


def test_layout_no_colour_no_turn():
    assert table_lines(colour=-1, direction=1) == ["-          >> cw", "turn -"]
    assert table_lines(colour=None)[0].startswith("-")


def test_layout_scores_two_a_line_for_ten_seats():
    scores = {}
    for s in range(1, 11):
        scores[s] = s * 55
    lines = table_lines(colour=3, direction=1, turn=1, pending=12, scores=scores)
    assert fits(lines) and len(lines) == 7
    assert lines[2] == " 1:  55   2: 110"
    assert lines[6] == " 9: 495  10: 550"


def test_layout_odd_number_of_seats():
    lines = table_lines(scores={2: 7, 1: 500, 3: 0})
    assert lines[2:] == [" 1: 500   2:   7", " 3:   0"]
    assert fits(lines)


def test_display_needs_framebuf():
    if HAVE_FB:
        return
    raises(ImportError, Display, fk.I2C(), 0x3C)


def make():
    bus = fk.I2C()
    dev = bus.attach(fk.SSD1306Dev(), 0x3C)
    return Display(bus), dev, bus


def test_init_sequence_turns_the_panel_on():
    if not HAVE_FB:
        return
    oled, dev, bus = make()
    c = dev.cmds
    assert c[0] == 0xAE and c[-1] == 0xAF
    assert bytes((0x8D, 0x14)) in bytes(c)  # charge pump
    assert bytes((0xA8, 0x3F)) in bytes(c)  # 64 rows


def test_missing_panel_raises_oserror():
    if not HAVE_FB:
        return
    raises(OSError, Display, fk.I2C(), 0x3C)


def test_show_table_draws_one_frame():
    if not HAVE_FB:
        return
    oled, dev, bus = make()
    oled.show_table(colour=2, direction=-1, turn=4, pending=2, scores={1: 10, 2: 20})
    assert dev.frames == 1
    assert dev.cmds[-6:] == bytes((0x21, 0, 127, 0x22, 0, 7))
    # Page 0 (rows 0-7): the colour name inverted: the box's left column is fully lit.
    assert dev.ram[0] == 0xFF
    # Page 4 (rows 32-39) is empty: only 4 lines of text.
    assert max(dev.ram[4 * 128:5 * 128]) == 0
    assert max(dev.ram[2 * 128:3 * 128]) > 0  # the scores line


def test_text_and_power():
    if not HAVE_FB:
        return
    oled, dev, bus = make()
    oled.text(["HELLO"])
    assert dev.frames == 1 and max(dev.ram[:128]) > 0 and max(dev.ram[128:]) == 0
    oled.power(False)
    assert dev.cmds[-1] == 0xAE
    oled.contrast(0x40)
    assert dev.cmds[-2:] == bytes((0x81, 0x40))
