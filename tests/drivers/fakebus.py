"""Bus-level fakes for the reader drivers: the drivers see only what a board gives them.

Bus     machine.SPI look-alike (write, readinto, write_readinto; MSB-first) that hands each
        byte to the one device whose chip-select Pin is low, and fails loudly on two.
Pin     machine.Pin look-alike (value(), value(v), pin(v)); an input pin may read a function.
PN532   the chip's side of the SPI frame protocol: LSB-first bytes, direction byte, frames
        checked byte by byte (LCS, TFI, DCS), ACK then response, status byte / IRQ pin
        not ready for `latency` looks, cards placed in its field.
MFRC522 register file: FIFO, CommandReg (Transceive, Idle, SoftReset), BitFramingReg
        (StartSend, TxLastBits), ComIrqReg set/clear semantics, ErrorReg, the timer, IRQ pin.
Tag     an ISO14443A card (NTAG213/215 by default) that answers REQA/WUPA, ANTICOLLISION and
        SELECT per cascade level, and HLTA, checking BCC and CRC_A as a real card would.

Written from the datasheets, independently of the drivers (own bit reversal, own CRC).
"""


def rev8(b):
    """Bit-reverse one byte, bit by bit (the PN532 shifts LSB first)."""
    r = 0
    for i in range(8):
        r = (r << 1) | ((b >> i) & 1)
    return r


def crc_a(data):
    """CRC_A: reflected CRC-16, polynomial 0x8408, preset 0x6363; [low, high]."""
    c = 0x6363
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0x8408 if c & 1 else c >> 1
    return [c & 0xFF, c >> 8]


class Pin:
    """machine.Pin look-alike. read: a function giving the level (an input driven by a chip);
    edge: called with the new level when a written level changes (a chip watching its CS)."""

    def __init__(self, v=1, read=None, edge=None):
        self._v = v
        self._read = read
        self._edge = edge

    def value(self, v=None):
        if v is None:
            return self._read() if self._read else self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            if self._edge:
                self._edge(v)
        return None

    def __call__(self, v=None):
        return self.value(v)


class Bus:
    """The SPI bus: attach(dev) gives the device's CS pin; each transfer goes to the one
    device whose CS is low. `transfers` counts them."""

    def __init__(self):
        self.devs = []
        self.transfers = 0

    def attach(self, dev):
        cs = Pin(1, edge=dev.cs_edge)
        self.devs.append((cs, dev))
        return cs

    def _dev(self):
        on = [d for cs, d in self.devs if cs.value() == 0]
        assert len(on) == 1, "SPI transfer with %d chips selected" % len(on)
        return on[0]

    def write(self, buf):
        d = self._dev()
        self.transfers += 1
        for b in buf:
            d.xfer(b)

    def readinto(self, buf, write=0):
        d = self._dev()
        self.transfers += 1
        for i in range(len(buf)):
            buf[i] = d.xfer(write)

    def write_readinto(self, wbuf, rbuf):
        assert len(wbuf) == len(rbuf)
        d = self._dev()
        self.transfers += 1
        for i in range(len(wbuf)):
            rbuf[i] = d.xfer(wbuf[i])


class _Dev:
    """A chip on the bus: begin()/end() at its CS edges, xfer(byte) -> byte in between."""

    def __init__(self, bus):
        self.cs = bus.attach(self)

    def cs_edge(self, level):
        if level == 0:
            self.begin()
        else:
            self.end()


ACK = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
ERROR_FRAME = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]


class PN532(_Dev):
    """The chip's SPI side (UM0701-02) and its RF side.

    latency: status looks (status reads or IRQ-pin reads) before a response is ready; the
    response is built at that moment, from the cards then in `field` (UIDs as bytes, or Tag
    objects), so a card taken away mid-read is not in it.
    Cards: each is an ISO14443A card state machine (Tag). InListPassiveTarget sends REQA: cards
    in IDLE answer; a card left ACTIVE by the last poll hears REQA as unexpected and drops to
    IDLE silently (ISO14443-3), so without the field switched off in between, a card left on
    the reader answers every other poll. MaxTg 1 takes the first card that answers and stays
    quiet about the others; MaxTg 2 reports two. RFConfiguration item 1 (field off) powers
    every card down; the next InListPassiveTarget switches the field on again.
    irq_lag: IRQ-pin looks for which the pin stays low after a frame was read (the chip drives
    it and releases it a moment later). irq_wired False: the pin sits high (miswired, no
    pull-down from the chip); irq_stuck: the pin reads low whatever the chip does.
    Not ready: a data read then gives `junk` bytes (as raw MISO values). waking: looks during
    which the chip is still waking: every byte it shifts out is 0xAA and commands are lost.
    corrupt: None, "lcs", "dcs", "start", "nack", "noack" or "error" for the next frame the
    chip sends; "other": the next response, well formed, answers another command (one the host
    gave up on, its abort lost). silent: never ready.
    """

    def __init__(self, bus, latency=1):
        _Dev.__init__(self, bus)
        self.irq = Pin(read=self._irq_level)
        self.latency = latency
        self.field = []          # cards in the field, in the order they answer
        self.corrupt = None
        self.silent = False
        self.preamble = True
        self.irq_lag = 0
        self.irq_wired = True
        self.irq_stuck = False
        self.junk = [0x00]
        self.waking = 0
        self.commands = []       # command codes received in valid frames
        self.bad_frames = 0      # host frames with a wrong checksum or layout
        self.bad_direction = 0   # transfers that did not start with a PN532 direction byte
        self.aborts = 0          # ACK frames from the host
        self.wakeups = 0         # CS pulses without a byte
        self.junk_reads = 0      # data reads while nothing was ready
        self.rf_config = None    # the last CfgItem 5 (retries) parameters
        self.rf = False          # the RF field
        self.field_offs = 0
        self.max_tg = []         # MaxTg of every InListPassiveTarget
        self.sam = None
        self._cards = {}
        self._out = []
        self._oi = 0
        self._ji = 0
        self._ready = False
        self._pending = None     # (cmd, params) between our ACK and the response
        self._countdown = 0
        self._is_ack = False
        self._lag = 0

    # bus side

    def begin(self):
        self._op = None
        self._in = []

    def _junk(self):
        j = self.junk[self._ji % len(self.junk)]
        self._ji += 1
        return j

    def xfer(self, b):
        if self.waking > 0:
            if self._op is None:
                self._op = -1
            return 0xAA
        v = rev8(b)
        if self._op is None:
            if v not in (1, 2, 3):
                self.bad_direction += 1
                self._op = -1
                return self._junk()
            self._op = v
            return 0
        if self._op == -1:
            return self._junk()
        if self._op == 1:
            self._in.append(v)
            return 0
        if self._op == 2:
            return rev8(1 if self._look() else 0)
        if not self._ready:
            self.junk_reads += 1
            return self._junk()
        if self._oi < len(self._out):
            r = self._out[self._oi]
            self._oi += 1
            return rev8(r)
        return 0

    def end(self):
        if self._op is None:  # CS pulsed with no byte: the host's wake-up
            self.wakeups += 1
        elif self._op == -1:
            if self.waking > 0:
                self.waking -= 1
        elif self._op == 1:
            self._frame_in(self._in)
        elif self._op == 3 and self._ready and self._oi > 0:
            self._ready = False
            self._out = []
            self._lag = self.irq_lag
            if self._is_ack and self._pending is not None:
                self._countdown = self.latency

    def _irq_level(self):
        if self.irq_stuck:
            return 0
        if not self.irq_wired:
            self._look()
            return 1
        if self._lag > 0:
            self._lag -= 1
            return 0
        return 0 if self._look() else 1

    def _look(self):
        if self.silent:
            return False
        if self.waking > 0:
            self.waking -= 1
            return False
        if not self._ready and self._pending is not None:
            if self._countdown <= 0:
                self._respond()
            else:
                self._countdown -= 1
        return self._ready

    # protocol side

    def _frame_in(self, f):
        if f == ACK:
            self.aborts += 1
            self._pending = None
            self._ready = False
            self._out = []
            return
        ok = (len(f) >= 8 and f[0] == 0 and f[1] == 0 and f[2] == 0xFF
              and (f[3] + f[4]) & 0xFF == 0 and len(f) == f[3] + 7 and f[5] == 0xD4
              and sum(f[5:5 + f[3] + 1]) & 0xFF == 0 and f[-1] == 0)
        if not ok:
            self.bad_frames += 1
            return
        data = f[6:5 + f[3]]
        self.commands.append(data[0])
        self._pending = (data[0], data[1:])
        self._send(list(ACK), True)

    def _send(self, frame, is_ack):
        c = self.corrupt
        if c is not None and not (is_ack and c in ("lcs", "dcs", "error", "other")):
            self.corrupt = None
            if c == "lcs":
                frame[4] ^= 0x01
            elif c == "dcs":
                frame[-2] ^= 0x01
            elif c == "start":
                frame[2] = 0xFE
            elif c == "nack" or c == "noack":
                frame = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
            elif c == "error":
                frame = list(ERROR_FRAME)
            elif c == "other":
                frame[6] = 0x33 if frame[6] != 0x33 else 0x4B
                frame[-2] = -sum(frame[5:-2]) & 0xFF
        if not self.preamble:
            frame = frame[1:]
        self._out = frame
        self._oi = 0
        self._ready = True
        self._is_ack = is_ack

    # RF side

    def card(self, c):
        """The Tag for a field entry (a UID as bytes gets one Tag, kept while it exists)."""
        if isinstance(c, Tag):
            return c
        t = self._cards.get(bytes(c))
        if t is None:
            t = self._cards[bytes(c)] = Tag(c)
        return t

    def _present(self):
        here = [self.card(c) for c in self.field]
        for t in list(self._cards.values()):
            if t not in here:  # out of the field: no power
                t.state = "IDLE"
        return here

    def _field_off(self):
        self.rf = False
        self.field_offs += 1
        for t in self._present():
            t.state = "IDLE"

    def _list(self, max_tg):
        cards = self._present()
        self.rf = True
        found = []
        for t in cards:
            if t.hear([0x26], 7) is not None:  # REQA: only cards in IDLE answer
                found.append(t)
        data = [0x4B, min(len(found), max_tg)]
        for i in range(len(found)):
            t = found[i]
            if i < max_tg:  # anticollision and select, done inside the chip
                t.state = "ACTIVE"
                u = list(t.uid)
                data += [i + 1] + t.atqa + [t.sak, len(u)] + u
            else:
                t.state = "IDLE"
        return data

    def _respond(self):
        cmd, p = self._pending
        self._pending = None
        if cmd == 0x02:
            data = [0x03, 0x32, 0x01, 0x06, 0x07]
        elif cmd == 0x14:
            self.sam = list(p)
            data = [0x15]
        elif cmd == 0x32 and len(p) >= 2 and p[0] in (0x01, 0x05):
            if p[0] == 0x05:
                self.rf_config = list(p)
            elif p[1] & 1:
                self.rf = True
            else:
                self._field_off()
            data = [0x33]
        elif cmd == 0x4A and len(p) == 2 and p[0] in (1, 2) and p[1] == 0:
            self.max_tg.append(p[0])
            data = self._list(p[0])
        else:
            self._send(list(ERROR_FRAME), False)
            return
        body = [0xD5] + data
        n = len(body)
        frame = [0x00, 0x00, 0xFF, n, -n & 0xFF] + body + [-sum(body) & 0xFF, 0x00]
        self._send(frame, False)


class Floating(_Dev):
    """A chip-select with no chip behind it: MISO floats. `levels` are what the host reads,
    byte after byte (a 10k pull-up gives [0xFF]; without one, 00, FF or noise)."""

    def __init__(self, bus, levels=(0xFF,)):
        _Dev.__init__(self, bus)
        self.levels = list(levels)
        self.irq = Pin(1)
        self.field = []
        self._i = 0

    def begin(self):
        pass

    def end(self):
        pass

    def xfer(self, b):
        v = self.levels[self._i % len(self.levels)]
        self._i += 1
        return v


# -- MFRC522 --

class Tag:
    """An ISO14443A card: IDLE -> READY (per level) -> ACTIVE -> HALT, as in 14443-3."""

    def __init__(self, uid, atqa=(0x44, 0x00), sak=0x00, needs_db=18):
        """needs_db: the receiver gain a reader needs to hear this card's answers (far away,
        under a thick cover, a small antenna: more)."""
        self.needs_db = needs_db
        self.uid = bytes(uid)
        assert len(self.uid) in (4, 7, 10)
        self.atqa = list(atqa)
        self.sak = sak
        self.levels = {4: 1, 7: 2, 10: 3}[len(self.uid)]
        self.state = "IDLE"
        self.level = 0

    def cl(self, level):
        u = list(self.uid)
        if level == self.levels - 1:
            part = u[-4:]
        else:
            part = [0x88] + u[3 * level:3 * level + 3]
        return part + [part[0] ^ part[1] ^ part[2] ^ part[3]]

    def hear(self, f, bits):
        """The card's answer (list of bytes) to frame f whose last byte has `bits` bits, or None."""
        if bits == 7 and len(f) == 1 and f[0] in (0x26, 0x52):
            if self.state == "IDLE" or (f[0] == 0x52 and self.state == "HALT"):
                self.state = "READY"
                self.level = 0
                return list(self.atqa)
            if self.state != "HALT":  # mid-selection or ACTIVE: unexpected, back to IDLE, silent
                self.state = "IDLE"
            return None
        if bits != 0:
            return None
        sel = (0x93, 0x95, 0x97)
        if self.state == "READY" and len(f) >= 2 and f[0] == sel[self.level]:
            if len(f) == 2 and f[1] == 0x20:
                return self.cl(self.level)
            if (len(f) == 9 and f[1] == 0x70 and f[2:7] == self.cl(self.level)
                    and crc_a(f[:7]) == f[7:9]):
                self.level += 1
                if self.level == self.levels:
                    self.state = "ACTIVE"
                    s = self.sak
                else:
                    s = 0x04
                return [s] + crc_a([s])
        if self.state == "ACTIVE" and f == [0x50, 0x00] + crc_a([0x50, 0x00]):
            self.state = "HALT"
            return None
        # anything unexpected sends the card back to IDLE (HALT stays HALT)
        if self.state != "HALT":
            self.state = "IDLE"
        return None


GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)  # RFCfgReg RxGain (bits 6..4) -> dB, datasheet 9.3.3.6


class MFRC522(_Dev):
    """latency: ComIrqReg (or IRQ pin) looks before a transceive's outcome shows. corrupt:
    None, "bcc", "crc" or "parity" for the next answer. With the antenna drivers off
    (TxControlReg TX1/TX2) there is no field: cards have no power and nothing answers. The
    receiver hears a card only when RFCfgReg's gain reaches the card's needs_db (reset value
    0x48: 33 dB). irq_wired False: the IRQ pin sits high; irq_stuck: it reads low.
    power(False): the chip loses its supply; MISO is then not driven and reads `miso` (FF with a
    pull-up). power(True): it starts again from its reset values (antenna off, no timer)."""

    COMMAND, COMIEN, DIVIEN, COMIRQ, ERROR = 0x01, 0x02, 0x03, 0x04, 0x06
    FIFODATA, FIFOLEVEL, CONTROL, BITFRAMING, TMODE, VERSION = 0x09, 0x0A, 0x0C, 0x0D, 0x2A, 0x37
    TXCONTROL, RFCFG = 0x14, 0x26

    def __init__(self, bus, latency=1, version=0x92):
        _Dev.__init__(self, bus)
        self.irq = Pin(read=self._irq_level)
        self.irq_wired = True
        self.irq_stuck = False
        self.latency = latency
        self.version = version
        self.field = []      # Tag objects
        self.corrupt = None
        self.frames = []     # (bytes, bits) sent over the air
        self.resets = 0
        self.powered = True
        self.miso = 0xFF
        self._reset()

    def power(self, on):
        if on and not self.powered:
            self._reset()
        self.powered = on

    def _reset(self):
        self.regs = bytearray(64)
        self.regs[self.COMMAND] = 0x20  # RcvOff... PowerDown clear: ready at once
        self.regs[self.TXCONTROL] = 0x80  # reset value: antenna drivers off
        self.regs[self.RFCFG] = 0x48      # reset value: RxGain 33 dB
        self.fifo = []
        self.irq_bits = 0x14            # power-on ComIrqReg value
        self.err = 0
        self._outcome = None
        self._countdown = 0

    def begin(self):
        self._addr = None

    def end(self):
        pass

    def xfer(self, b):
        if not self.powered:
            return self.miso
        if self._addr is None:
            assert b & 0x01 == 0, "address byte bit 0 must be 0"
            self._read = bool(b & 0x80)
            self._addr = (b >> 1) & 0x3F
            return 0
        if self._read:
            r = self._rd(self._addr)
            self._addr = (b >> 1) & 0x3F
            return r
        self._wr(self._addr, b)
        return 0

    def _irq_level(self):
        if self.irq_stuck:
            return 0
        if not self.irq_wired or not self.powered:
            return 1
        self._tick()
        pending = self.irq_bits & self.regs[self.COMIEN] & 0x7F
        inv = self.regs[self.COMIEN] & 0x80
        return (0 if pending else 1) if inv else (1 if pending else 0)

    def _tick(self):
        if self._outcome is not None:
            if self._countdown <= 0:
                self._apply()
            else:
                self._countdown -= 1

    def _rd(self, a):
        if a == self.COMIRQ:
            self._tick()
            return self.irq_bits
        if a == self.ERROR:
            return self.err
        if a == self.FIFODATA:
            return self.fifo.pop(0) if self.fifo else 0
        if a == self.FIFOLEVEL:
            return len(self.fifo)
        if a == self.VERSION:
            return self.version
        return self.regs[a]

    def _wr(self, a, v):
        if a == self.COMMAND:
            cmd = v & 0x0F
            self.regs[a] = v & 0x2F  # RcvOff and the command; we never model power-down
            if cmd == 0x0F:
                self.resets += 1
                self._reset()
            elif cmd == 0x00:
                self._outcome = None
            return
        if a == self.COMIRQ:
            if v & 0x80:
                self.irq_bits |= v & 0x7F
            else:
                self.irq_bits &= ~v & 0x7F
            return
        if a == self.FIFODATA:
            self.fifo.append(v)
            return
        if a == self.FIFOLEVEL:
            if v & 0x80:
                self.fifo = []
                self.err &= ~0x10
            return
        if a == self.BITFRAMING:
            self.regs[a] = v & 0x7F
            if v & 0x80 and self.regs[self.COMMAND] & 0x0F == 0x0C:
                self._transceive(v & 0x07)
            return
        self.regs[a] = v

    def antenna(self):
        return self.regs[self.TXCONTROL] & 0x03 != 0

    def _transceive(self, bits):
        f = list(self.fifo)
        self.fifo = []
        self.frames.append((bytes(f), bits))
        answers = []
        db = GAIN_DB[self.regs[self.RFCFG] >> 4 & 7]
        for t in self.field:
            if not self.antenna():  # no field: the card has no power
                t.state = "IDLE"
                continue
            r = t.hear(f, bits)
            if r is not None and db >= t.needs_db:
                answers.append(r)
        self._outcome = answers
        self._countdown = self.latency

    def _apply(self):
        answers = self._outcome
        self._outcome = None
        if self.regs[self.COMMAND] & 0x20:  # RcvOff: the receiver hears nothing
            answers = []
        self.err = 0
        self.irq_bits |= 0x40  # TxIRq: the frame went out
        if not answers:
            if self.regs[self.TMODE] & 0x80:  # TAuto: the timer ran from the end of TX
                self.irq_bits |= 0x01
            return  # no timer configured: nothing ever happens, as on the chip
        a = list(answers[0])
        for other in answers[1:]:
            if other != a:
                self.err |= 0x08  # CollErr
        c = self.corrupt
        self.corrupt = None
        if c == "bcc" and len(a) == 5:
            a[4] ^= 0x01
        elif c == "crc" and len(a) == 3:
            a[2] ^= 0x01
        elif c == "parity":
            self.err |= 0x02
        elif c is not None:
            self.corrupt = c  # not this answer's kind: keep it for the next one
        self.fifo = a
        self.regs[self.CONTROL] = 0  # RxLastBits: whole bytes
        self.irq_bits |= 0x20  # RxIRq
        if self.err:
            self.irq_bits |= 0x02  # ErrIRq


def poll(r, max_collects):
    """One read through a driver's non-blocking pair: start_poll(), then collect() until done."""
    r.start_poll()
    for _ in range(max_collects):
        got = r.collect()
        if got is not None:
            return got
    raise AssertionError("no result")
