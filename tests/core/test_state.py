"""State JSON: a snapshot at any moment loads back into a table that goes on identically."""
import json
from kit import act, deal, names, seated
from uno.events import P_DRAWOFF
from uno.bot import Bot
from uno.rules import Settings
from uno.state import snapshot, load
from uno.table import Table


def test_snapshot_has_what_a_player_or_referee_looks_for():
    t = deal({1: "R1 G7 B2", 2: "G1 G2 Y3"}, start="R5")
    d = snapshot(t)
    for k in ("phase", "seats", "turn", "direction", "colour", "top", "pending", "settings",
              "uno_window", "shoe", "pile", "round"):
        assert k in d
    assert d["phase"] == "play" and d["top"] == "R5" and d["colour"] == "R"
    assert d["seats"][0] == {"seat": 1, "hand": ["R1", "G7", "B2"], "score": 0, "owes": 0}
    assert d["settings"]["w4"] == "challenge"
    # U1, U5: a round starts with no UNO window, no call and no catch (caught is a bit a seat)
    assert (d["uno_window"], d["uno_called"], d["caught"]) == (0, False, 0)


def test_wild_on_top_shows_its_colour():
    t = deal({1: "W G7 B2", 2: "G1 G2 Y3"}, start="R5")
    act(t, "pad W", "colour B")
    assert snapshot(t)["top"] == "W>B"


def test_snapshot_round_trips_through_json_at_every_input():
    t = Table(Settings({"hand_size": 5}))
    bot = Bot(t, [2, 5, 7], seed=11, mistakes=50)
    for _ in range(400):
        bot.step()
        d = json.loads(json.dumps(snapshot(t)))
        u = load(d)
        assert snapshot(u) == d
    # a loaded table goes on exactly like the original
    u = load(snapshot(t))
    for _ in range(200):
        inp = bot.next_input()
        a = list(t.feed(inp))
        b = list(u.feed(inp))
        bot.keep(a)
        assert a == b
        assert snapshot(t) == snapshot(u)


def test_a_loaded_table_judges_the_next_input_alike_at_every_input():
    # the turn order's tables and the deal's next seat are derived, not in the snapshot: a table
    # loaded mid-deal, after a Reverse or after a seat went out (M3) moves the turn alike
    for settings, seats in (({"hand_size": 4, "direction": "ccw"}, [1, 4, 6]),
                            ({"hand_size": 3, "elimination": "yes"}, [2, 3, 5, 9])):
        t = Table(Settings(settings))
        bot = Bot(t, seats, seed=3, mistakes=20)
        for _ in range(300):
            u = load(snapshot(t))
            inp = bot.next_input()
            a = list(t.feed(inp))
            assert list(u.feed(inp)) == a, inp
            bot.keep(a)


def test_s2_a_snapshot_mid_draw_for_dealer_keeps_each_number_drawn_plus_one():
    # docs/formats.md: drawoff is [seats still to draw, per seat the number drawn + 1, 0 for
    # none]. A board updated mid draw-off resumes from the snapshot the earlier firmware wrote:
    # seat 1's 5, stored as 6, ties seat 2's 5 drawn after the load, and both draw again
    t = seated((1, 2))
    act(t, "shuffle", "shoe R5")
    d = json.loads(json.dumps(snapshot(t)))
    assert d["drawoff"] == [[2], [0, 6] + [0] * 9]
    u = load(d)
    evs = act(u, "shoe G5")
    assert names(evs) == ["drawoff"] and u.offs == [1, 2] and u.phase == P_DRAWOFF
    evs = act(u, "shoe B9", "shoe B8")
    assert names(evs) == ["drawoff", "dealer"] and u.dealer == 1


def test_a_table_before_its_first_deal_has_dealt_nothing_and_no_turn():
    t = seated((1, 2))
    for before in ("lobby", "drawoff"):
        d = snapshot(t)
        assert d["phase"] == before and d["dealt"] == 0 and d["round"] == 0
        assert d["turn"] == 0  # no seat's turn: a display lights no seat
        act(t, "shuffle")
