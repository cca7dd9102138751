"""Boards as pictures: a board's `draw:` rules (loaded, checked, located), the view's drawings
and the places options stand for, Railways' map, and what `engine serve` sends of them."""
from __future__ import annotations

import random

import pytest

from conftest import RULESETS, cards, ruleset, zone
from engine.cli import main
from engine.core.errors import EffectError, RulesetError
from engine.game.game import Game
from engine.game.view import view
from engine.rules.ruleset import load_ruleset

# A hex board drawn by its rules (DRAW, in place of @DRAW@) and a graph board drawn with none,
# each place of it with x, y.
DRAW = {
    "fill": """'"#8fc3e6" if place.terrain == "water" else "khaki"'""",
    "owner": "owner_of[place]",
    "tokens": '"[c.colour for c in on[place]]"',
    "badge": """'"!" if place.id == "B" else none'""",
    "paths": """'[[players[1], [land["A"], land["B"], land["C"]]], [1, [land["C"]], false]]'""",
}
TEMPLATE = """
game: {name: Drawn, players: [2]}
boards:
  land:
    layout: hex
    properties: {terrain: string}
    display: place.terrain
@DRAW@    places:
      - {id: A, q: 0, r: 0, terrain: plains}
      - {id: B, q: 1, r: 0, terrain: water}
      - {id: C, q: 2, r: 0, terrain: plains}
      - {id: D, q: 0, r: 1, terrain: plains}
    edges: [[A, C]]
  reef:
    layout: graph
    label: "{name}"
    properties: {name: string, x: number, y: number}
    places:
      - {id: shore, name: Shore, x: 0, y: 0}
      - {id: bank, name: Sand Bank, x: 1, y: 0}
      - {id: trench, name: Deep Trench, x: 1, y: 1}
    edges: [[shore, bank], [bank, trench]]
card_kinds:
  cube: {zone: bag, label: "{colour} cube", properties: {colour: string}}
cards:
  - {kind: cube, colour: red, count: 2}
  - {kind: cube, colour: blue}
zones:
  bag: {visibility: hidden}
  on: {per: land}
counters:
  owner_of: {per: land, initial: 0}
setup: |
  owner_of[land["D"]] = 2
  move(first(bag), on[land["B"]])
  move(first(bag), on[land["B"]])
flow: |
  choose(players[0], [land["A"], [land["A"], land["B"]], land["D"], reef["bank"], 7], "Where?")
scoring:
  score: 0
"""


def drawn(block: str | None = None, **rules: str) -> str:
    """The ruleset, its draw block being `block` as written, else DRAW with `rules` instead."""
    if block is None:
        block = "    draw:\n" + "".join(f"      {k}: {v}\n" for k, v in {**DRAW, **rules}.items())
    return TEMPLATE.replace("@DRAW@", block)


def line_of(text: str, start: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(start))


def write(tmp_path, text: str) -> str:
    path = tmp_path / "drawn.yaml"
    path.write_text(text)
    return str(path)


def drawn_game(tmp_path, text: str | None = None) -> Game:
    return Game(load_ruleset(write(tmp_path, text or drawn())), 2, seed=1)


def test_a_board_is_drawn_as_its_draw_rules_say(tmp_path):
    land = view(drawn_game(tmp_path), 1, person=True).drawings()["land"]
    assert land["layout"] == "hex" and land["edges"] == [["A", "C"]]  # touching hexes need no line
    places = {p["id"]: p for p in land["places"]}
    assert [(p["q"], p["r"]) for p in land["places"]] == [(0, 0), (1, 0), (2, 0), (0, 1)]
    assert places["A"] == {"id": "A", "label": "A", "q": 0, "r": 0, "text": "plains", "fill": "khaki",
                           "owner": None, "tokens": [], "badge": None}
    assert places["B"]["fill"] == "#8fc3e6" and places["B"]["badge"] == "!"
    assert places["B"]["tokens"] == ["red", "red"]  # the first two cubes of the bag
    assert places["D"]["owner"] == 2
    assert land["paths"] == [{"owner": 2, "places": ["A", "B", "C"], "finished": True},
                             {"owner": 1, "places": ["C"], "finished": False}]


def test_a_board_without_draw_rules_is_still_drawn(tmp_path):
    reef = view(drawn_game(tmp_path), 1, person=True).drawings()["reef"]
    assert reef["layout"] == "graph" and reef["paths"] == []
    assert reef["edges"] == [["shore", "bank"], ["bank", "trench"]]
    assert reef["places"][1] == {"id": "bank", "label": "Sand Bank", "x": 1, "y": 0, "text": "", "fill": None,
                                 "owner": None, "tokens": [], "badge": None}


def test_the_text_of_a_place_defaults_to_its_display_and_draw_text_replaces_it(tmp_path):
    assert [p["text"] for p in view(drawn_game(tmp_path), 1).drawings()["land"]["places"]][:2] == ["plains", "water"]
    g = drawn_game(tmp_path, drawn(text="place.id"))
    assert [p["text"] for p in view(g, 1).drawings()["land"]["places"]] == ["A", "B", "C", "D"]


def test_a_card_a_draw_rule_gives_reads_as_the_viewer_sees_it(tmp_path):
    g = drawn_game(tmp_path, drawn(badge="""'first(bag) if place.id == "A" else none'"""))
    hidden = view(g, 1, person=True).drawings()["land"]["places"][0]["badge"]
    assert "cube" not in hidden and hidden == view(g, 2, person=True).drawings()["land"]["places"][0]["badge"]
    assert view(g, None).drawings()["land"]["places"][0]["badge"] == "blue cube"  # the referee sees it


def test_each_option_stands_for_its_place_or_the_last_place_of_its_list(tmp_path):
    g = drawn_game(tmp_path)
    assert view(g, 1).option_places() == [{"board": "land", "id": "A"}, {"board": "land", "id": "B"},
                                          {"board": "land", "id": "D"}, {"board": "reef", "id": "bank"}, None]
    assert view(g, 2).option_places() == []  # not theirs to decide


@pytest.mark.parametrize("key, rule, says", [
    ("fill", "plce.terrain", "unknown name 'plce'"),
    ("paths", "[[1, [place]]]", "unknown name 'place'"),  # paths are the board's: no place
    ("tokens", "[c.colour for c in on[place]", "draw tokens of board land"),
])
def test_a_mistake_in_a_draw_rule_is_located(tmp_path, capsys, key, rule, says):
    text = drawn(**{key: f"'{rule}'"})
    path = write(tmp_path, text)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    line = line_of(text, f"      {key}:")
    assert f"drawn.yaml:{line}:" in str(caught.value) and says in str(caught.value)
    assert main(["validate", path]) == 1
    assert f"drawn.yaml:{line}:" in capsys.readouterr().out


@pytest.mark.parametrize("key, rule, says", [
    ("fill", "3", "draw fill of board land gives a number, not a colour"),
    ("fill", '"url(evil)"', "gives a text, not a colour"),
    ("owner", "5", "gives a number, not a player, a seat number, 0 or none"),
    ("tokens", "[c for c in bag]", "draw tokens of board land gives a card, not a colour"),
    ("tokens", '"red"', "gives a text, not a list"),
    ("paths", '[[1, [reef["bank"]]]]', "not a list of [player, places of land]"),
])
def test_a_draw_value_of_the_wrong_kind_is_reported_at_its_rule(tmp_path, capsys, key, rule, says):
    text = drawn(**{key: f"'{rule}'"})
    path = write(tmp_path, text)
    with pytest.raises(EffectError) as caught:
        view(Game(load_ruleset(path), 2, seed=1), 1).drawings()
    assert caught.value.location.line == line_of(text, f"      {key}:") and says in caught.value.message
    assert "cube" not in caught.value.message  # a card is never named: the viewer may not see it
    assert main(["validate", path]) == 1
    out = capsys.readouterr().out
    assert f"drawn.yaml:{line_of(text, f'      {key}:')}:" in out and says in out


@pytest.mark.parametrize("block, says", [
    ("    draw: {colour: place.id}\n", "colour"),
    ("    draw: {fill: [1, 2]}\n", "fill"),
    ("    draw: [fill]\n", "draw"),
])
def test_the_schema_refuses_what_is_no_draw_block(tmp_path, block, says):
    text = drawn(block)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(write(tmp_path, text))
    assert f"drawn.yaml:{line_of(text, '    draw:')}:" in str(caught.value) and says in str(caught.value)


def test_the_schema_takes_a_draw_block_of_any_of_its_keys(tmp_path):
    assert load_ruleset(write(tmp_path, drawn("    draw: {badge: place.id}\n"))).board_draw["land"].keys() == {"badge"}
    assert load_ruleset(write(tmp_path, drawn())).board_draw["land"].keys() == set(DRAW)


def played(players: int, decisions: int, seed: int) -> Game:
    game = Game(ruleset("railways"), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.over:
            break
        game.apply(rng.randrange(len(game.pending.options)))
    return game


def test_the_railways_map_shows_terrain_and_cities_when_set_up():
    game = Game(ruleset("railways"), 3, seed=1)
    drawing = view(game, 1, person=True).drawings()["map"]
    board = game.rules.boards["map"]
    assert len(drawing["places"]) == len(board) == 56 and drawing["paths"] == []
    fills = {board[p["id"]].props["terrain"]: p["fill"] for p in drawing["places"] if board[p["id"]].props["terrain"] != "city"}
    assert len(set(fills.values())) == 3 and set(fills) == {"plains", "water", "mountain"}
    cities = [p for p in drawing["places"] if board[p["id"]].props["terrain"] == "city"]
    assert len(cities) == 12
    for p in cities:
        place = board[p["id"]]
        assert p["fill"] == place.props["colour"] and p["text"] == place.id and p["label"] == place.props["name"]
        assert sorted(p["tokens"]) == sorted(c.props["colour"] for c in cards(game, zone(game, "goods", place)))
    assert sum(len(p["tokens"]) for p in cities) > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_railways_map_shows_each_track_in_its_owners_colour_and_the_cubes(seed):
    game = played(3, 300, seed)
    table, board = game.table, game.rules.boards["map"]
    drawing = view(game, 1, person=True).drawings()["map"]
    links = [(c, False) for c in cards(game, zone(game, "network"))]
    links += [(c, True) for c in cards(game, zone(game, "unfinished"))]
    assert links, "no track was built: the test shows nothing"
    paths = drawing["paths"]
    assert len(paths) == len(links)
    for path, (link, unfinished) in zip(paths, links):
        c = table.counters
        assert path["owner"] == c["link_owner"][link] and path["finished"] is not unfinished
        assert path["places"][0] == c["link_a"][link].id
        assert path["places"][1:len(c["link_hexes"][link]) + 1] == [h.id for h in c["link_hexes"][link]]
        end = (c["link_hexes"][link] or [c["link_a"][link]])[-1] if unfinished else c["link_b"][link]
        assert path["places"][-1] == end.id and len(path["places"]) == len(c["link_hexes"][link]) + 2 - unfinished
        for a, b in zip(path["places"], path["places"][1:]):
            assert board[b] in board[a].neighbours  # a line from hex to touching hex
        for h in c["link_hexes"][link]:
            assert c["track_owner"][h] == path["owner"]
    shown = {p["id"]: p for p in drawing["places"]}
    for place in board:
        goods = cards(game, zone(game, "goods", place))
        assert sorted(shown[place.id]["tokens"]) == sorted(cube.props["colour"] for cube in goods)
        marked = table.counters["empty_marker"][place] == 1
        assert (shown[place.id]["badge"] == "o") is marked


def test_railways_build_track_options_stand_for_places_of_the_map():
    for seed in range(1, 40):
        game = Game(ruleset("railways"), 3, seed=seed)
        rng = random.Random(seed)
        while not game.over and "Build track from where?" not in "".join(map(str, game.pending.prompt)):
            options = game.pending.options
            builds = [i for i, o in enumerate(options) if "Build" in str(o)]
            game.apply(builds[0] if builds and rng.random() < 0.8 else rng.randrange(len(options)))
        if not game.over:
            break
    else:
        pytest.fail("no game came to a Build Track decision")
    pv = view(game, game.pending.player, person=True)
    places = pv.option_places()
    assert len(places) == len(game.pending.options) and all(places)
    for option, place in zip(game.pending.options, places):
        at = option[-1] if isinstance(option, (list, tuple)) else option
        assert place == {"board": "map", "id": at.id}
    assert {p["id"] for p in places} <= {p["id"] for p in pv.drawings()["map"]["places"]}


@pytest.mark.parametrize("name", [p.stem for p in RULESETS])
def test_every_shipped_ruleset_draws_every_board_to_every_seat(name):
    rules = ruleset(name)
    game = Game(rules, rules.players[0], seed=1)
    for viewer in [None, 0, *game.players]:
        assert set(view(game, viewer, person=True).drawings()) == set(rules.boards)


def test_the_seat_is_sent_its_drawings_and_option_places():
    pytest.importorskip("starlette", reason="engine serve needs the web extra")
    from engine.web.tables import Tables

    game = played(3, 40, 1)
    hosted = Tables({}).host(game, ["human"] * 3, [None] * 3)
    player = int(game.pending.player)
    sent = hosted.seat_view(player)
    assert sent["drawings"] == view(game, player, person=True).drawings()
    assert sent["option_places"] == view(game, player, person=True).option_places()
    assert len(sent["option_places"]) == len(sent["decision"]["options"])
    other = next(p for p in game.players if p != player)
    assert hosted.seat_view(int(other))["option_places"] == []


def test_the_page_loads_the_board_drawing_before_the_app():
    pytest.importorskip("starlette", reason="engine serve needs the web extra")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx, of the test extra")
    from starlette.testclient import TestClient

    from engine.web.app import create_app
    from engine.web.tables import Tables

    with TestClient(create_app(Tables({}), ["testserver"])) as client:
        page = client.get("/").text
        assert page.index("/static/board.js") < page.index("/static/app.js")
        script = client.get("/static/board.js")
        assert script.status_code == 200 and "createElementNS" in script.text
        assert "default-src 'self'" in script.headers["content-security-policy"]
        assert client.get("/static/other.js").status_code == 404

