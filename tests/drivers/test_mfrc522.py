"""MFRC522 driver (firmware/board/mfrc522.py) against a fake register file and ISO14443A cards."""
import asyncio

import fakebus
from check import raises
from board.mfrc522 import MFRC522, KNOWN_VERSIONS, _crc
from board.reader import ReaderError, TwoCards, read_uid

NTAG = b"\x04\x5a\x3c\x12\x8b\x61\x80"   # 7 bytes: two cascade levels
OTHER = b"\x04\x11\x22\x33\x44\x55\x66"
SINGLE = b"\xde\xad\xbe\xef"              # 4 bytes: one level
TRIPLE = b"\x04\x01\x02\x03\x04\x05\x06\x07\x08\x09"  # 10 bytes: three levels


def rig(latency=1, irq=False, wupa=True, begin=True, version=0x92):
    bus = fakebus.Bus()
    chip = fakebus.MFRC522(bus, latency=latency, version=version)
    r = MFRC522(bus, chip.cs, chip.irq if irq else None, wupa=wupa)
    if begin:
        r.begin()
    return bus, chip, r


def poll(r):
    return fakebus.poll(r, 100)


def _failure(r, polls=10):
    """The ReaderError that collect() raises within polls, no UID before it."""
    for _ in range(polls):
        try:
            got = r.collect()
        except ReaderError as e:
            return e
        assert got is None, got
    raise AssertionError("no error in %d polls" % polls)


def crc(data):
    return bytes(data) + bytes(fakebus.crc_a(data))


def test_crc_a_matches_the_standard_hlta_frame():
    c = _crc(b"\x50\x00", 0, 2)
    assert (c & 0xFF, c >> 8) == (0x57, 0xCD)
    assert fakebus.crc_a([0x50, 0x00]) == [0x57, 0xCD]


def test_begin_sets_timer_ask_irq_and_antenna():
    bus, chip, r = rig(begin=False)
    assert r.begin() == 0x92
    assert chip.resets == 1
    assert chip.regs[0x2A] & 0x80          # TAuto: "no card" comes from the timer
    assert chip.regs[0x15] == 0x40         # 100 % ASK
    assert chip.regs[0x14] & 0x03 == 0x03  # TX1, TX2 on
    assert chip.regs[0x02] == 0xA3         # IRQ pin: inverted, RX + error + timer
    assert chip.regs[0x03] & 0x80          # push-pull


def test_no_chip_is_reported():
    for v in (0x00, 0xFF):
        bus, chip, r = rig(begin=False, version=v)
        e = raises(ReaderError, r.begin)
        assert "none at this CS" in str(e)


def test_only_known_versions_are_an_mfrc522():
    for v in KNOWN_VERSIONS:
        bus, chip, r = rig(begin=False, version=v)
        assert r.begin() == v
    assert set(KNOWN_VERSIONS) == {0x91, 0x92, 0x88, 0x89, 0x12, 0xB2}
    bus, chip, r = rig(begin=False, version=0x92)
    r.begin()
    assert r.version == "2.0"
    assert r.describe() == "MFRC522 v2.0, IRQ not used: status polled (no IRQ pin given)"
    for v in (0x00, 0xFF, 0xAA, 0x37, 0x90):
        bus, chip, r = rig(begin=False, version=v)
        e = raises(ReaderError, r.begin)
        assert "VersionReg 0x%02X" % v in str(e), str(e)
        assert chip.resets == 0  # nothing written to a chip that is not ours


def test_a_floating_miso_is_never_an_mfrc522():
    # 10k pull-up: FF; none: 00, FF or noise; AA: what a PN532 still waking shifts out
    for levels in ((0xFF,), (0x00,), (0xAA,), (0x00, 0x10, 0x00, 0x37), (0x55, 0x00, 0xAA),
                   (0x00, 0x92, 0x00, 0x92), (0x12, 0x00, 0x37, 0x91, 0xB2)):
        bus = fakebus.Bus()
        nobody = fakebus.Floating(bus, levels)
        e = raises(ReaderError, MFRC522(bus, nobody.cs).begin)
        assert "MFRC522" in str(e)


def test_a_pn532_still_waking_is_not_taken_for_an_mfrc522():
    bus = fakebus.Bus()
    pn = fakebus.PN532(bus)
    pn.waking = 1000  # answers AA AA AA ...
    e = raises(ReaderError, MFRC522(bus, pn.cs).begin)
    assert "VersionReg 0xAA" in str(e)


def test_receiver_gain_is_the_maximum_by_default_and_configurable():
    far = fakebus.Tag(NTAG, needs_db=43)  # beyond the reset gain (33 dB)
    bus, chip, r = rig()
    assert chip.regs[0x26] == 0x70
    chip.field.append(far)
    assert poll(r) == NTAG
    bus, chip, r = rig(begin=False)
    r = MFRC522(bus, chip.cs, gain=0x40)  # 33 dB
    r.begin()
    assert chip.regs[0x26] == 0x40
    chip.field.append(far)
    assert poll(r) == b""  # the card answered, the receiver did not hear it


def test_no_card_answers_with_the_antenna_off():
    bus, chip, r = rig()
    chip.field.append(fakebus.Tag(NTAG))
    assert poll(r) == NTAG
    chip.regs[0x14] &= ~0x03  # TX1/TX2 off (e.g. after a brown-out reset of the chip)
    assert poll(r) == b""
    r.begin()  # bring-up switches the antenna on again
    assert poll(r) == NTAG


def test_an_irq_line_that_does_not_follow_is_not_used():
    for wired, stuck, note in ((False, False, "never went low"), (True, True, "stuck low")):
        bus, chip, r = rig(irq=True, begin=False)
        chip.irq_wired = wired
        chip.irq_stuck = stuck
        r.begin()
        assert r.irq_mode == "status" and note in r.irq_note, r.irq_note
        chip.field.append(fakebus.Tag(NTAG))
        assert poll(r) == NTAG
    bus, chip, r = rig(irq=True)
    assert r.irq_mode == "pin" and r.describe() == "MFRC522 v2.0, IRQ pin"


def test_reads_a_7_byte_ntag_uid_through_two_cascade_levels():
    bus, chip, r = rig()
    tag = fakebus.Tag(NTAG)
    chip.field.append(tag)
    assert poll(r) == NTAG
    cl1 = [0x88, 0x04, 0x5A, 0x3C]
    cl2 = [0x12, 0x8B, 0x61, 0x80]
    bcc1 = 0x88 ^ 0x04 ^ 0x5A ^ 0x3C
    bcc2 = 0x12 ^ 0x8B ^ 0x61 ^ 0x80
    assert chip.frames == [
        (b"\x52", 7),                                      # WUPA, a 7-bit short frame
        (b"\x93\x20", 0),                                  # ANTICOLLISION CL1
        (crc([0x93, 0x70] + cl1 + [bcc1]), 0),             # SELECT CL1 -> SAK 04 (more)
        (b"\x95\x20", 0),                                  # ANTICOLLISION CL2
        (crc([0x95, 0x70] + cl2 + [bcc2]), 0),             # SELECT CL2 -> SAK 00 (done)
        (crc([0x50, 0x00]), 0),                            # HLTA
    ]
    assert tag.state == "HALT"


def test_reads_4_and_10_byte_uids():
    for uid in (SINGLE, TRIPLE):
        bus, chip, r = rig()
        chip.field.append(fakebus.Tag(uid, atqa=(0x04, 0x00), sak=0x08))
        assert poll(r) == uid


def test_no_card_is_an_empty_uid():
    bus, chip, r = rig()
    assert poll(r) == b""
    assert chip.frames == [(b"\x52", 7)]


def test_a_card_left_on_the_pad_keeps_being_reported_with_wupa():
    bus, chip, r = rig()
    chip.field.append(fakebus.Tag(NTAG))
    assert [poll(r) for _ in range(3)] == [NTAG, NTAG, NTAG]


def test_with_reqa_a_halted_card_stays_quiet():
    bus, chip, r = rig(wupa=False)
    chip.field.append(fakebus.Tag(NTAG))
    assert poll(r) == NTAG
    assert chip.frames[0] == (b"\x26", 7)
    assert poll(r) == b""


def test_two_cards_are_a_collision_not_a_guess():
    bus, chip, r = rig()
    a = fakebus.Tag(NTAG)
    chip.field.extend([a, fakebus.Tag(OTHER)])
    e = raises(TwoCards, poll, r)
    assert "two cards" in str(e)
    chip.field.remove(a)
    assert poll(r) == OTHER  # the next poll starts clean


def test_corrupted_answers_raise_and_the_next_poll_is_clean():
    bus, chip, r = rig()
    chip.field.append(fakebus.Tag(NTAG))
    for kind, why in (("bcc", "BCC"), ("crc", "CRC"), ("parity", "bad frame")):
        chip.corrupt = kind
        e = raises(ReaderError, poll, r)
        assert why in str(e), (kind, str(e))
        assert chip.regs[0x01] & 0x0F == 0x00  # the chip was sent back to Idle
        assert poll(r) == NTAG


def test_a_card_pulled_away_mid_read():
    bus, chip, r = rig()
    tag = fakebus.Tag(NTAG)
    chip.field.append(tag)
    r.start_poll()
    got = None
    while len(chip.frames) < 2:  # ATQA arrived, ANTICOLLISION sent
        got = r.collect()
        assert got is None
    chip.field.remove(tag)
    assert "lost" in str(_failure(r))


def test_collect_returns_at_once_while_the_chip_works():
    bus, chip, r = rig(latency=5)
    chip.field.append(fakebus.Tag(NTAG))
    r.start_poll()
    nones = 0
    got = None
    while got is None:
        before = bus.transfers
        got = r.collect()
        assert bus.transfers - before <= 12  # one RF step: a handful of register accesses
        nones += got is None
    assert got == NTAG
    assert nones >= 6 * 5


def test_irq_pin_spares_the_status_reads():
    bus, chip, r = rig(latency=4, irq=True)
    chip.field.append(fakebus.Tag(NTAG))
    r.start_poll()
    idle = 0
    got = None
    while got is None:
        before = bus.transfers
        got = r.collect()
        if got is None and bus.transfers == before:
            idle += 1
    assert got == NTAG
    assert idle >= 5 * 3


def test_without_begin_there_is_no_timer_and_the_helper_gives_up():
    bus, chip, r = rig(begin=False)  # TAuto off: an unanswered frame never completes
    r.start_poll()
    for _ in range(50):
        assert r.collect() is None
    e = raises(ReaderError, asyncio.run, read_uid(r, 1, 5))
    assert "no answer" in str(e)
    assert chip.regs[0x01] & 0x0F == 0x00  # cancelled: Idle


def test_collect_before_start_poll_is_an_error():
    bus, chip, r = rig()
    raises(ReaderError, r.collect)


def test_async_helper_reads_a_card():
    bus, chip, r = rig(latency=2)
    chip.field.append(fakebus.Tag(NTAG))
    assert asyncio.run(read_uid(r, 1)) == NTAG


def test_a_pn532_and_an_mfrc522_share_one_bus():
    from board.pn532 import PN532
    bus = fakebus.Bus()
    pad = fakebus.PN532(bus)
    shoe = fakebus.MFRC522(bus)
    play = PN532(bus, pad.cs)
    draw = MFRC522(bus, shoe.cs)
    play.begin()
    draw.begin()
    pad.field.append(SINGLE)
    shoe.field.append(fakebus.Tag(NTAG))
    play.start_poll()
    draw.start_poll()  # both in flight at once, interleaved on the bus
    a = b = None
    for _ in range(50):
        if a is None:
            a = play.collect()
        if b is None:
            b = draw.collect()
    assert (a, b) == (SINGLE, NTAG)
    assert pad.bad_frames == 0


def test_a_chip_that_lost_its_supply_is_a_reader_fault_not_two_cards():
    # MISO pulled up: every register reads FF, ErrorReg's CollErr bit included
    bus, chip, r = rig()
    chip.field.append(fakebus.Tag(NTAG))
    assert poll(r) == NTAG
    chip.power(False)
    for _ in range(3):
        e = raises(ReaderError, poll, r)
        assert not isinstance(e, TwoCards) and "VersionReg 0xFF" in str(e), str(e)
    chip.power(True)  # back from its reset values: begin() again, then it reads
    r.begin()
    assert poll(r) == NTAG


def test_a_card_pulled_between_cascade_levels_gives_no_partial_uid():
    for swap in (None, b"\x04\x5a\x3c\x99\x99\x99\x99"):  # gone, or a card with the same CL1
        bus, chip, r = rig()
        chip.field.append(fakebus.Tag(NTAG))
        r.start_poll()
        while len(chip.frames) < 4:  # CL1 selected (SAK 04), ANTICOLLISION CL2 sent
            assert r.collect() is None
        chip.field[:] = [fakebus.Tag(swap)] if swap else []
        e = _failure(r)
        assert "lost" in str(e), (swap, e)
        if swap:
            assert poll(r) == swap  # the next poll reads it whole


def test_two_cards_alike_in_the_first_level_collide_in_the_second():
    bus, chip, r = rig()
    chip.field.extend([fakebus.Tag(NTAG), fakebus.Tag(b"\x04\x5a\x3c\x99\x8b\x61\x80")])
    raises(TwoCards, poll, r)
    assert chip.frames[-1] == (b"\x95\x20", 0)  # CL1 alike: the collision shows at CL2
