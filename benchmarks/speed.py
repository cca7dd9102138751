"""Speed benchmark: random games through the engine, against Trick of the Rails written by hand.

The measure of the goal "within a factor of two of hand-written code". For each shipped ruleset
(Trick of the Rails 4 players, Isle of Trains 3, Trainsilvania 3, Railways 4) it plays random
games through `simulate` (engine/analysis/simulate.py), the code path of `engine simulate`
(views, random agents, scores), in this one process on one thread, with fixed seeds, and prints
games/s and decisions/s: the median of `--repeat` runs. Then:

- rollouts: the same games through `Game.apply` alone, as a search plays out its worlds (no
  view, no agent, no log, no checkpoints): the cost of a decision inside look-ahead, which is
  rule code. For Trick of the Rails, "rollouts/reference": the goal is 3x or less.

- reference: benchmarks/reference_tor.py, Trick of the Rails as a plain hand-written simulator
  (checked against the engine with `python benchmarks/reference_tor.py --check`), plays as many
  games, run for run beside the engine's. "engine/reference" is the engine's time over the
  reference's for the same number of games: the goal is 2x or less.
- floor: benchmarks/floor.yaml, a ruleset of 57 decisions (as many as a Trick of the Rails game)
  and almost no rules, as many games, run for run beside the others. Its time is what the engine
  spends on decisions alone (ask, view, agent, apply, resume); "floor/reference" says how much of
  the 2x goal that leaves for the rules themselves.
- validate: wall time of `python -m engine validate` of the four rulesets, one subprocess
  (start-up, loading and checking all of them), median of `--repeat`, after one untimed run
  that writes Python's bytecode files and fills the engine's caches.
- memory: the tracemalloc peak of `simulate()` of Trick of the Rails for N and for 4N games. The
  per-game results simulate() keeps grow a little with N; a peak that grows much more than that
  means games leave something behind. Then the same games alone (public API, nothing kept): their
  peak should not grow with N at all.

    python benchmarks/speed.py                       # every shipped ruleset
    python benchmarks/speed.py trick_of_the_rails --repeat 5 --games 500
    python benchmarks/speed.py --json > speed.json

`--checkout PATH` measures another checkout of the project (its engine and rulesets), e.g. one
made by `git worktree add --detach /tmp/before COMMIT`; the reference is always this one.
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Ruleset, players, games per run: about 2-5 s a run at the speed of commit 88789dc.
CASES = [("trick_of_the_rails", 4, 1500), ("isle_of_trains", 3, 15), ("trainsilvania", 3, 90), ("railways", 4, 30)]
# Options the random games of a shipped ruleset need to end: random players never end Isle of
# Trains by its rules, so its round limit (off by default) is set, as its default was before.
RANDOM_PLAY = {"isle_of_trains": {"round_limit": "100"}}
SEED = 1  # the simulation seed; simulate() derives each game's seed from it
MEMORY_GAMES = 50  # N of the memory measure (N and 4N games)


def load_reference():
    """benchmarks/reference_tor.py of this checkout, whatever checkout is measured."""
    spec = importlib.util.spec_from_file_location("reference_tor", HERE / "reference_tor.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["reference_tor"] = module
    spec.loader.exec_module(module)
    return module


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = fn()
    return time.perf_counter() - started, result


def rates(name: str, players: int, games: int, times: list[float], decisions: int) -> dict[str, Any]:
    seconds = statistics.median(times)
    return {"ruleset": name, "players": players, "games": games, "seconds": round(seconds, 4),
            "games_per_second": round(games / seconds, 1), "decisions_per_second": round(decisions / seconds),
            "decisions_per_game": round(decisions / games, 1)}


def engine_run(simulate: Callable, rs: Any, players: int, games: int) -> int:
    """One simulate() run; returns the number of decisions taken."""
    options = rs.resolve_options(RANDOM_PLAY.get(Path(rs.path).stem, {}), players)
    result = simulate(rs, players, games, SEED, options)
    return sum(r["decisions"] for r in result["results"])


def reference_run(ref: Any, players: int, games: int) -> int:
    return sum(ref.play_random(SEED * 1_000_003 + i, players)[1] for i in range(games))


def validate_seconds(root: Path, repeat: int) -> float:
    """Median wall time of `python -m engine validate` of the shipped rulesets, in a subprocess
    that imports the engine of `root`, as a user runs it again and again: after one run that
    fills Python's bytecode files and the engine's caches (not timed)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    paths = [str(root / "rulesets" / f"{name}.yaml") for name, _, _ in CASES]
    times = []
    for _ in range(repeat + 1):
        seconds, done = timed(lambda: subprocess.run([sys.executable, "-m", "engine", "validate", *paths],
                                                     cwd=root, env=env, capture_output=True, text=True))
        if done.returncode != 0:
            raise SystemExit(f"engine validate failed:\n{done.stdout}{done.stderr}")
        times.append(seconds)
    return statistics.median(times[1:])


def memory_peak(run: Callable[[], Any]) -> int:
    """Bytes allocated at the peak of `run()`, over what was there before."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak - before


def rollout_run(Game: Any, rs: Any, players: int, games: int) -> int:
    """Random games through `Game.apply` alone, as a search plays out its worlds: no view, no
    agent, no log, no checkpoints; returns the number of decisions taken."""
    options = rs.resolve_options(RANDOM_PLAY.get(Path(rs.path).stem, {}), players)
    decisions = 0
    for i in range(games):
        game, rng = Game(rs, players, options, SEED + i, keep_log=False, rewind=False), random.Random(i)
        while not game.over:
            game.apply(rng.randrange(len(game.pending.options)))
        decisions += len(game.decisions)
    return decisions


def games_alone(Game: Any, rs: Any, players: int, games: int) -> None:
    """Random games through the public API, keeping nothing of them."""
    options = rs.resolve_options({}, players)
    for i in range(games):
        game, rng = Game(rs, players, options, SEED + i), random.Random(i)
        while not game.over:
            game.apply(rng.randrange(len(game.legal_actions())))


def commit_of(root: Path) -> str:
    done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty=+changes"],
                          capture_output=True, text=True)
    return done.stdout.strip() or "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default: all four shipped)")
    parser.add_argument("--games", type=int, help="games per run for every ruleset (default: per ruleset, 2-5 s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the median is shown)")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the project checkout to measure (default: this one)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    cases = [c for c in CASES if not args.rulesets or c[0] in args.rulesets]
    unknown = set(args.rulesets) - {c[0] for c in CASES}
    if unknown:
        parser.error(f"unknown ruleset(s) {', '.join(sorted(unknown))}; choose from {', '.join(c[0] for c in CASES)}")
    root = args.checkout.resolve()
    sys.path.insert(0, str(root))  # before the first import of the engine
    import engine
    from engine import Game, load_ruleset
    try:
        from engine.analysis.simulate import simulate
    except ModuleNotFoundError:  # a checkout of before the engine's layers
        from engine.simulate import simulate
    ref = load_reference()

    out: dict[str, Any] = {"checkout": str(root), "commit": commit_of(root), "engine": str(Path(engine.__file__).parent),
                           "python": platform.python_version(), "repeat": args.repeat, "seed": SEED, "rulesets": []}
    say = (lambda *a, **k: None) if args.json else print
    say(f"checkout {root} ({out['commit']}), engine from {out['engine']}, Python {out['python']}; "
        f"median of {args.repeat} runs, one process, one thread")
    say(f"{'':<28}{'games':>7}{'s/run':>8}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}")

    def row(label: str, r: dict[str, Any]) -> None:
        say(f"{label:<28}{r['games']:>7}{r['seconds']:>8.2f}{r['games_per_second']:>10.1f}"
            f"{r['decisions_per_second']:>13,}{r['decisions_per_game']:>10.1f}", flush=True)

    for name, players, default_games in cases:
        games = args.games or default_games
        rs = load_ruleset(root / "rulesets" / f"{name}.yaml")
        engine_run(simulate, rs, players, 1)  # warm up: compile, lay out
        with_ref = name == "trick_of_the_rails"
        times: list[float] = []
        ref_times: list[float] = []
        floor_times: list[float] = []
        rollout_times: list[float] = []
        if with_ref:
            floor = load_ruleset(HERE / "floor.yaml")
        for _ in range(args.repeat):  # engine, rollouts, reference and floor run for run, side by side
            seconds, decisions = timed(lambda: engine_run(simulate, rs, players, games))
            times.append(seconds)
            seconds, rollout_decisions = timed(lambda: rollout_run(Game, rs, players, games))
            rollout_times.append(seconds)
            if with_ref:
                seconds, ref_decisions = timed(lambda: reference_run(ref, players, games))
                ref_times.append(seconds)
                seconds, floor_decisions = timed(lambda: engine_run(simulate, floor, players, games))
                floor_times.append(seconds)
        result = rates(name, players, games, times, decisions)
        result["rollouts"] = rates(name, players, games, rollout_times, rollout_decisions)
        result["rollout_us_per_decision"] = round(1e6 / result["rollouts"]["decisions_per_second"], 2)
        out["rulesets"].append(result)
        row(f"{name} ({players}p)", result)
        row("  rollouts (apply alone)", result["rollouts"])
        say(f"{'  rollout decision':<28}{result['rollout_us_per_decision']:>21.2f} us")
        if with_ref:
            out["reference"] = rates("reference_tor", players, games, ref_times, ref_decisions)
            out["engine_over_reference"] = round(result["seconds"] / out["reference"]["seconds"], 1)
            row("  hand-written reference", out["reference"])
            out["rollout_over_reference"] = round(result["rollouts"]["seconds"] / out["reference"]["seconds"], 2)
            say(f"{'  rollouts/reference':<28}{out['rollout_over_reference']:>24.2f}x the time (goal: 3x or less)")
            say(f"{'  engine/reference':<28}{out['engine_over_reference']:>24.1f}x the time (goal: 2x or less)")
            out["floor"] = rates("floor", players, games, floor_times, floor_decisions)
            out["floor_over_reference"] = round(out["floor"]["seconds"] / out["reference"]["seconds"], 2)
            row("  floor (decisions only)", out["floor"])
            say(f"{'  floor/reference':<28}{out['floor_over_reference']:>24.2f}x the time, before any rule runs")

    out["validate_seconds"] = round(validate_seconds(root, args.repeat), 3)
    say(f"validate: `python -m engine validate` of the 4 rulesets, one subprocess: {out['validate_seconds']:.2f} s")

    if any(c[0] == "trick_of_the_rails" for c in cases):
        rs = load_ruleset(root / "rulesets" / "trick_of_the_rails.yaml")
        counts = [MEMORY_GAMES, 4 * MEMORY_GAMES]
        options = rs.resolve_options({}, 4)
        peaks = [memory_peak(lambda: simulate(rs, 4, n, SEED, options)) for n in counts]
        alone = [memory_peak(lambda: games_alone(Game, rs, 4, n)) for n in counts]
        out["memory"] = {"games": counts, "peak_bytes": peaks, "games_alone_peak_bytes": alone}
        say(f"memory: tracemalloc peak of simulate() of trick_of_the_rails: {peaks[0] / 1e3:,.0f} kB for "
            f"{counts[0]} games, {peaks[1] / 1e3:,.0f} kB for {counts[1]} games "
            f"({(peaks[1] - peaks[0]) / (counts[1] - counts[0]) / 1e3:.2f} kB more a game: its per-game results); "
            f"the games alone: {alone[0] / 1e3:,.0f} kB and {alone[1] / 1e3:,.0f} kB")

    summary = []
    if "reference" in out:
        tor = out["rulesets"][0]
        summary.append(f"trick_of_the_rails {tor['games_per_second']:.0f} games/s, hand-written "
                       f"{out['reference']['games_per_second']:.0f} games/s: {out['engine_over_reference']}x, "
                       f"floor {out['floor_over_reference']}x, rollouts {out['rollout_over_reference']}x (goal 3x)")
    summary += [f"{r['ruleset']} {r['games_per_second']:g} games/s" for r in out["rulesets"] if r["ruleset"] != "trick_of_the_rails"]
    summary.append("rollout us/decision " + ", ".join(f"{r['ruleset']} {r['rollout_us_per_decision']:g}"
                                                     for r in out["rulesets"]))
    summary.append(f"validate {out['validate_seconds']:.2f} s")
    if "memory" in out:
        summary.append("peak memory {:,.0f}/{:,.0f} kB".format(*(p / 1e3 for p in out["memory"]["peak_bytes"])))
    out["summary"] = "; ".join(summary)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print("summary: " + out["summary"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
