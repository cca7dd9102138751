"""Any ruleset as an OpenSpiel game: `register(ruleset)` then `pyspiel.load_game(name, params)`.

Parameters (docs/adapters.md): `players` (default: the ruleset's fewest), `seed`,
`max_decisions` (the game is cut there and scored as it stands; default 5000, as `engine
simulate`), `max_actions` (0: the bound common.py derives), `chance`, `returns`,
`min_utility`, `max_utility`, `zero_sum`, `single_option_states`, and the ruleset's own options with their defaults
(`ruleset`, set by `register`, names the ruleset: leave it). Player i of OpenSpiel is the
engine's P(i+1); an action is the index of an option, as `Game.apply` takes it, among
`max_actions` distinct actions.

Chance: `chance=sampled` (the default) draws inside the rules from a generator seeded once per
game (`SAMPLED_STOCHASTIC`, no chance nodes): the game's `seed` starts a sequence from which each
`new_initial_state()` takes its game's seed, and a state and its clones draw the same future.
`chance=explicit` makes every draw a chance node (`EXPLICIT_STOCHASTIC`, game/chance.py: a
shuffle of n cards is n - 1 nodes, which card comes next), so that CFR, best response,
exploitability and `get_all_states` walk every deal; a chance outcome is the index of what is
drawn among the node's outcomes, as `Game.apply_chance` takes it. A ruleset no rule of which
draws (`Ruleset.draws`) is `DETERMINISTIC` either way, and one where nothing is ever hidden
(`Ruleset.perfect_information`) is of `PERFECT_INFORMATION`: both read from the rules.

Returns come at the end: by rank (`returns=rank`, common.rank_rewards: zero-sum, in [-1, 1]),
or the final scores (`returns=scores`), whose bounds the rules do not tell: give them as
`min_utility` and `max_utility`, and `zero_sum=true` where the scores always sum to 0 (a game
that ends otherwise then raises an error).

The information state string is the player's history as they know it: their view with its
whole log and their own past actions; the observation (string and the tensor of observation.py)
is what they see now. Both are read from the player's view only. A decision of one option is
not a state by default: the rules take it without asking (as they do for a person);
`single_option_states=true` makes it one (`Game.ask_single`), as game trees are often counted. A state itself is the
referee's game: `mcts.MCTSBot` searches it, hidden cards and future draws included (an
oracle, useful as a yardstick). `resample_from_infostate` deals a world the player cannot
tell from this one (`Game.determinize`; it draws its chance from the sampler's seed), so
`ismcts.ISMCTSBot` searches fairly. A state is serialized as `Game.snapshot()` (with its
players' past actions), and cloned as `Game.clone()`: neither builds a new game or takes a seed.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..game.game import Game
from ..game.view import PlayerView, label, view
from ..rules.ruleset import Ruleset
from .common import MAX_DECISIONS, RETURNS, Setup, load, rewards
from .observation import Observation

CHANCE = ("sampled", "explicit")
_DEFAULTS: dict[str, Any] = {"players": 0, "seed": 0, "max_decisions": MAX_DECISIONS, "max_actions": 0,
                             "chance": "sampled", "returns": "rank", "min_utility": 0.0, "max_utility": 0.0,
                             "zero_sum": False, "single_option_states": False}
_ADAPTER_PARAMS = ("ruleset", *_DEFAULTS)
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
    spec = {"ruleset": name, **_DEFAULTS, "players": rules.players[0],
            **{o: spec.default for o, spec in rules.options.items()}}
    game_type = _game_type(name, rules, spec, _Mode("sampled", "rank", 0.0, 0.0, False))
    _registered[name] = (game_type, rules)
    pyspiel.register_game(game_type, RulesetGame)
    return name


@dataclass(frozen=True)
class _Mode:
    """How the adapter plays a ruleset: its chance and its returns."""

    chance: str
    returns: str
    low: float
    high: float
    zero_sum: bool

    @classmethod
    def of(cls, params: dict[str, Any]) -> _Mode:
        chance, returns = params.get("chance", "sampled"), params.get("returns", "rank")
        if chance not in CHANCE:
            raise ValueError(f"chance must be {' or '.join(CHANCE)}, not {chance!r}")
        if returns not in RETURNS:
            raise ValueError(f"returns must be {' or '.join(RETURNS)}, not {returns!r}")
        if returns == "rank":
            return cls(chance, returns, -1.0, 1.0, True)
        low, high = float(params.get("min_utility", 0.0)), float(params.get("max_utility", 0.0))
        if not low < high:
            raise ValueError("returns=scores needs the bounds of the scores, which the rules do not tell: "
                             f"give min_utility < max_utility (got {low} and {high})")
        return cls(chance, returns, low, high, bool(params.get("zero_sum", False)))


def _game_type(name: str, rules: Ruleset, spec: dict[str, Any], mode: _Mode) -> pyspiel.GameType:
    """The game type of `rules` played in `mode`: read from the rules, not from a game."""
    kinds = pyspiel.GameType
    chance = (kinds.ChanceMode.DETERMINISTIC if not rules.draws else kinds.ChanceMode.EXPLICIT_STOCHASTIC
              if mode.chance == "explicit" else kinds.ChanceMode.SAMPLED_STOCHASTIC)
    return kinds(
        short_name=name, long_name=rules.name,
        dynamics=kinds.Dynamics.SIMULTANEOUS if rules.simultaneous else kinds.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=(kinds.Information.PERFECT_INFORMATION if rules.perfect_information
                     else kinds.Information.IMPERFECT_INFORMATION),
        utility=kinds.Utility.ZERO_SUM if mode.zero_sum else kinds.Utility.GENERAL_SUM,
        reward_model=kinds.RewardModel.TERMINAL,
        max_num_players=max(rules.players), min_num_players=min(rules.players),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)


class RulesetGame(pyspiel.Game):
    """The OpenSpiel game of a ruleset, at the player count, options and mode of its parameters."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = params or {}
        if params.get("ruleset") not in _registered:
            raise ValueError(f"no ruleset is registered as {params.get('ruleset')!r}; "
                             "call engine.adapters.openspiel.register(path) first")
        registered, rules = _registered[params["ruleset"]]
        options = {k: v for k, v in params.items() if k not in _ADAPTER_PARAMS}
        self.setup = Setup.of(rules, params.get("players") or None, options, params.get("max_actions") or None,
                              params.get("max_decisions", MAX_DECISIONS))
        self.mode = _Mode.of(params)
        self.explicit = self.mode.chance == "explicit" and rules.draws
        game_type = _game_type(params["ruleset"], rules, registered.parameter_specification, self.mode)
        # A chance node's outcomes are bounded as a decision's options are (Setup.check).
        info = pyspiel.GameInfo(num_distinct_actions=self.setup.max_actions,
                                max_chance_outcomes=self.setup.max_actions if self.explicit else 0,
                                num_players=self.setup.players, min_utility=self.mode.low,
                                max_utility=self.mode.high, utility_sum=0.0 if self.mode.zero_sum else None,
                                max_game_length=self.setup.max_decisions)
        super().__init__(game_type, info, params)
        self.encoding = Observation(rules, self.setup.players)
        self._seeds = random.Random(params.get("seed", 0))

    def new_initial_state(self) -> RulesetState:
        """A new game, dealt from the next seed of the game's sequence (with explicit chance, at
        its first chance node). It is set up when first used: OpenSpiel makes one to clone a
        state into, which must cost nothing and take no seed."""
        return RulesetState(self, _Play(self, None, [[] for _ in range(self.setup.players)]))

    def next_game(self) -> Game:
        """The game of a new state."""
        single = bool(self.get_parameters().get("single_option_states", False))
        if self.explicit:
            return self.setup.new_game(0, "explicit", single)
        return self.setup.new_game(self._seeds.getrandbits(63), ask_single=single)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoding, recall)


_games: dict[str, RulesetGame] = {}  # the games of deserialized states, by their parameters


class _Play:
    """What a state holds: the game and each player's own past actions. OpenSpiel copies a state
    by building an empty one and deep-copying its attributes; this makes that copy a clone, and
    pickles a state (its serialization) as the game's snapshot."""

    def __init__(self, of: RulesetGame, game: Game | None, own: list[list[int]]):
        self.of, self.setup, self._game, self.own = of, of.setup, game, own

    @property
    def game(self) -> Game:
        if self._game is None:
            self._game = self.of.next_game()
        return self._game

    def __deepcopy__(self, memo: dict) -> _Play:
        return _Play(self.of, self.game.clone(), [list(a) for a in self.own])

    def __getstate__(self) -> dict[str, Any]:
        params = {k: v for k, v in self.of.get_parameters().items()}
        return {"params": params, "snapshot": self.game.snapshot(), "own": self.own}

    def __setstate__(self, data: dict[str, Any]) -> None:
        key = json.dumps(data["params"], sort_keys=True)
        if key not in _games:
            _games[key] = RulesetGame(data["params"])
        of = _games[key]
        self.__init__(of, Game.from_snapshot(of.setup.rules, data["snapshot"]), [list(a) for a in data["own"]])

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
        game = play.game
        if game.pending is None:  # (not over: a chance draw waits)
            return pyspiel.PlayerId.CHANCE
        if game.together is not None:
            return pyspiel.PlayerId.SIMULTANEOUS
        return int(game.current_player) - 1

    def chance_outcomes(self) -> list[tuple[int, float]]:
        drawn = self._play.game.chance_decision()
        return list(enumerate(drawn.probabilities)) if drawn is not None and not self.is_terminal() else []

    def _legal_actions(self, player: int) -> list[int]:
        game = self._play.game
        if self.is_terminal():
            return []
        if player == pyspiel.PlayerId.CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if game.together is not None:  # a simultaneous node: each player's own decision, or a pass
            mine = game.together.open_for(player + 1)
            return list(range(len(game.together.options[mine]))) if mine is not None else [0]
        if game.pending is None or player != int(game.current_player) - 1:
            return []
        return game.legal_actions()

    def _apply_action(self, action: int) -> None:
        play = self._play
        game = play.game
        if game.pending is None:
            game.apply_chance(int(action))
        else:
            play.own[int(game.current_player) - 1].append(int(action))
            game.apply(int(action))
        play.setup.check(game)

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
        (with its number when another option reads the same); a chance outcome's, what it draws
        as the referee sees it; else its number."""
        game = self._play.game
        drawn = None if self.is_terminal() else game.chance_decision()
        if player == pyspiel.PlayerId.CHANCE and drawn is not None and 0 <= action < len(drawn.outcomes):
            return f"chance draws {label(drawn.outcomes[action], None)} (outcome {action})"
        mine = None if self.is_terminal() or player < 0 else game.decision_of(player + 1)
        if mine is not None and 0 <= action < len(mine.options):
            options = view(game, player + 1).decision["options"]
            name = options[action]
            return name if options.count(name) == 1 else f"{name} (option {action})"
        return f"option {action}"

    def is_terminal(self) -> bool:
        return self._play.ended()

    def returns(self) -> list[float]:
        play = self._play
        if not self.is_terminal():
            return [0.0] * play.setup.players
        mode = play.of.mode
        got = rewards(play.game, mode.returns)
        out = [got[p] for p in range(1, play.setup.players + 1)]
        if mode.returns == "scores" and (mode.zero_sum and abs(sum(out)) > 1e-9
                                         or not all(mode.low <= r <= mode.high for r in out)):
            raise ValueError(f"the scores {out} of this game of {play.setup.rules.name} are not within the game's "
                             f"parameters (min_utility {mode.low}, max_utility {mode.high}"
                             + (", zero_sum" if mode.zero_sum else "") + ")")
        return out

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulesetState:
        """A state `player_id` cannot tell from this one: the cards they have not seen dealt
        again, chance of its own (`Game.determinize`, seeded from the sampler)."""
        play = self._play
        seed = int(probability_sampler() * 2 ** 63)
        world = _Play(play.of, play.game.determinize(player_id + 1, seed), [list(a) for a in play.own])
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
    player's view as data (`Observation.plain`); with perfect recall (the information state),
    its whole log and their own past actions too, and no tensor: none is provided."""

    def __init__(self, encoding: Observation, perfect_recall: bool):
        self.encoding, self.perfect_recall = encoding, perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else encoding.size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state: RulesetState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = self.encoding.encode(state.player_view(player))

    def string_from(self, state: RulesetState, player: int) -> str:
        pv = state.player_view(player)
        if not self.perfect_recall:
            return json.dumps(self.encoding.plain(pv), sort_keys=True, default=str)
        return json.dumps({"own actions": state.own_actions(player), **self.encoding.plain(pv, None)},
                          sort_keys=True, default=str)
