"""Playing many games with agents, for balance statistics and for tests."""
from __future__ import annotations

import random
import sys
import time
from typing import Any, Callable, TextIO

from .agents import Agent, make_agents
from .game import Game
from .ruleset import Ruleset
from .undo import TakeBack, UndoHistory
from .view import view


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a simulation: derived from the one simulation seed."""
    return random.Random(seed * 1_000_003 + index).randrange(2**31)


DECISION_CAP = "decision cap"  # the end reason simulate() reports for a game stopped by max_decisions
# simulate()'s default cap. Random games of the shipped rulesets that end by their rules stay below
# it: the longest of 3,000 random games of the one with the longest games took 4,002 decisions.
MAX_DECISIONS = 5_000


def play(game: Game, agents: list[Agent], names: dict[int, str] | None = None,
         after_each: Callable[[Game], None] | None = None, undo: UndoHistory | None = None,
         max_decisions: int | None = None) -> Game:
    """Drive a game to its end, each decision taken by the agent of the deciding seat; with
    `undo`, people may take their last decision back. With `max_decisions`, stop once the game
    has taken that many decisions, over or not (a game random players never finish)."""
    cap = sys.maxsize if max_decisions is None else max_decisions
    while not game.over and len(game.decisions) < cap:
        player = game.pending.player
        if undo is not None:
            undo.mark(game)
        try:
            choice = agents[player - 1].choose(view(game, player, names))
        except TakeBack as request:
            request.reply(undo.take_back(game) if undo is not None else "Undo is not available here.")
            continue
        game.apply(choice)
        if after_each:
            after_each(game)
    return game


def simulate(ruleset: Ruleset, players: int, games: int, seed: int, options: dict[str, Any],
             progress: TextIO | None = None, seats: list[str] | None = None,
             max_decisions: int | None = MAX_DECISIONS) -> dict[str, Any]:
    """Play `games` games between the bots of `seats` (agents.make_agent; default: random
    for every seat); return per-game results and totals.

    Each result says why its game ended (`end_reason`); a game that reaches `max_decisions`
    (None: no cap) is stopped there, scored as it stands and reported as ended by
    DECISION_CAP, so that a ruleset whose random games never end still gives an answer."""
    seats = seats or ["random"] * players
    results = []
    wins = {f"P{i}": 0.0 for i in range(1, players + 1)}
    reasons: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(games):
        s = game_seed(seed, index)
        game = Game(ruleset, players, options, s, keep_log=False, rewind=False)
        play(game, make_agents(seats, s), max_decisions=max_decisions)
        reason = game.end_reason if game.over else DECISION_CAP
        reasons[reason] = reasons.get(reason, 0) + 1
        final = game.scores()
        scores = {str(p): v for p, v in final.items()}
        winners = [str(p) for p in game.winners(final)]
        for w in winners:
            wins[w] += 1 / len(winners)
        results.append({"game": index + 1, "seed": s, "scores": scores, "winners": winners,
                        "decisions": len(game.decisions), "end_reason": reason})
        if progress is not None and (index + 1 == games or (index + 1) % max(1, games // 100) == 0):
            elapsed = time.perf_counter() - started
            progress.write(f"\r  {index + 1}/{games} games, {elapsed:.1f}s")
            progress.flush()
    if progress is not None:
        progress.write("\n")
    elapsed = time.perf_counter() - started
    return {
        "ruleset": ruleset.name, "players": players, "seats": seats, "games": games, "seed": seed,
        "options": options, "max_decisions": max_decisions, "results": results,
        "totals": {
            "wins_by_seat": wins,
            "win_share_by_seat": {k: (v / games if games else 0.0) for k, v in wins.items()},
            "mean_score_by_seat": {f"P{i}": (sum(r["scores"][f"P{i}"] for r in results) / games if games else 0.0)
                                   for i in range(1, players + 1)},
            "mean_decisions": sum(r["decisions"] for r in results) / games if games else 0.0,
            "games_by_end_reason": dict(sorted(reasons.items(), key=lambda item: (-item[1], item[0]))),
            "seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
        },
    }


def stderr_if_tty() -> TextIO | None:
    return sys.stderr if sys.stderr.isatty() else None
