"""engine serve in a real browser: headless Chromium, driven by Playwright, clicks the page.

A person's whole Trick of the Rails game is played by clicking cards (a button where the option
is no card), and 20 decisions of each other shipped ruleset; a screenshot of each table must show
cards or a board. The browser is the machine's Chromium (Debian's `chromium`; another with
ENGINE_BROWSER=PATH): Playwright's own browser download is not used. Without Playwright or a
browser the tests skip, saying which is missing. ENGINE_SCREENSHOTS=DIR keeps each screenshot
there as web-RULESET.png (how docs/images/ is made).
"""
from __future__ import annotations

import os
import random
import shutil
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright: pip install -e '.[browser]'")

import uvicorn  # noqa: E402

from conftest import RANDOM_PLAY, RULESETS, ruleset  # noqa: E402
from engine.game.game import Game  # noqa: E402
from engine.web.app import create_app  # noqa: E402
from engine.web.tables import Tables  # noqa: E402

NAMES = [p.stem for p in RULESETS]
# Flags for a browser in a closed sandbox: no first-run dialogs, no calls home (refused here, many at a time).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]
WAIT_MS = 60_000  # a bound against a hang (a bot's decision, a slow machine), not a measure
MOST_CLICKS = 2000  # a Trick of the Rails game longer than this is a test's failure
SIZE = {"width": 1280, "height": 900}


def _browser_path() -> str | None:
    given = os.environ.get("ENGINE_BROWSER")
    if given:
        return given
    return next((found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    path = _browser_path()
    if path is None:
        pytest.skip("no browser for the browser tests: install Debian's chromium (apt-get install chromium) "
                    "or set ENGINE_BROWSER to a Chromium")
    with sync_api.sync_playwright() as pw:
        try:
            launched = pw.chromium.launch(executable_path=path, args=FLAGS)
        except sync_api.Error as exc:
            pytest.skip(f"the browser {path} did not start: {str(exc).splitlines()[0]}")
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Tables]]:
    """`engine serve` of the shipped rulesets, in a thread of this process, at a free port."""
    tables = Tables({name: ruleset(name) for name in NAMES})
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    served = uvicorn.Server(uvicorn.Config(create_app(tables), log_level="warning", access_log=False))
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_MS / 1000
    while not served.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", tables
    served.should_exit = True
    thread.join(WAIT_MS / 1000)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=SIZE)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield opened
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def start(page, url: str, name: str, seats: list[str], seed: int) -> None:
    """Start a game from the start page, as a person does: pick, fill in, click Start."""
    page.goto(url + "/")
    page.select_option("select[name=ruleset]", name)
    page.select_option("select[name=players]", str(len(seats)))
    for i, seat in enumerate(seats):
        page.locator("label.seat select").nth(i).select_option(seat)
    for option, value in RANDOM_PLAY.get(name, {}).items():
        field = page.locator(f"[data-option={option}]")
        if field.evaluate("f => f.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.fill("input[name=seed]", str(seed))
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**", timeout=WAIT_MS)


def settled(page) -> str:
    """Wait until the seat is to decide or the game is over; which of the two."""
    try:
        page.wait_for_selector(".status.mine, .results, .status.error", timeout=WAIT_MS)
    except sync_api.TimeoutError:
        pytest.fail(f"the seat was not asked to decide: the page says {page.inner_text('#app')[:300]!r}")
    error = page.locator(".status.error")
    assert not error.count(), error.text_content()
    return "over" if page.locator(".results").count() else "mine"


def click_a_decision(page, rng: random.Random) -> str:
    """Decide by clicking: a card with a green edge where there is one, else an option's button, or
    an amount in the number box. Wait for the page's next drawing. What was clicked."""
    drawn = page.get_attribute("#app", "data-drawn")
    cards = page.locator(".card.option")
    amount = page.locator("input[aria-label=amount]")
    if cards.count():
        clicked = "card"
        cards.nth(rng.randrange(cards.count())).click()
    elif amount.count():
        clicked = "amount"
        amount.fill(amount.get_attribute("min"))
        page.click(".decision button[type=submit]")
    else:
        clicked = "button"
        buttons = page.locator(".options button")
        assert buttons.count(), "a decision with nothing to click"
        buttons.nth(rng.randrange(buttons.count())).click()
    page.wait_for_selector(f"#app:not([data-drawn='{drawn}'])", state="attached", timeout=WAIT_MS)
    assert not page.locator(".notice").filter(has_text="option").count()
    return clicked


def shows_a_table(page, name: str) -> None:
    """The table is drawn (an SVG board or cards in view), and a screenshot of it is no blank page."""
    drawn = page.locator("svg.board, .card")
    assert drawn.count(), "no board and no card on the page"
    box = drawn.first.bounding_box()
    assert box and box["width"] > 20 and box["height"] > 20
    shot = page.screenshot(full_page=True)
    assert _colours(shot) > 20, "the screenshot is (almost) one colour"


def keep_screenshot(page, name: str) -> None:
    """Under ENGINE_SCREENSHOTS, the window's screenshot as web-NAME.png (docs/images/ is made so)."""
    keep = os.environ.get("ENGINE_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.locator("h1").scroll_into_view_if_needed()  # the top of the page, where the table starts
        page.screenshot(path=str(Path(keep) / f"web-{name}.png"))


def _colours(png: bytes) -> int:
    """About how many colours a PNG holds: the distinct pixels of its first rows (filters
    undone for the 'none' and 'sub' filters only, which is enough to tell a blank page)."""
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    assert depth == 8 and kind in (2, 6), "an 8-bit RGB(A) PNG"
    data, at = b"", 8
    while at < len(png):
        length, chunk = struct.unpack(">I4s", png[at:at + 8])
        if chunk == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(data)
    size = 3 if kind == 2 else 4
    stride = width * size + 1
    seen = set()
    for row in range(min(height, 400)):
        line = raw[row * stride:(row + 1) * stride]
        pixels = bytearray(line[1:])
        if line[0] == 1:  # sub: each byte adds the one a pixel before
            for i in range(size, len(pixels)):
                pixels[i] = (pixels[i] + pixels[i - size]) & 0xFF
        seen.update(bytes(pixels[i:i + 3]) for i in range(0, len(pixels), size))
    return len(seen)


def test_a_whole_trick_of_the_rails_game_by_clicking_cards(browser, server, page):
    url, tables = server
    start(page, url, "trick_of_the_rails", ["human", "random", "random"], seed=11)
    rng = random.Random(11)
    clicked = []
    for _ in range(MOST_CLICKS):
        if settled(page) == "over":
            break
        if not clicked:
            shows_a_table(page, "trick_of_the_rails")
        if len(clicked) == 8:
            keep_screenshot(page, "trick_of_the_rails")
        clicked.append(click_a_decision(page, rng))
    else:
        pytest.fail(f"no end after {MOST_CLICKS} decisions")
    assert clicked.count("card") >= 10, clicked  # every hand card played and every bid made by a click on it
    results = page.locator(".results")
    assert "Winner" in results.text_content()
    assert results.locator("tr").count() == 1 + 3  # a heading and a row a player
    (hosted,) = [h for h in tables.games.values() if h.game.rules.name == "Trick of the Rails" and h.game.seed == 11]
    assert hosted.game.over and len(hosted.game.decisions) >= len(clicked)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "trick_of_the_rails"])
def test_twenty_decisions_of_each_other_shipped_ruleset(browser, server, page, name):
    url, tables = server
    players = ruleset(name).players[0]
    start(page, url, name, ["human"] + ["random"] * (players - 1), seed=5)
    rng = random.Random(5)
    for decided in range(20):
        if settled(page) == "over":
            break
        if decided == 0:
            shows_a_table(page, name)
        click_a_decision(page, rng)
    assert decided >= 19 or page.locator(".results").count()
    settled(page)
    keep_screenshot(page, name)


def test_undo_in_the_browser(browser, server, page):
    url, tables = server
    start(page, url, "isle_of_trains", ["human", "random"], seed=8)
    settled(page)
    page.click("button.undo")
    page.wait_for_selector(".notice.said", timeout=WAIT_MS)
    assert page.text_content(".notice") == "There is no decision of yours to take back yet."
    click_a_decision(page, random.Random(8))
    settled(page)
    page.click("button.undo")
    page.wait_for_selector(".notice.said:has-text('your last decision')", timeout=WAIT_MS)
    assert page.text_content(".notice") in ("Took back your last decision.",) or "Undo refused" in page.text_content(".notice")


def test_a_double_click_takes_one_decision(browser, server, page):
    """Isle of Trains, where a person's turn is several decisions in a row, between two people:
    an option clicked twice (a double-click, two clicks in one go) is one decision; the second
    click finds the options disabled while the first is sent, and the server refuses an answer
    to a stale step."""
    url, tables = server
    hosted = tables.host(Game(ruleset("isle_of_trains"), 2, seed=8), ["human", "human"], [None, None])
    address = {p: f"{url}/play/{hosted.id}/{t}" for t, p in hosted.tokens.items()}
    shown = None
    for twice in ("dblclick", "script") * 4:
        if shown != hosted.game.pending.player:
            shown = hosted.game.pending.player
            page.goto(address[shown])
        assert settled(page) == "mine"
        drawn = page.get_attribute("#app", "data-drawn")
        before = len(hosted.game.decisions)
        target = ".options button, .card.option"
        if twice == "dblclick":
            page.locator(target).first.dblclick()
        else:
            page.evaluate(f"() => {{ const b = document.querySelector({target!r}); b.click(); b.click(); }}")
        page.wait_for_selector(f"#app:not([data-drawn='{drawn}']):not(.busy)", state="attached", timeout=WAIT_MS)
        page.wait_for_selector(".status.mine, .status:has-text('Waiting')", timeout=WAIT_MS)
        assert len(hosted.game.decisions) == before + 1, f"{twice}: one option clicked twice took two decisions"
        assert "step" not in page.text_content(".notice"), "the second click was sent (and refused by the server)"


def test_a_designer_watches_a_simulated_game_move_by_move(browser, server, page, tmp_path):
    import httpx

    from engine.analysis.simulate import simulate
    url, tables = server
    rules = tables.rulesets["railways"]
    out = tmp_path / "run.jsonl"
    simulate(rules, 3, 1, 4, rules.resolve_options({}, 3), seats=["random", "random", "random"], out=out)
    run, game = out.read_text(encoding="utf-8").splitlines()[:2]
    made = httpx.post(f"{url}/api/replays", json={"run": run, "game": game}, timeout=WAIT_MS / 1000)
    assert made.status_code == 201, made.text
    steps = made.json()["steps"]
    page.goto(url + made.json()["url"])
    page.wait_for_selector(f"text=Step {steps} of {steps}", timeout=WAIT_MS)
    assert page.locator(".results").count()  # the last step of a finished game: its scores
    page.locator("input[aria-label=step]").fill("40")
    page.wait_for_selector(f"text=Step 40 of {steps}", timeout=WAIT_MS)
    chose = page.text_content(".status")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"text=Step 41 of {steps}", timeout=WAIT_MS)
    assert page.text_content(".status") != chose or "chose" in chose
    page.select_option("select[aria-label='watch as']", "2")  # as a seat: its hidden cards face down
    page.wait_for_selector(".card.hidden", timeout=WAIT_MS)
    assert page.locator("svg.board-picture .track").count()  # the track laid by then, in the owners' colours
    keep_screenshot(page, "replay")


def test_two_seats_choose_at_once_each_in_its_own_browser(browser, server):
    """Picnic (a simultaneous step: everyone picks a favourite food at once), two people in
    browsers of their own and a random bot: P2 chooses first, though P1 comes first in seat
    order; P2's page says what P2 chose, P1's that P2 has chosen (never what), and once P1 has
    chosen the game goes on with both answers, in seat order."""
    from engine.players.agents import make_agent
    from engine.rules.ruleset import load_ruleset
    url, tables = server
    picnic = load_ruleset(Path(__file__).resolve().parent.parent / "examples" / "picnic" / "picnic.yaml")
    hosted = tables.host(Game(picnic, 3, seed=3), ["human", "human", "random"], [None, None, make_agent("random", 1)])
    address = {p: f"{url}/play/{hosted.id}/{t}" for t, p in hosted.tokens.items()}
    contexts = [browser.new_context(viewport=SIZE) for _ in (1, 2)]
    try:
        one, two = (c.new_page() for c in contexts)
        one.goto(address[1])
        two.goto(address[2])
        assert settled(one) == settled(two) == "mine"
        assert "everyone chooses at once" in two.text_content(".status")
        before = one.inner_text("#app")
        two.locator(".options button", has_text="cake").click()
        two.wait_for_selector(".status:has-text('You chose cake')", timeout=WAIT_MS)
        one.wait_for_selector(".status:has-text('waiting for P1 (human), P3 (random)')", timeout=WAIT_MS)
        # P1 is told that P2 has chosen, and nothing more: the page is as it was but for who is awaited.
        assert one.inner_text("#app") == before.replace("waiting for P1 (human), P2 (human), P3 (random)",
                                                        "waiting for P1 (human), P3 (random)")
        assert hosted.game.decisions == []
        one.locator(".options button", has_text="bread").click()
        deadline = time.monotonic() + WAIT_MS / 1000
        while len(hosted.game.decisions) < 3:  # the bot answers after the people
            assert time.monotonic() < deadline, "the step did not end"
            time.sleep(0.05)
        assert hosted.game.decisions[:2] == [0, 3]  # P1 bread, P2 cake: in seat order
        assert hosted.game.table.counters["favourite"][2] == "cake"
    finally:
        for c in contexts:
            c.close()


# ------------------------------------------------------------------ the page at two sizes

SIZES = {"1400x1000": {"width": 1400, "height": 1000}, "1280x800": {"width": 1280, "height": 800}}
MIDGAME = {"trick_of_the_rails": 6, "isle_of_trains": 14, "trainsilvania": 10, "railways": 30}  # decisions first


def _midgame(tables: Tables, name: str) -> tuple[object, str]:
    """A game some random decisions in (each shipped ruleset's table with something on it), hosted
    with every seat a person's; the address of the seat to decide."""
    rules = ruleset(name)
    players = 4 if 4 in rules.players else rules.players[-1]
    game = Game(rules, players, rules.resolve_options(RANDOM_PLAY.get(name, {}), players), seed=21)
    rng = random.Random(21)
    for _ in range(MIDGAME[name]):
        game.apply(rng.randrange(len(game.pending.options)))
    hosted = tables.host(game, ["human"] * players, [None] * players)
    token = next(t for t, p in hosted.tokens.items() if p == game.pending.player)
    return hosted, f"/play/{hosted.id}/{token}"


def _rgb(colour: str) -> str:
    """A #hex colour as the browser's computed style says it; a name as it is."""
    if not colour.startswith("#"):
        return colour
    digits = colour[1:] if len(colour) > 4 else "".join(d * 2 for d in colour[1:])
    return "rgb({}, {}, {})".format(*(int(digits[i:i + 2], 16) for i in (0, 2, 4)))


def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] \
        and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", NAMES)
def test_each_shipped_table_is_drawn_and_nothing_covers_it(browser, server, name, size):
    """Each shipped ruleset's page at a desktop's and a laptop's size: its cards are pictures (SVG),
    its boards (a map, the layout's boards of cards) are drawn, nothing of the table lies under the
    decision panel, and no card in the window is covered by anything but a card of its own fan.
    ENGINE_SCREENSHOTS=DIR keeps each as web-RULESET-SIZE.png (docs/images/ is made so)."""
    url, tables = server
    hosted, address = _midgame(tables, name)
    context = browser.new_context(viewport=SIZES[size])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + address)
        assert settled(page) == "mine"
        assert page.locator(".card svg").count(), "no card drawn as a picture"
        assert page.locator(".card:not(:has(svg))").count() == 0, "a card that is no picture"
        areas = page.locator("section.area").count()
        assert areas == len(hosted.game.rules.page.areas)
        assert page.locator("svg.board-picture").count() == len(hosted.game.rules.boards)
        colours = hosted.game.rules.page.as_dict(len(hosted.game.players))["seat_colours"]
        drawn_colours = page.evaluate("""n => Array.from({length: n}, (_, i) => {
            const probe = document.createElement('span');
            probe.className = `swatch seat-${i + 1}`;
            document.body.append(probe);
            const colour = getComputedStyle(probe).backgroundColor;
            probe.remove();
            return colour; })""", len(colours))
        assert drawn_colours == [_rgb(c) for c in colours], "the seats are not in the ruleset's colours"
        panel = page.locator(".side .decision").bounding_box()
        assert panel and panel["width"] > 100
        for box in page.locator(".table .card, .table svg.board-picture, .table section.area").evaluate_all(
                "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); "
                "return {x: r.x, y: r.y, width: r.width, height: r.height}; })"):
            assert not _overlap(box, panel), f"{box} lies under the decision panel {panel}"
        covered = page.locator(".card").evaluate_all("""cards => cards.filter(c => {
            const r = c.getBoundingClientRect();
            if (r.bottom < 0 || r.top > innerHeight || r.width === 0) return false;
            const x = r.left + r.width / 2, y = Math.min(r.top + r.height / 2, innerHeight - 1);
            const top = document.elementFromPoint(x, Math.max(y, 0));
            return top && !c.contains(top) && !(top.closest('.card') && top.closest('.cards.fan'));
        }).map(c => c.getAttribute('aria-label'))""")
        assert covered == [], f"cards covered by something else: {covered}"
        keep = os.environ.get("ENGINE_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / f"web-{name}-{size}.png"))
        assert not errors, f"the page's script failed: {errors}"
    finally:
        context.close()


def test_a_place_clicked_on_the_map_is_previewed_and_taken_on_confirm(browser, server, page):
    """Railways: a click on a city that one option stands for takes nothing yet: the page shows
    that option (the route) with Confirm and Cancel; Cancel takes nothing, Confirm one decision."""
    from engine.game.view import view
    url, tables = server
    game = Game(ruleset("railways"), 3, seed=4)
    rng = random.Random(4)
    for _ in range(500):
        places = [p for p in view(game, game.pending.player).option_places() if p]
        ids = [p["id"] for p in places]
        if any(ids.count(i) == 1 for i in ids) and "where next" in view(game, game.pending.player).decision["prompt"]:
            break
        texts = [str(o) for o in view(game, game.pending.player).decision["options"]]
        game.apply(next((i for i, t in enumerate(texts) if t == "build track"), rng.randrange(len(texts))))
    else:
        pytest.fail("no decision of one option a place in 500")
    hosted = tables.host(game, ["human"] * 3, [None] * 3)
    token = next(t for t, p in hosted.tokens.items() if p == game.pending.player)
    page.goto(f"{url}/play/{hosted.id}/{token}")
    assert settled(page) == "mine"
    before = len(game.decisions)
    place = page.locator("svg.board-picture .place.choosable")
    clicked = None
    for i in range(place.count()):
        label = place.nth(i).get_attribute("aria-label")
        if label and "options)" not in label:
            clicked = place.nth(i)
            break
    assert clicked is not None, "no place of one option on the map"
    clicked.click()
    page.wait_for_selector(".preview button.confirm", timeout=WAIT_MS)
    assert len(game.decisions) == before, "a click on the map took the option at once"
    # The ruleset's previews: say what the route costs (and any bond it takes).
    assert any(p for p in view(game, game.pending.player).previews())
    assert "track token" in page.text_content(".preview") or "No track" in page.text_content(".preview")
    page.click(".preview button.cancel")
    assert page.locator(".preview").count() == 0 and len(game.decisions) == before
    clicked.click()
    drawn = page.get_attribute("#app", "data-drawn")
    page.click(".preview button.confirm")
    page.wait_for_selector(f"#app:not([data-drawn='{drawn}']):not(.busy)", state="attached", timeout=WAIT_MS)
    deadline = time.monotonic() + WAIT_MS / 1000
    while len(game.decisions) == before:
        assert time.monotonic() < deadline, "Confirm took no decision"
        time.sleep(0.05)
    assert len(game.decisions) == before + 1


@pytest.mark.parametrize("name", NAMES)
def test_the_final_scores_fit_their_panel(browser, server, name):
    """A finished game at a laptop's size, with the most players: the table of scores by part
    lies within the side panel, and the game's cards are still drawn."""
    url, tables = server
    rules = ruleset(name)
    players = rules.players[-1]
    game = Game(rules, players, rules.resolve_options(RANDOM_PLAY.get(name, {}), players), seed=2)
    rng = random.Random(2)
    while not game.over:
        game.apply(rng.randrange(len(game.pending.options)))
    hosted = tables.host(game, ["human"] * players, [None] * players)
    context = browser.new_context(viewport=SIZES["1280x800"])
    try:
        page = context.new_page()
        page.goto(f"{url}/play/{hosted.id}/{next(iter(hosted.tokens))}")
        assert settled(page) == "over"
        side = page.locator(".side").bounding_box()
        scores = page.locator(".results table").bounding_box()
        assert scores["x"] >= side["x"] - 1 and scores["x"] + scores["width"] <= side["x"] + side["width"] + 1, \
            f"the scores {scores} spill out of their panel {side}"
        keep = os.environ.get("ENGINE_SCREENSHOTS")
        if keep and name == "railways":
            page.screenshot(path=str(Path(keep) / "web-railways-over-1280x800.png"))
    finally:
        context.close()
