"""Link frames: printable lines with a version, request id, verb, status, payload and CRC-32."""
from check import raises
from uno.bot import Rng
from link import frame as fr
from link.frame import decode, encode, encode_into, find, FrameError


def _printable_line(b):
    assert b[-1:] == b"\n"
    for c in b[:-1]:
        assert 0x20 <= c <= 0x7E, (c, b)


def test_round_trip_of_request_and_answers():
    for st in (fr.REQ, fr.OK, fr.ERR):
        b = encode(0x1F, "records", st, b'{"from": 1, "max": 300}')
        _printable_line(b)
        assert b.startswith(b"~1 1f records " + st.encode() + b" {")
        assert decode(b) == (0x1F, "records", st, b'{"from": 1, "max": 300}')


def test_empty_payload_and_payload_with_spaces():
    b = encode(0, "hello", fr.REQ)
    assert decode(b) == (0, "hello", "?", b"")
    b = encode(0xFFFF, "rule", fr.ERR, "no rule 'x y'  here ")
    assert decode(b) == (0xFFFF, "rule", "-", b"no rule 'x y'  here ")


def test_frame_layout_is_the_documented_one():
    b = encode(7, "status", fr.REQ, b"")
    from binascii import crc32
    assert b == b"~1 7 status ?  %08x\n" % crc32(b"~1 7 status ? ")


def test_encode_into_a_preallocated_buffer():
    buf = bytearray(fr.MAX)
    n = encode_into(buf, 3, "ack", fr.REQ, b'{"upto": 9}')
    assert decode(buf[0:n]) == (3, "ack", "?", b'{"upto": 9}')
    m = encode_into(buf, 4, "hello", fr.REQ, b"")
    assert m < n and decode(memoryview(buf)[0:m])[1] == "hello"


def test_every_frame_is_printable_for_random_payloads():
    rng = Rng(3)
    for _ in range(200):
        p = bytes(0x20 + rng.below(95) for _ in range(rng.below(300)))
        b = encode(rng.below(0x10000), "records", fr.OK, p)
        _printable_line(b)
        assert decode(b)[3] == p
        for c in (1, 2, 3, 4, 5, 0):   # Ctrl-A..E and NUL never appear
            assert bytes((c,)) not in b


def test_control_bytes_are_refused_both_ways():
    for c in (0, 1, 2, 3, 4, 5, 9, 13, 27, 127, 200):
        raises(ValueError, encode, 1, "rule", fr.REQ, bytes((0x41, c)))
    good = encode(1, "rule", fr.REQ, b"AB")
    bad = good.replace(b"AB", b"A\x03")
    assert raises(FrameError, decode, bad).reason == fr.GARBAGE


def test_crlf_line_end_is_accepted():
    b = encode(5, "status", fr.OK, b"{}")
    assert decode(b[:-1] + b"\r\n") == decode(b) == decode(b[:-1])


def test_every_single_byte_change_is_caught():
    b = encode(0x2A, "records", fr.OK, b"AQIDBAUGBwgJCgsMDQ4PEA==")
    body = b[:-1]
    for i in range(len(body)):
        for c in (0x20, 0x30, 0x41, 0x7E, body[i] ^ 1):
            if c == body[i] or not 0x20 <= c <= 0x7E:
                continue
            bad = body[:i] + bytes((c,)) + body[i + 1:]
            e = raises(FrameError, decode, bad)
            assert e.reason in (fr.BAD_CRC, fr.GARBAGE, fr.BAD_VERSION), (i, c, e)


def test_bad_checksum_is_reported_as_such():
    b = encode(9, "status", fr.OK, b'{"phase": "play"}')
    bad = b.replace(b"play", b"plax")
    e = raises(FrameError, decode, bad)
    assert e.reason == fr.BAD_CRC and "checksum" in str(e)


def _frame_v(version, rid, rest):
    from binascii import crc32
    body = b"~%d %x " % (version, rid) + rest
    return body + b" %08x\n" % crc32(body)


def test_wrong_version_names_the_version_and_keeps_the_id():
    e = raises(FrameError, decode, _frame_v(2, 0x33, b"hello ? "))
    assert e.reason == fr.BAD_VERSION and e.version == 2 and e.rid == 0x33
    assert "protocol 2" in str(e)
    assert decode(_frame_v(1, 0x33, b"hello ? ")) == (0x33, "hello", "?", b"")


def test_oversized_frames():
    room = fr.MAX - len(encode(1, "records", fr.OK, b""))
    b = encode(1, "records", fr.OK, b"A" * room)
    assert len(b) == fr.MAX and decode(b)[3] == b"A" * room
    raises(ValueError, encode, 1, "records", fr.OK, b"A" * (room + 1))
    long = b"~1 1 records + " + b"A" * fr.MAX + b" 00000000\n"
    e = raises(FrameError, decode, long)
    assert e.reason == fr.TOO_LONG and "oversized" in str(e)


def test_garbage_lines_are_garbage():
    for line in (b"", b"\n", b">>> ", b"Traceback (most recent call last):\n", b"~", b"~1 2 3",
                 b"~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~", b"\x03\x03\x01", b"\xff\xfe~1",
                 b"~1 1 hello ? 1234567", b"~1 1 hello ?  zzzzzzzz",
                 b"MPY: soft reboot"):
        assert raises(FrameError, decode, line).reason == fr.GARBAGE, line


def test_fields_are_checked_even_with_a_good_checksum():
    for rest in (b"Hello ? ", b"hello ! ", b"toolongverb ? ", b"hello ?", b"hel1o ? "):
        assert raises(FrameError, decode, _frame_v(1, 1, rest)).reason == fr.GARBAGE, rest
    from binascii import crc32
    body = b"~1 12345 hello ? "                 # request id over 4 hex digits
    assert raises(FrameError, decode, body + b" %08x" % crc32(body)).reason == fr.GARBAGE


def test_bad_fields_are_refused_by_the_encoder():
    raises(ValueError, encode, -1, "hello", fr.REQ)
    raises(ValueError, encode, 0x10000, "hello", fr.REQ)
    for verb in ("", "Hello", "he llo", "h1", "abcdefghi", "\u00e9t\u00e9"):
        raises(ValueError, encode, 1, verb, fr.REQ)
    raises(ValueError, encode, 1, "hello", "!")


def test_find_skips_noise_before_the_marker():
    b = encode(2, "status", fr.OK, b"{}")
    assert find(b"I (1234) boot: noise ~ ~~" + b) == (2, "status", "+", b"{}")
    assert raises(FrameError, find, b"no marker at all").reason == fr.GARBAGE


def test_ascii_text_escapes_what_is_not_printable():
    assert fr.ascii_text("plain") == b"plain"
    assert fr.ascii_text('"\u00e9"') == b'"\\u00e9"'
    assert fr.ascii_text("a\nb\x03") == b"a?b?"
    assert fr.ascii_text("\U0001F0CF") == b"\\ud83c\\udccf"


def test_frames_are_these_exact_bytes():
    # crc32 written out, not computed: a change in the checksum's range or hex form shows here
    assert encode(0xFFFF, "records", fr.OK, b"DH8E") == b"~1 ffff records + DH8E b58425c3\n"
    assert encode(0x80, "undo", fr.REQ, b'{"n":1}') == b'~1 80 undo ? {"n":1} bc97d50a\n'
    assert decode(b"~1 ffff records + DH8E b58425c3\r\n") == (0xFFFF, "records", "+", b"DH8E")
