"""PN532 driver (firmware/board/pn532.py) against a fake chip speaking the SPI frame protocol."""
import asyncio

import fakebus
from check import raises
from board.pn532 import PN532
from board.reader import ReaderError, TwoCards, read_uid

NTAG = b"\x04\x5a\x3c\x12\x8b\x61\x80"  # NXP (04) 7-byte UID, as on NTAG213/215
MIFARE = b"\xde\xad\xbe\xef"


def rig(latency=1, irq=False, begin=True):
    bus = fakebus.Bus()
    chip = fakebus.PN532(bus, latency=latency)
    r = PN532(bus, chip.cs, chip.irq if irq else None)
    if begin:
        r.begin()
    return bus, chip, r


def poll(r):
    return fakebus.poll(r, 50)


class WireLog(fakebus.Bus):
    """Keeps the raw bytes the host clocks out."""

    def __init__(self):
        fakebus.Bus.__init__(self)
        self.out = []

    def write(self, buf):
        self.out.extend(buf)
        fakebus.Bus.write(self, buf)


def test_bytes_go_lsb_first_on_an_msb_first_bus():
    bus = WireLog()
    chip = fakebus.PN532(bus)
    r = PN532(bus, chip.cs)
    r.start_poll()
    # direction "data write", then 00 00 FF LEN LCS D4 4A 02 00 DCS 00, each bit-reversed
    frame = [0x01, 0x00, 0x00, 0xFF, 0x04, 0xFC, 0xD4, 0x4A, 0x02, 0x00, 0xE0, 0x00]
    assert bus.out == [fakebus.rev8(b) for b in frame]
    assert chip.commands == [0x4A] and chip.bad_frames == 0


def test_begin_checks_the_chip_and_bounds_the_retries():
    bus, chip, r = rig(begin=False)
    assert r.begin() == (0x32, 1, 6)
    assert chip.commands == [0x02, 0x14, 0x32, 0x32]
    assert chip.sam == [0x01, 0x14, 0x01]          # normal mode, IRQ pin in use
    assert chip.rf_config == [0x05, 0xFF, 0x01, 2]  # MxRtyPassiveActivation 2, not forever
    assert chip.bad_frames == 0 and chip.wakeups == 1
    assert not chip.rf  # field off until the first poll
    assert r.version == "1.6" and r.irq_mode == "status"
    assert r.describe() == "PN532 v1.6, IRQ not used: status polled (no IRQ pin given)"


def test_reads_a_7_byte_ntag_uid():
    bus, chip, r = rig()
    chip.field.append(NTAG)
    assert poll(r) == NTAG
    assert chip.bad_frames == 0


def test_reads_a_4_byte_uid():
    bus, chip, r = rig()
    chip.field.append(MIFARE)
    assert poll(r) == MIFARE


def test_no_card_is_an_empty_uid():
    bus, chip, r = rig()
    assert poll(r) == b""


def test_collect_returns_at_once_while_the_chip_works():
    bus, chip, r = rig(latency=6)
    chip.field.append(NTAG)
    r.start_poll()
    nones = 0
    while True:
        before = bus.transfers
        got = r.collect()
        assert bus.transfers - before <= 4  # a status read, at most a frame read and another status read
        if got is not None:
            break
        nones += 1
    assert got == NTAG
    assert nones >= 6


def test_a_card_laid_down_mid_poll_is_seen():
    bus, chip, r = rig(latency=3)
    r.start_poll()
    assert r.collect() is None
    assert r.collect() is None
    chip.field.append(NTAG)  # arrives before the chip's answer is ready
    got = r.collect()
    while got is None:
        got = r.collect()
    assert got == NTAG


def test_a_card_taken_away_is_gone_next_poll():
    bus, chip, r = rig()
    chip.field.append(NTAG)
    assert poll(r) == NTAG
    chip.field.remove(NTAG)
    assert poll(r) == b""


def _fails(r, why):
    r.start_poll()
    for _ in range(20):
        try:
            got = r.collect()
        except ReaderError as e:
            assert why in str(e), str(e)
            return
        assert got is None, got
    raise AssertionError("no error")


def test_corrupted_frames_raise_and_the_next_poll_is_clean():
    bus, chip, r = rig()
    chip.field.append(NTAG)
    errors = 0
    for kind, why in (("lcs", "LCS"), ("dcs", "DCS"), ("start", "start code"), ("nack", "NACK"),
                      ("error", "error frame"), ("other", "unexpected frame")):
        chip.corrupt = kind
        try:
            poll(r)
        except ReaderError as e:
            assert why in str(e), (kind, str(e))
            errors += 1
        assert poll(r) == NTAG  # nothing left over from the bad frame
    assert errors == 6
    assert chip.bad_frames == 0


def test_a_bad_frame_aborts_the_command_in_flight():
    bus, chip, r = rig()
    chip.corrupt = "noack"
    _fails(r, "NACK")
    assert chip.aborts == 1


def test_frames_without_the_optional_preamble_parse():
    bus, chip, r = rig()
    chip.preamble = False
    chip.field.append(NTAG)
    assert poll(r) == NTAG
    assert poll(r) == NTAG


def test_irq_pin_spares_the_status_reads():
    bus, chip, r = rig(latency=4, irq=True)
    chip.field.append(NTAG)
    r.start_poll()
    idle = 0
    got = None
    while got is None:
        before = bus.transfers
        got = r.collect()
        if got is None and bus.transfers == before:
            idle += 1
    assert got == NTAG
    assert idle >= 3  # not-ready looks cost no SPI traffic at all


def test_collect_before_start_poll_is_an_error():
    bus, chip, r = rig()
    raises(ReaderError, r.collect)


def test_a_silent_chip_never_hangs():
    bus, chip, r = rig(begin=False)
    chip.silent = True
    e = raises(ReaderError, r.begin, 3)
    assert "no answer" in str(e)
    r.start_poll()
    for _ in range(100):
        assert r.collect() is None  # returns at once, every time
    r.cancel()
    aborts = chip.aborts
    e = raises(ReaderError, asyncio.run, read_uid(r, 1, 5))
    assert "no answer" in str(e)
    assert chip.aborts == aborts + 1  # the helper cancelled the poll


def test_async_helper_reads_a_card():
    bus, chip, r = rig(latency=3)
    chip.field.append(NTAG)
    assert asyncio.run(read_uid(r, 1)) == NTAG
    chip.field.remove(NTAG)
    assert asyncio.run(read_uid(r, 1)) == b""


def test_start_poll_aborts_a_poll_in_flight():
    bus, chip, r = rig(latency=10)
    chip.field.append(NTAG)
    r.start_poll()
    assert r.collect() is None
    r.start_poll()  # e.g. after a time-out higher up
    assert chip.aborts == 1
    got = r.collect()
    while got is None:
        got = r.collect()
    assert got == NTAG


# -- the chip as it behaves on a real bus (issue 9) --

def test_a_card_left_on_the_reader_reads_at_every_poll():
    bus, chip, r = rig()
    chip.field.append(NTAG)
    for _ in range(5):
        assert poll(r) == NTAG  # a selected 7-byte tag would ignore the next REQA
    # the field goes off after each read (the last one still on its way: the chip acts on it
    # when the host next looks)
    assert chip.field_offs >= 4 and chip.commands[-1] == 0x32
    chip.field.remove(NTAG)
    assert poll(r) == b""
    assert chip.field_offs == 6 and chip.commands[-2:] == [0x32, 0x4A]
    assert poll(r) == b""
    assert chip.commands[-2:] == [0x4A, 0x4A]  # nothing was selected: no field-off


def test_two_cards_are_refused_not_guessed():
    bus, chip, r = rig()
    chip.field += [NTAG, MIFARE]
    e = raises(TwoCards, poll, r)
    assert "two cards" in str(e)
    assert isinstance(e, ReaderError)
    assert chip.max_tg[-1] == 2 and chip.commands[-1] == 0x32  # asked for two; field off next
    raises(TwoCards, poll, r)  # still two: still refused, every time
    chip.field.remove(NTAG)
    assert poll(r) == MIFARE
    assert set(chip.max_tg) == {2}


def test_a_card_removed_mid_read_is_not_credited():
    bus, chip, r = rig(latency=6)
    chip.field.append(NTAG)
    r.start_poll()
    for _ in range(3):
        assert r.collect() is None
    chip.field.remove(NTAG)  # gone before the chip answered
    got = r.collect()
    while got is None:
        got = r.collect()
    assert got == b""
    chip.field += [NTAG, MIFARE]  # two, one taken away mid-read: the other one is read
    r.start_poll()
    assert r.collect() is None
    chip.field.remove(MIFARE)
    got = r.collect()
    while got is None:
        got = r.collect()
    assert got == NTAG


class FrameReads(fakebus.Bus):
    """Counts data reads (direction byte 0x03) per collect()."""

    def __init__(self):
        fakebus.Bus.__init__(self)
        self.reads = 0

    def write_readinto(self, wbuf, rbuf):
        if fakebus.rev8(wbuf[0]) == 0x03:
            self.reads += 1
        fakebus.Bus.write_readinto(self, wbuf, rbuf)


def test_the_answer_is_never_read_in_the_call_that_read_its_ack():
    bus = FrameReads()
    chip = fakebus.PN532(bus, latency=0)
    chip.irq_lag = 1  # IRQ still low a moment after the ACK was read; the chip answers junk
    chip.junk = [0xAA]
    r = PN532(bus, chip.cs, chip.irq)
    r.begin()
    chip.field.append(NTAG)
    r.start_poll()
    got = None
    while got is None:
        before = bus.reads
        got = r.collect()
        assert bus.reads - before <= 1  # one frame per call at most
    assert got == NTAG
    assert chip.junk_reads == 0 and r.irq_mode == "pin"


def test_an_irq_line_that_never_goes_low_falls_back_to_status_polling():
    bus, chip, r = rig(irq=True, begin=False)
    chip.irq_wired = False
    assert r.begin() == (0x32, 1, 6)  # not "no answer": the status byte says ready
    assert r.irq_mode == "status" and "never went low" in r.irq_note
    assert "status polled" in r.describe()
    chip.field.append(NTAG)
    assert poll(r) == NTAG


def test_an_irq_line_stuck_low_falls_back_and_reads_no_junk():
    bus, chip, r = rig(irq=True, begin=False)
    chip.irq_stuck = True
    chip.junk = [0x00, 0xFF, 0x5A]
    r.begin()
    assert r.irq_mode == "status" and "stuck low" in r.irq_note
    chip.field.append(NTAG)
    assert poll(r) == NTAG
    assert chip.junk_reads == 0


def test_a_chip_still_waking_is_not_up_until_it_answers():
    bus, chip, r = rig(begin=False)
    chip.waking = 1000  # answers AA AA AA ... for a while
    raises(ReaderError, r.begin, 5)
    chip.waking = 0
    assert r.begin() == (0x32, 1, 6)
    chip.field.append(NTAG)
    assert poll(r) == NTAG


def test_a_floating_miso_is_never_a_pn532():
    for levels in ((0xFF,), (0x00,), (0xAA,), (0x00, 0xFF, 0x12, 0x80, 0x01)):
        bus = fakebus.Bus()
        nobody = fakebus.Floating(bus, levels)
        r = PN532(bus, nobody.cs)
        raises(ReaderError, r.begin, 5)
