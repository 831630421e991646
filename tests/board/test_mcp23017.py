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
    assert r[0x0A] == 0 and r[0x02] == r[0x03] == 0  # IOCON, IPOL


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
