"""hardware/pins.json -> firmware/board/pins.py: up to date, only usable pins, and the only
place in the firmware where pin numbers live."""
import os
import re
import sys

from check import raises

_parts = __file__.replace("\\", "/").split("/")
ROOT = "/".join(_parts[:-3]) or "."
if ROOT + "/tools" not in sys.path:
    sys.path.append(ROOT + "/tools")
import gen_pins  # noqa: E402

from board import pins  # noqa: E402


def spec():
    return gen_pins.load(ROOT + "/" + gen_pins.JSON)


def test_pins_py_is_generated_from_pins_json():
    with open(ROOT + "/" + gen_pins.OUT) as f:
        text = f.read()
    assert text == gen_pins.render(spec()), "stale: run python tools/gen_pins.py"


def test_the_generated_module_carries_the_map():
    s = spec()
    e = s["boards"]["esp32"]
    assert pins.ESP32.SPI_SCK == e["spi"]["sck"] and pins.ESP32.PLAY_CS == e["play"]["cs"]
    assert pins.ESP32S3.DRAW_IRQ == s["boards"]["esp32s3"]["draw"]["irq"]
    assert len(pins.SEAT_BUTTON_BITS) == 10 and len(pins.SEAT_LED_BITS) == 10
    assert len(pins.COLOUR_BUTTON_BITS) == 4 and len(pins.ESP32.COLOUR_LEDS) == 4
    m = 0
    for b in pins.SEAT_BUTTON_BITS + pins.COLOUR_BUTTON_BITS:
        m |= 1 << b
    assert m == pins.BUTTON_MASK
    assert pins.BUTTONS_ADDR != pins.LEDS_ADDR


def test_board_is_told_by_the_mcu_name():
    assert pins.board("Generic ESP32 module with ESP32") is pins.ESP32
    assert pins.board("ESP32 module (spiram) with ESP32") is pins.ESP32
    assert pins.board("ESP32S3 module with ESP32S3") is pins.ESP32S3
    assert pins.board("Generic ESP32S3 module with Octal-SPIRAM with ESP32S3") is pins.ESP32S3
    assert pins.board("ESP32C3 module with ESP32C3") is None
    assert pins.board("linux [GCC 14.2.1] version") is None


def _broken(edit):
    s = spec()
    edit(s)
    return raises(gen_pins.PinMapError, gen_pins.check_map, s)


def test_map_rejects_pins_a_board_cannot_give():
    def flash(s):
        s["boards"]["esp32"]["play"]["cs"] = 7

    def strap(s):
        s["boards"]["esp32"]["buzzer"] = 12

    def input_only_out(s):
        s["boards"]["esp32"]["colour_leds"]["R"] = 34

    def twice(s):
        s["boards"]["esp32s3"]["draw"]["cs"] = s["boards"]["esp32s3"]["play"]["cs"]

    def s3_psram(s):
        s["boards"]["esp32s3"]["reader_rst"] = 35

    def s3_usb(s):
        s["boards"]["esp32s3"]["spi"]["mosi"] = 20

    def no_pullup(s):
        s["boards"]["esp32"]["shuffle"]["pull"] = "internal"

    def gpa7_button(s):
        s["i2c_devices"]["buttons"]["seat"][0] = "GPA7"

    def same_addr(s):
        s["i2c_devices"]["leds"]["addr"] = s["i2c_devices"]["buttons"]["addr"]

    cases = ((flash, "flash"), (strap, "strapping"), (input_only_out, "input-only"),
             (twice, "also used"), (s3_psram, "PSRAM"), (s3_usb, "USB"),
             (no_pullup, "pull-up"), (gpa7_button, "output only"), (same_addr, "twice"))
    for edit, why in cases:
        e = _broken(edit)
        assert why in str(e), (why, str(e))


def test_each_reader_position_names_its_part():
    s = spec()
    for key in ("esp32", "esp32s3"):
        for pos in ("play", "draw"):
            assert s["boards"][key][pos]["part"] in gen_pins.PARTS
    for chip in (pins.ESP32, pins.ESP32S3):
        assert chip.PLAY_READER in gen_pins.PARTS and chip.DRAW_READER in gen_pins.PARTS
        assert chip.PLAY_GAIN == 0x70 and chip.DRAW_GAIN == 0x70  # 48 dB unless pins.json says

    def missing(s):
        del s["boards"]["esp32"]["play"]["part"]

    def auto(s):
        s["boards"]["esp32s3"]["draw"]["part"] = "auto"

    def gain_range(s):
        s["boards"]["esp32"]["draw"]["part"] = "mfrc522"
        s["boards"]["esp32"]["draw"]["gain"] = 8

    def gain_pn532(s):
        s["boards"]["esp32"]["play"]["gain"] = 4

    for edit, why in ((missing, "nothing is probed"), (auto, "nothing is probed"),
                      (gain_range, "0..7"), (gain_pn532, "only an MFRC522")):
        e = _broken(edit)
        assert why in str(e), (why, str(e))
    s = spec()
    s["boards"]["esp32"]["draw"]["part"] = "mfrc522"
    s["boards"]["esp32"]["draw"]["gain"] = 4
    text = gen_pins.render(s)
    assert 'DRAW_READER = "mfrc522"' in text and "DRAW_GAIN = 0x40" in text


def _py_files(d, out):
    for name in os.listdir(d):
        p = d + "/" + name
        if name.endswith(".py"):
            out.append(p)
        elif "." not in name and name != "__pycache__":
            try:
                _py_files(p, out)
            except OSError:
                pass
    return out


def test_the_pin_number_scan_sees_pin_numbers():
    pat = _pin_number()
    for bad in ("cs = Pin(5, Pin.OUT)", "Signal( 26, invert=True)", "SPI(2, sck=Pin(18))",
                "SoftI2C(scl=22, sda =21)"):
        assert pat.search(bad), bad
    for ok in ("Pin(b.PLAY_CS, Pin.OUT)", "SPI(b.SPI_ID, sck=Pin(b.SPI_SCK))", "x = pins(0)"):
        assert not pat.search(ok), ok


def _pin_number():
    return re.compile(r"(Pin|Signal)\(\s*\d|(sck|mosi|miso|scl|sda)\s*=\s*\d")


def test_no_pin_numbers_elsewhere_in_the_firmware():
    pat = _pin_number()
    files = _py_files(ROOT + "/firmware", [])
    assert [p for p in files if p.endswith("board/pn532.py")]
    for p in files:
        if p.endswith("board/pins.py"):
            continue
        with open(p) as f:
            n = 0
            while True:
                line = f.readline()  # line by line: fits a small heap
                if not line:
                    break
                n += 1
                code = line.split("#")[0]
                assert not pat.search(code), "%s:%d hard-codes a pin: %s" % (p, n, line)
