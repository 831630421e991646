"""The serial's writer on the ESP32's USB serial: its REPL UART always polls writable, and a
write that finds the TX FIFO full holds the interpreter (the input loop, buttons, card reads)
until it fits. The writer paces itself so that no pass waits, and answers still arrive whole
and in order."""
import json

import asyncio

import logkit
import hub.serial as hs
from hubkit import FakeBoard
from hub.app import Hub
from hub.serial import Serial, TX_CHUNK
from link import frame as fr

BPS = 11520          # 115200 baud, 8N1: bytes a second (hub/esp32.py's serial_bps)
FIFO = 128           # SOC_UART_FIFO_LEN on the ESP32 and ESP32-S3
TICK_US = 10000      # a FreeRTOS tick at CONFIG_FREERTOS_HZ 100 (ESP-IDF's default)
UNIT = 100000        # the FIFO's fill is kept in 1e-5 bytes: 1152 drain a us, exactly
BOUND_US = 0         # what a pass of the paced writer may hold the loop on this UART
FOREIGN_US = TICK_US + TX_CHUNK * 1000000 // BPS   # ... when a print() filled the FIFO first


class Uart:
    """The ESP32's USB serial as MicroPython drives its REPL UART (ports/esp32/uart.c,
    uart_stdout_tx_strn): a write puts what fits into the TX FIFO, which drains at 115200 baud;
    the rest waits for the next FreeRTOS tick (ulTaskNotifyTake(pdFALSE, 1)), the interpreter
    held, and tries again. Its time is its own, in us: it moves when the writer sleeps and
    while a write waits."""

    def __init__(self):
        self.us = 0
        self.fill = 0            # in UNIT: 1e-5 bytes
        self.out = bytearray()   # what reached the host, in order
        self.held = []           # us each write held the interpreter
        self.sizes = []          # bytes of each write

    def ticks_ms(self):
        return self.us // 1000

    def advance(self, us):
        self.fill = max(0, self.fill - us * BPS * UNIT // 1000000)
        self.us += us

    def sleep_ms(self, ms):
        """hub.serial's _sleep_ms here: the time passes at once, the task yields."""
        self.advance(ms * 1000)
        return asyncio.sleep(0)

    def write(self, b):
        t0 = self.us
        n = len(b)
        i = 0
        while True:
            room = FIFO - (self.fill + UNIT - 1) // UNIT
            k = min(n - i, room)
            self.fill += k * UNIT
            i += k
            if i >= n:
                break
            self.advance(TICK_US - self.us % TICK_US)
        self.out += bytes(b)
        self.held.append(self.us - t0)
        self.sizes.append(n)
        return n


def answers():
    """What a host gets over a sync and a monitor: 1 KB frames, 2.6 KB status lines (a
    10-seat table), short answers; in groups that fit the serial's buffer."""
    groups = []
    for g in range(8):
        frames = [fr.encode(g * 10 + i, "records", fr.OK, ("ABCD" * 248)[:980 - i * 37])
                  for i in range(3)]
        status = json.dumps({"phase": "play", "g": g, "seats": ["x" * 250] * 10})
        short = [json.dumps({"repl": "Ctrl-C in the next 10 s stops the firmware"}),
                 fr.encode(g, "hello", fr.OK, b'{"fw":"0.4.0"}')]
        groups += [frames, [status] + frames[:1], short]
    return groups


def wire(line):
    return line if isinstance(line, bytes) else line.encode() + b"\n"


def run(sr, uart, groups, before=None):
    real = hs._sleep_ms
    hs._sleep_ms = uart.sleep_ms

    async def go():
        task = asyncio.create_task(sr._writer())
        for group in groups:
            for line in group:
                sr.put(line)
            if before:
                before()
            while sr.used:
                await asyncio.sleep(0)
        task.cancel()
        await asyncio.sleep(0)
    try:
        asyncio.run(go())
    finally:
        hs._sleep_ms = real
        asyncio.new_event_loop()


def test_on_the_boards_uart_no_pass_waits_and_answers_arrive_whole_and_in_order():
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start()
    uart = Uart()
    uart.fill = FIFO * UNIT                     # the boot's lines still going out
    sr = Serial(h, out=uart, bps=BPS, clock=uart.ticks_ms)
    groups = answers()
    run(sr, uart, groups)
    sent = b"".join(wire(x) for g in groups for x in g)
    assert bytes(uart.out) == sent and sr.dropped == 0      # whole, in order, nothing lost
    assert max(uart.held) <= BOUND_US, max(uart.held)       # no write waited on the FIFO
    assert max(uart.sizes) <= TX_CHUNK
    ideal = (len(sent) + FIFO) * 1000000 // BPS             # the line kept busy: its rate
    assert uart.us <= ideal * 21 // 20 + 20000, (uart.us, ideal)


def test_a_print_that_filled_the_fifo_holds_a_pass_no_longer_than_a_tick_and_a_piece():
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start()
    uart = Uart()
    sr = Serial(h, out=uart, bps=BPS, clock=uart.ticks_ms)
    mine = []

    def a_print():                              # a line the writer did not send
        said = b"esp32 board: input loop: ..."
        uart.write(said + b" " * (FIFO - 1 - len(said)) + b"\n")
        mine.append(len(uart.held))

    groups = answers()
    run(sr, uart, groups, a_print)
    held = [uart.held[i] for i in range(len(uart.held)) if i + 1 not in mine]
    assert max(held) <= FOREIGN_US, (max(held), FOREIGN_US)
    out = bytes(uart.out).split(b"\n")
    lines = [x for x in out if not x.startswith(b"esp32 board")]
    assert lines == [wire(x)[:-1] for g in groups for x in g] + [b""]   # between its lines


def test_the_board_paces_its_serial_and_the_simulated_table_does_not():
    from esp32kit import Rig
    h = Hub(Rig().board, logkit.log(logkit.fresh()))
    assert Serial(h, out=Uart()).bps == BPS
    assert Serial(Hub(FakeBoard(), logkit.log(logkit.fresh())), out=Uart()).bps == 0
