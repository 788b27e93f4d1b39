"""``belote serve`` in a real browser: headless Chromium (the Debian packages ``chromium``
and ``chromium-driver``) driven by Selenium plays whole deals by clicking the legal cards
and bids the server sends, and the scores shown are the saved record's; a page reloaded
mid-deal joins its seat again and the deal goes on. Skipped, with the reason, where the
browser or Selenium is missing (``.ci/run`` installs both).

``BELOTE_SCREENSHOTS=docs/images python -m pytest tests/test_serve_browser.py`` also
saves the screenshots of the docs."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="belote serve needs starlette (pip install -e \".[serve]\")")
pytest.importorskip("uvicorn", reason="belote serve needs uvicorn (pip install -e \".[serve]\")")
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser tests need selenium (pip install -e "
                                                             "\".[dev]\")")
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="no chromium / chromedriver on PATH (Debian: "
                                                                  "apt-get install chromium chromium-driver)")

from belote_env.records import read_record, replay  # noqa: E402
from training.rooms import replay_frames  # noqa: E402


#: a seed whose two deals (two seats, the human clicking its first legal action) show every
#: case of ``test_two_deals_at_two_seats_...``
SEED_TWO_DEALS = 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def server(tmp_path):
    """``belote serve``'s app under uvicorn in a thread; yields (base url, rooms folder)."""
    import uvicorn

    from training.serve import make_app

    port = _free_port()
    app = make_app(tmp_path, host="127.0.0.1")  # the Host names a loopback server answers to
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", tmp_path
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture()
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,760"):
        options.add_argument(a)
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    # the bots' cards at once (the table's pace 0) unless a test sets another pace
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": "localStorage.setItem('belote-pace', '0');"})
    yield driver
    driver.quit()


def _room(base: str, **spec) -> dict:
    req = urllib.request.Request(base + "/api/rooms", data=json.dumps(spec).encode(), method="POST")
    return json.loads(urllib.request.urlopen(req, timeout=30).read())


def _sit(driver, base: str, answer: dict, seat: int) -> None:
    driver.get(base + "/")
    driver.execute_script(f"localStorage.setItem('belote-tokens-{answer['room']}', "
                          f"JSON.stringify({json.dumps(answer['tokens'])}));")
    driver.get(base + f"/#room={answer['room']}&seat={seat}")


def _click_once(driver) -> bool:
    """Click the first legal card, else the first action button, and wait for the server's
    answer (the moves log changes); False when there is nothing to click yet."""
    from selenium.webdriver.common.by import By

    cards = driver.find_elements(By.CSS_SELECTOR, "#hand svg.card.legal")
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button")
    target = cards[0] if cards else buttons[0] if buttons else None
    if target is None:
        time.sleep(0.05)
        return False
    before = driver.find_element(By.ID, "log").get_attribute("innerHTML")
    target.click()
    for _ in range(200):
        if driver.find_element(By.ID, "log").get_attribute("innerHTML") != before:
            break
        time.sleep(0.02)
    return True


def _wait_for(find, limit: int = 300):
    """``find()`` every 20 ms until it gives something (at most ``limit`` times); its last result."""
    for _ in range(limit):
        found = find()
        if found:
            return found
        time.sleep(0.02)
    return find()


def _frames(driver, reading: str, done, limit: int = 600) -> list[tuple]:
    """The page read every 30 ms while the bots' moves are drawn: ``reading`` (a script
    returning a list) until ``done(reading)`` or ``limit`` readings; then the pace set back
    to 0 (at once). Returns the readings."""
    seen = []
    for _ in range(limit):
        seen.append(tuple(driver.execute_script(reading)))
        if done(seen[-1]):
            break
        time.sleep(0.03)
    driver.execute_script("localStorage.setItem('belote-pace', '0');")
    return seen


def _click_until(driver, done, limit: int = 300) -> int:
    """``_click_once`` until ``done()``; returns the clicks."""
    clicks = 0
    for _ in range(limit * 20):
        if done():
            return clicks
        clicks += _click_once(driver)
    raise AssertionError("the game did not end by clicking")


def _shot(driver, name: str) -> None:
    folder = os.environ.get("BELOTE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / name))


@pytest.mark.parametrize("rules, seats, shot", [
    ("seed004", ["human", "hard", "hard", "hard"], "table_classic.png"),
    ("coinche", ["human", "hard", "hard", "hard"], "table_coinche.png"),
    ("seed001_3p", ["easy", "human", "normal"], "table_three.png"),
    ({"players": 2, "declarations": "choice", "belote": "optional", "dix_exchange": "choice"}, ["human", "hard"],
     "table_two.png"),  # the two-seat steps: the seven's exchange, the combinations answered, belote claimed
])
def test_a_deal_played_by_clicking_shows_the_recorded_score(server, browser, rules, seats, shot):
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules=rules, limit="deal", seats=seats, seed=21)
    seat = seats.index("human")
    _sit(browser, base, answer, seat)
    over = lambda: "game over" in browser.find_element(By.ID, "actions").text  # noqa: E731
    shots = {"n": 0, "last": ""}

    def done() -> bool:
        if not shots["n"] and browser.find_elements(By.CSS_SELECTOR, "#trick svg.card"):
            _shot(browser, shot)  # the table with a trick on it
            shots["n"] = 1
        last = browser.find_element(By.ID, "last").text
        if "won by" in last:  # the finished trick stays in sight, whatever the bots played since
            shots["last"] = last
        return over()

    clicks = _click_until(browser, done)
    state = replay(read_record(rooms / answer["room"] / "game.json"))
    assert clicks > 0 and state.is_game_over
    shown = browser.find_element(By.ID, "deals").text
    d = state.deal_scores[-1]
    assert f"{d.outcome}, {' - '.join(map(str, d.points))}" in shown
    assert shots["last"].startswith("last trick (")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#last svg.card")) == len(seats)  # the deal's last trick
    assert "game over: " in browser.find_element(By.ID, "actions").text and \
        str(state.scores[0]) in browser.find_element(By.ID, "actions").text
    assert browser.find_elements(By.CSS_SELECTOR, "#hand svg.card.legal") == []
    # the finished room in the replay viewer: every hand, stepped to its end
    browser.get(base + f"/#replay={answer['room']}")
    for _ in range(100):
        if browser.find_element(By.ID, "v-pos").text:
            break
        time.sleep(0.05)
    n_frames = int(browser.find_element(By.ID, "v-pos").text.split(" / ")[1])
    frames = replay_frames(read_record(rooms / answer["room"] / "game.json"))["frames"]
    assert n_frames == len(frames)
    shown = len(browser.find_elements(By.CSS_SELECTOR, "#v-hands svg.card"))
    assert shown == sum(len(h) for h in frames[0]["hands"])  # every hand of the first frame
    for _ in range(min(12, n_frames - 1)):
        browser.find_element(By.ID, "v-next").click()
    _shot(browser, shot.replace("table_", "viewer_"))
    ended = next(k for k in range(1, len(frames)) if not frames[k]["trick"] and frames[k - 1]["trick"])
    browser.execute_script("const s = document.getElementById('v-step'); s.value = arguments[0]; s.oninput();", ended)
    t = frames[ended]["last_trick"]  # the frame of a trick's last card shows the whole trick and who won it
    assert len(browser.find_elements(By.CSS_SELECTOR, "#v-trick svg.card")) == len(t["cards"])
    assert "trick won by" in browser.find_element(By.ID, "v-trick").text
    browser.find_element(By.ID, "v-last").click()
    assert frames[-1]["result"]["text"] in browser.find_element(By.ID, "v-deals").text


def test_a_phone_sized_table_fits_its_width_and_one_click_makes_one_room(server, browser):
    """At a phone's width the table is one column: the hand and the bids wrap within the
    page's width, the side panel comes below the hand. A double click on the lobby's button
    makes one room."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    base, rooms = server
    browser.set_window_size(390, 844)
    browser.get(base + "/")
    for _ in range(100):
        if browser.find_elements(By.ID, "seat3"):
            break
        time.sleep(0.05)
    browser.find_element(By.ID, "rules").send_keys("coinche (contrée), 4 players (coinche)")
    ActionChains(browser).double_click(browser.find_element(By.CSS_SELECTOR, "#create button")).perform()
    for _ in range(400):
        if browser.find_elements(By.CSS_SELECTOR, "#hand svg.card"):
            break
        time.sleep(0.05)
    assert len([f for f in rooms.iterdir() if f.is_dir()]) == 1
    time.sleep(0.3)
    width = browser.execute_script("return document.documentElement.clientWidth")
    rect = lambda e: browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", e)  # noqa: E731
    cards = browser.find_elements(By.CSS_SELECTOR, "#hand svg.card")
    assert len(cards) == 8 and all(0 <= rect(c)["left"] and rect(c)["right"] <= width for c in cards)
    assert all(rect(b)["right"] <= width for b in browser.find_elements(By.CSS_SELECTOR, "#actions button"))
    assert rect(browser.find_element(By.ID, "side"))["top"] >= max(rect(c)["bottom"] for c in cards)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width


def test_the_lobby_takes_rule_options_over_a_preset_and_names_a_bad_one(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, rooms = server
    browser.get(base + "/")
    for _ in range(100):
        if browser.find_elements(By.ID, "seat3"):
            break
        time.sleep(0.05)
    Select(browser.find_element(By.ID, "rules")).select_by_value("seed001_2p")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats select")) == 2
    box = browser.find_element(By.ID, "rule-options")
    box.send_keys("declarations=choice colour=red")
    browser.find_element(By.CSS_SELECTOR, "#create button").click()
    for _ in range(200):
        if browser.find_element(By.ID, "create-error").text.startswith("rules: "):
            break
        time.sleep(0.05)
    assert "unknown rule option 'colour'" in browser.find_element(By.ID, "create-error").text
    box.clear()
    box.send_keys("declarations=choice, belote=optional, target=300")
    browser.find_element(By.CSS_SELECTOR, "#create button").click()
    for _ in range(400):
        if browser.find_elements(By.CSS_SELECTOR, "#hand svg.card"):
            break
        time.sleep(0.05)
    (folder,) = [f for f in rooms.iterdir() if f.is_dir()]
    rules = json.loads((folder / "room.json").read_text())["rules"]
    assert (rules["players"], rules["declarations"], rules["belote"], rules["target"], rules["dix_exchange"]) == \
        (2, "choice", "optional", 300, "choice")  # the preset's options under the ones typed
    listed = json.loads(urllib.request.urlopen(base + "/api/rooms", timeout=30).read())["rooms"]
    assert [r["rules"] for r in listed] == ["custom two, 2 players"]
    browser.get(base + "/")  # another table size than the preset's: the defaults under the options typed
    for _ in range(100):
        if browser.find_elements(By.ID, "seat3"):
            break
        time.sleep(0.05)
    Select(browser.find_element(By.ID, "rules")).select_by_value("seed004")
    browser.find_element(By.ID, "rule-options").send_keys("players=3")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats select")) == 3
    browser.find_element(By.CSS_SELECTOR, "#create button").click()
    for _ in range(400):
        if browser.find_elements(By.CSS_SELECTOR, "#hand svg.card"):
            break
        time.sleep(0.05)
    assert sorted(json.loads((f / "room.json").read_text())["rules"]["players"] for f in rooms.iterdir()
                  if f.is_dir()) == [2, 3]


def test_a_link_to_a_room_that_is_not_there_says_so_in_the_lobby(server, browser):
    from selenium.webdriver.common.by import By

    base, _ = server
    browser.get(base + "/#room=AAAAAAAAAAAA")
    for _ in range(200):
        if "no room" in browser.find_element(By.ID, "status").text:
            break
        time.sleep(0.05)
    assert browser.find_element(By.ID, "status").text == "no room 'AAAAAAAAAAAA'"
    assert not browser.find_element(By.ID, "lobby").get_property("hidden")
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "easy", "easy", "easy"], seed=2)
    browser.get(base + f"/#room={answer['room']}")  # a watcher: no hints box (hints are a seat's)
    for _ in range(200):
        if "watching" in browser.find_element(By.ID, "status").text:
            break
        time.sleep(0.05)
    assert not browser.find_element(By.ID, "hints").is_displayed()


def test_two_deals_at_two_seats_show_the_last_deals_trick_the_exchange_and_the_steps_explained(server, browser):
    """At a new deal the last deal's result and its last trick; the seven's exchange said
    where the turned card was; the steps asked of every seat explained."""
    from selenium.webdriver.common.by import By

    base, _ = server
    rules = {"players": 2, "declarations": "choice", "belote": "optional", "dix_exchange": "choice"}
    answer = _room(base, rules=rules, limit=2, seats=["human", "normal"], seed=SEED_TWO_DEALS)
    _sit(browser, base, answer, 0)
    seen = {"last deal": False, "exchange": False, "explained": False}

    def done() -> bool:
        seen["last deal"] |= "Its last trick, won by" in browser.find_element(By.ID, "last").text
        seen["exchange"] |= ", exchanged by " in browser.find_element(By.ID, "info").text
        seen["explained"] |= any(why in browser.find_element(By.ID, "actions").text for why in (
            "(you hold no", "(is the combination announced better", "(announce it before"))
        return "game over" in browser.find_element(By.ID, "actions").text

    _click_until(browser, done)
    assert seen == {"last deal": True, "exchange": True, "explained": True}


def test_a_saved_rooms_log_is_shown_as_text_never_markup(tmp_path, browser):
    """A room folder edited by hand (its public log, its deals' texts) loads; what it says
    is shown as text: a tag in it is never a tag in the page."""
    import uvicorn

    from selenium.webdriver.common.by import By

    from training.rooms import Room
    from training.serve import make_app

    room = Room.create("seed004", "game", ["human", "easy", "easy", "easy"], 5, tmp_path)
    meta = json.loads((tmp_path / room.id / "room.json").read_text())
    xss = '<img id="injected" src="x" onerror="document.title=`XSS`">'
    meta["log"] = [{"seat": 1, "label": xss}, {"deal_over": 1, "outcome": xss, "points": [1, 2], "text": xss}]
    (tmp_path / room.id / "room.json").write_text(json.dumps(meta))
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(make_app(tmp_path, host="127.0.0.1"), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if srv.started:
                break
            time.sleep(0.05)
        _sit(browser, f"http://127.0.0.1:{port}", {"room": room.id, "tokens": {"0": room.tokens[0]}}, 0)
        for _ in range(200):
            if "onerror" in browser.find_element(By.ID, "log").text:
                break
            time.sleep(0.05)
        time.sleep(0.3)  # an injected image's onerror would have run
        assert "West: " + xss in browser.find_element(By.ID, "log").text
        assert browser.find_elements(By.ID, "injected") == [] and browser.title != "XSS"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


def test_the_bots_cards_after_a_persons_card_are_drawn_one_at_a_time(server, browser):
    """At a pace above 0 a view that adds several bids or cards draws them one by one, a
    finished trick with its winner, and only then the view: its hand, its legal cards. At
    pace 0 the same click shows the view at once."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    # seed 4: all pass to the person, whose pass the three others follow in the second round
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "normal", "normal", "normal"], seed=4)
    _sit(browser, base, answer, 0)
    on_table = lambda: len(browser.find_elements(By.CSS_SELECTOR, "#trick svg.card"))  # noqa: E731
    legal = lambda: browser.find_elements(By.CSS_SELECTOR, "#hand svg.card.legal")  # noqa: E731
    bids = lambda: len(browser.find_elements(By.CSS_SELECTOR, "#auction li"))  # noqa: E731
    buttons = lambda: browser.execute_script(  # noqa: E731  (read at once: the page may redraw them)
        "return getComputedStyle(document.getElementById('actions')).visibility === 'hidden' ? 0"  # (drawing)
        " : document.querySelectorAll('#actions button').length;")
    for _ in range(300):  # the person's first bid
        if buttons():
            break
        time.sleep(0.02)
    browser.execute_script("localStorage.setItem('belote-pace', '900');")  # the others' bids follow it
    before = bids()
    browser.execute_script("document.querySelector('#actions button').click();")
    counts = []
    for _ in range(400):
        counts.append(bids())
        if counts[-1] > before and (legal() or buttons()):
            break
        time.sleep(0.03)
    shown = sorted(set(counts) - {before})
    assert shown == list(range(before + 1, counts[-1] + 1)) and len(shown) >= 3  # one bid at a time
    browser.execute_script("localStorage.setItem('belote-pace', '0');")
    while not legal():  # the rest of the auction, at pace 0
        _click_once(browser)
    seen = []
    for _ in range(4):  # a card while the trick has at most two cards: a bot's card follows it
        while on_table() > 2 or not legal():
            _click_once(browser)
        browser.execute_script("localStorage.setItem('belote-pace', '900');")
        before, held = on_table(), len(browser.find_elements(By.CSS_SELECTOR, "#hand svg.card"))
        legal()[0].click()
        seen = []
        for _ in range(400):  # until the view is drawn: its legal cards (or the deal's end)
            seen.append(tuple(browser.execute_script(  # one reading of the page: (cards on the table, won, hand)
                "const ids = (q) => [...document.querySelectorAll(q)].map((e) => e.dataset.card);"
                "const hand = ids('#hand svg.card');"
                "if (ids('#trick svg.card').some((c) => hand.includes(c))) return [-1, false, -1, 0];"  # in both
                "return [document.querySelectorAll('#trick svg.card').length,"
                " document.getElementById('trick').textContent.includes('won by'), hand.length,"
                " Math.round(document.getElementById('hand').getBoundingClientRect().top)];")))
            if 0 <= seen[-1][2] < held and (legal() or "game over" in browser.find_element(By.ID, "actions").text):
                break
            time.sleep(0.03)
        assert all(c >= 0 for c, _, _, _ in seen)  # no card both on the table and in the hand
        seen = seen[next(k for k, (_, _, h, _) in enumerate(seen) if h < held):]  # from the server's answer on
        counts = [c for c, _, _, _ in seen]
        assert counts[0] == before + 1 and all(h == held - 1 for _, _, h, _ in seen)  # the card left the hand
        tops = {y for _, _, _, y in seen}
        assert max(tops) - min(tops) <= 4, tops  # the hand stays where it is while the cards are drawn
        assert set(range(before + 1, 5)) <= set(counts)  # every card of the trick, one at a time
        assert any(c == 4 and won for c, won, _, _ in seen)  # the finished trick with its winner
        browser.execute_script("localStorage.setItem('belote-pace', '0');")
        if "game over" in browser.find_element(By.ID, "actions").text:
            break
    assert seen and browser.find_element(By.ID, "pace").get_attribute("value") in {"0", "900"}


def test_the_next_deals_bids_and_the_moves_list_are_drawn_one_at_a_time(server, browser):
    """Seed 8, the person West (seat 1): its last card of deal 1 ends the deal; the server
    plays the last trick and deal 2's first three bids (dealer West: North, East and South
    pass). The page draws the trick's cards, then deal 2's bids one at a time with West's new
    hand of five cards in sight, nothing clickable, the moves list growing with each, and only
    then the view."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit=2, seats=["normal", "human", "normal", "normal"], seed=8)
    _sit(browser, base, answer, 1)
    hand = lambda: len(browser.find_elements(By.CSS_SELECTOR, "#hand svg.card"))  # noqa: E731
    legal = lambda: browser.find_elements(By.CSS_SELECTOR, "#hand svg.card.legal")  # noqa: E731
    _click_until(browser, lambda: hand() == 1 and legal())
    browser.execute_script("localStorage.setItem('belote-pace', '700');")
    legal()[0].click()
    seen = _frames(browser,
                   "const items = document.querySelectorAll('#log li');"
                   "return [document.querySelectorAll('#auction li').length, document.querySelectorAll('#hand svg.card').length,"
                   " items.length ? items[items.length - 1].textContent : '',"
                   " getComputedStyle(document.getElementById('actions')).visibility === 'hidden',"
                   " document.querySelectorAll('#trick svg.card').length,"
                   " document.getElementById('others').textContent];",
                   lambda x: not x[3] and browser.find_elements(By.CSS_SELECTOR, "#actions button"))
    assert seen[-1][:2] == (3, 5) and seen[-1][4] == 0 and not seen[-1][3]  # the view: West to bid
    drawing = [x for x in seen if x[3]]
    new_deal = [x for x in drawing if x[1] == 5]  # deal 2's hand in sight
    assert [a for a, *_ in dict.fromkeys(x[:5] for x in new_deal)] == [1, 2]  # its bids one at a time
    assert all(x[5].count(": 5 cards") == 4 for x in new_deal)  # every seat as dealt for the auction
    assert any(t == 4 and h == 0 for _, h, _, _, t, _ in drawing)  # deal 1's last trick whole, before
    lasts = list(dict.fromkeys(x[2] for x in drawing))
    assert lasts == ["West (you): J♣", "North: K♦ → trick to West (you)", "North: pass", "East: pass"]


def test_the_first_cards_after_the_person_takes_are_drawn_under_the_contract(server, browser):
    """Seed 119, random bots: West, North and East pass, the person (South) takes clubs; the
    deal is completed and West, North and East lead the first trick. Its cards are drawn one
    at a time under the contract, with the hands as dealt in full (South's eight cards; a seat
    holds its card until it is drawn), not the auction's five."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "random", "random", "random"], seed=119)
    _sit(browser, base, answer, 0)
    take = lambda: [b for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")  # noqa: E731
                    if b.text.startswith("take")]
    _wait_for(take)
    browser.execute_script("localStorage.setItem('belote-pace', '700');")
    take()[0].click()
    seen = _frames(browser,
                   "return [document.querySelectorAll('#trick svg.card').length, document.getElementById('info').textContent,"
                   " document.getElementById('others').textContent, document.querySelectorAll('#hand svg.card').length,"
                   " getComputedStyle(document.getElementById('actions')).visibility === 'hidden'];",
                   lambda x: not x[4] and browser.find_elements(By.CSS_SELECTOR, "#hand svg.card.legal"), limit=400)
    cards = {x[0]: x for x in seen if x[4] and x[0] > 0}
    assert sorted(cards) == [1, 2] and seen[-1][0] == 3  # West's and North's cards drawn; East's with the view
    for n, (_, info, others, hand, _) in cards.items():
        assert info.startswith("Contract: ♣ trump, South") and hand == 8
        assert others == "South (you): 8 cards" + "".join(
            f"{name}: {7 if k < n else 8} cards" for k, name in enumerate(["West", "North", "East"]))


def test_a_deal_passed_out_has_its_last_passes_drawn_before_the_new_deal(server, browser):
    """Seed 2, the person North (seat 2) passes twice; East and South pass after it: the deal
    is passed out and dealt again (same dealer), West passes, North bids. The page draws
    North's, East's and South's passes one at a time in the old deal's auction, then the new
    deal with the notice that the last one was passed out."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit=2, seats=["normal", "normal", "human", "normal"], seed=2)
    _sit(browser, base, answer, 2)
    pass_button = lambda: [b for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")  # noqa: E731
                           if b.text == "pass"]
    _wait_for(pass_button)
    _click_once(browser)  # round 1, at pace 0
    _wait_for(pass_button)
    browser.execute_script("localStorage.setItem('belote-pace', '700');")
    before = len(browser.find_elements(By.CSS_SELECTOR, "#auction li"))
    pass_button()[0].click()
    seen = _frames(browser,
                   "const items = document.querySelectorAll('#auction li');"
                   "return [items.length, items.length ? items[items.length - 1].textContent : '',"
                   " getComputedStyle(document.getElementById('actions')).visibility === 'hidden'];",
                   lambda x: not x[2] and pass_button(), limit=400)
    drawn = list(dict.fromkeys((n, last) for n, last, hidden in seen if hidden))
    assert drawn == [(before + 1, "North (you): pass"), (before + 2, "East: pass"), (before + 3, "South: pass")]
    assert seen[-1][:2] == (1, "West: pass")  # the new deal's auction, North to bid
    assert "passed out (no contract): the cards were dealt again" in browser.find_element(By.ID, "last").text


def test_a_deal_passed_out_and_dealt_again_says_so(server, browser):
    """Seed 4: every seat passes twice, the person last; the new deal's table says the last
    deal was passed out, until its first trick."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "normal", "normal", "normal"], seed=4)
    _sit(browser, base, answer, 0)
    passes = 0
    for _ in range(300):
        pass_button = [b for b in browser.find_elements(By.CSS_SELECTOR, "#actions button") if b.text == "pass"]
        if pass_button and passes < 2:
            before = browser.find_element(By.ID, "log").text
            pass_button[0].click()
            passes += 1
            for _ in range(200):
                if browser.find_element(By.ID, "log").text != before:
                    break
                time.sleep(0.02)
        elif passes == 2:
            break
        time.sleep(0.02)
    assert "deal over: void" in browser.find_element(By.ID, "log").text
    assert "passed out (no contract): the cards were dealt again" in browser.find_element(By.ID, "last").text


def test_the_table_opened_again_while_cards_are_drawn_is_clickable(server, browser):
    """A seat's table opened again (the lobby, then the room) while the bots' cards are
    being drawn one at a time: the old drawing stops, the new table shows the room as it is
    and its legal cards can be clicked."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "normal", "normal", "normal"], seed=8)
    _sit(browser, base, answer, 0)
    legal = lambda: browser.find_elements(By.CSS_SELECTOR, "#hand svg.card.legal")  # noqa: E731
    on_table = lambda: len(browser.find_elements(By.CSS_SELECTOR, "#trick svg.card"))  # noqa: E731
    while not legal() or on_table() > 2:
        _click_once(browser)
    browser.execute_script("localStorage.setItem('belote-pace', '3000');")
    legal()[0].click()
    for _ in range(200):  # the drawing has begun: the hand waits
        if browser.find_elements(By.CSS_SELECTOR, "#hand.waiting"):
            break
        time.sleep(0.02)
    browser.execute_script("location.hash = '';")  # the lobby, then the seat again
    browser.execute_script(f"location.hash = '#room={answer['room']}&seat=0';")
    for _ in range(300):
        if legal():
            break
        time.sleep(0.02)
    assert legal() and not browser.find_elements(By.CSS_SELECTOR, "#hand.waiting")
    assert not browser.find_element(By.ID, "last").get_attribute("hidden")
    browser.execute_script("localStorage.setItem('belote-pace', '0');")
    before = browser.find_element(By.ID, "log").text
    assert _click_once(browser) and browser.find_element(By.ID, "log").text != before  # sent and answered
    assert browser.find_element(By.ID, "pace").get_attribute("value") == "3000"  # the stored pace, shown


def test_a_page_reloaded_mid_deal_gets_its_seat_back(server, browser):
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "normal", "normal", "normal"], seed=8)
    _sit(browser, base, answer, 0)
    hand = lambda: sorted(e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR,  # noqa: E731
                                                                                        "#hand svg.card"))
    clicks = 0
    while clicks < 3:
        clicks += _click_once(browser)
    held = hand()
    browser.refresh()
    for _ in range(100):
        if hand():
            break
        time.sleep(0.05)
    assert hand() == held and "seat 0" in browser.find_element(By.ID, "status").text
    _click_until(browser, lambda: "game over" in browser.find_element(By.ID, "actions").text)
    assert replay(read_record(rooms / answer["room"] / "game.json")).is_game_over


def test_an_invite_link_gives_another_browser_its_seat(server, browser):
    """Two people in one room: the second opens the invite link of seat 2 (its token in the
    address, kept in its local storage and dropped from the address) and acts for seat 2."""
    from selenium.webdriver.common.by import By

    base, rooms = server
    answer = _room(base, rules="seed004", limit="deal", seats=["normal", "normal", "human", "normal"], seed=4)
    browser.get(base + f"/#room={answer['room']}&seat=2&token={answer['tokens']['2']}")
    for _ in range(100):
        if browser.find_elements(By.CSS_SELECTOR, "#hand svg.card"):
            break
        time.sleep(0.05)
    assert "token" not in browser.current_url and "seat 2" in browser.find_element(By.ID, "status").text
    assert _click_once(browser)
    record = read_record(rooms / answer["room"] / "game.json")
    assert any(seat == 2 for seat, _ in record["deals"][-1]["actions"])


def test_markup_in_a_link_or_a_stored_seat_is_never_written_into_the_page(server, browser):
    """An invite link whose seat or token holds markup is refused (said in the status line)
    and kept nowhere; a seat and token stored by an older page under such a seat are left
    out of the room list, whose links are built as elements (their hrefs the room's)."""
    from selenium.webdriver.common.by import By

    base, _ = server
    answer = _room(base, rules="seed004", limit="deal", seats=["human", "easy", "easy", "easy"], seed=3)
    room, token = answer["room"], answer["tokens"]["0"]
    xss = '0"><img id="injected" src="x" onerror="document.title=`XSS`">'
    browser.get(base + "/")
    for bad in (f"seat={urllib.parse.quote(xss)}&token=x", f"seat=1&token={urllib.parse.quote(xss)}"):
        browser.get(f"{base}/#room={room}&{bad}")
        for _ in range(100):
            if "refused" in browser.find_element(By.ID, "status").text:
                break
            time.sleep(0.05)
        assert browser.find_element(By.ID, "status").text.startswith("this link is refused: its ")
        assert browser.execute_script(  # no token kept (the bots' pace is the one key stored)
            "return Object.keys(localStorage).filter((k) => k !== 'belote-pace')") == []
    browser.execute_script("localStorage.setItem(arguments[0], arguments[1])", f"belote-tokens-{room}",
                           json.dumps({xss: token, "0": token, "1": xss}))
    browser.get(base + "/?lobby")  # the page loaded again, the lobby drawn from the stored tokens
    for _ in range(100):
        if "watch" in browser.find_element(By.ID, "rooms").text:
            break
        time.sleep(0.05)
    time.sleep(0.3)  # an injected image's onerror would have run
    links = browser.find_elements(By.CSS_SELECTOR, "#rooms a")
    assert [a.get_dom_attribute("href") for a in links] == [f"#room={room}&seat=0",
                                                            f"{base}/#room={room}&seat=0&token={token}",
                                                            f"#room={room}"]
    assert browser.find_elements(By.ID, "injected") == [] and browser.title != "XSS"


def test_a_match_game_opens_in_the_viewer_with_the_experts_values(server, browser, tmp_path):
    """A duplicate match's saved game (``belote eval --games-dir``) chosen in the lobby's
    file input opens in the viewer with who sat where; the expert's values of the shown
    deal come on request and appear at each card."""
    from selenium.webdriver.common.by import By

    from belote_env import Rules
    from training.evaluate import duplicate_match

    base, _ = server
    duplicate_match("normal", "easy", 1, seed=4, rules=Rules(players=2), games_dir=tmp_path / "games")
    browser.get(base + "/")
    for _ in range(100):
        if browser.find_elements(By.ID, "record-file"):
            break
        time.sleep(0.05)
    browser.find_element(By.ID, "record-file").send_keys(str(tmp_path / "games" / "set000000-0.json"))
    for _ in range(200):
        if browser.find_element(By.ID, "v-pos").text:
            break
        time.sleep(0.05)
    assert "duplicate match normal vs easy, set 0, copy 0" in browser.find_element(By.ID, "v-match").text
    assert "(normal)" in browser.find_element(By.ID, "v-hands").text
    browser.find_element(By.ID, "v-last").click()
    browser.find_element(By.ID, "v-expert").click()
    for _ in range(400):
        if "expert:" in browser.find_element(By.ID, "v-move").text or "(expert" in browser.page_source:
            break
        time.sleep(0.05)
    n = int(browser.find_element(By.ID, "v-pos").text.split(" / ")[1])
    seen = False
    for _ in range(n):  # step back through the deal: some card shows the expert's values
        browser.find_element(By.ID, "v-prev").click()
        if "(expert:" in browser.find_element(By.ID, "v-move").text:
            seen = True
            break
    _shot(browser, "viewer_match_expert.png")
    assert seen
