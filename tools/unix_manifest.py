# Freeze manifest for a unix-port MicroPython with the firmware frozen in (tools/frozen_unix.py):
# the third deploy path (firmware/manifest.py, code in flash) measured on this machine by
# bench/deploy_heap.py. asyncio as the unix port freezes it; paths relative to this file.
include("$(MPY_DIR)/extmod/asyncio")

for name in ("board", "gamelog", "hub", "link", "uno"):
    package(name, base_path="../firmware")
