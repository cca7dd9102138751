"""An agent of your own: flat Monte Carlo, in a few lines.

For each option it plays some random games to the end in worlds its player cannot tell from
the real one, and takes the option that won most often. Run it against the shipped bots:

    engine simulate rulesets/trick_of_the_rails.yaml --players 4 --games 10 \
        --seats examples/agents/flat_monte_carlo.py:FlatMonteCarlo:playouts=8,mcts,random,random

An agent is any class whose objects have `choose(view) -> int` (the index of one of the options
of the decision). A seat `FILE.py:CLASS` or `package.module:CLASS` makes one with `CLASS(seed=...,
name=value...)`: the seed of that seat in that game, and the seat's parameters (numbers when they
read as numbers). See docs/python-api.md, "Your own agent".

It thinks in its worlds through `Worlds.think`: where the rules fail in a world (a rule that
relies on something its player cannot know), that world is dropped for another and counted,
and the real game goes on (docs/python-api.md, "When the rules fail in a world").
"""
from __future__ import annotations

import random

from engine.players.worlds import Worlds


class FlatMonteCarlo:
    """Tries every option in `playouts` random games; takes the one that wins most."""

    def __init__(self, seed: int, playouts: int = 10):
        self.rng = random.Random(seed)
        self.playouts = int(playouts)

    def choose(self, view) -> int:
        options = view.option_count                  # how many options this player has now
        if options == 1:
            return 0
        me = view.player
        wins = [0.0] * options
        # Worlds: the cards this player has not seen dealt again, chance of their own.
        worlds = Worlds(view, self.rng)
        for _ in range(self.playouts):
            won = worlds.think(lambda world: [self.won(world.clone(), option, me) for option in range(options)])
            if won is None:  # the rules failed in every world of late: choose by those that worked
                break
            wins = [w + v for w, v in zip(wins, won)]
        return max(range(options), key=lambda i: (wins[i], -i))

    def won(self, game, option: int, me) -> float:
        """The share of the win of `me` when `option` is played, then random moves to the end."""
        game.apply(option)
        while not game.over:
            game.apply(self.rng.randrange(len(game.legal_actions())))
        winners = game.winners()
        return 1 / len(winners) if me in winners else 0.0
