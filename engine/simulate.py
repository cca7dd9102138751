"""Playing many games with agents, for balance statistics and for tests.

A simulation is a `RunSpec` (ruleset, players, seats, options, seed, decision cap) and a number
of games. Game i (counted from 1) depends on the spec and i alone, through `game_seed`, so games
may be played in any order, in any process, and a run can stop and go on: the records are the
same. Each game gives a record (a plain dict, one line of a run file, see runfile.py).
"""
from __future__ import annotations

import random
import shlex
import sys
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from .agents import Agent, make_agents
from .errors import EngineError
from .game import Game
from .ruleset import Ruleset
from .saves import SaveRequest
from .undo import TakeBack, UndoHistory
from .view import view


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` (from 0) of a simulation: derived from the one simulation seed."""
    return random.Random(seed * 1_000_003 + index).randrange(2**31)


DECISION_CAP = "decision cap"  # the end reason simulate() reports for a game stopped by max_decisions
# simulate()'s default cap. Random games of the shipped rulesets that end by their rules stay below
# it: the longest of 3,000 random games of the one with the longest games took 4,002 decisions.
MAX_DECISIONS = 5_000


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


@dataclass(frozen=True)
class RunSpec:
    """What a simulation's games depend on (with each game's index): plain data, so that it can
    be sent to other processes, which load the ruleset themselves from `ruleset` and
    `extensions` and check it is the same by `digest`."""

    ruleset: str
    players: int
    seats: list[str]
    options: dict[str, Any]
    seed: int
    max_decisions: int | None = MAX_DECISIONS
    extensions: list[str] = field(default_factory=list)
    digest: str = ""
    name: str = ""

    @classmethod
    def of(cls, ruleset: Ruleset, players: int, seats: list[str], options: dict[str, Any], seed: int,
           max_decisions: int | None = MAX_DECISIONS) -> RunSpec:
        return cls(ruleset.loaded_as, players, list(seats), dict(options), seed, max_decisions,
                   list(ruleset.extensions), ruleset.digest, ruleset.name)

    def reproduce(self, seed: int) -> str:
        """The shell command that plays the game of `seed` again, at the terminal: `engine play`
        seeds its bots from the game seed as simulate does."""
        words = ["engine", "play", self.ruleset, "--players", str(self.players), "--seed", str(seed),
                 "--seats", ",".join(self.seats)]
        for name, value in self.options.items():
            words += ["-o", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
        for ext in self.extensions:
            words += ["--with", ext]
        return shlex.join(words)


def play_game(ruleset: Ruleset, spec: RunSpec, number: int) -> dict[str, Any]:
    """Play game `number` (from 1) of a run; its record. A game whose rules fail is recorded
    with the error and the command that replays it, and the run goes on."""
    seed = game_seed(spec.seed, number - 1)
    record: dict[str, Any] = {"game": number, "seed": seed, "seats": spec.seats, "options": spec.options}
    order: list[int] = []
    try:
        game = Game(ruleset, spec.players, spec.options, seed, keep_log=False, rewind=False)
        play(game, make_agents(spec.seats, seed, defaults=ruleset.bots), max_decisions=spec.max_decisions, turn_order=order)
        final = game.scores()
        winners = game.winners(final)
        parts = game.breakdown(final) if ruleset.breakdown else None
    except EngineError as exc:
        message = " ".join(str(exc).split("\n"))
        return {**record, "error": message, "reproduce": spec.reproduce(seed)}
    order += [p for p in game.players if p not in order]
    record.update(scores={str(p): v for p, v in final.items()}, winners=[str(p) for p in winners],
                  turn_order=[str(p) for p in order], decisions=len(game.decisions),
                  end_reason=game.end_reason if game.over else DECISION_CAP)
    if parts is not None:
        record["breakdown"] = {str(p): v for p, v in parts.items()}
    return record


def win_share(record: dict[str, Any], seat: str) -> float:
    """A seat's part of a game's win: 1/k when k players share it."""
    winners = record["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def end_reasons(records: list[dict[str, Any]]) -> dict[str, int]:
    """Games by end reason, the most common first (games that ended: no error records)."""
    counts: dict[str, int] = {}
    for r in records:
        counts[r["end_reason"]] = counts.get(r["end_reason"], 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def mean_breakdown(records: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Each part's mean by seat over the games whose records have the score's parts (the
    ruleset's `scoring.breakdown`; none without one), those of the first such record (a file
    edited by hand may mix others): which part of the score a rule changed."""
    have = [r["breakdown"] for r in records if "breakdown" in r]
    if not have:
        return {}
    like = [b for b in have if all(list(b[seat]) == list(parts) for seat, parts in have[0].items())]
    return {seat: {name: sum(b[seat][name] for b in like) / len(like) for name in parts}
            for seat, parts in have[0].items()}


def totals(records: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Wins, win shares, mean scores and mean parts of the score by seat, mean decisions and
    games by end reason, over the games that ended (a game whose rules failed counts in
    `errors` only)."""
    played = [r for r in records if "error" not in r]
    n = len(played)
    wins = {f"P{i}": sum(win_share(r, f"P{i}") for r in played) for i in range(1, players + 1)}
    return {
        "wins_by_seat": wins,
        "win_share_by_seat": {k: (v / n if n else 0.0) for k, v in wins.items()},
        "mean_score_by_seat": {k: (sum(r["scores"][k] for r in played) / n if n else 0.0) for k in wins},
        "mean_breakdown_by_seat": mean_breakdown(played),
        "mean_decisions": sum(r["decisions"] for r in played) / n if n else 0.0,
        "games_by_end_reason": end_reasons(played),
        "errors": len(records) - n,
    }


def simulate(ruleset: Ruleset, players: int, games: int, seed: int, options: dict[str, Any],
             progress: TextIO | None = None, seats: list[str] | None = None,
             max_decisions: int | None = MAX_DECISIONS, jobs: int | None = 1, backend: str = "local",
             address: str | None = None, out: str | Path | None = None) -> dict[str, Any]:
    """Play `games` games between the bots of `seats` (agents.make_agent; default: random
    for every seat); return per-game results (records, in game order) and totals.

    Each result says why its game ended (`end_reason`); a game that reaches `max_decisions`
    (None: no cap) is stopped there, scored as it stands and reported as ended by
    DECISION_CAP, so that a ruleset whose random games never end still gives an answer.

    `jobs` processes play the games (1: this one; None: one a core; with `backend` "ray", Ray
    tasks on the cluster at `address` or on a local Ray); the results are the same. With `out`,
    a JSON Lines file, each record is appended as its game ends, and the games already in the
    file (of the same run) are not played again. `progress`: a stream to show progress on."""
    from .progress import progress_display  # (these modules build on this one)
    from .runfile import RunFile
    from .workers import play_games

    spec = RunSpec.of(ruleset, players, seats or ["random"] * players, options, seed, max_decisions)
    file = RunFile.open(out, spec, games) if out is not None else None
    records = file.records if file else {}
    todo = [n for n in range(1, games + 1) if n not in records]
    started = time.perf_counter()
    try:
        with progress_display(progress, games, games - len(todo)) as advance, \
                closing(play_games(spec, todo, jobs, backend, address, ruleset)) as played:
            for record in played:
                if file:
                    file.append(record)
                records[record["game"]] = record
                advance()
    except KeyboardInterrupt:
        raise Interrupted(sum(1 for n in records if n <= games), games, out) from None
    finally:
        if file:
            file.close()
    elapsed = time.perf_counter() - started
    results = [records[n] for n in range(1, games + 1)]
    return {
        "ruleset": ruleset.name, "players": players, "seats": spec.seats, "games": games, "seed": seed,
        "options": options, "max_decisions": max_decisions, "results": results,
        "totals": {**totals(results, players), "played": len(todo), "seconds": round(elapsed, 3),
                   "games_per_second": round(len(todo) / elapsed, 1) if elapsed > 0 and todo else None},
    }


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a simulation: how many games are kept, and how to go on."""

    def __init__(self, kept: int, games: int, out: str | Path | None):
        self.kept, self.games, self.out = kept, games, out
        super().__init__(f"interrupted: {kept} of {games} games are kept in {out}; run the same command "
                         "again to play the rest" if out is not None else
                         f"interrupted after {kept} of {games} games; nothing is kept without --out FILE.jsonl")


def stderr_if_tty() -> TextIO | None:
    return sys.stderr if sys.stderr.isatty() else None
