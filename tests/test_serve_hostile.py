"""engine serve against a stranger's web page, a careless user and a crowd (issue 41), through
Starlette's TestClient and, where the HTTP server itself answers, a real server on 127.0.0.1.

Every attack of the issue is a case here: a page of another site that posts to the server
(CSRF), one click sent twice, small requests asking for unbounded work, games never freed,
long polls holding threads, requests that made 500s and tracebacks, a drawing rule failing
mid-game, and the server's paths in what a seat reads.
"""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx, of the test extra: pip install -e '.[test]'")

from starlette.testclient import TestClient, WebSocketDenialResponse  # noqa: E402

from conftest import refused, ruleset  # noqa: E402
from engine.web.app import create_app  # noqa: E402
from engine.web.tables import Tables  # noqa: E402

GOOD = {"ruleset": "trick_of_the_rails", "players": 3, "seats": ["human", "random", "random"]}
HERE = "http://testserver"  # the TestClient's own origin
STRANGERS = ["http://evil.example", "null", "http://testserver.evil.example", "http://127.0.0.1:1",
             "https://evil.example"]


@pytest.fixture
def tables() -> Tables:
    return Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")})


@pytest.fixture
def client(tables):
    with TestClient(create_app(tables, ["testserver"])) as c:
        yield c


def new_game(client, **request) -> str:
    """A new game's first seat's API address."""
    answer = client.post("/api/games", json={**GOOD, **request})
    assert answer.status_code == 201, answer.text
    return "/api/games/" + answer.json()["seats"][0]["url"][len("/play/"):]


# ------------------------------------------------------------------ 1. another site's page


@pytest.mark.parametrize("origin", STRANGERS)
def test_a_page_of_another_site_starts_no_game(client, tables, origin):
    said = refused(client.post("/api/games", json=GOOD, headers={"origin": origin}), 403)
    assert "another site" in said and not tables.games


@pytest.mark.parametrize("kind, body", [
    ("text/plain", json.dumps(GOOD)),  # what a plain HTML form can send with no preflight
    ("application/x-www-form-urlencoded", "ruleset=trick_of_the_rails&players=3"),
    ("multipart/form-data; boundary=x", "--x--"),
    (None, json.dumps(GOOD)),
])
def test_a_body_that_is_not_said_to_be_json_is_refused_unread(client, tables, kind, body):
    headers = {"content-type": kind} if kind else {}
    said = refused(client.post("/api/games", content=body.encode(), headers=headers), 415)
    assert "application/json" in said and not tables.games


def test_a_browser_that_says_cross_site_is_refused_even_without_origin(client, tables):
    refused(client.post("/api/games", json=GOOD, headers={"sec-fetch-site": "cross-site"}), 403)
    assert not tables.games


def test_the_page_itself_and_a_client_of_no_page_are_answered(client, tables):
    same = client.post("/api/games", json=GOOD, headers={"origin": HERE, "sec-fetch-site": "same-origin"})
    plain = client.post("/api/games", json=GOOD)  # curl, a script: no Origin at all
    assert same.status_code == plain.status_code == 201 and len(tables.games) == 2
    # A charset with the type is JSON still.
    assert client.post("/api/games", content=json.dumps(GOOD).encode(),
                       headers={"content-type": "application/json; charset=utf-8"}).status_code == 201


def test_every_change_a_seat_can_make_is_refused_from_another_site(client, tables):
    seat = new_game(client, seats=["human", "human", "human"])
    hosted = next(iter(tables.games.values()))
    before = hosted.game.digest()
    foreign = {"origin": "http://evil.example"}
    for path, body in (("choose", {"option": 0, "step": 0}), ("undo", None), ("save", None)):
        refused(client.post(f"{seat}/{path}", json=body, headers=foreign), 403)
    refused(client.post("/api/replays", json={"save": {}}, headers=foreign), 403)
    assert hosted.game.digest() == before and not hosted.game.decisions
    # Reading is no change: a foreign page cannot read the answer anyway (no CORS), nor knows the token.
    assert client.get(f"{seat}/view", headers=foreign).status_code == 200


def test_a_websocket_from_another_site_is_refused(client, tables):
    seat = new_game(client)
    with pytest.raises(WebSocketDenialResponse) as denied:
        with client.websocket_connect(f"{seat}/updates", headers={"origin": "http://evil.example"}):
            pass
    assert denied.value.status_code == 403 and "another site" in denied.value.json()["error"]
    with client.websocket_connect(f"{seat}/updates", headers={"origin": HERE}) as socket:
        assert json.loads(socket.receive_text())["seat"] == 1


def test_a_foreign_host_is_refused_in_one_line_of_json(client, tables):
    said = refused(client.get("/api/rulesets", headers={"host": "evil.example"}), 400)
    assert "answers requests for" in said
    refused(client.post("/api/games", json=GOOD, headers={"host": "evil.example"}), 400)
    assert not tables.games


# ------------------------------------------------------------------ 2. one click sent twice


def test_a_view_carries_its_step_and_a_stale_answer_changes_nothing(client, tables):
    seat = new_game(client, seats=["human", "human", "human"])
    hosted = next(iter(tables.games.values()))
    seats = {p: f"/api/games/{hosted.id}/{t}" for t, p in hosted.tokens.items()}
    v = client.get(f"{seats[hosted.game.pending.player]}/view").json()
    assert v["step"] == 0 == len(hosted.game.decisions)
    deciding = seats[hosted.game.pending.player]
    assert client.post(f"{deciding}/choose", json={"option": 0, "step": 0}).status_code == 200
    before, decisions = hosted.game.digest(), list(hosted.game.decisions)
    now = seats[hosted.game.pending.player]
    assert client.get(f"{now}/view").json()["step"] == 1
    for answer in (client.post(f"{now}/choose", json={"option": 0, "step": 0}),
                   client.post(f"{now}/choose", json={"option": 0, "step": 7}),
                   client.post(f"{now}/undo", json={"step": 0})):
        assert "the game is at step 1" in refused(answer, 409)
    assert hosted.game.digest() == before and hosted.game.decisions == decisions
    assert seat in seats.values()


def test_twenty_identical_answers_at_once_take_one_decision(client, tables):
    from concurrent.futures import ThreadPoolExecutor
    new_game(client, seats=["human", "human", "human"])
    hosted = next(iter(tables.games.values()))
    token = next(t for t, p in hosted.tokens.items() if p == hosted.game.pending.player)
    seat = f"/api/games/{hosted.id}/{token}"
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: client.post(f"{seat}/choose", json={"option": 0, "step": 0}), range(20)))
    assert sorted(a.status_code for a in answers) == [200] + [409] * 19
    assert hosted.game.decisions == [0]
