"""NXP MFRC522 over SPI, polled without blocking (interface: board/reader.py).

SPI mode 0, MSB first, <= 10 MHz. Register access (datasheet 8.1.2.3): address byte
1RRRRRR0 to read, 0RRRRRR0 to write; a read sends the next address (0 at the end) while the chip
returns the previous register. The ISO14443A exchange runs as a small state machine, one RF
round trip per collect(): WUPA (or REQA) -> ATQA; per cascade level ANTICOLLISION (93/95/97 20)
-> 4 UID bytes + BCC, SELECT (.. 70 + those 5 + CRC_A) -> SAK, whose bit 2 says "more levels";
a cascade tag 88 opens the 4 bytes of a level that is not the last. NTAG213/215 UIDs take two
levels (88 u0 u1 u2 | u3 u4 u5 u6). Then HLTA, so the next WUPA finds the card again while it
stays in the field. Two cards answering is reported (TwoCards: a referee must not guess which was
played), not resolved bit by bit. CRC_A is computed here, so the chip's CRC units stay off.

begin() accepts only a chip whose VersionReg is one that MFRC522s and their common clones give
(KNOWN_VERSIONS) and whose registers keep what is written: a PN532 still waking (it has been
seen answering AA AA ..) or a floating MISO (00 / FF, or noise) is never taken for an MFRC522.
The receiver gain (RFCfgReg) is set to its maximum, 48 dB, unless told otherwise: an NTAG
sticker under a cover reads further.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin, SPI

from board.compat import sleep_ms
from board.reader import ReaderError, TwoCards

_COMMAND = const(0x01)
_COMIEN = const(0x02)
_DIVIEN = const(0x03)
_COMIRQ = const(0x04)
_ERROR = const(0x06)
_FIFODATA = const(0x09)
_FIFOLEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BITFRAMING = const(0x0D)
_MODE = const(0x11)
_TXCONTROL = const(0x14)
_TXASK = const(0x15)
_RFCFG = const(0x26)
_TMODE = const(0x2A)
_TPRESCALER = const(0x2B)
_TRELOADH = const(0x2C)
_TRELOADL = const(0x2D)
_VERSION = const(0x37)

_IDLE_CMD = const(0x00)
_TRANSCEIVE = const(0x0C)
_SOFTRESET = const(0x0F)
_POWERDOWN = const(0x10)  # CommandReg bit: still starting up

_TXIRQ = const(0x40)
_RXIRQ = const(0x20)
_ERRIRQ = const(0x02)
_TIMERIRQ = const(0x01)
_COLLERR = const(0x08)
_BADFRAME = const(0x13)  # BufferOvfl, ParityErr, ProtocolErr

_IDLE = const(0)
_REQ = const(1)   # WUPA/REQA sent, waiting for ATQA
_ANTI = const(2)  # ANTICOLLISION sent, waiting for UID bytes + BCC
_SEL = const(3)   # SELECT sent, waiting for SAK + CRC_A
_HALT = const(4)  # UID complete, HLTA going out

_SEL_CODES = b"\x93\x95\x97"

# VersionReg values: NXP MFRC522 v1.0 and v2.0, and clones seen on RC522 modules.
KNOWN_VERSIONS = (0x91, 0x92, 0x88, 0x89, 0x12, 0xB2)
GAIN_MAX = const(0x70)  # RFCfgReg RxGain 111: 48 dB (reset value 0x48: 33 dB)


class MFRC522:
    part = "MFRC522"

    def __init__(self, spi: "SPI", cs: "Pin", irq: "Pin | None" = None, wupa=True,
                 gain=GAIN_MAX):
        """irq: the chip's IRQ pin (input; set push-pull, low = RX/timer/error pending) saves
        most SPI status reads. wupa: poll with WUPA (finds halted cards again, so a card left in
        the field keeps being reported) rather than REQA. gain: RFCfgReg (RxGain in bits 6..4)."""
        self._spi = spi
        self._cs = cs
        self._irq = irq
        self._gain = gain & 0x70
        self.irq_mode = "pin" if irq is not None else "status"
        self.irq_note = "" if irq is not None else "no IRQ pin given"
        self.version = ""
        self._req = 0x52 if wupa else 0x26
        self._state = _IDLE
        self._again = False
        self._tries = 1
        self._level = 0
        self._n = 0                  # UID bytes gathered
        self._uid = bytearray(10)
        self._cl = bytearray(5)      # this level's 4 UID bytes + BCC
        self._reg = bytearray(2)
        self._frame = bytearray(10)  # FIFO address + the longest frame (SELECT: 9)
        self._ftx = bytearray(17)    # FIFO read: address bytes out ...
        self._frx = bytearray(17)    # ... FIFO bytes in
        cs.value(1)

    # -- blocking set-up, boot only --

    def begin(self, limit_ms=50):
        """Check the chip, soft reset, timer, 100 % ASK, gain, IRQ pin, antenna on. Returns
        VersionReg (0x91/0x92 for NXP chips; clones differ). ReaderError if no MFRC522 answers."""
        self._state = _IDLE
        v = self._rreg(_VERSION)
        if v not in KNOWN_VERSIONS:
            raise ReaderError("MFRC522: none at this CS (VersionReg 0x%02X)" % v)
        for pat in (0x55, 0xAA):  # a register keeps what is written: a chip drives MISO, not noise
            self._wreg(_TRELOADL, pat)
            if self._rreg(_TRELOADL) != pat:
                raise ReaderError("MFRC522: none at this CS (a register did not keep 0x%02X)" % pat)
        self._wreg(_COMMAND, _SOFTRESET)
        for _ in range(limit_ms):
            sleep_ms(1)
            if not self._rreg(_COMMAND) & _POWERDOWN:
                break
        else:
            raise ReaderError("MFRC522: stuck in reset")
        if self._rreg(_VERSION) != v:
            raise ReaderError("MFRC522: VersionReg changed: MISO not driven?")
        self.version = {0x91: "1.0", 0x92: "2.0"}.get(v, "clone %02X" % v)
        self._wreg(_TMODE, 0x80)       # TAuto: the timer starts when each transmission ends
        self._wreg(_TPRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: 25 us ticks
        self._wreg(_TRELOADH, 0)
        self._wreg(_TRELOADL, 200)     # 5 ms without an answer = no card (a card needs ~0.1 ms)
        self._wreg(_TXASK, 0x40)       # 100 % ASK modulation, as ISO14443A wants
        self._wreg(_MODE, 0x3D)        # CRC preset 6363 (CRC_A), should anyone use the chip's
        self._wreg(_COMIEN, 0xA3)      # IRQ pin inverted (low = pending) for RX, error, timer
        self._wreg(_DIVIEN, 0x80)      # IRQ pin push-pull
        self._wreg(_RFCFG, self._gain)
        if self._irq is not None:
            self._check_irq()
        self._wreg(_TXCONTROL, self._rreg(_TXCONTROL) | 0x03)  # antenna drivers TX1, TX2 on
        return v

    def _check_irq(self):
        """Raise a request by hand: the pin must go low, then high once it is cleared; if it
        does not follow (unwired, no pull-up, shorted) the status register is polled instead."""
        irq = self._irq
        if irq is None:
            return
        self._wreg(_COMIRQ, 0x80 | _TIMERIRQ)  # Set1: TimerIRq
        low = irq.value() == 0
        self._wreg(_COMIRQ, 0x7F)              # clear every request bit
        high = irq.value() == 1
        if not (low and high):
            self._irq = None
            self.irq_mode = "status"
            self.irq_note = "IRQ never went low" if high else "IRQ stuck low"

    def describe(self):
        """One line for the boot report: part, version, how readiness is seen."""
        s = "%s v%s, IRQ %s" % (self.part, self.version or "?",
                                 "pin" if self.irq_mode == "pin" else "not used: status polled")
        return s + (" (" + self.irq_note + ")" if self.irq_note else "")

    # -- the non-blocking reader interface --

    def start_poll(self):
        self.cancel()
        self._tries = 2 if self._again else 1
        self._again = False
        self._n = 0
        self._level = 0
        self._frame[1] = self._req
        self._transceive(1, 7)  # a short frame: 7 bits
        self._state = _REQ

    def collect(self):
        if self._state == _IDLE:
            raise ReaderError("MFRC522: collect() without start_poll()")
        try:
            return self._advance()
        except ReaderError:
            self.cancel()
            raise

    def cancel(self):
        """A card left mid-selection ignores the next WUPA/REQA (ISO14443-3: an unexpected frame
        sends it back to IDLE, silently), so the next poll asks twice before saying "no card"."""
        if self._state != _IDLE:
            self._state = _IDLE
            self._again = True
            self._wreg(_COMMAND, _IDLE_CMD)

    # -- the ISO14443A steps --

    def _advance(self):
        if self._state == _HALT:  # nothing answers HLTA: done once it is sent
            if not self._rreg(_COMIRQ) & _TXIRQ:
                return None
            self._state = _IDLE
            return bytes(self._uid[:self._n])
        if self._irq is not None and self._irq.value():
            return None
        irq = self._rreg(_COMIRQ)
        if not irq & (_RXIRQ | _ERRIRQ | _TIMERIRQ):
            return None
        if irq & _ERRIRQ:
            err = self._rreg(_ERROR)
            if err & _COLLERR:
                # A chip without supply reads FF everywhere, CollErr included: two cards only
                # while it still answers as an MFRC522 (else the caller brings it up again).
                v = self._rreg(_VERSION)
                if v not in KNOWN_VERSIONS:
                    raise ReaderError("MFRC522: not answering (VersionReg 0x%02X)" % v)
                raise TwoCards("MFRC522: two cards in the field")
            if err & _BADFRAME:
                raise ReaderError("MFRC522: bad frame (ErrorReg 0x%02X)" % err)
        if not irq & _RXIRQ:  # the timer ran out: no answer
            if self._state == _REQ:
                self._tries -= 1
                if self._tries:  # see cancel()
                    self._transceive(1, 7)
                    return None
                self._state = _IDLE
                return b""
            raise ReaderError("MFRC522: card lost mid-read")
        n = self._rreg(_FIFOLEVEL) & 0x7F
        if self._rreg(_CONTROL) & 0x07 or n > 16:
            raise ReaderError("MFRC522: bad frame length")
        rx = self._read_fifo(n)
        if self._state == _REQ:  # ATQA
            if n != 2:
                raise ReaderError("MFRC522: bad ATQA")
            self._anticollision()
        elif self._state == _ANTI:  # 4 UID bytes + BCC
            if n != 5 or rx[1] ^ rx[2] ^ rx[3] ^ rx[4] != rx[5]:
                raise ReaderError("MFRC522: bad BCC")
            self._cl[:] = rx[1:6]
            f = self._frame
            f[1] = _SEL_CODES[self._level]
            f[2] = 0x70  # NVB: all 40 bits known
            f[3:8] = self._cl
            self._send_crc(7)
            self._state = _SEL
        else:  # SAK + CRC_A
            if n != 3 or _crc(rx, 1, 1) != rx[2] | rx[3] << 8:
                raise ReaderError("MFRC522: bad SAK CRC")
            cl = self._cl
            if rx[1] & 0x04:  # cascade bit: UID not complete
                if cl[0] != 0x88 or self._level == 2:
                    raise ReaderError("MFRC522: bad cascade")
                self._uid[self._n:self._n + 3] = cl[1:4]
                self._n += 3
                self._level += 1
                self._anticollision()
            else:
                if cl[0] == 0x88:
                    raise ReaderError("MFRC522: cascade tag in the last level")
                self._uid[self._n:self._n + 4] = cl[0:4]
                self._n += 4
                f = self._frame
                f[1] = 0x50  # HLTA
                f[2] = 0x00
                self._send_crc(2)
                self._state = _HALT
        return None

    def _anticollision(self):
        f = self._frame
        f[1] = _SEL_CODES[self._level]
        f[2] = 0x20  # NVB: no UID bits known yet
        self._transceive(2, 0)
        self._state = _ANTI

    def _send_crc(self, n):
        f = self._frame
        c = _crc(f, 1, n)
        f[n + 1] = c & 0xFF
        f[n + 2] = c >> 8
        self._transceive(n + 2, 0)

    def _transceive(self, n, bits):
        """Send _frame[1:n+1] (last byte holding `bits` bits, 0 = 8) and start the exchange."""
        self._wreg(_COMMAND, _IDLE_CMD)  # stop whatever runs
        self._wreg(_COMIRQ, 0x7F)        # clear every request bit
        self._wreg(_FIFOLEVEL, 0x80)     # flush the FIFO
        f = self._frame
        f[0] = _FIFODATA << 1
        self._cs.value(0)
        try:
            self._spi.write(memoryview(f)[:n + 1])
        finally:
            self._cs.value(1)
        self._wreg(_COMMAND, _TRANSCEIVE)
        self._wreg(_BITFRAMING, 0x80 | bits)  # StartSend

    # -- registers --

    def _wreg(self, reg, v):
        b = self._reg
        b[0] = reg << 1
        b[1] = v
        self._cs.value(0)
        try:
            self._spi.write(b)
        finally:
            self._cs.value(1)

    def _rreg(self, reg):
        b = self._reg
        b[0] = 0x80 | reg << 1
        b[1] = 0
        self._cs.value(0)
        try:
            self._spi.write_readinto(b, b)
        finally:
            self._cs.value(1)
        return b[1]

    def _read_fifo(self, n):
        """n FIFO bytes in one transfer; they land in the returned buffer at [1:n+1]."""
        t = self._ftx
        for i in range(n):
            t[i] = 0x80 | _FIFODATA << 1
        t[n] = 0
        self._cs.value(0)
        try:
            self._spi.write_readinto(memoryview(t)[:n + 1], memoryview(self._frx)[:n + 1])
        finally:
            self._cs.value(1)
        return self._frx


def _crc(buf, a, n):
    """CRC_A (ISO/IEC 14443-3 annex B) of buf[a:a+n], as the 16-bit value (low byte sent first)."""
    c = 0x6363
    for i in range(a, a + n):
        b = buf[i] ^ (c & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        c = (c >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return c
