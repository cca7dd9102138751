"""How screens name counters (`label:`) and the zones of a card (a `{card}` template), on the
terminal's screen, in a rendered view and for the web page; a card a player may not see stays
unnamed in its zone's name."""
from __future__ import annotations

import pytest

from engine.core.errors import RulesetError
from engine.game.game import Game
from engine.game.view import render, view
from engine.players.screen import own_lines, table_blocks
from engine.rules.ruleset import load_ruleset

RULES = """\
game: {name: Sushi, players: [2]}
card_kinds:
  dish:
    zone: belt
    label: "{name}"
cards:
  - {kind: dish, name: Wasabi}
  - {kind: dish, name: Nigiri}
zones:
  belt: {}
  hand: {per: player, visibility: owner}
  topping: {per: card, label: "{card}'s topping"}
  plate: {per: card}
counters:
  victory_points: {per: player, initial: 3, label: Victory points}
  round_number: {initial: 1}
flow: |
  move(first(belt), hand[1])
  move(first(belt), topping[first(hand[1])])
  let c = choose(2, ["yes", "no"], "Go on?")
scoring:
  score: victory_points[player]
"""


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "sushi.yaml"
    path.write_text(RULES, encoding="utf-8")
    return Game(load_ruleset(path), 2, seed=1)


def lines(blocks) -> list[str]:
    return [line.text.strip() for block in blocks for line in block]


def test_a_counter_is_named_by_its_label(game):
    pv = view(game, 1, person=True)
    assert pv.counter_labels() == {"victory_points": "Victory points", "round_number": "round number"}
    assert pv.as_dict()["counter_labels"] == pv.counter_labels()
    screen = render(pv)
    assert "Victory points" in screen and "victory points" not in screen
    assert any(line.text.strip().startswith("P1") and "Victory points 3" in line.text for line in own_lines(pv, 80))
    assert any(line.startswith("Victory points") for line in lines(table_blocks(pv, 80, everything=True)))


def test_the_zone_of_a_card_is_named_by_its_template_as_each_player_may_see_the_card(game):
    mine = [z["label"] for z in view(game, 1, person=True).zones() if z["cards"]]
    theirs = [z["label"] for z in view(game, 2, person=True).zones() if z["cards"]]
    assert "Wasabi's topping" in mine
    assert "Wasabi's topping" not in theirs and "Wasabi" not in " ".join(theirs)


def test_a_zone_of_a_card_without_a_template_reads_label_of_card(game):
    table = game.table
    wasabi = next(c for c in table.cards if c.name == "Wasabi")
    assert view(game, 1)._label(table.zones["plate"][wasabi]) == "plate of Wasabi"


def test_a_card_template_in_a_zone_that_is_no_cards_is_a_located_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(RULES.replace("  belt: {}", '  belt: {label: "{card} belt"}'), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{path}:10:17: error: '{{card}}' in a zone's label stands for the card the zone belongs to: "
        "only a zone with 'per: card' has one"]
