"""Boards: graphs of places with printed properties, and the path queries games ask of them.

A board is data (a hex map with terrain, a ring of stations); what is on a place lives in
zones and counters declared `per: BOARD`. Path queries (neighbours, distances, routes over
a list of edges) belong here, so no game computes paths in its own rules.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Callable, Iterator, Sequence

# Axial hex directions: every hex (q, r) touches these six offsets.
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Place:
    """One place of a board: an id, printed properties, and its neighbours."""

    __slots__ = ("id", "board", "props", "label", "neighbours", "q", "r")

    def __init__(self, place_id: str, board: str, props: dict[str, Any], label: str,
                 q: int | None = None, r: int | None = None):
        self.id = place_id
        self.board = board
        self.props = props
        self.label = label
        self.neighbours: list[Place] = []
        self.q, self.r = q, r

    def __repr__(self) -> str:
        return f"<place {self.id}>"


@dataclass
class Board:
    """The places of one board, in declaration order, with their adjacency."""

    name: str
    layout: str
    places: list[Place] = field(default_factory=list)
    by_id: dict[str, Place] = field(default_factory=dict)
    description: str = ""
    legend: str = ""  # what the text drawn on its places means

    def __iter__(self) -> Iterator[Place]:
        return iter(self.places)

    def __len__(self) -> int:
        return len(self.places)

    def __getitem__(self, place_id: str) -> Place:
        return self.by_id[place_id]

    def connect(self, edges: list[tuple[str, str]]) -> None:
        """Adjacency: hex neighbours from axial coordinates, plus any explicit edges."""
        if self.layout == "hex":
            at = {(p.q, p.r): p for p in self.places if p.q is not None and p.r is not None}
            for p in at.values():
                p.neighbours = [at[(p.q + dq, p.r + dr)] for dq, dr in HEX_DIRECTIONS if (p.q + dq, p.r + dr) in at]
        for a, b in edges:
            pa, pb = self.by_id[a], self.by_id[b]
            if pb not in pa.neighbours:
                pa.neighbours.append(pb)
            if pa not in pb.neighbours:
                pb.neighbours.append(pa)


def distance(a: Place, b: Place) -> int | None:
    """Steps between two places along the board's adjacency (None if unconnected)."""
    seen = {a.id: 0}
    queue = deque([a])
    while queue:
        p = queue.popleft()
        if p is b:
            return seen[p.id]
        for n in p.neighbours:
            if n.id not in seen:
                seen[n.id] = seen[p.id] + 1
                queue.append(n)
    return None


Adjacency = tuple[dict[int, list[tuple[Any, Any]]], bool]
_KEPT: dict[tuple[int, ...], tuple[tuple, Adjacency]] = {}  # by the ids of the edges' nodes and tags
_KEEP = 64


def _adjacency(edges: Sequence[Sequence]) -> Adjacency:
    """For each node (by id), its neighbours along `edges` ([a, b, tag], usable both ways); and
    whether every edge has a tag of its own. Rules ask it of the same edges many times in a row
    (a route from each city over one network), so it is kept for the last edge lists met: those
    made of the very same nodes and tags, which the entry holds, so that their ids stay theirs."""
    held = tuple(chain.from_iterable(edges))
    ids = tuple(map(id, held))
    kept = _KEPT.get(ids)
    if kept is None:
        if len(_KEPT) >= _KEEP:
            del _KEPT[next(iter(_KEPT))]  # the first kept
        kept = _KEPT[ids] = (held, _new_adjacency(edges))
    return kept[1]


def _new_adjacency(edges: Sequence[Sequence]) -> Adjacency:
    adjacency: dict[int, list[tuple[Any, Any]]] = {}
    tags = set()
    for a, b, tag in edges:
        tags.add(id(tag))
        adjacency.setdefault(id(a), []).append((b, tag))
        adjacency.setdefault(id(b), []).append((a, tag))
    return adjacency, len(tags) == len(edges)


def route_ends(start: Any, edges: Sequence[Sequence], max_length: int, goal: Callable[[Any], Any]) -> list[Any]:
    """The nodes where the routes of `routes(start, edges, max_length, goal)` end, each once,
    nearest first, found without listing the routes: a breadth-first search that stops at goal
    nodes. (Where two edges share a tag, which a route may use once, the routes are listed.)"""
    adjacency, distinct_tags = _adjacency(edges)
    if not distinct_tags:
        ends = [r["end"] for r in routes(start, edges, max_length, goal)]
        return list({id(e): e for e in ends}.values())
    seen, ends, frontier = {id(start)}, [], [start]
    for _ in range(max_length):
        reached = []
        for node in frontier:
            for nxt, _ in adjacency.get(id(node), ()):
                if id(nxt) in seen:
                    continue
                seen.add(id(nxt))
                (ends if goal(nxt) else reached).append(nxt)
        frontier = reached
    return ends


def routes(start: Any, edges: Sequence[Sequence], max_length: int, goal: Callable[[Any], Any],
           work: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Every simple route from `start` over `edges` ([a, b, tag] triples, usable both ways) of at
    most `max_length` edges that ends at the first node where goal(node) is true.

    A route never passes through a node satisfying the goal before its end, nor visits a node
    twice. Each route is {"edges": [tags], "nodes": [start, ..., end], "end": end}, shortest first.
    The routes of a dense graph are many: `work(64)` is told of every 64 steps of the search, to
    stop one that goes on too long (a rule's step budget)."""
    adjacency, _ = _adjacency(edges)
    found: list[dict[str, Any]] = []
    on_route: set[int] = {id(start)}  # ids of the nodes and tags of the route being walked
    used: set[int] = set()
    walked = 0

    def walk(node: Any, nodes: list, tags: list) -> None:
        nonlocal walked
        walked += 1
        if work is not None and not walked & 63:
            work(64)
        if len(tags) >= max_length:
            return
        for nxt, tag in adjacency.get(id(node), ()):
            if id(nxt) in on_route or id(tag) in used:
                continue
            if goal(nxt):
                found.append({"edges": tags + [tag], "nodes": nodes + [nxt], "end": nxt})
            else:
                on_route.add(id(nxt))
                used.add(id(tag))
                walk(nxt, nodes + [nxt], tags + [tag])
                on_route.discard(id(nxt))
                used.discard(id(tag))
    walk(start, [start], [])
    found.sort(key=lambda r: len(r["edges"]))
    return found


def drawn_line(board: Board, place: Place) -> int:
    """The line of `render_board`'s art that `place` is drawn on: its row of a hex board, else
    its own line; so that a screen can show the part of a board some places lie on."""
    if board.layout == "hex":
        return sorted({p.r for p in board.places}).index(place.r)
    return board.places.index(place)


def render_board(board: Board, cell: Callable[[Place], str], width: int = 5) -> str:
    """Text art of a board: a hex board as offset rows of `width`-character cells; any other
    (a graph) as its places, one a line, each with its text and the places it connects to.
    The board's legend follows."""
    legend = [f"  legend: {board.legend}"] if board.legend else []
    if board.layout != "hex" or not board.places:
        name = max((len(p.label) for p in board.places), default=0)
        texts = {p.id: cell(p) for p in board.places}
        shown = max((len(t) for t in texts.values()), default=0)
        return "\n".join([f"  {p.label:<{name}}  {texts[p.id]:<{shown}}  -- "
                          + (", ".join(n.label for n in p.neighbours) or "(no connection)")
                          for p in board.places] + legend)
    rows: dict[int, list[Place]] = {}
    for p in board.places:
        rows.setdefault(p.r, []).append(p)
    min_x = min(2 * p.q + p.r for p in board.places)
    half = (width + 1) // 2
    lines = []
    for r in sorted(rows):
        line = ""
        for p in sorted(rows[r], key=lambda p: p.q):
            line = line.ljust((2 * p.q + p.r - min_x) * half) + cell(p)[:width].center(width)
        lines.append("  " + line.rstrip())
    return "\n".join(lines + legend)
