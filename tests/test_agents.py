"""The bots (random, greedy, mcts, your own class): seats as text, reproducible decisions, and
the information discipline: a bot decides from its view and worlds its player cannot tell
apart, so a swap of two cards its player has never seen changes nothing it does."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.analysis.simulate import simulate
from engine.core.errors import EngineError
from engine.core.table import Card
from engine.game import belief
from engine.game.game import Game
from engine.game.view import view
from engine.players.agents import make_agent, make_agents, parse_seat
from engine.players.loop import play
from engine.players.scout import ScoutAgent
from engine.players.search import GreedyAgent, MctsAgent, outcome, standing
from engine.rules.ruleset import load_ruleset

from conftest import position_with_secrets, swap

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("rulesets/trick_of_the_rails.yaml", 4), ("rulesets/isle_of_trains.yaml", 3),
         ("rulesets/trainsilvania.yaml", 3), ("rulesets/railways.yaml", 3),
         ("examples/guide/step5_options_triggers_modifiers.yaml", 3),
         ("examples/lamplighters/lamplighters.yaml", 2)]
RULES = {path: load_ruleset(ROOT / path) for path, _ in GAMES}
SMALL = {"greedy": lambda seed: GreedyAgent(seed), "mcts": lambda seed: MctsAgent(seed, iterations=12, depth=6),
         "scout": lambda seed: ScoutAgent(seed, lines=8, worlds=3),
         "scout-playouts": lambda seed: ScoutAgent(seed, playouts=4, worlds=2)}


# ---------------------------------------------------------------- seats as text

def test_a_seat_is_a_kind_with_parameters():
    assert parse_seat("mcts") == ("mcts", {})
    assert parse_seat("mcts:iterations=400:c=1.5:depth=0") == ("mcts", {"iterations": 400, "c": 1.5, "depth": 0})
    assert parse_seat("mybots.cautious:Careful:risk=low") == ("mybots.cautious:Careful", {"risk": "low"})
    assert parse_seat("examples/agents/flat_monte_carlo.py:FlatMonteCarlo") == \
        ("examples/agents/flat_monte_carlo.py:FlatMonteCarlo", {})
    agent = make_agent("mcts:iterations=7:depth=0", 1)
    assert isinstance(agent, MctsAgent) and (agent.iterations, agent.depth) == (7, 0)


@pytest.mark.parametrize("seat, message", [
    ("mtcs", "unknown seat kind 'mtcs' (did you mean 'mcts'?)"),
    ("mcts:iterations", "'iterations' is not a parameter; write name=value"),
    ("mcts:iteration=3", "mcts has no parameter 'iteration' (did you mean 'iterations'?)"),
    ("greedy:worlds=many", "seat 'greedy:worlds=many'"),
    ("no/such/file.py:Agent", "cannot import no/such/file.py"),
    ("examples/agents/flat_monte_carlo.py:Nobody", "has no class Nobody"),
    ("human:x=1", "a human seat takes no parameters"),
])
def test_a_bad_seat_says_what_is_wrong(seat, message):
    with pytest.raises(EngineError) as caught:
        make_agent(seat, 1)
    assert message in str(caught.value)


def test_your_own_agent_class_from_a_file(monkeypatch):
    monkeypatch.chdir(ROOT)
    rules, n = RULES["rulesets/trick_of_the_rails.yaml"], 4
    agents = make_agents(["examples/agents/flat_monte_carlo.py:FlatMonteCarlo:playouts=1"] + ["random"] * 3, 5)
    assert type(agents[0]).__name__ == "FlatMonteCarlo" and agents[0].playouts == 1
    game = play(Game(rules, n, seed=5, keep_log=False), agents)
    assert game.over


def test_a_rulesets_bot_defaults_apply_and_a_seats_own_parameters_win():
    defaults = RULES["rulesets/trick_of_the_rails.yaml"].bots
    assert defaults["mcts"] == {"depth": 0}
    plain, own, greedy = make_agents(["mcts", "mcts:depth=5:iterations=9", "greedy"], 1, defaults=defaults)
    assert (plain.depth, plain.iterations) == (0, MctsAgent(1).iterations)
    assert (own.depth, own.iterations) == (5, 9)
    assert isinstance(greedy, GreedyAgent)
    assert make_agents(["mcts"], 1)[0].depth == MctsAgent(1).depth != 0  # no ruleset: the engine's default


def test_a_simulation_gives_its_bots_the_rulesets_defaults(monkeypatch):
    import engine.analysis.run
    given = []
    real = engine.analysis.run.make_agents
    monkeypatch.setattr(engine.analysis.run, "make_agents",
                        lambda seats, seed, **kw: given.append(kw.get("defaults")) or real(seats, seed, **kw))
    rules = RULES["rulesets/trick_of_the_rails.yaml"]
    simulate(rules, 4, 1, 1, rules.resolve_options({}, 4), jobs=1)
    assert given == [rules.bots] and given[0]["mcts"] == {"depth": 0}


# ---------------------------------------------------------------- rewards

def test_standing_ranks_players_whatever_the_scale():
    assert standing({1: 10, 2: 30, 3: 20}) == {1: 0.0, 2: 1.0, 3: 0.5}
    assert standing({1: -5.0, 2: -5.0}) == {1: 0.5, 2: 0.5}
    assert standing({1: 3}) == {1: 1.0}


def test_a_finished_game_rewards_its_winners_first():
    rules = RULES["rulesets/trick_of_the_rails.yaml"]
    game = play(Game(rules, 4, seed=3, keep_log=False), make_agents(["random"] * 4, 3))
    reward, value = outcome(game)
    winners = game.winners()
    assert all(reward[w] == max(reward.values()) for w in winners)
    assert all(reward[p] < reward[winners[0]] for p in game.players if p not in winners)
    assert value == game.scores()


def test_score_weight_mixes_the_own_score_into_the_rank_reward():
    """A rank that cannot change leaves the own score to decide, as much as score_weight says."""
    from engine.players.search import MctsAgent, _Node
    node = _Node()
    node.visits, node.reward, node.value = 2, 1.0, 10.0  # mean rank 0.5, mean value 5
    by_rank = MctsAgent(1)
    assert by_rank._mean(node) == 0.5
    mixed = MctsAgent(1, score_weight=0.5)
    mixed._low, mixed._high = 0.0, 20.0  # value 5 is a quarter of the way up
    assert mixed._mean(node) == 0.5 * 0.5 + 0.5 * 0.25
    mixed._low = mixed._high = 5.0  # no spread yet: the value says nothing
    assert mixed._mean(node) == 0.5 * 0.5 + 0.5 * 0.5


def test_a_ruleset_sets_the_score_weight_of_its_mcts_seats():
    rules = RULES["rulesets/railways.yaml"]
    agent = make_agents(["mcts"], 1, defaults=rules.bots)[0]
    assert agent.score_weight == 0.5
    assert make_agents(["mcts:score_weight=0"], 1, defaults=rules.bots)[0].score_weight == 0


# ---------------------------------------------------------------- reproducible, and they play

def _first_real_decision(rules, players, seed, moves=5):
    """A game after `moves` random decisions, at a decision with more than one option."""
    game = Game(rules, players, seed=seed, keep_log=False)
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.randrange(len(game.legal_actions())))
    assert not game.over and len(game.legal_actions()) > 1
    return game


@pytest.mark.parametrize("kind", sorted(SMALL))
@pytest.mark.parametrize("path, players", GAMES)
def test_the_same_seed_makes_the_same_decision(path, players, kind):
    game = _first_real_decision(RULES[path], players, 11)
    me = game.current_player
    picks = {SMALL[kind](seed=4).choose(view(game, me)) for _ in range(2)}
    assert len(picks) == 1 and 0 <= picks.pop() < len(game.legal_actions())


@pytest.mark.parametrize("path, players", GAMES)
def test_greedy_and_mcts_play_a_game(path, players):
    rules = RULES[path]
    game = Game(rules, players, seed=2, keep_log=False)
    agents = [SMALL["mcts"](1), SMALL["greedy"](2)] + make_agents(["random"] * (players - 2), 3)
    rng = random.Random(0)
    for _ in range(40):  # some decisions of every kind of bot; a whole game would take long
        if game.over:
            break
        agent = agents[game.current_player - 1]
        choice = agent.choose(view(game, game.current_player))
        assert choice in game.legal_actions()
        game.apply(choice if rng.random() < 0.9 else game.legal_actions()[-1])


def test_mcts_stops_once_its_choice_is_settled_and_chooses_as_if_it_had_not(monkeypatch):
    """The search stops when the most visited move leads the next by more than the iterations
    left: the choice is the one the whole budget would have made, with fewer iterations."""
    counted = []
    original = MctsAgent._iterate

    def counting(self, root, world):
        counted.append(self)
        return original(self, root, world)
    monkeypatch.setattr(MctsAgent, "_iterate", counting)
    settled = MctsAgent.__dict__["_settled"]  # the staticmethod itself
    stopped = 0
    for path, players in GAMES:
        for seed in (11, 12):
            game = _first_real_decision(RULES[path], players, seed)
            me = game.current_player
            monkeypatch.setattr(MctsAgent, "_settled", settled)
            early = MctsAgent(5, iterations=120, depth=4)
            pick = early.choose(view(game, me))
            monkeypatch.setattr(MctsAgent, "_settled", staticmethod(lambda root, n, left: False))
            whole = MctsAgent(5, iterations=120, depth=4)
            assert whole.choose(view(game, me)) == pick, (path, seed)
            assert counted.count(whole) == 120
            stopped += counted.count(early) < 120
    assert stopped, "no search stopped early: the test could not fail"


def test_mcts_stops_early_where_one_move_is_plainly_best():
    """Trick of the Rails' first decisions of a game: most often settled well before the budget."""
    rules = RULES["rulesets/trick_of_the_rails.yaml"]
    game = Game(rules, 4, seed=3, keep_log=False)
    agent, used = MctsAgent(2, iterations=200, depth=0), []
    original = MctsAgent._iterate
    for _ in range(6):
        calls = []
        agent._iterate = lambda root, world, calls=calls: calls.append(1) or original(agent, root, world)
        game.apply(agent.choose(view(game, game.current_player)))
        used.append(len(calls))
    assert min(used) < 200, used


def test_mcts_finds_a_won_trick_of_the_rails_more_often_than_chance():
    """Small budget, few games: a sign of purpose, not a measure of strength (that is
    benchmarks/bots.py)."""
    rules = RULES["rulesets/trick_of_the_rails.yaml"]
    report = simulate(rules, 4, 8, 1, rules.resolve_options({}, 4), seats=["mcts:iterations=40"] + ["random"] * 3)
    assert report["seats"][0] == "mcts:iterations=40"
    assert report["totals"]["win_share_by_seat"]["P1"] > 0.25


# ---------------------------------------------------------------- scout, the fast seat

SHIPPED = [("trick_of_the_rails", 4, {}), ("isle_of_trains", 3, {"round_limit": "100"}), ("trainsilvania", 3, {}),
           ("railways", 3, {})]


@pytest.mark.parametrize("name, players, given", SHIPPED)
def test_scout_plays_a_whole_game_of_every_shipped_ruleset_with_legal_choices(name, players, given):
    """With the ruleset's own settings (bots: scout:), but a smaller budget: a sign that it plays
    to the end, not a measure of speed or strength (that is benchmarks/bots.py)."""
    rules = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    settings = {**rules.bots.get("scout", {}), "lines": 4, "worlds": 2}
    if "playouts" in settings:
        settings["playouts"] = 2
    game = Game(rules, players, rules.resolve_options(given, players), seed=4, keep_log=False)
    agents = [ScoutAgent(seed=7, **settings)] + make_agents(["random"] * (players - 1), 4)
    while not game.over and len(game.decisions) < 3000:
        me = game.current_player
        choice = agents[me - 1].choose(view(game, me))
        assert choice in game.legal_actions()
        game.apply(choice)
    assert game.over


def test_scout_follows_its_plan_only_while_it_sees_what_the_plan_saw():
    """Isle of Trains: a turn is many decisions. After planning at the first, the scout takes
    the planned steps without searching again, and plans anew when the view differs."""
    rules = RULES["rulesets/isle_of_trains.yaml"]
    game = Game(rules, 3, rules.resolve_options({"round_limit": "100"}, 3), seed=2, keep_log=False)
    scout = ScoutAgent(seed=3, lines=6, worlds=2)
    searched = followed = 0
    real = scout._plan_run
    def counting(pv, n):
        nonlocal searched
        searched += 1
        return real(pv, n)
    scout._plan_run = counting
    for _ in range(120):
        me = game.current_player
        if me == 1:
            planned = list(scout._plan)
            before = searched
            choice = scout.choose(view(game, me))
            if searched == before and view(game, me).option_count > 1:
                followed += 1
                assert planned and planned[0][1] == choice
        else:
            choice = random.Random(len(game.decisions)).randrange(len(game.legal_actions()))
        game.apply(choice)
    assert searched > 0 and followed > 0


def test_a_scout_play_out_stops_at_its_depth_in_a_game_random_play_does_not_end(monkeypatch):
    """Isle of Trains with no round limit: random players play on for thousands of decisions. A
    play-out stops after `depth` of them, and the heuristic ranks the players there."""
    rules = RULES["rulesets/isle_of_trains.yaml"]
    game = Game(rules, 3, rules.resolve_options({"round_limit": "0"}, 3), seed=4, keep_log=False)
    while len(game.legal_actions()) < 2:
        game.apply(0)
    applied = []
    original = Game.apply
    monkeypatch.setattr(Game, "apply", lambda g, i: applied.append(1) or original(g, i))
    choice = ScoutAgent(1, playouts=4, worlds=2, depth=5).choose(view(game, game.current_player))
    assert 0 <= choice < len(game.legal_actions())
    assert 0 < len(applied) <= 4 * (1 + 5), len(applied)


def test_a_scout_seat_takes_its_parameters_and_the_rulesets_defaults():
    rules = RULES["rulesets/trick_of_the_rails.yaml"]
    plain, own = make_agents(["scout", "scout:playouts=3"], 1, defaults=rules.bots)
    assert isinstance(plain, ScoutAgent) and plain.playouts == rules.bots["scout"]["playouts"] > 0
    assert own.playouts == 3
    assert make_agent("scout", 1).playouts == 0  # no ruleset: plans by the heuristic
    with pytest.raises(EngineError, match="scout has no parameter 'iterations'"):
        make_agent("scout:iterations=3", 1)


# ---------------------------------------------------------------- the information test

@pytest.mark.parametrize("kind", sorted(SMALL))
@pytest.mark.parametrize("path, players", GAMES)
def test_a_bot_decides_the_same_when_cards_it_never_saw_are_swapped(path, players, kind):
    game, (a, b) = position_with_secrets(RULES[path], players)
    me = game.current_player
    dealt = dict(belief.counts)
    swapped = game.clone()
    swap(swapped, a, b)
    assert swapped.digest() != game.digest(), "the swap changed nothing: the test could not fail"
    assert view(swapped, me).as_dict() == view(game, me).as_dict()
    # The worlds the bot thinks in are the same table, card for card...
    for seed in (1, 2):
        w1, w2 = view(game, me).world(seed), view(swapped, me).world(seed)
        assert w1.digest() == w2.digest() and w1.state_key() == w2.state_key()
    # ...so are its decisions, move after move.
    bot1, bot2 = SMALL[kind](seed=9), SMALL[kind](seed=9)
    for _ in range(3):
        if game.over:
            break
        me = game.current_player
        pick = bot1.choose(view(game, me))
        assert bot2.choose(view(swapped, me)) == pick
        game.apply(pick)
        swapped.apply(pick)
    if path.startswith("examples/lamplighters"):  # its players are told of their own cards
        assert belief.counts["belief"] > dealt.get("belief", 0), "no world agreed with what was told: " \
            "the test did not reach the belief sampler"


def test_a_world_keeps_no_secret_of_the_real_game():
    """Its seed is its own, it has no past decisions, and in its log every card its player
    did not see is a stand-in: the first card of the ruleset with the same kind and back."""
    hidden = 0  # cards logged unseen, over all games (the guide's game logs some early)
    for path, players in GAMES:
        game, _ = position_with_secrets(RULES[path], players)
        me = game.current_player
        world = view(game, me).world(77)
        assert world.seed == 77 and world.decisions == []
        assert view(world, me).log() == view(game, me).log()
        for real, told in zip(game.log, world.log, strict=True):
            for (value, seen), (kept, _) in zip(real.parts, told.parts, strict=True):
                if isinstance(value, Card) and seen is not None and me not in seen:
                    hidden += 1
                    assert kept is next(c for c in game.table.cards if c.kind == value.kind and c.back == value.back)
                else:
                    assert kept is value
    assert hidden > 0, "no log line named an unseen card: the test could not fail"
