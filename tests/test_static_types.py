"""The static type check at load time (engine/lang/types.py): each mistake of type that must
fail in play is reported by `engine validate` at its line and column, and no shipped or
example ruleset gets a false alarm."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine.core.errors import RulesetError
from engine.rules.ruleset import load_ruleset

from conftest import ROOT

BASE = """\
game: {name: Typed, players: [2, 3]}
constants:
  bonus: 5
card_kinds:
  token:
    zone: supply
    properties: {colour: string, rank: integer}
  coin:
    zone: bank
    properties: {worth: integer}
cards:
  - {kind: token, colour: red, rank: 1}
  - {kind: token, colour: blue, rank: 4}
  - {kind: coin, worth: 3}
zones:
  supply: {}
  bank: {}
  hand: {per: player}
counters:
  money: {per: player, initial: 0}
  total: {initial: 0}
  title: {initial: ""}
functions:
  rank_of:
    params: [c]
    expr: c.rank
scoring:
  score: money[player]
flow: |
"""
FLOW_LINE = BASE.count("\n") + 1  # the line of the flow's first statement


def problems(tmp_path: Path, flow: str, extra: str = "") -> list[tuple[int, int, str]]:
    """(line, column, message) of each problem of BASE with `flow` (and `extra` after it)."""
    path = tmp_path / "typed.yaml"
    path.write_text(BASE + textwrap.indent(textwrap.dedent(flow), "  ") + extra)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    return [(d.location.line, d.location.column, d.message) for d in caught.value.diagnostics]


def test_the_base_loads(tmp_path):
    path = tmp_path / "typed.yaml"
    path.write_text(BASE + "  total = rank_of(first(supply)) + bonus\n")
    load_ruleset(path)


def test_text_added_to_a_counter_of_numbers(tmp_path):
    assert problems(tmp_path, 'money[1] += "2000"\n') == [
        (FLOW_LINE, 12, 'text cannot be added to a number; write a number, as 2000, not "2000" '
                        '(this statement always fails)')]


def test_text_taken_from_a_number(tmp_path):
    assert problems(tmp_path, 'let value = 3000\ntotal = value - "1000"\n') == [
        (FLOW_LINE + 1, 11, 'cannot subtract a number and text with - (this expression always fails)')]


def test_text_put_into_a_counter_of_numbers(tmp_path):
    assert problems(tmp_path, 'total = "many"\n') == [
        (FLOW_LINE, 11, "text cannot go into the counter 'total': it holds numbers (it starts at 0); "
                       'write a number, as 2000, not "2000"')]


def test_a_counter_that_starts_at_0_may_hold_a_card_a_list_or_a_function_later(tmp_path):
    """Only text is refused: a counter started at 0 may be given other values on purpose."""
    path = tmp_path / "typed.yaml"
    path.write_text(BASE + "  money[2] = first(supply)\n  total = [1]\n  total = x -> x\n")
    load_ruleset(path)


def test_text_into_a_counter_of_text_is_fine(tmp_path):
    path = tmp_path / "typed.yaml"
    path.write_text(BASE + '  title = "Winner: " + text(money[1])\n')
    load_ruleset(path)


def test_arithmetic_on_a_text_property(tmp_path):
    assert problems(tmp_path, "for c in supply:\n    total += c.colour * 2 - 1\n") == [
        (FLOW_LINE + 1, 16, "cannot subtract text and a number with - (this expression always fails)")]


def test_a_card_compared_with_a_number(tmp_path):
    found = problems(tmp_path, "for c in supply:\n    if c == 3:\n        total = 1\n"
                               "let best = first(bank)\nif best > 2:\n    total = 2\n")
    assert found == [
        (FLOW_LINE + 1, 10, "a card is never equal to a number, so this is always false; compare one of "
                           "the card's properties (the left side is a card), as c.value == 3"),
        (FLOW_LINE + 4, 6, "cannot compare a card and a number with >; only numbers compare with each "
                           "other, or texts with texts (this expression always fails)")]


def test_calling_a_counter_a_constant_or_a_number(tmp_path):
    found = problems(tmp_path, "total = money(1)\ntotal = bonus(2)\nlet n = 3\ntotal = n(1)\n")
    assert found == [
        (FLOW_LINE, 11, "'money' is a counter, not a function, so it cannot be called; "
                       "read it as money or money[...]"),
        (FLOW_LINE + 1, 11, "'bonus' is a constant, not a function, so it cannot be called; read it as bonus"),
        (FLOW_LINE + 3, 11, "'n' is a number, not a function, so it cannot be called")]


def test_a_function_value_given_two_arguments(tmp_path):
    assert problems(tmp_path, "let f = x -> x + 1\ntotal = f(1, 2)\n") == [
        (FLOW_LINE + 1, 11, "a function made with -> takes 1 argument, given 2")]


def test_a_property_the_cards_of_a_zone_lack(tmp_path):
    found = problems(tmp_path, "total = sum(c.worth for c in supply)\ntitle = first(bank).colour\n")
    assert found == [
        (FLOW_LINE, 17, "a card here is of kind token, which has no property 'worth' (it is a property of coin)"),
        (FLOW_LINE + 1, 23, "a card here is of kind coin, which has no property 'colour' "
                            "(it is a property of token)")]


def test_a_property_its_own_card_lacks(tmp_path):
    path = tmp_path / "typed.yaml"
    text = BASE.replace("    properties: {worth: integer}\n", "    properties: {worth: integer}\n"
                        "    triggers:\n      - on: spent\n        do: |\n          total += card.rank\n")
    path.write_text(text + "  emit(\"spent\")\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    line = text.splitlines().index("          total += card.rank") + 1
    assert [(d.location.line, d.location.column, d.message) for d in caught.value.diagnostics] == [
        (line, 25, "a card here is of kind coin, which has no property 'rank' (it is a property of token)")]


def test_cards_moved_into_a_zone_widen_its_kinds(tmp_path):
    """A zone holds the kinds that start in it and those rules move into it: no false alarm."""
    path = tmp_path / "typed.yaml"
    path.write_text(BASE + "  move(first(bank), supply)\n  total = sum(c.worth for c in supply if c.kind == \"coin\")\n")
    load_ruleset(path)


def test_a_function_calling_itself_has_a_type(tmp_path):
    extra = textwrap.dedent("""\
        procedures:
          down:
            params: [n]
            do: |
              if n == 0:
                  return 0
              let rest = down(n - 1)
              return rest + 1
        """)
    assert problems(tmp_path, 'let d = down(3)\ntotal = d - "x"\n', extra) == [
        (FLOW_LINE + 1, 11, "cannot subtract a number and text with - (this expression always fails)")]


EVENTS = """\
description: House events.
cards:
  - kind: event
    name: Gold Rush
    future: false
    text: Mountains cost less.
    modifiers:
      - modify: hex_cost
        while_in: [current_event]
        value: value - "1000"
  - kind: event
    name: Windfall
    future: false
    text: Everyone gets money.
    triggers:
      - on: after_auction
        while_in: [current_event]
        do: |
          for q in players:
              money[q] += "2000"
"""


def test_the_mistakes_of_an_extension_file_are_found_at_validate(tmp_path):
    """The two mistakes of issue 29 that passed validate and failed in play."""
    events = tmp_path / "events.yaml"
    events.write_text(EVENTS)
    with pytest.raises(RulesetError) as caught:
        load_ruleset("railways", [events])
    assert [(Path(d.location.file).name, d.location.line, d.location.column, d.message)
            for d in caught.value.diagnostics] == [
        ("events.yaml", 10, 16, "cannot subtract text with -: - takes numbers only (this expression always fails)"),
        ("events.yaml", 20, 24, 'text cannot be added to a number; write a number, as 2000, not "2000" '
                                "(this statement always fails)")]


SHIPPED = sorted(str(p.relative_to(ROOT)) for p in
                 [*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("examples/**/*.yaml"), *ROOT.glob("tests/fixtures/**/*.yaml")]
                 if "\ngame:" in "\n" + p.read_text(encoding="utf-8")  # rulesets, not extension files
                 and "old_forms" not in p.parts)  # refused until `validate --fix` (test_compat.py)


@pytest.mark.parametrize("path", SHIPPED)
def test_no_false_alarm_on_shipped_and_example_rulesets(path):
    """Every shipped, example and fixture ruleset loads: the type check finds nothing wrong in
    them (the check runs, and it settles: see test_the_check_settles_on_shipped_rulesets)."""
    load_ruleset(ROOT / path)


def test_no_false_alarm_on_the_example_events():
    load_ruleset("railways", [ROOT / "examples" / "my_events.yaml"])


@pytest.mark.parametrize("name", ["railways", "isle_of_trains", "trainsilvania", "trick_of_the_rails"])
def test_the_check_settles_on_shipped_rulesets(name, monkeypatch):
    """The passes reach a fixed point (else the check would report nothing at all)."""
    from engine.lang import types
    settled = []
    check = types.Checker.check

    def watched(self, rules):
        found = check(self, rules)
        settled.append(self.settled)
        return found
    monkeypatch.setattr(types.Checker, "check", watched)
    load_ruleset(name)
    assert settled == [True]


def test_a_counter_without_a_written_initial_value_takes_any_value(tmp_path):
    """`initial` defaults to 0, but only a number written there says the counter holds numbers."""
    path = tmp_path / "typed.yaml"
    path.write_text(BASE.replace("  title: {initial: \"\"}\n", "  title: {initial: \"\"}\n  phase: {}\n")
                    + '  phase = "auction"\n  title = phase + "!"\n')
    load_ruleset(path)


def test_what_a_modifier_gives_is_what_its_function_may_give(tmp_path):
    """A modifier may make its function give text: the function's result is then unknown."""
    extra = textwrap.dedent("""\
        triggers:
          - on: never
            do: |
              pass
        """)
    path = tmp_path / "typed.yaml"
    text = BASE.replace("    properties: {worth: integer}\n", "    properties: {worth: integer}\n"
                        "    modifiers:\n      - modify: top\n        value: text(value) + \"!\"\n")
    text = text.replace("functions:\n", "functions:\n  top: {params: [], expr: first(supply).rank}\n")
    path.write_text(text + '  title = top() + "?"\n  emit("never")\n' + extra)
    load_ruleset(path)


def test_a_procedure_that_may_end_without_return_may_give_none(tmp_path):
    extra = textwrap.dedent("""\
        procedures:
          maybe:
            params: [n]
            do: |
              if n > 1:
                  return first(supply)
        """)
    path = tmp_path / "typed.yaml"
    path.write_text(BASE + "  let c = maybe(2)\n  total = c\n" + extra)
    load_ruleset(path)


def test_a_list_whose_entries_a_rule_writes_holds_anything(tmp_path):
    """`l[0] = ...` may write into a list a counter shares: no list's items are known then."""
    path = tmp_path / "typed.yaml"
    path.write_text(BASE.replace("  total: {initial: 0}\n", "  total: {initial: 0}\n  row: {initial: [1, 2]}\n")
                    + '  let l = row\n  l[0] = "x"\n  title = row[0] + "y"\n')
    load_ruleset(path)


def test_a_property_named_like_a_card_s_own_field_is_read_as_the_property(tmp_path):
    path = tmp_path / "typed.yaml"
    path.write_text(BASE.replace("{worth: integer}", "{worth: integer, label: integer}")
                        .replace("{kind: coin, worth: 3}", "{kind: coin, worth: 3, label: 7}")
                    + "  total = first(bank).label - 1\n")
    load_ruleset(path)


def test_no_cascade_from_a_misspelt_move(tmp_path):
    """A move() the compiler cannot make sense of moves nothing here: with another mistake in
    the file, no property is reported missing for want of the cards it would have moved."""
    found = problems(tmp_path, "mvoe(first(bank), supply)\ntotal = sum(c.worth for c in supply if c.kind == \"coin\")\n")
    assert [message for _, _, message in found] == [
        "unknown function 'mvoe' (did you mean 'move'?)"]
