"""hardware/partitions-4MiB-unotable.csv: a table ESP-IDF's gen_esp32part.py takes."""
from hub.esp32 import LOG_PARTITION

CSV = "hardware/partitions-4MiB-unotable.csv"


def _rows():
    rows = []
    with open(CSV) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append([c.strip() for c in line.split(",")])
    return rows


def test_the_partitions_fit_4_mib_in_order_and_aligned():
    end = 0x9000                               # after the bootloader and the table at 0x8000
    for name, typ, sub, off, size, _ in _rows():
        off, size = int(off, 16), int(size, 16)
        assert off >= end and off % 0x1000 == 0 and size % 0x1000 == 0, name
        if typ == "app":
            assert off % 0x10000 == 0, name    # app partitions are 64 KB aligned
        end = off + size
    assert end <= 4 * 1024 * 1024


def test_the_log_has_its_raw_partition_and_littlefs_keeps_vfs():
    got = dict((r[0], r) for r in _rows())
    log = got[LOG_PARTITION]
    assert log[1] == "data" and 0x40 <= int(log[2], 16) <= 0xFE   # a user subtype: raw
    assert int(log[4], 16) >= 64 * 4096        # a ring of many sectors: erases stay rare
    assert got["vfs"][2] == "fat" and got["factory"][1] == "app"
