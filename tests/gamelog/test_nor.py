"""gamelog/nor.py, the NOR flash stand-in the ring's tests, benches and the simulated table use:
it must keep NOR's rules (a program only clears bits, an erase sets a whole sector), and cut the
power where it is told, the way a chip loses it."""
import os

from gamelog.nor import Nor, PAGE

TMP = "/tmp/gamelog-nor-test.bin"


def _gone(path):
    try:
        os.remove(path)
    except OSError:
        pass


def test_a_new_chip_is_erased_and_says_its_geometry():
    d = Nor(3)
    assert d.ss == 4096 and d.ioctl(4, 0) == 3 and d.ioctl(5, 0) == 4096
    assert d.image() == b"\xff" * (3 * 4096)
    assert d.ioctl(1, 0) == 0 and d.ioctl(2, 0) == 0 and d.ioctl(3, 0) == 0    # init, deinit, sync
    assert d.ioctl(7, 0) is None and d.ioctl(9, 0) is None


def test_a_program_only_clears_bits_and_a_clash_is_counted():
    d = Nor(2, 512)
    d.program(10, b"\x0f\xf0")
    d.program(10, b"\x03\xff")                   # the second byte asks its 0 bits to be 1
    assert d.image()[10:12] == b"\x03\xf0" and d.conflicts == 1
    assert d.progs == 2 and d.prog_bytes == 4
    buf = bytearray(4)
    d.readblocks(0, buf, 9)
    assert buf == b"\xff\x03\xf0\xff"


def test_an_erase_sets_its_sector_only():
    d = Nor(3, 512)
    d.program(0, bytes(3 * 512))
    assert d.ioctl(6, 1) == 0
    img = d.image()
    assert img[0:512] == bytes(512) and img[512:1024] == b"\xff" * 512
    assert img[1024:] == bytes(512) and d.erases == 1


def test_writeblocks_without_an_offset_erases_every_sector_it_spans():
    d = Nor(4, 512)
    d.program(0, bytes(4 * 512))
    d.writeblocks(1, b"\x55" * 600)              # sectors 1 and 2, then programs
    img = d.image()
    assert d.erases == 2 and img[512:1112] == b"\x55" * 600
    assert img[1112:1536] == b"\xff" * 424 and img[1536:] == bytes(512) and img[:512] == bytes(512)
    d.writeblocks(3, b"\x00", 5)                 # with an offset: no erase
    assert d.erases == 2 and d.conflicts == 0
    d.writeblocks(1, b"\x55" * 1024)             # exactly two sectors: not the third
    assert d.erases == 4 and d.image()[1536:] == bytes(512)


def test_time_is_modelled_per_erase_and_per_page_touched():
    d = Nor(2, 4096, erase_ms=45, prog_ms=2)
    d.program(PAGE - 2, b"\x00" * 4)             # two pages
    assert d.ms == 4
    d.program(2 * PAGE, b"\x00" * PAGE)          # one page, exactly
    assert d.ms == 6
    d.erase(1)
    assert d.ms == 51
    # by default the datasheet's typical times of the ESP32's usual flash (Winbond W25Q32JV:
    # 4 KB sector erase 45 ms, page program 0.7 ms, counted as 1)
    d = Nor(2)
    d.program(0, b"\x00")
    assert d.ms == 1
    d.erase(1)
    assert d.ms == 46


def test_a_power_cut_mid_program_leaves_the_byte_in_flight_half_written_and_stops_all():
    d = Nor(1, 512)
    d.cut = 3
    d.program(0, b"\x00\x00\x00\x00\x00")
    img = d.image()
    # three bytes done; the fourth got some of its bits (the low ones here); the fifth none
    assert img[0:3] == bytes(3) and img[3] == 0xF0 and img[4] == 0xFF
    assert d.dead and d.prog_bytes == 3
    d.program(10, b"\x00")                        # the power is gone: nothing happens
    d.erase(0)
    assert d.image() == img
    d.power_on()
    d.program(10, b"\x00")
    assert d.image()[10] == 0 and not d.dead and d.cut == -1


def test_a_cut_after_an_operation_ends_hits_the_next_one_whole():
    d = Nor(1, 512)
    d.cut = 2
    d.program(0, b"\x00\x00")                    # exactly its budget: done, power still on
    assert not d.dead and d.image()[0:2] == bytes(2)
    d.program(4, b"\x00\x00")                    # nothing left: cut in its first byte
    assert d.dead and d.image()[4:6] == b"\xf0\xff" and d.prog_bytes == 2
    d.program(8, b"\x00")                        # after the cut: not even a byte in flight
    assert d.image()[8] == 0xFF


def test_a_cut_by_operation_number_and_a_cut_erase():
    d = Nor(2, 512)
    d.program(0, bytes(1024))
    d.cut_op = d.ops + 2                         # the second operation from now
    d.cut_at = 300
    d.program(600, b"\x00")                      # the first: whole
    d.erase(0)                                   # the second: 300 of 512 bytes erased
    img = d.image()
    assert img[0:300] == b"\xff" * 300 and img[300:512] == bytes(212) and d.dead
    assert d.erases == 1


def test_a_chip_in_a_file_outlives_its_object_and_a_file_of_another_size_is_blank():
    _gone(TMP)
    d = Nor(2, 512, TMP)
    assert d.image() == b"\xff" * 1024 and os.stat(TMP)[6] == 1024
    d.program(5, b"\x12\x34")
    d.erase(1)
    d.close()
    d.close()                                    # twice: nothing more to close
    d = Nor(2, 512, TMP)
    assert d.image()[5:7] == b"\x12\x34" and d.image()[512:] == b"\xff" * 512
    buf = bytearray(2)
    d.readblocks(0, buf, 5)
    assert buf == b"\x12\x34"
    d.load(bytes(1024))
    assert d.image() == bytes(1024)
    d.close()
    d = Nor(3, 512, TMP)                         # another size: a new blank chip
    assert d.image() == b"\xff" * 1536
    d.cut = 1
    d.program(0, b"\x00\x00")                    # a cut in a file-backed chip too
    assert d.image()[0:2] == b"\x00\xf0"
    d.close()
    _gone(TMP)


def test_a_sector_erase_of_the_file_chip_writes_it_whole():
    _gone(TMP)
    d = Nor(2, 1024, TMP)
    d.program(0, bytes(2048))
    d.erase(1)
    assert d.image() == bytes(1024) + b"\xff" * 1024
    d.close()
    _gone(TMP)


def test_an_erase_cut_one_byte_into_its_second_run_erases_that_byte():
    d = Nor(1, 1024)
    d.program(0, bytes(1024))
    d.cut = 257                                  # one run of 256 bytes, then one byte
    d.erase(0)
    img = d.image()
    assert len(img) == 1024 and img[:257] == b"\xff" * 257 and img[257:] == bytes(767)
