"""Instructions per decision of random games, counted by valgrind: a speed measure that does not
move with the machine's load (seconds on a shared 2-core machine vary by 10% from run to run).

For each shipped ruleset, the same random games are run under `valgrind --tool=callgrind`,
once with no game (loading only) and once with the games; the difference divided by the
decisions is the engine's cost per decision. `--against PATH` measures another checkout of the
project the same way, side by side (e.g. a `git worktree` of the previous commit).

    python benchmarks/instructions.py
    python benchmarks/instructions.py --against ../before trick_of_the_rails

Needs valgrind (Debian package valgrind). Slow: a few minutes per ruleset and checkout. Counts
still move by about 1% between runs (memory addresses differ), far less than seconds do.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Ruleset, players, games: the games are seeds 1000, 1001, ... played by Random(0), Random(1)...
# Enough games that the games, not the loading subtracted, make most of the count.
CASES = [("trick_of_the_rails", 4, 40), ("isle_of_trains", 3, 3), ("trainsilvania", 3, 6), ("railways", 4, 3)]
# Options the random games of a shipped ruleset need to end: random players never end Isle of
# Trains by its rules, so its round limit (off by default) is set, as its default was before.
RANDOM_PLAY = {"isle_of_trains": {"round_limit": "100"}}

RUN = """
import json, random, sys
sys.path.insert(0, sys.argv[1])
from engine import Game, load_ruleset
rules = load_ruleset(sys.argv[1] + "/rulesets/" + sys.argv[2] + ".yaml")
options = rules.resolve_options(json.loads(sys.argv[5]), int(sys.argv[3]))
decisions = 0
for i in range(int(sys.argv[4])):
    game = Game(rules, int(sys.argv[3]), options, 1000 + i)
    rng = random.Random(i)
    while not game.over:
        game.apply(rng.randrange(len(game.legal_actions())))
    decisions += len(game.decisions)
print("decisions", decisions)
"""


def instructions(root: Path, name: str, players: int, games: int) -> tuple[int, int]:
    """Instructions counted and decisions taken by `games` random games (with loading)."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                           "-c", RUN, str(root), name, str(players), str(games), json.dumps(RANDOM_PLAY.get(name, {}))],
                          capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    counted = int(re.search(r"Collected : (\d+)", proc.stderr).group(1))
    decisions = int(re.search(r"decisions (\d+)", proc.stdout).group(1))
    return counted, decisions


def per_decision(root: Path, name: str, players: int, games: int) -> tuple[float, int]:
    loading, _ = instructions(root, name, players, 0)
    total, decisions = instructions(root, name, players, games)
    return (total - loading) / decisions, decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default: all four shipped)")
    parser.add_argument("--against", type=Path, help="another checkout of the project to measure too")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    head = f"{'ruleset':<20}{'p':>2}{'decisions':>10}" + "".join(f"{'instr/dec ' + r.name:>24}" for r in roots)
    print(head + (f"{'change':>9}" if args.against else ""))
    for name, players, games in CASES:
        if args.rulesets and name not in args.rulesets:
            continue
        counts = [per_decision(root, name, players, games) for root in roots]
        line = f"{name:<20}{players:>2}{counts[0][1]:>10}" + "".join(f"{c:>24,.0f}" for c, _ in counts)
        if args.against:
            line += f"{counts[0][0] / counts[1][0] - 1:>+9.1%}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
