"""Every change a player can see is told to them (engine/game/told.py, issue 28).

The shipped rulesets pass the check over random games of every player count; small rulesets
written here show what it catches (a counter or a card changed silently, a point given to the
wrong player's name) and what it lets pass (a line naming the change, a value not displayed).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import Game, load_ruleset, untold
from engine.game.told import Watch

from conftest import ROOT, ruleset

# Short games for the ones that end: a small round or turn limit, so that the end is checked too.
SHORT = {"isle_of_trains": {"round_limit": "3"}, "railways": {"turn_limit": "2"}}


def cases() -> list[tuple[str, int, bool]]:
    out = []
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        for players in load_ruleset(path).players:
            out.append((path.stem, players, False))
        out.append((path.stem, load_ruleset(path).players[0], True))
    return out


@pytest.mark.parametrize("name, players, short", cases())
def test_every_change_of_a_random_game_is_told(name, players, short):
    rs = ruleset(name)
    options = rs.resolve_options(SHORT.get(name, {}) if short else {}, players)
    gaps = untold(rs, players, seed=players + 10 * short, options=options, decisions=120)
    assert not gaps, "\n".join(map(str, gaps[:5]))


GAME = """
game: {name: Told, players: [2, 3]}
card_kinds:
  number: {zone: deck, label: "{name}", properties: {value: integer}}
cards:
  - {kind: number, name: Amber, value: 1}
  - {kind: number, name: Beryl, value: 2}
  - {kind: number, name: Coral, value: 3}
  - {kind: number, name: Dune, value: 4}
  - {kind: number, name: Ember, value: 5}
  - {kind: number, name: Frost, value: 6}
  - {kind: number, name: Garnet, value: 7}
  - {kind: number, name: Heron, value: 8}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {}
  bin: {}
counters:
  pot: {initial: 0, display: DISPLAY}
  points: {per: player, initial: 0}
setup: |
  shuffle(deck)
  for p in players:
      deal(deck, hand[p], 2)
flow: |
  repeat 2:
      for p in players:
          let c = choose(p, hand[p], "Play a card")
          move(c, pile)
          log(p, " plays ", c)
          THEN
scoring:
  score: points[player]
"""


def gaps_of(tmp_path: Path, then: str, display: str = "true") -> list:
    path = tmp_path / "told.yaml"
    path.write_text(GAME.replace("THEN", then).replace("DISPLAY", display))
    rs = load_ruleset(path)
    return [gap for seed in range(3) for gap in untold(rs, 2, seed)]


def test_a_counter_changed_silently_is_caught(tmp_path):
    gaps = gaps_of(tmp_path, "pot += c.value")
    assert gaps and all(g.change.startswith("counter pot: ") for g in gaps)
    assert {g.player for g in gaps} == {1, 2}   # both see the pot
    assert "P1 plays" in str(gaps[0]) or "P2 plays" in str(gaps[0])   # what they were told


def test_a_counter_named_by_a_line_is_told(tmp_path):
    assert gaps_of(tmp_path, 'pot += c.value\n          log("The pot grows by ", c.value)') == []


def test_a_counter_not_displayed_is_not_checked(tmp_path):
    assert gaps_of(tmp_path, "pot += c.value", display="false") == []


def test_a_point_for_another_player_must_name_them(tmp_path):
    gaps = gaps_of(tmp_path, "points[next_player(p)] += 1")
    assert gaps and all(g.change.startswith("counter points of P") for g in gaps)
    told = 'points[next_player(p)] += 1\n          log(next_player(p), " scores a point")'
    assert gaps_of(tmp_path, told) == []


def test_a_card_moved_silently_is_caught_and_named_it_is_told(tmp_path):
    gaps = gaps_of(tmp_path, "move(first(deck), bin)")
    assert gaps and all(g.change.endswith("moved: deck -> bin") for g in gaps)
    assert gaps_of(tmp_path, 'let top = first(deck)\n          move(top, bin)\n          log(top, " goes to the bin")') == []


def test_a_hidden_card_drawn_is_told_by_naming_its_owner(tmp_path):
    # The other player draws: the card is face down to the one who played, and the line of the
    # play names neither it nor its zone nor the zone's owner.
    gaps = gaps_of(tmp_path, "deal(deck, hand[next_player(p)], 1)")
    assert "a face-down card" in {g.change.split(" moved")[0] for g in gaps}
    told = 'deal(deck, hand[next_player(p)], 1)\n          log(next_player(p), " draws a card")'
    assert gaps_of(tmp_path, told) == []


def test_the_exchange_shares_of_trick_of_the_rails_were_a_gap(tmp_path):
    """Issue 28: the losers of an Exchange trick kept their cards as shares with no line."""
    text = (ROOT / "rulesets" / "trick_of_the_rails.yaml").read_text()
    line = '              log(p, " keeps ", kept, " as a share")\n'
    assert line in text
    (tmp_path / "tor.yaml").write_text(text.replace(line, ""))
    gaps = untold(load_ruleset(tmp_path / "tor.yaml"), 4, seed=1, decisions=60)
    assert gaps and all(g.change.split(": ")[1].startswith("played by P") and " -> shares P" in g.change
                        for g in gaps)


def test_a_watch_follows_an_arranged_game(tmp_path):
    path = tmp_path / "told.yaml"
    path.write_text(GAME.replace("THEN", "pot += c.value").replace("DISPLAY", "true"))
    rs = load_ruleset(path)
    game = Game(rs, 2, seed=0, arrange=lambda g: None)
    watch = Watch(game)
    watch.apply(0)
    assert [g.decisions for g in watch.gaps] == [1, 1]   # the first decision, seen by both players
    assert str(watch.gaps[0]).startswith("P1, after decision 1: counter pot: 0 -> ")
