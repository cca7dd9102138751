"""What every adapter needs of a ruleset: its games, a fixed number of actions, and rewards.

Learning libraries want a fixed action space, but a decision of the engine offers a list of
options whose length the rules compute. Options are almost always things of the ruleset
(cards, places of a board, values of a constant list) or players, so the largest of those
counts bounds them; `max_actions` overrides it, and a decision that offers more raises an error
that says which value to use. Games that random play would make endless are cut at
`max_decisions` and scored as they stand, as `engine simulate` does. Returns are by rank
(`rank_rewards`), or the scores themselves (`score_rewards`): what a solver of a game whose
payoffs matter (chips won) needs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..analysis.run import MAX_DECISIONS
from ..core.errors import EngineError
from ..game.game import Game
from ..rules.ruleset import Ruleset, load_ruleset


class TooManyOptions(EngineError):
    """A decision offers more options than the adapter's action space holds."""


def action_bound(rules: Ruleset, players: int) -> int:
    """The size of the action space unless one is given: the most of cards, places of a board,
    values of a constant list, or players the ruleset has (a decision that offers more is
    refused by `Setup.check`, which says what to give instead)."""
    sizes = [len(rules.cards), players, *(len(b) for b in rules.boards.values()),
             *(len(v) for v in rules.constants.values() if isinstance(v, (list, tuple)))]
    return max(sizes)


def load(ruleset: str | Ruleset) -> Ruleset:
    """A ruleset from its path or a shipped ruleset's name (or as it is, if loaded): the
    adapters' one way to get one."""
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(str(ruleset))


def option_text(value: Any) -> str:
    """An option value as `Ruleset.resolve_options` reads it (True as 'true')."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass
class Setup:
    """One ruleset at one player count with its options: the games an adapter plays."""

    rules: Ruleset
    players: int
    options: dict[str, Any]
    max_actions: int
    max_decisions: int

    @classmethod
    def of(cls, ruleset: str | Ruleset, players: int | None, options: dict[str, Any],
           max_actions: int | None = None, max_decisions: int = MAX_DECISIONS) -> Setup:
        """`ruleset` is a path (or a loaded ruleset); `players` defaults to its fewest; options
        are values or their text, as `--option NAME=VALUE` takes them."""
        rules = load(ruleset)
        players = rules.players[0] if players is None else players
        if players not in rules.players:
            raise ValueError(f"{rules.name} is for {', '.join(map(str, rules.players))} players, not {players}")
        resolved = rules.resolve_options({k: option_text(v) for k, v in options.items()}, players)
        if max_decisions < 1:
            raise ValueError(f"max_decisions must be at least 1, not {max_decisions}")
        bound = action_bound(rules, players) if max_actions is None else max_actions
        if bound < 1:
            raise ValueError(f"max_actions must be at least 1, not {bound}")
        return cls(rules, players, resolved, bound, max_decisions)

    def new_game(self, seed: int, chance: str = "seeded", ask_single: bool = False) -> Game:
        """A game of this setup, from `seed` (or with explicit chance: game/chance.py), at its
        first decision (of a player, or of chance); with `ask_single`, one that asks decisions of
        one option too."""
        return self.check(Game(self.rules, self.players, self.options, seed=seed, chance=chance,
                               ask_single=ask_single))

    def check(self, game: Game) -> Game:
        """The game, if its pending decision (or chance's) fits the action space; else a clear error."""
        drawn = game.chance_decision()
        count = len(game.pending.options) if game.pending is not None else len(drawn.outcomes) if drawn else 0
        if count > self.max_actions:
            who = f"a decision of {game.pending.player}" if game.pending is not None else "a random draw"
            raise TooManyOptions(
                f"{who} in {self.rules.name} offers {count} options, more than this adapter's "
                f"{self.max_actions} actions; make it with max_actions={count} or more")
        return game

    def ended(self, game: Game) -> bool:
        """Over by the rules, or cut at the decision cap."""
        return game.over or len(game.decisions) >= self.max_decisions


RETURNS = ("rank", "scores")


def rewards(game: Game, returns: str) -> dict[int, float]:
    """Each player's reward at the end: by rank, or their score (`returns`, one of RETURNS)."""
    if returns == "scores":
        return {int(p): float(s) for p, s in game.scores().items()}
    return rank_rewards(game)


def rank_rewards(game: Game) -> dict[int, float]:
    """Each player's reward by rank (score, then tiebreak): the players they beat minus the
    players who beat them, over the others' number. In [-1, 1], summing to 0; winners get the
    most; ties share."""
    standings = game.standings()
    others = max(len(standings) - 1, 1)
    return {int(p): sum((mine > theirs) - (mine < theirs) for theirs in standings.values()) / others
            for p, mine in standings.items()}
