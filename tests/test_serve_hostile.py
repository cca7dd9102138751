"""engine serve against a stranger's web page, a careless user and a crowd (issue 41), through
Starlette's TestClient and, where the HTTP server itself answers, a real server on 127.0.0.1.

Every attack of the issue is a case here: a page of another site that posts to the server
(CSRF), one click sent twice, small requests asking for unbounded work, games never freed,
long polls holding threads, requests that made 500s and tracebacks, a drawing rule failing
mid-game, and the server's paths in what a seat reads.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
httpx = pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx, of the test extra: pip install -e '.[test]'")

from starlette.testclient import TestClient, WebSocketDenialResponse  # noqa: E402

from conftest import ROOT, refused, ruleset  # noqa: E402
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


# ------------------------------------------------------------------ 3. refusals, not failures

BREAKS = """
game: {name: Breaks, players: [2]}
boards:
  land:
    layout: hex
    draw:
      badge: '100 / divisor'
    places:
      - {id: A, q: 0, r: 0}
      - {id: B, q: 1, r: 0}
zones:
  bag: {visibility: hidden}
counters:
  divisor: {initial: 1}
flow: |
  divisor = choose(players[0], [1, 0, 5], "Keep the board drawable?")
  divisor = choose(players[1], [2, 3], "Then?")
  let x = choose(players[0], [1, 2], "Last?")
  if x == 2:
      fail("the rules break here")
scoring:
  score: 0
"""


@pytest.fixture
def breaks(tmp_path) -> Tables:
    """A server of a ruleset whose board drawing fails once P1 answers 0 (1 / 0), and whose
    rules fail at P1's second answer 2; it lies in a folder whose path no seat may read."""
    path = tmp_path / "secret-folder" / "breaks.yaml"
    path.parent.mkdir()
    path.write_text(BREAKS)
    from engine.rules.ruleset import load_ruleset
    return Tables({"breaks": load_ruleset(str(path))})


def seats_of(client, tables, request) -> tuple[object, dict[int, str]]:
    answer = client.post("/api/games", json=request)
    assert answer.status_code == 201, answer.text
    hosted = tables.games[answer.json()["id"]]
    return hosted, {p: f"/api/games/{hosted.id}/{t}" for t, p in hosted.tokens.items()}


def test_a_drawing_rule_that_fails_mid_game_stops_that_game_and_tells_its_seats(breaks, tmp_path):
    with TestClient(create_app(breaks, ["testserver"])) as client:
        hosted, seats = seats_of(client, breaks, {"ruleset": "breaks", "players": 2, "seats": ["human", "human"]})
        other, _ = seats_of(client, breaks, {"ruleset": "breaks", "players": 2, "seats": ["human", "human"]})
        with client.websocket_connect(f"{seats[2]}/updates") as socket:
            assert json.loads(socket.receive_text())["error"] is None
            answer = client.post(f"{seats[1]}/choose", json={"option": 1, "step": 0})
            assert answer.status_code == 200, answer.text
            said = answer.json()["error"]
            assert "division by zero" in said and "in draw badge of board land" in said
            assert json.loads(socket.receive_text())["error"] == said  # pushed to the other seat, socket open
        for player, seat in seats.items():
            v = client.get(f"{seat}/view")
            assert v.status_code == 200 and v.json()["error"] == said and v.json()["seat"] == player
            assert str(tmp_path) not in v.text and "secret-folder" not in v.text
        assert "stopped on an error" in refused(client.post(f"{seats[2]}/choose", json={"option": 0, "step": 1}), 409)
        record = client.get(f"{seats[1]}/record")
        assert record.status_code == 200 and record.json()["ruleset"] == "breaks.yaml"
        assert "secret-folder" not in record.text
        # The server goes on: another game of the same rules is played.
        assert other.error is None and other.game.pending is not None


def test_a_rule_that_fails_stops_its_game_as_it_was_with_its_line_and_no_path(breaks, tmp_path):
    with TestClient(create_app(breaks, ["testserver"])) as client:
        hosted, seats = seats_of(client, breaks, {"ruleset": "breaks", "players": 2, "seats": ["human", "human"]})
        assert client.post(f"{seats[1]}/choose", json={"option": 0, "step": 0}).status_code == 200
        assert client.post(f"{seats[2]}/choose", json={"option": 0, "step": 1}).status_code == 200
        before = hosted.game.digest()
        answer = client.post(f"{seats[1]}/choose", json={"option": 1, "step": 2})
        assert answer.status_code == 200 and "the rules break here" in answer.json()["error"]
        assert answer.json()["error"].startswith("breaks.yaml:") and "secret-folder" not in answer.text
        assert hosted.game.digest() == before  # as it was before the decision that failed


@pytest.mark.parametrize("request_body, says", [
    ({"ruleset": "trick_of_the_rails", "players": 3, "options": {"first_leader": 5}}, "first_leader"),
    ({"ruleset": "trainsilvania", "players": 2, "options": {"first_player": 4}}, "seat 4 is not in a 2-player game"),
])
def test_an_option_value_the_page_offers_that_the_setup_refuses_is_a_400(request_body, says):
    names = ["trick_of_the_rails", "trainsilvania"]
    tables = Tables({n: ruleset(n) for n in names})
    with TestClient(create_app(tables, ["testserver"])) as client:
        said = refused(client.post("/api/games", json={"seats": None, **request_body}), 400)
    assert says in said and "/" not in said.split(":")[0] and not tables.games


SURROGATE = "\ud800"


@pytest.mark.parametrize("path, body", [
    ("/api/games", {**GOOD, "ruleset": SURROGATE}),
    ("/api/games", {**GOOD, "seats": ["human", SURROGATE, "random"]}),
    ("/api/games", {**GOOD, "seats": SURROGATE}),
    ("/api/games", {**GOOD, "options": {SURROGATE: True}}),
    ("/api/games", {**GOOD, "options": {"expert": SURROGATE}}),
    ("/api/games", {**GOOD, SURROGATE: 1}),
    ("/api/replays", {"save": SURROGATE}),
    ("/api/replays", {"run": SURROGATE, "game": SURROGATE}),
    ("CHOOSE", {"option": 0, "step": 0, SURROGATE: 1}),
])
def test_a_lone_surrogate_in_any_field_is_a_400(client, tables, path, body):
    if path == "CHOOSE":
        path = new_game(client) + "/choose"
    raw = json.dumps(body)  # "\\ud800" as JSON writes it: valid JSON, no text
    said = refused(client.post(path, content=raw.encode(), headers={"content-type": "application/json"}), 400)
    assert "not Unicode" in said


@pytest.fixture
def served():
    """`engine serve` in a process of its own on 127.0.0.1: its address, and its process (whose
    stderr a test reads once it has stopped it)."""
    server = subprocess.Popen([sys.executable, "-m", "engine", "serve", str(ROOT / "rulesets" / "trick_of_the_rails.yaml")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    assert line.startswith("engine serve: open http://127.0.0.1:"), line + server.stderr.read()
    url = line.split()[3].rstrip("/")
    yield url, server
    if server.poll() is None:
        server.terminate()
        server.wait(60)


def raw_exchange(url: str, data: bytes, close_early: bool = False) -> bytes:
    """Send `data` as it is on a socket to the server; what it answers (nothing if closed early)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as s:
        s.sendall(data)
        if close_early:
            return b""
        s.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
        return got


def test_what_the_http_server_itself_refuses_is_one_line_of_json(served):
    url, _ = served
    for sent in (b"NOT HTTP AT ALL\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n"):
        head, _, body = raw_exchange(url, sent).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head.lower()
        said = json.loads(body)["error"]
        assert said.startswith("the request is not HTTP this server reads") and "\n" not in said
    answer = httpx.get(f"{url}/api/rulesets", headers={"host": "rebinding.example"}, timeout=30)
    assert answer.status_code == 400 and "answers requests for" in answer.json()["error"]


def test_clients_that_stop_mid_upload_leave_no_traceback(served):
    url, server = served
    for i in range(30):
        head = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: 5000\r\n\r\n").encode()
        raw_exchange(url, head + b'{"ruleset": "' + b"x" * (i * 50), close_early=True)
    # The server still answers, and has said nothing of those clients.
    assert httpx.get(f"{url}/api/rulesets", timeout=30).status_code == 200
    server.terminate()
    _, err = server.communicate(timeout=60)
    assert "Traceback" not in err and "Exception" not in err, err[-2000:]


# ------------------------------------------------------------------ 4. bounded work


def run_of(rules, seats: list[str], decisions: int, max_decisions=None) -> dict:
    """A run file's header and a game's record as a request sends them: a small request, whose
    record says the game took `decisions` decisions (the server plays it no further)."""
    from engine.analysis.run import game_seed
    head = {"run": {"ruleset": "isle_of_trains", "digest": rules.digest, "seats": seats, "players": len(seats),
                    "seed": 1, "options": {}, "max_decisions": max_decisions}}
    record = {"game": 1, "seed": game_seed(1, 0), "decisions": decisions, "scores": {"1": 0, "2": 0},
              "end_reason": "ended"}
    return {"run": json.dumps(head), "game": json.dumps(record)}


@pytest.fixture
def isle():
    from engine.web.replays import Replays
    rules = {"isle_of_trains": ruleset("isle_of_trains"), "trick_of_the_rails": ruleset("trick_of_the_rails")}
    tables = Tables(rules)
    with TestClient(create_app(tables, ["testserver"], Replays(rules))) as c:
        yield c, tables


def test_a_run_files_game_that_never_ends_is_played_no_further_than_its_record(isle):
    """Isle of Trains, which random players never end, of a run with no decision cap: the
    request is a few hundred bytes; it is played to the decisions its record says, and refused."""
    client, _ = isle
    body = run_of(ruleset("isle_of_trains"), ["random", "random"], 300)
    assert len(json.dumps(body)) < 600
    assert "does not reproduce" in refused(client.post("/api/replays", json=body), 400)
    body = run_of(ruleset("isle_of_trains"), ["random", "random"], 10 ** 9)
    assert "more than the 20000 this server replays" in refused(client.post("/api/replays", json=body), 422)
    # A record that says it stopped at a cap its run did not have is damaged.
    capped = json.loads(body["game"]) | {"decisions": 50, "end_reason": "decision cap"}
    said = refused(client.post("/api/replays", json={"run": body["run"], "game": json.dumps(capped)}), 400)
    assert "record is damaged" in said


def test_a_replay_over_its_time_budget_is_refused_and_frees_its_worker(isle, monkeypatch):
    monkeypatch.setattr("engine.web.replays.REPLAY_SECONDS", 0.2)
    client, _ = isle
    body = run_of(ruleset("isle_of_trains"), ["mcts:iterations=100000:depth=0", "random"], 20_000)
    said = refused(client.post("/api/replays", json=body), 422)
    assert "took more than 0.2 s to play again" in said and "engine replay" in said


def test_replays_wait_in_a_pool_of_their_own_and_a_crowd_of_them_is_refused(isle, monkeypatch):
    """Many slow replays at once: a few are played (each within its budget), the rest refused at
    once, and a game in play is answered meanwhile."""
    from concurrent.futures import ThreadPoolExecutor
    monkeypatch.setattr("engine.web.replays.REPLAY_SECONDS", 1.0)
    client, tables = isle
    seat = new_game(client, seats=["human", "human", "human"])
    hosted = next(iter(tables.games.values()))
    token = next(t for t, p in hosted.tokens.items() if p == hosted.game.pending.player)
    body = run_of(ruleset("isle_of_trains"), ["mcts:iterations=100000:depth=0", "random"], 20_000)
    with ThreadPoolExecutor(12) as pool:
        slow = [pool.submit(client.post, "/api/replays", json=body) for _ in range(12)]
        chosen = client.post(f"/api/games/{hosted.id}/{token}/choose", json={"option": 0, "step": 0})
        answers = [f.result() for f in slow]
    assert chosen.status_code == 200 and hosted.game.decisions == [0]
    statuses = sorted(a.status_code for a in answers)
    assert set(statuses) <= {422, 503} and statuses.count(503) >= 12 - 6, statuses
    assert all(refused(a, a.status_code) for a in answers)
    assert seat.startswith("/api/games/")


@pytest.mark.parametrize("seat, says", [
    ("mcts:iterations=1000000:depth=0", "iterations is from 1 to 2000"),
    ("mcts:depth=0", "depth is from 1 to 500"),
    ("scout:worlds=1000", "worlds is from 1 to 32"),
    ("greedy:tries=100000", "tries is from 1 to 32"),
    ("mcts:ms=600000", "ms is from 1 to 10000"),
])
def test_a_seat_of_a_request_searches_within_bounds(client, tables, seat, says):
    assert says in refused(client.post("/api/games", json={**GOOD, "seats": ["human", seat, "random"]}), 400)
    assert not tables.games
    assert client.post("/api/games", json={**GOOD, "seats": ["human", "mcts:iterations=2000:depth=500",
                                                              "scout:worlds=32"]}).status_code == 201


def test_a_bot_over_its_time_takes_a_random_option_and_the_game_says_so():
    from engine.game.game import Game

    class Endless:
        """A search that never ends by itself: it deals world after world."""

        def choose(self, view) -> int:
            while True:
                view.world(1, log=False)

    tables = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, bot_seconds=0.05)
    game = Game(ruleset("trick_of_the_rails"), 3, seed=1)
    while game.pending.player != 2:
        game.apply(0)
    decided = len(game.decisions)
    hosted = tables.host(game, ["human", "mcts", "human"], [None, Endless(), None])
    with hosted.changed:
        assert hosted.changed.wait_for(lambda: hosted.worker is None, 60)  # a bound against a hang
    assert len(hosted.game.decisions) > decided and hosted.error is None
    notes = hosted.seat_view(1)["notes"]
    assert notes and notes[0].startswith("P2 (mcts) took more than 0.05 s over the decision of step")


def test_an_mcts_seat_stops_its_search_in_the_time_a_bot_has():
    tables = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, bot_seconds=0.2)
    hosted = tables.create({**GOOD, "seats": ["human", "mcts:iterations=2000:depth=500", "mcts:iterations=2000"],
                            "seed": 3})
    assert all(getattr(a, "ms", None) == pytest.approx(150) for a in hosted.agents[1:])  # the time budget, 0.15 s
    fixed = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, bot_seconds=0.2, think=0)
    hosted = fixed.create({**GOOD, "seats": ["human", "mcts:iterations=2000", "random"], "seed": 3})
    assert hosted.agents[1].ms == pytest.approx(160)  # without one, 80% of the time a bot has
    short = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, bot_seconds=0.1)
    hosted = short.create({**GOOD, "seats": ["human", "mcts", "random"], "seed": 3})
    assert hosted.agents[1].ms == pytest.approx(80)  # a budget beyond that is cut to it


# ------------------------------------------------------------------ 5. games freed


def aged(tables: Tables, *games) -> None:
    """As if nobody had touched these games for a long time (and idle games were not looked for lately)."""
    for hosted in games:
        hosted.touched -= 10 ** 6
    tables._swept = 0.0


def test_a_game_nobody_touches_is_let_go_saved_and_its_pages_told(tmp_path):
    tables = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, saves=tmp_path, idle=600)
    with TestClient(create_app(tables, ["testserver"])) as client:
        seat = new_game(client, seats=["human", "human", "human"])
        hosted = next(iter(tables.games.values()))
        kept = new_game(client)
        with client.websocket_connect(f"{seat}/updates") as socket:
            socket.receive_text()
            aged(tables, hosted)
            assert client.get(f"{kept}/view").status_code == 200  # any request looks for idle games
            with pytest.raises(Exception) as closed:
                socket.receive_text()
            assert getattr(closed.value, "code", None) == 4410
        assert hosted.id not in tables.games and hosted.dropped
        assert refused(client.get(f"{seat}/view"), 404) == "no such seat"
        (saved,) = tmp_path.glob(f"trick_of_the_rails-{hosted.id}.json")
        assert json.loads(saved.read_text())["decisions"] == []
        assert client.get(f"{kept}/view").status_code == 200  # touched: kept


def test_a_server_full_of_unfinished_games_takes_new_ones_once_they_are_idle(monkeypatch):
    monkeypatch.setattr("engine.web.tables.MOST_GAMES", 5)
    tables = Tables({"trick_of_the_rails": ruleset("trick_of_the_rails")}, idle=600)
    with TestClient(create_app(tables, ["testserver"])) as client:
        for _ in range(5):
            new_game(client)
        assert "5 games in play" in refused(client.post("/api/games", json=GOOD), 503)
        aged(tables, *tables.games.values())
        new_game(client)
        assert len(tables.games) == 1


def test_engine_serve_takes_idle_seconds(capsys):
    from engine.cli import main
    assert main(["serve", "--idle", "0", str(ROOT / "rulesets" / "trick_of_the_rails.yaml")]) == 1
    assert "--idle takes a number of seconds above 0" in capsys.readouterr().err


# ------------------------------------------------------------------ 6. no thread per waiting client


def test_long_polls_wait_without_threads_and_delay_no_other_game(client, tables, monkeypatch):
    """45 long polls of one seat (the issue's attack): 32 wait in the event loop, the rest are
    answered at once; meanwhile another game's choose is answered, and no worker thread waits."""
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from engine.web.tables import MOST_POLLS
    monkeypatch.setattr("engine.web.app.LONGEST_WAIT", 3.0)
    new_game(client, seats=["human", "human", "human"])
    (hosted,) = tables.games.values()
    waiting = next(t for t, p in hosted.tokens.items() if p != hosted.game.pending.player)
    other = new_game(client, seats=["human", "human", "human"])
    other_hosted = tables.games[other.split("/")[3]]
    deciding = next(t for t, p in other_hosted.tokens.items() if p == other_hosted.game.pending.player)
    with ThreadPoolExecutor(45) as pool:
        polls = [pool.submit(client.get, f"/api/games/{hosted.id}/{waiting}/view?wait=1") for _ in range(45)]
        for _ in range(600):  # a bound against a hang: the polls reach the server
            if hosted.polls == MOST_POLLS:
                break
            threading.Event().wait(0.01)
        assert hosted.polls == MOST_POLLS
        workers = [t for t in threading.enumerate() if "AnyIO" in t.name or "worker" in t.name.lower()]
        chosen = client.post(f"/api/games/{other_hosted.id}/{deciding}/choose", json={"option": 0, "step": 0})
        assert chosen.status_code == 200 and hosted.polls == MOST_POLLS  # answered while they wait
        answers = [p.result() for p in polls]
    assert all(a.status_code == 200 for a in answers) and hosted.polls == 0 and not hosted.listeners
    assert len(workers) < MOST_POLLS
