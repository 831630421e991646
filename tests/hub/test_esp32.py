"""hub/esp32.py: the real board's inputs and outputs, on fake buses and a fake clock
(the fakes of tests/drivers and tests/board, wired up in esp32kit.py)."""
from check import skip
import sys

import esp32kit as kit
from esp32kit import NTAG, NTAG2, MIFARE, Rig, place
from board import buzzer as tunes
from board import pins
from hub import esp32
from uno.events import IN_SHOE, IN_PAD, IN_SEAT, IN_COLOUR, IN_SHUFFLE

MICROPYTHON = sys.implementation.name == "micropython"


# -- readers --

def test_a_card_resting_on_the_pad_is_one_read():
    r = Rig()
    place(r.m.play, NTAG)
    r.spin(1000)
    assert r.take() == [(IN_PAD, NTAG)]
    assert r.board.info()["reads"] == [1, 0]


def test_taken_away_and_placed_again_is_a_second_read():
    r = Rig()
    place(r.m.play, NTAG)
    r.spin(100)
    place(r.m.play, None)
    r.spin(esp32.GONE_MS + 50)
    place(r.m.play, NTAG)
    r.spin(100)
    assert r.take() == [(IN_PAD, NTAG), (IN_PAD, NTAG)]


def test_a_short_dropout_is_still_the_same_read():
    r = Rig()
    place(r.m.play, NTAG)
    r.spin(200)
    place(r.m.play, None)  # a missed read or two while the card is still there
    r.spin(esp32.GONE_MS // 3)
    place(r.m.play, NTAG)
    r.spin(200)
    assert r.take() == [(IN_PAD, NTAG)]


def test_a_different_card_is_a_new_read_at_once():
    r = Rig()
    place(r.m.play, NTAG)
    r.spin(100)
    place(r.m.play, NTAG2)
    r.spin(20)
    assert r.take() == [(IN_PAD, NTAG), (IN_PAD, NTAG2)]
    place(r.m.play, NTAG)  # and back: different from the last one, so new again
    r.spin(20)
    assert r.take() == [(IN_PAD, NTAG)]


def test_a_card_in_the_shoe():
    r = Rig()
    place(r.m.draw, MIFARE)
    r.spin(300)
    assert r.take() == [(IN_SHOE, MIFARE)]
    place(r.m.draw, None)
    r.spin(esp32.GONE_MS + 20)
    place(r.m.draw, NTAG)
    place(r.m.play, NTAG2)
    r.spin(50)
    got = r.take()
    assert sorted(got) == sorted([(IN_SHOE, NTAG), (IN_PAD, NTAG2)])


def test_an_mfrc522_named_in_the_pin_map_is_read_once():
    r = Rig(draw="mfrc522")
    assert r.board.info()["readers"] == ["pn532", "mfrc522"]
    place(r.m.draw, NTAG)  # the MFRC522 reports a card left in the field at every poll
    r.spin(800)
    assert r.take() == [(IN_SHOE, NTAG)]
    assert r.board.info()["reader_errors"] == [0, 0]


def test_corrupted_frames_are_counted_and_the_loop_goes_on():
    r = Rig()
    place(r.m.play, NTAG)
    for bad in ("dcs", "lcs", "start", "nack", "error"):
        r.m.play.corrupt = bad
        r.spin(60)
    r.spin(100)
    info = r.board.info()
    assert info["reader_errors"][0] >= 5, info
    assert info["up"] == [True, True] and info["faults"] == 0
    assert r.take() == [(IN_PAD, NTAG)]  # errors are neither a card nor "no card"


def test_failed_reads_while_a_card_rests_are_not_no_card():
    # a marginal card: its reads fail for longer than GONE_MS, then one poll misses it
    for kind, bad in (("pn532", "dcs"), ("mfrc522", "parity")):
        r = Rig(play=kind)
        place(r.m.play, NTAG)
        r.spin(100)
        for _ in range((esp32.GONE_MS + 100) // 5):
            r.m.play.corrupt = bad
            r.spin(5)
        r.m.play.corrupt = None
        place(r.m.play, None)
        r.spin(40)
        place(r.m.play, NTAG)
        r.spin(100)
        assert r.take() == [(IN_PAD, NTAG)], kind
        assert r.board.info()["reader_errors"][0] >= 3


def test_two_cards_then_one_put_back_at_once_is_no_new_read():
    r = Rig()
    place(r.m.play, NTAG)
    r.spin(100)
    r.m.play.field = [NTAG, NTAG2]
    r.spin(esp32.GONE_MS + 100)
    place(r.m.play, None)  # both lifted, the first one laid back a moment later
    r.spin(40)
    place(r.m.play, NTAG)
    r.spin(100)
    assert r.take() == [(IN_PAD, NTAG)]


def test_mfrc522_bad_frames_are_counted_too():
    r = Rig(play="mfrc522")
    place(r.m.play, NTAG)
    r.m.play.corrupt = "bcc"
    r.spin(100)
    assert r.board.info()["reader_errors"][0] >= 1
    assert r.take() == [(IN_PAD, NTAG)]


def test_a_silent_reader_is_brought_up_again():
    r = Rig()
    r.m.play.silent = True
    r.spin(esp32.POLL_LIMIT_MS * esp32.REINIT_AFTER + 100)
    info = r.board.info()
    assert info["up"][0] is False and info["reader_errors"][0] == esp32.REINIT_AFTER
    r.m.play.silent = False
    r.spin(esp32.RETRY_MS + 100)
    info = r.board.info()
    assert info["up"][0] is True and info["reinits"][0] >= 2, info
    place(r.m.play, NTAG)
    r.spin(50)
    assert r.take() == [(IN_PAD, NTAG)]


def test_a_missing_reader_leaves_the_other_working():
    r = Rig(draw=None)
    info = r.board.info()
    assert info["readers"] == ["pn532", "pn532"] and info["up"] == [True, False]
    place(r.m.play, NTAG)
    r.spin(esp32.RETRY_MS + 100)
    assert r.take() == [(IN_PAD, NTAG)]
    assert r.board.info()["reinits"][1] >= 1  # tried again, quietly
    assert r.board.faults == 0


# -- bring-up, the boot report, error codes (issue 9) --

def colour_leds(r):
    return [r.m.Pin.gpio[n].level for n in r.m.chip.COLOUR_LEDS]


def test_the_boot_report_names_each_readers_part_firmware_and_irq_mode():
    r = Rig(play="pn532", draw="mfrc522")
    assert r.board.report == ["PLAY pad: PN532 v1.6, IRQ pin", "DRAW shoe: MFRC522 v2.0, IRQ pin"]
    assert r.said == ["board: " + line for line in r.board.report]  # on the serial
    info = r.board.info()
    assert info["readers"] == ["pn532", "mfrc522"] and info["versions"] == ["1.6", "2.0"]
    assert info["irq"] == ["pin", "pin"] and info["alerts"] == []


def test_an_irq_line_that_never_goes_low_is_said_at_boot():
    def unwired(m):
        m.draw.irq_wired = False
    r = Rig(setup=unwired)
    rep = r.board.report
    assert "IRQ not used: status polled (IRQ never went low)" in rep[1], rep
    assert rep[2] == "DRAW shoe: E42 SHOE IRQ OFF"
    assert r.board.info()["irq"] == ["pin", "status"] and r.board.info()["alerts"] == []
    place(r.m.draw, NTAG)  # and the shoe still reads
    r.spin(100)
    assert r.take() == [(IN_SHOE, NTAG)]


def test_the_pin_map_names_the_part_a_waking_pn532_is_never_an_mfrc522():
    def slow(m):
        m.play.waking = 3  # answers AA AA .. for its first transfers
    r = Rig(setup=slow)
    info = r.board.info()
    assert info["up"] == [True, True] and info["readers"] == ["pn532", "pn532"]
    assert r.board.play.why is not None  # the first try failed; a later boot try found it
    place(r.m.play, NTAG)
    r.spin(100)
    assert r.take() == [(IN_PAD, NTAG)]


def test_an_empty_socket_is_never_an_mfrc522_whatever_miso_floats_to():
    for levels in ((0xFF,), (0x00,), (0xAA,), (0x12, 0x00, 0x37, 0x91, 0xB2)):
        def floating(m):
            kit.plug(m, "draw", kit.fakebus.Floating(kit.fakebus.Bus(), levels))
        r = Rig(draw="mfrc522", setup=floating)
        assert r.board.info()["up"] == [True, False], levels
        assert r.board.alerts == [esp32.faults.SHOE_READER]


def test_a_missing_reader_shows_its_code():
    r = Rig(draw=None)
    b = r.board
    assert b.alerts == [esp32.faults.SHOE_READER]
    assert "E12 SHOE READER: no PN532 answers" in b.report[1]
    assert r.m.pwm.sounding() == tunes.FAULT[0][0]  # the fault pattern plays at boot
    r.spin(20)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[1]  # E12: seat 2 lit ...
    seen = set()
    for _ in range(8):
        r.spin(130)
        b.leds.step(r.clock())  # the LED task's step
        seen.add(colour_leds(r)[0])
    assert seen == {0, 1}  # ... red blinking
    b.leds.show(turn=5)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[1]  # the code stays over it
    r.spin(esp32.FAULT_MS)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[4]  # then the table is back
    assert b.alerts == [esp32.faults.SHOE_READER]  # the note stays while the reader is missing
    kit.plug(r.m, "draw")  # the reader is plugged in
    r.spin(esp32.RETRY_MS + 50)
    assert b.info()["up"] == [True, True] and b.alerts == []


def test_two_cards_at_the_pad_are_refused_by_the_board_itself():
    r = Rig()
    r.spin(20)
    r.m.play.field = [NTAG, NTAG2]
    r.spin(60)
    b = r.board
    assert r.take() == []  # no input: nothing for the rules to judge
    assert b.alerts == [esp32.faults.PAD_TWO_CARDS] and b.info()["two_cards"][0] >= 1
    assert r.m.pwm.sounding() in (tunes.REJECTED[0][0], tunes.REJECTED[1][0])
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[0]  # E21: seat 1, yellow blinks
    r.spin(esp32.FAULT_MS + 100)  # as long as the cards are there
    assert b.alerts == [esp32.faults.PAD_TWO_CARDS]
    assert b.info()["reader_errors"] == [0, 0]  # not a reader fault
    r.m.play.field = [NTAG2]  # one taken away: the other is read, once
    r.spin(60)
    assert r.take() == [(IN_PAD, NTAG2)] and b.alerts == []
    b.leds.show(turn=2)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[1]


def test_an_mfrc522_without_supply_is_a_missing_reader_not_two_cards():
    # its MISO floats high: every register reads FF, ErrorReg's CollErr bit included (its IRQ
    # line is not used, E41: the status register is polled; a pulled-up IRQ pin just stays high)
    r = Rig(play="mfrc522", setup=lambda m: setattr(m.play, "irq_wired", False))
    b = r.board
    assert b.info()["irq"][0] == "status"
    place(r.m.play, NTAG)
    r.spin(100)
    assert r.take() == [(IN_PAD, NTAG)]
    r.m.play.power(False)
    r.spin(500)
    assert b.info()["two_cards"] == [0, 0]
    assert b.alerts == [esp32.faults.PAD_READER] and b.info()["up"][0] is False
    r.m.play.power(True)  # back, from its reset values: brought up again, then read
    r.spin(esp32.RETRY_MS + 100)
    assert b.info()["up"][0] is True and b.alerts == []
    assert r.take() == []  # the card never left: still the one read
    place(r.m.play, None)
    r.spin(esp32.GONE_MS + 50)
    place(r.m.play, NTAG)
    r.spin(100)
    assert r.take() == [(IN_PAD, NTAG)]


def test_two_cards_in_an_mfrc522_shoe_too():
    r = Rig(draw="mfrc522")
    r.spin(20)
    r.m.draw.field = [kit.fakebus.Tag(NTAG), kit.fakebus.Tag(NTAG2)]
    r.spin(100)
    assert r.take() == [] and r.board.alerts == [esp32.faults.SHOE_TWO_CARDS]
    r.m.draw.field = [kit.fakebus.Tag(NTAG)]
    r.spin(100)
    assert r.take() == [(IN_SHOE, NTAG)] and r.board.alerts == []


def test_a_missing_button_expander_shows_its_code():
    def unplug(m):
        del m.i2c.devices[pins.BUTTONS_ADDR]
    r = Rig(setup=unplug)
    assert r.board.alerts == [esp32.faults.BUTTONS_I2C]
    assert "E31 BUTTONS I2C" in r.board.report


def test_expanders_missing_at_boot_are_set_up_when_they_answer():
    keep = {}

    def unplug(m):
        keep[pins.BUTTONS_ADDR] = m.i2c.devices.pop(pins.BUTTONS_ADDR)
        keep[pins.LEDS_ADDR] = m.i2c.devices.pop(pins.LEDS_ADDR)
    r = Rig(setup=unplug)
    assert r.board.alerts == [esp32.faults.BUTTONS_I2C, esp32.faults.LEDS_I2C]
    r.board.leds.show(turn=2)
    r.spin(1000)
    for addr in keep:
        r.m.i2c.attach(keep[addr], addr)
    r.spin(esp32.I2C_RETRY_MAX_MS + 10)
    assert r.board.alerts == []
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[1]
    r.press(pins.SEAT_BUTTON_BITS[4])
    r.spin(60)
    r.release(pins.SEAT_BUTTON_BITS[4])
    r.spin(60)
    assert r.take() == [(IN_SEAT, 5, 0)]


def test_table_id_is_8_bytes_from_the_chip_id():
    r = Rig()
    tid = r.board.table_id()
    assert len(tid) == 8 and tid == r.board.table_id()
    r2 = Rig()
    r2.m.uid = b"\x24\x6f\x28\x1a\x2b\x3d"
    assert r2.board.table_id() != tid and len(r2.board.table_id()) == 8
    r2.m.uid = b"12345678"
    assert r2.board.table_id() == b"12345678"


def test_the_boot_report_holds_the_display_then_the_table_shows():
    if not MICROPYTHON:
        return skip('MicroPython only (make test-mp): framebuf')
    r = Rig(display=True, draw=None)
    d = r.board.display
    assert d.hold and d.oled._rows[0][0].startswith("PAD  PN532 1.6")
    assert d.oled._rows[3][0] == " E12 SHOE READER"
    assert d.oled._rows[7][0].startswith("E12 SHOE READER")
    d.show_table(1, 1, 3, 0, {1: 0, 2: 0})
    assert d.oled._rows[0][0].startswith("PAD")  # still the report
    r.spin(esp32.BOOT_SCREEN_MS + 10)
    assert not d.hold and d.oled._rows[0][0].startswith("YELLOW")
    assert d.oled._rows[1][0].startswith("turn 3") and d.oled._rows[7][0].startswith("E12")
    assert r.m.oled.frames == 1  # one whole frame, at power-up


# -- buttons and the shuffle sensor --

def test_seat_button_short_and_long_press():
    r = Rig()
    r.spin(20)
    bit = pins.SEAT_BUTTON_BITS[3]  # seat 4
    r.press(bit)
    r.spin(100)
    r.release(bit)
    r.spin(50)
    assert r.take() == [(IN_SEAT, 4, 0)]
    bit = pins.SEAT_BUTTON_BITS[9]  # seat 10, on port B
    r.press(bit)
    r.spin(1000)
    assert r.take() == [(IN_SEAT, 10, 1)]  # fired while still held
    r.release(bit)
    r.spin(50)
    assert r.take() == []


def test_colour_buttons():
    r = Rig()
    r.spin(20)
    for c in range(4):
        bit = pins.COLOUR_BUTTON_BITS[c]
        r.press(bit)
        r.spin(60)
        r.release(bit)
        r.spin(60)
    bit = pins.COLOUR_BUTTON_BITS[2]
    r.press(bit)
    r.spin(1000)
    r.release(bit)
    r.spin(50)
    assert r.take() == [(IN_COLOUR, 0, 0), (IN_COLOUR, 1, 0), (IN_COLOUR, 2, 0),
                        (IN_COLOUR, 3, 0), (IN_COLOUR, 2, 1)]


def test_shuffle_sensor_short_or_long_is_one_shuffle():
    r = Rig()
    r.spin(20)
    r.m.shuffle.value(0)
    r.spin(80)
    r.m.shuffle.value(1)
    r.spin(50)
    assert r.take() == [(IN_SHUFFLE,)]
    r.m.shuffle.value(0)  # a pile left on the sensor
    r.spin(3000)
    r.m.shuffle.value(1)
    r.spin(50)
    assert r.take() == [(IN_SHUFFLE,)]


def test_an_i2c_fault_is_counted_and_the_expander_set_up_again():
    r = Rig()
    r.spin(20)
    i2c = r.m.i2c
    del i2c.devices[pins.BUTTONS_ADDR]  # the expander drops off the bus
    r.spin(100)
    assert r.take() == [] and r.board.info()["i2c_errors"] > 0
    fresh = kit.boardfakes.MCP23017Regs()  # back, in its power-on state (pull-ups off)
    fresh.floating = 0xFFFF
    i2c.attach(fresh, pins.BUTTONS_ADDR)
    r.m.buttons = fresh
    r.spin(20)
    assert fresh.gppu() == pins.BUTTON_MASK and fresh.iodir() == pins.BUTTON_MASK
    r.press(pins.SEAT_BUTTON_BITS[0])
    r.spin(60)
    r.release(pins.SEAT_BUTTON_BITS[0])
    r.spin(60)
    assert r.take() == [(IN_SEAT, 1, 0)]
    assert r.board.faults == 0


def test_an_expander_reset_mid_game_is_set_up_again_and_presses_nothing():
    r = Rig()
    r.spin(20)
    r.m.buttons.reset()  # a brown-out or a glitch on RESET: pull-ups off, the buttons float
    r.spin(3000)
    assert r.take() == []
    assert r.m.buttons.gppu() == pins.BUTTON_MASK and r.board.info()["i2c_errors"] == 1
    assert r.board.alerts == []  # got over at once: counted, not shown
    r.press(pins.SEAT_BUTTON_BITS[2])
    r.spin(60)
    r.release(pins.SEAT_BUTTON_BITS[2])
    r.spin(60)
    assert r.take() == [(IN_SEAT, 3, 0)]


def test_a_press_held_when_the_bus_fails_is_no_long_press():
    r = Rig()
    r.spin(20)
    bit = pins.SEAT_BUTTON_BITS[2]
    r.press(bit)
    r.spin(100)
    for err in (kit.boardfakes.ETIMEDOUT, kit.boardfakes.ENODEV):
        r.m.i2c.error = err  # the bus stops answering ...
        r.spin(200)
        r.release(bit)       # ... while the player lets go after a short press
        r.spin(1500)
        r.m.i2c.error = 0
        r.spin(esp32.I2C_RETRY_MAX_MS + 10)
        assert r.take() == []  # neither a long press (leave, sum win) nor a short one
        r.press(bit)
        r.spin(100)
    r.release(bit)
    r.spin(50)
    assert r.take() == [(IN_SEAT, 3, 0)]


def test_garbage_from_the_bus_presses_nothing():
    r = Rig()
    r.spin(20)
    for g in (0x00, -1, 0xFF):
        r.m.i2c.garbage = g  # reads ACK and bring levels nobody drove
        r.spin(300)
        r.m.i2c.garbage = None
        r.spin(300)
    assert r.take() == []
    assert r.board.faults == 0


def test_a_lost_button_expander_shows_its_code_mid_game_and_clears_it():
    r = Rig()
    r.spin(20)
    dev = r.m.i2c.devices.pop(pins.BUTTONS_ADDR)
    r.spin(esp32.I2C_ALERT_MS - 20)
    assert r.board.alerts == []  # a glitch is not a fault yet
    r.spin(40)
    assert r.board.alerts == [esp32.faults.BUTTONS_I2C]
    assert r.board.leds._alert is not None
    r.m.i2c.attach(dev, pins.BUTTONS_ADDR)
    r.spin(200)
    assert r.board.alerts == []
    r.m.shuffle.value(0)  # the shuffle sensor worked throughout
    r.spin(60)
    r.m.shuffle.value(1)
    r.spin(60)
    assert r.take() == [(IN_SHUFFLE,)]


def test_the_shuffle_sensor_works_while_the_button_expander_is_gone():
    r = Rig()
    r.spin(20)
    del r.m.i2c.devices[pins.BUTTONS_ADDR]
    r.spin(1000)
    r.m.shuffle.value(0)
    r.spin(60)
    r.m.shuffle.value(1)
    r.spin(60)
    assert r.take() == [(IN_SHUFFLE,)]


def test_a_stuck_bus_is_tried_less_and_less_often():
    r = Rig()
    r.spin(20)
    r.m.i2c.error = kit.boardfakes.ETIMEDOUT  # each attempt: the port's 50 ms timeout
    n0 = r.m.i2c.transactions
    r.spin(10000)
    tries = r.m.i2c.transactions - n0
    assert tries <= 30, tries  # both expanders: 100 ms, 200, ... then every 2 s
    assert r.board.alerts == [esp32.faults.BUTTONS_I2C, esp32.faults.LEDS_I2C]
    r.m.i2c.error = 0
    r.spin(esp32.I2C_RETRY_MAX_MS + 10)
    assert r.board.alerts == [] and not r.board.buttons.lost and not r.board.seat_leds.lost


def test_a_stuck_button_is_shown_and_the_others_go_on():
    r = Rig()
    r.spin(20)
    bit = pins.SEAT_BUTTON_BITS[3]
    r.press(bit)  # something resting on seat 4
    r.spin(esp32.STUCK_MS + 1100, step=20)
    assert r.take() == [(IN_SEAT, 4, 1)]  # its one long press, as for any held button
    assert r.board.alerts == [esp32.faults.BUTTON_STUCK]
    assert r.board.info()["stuck"] == ["seat 4"]
    c = pins.COLOUR_BUTTON_BITS[1]
    r.press(c)
    r.spin(60)
    r.release(c)
    r.spin(60)
    assert r.take() == [(IN_COLOUR, 1, 0)]
    r.release(bit)
    r.spin(1100)
    assert r.board.alerts == [] and r.board.info()["stuck"] == [] and r.take() == []


def test_a_stuck_button_is_shown_while_the_seat_leds_are_gone_too():
    r = Rig()
    r.spin(20)
    del r.m.i2c.devices[pins.LEDS_ADDR]
    r.press(pins.SEAT_BUTTON_BITS[0])
    r.spin(esp32.STUCK_MS + 1100, step=20)
    assert r.board.alerts == [esp32.faults.LEDS_I2C, esp32.faults.BUTTON_STUCK]


def test_an_expander_whose_inputs_flip_polarity_is_set_up_again():
    r = Rig()
    r.spin(20)
    r.m.buttons.r[0x02] = r.m.buttons.r[0x03] = 0xFF  # IPOL: ESD, or a write gone astray
    r.spin(esp32.I2C_CHECK_MS + 20)
    assert r.m.buttons.r[0x02] == r.m.buttons.r[0x03] == 0
    assert r.board.info()["i2c_errors"] == 1
    r.spin(2000)
    assert r.take() == []  # every button read as down meanwhile: no press came of it


def test_a_button_stuck_at_power_up_is_shown_and_a_pile_on_the_shuffle_sensor_is_not():
    def stuck(m):
        m.buttons.press(pins.COLOUR_BUTTON_BITS[3])
        m.shuffle.value(0)
    r = Rig(setup=stuck)
    r.spin(esp32.STUCK_MS + 1100, step=20)
    assert r.take() == [] and r.board.alerts == [esp32.faults.BUTTON_STUCK]
    assert r.board.info()["stuck"] == ["colour 3"]


def test_seat_leds_are_set_up_again_after_a_reset():
    r = Rig()
    r.spin(20)
    r.board.leds.show(turn=3)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[2]
    r.m.seat_leds.reset()  # outputs back to inputs: dark, and no write fails
    r.spin(esp32.I2C_CHECK_MS + 20)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[2]


def test_a_seat_led_write_that_fails_is_sent_when_the_expander_answers():
    r = Rig()
    r.spin(20)
    dev = r.m.i2c.devices.pop(pins.LEDS_ADDR)
    r.board.leds.show(turn=3)
    r.spin(50)
    r.m.i2c.attach(dev, pins.LEDS_ADDR)
    r.spin(200)
    assert r.m.seat_leds.outputs() == 1 << pins.SEAT_LED_BITS[2]
    assert r.board.alerts == []


# -- time, watchdog, outputs, pin map --

def test_now_never_goes_backwards_across_a_ticks_wrap():
    r = Rig(t0=kit.PERIOD - 100)
    b = r.board
    last = b.now()
    for i in range(60):
        r.clock.add(7)
        if i % 3 == 0:
            b.poll_once(r.clock())
        t = b.now()
        assert t == last + 7, (i, t, last)
        last = t
    assert r.clock() < 400  # the ticks did wrap
    b.poll_once((r.clock() - 50) % kit.PERIOD)  # a stale ticks value does not turn it back
    assert b.now() == last


def test_watchdog_starts_at_the_first_feed_and_needs_a_live_input_loop():
    r = Rig()
    b = r.board
    assert r.m.wdt is None
    b.feed_dog()
    assert r.m.wdt.timeout == esp32.WDT_MS and r.m.wdt.feeds == 1
    r.spin(20)
    b.feed_dog()
    assert r.m.wdt.feeds == 2
    r.clock.add(esp32.BEAT_MS + 100)  # the input loop stopped
    b.feed_dog()
    assert r.m.wdt.feeds == 2
    r.spin(5)
    b.feed_dog()
    assert r.m.wdt.feeds == 3
    b.stop()  # Ctrl-C: a timer keeps the REPL alive
    assert len(r.m.timers) == 1 and r.m.timers[0].period < esp32.WDT_MS
    r.m.timers[0].fire()
    assert r.m.wdt.feeds == 4


def test_after_a_crash_the_outputs_go_quiet_and_the_dog_starves():
    r = Rig()
    b = r.board
    r.spin(20)
    b.feed_dog()
    b.buzzer.play(tunes.ROUND_OVER, b.ticks())
    b.leds.show(turn=2)
    b.stop(keep_dog=False)
    assert r.m.pwm.sounding() == 0 and r.m.seat_leds.outputs() == 0
    r.spin(20)
    b.feed_dog()
    assert r.m.wdt.feeds == 1 and r.m.timers == []  # the watchdog will reset the board


def test_main_reads_the_deck_registry():
    import logkit
    import main
    from uno.cards import NCARDS, synthetic_registry
    d = logkit.fresh()
    main.prepare_log(d)
    main.prepare_log(d)  # already there: fine
    path = d + "/deck.bin"
    assert main.load_registry(path) is None  # no deck enrolled: the synthetic registry
    uids = [bytes((4, i // 256, i % 256, 7, 7, 7, 7)) for i in range(NCARDS - 1)] + [MIFARE]
    blob = bytearray()
    for u in uids:
        blob += bytes((len(u),)) + u + bytes(10 - len(u))
    with open(path, "wb") as f:
        f.write(blob)
    reg = main.load_registry(path)
    assert reg.card(uids[5]) == 5 and reg.card(MIFARE) == NCARDS - 1 and reg.card(NTAG) == -1
    with open(path, "wb") as f:  # the host pushes a registry's own blob: read back the same
        f.write(synthetic_registry().blob)
    assert main.load_registry(path).blob == synthetic_registry().blob
    with open(path, "wb") as f:
        f.write(blob[:-11])  # a short file is ignored, not a crash
    assert main.load_registry(path) is None


def test_holding_shuffle_at_power_up_skips_the_app():
    import main
    for chip in (pins.ESP32, pins.ESP32S3):
        m = kit.Machine(chip=chip)
        assert main.skip_requested(m, m.chip) is False
        m.shuffle.value(0)  # held
        assert main.skip_requested(m, m.chip) is True
        assert main.main(log="/nonexistent-dir/log", hw=m, chip=m.chip) is None
        assert m.wdt is None and m.spi_args is None  # no board built, no watchdog
        P = m.Pin
        assert P.modes[chip.SHUFFLE] == ((P.IN, P.PULL_UP) if chip.SHUFFLE_PULLUP else (P.IN, -1))
    m = kit.Machine()
    flicker = [0, 0, 1, 0, 0]  # a bounce, not a hold
    m.shuffle.value = lambda *v: flicker.pop(0) if flicker else 1
    assert main.skip_requested(m, m.chip) is False
    assert main.skip_requested() is False  # no pin map here (the unix port, CPython)


def test_main_builds_the_board_when_shuffle_is_not_held():
    import main
    m = kit.Machine()
    crashes = []
    hub = main.main(log="/nonexistent-dir/a/log", deck="/nonexistent-dir/deck.bin", hw=m,
                    chip=m.chip, crash=crashes.append)
    assert m.spi_args is not None  # the board was built (then the log failed: a crash)
    assert hub is not None and hub.table is None
    assert len(crashes) == 1 and isinstance(crashes[0], OSError)


def test_main_reports_a_crash_and_returns():
    import main
    r = Rig()
    r.board.buzzer.play(tunes.ROUND_OVER, r.board.ticks())
    crashes = []
    hub = main.main(r.board, log="/nonexistent-dir/a/log", deck="/nonexistent-dir/deck.bin",
                    crash=crashes.append)
    assert hub is not None and hub.table is None  # the log could not be read: start() failed
    assert len(crashes) == 1 and isinstance(crashes[0], OSError)
    assert r.m.pwm.sounding() == 0 and r.m.timers == []  # quiet; the watchdog may reset us


def _play_a_card_then_ctrl_c(log_flash=None):
    # main.main on a board built on fakes: a card on the pad, then Ctrl-C at the 30th poll.
    import logkit
    import main
    d = logkit.fresh()
    m = kit.Machine()
    b = esp32.Esp32Board(hw=m, chip=m.chip, say=len)
    if log_flash:
        b.log_flash = log_flash
    place(m.play, NTAG)
    polls = [0]
    poll = b.poll_once

    def poll_then_ctrl_c(t):
        polls[0] += 1
        if polls[0] == 30:
            raise KeyboardInterrupt  # as Ctrl-C arrives in whatever code runs
        poll(t)

    b.poll_once = poll_then_ctrl_c
    return m, b, main.main(b, log=d, deck=d + "/deck.bin")


def test_main_runs_the_table_and_ctrl_c_returns_to_the_repl():
    if not MICROPYTHON:
        return skip("MicroPython only (make test-mp): the hub's tasks need its asyncio")
    m, b, hub = _play_a_card_then_ctrl_c()
    assert hub.seq == 1  # the card read went into the log before Ctrl-C
    assert m.wdt is not None and len(m.timers) == 1  # the REPL keeps the watchdog fed
    assert b.info()["faults"] == 0


def test_buzzer_leds_and_display():
    r = Rig()
    b = r.board
    assert b.display is None  # no panel on the bus
    b.buzzer.play(tunes.ACCEPTED, b.ticks())
    assert r.m.pwm.sounding() == tunes.ACCEPTED[0][0]
    b.buzzer.step(b.ticks() + 100)
    assert r.m.pwm.sounding() == 0
    b.leds.show(turn=3, owing=(5,), colour=2)
    out = r.m.seat_leds.outputs()
    assert out == 1 << pins.SEAT_LED_BITS[2] | 1 << pins.SEAT_LED_BITS[4]
    lit = [r.m.Pin.gpio[n].level for n in r.m.chip.COLOUR_LEDS]
    assert lit == [0, 0, 1, 0]
    d = Rig(display=True)
    if MICROPYTHON:  # framebuf: the panel is found and takes the hub's call
        d.board.display.show_table(1, -1, 2, 4, {1: 10, 2: 0})
        assert d.m.oled.frames == 1
    else:
        assert d.board.display is None


def test_pins_and_buses_come_from_the_pin_map():
    for chip in (pins.ESP32, pins.ESP32S3):
        r = Rig(chip=chip)
        assert r.board.info()["name"] == chip.MCU.lower()
        assert r.m.chip.PLAY_CS == chip.PLAY_CS
        assert r.m.spi_args == (chip.SPI_ID, chip.SPI_BAUDRATE, 0, 0)
        assert r.m.i2c_args == (chip.I2C_ID, chip.I2C_FREQ)
        P = r.m.Pin
        assert P.modes[chip.SHUFFLE] == ((P.IN, P.PULL_UP) if chip.SHUFFLE_PULLUP else (P.IN, -1))
        assert P.modes[chip.PLAY_CS][0] == P.OUT and P.gpio[chip.READER_RST].level == 1


def test_the_hub_runs_on_the_board():
    import logkit
    from gamelog import Log
    from hub.app import Hub
    r = Rig(display=True)
    hub = Hub(r.board, Log(logkit.fresh()))
    hub.start()
    r.board.attach(hub.inbox.put)
    r.spin(20)
    r.press(pins.SEAT_BUTTON_BITS[0])
    r.spin(60)
    r.release(pins.SEAT_BUTTON_BITS[0])
    r.spin(60)
    assert hub.inbox.items == [(IN_SEAT, 1, 0)]
    hub.feed(hub.inbox.items.pop(0))
    assert hub.tune is tunes.ACCEPTED and r.m.pwm.sounding() == tunes.ACCEPTED[0][0]
    assert hub.status()["board"]["name"] == "esp32"


def test_run_under_micropython():
    if not MICROPYTHON:
        return skip("MicroPython only (make test-mp): the buzzer and LED tasks need sleep_ms")
    import asyncio
    m = kit.Machine()
    b = esp32.Esp32Board(hw=m, chip=m.chip, say=len)  # the real ticks clock
    got = []
    place(m.play, NTAG)

    async def go():
        task = asyncio.create_task(b.run(got.append))
        await asyncio.sleep_ms(150)
        task.cancel()

    asyncio.run(go())
    asyncio.new_event_loop()
    assert got == [(IN_PAD, NTAG)]
    assert b.info()["faults"] == 0


def test_the_log_goes_on_the_raw_partition_when_the_board_has_one():
    import logkit
    from gamelog import Log
    from gamelog.nor import Nor
    from gamelog.ring import RingLog
    from hub.app import open_log
    m = kit.Machine()
    b = esp32.Esp32Board(hw=m, chip=m.chip, say=len)
    assert b.log_flash() is None                 # no esp32 module here: littlefs files
    d = logkit.fresh()
    lg = open_log(d, b)
    assert type(lg) is Log and lg.table_id == b.table_id()
    nor = Nor(16)
    b.log_flash = lambda: nor                    # as esp32.Partition.find(..., "unolog")[0]
    lg = open_log(d, b)
    assert isinstance(lg, RingLog) and lg.table_id == b.table_id()


def test_main_logs_on_the_ring_and_an_input_never_waits_for_an_erase():
    if not MICROPYTHON:
        return skip("MicroPython only (make test-mp): the hub's tasks need its asyncio")
    from gamelog.nor import Nor
    from gamelog.ring import RingLog
    nor = Nor(16)
    m, b, hub = _play_a_card_then_ctrl_c(lambda: nor)
    assert isinstance(hub.log, RingLog) and hub.seq == 1
    assert hub.log.late == 0                     # the append found its bytes erased ahead


def test_the_links_status_says_each_readers_health():
    """Issue 12: the scoreboard's referee queue reads reader faults from `status`."""
    import logkit
    from hub.app import Hub
    from hub.handler import LinkHandler
    r = Rig(draw=None)
    place(r.m.play, NTAG)
    for bad in ("dcs", "lcs"):
        r.m.play.corrupt = bad
        r.spin(60)
    h = Hub(r.board, logkit.log(logkit.fresh()))
    h.start()
    s = LinkHandler(h).status()
    assert s["readers"][1] == [0, 0, 0] and s["readers"][0][0] == 1, s["readers"]
    assert s["readers"][0][1] >= 2 and s["readers"][0][2] == 0
