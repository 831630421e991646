"""A night's table inputs in a file, one record an input (kind, length, payload): random players
write them and are thrown away, and the measured process reads them back one at a time, so that
nothing of the players is in its heap (bench/tight_heap.py).

bench/heap.py writes and reads the same records with code of its own: one module more in its
process (players and replay in one) interns names that move the qstr pool's next growth step,
and its absolute figures with it (some 20 KB on the 64-bit port, for base and tree alike)."""
_IN_SHOE, _IN_PAD, _IN_SHUFFLE, _IN_TICK = 1, 2, 5, 6  # uno/events.py (host-only)


def put(f, inp):
    """Writes inp: a card read, a tick, a shuffle, or a press or colour (kind, a, b)."""
    kind = inp[0]
    if kind == _IN_SHOE or kind == _IN_PAD:
        body = bytes(inp[1])
    elif kind == _IN_TICK:
        body = inp[1].to_bytes(4, "little")
    else:
        body = bytes(inp[1:])
    f.write(bytes((kind, len(body))) + body)


def inputs(path):
    """Yields the inputs put() wrote to the file at path, in order."""
    with open(path, "rb") as f:
        while True:
            head = f.read(2)
            if not head:
                return
            body = f.read(head[1])
            kind = head[0]
            if kind == _IN_SHOE or kind == _IN_PAD:
                yield (kind, body)
            elif kind == _IN_TICK:
                yield (kind, int.from_bytes(body, "little"))
            elif kind == _IN_SHUFFLE:
                yield (kind,)
            else:
                yield (kind, body[0], body[1])
