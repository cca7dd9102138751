"""Boards: places with properties, hex and graph adjacency, per-place zones and counters,
path queries, the terminal map, and validation of board data."""
from __future__ import annotations

import random
import textwrap

import pytest

from engine.core.board import route_ends, routes
from engine.core.errors import RulesetError
from engine.game.game import Game
from engine.game.view import render, view
from engine.rules.ruleset import load_ruleset

BOARD = """
game: {name: Map, players: [2]}
boards:
  land:
    layout: hex
    label: "{id}"
    properties: {terrain: string, town: string}
    display: 'place.town if place.town != "" else place.terrain[0] + text(owner_of[place])'
    legend: "a town by its colour, else terrain and owner"
    places:
      - {id: A, q: 0, r: 0, terrain: plains, town: red}
      - {id: B, q: 1, r: 0, terrain: water, town: ""}
      - {id: C, q: 2, r: 0, terrain: plains, town: blue}
      - {id: D, q: 0, r: 1, terrain: mountain, town: ""}
      - {id: E, q: 1, r: 1, terrain: plains, town: red}
      - {id: F, q: 3, r: 0, terrain: plains, town: ""}
  ring:
    layout: graph
    properties: {}
    display: text(owner_of_node[place])
    places: [{id: n1}, {id: n2}, {id: n3}, {id: n4}]
    edges: [[n1, n2], [n2, n3], [n3, n1]]
card_kinds:
  cube: {zone: bag, label: "{colour} cube", properties: {colour: string}}
cards:
  - {kind: cube, colour: red, count: 2}
zones:
  bag: {}
  on: {per: land}
counters:
  owner_of: {per: land, initial: 0}
  owner_of_node: {per: ring, initial: 0}
  total: {initial: 0}
scoring:
  score: total
"""


def game(tmp_path, flow: str) -> Game:
    path = tmp_path / "map.yaml"
    path.write_text(BOARD + "flow: |\n" + textwrap.indent(textwrap.dedent(flow), "  "))
    return Game(load_ruleset(path), 2, seed=1)


def test_hex_neighbours_and_distance(tmp_path):
    g = game(tmp_path, """
        let names = [n.id for n in neighbours(land["A"])]
        total = count(names) * 100 + distance(land["A"], land["F"]) * 10 + distance(ring["n1"], ring["n3"])
        """)
    # A(0,0) touches B(1,0) and D(0,1) only (E is (1,1): not adjacent in axial coordinates).
    # A to F: A-B-C-F = 3 steps. n1 and n3 are joined directly: 1.
    assert g.table.counters["total"] == 2 * 100 + 3 * 10 + 1


def test_per_place_zones_and_counters(tmp_path):
    g = game(tmp_path, """
        move(first(bag), on[land["C"]])
        owner_of[land["B"]] = 2
        total = count(on[land["C"]]) + owner_of[land["B"]] * 10
        """)
    assert g.table.counters["total"] == 21


# Five towns of the land board and five links between them; the tags here are strings.
LINKS = """
        let A = land["A"]
        let B = land["B"]
        let C = land["C"]
        let E = land["E"]
        let F = land["F"]
        let edges = [[A, B, "ab"], [B, E, "be"], [B, C, "bc"], [C, F, "cf"], [E, F, "ef"]]
"""


def test_routes_end_at_the_first_goal_and_respect_the_length(tmp_path):
    g = game(tmp_path, LINKS + """
        let to_blue = routes(A, edges, 3, x -> x.town == "blue")
        let to_red = routes(B, edges, 4, x -> x.town == "red")
        let short = routes(A, edges, 1, x -> x.town == "blue")
        total = count(to_blue) * 1000 + count(to_red) * 100 + count(short)
        owner_of[A] = count(to_red[0].edges)
        owner_of[B] = count(to_blue[0].nodes)
        """)
    # A to blue C within 3: A-B-C only (A-B-E stops at red E, which is not blue but is no goal;
    # A-B-E-F-C would need 4). B to red: B-A (ends at red A), B-E (red E): 2 routes, each stopping
    # at the first red town; B-C-F-E also reaches red E in 3 edges: 3 routes. Length 1 from A: none.
    assert g.table.counters["total"] == 1 * 1000 + 3 * 100 + 0
    assert g.table.counters["owner_of"][g.rules.boards["land"]["A"]] == 1  # shortest first
    assert g.table.counters["owner_of"][g.rules.boards["land"]["B"]] == 3


def test_route_never_passes_through_an_earlier_goal(tmp_path):
    g = game(tmp_path, """
        let A = land["A"]
        let E = land["E"]
        let C = land["C"]
        let edges = [[C, A, "ca"], [A, E, "ae"]]
        total = count(routes(C, edges, 5, x -> x.town == "red"))
        owner_of[C] = count(routes(C, edges, 5, x -> x.town == "red")[0].edges)
        """)
    # From blue C the first red town is A; E lies beyond A and is not reachable through it.
    assert g.table.counters["total"] == 1
    assert g.table.counters["owner_of"][g.rules.boards["land"]["C"]] == 1


def test_route_ends_are_where_routes_end(tmp_path):
    g = game(tmp_path, LINKS + """
        let ends = route_ends(B, edges, 4, x -> x.town == "red")
        total = count(ends) * 100 + count(route_ends(A, edges, 1, x -> x.town == "blue"))
        owner_of[A] = count([e for e in ends if e == A or e == E])
        """)
    # From B the red towns A and E end routes (E twice, directly and by C-F-E): each once.
    assert g.table.counters["total"] == 2 * 100 + 0
    assert g.table.counters["owner_of"][g.rules.boards["land"]["A"]] == 2


class _Node:
    def __init__(self, goal: bool):
        self.goal = goal


@pytest.mark.parametrize("seed", range(40))
def test_route_ends_match_the_ends_of_routes_on_random_graphs(seed):
    """The breadth-first search finds exactly the ends of the listed routes, nearest first; with
    a tag on two edges (a route uses a tag once) it lists the routes."""
    rng = random.Random(seed)
    nodes = [_Node(rng.random() < 0.3) for _ in range(rng.randint(2, 9))]
    tags = [object() for _ in range(12)]
    edges = [[rng.choice(nodes), rng.choice(nodes), tags[i] if seed % 4 else rng.choice(tags[:3])]
             for i in range(rng.randint(1, 12))]
    length = rng.randint(0, 5)
    found = routes(nodes[0], edges, length, lambda n: n.goal)
    ends = route_ends(nodes[0], edges, length, lambda n: n.goal)
    assert len(ends) == len({id(e) for e in ends})
    assert {id(r["end"]) for r in found} == {id(e) for e in ends}
    shortest = {}
    for r in found:
        shortest.setdefault(id(r["end"]), len(r["edges"]))
    assert [shortest[id(e)] for e in ends] == sorted(shortest[id(e)] for e in ends)


def test_the_adjacency_kept_for_an_edge_list_is_its_own():
    """route_ends keeps the adjacency of the last edge lists met, by the identities of their nodes
    and tags: an equal list of other nodes, or the same list changed in place, is worked out anew."""
    def name(text: str) -> str:
        return "".join(list(text))  # a new string object each time
    a, b, c = name("Aa"), name("Bb"), name("Cc")
    first = [[a, b, "ab"], [b, c, "bc"]]
    assert route_ends(a, first, 3, lambda n: n == c) == [c]
    equal = [[name("Aa"), name("Bb"), "ab"], [name("Bb"), name("Cc"), "bc"]]  # equal to first, other objects
    equal[1][0] = equal[0][1]
    assert equal == first and equal[0][0] is not a
    assert route_ends(equal[0][0], equal, 3, lambda n: n == c) == [equal[1][1]]
    first[1][1] = a  # the list changed in place: C is no longer reached
    assert route_ends(a, first, 3, lambda n: n == c) == []
    first[1][1] = c
    assert route_ends(a, first, 3, lambda n: n == c) == [c]


def test_terminal_map_draws_the_display_rule(tmp_path):
    g = game(tmp_path, """
        owner_of[land["B"]] = 2
        let c = choose(1, ["wait", "go"], "Go?")
        """)
    text = render(view(g, 1))
    lines = text.splitlines()
    assert "  [land]" in lines
    row0 = lines[lines.index("  [land]") + 1]
    row1 = lines[lines.index("  [land]") + 2]
    assert row0.split() == ["red", "w2", "blue", "p0"]
    assert row1.split() == ["m0", "red"]
    # The second row is offset by half a cell, as hexes are.
    assert row1.index("m0") > row0.index("red")
    assert lines[lines.index("  [land]") + 3] == "  legend: a town by its colour, else terrain and owner"


def test_terminal_draws_a_graph_board_with_its_connections(tmp_path):
    g = game(tmp_path, """
        owner_of_node[ring["n2"]] = 1
        let c = choose(1, ["wait", "go"], "Go?")
        """)
    lines = render(view(g, 1)).splitlines()
    drawn = lines[lines.index("  [ring]") + 1:lines.index("  [ring]") + 5]
    assert [line.split() for line in drawn] == [["n1", "0", "--", "n2,", "n3"], ["n2", "1", "--", "n1,", "n3"],
                                                ["n3", "0", "--", "n2,", "n1"], ["n4", "0", "--", "(no", "connection)"]]


@pytest.mark.parametrize("change,expected", [
    ("      - {id: F, q: 3, r: 0, terrain: plains, town: \"\"}",
     "a place of a hex board needs coordinates q and r"),
    ("    edges: [[n1, n2], [n2, n3], [n3, n1]]", "unknown place 'n5'"),
    ("      - {id: B, q: 1, r: 0, terrain: water, town: \"\"}", "duplicate place id 'A'"),
    ("      - {id: D, q: 0, r: 1, terrain: mountain, town: \"\"}", "'terain' is not a property"),
])
def test_board_mistakes_are_reported(tmp_path, change, expected):
    replacement = {
        "a place of a hex board needs coordinates q and r": "      - {id: F, terrain: plains, town: \"\"}",
        "unknown place 'n5'": "    edges: [[n1, n2], [n2, n5], [n3, n1]]",
        "duplicate place id 'A'": "      - {id: A, q: 1, r: 0, terrain: water, town: \"\"}",
        "'terain' is not a property": "      - {id: D, q: 0, r: 1, terain: mountain, town: \"\"}",
    }[expected]
    path = tmp_path / "bad.yaml"
    path.write_text(BOARD.replace(change, replacement) + "flow: pass\n")
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    assert expected in str(err.value)
    assert str(path) in str(err.value)
