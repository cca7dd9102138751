"""Strength benchmark: how well the search bots (`greedy`, `mcts`) play the shipped rulesets.

Bot games with fixed seeds, measured against the goals of the bots:

- tor-random: Trick of the Rails, 4 players, one `mcts` seat against three `random` ones; the
  mcts seat moves round the table from game to game. Goal: it wins 60% or more (ties shared).
- tor-greedy: Trick of the Rails, 4 players, two `mcts` and two `greedy` seats alternating
  (mcts first in even games, greedy first in odd ones). Goal: mcts takes more than half the wins.
- isle-greedy-N / isle-mcts-N: Isle of Trains, N = 2, 3, 4 players, every seat the same bot, with
  no round limit (option round_limit=0). A game ends by the rulebook when its `end_reason` is
  "contracts" or "deck"; one still going after --cap decisions did not end. Goal: 95% end.
- railways-N: Railways of the World, N = 3, 4 players, every seat `mcts`. Each seat's mean final
  score with its 95% interval, the lowest score of any seat, bonds per player and the share of
  seats ending with more than 8 bonds (bonds cost a point each at the end, so a bot should issue
  them only where they pay). Goal (issue 25), 4 players: every seat's mean at least 10, no seat
  below -10, more than 8 bonds in under 5% of seats.
- railways-greedy: Railways, 4 players, two `greedy` and two `random` seats alternating, moving
  round the table game by game. The share of games a greedy seat wins and each kind's mean score
  (the mean of its two seats in a game), with 95% intervals, and the mean of greedy minus random
  per game. Goal: greedy no worse than random.
- trainsilvania: 3 players, one `mcts` seat against two `random` ones, the mcts seat moving round
  the table. Goal: it wins 50% or more.
- scout-greedy-NAME / scout-random-NAME: every shipped ruleset (Trick of the Rails and Railways 4
  players, Isle of Trains and Trainsilvania 3), one `scout` seat against `greedy` (or `random`)
  ones, the scout moving round the table from game to game, 200 games, with the ruleset's own
  settings (Isle of Trains against random seats with round_limit=100, which random players need
  to end a game). Goal: its win share's 95% interval above 1/n against greedy, above 2/n against
  random. The scout's CPU time per decision is given too (goal: mean at most 5 ms).
- lamplighters-mcts, lamplighters-random, lamplighters-determinize: the cooperative example
  (examples/lamplighters, 2 players), every seat `mcts` (its ruleset's settings: 400 iterations,
  depth 1), every seat `random`, and every seat `mcts` with worlds dealt at random
  (`belief: {replays: 0}`, what bots did before engine/game/belief.py). Mean score of 12, with
  its 95% interval (normal approximation). Goal: mcts at least 3x random and at least 40% of 12
  (4.8).
- time: CPU seconds per `mcts` decision at its default budget (decisions with one option
  excluded), for every shipped ruleset and the Lamplighters example (with the ruleset's own bot
  settings, `bots:`): one mcts seat against random ones, one game each, at most --timed
  decisions, in this process alone after the games above. Goal: the median at most 0.25 s.

Every line also says how the bots' worlds were dealt (engine/game/belief.py, `belief.counts`):
from deals that agree with all the player observed ("belief"), or by `determinize` because
none was found within the budget ("fallback"), random deals already agreed ("free"), or the
search was not tried ("off": a game past `bots: belief: decisions`).

`--checkout PATH` measures another checkout (its engine and rulesets), e.g. the last landed
commit's, for a before and after in one run.

Game k of a case has seed `game_seed(SEED, k)` (engine/analysis/run.py), and every bot's seed
derives from it (agents.make_agents), so results do not depend on --jobs (the processes games
are spread over); only the times do. Games take seconds (mcts Isle of Trains and Railways games, minutes): the
defaults below take about an hour on two cores (railways-4 alone, 20 games, about half of it),
--games caps every case.

    python benchmarks/bots.py                      # every case
    python benchmarks/bots.py --games 10           # at most 10 games a case
    python benchmarks/bots.py --only tor-random,trainsilvania
"""
from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _checkout() -> Path:
    """--checkout PATH, read before the engine is imported: the checkout whose engine and
    rulesets are measured (default: this one)."""
    args = sys.argv
    return Path(args[args.index("--checkout") + 1]).resolve() if "--checkout" in args[:-1] else ROOT


CHECKOUT = _checkout()
sys.path.insert(0, str(CHECKOUT))

from engine import Game, Ruleset, load_ruleset, view  # noqa: E402  (the public API: in every checkout)

try:
    from engine.analysis.run import game_seed
    from engine.analysis.stats import summary as spread, wilson
    from engine.players.agents import make_agents
except ModuleNotFoundError:  # a checkout of before the engine's layers
    from engine.agents import make_agents  # type: ignore[no-redef]
    from engine.simulate import game_seed  # type: ignore[no-redef]
    from engine.stats import summary as spread, wilson  # type: ignore[no-redef]

SEED = 1
CAP = 3000  # decisions: a game still going after this many did not end
NO_LIMIT = {"round_limit": 0}


@dataclass
class Case:
    """One line of the table: games of one ruleset between the same kinds of seats."""
    name: str
    ruleset: str
    players: int
    games: int
    seats: list[str]  # for game 0; `rotate` moves them round the table game by game
    rotate: int = 1  # games k and k + rotate... have the seats turned by one more place
    options: dict[str, Any] = field(default_factory=dict)
    goal: str = ""
    bots: dict[str, Any] = field(default_factory=dict)  # the ruleset's `bots:` settings changed

    def seats_of(self, k: int) -> list[str]:
        shift = (k // self.rotate) % self.players if self.rotate else 0
        return self.seats[-shift:] + self.seats[:-shift] if shift else list(self.seats)


LAMPS = "examples/lamplighters/lamplighters"  # a ruleset named with a folder is the checkout's
CASES = [
    Case("tor-random", "trick_of_the_rails", 4, 200, ["mcts", "random", "random", "random"],
         goal="mcts wins >= 60%"),
    Case("tor-greedy", "trick_of_the_rails", 4, 100, ["mcts", "greedy", "mcts", "greedy"],
         goal="mcts wins > 50%"),
    *[Case(f"isle-greedy-{n}", "isle_of_trains", n, 40, ["greedy"] * n, 0, NO_LIMIT,
           "ends by the rules >= 95%") for n in (2, 3, 4)],
    *[Case(f"isle-mcts-{n}", "isle_of_trains", n, 3, ["mcts"] * n, 0, NO_LIMIT,
           "ends by the rules >= 95%") for n in (2, 3, 4)],
    Case("railways-3", "railways", 3, 3, ["mcts"] * 3, 0, {}, "mean score > 0"),
    Case("railways-4", "railways", 4, 20, ["mcts"] * 4, 0, {},
         "every seat's mean >= 10, none < -10, > 8 bonds in < 5% of seats"),
    Case("railways-greedy", "railways", 4, 40, ["greedy", "random", "greedy", "random"],
         goal="greedy no worse than random"),
    Case("trainsilvania", "trainsilvania", 3, 100, ["mcts", "random", "random"],
         goal="mcts wins >= 50%"),
    *[Case(f"scout-{other}-{name}", name, n, 200, ["scout"] + [other] * (n - 1),
           options=NO_LIMIT if (name, other) == ("isle_of_trains", "greedy") else
           {"round_limit": 100} if name == "isle_of_trains" else {},
           goal=f"scout's 95% interval above {k}/{n}")
      for name, n in (("trick_of_the_rails", 4), ("isle_of_trains", 3), ("trainsilvania", 3), ("railways", 4))
      for other, k in (("greedy", 1), ("random", 2))],
    *[Case(f"lamplighters-{kind}", LAMPS, 2, 40, [seat] * 2, 0,
           goal="mcts mean >= 3x random and >= 4.8 of 12", bots=bots)
      for kind, seat, bots in (("mcts", "mcts", {}), ("random", "random", {}),
                               ("determinize", "mcts", {"belief": {"replays": 0}}))],
]
TIMED = [("trick_of_the_rails", 4), ("isle_of_trains", 3), ("trainsilvania", 3), ("railways", 4), (LAMPS, 2)]


@lru_cache(maxsize=None)
def ruleset(name: str, folder: str = str(ROOT / "rulesets")) -> Ruleset:
    return load_ruleset(CHECKOUT / f"{name}.yaml" if "/" in name else Path(folder) / f"{name}.yaml")


def exists(name: str, folder: str) -> bool:
    """Whether the checkout measured has this ruleset (an older one lacks the examples of now)."""
    return (CHECKOUT / f"{name}.yaml" if "/" in name else Path(folder) / f"{name}.yaml").exists()


def worlds() -> dict[str, int]:
    """How the worlds of this process were dealt so far (none counted before belief.py)."""
    counts = getattr(sys.modules.get("engine.game.belief"), "counts", {})
    return dict(counts)


def play_one(task: tuple[str, str, int, list[str], dict[str, Any], int, int, dict[str, Any]]) -> dict[str, Any]:
    """One game to its end or to `cap` decisions: what the table needs of it (plain values,
    so that it crosses processes)."""
    folder, name, players, seats, options, seed, cap, bots = task
    rs = ruleset(name, folder)
    if bots:
        rs = dataclasses.replace(rs, bots={**rs.bots, **bots})
    game = Game(rs, players, rs.resolve_options({k: str(v) for k, v in options.items()}, players),
                seed, keep_log=False, rewind=False)
    agents = make_agents(seats, seed, defaults=rs.bots)
    decisions, before = 0, worlds()
    scout_time, scout_decisions = 0.0, 0
    while not game.over and decisions < cap:
        p = game.pending.player
        if seats[p - 1].startswith("scout"):
            started = time.process_time()
            choice = agents[p - 1].choose(view(game, p))
            scout_time += time.process_time() - started
            scout_decisions += 1
        else:
            choice = agents[p - 1].choose(view(game, p))
        game.apply(choice)
        decisions += 1
    counters = game.table.counters
    scores = game.scores()
    winners = [int(p) for p in game.winners(scores)] if game.over else []
    return {"over": game.over, "decisions": decisions, "scores": {int(p): s for p, s in scores.items()},
            "winners": winners, "end_reason": counters.get("end_reason", getattr(game, "end_reason", None)),
            "bonds": {int(p): b for p, b in counters.get("bonds", {}).items()},
            "worlds": {k: n - before.get(k, 0) for k, n in worlds().items() if n > before.get(k, 0)},
            "scout_time": scout_time, "scout_decisions": scout_decisions}


def dealt(counts: list[dict[str, int]]) -> str:
    """How the worlds were dealt, summed: "worlds: belief 90% (900), fallback 10% (100)" (or nothing)."""
    total: dict[str, int] = {}
    for c in counts:
        for k, n in c.items():
            total[k] = total.get(k, 0) + n
    whole = sum(total.values())
    return ("; worlds: " + ", ".join(f"{k} {n / whole:.0%} ({n})" for k, n in sorted(total.items()))) if whole else ""


def summary(case: Case, results: list[dict[str, Any]]) -> str:
    """The measure of a case, in words and numbers, and how its bots' worlds were dealt."""
    return measure(case, results) + dealt([r.get("worlds", {}) for r in results])


def measure(case: Case, results: list[dict[str, Any]]) -> str:
    n = len(results)
    kinds = {kind for seats in (case.seats_of(k) for k in range(n)) for kind in seats}
    if case.ruleset == "isle_of_trains" and not case.name.startswith("scout-"):
        ended = sum(r["over"] and r["end_reason"] in ("contracts", "deck") for r in results)
        reasons = {why: sum((r["end_reason"] or "cap") == why if r["over"] else why == "cap" for r in results)
                   for why in ("contracts", "deck", "cap")}
        return (f"ended {ended / n:.0%} (contracts {reasons['contracts']}, deck {reasons['deck']}, "
                f"not ended {reasons['cap']}), {statistics.mean(r['decisions'] for r in results):.0f} decisions")
    if case.name.startswith("scout-"):
        wins = sum(1 / len(r["winners"]) for k, r in enumerate(results) for w in r["winners"]
                   if case.seats_of(k)[w - 1] == "scout")
        low, high = wilson(wins, n)
        cpu = sum(r["scout_time"] for r in results) / max(1, sum(r["scout_decisions"] for r in results))
        ended = sum(r["over"] for r in results)
        return (f"scout wins {wins / n:.1%} [{low:.1%}, {high:.1%}] (1/n = {1 / case.players:.1%}), "
                f"{cpu * 1000:.2f} ms CPU a scout decision, {ended}/{n} ended")
    if case.ruleset == "railways" and len(kinds) > 1:
        return kinds_compared(case, results)
    if case.ruleset == LAMPS:
        scores = [r["scores"][1] for r in results]
        ends = {why: sum(r["end_reason"] == why for r in results) for why in ("third mistake", "deck ran out", "all lit")}
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else float("inf")
        return (f"mean score {statistics.mean(scores):.2f} of 12 (95% interval ±{half:.2f}, sd {statistics.pstdev(scores):.1f}), "
                + ", ".join(f"{why} {k}" for why, k in ends.items()))
    if case.ruleset == "railways":
        scores = [s for r in results for s in r["scores"].values()]
        bonds = [b for r in results for b in r["bonds"].values()]
        seats = "; ".join(f"P{p} {interval([r['scores'][p] for r in results])}" for p in range(1, case.players + 1))
        return (f"mean score by seat {seats}; min {min(scores)}, max {max(scores)}; "
                f"bonds per player {statistics.mean(bonds):.1f} (max {max(bonds)}), "
                f"> 8 bonds {sum(b > 8 for b in bonds) / len(bonds):.1%} of seats")
    share = {kind: 0.0 for kind in sorted(kinds)}
    for k, r in enumerate(results):
        seats = case.seats_of(k)
        for w in r["winners"]:
            share[seats[w - 1]] += 1 / len(r["winners"])
    return ", ".join(f"{kind} wins {v / n:.1%}" for kind, v in share.items() if kind != "random")


def interval(values: list[float]) -> str:
    """A mean with its 95% interval (normal approximation)."""
    s = spread(values)
    return f"{s.mean:.1f} [{s.mean - s.half_width:.1f}, {s.mean + s.half_width:.1f}]"


def kinds_compared(case: Case, results: list[dict[str, Any]]) -> str:
    """Two kinds of seats: the share of games each kind wins (a shared win split) and its mean
    score per game (the mean of its seats), with 95% intervals, and the per-game difference."""
    n = len(results)
    kinds = sorted({kind for k in range(n) for kind in case.seats_of(k)})
    wins = {kind: 0.0 for kind in kinds}
    means: dict[str, list[float]] = {kind: [] for kind in kinds}
    for k, r in enumerate(results):
        seats = case.seats_of(k)
        for w in r["winners"]:
            wins[seats[w - 1]] += 1 / len(r["winners"])
        for kind in kinds:
            means[kind].append(statistics.mean(r["scores"][i + 1] for i, s in enumerate(seats) if s == kind))
    parts = []
    for kind in kinds:
        low, high = wilson(wins[kind], n)
        parts.append(f"{kind} wins {wins[kind] / n:.0%} [{low:.0%}, {high:.0%}] of games, mean score {interval(means[kind])}")
    first, second = kinds
    parts.append(f"{first} - {second} per game {interval([a - b for a, b in zip(means[first], means[second])])}")
    return "; ".join(parts)


def timing(folder: str, name: str, players: int, limit: int) -> tuple[int, float, float, str]:
    """(decisions timed, median s, max s, how the worlds were dealt) of one mcts seat's
    decisions against random seats: CPU time of this process, which other processes on the
    machine hardly change."""
    rs = ruleset(name, folder)
    game = Game(rs, players, rs.resolve_options({}, players), game_seed(SEED, 0), keep_log=False, rewind=False)
    agents = make_agents(["mcts"] + ["random"] * (players - 1), game_seed(SEED, 0), defaults=rs.bots)
    times: list[float] = []
    before = worlds()
    while not game.over and len(times) < limit:
        p = game.pending.player
        v = view(game, p)
        started = time.process_time()
        choice = agents[p - 1].choose(v)
        if p == 1 and v.option_count > 1:
            times.append(time.process_time() - started)
        game.apply(choice)
    return len(times), statistics.median(times), max(times), dealt([{k: n - before.get(k, 0) for k, n in worlds().items() if n > before.get(k, 0)}])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, help="at most this many games a case (default: each case's own)")
    parser.add_argument("--only", help="comma-separated case names (and 'time'); default: all")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes to play games in")
    parser.add_argument("--cap", type=int, default=CAP, help="decisions after which a game counts as not ended")
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="the project checkout whose engine and rulesets to measure (default: this one), e.g. "
                             "a `git worktree add --detach /tmp/before COMMIT`")
    parser.add_argument("--rulesets", help="folder of the rulesets to play (default: the checkout's)")
    parser.add_argument("--timed", type=int, default=100, help="mcts decisions timed per ruleset")
    parser.add_argument("--each", action="store_true",
                        help="print each game's decisions, end reason, scores and bonds on stderr as it ends")
    args = parser.parse_args()
    args.rulesets = args.rulesets or str(CHECKOUT / "rulesets")
    print(f"checkout {CHECKOUT}, engine from {Path(sys.modules['engine'].__file__).parent}", flush=True)
    only = set(args.only.split(",")) if args.only else None
    cases = [c for c in CASES if (only is None or c.name in only) and exists(c.ruleset, args.rulesets)]
    rows: list[tuple[str, int, str, str, float]] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for case in cases:
            n = min(case.games, args.games) if args.games else case.games
            tasks = [(args.rulesets, case.ruleset, case.players, case.seats_of(k), case.options, game_seed(SEED, k), args.cap,
                      case.bots) for k in range(n)]
            started, results = time.perf_counter(), []
            for result in pool.imap(play_one, tasks):
                results.append(result)
                if args.each:
                    print(f"  {case.name} game {len(results) - 1}: {result['decisions']} decisions, "
                          f"end {result['end_reason']}, scores {result['scores']}, bonds {result['bonds']}",
                          file=sys.stderr, flush=True)
                if len(results) == n or len(results) % max(1, n // 10) == 0:
                    print(f"  {case.name}: {len(results)}/{n} games, {time.perf_counter() - started:.0f}s",
                          file=sys.stderr, flush=True)
            rows.append((case.name, n, summary(case, results), case.goal, time.perf_counter() - started))
            print(f"{case.name:<16} {n:>5}  {rows[-1][2]}   [goal: {case.goal}]", flush=True)
    if only is None or "time" in only:
        for name, players in (t for t in TIMED if exists(t[0], args.rulesets)):
            count, median, most, how = timing(args.rulesets, name, players, args.timed)
            rows.append((f"time {Path(name).name}", count, f"mcts decision median {median:.3f}s CPU, max {most:.3f}s{how}",
                         "median <= 0.25 s", 0.0))
            print(f"{rows[-1][0]:<16} {count:>5}  {rows[-1][2]}   [goal: median <= 0.25 s]", flush=True)
    print("\ncase             games  result   [goal]  (seconds)")
    for name, n, text, goal, seconds in rows:
        print(f"{name:<16} {n:>5}  {text}   [goal: {goal}]" + (f"  ({seconds:.0f}s)" if seconds else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
