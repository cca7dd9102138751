"""Any ruleset as a PettingZoo AEC environment: `env(ruleset, players=N, **options)`.

Agents are `player_1` ... `player_N` (the engine's P1 ... PN); the one whose decision is
pending acts. The action space is `Discrete(max_actions)` (common.py: a bound the ruleset
gives, or yours), and an action is the index of an option, as `Game.apply` takes it; an
action outside the mask raises `IllegalMove`. An agent's observation is a dict: "observation",
the vector of what it may know (observation.py), and "action_mask", 1 for each option it
has now. Both are made from its `PlayerView` alone; `infos[agent]` of the agent to act holds
the same view as text ("view") and its options' names ("options").

Rewards come at the end, by rank (common.rank_rewards: +1 to beat everyone, -1 to be beaten
by all, summing to 0), or with `returns="scores"` the final scores themselves; `infos` then
hold the "scores". A game cut at `max_decisions` ends
with truncations instead of terminations, ranked as it stands. `reset(seed=S)` deals game S;
`reset()` the next game of the sequence the last seed began.

`parallel_env(ruleset, players=N, **options)` is the same game as a parallel environment: at a
simultaneous step (`choose_each`) every player of it acts in one step, each seeing only their
own view; elsewhere the one player whose turn it is acts alone, the others' masks all 0.
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..core.errors import IllegalMove
from ..game.game import Game
from ..game.view import render, view
from ..rules.ruleset import Ruleset
from .common import MAX_DECISIONS, RETURNS, Setup, rewards
from .observation import Observation


def env(ruleset: str | Ruleset, players: int | None = None, *, max_actions: int | None = None,
        max_decisions: int = MAX_DECISIONS, render_mode: str | None = None, returns: str = "rank",
        **options: Any) -> RulesetEnv:
    """A PettingZoo AEC environment of `ruleset` (a path or a shipped name) for `players`
    (default: its fewest), rewarded by rank or by score (`returns`); `options` are the
    ruleset's, as `--option NAME=VALUE`."""
    return RulesetEnv(Setup.of(ruleset, players, options, max_actions, max_decisions), render_mode, returns)


class RulesetEnv(AECEnv):
    """The AEC environment of one ruleset at one player count."""

    def __init__(self, setup: Setup, render_mode: str | None = None, returns: str = "rank"):
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        if returns not in RETURNS:
            raise ValueError(f"returns must be {' or '.join(RETURNS)}, not {returns!r}")
        self.setup = setup
        self.render_mode, self.returns = render_mode, returns
        self.metadata = {"name": f"engine_{setup.rules.name}", "render_modes": ["human", "ansi"],
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{i}" for i in range(1, setup.players + 1)]
        self.encoding = Observation(setup.rules, setup.players)
        vector = spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32)
        mask = spaces.Box(0, 1, (setup.max_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": vector, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(setup.max_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self._game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self._game = self.setup.new_game(seed if seed is not None else self._seeds.getrandbits(64))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._next()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        if action is None or not 0 <= int(action) < len(game.pending.options):
            raise IllegalMove(f"action {action!r} is not legal for {agent} here; "
                              f"the action mask allows 0 to {len(game.pending.options) - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        game.apply(int(action))
        self.setup.check(game)
        self._clear_rewards()
        self._next()

    def _next(self) -> None:
        """Whose turn it is, or, at the end, rewards and terminations (or truncations) for all."""
        game = self._game
        if not self.setup.ended(game):
            self.agent_selection = self.possible_agents[int(game.current_player) - 1]
            pv = view(game, int(game.current_player))
            self.infos[self.agent_selection] = {"view": render(pv), "options": pv.decision["options"]}
        else:
            ended = self.terminations if game.over else self.truncations
            scores = game.scores()
            for p, reward in rewards(game, self.returns).items():
                agent = self.possible_agents[p - 1]
                self.rewards[agent] = reward
                ended[agent] = True
                self.infos[agent] = {"scores": {f"player_{int(q)}": s for q, s in scores.items()}}
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent) + 1
        pv = view(self._game, player)
        mask = np.zeros(self.setup.max_actions, dtype=np.int8)
        if not self.setup.ended(self._game) and player == self._game.current_player:  # one at a time
            mask[:pv.option_count] = 1
        return {"observation": self.encoding.encode(pv), "action_mask": mask}

    def render(self) -> str | None:
        """The view of the agent to act (at the end, of the last), as text."""
        if self._game is None:
            return None
        return _shown(self._game, self.possible_agents.index(self.agent_selection) + 1, self.render_mode)

    def close(self) -> None:
        self._game = None


def parallel_env(ruleset: str | Ruleset, players: int | None = None, *, max_actions: int | None = None,
                 max_decisions: int = MAX_DECISIONS, render_mode: str | None = None, returns: str = "rank",
                 **options: Any) -> RulesetParallelEnv:
    """A PettingZoo parallel environment of `ruleset`: at each step, every agent who has a
    decision acts at once (all the players of a simultaneous step, `choose_each`; elsewhere the
    one whose turn it is), the others' actions being ignored (their action mask is all 0)."""
    return RulesetParallelEnv(Setup.of(ruleset, players, options, max_actions, max_decisions), render_mode, returns)


class RulesetParallelEnv(ParallelEnv):
    """The parallel environment of one ruleset at one player count. An agent's observation and
    infos are the AEC environment's (its view alone); a step takes the actions of the agents
    whose action mask is not all 0, and refuses (IllegalMove, the game unchanged) an action of
    theirs that is missing or outside their mask."""

    def __init__(self, setup: Setup, render_mode: str | None = None, returns: str = "rank"):
        aec = RulesetEnv(setup, render_mode, returns)
        self.setup, self.render_mode, self.encoding, self.returns = setup, render_mode, aec.encoding, returns
        self.metadata = {**aec.metadata, "is_parallelizable": True}
        self.possible_agents = list(aec.possible_agents)
        self.observation_spaces, self.action_spaces = aec.observation_spaces, aec.action_spaces
        self._seeds = random.Random()
        self._game: Game | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._seeds = random.Random(seed)
        self._game = self.setup.new_game(seed if seed is not None else self._seeds.getrandbits(64))
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def _acting(self) -> list[int]:
        """The players who act at this step: those of the open simultaneous step who have yet to
        answer, in seat order, else the one whose decision is pending."""
        game = self._game
        if self.setup.ended(game):
            return []
        return [int(p) for p in game.together.waiting()] if game.together is not None else [int(game.current_player)]

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        game, acting = self._game, self._acting()
        for p in acting:
            action = actions.get(self.possible_agents[p - 1])
            count = len(game.decision_of(p).options)
            if action is None or not 0 <= int(action) < count:
                raise IllegalMove(f"action {action!r} is not legal for player_{p} here; "
                                  f"the action mask allows 0 to {count - 1}")
        for p in acting:  # in seat order: each is the pending decision in turn
            game.apply(int(actions[self.possible_agents[p - 1]]))
        self.setup.check(game)
        given = {a: 0.0 for a in self.agents}
        terminations = {a: False for a in self.agents}
        truncations = {a: False for a in self.agents}
        observations, infos = self._observations(), self._infos()
        if self.setup.ended(game):
            ended = terminations if game.over else truncations
            scores = {f"player_{int(q)}": s for q, s in game.scores().items()}
            for p, reward in rewards(game, self.returns).items():
                agent = self.possible_agents[p - 1]
                given[agent], ended[agent] = reward, True
                infos[agent] = {"scores": scores}
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, given, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        acting = set(self._acting())
        out = {}
        for agent in self.agents:
            player = self.possible_agents.index(agent) + 1
            pv = view(self._game, player)
            mask = np.zeros(self.setup.max_actions, dtype=np.int8)
            if player in acting:
                mask[:pv.option_count] = 1
            out[agent] = {"observation": self.encoding.encode(pv), "action_mask": mask}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        acting = set(self._acting())
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            player = self.possible_agents.index(agent) + 1
            if player in acting:
                pv = view(self._game, player)
                infos[agent] = {"view": render(pv), "options": pv.decision["options"]}
            else:
                infos[agent] = {}
        return infos

    def render(self) -> str | None:
        """What every player may see (hidden cards as their backs), as text."""
        if self._game is None:
            return None
        return _shown(self._game, 0, self.render_mode)

    def close(self) -> None:
        self._game = None


def _shown(game: Game, viewer: int, mode: str | None) -> str | None:
    """`render()` of either environment: the view of `viewer` (0: what every player may see) as
    text, printed in the "human" mode (which returns nothing)."""
    text = render(view(game, viewer, person=True))
    if mode == "human":
        print(text)
        return None
    return text
