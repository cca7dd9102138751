"""Watching a save or a run file's game again in the browser: POST /api/replays and the views of
its steps, through Starlette's TestClient (no browser); `engine replay --web` and `--game`.

A replay shows any seat or the referee, as `engine replay --seat/--referee` does; a seat is sent
its own view, and not the option another seat took. Bad requests get a 4xx and one line.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
httpx = pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx, of the test extra: pip install -e '.[test]'")

from starlette.testclient import TestClient  # noqa: E402

from conftest import position_with_secrets, random_play_options, refused, ruleset, swap, unseen_pairs  # noqa: E402
from engine.analysis.simulate import simulate  # noqa: E402
from engine.cli import main  # noqa: E402
from engine.core.errors import EngineError  # noqa: E402
from engine.game.game import Game  # noqa: E402
from engine.game.saves import content_digest, save_data  # noqa: E402
from engine.game.view import view  # noqa: E402
from engine.web.app import MOST_REPLAY_BODY, create_app, encode  # noqa: E402
from engine.web.replays import Replays  # noqa: E402
from engine.web.tables import BadRequest, Tables  # noqa: E402

NAMES = ["trick_of_the_rails", "isle_of_trains"]
TOR = "trick_of_the_rails"
SEATS = ["random", "human", "random"]
NAMED = {1: "P1 (random)", 2: "P2 (human)", 3: "P3 (random)"}


@pytest.fixture(scope="module")
def rules():
    return {name: ruleset(name) for name in NAMES}


@pytest.fixture
def replays(rules) -> Replays:
    return Replays(rules)


@pytest.fixture
def client(rules, replays):
    with TestClient(create_app(Tables(rules), ["testserver"], replays)) as c:
        yield c


def played(rules, decisions: int | None = None, seed: int = 3) -> Game:
    """A game of Trick of the Rails of random choices: to its end, or `decisions` long."""
    game = Game(rules[TOR], 3, seed=seed)
    rng = random.Random(seed)
    while not game.over and (decisions is None or len(game.decisions) < decisions):
        game.apply(rng.randrange(len(game.pending.options)))
    return game


def made(client, body: dict) -> dict:
    answer = client.post("/api/replays", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def seen(client, replay_id: str, **query) -> dict:
    answer = client.get(f"/api/replays/{replay_id}/view", params=query)
    assert answer.status_code == 200, answer.text
    return answer.json()


VIEW_KEYS = ["game", "you", "players", "boards", "zones", "counters", "counter_labels", "log", "decision", "over", "end_reason"]


def test_a_save_replays_to_the_view_of_the_game_it_came_from(client, rules):
    game = played(rules)
    replay = made(client, {"save": save_data(game, SEATS)})
    assert replay["steps"] == len(game.decisions) and replay["players"] == list(NAMED.values())
    assert replay["url"] == f"/replay/{replay['id']}" and replay["seat"] == "referee"  # a finished game
    for seat in (None, 1, 2, 3):
        shown = seen(client, replay["id"], seat="referee" if seat is None else str(seat))
        assert {k: shown[k] for k in VIEW_KEYS} == json.loads(encode(view(game, seat, NAMED, person=True).as_dict()))
        assert shown["step"] == shown["steps"] == len(game.decisions) and shown["chose"] is None
    final = seen(client, replay["id"])
    scores = game.scores()
    assert [p["score"] for p in final["results"]["players"]] == [scores[p] for p in game.players]
    assert final["results"]["winners"] == [NAMED[int(p)] for p in game.winners()]


def test_a_run_files_game_replays_to_its_record(client, rules, tmp_path):
    out = tmp_path / "runs.jsonl"
    simulate(rules[TOR], 3, 2, 5, rules[TOR].resolve_options({}, 3), seats=["random", "greedy", "scout"], out=out)
    lines = out.read_text().splitlines()
    head, *records = [json.loads(line) for line in lines]
    assert any(r["seed"] >= 2 ** 53 for r in records)  # more than a browser's numbers hold: sent as text
    for line, record in zip(lines[1:], records):
        replay = made(client, {"run": lines[0], "game": line})
        assert made(client, {"run": head, "game": record})["steps"] == replay["steps"]  # or as objects
        assert replay["steps"] == record["decisions"] and replay["seat"] == "referee"
        assert replay["players"] == ["P1 (random)", "P2 (greedy)", "P3 (scout)"]
        final = seen(client, replay["id"])
        assert final["over"] and final["end_reason"] == record["end_reason"]
        assert {p["player"][:2]: p["score"] for p in final["results"]["players"]} == record["scores"]
    told = refused(client.post("/api/replays", json={"run": head, "game": {**records[0], "scores": {}}}), 400)
    assert "does not reproduce" in told
    seats = {"run": {**head["run"], "seats": ["my_bot.py:Bot", "random", "random"]}}
    assert "runs no code" in refused(client.post("/api/replays", json={"run": seats, "game": records[0]}), 400)
    assert "a run file's first line" in refused(client.post("/api/replays", json={"run": head["run"], "game": lines[1]}), 400)
    assert "the game's line is not JSON" in refused(client.post("/api/replays", json={"run": lines[0], "game": "{"}), 400)


def test_a_save_of_a_secret_64_bit_seed_sent_as_its_text(client, rules, tmp_path):
    """What the page sends: the file's text, which keeps every digit of the seed (a browser's
    numbers do not: the save would be refused as changed)."""
    game = Game(rules[TOR], 3, seed=2 ** 64 - 59)
    while len(game.decisions) < 8:
        game.apply(0)
    save = tmp_path / "game.json"
    save.write_text(json.dumps(save_data(game, SEATS), indent=1))
    assert made(client, {"save": save.read_text()})["steps"] == 8
    rounded = json.loads(save.read_text(), parse_int=lambda digits: int(float(digits)))  # as JavaScript reads it
    assert "changed since it was written" in refused(client.post("/api/replays", json={"save": rounded}), 400)
    assert "the save is not JSON" in refused(client.post("/api/replays", json={"save": save.read_text()[:-2]}), 400)


def test_the_steps_give_the_decisions_in_order(client, rules):
    game = played(rules, seed=4)
    replay = made(client, {"save": save_data(game, SEATS)})
    again = Game(rules[TOR], 3, seed=4)
    for step, index in enumerate(game.decisions):
        decider = int(again.pending.player)
        referee = seen(client, replay["id"], step=str(step), seat="referee")
        assert referee["step"] == step and len(referee["log"]) == len(again.log)
        assert referee["chose"] == {"player": NAMED[decider], "index": index,
                                    "option": referee["decision"]["options"][index]}
        theirs = seen(client, replay["id"], step=str(step), seat=str(decider))
        assert theirs["chose"]["index"] == index and theirs["chose"]["option"] == referee["chose"]["option"]
        other = seen(client, replay["id"], step=str(step), seat=str(decider % 3 + 1))
        assert other["chose"] == {"player": NAMED[decider], "index": None, "option": None}  # not another's choice
        assert "options" not in other["decision"]
        again.apply(index)
    end = seen(client, replay["id"], step=str(len(game.decisions)))
    assert end["chose"] is None and end["over"]


@pytest.mark.parametrize("every, most, kept", [(4, 32, [0, 4, 8, 12, 16, 20, 24, 28]), (1, 3, [0, 10, 20, 30])])
def test_a_step_rebuilt_from_a_kept_copy_is_the_game_at_that_step(client, rules, replays, monkeypatch,
                                                                    every, most, kept):
    monkeypatch.setattr("engine.web.replays.KEPT_EVERY", every)
    monkeypatch.setattr("engine.web.replays.MOST_KEPT", most)  # a long game's copies are further apart
    game = played(rules, 30)
    replay = made(client, {"save": save_data(game, SEATS)})
    for step in [30, 0, 9, 5, 13, 12, 29, 3, 30]:  # back and on, across kept copies
        shown = seen(client, replay["id"], step=str(step), seat="referee")
        again = Game(rules[TOR], 3, seed=3, decisions=game.decisions[:step])
        assert {k: shown[k] for k in VIEW_KEYS} == json.loads(encode(view(again, None, NAMED, person=True).as_dict()))
    assert sorted(replays.get(replay["id"])._kept) == kept


@pytest.mark.parametrize("decisions", [None, 10])
def test_who_may_watch_is_who_engine_replay_shows(client, rules, tmp_path, capsys, decisions):
    """Every seat and the referee, of a finished game and of an unfinished one, as `engine replay
    --seat N` and `--referee`; by default the referee of a finished game, the human seat of an
    unfinished one."""
    game = played(rules, decisions)
    save = tmp_path / "game.json"
    save.write_text(json.dumps(save_data(game, SEATS)))
    replay = made(client, {"save": json.loads(save.read_text())})
    assert replay["seat"] == ("referee" if game.over else 2)
    assert seen(client, replay["id"])["seat"] == replay["seat"]
    for seat in ["referee", "1", "2", "3"]:
        assert main(["replay", str(save), *(["--referee"] if seat == "referee" else ["--seat", seat])]) == 0
        shown = seen(client, replay["id"], seat=seat)
        assert shown["you"] == (None if seat == "referee" else NAMED[int(seat)])
    for seat in ["0", "4", "P1", "-1", ""]:
        assert "seat must be referee or a seat from 1 to 3" in refused(
            client.get(f"/api/replays/{replay['id']}/view", params={"seat": seat}), 400)
    assert main(["replay", str(save), "--seat", "4"]) == 1
    capsys.readouterr()


@pytest.mark.parametrize("name", NAMES)
def test_the_bytes_a_seat_receives_do_not_depend_on_cards_it_cannot_see(client, rules, replays, name):
    players = rules[name].players[0]
    game, pair = position_with_secrets(rules[name], players, random_play_options(rules[name], players))
    player = int(game.current_player)
    where = game.table.zone_of
    pairs = sorted(unseen_pairs(game, player), key=lambda p: (p[0].label == p[1].label, where(p[0]) is where(p[1])))
    a, b = pairs[0] if pairs else pair
    replay = made(client, {"save": save_data(game)})
    step = str(len(game.decisions))
    before = client.get(f"/api/replays/{replay['id']}/view", params={"step": step, "seat": str(player)})
    referee = client.get(f"/api/replays/{replay['id']}/view", params={"step": step, "seat": "referee"})
    shown = replays.get(replay["id"]).position(len(game.decisions))  # the position the server shows
    digest = shown.digest()
    swap(shown, shown.table.cards[a.index], shown.table.cards[b.index])
    assert shown.digest() != digest  # the swap changed the game, and the referee sees it
    assert client.get(f"/api/replays/{replay['id']}/view", params={"step": step, "seat": "referee"}).content \
        != referee.content
    after = client.get(f"/api/replays/{replay['id']}/view", params={"step": step, "seat": str(player)})
    assert before.status_code == after.status_code == 200
    assert before.content == after.content


def _edited(save: dict, **changes) -> dict:
    """A save changed by hand, its digest written anew (as whoever edits it can)."""
    edited = {**save, **changes}
    edited["save_sha256"] = content_digest(edited)
    return edited


def test_bad_requests_are_refused_in_one_line(client, rules, monkeypatch):
    game = played(rules, 12)
    save = save_data(game, SEATS)
    post = lambda body: client.post("/api/replays", json=body)  # noqa: E731
    assert "not JSON" in refused(client.post("/api/replays", content=b"{nope",
                                             headers={"content-type": "application/json"}), 400)
    sent = {"content-type": "application/json"}
    assert "nested too deep" in refused(client.post("/api/replays", content=b"[" * 100_000, headers=sent), 400)
    assert "unknown field 'saev'" in refused(post({"saev": save}), 400)
    assert 'send {"save": SAVE}' in refused(post([save]), 400)
    assert "not a save of this engine" in refused(post({"save": {"format": "engine-save/0"}}), 400)
    assert "changed since it was written" in refused(post({"save": {**save, "seed": save["seed"] + 1}}), 400)
    assert "decision 3 of 12 cannot be replayed" in refused(
        post({"save": _edited(save, decisions=[*save["decisions"][:2], 99, *save["decisions"][3:]])}), 400)
    assert "does not reproduce: the replayed game differs from the saved state" in refused(
        post({"save": _edited(save, decisions=save["decisions"][:-1])}), 400)
    told = refused(post({"save": _edited(save, ruleset="/home/someone/tric_of_the_rails.yaml")}), 400)
    assert "does not offer the ruleset 'tric_of_the_rails'" in told and "did you mean" in told
    assert "this server's trick_of_the_rails" in refused(post({"save": _edited(save, ruleset_sha256="0" * 64)}), 400)
    huge = json.dumps({"save": {**save, "padding": "x" * MOST_REPLAY_BODY}})
    assert "larger than" in refused(client.post("/api/replays", content=huge.encode(), headers=sent), 413)
    replay = made(client, {"save": save})
    view_of = f"/api/replays/{replay['id']}/view"
    assert "step 13 is not one of 0 to 12" in refused(client.get(view_of, params={"step": "13"}), 400)
    assert "step must be a whole number" in refused(client.get(view_of, params={"step": "-1"}), 400)
    assert "unknown parameter 'stepp'" in refused(client.get(view_of, params={"stepp": "1"}), 400)
    assert refused(client.get("/api/replays/nosuchreplay/view"), 404) == "no such replay"
    monkeypatch.setattr("engine.web.replays.MOST_REPLAYS", 1)
    newer = made(client, {"save": save})  # the server holds one: the oldest is let go
    assert refused(client.get(view_of), 404) == "no such replay"
    assert seen(client, newer["id"])["steps"] == 12


def test_the_replay_page_is_the_app_with_replay_js(client):
    page = client.get("/replay/anything")
    assert page.status_code == 200 and "/static/replay.js" in page.text
    script = client.get("/static/replay.js")
    assert script.status_code == 200 and "function replayPage" in script.text


def test_engine_replay_game_plays_a_run_files_game_again(rules, tmp_path, capsys):
    out = tmp_path / "runs.jsonl"
    simulate(rules[TOR], 3, 2, 5, rules[TOR].resolve_options({}, 3), out=out)
    records = {r["game"]: r for r in map(json.loads, out.read_text().splitlines()[1:])}
    assert main(["replay", str(out), "--game", "2"]) == 0
    assert capsys.readouterr().out == f"{out}: game 2 reproduces exactly ({records[2]['decisions']} decisions).\n"
    assert main(["replay", str(out), "--game", "3"]) == 1
    assert "holds no game 3 (it holds games 1 to 2)" in capsys.readouterr().err
    assert main(["replay", str(out)]) == 1
    assert "is a run file of engine simulate: give the game" in capsys.readouterr().err


def test_engine_replay_web_serves_the_replay_and_prints_its_address(rules, tmp_path):
    save = tmp_path / "game.json"
    game = played(rules, 10)
    save.write_text(json.dumps(save_data(game, SEATS)))
    server = subprocess.Popen([sys.executable, "-m", "engine", "replay", str(save), "--web", "--seat", "3"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(3)]
        assert lines[0] == "Trick of the Rails: 10 decisions to watch, as P3 (the page lets you pick another seat)\n"
        url = lines[1].split()[3]
        assert lines[2].startswith(f"  the replay: {url}replay/")
        address = lines[2].split()[-1]
        shown = httpx.get(address.replace("/replay/", "/api/replays/") + "/view", timeout=60).json()
        assert shown["you"] == "P3 (random)" and shown["step"] == 10
    finally:
        server.terminate()
        server.wait(60)


def test_engine_replay_game_web_gives_the_address_at_once_and_plays_the_game_meanwhile(rules, tmp_path):
    """A run file keeps no decisions: its game is played again by its bots, which can take minutes.
    The address is printed first; until the game is ready its view answers 202, then the replay."""
    out = tmp_path / "runs.jsonl"
    simulate(rules[TOR], 3, 1, 5, rules[TOR].resolve_options({}, 3), out=out)
    record = json.loads(out.read_text().splitlines()[1])
    server = subprocess.Popen([sys.executable, "-m", "engine", "replay", str(out), "--game", "1", "--web"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(3)]
        assert lines[0] == "Trick of the Rails: game 1 is played again by its bots; its page shows each decision as it is played\n"
        address = lines[2].split()[-1].replace("/replay/", "/api/replays/") + "/view"
        statuses = []
        deadline = time.monotonic() + 120
        while not statuses or statuses[-1] == 202:
            assert time.monotonic() < deadline, "the replay was never ready"
            answer = httpx.get(address, timeout=60)
            statuses.append(answer.status_code)
            time.sleep(0.05)
        assert set(statuses) <= {200, 202} and statuses[-1] == 200, statuses
        shown = answer.json()
        assert shown["steps"] == record["decisions"] and shown["seat"] == "referee" and shown["results"]
    finally:
        server.terminate()
        server.wait(60)


def test_a_replay_still_being_made_answers_202_grows_then_is_its_game(rules):
    from engine.web.replays import Replay
    gate = threading.Event()
    game = played(rules, 10)

    grown, go_on = threading.Event(), threading.Event()

    def make(watch):
        gate.wait(30)
        again = Game(game.rules, 3, game.options, game.seed)
        for i, decision in enumerate(game.decisions):
            again.apply(decision)
            watch(again)
            if i == 3:
                grown.set()
                go_on.wait(30)  # four decisions in: the replay has four steps, and grows
        return again
    later = Replay.later(make, SEATS, 3, lambda g: 2)
    with pytest.raises(BadRequest) as waiting:
        later.view(None, None)
    assert waiting.value.status == 202 and later.steps == 0
    gate.set()
    assert grown.wait(30)
    early = later.view(None, None)
    assert early["growing"] is True and early["steps"] == early["step"] == 4
    assert later.view("2", "referee")["step"] == 2
    go_on.set()
    assert later.ready.wait(30)
    done = later.view(None, None)
    assert done["step"] == 10 and done["growing"] is False and later.shown == 2
    failing = Replay.later(lambda watch: (_ for _ in ()).throw(EngineError("game 1 does not\n reproduce")), SEATS, 3,
                           lambda g: None)
    assert failing.ready.wait(30)
    with pytest.raises(BadRequest) as refused_:
        failing.view(None, None)
    assert refused_.value.status == 422 and str(refused_.value) == "game 1 does not reproduce"


def test_engine_replay_web_without_the_extra_says_how_to_install_it(rules, tmp_path):
    save = tmp_path / "game.json"
    save.write_text(json.dumps(save_data(played(rules, 5), SEATS)))
    code = ("import sys; sys.modules['starlette'] = None; from engine.cli import main; "
            f"sys.exit(main(['replay', {str(save)!r}, '--web']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "engine: engine serve needs the web extra: pip install 'tabletop-rules-engine[web]'\n"
