"""board.display: the layout everywhere; the SSD1306 itself where framebuf exists (MicroPython)."""
import boardfakes as fk
from check import raises, skip
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
        return skip('the fallback without framebuf: runs under CPython')
    raises(ImportError, Display, fk.I2C(), 0x3C)


def make():
    bus = fk.I2C()
    dev = bus.attach(fk.SSD1306Dev(), 0x3C)
    return Display(bus), dev, bus


def test_init_sequence_turns_the_panel_on_and_clears_its_ram():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    oled, dev, bus = make()
    c = bytes(dev.cmds)
    assert c[0] == 0xAE and 0xAF in c
    assert bytes((0x8D, 0x14)) in c  # charge pump
    assert bytes((0xA8, 0x3F)) in c  # 64 rows
    assert dev.frames == 1 and max(dev.ram) == 0  # the one whole frame: at power-up


def test_missing_panel_raises_oserror():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    raises(OSError, Display, fk.I2C(), 0x3C)


def fresh(draw):
    """The panel RAM a freshly powered display shows after draw(oled)."""
    oled, dev, bus = make()
    draw(oled)
    return bytes(dev.ram)


def test_show_table_draws_the_table():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    oled, dev, bus = make()
    oled.show_table(colour=2, direction=-1, turn=4, pending=2, scores={1: 10, 2: 20})
    assert dev.frames == 1  # still only the power-up frame
    # Page 0 (rows 0-7): the colour name inverted: its first column is fully lit.
    assert dev.ram[0] == 0xFF
    # Page 4 (rows 32-39) is empty: only 3 lines of text.
    assert max(dev.ram[4 * 128:5 * 128]) == 0
    assert max(dev.ram[2 * 128:3 * 128]) > 0  # the scores line


def test_an_input_sends_only_what_changed():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    oled, dev, bus = make()
    scores = {}
    for s in range(1, 11):
        scores[s] = 0
    oled.show_table(colour=0, direction=1, turn=3, pending=0, scores=scores)
    before = dev.data_bytes
    oled.show_table(colour=0, direction=1, turn=4, pending=0, scores=scores)  # the turn passes
    assert dev.data_bytes - before == 8  # one character of one row, no frame
    assert dev.frames == 1
    before = dev.data_bytes
    oled.show_table(colour=0, direction=1, turn=4, pending=0, scores=scores)  # nothing new
    assert dev.data_bytes == before
    oled.show_table(colour=1, direction=-1, turn=5, pending=2, scores=scores)
    assert dev.data_bytes - before <= 2 * 128 and dev.frames == 1
    want = fresh(lambda o: o.show_table(colour=1, direction=-1, turn=5, pending=2, scores=scores))
    assert bytes(dev.ram) == want  # what the panel shows is the whole picture


def test_a_note_on_the_last_row_stays_under_the_table():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    oled, dev, bus = make()
    oled.line(7, "E21 PAD 2 CARDS")
    oled.show_table(colour=3, direction=1, turn=1)
    assert max(dev.ram[7 * 128:8 * 128]) > 0
    oled.line(7, "")
    assert max(dev.ram[7 * 128:8 * 128]) == 0
    want = fresh(lambda o: o.show_table(colour=3, direction=1, turn=1))
    assert bytes(dev.ram) == want


def test_a_bus_error_costs_a_row_not_the_picture():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    oled, dev, bus = make()
    oled.show_table(colour=0, direction=1, turn=3)
    del bus.devices[0x3C]
    raises(OSError, oled.show_table, 0, 1, 4)
    bus.attach(dev, 0x3C)
    oled.show_table(colour=0, direction=1, turn=4)
    assert bytes(dev.ram) == fresh(lambda o: o.show_table(colour=0, direction=1, turn=4))


def test_text_and_power():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    oled, dev, bus = make()
    oled.text(["HELLO"])
    assert max(dev.ram[:128]) > 0 and max(dev.ram[128:]) == 0
    oled.power(False)
    assert dev.cmds[-1] == 0xAE
    oled.contrast(0x40)
    assert dev.cmds[-2:] == bytes((0x81, 0x40))


def test_a_panel_that_lost_its_supply_comes_back_with_the_whole_picture():
    if not HAVE_FB:
        return skip('needs framebuf: runs under micropython (make test-mp)')
    from board.screen import Screen
    oled, dev, bus = make()
    scr = Screen(oled)
    scr.show_table(colour=0, direction=1, turn=3)
    scr.note("E31 BUTTONS I2C")
    del bus.devices[0x3C]  # a loose connector: no answer ...
    scr.show_table(colour=0, direction=1, turn=4)
    scr.show_table(colour=0, direction=1, turn=5)
    assert scr.errors == 2
    dev.power_cycle()      # ... and back: dark, charge pump off, RAM noise
    bus.attach(dev, 0x3C)
    scr.show_table(colour=0, direction=1, turn=6)

    def want(o):
        o.show_table(colour=0, direction=1, turn=6)
        o.line(7, "E31 BUTTONS I2C", 3)
    assert dev.lit() == fresh(want)


def test_the_fake_panel_powers_up_dark_with_noise():
    dev = fk.SSD1306Dev()
    assert not dev.on and max(dev.ram) > 0 and dev.lit() == bytes(1024)


def test_a_notice_longer_than_the_row_is_shown_in_pieces_in_turn():
    from board.screen import Screen, TextPanel, PAGE_MS
    p = TextPanel()
    scr = Screen(p)
    scr.notice("LOG DAMAGED - sync, see status")
    assert p.rows()[7] == "LOG DAMAGED -"
    scr.tick(100)
    scr.tick(100 + PAGE_MS - 1)
    assert p.rows()[7] == "LOG DAMAGED -"
    scr.tick(100 + PAGE_MS)
    assert p.rows()[7] == "sync, see status"
    scr.tick(100 + 2 * PAGE_MS)
    assert p.rows()[7] == "LOG DAMAGED -"
    scr.notice("LOG DAMAGED - sync, see status")  # said again at every input: no restart
    scr.tick(100 + 3 * PAGE_MS)
    assert p.rows()[7] == "sync, see status"
    scr.notice(None)
    assert p.rows()[7] == ""


def test_a_fault_code_and_a_notice_take_the_note_row_in_turn():
    from board.screen import Screen, TextPanel, PAGE_MS
    p = TextPanel()
    scr = Screen(p)
    scr.notice("R7 to seat 2")
    scr.note("E21 PAD 2 CARDS")
    assert p._rows[7] == ("E21 PAD 2 CARDS", 3)  # the code first, its number inverted
    scr.tick(0)
    scr.tick(PAGE_MS)
    assert p._rows[7] == ("R7 to seat 2", 0)
    scr.note("")
    assert p.rows()[7] == "R7 to seat 2"


def test_fold_cuts_between_words():
    from board.screen import fold
    assert fold("LOG FULL - sync the table") == ["LOG FULL - sync", "the table"]
    assert fold("log 83% full - sync soon") == ["log 83% full -", "sync soon"]
    assert fold("R7 to seat 2") == ["R7 to seat 2"]
    assert fold("x" * 20 + " y") == ["x" * 16, "xxxx y"]
