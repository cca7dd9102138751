"""Simultaneous choices (`choose_each`, `choose_amount_each`, game/together.py): several players
choose at once, none told another's answer before all have answered, the rules then go on with
every answer. How rules, the state, views, saves, undo, why and the worlds see a step."""
from __future__ import annotations

import json

import pytest

from engine.core.errors import EffectError, IllegalMove
from engine.game.game import Game
from engine.game.view import view
from engine.rules.ruleset import load_ruleset

# Three rounds of rock, paper, scissors for 2 or 3: a sign that beats every other sign shown wins.
DUEL = """\
game: {name: Duel, players: [2, 3]}
card_kinds:
  token: {zone: bank}
cards:
  - {kind: token}
zones:
  bank: {}
counters:
  wins: {per: player, initial: 0}
  round: {initial: 0}
functions:
  beats:
    params: [a, b]
    expr: (a == "rock" and b == "scissors") or (a == "paper" and b == "rock") or (a == "scissors" and b == "paper")
flow: |
  repeat 3:
      round += 1
      let picks = choose_each(players, ["rock", "paper", "scissors"], "Round ", round, ": your sign")
      for p in players:
          log(p, " shows ", picks[p])
      for p in players:
          if all(beats(picks[p], picks[o]) for o in players if o != p):
              wins[p] += 1
scoring:
  score: wins[player]
"""

# Each player bids for a prize at once, from 0 to what they hold (a function of the player);
# P2 holds 1 coin less each round, and the highest bid (ties: the lower seat) wins the round.
BIDS = """\
game: {name: Bids, players: [2, 3]}
card_kinds:
  token: {zone: bank}
cards:
  - {kind: token}
zones:
  bank: {}
counters:
  coins: {per: player, initial: 3}
  won: {per: player, initial: 0}
flow: |
  repeat 2:
      let bids = choose_amount_each(players, 0, p -> coins[p], p -> p, ", bid how many of your ", p -> coins[p], " coins?")
      let best = max_by(players, p -> bids[p])
      won[best] += 1
      coins[best] -= bids[best]
      log(best, " wins with ", bids[best])
      coins[2] = max(0, coins[2] - 1)
scoring:
  score: won[player]
"""


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    path = tmp_path_factory.mktemp("together") / "duel.yaml"
    path.write_text(DUEL, encoding="utf-8")
    return load_ruleset(path)


@pytest.fixture(scope="module")
def bids(tmp_path_factory):
    path = tmp_path_factory.mktemp("together") / "bids.yaml"
    path.write_text(BIDS, encoding="utf-8")
    return load_ruleset(path)


def with_flow(tmp_path, flow: str, players: int = 3) -> Game:
    path = tmp_path / "flow.yaml"
    path.write_text(DUEL.replace(DUEL[DUEL.index("flow: |"):DUEL.index("scoring:")],
                                 "flow: |\n  " + flow.replace("\n", "\n  ") + "\n"), encoding="utf-8")
    return Game(load_ruleset(path), players, None, 1)


def test_a_step_asks_each_player_in_seat_order_and_the_rules_get_every_answer_at_once(duel):
    game = Game(duel, 3, None, 1)
    step = game.together
    assert [int(p) for p in step.players] == [1, 2, 3] and step.answers == [None, None, None]
    assert game.pending.player == 1 and game.pending.options == ["rock", "paper", "scissors"]
    game.apply(0)
    assert game.pending.player == 2 and game.log == [] and game.together.answers == [0, None, None]
    game.apply(2)
    assert game.pending.player == 3 and game.log == []  # no rule ran: nothing told of an answer
    game.apply(2)
    assert game.together.answers == [None, None, None] and game.table.counters["round"] == 2
    assert view(game, None).log() == ["P1 shows rock", "P2 shows scissors", "P3 shows scissors"]
    assert game.table.counters["wins"] == {1: 1, 2: 0, 3: 0} and game.decisions == [0, 2, 2]
    assert Game(duel, 3, None, 1, decisions=[0, 2, 2]).digest() == game.digest()  # replay


def test_options_and_prompts_may_be_functions_of_the_player_and_are_computed_when_the_step_starts(bids):
    game = Game(bids, 2, None, 1)
    step = game.together
    assert step.options == [[0, 1, 2, 3], [0, 1, 2, 3]]
    assert view(game, 1).decision["prompt"] == "P1, bid how many of your 3 coins?"
    assert view(game, 1).amounts() == (0, 3) and view(game, 2).amounts() == (0, 3)
    game.apply(3)
    game.apply(1)                                     # P1 bid 3, P2 bid 1: P1 wins, spends 3
    assert game.table.counters["coins"] == {1: 0, 2: 2}
    assert game.together.answers == [0, None] and game.together.start == 2
    # P1 has a single amount (0 coins): answered for them, told as a forced choice; P2 is asked.
    assert game.pending.player == 2 and game.pending.options == [0, 1, 2]
    assert view(game, 1).forced()[-1][1].startswith("Your only option: 0 (")
    game.apply(1)
    assert game.over and game.table.counters["won"] == {1: 1, 2: 1}


def test_a_step_where_everyone_has_a_single_option_asks_nothing(tmp_path):
    game = with_flow(tmp_path, 'let picks = choose_each(players, ["rock"], "Sign")\nwins[1] = count(picks)')
    assert game.over and game.decisions == [] and game.table.counters["wins"][1] == 3


@pytest.mark.parametrize("flow, words", [
    ('let x = choose_each(players, p -> [], "Sign")', "a simultaneous choice has no option to offer P1"),
    ('let x = choose_each([1, 1], ["a", "b"], "Sign")', "asks each player once; P1 is named twice"),
    ('let x = choose_each([1, 9], ["a", "b"], "Sign")', "a simultaneous choice needs players, got 9"),
    ('let x = choose_each(1, ["a", "b"], "Sign")', "choose_each()'s first argument must be a list of players"),
    ('let x = choose_amount_each(players, 2, p -> 1, "Bid")', "choose_amount_each() has no amount to offer"),
])
def test_a_step_that_cannot_be_asked_is_a_located_error(tmp_path, flow, words):
    with pytest.raises(EffectError, match=words.replace("(", r"\(").replace(")", r"\)")) as caught:
        with_flow(tmp_path, flow)
    assert caught.value.location is not None


def test_each_player_of_the_step_sees_their_own_decision_and_who_has_yet_to_answer_never_another_answer(duel):
    game = Game(duel, 3, None, 1)
    for seat in (1, 2, 3):  # before anyone answers, each sees their own decision
        d = view(game, seat).decision
        assert d["player"] == f"P{seat}" and d["options"] == ["rock", "paper", "scissors"]
        assert d["waiting"] == ["P1", "P2", "P3"] and view(game, seat).option_count == 3
    game.apply(1)  # P1 shows paper
    d1, d2, d3 = (view(game, seat).decision for seat in (1, 2, 3))
    assert d1 == {"player": "P2", "waiting": ["P2", "P3"]} and view(game, 1).option_count == 0
    assert d2["player"] == "P2" and d3["player"] == "P3" and d3["waiting"] == ["P2", "P3"]
    assert view(game, 0).decision == {"player": "P2", "waiting": ["P2", "P3"]}
    # What P2 and P3 are told is the same whatever P1 answered.
    for seat in (2, 3):
        told = [json.dumps(view(g, seat).as_dict(), sort_keys=True) + json.dumps(view(g, seat, person=True).as_dict())
                for g in (Game(duel, 3, None, 1, decisions=[a]) for a in (0, 1, 2))]
        assert told[0] == told[1] == told[2]


def test_a_copy_a_snapshot_and_a_restore_keep_the_open_step(duel):
    game = Game(duel, 3, None, 1, decisions=[2])
    copy = game.clone()
    copy.apply(0)
    assert game.together.answers == [2, None, None] and copy.together.answers == [2, 0, None]
    again = Game.from_snapshot(duel, json.loads(json.dumps(game.snapshot())))
    assert again.together == game.together and again.pending == game.pending
    for g in (game, again):
        g.apply(0)
        g.apply(1)
    assert again.digest() == game.digest() and again.log == game.log
    game.restore(copy)
    assert game.together.answers == [2, 0, None] and game.pending.player == 3


def test_a_move_refused_in_a_step_changes_nothing(duel):
    game = Game(duel, 3, None, 1, decisions=[2])
    before = json.dumps(game.snapshot(), sort_keys=True)
    for move in (3, -1, "1", True):
        with pytest.raises(IllegalMove):
            game.apply(move)
    assert json.dumps(game.snapshot(), sort_keys=True) == before


def test_the_state_key_tells_positions_with_other_answers_apart(duel):
    keys = {Game(duel, 3, None, 1, decisions=[a]).state_key() for a in (0, 1, 2)}
    assert len(keys) == 3


def test_why_asked_by_a_player_of_the_step_answers_of_their_own_decision(duel):
    game = Game(duel, 3, None, 1, decisions=[0])
    assert view(game, 3).why("rock") == ["rock is offered: it is one of your options."]
    assert view(game, 1).why("rock") == ["You have no decision to make now, so nothing is left out of one."]
