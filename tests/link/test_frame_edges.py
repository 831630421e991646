"""Frames at their edges: the sizes, digits and fields just inside and just outside what is
allowed, the reasons and messages of each refusal (found by `make mutate` on link/frame.py)."""
from binascii import crc32

from check import raises
from link import frame as fr
from link.frame import decode, encode, encode_into, find, FrameError


def _signed(body):
    """body + its checksum: a frame whatever its fields say."""
    return body + b" %08x\n" % crc32(body)


def _reason(line):
    return raises(FrameError, decode, line).reason


def test_the_limit_is_1024_bytes_line_end_included():
    assert fr.MAX == 1024
    head = b"~1 1 records + "
    body = head + b"A" * (1024 - 10 - len(head))
    assert len(_signed(body)) == 1024 and decode(_signed(body))[3] == b"A" * (1024 - 25)
    body += b"A"                                    # 1025 with its line end
    e = raises(FrameError, decode, _signed(body))
    assert e.reason == fr.TOO_LONG and "1025 bytes, at most 1024" in str(e)
    e = raises(FrameError, decode, _signed(body)[:-1])   # no line end: still 1025 with one
    assert e.reason == fr.TOO_LONG
    raises(ValueError, encode, 1, "records", fr.OK, b"A" * (1024 - 25 + 1))


def test_reasons_have_their_numbers_and_names():
    assert (fr.GARBAGE, fr.BAD_CRC, fr.BAD_VERSION, fr.TOO_LONG) == (1, 2, 3, 4)
    assert str(raises(FrameError, decode, b"noise")).startswith("garbage: ")
    e = raises(FrameError, decode, _signed(b"~2 5 hello ? "))
    assert str(e).startswith("wrong version: ")
    e = FrameError(fr.GARBAGE, "x")
    assert e.version == -1 and e.rid == -1 and str(e) == "garbage: x"


def test_the_shortest_frame_and_one_letter_verbs():
    b = encode(0, "a", fr.REQ)
    assert len(b) == 19 and decode(b) == (0, "a", "?", b"")
    assert decode(encode(0, "z", fr.REQ))[1] == "z"
    assert decode(encode(0, "zz", fr.OK, b"x"))[1] == "zz"
    assert _reason(b"~1 0 a ?  0000000\n") == fr.GARBAGE    # 17 bytes: no room for a crc


def test_printable_and_ascii_text_at_their_edges():
    assert fr.printable(b" ~") is True
    assert fr.printable(b"a\x7f") is False and fr.printable(b"\x1f") is False
    assert fr.ascii_text(b"plain bytes") == b"plain bytes"
    assert fr.ascii_text(bytearray(b"x y")) == b"x y"
    # the slow path (something not printable): each character at the edge of its branch
    assert fr.ascii_text(" ~!\n") == b" ~!?"
    assert fr.ascii_text("\x7f\x1f") == b"\\u007f?"
    assert fr.ascii_text("\uffff") == b"\\uffff"
    assert fr.ascii_text("\U00010000") == b"\\ud800\\udc00"
    assert fr.ascii_text("\U0010ffff") == b"\\udbff\\udfff"


def test_the_encoder_checks_the_payload_unless_told_not_to():
    buf = bytearray(fr.MAX)
    raises(ValueError, encode_into, buf, 1, "rule", fr.REQ, b"a\x01")
    raises(ValueError, encode_into, buf, 1, "rule", fr.REQ, "a\x7f")
    n = encode_into(buf, 1, "rule", fr.REQ, b"ab", False)
    assert decode(buf[:n])[3] == b"ab"


def test_checksum_digits_are_lowercase_hex_only():
    good = encode(3, "status", fr.OK, b"{}")
    body = good[:-10]
    for bad in (b"0000000/", b"0000000:", b"0000000g", b"0000000G", b"0000000F", b"0000000@",
                b"000000 0"):
        assert _reason(body + b" " + bad + b"\n") == fr.GARBAGE, bad
    # a wrong checksum of good digits is damage, not garbage, even all zeros
    for wrong in (b"00000000", b"ffffffff"):
        assert _reason(body + b" " + wrong + b"\n") == fr.BAD_CRC
    # uppercase of the right checksum is still not a frame
    assert _reason(body + b" " + good[-9:-1].upper() + b"\n") in (fr.GARBAGE, fr.BAD_CRC)


def test_the_marker_must_start_the_frame_even_with_a_good_checksum():
    e = raises(FrameError, decode, _signed(b"X1 7 status ? "))
    assert e.reason == fr.GARBAGE and "marker" in str(e)


def test_a_memoryview_or_bytearray_without_a_line_end():
    b = encode(6, "status", fr.OK, b"{}")
    assert decode(memoryview(b)[:-1]) == decode(b)
    assert decode(bytearray(b[:-1])) == decode(b)
    assert decode(memoryview(b)) == decode(b)


def test_version_field():
    assert _reason(_signed(b"~ 7 status ? ")) == fr.GARBAGE            # empty
    for v in (b"x", b"/", b":", b"1a", b"-1"):
        e = raises(FrameError, decode, _signed(b"~" + v + b" 7 status ? "))
        assert e.reason == fr.GARBAGE, v
    for v, n in ((b"10", 10), (b"9", 9), (b"0", 0), (b"20", 20), (b"01", -1)):
        if n < 0:
            assert decode(_signed(b"~" + v + b" 7 status ? "))[0] == 7    # 01 is 1
            continue
        e = raises(FrameError, decode, _signed(b"~" + v + b" 7 status ? "))
        assert e.reason == fr.BAD_VERSION and e.version == n and e.rid == 7, v
    # another version with an id we cannot read: rid -1, so the hub does not answer it
    e = raises(FrameError, decode, _signed(b"~2 12345 status ? "))
    assert e.reason == fr.BAD_VERSION and e.rid == -1
    e = raises(FrameError, decode, _signed(b"~2 zz status ? "))
    assert e.reason == fr.BAD_VERSION and e.rid == -1


def test_request_id_field():
    assert _reason(_signed(b"~1  status ? ")) == fr.GARBAGE            # empty
    assert _reason(_signed(b"~1 1G status ? ")) == fr.GARBAGE
    assert decode(_signed(b"~1 ffff status ? "))[0] == 0xFFFF
    assert decode(_signed(b"~1 0009 status ? "))[0] == 9


def test_verb_and_status_fields():
    assert _reason(_signed(b"~1 1  ? ")) == fr.GARBAGE                 # empty verb
    assert _reason(_signed(b"~1 1 abcdefghi ? ")) == fr.GARBAGE
    assert decode(_signed(b"~1 1 abcdefgh ? "))[1] == "abcdefgh"
    for st in (b"", b"??", b"+-", b"x"):
        assert _reason(_signed(b"~1 1 status " + st + b" ")) == fr.GARBAGE, st


def test_find_at_the_start_of_the_line_and_the_first_candidates_reason():
    b = encode(2, "status", fr.OK, b"{}")
    assert find(b) == (2, "status", "+", b"{}")
    assert find(b"~" + b) == find(b"~~" + b) == find(b"~x~" + b) == find(b)
    # two candidates: the whole line, damaged (BAD_CRC), and one inside its payload, garbage:
    # the first one's reason is the answer
    damaged = encode(2, "status", fr.OK, b"a~b").replace(b"a~b", b"a~c")
    e = raises(FrameError, find, damaged)
    assert e.reason == fr.BAD_CRC
    e = raises(FrameError, find, b"")
    assert e.reason == fr.GARBAGE and "marker" in str(e)
