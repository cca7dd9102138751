"""Benchmark of the game state: decisions per second, and what a copy of a running game costs.

For each shipped ruleset: random games through the public API (decisions per second), then,
at a position `--at` decisions into a game (half a game if games are shorter on average), the cost of a second
copy of it by each way the engine offers: replaying the decisions from the start, `clone()`,
`snapshot()` + JSON text + `Game.from_snapshot()`, and `determinize()`. Prints a table; medians of `--repeat` runs.

    python benchmarks/state.py                 # every shipped ruleset
    python benchmarks/state.py --games 5 --repeat 3 railways

`--checkout PATH` measures another checkout of the project (its engine and rulesets), e.g. a
`git worktree` of an older commit; columns its engine does not offer print as "-".
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent

# Ruleset, player count, games for the speed run.
CASES = [("trick_of_the_rails", 4, 200), ("isle_of_trains", 3, 4), ("trainsilvania", 3, 20), ("railways", 4, 6)]
# Options the random games of a shipped ruleset need to end: random players never end Isle of
# Trains by its rules, so its round limit (off by default) is set, as its default was before.
RANDOM_PLAY = {"isle_of_trains": {"round_limit": "100"}}


def options_of(rs, players: int) -> dict:
    return rs.resolve_options(RANDOM_PLAY.get(Path(rs.path).stem, {}), players)


def _engine():
    from engine import Game, load_ruleset  # the public API: the same in every checkout
    return Game, load_ruleset


def random_game(Game, rs, players: int, seed: int, stop_at: int | None = None):
    """A game played by a uniform random policy, to its end or to `stop_at` decisions."""
    game = Game(rs, players, options_of(rs, players), seed)
    rng = random.Random(seed)
    while not game.over and (stop_at is None or len(game.decisions) < stop_at):
        game.apply(rng.randrange(len(game.legal_actions())))
    return game


def decisions_per_second(Game, rs, players: int, games: int) -> tuple[float, float]:
    started = time.perf_counter()
    decisions = 0
    for i in range(games):
        decisions += len(random_game(Game, rs, players, 1000 + i).decisions)
    elapsed = time.perf_counter() - started
    return decisions / elapsed, decisions / games


def median_time(fn: Callable[[], object], repeat: int, inner: int = 1) -> float:
    """Median over `repeat` runs of the time of one call, each run timing `inner` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - started) / inner)
    return statistics.median(times)


def copies(Game, rs, players: int, at: int, repeat: int) -> dict[str, float | None]:
    """Seconds per copy of a game `at` decisions in, by each available way."""
    seed = 7
    game = random_game(Game, rs, players, seed, stop_at=at)
    options = options_of(rs, players)
    out: dict[str, float | None] = {"at": len(game.decisions)}
    out["replay"] = median_time(lambda: Game(rs, players, options, seed, decisions=game.decisions), repeat)
    out["clone"] = median_time(game.clone, repeat, 200) if hasattr(game, "clone") else None
    if hasattr(game, "snapshot"):
        out["snapshot"] = median_time(lambda: json.dumps(game.snapshot()), repeat, 20)
        text = json.dumps(game.snapshot())
        out["restore"] = median_time(lambda: Game.from_snapshot(rs, json.loads(text)), repeat, 20)
    else:
        out["snapshot"] = out["restore"] = None
    if hasattr(game, "determinize") and not game.over:
        player = game.current_player
        out["determinize"] = median_time(lambda: game.determinize(player, 1), repeat, 50)
    else:
        out["determinize"] = None
    return out


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 0.1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default: all four shipped)")
    parser.add_argument("--games", type=int, help="games per ruleset for the speed run (default: per ruleset)")
    parser.add_argument("--at", type=int, default=300, help="decisions into a game for the copy costs")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (the median is shown)")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the project checkout to measure (default: this one)")
    args = parser.parse_args()
    root = args.checkout.resolve()
    sys.path.insert(0, str(root))
    Game, load_ruleset = _engine()
    cases = [c for c in CASES if not args.rulesets or c[0] in args.rulesets]
    print(f"{'ruleset':<20}{'p':>2}{'dec/s':>9}{'dec/game':>9}{'at':>5}{'replay':>10}{'clone':>10}"
          f"{'snapshot':>10}{'restore':>10}{'determ.':>10}{'replay/clone':>13}{'replay/snap+rest':>17}")
    for name, players, games in cases:
        rs = load_ruleset(root / "rulesets" / f"{name}.yaml")
        rate, per_game = decisions_per_second(Game, rs, players, args.games or games)
        at = args.at if args.at < per_game else int(per_game) // 2  # mid-game in a short game
        c = copies(Game, rs, players, at, args.repeat)
        by_clone = f"{c['replay'] / c['clone']:.0f}x" if c["clone"] else "-"
        by_snap = f"{c['replay'] / (c['snapshot'] + c['restore']):.0f}x" if c["snapshot"] else "-"
        print(f"{name:<20}{players:>2}{rate:>9.0f}{per_game:>9.0f}{c['at']:>5}{_fmt(c['replay']):>10}"
              f"{_fmt(c['clone']):>10}{_fmt(c['snapshot']):>10}{_fmt(c['restore']):>10}"
              f"{_fmt(c['determinize']):>10}{by_clone:>13}{by_snap:>17}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
