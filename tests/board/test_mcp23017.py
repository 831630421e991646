"""board.mcp23017 against a fake register file on a fake I2C bus (real BANK=0 addresses)."""
import boardfakes as fk
from check import raises
from board.mcp23017 import MCP23017


def make(**kw):
    bus = fk.I2C()
    chip = bus.attach(fk.MCP23017Regs(), 0x20)
    return MCP23017(bus, **kw), chip, bus


def test_init_sets_direction_pullups_and_latch():
    mcp, chip, bus = make(inputs=0x03FF, pullups=0x03FF, out=0x8000)
    r = chip.r
    assert r[0x00] == 0xFF and r[0x01] == 0x03      # IODIRA, IODIRB
    assert r[0x0C] == 0xFF and r[0x0D] == 0x03      # GPPUA, GPPUB
    assert r[0x14] == 0x00 and r[0x15] == 0x80      # OLATA, OLATB
    assert r[0x0A] == 0x04 and r[0x02] == r[0x03] == 0  # IOCON (ODR), IPOL


def test_latch_is_written_before_pins_become_outputs():
    mcp, chip, bus = make(inputs=0x00FF, out=0x0100)
    regs = [w[1] for w in bus.writes]
    assert regs.index(0x14) < regs.index(0x00)
    assert chip.outputs() == 0x0100


def test_every_access_is_one_16_bit_transaction():
    mcp, chip, bus = make()
    for addr, reg, data in bus.writes:
        assert addr == 0x20 and len(data) == 2 and reg % 2 == 0
    n = bus.transactions
    mcp.read()
    mcp.write(1)
    assert bus.transactions == n + 2


def test_read_port_word_a_low_b_high():
    mcp, chip, bus = make(inputs=0xFFFF, pullups=0xFFFF)
    chip.ext = 0x1234
    assert mcp.read() == 0x1234
    chip.floating = 0xFF00  # nothing drives port B: the pull-ups win
    assert mcp.read() == 0xFF34


def test_pressed_buttons_read_low():
    mcp, chip, bus = make(inputs=0x03FF, pullups=0x03FF)
    chip.floating = 0x03FF
    assert mcp.read() & 0x3FF == 0x3FF
    chip.floating &= ~(1 << 9)
    chip.press(9)
    assert mcp.read() & 0x3FF == 0x1FF


def test_write_outputs_and_mask():
    mcp, chip, bus = make(inputs=0x00FF)
    mcp.write(0xAB00)
    assert chip.outputs() == 0xAB00 and mcp.out == 0xAB00
    mcp.write(0x0100, mask=0x0300)   # only bits 8, 9 change
    assert chip.outputs() == 0xA900
    mcp.write(0xFFFF, mask=0xF000)
    assert chip.outputs() == 0xF900
    assert mcp.read() >> 8 == 0xF9  # outputs read back as latched


def test_input_bits_ignore_the_latch():
    mcp, chip, bus = make(inputs=0x00FF)
    mcp.write(0xFFFF)
    assert chip.outputs() == 0xFF00


def test_address_and_missing_chip():
    bus = fk.I2C()
    chip = bus.attach(fk.MCP23017Regs(), 0x27)
    mcp = MCP23017(bus, 0x27, inputs=0)
    mcp.write(0x0001)
    assert chip.outputs() == 1
    raises(OSError, MCP23017, bus, 0x20)


def test_fake_register_file_autoincrements_and_wraps():
    chip = fk.MCP23017Regs()
    chip.write(0x15, bytes((0x11, 0x22)))  # OLATB, then wraps to IODIRA
    assert chip.r[0x15] == 0x11 and chip.r[0x00] == 0x22
    buf = bytearray(3)
    chip.read(0x0B, buf)  # IOCON (mirror), GPPUA, GPPUB
    assert list(buf) == [0, 0, 0]


def test_a_chip_reset_to_its_power_on_registers_is_not_read_as_buttons():
    mcp, chip, bus = make(inputs=0x7F7F, pullups=0x7F7F)
    chip.floating = 0xFFFF  # buttons to GND, all open
    assert mcp.read() & 0x7F7F == 0x7F7F
    chip.reset()            # pull-ups off: the open inputs float
    raises(OSError, mcp.read)
    mcp.setup()
    assert mcp.read() & 0x7F7F == 0x7F7F


def test_garbage_from_the_bus_is_not_a_word():
    mcp, chip, bus = make(inputs=0x7F7F, pullups=0x7F7F)
    for g in (0x00, 0xFF, -1):
        bus.garbage = g
        for _ in range(50):
            raises(OSError, mcp.read)
    bus.garbage = None
    assert mcp.read() & 0x7F7F == 0x7F7F


def test_check_reads_back_the_setup():
    mcp, chip, bus = make(inputs=0, out=0x0005)
    mcp.check()
    chip.reset()  # outputs are inputs again: the LEDs go dark, and no bus error says so
    assert chip.outputs() == 0
    raises(OSError, mcp.check)
    mcp.setup()
    mcp.check()
    assert chip.outputs() == 0x0005
    bus.garbage = 0
    raises(OSError, mcp.check)


def test_fake_open_inputs_without_pull_ups_read_anything():
    chip = fk.MCP23017Regs()
    chip.floating = 0xFFFF
    buf = bytearray(2)
    seen = set()
    for _ in range(32):
        chip.read(0x12, buf)
        seen.add(buf[0] | buf[1] << 8)
    assert len(seen) > 16            # not a level a driver could count on
    chip.write(0x0C, bytes((0xFF, 0xFF)))
    chip.read(0x12, buf)
    assert buf[0] == buf[1] == 0xFF  # the pull-ups hold them high


def test_fake_bus_errors():
    bus = fk.I2C()
    bus.attach(fk.MCP23017Regs(), 0x20)
    bus.error = fk.ETIMEDOUT
    try:
        bus.readfrom_mem_into(0x20, 0x12, bytearray(2))
    except OSError as e:
        assert e.args[0] == 116
    else:
        raise AssertionError("no error")
