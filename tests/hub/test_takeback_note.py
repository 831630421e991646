"""After a take-back the display's note row says which card goes back where (issue 10), until
the next input the table answers (a reject then: its reason)."""
from test_host_cannot_change_a_round import in_round
from hub.app import back_note
from uno.cards import parse_card
from uno.events import CARD_BACK, IN_COLOUR, IN_UNDO, UNDO


def test_the_note_names_the_first_card_and_how_many_more():
    r7 = parse_card("R7a")[1]
    assert back_note([(UNDO, 1), (CARD_BACK, r7, 11, 2)]) == "R7 to seat 2"
    assert back_note([(CARD_BACK, r7, 2, 0), (CARD_BACK, r7 + 1, 2, 0)]).endswith(" +1")
    assert back_note([(CARD_BACK, r7, 2, 0)]) == "R7 to shoe"
    assert back_note([(UNDO, 1)]) is None


def test_a_take_back_shows_until_the_next_input():
    h = in_round()
    h.feed((IN_UNDO, 1))
    moved = [e for e in h.events if e[0] == CARD_BACK]
    assert (h.notice() is not None) == bool(moved)
    if moved:
        assert h.notice().startswith(back_note(moved).split(" ")[0])
    h.feed((IN_COLOUR, 0, 0))  # the next input that says anything (here: rejected)
    assert h.notice() == "no colour wanted"


def test_the_note_reaches_the_display():
    from board.screen import Screen, TextPanel
    h = in_round()
    panel = TextPanel()
    h.board.display = Screen(panel)
    h.feed((IN_UNDO, 1))
    moved = [e for e in h.events if e[0] == CARD_BACK]
    assert moved  # this game's last input moved a card
    assert panel.rows()[7] == h.notice()[:16] and panel.rows()[7]
    h.feed((IN_COLOUR, 0, 0))
    assert panel.rows()[7] == "no colour wanted"
