"""board.leds: seat LEDs as one expander word, colour LEDs on pins, blink on a fake clock."""
import boardfakes as fk
from check import raises, skip
from board.leds import Leds, OFF, ON, BLINK


def make(**kw):
    port = fk.Port()
    pins = [fk.Pin(0) for _ in range(4)]
    return Leds(port, colour_pins=pins, **kw), port, pins


def colours(pins):
    return [p.level for p in pins]


def test_seat_on_off_one_write_each():
    leds, port, pins = make()
    leds.seat(1, ON)
    leds.seat(10, ON)
    assert port.out == 1 | 1 << 9
    assert port.writes[-1] == (1 | 1 << 9, 0x3FF)  # whole word, masked to the seat bits
    n = len(port.writes)
    leds.seat(10, ON)
    assert len(port.writes) == n  # no change, no I2C write
    leds.seat(1, OFF)
    assert port.out == 1 << 9


def test_seat_bits_map_seats_onto_the_port():
    port = fk.Port()
    leds = Leds(port, seat_bits=(8, 9, 10, 11, 0, 1))
    assert leds.seats == 6
    leds.seat(1, ON)
    leds.seat(5, ON)
    assert port.out == 1 << 8 | 1 << 0
    assert port.writes[-1][1] == 0x0F03
    raises(ValueError, leds.seat, 7, ON)
    raises(ValueError, leds.seat, 0, ON)


def test_active_low_port():
    port = fk.Port()
    leds = Leds(port, seat_bits=(0, 1, 2), active_low=True)
    leds.seat(2, ON)
    assert port.out == 0b101


def test_starts_all_off():
    leds, port, pins = make()
    assert port.writes == [(0, 0x3FF)] and [p.writes for p in pins] == [[0]] * 4


def test_colour_leds_on_pins():
    leds, port, pins = make()
    leds.colour(2, ON)
    assert colours(pins) == [0, 0, 1, 0]
    assert len(port.writes) == 1  # colour changes do not touch the expander
    leds.colour(2, OFF)
    leds.colour(0, ON)
    assert colours(pins) == [1, 0, 0, 0]
    raises(ValueError, leds.colour, 4, ON)


def test_blink_follows_the_clock():
    leds, port, pins = make(blink_ms=250)
    leds.step(0)
    leds.seat(3, BLINK)
    seen = []
    t = 0
    while t < 1000:
        leds.step(t)
        seen.append(port.out >> 2 & 1)
        t += 50
    # lit for 250 ms, dark for 250 ms
    assert seen == [1] * 5 + [0] * 5 + [1] * 5 + [0] * 5


def test_step_returns_time_to_next_toggle():
    leds, port, pins = make(blink_ms=250)
    assert leds.step(1000) == 250
    assert leds.step(1100) == 150
    assert leds.step(1250) == 250


def test_blinking_leds_share_one_phase():
    leds, port, pins = make(blink_ms=100)
    leds.step(0)
    leds.seat(1, BLINK)
    leds.step(50)
    leds.seat(2, BLINK)
    leds.colour(3, BLINK)
    assert port.out == 0b11 and pins[3].level == 1
    leds.step(100)
    assert port.out == 0 and pins[3].level == 0


def test_steady_leds_are_not_rewritten_by_step():
    leds, port, pins = make(blink_ms=100)
    leds.seat(4, ON)
    leds.colour(1, ON)
    n = len(port.writes)
    t = 0
    while t < 1000:
        leds.step(t)
        t += 10
    assert len(port.writes) == n and pins[1].writes == [0, 1]


def test_show_table_state():
    leds, port, pins = make()
    leds.step(0)
    leds.show(turn=3, owing=(5, 7), colour=1)
    assert port.out == 1 << 2 | 1 << 4 | 1 << 6   # blink phase lit
    assert colours(pins) == [0, 1, 0, 0]
    leds.step(250)
    assert port.out == 1 << 2                     # owing seats dark, turn seat steady
    assert leds.lit() == 1 << 2 | 1 << 17
    leds.show(turn=4, owing=0, colour=3)
    assert port.out == 1 << 3 and colours(pins) == [0, 0, 0, 1]


def test_show_owing_as_mask_and_turn_seat_owing_blinks():
    leds, port, pins = make()
    leds.step(0)
    leds.show(turn=2, owing=0b10, colour=-1)  # seat 2 must draw before it plays
    assert port.out == 0b10 and colours(pins) == [0, 0, 0, 0]
    leds.step(250)
    assert port.out == 0


def test_show_nothing():
    leds, port, pins = make()
    leds.show(turn=5, colour=0)
    leds.show(turn=None, owing=(), colour=None)
    assert port.out == 0 and colours(pins) == [0, 0, 0, 0]
    leds.show(turn=11, owing=0xFFFF, colour=9)  # out of range: ignored, masked
    assert port.out == 0x3FF


def test_show_colour_being_chosen_blinks():
    leds, port, pins = make()
    leds.step(0)
    leds.show(turn=1, colour=2, blink_colour=True)
    assert pins[2].level == 1
    leds.step(250)
    assert pins[2].level == 0 and port.out == 1


def test_show_a_colour_wanted_with_none_active_blinks_every_colour():
    """After a W or W4 the table has no colour until one is named (the hub passes -1): every
    colour LED blinks, so the table sees a colour is asked for and which buttons answer it."""
    leds, port, pins = make()
    leds.step(0)
    leds.show(turn=1, colour=-1, blink_colour=True)
    assert colours(pins) == [1, 1, 1, 1] and port.out == 1
    leds.step(250)
    assert colours(pins) == [0, 0, 0, 0] and port.out == 1
    leds.show(turn=2, colour=3)  # named: that colour steady, the rest dark
    assert colours(pins) == [0, 0, 0, 1]


def test_off():
    leds, port, pins = make()
    leds.show(turn=1, owing=(2,), colour=0)
    leds.off()
    assert port.out == 0 and colours(pins) == [0, 0, 0, 0]


def test_on_a_real_expander():
    from board.mcp23017 import MCP23017
    bus = fk.I2C()
    chip = bus.attach(fk.MCP23017Regs(), 0x21)
    mcp = MCP23017(bus, 0x21, inputs=0)
    leds = Leds(mcp, seat_bits=(8, 9, 10, 11, 12, 13, 14, 15, 0, 1))
    leds.show(turn=9, owing=(1,))
    assert chip.outputs() == 1 << 0 | 1 << 8


def test_step_does_not_allocate():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp)')
    import micropython

    class Quiet:
        def __init__(self):
            self.out = 0

        def write(self, v, m):
            self.out = v

    port = Quiet()
    leds = Leds(port, blink_ms=100)
    leds.show(turn=1, owing=0b1110)
    micropython.heap_lock()
    try:
        t = 0
        while t < 2000:
            leds.step(t)
            t += 10
        leds.show(2, 0b1000, -1)
    finally:
        micropython.heap_unlock()
    assert port.out & 0b10


def test_run_task_blinks():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp): the asyncio layer uses asyncio.sleep_ms')
    import asyncio
    port = fk.Port()
    leds = Leds(port, blink_ms=20)

    async def main():
        task = asyncio.create_task(leds.run())
        leds.seat(1, BLINK)
        await asyncio.sleep_ms(205)
        task.cancel()

    asyncio.run(main())
    vals = [w for w, m in port.writes][1:]  # after the power-up write
    assert 8 <= len(vals) <= 12 and vals[:4] == [1, 0, 1, 0]


def test_an_error_code_shows_over_the_table_and_the_table_comes_back():
    leds, port, pins = make()
    leds.step(0)
    leds.show(turn=3, owing=(5,), colour=2)
    leds.alert(21)  # E21: yellow blinks, seat 1 lit
    assert port.out == 1 and colours(pins) == [0, 1, 0, 0]
    leds.step(250)
    assert port.out == 1 and colours(pins) == [0, 0, 0, 0]
    leds.show(turn=4, owing=0, colour=0)  # the table goes on underneath
    assert port.out == 1 and colours(pins) == [0, 0, 0, 0]
    leds.step(500)
    assert colours(pins) == [0, 1, 0, 0]
    leds.alert(0)
    assert port.out == 1 << 3 and colours(pins) == [1, 0, 0, 0]
    leds.alert(12)  # E12: red blinks, seat 2 lit
    assert port.out == 2 and colours(pins) == [1, 0, 0, 0]
