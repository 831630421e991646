"""The laptop's `repl` in a round needs a yes from someone at the table (yellow and green held
together 5 s): a program on the laptop alone can neither stop the firmware nor rewrite the log
mid-round. Between rounds it is as before."""
import json

import logkit
from esp32kit import Rig
from hubkit import FakeBoard
from board import pins
from hub.app import Hub, REPL_MS, ASK_MS, AGREE_MS
from hub.esp32 import CONFIRM_MS
from hub.handler import LinkHandler
from hub.serial import Serial
from link import frame as fr
from link.server import LinkServer
from test_host_cannot_change_a_round import in_round
from uno.state import snapshot

YELLOW, GREEN = pins.COLOUR_BUTTON_BITS[1], pins.COLOUR_BUTTON_BITS[2]


class Host:
    def __init__(self, hub):
        self.srv = LinkServer(LinkHandler(hub))
        self.rid = 0

    def repl(self):
        self.rid += 1
        f = fr.decode(self.srv.handle(fr.encode(self.rid, "repl", fr.REQ, b"")))
        return f[2], f[3].decode()




def done(h):
    """The interpreter's Ctrl-C back as it was (the guard calls micropython.kbd_intr)."""
    h.repl_until = -1
    h.table.phase = 0
    h._guard()


def test_repl_in_a_round_is_refused_until_someone_at_the_table_agrees():
    h = in_round()
    try:
        seq, state = h.seq, snapshot(h.table)
        st, msg = Host(h).repl()
        assert st == fr.ERR and "hold Y and G" in msg and "5 s" in msg, msg
        assert len(msg) <= 200 and "\n" not in msg
        assert h.guarded is True                      # Ctrl-C is still a byte
        line = json.loads(Serial(h, out=None).handle("repl")[0])  # the typed command too
        assert "hold Y and G" in line["error"] and h.guarded is True
        assert "Y+G" in h.notice() and "Y+G" in LinkHandler(h).status()["warn"]
        assert h.seq == seq and snapshot(h.table) == state   # nothing logged or judged
        h.board.clock += ASK_MS                       # nobody agreed: the ask goes away
        h.housekeeping()
        assert h.notice() is None or "Y+G" not in h.notice()
    finally:
        done(h)


def test_the_tables_yes_lets_one_repl_in_and_its_window_expires():
    h = in_round()
    try:
        host = Host(h)
        assert host.repl()[0] == fr.ERR
        played = len(h.board.buzzer.played)
        assert h.confirm_repl() is True               # yellow and green held 5 s
        assert len(h.board.buzzer.played) == played + 1   # heard at the table
        assert h.guarded is True                      # a yes alone opens nothing
        st, msg = host.repl()
        assert st == fr.OK and json.loads(msg) == {"repl_ms": REPL_MS}
        assert h.guarded is False and "REPL" in h.notice()
        h.board.clock += REPL_MS
        h.housekeeping()
        assert h.guarded is True                      # the window closed as before
        assert host.repl()[0] == fr.ERR               # one window a yes
    finally:
        done(h)


def test_a_yes_with_no_request_waiting_or_too_late_does_nothing():
    h = in_round()
    try:
        assert h.confirm_repl() is False              # nobody asked: nothing to agree to
        assert Host(h).repl()[0] == fr.ERR
        h.board.clock += ASK_MS
        assert h.confirm_repl() is False              # the ask went by
        assert Host(h).repl()[0] == fr.ERR
        assert h.confirm_repl() is True
        h.board.clock += AGREE_MS                     # the yes went by
        assert Host(h).repl()[0] == fr.ERR and h.guarded is True
    finally:
        done(h)


def test_between_rounds_repl_opens_at_once_as_before():
    h = Hub(FakeBoard(), logkit.log(logkit.fresh()))
    h.start()
    try:
        assert h.between_rounds()
        st, msg = Host(h).repl()
        assert st == fr.OK and json.loads(msg) == {"repl_ms": REPL_MS}
        assert h.guarded is False and h.repl_until == h.board.now() + REPL_MS
        assert "Ctrl-C" in json.loads(Serial(h, out=None).handle("repl")[0])["repl"]
        assert h.notice() is None
    finally:
        done(h)


def _hold_yellow_and_green(r, ms):
    r.spin(20)
    r.press(YELLOW)
    r.press(GREEN)
    r.spin(ms)
    r.release(YELLOW)
    r.release(GREEN)
    r.spin(60)


def test_the_gesture_never_reaches_the_engine_or_the_log():
    r = Rig()
    h = in_round(r.board)
    try:
        r.board.attach(h.inbox.put)                   # as Hub.run does
        assert Host(h).repl()[0] == fr.ERR
        seq, state, evs = h.seq, snapshot(h.table), list(h.events)
        _hold_yellow_and_green(r, CONFIRM_MS - 100)   # let go too early: nothing at all
        assert h.inbox.items == [] and h.repl_agreed < 0
        _hold_yellow_and_green(r, CONFIRM_MS + 100)
        assert h.inbox.items == []                    # no colour press, no input
        assert h.seq == seq and snapshot(h.table) == state and h.events == evs
        assert [x for x in h.log.read_from(seq + 1)] == []   # nothing logged
        assert Host(h).repl()[0] == fr.OK and h.guarded is False
    finally:
        done(h)
