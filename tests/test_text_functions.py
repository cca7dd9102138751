"""Text in the effect language: text() of every kind of value, join() and format() (a formatter
of `{}` and `{N}` only), the error for a Python method call, faults of the wrong types told in
the language's words at the expression, and `engine validate` running what only `engine play`
shows (board displays, labels, prompts)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import EffectError, RulesetError
from engine.core.text import Text
from engine.game.game import Game
from engine.game.view import view
from engine.rules.ruleset import load_ruleset

HEAD = """\
game: {name: Words, players: [2, 3]}
constants:
  colours: [red, blue]
card_kinds:
  gem:
    zone: supply
    label: "{colour} gem"
    properties: {colour: string}
cards:
  - {kind: gem, name: Ruby, colour: red}
  - {kind: gem, name: Sapphire, colour: blue}
boards:
  map:
    layout: hex
    label: "{name}"
    properties: {name: string, cubes: integer}
    places:
      - {id: ash, q: 0, r: 0, name: Ashby, cubes: 2}
      - {id: elm, q: 1, r: 0, name: Elmwood, cubes: 0}
zones:
  supply: {}
  hand: {per: player, visibility: owner}
counters:
  said: {initial: ""}
  lines: {initial: []}
scoring:
  score: 0
"""


# A function that gives back what it is given: the load-time type check cannot tell what.
HIDDEN = "functions:\n  hidden: {params: [x], expr: x}\n"


def write(tmp_path: Path, body: str, head: str = HEAD) -> Path:
    path = tmp_path / "words.yaml"
    path.write_text(head + textwrap.dedent(body))
    return path


def said(tmp_path: Path, flow: str) -> list:
    """What the flow put in the counter `lines`, one text each."""
    path = write(tmp_path, "flow: |\n" + textwrap.indent(textwrap.dedent(flow), "  "))
    return Game(load_ruleset(path), 2, seed=1).table.counters["lines"]


def test_text_reads_every_kind_of_value(tmp_path):
    lines = said(tmp_path, """\
        lines = lines + [text([1, 2, 3])]
        lines = lines + [text(map["ash"])]
        lines = lines + [text([map["ash"], map["elm"]])]
        lines = lines + [text(map)]
        lines = lines + [text(supply)]
        lines = lines + [text(hand[2])]
        lines = lines + [text(next_player(1))]
        lines = lines + [text(4 / 2) + " " + text(5 / 2) + " " + text(7)]
        lines = lines + [text(true) + " " + text(false) + " [" + text(none) + "]"]
        lines = lines + [text(x -> x)]
        """)
    assert lines == ["1, 2, 3", "Ashby", "Ashby, Elmwood", "map", "supply", "hand P2", "P2",
                     "2 2.5 7", "true false []", "a function"]


def test_join_and_format(tmp_path):
    lines = said(tmp_path, """\
        lines = lines + [join([1, 2, 3], " - ")]
        lines = lines + [join([], ", ")]
        lines = lines + [join(neighbours(map["ash"]), "; ")]
        lines = lines + [join([c.colour for c in supply], "/")]
        lines = lines + [format("{} has {} cards", next_player(2), count(supply))]
        lines = lines + [format("{1} before {0}, {{literally}}", "b", "a")]
        lines = lines + [format("no values")]
        lines = lines + [format("{}", [map["elm"], 4 / 4])]
        let template = "{} and {}"
        lines = lines + [format(template, true, none)]
        """)
    assert lines == ["1 - 2 - 3", "", "Elmwood", "red/blue", "P1 has 2 cards", "a before b, {literally}",
                     "no values", "Elmwood, 1", "true and "]


def test_text_that_names_cards_keeps_naming_them(tmp_path):
    """join() and format() of cards give a Text: a player who may not see a card reads its back."""
    path = write(tmp_path, """\
        flow: |
          move(first(supply), hand[1])
          let ruby = first(hand[1])
          said = format("P1 holds {} ({})", ruby, join([ruby.name], ""))
          log(said)
          let wait = choose(1, ["go", "stay"], "Go on?")
        """)
    g = Game(load_ruleset(path), 2, seed=1)
    value = g.table.counters["said"]
    assert type(value) is Text and value == "P1 holds red gem (Ruby)"
    assert [c.name for c in value.cards()] == ["Ruby", "Ruby"]
    assert view(g, 1).log()[-1] == "P1 holds red gem (Ruby)"
    assert "Ruby" not in view(g, 2).log()[-1] and "red gem" not in view(g, 2).log()[-1]
    assert "face-down" in view(g, 2).log()[-1]


def test_a_template_that_names_a_card_keeps_naming_it(tmp_path):
    path = write(tmp_path, """\
        flow: |
          move(first(supply), hand[1])
          let ruby = first(hand[1])
          said = format(ruby.name + " {{x}} is worth {}", 3)
          let wait = choose(1, ["go", "stay"], "Go on?")
        """)
    g = Game(load_ruleset(path), 2, seed=1)
    value = g.table.counters["said"]
    assert type(value) is Text and value == "Ruby {x} is worth 3" and [c.name for c in value.cards()] == ["Ruby"]
    assert value.reads(lambda card: False).startswith("a face-down")


def test_fail_reads_its_parts_as_text_does(tmp_path):
    path = write(tmp_path, 'flow: |\n  fail("no route to ", map["elm"], " from ", [map["ash"]], ": ", 6 / 3, " ", true)\n')
    with pytest.raises(EffectError) as err:
        Game(load_ruleset(path), 2, seed=1)
    assert err.value.message == "no route to Elmwood from Ashby: 2 true"


@pytest.mark.parametrize("statement, column, words", [
    ('said = "".join(lines)', 13, 'did you mean join(lines, "")?'),
    ('said = ", ".join([1, 2])', 15, 'did you mean join(..., ", ")?'),
    ('said = "{} and {}".format(1, 2)', 22, 'did you mean format("{} and {}", 1, 2)?'),
    ("said = said.upper()", 15, "there is no function for 'upper'"),
    ("lines.append(3)", 9, "did you mean lines = lines + [3]?"),
    ("said = lines.count()", 16, "did you mean count(lines)?"),
    ("said = lines.shufle()", 16, "there is no function 'shufle' (did you mean 'shuffle'?)"),
])
def test_a_method_call_is_reported_with_the_function_to_use(tmp_path, statement, column, words):
    path = write(tmp_path, f"flow: |\n  {statement}\n")
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    [problem] = err.value.diagnostics
    assert (problem.location.line, problem.location.column) == (HEAD.count("\n") + 2, column)
    assert problem.message.startswith("the effect language has no methods")
    assert words in problem.message
    assert "card kind" not in problem.message


@pytest.mark.parametrize("call, words", [
    ('format("{} and {}", 1)', "this format() template takes 2 value(s), but 1 is given after it"),
    ('format("{}", 1, 2)', "this format() template takes 1 value(s), but 2 are given after it"),
    ('format("{name}", 1)', "'{name}' is not a place for a value"),
    ('format("{0.__class__}", 1)', "'{0.__class__}' is not a place for a value"),
    ('format("{:>9}", 1)', "'{:>9}' is not a place for a value"),
    ('format("{} {0}", 1)', "cannot be mixed"),
    ('format("{", 1)', "a '{' that is not closed"),
    ('format("}", 1)', "a '}' with no '{' before it"),
])
def test_a_written_out_template_is_checked_at_load_time(tmp_path, call, words):
    path = write(tmp_path, f"flow: |\n  said = {call}\n")
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    [problem] = err.value.diagnostics
    assert (problem.location.line, problem.location.column) == (HEAD.count("\n") + 2, 17)
    assert words in problem.message


@pytest.mark.parametrize("template, words", [
    ('"{} and {}"', "takes 2 value(s), given 1"),
    ('"{x.__class__}"', "is not a place for a value"),
    ("7", "format's template must be text, got a number"),
])
def test_a_computed_template_is_checked_when_it_runs(tmp_path, template, words):
    path = write(tmp_path, f"flow: |\n  let t = {template}\n  said = format(t, 1)\n")
    with pytest.raises(EffectError) as err:
        Game(load_ruleset(path), 2, seed=1)
    assert words in err.value.message
    assert err.value.location.line == HEAD.count("\n") + 3


@pytest.mark.parametrize("expression, column, words", [
    ("t + 1", 11, "cannot add text and a number with +; to join a value to text, make it text first"),
    ("1 + t", 11, "cannot add a number and text with +"),
    ("hidden(lines) - n", 11, "cannot subtract a list and a number with -"),
    ("2 * (n < t)", 16, "cannot compare a number and text with <; only numbers compare"),
    ("-t", 11, "cannot negate text with -"),
    ("1 + (nothing * n)", 16, "cannot multiply none and a number with *"),
    ("first(supply).colour + n", 11, "cannot add text and a number with +"),
    ("n in n", 11, "cannot look inside a number with in"),
    ("n(1)", 11, "a number is not a function"),
])
def test_a_type_fault_names_the_operator_and_the_types_at_the_expression(tmp_path, expression, column, words):
    """Values the load-time check cannot tell (what a function gives its parameter back) fail
    when the rule runs: the message names the operator and the types in the language's words,
    at the expression."""
    path = write(tmp_path, f'flow: |\n  let t = hidden("a")\n  let n = hidden(1)\n  let nothing = hidden(none)\n'
                           f'  let x = {expression}\n' + HIDDEN)
    with pytest.raises(EffectError) as err:
        Game(load_ruleset(path), 2, seed=1)
    e = err.value
    assert (e.location.line, e.location.column, e.rule) == (HEAD.count("\n") + 5, column, "flow")
    assert e.message.startswith(words)
    assert "str" not in e.message and "int" not in e.message and "concatenate" not in e.message


@pytest.mark.parametrize("expression, column, words", [
    ('"a" + 1', 11, "cannot add text and a number with +; to join a value to text"),
    ("1 + text(3)", 11, "cannot add a number and text with +"),
    ("limit < word", 11, "cannot compare a number and text with <"),
    ("colours - 1", 11, "cannot subtract a list and a number with -"),
    ('-"x"', 11, "cannot negate text with -"),
    ("none * 2", 11, "cannot multiply none and a number with *"),
    ('count(supply) + format("{}", 1)', 11, "cannot add a number and text with +"),
    ('2 * (("a" + "b") + 1)', 16, "cannot add text and a number with +"),
    ('(players[0] - 1) * 2 + word', 11, "cannot add a number and text with +"),
])
def test_a_type_fault_the_tree_shows_is_reported_at_load_time(tmp_path, expression, column, words):
    head = HEAD.replace("constants:\n", "constants:\n  limit: 5\n  word: w\n")
    path = write(tmp_path, f"flow: |\n  let x = {expression}\n", head)
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    [problem] = err.value.diagnostics
    assert (problem.location.line, problem.location.column) == (head.count("\n") + 2, column)
    assert problem.message.startswith(words) and problem.message.endswith("(this expression always fails)")


def test_what_the_tree_cannot_judge_is_left_to_the_game(tmp_path):
    """No false alarm: values that work (and locals, whose type the tree does not know) load."""
    head = HEAD.replace("constants:\n", "constants:\n  limit: 5\n  word: w\n")
    lines = Game(load_ruleset(write(tmp_path, """\
        flow: |
          let t = "a"
          lines = lines + ["ab" * 2 + "c", word + "s" + text(limit), text(-limit + 2 * 3 // 2 % 4)]
          lines = lines + [text([1] + colours), text(limit < 6 and word < "x"), text(-(limit))]
          lines = lines + [text(true + 1), t + "b", text(7 % limit) + text((limit + 4) % 3)]
        """, head)), 2, seed=1).table.counters["lines"]
    assert lines == ["ababc", "ws5", "-2", "1, red, blue", "true", "-5", "2", "ab", "20"]


def test_text_has_no_printf_style_templates(tmp_path):
    """`%` on text would fill a Python template with a card's label as a plain string, told to
    everyone: the language's `%` is the remainder of numbers only, and format() fills templates."""
    path = write(tmp_path, 'flow: |\n  said = "%s" % 1\n')
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    assert "cannot take the remainder of text and a number with %" in str(err.value)
    path = write(tmp_path, 'flow: |\n  let t = hidden("%s")\n  said = t % hidden(first(supply))\n' + HIDDEN)
    with pytest.raises(EffectError) as err:
        Game(load_ruleset(path), 2, seed=1)
    assert err.value.message.startswith("cannot take the remainder of text with %: to put values in text, use format")
    assert (err.value.location.line, err.value.location.column) == (HEAD.count("\n") + 3, 10)


BOARD_DISPLAY = """\
flow: |
  let wait = choose(1, ["go", "stay"], "Go on?")
"""


def test_validate_runs_a_board_display_as_play_would(tmp_path, capsys):
    head = HEAD.replace("    places:\n", "    display: place.name + hidden(place.cubes)\n    places:\n")
    path = write(tmp_path, BOARD_DISPLAY + HIDDEN, head)
    load_ruleset(path)  # it loads: only showing the board fails
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    line = head.splitlines().index("    display: place.name + hidden(place.cubes)") + 1
    assert out.strip() == (f"{path}:{line}:14: error: cannot add text and a number with +; to join a value to "
                           "text, make it text first: text(x), or use format() (in display of board map; found "
                           "by showing a newly set up game of 2 players at the terminal, as engine play does)")
    assert "Traceback" not in out + err and f"{path}: 1 error(s)" in err


def test_validate_runs_a_board_display_on_every_place(tmp_path, capsys):
    """The display fails on the one place with no cubes; a display that reads well passes."""
    head = HEAD.replace("    places:\n", "    display: text(100 // place.cubes)\n    places:\n")
    path = write(tmp_path, BOARD_DISPLAY, head)
    assert main(["validate", str(path)]) == 1
    out, _ = capsys.readouterr()
    assert out.count("error:") == 1 and "division by zero (in display of board map" in out
    fine = write(tmp_path, BOARD_DISPLAY, head.replace("100 // place.cubes", "format(\"{}:{}\", place.id, place.cubes)"))
    assert main(["validate", str(fine)]) == 0
    assert "ok (Words" in capsys.readouterr().out
    assert "ash:2" in view(Game(load_ruleset(fine), 2, seed=1), 1).boards()["map"]


def test_validate_leaves_a_game_that_cannot_be_set_up_to_simulate(tmp_path, capsys):
    path = write(tmp_path, "flow: |\n  let x = 1 // 0\n")
    assert main(["validate", str(path)]) == 0
    assert "ok (Words" in capsys.readouterr().out


def test_the_log_reads_numbers_boards_and_functions_plainly(tmp_path):
    path = write(tmp_path, """\
        flow: |
          log(7 / 2, " ", 8 / 2, " ", map, " ", x -> x, " ", true, " ", none, " ", [map["ash"], 1])
          let wait = choose(1, [4 / 2, 5 / 2], "How many?")
        """)
    g = Game(load_ruleset(path), 2, seed=1)
    assert view(g, 1).log()[-1] == "3.5 4 map a function yes nothing Ashby, 1"
    assert view(g, 1).decision["options"] == ["2", "2.5"]


@pytest.mark.parametrize("call, words", [
    ("len(lines)", "unknown function 'len'; the effect language writes it count(items)"),
    ("str(3)", "unknown function 'str'; the effect language writes it text(value)"),
])
def test_a_python_function_is_named_with_the_language_s_own(tmp_path, call, words):
    with pytest.raises(RulesetError) as err:
        load_ruleset(write(tmp_path, f"flow: |\n  said = {call}\n"))
    assert err.value.diagnostics[0].message == words


@pytest.mark.parametrize("expression, column, words", [
    ('prices[map["elm"]]', 11, "no entry the place Elmwood in that table or family"),
    ('colours[map["elm"]]', 11, "the items of a list are found by their position, a whole number, not by a place"),
    ('1 + t[map["elm"]]', 15, "the items of text are found by their position, a whole number, not by a place"),
])
def test_an_error_names_a_place_by_its_label_at_the_item(tmp_path, expression, column, words):
    head = HEAD.replace("constants:\n", "constants:\n  prices: {red: 1}\n")
    path = write(tmp_path, f'flow: |\n  let t = hidden("abc")\n  let x = {expression}\n' + HIDDEN, head)
    with pytest.raises(EffectError) as err:
        Game(load_ruleset(path), 2, seed=1)
    assert err.value.message == words
    assert (err.value.location.line, err.value.location.column) == (head.count("\n") + 3, column)


def test_the_terminal_shows_counters_in_the_words_of_the_log(tmp_path):
    from engine.game.view import render
    head = HEAD.replace("  lines: {initial: []}\n", """\
  lines: {initial: [1, 2]}
  nested: {initial: [[1, 2], 3]}
  flag: {initial: true}
  ratio: {initial: 0}
  empty: {initial: null}
  held: {per: player, initial: []}
""")
    path = write(tmp_path, "flow: |\n  ratio = 6 / 4 + 0.5\n" + BOARD_DISPLAY.split("\n", 1)[1], head)
    shown = render(view(Game(load_ruleset(path), 2, seed=1), 1))
    rows = dict(line.split(None, 1) for line in shown.splitlines()[1:] if len(line.split()) > 1)
    assert (rows["lines"], rows["nested"], rows["flag"], rows["ratio"], rows["empty"], rows["held"]) == \
        ("1, 2", "(1, 2), 3", "yes", "2", "nothing", "P1: -, P2: -")
