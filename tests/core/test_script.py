"""Table script, game record and their round trip (docs/formats.md)."""
import json
import os
from check import raises
from kit import deal
from uno.events import SCORE, MATCH_OVER, IN_SHOE, IN_PAD, IN_SEAT, IN_COLOUR, IN_SHUFFLE, IN_TICK
from uno.record import Replay
from uno.script import dumps, input_dict, parse_line, to_input
from uno.table import Table

ROOT = __file__.rsplit("/", 3)[0] if __file__.count("/") >= 3 else "."
EXAMPLES = ROOT + "/examples"


def test_every_input_kind_parses_and_prints_back():
    t = Table()
    for text in ('{"in":"shoe","card":"R7b"}', '{"in":"pad","uid":"04a1b2c3d4e5f6"}',
                 '{"in":"seat","seat":3}', '{"in":"seat","seat":3,"long":true}',
                 '{"in":"colour","colour":"G"}', '{"in":"shuffle"}', '{"in":"tick","ms":1500}'):
        inp = to_input(parse_line(text), t)
        assert dumps(input_dict(inp, t.registry)) == text
    assert to_input({"in": "colour", "colour": "Y"}, t) == (IN_COLOUR, 1, 0)
    assert to_input({"in": "shuffle"}, t) == (IN_SHUFFLE,)
    assert to_input({"in": "tick", "ms": 7}, t) == (IN_TICK, 7)
    assert to_input({"in": "seat", "seat": 2, "long": True}, t) == (IN_SEAT, 2, 1)


def test_a_face_finds_the_copy_where_the_table_expects_it():
    t = deal({1: "R1 R7 B2", 2: "G1 R7 Y3"}, start="R5")
    assert to_input({"in": "pad", "card": "R7"}, t) == (IN_PAD, b"R7a")  # seat 1's turn
    t.feed((IN_SHOE, b"B9a"))
    assert to_input({"in": "pad", "card": "R7"}, t) == (IN_PAD, b"R7b")  # now seat 2's
    assert to_input({"in": "shoe", "card": "R7"}, t)[0] == IN_SHOE


def test_comments_and_blank_lines_are_skipped():
    assert parse_line("  ") is None and parse_line("# a note") is None
    raises(ValueError, parse_line, "[1, 2]")


def test_bad_lines_name_the_line():
    def play(*lines):
        for _ in Replay().run(lines):
            pass
    e = raises(ValueError, play, '{"in":"seat","seat":1}', '{"in":"pad"}')
    assert str(e).startswith("line 2:")
    e = raises(ValueError, play, '{"in":"dance"}')
    assert "unknown input" in str(e)
    e = raises(ValueError, play, '{"settings":{"w4":"sometimes"}}')
    assert str(e).startswith("settings:")
    e = raises(ValueError, play, '{"in":"shuffle"}', '{"settings":{}}')
    assert "before the first input" in str(e)
    e = raises(ValueError, play, '{"in":"colour","colour":"P"}')
    assert "colour" in str(e)
    e = raises(ValueError, play, "{oops")
    assert "not JSON" in str(e)


def test_record_round_trips_script_to_record_to_record():
    for name in ("round-2p.jsonl", "round-4p.jsonl"):
        with open(EXAMPLES + "/" + name) as f:
            record = list(Replay().record(f))
        again = list(Replay().record(record))
        assert again == record
        head = json.loads(record[0])
        assert head["record"] == 1 and head["settings"]["w4"] == "challenge"


def test_bundled_examples_are_whole_rounds():
    names = sorted(n for n in os.listdir(EXAMPLES) if n.endswith(".jsonl"))
    for n in ("round-2p.jsonl", "round-4p.jsonl", "round-10p.jsonl", "party-4p.jsonl"):
        assert n in names
    for name in names:
        run = Replay()
        with open(EXAMPLES + "/" + name) as f:
            ends = [evs[-1][0] for _, _, evs in run.run(f) if evs]
        t = run.table
        assert t.round == 1 and t.winner and (not t.hands[t.winner] or t.laid == t.winner)
        assert ends[-1] in (SCORE, MATCH_OVER)


def test_words_people_type_become_script_lines():
    from uno.record import from_words
    assert from_words("pad R7") == {"in": "pad", "card": "R7"}
    assert from_words("seat 3 long") == {"in": "seat", "seat": 3, "long": True}
    assert from_words("colour g") == {"in": "colour", "colour": "G"}
    assert from_words("rule turn_timer 5") == {"in": "rule", "name": "turn_timer", "value": 5}
    assert from_words("shoe uid:04a1") == {"in": "shoe", "uid": "04a1"}
    for bad in ("", "dance", "pad", "seat x"):
        raises(ValueError, from_words, bad)
