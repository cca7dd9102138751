"""A log line for some players only (`log_to`): the players it is to read it, the referee too,
and nobody else ever does, through their view, screen, terminal, the worlds their bots think in
or what those bots observe; two games that differ only in such a line to P1 tell P2 the same."""
from __future__ import annotations

import json

import pytest

from engine.core.errors import EffectError
from engine.game.game import Game
from engine.game.view import observed, render, view
from engine.rules.ruleset import load_ruleset

from test_noninterference import terminal, told

RULES = """\
game: {name: Whispers, players: [2, 3]}
card_kinds:
  gem:
    zone: bag
    label: "{name}"
    properties: {colour: string}
cards:
  - {kind: gem, name: Ruby, colour: red}
  - {kind: gem, name: Opal, colour: white}
  - {kind: gem, name: Jade, colour: green}
  - {kind: gem, name: Onyx, colour: black}
zones:
  bag: {visibility: hidden}
  hand: {per: player, visibility: owner}
  shown: {}
counters:
  points: {per: player, initial: 0}
setup: |
  deal(bag, hand[1], 1)
  deal(bag, hand[2], 1)
flow: |
  log("a public line")
  log_to(1, "you keep ", first(hand[1]), ": the word is SECRET")
  move(first(bag), shown)
  log_to([1, 2], "P1 and P2 share ", first(shown))
  log_to(1, "and do not see ", first(hand[2]))
  let a = choose(2, ["yes", "no"], "Go on?")
  let b = choose(1, ["yes", "no"], "Done?")
scoring:
  score: points[player]
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    def load(word: str):
        path = tmp_path_factory.mktemp("whispers") / "whispers.yaml"
        path.write_text(RULES.replace("SECRET", word), encoding="utf-8")
        return load_ruleset(path)
    return load


def test_the_players_it_is_to_read_it_and_no_one_else(rules):
    game = Game(rules("swordfish"), 3, seed=1)
    assert view(game, 1).log() == ["a public line", "you keep Ruby: the word is swordfish",
                                   "P1 and P2 share Jade", "and do not see a face-down card"]
    assert view(game, 2).log() == ["a public line", "P1 and P2 share Jade"]
    assert view(game, 3).log() == ["a public line"]
    assert len(view(game, None).log()) == 4  # the referee's record keeps every line


@pytest.mark.parametrize("seat", [2, 3])
def test_nothing_of_a_line_to_p1_reaches_another_seat(rules, seat, monkeypatch, capsys):
    game = Game(rules("swordfish"), 3, seed=1)
    for shown in [*told(game, seat).values(), render(view(game, seat, person=True), log_lines=99),
                  json.dumps(observed(game, seat, 0, 0, True), default=str)]:
        assert "swordfish" not in shown and "you keep" not in shown and "Ruby" not in shown and "do not" not in shown
    world = view(game, seat).world(2)
    assert all("swordfish" not in str(v) and "keep" not in str(v) for e in world.log for v, _ in e.parts)
    assert [view(world, seat).log()] == [view(game, seat).log()]


@pytest.mark.parametrize("seat", [2, 3])
def test_two_games_that_differ_only_in_a_line_to_p1_tell_another_seat_the_same(rules, seat, monkeypatch, capsys):
    one, other = Game(rules("swordfish"), 3, seed=1), Game(rules("marlin"), 3, seed=1)
    assert view(one, 1).log() != view(other, 1).log()  # the test could fail
    assert told(one, seat) == told(other, seat)
    for seed in (1, 2):
        assert told(view(one, seat).world(seed), seat) == told(view(other, seat).world(seed), seat)
    if seat == 2:
        assert terminal(one, seat, monkeypatch, capsys) == terminal(other, seat, monkeypatch, capsys)


def test_a_line_to_a_player_survives_a_save(rules):
    game = Game(rules("swordfish"), 2, seed=1)
    again = Game.from_snapshot(game.rules, json.loads(json.dumps(game.snapshot())))
    assert view(again, 1).log() == view(game, 1).log()
    assert view(again, 2).log() == view(game, 2).log() == ["a public line", "P1 and P2 share Jade"]


def test_a_line_to_no_player_is_an_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(RULES.replace('log_to(1, "you keep "', 'log_to(7, "you keep "'), encoding="utf-8")
    with pytest.raises(EffectError, match="expected a player, got a number"):
        Game(load_ruleset(path), 2, seed=1)
