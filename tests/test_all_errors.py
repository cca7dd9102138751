"""One run of `engine validate` shows every mistake of a file, each once, in words a person
can act on (issue 29, items 3 and 4).

A schema error, a rule's syntax error or a wrong name must not hide the mistakes elsewhere;
one mistake is reported once, not again at every place that uses what it broke; YAML syntax
errors and the effect language's common slips say what is wrong and what to write instead.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import RulesetError
from engine.rules.ruleset import load_ruleset

GAME = """\
game:
  name: Tiny
  players: [2, 3]
"""
ZONES = """\
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {}
"""
SCORING = """\
scoring:
  score: points[player]
"""


def errors(tmp_path: Path, text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of every problem loading `text`, in the order reported."""
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    return [(d.location.line, d.location.column, d.message) for d in caught.value.diagnostics]


def at(found: list[tuple[int, int, str]], line: int, column: int, *words: str) -> None:
    """Exactly one problem is reported at line:column, and its message holds all `words`."""
    here = [m for ln, col, m in found if (ln, col) == (line, column)]
    assert len(here) == 1, f"expected one problem at {line}:{column}, got {here}; all: {found}"
    for w in words:
        assert w in here[0], f"{w!r} not in {here[0]!r}"


# ------------------------------------------------------------------ all errors in one run

def test_a_schema_error_does_not_stop_the_checks_of_the_rules(tmp_path):
    """`players: [2, 3, four]` hid a syntax error and a misspelt name."""
    found = errors(tmp_path, GAME.replace("[2, 3]", "[2, 3, four]") + ZONES + """\
counters:
  points: {per: player, initial: 0}
  offer: {initial: 0}
functions:
  worth:
    params: [c]
    expr: c.value +
flow: |
  ofer += 1
""" + SCORING)
    at(found, 3, 19, "expected a whole number in game.players[2], got 'four'")
    at(found, 14, 20, "in function worth: unexpected end of line")
    at(found, 16, 3, "cannot assign to 'ofer'", "did you mean 'offer'?")
    assert len(found) == 3, found


def test_a_parameter_the_schema_rejects_does_not_stop_the_checks(tmp_path):
    found = errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: 0}
functions:
  twice:
    params: [x, 7]
    expr: x * 2
procedures:
  nothing:
    params: [{a: 1}]
  again:
    do: twice(1, 2)
flow: |
  ponts[1] += twice(1, 2)
""" + SCORING)
    at(found, 12, 17, "expected a string in functions.twice.params[1], got 7")
    at(found, 16, 14, "expected a string in procedures.nothing.params[0]")
    at(found, 16, 5, "missing required key in procedures.nothing: 'do'")
    at(found, 20, 3, "'ponts[...]'", "did you mean 'points'?")
    assert len(found) == 4, found  # twice() still takes two arguments: its calls are right


def test_a_wrong_modify_name_does_not_hide_a_while_in_typo(tmp_path):
    found = errors(tmp_path, GAME + """\
card_kinds:
  number:
    zone: deck
    properties: {value: integer}
    modifiers:
      - modify: worht
        while_in: [hnd]
        value: value + (1
cards:
  - {kind: number, name: Amber, value: 1}
""" + ZONES + """\
counters:
  points: {per: player, initial: 0}
functions:
  worth:
    params: [c]
    expr: c.value
flow: |
  pass
""" + SCORING)
    at(found, 9, 17, "unknown function 'worht'", "did you mean 'worth'?")
    at(found, 10, 19, "unknown zone 'hnd'", "did you mean 'hand'?")
    at(found, 11, 16, "in modifier of worht on card kind number: the rule ends too early")
    assert len(found) == 3, found


def test_a_syntax_error_in_one_rule_does_not_hide_a_misspelt_name_in_another(tmp_path):
    found = errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: 0}
  offer: {initial: 0}
setup: |
  if offer > 1
      offer = 0
flow: |
  offer = ofer + 1
""" + SCORING)
    at(found, 12, 15, "unexpected end of line; expected ':'")
    at(found, 15, 11, "unknown name 'ofer'", "did you mean 'offer'?")
    assert len(found) == 2, found


def test_a_syntax_error_does_not_hide_the_mistakes_after_it_in_the_same_rule(tmp_path):
    found = errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: 0}
  offer: {initial: 0}
flow: |
  for p in players
      let gain = offer +
      points[p] += gain * 2
      ofer += 1
  let total = 1 +
  log(totl, total + 1)
""" + SCORING)
    at(found, 12, 19, "in flow: unexpected end of line; expected ':'")
    at(found, 13, 25, "in flow: unexpected end of line")
    at(found, 15, 7, "cannot assign to 'ofer'", "did you mean 'offer'?")
    at(found, 16, 18, "in flow: unexpected end of line")
    at(found, 17, 7, "unknown name 'totl'", "did you mean 'total'?")
    assert len(found) == 5, found  # `gain`, `p` and `total` are still known, of no known kind


def test_an_unclosed_bracket_is_reported_once(tmp_path):
    """Past an error that spans lines, the rest of the rule is not checked: it would only
    give complaints that are the bracket's doing."""
    found = errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: 0}
flow: |
  let gain = (1 +
  points[1] += gain
  log(gain]
""" + SCORING)
    assert len(found) == 1 and "in flow:" in found[0][2], found


def test_a_misspelt_counter_in_a_compound_assignment_is_reported_once(tmp_path):
    found = errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: 0}
  offer: {initial: 0}
flow: |
  ofer += 1
  pointz[1] += ofer2
""" + SCORING)
    at(found, 12, 3, "cannot assign to 'ofer'", "did you mean 'offer'?")
    at(found, 13, 3, "cannot assign to 'pointz[...]'", "did you mean 'points'?")
    at(found, 13, 16, "unknown name 'ofer2'")
    assert len(found) == 3, found


def test_a_card_kind_the_schema_rejects_is_reported_once_not_at_every_card(tmp_path):
    found = errors(tmp_path, GAME + """\
card_kinds:
  number:
    zone: deck
    properties: {value: integr}
  colour:
    zone: deck
    propertys: {hue: string}
  ghost: 7
cards:
  - {kind: number, name: Amber, value: 1}
  - {kind: number, name: Beryl, value: 2}
  - {kind: colour, name: Red, hue: red}
  - {kind: colour, name: Blue, hue: blue}
  - {kind: ghost, name: Boo}
""" + ZONES + """\
counters:
  points: {per: player, initial: 0}
flow: |
  move(first(deck), pile)
""" + SCORING)
    at(found, 7, 25, "'integr' is not allowed", "did you mean 'integer'?")
    at(found, 10, 5, "unknown key 'propertys'", "did you mean 'properties'?")
    at(found, 11, 10, "expected a mapping in card_kinds.ghost")
    assert len(found) == 3, found


def test_a_zone_or_function_the_schema_rejects_keeps_its_name(tmp_path):
    """Its uses are not then reported as unknown names, nor is every zone lost to one bad name."""
    found = errors(tmp_path, GAME + """\
zones:
  deck: {visibility: hidden}
  hand: 7
  my pile: {}
counters:
  points: {per: player, initial: 0}
functions:
  twice: "2"
flow: |
  move(first(deck), hand[1])
  points[1] += twice()
""" + SCORING)
    at(found, 6, 9, "expected a mapping in zones.hand, got 7")
    at(found, 7, 3, "'my pile' is not a valid name in zones")
    at(found, 11, 10, "expected a mapping in functions.twice")
    assert len(found) == 3, found


def test_six_mistakes_in_six_sections_are_six_errors_in_order_of_lines(tmp_path):
    found = errors(tmp_path, """\
game:
  name: Six
  players: [2, three]
card_kinds:
  number:
    zone: dek
    properties: {value: integer}
cards:
  - {kind: number, name: Amber, vlue: 1}
""" + ZONES + """\
counters:
  points: {per: player, initial: 0}
functions:
  worth:
    params: [c]
    expr: c.value *
setup: |
  shuffle(deck)
  deal(deck, hands[1], 3)
flow: |
  points[1] += worth(first(pile)
scoring:
  score: points[playr]
""")
    at(found, 3, 16, "expected a whole number")
    at(found, 6, 11, "unknown zone 'dek'", "did you mean 'deck'?")
    at(found, 9, 33, "'vlue' is not a property", "did you mean 'value'?")
    at(found, 19, 20, "in function worth")
    at(found, 22, 14, "unknown name 'hands'", "did you mean 'hand'?")
    at(found, 24, 3, "in flow: the rule ends too early; expected ')'")
    at(found, 26, 17, "unknown name 'playr'", "did you mean 'player'?")
    assert len(found) == 7, found
    assert [ln for ln, _, _ in found] == sorted(ln for ln, _, _ in found)


# ------------------------------------------------------------------ YAML syntax, in words

YAML_CASES = {
    "star after a quoted string": ('  name: "Tiny" * 2\n', 2, 16,
                                   ["a '*' here starts an alias", "quote the whole value", "'\"Tiny\" * 2'"]),
    "tab indentation": ("\tname: Tiny\n", 2, 1, ["a tab character is used for indentation; YAML needs spaces"]),
    "unclosed quote": ('  name: "Tiny\n', 2, 9, ['the quote " opened here is never closed']),
    "unclosed bracket": ("  name: Tiny\n  players: [2, 3\nzones: {}\n", 3, 12,
                         ["the '[' opened here is not closed by a ']' before line 4, column 6"]),
    "colon in a plain value": ("  name: Tiny\n  description: Rules: play well\n", 3, 21,
                               ["a ': ' inside an unquoted value starts a new key",
                                'description: "Rules: play well"']),
    "line indented too far": ("  name: Tiny\n    players: [2]\n", 3, 12,
                              ["this line is indented more than the key above it"]),
    "line indented to no level": ("  name: Tiny\n players: [2]\n", 3, 2,
                                  ["this line's indentation matches no key above it"]),
    "text after a closing quote": ("  name: 'Tiny's game'\n", 2, 15,
                                   ["text goes on after a closing quote", "'' for a ' inside"]),
    "list item among keys": ("  name: Tiny\n  - players\n", 3, 3, ["a list item ('- ...') among the keys"]),
    "undefined alias": ("  name: *tiny\n", 2, 9, ["a value may not start with '*'", "quote the whole value"]),
}


@pytest.mark.parametrize("case", YAML_CASES)
def test_a_yaml_syntax_error_is_worded_for_a_person(tmp_path, case):
    body, line, column, words = YAML_CASES[case]
    path = tmp_path / "game.yaml"
    path.write_text("game:\n" + body, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    [found] = caught.value.diagnostics
    assert (found.location.line, found.location.column) == (line, column), found
    assert found.message.startswith("YAML syntax: "), found
    for w in words:
        assert w in found.message, found
    shown, caret = found.excerpt.split("\n")  # the line, and a caret under the column
    assert shown == "  " + ("game:\n" + body).split("\n")[line - 1].replace("\t", " "), found
    assert caret == "  " + " " * (column - 1) + "^", found


def test_a_duplicate_key_names_the_first(tmp_path):
    found = errors(tmp_path, "game:\n  name: Tiny\n  name: Other\n  players: [2]\n")
    at(found, 3, 3, "duplicate key 'name' (first at line 2)", "remove or rename one")


def test_validate_shows_the_line_and_a_caret_under_the_column(tmp_path, capsys):
    path = tmp_path / "game.yaml"
    path.write_text('game:\n  name: "Tiny" * 2\n  players: [2]\n', encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}:2:16: error: YAML syntax: a '*' here starts an alias"), out
    assert out[1:] == ['    name: "Tiny" * 2', "                 ^"], out


def test_a_long_line_is_cut_to_fit_80_columns_with_the_caret_under_the_column(tmp_path, capsys):
    path = tmp_path / "game.yaml"
    path.write_text('game:\n  description: "' + "word " * 30 + '" * 2\n', encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    shown, caret = capsys.readouterr().out.splitlines()[1:3]
    assert len(shown) <= 80 and len(caret) <= 80, (shown, caret)
    assert shown[len(caret) - 1] == "*", (shown, caret)


# ------------------------------------------------------------------ the effect language's slips

def flow_errors(tmp_path: Path, flow: str, extra: str = "") -> list[tuple[int, int, str]]:
    """The problems of a ruleset whose flow (from line 11) is `flow`."""
    return errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: [0, 0]}
""" + extra + "flow: |\n" + "".join(f"  {line}\n" for line in flow.split("\n")) + """\
scoring:
  score: 0
""")


def test_assigning_into_a_list_in_a_counter_says_what_to_write_instead(tmp_path):
    found = flow_errors(tmp_path, "points[1][0] = 3")
    at(found, 11, 12, "unexpected '['; cannot assign into a list", "keep a counter per player or per key",
       "build the new list and assign it whole (name[key] = [...])")


def test_assigning_into_a_constant_list_says_what_to_write_instead(tmp_path):
    found = flow_errors(tmp_path, "hand_sizes[2] = 3", "constants:\n  hand_sizes: [5, 5, 4]\n")
    at(found, 13, 3, "cannot assign to 'hand_sizes[...]': 'hand_sizes' is a constant",
       "make it a counter per player or per key", "build a new list")


def test_let_of_a_list_item_says_to_make_the_local_first(tmp_path):
    found = flow_errors(tmp_path, "let sizes[2] = 3")
    at(found, 11, 12, "'let' makes a new local of a name alone: write let x = [...], then x[i] = ...")


def test_assigning_to_a_property_says_what_to_write_instead(tmp_path):
    found = flow_errors(tmp_path, "let c = first(deck)\nc.value = 3")
    at(found, 12, 11, "unexpected '='; cannot assign to a property (x.name)", "keep a counter per card")


def test_a_conditional_expression_split_over_two_lines_says_to_bracket_it(tmp_path):
    found = flow_errors(tmp_path, "let x = 1 if true\n    else 2\nofer += 1")
    at(found, 11, 20, "unexpected end of line; expected 'else', 'or'",
       "an expression goes on to the next line only inside ( ) or [ ]", "put the whole expression in ( )")
    # Its second line is the same mistake, not one of its own; the rule after it is still checked.
    assert [(line, column) for line, column, _ in found] == [(11, 20), (13, 3)], found


def test_the_bracketed_conditional_over_two_lines_is_accepted(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME + ZONES + "counters:\n  points: {per: player, initial: 0}\n"
                    "flow: |\n  points[1] = (1 if true\n      else 2)\n" + SCORING, encoding="utf-8")
    assert load_ruleset(path).flow is not None


def test_a_missing_colon_gets_no_hint_about_brackets(tmp_path):
    found = flow_errors(tmp_path, "if true\n    pass")
    at(found, 11, 10, "unexpected end of line; expected ':'")
    assert "bracket" not in found[0][2] and "( )" not in found[0][2], found


def test_prose_cut_at_a_comma_in_braces_gets_a_hint_to_quote_it(tmp_path):
    found = errors(tmp_path, GAME + """\
zones:
  fireworks: {visibility: public, description: one firework per colour, at most five.}
counters:
  points: {per: player, initial: 0}
flow: |
  pass
""" + SCORING)
    at(found, 5, 73, "unknown key 'at most five.' in zones.fireworks",
       "'at most five.' reads like text cut at a comma", "inside { }, a comma ends a value",
       'quote a value that holds one')


def test_a_misspelt_key_gets_no_hint_about_commas(tmp_path):
    found = errors(tmp_path, GAME + """\
zones:
  deck: {visibilty: hidden}
counters:
  points: {per: player, initial: 0}
flow: |
  pass
""" + SCORING)
    at(found, 5, 10, "unknown key 'visibilty'", "did you mean 'visibility'?")
    assert "comma" not in found[0][2], found


def test_rule_text_where_a_mapping_belongs_is_quoted_by_its_first_line(tmp_path):
    """A block of rule text under a section that takes a mapping is shown as its first line,
    not as a Python string with its newlines (`'money[p]\\n'`); a function named like a call
    is told where its parameters go."""
    found = errors(tmp_path, GAME + ZONES + """\
counters:
  points: {per: player, initial: 0}
flow: |
  pass
scoring: |
  points[p]
functions:
  twice(x): |
    let y = x * 2
    return y
""")
    at(found, 12, 10, "expected a mapping in scoring, got 'points[p]'")
    at(found, 15, 13, "got 'let y = x * 2' ...")
    at(found, 15, 3, "'twice(x)' is not a valid name", "the parameters go under params:, as twice: {params: [x], ...}")
    assert not any("\\n" in m for _, _, m in found), found
