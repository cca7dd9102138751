"""engine serve with a simultaneous step: each seat answers at its own address, in any order, and
nothing a seat is sent tells another's answer until all have answered (docs/simultaneous.md)."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="engine serve needs the web extra: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx, of the test extra: pip install -e '.[test]'")

from starlette.testclient import TestClient  # noqa: E402

from engine.rules.ruleset import load_ruleset  # noqa: E402
from engine.web.app import create_app, encode  # noqa: E402
from engine.web.tables import Tables  # noqa: E402

from conftest import ROOT, refused  # noqa: E402

PICNIC = load_ruleset(ROOT / "examples" / "picnic" / "picnic.yaml")


def start(seed: int = 3):
    """A Picnic of three: two people and a random bot; the client and the seats' API addresses."""
    tables = Tables({"picnic": PICNIC})
    client = TestClient(create_app(tables, ["testserver"]))
    made = client.post("/api/games", json={"ruleset": "picnic", "players": 3, "seed": seed,
                                          "seats": ["human", "human", "random"]})
    assert made.status_code == 201, made.text
    seats = ["/api/games/" + s["url"][len("/play/"):] for s in made.json()["seats"]]
    return client, tables.games[made.json()["id"]], seats


def answer(client, seat: str, option: int):
    return client.post(f"{seat}/choose", json={"option": option, "step": client.get(f"{seat}/view").json()["step"]})


def test_a_later_seat_answers_first_and_both_answers_go_in_seat_order():
    client, hosted, (one, two) = start()
    game = hosted.game
    assert game.together is not None and game.pending.player == 1
    both = [client.get(f"{s}/view").json() for s in (one, two)]
    assert all(v["decision"]["options"] == ["bread", "cheese", "fruit", "cake"] for v in both)
    assert both[0]["step"] == both[1]["step"] == 0
    assert both[0]["turn"] == "P1 (human), P2 (human), P3 (random)"
    assert answer(client, two, 2).status_code == 200  # before P1, whose turn it is in seat order
    assert game.decisions == [] and game.pending.player == 1  # kept by the server, not in the game
    mine = client.get(f"{two}/view").json()
    assert mine["decision"] == {"player": "P2 (human)", "answered": "fruit"}
    assert "you have answered" in refused(answer(client, two, 0), 409)
    theirs = client.get(f"{one}/view").json()
    assert theirs["decision"]["waiting"] == ["P1 (human)", "P3 (random)"]
    assert theirs["turn"] == "P1 (human), P3 (random)"
    assert answer(client, one, 1).status_code == 200
    assert game.decisions[:2] == [1, 2]  # P1's, then P2's: the game as the terminal would play it


def test_what_a_seat_is_sent_does_not_depend_on_an_answer_given_before_its_own():
    sent = []
    for option in (0, 3):
        client, hosted, (one, two) = start()
        assert answer(client, two, option).status_code == 200
        sent.append(client.get(f"{one}/view").text)
        assert sent[-1] == encode(hosted.seat_view(1))
    assert sent[0] == sent[1]


def test_a_seat_that_answered_in_turn_is_refused_a_second_answer():
    client, hosted, (one, two) = start()
    step = client.get(f"{one}/view").json()["step"]
    assert answer(client, one, 0).status_code == 200
    # P1 has answered in turn; the step is still open for P2: the same click again changes nothing.
    assert "answers the question of step 0" in refused(client.post(f"{one}/choose", json={"option": 0, "step": step}), 409)
    assert "not your turn" in refused(answer(client, one, 0), 409)
    assert hosted.game.decisions == [0]


def test_undo_is_for_the_seat_whose_turn_it_is():
    client, hosted, (one, two) = start()
    step = client.get(f"{two}/view").json()["step"]
    assert "on your turn" in refused(client.post(f"{two}/undo", json={"step": step}), 409)
