"""Simultaneous choices (`choose_each`, `choose_amount_each`, game/together.py): several players
choose at once, none told another's answer before all have answered, the rules then go on with
every answer. How rules, the state, views, saves, undo, why and the worlds see a step."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.analysis.simulate import simulate
from engine.core.errors import EffectError, IllegalMove, RulesetError
from engine.game.game import Game
from engine.game.saves import replay, resume, write_save
from engine.game.told import untold
from engine.game.view import view
from engine.players.undo import UndoHistory
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


# ---------------------------------------------------------------- everywhere a decision goes

PICNIC = Path(__file__).resolve().parent.parent / "examples" / "picnic" / "picnic.yaml"


def test_a_save_made_during_a_step_holds_none_of_its_answers_and_resumes_at_its_start(duel, tmp_path):
    game = Game(duel, 3, None, 1, decisions=[0, 2, 1, 2])  # round 2: P1 has answered
    path = tmp_path / "g.json"
    write_save(game, path)
    data = json.loads(path.read_text())
    assert data["decisions"] == [0, 2, 1] and data["state"]["together"]["answers"] == [None, None, None]
    assert data["state"]["pending"]["player"] == 1
    resumed, _, _ = resume(path)
    assert resumed.together.answers == [None, None, None] and resumed.pending.player == 1
    assert game.together.answers == [2, None, None]  # the game itself goes on as it was
    for g in (game, resumed):
        while not g.over:
            g.apply(len(g.decisions) % 3)
    path2 = tmp_path / "over.json"
    write_save(resumed, path2)
    replayed, _, _ = replay(path2)
    assert replayed.digest() == resumed.digest() and replayed.over


def test_undo_takes_back_an_answer_in_the_step_and_refuses_to_take_back_another_persons(duel):
    game = Game(duel, 2, None, 1, decisions=[0, 1])
    history = UndoHistory({1})
    history.mark(game)
    game.apply(2)                                          # P1 answers in round 2
    history.mark(game)                                     # P2 (a bot) is asked: no mark
    game.apply(0)
    history.mark(game)                                     # round 3, P1 again
    assert history.take_back(game) == "Took back your last decision."
    assert game.together.answers == [None, None] and game.pending.player == 1 and len(game.decisions) == 2
    people = UndoHistory({1, 2})
    game = Game(duel, 2, None, 1)
    people.mark(game)
    game.apply(1)
    people.mark(game)                                      # P2, after P1, in the same step
    game.apply(1)
    people.mark(game)
    assert people.take_back(game).startswith("Undo refused: it would also take back the decision of P2")


def test_the_json_view_of_a_step_says_who_has_yet_to_answer(duel):
    game = Game(duel, 3, None, 1, decisions=[1])
    dumped = json.loads(json.dumps(view(game, 3).as_dict()))
    assert dumped["decision"] == {"player": "P3", "waiting": ["P2", "P3"], "prompt": "Round 1: your sign",
                                  "options": ["rock", "paper", "scissors"]}
    assert json.loads(json.dumps(view(game, 1).as_dict()))["decision"] == {"player": "P2", "waiting": ["P2", "P3"]}


def test_every_change_a_step_makes_is_told_to_who_sees_it():
    rules = load_ruleset(PICNIC)
    for players in (2, 3, 4):
        assert untold(rules, players, seed=players) == []


def test_an_isolated_bot_plays_the_same_steps_as_in_this_process():
    rules = load_ruleset(PICNIC)

    def outcomes(isolate: str) -> list:
        report = simulate(rules, 3, 2, 5, rules.resolve_options({}, 3), seats=["mcts:iterations=10", "greedy", "random"],
                          jobs=1, isolate=isolate)
        return [(r["seed"], r["scores"], r["decisions"]) for r in report["results"]]
    assert outcomes("all") == outcomes("none")


def test_a_world_begins_the_open_step_again_and_keeps_the_players_own_answer(bids):
    game = Game(bids, 3, None, 1, decisions=[3])           # P1 bid 3; P2 and P3 have yet to bid
    world = view(game, 2).world(4)
    assert world.pending.player == 2 and world.together.answers[1:] == [None, None]
    assert world.together.options[1] == game.together.options[1]
    answers = {view(game, 3).world(seed).together.answers[0] for seed in range(12)}
    assert len(answers) > 1, "P1's bid was copied into every world"
    mine = Game(bids, 3, None, 1, decisions=[3, 2])
    assert {view(mine, 2).world(seed).together.answers[1] for seed in range(6)} == {2}  # P2's own bid


# ---------------------------------------------------------------- the adapters

# The duel with a decision of one player before each round: sequential nodes between steps.
MIXED = DUEL.replace('''      round += 1
''', '''      round += 1
      let stake = choose(round % 2 + 1, ["one", "two"], "Play this round for")
''')


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    path = tmp_path_factory.mktemp("together") / "mixed.yaml"
    path.write_text(MIXED, encoding="utf-8")
    return load_ruleset(path)


def test_pettingzoo_parallel_env_passes_the_parallel_api_test(mixed):
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from engine.adapters.pettingzoo import parallel_env
    for rules, players in ((mixed, 3), (load_ruleset(PICNIC), 4)):
        pettingzoo_test.parallel_api_test(parallel_env(rules, players), num_cycles=200)


def test_pettingzoo_parallel_env_takes_a_step_in_one_go_and_one_player_elsewhere(mixed):
    pytest.importorskip("pettingzoo")
    from engine.adapters.pettingzoo import parallel_env
    env = parallel_env(mixed, 3)
    obs, infos = env.reset(seed=1)
    assert [list(obs[a]["action_mask"][:2]) for a in env.agents] == [[0, 0], [1, 1], [0, 0]]  # P2 alone
    obs, *_ = env.step({"player_1": 0, "player_2": 1, "player_3": 0})
    assert all(list(obs[a]["action_mask"][:3]) == [1, 1, 1] for a in env.agents)  # everyone at once
    assert infos["player_2"]["options"] == ["one", "two"]
    with pytest.raises(IllegalMove):
        env.step({"player_1": 0, "player_2": 5, "player_3": 0})
    assert env._game.together.answers == [None, None, None]  # refused whole: nothing applied
    obs, rewards, *_ = env.step({"player_1": 0, "player_2": 1, "player_3": 2})
    assert view(env._game, None).log()[-3:] == ["P1 shows rock", "P2 shows paper", "P3 shows scissors"]
    assert env._game.table.counters["round"] == 2


def test_openspiel_plays_a_step_as_a_simultaneous_node(mixed):
    pyspiel = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register
    game = pyspiel.load_game(register(mixed, "engine_mixed_duel"), {"players": 3})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert state.current_player() == 1 and not state.is_simultaneous_node()
    state.apply_action(0)
    assert state.is_simultaneous_node() and state.legal_actions(0) == [0, 1, 2]
    assert state.action_to_string(2, 1) == "paper"
    state.apply_actions([0, 1, 2])
    assert state.current_player() == 0 and state.own_actions(2) == [2]
    sequential = pyspiel.load_game(register(ruleset_of("trick_of_the_rails")), {"players": 4})
    assert sequential.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL


def ruleset_of(name: str):
    return load_ruleset(Path(__file__).resolve().parent.parent / "rulesets" / f"{name}.yaml")


def test_the_type_check_knows_a_step_gives_a_table(tmp_path):
    with pytest.raises(RulesetError, match=r"cannot add a table and a number with \+"):
        with_flow(tmp_path, 'let picks = choose_each(players, ["a", "b"], "Sign")\nlet n = picks + 1')


def test_a_world_holds_no_real_answer_in_the_locals_of_the_rules_running(bids, tmp_path):
    """The table of bids is a local of the flow while the winner decides how to pay: the
    winner's worlds hold a table of bids their replays drew, never the losers' real bids."""
    path = tmp_path / "pay.yaml"
    path.write_text(BIDS.replace('''      log(best, " wins with ", bids[best])
''', '''      log(best, " wins with ", bids[best])
      let how = choose(best, ["coins", "thanks"], "Pay with")
'''), encoding="utf-8")
    rules = load_ruleset(path)
    from engine.game import belief
    seen = []
    for losing in (0, 1):
        game = Game(rules, 3, None, 1, decisions=[3, losing, 2])
        assert game.pending.player == 1 and game.frames[-1].env["bids"] == {1: 3, 2: losing, 3: 2}
        belief.forget()
        seen.append([view(game, 1).world(seed).frames[-1].env["bids"] for seed in range(6)])
    assert seen[0] == seen[1] and all(b[1] == 3 for b in seen[0])
    assert len({(b[2], b[3]) for b in seen[0]}) > 1, "the losers' bids are the same in every world"


def test_mcts_keeps_the_answers_of_a_step_apart_from_those_given_before_them(duel):
    """In the tree, P2's and P3's answers in the step P1 begins are kept at the step's node (one
    table a player), not below P1's answer: they are never chosen knowing it."""
    from engine.players.search import MctsAgent, _Node
    game = Game(duel, 3, None, 1)
    agent, root = MctsAgent(seed=1, iterations=60), _Node()
    for seed in range(60):
        agent._iterate(root, view(game, 1).world(seed, log=False))
    assert set(root.answers) == {2, 3} and set(root.answers[2]) == {"rock", "paper", "scissors"}
    below = [key for move in root.children.values() for key in move.children]
    assert below and all(key[0] == "together" and len(key[1]) == 3 for key in below)
    assert sum(root.children[i].visits for i in range(3)) == 60
    assert MctsAgent(seed=1, iterations=60).choose(view(game, 1)) in (0, 1, 2)
