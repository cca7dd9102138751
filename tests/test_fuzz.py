"""Fuzzing the loader, the parser, the compiler and compiled rules: only clean errors may come out.

Budgets are fixed (max_examples) so the run stays short in CI; a failure prints the input."""
from __future__ import annotations

import textwrap

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EffectError, IllegalMove, RulesetError
from engine.game import Game
from engine.lang.builtins import REGISTRY
from engine.ruleset import load_ruleset

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

BASE = """
game: {name: Fuzz, players: [2]}
constants:
  colours: [red, blue]
card_kinds:
  token: {zone: supply, label: "{colour} {rank}", properties: {colour: string, rank: integer}}
cards:
  - {kind: token, colour: red, rank: 1}
  - {kind: token, colour: blue, rank: 3}
  - {kind: token, colour: blue, rank: 0, count: 2}
zones:
  supply: {}
  hand: {per: player, visibility: owner}
counters:
  total: {initial: 0}
  points: {per: player, initial: 0}
scoring:
  score: points[player]
"""


def write(tmp_path_factory, flow: str) -> str:
    path = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    path.write_text(BASE + "flow: |\n" + textwrap.indent(flow, "  ") + "\n", encoding="utf-8")
    return str(path)


def play(path: str) -> None:
    """Load and play with the first option every time; only clean errors are allowed."""
    try:
        rs = load_ruleset(path)
    except RulesetError:
        return
    try:
        game = Game(rs, 2, seed=1)
        for _ in range(50):
            if game.over:
                break
            before = game.digest()
            try:
                game.apply(0)
            except EffectError:
                assert game.digest() == before, "a failed move changed the game"
                return
        if game.over:
            game.scores()
            game.winners()
    except (EffectError, IllegalMove):
        return


@SETTINGS
@given(st.text(max_size=200))
def test_random_text_as_a_rule(tmp_path_factory, text):
    play(write(tmp_path_factory, text.replace("\r", "")))


# -------------------------------------------------------- programs built from the grammar

NAMES = ["total", "colours", "supply", "players", "player_count", "x", "c", "p"]
LITERALS = ["0", "1", "2", "-1", '"red"', "true", "false", "none", "[]", "[1, 2]"]


def expressions() -> st.SearchStrategy[str]:
    leaf = st.sampled_from(LITERALS + NAMES + ["hand[1]", "points[2]", "option.nosuch", "c.rank"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "<", "and", "or",
                                                   "in", "not in"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})")
        calls = st.tuples(st.sampled_from(sorted(n for n, b in REGISTRY.items() if b.kind == "value")),
                          st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})")
        comp = st.tuples(inner, inner).map(lambda t: f"[{t[0]} for c in {t[1]} if c]")
        other = st.one_of(st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
                          inner.map(lambda e: f"not {e}"), inner.map(lambda e: f"(c -> {e})"),
                          st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
                          inner.map(lambda e: f"{e}.rank"))
        return st.one_of(binary, calls, comp, other)
    return st.recursive(leaf, extend, max_leaves=8)


def statements(depth: int = 2) -> st.SearchStrategy[list[str]]:
    e = expressions()
    simple = st.one_of(
        e.map(lambda x: f"let x = {x}"), e.map(lambda x: f"total = {x}"), e.map(lambda x: f"points[1] += {x}"),
        e.map(lambda x: f"let c = choose(1, {x}, \"pick\")"), e.map(lambda x: f"move({x}, hand[2])"),
        e.map(lambda x: f"shuffle({x})"), e.map(lambda x: f"log({x})"), st.just("end_game()"),
        e.map(lambda x: f"deal(supply, hand[1], {x})"), st.just("break"), st.just("pass"))
    if depth == 0:
        return st.lists(simple, min_size=1, max_size=4)
    inner = statements(depth - 1)
    block = st.tuples(st.sampled_from(["if {}:", "while {}:", "for c in {}:", "repeat {}:"]), e, inner).map(
        lambda t: [t[0].format(t[1])] + ["    " + line for line in t[2]])
    return st.lists(st.one_of(simple.map(lambda s: [s]), block), min_size=1, max_size=4).map(
        lambda blocks: [line for b in blocks for line in b])


@SETTINGS
@given(statements())
def test_random_programs_compile_and_run_cleanly(tmp_path_factory, lines):
    play(write(tmp_path_factory, "let x = 0\nlet c = none\nlet p = 1\n" + "\n".join(lines)))


# -------------------------------------------------------- random YAML documents

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False),
                    st.text(max_size=20))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["game", "zones", "flow", "scoring", "cards", "card_kinds", "counters",
                                     "name", "players", "kind", "zone", "per", "score", "do", "on", "x"]),
                    inner, max_size=5)), max_leaves=25)


@SETTINGS
@given(documents)
def test_random_yaml_documents_are_rejected_cleanly(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("doc") / "d.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    play(str(path))


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes_are_rejected_cleanly(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "b.yaml"
    path.write_bytes(data)
    play(str(path))
