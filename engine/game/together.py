"""A simultaneous step: several players choose at once, none told another's answer until all have.

The core stays sequential: the step asks its players one after the other in seat order, each
answer an ordinary decision (`Game.apply`, an index in `Game.decisions`), so saves, replay,
undo, the loop and every bot work as they do for `choose`. What makes it simultaneous is what
each player is told and what an answer may depend on: every player's options are computed when
the step starts, no rule runs until the last has answered (so no log line, counter or card
tells an answer), the views show a player only their own decision and who has yet to answer
(game/view.py), and the worlds of another player re-draw the answers given (Game.dealt,
game/belief.py). The rules then get all the answers at once, as a table player -> answer.

The open step is plain data in the game's state (`Game.together`): copied by clones, kept in
snapshots, restored by undo.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..core.table import Player


@dataclass
class Together:
    """The open step: its `players` in seat order, each one's `options` and `prompt`, and the
    index each has answered (`answers`, None while they have not; a player with a single option
    answers it when the step starts, as choose() does). `start` is how many decisions the game
    had taken when the step began: a save made during the step keeps none of its answers."""

    players: list[Player]
    options: list[list[Any]]
    prompts: list[tuple]
    answers: list[int | None]
    start: int

    def copy(self, copy: Callable[[Any], Any]) -> Together:
        """A copy whose options and prompts are `copy`'s (the copier of the game's copy)."""
        return Together(self.players, [copy(o) for o in self.options], [copy(p) for p in self.prompts],
                        list(self.answers), self.start)

    def waiting(self) -> list[Player]:
        """Who has yet to answer, in seat order (public: at a table you see who has put their card down)."""
        return [p for p, a in zip(self.players, self.answers) if a is None]

    def seat(self, player: int) -> int | None:
        """The place of `player` in the step, or None if they are not of it."""
        for i, p in enumerate(self.players):
            if p == player:
                return i
        return None

    def open_for(self, player: int) -> int | None:
        """The place of `player` in the step if they have yet to answer, else None."""
        i = self.seat(player)
        return i if i is not None and self.answers[i] is None else None

    def result(self) -> dict[Player, Any]:
        """Every player's answer, as the rules get it once all have answered."""
        return {p: o[a] for p, o, a in zip(self.players, self.options, self.answers)}

    def withdrawn(self) -> Together:
        """The step as it was when it began: the answers asked for withdrawn (forced ones stay)."""
        return Together(self.players, self.options, self.prompts,
                        [0 if len(o) == 1 else None for o in self.options], self.start)

    def key(self) -> tuple:
        return tuple(self.players), tuple(self.answers)
