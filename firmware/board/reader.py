"""What every NFC reader driver offers (pn532.PN532, mfrc522.MFRC522), and one async helper.

A reader yields UIDs. Reading a card takes the chip milliseconds of RF work, so a poll is split
in two non-blocking halves and the event loop runs in between:

    begin()       bring the chip up (boot only; blocks a few ms, bounded) -> chip version
    start_poll()  send "look for ISO14443A cards"; returns at once (aborts a poll in flight)
    collect()     None   not finished yet: call again later
                  b''    finished, no card in the field
                  bytes  the UID of the one card in the field: 4, 7 (NTAG213/215) or 10 bytes
                  raises TwoCards (a ReaderError) when two cards answer, ReaderError on a
                  bad checksum, an unexpected frame, a card lost mid-read or a dead chip;
                  the reader is idle afterwards
    describe()    after begin(): "PN532 v1.6, IRQ pin", for the boot report
    part, version, irq_mode ("pin" or "status": the status register is polled), irq_note (why)
    cancel()      abandon a poll in flight

One poll reports what is in the field now; telling "a card arrived" from "the same card is
still there" is the caller's job. The SPI bus is MSB-first, mode 0, shared by both readers
(each has its own CS); every transfer happens with that reader's CS low, in one call.
"""
import asyncio


class ReaderError(Exception):
    """A poll failed; str() says why. Counted by the caller; the next poll starts afresh."""


class TwoCards(ReaderError):
    """More than one card answered: a referee must not guess which one was meant. Not a fault
    of the reader: the caller asks the players to take one away."""


async def read_uid(reader, period_ms=2, limit_ms=100):
    """One whole poll without blocking: start it, collect every period_ms, give up (cancel and
    raise ReaderError) when the chip has said nothing for limit_ms."""
    reader.start_poll()
    waited = 0
    while True:
        r = reader.collect()
        if r is not None:
            return r
        if waited >= limit_ms:
            reader.cancel()
            raise ReaderError("no answer from the reader in %d ms" % limit_ms)
        await _sleep(period_ms)
        waited += period_ms


async def _sleep(ms):
    f = getattr(asyncio, "sleep_ms", None)
    if f:
        await f(ms)
    else:  # CPython
        await asyncio.sleep(ms / 1000)
