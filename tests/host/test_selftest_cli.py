"""`unotable selftest` against the simulated table on a pty: a scripted builder does what each
prompt asks (and forgets one button); the checklist comes back, one FAIL for that button."""
import sys


from unotable import sim
from unotable.cli import main

HEAP = "320k"  # the self-test's code (18 KB on this port) beside the app's
PLAY_UID = "04a1b2c3d4e5f6"
DRAW_UID = "de ad be ef".replace(" ", "")


class Builder:
    """Reads what the command prints, and on each prompt taps or presses on the simulated table
    (through its readers' and buttons' pipe), except what it forgets."""

    def __init__(self, table, forget=()):
        self.table = table
        self.forget = forget
        self.out = []
        self.part = ""

    def write(self, text):
        self.part += text
        while "\n" in self.part:
            line, self.part = self.part.split("\n", 1)
            self.out.append(line)
            if line.startswith("-> "):
                self.act(line[3:])
        return len(text)

    def flush(self):
        pass

    def act(self, p):
        if any(f in p for f in self.forget):
            return
        t = self.table
        if "PLAY pad" in p:
            t.send({"in": "pad", "uid": PLAY_UID})
        elif "DRAW shoe" in p:
            t.send({"in": "shoe", "uid": DRAW_UID})
        elif p.startswith("press seat "):
            t.send({"in": "seat", "seat": int(p.split()[2].split("'")[0])})
        elif "shuffle" in p:
            t.send({"in": "shuffle"})
        else:
            for c in ("red", "yellow", "green", "blue"):
                if "the %s button" % c in p:
                    t.send({"in": "colour", "colour": "RYGB"["red yellow green blue".split()
                                                            .index(c)]})


def s_screen_cleared(table):
    """After the self-test the display shows the table again (the lobby: no colour, no turn)."""
    rows = table.status()["board"]["screen"]
    return rows[0].startswith("-") and rows[1] == "turn -"


def selftest(table, builder, monkeypatch, capsys, *extra):
    monkeypatch.setattr(sys, "stdout", builder)
    code = main(["selftest", "--port", table.port, "--press", "1.5", "--quick", *extra])
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Traceback" not in "\n".join(builder.out)
    return code, builder.out, err


def test_a_builder_follows_the_prompts_and_a_forgotten_button_fails(code, monkeypatch, capsys):
    table = sim.SimTable(code=code, heap=HEAP, run=("-m", "hub.sim", "--display"))
    try:
        who = Builder(table, forget=("seat 6'",))
        c, out, err = selftest(table, who, monkeypatch, capsys)
        assert c == 1, (out, err)      # a check failed
        check = [x.strip() for x in out[out.index(
            "checklist (hardware/BRINGUP.md says what to do for each FAIL):") + 1:]]
        text = "\n".join(check)
        assert "[PASS] PLAY pad reader: simulated" in text
        assert "[PASS] PLAY pad reads a card: " + PLAY_UID in text
        assert "[PASS] DRAW shoe reads a card: " + DRAW_UID in text
        for s in range(1, 11):
            want = "[FAIL] seat 6 button: not pressed in 1 s" if s == 6 else \
                "[PASS] seat %d button" % s
            assert want in check, s
        for c in ("red", "yellow", "green", "blue"):
            assert "[PASS] %s button" % c in check
        assert "[PASS] shuffle sensor" in check
        assert any(x.startswith("[SEE ] buzzer: played accepted") for x in check)
        assert any(x.startswith("[SEE ] display: ") for x in check)
        assert s_screen_cleared(table)
        assert any(x.startswith("[PASS] free heap: ") for x in check), check
        assert any(x.startswith("[PASS] free flash: ") for x in check), check
        assert [x for x in check if x.startswith("[FAIL]")] == [
            "[FAIL] seat 6 button: not pressed in 1 s"]
        assert check[-1].startswith("selftest: ") and " 1 fail" in check[-1]
        # the presses went to the self-test, none to the rules: the table is still empty
        s = table.status()
        assert s["phase"] == "lobby" and s["seats"] == [] and s["seq"] == 0, s
        # a round on: the command answers in one line
        table.send({"in": "seat", "seat": 1})
        table.send({"in": "seat", "seat": 2})
        table.send({"in": "shuffle"})
        for _ in range(30):
            s = table.status()
            if s["phase"] != "lobby":
                break
        assert s["phase"] != "lobby", s
        c, out, err = selftest(table, Builder(table), monkeypatch, capsys)
        assert c == 2 and out == [] and err.count("\n") == 1, (out, err)
        assert "did not start its self-test" in err and "round" in err
    finally:
        assert "Traceback" not in table.close()


def test_no_table_there_is_one_line(capsys, monkeypatch):
    c, out, err = selftest(type("T", (), {"port": "/dev/unotable-no-such-port"})(),
                           Builder(None), monkeypatch, capsys)
    assert c == 2 and out == [] and err.count("\n") == 1 and "cannot open" in err


def test_ctrl_c_says_the_tables_self_test_runs_on(monkeypatch, capsys):
    """Ctrl-C stops the host, not the table's self-test (no verb stops it): the one line says
    so, not "what was done is kept" (a second selftest was then refused as running)."""
    from hostkit import FakeLink
    from unotable import commands

    class Checking(FakeLink):
        def selftest(self, start=False, **kw):
            if start:
                return {"started": True}
            raise KeyboardInterrupt
    monkeypatch.setattr(commands, "connect", lambda args: Checking())
    code = main(["selftest", "-p", "x"])
    err = capsys.readouterr().err.strip()
    assert code == 130 and err.startswith("unotable selftest: interrupted; the table's "
                                          "self-test runs on to its end"), err
