"""NXP PN532 over SPI, polled without blocking (interface: board/reader.py).

Wire order: the PN532 shifts each SPI byte LSB first. We leave the bus MSB-first and bit-reverse
every byte in software (table _REV): the bus is shared with MSB-first chips (MFRC522, others),
machine.SoftSPI only does MSB-first, and a frame is ~20 bytes, so the cost is nil.
SPI mode 0, <= 5 MHz. Each transfer starts with a direction byte: data write, status read, data read.

Frames (UM0701-02 6.2): 00 00 FF LEN LCS TFI data.. DCS 00, LEN = bytes of TFI+data,
LEN+LCS = 0 and TFI+data+DCS = 0 (mod 256); TFI D4 to the chip, D5 from it. The chip answers a
command with an ACK frame (00 00 FF 00 FF 00), then with the response frame.

Ready: the status byte (bit 0) is the chip's word; the IRQ pin (low = ready) is a hint that saves
the status reads while nothing is ready. A frame is only read after the status byte said ready,
and never the response in the same call as its ACK: the chip drives IRQ itself and it can still
be low for a moment after the ACK was read. An IRQ line that never goes low while the status
says ready (miswired, no pull-up), or stays low while the chip has nothing (floating), is
dropped at begin(): the reader then polls the status byte, and irq_mode says so.

A poll asks for up to two cards (MaxTg 2): two cards in the field raise TwoCards, never a guess.
After a poll that found a card the RF field is switched off (RFConfiguration item 1), so every
card in it powers down and answers the next poll afresh: a target left selected ignores the
next REQA, and a 7-byte tag left on the reader would read only every other poll. The outcome is
given at once; the field goes off while the caller works, and the next start_poll() follows it.
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

_DW = const(0x80)  # data write 0x01, bit-reversed for the wire
_SR = const(0x40)  # status read 0x02
_DR = const(0xC0)  # data read 0x03

_GET_FIRMWARE = const(0x02)
_SAM_CONFIG = const(0x14)
_RF_CONFIG = const(0x32)
_IN_LIST = const(0x4A)

_IDLE = const(0)
_ACK = const(1)   # command sent, waiting for its ACK frame
_RESP = const(2)  # ACK read, waiting for the response frame

_IRQ_LOOKS = const(3)  # looks at a silent IRQ pin before the status byte is asked

_REV = bytearray(256)
for _i in range(256):
    _b = _i
    _b = (_b & 0xF0) >> 4 | (_b & 0x0F) << 4
    _b = (_b & 0xCC) >> 2 | (_b & 0x33) << 2
    _REV[_i] = (_b & 0xAA) >> 1 | (_b & 0x55) << 1
del _i, _b

_FIELD_OFF = b"\x01\x00"  # RFConfiguration CfgItem 1 (RF field): off, no auto RFCA
_FOUND = b"\x02\x00"      # InListPassiveTarget: MaxTg 2, BrTy 0 = 106 kbps ISO14443A


class PN532:
    part = "PN532"

    def __init__(self, spi: "SPI", cs: "Pin", irq: "Pin | None" = None, retries=2):
        """irq: the chip's IRQ pin (input, low = ready) saves an SPI status read per collect().
        retries: passive activation retries per poll; 0xFF would make a poll wait for a card forever."""
        self._spi = spi
        self._cs = cs
        self._irq = irq
        self._retries = retries
        self.irq_mode = "pin" if irq is not None else "status"
        self.irq_note = "" if irq is not None else "no IRQ pin given"
        self.version = ""         # "1.6" once begin() found the chip
        self._state = _IDLE
        self._tx = bytearray(16)   # direction byte + the longest command frame we send (13)
        self._rx = bytearray(96)   # response frames up to LEN 88 (two targets, or UID + ATS)
        self._mv = memoryview(self._rx)
        self._st = bytearray(2)
        self._cmd = 0
        self._t = 5
        self._quiet = 0           # looks at a high IRQ pin in a row
        self._false = 0           # IRQ low while the status said not ready, in a row
        self._off = False         # the field is being switched off (after a read)
        self._checking = False    # in call(): a silent IRQ pin is checked against the status
        self._dirty = False       # a poll broke off: switch the field off before the next one
        self._then_list = False   # a poll waits for the field to go off
        cs.value(1)

    # -- blocking set-up, boot only (each step bounded by limit_ms) --

    def begin(self, limit_ms=50):
        """Wake the chip, check it, put it in normal mode with IRQ, bound the poll retries.
        Returns (IC, version, revision), e.g. (0x32, 1, 6). ReaderError if it does not answer."""
        self.cancel()
        self._cs.value(0)  # a falling NSS edge wakes the chip; it needs ~2 ms before talking
        sleep_ms(2)
        self._cs.value(1)
        d = self.call(_GET_FIRMWARE, b"", limit_ms)
        if len(d) < 3 or d[0] != 0x32:
            raise ReaderError("PN532: not a PN532 (firmware %r)" % (bytes(d),))
        ver = (d[0], d[1], d[2])
        self.version = "%d.%d" % (d[1], d[2])
        self.call(_SAM_CONFIG, b"\x01\x14\x01", limit_ms)  # normal mode, (timeout), use IRQ
        # CfgItem 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation (default 0xFF = forever)
        self.call(_RF_CONFIG, bytes((0x05, 0xFF, 0x01, self._retries)), limit_ms)
        self.call(_RF_CONFIG, _FIELD_OFF, limit_ms)
        self._dirty = False
        if self._irq is not None and self._irq.value() == 0:
            sleep_ms(1)
            if self._irq.value() == 0 and not self._status():  # nothing pending, yet low
                self._drop_irq("IRQ stuck low")
        return ver

    def call(self, cmd, params, limit_ms=50):
        """Send a command and wait (bounded, 1 ms steps) for its response; the response data
        after the response code, as bytes."""
        self.cancel()
        self._send(cmd, params)
        self._checking = True
        try:
            for _ in range(limit_ms):
                r = self._step()
                if r is not None:
                    return bytes(self._mv[self._t + 2:r])
                sleep_ms(1)
        finally:
            self._checking = False
        self.cancel()
        raise ReaderError("PN532: no answer to command 0x%02X" % cmd)

    def describe(self):
        """One line for the boot report: part, firmware, how readiness is seen."""
        s = "%s v%s, IRQ %s" % (self.part, self.version or "?",
                                 "pin" if self.irq_mode == "pin" else "not used: status polled")
        return s + (" (" + self.irq_note + ")" if self.irq_note else "")

    # -- the non-blocking reader interface --

    def start_poll(self):
        if self._off:  # the field is still going off after the last read: the poll follows it
            self._then_list = True
            return
        self.cancel()
        if self._dirty:  # the last poll broke off: a card may still be selected
            self._dirty = False
            self._field_off()
            self._then_list = True
        else:
            self._send(_IN_LIST, _FOUND)

    def collect(self):
        if self._state == _IDLE or self._off and not self._then_list:
            raise ReaderError("PN532: collect() without start_poll()")
        end = self._step()
        if end is None:
            return None
        if self._cmd == _RF_CONFIG:  # the field is off: now the poll itself
            self._off = self._then_list = False
            self._send(_IN_LIST, _FOUND)
            return None
        d = self._mv[self._t + 1:end]  # 4B NbTg [Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1 (ATS)]..
        if len(d) < 2:
            raise ReaderError("PN532: short poll response")
        if d[1] == 0:
            return b""
        # A card was selected: switch the field off now, while the caller gets the outcome
        # (the next start_poll() goes on from there).
        self._field_off()
        if d[1] == 2:
            raise TwoCards("PN532: two cards in the field")
        n = d[6] if len(d) >= 7 else 0
        if d[1] != 1:
            raise ReaderError("PN532: %d targets" % d[1])
        if n not in (4, 7, 10) or 7 + n > len(d):
            raise ReaderError("PN532: bad UID length %d" % n)
        return bytes(d[7:7 + n])

    def cancel(self):
        """An ACK frame from the host aborts the command the chip is working on."""
        self._off = self._then_list = False
        if self._state != _IDLE:
            self._dirty = True  # it may have selected a card: the field goes off first next time
            self._state = _IDLE
            self._tx[1:7] = b"\x00\x00\xff\x00\xff\x00"
            self._write(7)

    def _field_off(self):
        self._send(_RF_CONFIG, _FIELD_OFF)
        self._off = True

    # -- frames --

    def _send(self, cmd, params):
        t = self._tx  # [direction] 00 00 FF LEN LCS D4 cmd params.. DCS 00
        n = len(params) + 2  # TFI, command code, params
        t[1:4] = b"\x00\x00\xff"
        t[4] = n
        t[5] = -n & 0xFF
        t[6] = 0xD4
        t[7] = cmd
        s = 0xD4 + cmd
        i = 8
        for p in params:
            t[i] = p
            s += p
            i += 1
        t[i] = -s & 0xFF
        t[i + 1] = 0
        self._write(i + 2)
        self._cmd = cmd
        self._state = _ACK

    def _write(self, n):
        """Data write of _tx[1:n], reversed in place for the wire, in one transfer."""
        t = self._tx
        t[0] = _DW
        for i in range(1, n):
            t[i] = _REV[t[i]]
        self._cs.value(0)
        try:
            self._spi.write(memoryview(t)[:n])
        finally:
            self._cs.value(1)

    def _status(self):
        """The status byte: 1 when a frame is ready to be read."""
        st = self._st  # direction byte out, status byte in: one transfer
        st[0] = _SR
        st[1] = 0
        self._cs.value(0)
        try:
            self._spi.write_readinto(st, st)
        finally:
            self._cs.value(1)
        return _REV[st[1]] & 1

    def _drop_irq(self, why):
        self._irq = None
        self.irq_mode = "status"
        self.irq_note = why

    def _ready(self):
        irq = self._irq
        if irq is None:
            return self._status()
        if irq.value():  # high: nothing yet, unless the line never goes low (checked in call())
            if not self._checking:
                return False
            self._quiet += 1
            if self._quiet < _IRQ_LOOKS:
                return False
            self._quiet = 0
            if not self._status():
                return False
            self._drop_irq("IRQ never went low")
            return True
        self._quiet = 0
        if self._status():
            self._false = 0
            return True
        self._false += 1  # low a moment after a frame was read, or a floating line
        if self._false >= 4 * _IRQ_LOOKS:
            self._drop_irq("IRQ stuck low")
        return False

    def _step(self):
        """Advance the command in flight. None: nothing to read yet. Else the reader is idle,
        the response is _rx[_t:end] (TFI D5, response code, data) and end is returned.
        On any error the command is aborted, so the next one starts clean."""
        try:
            return self._advance()
        except ReaderError:
            self.cancel()
            self._dirty = True
            raise

    def _advance(self):
        if not self._ready():
            return None
        if self._state == _ACK:
            if self._read() != 0:
                raise ReaderError("PN532: no ACK")
            self._state = _RESP
            return None  # the response is read in a later call, never in this one
        end = self._read()
        self._state = _IDLE
        rx = self._rx
        t = self._t
        if end == 0:
            raise ReaderError("PN532: ACK where a response was due")
        if rx[t] == 0x7F:  # LEN 1, "TFI" 7F: the chip's syntax-error frame
            raise ReaderError("PN532: error frame")
        if rx[t] != 0xD5 or end < t + 2 or rx[t + 1] != self._cmd + 1:
            raise ReaderError("PN532: unexpected frame")
        return end

    def _read(self):
        """Data read of one frame into _rx. 0 for an ACK frame; else sets _t to the index of TFI
        and returns the index of DCS (data = _rx[_t + 1:end]). Raises on NACK or bad checksums."""
        rx = self._rx
        mv = self._mv
        self._cs.value(0)
        try:
            rx[0] = _DR
            rx[1:7] = b"\x00\x00\x00\x00\x00\x00"
            self._spi.write_readinto(mv[0:7], mv[0:7])  # [00] 00 FF LEN LCS TFI: a whole ACK/NACK
            self._flip(1, 7)
            o = 1 if rx[2] == 0 else 0  # the 00 preamble is optional
            if rx[1 + o] != 0 or rx[2 + o] != 0xFF:
                raise ReaderError("PN532: no start code")
            ln = rx[3 + o]
            lcs = rx[4 + o]
            if ln == 0 and lcs == 0xFF:
                return 0
            if ln == 0xFF and lcs == 0:
                raise ReaderError("PN532: NACK")
            if (ln + lcs) & 0xFF:
                raise ReaderError("PN532: bad LCS")
            t = 5 + o
            end = t + ln  # DCS; the postamble is left unread
            if end >= len(rx):
                raise ReaderError("PN532: frame too long")
            if end >= 7:
                self._spi.readinto(mv[7:end + 1])
                self._flip(7, end + 1)
        finally:
            self._cs.value(1)
        s = 0
        for i in range(t, end + 1):
            s += rx[i]
        if s & 0xFF:
            raise ReaderError("PN532: bad DCS")
        self._t = t
        return end

    def _flip(self, a, b):
        rx = self._rx
        for i in range(a, b):
            rx[i] = _REV[rx[i]]
