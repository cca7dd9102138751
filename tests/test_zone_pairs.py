"""Zones keyed by two keys: `per: [player, colours]` makes one zone for each player and colour,
reached as `expedition[p][c]` or `expedition[p, c]`; its visibility follows the player of the
first key; views, scores, clones, snapshots and determinized worlds keep them; mistakes are
located errors."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import EffectError, RulesetError
from engine.game.game import Game
from engine.game.view import render, view
from engine.rules.ruleset import load_ruleset

EXPEDITIONS = textwrap.dedent("""\
    game: {name: Expeditions, players: [2]}
    constants:
      colours: [yellow, blue]
    card_kinds:
      card:
        zone: deck
        label: "{colour} {rank}"
        properties: {colour: string, rank: integer}
        back: [colour]
    zones:
      deck: {visibility: hidden}
      expedition: {per: [player, colours], visibility: owner}
      camp: {per: [colours, player], label: camp}
    counters:
      laid: {initial: 0}
      owners: {initial: [], display: false}
    cards:
      - {kind: card, colour: yellow, rank: 2}
      - {kind: card, colour: yellow, rank: 3}
      - {kind: card, colour: yellow, rank: 4}
      - {kind: card, colour: blue, rank: 5}
      - {kind: card, colour: blue, rank: 6}
      - {kind: card, colour: blue, rank: 7}
    flow: |
      let c = choose(1, [x for x in deck], "Lay a card")
      move(c, expedition[1][c.colour])
      for x in deck:
          if x.rank % 2 == 0:
              move(x, expedition[2, x.colour])
      for z in expedition:
          laid += count(z)
      owners = [[z.owner, z.key[1]] for z in expedition]
      move(first(expedition[2]["blue"]), camp["blue", 2])
    scoring:
      score: sum([sum([x.rank for x in z]) for z in expedition[player]])
    """)


def written(tmp_path: Path, text: str = EXPEDITIONS) -> Path:
    """The ruleset text as the file expeditions.yaml, which every located message names."""
    path = tmp_path / "expeditions.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> str:
    """The messages of loading this ruleset text, which must fail."""
    with pytest.raises(RulesetError) as caught:
        load_ruleset(written(tmp_path, text))
    return str(caught.value)


@pytest.fixture()
def rules(tmp_path: Path):
    return load_ruleset(written(tmp_path))


def played(rules, choice: int = 0) -> Game:
    game = Game(rules, 2, seed=3)
    game.apply(choice)
    return game


def zones_seen(game: Game, player: int | None) -> dict[str, list[str]]:
    return {z["label"]: [c.get("label", "hidden " + c["colour"]) for c in z["cards"]]
            for z in view(game, player).zones()}


def test_cards_are_dealt_into_the_zone_of_each_pair_and_scored(rules):
    game = played(rules)
    table = game.table
    assert set(table.zones["expedition"]) == {1, 2}
    assert set(table.zones["expedition"][1]) == {"yellow", "blue"}
    chosen = [c for c in table.cards if table.zone_of(c) is table.zones["expedition"][1][c.props["colour"]]]
    assert len(chosen) == 1
    evens = {"yellow": ["yellow 2", "yellow 4"], "blue": ["blue 6"]}
    evens = {k: [x for x in v if x != chosen[0].label] for k, v in evens.items()}
    evens["blue"] = []   # blue 6 went on to the camp
    for colour, labels in evens.items():
        assert sorted(c.label for c in table.cards_in(table.zones["expedition"][2][colour])) == labels
    assert [c.label for c in table.cards_in(table.zones["camp"]["blue"][2])] == ["blue 6"]
    zone = table.zones["expedition"][2]["blue"]
    assert zone.key == (2, "blue") and zone.label == "expedition P2 blue" and table.owner(zone) == 2
    assert table.owner(table.zones["camp"]["blue"][2]) is None   # the first key is not a player
    assert game.over
    assert chosen[0].label == "yellow 2"   # the first option
    assert table.counters["laid"] == 3   # `for z in expedition` went through all four zones
    assert table.counters["owners"] == [[1, "yellow"], [1, "blue"], [2, "yellow"], [2, "blue"]]
    ranks = {p: sum(c.props["rank"] for c in table.cards
                    if table.zone_of(c) in table.zones["expedition"][p].values()) for p in (1, 2)}
    assert game.scores() == ranks and ranks[2] > 0


def test_each_player_sees_only_their_own_expeditions(rules):
    game = played(rules)
    mine, theirs = zones_seen(game, 1), zones_seen(game, 2)
    referee = zones_seen(game, None)
    assert len(referee) == 9   # the deck, four expeditions and four camps
    for label, cards in referee.items():
        if label.startswith("expedition P1"):
            assert mine[label] == cards
            assert theirs[label] == ["hidden " + label.split()[-1]] * len(cards)
        if label.startswith("expedition P2"):
            assert theirs[label] == cards
            assert mine[label] == ["hidden " + label.split()[-1]] * len(cards)
    assert sum(len(v) for k, v in referee.items() if k.startswith("expedition P1")) == 1
    assert referee["expedition P2 yellow"] and referee["camp blue P2"] == ["blue 6"]
    assert mine["camp blue P2"] == theirs["camp blue P2"] == ["blue 6"]   # public
    keys = {z["label"]: z["key"] for z in view(game, 1).zones()}
    assert keys["expedition P1 blue"] == "P1 blue"
    shown = render(view(game, 2))
    assert "expedition P2 yellow" in shown and "yellow 4" in shown and "yellow 2" not in shown


def test_clone_snapshot_and_determinize_keep_the_zones(rules):
    game = Game(rules, 2, seed=3)
    for copy in (game.clone(), Game.from_snapshot(rules, json.loads(json.dumps(game.snapshot())))):
        copy.apply(1)
        assert copy.over and not game.over
        assert zones_seen(copy, None) == zones_seen(played(rules, 1), None)
    world = played(rules).determinize(2, seed=5)
    assert zones_seen(world, 2) == zones_seen(played(rules), 2)
    hidden = sorted(c.label for c in world.table.cards_in(world.table.zones["expedition"][1]["yellow"])
                    + world.table.cards_in(world.table.zones["expedition"][1]["blue"]))
    assert len(hidden) == 1


def test_engine_info_shows_the_family(tmp_path, capsys):
    main(["info", str(written(tmp_path))])
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["expedition", "one", "per", "player", "and", "colours", "owner"] in lines
    assert ["camp", "one", "per", "colours", "and", "player", "public"] in lines


@pytest.mark.parametrize("zone, message, where", [
    ("{per: [player, colour]}", "'per: colour' names no constant list or board (did you mean 'colours'?)", "12:30"),
    ("{per: [player, card]}", "a zone keyed by two keys cannot be per card", "12:30"),
    ("{per: [player, player]}", "names the same family twice", "12:30"),
    ("{per: [player, colours, player]}", "expected a list of 2 items in zones.expedition.per, got 3", "12:21"),
    ("{per: [colours, player], visibility: owner}", "visibility 'owner' needs", "12:52"),
    ("{per: [player, 3]}", "expected a string in zones.expedition.per[1], got 3", "12:30"),
])
def test_mistakes_are_located(tmp_path, zone, message, where):
    text = EXPEDITIONS.replace("{per: [player, colours], visibility: owner}", zone)
    text = text.replace("move(c, expedition[1][c.colour])", "move(c, deck)")
    shown = load_error(tmp_path, text)
    assert message in shown and f"expeditions.yaml:{where}" in shown, shown


def test_a_misspelt_family_in_the_rules_is_located(tmp_path):
    text = EXPEDITIONS.replace("move(x, expedition[2, x.colour])", "move(x, expediton[2, x.colour])")
    shown = load_error(tmp_path, text)
    assert "expeditions.yaml:29:19:" in shown and "expediton" in shown and "did you mean 'expedition'" in shown, shown


def test_a_wrong_key_is_a_clear_error_when_the_rule_runs(tmp_path):
    text = EXPEDITIONS.replace("move(x, expedition[2, x.colour])", "move(x, expedition[2, x.rank])")
    game = Game(load_ruleset(written(tmp_path, text)), 2, seed=3)
    with pytest.raises(EffectError, match=r"expeditions.yaml:29:19: .*no entry 4 here; entries are: 'yellow', 'blue'"):
        game.apply(0)


def test_two_keys_in_one_pair_of_brackets_only_pick_a_zone_of_two_keys(tmp_path):
    text = EXPEDITIONS.replace("move(c, expedition[1][c.colour])", "move(c, expedition[1][c.colour])\n"
                               "  let x = colours[0, 1]")
    shown = load_error(tmp_path, text)
    assert "expeditions.yaml:27:11: error: 'colours[..., ...]' picks a zone of a family keyed by two keys" in shown
    assert "'colours' is not one" in shown and "x[a][b]" in shown, shown


def test_cards_cannot_start_in_a_family_of_two_keys(tmp_path):
    shown = load_error(tmp_path, EXPEDITIONS.replace("zone: deck", "zone: expedition"))
    assert "expeditions.yaml:6:11: error: cards cannot start in 'expedition': it is one zone per player and colours" \
        in shown, shown
