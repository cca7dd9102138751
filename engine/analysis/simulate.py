"""Playing many games with bots, for balance statistics and for tests.

`simulate` plays the games of a run (run.py: what they depend on, and one game's record) where
workers.py says, keeps them in a run file (runfile.py) as they end, and totals them.
"""
from __future__ import annotations

import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any, TextIO

from ..players.loop import play
from ..rules.ruleset import Ruleset
from .progress import progress_display
from .run import DECISION_CAP, MAX_DECISIONS, RunSpec, game_seed, play_game
from .runfile import RunFile, read_run

# What engine.simulate held before the layers (docs/python-api.md) stays importable from here.
__all__ = ["DECISION_CAP", "MAX_DECISIONS", "RunSpec", "game_seed", "play", "play_game", "simulate"]


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
             address: str | None = None, out: str | Path | None = None, isolate: str = "files",
             time_limit: float = 60.0, standings: bool | None = None) -> dict[str, Any]:
    """Play `games` games between the bots of `seats` (agents.make_agent; default: random
    for every seat); return per-game results (records, in game order) and totals.

    Each result says why its game ended (`end_reason`); a game that reaches `max_decisions`
    (None: no cap) is stopped there, scored as it stands and reported as ended by
    DECISION_CAP, so that a ruleset whose random games never end still gives an answer.

    `jobs` processes play the games (1: this one; None: one a core; with `backend` "ray", Ray
    tasks on the cluster at `address` or on a local Ray); the results are the same. With `out`,
    a JSON Lines file, each record is appended as its game ends, and the games already in the
    file (of the same run) are not played again. `progress`: a stream to show progress on.
    `standings`: record each game's standings round by round (quality.py), for the report's
    game quality; None: unless every seat is random, whose games the heuristic can take up to 3
    times as long (bots' games hardly longer)."""
    from .workers import play_games  # here, not above: multiprocessing costs every command 7 ms to import

    seats = seats or ["random"] * players
    if standings is None:
        standings = any(seat.split(":", 1)[0].strip() != "random" for seat in seats)
    spec = RunSpec.of(ruleset, players, seats, options, seed, max_decisions, isolate, time_limit, standings)
    file = RunFile.open(out, spec, games) if out is not None else None
    records = file.records if file else {}
    todo = [n for n in range(1, games + 1) if n not in records]
    started = time.perf_counter()
    try:
        with progress_display(progress, games, games - len(todo)) as step, \
                closing(play_games(spec, todo, jobs, backend, address, ruleset)) as played:
            for record in played:
                if file:
                    file.append(record)
                records[record["game"]] = record
                step()
    except KeyboardInterrupt:
        if file:  # counted on disk: Ctrl-C may come between a record's line and its note in `records`
            file.close()
            records = read_run(file.path)[1]
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
