"""SPEC 3: card notation, the deck (D1), points (D2) and the deck registry."""
from check import raises
from uno import cards
from uno.cards import DECK, NCARDS, name, copy_name, parse_card, parse_face, points, played_name


def test_d1_deck_has_108_cards_in_the_right_counts():
    assert NCARDS == 108 and len(DECK) == 108
    faces = {}
    for c in range(NCARDS):
        faces[name(c)] = faces.get(name(c), 0) + 1
    for col in "RYGB":
        assert faces[col + "0"] == 1
        for r in "123456789SRD":
            assert faces[col + r] == 2
    assert faces["W"] == 4 and faces["W4"] == 4
    assert len(faces) == 4 * 13 + 2


def test_d2_points():
    assert points(parse_card("R7a")[1]) == 7
    assert points(parse_card("G0a")[1]) == 0
    for f in ("RS", "YR", "BD"):
        assert points(parse_card(f + "a")[1]) == 20
    assert points(parse_card("Wa")[1]) == 50 and points(parse_card("W4d")[1]) == 50


def test_notation_round_trips_every_card():
    for c in range(NCARDS):
        face, card = parse_card(copy_name(c))
        assert card == c and DECK[c] == face
        assert parse_card(name(c)) == (face, None)


def test_played_wild_records_the_colour():
    w4 = parse_card("W4a")[1]
    assert played_name(w4, 2) == "W4>G"
    assert played_name(parse_card("Wb")[1], 0) == "W>R"
    assert played_name(parse_card("R7a")[1], 0) == "R7"


def test_bad_notation_is_refused():
    for bad in ("", "X7", "R", "RW", "R10", "W5", "R7e", "R0b", "W4e", "w4"):
        raises(ValueError, parse_card, bad)
    raises(ValueError, parse_face, "Y")


def test_registry_maps_uids_both_ways_and_knows_unknown_tags():
    reg = cards.synthetic_registry()
    assert reg.card(b"G5b") == parse_card("G5b")[1]
    assert reg.uid(reg.card(b"W4c")) == b"W4c"
    assert reg.card(b"\x04\x01\x02\x03\x04\x05\x06") == -1


def test_registry_refuses_a_short_deck_and_a_uid_enrolled_twice():
    uids = [bytes((4, 0, 0, 0, 0, 0, i)) for i in range(NCARDS)]
    assert cards.Registry(uids).card(bytes((4, 0, 0, 0, 0, 0, 9))) == 9
    raises(ValueError, cards.Registry, uids[:-1])
    uids[5] = uids[6]
    raises(ValueError, cards.Registry, uids)
