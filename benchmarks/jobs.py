"""Benchmark of simulations at scale: --jobs 2 against --jobs 1, and the cost of --out.

For Trick of the Rails (4 players, short games) and Railways of the World (4 players, the
slowest shipped ruleset per game) it plays the same random games with `engine.analysis.simulate`,
the code path of `engine simulate`, on 1 and on 2 processes, and prints games/s and the speed-up
(goal: 1.8x or more on 2 cores). The time of `--jobs 2` includes starting its worker processes
and their loading the ruleset: what a user waits for. Beside it, "2 x --jobs 1": two separate
processes of --jobs 1 with half the games each, at the same time, the time until both are done:
what the machine gives two processes at that moment, with no cost of --jobs at all, so that a
--jobs 2 below 1.8x on a busy machine can be told from a cost of --jobs itself. Then the cost of streaming records to a
run file (`--out`): the same games with and without a file, on 1 process (goal: under 5%), and,
less at the mercy of the machine's load, the time of writing their records alone against the
time of playing them.

"CPU s" is the processor time the run took, its worker processes' included: --jobs 2 doing the
same work as --jobs 1 takes about as much, whatever the load; the wall-clock speed-up then
depends on the second core being free. (With the kernel's autogroup scheduling, as on the
shared machine this was written on, the processor is shared fairly between sessions, not
processes: while another session keeps one core busy, all the processes of this one share the
other, whatever their number.)

Each figure is the median of `--repeat` runs, the runs of the things compared taken in turn, so
that a change of the machine's load hits both. The load average is printed before and after:
on a shared machine a speed-up below 2x may only mean that the second core was busy.

    python benchmarks/jobs.py
    python benchmarks/jobs.py --repeat 5 --scale 2
    python benchmarks/jobs.py --json > jobs.json
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.analysis.run import RunSpec  # noqa: E402
from engine.analysis.runfile import RunFile  # noqa: E402
from engine.analysis.simulate import simulate  # noqa: E402
from engine.rules.ruleset import load_ruleset  # noqa: E402

# Ruleset, players, games a run at scale 1: about 5-10 s on one process of this machine.
CASES = [("trick_of_the_rails", 4, 5000), ("railways", 4, 120)]
OUT_CASE = ("trick_of_the_rails", 4, 3000)
SEED = 1


CPU: dict[str, list[float]] = {}  # CPU seconds of each run, by setting


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the workers of --jobs 2)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_run(name: str, players: int, games: int, jobs: int, out: Path | None = None) -> float:
    rules = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    options = rules.resolve_options({}, players)
    if out is not None and out.exists():
        out.unlink()
    started, cpu = time.perf_counter(), cpu_seconds()
    simulate(rules, players, games, SEED, options, jobs=jobs, out=out)
    CPU.setdefault(f"{name} {jobs} {out is not None}", []).append(cpu_seconds() - cpu)
    return time.perf_counter() - started


def append_time(name: str, players: int, games: int, path: Path) -> float:
    """Seconds to append one record to a run file (as --out does, flushed), median of 5 rounds."""
    rules = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    options = rules.resolve_options({}, players)
    records = simulate(rules, players, games, SEED, options)["results"]
    spec = RunSpec.of(rules, players, ["random"] * players, options, SEED)
    rounds = []
    for _ in range(5):
        path.unlink(missing_ok=True)
        file = RunFile.open(path, spec, games)
        started = time.perf_counter()
        for record in records:
            file.append(record)
        rounds.append((time.perf_counter() - started) / len(records))
        file.close()
    return statistics.median(rounds)


def side_by_side(name: str, players: int, games: int) -> float:
    """Two separate processes of --jobs 1, half the games each, at once: what this machine gives
    two processes now, without anything of --jobs 2 (the time until both are done)."""
    procs = [subprocess.Popen([sys.executable, __file__, "--one", name, str(players), str(games // 2)],
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    return max(float(p.communicate()[0]) for p in procs)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure; the median is shown")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--one", nargs=3, metavar=("RULESET", "PLAYERS", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:  # one process of side_by_side()
        print(timed_run(args.one[0], int(args.one[1]), int(args.one[2]), 1))
        return 0
    rows: list[dict[str, Any]] = []
    before = load()
    for name, players, games in CASES:
        games = max(1, round(games * args.scale))
        times: dict[str, list[float]] = {"--jobs 1": [], "--jobs 2": [], "2 x --jobs 1": []}
        for _ in range(args.repeat):
            times["--jobs 1"].append(timed_run(name, players, games, 1))
            times["--jobs 2"].append(timed_run(name, players, games, 2))
            times["2 x --jobs 1"].append(side_by_side(name, players, games))
        one = statistics.median(times["--jobs 1"])
        for setting, measured in times.items():
            seconds = statistics.median(measured)
            cpu = CPU.get(f"{name} {setting[-1]} False") if setting.startswith("--") else None
            rows.append({"measure": f"{name} {players}p", "games": games, "setting": setting,
                         "seconds": round(seconds, 2), "games_per_second": round(games / seconds, 1),
                         "vs_jobs_1": f"{one / seconds:.2f}x",
                         "cpu_seconds": round(statistics.median(cpu), 2) if cpu else None})
    name, players, games = OUT_CASE
    games = max(1, round(games * args.scale))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "runs.jsonl"
        plain, streamed = [], []
        for _ in range(args.repeat):
            plain.append(timed_run(name, players, games, 1))
            streamed.append(timed_run(name, players, games, 1, out))
        per_record = append_time(name, players, games, Path(folder) / "append.jsonl")
    base = statistics.median(plain)
    for setting, measured in (("--jobs 1", plain), ("--jobs 1 --out", streamed)):
        seconds = statistics.median(measured)
        rows.append({"measure": f"{name} {players}p", "games": games, "setting": setting,
                     "seconds": round(seconds, 2), "games_per_second": round(games / seconds, 1),
                     "vs_jobs_1": f"{(seconds / base - 1):+.1%} time"})
    # The cost of --out alone, without the noise of two whole runs: writing the records of
    # these games, against the time of playing them.
    rows.append({"measure": f"{name} {players}p", "games": games, "setting": "--out writes only",
                 "seconds": round(per_record * games, 3), "games_per_second": round(1 / per_record, 1),
                 "vs_jobs_1": f"{per_record * games / base:+.1%} time"})
    after = load()
    if args.json:
        json.dump({"cores": os.cpu_count(), "load_before": before, "load_after": after, "rows": rows},
                  sys.stdout, indent=1)
        print()
        return 0
    print(f"{os.cpu_count()} cores; load average (1, 5, 15 min) before {before}, after {after}")
    print(f"{'measure':<24}{'games':>7}  {'setting':<19}{'seconds':>9}{'games/s':>10}  {'vs --jobs 1':>12}"
          f"{'CPU s':>8}")
    for r in rows:
        cpu = f"{r['cpu_seconds']:>8.2f}" if r.get("cpu_seconds") is not None else ""
        print(f"{r['measure']:<24}{r['games']:>7}  {r['setting']:<19}{r['seconds']:>9.2f}"
              f"{r['games_per_second']:>10.1f}  {r['vs_jobs_1']:>12}{cpu}")
    print("goals: --jobs 2 at least 1.80x of --jobs 1 (2 cores; 2 x --jobs 1 is the machine's own limit now); "
          "--out under +5.0% time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
