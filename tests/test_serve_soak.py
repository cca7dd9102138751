"""A short soak of `engine serve` on 127.0.0.1: many clients at once create games, choose (some
answers sent twice), long-poll, open websockets and drop them, stop uploads halfway and leave
games midway. Afterwards every game is consistent (it replays from its seed and decisions to
the state the server holds, no error), nothing is left waiting on a game, and the server still
answers. Bounded in count (CLIENTS x GAMES x DECISIONS) and in time (each request's timeout).

It prints what it did: requests, games, the latency of requests (p50, p99; long polls and
duplicates apart) and the process's peak memory. The figures are for reading, not asserted:
speed is measured by benchmarks, never by a test.
"""
from __future__ import annotations

import json
import random
import resource
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
httpx = pytest.importorskip("httpx", reason="the soak's clients need httpx, of the test extra: pip install -e '.[test]'")
sync_client = pytest.importorskip("websockets.sync.client", reason="engine serve needs the web extra")

import uvicorn  # noqa: E402

from conftest import RANDOM_PLAY, ruleset  # noqa: E402
from engine.game.game import Game  # noqa: E402
from engine.web.app import create_app  # noqa: E402
from engine.web.guard import JsonH11Protocol  # noqa: E402
from engine.web.tables import Tables  # noqa: E402

CLIENTS = 16  # at once
GAMES = 5  # each client's
DECISIONS = 12  # a client's in each game, at most
BOUND = 60.0  # seconds a request may take before the soak fails: a bound against a hang, not a measure
NAMES = ["trick_of_the_rails", "isle_of_trains"]


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Tables]]:
    tables = Tables({name: ruleset(name) for name in NAMES}, idle=600)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    served = uvicorn.Server(uvicorn.Config(create_app(tables), log_level="warning", access_log=False,
                                           http=JsonH11Protocol))
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND
    while not served.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"127.0.0.1:{sock.getsockname()[1]}", tables
    served.should_exit = True
    thread.join(BOUND)


class Client:
    """One of the crowd: its own connection, its latencies, and what it saw go wrong."""

    def __init__(self, address: str, number: int):
        self.address = address
        self.http = httpx.Client(base_url=f"http://{address}", timeout=BOUND)
        self.rng = random.Random(number)
        self.latencies: list[float] = []
        self.requests = 0
        self.games: list[str] = []
        self.wrong: list[str] = []

    def ask(self, method: str, path: str, timed: bool = True, **kw) -> httpx.Response:
        start = time.perf_counter()
        answer = self.http.request(method, path, **kw)
        self.requests += 1
        if timed:
            self.latencies.append(time.perf_counter() - start)
        if answer.status_code >= 500 or "Traceback" in answer.text:
            self.wrong.append(f"{method} {path}: {answer.status_code} {answer.text[:200]}")
        return answer

    def play(self) -> None:
        for g in range(GAMES):
            name = NAMES[self.rng.randrange(len(NAMES))]
            players = ruleset(name).players[0]
            seats = ["human"] + ["random"] * (players - 1)
            made = self.ask("POST", "/api/games", json={"ruleset": name, "players": players, "seats": seats,
                                                        "options": RANDOM_PLAY.get(name, {})})
            if made.status_code != 201:
                self.wrong.append(f"new game: {made.status_code} {made.text[:200]}")
                continue
            self.games.append(made.json()["id"])
            seat = "/api/games/" + made.json()["seats"][0]["url"][len("/play/"):]
            leave_at = self.rng.randrange(DECISIONS * 2)  # some leave midway, as people do
            for k in range(DECISIONS):
                v = self.ask("GET", f"{seat}/view", params={"wait": "1"}, timed=False).json()
                if v["over"] or v["error"] or k == leave_at:
                    if v["error"]:
                        self.wrong.append(f"game stopped: {v['error']}")
                    break
                option = self.rng.randrange(len(v["decision"]["options"]))
                body = {"option": option, "step": v["step"]}
                if self.rng.random() < 0.2:  # the same answer twice at once: one decision
                    with ThreadPoolExecutor(2) as pool:
                        both = list(pool.map(lambda _: self.ask("POST", f"{seat}/choose", timed=False, json=body),
                                             range(2)))
                    if sorted(a.status_code for a in both) != [200, 409]:
                        self.wrong.append(f"an answer sent twice: {[a.status_code for a in both]}")
                else:
                    self.ask("POST", f"{seat}/choose", json=body)
                self.ask("GET", f"{seat}/view")
            if g % 2 == 0:
                self.socket_dropped(seat)
            else:
                self.upload_stopped()
            self.ask("GET", "/api/rulesets")

    def socket_dropped(self, seat: str) -> None:
        """Open the seat's websocket, read its view, and go without closing it properly."""
        start = time.perf_counter()
        with sync_client.connect(f"ws://{self.address}{seat}/updates", open_timeout=BOUND) as ws:
            json.loads(ws.recv(timeout=BOUND))
            ws.socket.shutdown(socket.SHUT_RDWR)  # gone without a closing handshake
        self.requests += 1
        self.latencies.append(time.perf_counter() - start)

    def upload_stopped(self) -> None:
        host, port = self.address.split(":")
        with socket.create_connection((host, int(port)), timeout=BOUND) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 4000\r\n\r\n{\"ruleset\": ")
        self.requests += 1


def test_a_crowd_of_clients_leaves_every_game_consistent_and_the_server_answering(server):
    address, tables = server
    crowd = [Client(address, i) for i in range(CLIENTS)]
    started = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        for done in [pool.submit(c.play) for c in crowd]:
            done.result()
    took = time.perf_counter() - started
    wrong = [w for c in crowd for w in c.wrong]
    assert not wrong, wrong[:5]
    made = [g for c in crowd for g in c.games]
    assert len(made) == CLIENTS * GAMES and set(made) <= set(tables.games)
    # Every game is consistent: it replays from its seed and decisions to the state held, with no
    # error; nothing waits on it (pages, polls), and its bots are done.
    for _ in range(int(BOUND * 20)):  # a bound against a hang: dropped sockets are noticed soon
        if not any(h.listeners or h.worker for h in tables.games.values()):
            break
        time.sleep(0.05)
    for game_id in made:
        hosted = tables.games[game_id]
        with hosted.changed:
            g = hosted.game
            again = Game(g.rules, len(g.players), g.options, g.seed, decisions=list(g.decisions))
            assert again.digest() == g.digest() and hosted.error is None
            assert not hosted.listeners and hosted.polls == 0 and hosted.worker is None
    # The server still answers, at once.
    after = Client(address, CLIENTS)
    for _ in range(20):
        assert after.ask("GET", "/api/rulesets").status_code == 200
    latencies = sorted(t for c in crowd for t in c.latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nsoak: {sum(c.requests for c in crowd)} requests from {CLIENTS} clients at once, {len(made)} games, "
          f"{sum(len(tables.games[g].game.decisions) for g in made)} decisions, in {took:.1f} s; latency "
          f"p50 {statistics.median(latencies) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms (long polls and answers "
          f"sent twice apart); after the crowd p50 {statistics.median(after.latencies) * 1000:.1f} ms; "
          f"peak memory of the process (server and clients) {peak:.0f} MB")
