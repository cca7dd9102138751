"""engine serve: the JSON API and the page, through Starlette's TestClient (no browser).

A seat is sent its own view and nothing else: not the game, not its seed, not another seat's
view, and not one byte that depends on a card it cannot see. Bad requests get a 4xx and one line.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
httpx = pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx, of the test extra: pip install -e '.[test]'")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from conftest import (RANDOM_PLAY, RULESETS, position_with_secrets, random_play_options, refused, ruleset, swap,  # noqa: E402
                      unseen_pairs)
from engine.cli import main  # noqa: E402
from engine.game.game import Game  # noqa: E402
from engine.web.app import create_app, encode  # noqa: E402
from engine.web.tables import BadRequest, Hosted, Tables  # noqa: E402

NAMES = [p.stem for p in RULESETS]
BOTS = ["random", "greedy:tries=2", "scout:worlds=2", "mcts:iterations=5"]
MOST_DECISIONS = 5000  # a game longer than this through the API is a test's failure


@pytest.fixture
def tables() -> Tables:
    return Tables({name: ruleset(name) for name in NAMES})


@pytest.fixture
def client(tables):
    with TestClient(create_app(tables, ["testserver"])) as c:
        yield c


def new_game(client, **request) -> dict:
    answer = client.post("/api/games", json=request)
    assert answer.status_code == 201, answer.text
    return answer.json()


def api(url: str) -> str:
    """The API's address of a seat from its page's address."""
    assert url.startswith("/play/")
    return "/api/games/" + url[len("/play/"):]


def choose(client, seat: str, option: int):
    """The seat's answer `option` to the question of its view now (its step)."""
    return client.post(f"{seat}/choose", json={"option": option, "step": client.get(f"{seat}/view").json()["step"]})


def my_turn(client, seat: str) -> dict:
    """The seat's view once it is to decide (or the game is over): the server waits for its bots."""
    while True:
        answer = client.get(f"{seat}/view?wait=1")
        assert answer.status_code == 200, answer.text
        v = answer.json()
        assert v["error"] is None, v["error"]
        if v["over"] or (v["decision"] and "options" in v["decision"]):
            return v


def test_the_rulesets_offered(client):
    listed = client.get("/api/rulesets").json()["rulesets"]
    assert [r["name"] for r in listed] == NAMES
    tor = listed[NAMES.index("trick_of_the_rails")]
    assert tor["title"] == "Trick of the Rails" and tor["players"] == [3, 4, 5]
    assert "expert" in [o["name"] for o in tor["options"]]


@pytest.mark.parametrize("name", NAMES)
def test_a_person_plays_each_shipped_ruleset_against_bots(client, tables, name):
    rules = ruleset(name)
    players = rules.players[0]
    seats = ["human"] + [BOTS[i % len(BOTS)] for i in range(players - 1)]
    made = new_game(client, ruleset=name, players=players, seats=seats, options=RANDOM_PLAY.get(name, {}))
    assert [s["player"] for s in made["seats"]] == [1]
    seat = api(made["seats"][0]["url"])
    hosted = tables.games[made["id"]]
    mine = []  # the places of this seat's decisions in the game's
    for _ in range(12):
        v = my_turn(client, seat)
        if v["over"]:
            break
        assert v["you"] == "P1 (human)" and v["seat"] == 1 and v["decision"]["player"] == "P1 (human)"
        assert len(v["option_cards"]) == len(v["decision"]["options"])
        mine.append(len(hosted.game.decisions))  # the bots wait for this seat now
        answer = client.post(f"{seat}/choose", json={"option": 0, "step": v["step"]})
        assert answer.status_code == 200, answer.text
        assert str(hosted.game.seed) not in answer.text  # the seed is secret
    assert mine and [hosted.game.decisions[i] for i in mine] == [0] * len(mine)


def test_a_whole_trick_of_the_rails_game_through_the_api(client, tables):
    made = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "random", "scout"])
    seat = api(made["seats"][0]["url"])
    for _ in range(MOST_DECISIONS):
        v = my_turn(client, seat)
        if v["over"]:
            break
        assert client.post(f"{seat}/choose", json={"option": 0, "step": v["step"]}).status_code == 200
    assert v["over"] and tables.games[made["id"]].game.over
    results = v["results"]
    assert [p["player"] for p in results["players"]] == ["P1 (human)", "P2 (random)", "P3 (scout)"]
    assert results["winners"] and set(results["winners"]) <= {p["player"] for p in results["players"]}
    assert "seed" not in json.dumps(results).lower()
    assert "game is over" in refused(client.post(f"{seat}/choose", json={"option": 0, "step": v["step"]}), 409)


def test_a_chosen_seed_plays_the_same_game(client, tables):
    """A chosen seed seeds the bots as `engine play --seed` does: the same choices, the same game."""
    games = []
    for _ in range(2):
        made = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "random", "random"], seed=7)
        seat = api(made["seats"][0]["url"])
        for _ in range(6):
            v = my_turn(client, seat)
            client.post(f"{seat}/choose", json={"option": 0, "step": v["step"]})
        my_turn(client, seat)
        games.append(tables.games[made["id"]].game)
    assert games[0].decisions == games[1].decisions and games[0].digest() == games[1].digest()
    assert games[0].seed == 7


def test_hot_seat_one_address_a_person_and_no_seat_sees_another(client, tables):
    made = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "human", "human"])
    assert [s["seat"] for s in made["seats"]] == ["P1 (human)", "P2 (human)", "P3 (human)"]
    first, second, _ = (api(s["url"]) for s in made["seats"])
    assert first != second
    hosted = tables.games[made["id"]]
    one, two = client.get(f"{first}/view"), client.get(f"{second}/view")
    assert one.json()["you"] == "P1 (human)" and two.json()["you"] == "P2 (human)"
    assert one.content != two.content
    assert one.text == encode(hosted.seat_view(1)) and two.text == encode(hosted.seat_view(2))
    # The other's hand is sent face down: no card of it by its face.
    for v, other in ((one.json(), "P2 (human)"), (two.json(), "P1 (human)")):
        hand = [z for z in v["zones"] if z["name"] == "hand" and z["key"] == other]
        assert hand and all(c == {"hidden": True} for c in hand[0]["cards"])
    # The one who is not to decide is refused, and the game is as it was.
    waiting = second if hosted.game.pending.player != 2 else first
    before = hosted.game.digest()
    assert "not your turn" in refused(choose(client, waiting, 0), 409)
    assert hosted.game.digest() == before


@pytest.mark.parametrize("name", NAMES)
def test_the_bytes_a_seat_receives_do_not_depend_on_cards_it_cannot_see(client, tables, name):
    rules = ruleset(name)
    players = rules.players[0]
    game, pair = position_with_secrets(rules, players, random_play_options(rules, players))
    player = game.current_player
    # Two different cards (not copies), in different zones where there are such: a swap within a
    # zone whose order means nothing would change nothing anyone is shown.
    where = game.table.zone_of
    pairs = sorted(unseen_pairs(game, player), key=lambda p: (p[0].label == p[1].label, where(p[0]) is where(p[1])))
    a, b = pairs[0] if pairs else pair
    hosted = tables.host(game, ["human"] * players, [None] * players)
    token = next(t for t, p in hosted.tokens.items() if p == player)
    seat = f"/api/games/{hosted.id}/{token}"
    before = client.get(f"{seat}/view")
    digest = game.digest()
    swap(game, a, b)
    assert game.digest() != digest  # the swap changed the game
    after = client.get(f"{seat}/view")
    assert before.status_code == after.status_code == 200
    assert set(before.json()["drawings"]) == set(game.rules.boards)  # the boards' pictures are among the bytes
    assert before.content == after.content


def test_a_seat_sees_that_a_bot_thinks(client, tables):
    release = threading.Event()
    started = threading.Event()

    class Slow:
        def choose(self, v) -> int:
            started.set()
            release.wait()
            return 0

    game = Game(ruleset("trick_of_the_rails"), 3, seed=1)
    while game.pending.player != 2:
        game.apply(0)
    decided = len(game.decisions)
    hosted = tables.host(game, ["human", "random", "human"], [None, Slow(), None])
    token = next(t for t, p in hosted.tokens.items() if p == 1)
    assert started.wait(60)  # a bound against a hang, not a measure: the bot is called at once
    v = client.get(f"/api/games/{hosted.id}/{token}/view").json()
    assert v["thinking"] == "P2 (random)" and v["turn"] == "P2 (random)" and "options" not in v["decision"]
    release.set()
    with hosted.changed:
        assert hosted.changed.wait_for(lambda: hosted.worker is None, 60)
    assert hosted.game.pending.player in (1, 3) and hosted.seat_view(1)["thinking"] is None
    assert len(hosted.game.decisions) == decided + 1


def test_several_games_at_once(client, tables):
    made = [new_game(client, ruleset=name, players=ruleset(name).players[0],
                     seats=["human"] + ["random"] * (ruleset(name).players[0] - 1),
                     options=RANDOM_PLAY.get(name, {})) for name in ("trick_of_the_rails", "trainsilvania")]
    assert made[0]["id"] != made[1]["id"]
    seats = [api(m["seats"][0]["url"]) for m in made]
    for seat in seats:
        my_turn(client, seat)
    other = client.get(f"{seats[1]}/view").content
    assert choose(client, seats[0], 0).status_code == 200
    assert client.get(f"{seats[1]}/view").content == other
    # A seat's token is its game's only.
    token = made[0]["seats"][0]["url"].rsplit("/", 1)[1]
    refused(client.get(f"/api/games/{made[1]['id']}/{token}/view"), 404)


GOOD = {"ruleset": "trick_of_the_rails", "players": 3, "seats": ["human", "random", "random"]}


@pytest.mark.parametrize("request_body, status, says", [
    ({**GOOD, "ruleset": "railway"}, 400, "did you mean 'railways'"),
    ({**GOOD, "ruleset": "../rulesets/railways.yaml"}, 400, "unknown ruleset"),
    ({**GOOD, "players": 9}, 400, "for 3, 4, 5 players, not 9"),
    ({**GOOD, "players": "3"}, 400, "players, not '3'"),
    ({**GOOD, "seats": ["human", "random"]}, 400, "2 seat(s) for 3 players"),
    ({**GOOD, "seats": ["random", "random", "random"]}, 400, "no human seat"),
    ({**GOOD, "seats": ["human", "mcts:iterations=lots:speed=2", "random"]}, 400, "no parameter 'speed'"),
    ({**GOOD, "seats": ["human", "os:system", "random"]}, 400, "not a built-in kind"),
    ({**GOOD, "options": {"expert": "maybe"}}, 400, "takes true or false"),
    ({**GOOD, "options": {"exprt": True}}, 400, "did you mean 'expert'"),
    ({**GOOD, "seed": -1}, 400, "a seed is a whole number"),
    ({**GOOD, "sead": 1}, 400, "did you mean 'seed'"),
    (["trick_of_the_rails"], 400, "send a JSON object"),
])
def test_a_bad_new_game_is_refused_in_one_line(client, tables, request_body, status, says):
    assert says in refused(client.post("/api/games", json=request_body), status)
    assert not tables.games


def test_a_seat_of_a_file_is_refused_and_the_file_never_runs(client, tmp_path):
    marker = tmp_path / "ran"
    bot = tmp_path / "bot.py"
    bot.write_text(f"open({str(marker)!r}, 'w').close()\nclass Bot:\n    def choose(self, view):\n        return 0\n")
    says = refused(client.post("/api/games", json={**GOOD, "seats": ["human", f"{bot}:Bot", "random"]}), 400)
    assert "not a built-in kind" in says and not marker.exists()


STEP = object()  # the step of the seat's view


@pytest.mark.parametrize("body, status, says", [
    ({"option": 99, "step": STEP}, 400, "option 99 is not one of 0 to"),
    ({"option": -1, "step": STEP}, 400, "option -1 is not one of 0 to"),
    ({"option": "0", "step": STEP}, 400, "as a whole number"),
    ({"option": 1.0, "step": STEP}, 400, "as a whole number"),
    ({"option": True, "step": STEP}, 400, "as a whole number"),
    ({"choice": 0}, 400, 'send {"option": N, "step": S}'),
    ({"option": 0}, 400, 'send {"option": N, "step": S}'),
    ({"option": 0, "step": "0"}, 400, "the step of the question answered"),
])
def test_a_bad_choice_is_refused_and_the_game_is_as_it_was(client, tables, body, status, says):
    made = new_game(client, **GOOD)
    seat = api(made["seats"][0]["url"])
    v = my_turn(client, seat)
    game = tables.games[made["id"]].game
    before, decisions = game.digest(), list(game.decisions)
    body = {k: v["step"] if value is STEP else value for k, value in body.items()}
    assert says in refused(client.post(f"{seat}/choose", json=body), status)
    assert game.digest() == before and game.decisions == decisions


def test_malformed_json_is_refused_in_one_line(client):
    made = new_game(client, **GOOD)
    seat = api(made["seats"][0]["url"])
    sent = {"content-type": "application/json"}
    assert "not JSON" in refused(client.post("/api/games", content=b"{ruleset: railways", headers=sent), 400)
    assert "not JSON" in refused(client.post(f"{seat}/choose", content=b"{\"option\": ", headers=sent), 400)
    assert "larger than" in refused(client.post("/api/games", content=b" " * 100_000, headers=sent), 413)


def test_a_wrong_token_or_game_says_nothing_of_the_games_there_are(client):
    made = new_game(client, **GOOD)
    game, token = made["seats"][0]["url"].split("/")[2:]
    wrong = [client.get(f"/api/games/{game}/{token[:-1]}x/view"), client.get(f"/api/games/nogame/{token}/view"),
             client.get("/api/games/nogame/x/view"), client.post(f"/api/games/{game}/x/choose", json={"option": 0, "step": 0})]
    assert {refused(w, 404) for w in wrong} == {"no such seat"}
    assert len({w.content for w in wrong}) == 1


def test_pages_and_unknown_addresses(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert page.headers["referrer-policy"] == "no-referrer" and "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/play/some/seat").text == page.text  # the page asks the API whose seat it is
    for name in ("app.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    refused(client.get("/static/../tables.py"), 404)
    refused(client.get("/api/nothing"), 404)
    refused(client.delete("/api/games"), 405)
    assert client.get("/api/rulesets", headers={"host": "elsewhere.example"}).status_code == 400


def test_engine_loads_no_web_code_until_serve_runs():
    code = ("import sys, engine, engine.cli; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn') "
            "or m.startswith('engine.web')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serve_without_the_extra_says_how_to_install_it():
    code = "import sys; sys.modules['starlette'] = None; from engine.cli import main; sys.exit(main(['serve']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "engine: engine serve needs the web extra: pip install 'tabletop-rules-engine[web]'\n"


def test_serve_on_a_port_in_use_says_so(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"engine: cannot listen on 127.0.0.1:{port}") and err.count("\n") == 1


def test_serve_refuses_a_ruleset_that_is_not_there(capsys, tmp_path):
    assert main(["serve", str(tmp_path / "missing.yaml")]) == 1
    assert "missing.yaml" in capsys.readouterr().err


def test_hosted_game_is_built_from_seats_alone():
    """The names a seat reads are its number and kind: nothing of the seat's parameters."""
    game = Game(ruleset("trick_of_the_rails"), 3, seed=1)
    hosted = Hosted(game, ["human", "mcts:iterations=5", "random"], [None, None, None])
    assert hosted.names == {1: "P1 (human)", 2: "P2 (mcts)", 3: "P3 (random)"}
    assert len(set(hosted.tokens)) == 3 and all(len(t) >= 32 for t in hosted.tokens)


def test_the_page_is_served_from_the_package():
    static = Path(__file__).resolve().parent.parent / "engine" / "web" / "static"
    text = "".join(p.read_text(encoding="utf-8") for p in static.iterdir())
    text = text.replace('"http://www.w3.org/2000/svg"', "")  # SVG's namespace: a name, nothing fetched
    assert "http://" not in text and "https://" not in text  # no CDN: works offline
    assert "innerHTML" not in text  # labels are set as text


def test_engine_serve_listens_on_this_machine_and_prints_its_address():
    server = subprocess.Popen([sys.executable, "-m", "engine", "serve", "trick_of_the_rails"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("engine serve: open http://127.0.0.1:") and line.endswith(" (Ctrl-C stops the server)\n")
        url = line.split()[3]
        listed = httpx.get(f"{url}api/rulesets", timeout=60).json()["rulesets"]
        assert [r["name"] for r in listed] == ["trick_of_the_rails"]
        made = httpx.post(f"{url}api/games", json=GOOD, timeout=60)
        assert made.status_code == 201 and made.json()["seats"][0]["url"].startswith("/play/")
    finally:
        server.terminate()
        server.wait(60)


def test_engine_play_web_serves_that_game_and_prints_each_seat_address():
    server = subprocess.Popen([sys.executable, "-m", "engine", "play", "trick_of_the_rails", "--players", "3",
                               "--seats", "human,random,human", "--web"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(4)]
        assert lines[0].startswith("Trick of the Rails: 3 players") and "secret" in lines[0]
        url = lines[1].split()[3]
        seats = dict(line.strip().split(": ") for line in lines[2:])
        assert list(seats) == ["P1 (human)", "P3 (human)"] and all(u.startswith(f"{url}play/") for u in seats.values())
        for name, address in seats.items():
            shown = httpx.get(address.replace("/play/", "/api/games/") + "/view", timeout=60).json()
            assert shown["you"] == name and shown["game"] == "Trick of the Rails"
    finally:
        server.terminate()
        server.wait(60)


@pytest.mark.parametrize("args, says", [
    (["--plain"], "--plain is for a game at the terminal, not with --web"),
    (["--seats", "random,random,random"], "--web needs a human seat"),
])
def test_engine_play_web_refuses_what_is_for_the_terminal(capsys, tmp_cwd, args, says):
    assert main(["play", "trick_of_the_rails", "--players", "3", "--web", *args]) == 1
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_full_server_counts_the_games_in_play_only(tables, monkeypatch):
    monkeypatch.setattr("engine.web.tables.MOST_GAMES", 2)
    rules = ruleset("trick_of_the_rails")
    ended = Game(rules, 3, seed=1)
    while not ended.over:
        ended.apply(0)
    old = tables.host(ended, ["human"] * 3, [None] * 3)
    playing = tables.host(Game(rules, 3, seed=2), ["human"] * 3, [None] * 3)
    new = tables.host(Game(rules, 3, seed=3), ["human"] * 3, [None] * 3)
    assert set(tables.games) == {old.id, playing.id, new.id}  # the game over does not count
    with pytest.raises(BadRequest) as refusal:
        tables.host(Game(rules, 3, seed=4), ["human"] * 3, [None] * 3)
    assert refusal.value.status == 503 and "2 games in play" in str(refusal.value)
    while not playing.game.over:
        playing.game.apply(0)
    newer = tables.host(Game(rules, 3, seed=5), ["human"] * 3, [None] * 3)
    # As many games over as in play are kept at most: the oldest of them is let go.
    assert set(tables.games) == {playing.id, new.id, newer.id} and old.dropped


def test_undo_takes_back_a_seats_last_decision_as_at_the_terminal(client, tables):
    made = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "random", "random"], seed=3)
    seat = api(made["seats"][0]["url"])
    game = tables.games[made["id"]].game
    first = my_turn(client, seat)
    said = client.post(f"{seat}/undo").json()["message"]
    assert said == "There is no decision of yours to take back yet."
    before = game.digest()
    choose(client, seat, 1)
    my_turn(client, seat)
    assert game.digest() != before
    answer = client.post(f"{seat}/undo")
    assert answer.status_code == 200, answer.text
    message = answer.json()["message"]
    if message.startswith("Undo refused"):  # a card was shown since: deciding again knowing it is not fair
        assert "you have seen" in message
    else:
        assert message == "Took back your last decision."
        assert game.digest() == before and answer.json()["view"] == first
    # Not on another seat's turn; the game as it was.
    made = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "human", "human"])
    hosted = tables.games[made["id"]]
    waiting = next(api(s["url"]) for s in made["seats"] if s["player"] != hosted.game.pending.player)
    before = hosted.game.digest()
    assert "not your turn" in refused(client.post(f"{waiting}/undo"), 409)
    assert hosted.game.digest() == before


def test_save_writes_on_the_server_and_the_record_waits_for_the_end(client, tmp_path):
    tables = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, saves=tmp_path)
    with TestClient(create_app(tables, ["testserver"])) as c:
        made = new_game(c, ruleset="trick_of_the_rails", players=3, seats=["human", "random", "random"])
        seat = api(made["seats"][0]["url"])
        v = my_turn(c, seat)
        assert v["can_save"] is True
        answer = c.post(f"{seat}/save")
        assert answer.status_code == 200, answer.text
        (saved,) = tmp_path.glob("trick_of_the_rails-*.json")
        assert saved.name in answer.json()["message"] and list(answer.json()) == ["message"]
        assert str(tables.games[made["id"]].game.seed) not in answer.text  # the save stays on the server
        assert "once the game is over" in refused(c.get(f"{seat}/record"), 409)
        for _ in range(MOST_DECISIONS):
            if my_turn(c, seat)["over"]:
                break
            choose(c, seat, 0)
        record = c.get(f"{seat}/record")
        assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
        assert record.json()["result"] == json.loads(saved.read_text())["result"]  # saved again at the end
        # engine play --web --save FILE: that game to that file.
        mine = tables.host(Game(ruleset("trick_of_the_rails"), 3, seed=1), ["human"] * 3, [None] * 3, tmp_path / "mine.json")
        assert mine.save(1) == "mine.json" and json.loads((tmp_path / "mine.json").read_text())["seed"] == 1
    # A server with no folder of saves says how to get one.
    no_saves = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "random", "random"])
    seat = api(no_saves["seats"][0]["url"])
    assert my_turn(client, seat)["can_save"] is False
    assert "--saves" in refused(client.post(f"{seat}/save"), 409)


def test_the_page_is_pushed_each_change_through_a_websocket(client, tables):
    made = new_game(client, ruleset="trick_of_the_rails", players=3, seats=["human", "human", "human"])
    hosted = tables.games[made["id"]]
    seats = {s["player"]: api(s["url"]) for s in made["seats"]}
    deciding = hosted.game.pending.player
    watcher = next(p for p in seats if p != deciding)
    with client.websocket_connect(f"{seats[watcher]}/updates") as socket:
        first = socket.receive_text()
        assert first == client.get(f"{seats[watcher]}/view").text  # the same bytes as the view
        assert choose(client, seats[deciding], 0).status_code == 200
        pushed = socket.receive_text()
        assert pushed != first and pushed == encode(hosted.seat_view(watcher))
    for _ in range(600):  # a page that went is let go (by the server's task, soon after)
        if not hosted.listeners:
            break
        time.sleep(0.05)
    assert not hosted.listeners
    # A wrong token gets no socket.
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"/api/games/{made['id']}/{'x' * 32}/updates") as socket:
            socket.receive_text()
    assert closed.value.code == 4404


def test_a_page_whose_event_loop_closed_does_not_stop_the_game(tables):
    import asyncio
    game = Game(ruleset("trick_of_the_rails"), 3, seed=1)
    hosted = tables.host(game, ["human"] * 3, [None] * 3)
    loop = asyncio.new_event_loop()
    event = asyncio.Event()
    loop.run_until_complete(asyncio.sleep(0))
    hosted.listeners.append((loop, event))
    loop.close()
    player = game.pending.player
    hosted.choose(player, 0, 0)  # tells its listeners: the closed one is let go, the decision stands
    assert len(game.decisions) == 1 and not hosted.listeners
