"""The input loop's longest gap (issue 9 item 5): the longest time between two passes of the
hub's input loop while a 10-player round is played through the simulated board, with the
display and the serial output on. Under `micropython` on the compiled firmware:

    python tools/build_mpy.py
    MICROPYPATH=build/mpy-host:.frozen micropython -X heapsize=256k bench/loop_gap.py [SCRIPT]

The input loop is modelled as the board's (hub/esp32.py: one pass, then sleep POLL_MS); every
other task of the app shares the event loop with it: the referee (log, rules, buzzer, LEDs),
the display, and the serial writer, to which a host asks `status` every 100 ms (as
`unotable monitor` does). The "uart" cases send the serial's bytes to a model of the ESP32's USB
serial (its REPL UART at 115200 baud: a write that finds the 128-byte TX FIFO full holds the
interpreter until it fits, as MicroPython's driver does), where the others write to /dev/null. The display is the real driver (board/display.py) on a bus that
takes as long as 400 kHz I2C would (about 22.5 us a byte, the CPU held as on a board); the
serial output goes to /dev/null. Times are this machine's: an ESP32 is 50-100x slower at the
code, not at the bus.
"""
import gc
import sys
import time

import asyncio
from board.display import Display
from gamelog import Log
from logdir import wipe
from hub.app import Hub
from hub.serial import Serial
from hub.sim import SimBoard
from uno.script import header, parse_line, to_input

POLL_MS = 5          # hub/esp32.py's input loop period
US_PER_BYTE = 22.5   # 9 clocks a byte at 400 kHz
ASK_MS = 100         # a host asking `status`
FIFO = 128           # the ESP32 UART's TX FIFO (SOC_UART_FIFO_LEN)
MB_PER_US = 1152     # ... drained at 115200 baud, 8N1: 11.52 bytes a ms, in thousandths a 100 us
TICK_US = 10000      # a FreeRTOS tick (CONFIG_FREERTOS_HZ 100)


class _Bus:
    """I2C to the panel: each write holds the CPU as long as 400 kHz would."""

    def __init__(self):
        self.bytes = 0

    def writeto_mem(self, addr, reg, data):
        n = len(data) + 2  # address and control byte
        self.bytes += n
        t = time.ticks_us()
        while time.ticks_diff(time.ticks_us(), t) < n * US_PER_BYTE:
            pass


class _Uart:
    """The USB serial of an ESP32 devkit as MicroPython drives its REPL UART (ports/esp32/uart.c,
    uart_stdout_tx_strn): a write fills the 128-byte TX FIFO, which drains at 115200 baud; what
    does not fit waits for the next FreeRTOS tick (ulTaskNotifyTake(pdFALSE, 1)) and tries again,
    the interpreter held meanwhile. poll() says writable all along (mp_hal_stdio_poll)."""

    def __init__(self):
        self.fill = FIFO * 1000     # thousandths of a byte; boot's lines still going out
        self.t = time.ticks_us()
        self.longest = 0            # us the longest write held the interpreter
        self.bytes = 0
        self.buffer = self

    def _drain(self):
        now = time.ticks_us()
        self.fill = max(0, self.fill - time.ticks_diff(now, self.t) * MB_PER_US // 100)
        self.t = now
        return now

    def write(self, b):
        t0 = self._drain()
        n = len(b)
        i = 0
        while True:
            k = min(n - i, FIFO - (self.fill + 999) // 1000)
            self.fill += k * 1000
            i += k
            if i >= n:
                break
            time.sleep_us(TICK_US - time.ticks_us() % TICK_US)
            self._drain()
        self.longest = max(self.longest, time.ticks_diff(time.ticks_us(), t0))
        self.bytes += n
        return n


def measure(script, display=True, durable=True, uart=False):
    """(longest gap us, p99 gap us, passes, inputs, display bytes, the input at the worst)."""
    import os
    from binascii import hexlify
    log = "/tmp/unotable-loopgap-" + hexlify(os.urandom(4)).decode()
    wipe(log)
    bus = _Bus()
    board = SimBoard(panel=Display(bus) if display else None)
    hub = Hub(board, Log(log, durable=durable))
    board.hub = hub
    hub.start()
    sink = open("/dev/null", "w")
    port = _Uart() if uart else sink
    if uart:
        board.serial_bps = 11520    # as hub/esp32.py's board says: the serial paces its writes
    serial = Serial(hub, stream=sink, out=port)
    bus.bytes = 0
    hist = {}  # gap in 100 us steps -> passes: no list of every pass in a small heap
    state = {"on": True, "inputs": 0, "worst": 0, "n": 0, "at": 0, "nomem": 0, "feed": 0,
             "status": 0}

    async def input_loop():
        last = time.ticks_us()
        while state["on"]:
            now = time.ticks_us()
            g = time.ticks_diff(now, last)
            last = now
            if state["inputs"]:  # from the round's first input on
                state["n"] += 1
                if g > state["worst"]:
                    state["worst"] = g
                    state["at"] = state["inputs"]
                hist[g // 100] = hist.get(g // 100, 0) + 1
            await asyncio.sleep_ms(POLL_MS)

    feed = hub.feed

    def timed_feed(inp):  # the referee's step: log, rules, buzzer, LEDs, display
        t = time.ticks_us()
        try:
            return feed(inp)
        finally:
            state["feed"] = max(state["feed"], time.ticks_diff(time.ticks_us(), t))
    hub.feed = timed_feed

    async def host():
        while state["on"]:
            t = time.ticks_us()
            try:  # as Serial.run: a failing answer is one error line, the table plays on
                serial.answer(serial.line(b"status"))
                state["status"] = max(state["status"], time.ticks_diff(time.ticks_us(), t))
            except MemoryError:
                state["nomem"] += 1
                serial.put('{"error": "MemoryError"}')
            await asyncio.sleep_ms(ASK_MS)

    async def drive():
        asyncio.create_task(hub.run())
        asyncio.create_task(serial._writer())
        asyncio.create_task(input_loop())
        asyncio.create_task(host())
        await asyncio.sleep_ms(20)
        with open(script) as f:
            for line in f:
                d = parse_line(line)
                if d is None or header(d) is not None or "in" not in d:
                    continue
                hub.inbox.put(to_input(d, hub.table))
                state["inputs"] += 1
                await asyncio.sleep_ms(12)  # a quick table: a card every 12 ms
        state["on"] = False
        await asyncio.sleep_ms(2 * POLL_MS)

    asyncio.run(drive())
    asyncio.new_event_loop()
    hub.log.close()
    wipe(log)
    sink.close()
    n = state["n"]
    k = 0
    p99 = 0
    for step in sorted(hist):
        k += hist[step]
        if k * 100 >= n * 99:
            p99 = (step + 1) * 100
            break
    return (state["worst"], p99, n, state["inputs"], bus.bytes, state["at"], state["nomem"],
            state["feed"], state["status"], port if uart else None)


def main():
    """Each case in a fresh process (a fresh heap), as app_bench.py's boot."""
    import os
    script = sys.argv[1] if len(sys.argv) > 1 else "examples/round-10p.jsonl"
    heap = (gc.mem_alloc() + gc.mem_free()) // 1024
    # the log is flushed, not synced: the flash's own time is bench/log_bench.py's, and on the unix
    # port a sync is the whole machine's os.sync(), which measures the other processes' writes
    for case in ("on fast",) * 3 + ("on fast uart",) * 3:  # the longest gap wanders on a
        # shared machine: thrice; then with the serial on the ESP32's UART (modelled)
        os.system("%s -X heapsize=%dk bench/loop_gap.py --case %s %s" % (
            sys.executable, heap, case.replace(" ", "-"), script))


def case(what, script):
    display = what.startswith("on")
    durable = what.endswith("durable")
    uart = what.endswith("uart")
    worst, p99, n, k, sent, at, nomem, feed, status, port = measure(script, display, durable,
                                                                    uart)
    print("  input loop, %s: longest gap between two passes %.1f ms (p99 under %.1f ms; the "
          "loop sleeps %d ms a pass), display %s, serial on, log %s; the worst while input %d "
          "of %d%s" % (script, worst / 1000, p99 / 1000, POLL_MS,
                       "on (400 kHz I2C modelled)" if display else "off",
                       "flushed and synced per input (this disk's sync)" if durable else
                       "flushed, not synced (the flash's own time: bench/log_bench.py)",
                       at, k, "; display %d bytes, %.0f an input" % (sent, sent / k)
                       if display else "") + (
              "; %d `status` answers failed: MemoryError" % nomem if nomem else "") +
          "; longest referee step %.1f ms, longest `status` answer %.1f ms" % (
              feed / 1000, status / 1000) + (
              "; serial on an ESP32 UART (115200 baud, 128-byte FIFO, modelled): %d bytes "
              "out, the longest write held the loop %.1f ms" % (port.bytes, port.longest / 1000)
              if port else ""))


if len(sys.argv) > 2 and sys.argv[1] == "--case":
    case(sys.argv[2].replace("-", " "), sys.argv[3])
else:
    main()
