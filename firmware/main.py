"""What the board runs at boot: the hub on the ESP32 board, its log on the flash, the deck
registry from /deck.bin, the serial line on USB.

A crash is printed before anything else happens, so it shows on the USB serial before the
watchdog (started once the hub plays) resets the board, which then recovers from the log.
Ctrl-C (mpremote takes over the same way) stops the table and returns to the REPL.

The safe way out: hold the shuffle button (or the shuffle sensor) while the board powers up or
resets. main() then returns at once: no app, no watchdog, the REPL on the USB serial. A frozen
main.py runs before any file on the board and cannot be deleted, so this is how a board whose
app misbehaves is reached (mpremote, a new deck, a fresh log).
"""
import asyncio
import os
import sys

from board.compat import sleep_ms

LOG = "/log"
DECK = "/deck.bin"


def prepare_log(path=LOG):
    """The log directory on the flash filesystem (gamelog.Log creates it too)."""
    try:
        os.mkdir(path)
    except OSError:  # it exists
        pass


def load_registry(path=DECK):
    from hub.app import load_deck
    return load_deck(path)


def skip_requested(hw=None, chip=None, samples=5):
    """True when the shuffle button is held now: low on every one of `samples` looks 10 ms
    apart (a bounce or a glitch is no hold). False where there is no pin map (the unix port).
    hw: the machine module (default) or a stand-in; chip: a class of board/pins.py."""
    from board import pins
    b = chip if chip is not None else pins.board()
    if b is None:
        return False
    if hw is None:
        import machine as hw
    Pin = hw.Pin
    if b.SHUFFLE_PULLUP:
        p = Pin(b.SHUFFLE, Pin.IN, Pin.PULL_UP)
    else:
        p = Pin(b.SHUFFLE, Pin.IN)
    for i in range(samples):
        if i:
            sleep_ms(10)
        if p.value():
            return False
    return True


def main(board=None, log=LOG, deck=DECK, hw=None, chip=None, crash=None):
    """Run the table until Ctrl-C or a crash; returns the hub (None if it was never built).
    board: default the Esp32Board of this chip (tests pass one built on fakes, or hw and chip
    to build it from); crash(e): where a crash goes (default: its traceback on the serial)."""
    if board is None and skip_requested(hw, chip):
        print("main: shuffle held at power-up: app skipped, no watchdog; the REPL is yours")
        return None
    hub = None
    try:
        prepare_log(log)
        from hub.app import Hub, open_log
        from hub.serial import Serial
        if board is None:
            from hub.esp32 import Esp32Board
            board = Esp32Board(hw=hw, chip=chip)
        hub = Hub(board, open_log(log, board), load_registry(deck))
        hub.start()
        asyncio.run(hub.run(Serial(hub, deck=deck)))  # a deck the host pushes lands in `deck`
    except KeyboardInterrupt:
        if board is not None:
            board.stop()
        asyncio.new_event_loop()  # drop the stopped tasks: asyncio starts clean at the REPL
        print("main: stopped")
    except Exception as e:
        pe = crash or getattr(sys, "print_exception", None)
        if pe:
            pe(e)
        else:  # CPython
            print(repr(e))
        print("main: crashed; the watchdog resets the board if it runs")
        if board is not None:
            try:
                board.stop(keep_dog=False)  # no tone left sounding until the reset
            except Exception:
                pass
    return hub


if __name__ == "__main__":
    main()
