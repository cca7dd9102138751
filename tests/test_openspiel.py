"""The OpenSpiel adapter: OpenSpiel's own random simulation test on every shipped ruleset, a
playthrough checked against the engine, strings read from the view only, MCTS and IS-MCTS."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from engine import Game, load_ruleset, view  # noqa: E402
from engine.adapters.common import action_bound  # noqa: E402
from engine.adapters.openspiel import register  # noqa: E402
from engine.core.table import Player  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))
TOR = str(ROOT / "rulesets" / "trick_of_the_rails.yaml")


@pytest.fixture(scope="module")
def tor():
    return register(TOR)


def play_randomly(state, rng: random.Random):
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_openspiel_random_sim_test_passes_on_every_shipped_ruleset(path):
    name = register(str(path))
    # Each check of a python game's tensor sizes sets up a game: a few short games suffice.
    game = pyspiel.load_game(name, {"max_decisions": 12})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_has_the_rulesets_players_options_and_bounds(tor):
    rules = load_ruleset(TOR)
    assert register(TOR) == tor == "engine_trick_of_the_rails"
    game = pyspiel.load_game(tor, {"players": 4, "expert": True, "max_decisions": 300})
    assert game.num_players() == 4 and game.get_parameters()["expert"] is True
    assert game.num_distinct_actions() == action_bound(rules, 4)
    assert game.max_game_length() == 300 and game.max_chance_outcomes() == 0
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game(tor, {"max_actions": 90}).num_distinct_actions() == 90


def test_a_playthrough_is_the_engines_game_ranked(tor):
    game = pyspiel.load_game(tor, {"players": 3, "seed": 5})
    state = play_randomly(game.new_initial_state(), random.Random(1))
    engine_game = state._play.game
    again = Game(load_ruleset(TOR), 3, seed=engine_game.seed, decisions=state.history())
    assert again.over and again.digest() == engine_game.digest()
    returns = state.returns()
    assert sum(returns) == pytest.approx(0) and all(-1 <= r <= 1 for r in returns)
    assert {p for p in range(3) if returns[p] == max(returns)} == {int(p) - 1 for p in again.winners()}


def test_the_seed_fixes_the_sequence_of_games(tor):
    def deals(seed):
        game = pyspiel.load_game(tor, {"seed": seed})
        return [str(game.new_initial_state()) + game.new_initial_state().information_state_string(0)
                for _ in range(3)]
    assert deals(1) == deals(1)
    assert len(set(deals(1))) == 3 and deals(1) != deals(2)


def test_clones_are_independent_and_the_cap_ends_a_game(tor):
    state = pyspiel.load_game(tor, {"seed": 2}).new_initial_state()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.history() == [] and len(copy.history()) == 1
    capped = play_randomly(pyspiel.load_game(tor, {"max_decisions": 5}).new_initial_state(), random.Random(0))
    assert len(capped.history()) == 5 and not capped._play.game.over
    assert sum(capped.returns()) == pytest.approx(0)


def test_information_comes_from_the_view_only(tor):
    state = pyspiel.load_game(tor, {"players": 3, "seed": 8}).new_initial_state()
    me = state.current_player()
    game = state._play.game
    other = (me + 1) % 3
    def labels(player):   # each card of the hand as it reads in a view as JSON
        return [f'"label": "{c.label}"' for c in game.table.cards_in(game.table.zones["hand"][Player(player + 1)])]
    hidden, mine = labels(other), labels(me)
    info = state.information_state_string(me)
    assert all(label in info for label in mine)
    assert not any(label in info for label in hidden)
    assert not any(label in str(state) for label in mine + hidden)   # the state's text is public
    # A world resampled for the player reads the same to them (and is another deal).
    worlds = [state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(0.0, 1.0)) for _ in range(3)]
    for world in worlds:
        assert world.information_state_string(me) == info
        assert world.observation_string(me) == state.observation_string(me)
        assert np.array_equal(world.observation_tensor(me), state.observation_tensor(me))
    assert any(w.information_state_string(other) != state.information_state_string(other) for w in worlds)


def test_a_resampled_world_keeps_the_decisions_counted_to_the_cap(tor):
    state = pyspiel.load_game(tor, {"max_decisions": 4, "seed": 6}).new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    world.apply_action(world.legal_actions()[0])
    assert world.is_terminal() and sum(world.returns()) == pytest.approx(0)


def test_action_strings_name_the_options(tor):
    state = pyspiel.load_game(tor, {"seed": 3}).new_initial_state()
    player = state.current_player()
    names = [state.action_to_string(player, a) for a in state.legal_actions()]
    assert names == view(state._play.game, player + 1).decision["options"]
    assert state.action_to_string((player + 1) % 3, 0) == "option 0"   # not theirs to take: no name
    # Options that read the same are told apart by their number, as OpenSpiel needs.
    railways = pyspiel.load_game(register(str(ROOT / "rulesets" / "railways.yaml")), {"seed": 0})
    rng = random.Random(0)
    seen_twin = False
    for _ in range(3):
        state = railways.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 60:
            names = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
            assert len(set(names)) == len(names)
            seen_twin = seen_twin or any("(option " in n for n in names)
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen_twin


def test_mcts_and_ismcts_bots_play_a_few_moves(tor):
    game = pyspiel.load_game(tor, {"players": 3, "seed": 4})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=rng),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rng)]
    state = game.new_initial_state()
    for turn in range(6):
        action = bots[turn % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.history()) == 6


def test_bad_parameters_get_clear_errors(tor):
    with pytest.raises(ValueError, match="is for 3, 4, 5 players, not 9"):
        pyspiel.load_game(tor, {"players": 9})
    with pytest.raises(ValueError, match="another ruleset is registered as 'engine_trick_of_the_rails'"):
        register(str(ROOT / "rulesets" / "railways.yaml"), name=tor)


def test_a_clone_copies_the_game_and_takes_no_seed(tor):
    def second_game(clone_first: bool) -> str:
        game = pyspiel.load_game(tor, {"seed": 5})
        first = game.new_initial_state()
        str(first)  # a state takes its seed when first used
        if clone_first:
            copy = first.clone()
            assert str(copy) == str(first) and copy._play.game is not first._play.game
            child = first.child(first.legal_actions()[0])
            assert child.history() == [first.legal_actions()[0]] and first.history() == []
        return str(game.new_initial_state())
    assert second_game(True) == second_game(False)


def test_states_serialize_through_the_games_snapshot():
    game = pyspiel.load_game(register("kuhn"), {"chance": "explicit"})
    state = game.new_initial_state()
    for action in (2, 0, 1):  # King to P1, Jack to P2, P1 bets
        state.apply_action(action)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)
    assert again._play.game.snapshot() == state._play.game.snapshot()
    new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(new_game) == str(game) and new_state.legal_actions() == state.legal_actions()
    pending = game.new_initial_state()
    pending.apply_action(1)  # a chance node waits: the deal's second card
    back = game.deserialize_state(pending.serialize())
    assert back.is_chance_node() and back.chance_outcomes() == pending.chance_outcomes() == [(0, 0.5), (1, 0.5)]


def test_observations_cover_a_board_in_counters_and_not_the_order_it_was_reached_in():
    game = pyspiel.load_game(register("tictactoe"))
    encoding = game.encoding
    assert [n for n in encoding.names if n.startswith("mark ")] == [f"mark {c}" for c in range(1, 10)]

    def after(cells):
        state = game.new_initial_state()
        for cell in cells:
            names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
            state.apply_action(names[cell])
        return state
    one, other = after(["1", "5", "9"]), after(["9", "5", "1"])
    for player in (0, 1):
        assert np.array_equal(one.observation_tensor(player), other.observation_tensor(player))
        assert one.observation_string(player) == other.observation_string(player)
    assert one.information_state_string(0) != other.information_state_string(0)  # the history differs
    marks = dict(zip(encoding.names, one.observation_tensor(0)))
    assert (marks["mark 1"], marks["mark 5"], marks["mark 9"], marks["mark 2"]) == (1, 2, 1, 0)
    assert not game.get_type().provides_information_state_tensor
    assert one.information_state_tensor(0) == []
