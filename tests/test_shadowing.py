"""A ruleset's own names shadow the effect language's built-ins (issue 29).

A name a ruleset defines -- a function, procedure, constant, counter, zone, a parameter, a local
-- means what the ruleset says wherever it is visible, even when the language later gains a
built-in of that name: a new built-in must never break a game that worked. `engine validate
--strict` notes each such name; plain `validate` says nothing.
"""
from __future__ import annotations

import random

from engine.cli import main
from engine.game.game import Game
from engine.rules.ruleset import load_ruleset

SHADOWS = """\
game:
  name: Shadows
  players: [2]
card_kinds:
  number:
    zone: deck
    label: "{name}"
    properties: {value: integer, max: integer}   # a property named like max()
cards:
  - {kind: number, name: Amber, value: 1, max: 100}
  - {kind: number, name: Beryl, value: 2, max: 200}
  - {kind: number, name: Coral, value: 3, max: 300}
  - {kind: number, name: Dune, value: 4, max: 400}
  - {kind: number, name: Ember, value: 5, max: 500}
  - {kind: number, name: Frost, value: 6, max: 600}
  - {kind: number, name: Garnet, value: 7, max: 700, modifiers: [{modify: join, if: a == 4, value: value + 1000}]}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {}
constants:
  max: 7                  # the built-in max() returns the largest of its values
counters:
  sum: {per: player, initial: 0}      # the built-in sum() adds a list
  joined: {per: player, initial: 0}
  tally: {per: player, initial: 0}
  anything: {per: player, initial: 0}
  local: {per: player, initial: 0}
  picked: {per: player, initial: 0}
  told: {per: player, initial: 0}
  read: {per: player, initial: 0}
functions:
  join:                   # the built-in join(items, separator) makes text
    params: [a, b]
    expr: a * 10 + b
  count:                  # the built-in count() is a length
    params: [items]
    expr: 99
  any:                    # the built-in any() is true or false
    params: [items]
    expr: 7
  scaled:
    params: [abs, round]  # parameters named like built-ins
    expr: abs * round
procedures:
  shuffle:                # the built-in shuffle(zone) mixes a zone: this one leaves it as it is
    params: [zone]
    do: |
      pass
triggers:
  - on: played
    params: [first, last]
    do: |
      told[first] = last
setup: |
  shuffle(deck)
  for p in players:
      deal(deck, hand[p], 3)
flow: |
  for p in players:
      let c = choose(p, hand[p], "Play a card")
      move(c, pile)
      joined[p] = join(c.value, 2)
      sum[p] += scaled(3, 4)
      tally[p] = count(hand[p])
      anything[p] = any(x.value > 100 for x in hand[p])
      let min = max + 1
      local[p] = min
      picked[p] = [sorted_by for sorted_by in [5, 6]][1]
      read[p] = c.max + max
      emit("played", p, c.value)
scoring:
  score: sum[player] + joined[player]
"""


def _load(tmp_path, text: str = SHADOWS):
    path = tmp_path / "shadows.yaml"
    path.write_text(text)
    return path, load_ruleset(path)


def test_a_ruleset_naming_its_own_things_like_built_ins_validates(tmp_path, capsys):
    path, _ = _load(tmp_path)
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{path}: ok") and "note" not in out + err


def test_the_rulesets_meaning_wins_in_play(tmp_path):
    _, rs = _load(tmp_path)
    game = Game(rs, 2, None, 1)
    hand = [card.name for card in game.table.cards_in(game.table.zones["hand"][1])]
    assert hand == ["Amber", "Beryl", "Coral"]  # the ruleset's shuffle() left the deck in order
    while not game.over:
        game.apply(0)
    counters = game.table.counters
    p1, p2 = game.players
    # Amber, Dune: the ruleset's join() is a * 10 + b, and Garnet's modifier of it adds 1000 for a 4
    assert counters["joined"][p1] == 12 and counters["joined"][p2] == 1042
    assert counters["sum"][p1] == 12  # scaled(3, 4) with parameters abs and round
    assert counters["tally"][p1] == 99 and counters["anything"][p1] == 7
    assert counters["local"][p1] == 8 and counters["picked"][p1] == 6
    assert counters["told"][p2] == 4  # the trigger's parameters first and last
    assert counters["read"][p2] == 407  # Dune's property max, and the constant max


def test_strict_notes_each_name_that_hides_a_built_in(tmp_path, capsys):
    path, _ = _load(tmp_path)
    assert main(["validate", "--strict", str(path)]) == 0
    out, err = capsys.readouterr()
    notes = [line for line in out.splitlines() if ": note: " in line]
    line = SHADOWS.splitlines().index("  join:                   # the built-in join(items, separator) makes text") + 1
    assert f"{path}:{line}:3: note: your function 'join' hides the built-in join(items, separator)" in notes
    for said in ("your constant 'max'", "your counter 'sum'", "your procedure 'shuffle'",
                 "parameter 'abs' of function scaled", "parameter 'first' of trigger played",
                 "local 'min'", "local 'sorted_by'"):
        assert any(said in note for note in notes), said
    assert len(notes) == 11 and out.splitlines()[-1].startswith(f"{path}: ok") and err == ""


def test_a_local_may_not_hide_a_name_of_the_ruleset(tmp_path, capsys):
    """Hiding the ruleset's own name stays a mistake: both are the author's, and one is lost."""
    path = tmp_path / "clash.yaml"
    path.write_text(SHADOWS.replace("let min = max + 1", "let joined = max + 1"))
    assert main(["validate", str(path)]) == 1
    out, _ = capsys.readouterr()
    assert "'joined' is already a name of the ruleset" in out


def test_a_user_function_named_like_a_built_in_choice_asks_nobody(tmp_path):
    """The ruleset's choose_amount() is a plain function: a procedure calling it is a plain call."""
    text = SHADOWS.replace("procedures:\n", "procedures:\n  pick:\n    do: |\n      picked[1] = choose_amount(3)\n") \
        .replace("functions:\n", "functions:\n  choose_amount:\n    params: [n]\n    expr: n * 2\n") \
        .replace("  shuffle(deck)\n", "  shuffle(deck)\n  pick()\n")
    _, rs = _load(tmp_path, text)
    assert "pick" in rs.names.direct
    game = Game(rs, 2, None, 1)
    assert game.table.counters["picked"][1] == 6
