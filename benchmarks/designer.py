"""The designer's answer in minutes (issue 43): what a house event does to Railways, with scout
seats and a time budget, and what a scout decision costs in every shipped ruleset and example.

- cards: `engine cards rulesets/railways.yaml -n 4 --seats scout x4 --with
  tests/fixtures/cards/house_events.yaml --card "Boom Times" --card "Quiet Week" --budget 4m`:
  Boom Times gives 3 points a delivery while it is the Current Event, Quiet Week does nothing.
  Both are brought into play (engine/analysis/bring.py), in rounds on every core until each is
  detectable or the budget is spent (engine/analysis/sequential.py). Goal: Boom Times
  detectable and positive, Quiet Week not detectable. Prints the report, the wall time and
  each card's interval.
- scout: CPU seconds per scout decision (decisions with one option left out), one game of
  scout seats per ruleset (at most --decisions decisions), its worlds as its ruleset's
  settings deal them (`bots: belief:`), then as an arranged game deals them (engine cards'
  games brought into play, where no history is replayed), with how the worlds were dealt.

Run: `python benchmarks/designer.py [cards|scout|all] [--budget 4m] [--jobs N]`.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.analysis.cards import cards  # noqa: E402
from engine.analysis.cards_report import render_text  # noqa: E402
from engine.analysis.sequential import Plan, parse_duration  # noqa: E402
from engine.game import belief  # noqa: E402
from engine.game.game import Game  # noqa: E402
from engine.game.view import view  # noqa: E402
from engine.players.agents import make_agents  # noqa: E402
from engine.rules.ruleset import load_ruleset  # noqa: E402

HOUSE = ROOT / "tests" / "fixtures" / "cards" / "house_events.yaml"
GAMES = [("rulesets/railways.yaml", 4, {}), ("rulesets/trick_of_the_rails.yaml", 4, {}),
         ("rulesets/isle_of_trains.yaml", 3, {}), ("rulesets/trainsilvania.yaml", 3, {}),
         ("examples/kite_day/kite_day.yaml", 3, {}), ("examples/lamplighters/lamplighters.yaml", 2, {}),
         ("examples/picnic/picnic.yaml", 3, {})]


def run_cards(budget: str, jobs: int | None) -> None:
    ruleset = load_ruleset(ROOT / "rulesets" / "railways.yaml", [os.path.relpath(HOUSE)])
    plan = Plan(budget=parse_duration(budget))
    started = time.perf_counter()
    result = cards(ruleset, 4, 0, 1, ruleset.resolve_options({}, 4), ["scout"] * 4, ["Boom Times", "Quiet Week"],
                   jobs=jobs, plan=plan, progress=sys.stderr if sys.stderr.isatty() else None)
    wall = time.perf_counter() - started
    print(render_text(result))
    print()
    print(f"cards: wall {wall:.0f} s on {jobs or os.cpu_count()} processes, budget {budget}, "
          f"stopped: {result['sequential']['stopped']}")
    for row in result["cards"]:
        cell = row["removed"]["all_seats"]
        if cell["half_width"] is None:
            print(f"  {row['card']:<12} too few games for an interval")
            continue
        print(f"  {row['card']:<12} mean seat {cell['diff']:+.2f} ± {cell['half_width']:.2f} "
              f"(always valid, 95%) in {row['removed']['games']} pairs; detectable: {cell['detectable']}")
    boom = next(r for r in result["cards"] if r["card"] == "Boom Times")["removed"]["all_seats"]
    quiet = next(r for r in result["cards"] if r["card"] == "Quiet Week")["removed"]["all_seats"]
    ok = boom["detectable"] and boom["diff"] > 0 and not quiet["detectable"]
    print(f"  goal (Boom Times detectable and positive, Quiet Week not): {'met' if ok else 'NOT met'}")


def scout_cost(path: str, players: int, decisions: int, arranged: bool) -> tuple[float, int, dict[str, int]]:
    """CPU seconds per scout decision with two options or more, in one game of scout seats."""
    ruleset = load_ruleset(ROOT / path)
    before = belief.counts.copy()
    game = Game(ruleset, players, ruleset.resolve_options({}, players), 7, keep_log=False, rewind=False,
                arrange=(lambda g: None) if arranged else None)
    agents = make_agents(["scout"] * players, 7, defaults=ruleset.bots)
    spent, timed = 0.0, 0
    while not game.over and len(game.decisions) < decisions:
        pv = view(game, game.pending.player)
        started = time.process_time()
        choice = agents[game.pending.player - 1].choose(pv)
        if pv.option_count > 1:
            spent += time.process_time() - started
            timed += 1
        game.apply(choice)
    dealt = {k: v - before.get(k, 0) for k, v in belief.counts.items() if v - before.get(k, 0)}
    return spent / max(1, timed), timed, dealt


def run_scout(decisions: int) -> None:
    print(f"scout: CPU seconds a decision (two options or more), one game of scout seats, at most {decisions} "
          "decisions")
    print(f"  {'ruleset':<56}{'as set':>10}{'arranged':>10}  worlds (as set)")
    for path, players, _ in GAMES:
        own, n, dealt = scout_cost(path, players, decisions, False)
        arranged, _, _ = scout_cost(path, players, decisions, True)
        print(f"  {path + f' ({players}p, {n} decisions)':<56}{own:>10.4f}{arranged:>10.4f}  {dealt}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", nargs="?", default="all", choices=["cards", "scout", "all"])
    parser.add_argument("--budget", default="4m")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--decisions", type=int, default=200)
    args = parser.parse_args()
    if args.part in ("scout", "all"):
        run_scout(args.decisions)
    if args.part in ("cards", "all"):
        run_cards(args.budget, args.jobs)


if __name__ == "__main__":
    main()
