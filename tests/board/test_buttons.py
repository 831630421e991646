"""board.buttons: debounce, short and long press, several buttons at once, on a fake clock."""
from check import skip
import boardfakes as fk
from boardfakes import Presses, hold
from board.buttons import ButtonBank, pin_reader

UP = 0xFFFF  # active low: every button released


def down(*bits):
    w = UP
    for b in bits:
        w &= ~(1 << b)
    return w


def bank(n=10, **kw):
    got = Presses()
    b = ButtonBank(n, got, **kw)
    b.feed(0, UP)  # prime
    return b, got


def test_short_press_fires_on_release():
    b, got = bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 250, down(3))
    assert got.take() == []           # nothing while held below the long threshold
    assert b.pressed() == 1 << 3
    hold(b, t, 300, UP)
    assert got.take() == [(3, False)]
    assert b.pressed() == 0


def test_press_needs_debounce_time():
    b, got = bank(debounce_ms=20)
    b.feed(100, down(0))
    b.feed(119, down(0))
    assert b.pressed() == 0
    b.feed(120, down(0))
    assert b.pressed() == 1
    b.feed(130, UP)
    b.feed(149, UP)
    assert got.take() == []
    b.feed(150, UP)
    assert got.take() == [(0, False)]


def test_glitch_shorter_than_debounce_is_rejected():
    b, got = bank()
    t = hold(b, 5, 100, UP)
    for _ in range(5):  # 5 ms spikes, 30 ms apart
        b.feed(t, down(2))
        t = hold(b, t + 5, t + 30, UP)
    assert got.take() == [] and b.pressed() == 0


def test_contact_bounce_gives_one_press():
    b, got = bank()
    t = 100
    for i in range(8):  # bouncing for 16 ms on the press ...
        b.feed(t, down(4) if i % 2 == 0 else UP)
        t += 2
    t = hold(b, t, 300, down(4), step=2)
    for i in range(8):  # ... and on the release
        b.feed(t, UP if i % 2 == 0 else down(4))
        t += 2
    hold(b, t, 400, UP, step=2)
    assert got.take() == [(4, False)]


def test_glitch_while_held_does_not_release():
    b, got = bank()
    t = hold(b, 100, 200, down(1))
    b.feed(t, UP)  # 3 ms dropout
    t = hold(b, t + 3, 300, down(1))
    assert got.take() == []
    hold(b, t, 340, UP)
    assert got.take() == [(1, False)]


def test_long_press_fires_once_while_held():
    b, got = bank(long_ms=800)
    t = hold(b, 100, 895, down(7))
    assert got.take() == []
    t = hold(b, t, 905, down(7))       # 800 ms after the press began at 100
    assert got.take() == [(7, True)]
    t = hold(b, t, 3000, down(7))
    assert got.take() == []            # once, however long it is held
    hold(b, t, 3100, UP)
    assert got.take() == []            # its release is no short press
    assert b.pressed() == 0


def test_short_after_long_works_again():
    b, got = bank(long_ms=500)
    t = hold(b, 100, 800, down(0))
    t = hold(b, t, 900, UP)
    t = hold(b, t, 1000, down(0))
    hold(b, t, 1100, UP)
    assert got.take() == [(0, True), (0, False)]


def test_two_presses_at_once_both_come_out():
    b, got = bank()
    t = hold(b, 100, 200, down(2, 9))
    hold(b, t, 300, UP)
    assert sorted(got.take()) == [(2, False), (9, False)]


def test_overlapping_presses_short_and_long():
    b, got = bank(long_ms=600)
    t = hold(b, 100, 300, down(5))
    t = hold(b, t, 400, down(5, 0))    # 0 joins while 5 is held
    t = hold(b, t, 500, down(5))       # 0 released: short
    assert got.take() == [(0, False)]
    t = hold(b, t, 800, down(5))       # 5 reaches 600 ms: long
    hold(b, t, 900, UP)
    assert got.take() == [(5, True)]


def test_all_buttons_at_once():
    b, got = bank(n=16)
    t = hold(b, 100, 200, 0)
    hold(b, t, 300, UP)
    assert sorted(got.take()) == [(i, False) for i in range(16)]


def test_ids_map_bits_to_button_ids():
    b, got = bank(n=10, ids=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
    t = hold(b, 100, 200, down(0, 9))
    hold(b, t, 300, UP)
    assert sorted(got.take()) == [(1, False), (10, False)]


def test_bits_beyond_n_are_ignored():
    b, got = bank(n=4)
    t = hold(b, 100, 200, down(4, 12))
    hold(b, t, 300, UP)
    assert got.take() == []


def test_unwired_bits_outside_mask_are_ignored():
    b, got = bank(n=16, mask=0x7F7F)  # GPA7 and GPB7 not wired (board/pins.py BUTTON_MASK)
    t = 100
    while t < 400:  # floating pins flapping
        b.feed(t, down(7, 15) if t % 20 < 10 else UP)
        t += 5
    t = hold(b, t, 500, down(7, 8))
    hold(b, t, 600, UP)
    assert got.take() == [(8, False)]


def test_active_high_bits():
    got = Presses()
    b = ButtonBank(3, got, active_low=0b011)  # bit 2 (the shuffle sensor) is active high
    b.feed(0, 0b011)
    t = hold(b, 10, 100, 0b111)
    hold(b, t, 200, 0b011)
    assert got.take() == [(2, False)]


def test_held_at_power_up_fires_nothing_until_released():
    got = Presses()
    b = ButtonBank(10, got)
    t = hold(b, 0, 2000, down(6))
    t = hold(b, t, 2100, UP)
    assert got.take() == []
    t = hold(b, t, 2200, down(6))
    hold(b, t, 2300, UP)
    assert got.take() == [(6, False)]


def test_ticks_wrap_around():
    if fk.MICROPYTHON:
        import time
        top = time.ticks_add(0, -1)  # 2**30 - 1 on the ESP32, 2**62 - 1 on the 64-bit unix port
    else:
        top = 0x3FFFFFFF  # the fallback ticks_diff models the ESP32
    got = Presses()
    b = ButtonBank(2, got, long_ms=100)
    b.feed(top - 50, 3)
    t = top - 40
    while t <= top:
        b.feed(t, 2)
        t += 5
    t = 0
    while t < 80:
        b.feed(t, 2)
        t += 5
    assert got.take() == [(0, True)]  # 100 ms after the press at top - 40


def test_pin_reader_packs_pins():
    pins = [fk.Pin(1), fk.Pin(0), fk.Pin(1), fk.Pin(0)]
    read = pin_reader(pins)
    assert read() == 0b0101
    got = Presses()
    b = ButtonBank(4, got)
    b.feed(0, read())
    pins[0].level = 0
    t = hold(b, 10, 100, read())
    pins[0].level = 1
    hold(b, t, 200, read())
    assert got.take() == [(0, False)]  # 1 and 3 were held from the start: ignored


def test_expander_is_read_once_per_scan():
    from board.mcp23017 import MCP23017
    bus = fk.I2C(log=False)
    chip = bus.attach(fk.MCP23017Regs(), 0x20)
    mcp = MCP23017(bus, 0x20, inputs=0x03FF, pullups=0x03FF)
    got = Presses()
    b = ButtonBank(10, got, ids=tuple(range(1, 11)))
    n0 = bus.transactions
    chip.floating = 0x03FF  # buttons open: pulled up
    t = 0
    while t < 100:
        b.feed(t, mcp.read())
        t += 5
    chip.floating = 0x03FF & ~(1 << 3 | 1 << 8)
    chip.ext = 0
    while t < 200:
        b.feed(t, mcp.read())
        t += 5
    chip.floating = 0x03FF
    while t < 300:
        b.feed(t, mcp.read())
        t += 5
    assert bus.transactions - n0 == 60
    assert sorted(got.take()) == [(4, False), (9, False)]


def test_feed_does_not_allocate():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp)')
    import micropython
    count = bytearray(2)

    def on_press(bid, long):
        count[1 if long else 0] += 1

    b = ButtonBank(16, on_press, long_ms=300)
    b.feed(0, UP)
    micropython.heap_lock()
    try:
        t = 5
        while t < 2000:
            b.feed(t, 0 if 100 <= t < 600 or 800 <= t < 900 else UP)
            t += 5
    finally:
        micropython.heap_unlock()
    assert count[1] == 16 and count[0] == 16


def test_run_task_samples_the_pins():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp): the asyncio layer uses asyncio.sleep_ms')
    import asyncio
    pin = fk.Pin(1)
    got = Presses()
    b = ButtonBank(1, got, long_ms=150)

    async def main():
        task = asyncio.create_task(b.run(pin_reader((pin,)), 2))
        await asyncio.sleep_ms(30)
        pin.level = 0
        await asyncio.sleep_ms(60)
        pin.level = 1
        await asyncio.sleep_ms(60)
        pin.level = 0
        await asyncio.sleep_ms(250)
        pin.level = 1
        await asyncio.sleep_ms(60)
        task.cancel()

    asyncio.run(main())
    assert got.take() == [(0, False), (0, True)]


# The take-back chord: two buttons held together for chord_ms (docs/buttons.md).

def chord_bank(**kw):
    return bank(n=16, chord=1 << 11 | 1 << 14, chord_id=99, chord_ms=3000, **kw)


def test_chord_fires_once_after_its_time_and_nothing_else():
    b, got = chord_bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 2900, down(11, 14))
    assert got.take() == []            # no long press of either colour, no chord yet
    t = hold(b, t, 3200, down(11, 14))
    assert got.take() == [(99, True)]
    t = hold(b, t, 6000, down(11, 14))  # held on: still once
    hold(b, t, 6300, UP)
    assert got.take() == []            # their releases fire nothing


def test_chord_let_go_early_fires_nothing():
    b, got = chord_bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 1500, down(11, 14))
    t = hold(b, t, 1700, down(14))     # red let go: the chord is off, blue stays quiet
    hold(b, t, 5000, UP)
    assert got.take() == []


def test_chord_time_counts_from_the_last_button_down():
    b, got = chord_bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 600, down(11))      # red alone for 500 ms: below its long press
    t = hold(b, t, 3500, down(11, 14))
    assert got.take() == []            # 2.9 s since blue went down
    hold(b, t, 3800, down(11, 14))
    assert got.take() == [(99, True)]


def test_chord_held_at_power_up_fires_nothing():
    got = Presses()
    b = ButtonBank(16, got, chord=1 << 11 | 1 << 14, chord_id=99, chord_ms=3000)
    b.feed(0, down(11, 14))
    hold(b, 5, 5000, down(11, 14))
    assert got.take() == []


def test_other_buttons_press_as_usual_during_a_chord():
    b, got = chord_bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 400, down(11, 14))
    t = hold(b, t, 600, down(11, 14, 2))
    t = hold(b, t, 3300, down(11, 14))
    assert got.take() == [(2, False), (99, True)]


# A second chord of its own (the REPL's confirmation, yellow and green 5 s): each fires for
# its own buttons and time only.

def two_chords(**kw):
    return bank(n=16, chord=1 << 11 | 1 << 14, chord_id=99, chord_ms=3000,
                chords=((1 << 12 | 1 << 13, 98, 5000),), **kw)


def test_a_second_chord_fires_after_its_own_time_and_nothing_else():
    b, got = two_chords()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 4900, down(12, 13))
    assert got.take() == []            # no colour's long press, not the first chord at 3 s
    t = hold(b, t, 5200, down(12, 13))
    assert got.take() == [(98, True)]
    t = hold(b, t, 9000, down(12, 13))
    hold(b, t, 9300, UP)
    assert got.take() == []            # once, and the releases fire nothing
    t = hold(b, 9300, 9400, down(11, 14))
    hold(b, t, 12500, down(11, 14))
    assert got.take() == [(99, True)]  # the first chord as before


def test_a_second_chord_let_go_early_or_across_a_bus_error_fires_nothing():
    b, got = two_chords()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 3000, down(12, 13))
    t = hold(b, t, 3100, down(12))     # green let go at 3 s: nothing, yellow stays quiet
    t = hold(b, t, 3500, UP)
    assert got.take() == []
    t = hold(b, t, 4000, down(12, 13))
    while t < 7000:                    # the bus out while they are held
        b.feed(t, down(12, 13), 0x7FFF)
        t += 5
    hold(b, t, 12000, down(12, 13))
    assert got.take() == []


def test_both_chords_held_at_once_each_fire_once():
    b, got = two_chords()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 5200, down(11, 12, 13, 14))
    assert got.take() == [(99, True), (98, True)]


# -- what the bus and the players do to it --

def test_a_release_waiting_out_its_debounce_at_the_long_time_is_a_short_press():
    b, got = bank(long_ms=800, debounce_ms=20)
    t = hold(b, 100, 895, down(3))     # released at 895, 5 ms before the long time
    hold(b, t, 1000, UP)
    assert got.take() == [(3, False)]


def test_a_press_the_bus_hid_a_part_of_fires_nothing():
    b, got = bank(long_ms=800)
    t = hold(b, 100, 300, down(3))     # seat 3 down ...
    while t < 1500:                    # ... the bus fails: not read; let go meanwhile
        b.feed(t, down(3), 0x3FF)
        t += 5
    t = hold(b, t, 1600, UP)
    assert got.take() == []            # neither a long press nor a short one
    t = hold(b, t, 1700, down(3))      # the next press counts as usual
    hold(b, t, 1800, UP)
    assert got.take() == [(3, False)]


def test_a_button_held_across_a_bus_error_fires_only_after_its_release():
    b, got = bank(long_ms=800)
    t = hold(b, 100, 200, UP)
    b.feed(t, UP, 0x3FF)               # one scan lost
    t = hold(b, t + 5, 2000, down(5))  # pressed while the bus was out, held on after
    t = hold(b, t, 2100, UP)
    assert got.take() == []            # held when read again: as at power-up
    t = hold(b, t, 2200, down(5))
    hold(b, t, 2300, UP)
    assert got.take() == [(5, False)]


def test_the_chord_does_not_fire_across_a_bus_error():
    b, got = chord_bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 1500, down(11, 14))
    while t < 4000:
        b.feed(t, down(11, 14), 0x7FFF)
        t += 5
    hold(b, t, 6000, down(11, 14))
    assert got.take() == []


def test_unknown_bits_leave_the_others_alone():
    b, got = bank(n=16)
    t = hold(b, 5, 100, UP)
    while t < 300:  # the expander is out, the shuffle sensor (bit 15) still read
        b.feed(t, down(15) if t < 200 else UP, 0x7FFF)
        t += 5
    assert got.take() == [(15, False)]


def test_a_player_mashing_a_button_for_a_minute():
    b, got = bank()
    t = 100
    n = 0
    while t < 60100:  # 8 presses a second, each bouncing 4 ms on press and release
        for d in (0, 2):
            b.feed(t + d, down(2) if d == 0 else UP)
        t = hold(b, t + 4, t + 50, down(2), step=5)
        for d in (0, 2):
            b.feed(t + d, UP if d == 0 else down(2))
        t = hold(b, t + 4, t + 75, UP, step=5)
        n += 1
    assert got.take() == [(2, False)] * n and n == 480


def test_a_stuck_button_fires_one_long_press_and_the_others_go_on():
    b, got = bank()
    t = hold(b, 5, 100, UP)
    t = hold(b, t, 60000, down(4), step=20)
    assert got.take() == [(4, True)]
    t = hold(b, t, 60100, down(4, 7))
    hold(b, t, 60200, down(4))
    assert got.take() == [(7, False)]


def test_held_says_which_buttons_are_down_that_long():
    b, got = bank(n=16)
    t = hold(b, 5, 100, down(2))
    t = hold(b, t, 1000, down(2, 9))
    assert b.held(t, 950) == 1 << 2 and b.held(t, 950, ~(1 << 2)) == 0
    assert b.held(t, 100) == 1 << 2 | 1 << 9
    got2 = Presses()
    b2 = ButtonBank(16, got2)
    b2.feed(5000, down(4))  # held at power-up: from then
    assert b2.held(5500, 800) == 0 and b2.held(5800, 800) == 1 << 4


def test_a_press_still_settling_when_the_bus_fails_fires_nothing():
    b, got = bank(long_ms=800)
    t = hold(b, 5, 100, UP)
    b.feed(t, down(6))                 # an edge, not yet debounced ...
    t += 5
    while t < 2000:                    # ... and the bus fails
        b.feed(t, UP, 0x3FF)
        t += 5
    hold(b, t, 2200, UP)
    assert got.take() == []


def test_feed_with_unknown_bits_does_not_allocate():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp)')
    import micropython
    count = bytearray(1)

    def on_press(bid, long):
        count[0] += 1

    b = ButtonBank(16, on_press, chord=1 << 11 | 1 << 14, chord_id=99,
                   chords=((1 << 12 | 1 << 13, 98, 5000),))
    b.feed(0, UP)
    micropython.heap_lock()
    try:
        t = 5
        while t < 3000:  # the bus out every other 100 ms while buttons go up and down
            b.feed(t, 0 if t % 300 < 150 else UP, 0x7FFF if t % 200 < 100 else 0)
            b.held(t, 1000, 0x7F7F)
            t += 5
    finally:
        micropython.heap_unlock()
