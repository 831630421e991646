# Freeze manifest for a unix-port MicroPython with the firmware frozen in (tools/frozen_unix.py):
# the third deploy path (firmware/manifest.py, code in flash) measured on this machine by
# bench/deploy_heap.py. asyncio as the unix port freezes it; paths relative to this file.
# Every file of the packages, as the bench's .mpy and ROMFS runs have them (app_bench's recovery
# part plays with uno.bot, which firmware/manifest.py leaves off the board); a module that is
# never imported costs no heap.
include("$(MPY_DIR)/extmod/asyncio")

for name in ("board", "gamelog", "hub", "link", "uno"):
    package(name, base_path="../firmware")
