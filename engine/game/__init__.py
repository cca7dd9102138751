"""One game: its state and the interface to it, what each player may know of it, its saves.

- game.py: `Game`, in the manner of OpenSpiel's state: legal actions, apply, clone, snapshot,
  determinize, scores (docs/design-state.md);
- chance.py: chance as a decision of nature: a game made with `chance="explicit"` waits at
  each random draw for its outcome (`chance_decision`, `apply_chance`), for solvers;
- together.py: the open simultaneous step (`choose_each`): who is asked, their options, the
  answers given so far, kept as plain data in the state;
- view.py: `view(game, player)`, the one door through which hidden information passes;
- belief.py: the worlds a player cannot tell apart (`PlayerView.world`), dealt to agree with
  everything the player observed, by replaying the history;
- saves.py: saved games, replayed from their seed and decisions and checked against their state;
- seeds.py: a game's secret seed and the bots' seeds derived from it;
- clock.py: a time limit on a thread's work (a bot's decision, a replay on a server), checked
  at each decision applied and each world dealt;
- why.py: why a thing is not among a person's options (`PlayerView.why`), worked out on request
  on a copy of the game, saying only what they may see;
- trial.py: a new game of each size shown to every seat, for `engine validate`;
- told.py: a check, for tests, that every change a player sees is told to them in the log;
- position.py: a position set up from Python for a test (stacked, face down, shown, counters).

`from engine.game import Game` works as it did before the layers.

May import: core, lang, rules.
Must not import: players, analysis, adapters, web, cli.
"""
from .game import Game

__all__ = ["Game"]
