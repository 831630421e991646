"""Generate firmware/board/pins.py from hardware/pins.json, refusing pins a board cannot use.

    python tools/gen_pins.py            write firmware/board/pins.py
    python tools/gen_pins.py --check    exit 1 if pins.py is missing or stale (CI)

render() and check_map() also run under MicroPython (tests/drivers/test_pins.py imports them),
so this file sticks to what both interpreters have and never relies on dict order.
"""
import json
import sys

JSON = "hardware/pins.json"
OUT = "firmware/board/pins.py"
_p = __file__.replace("\\", "/").rsplit("/", 2)  # no os.path on MicroPython
ROOT = _p[0] if len(_p) == 3 else ("." if len(_p) == 2 else "..")

# What each chip's GPIOs can do on the devkits we support (ESP32 and ESP32-S3 datasheets,
# devkit schematics). "never": flash/PSRAM, USB, UART0 console, strapping, on-board LED.
CHIPS = {
    "ESP32": {
        "exists": [n for n in range(40) if n not in (20, 24, 28, 29, 30, 31)],
        "never": {0: "strapping (boot mode)", 1: "UART0 TX (USB serial)", 2: "strapping (boot mode)",
                  3: "UART0 RX (USB serial)", 5: "strapping (SDIO timing)", 6: "flash", 7: "flash",
                  8: "flash", 9: "flash", 10: "flash", 11: "flash",
                  12: "strapping (flash voltage)", 15: "strapping (boot log)",
                  16: "PSRAM on WROVER modules", 17: "PSRAM on WROVER modules"},
        "input_only": [34, 35, 36, 37, 38, 39],
    },
    "ESP32S3": {
        "exists": list(range(22)) + list(range(26, 49)),
        "never": dict([(0, "strapping (boot mode)"), (3, "strapping (JTAG source)"),
                       (19, "native USB D-"), (20, "native USB D+"),
                       (38, "on-board RGB LED (v1.1)"), (43, "UART0 TX (USB-UART port)"),
                       (44, "UART0 RX (USB-UART port)"), (45, "strapping (VDD_SPI voltage)"),
                       (46, "strapping (boot mode)"), (47, "1.8 V on R16V modules"),
                       (48, "on-board RGB LED (v1.0)")]
                      + [(n, "flash/PSRAM") for n in range(26, 33)]
                      + [(n, "octal PSRAM") for n in range(33, 38)]),
        "input_only": [],
    },
}

BOARD_KEYS = ("esp32", "esp32s3")  # order of the generated classes
COLOURS = ("R", "Y", "G", "B")
PORT_BITS = dict([("GPA%d" % i, i) for i in range(8)] + [("GPB%d" % i, 8 + i) for i in range(8)])
NO_INPUT_BITS = (7, 15)  # GPA7/GPB7: output only on current MCP23017 silicon
PARTS = ("pn532", "mfrc522")  # reader parts a position may name (board/pn532.py, board/mfrc522.py)
GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)  # MFRC522 RFCfgReg RxGain field -> receiver gain


class PinMapError(ValueError):
    pass


def _gpios(b):
    """(signal, gpio, direction) for every ESP32 pin a board entry uses; direction in/out/io."""
    s, i = b["spi"], b["i2c"]
    out = [("spi.sck", s["sck"], "out"), ("spi.mosi", s["mosi"], "out"), ("spi.miso", s["miso"], "in"),
           ("i2c.scl", i["scl"], "io"), ("i2c.sda", i["sda"], "io"),
           ("play.cs", b["play"]["cs"], "out"), ("play.irq", b["play"]["irq"], "in"),
           ("draw.cs", b["draw"]["cs"], "out"), ("draw.irq", b["draw"]["irq"], "in"),
           ("reader_rst", b["reader_rst"], "out"), ("shuffle", b["shuffle"]["gpio"], "in"),
           ("buzzer", b["buzzer"], "out")]
    for c in COLOURS:
        out.append(("colour_leds." + c, b["colour_leds"][c], "out"))
    return out


def _bit(name, where):
    if name not in PORT_BITS:
        raise PinMapError("%s: %r is not an MCP23017 pin (GPA0..GPB7)" % (where, name))
    return PORT_BITS[name]


def check_map(spec):
    """Raise PinMapError naming the first signal that a board cannot carry; return spec."""
    for key in BOARD_KEYS:
        b = spec["boards"][key]
        chip = CHIPS[b["mcu"]]
        seen = {}
        for sig, n, d in _gpios(b):
            where = "%s %s GPIO%s" % (key, sig, n)
            if n not in chip["exists"]:
                raise PinMapError(where + ": no such pin on " + b["mcu"])
            if n in chip["never"]:
                raise PinMapError(where + ": " + chip["never"][n])
            if d != "in" and n in chip["input_only"]:
                raise PinMapError(where + ": input-only pin used as an output")
            if n in seen:
                raise PinMapError(where + ": also used by " + seen[n])
            seen[n] = sig
        for pos in ("play", "draw"):
            r = b[pos]
            if r.get("part") not in PARTS:
                raise PinMapError("%s %s.part must be one of %s (nothing is probed)"
                                  % (key, pos, ", ".join(PARTS)))
            g = r.get("gain", 7)
            if g not in range(8):
                raise PinMapError("%s %s.gain must be 0..7 (MFRC522 RxGain)" % (key, pos))
            if "gain" in r and r["part"] != "mfrc522":
                raise PinMapError("%s %s.gain: only an MFRC522 has a receiver gain" % (key, pos))
        sh = b["shuffle"]
        if sh["pull"] not in ("internal", "external"):
            raise PinMapError(key + " shuffle.pull must be internal or external")
        if sh["pull"] == "internal" and sh["gpio"] in chip["input_only"]:
            raise PinMapError(key + " shuffle: input-only pins have no internal pull-up")
    dev = spec["i2c_devices"]
    addrs = []
    for name in ("buttons", "leds", "display"):
        a = int(dev[name]["addr"], 16)
        if a in addrs:
            raise PinMapError("i2c %s: address 0x%02X used twice" % (name, a))
        addrs.append(a)
    btn = [_bit(p, "buttons.seat") for p in dev["buttons"]["seat"]]
    btn += [_bit(dev["buttons"]["colour"][c], "buttons.colour") for c in COLOURS]
    led = [_bit(p, "leds.seat") for p in dev["leds"]["seat"]]
    for what, bits in (("buttons", btn), ("leds", led)):
        if len(set(bits)) != len(bits):
            raise PinMapError("i2c %s: an expander pin is used twice" % what)
    for n in btn:
        if n in NO_INPUT_BITS:
            raise PinMapError("i2c buttons: GPA7/GPB7 are output only on current MCP23017 silicon")
    if len(dev["buttons"]["seat"]) != 10 or len(dev["leds"]["seat"]) != 10:
        raise PinMapError("i2c: 10 seat buttons and 10 seat LEDs expected")
    return spec


def _gain(r):
    g = r.get("gain", 7)
    return (g << 4, GAIN_DB[g])


def _mask(bits):
    m = 0
    for n in bits:
        m |= 1 << n
    return m


def _tuple(xs):
    return "(" + ", ".join(str(x) for x in xs) + ("," if len(xs) == 1 else "") + ")"


def render(spec):
    """The text of firmware/board/pins.py for a checked spec."""
    check_map(spec)
    dev = spec["i2c_devices"]
    seat_btn = [PORT_BITS[p] for p in dev["buttons"]["seat"]]
    col_btn = [PORT_BITS[dev["buttons"]["colour"][c]] for c in COLOURS]
    seat_led = [PORT_BITS[p] for p in dev["leds"]["seat"]]
    L = [
        '"""Board pin map. GENERATED by tools/gen_pins.py from hardware/pins.json: edit that, not this.',
        "",
        "board() gives the class of the board the firmware runs on (None when unknown, e.g. the unix",
        "port). Numbers in the classes are ESP32 GPIO numbers. Expander bits are bits of the MCP23017",
        "port word: GPA0..GPA7 = 0..7, GPB0..GPB7 = 8..15. Colours are always in the order R, Y, G, B.",
        "The button expander is polled (its INT line is not used). Each reader position names its part.",
        "Wiring and the reasons for each pin: hardware/README.md.",
        '"""',
        "import sys",
        "",
        "try:",
        "    from micropython import const",
        "except ImportError:  # CPython",
        "    def const(x):",
        "        return x",
        "",
        "BUTTONS_ADDR = const(0x%02X)  # MCP23017: seat and colour buttons (to GND, pull-ups on)" % int(dev["buttons"]["addr"], 16),
        "SEAT_BUTTON_BITS = %s  # seat 1..10" % _tuple(seat_btn),
        "COLOUR_BUTTON_BITS = %s  # R Y G B" % _tuple(col_btn),
        "BUTTON_MASK = const(0x%04X)  # every button bit: inputs with pull-ups" % _mask(seat_btn + col_btn),
        "LEDS_ADDR = const(0x%02X)  # MCP23017: seat LEDs (active high)" % int(dev["leds"]["addr"], 16),
        "SEAT_LED_BITS = %s  # seat 1..10" % _tuple(seat_led),
        "LED_MASK = const(0x%04X)  # every LED bit: outputs" % _mask(seat_led),
        "DISPLAY_ADDR = const(0x%02X)  # SSD1306, optional" % int(dev["display"]["addr"], 16),
    ]
    for key in BOARD_KEYS:
        b = spec["boards"][key]
        s, i = b["spi"], b["i2c"]
        L += ["", "",
              "class %s:" % b["mcu"],
              '    """%s"""' % b["name"],
              '    MCU = "%s"' % b["mcu"],
              "    SPI_ID = %d" % s["id"],
              "    SPI_SCK = %d" % s["sck"],
              "    SPI_MOSI = %d" % s["mosi"],
              "    SPI_MISO = %d" % s["miso"],
              "    SPI_BAUDRATE = %d" % s["baudrate"],
              "    I2C_ID = %d" % i["id"],
              "    I2C_SCL = %d" % i["scl"],
              "    I2C_SDA = %d" % i["sda"],
              "    I2C_FREQ = %d" % i["freq"],
              "    PLAY_CS = %d" % b["play"]["cs"],
              "    PLAY_IRQ = %d" % b["play"]["irq"],
              '    PLAY_READER = "%s"' % b["play"]["part"],
              "    PLAY_GAIN = 0x%02X  # MFRC522 RFCfgReg: RxGain %d dB" % _gain(b["play"]),
              "    DRAW_CS = %d" % b["draw"]["cs"],
              "    DRAW_IRQ = %d" % b["draw"]["irq"],
              '    DRAW_READER = "%s"' % b["draw"]["part"],
              "    DRAW_GAIN = 0x%02X  # MFRC522 RFCfgReg: RxGain %d dB" % _gain(b["draw"]),
              "    READER_RST = %d  # both readers, active low" % b["reader_rst"],
              "    SHUFFLE = %d  # to GND when pressed" % b["shuffle"]["gpio"],
              "    SHUFFLE_PULLUP = %s  # False: external pull-up (input-only pin)" % (b["shuffle"]["pull"] == "internal"),
              "    COLOUR_LEDS = %s  # R Y G B, active high" % _tuple([b["colour_leds"][c] for c in COLOURS]),
              "    BUZZER = %d  # PWM" % b["buzzer"]]
    L += ["", "",
          "BOARDS = (%s)" % ", ".join(spec["boards"][k]["mcu"] for k in BOARD_KEYS),
          "",
          "",
          "def board(machine=None):",
          '    """The class for this chip: MicroPython names it last in sys.implementation._machine',
          '    ("Generic ESP32 module with ESP32", "ESP32S3 module with ESP32S3")."""',
          "    if machine is None:",
          '        machine = getattr(sys.implementation, "_machine", "")',
          "    for b in BOARDS:",
          '        if machine.endswith(" with " + b.MCU):',
          "            return b",
          "    return None",
          ""]
    return "\n".join(L)


def load(path=None):
    with open(path or ROOT + "/" + JSON) as f:
        return json.load(f)


def main(argv):
    try:
        text = render(load())
    except PinMapError as e:
        print("%s: %s" % (JSON, e))
        return 2
    if "--check" in argv:
        try:
            with open(ROOT + "/" + OUT) as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            print("%s is stale: run python tools/gen_pins.py" % OUT)
            return 1
        print("%s is up to date with %s" % (OUT, JSON))
        return 0
    with open(ROOT + "/" + OUT, "w") as f:
        f.write(text)
    print("wrote " + OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
