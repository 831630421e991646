"""What the hub answers over the serial link (link/server.py calls these; docs/protocol.md)."""
from gamelog import INPUT, GAP
from uno.cards import Registry

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# -- codes from uno/events.py and uno/cards.py: tools/gen_consts.py writes this block --
_IN_RULE = const(7)
_IN_UNDO = const(8)
_IN_PLAYER = const(9)
_R_BAD_SEAT = const(14)
_R_NOT_SEATED = const(15)
_R_FEW = const(17)
_R_NOT_NOW = const(21)
_R_DEAL_SIZE = const(28)
_R_LOCKED = const(29)
_R_TEAMS = const(35)
_R_NO_DEALER = const(37)
_R_BAD_NAME = const(41)
_R_MATCH_ON = const(42)
_REJECT = const(25)
# -- end of codes --

UNDO_MAX = const(255)
_CLOCK = const(11)       # log record type of a clock note (gamelog: 11..15 are free)
CLOCK_SLACK = const(2000)  # ms a clock set may move before it is logged again
CLOCK_EVERY = const(60000)  # ms at least between clock notes: a host setting the clock in a
                            # loop must not fill the log and stop the round (LOG FULL)
CLOCKS_MAX = const(25)   # clock notes in one answer: a frame holds them
CLOCKS_READ = const(256)  # records one `clocks` answer reads: the whole log in one go held
                          # the referee for seconds on a board (and the watchdog bit)
CHECK_LINES = const(80)  # self-test lines kept for the host: a whole run is about 45
CHECK_BYTES = const(700)  # of them in one answer: it must fit a frame
PRESS_MAX = 1000000000    # ms a self-test prompt may wait: `unotable selftest --press` takes < 1e6 s
LOG_FULL = "log full - sync the table (`unotable sync --ack`), then try again"


def _hex(b):
    from binascii import hexlify
    return hexlify(b).decode()


class LinkHandler:
    def __init__(self, hub, deck_path=None):
        self.hub = hub
        self.deck = deck_path
        self.check = None        # type: list | None  # the self-test's lines for the host
        self.checking = False    # ... and whether it is still running
        self.noted = None        # (seconds, now) of the last clock note logged

    def hello(self):
        from hub.app import VERSION
        return {"fw": VERSION, "board": self.hub.board.info()["name"], "id": _hex(self.hub.id)}

    def status(self):
        """The table in short: it must fit one frame (the `status` line command has it all)."""
        h = self.hub
        t = h.table
        hd = self.head()
        info = h.board.info()
        d = {
            "phase": t.phase, "round": t.round, "turn": t.turn, "dealer": t.dealer,
            "colour": t.colour, "top": t.top, "pending": t.pending,
            "seats": [[s, len(t.hands[s]), t.scores[s], t.owes(s)] for s in t.seats],
            "next_seq": h.seq + 1, "board": info["name"], "rules": t.rules.changed(),
            # enrolling: how many tags were read, and the last few (a frame holds ~50)
            "enroll": [len(h.enrolling), h.enrolling[-8:]] if h.enrolling is not None else None,
            "enroll_twice": h.enroll_twice, "wall": h.wall, "now": h.board.now(),
            "id": _hex(h.id), "head": [hd[0], _hex(hd[1])] if hd else None,
            "mac": _hex(hd[2]) if hd else None,
            # a few gaps (the host gets each one at sync), and how many there are
            "damage": [list(g) for g in h.damage[:3]], "damages": len(h.damage),
            "fault": h.fault and h.fault[:40], "flash": list(h.flash) if h.flash else None,
            "log_full": h.full, "warn": h.notice(),
        }
        if "up" in info:  # the readers' health, PLAY pad then DRAW shoe: [up, read errors, two
            # cards at once] (the scoreboard's referee queue); a board without readers: none
            d["readers"] = [[1 if info["up"][i] else 0, info["reader_errors"][i],
                             info["two_cards"][i]] for i in (0, 1)]
        # one frame holds ~990 bytes of JSON: what else must give way goes, least needed first
        import json
        for k in ("damage", "fault", "readers", "rules"):
            if len(json.dumps(d, separators=(",", ":"))) <= 960:
                break
            d[k] = None
            d["cut"] = k
        return d

    def head(self):
        """(seq, head, mac) of the log's chain after its last input, or None (no chain)."""
        h = self.hub
        f = getattr(h.log, "head", None)
        if f is None:
            return None
        seq, hd = f()
        from gamelog.chain import mac_head
        return seq, hd, mac_head(h.key(), h.id, seq, hd)

    def records(self, seq):
        """Every input with seq >= seq as (seq, t, wall, inp, tag), and each gap in the log as
        (first, last, cause): nothing damaged hides what lies before or after it."""
        for r in self.hub.log.read_from(seq, False):  # (the inputs: no snapshot read whole)
            if r[1] == INPUT:
                yield r[0], r[2], r[3], r[4], r[5]
            elif r[1] == GAP:                # (first, GAP, last, cause, None, None)
                yield r[0], r[2], r[3]

    def chain_before(self, seq):
        """The chain head before input seq: its segment's header head stepped over the inputs
        before it, each tag checked; None where the log cannot vouch for it (a gap, damage).
        The link then sends it once instead of a 4-byte tag per record (docs/protocol.md)."""
        log = self.hub.log
        if not hasattr(log, "anchor"):
            return None
        base = 0
        for b, _ in log.segments():
            if b <= seq:
                base = b
        a = log.anchor(base) if base else None
        if a is None or a[0] != base:
            return None
        from gamelog.chain import step
        h = a[1]
        it = log.read_from(base, False)
        try:
            for r in it:
                if r[0] >= seq:
                    break
                if r[1] == GAP:
                    return None
                if r[1] == INPUT:
                    h = step(h, r[0], r[2], r[3], r[4])
                    if h[:4] != r[5]:
                        return None
        finally:
            it.close()
        return h

    def registry(self):
        return self.hub.table.registry

    def _between_rounds(self, what):
        if not self.hub.between_rounds():
            raise ValueError("%s is locked while a draw for dealer or a round is on: "
                             "change it after the round" % what)

    def set_registry(self, uids):
        self._between_rounds("the deck")
        reg = Registry(uids)               # ValueError names a UID enrolled twice
        if self.deck:
            tmp = self.deck + ".new"
            with open(tmp, "wb") as f:
                f.write(reg.blob)
            import os
            os.rename(tmp, self.deck)       # atomic: a cut leaves the old deck or the new
        self.hub.use_deck(reg)

    def set_rule(self, name, value):
        # Judged before it is logged: a refused request leaves no input behind, so the host's
        # replay of the log can never decide differently from the table.
        for text in (name, value if isinstance(value, str) else ""):
            for ch in text:                # "\u0667" is a digit to CPython, not to the board
                if ord(ch) > 0x7E:
                    raise ValueError(_why_rule(0))
        why, changed = self.hub.table.refuse_rule(name, value)  # a fit to the seats too
        if why:
            raise ValueError(_why_rule(why))
        if not changed:  # nothing would change: nothing to log (a host that sets rules in a
            return       # loop must not fill the log)
        self._fed((_IN_RULE, name, value))

    def set_player(self, seat, name):
        # Judged before it is logged, as a rule is: a refused name leaves no input behind.
        why, o = self.hub.table.refuse_player(seat, name)
        if why == _R_NOT_NOW:
            raise ValueError("players are named in the lobby, before a match starts (after a "
                             "match, a seat button that joins or leaves opens it again)")
        if why == _R_BAD_SEAT or why == _R_NOT_SEATED:
            raise ValueError("seat %d has not joined: press its button first" % seat)
        if why == _R_BAD_NAME:
            raise ValueError("a player's name is 1 to 24 bytes of printable text")
        if why:
            raise ValueError("%s is at seat %d already" % (name, o))
        w = self.hub.table.players[seat]
        if type(w) is str and w == name:  # named so already: nothing to log, as for a rule
            return
        self._fed((_IN_PLAYER, seat, name))

    def undo(self, n):
        if not 1 <= n <= UNDO_MAX:
            raise ValueError("undo takes back 1 to %d inputs" % UNDO_MAX)
        k = self.hub.table.back.reach()
        if n > k:  # the table would refuse it: not logged (a host retrying in a loop)
            raise ValueError("%s to take back in this round: a take-back cannot cross a "
                             "round's end" % ("only %d input%s" % (k, "" if k == 1 else "s")
                                              if k else "nothing"))
        self._fed((_IN_UNDO, n))

    def _fed(self, inp):
        evs = self.hub.feed(inp)
        if evs is None:
            raise ValueError(LOG_FULL if self.hub.full else "the log failed: see status")
        if evs and evs[0][0] == _REJECT:
            raise ValueError(_why_rule(evs[0][1]) if inp[0] == _IN_RULE else
                             "the table refused it (reason %d)" % evs[0][1])

    def set_clock(self, seconds):
        # The host anchors this boot's ms to wall time: kept in RAM for status, and logged
        # (a CLOCK record: it takes a seq, as a snapshot does) the first time in a boot and
        # when it moves, so an export dates every input of this boot, synced now or later.
        if not 0 <= seconds < 1 << 40:      # a status must still fit its frame
            raise ValueError("clock needs seconds since 1970")
        h = self.hub
        now = h.board.now()
        h.wall = (seconds, now)
        n = self.noted                     # moved from the last note, and not too soon
        if n is not None and (now - n[1] < CLOCK_EVERY or
                              abs((seconds - n[0]) * 1000 - (now - n[1])) < CLOCK_SLACK):
            return
        try:
            h.log.record(_CLOCK, "%d %d" % (seconds, now), now)
            self.noted = (seconds, now)
        except (OSError, ValueError):  # a full log: the anchor stays in RAM only
            pass

    def clocks(self, frm):
        """The clock notes logged from seq frm on, as many as fit a frame, from at most
        CLOCKS_READ records: "next" is the seq to ask from for more (None: no more)."""
        out = []  # type: list
        nxt = None
        k = 0
        it = self.hub.log.read_from(frm, False)
        try:
            for r in it:
                k += 1
                if k > CLOCKS_READ or r[1] == _CLOCK and len(out) >= CLOCKS_MAX:
                    nxt = r[0]
                    break
                if r[1] != _CLOCK:
                    continue
                try:
                    w = r[4].split()
                    out.append([r[0], int(w[0]), int(w[1])])
                except (ValueError, IndexError, AttributeError):
                    pass                   # a damaged note dates nothing
        finally:
            it.close()
        return {"clocks": out, "next": nxt}

    def enroll(self, on):
        if on:
            self._between_rounds("enrolment")
        self.hub.enroll(on)

    def prune(self, upto):
        n = self.hub.log.prune(upto)
        if n:
            self.hub.full = False
            self.hub.check_flash()
        return {"pruned": n}

    def pair(self):
        """The table's id and key, once: a second host is refused until pairing is allowed
        again (the `.paired` file beside the key removed, over the REPL)."""
        h = self.hub
        mark = h.keyfile + ".paired"
        try:
            open(mark).close()
            raise ValueError("this table is paired already; to pair another host, remove %s "
                             "over the REPL (docs/protocol.md)" % mark)
        except OSError:
            pass
        k = h.key()
        with open(mark, "w") as f:
            f.write("1")
        return {"id": _hex(h.id), "key": _hex(k)}

    def selftest(self, start, press_ms=0, quick=False, frm=0):
        """start: the guided bring-up checks (hub/selftest.py) run as a task, between rounds
        only; the board's inputs go to them, none to the rules, until they end. Else: the
        lines from index frm on, as many as fit a frame, and whether they are all."""
        h = self.hub
        if start:
            if not 0 <= press_ms < PRESS_MAX:  # past it, the answer would not fit its frame
                raise ValueError("press_ms is 1 to %d ms a prompt (0: the default)" % (
                    PRESS_MAX - 1))
            if self.checking:
                raise ValueError("a self-test is running already")
            self._between_rounds("the self-test")
            if h.enrolling is not None:
                raise ValueError("a deck is being enrolled: the self-test waits for its end")
            import asyncio
            from hub import selftest
            kw = {"quick": quick, "flash": h.check_flash}
            if press_ms > 0:
                kw["press_ms"] = press_ms
            said = []  # type: list
            self.check = said

            def say(line):
                if len(said) < CHECK_LINES:
                    said.append(line)
            t = selftest.SelfTest(h.board, say=say, wait=selftest.pause, **kw)
            asyncio.create_task(self._selftest(t))
            self.checking = True  # (after: a task that could not start leaves it False)
            return {"started": True, "press_ms": t.press_ms}
        if self.check is None:
            raise ValueError("no self-test was started since the table booted")
        lines = self.check
        out = []
        k = max(0, frm)
        n = 0
        while k < len(lines) and n + len(lines[k]) < CHECK_BYTES:
            n += len(lines[k]) + 3
            out.append(lines[k])
            k += 1
        return {"lines": out, "next": k, "done": not self.checking and k >= len(lines)}

    async def _selftest(self, t):
        try:
            await t.run()
        except Exception as e:  # a bug in a check: said, and the board is the table's again
            t.say("selftest stopped: %s: %s" % (type(e).__name__, e))
        finally:
            self.checking = False
            self.hub.show()     # the table's LEDs and display back

    def repl(self):
        from hub.app import REPL_MS, REPL_ASK
        if not self.hub.open_repl(REPL_MS):   # in a round: a yes at the table first
            raise ValueError(REPL_ASK)
        return {"repl_ms": REPL_MS}


def _why_rule(code):
    if code == _R_LOCKED:
        return "rules are locked while a round is on: set them after the round"
    if code == _R_DEAL_SIZE:
        return "not enough cards to deal that hand size to every seat that joined"
    if code == _R_TEAMS:
        return "the seats that joined cannot form teams of that many"
    if code == _R_NO_DEALER:
        return "the first dealer named is not a seat that joined"
    if code == _R_FEW:
        return "at least 2 seats must join first"
    if code == _R_MATCH_ON:
        return "scoring and teams hold for the whole match: set them once it is over"
    return "no such setting, or a value it does not take (see `unotable rules`)"
