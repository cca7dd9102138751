"""The loop that plays one game: each decision asked of the agent of the deciding seat.

An agent is given its player's view alone (game/view.py), and its answer goes through
`Game.apply`, the one door for decisions; a person's request to take a decision back or to
save the game (players/undo.py, game/saves.py) is answered here, between two decisions.
"""
from __future__ import annotations

import sys
from typing import Callable

from ..game.game import Game
from ..game.saves import SaveRequest
from ..game.view import view
from .agents import Agent
from .undo import TakeBack, UndoHistory


def play(game: Game, agents: list[Agent], names: dict[int, str] | None = None,
         after_each: Callable[[Game], None] | None = None, undo: UndoHistory | None = None,
         max_decisions: int | None = None, turn_order: list[int] | None = None,
         save: Callable[[Game, str], str] | None = None) -> Game:
    """Drive a game to its end, each decision taken by the agent of the deciding seat; with
    `undo`, people may take their last decision back; with `save` (which writes the game to a
    path and says so), save it when they ask. With `max_decisions`, stop once the game
    has taken that many decisions, over or not (a game random players never finish). Players
    are appended to `turn_order` as they first decide (who led, for balance reports)."""
    cap = sys.maxsize if max_decisions is None else max_decisions
    seen = turn_order if turn_order is not None else list(game.players)  # nothing to add
    while not game.over and len(game.decisions) < cap:
        player = game.pending.player
        if player not in seen:
            seen.append(player)
        if undo is not None:
            undo.mark(game)
        try:
            choice = agents[player - 1].choose(view(game, player, names))
        except TakeBack as request:
            request.reply(undo.take_back(game) if undo is not None else "Undo is not available here.")
            continue
        except SaveRequest as request:
            request.reply(save(game, request.path) if save is not None else "Saving is not available here.")
            continue
        game.apply(choice)
        if after_each:
            after_each(game)
    return game

