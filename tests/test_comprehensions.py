"""Comprehensions with several `for`s and `if`s, as in Python, and `flatten`: what they give in
play, what the type check reads of them, and the steps they count."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine.core.errors import EffectError, RulesetError
from engine.game.game import Game
from engine.rules.ruleset import load_ruleset

BASE = """\
game: {name: Pairs, players: [2]}
constants:
  colours: [red, blue]
card_kinds:
  token:
    zone: supply
    label: "{colour} {rank}"
    properties: {colour: string, rank: integer}
cards:
  - {kind: token, colour: red, rank: 1}
  - {kind: token, colour: red, rank: 5}
  - {kind: token, colour: blue, rank: 3}
zones:
  supply: {}
  pile: {per: colours}
  hand: {per: player}
counters:
  total: {initial: 0}
  found: {initial: []}
  points: {per: player, initial: 0}
scoring:
  score: points[player]
flow: |
"""
FLOW_LINE = BASE.count("\n") + 1


def load(tmp_path: Path, flow: str):
    path = tmp_path / "pairs.yaml"
    path.write_text(BASE + textwrap.indent(textwrap.dedent(flow), "  "), encoding="utf-8")
    return load_ruleset(path)


def play(tmp_path: Path, flow: str) -> Game:
    return Game(load(tmp_path, flow), 2, seed=1)


def test_several_fors_go_through_each_item_of_the_ones_before(tmp_path):
    g = play(tmp_path, """
        found = [a.rank * 10 + b.rank for a in supply for b in supply if a != b]
        """)
    assert g.table.counters["found"] == [15, 13, 51, 53, 31, 35]


def test_a_later_for_goes_through_what_an_earlier_variable_gives(tmp_path):
    g = play(tmp_path, """
        for c in list(supply):
            move(c, pile[c.colour])
        found = [c.rank for s in colours for c in pile[s]]
        total = count([1 for s in colours if s != "red" for c in pile[s] if c.rank > 1])
        """)
    assert g.table.counters["found"] == [1, 5, 3]
    assert g.table.counters["total"] == 1


def test_several_ifs_after_one_for_all_filter(tmp_path):
    g = play(tmp_path, """
        found = [c.rank for c in supply if c.rank > 1 if c.colour == "red"]
        """)
    assert g.table.counters["found"] == [5]


def test_any_and_sum_take_several_fors(tmp_path):
    g = play(tmp_path, """
        total = sum(a.rank * b.rank for a in supply for b in supply if a.rank < b.rank)
        if any(a.rank + b.rank == 8 for a in supply for b in supply):
            points[1] = 1
        if all(a.rank + b.rank == 8 for a in supply for b in supply):
            points[2] = 1
        """)
    assert g.table.counters["total"] == 1 * 5 + 1 * 3 + 3 * 5
    assert g.table.counters["points"] == {1: 1, 2: 0}


def test_flatten_joins_the_lists_of_a_list_and_the_zones_of_a_family(tmp_path):
    g = play(tmp_path, """
        for c in list(supply):
            move(c, pile[c.colour])
        found = flatten([[c.rank for c in pile[s]] for s in colours]) + [c.rank for c in flatten(pile)]
        total = count(flatten([[], [1, 2], [3]]))
        """)
    assert g.table.counters["found"] == [1, 5, 3, 1, 5, 3]
    assert g.table.counters["total"] == 3


def test_flatten_of_a_list_of_numbers_is_an_error_in_play(tmp_path):
    with pytest.raises(EffectError, match="expected a list or a zone, got a number"):
        play(tmp_path, "found = flatten([1, 2])\n")


def test_the_type_check_reads_the_items_of_several_fors_and_of_flatten(tmp_path):
    with pytest.raises(RulesetError) as caught:
        load(tmp_path, "total = sum(a.rank - b.colour for a in supply for b in supply)\n")
    assert [(d.location.line, d.location.column, d.message) for d in caught.value.diagnostics] == [
        (FLOW_LINE, 15, "cannot subtract a number and text with - (this expression always fails)")]
    with pytest.raises(RulesetError) as caught:
        load(tmp_path, "for c in list(supply):\n    move(c, pile[c.colour])\n"
                       "total = first(flatten(pile)).rank - first(flatten([colours]))\n")
    assert [(d.location.line, d.location.column, d.message) for d in caught.value.diagnostics] == [
        (FLOW_LINE + 2, 11, "cannot subtract a number and text with - (this expression always fails)")]


def test_a_later_variable_is_unknown_to_an_earlier_for(tmp_path):
    with pytest.raises(RulesetError, match="unknown name 'b'"):
        load(tmp_path, "found = [a for a in b for b in supply]\n")


def test_several_fors_count_steps_for_every_item(tmp_path):
    """A comprehension of comprehensions over a long list ends at the step budget."""
    with pytest.raises(EffectError, match="steps without a decision"):
        play(tmp_path, """
            let long = [1 for c in supply for d in supply]
            repeat 12:
                long = long + long
            total = count([1 for a in long for b in long for c in long])
            """)
