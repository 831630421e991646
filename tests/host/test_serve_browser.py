"""The scoreboard as a person sees it: two simulated tables play, `unotable serve` watches
them, and a real headless Chromium (Debian's chromium and chromium-driver, driven by Selenium)
shows the page: both tables, updated as inputs are played, the standings as the host database
has them; the screenshot in docs/gamenight.md is written here."""
import json
import os
import shutil
import tempfile
import time

import pytest

from unotable import sim
from unotable.cli import main
from unotable.players import seat_names
from unotable.store import Store
from uno.record import Replay

from test_serve import ROOT, start_serve

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SHOT = os.path.join(ROOT, "docs", "img", "scoreboard.png")
NAMES = {"round-4p.jsonl": ["Li Wei", "Ana", "Ben", "Chloé"],
         "round-2p.jsonl": ["Dev", "Eun-ji"]}


def _browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("the browser test needs selenium (requirements-dev.txt)")
    if not CHROMIUM or not DRIVER:
        pytest.skip("the browser test needs Debian's chromium and chromium-driver packages "
                    "(apt-get install chromium chromium-driver; .ci/run installs them)")
    profile = tempfile.mkdtemp(prefix="unotable-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
              "--window-size=1920,1080", "--user-data-dir=" + profile):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    # the projector's page, 1920x1080, whatever the headless window's frame takes
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    return driver, profile


def named(tmp_path, example):
    """The example round with its seats named by the host, as `unotable seat N NAME` does."""
    out = []
    names = NAMES[example]
    with open(os.path.join(ROOT, "examples", example)) as f:
        for line in f:
            out.append(line.rstrip("\n"))
            d = json.loads(line)
            if d.get("in") == "seat" and d["seat"] == len(names):
                out += [json.dumps({"in": "player", "seat": i + 1, "name": n})
                        for i, n in enumerate(names)]
    path = tmp_path / example
    path.write_text("\n".join(out) + "\n")
    return str(path)


def wait(what, check, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("the page did not show %s within %d s" % (what, timeout))


def db_standings(db):
    """{player: points} as the host database has it: each stored round's winner and points
    (`logs show`), the winner named by the seat's player."""
    want = {}
    with Store(db, readonly=True) as s:
        for r in s.tables():
            run = Replay(registry=s.registry(r["id"]))
            for _ in run.run(s.script_lines(r["id"])):
                pass
            names = seat_names(s, run.table)
            for g in s.games(r["id"]):
                if g["winner"]:
                    who = names[g["winner"]]
                    want[who] = want.get(who, 0) + g["points"]
    return want


def test_the_page_shows_both_tables_live_and_the_standings_of_the_database(code, tmp_path):
    driver, profile = _browser()
    from selenium.webdriver.common.by import By
    quick = sim.SimTable(named(tmp_path, "round-2p.jsonl"), pace=30, code=code)
    slow = sim.SimTable(named(tmp_path, "round-4p.jsonl"), pace=130, code=code)
    tables = [quick, slow]
    for t in tables:
        t.link.close()
    db = str(tmp_path / "night.sqlite3")
    proc = None
    try:
        for label, t in (("table 1", quick), ("table 2", slow)):    # labels, as at a night
            assert main(["sync", "-p", t.port, "--table", label, "--db", db]) == 0
        proc, url = start_serve([quick.port, slow.port], db)
        driver.get(url + "/")
        cards = wait("both tables", lambda: len(driver.find_elements(
            By.CSS_SELECTOR, ".table:not(.down)")) == 2 and driver.find_elements(
            By.CSS_SELECTOR, ".table"), 15)
        assert {c.get_attribute("data-slot") for c in cards} == {quick.port, slow.port}
        assert sorted(c.find_element(By.CLASS_NAME, "t-name").text for c in cards) == [
            "table 1", "table 2"]
        assert driver.find_element(By.ID, "live").text == "live"
        card = driver.find_element(By.CSS_SELECTOR, '.table[data-slot="%s"]' % slow.port)
        seq = card.get_attribute("data-seq")
        wait("the slow table's next input", lambda: card.get_attribute("data-seq") != seq, 10)
        text = card.text
        wait("a turn by name", lambda: any(n in card.find_element(By.CLASS_NAME, "t-who").text
                                           for n in NAMES["round-4p.jsonl"]), 15)
        assert all(n in card.find_element(By.CLASS_NAME, "t-seats").text
                   for n in NAMES["round-4p.jsonl"]), text
        # the quick table's round is over: its standings are on the page, the other still plays
        wait("the standings", lambda: driver.find_elements(By.CSS_SELECTOR,
                                                           "#standings tbody tr"), 20)
        time.sleep(1.5)
        os.makedirs(os.path.dirname(SHOT), exist_ok=True)
        assert driver.save_screenshot(SHOT)
        with open(SHOT, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        wait("both rounds over", lambda: all(
            "round over" in c.find_element(By.CLASS_NAME, "t-round").text
            for c in driver.find_elements(By.CSS_SELECTOR, ".table")), 30)
        time.sleep(0.5)
        shown = {}
        for tr in driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr"):
            cells = [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            shown[cells[1]] = int(cells[4])
        want = db_standings(db)
        assert want and len(want) == 2
        assert {k: v for k, v in shown.items() if v} == want, (shown, want)
        assert set(shown) == set(NAMES["round-4p.jsonl"] + NAMES["round-2p.jsonl"])
        assert driver.find_elements(By.CSS_SELECTOR, "#points-chart polyline")
        assert driver.find_elements(By.CSS_SELECTOR, "#attention li")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        if proc:
            proc.terminate()
            proc.communicate(timeout=10)
        for t in tables:
            t.close()
