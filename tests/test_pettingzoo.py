"""The PettingZoo adapter: PettingZoo's own API test on every shipped ruleset, rewards, seeding,
and observations that tell no more than the player's view."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from engine import Game, IllegalMove, load_ruleset, view  # noqa: E402
from engine.adapters.common import TooManyOptions, action_bound  # noqa: E402
from engine.adapters.pettingzoo import env  # noqa: E402
from engine.core.table import Player  # noqa: E402

# PettingZoo's API test warns of any observation that is a dict, though a dict with an
# "action_mask" is its own convention for masked actions (it names its classic games as exceptions).
pytestmark = [pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
              pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")]

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))
TOR = str(ROOT / "rulesets" / "trick_of_the_rails.yaml")


def first_legal(observation) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def play_out(e, seed: int) -> list[int]:
    """Play a game of `e` to its end by first legal actions; the actions taken."""
    e.reset(seed=seed)
    taken = []
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        taken.append(first_legal(observation))
        e.step(taken[-1])
    return taken


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_pettingzoo_api_test_passes_on_every_shipped_ruleset(path):
    rules = load_ruleset(str(path))
    for players in (rules.players[0], rules.players[-1]):
        api_test(env(str(path), players=players), num_cycles=15)


def test_api_and_seed_tests_through_the_end_of_a_game():
    api_test(env(TOR, players=4), num_cycles=100)   # a game of 4 is about 55 decisions: it ends
    seed_test(lambda: env(TOR), num_cycles=20)


def test_rewards_are_ranks_and_match_the_game_replayed():
    e = env(TOR, players=4)
    taken = play_out(e, seed=1)
    assert not e.agents
    game = Game(load_ruleset(TOR), 4, seed=1, decisions=taken)
    assert game.over
    e2 = env(TOR, players=4)
    e2.reset(seed=1)
    rewards, scores = {}, None
    for agent in e2.agent_iter():
        observation, reward, terminated, truncated, info = e2.last()
        if terminated:
            rewards[agent], scores = reward, info["scores"]
            e2.step(None)
        else:
            assert not truncated
            e2.step(first_legal(observation))
    assert scores == {f"player_{int(p)}": s for p, s in game.scores().items()}
    assert sum(rewards.values()) == pytest.approx(0)
    best = max(rewards.values())
    assert {a for a, r in rewards.items() if r == best} == {f"player_{int(p)}" for p in game.winners()}
    worst = min(scores, key=scores.get)
    assert rewards[worst] == min(rewards.values()) < 0


def test_a_game_at_the_decision_cap_is_truncated_and_ranked():
    e = env(TOR, players=3, max_decisions=7)
    assert len(play_out(e, seed=2)) == 7
    e.reset(seed=2)
    for _ in range(7):
        e.step(first_legal(e.last()[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert sum(e._cumulative_rewards.values()) == pytest.approx(0)


def test_a_seed_fixes_the_game_and_reset_without_one_goes_on_to_others():
    e = env(TOR, players=4)
    e.reset(seed=9)
    first = e.observe("player_1")["observation"]
    e.reset()
    other = e.observe("player_1")["observation"]
    e.reset(seed=9)
    assert np.array_equal(e.observe("player_1")["observation"], first)
    assert not np.array_equal(other, first)


def test_observations_tell_only_what_the_view_shows():
    e = env(TOR, players=4)
    e.reset(seed=3)
    game = e._game
    me = int(game.current_player)
    agent = f"player_{me}"
    observed = e.observe(agent)["observation"]
    cards = {c.id: i for i, c in enumerate(game.rules.cards)}
    hands = game.table.zones["hand"]
    mine = game.table.cards_in(hands[Player(me)])
    theirs = [c for p in range(1, 5) if p != me for c in game.table.cards_in(hands[Player(p)])]
    assert mine and theirs
    assert len({observed[cards[c.id]] for c in mine}) == 1 and observed[cards[mine[0].id]] > 0
    assert all(observed[cards[c.id]] == 0 for c in theirs)
    # Worlds the player cannot tell from this one give the same observation.
    for seed in range(5):
        world = game.determinize(me, seed)
        assert np.array_equal(e.encoding.encode(view(world, me)), observed)
    names = e.encoding.names
    assert len(names) == len(observed) and any(n.startswith("cards in hand P") for n in names)


def test_mask_infos_and_render_follow_the_decision():
    e = env(TOR, players=3)
    e.reset(seed=4)
    agent = e.agent_selection
    observation, _, _, _, info = e.last()
    options = e._game.pending.options
    assert observation["action_mask"].sum() == len(options) == len(info["options"])
    assert observation["action_mask"].shape == (action_bound(e.setup.rules, 3),)
    others = [a for a in e.agents if a != agent]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    assert f"(you are P{agent[-1]})" in info["view"] and info["view"] == e.render()
    with pytest.raises(IllegalMove, match="action mask allows 0 to"):
        e.step(len(options))
    assert e.agent_selection == agent   # a refused action changes nothing


def test_bad_setups_get_clear_errors():
    with pytest.raises(ValueError, match="unknown option 'exprt'"):
        env(TOR, exprt=True)
    with pytest.raises(ValueError, match="is for 3, 4, 5 players, not 7"):
        env(TOR, players=7)
    e = env(TOR, players=3, max_actions=2)
    with pytest.raises(TooManyOptions, match=r"offers \d+ options, more than this adapter's 2 actions; "
                                             r"make it with max_actions=\d+"):
        e.reset(seed=1)
    assert env(TOR, players=3, expert=True).setup.options["expert"] is True


def test_human_rendering_prints_the_view_of_the_agent_to_act(capsys):
    e = env(TOR, players=3, render_mode="human")
    e.reset(seed=5)
    assert e.render() is None
    printed = capsys.readouterr().out
    assert f"(you are P{e.agent_selection[-1]})" in printed
    with pytest.raises(ValueError, match="render_mode must be"):
        env(TOR, render_mode="rgb_array")


def test_score_returns_reward_the_scores_in_both_environments():
    from engine.adapters.pettingzoo import parallel_env
    scores = {f"player_{int(p)}": float(s)  # P1 bets, P2 calls: 2 chips won or lost
              for p, s in Game(load_ruleset("kuhn"), 2, seed=4, decisions=[1, 1]).scores().items()}
    assert sorted(scores.values()) == [-2.0, 2.0]
    e = env("kuhn", returns="scores")
    e.reset(seed=4)
    e.step(1)
    e.step(1)
    assert all(e.terminations.values()) and e.rewards == scores
    table = parallel_env("kuhn", returns="scores")
    table.reset(seed=4)
    table.step({"player_1": 1})
    rewards = table.step({"player_2": 1})[1]
    assert rewards == scores and not table.agents
    with pytest.raises(ValueError, match="returns must be rank or scores"):
        env("kuhn", returns="chips")


def test_the_observation_holds_a_board_kept_in_counters():
    e = env("tictactoe")
    e.reset(seed=0)
    e.step(4)  # P1 marks cell 5
    names = e.unwrapped.encoding.names
    observed = dict(zip(names, e.observe("player_2")["observation"]))
    assert observed["mark 5"] == 1 and observed["mark 1"] == 0 and len(names) > 9


def test_identical_copies_of_a_card_are_not_told_apart():
    from engine.adapters.observation import Observation
    rules = load_ruleset("picnic")
    a, b = [c for c in rules.layout(2).cards if c.label == "bread 1"]
    encoding = Observation(rules, 2)
    for seed in range(50):  # a deal where player 1 sees one copy and not the other
        one, other = Game(rules, 2, seed=seed), Game(rules, 2, seed=seed, start={a: b, b: a})
        if one.table.can_see(a, 1) != one.table.can_see(b, 1):
            break
    assert other.table.where[b.index] == one.table.where[a.index] != one.table.where[b.index]
    mine, theirs = view(one, 1), view(other, 1)
    assert mine.as_dict() != theirs.as_dict()  # the view names the copy by its number
    assert np.array_equal(encoding.encode(mine), encoding.encode(theirs))
    assert encoding.plain(mine, None) == encoding.plain(theirs, None)
    copies = [n for n in encoding.names if n.startswith("zone of card bread 1")]
    assert copies == ["zone of card bread 1 (copy 1 of 2)", "zone of card bread 1 (copy 2 of 2)"]
