"""Amount questions (`choose_amount`): one decision of how many, instead of yes or no again for
each unit; how rules, saves, bots, the terminal and the adapters see it."""
from __future__ import annotations

import io
import random
import re

import pytest

from engine.core.errors import EffectError, IllegalMove, RulesetError
from engine.game.game import Game
from engine.game.view import view
from engine.players.agents import HumanAgent, RandomAgent
from engine.players.search import GreedyAgent, MctsAgent
from engine.rules.ruleset import load_ruleset

from conftest import options

# Each player takes coins from a pot of 7: as many as they say, from 0 to what is left and at
# most 5. The score is the coins taken; the coins left go to nobody.
RULES = """\
game: {name: Coins, players: [2]}
card_kinds:
  coin: {zone: bank}
cards:
  - {kind: coin, count: 7}
zones:
  bank: {}
counters:
  pot: {initial: 7}
  coins: {per: player, initial: 0}
flow: |
  for p in players:
      let n = choose_amount(p, 0, min(5, pot), "Take how many coins (", pot, " left)?")
      pot -= n
      coins[p] += n
      log(p, " takes ", n)
scoring:
  score: coins[player]
"""


@pytest.fixture(scope="module")
def coins(tmp_path_factory):
    path = tmp_path_factory.mktemp("amounts") / "coins.yaml"
    path.write_text(RULES, encoding="utf-8")
    return load_ruleset(path)


def with_flow(tmp_path, flow: str):
    path = tmp_path / "amount.yaml"
    path.write_text(RULES.replace(RULES[RULES.index("flow: |"):RULES.index("scoring:")],
                                  "flow: |\n  " + flow + "\n"), encoding="utf-8")
    return Game(load_ruleset(path), 2, None, 1)


def test_one_question_offers_every_amount_in_order_and_returns_the_pick(coins):
    game = Game(coins, 2, None, 1)
    assert game.pending.player == 1
    assert game.pending.options == [0, 1, 2, 3, 4, 5] and options(game) == ["0", "1", "2", "3", "4", "5"]
    assert view(game, 1).decision["prompt"] == "Take how many coins (7 left)?"
    game.apply(4)                                      # option i is the amount low + i
    assert game.pending.options == [0, 1, 2, 3]        # at most what is left
    game.apply(3)
    assert game.over and game.table.counters["coins"] == {1: 4, 2: 3} and game.table.counters["pot"] == 0
    assert view(game, 1).log()[-2:] == ["P1 takes 4", "P2 takes 3"]


def test_a_single_amount_is_not_asked_and_bounds_may_start_anywhere(tmp_path):
    game = with_flow(tmp_path, "coins[1] = choose_amount(1, 3, 3, \"How many?\")")
    assert game.over and game.decisions == [] and game.table.counters["coins"][1] == 3
    game = with_flow(tmp_path, "coins[1] = choose_amount(1, -2, 2.0, \"How many?\")")
    assert game.pending.options == [-2, -1, 0, 1, 2]
    game.apply(0)
    assert game.table.counters["coins"][1] == -2


@pytest.mark.parametrize("call, words", [
    ("choose_amount(1, 4, 2)", "choose_amount() has no amount to offer: low 4 is above high 2"),
    ("choose_amount(1, 0, 2.5)", "choose_amount()'s high must be a whole number, got a number (2.5)"),
    ('choose_amount(1, "one", 2)', "choose_amount()'s low must be a whole number, got a string"),
    ("choose_amount(1, 0, 10000000000)", "offers more than 10,000 amounts; ask in larger units"),
    ("choose_amount(9, 0, 2)", "choose() needs a player, got 9"),
])
def test_bad_bounds_are_errors_of_the_rule(tmp_path, call, words):
    with pytest.raises(EffectError) as caught:
        with_flow(tmp_path, f"coins[1] = {call}")
    assert words in str(caught.value)
    assert re.search(r"amount\.yaml:\d+:\d+: error: ", str(caught.value)) and "(in flow)" in str(caught.value)


def test_misuse_is_a_validation_error(tmp_path):
    with pytest.raises(RulesetError, match=r"amount\.yaml:\d+:\d+: error: wrong number of arguments: the "
                                           r"signature is choose_amount\(player, low, high, prompt\.\.\.\)"):
        with_flow(tmp_path, "coins[1] = choose_amount(1, 2)")


def test_a_refused_amount_changes_nothing_and_saves_and_replays_keep_it(coins):
    game = Game(coins, 2, None, 1)
    with pytest.raises(IllegalMove):
        game.apply(6)
    assert game.decisions == [] and game.pending.options == [0, 1, 2, 3, 4, 5]
    game.apply(2)
    again = Game.from_snapshot(coins, game.snapshot())
    assert again.pending.options == [0, 1, 2, 3, 4, 5] and again.pending.prompt == game.pending.prompt
    again.apply(4)
    replayed = Game(coins, 2, None, 1, decisions=[2, 4])
    assert replayed.digest() == again.digest() and replayed.scores() == {1: 2, 2: 4}


@pytest.mark.parametrize("make", [lambda: RandomAgent(3), lambda: GreedyAgent(3),
                                  lambda: MctsAgent(3, iterations=60)], ids=["random", "greedy", "mcts"])
def test_bots_answer_amount_questions(coins, make):
    game = Game(coins, 2, None, 1)
    agents = [make(), make()]
    while not game.over:
        choice = agents[game.pending.player - 1].choose(view(game, game.pending.player))
        assert choice in game.legal_actions()
        game.apply(choice)
    taken = game.table.counters["coins"]
    assert 0 <= taken[1] <= 5 and 0 <= taken[2] <= min(5, 7 - taken[1])


def test_search_bots_take_enough_to_win(coins):
    # P1 taking 4 or 5 of the 7 coins leaves P2 fewer (3 or 2): the search bots see it.
    for agent in (GreedyAgent(1), MctsAgent(1, iterations=100)):
        game = Game(coins, 2, None, 1)
        assert agent.choose(view(game, 1)) in (4, 5)


def test_a_person_types_the_amount_itself(coins):
    """The amount, not its place in a list: 0 is an answer, and 6 (above the range) is refused."""
    game = Game(coins, 2, None, 1)
    assert view(game, 1).amounts() == (0, 5)
    out = io.StringIO()
    choice = HumanAgent(stdin=io.StringIO("6\n0\n"), stdout=out).choose(view(game, 1))
    assert choice == 0 and game.pending.options[choice] == 0
    assert "Take how many coins (7 left)?" in out.getvalue()
    assert "type a number from 0 to 5" in out.getvalue() and "Choose 0-5" in out.getvalue()
    assert "6 is not an option; type a number from 0 to 5." in out.getvalue()
    assert not re.search(r"^\s+1\. 0$", out.getvalue(), re.M)  # no numbered list of amounts
    game.apply(choice)
    choice = HumanAgent(stdin=io.StringIO("5\n"), stdout=io.StringIO()).choose(view(game, 2))
    assert game.pending.options[choice] == 5


def test_options_of_other_numbers_are_chosen_by_their_place(tmp_path):
    """Numbers that are not a run from low to high (bids of 4000 and 5000) keep their list."""
    game = with_flow(tmp_path, 'choose(1, [4000, 5000], "Bid?")')
    assert view(game, 1).amounts() is None
    out = io.StringIO()
    assert HumanAgent(stdin=io.StringIO("2\n"), stdout=out).choose(view(game, 1)) == 1
    assert re.search(r"^\s+2\. 5000$", out.getvalue(), re.M)


def test_adapters_see_one_action_an_amount(coins):
    pytest.importorskip("pettingzoo")
    from engine.adapters.pettingzoo import env
    e = env(coins, max_actions=8)
    e.reset(seed=1)
    observation = e.observe(e.agent_selection)
    assert list(observation["action_mask"]) == [1] * 6 + [0] * 2
    e.step(5)                                          # action i: the amount i
    assert list(e.observe(e.agent_selection)["action_mask"]) == [1] * 3 + [0] * 5


def test_random_games_of_amounts_are_reproducible(coins):
    games = []
    for _ in range(2):
        game, rng = Game(coins, 2, None, 5), random.Random(5)
        while not game.over:
            game.apply(rng.randrange(len(game.legal_actions())))
        games.append(game.digest())
    assert games[0] == games[1]
