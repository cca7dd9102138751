"""Any ruleset as an OpenSpiel game: `register(ruleset)` then `pyspiel.load_game(name, params)`.

Parameters: `players` (default: the ruleset's fewest), `seed`, `max_decisions` (the game is
cut there and ranked as it stands; default 5000, as `engine simulate`), `max_actions` (0: the
bound common.py derives) and the ruleset's own options with their defaults (`ruleset`, set by
`register`, names the ruleset: leave it). Player i of
OpenSpiel is the engine's P(i+1); an action is the index of an option, as `Game.apply` takes
it, among `max_actions` distinct actions.

Chance is sampled, not explicit (`SAMPLED_STOCHASTIC`): the engine draws inside its rules,
from a generator seeded once per game, so there are no chance nodes. The game's `seed` starts a
sequence from which each `new_initial_state()` takes its game's seed; a state and its clones
draw the same future. The information state and observation (strings and the tensor of
observation.py) are read from the player's view only. A state itself is the referee's game:
`mcts.MCTSBot` searches it, hidden cards and future draws included (an oracle, useful as a
yardstick). `resample_from_infostate` deals a world the player cannot tell from this one
(`Game.determinize`), so `ismcts.ISMCTSBot` searches fairly.

Returns come at the end, by rank (common.rank_rewards): zero-sum, in [-1, 1].

A ruleset that asks several players at once (`choose_each`, `Ruleset.simultaneous`) is
registered with `Dynamics.SIMULTANEOUS`: a simultaneous step is a simultaneous node
(`PlayerId.SIMULTANEOUS`) whose joint action holds each player's answer (a player not asked
there, or who answers nothing, has the one action 0, ignored); every other decision is a node
of one player, as in a sequential game.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..game.game import Game
from ..game.view import PlayerView, view
from ..rules.ruleset import Ruleset
from .common import MAX_DECISIONS, Setup, load, rank_rewards
from .observation import Observation

_ADAPTER_PARAMS = ("ruleset", "players", "seed", "max_decisions", "max_actions")
# Each registered name's game type and ruleset. OpenSpiel makes a game by calling the class
# registered with the parameters alone, so they name the ruleset; and the class is this
# module's own: a function made per ruleset would be freed by OpenSpiel after Python has
# stopped, and crash the interpreter as it exits.
_registered: dict[str, tuple[pyspiel.GameType, Ruleset]] = {}


def register(ruleset: str | Ruleset, name: str | None = None) -> str:
    """Register `ruleset` (a path or a shipped name) with OpenSpiel and return its short name (default
    `engine_` and the file's name), for `pyspiel.load_game(name, {"players": 4, ...})`.
    Registering the same ruleset again is allowed; another one under a taken name is not."""
    rules = load(ruleset)
    name = name or "engine_" + re.sub(r"[^a-z0-9_]+", "_", Path(rules.path).stem.lower())
    if name in _registered:
        if _registered[name][1].digest != rules.digest:
            raise ValueError(f"another ruleset is registered as {name!r}; give this one another name")
        return name
    if name in pyspiel.registered_names():
        raise ValueError(f"OpenSpiel already has a game named {name!r}; give this ruleset another name")
    taken = [o for o in rules.options if o in _ADAPTER_PARAMS]
    if taken:
        raise ValueError(f"the ruleset's option {taken[0]!r} has the name of an adapter parameter")
    game_type = pyspiel.GameType(
        short_name=name, long_name=rules.name,
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if rules.simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(rules.players), min_num_players=min(rules.players),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"ruleset": name, "players": rules.players[0], "seed": 0,
                                 "max_decisions": MAX_DECISIONS, "max_actions": 0,
                                 **{o: spec.default for o, spec in rules.options.items()}})
    _registered[name] = (game_type, rules)
    pyspiel.register_game(game_type, RulesetGame)
    return name


class RulesetGame(pyspiel.Game):
    """The OpenSpiel game of a ruleset, at the player count and options of its parameters."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = params or {}
        if params.get("ruleset") not in _registered:
            raise ValueError(f"no ruleset is registered as {params.get('ruleset')!r}; "
                             "call engine.adapters.openspiel.register(path) first")
        game_type, rules = _registered[params["ruleset"]]
        options = {k: v for k, v in params.items() if k not in _ADAPTER_PARAMS}
        self.setup = Setup.of(rules, params.get("players"), options, params.get("max_actions") or None,
                              params.get("max_decisions", MAX_DECISIONS))
        info = pyspiel.GameInfo(num_distinct_actions=self.setup.max_actions, max_chance_outcomes=0,
                                num_players=self.setup.players, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=self.setup.max_decisions)
        super().__init__(game_type, info, params)
        self.encoding = Observation(rules, self.setup.players)
        self._seeds = random.Random(params.get("seed", 0))

    def new_initial_state(self) -> RulesetState:
        """A new game, dealt from the next seed of the game's sequence."""
        return RulesetState(self, _Play(self.setup, self.setup.new_game(self._seeds.getrandbits(63)),
                                        [[] for _ in range(self.setup.players)]))

    def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoding, recall)


class _Play:
    """What a state holds: the game and each player's own past actions. OpenSpiel copies a state
    by building an empty one and deep-copying its attributes; this makes that copy a clone."""

    def __init__(self, setup: Setup, game: Game, own: list[list[int]]):
        self.setup, self.game, self.own = setup, game, own

    def __deepcopy__(self, memo: dict) -> _Play:
        return _Play(self.setup, self.game.clone(), [list(a) for a in self.own])

    def ended(self) -> bool:
        """Over, or at the decision cap. The actions are counted here, not in the game: a
        resampled world has no past decisions, but as many were taken."""
        return self.game.over or sum(map(len, self.own)) >= self.setup.max_decisions


class RulesetState(pyspiel.State):
    """A game of the ruleset, as OpenSpiel steps it."""

    def __init__(self, game: RulesetGame, play: _Play | None = None):
        super().__init__(game)
        self._play = play  # None only for a moment, while OpenSpiel copies a state into it

    def current_player(self) -> int:
        play = self._play
        if play.ended():
            return pyspiel.PlayerId.TERMINAL
        if play.game.together is not None:
            return pyspiel.PlayerId.SIMULTANEOUS
        return int(play.game.current_player) - 1

    def _legal_actions(self, player: int) -> list[int]:
        game = self._play.game
        if self.is_terminal():
            return []
        if game.together is not None:  # a simultaneous node: each player's own decision, or a pass
            mine = game.together.open_for(player + 1)
            return list(range(len(game.together.options[mine]))) if mine is not None else [0]
        if player != int(game.current_player) - 1:
            return []
        return game.legal_actions()

    def _apply_action(self, action: int) -> None:
        play = self._play
        play.own[int(play.game.current_player) - 1].append(int(action))
        play.game.apply(int(action))
        play.setup.check(play.game)

    def _apply_actions(self, actions: list[int]) -> None:
        """A joint action at a simultaneous step: the answers of those who have yet to give one,
        applied in seat order (each is the pending decision in turn); the others' are ignored."""
        play = self._play
        for p in play.game.together.waiting():
            play.own[int(p) - 1].append(int(actions[int(p) - 1]))
            play.game.apply(int(actions[int(p) - 1]))
        play.setup.check(play.game)

    def _action_to_string(self, player: int, action: int) -> str:
        """The option's name as the deciding player reads it, when it is theirs to take now
        (with its number when another option reads the same); else its number."""
        game = self._play.game
        mine = None if self.is_terminal() or player < 0 else game.decision_of(player + 1)
        if mine is not None and 0 <= action < len(mine.options):
            options = view(game, player + 1).decision["options"]
            name = options[action]
            return name if options.count(name) == 1 else f"{name} (option {action})"
        return f"option {action}"

    def is_terminal(self) -> bool:
        return self._play.ended()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._play.setup.players
        ranks = rank_rewards(self._play.game)
        return [ranks[p] for p in range(1, self._play.setup.players + 1)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulesetState:
        """A state `player_id` cannot tell from this one: the cards they have not seen dealt
        again, chance of its own (`Game.determinize`, seeded from the sampler)."""
        play = self._play
        seed = int(probability_sampler() * 2 ** 63)
        world = _Play(play.setup, play.game.determinize(player_id + 1, seed), [list(a) for a in play.own])
        return RulesetState(self.get_game(), world)

    def player_view(self, player: int) -> PlayerView:
        """What OpenSpiel player `player` (the engine's P(player+1)) may know now."""
        return view(self._play.game, player + 1)

    def own_actions(self, player: int) -> list[int]:
        return list(self._play.own[player])

    def __str__(self) -> str:
        """What every player may see (hidden cards as their backs), as JSON."""
        return json.dumps(view(self._play.game, 0).as_dict(log_last=0), sort_keys=True, default=str)


class Observer:
    """OpenSpiel's observer of a ruleset: the tensor of observation.py and, as a string, the
    player's view as JSON; with perfect recall, its whole log and their own past actions too."""

    def __init__(self, encoding: Observation, perfect_recall: bool):
        self.encoding, self.perfect_recall = encoding, perfect_recall
        self.tensor = np.zeros(encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RulesetState, player: int) -> None:
        self.tensor[:] = self.encoding.encode(state.player_view(player))

    def string_from(self, state: RulesetState, player: int) -> str:
        pv = state.player_view(player)
        if not self.perfect_recall:
            return json.dumps(pv.as_dict(log_last=0), sort_keys=True, default=str)
        return json.dumps({"own actions": state.own_actions(player), **pv.as_dict()}, sort_keys=True, default=str)
