"""Soak run (not part of CI): many random games of every ruleset at every player count, with
the conformance checks after every decision. Prints a table of games, decisions and failures.

    python tests/soak.py --games 1000            # every ruleset under rulesets/
    python tests/soak.py --games 200 rulesets/trick_of_the_rails.yaml
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine.analysis.run import game_seed  # noqa: E402
from engine.game.game import Game  # noqa: E402
from engine.players.agents import make_agents  # noqa: E402
from engine.players.loop import play  # noqa: E402
from engine.rules.ruleset import load_ruleset  # noqa: E402
from conftest import random_play_options  # noqa: E402
from test_conformance import RULESETS, check_cards, check_decision  # noqa: E402


def soak(path: Path, players: int, games: int, seed: int) -> tuple[int, int, list[str]]:
    rs = load_ruleset(path)
    options = random_play_options(rs, players)
    decisions, failures = 0, []
    for i in range(games):
        s = game_seed(seed * 100 + players, i)
        try:
            game = Game(rs, players, options, s)

            def after(g: Game) -> None:
                check_cards(g)
                check_decision(g)
            play(game, make_agents(["random"] * players, s), after_each=after)
            game.scores()
            assert game.end_reason, "a finished game says why it ended"
            decisions += len(game.decisions)
        except Exception as exc:  # a soak run reports every failure, whatever it is
            failures.append(f"{path.name} {players}p seed {s}: {exc.__class__.__name__}: {exc}\n"
                            + "".join(traceback.format_exception(exc)[-3:]))
    return games, decisions, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", type=Path, help="ruleset files (default: all in rulesets/)")
    parser.add_argument("--games", type=int, default=1000, help="games per ruleset and player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    paths = args.rulesets or RULESETS
    print(f"{'ruleset':<26}{'players':>8}{'games':>8}{'decisions':>12}{'failures':>10}{'seconds':>9}")
    all_failures = []
    for path in paths:
        for n in load_ruleset(path).players:
            started = time.perf_counter()
            games, decisions, failures = soak(path, n, args.games, args.seed)
            all_failures += failures
            print(f"{path.stem:<26}{n:>8}{games:>8}{decisions:>12}{len(failures):>10}"
                  f"{time.perf_counter() - started:>9.1f}", flush=True)
    for f in all_failures[:20]:
        print("\n" + f)
    return 1 if all_failures else 0


if __name__ == "__main__":
    sys.exit(main())
