"""Benchmark of the adapters: what an observation costs a learner, against the engine alone.

For each shipped ruleset, random games played three ways, in decisions per second: the engine
alone (`Game.apply`); the PettingZoo environment (`last()` with its observation and mask, then
`step`); the OpenSpiel game (the actor's observation tensor and information-state string,
then `apply_action`); and the OpenSpiel game with explicit chance (the same, each chance node's
outcome drawn by the benchmark: its decisions per second count the players' decisions only,
so the cost of the chance nodes shows). Prints a table. Needs the extras: `pip install -e '.[pettingzoo,openspiel]'`.

    python benchmarks/adapters.py                  # every shipped ruleset
    python benchmarks/adapters.py --decisions 200 railways
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [("trick_of_the_rails", 4), ("isle_of_trains", 3), ("trainsilvania", 3), ("railways", 4)]


def engine_rate(path: str, players: int, decisions: int) -> float:
    from engine import Game, load_ruleset
    rules = load_ruleset(path)
    rng, done, started = random.Random(0), 0, time.perf_counter()
    while done < decisions:
        game = Game(rules, players, seed=done)
        while not game.over and done < decisions:
            game.apply(rng.randrange(len(game.legal_actions())))
            done += 1
    return decisions / (time.perf_counter() - started)


def pettingzoo_rate(path: str, players: int, decisions: int) -> float:
    import numpy as np
    from engine.adapters.pettingzoo import env
    table = env(path, players=players)
    rng, done, started = np.random.default_rng(0), 0, time.perf_counter()
    while done < decisions:
        table.reset(seed=done)
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            if done == decisions:
                break
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
    return decisions / (time.perf_counter() - started)


def openspiel_rate(path: str, players: int, decisions: int, chance: str = "sampled") -> float:
    import pyspiel
    from engine.adapters.openspiel import register
    game = pyspiel.load_game(register(path), {"players": players, "chance": chance})
    rng, done, started = random.Random(0), 0, time.perf_counter()
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal() and done < decisions:
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            player = state.current_player()
            state.observation_tensor(player)
            state.information_state_string(player)
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return decisions / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="names of shipped rulesets (default: all)")
    parser.add_argument("--decisions", type=int, default=500, help="decisions played each way (default 500)")
    args = parser.parse_args()
    cases = [c for c in CASES if not args.rulesets or c[0] in args.rulesets]
    print(f"{'ruleset':<20} {'players':>7} {'engine/s':>10} {'pettingzoo/s':>13} {'openspiel/s':>12} "
          f"{'explicit/s':>11}")
    for name, players in cases:
        path = str(ROOT / "rulesets" / f"{name}.yaml")
        rates = [f(path, players, args.decisions) for f in (engine_rate, pettingzoo_rate, openspiel_rate)]
        rates.append(openspiel_rate(path, players, args.decisions, "explicit"))
        print(f"{name:<20} {players:>7} {rates[0]:>10.0f} {rates[1]:>13.0f} {rates[2]:>12.0f} {rates[3]:>11.0f}")


if __name__ == "__main__":
    main()
