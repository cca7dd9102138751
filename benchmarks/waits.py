"""Waits benchmark: how long a person waits for the bots between two of their decisions.

Every shipped ruleset at 3 players, as `engine play` seats it: a person in seat 1 and `mcts`
bots (with the ruleset's `bots:` settings) in the others. The person answers at once (a random
option, drawn from its own seeded generator), so that every second counted is the bots'. A
wait is the wall time from the person's answer to the next time they are asked, where a bot
had a choice (two options or more) in between: two decisions of one turn in a row, or a bot's
forced move alone, are no wait. Each game stops after --waits waits or at
its end. Goal (issue 42): the median wait at most 2 s in every ruleset on this machine.

--think SECONDS gives the bots the time budget `engine play --think` gives them
(engine/players/budget.py); --think 0 plays their fixed budgets, as `engine simulate` does
(and as `engine play` did before it had a time budget): the before and after. Wall time
depends on what else the machine runs, so each ruleset is played with every budget asked for
(by default 0, then engine play's) before the next ruleset: their figures are of one moment.

    python benchmarks/waits.py                         # the fixed budgets, then the default time budget
    python benchmarks/waits.py --think 0.3             # one budget
    python benchmarks/waits.py --games 2 --waits 10 --only railways
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Game, load_ruleset  # noqa: E402
from engine.analysis.run import game_seed  # noqa: E402
from engine.game.view import PlayerView  # noqa: E402
from engine.players.agents import make_agents  # noqa: E402
from engine.players.loop import play  # noqa: E402

RULESETS = ["trick_of_the_rails", "isle_of_trains", "trainsilvania", "railways"]
PLAYERS = 3
SEED = 1


class Enough(Exception):
    """The person has waited as often as the benchmark counts."""


class InstantPerson:
    """Seat 1: answers at once, and keeps the wall time between its answer and the next question."""

    def __init__(self, seed: int, most: int):
        self.rng = random.Random(seed)
        self.most = most
        self.answered: float | None = None
        self.bots_chose = False  # whether a bot had a choice since the person's last answer
        self.waits: list[float] = []

    def choose(self, view: PlayerView) -> int:
        now = time.perf_counter()
        if self.answered is not None and self.bots_chose:
            self.waits.append(now - self.answered)
            if len(self.waits) >= self.most:
                raise Enough()
        choice = self.rng.randrange(view.option_count)
        self.bots_chose = False
        self.answered = time.perf_counter()
        return choice


class Watched:
    """A bot that tells the person when it had a choice."""

    def __init__(self, agent: Any, person: InstantPerson):
        self.agent, self.person = agent, person

    def choose(self, view: PlayerView) -> int:
        if view.option_count > 1:
            self.person.bots_chose = True
        return self.agent.choose(view)


def bots(seats: list[str], seed: int, defaults: dict[str, dict[str, Any]], think: float) -> list[Any]:
    """The bots as `engine play --think` makes them (0: their fixed budgets)."""
    if think > 0:
        from engine.players.budget import timed_defaults
        defaults = timed_defaults(defaults, think)
    return make_agents(seats, seed, make_human=lambda: None, defaults=defaults)


def waits_of(name: str, games: int, most: int, think: float) -> list[float]:
    ruleset = load_ruleset(name)
    waits: list[float] = []
    for k in range(games):
        seed = game_seed(SEED, k)
        game = Game(ruleset, PLAYERS, ruleset.resolve_options({}, PLAYERS), seed)
        person = InstantPerson(seed, most)
        made = bots(["human"] + ["mcts"] * (PLAYERS - 1), seed, ruleset.bots, think)[1:]
        agents = [person] + [Watched(agent, person) for agent in made]
        try:
            play(game, agents)
        except Enough:
            pass
        waits += person.waits
    return waits


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--think", metavar="SECONDS,...", help="the bots' time budgets a decision, comma-separated "
                   "(default: 0, their fixed budgets, and engine play's default)")
    p.add_argument("--games", type=int, default=3, help="games a ruleset (default 3)")
    p.add_argument("--waits", type=int, default=20, help="waits counted a game at most (default 20)")
    p.add_argument("--only", help="comma-separated rulesets (default: every shipped one)")
    args = p.parse_args()
    if args.think is None:
        from engine.players.budget import THINK
        budgets = [0.0, THINK]
    else:
        budgets = [float(t) for t in args.think.split(",")]
    names = args.only.split(",") if args.only else RULESETS
    print(f"waits between a person's decisions, {PLAYERS} players, mcts bots, "
          f"{args.games} games of at most {args.waits} waits (--think 0: the fixed budgets)")
    print(f"{'ruleset':20} {'--think':>7} {'waits':>5} {'median s':>9} {'p90 s':>7} {'max s':>7}")
    for name in names:
        for think in budgets:
            w = sorted(waits_of(name, args.games, args.waits, think))
            p90 = w[min(len(w) - 1, int(0.9 * len(w)))]
            print(f"{name:20} {think:7g} {len(w):5} {statistics.median(w):9.2f} {p90:7.2f} {w[-1]:7.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
