"""What the table's display and buzzer say for the reasons a referee found mis-worded
(docs/rules.md: "Between rounds: a card read at the shoe"), on the simulated board of
test_referee_output."""
from test_referee_output import act, deal, note
from uno.events import REJECT, R_WANT_SHUFFLE


def test_s2_m1_a_hands_card_read_at_the_shoe_after_the_round_shows_shuffle_first():
    """After the round a card of seat 2's last hand read at the shoe: "shuffle first" (it had
    said "card in a hand")."""
    h = deal({1: "R1 R2", 2: "R7 G2", 3: "R8 Y2"})
    for text in ("pad R1", "seat 1", "pad R7", "pad R8", "pad R2"):
        act(h, text)
    evs = act(h, "shoe G2a")
    assert evs[0][:3] == (REJECT, R_WANT_SHUFFLE, 2) and note(h) == "shuffle first"
