"""Instruction counts of the engine's work, counted by valgrind: a speed measure that does not
move with the machine's load (seconds on a shared 2-core machine vary by 10% from run to run),
and the gate that fails CI when the engine grows slower.

The cases, two for each shipped ruleset (CASES):
  NAME game   random games: seeds 1000, 1001, ... played by Random(0), Random(1), ...
  NAME mcts   one mcts decision (seat `mcts:iterations=30`, seed 1, with the ruleset's `bots:`
              defaults) at a fixed position: after a number of random decisions of game 1000.
Each case's count is the difference of two runs of a fresh Python under
`valgrind --tool=callgrind`: one that starts, imports the engine, loads the ruleset and reaches
the position, and one that does the same and then the case's work. Both run with
PYTHONHASHSEED=0 and a warmed engine cache of their own, so the counts are the engine's work
alone: no start-up, imports or loading. They move by 0.2% at most between runs (memory
addresses differ with the folder and the environment), far less than the 10% --check allows.

    python benchmarks/instructions.py                       # the table of counts
    python benchmarks/instructions.py trick_of_the_rails    # one ruleset's cases
    python benchmarks/instructions.py --against ../before   # another checkout's too, side by side
    python benchmarks/instructions.py --check               # against the baseline: what CI runs
    python benchmarks/instructions.py --write-baseline      # measure and write the baseline

--check compares fresh counts with the baseline committed in benchmarks/instructions-baseline.json
and exits 1 when any grew by more than 10%, or when a case is missing from one side or defined
differently (its games, position or bot changed); a count that shrank by more than 10% is
reported, not failed: write the baseline anew, or later growth back up to the old count goes
unseen. A change that makes the engine do more on purpose writes the baseline in the same
commit (--write-baseline) and says why in its message.

Counts depend on the Python build (its version, build and compiler, as sys.version tells them)
and the processor's architecture, which the baseline records with the platform. On another
Python or architecture, or without valgrind, --check measures nothing and exits 2, saying why:
it cannot tell, and CI must not pass a check that did not run. Compare two checkouts on your
own machine with --against instead (e.g. a `git worktree` of main), or, where CI's Python
itself changed, write the baseline anew there. `.ci/run` runs --check; INSTRUCTION_CHECK=skip
skips it, saying so.

Needs valgrind (Debian package valgrind). The cases run in parallel, --jobs at a time (default:
one per core): about 2 minutes of CPU in all, most of it the start-up and loading subtracted,
so about a minute on 2 idle cores.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "benchmarks" / "instructions-baseline.json"
WRITE_COMMAND = "python benchmarks/instructions.py --write-baseline"
LIMIT = 0.10  # --check fails when a count grows by more than this share of the baseline
SHRINK = 0.10  # and reports one that shrinks by more than this (the baseline wants writing anew)
MCTS_SEAT = "mcts:iterations=30"
MCTS_SEED = 1


@dataclass
class Case:
    """A shipped ruleset's two cases: its random games and its mcts decision."""
    ruleset: str
    players: int
    games: int  # random games: enough that they, not the noise of what is subtracted, count
    position: int  # the mcts decision is taken after this many random decisions of game 1000
    options: dict[str, str] = field(default_factory=dict)

    def setups(self) -> dict[str, str]:
        """What each case measures, in words: a baseline counts only for the same setup."""
        opts = "".join(f", {k}={v}" for k, v in sorted(self.options.items()))
        return {f"{self.ruleset} game": f"{self.players}p{opts}, {self.games} random games from seed 1000",
                f"{self.ruleset} mcts": f"{self.players}p{opts}, {MCTS_SEAT} seed {MCTS_SEED} "
                                        f"after {self.position} random decisions of game 1000"}


# Random players never end Isle of Trains by its rules, so its round limit (off by default) is set.
CASES = [
    Case("trick_of_the_rails", 4, 40, 5),
    Case("isle_of_trains", 3, 3, 10, {"round_limit": "100"}),
    Case("trainsilvania", 3, 6, 20),
    Case("railways", 4, 3, 20),
]

# Run by a fresh Python: ROOT NAME PLAYERS OPTIONS(json) GAMES POSITION SEAT SEED STAGE. Every
# stage starts, loads the ruleset and reaches the position; "games" then plays the games and
# "mcts" takes the decision. Prints what it did as JSON.
RUN = """
import gc, json, random, sys
root, name, players, options, games, position, seat, seed, stage = sys.argv[1:]
players, games, position, seed = int(players), int(games), int(position), int(seed)
sys.path.insert(0, root)
from engine import Game, load_ruleset, view
try:
    from engine.players.agents import make_agent
except ImportError:  # a checkout from before the layers
    from engine.agents import make_agent
rules = load_ruleset(root + "/rulesets/" + name + ".yaml")
options = rules.resolve_options(json.loads(options), players)
game = Game(rules, players, options, 1000)
rng = random.Random(0)
for _ in range(position):
    game.apply(rng.randrange(len(game.legal_actions())))
agent = make_agent(seat, seed, defaults=getattr(rules, "bots", None))
done = {"options": len(game.legal_actions())}
gc.collect()
gc.freeze()  # what is loaded is not collected again: the work starts from the same state
if stage == "games":
    decisions = 0
    for i in range(games):
        g = Game(rules, players, options, 1000 + i)
        r = random.Random(i)
        while not g.over:
            g.apply(r.randrange(len(g.legal_actions())))
        decisions += len(g.decisions)
    done["decisions"] = decisions
elif stage == "mcts":
    done["choice"] = agent.choose(view(game, game.pending.player))
print(json.dumps(done))
"""


class CannotMeasure(Exception):
    """Counts cannot be taken here, or not compared: why, in a sentence."""


def _environment(cache: Path) -> dict[str, str]:
    """The measured Python's environment: fixed hashes, an engine cache of its own, nothing of
    the caller's PYTHON* variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return {**env, "PYTHONHASHSEED": "0", "XDG_CACHE_HOME": str(cache)}


def _arguments(root: Path, case: Case, stage: str) -> list[str]:
    return ["-c", RUN, str(root), case.ruleset, str(case.players), json.dumps(case.options), str(case.games),
            str(case.position), MCTS_SEAT, str(MCTS_SEED), stage]


def _run(root: Path, case: Case, stage: str, cache: Path, valgrind: bool) -> tuple[int | None, dict[str, Any]]:
    """One stage of a case in a fresh Python: (instructions counted or None, what it printed)."""
    command = [sys.executable, *_arguments(root, case, stage)]
    if valgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    proc = subprocess.run(command, capture_output=True, text=True, env=_environment(cache), cwd=cache, check=False)
    if proc.returncode != 0:
        raise CannotMeasure(f"{case.ruleset} {stage} failed in {root}:\n{proc.stderr[-3000:]}")
    done = json.loads(proc.stdout.strip().splitlines()[-1])
    if not valgrind:
        return None, done
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise CannotMeasure(f"no count in valgrind's output for {case.ruleset} {stage}:\n{proc.stderr[-3000:]}")
    return int(found.group(1)), done


def measure(root: Path, cases: list[Case], jobs: int) -> dict[str, dict[str, Any]]:
    """The counts of the cases of `root`'s checkout: {case name: {"instructions", "setup", ...}}."""
    with tempfile.TemporaryDirectory(prefix="instructions-") as folder, ThreadPoolExecutor(max(1, jobs)) as pool:
        cache = Path(folder)
        # Once without valgrind: the engine's cache and the bytecode are written before any
        # count (a run that wrote them would count the writing), and a broken case fails fast.
        warm = [pool.submit(_run, root, case, stage, cache, False) for case in cases for stage in ("games", "mcts")]
        for case, future in zip([case for case in cases for _ in range(2)], warm):
            options = future.result()[1]["options"]
            if options < 2:
                raise CannotMeasure(f"{case.ruleset}: the mcts position has {options} option(s); choose another")
        # The slowest first, so that the last to finish are short.
        runs = [(case, stage) for stage in ("mcts", "games", "base") for case in cases]
        futures = {(case.ruleset, stage): pool.submit(_run, root, case, stage, cache, True) for case, stage in runs}
        try:
            counts = {run: future.result() for run, future in futures.items()}
        except BaseException:  # a failed run, or Ctrl-C: the runs not started are not waited for
            pool.shutdown(cancel_futures=True)
            raise
    results: dict[str, dict[str, Any]] = {}
    for case in cases:
        base = counts[case.ruleset, "base"][0]
        (game_name, game_setup), (mcts_name, mcts_setup) = case.setups().items()
        games, games_done = counts[case.ruleset, "games"]
        mcts, mcts_done = counts[case.ruleset, "mcts"]
        results[game_name] = {"instructions": games - base, "setup": game_setup,
                              "decisions": games_done["decisions"]}
        results[mcts_name] = {"instructions": mcts - base, "setup": mcts_setup,
                              "options": mcts_done["options"]}
    return results


# --- the comparison (no valgrind: tests/test_instruction_gate.py) ---

@dataclass
class Row:
    """One case of a comparison: its counts before (the baseline) and now, and the verdict."""
    case: str
    before: int | None
    now: int | None
    verdict: str  # ok, grew, shrank (a hint), missing, new, redefined
    note: str = ""

    @property
    def change(self) -> float | None:
        return self.now / self.before - 1 if self.before and self.now is not None else None


FAILING = ("grew", "missing", "new", "redefined")


def compare(before: dict[str, dict[str, Any]], now: dict[str, dict[str, Any]],
            limit: float = LIMIT, shrink: float = SHRINK) -> list[Row]:
    """Each case of either side, judged: `grew` by more than `limit` (a share of the count
    before), `shrank` by more than `shrink`, `missing` now, `new` (not before), `redefined`
    (measured in another setup than before), else `ok`."""
    rows = []
    for case in list(before) + [c for c in now if c not in before]:
        old, new = before.get(case), now.get(case)
        if new is None:
            rows.append(Row(case, old["instructions"], None, "missing", "not measured now"))
            continue
        if old is None:
            rows.append(Row(case, None, new["instructions"], "new", "not in the baseline"))
            continue
        row = Row(case, old["instructions"], new["instructions"], "ok")
        if old.get("setup") != new.get("setup"):
            row.verdict, row.note = "redefined", f"was: {old.get('setup')}"
        elif new["instructions"] > old["instructions"] * (1 + limit):
            row.verdict = "grew"
        elif new["instructions"] < old["instructions"] * (1 - shrink):
            row.verdict = "shrank"
        if row.verdict in ("ok", "grew", "shrank") and old.get("decisions") != new.get("decisions"):
            row.note = f"other games: {old.get('decisions')} decisions, now {new.get('decisions')}"
        rows.append(row)
    return rows


def failed(rows: list[Row]) -> bool:
    return any(row.verdict in FAILING for row in rows)


def table(rows: list[Row], before: str = "baseline", now: str = "now") -> str:
    """The rows as a table: case, count before, count now, change, and what is wrong, if anything."""
    def number(n: int | None) -> str:
        return "-" if n is None else f"{n:,}"
    width = max([len("case")] + [len(row.case) for row in rows])
    lines = [f"{'case':<{width}}  {before:>15}  {now:>15}  {'change':>7}"]
    for row in rows:
        change = "" if row.change is None else f"{row.change:+.1%}"
        mark = {"ok": "", "grew": f"GREW more than {LIMIT:.0%}", "shrank": f"shrank more than {SHRINK:.0%}",
                "missing": "MISSING", "new": "NEW", "redefined": "REDEFINED"}[row.verdict]
        text = "; ".join(t for t in (mark, row.note) if t)
        lines.append(f"{row.case:<{width}}  {number(row.before):>15}  {number(row.now):>15}  {change:>7}"
                     + (f"  {text}" if text else ""))
    return "\n".join(lines)


def summary(rows: list[Row]) -> str:
    """What the comparison says, and what to do about it."""
    lines = []
    grew = [row.case for row in rows if row.verdict == "grew"]
    if grew:
        lines.append(f"FAILED: {', '.join(grew)} grew by more than {LIMIT:.0%}. Make the engine do less again, or, "
                     f"if the growth is meant, run `{WRITE_COMMAND}` and say why in the commit message.")
    unmatched = [row.case for row in rows if row.verdict in ("missing", "new", "redefined")]
    if unmatched:
        lines.append(f"FAILED: {', '.join(unmatched)}: the cases and the baseline differ; "
                     f"run `{WRITE_COMMAND}` in the commit that changes the cases.")
    shrank = [row.case for row in rows if row.verdict == "shrank"]
    if shrank:
        lines.append(f"Note: {', '.join(shrank)} shrank by more than {SHRINK:.0%}: run `{WRITE_COMMAND}` so that "
                     "the check guards the new counts.")
    if not failed(rows):
        lines.insert(0, f"ok: no count grew by more than {LIMIT:.0%}.")
    return "\n".join(lines)


# --- the machine: counts compare only on the same Python build and architecture ---

def machine() -> dict[str, str]:
    """What the counts depend on (python, machine), and what they are told with (the rest)."""
    libc = " ".join(platform.libc_ver()).strip()
    try:
        valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True, check=False).stdout
        valgrind = valgrind.strip()
    except OSError:
        valgrind = ""
    return {"python": f"{platform.python_implementation()} {sys.version}", "machine": platform.machine(),
            "platform": platform.platform(), "libc": libc, "valgrind": valgrind}


COMPARABLE = ("python", "machine")  # keys of machine() that must match for counts to compare


def incomparable(baseline: dict[str, str], here: dict[str, str], keys: tuple[str, ...] = COMPARABLE) -> list[str]:
    """Why counts taken on `baseline`'s machine do not compare with counts taken here (none: they do)."""
    return [f"{key}: baseline {baseline.get(key)!r}, here {here.get(key)!r}"
            for key in keys if baseline.get(key) != here.get(key)]


def _commit() -> str | None:
    """The checkout's commit, marked when engine/, rulesets/ or this file differ from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "engine", "rulesets", "benchmarks/instructions.py"],
                               cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + (" with uncommitted changes" if dirty.stdout.strip() else "")


def read_baseline(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CannotMeasure(f"no baseline at {path}: write one with `{WRITE_COMMAND}`") from None
    except ValueError as exc:
        raise CannotMeasure(f"{path} is not JSON ({exc}): write it anew with `{WRITE_COMMAND}`") from None
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, dict) or not all(isinstance(c, dict) and isinstance(c.get("instructions"), int)
                                              for c in cases.values()):
        raise CannotMeasure(f"{path} has no cases with counts: write it anew with `{WRITE_COMMAND}`")
    return data


def write_baseline(path: Path, results: dict[str, dict[str, Any]]) -> None:
    data = {
        "about": f"Instruction counts of benchmarks/instructions.py's cases, the engine's work alone; written by "
                 f"`{WRITE_COMMAND}`. `--check` (run by .ci/run) fails when a count grows by more than "
                 f"{LIMIT:.0%}. Counts compare only on the same python and machine.",
        "commit": _commit(),
        **machine(),
        "cases": results,
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default: all four shipped)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--against", type=Path, metavar="CHECKOUT", help="another checkout of the project to measure too")
    mode.add_argument("--check", action="store_true",
                      help=f"compare with the baseline: exit 1 when a count grew by more than {LIMIT:.0%}% or the "
                           "cases differ, 2 when the counts cannot be compared here")
    mode.add_argument("--write-baseline", action="store_true", help="measure every case and write the baseline")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help=f"the baseline file (default: {BASELINE.relative_to(ROOT)})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="valgrind runs at a time (default: one per core)")
    args = parser.parse_args(argv)
    unknown = set(args.rulesets) - {c.ruleset for c in CASES}
    if unknown:
        parser.error(f"unknown ruleset(s) {', '.join(sorted(unknown))}; the cases are of {', '.join(c.ruleset for c in CASES)}")
    if args.write_baseline and args.rulesets:
        parser.error("--write-baseline measures every case: name no ruleset")
    cases = [c for c in CASES if not args.rulesets or c.ruleset in args.rulesets]
    started = time.perf_counter()
    try:
        if shutil.which("valgrind") is None:
            raise CannotMeasure("valgrind is not installed (Debian: apt-get install valgrind)")
        if args.check:
            baseline, here = read_baseline(args.baseline), machine()
            differences = incomparable(baseline, here)
            if differences:
                raise CannotMeasure(
                    "the baseline's counts were taken on another Python or machine, so counts taken here do not "
                    "compare with them:\n  " + "\n  ".join(differences) + "\nCompare two checkouts here with "
                    f"--against instead; where this is CI's new Python, run `{WRITE_COMMAND}` here and commit it.")
            print(f"Measuring {2 * len(cases)} cases under valgrind, {args.jobs} run(s) at a time...", flush=True)
            now = measure(ROOT, cases, args.jobs)
            before = {k: v for k, v in baseline["cases"].items() if not args.rulesets or k.split()[0] in args.rulesets}
            rows = compare(before, now)
            print(f"Instruction counts against {args.baseline.name} (commit {baseline.get('commit')}); "
                  f"a count may grow by {LIMIT:.0%}:")
            others = incomparable(baseline, here, tuple(k for k in here if k not in COMPARABLE))
            if others:  # told, not failed: these barely move a count
                print("Note: the same Python, but another\n  " + "\n  ".join(others))
            print(table(rows))
            print(summary(rows))
            print(f"({time.perf_counter() - started:.0f} s)")
            return 1 if failed(rows) else 0
        now = measure(ROOT, cases, args.jobs)
        if args.write_baseline:
            write_baseline(args.baseline, now)
            print(f"wrote {args.baseline} ({time.perf_counter() - started:.0f} s)")
        if args.against:
            other = measure(args.against.resolve(), cases, args.jobs)
            print(table(compare(other, now, float("inf"), float("inf")), args.against.resolve().name, ROOT.name))
        else:
            width = max(len(name) for name in now)
            print(f"{'case':<{width}}  {'instructions':>15}  {'per decision':>12}")
            for name, result in now.items():
                per = f"{result['instructions'] / result['decisions']:,.0f}" if "decisions" in result else ""
                print(f"{name:<{width}}  {result['instructions']:>15,}  {per:>12}")
        return 0
    except CannotMeasure as exc:
        print(f"instructions: cannot {'check' if args.check else 'measure'}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
