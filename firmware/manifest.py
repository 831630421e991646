# Freeze manifest: the firmware packages compiled into a MicroPython image for the hub, so the
# code runs from flash and leaves the heap (about 100 KB on an ESP32-WROOM without PSRAM) to
# the table. Build it from a MicroPython checkout with ESP-IDF set up (not done by this repo):
#
#   cd micropython/ports/esp32
#   make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
#   make BOARD=ESP32_GENERIC_S3 FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py   # ESP32-S3
#
# then flash build-<BOARD>/firmware.bin as usual (make deploy, or esptool). The port's own
# manifest comes first: it freezes asyncio, the filesystem set-up (_boot.py) and the rest the
# board needs. main.py is frozen too: MicroPython runs a frozen main.py in place of /main.py, so
# an image runs the table even on a wiped filesystem. boot.py stays a filesystem file.
# Paths are relative to this file (the manifest tool resolves them so).
# The engine's methods marked @micropython.native are frozen as machine code, in flash
# (docs/deploy.md: copied files get them as bytecode).
include("$(PORT_DIR)/boards/manifest.py")

# The engine's board modules, listed: the host-only ones (words, rulebook, narrate, record, bot
# and events, whose codes the board modules carry as consts) stay off the board. The deploy
# set (host/unotable/build.py) reads this file: what is frozen is what is copied.
package("uno", files=["__init__.py", "cards.py", "names.py", "rules.py", "script.py",
                      "state.py", "table.py", "takeback.py", "rebuild.py"])
package("board")
package("gamelog")
package("link")
package("hub")
module("main.py")
