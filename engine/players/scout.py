"""A fast bot for balance runs (`scout`): a few milliseconds a decision, and stronger than `greedy`
(up to some 50 ms where its worlds replay a game's history: docs/balance.md measures it).

Like the other bots it works for every ruleset through the game interface alone and looks
ahead only in worlds from `PlayerView.world(seed)`. It has two ways to judge an option, chosen
per ruleset by its settings (`bots: scout:` in a ruleset):

- **Plans** (the default): most of a player's decisions are steps of one action (which card,
  then onto which car, paid with what...), so the scout plans its whole run of decisions at
  once, at the first of them. It lists lines of its own decisions to the end of the run in one
  world (every line while there are few, a sample spread evenly over the options when there
  are many), judges each at its end by the ruleset's heuristic, then judges the best half again
  in a new world, and so on (sequential halving): a line is judged by its mean over the worlds
  its player cannot tell apart, so it is not chosen for a guess that happened to suit it, as
  `greedy` does with the best try in one world. It then follows the chosen line for as long as
  what it sees is what the line's world showed at that step, and plans again when it is not
  (a card drawn, a seat revealed): a run of decisions costs about one search. When no line
  tells its options apart by the end of the run (a bid, a card to a trick: what it does shows
  only after the others have played), it plays each option on, at random for everyone, to its
  player's next decision and judges it there, in a couple of worlds (`further`), where
  `greedy` picks among them at random (and so bids at random in an auction).
- **Play-outs** (`playouts=N`, for short games whose heuristic says little before the end, as
  trick-taking games): each option is played on to the end of the game at random, N play-outs
  a decision shared out by sequential halving, and judged by the final ranking (by the
  heuristic's ranking where a play-out reaches `depth` decisions first: random players never
  end some games).

Same seed and same views give the same decisions: the work is counted (lines, worlds,
play-outs), never timed. A world where a rule fails is dropped for another (worlds.py).
"""
from __future__ import annotations

import math
import random
from typing import Any

from ..game.game import Game
from ..game.view import PlayerView, view
from ..lang.compiler import evaluate
from .search import outcome
from .worlds import Worlds


def _look(pv: PlayerView) -> tuple:
    """All that a player sees at a decision, to tell whether a planned step still fits."""
    d = pv.decision or {}
    return repr(pv.zones()), repr(pv.counters()), d.get("prompt"), tuple(d.get("options", ()))


class ScoutAgent:
    """Plans its run of decisions across worlds and follows the plan (see the module); with
    `playouts`, judges options by random play-outs to the end instead.

    `lines`: lines of its own decisions listed per plan; `worlds`: worlds a plan is judged in at
    most (halving the lines after each); `steps`: the longest run it plans; `playouts`: play-outs
    to the end a decision (0: plan by the heuristic); `further`: worlds in which, when no line
    tells the options apart by the end of the run, each option is played on at random to its
    player's next decision (0: choose among them at random, as greedy does); `depth`: the most
    decisions a play-out takes (0: no limit)."""

    def __init__(self, seed: int, lines: int = 24, worlds: int = 8, steps: int = 40, playouts: int = 0,
                 further: int = 2, depth: int = 500):
        self.rng = random.Random(seed)
        self.lines = max(1, int(lines))
        self.worlds = max(1, int(worlds))
        self.steps = max(1, int(steps))
        self.playouts = max(0, int(playouts))
        self.further = max(0, int(further))
        self.depth = max(0, int(depth))
        self._plan: list[tuple[tuple, int]] = []  # the rest of the chosen line: (what it sees, option)

    def choose(self, pv: PlayerView) -> int:
        n = pv.option_count
        if n <= 1:
            return 0
        if self._plan:
            expected, index = self._plan.pop(0)
            if index < n and expected == _look(pv):
                return index
            self._plan = []
        if self.playouts:
            return self._play_outs(pv, n)
        return self._plan_run(pv, n)

    # ------------------------------------------------------------ plans

    def _plan_run(self, pv: PlayerView, n: int) -> int:
        me, rng = pv.player, self.rng
        worlds = Worlds(pv, rng)

        def listed(world: Game) -> tuple[Game, list[tuple[tuple[int, ...], float]]]:
            base, found = self._others(world, me), []
            self._list(world.clone(), me, (), found, max(n, self.lines), base)
            return world, found
        planned = worlds.think(listed)
        if planned is None:
            return rng.randrange(n)  # the rules failed in every world: no plan
        first, found = planned
        if self.further and len({value for _, value in found}) == 1:
            return self._look_further(pv, n)  # nothing it does tells its options apart by the end of its run
        total: dict[tuple[int, ...], float] = {}
        for line, value in found:
            total.setdefault(line, value)
        alive, seen = list(total), 1

        def replayed(world: Game) -> list[float]:
            base = self._others(world, me)
            return [self._replay(world.clone(), me, line, base) for line in alive]
        while len(alive) > 1 and seen < self.worlds:
            values = worlds.think(replayed)
            if values is None:
                break  # the rules failed in every world of late: judge by those that worked
            seen += 1
            for line, value in zip(alive, values):
                total[line] += value
            alive.sort(key=lambda line: -total[line])
            alive = alive[:max(1, math.ceil(len(alive) / 2))]
        top = max(total[line] for line in alive)
        best = rng.choice([line for line in alive if total[line] == top])
        self._remember(first, me, best)
        return best[0]

    def _list(self, world: Game, me: Any, line: tuple[int, ...], found: list, budget: int, base: float) -> None:
        """Lines of `me`'s decisions from `world` to the end of its run, `budget` of them at most:
        every option of a decision when the budget covers them (shared out evenly), else
        `budget` options at random; a line whose budget is one ends at random."""
        if world.over or world.pending.player != me or budget <= 1:
            line = self._finish(world, me, line)
            found.append((line, self._judge(world, me, base)))
            return
        k = len(world.pending.options)
        if budget >= k:
            options, shares = list(range(k)), [budget // k] * k
            for extra in self.rng.sample(range(k), budget % k):
                shares[extra] += 1
        else:
            options, shares = sorted(self.rng.sample(range(k), budget)), [1] * budget
        for at, (option, share) in enumerate(zip(options, shares)):
            branch = world.clone() if at < len(options) - 1 else world
            branch.apply(option)
            self._list(branch, me, line + (option,), found, share, base)

    def _finish(self, world: Game, me: Any, line: tuple[int, ...]) -> tuple[int, ...]:
        """Random decisions of `me` to the end of its run (at most `steps` of them)."""
        taken = list(line)
        for _ in range(self.steps):
            if world.over or world.pending.player != me:
                break
            option = self.rng.randrange(len(world.pending.options))
            world.apply(option)
            taken.append(option)
        return tuple(taken)

    def _replay(self, world: Game, me: Any, line: tuple[int, ...], base: float) -> float:
        """The line played in another world (as far as its options are there), then judged."""
        for option in line:
            if world.over or world.pending.player != me or option >= len(world.pending.options):
                break
            world.apply(option)
        self._finish(world, me, ())
        return self._judge(world, me, base)

    def _remember(self, first: Game, me: Any, line: tuple[int, ...]) -> None:
        """Keep the rest of the chosen line with what its world showed before each step."""
        world, plan = first.clone(), []
        world.apply(line[0])
        for option in line[1:]:
            if world.over or world.pending.player != me or option >= len(world.pending.options):
                break
            plan.append((_look(view(world, me)), option))
            world.apply(option)
        self._plan = plan

    def _look_further(self, pv: PlayerView, n: int) -> int:
        """Options whose effect shows only after others have played (a bid, a card to a trick):
        each is played on at random, by everyone, to its player's next decision, and judged
        there, in `further` worlds."""
        me, rng = pv.player, self.rng
        total = [0.0] * n
        worlds = Worlds(pv, rng)

        def played_on(world: Game) -> list[float]:
            judged = []
            for option in range(n):
                branch = world.clone()
                branch.apply(option)
                away = False
                for _ in range(self.steps * 4):
                    if branch.over or (away and branch.pending.player == me):
                        break
                    away = away or branch.pending.player != me
                    branch.apply(rng.randrange(len(branch.pending.options)))
                judged.append(self._judge(branch, me, None))
            return judged
        for _ in range(self.further):
            values = worlds.think(played_on)
            if values is None:
                break  # the rules failed in every world of late: judge by those that worked
            total = [t + v for t, v in zip(total, values)]
        top = max(total)
        return rng.choice([i for i in range(n) if total[i] == top])

    @staticmethod
    def _others(world: Game, me: Any) -> float:
        """The best of the other players' heuristic values in a world as it is (0 alone). A run
        of one player's decisions seldom changes the others' standing, so lines are judged by
        their player's value against this, one evaluation a line instead of one a player."""
        if world.rules.teams is not None or world.over:
            return 0.0
        values = world.estimates()
        others = [v for p, v in values.items() if p != me]
        return max(others) if others else 0.0

    @staticmethod
    def _judge(world: Game, me: Any, base: float | None) -> float:
        """The heuristic of `me` against the others (the final scores once the game is over); with
        a `base`, against that value of the others'."""
        if world.over or world.rules.teams is not None or base is None:
            values = world.scores() if world.over else world.estimates()
            others = [v for p, v in values.items() if p != me]
            return values[me] - (max(others) if others else 0)
        rules = world.rules
        return evaluate(rules.heuristic or rules.score, world, {"player": me}) - base

    # ------------------------------------------------------------ play-outs

    def _play_outs(self, pv: PlayerView, n: int) -> int:
        """Sequential halving over the options, each play-out random to the end of the game in
        one of a few worlds (copied, as a copy costs less than a new deal), judged by rank."""
        me, rng = pv.player, self.rng
        dealer = Worlds(pv, rng)
        worlds = [w for w in (dealer.think(lambda world: world) for _ in range(min(self.worlds, self.playouts)))
                  if w is not None]
        if not worlds:
            return rng.randrange(n)  # no world could be dealt
        alive, total, count = list(range(n)), [0.0] * n, [0] * n
        rounds, k = max(1, math.ceil(math.log2(n))), 0

        def play_out(world: Game, slot: int, option: int) -> float:
            worlds[slot] = world  # a world dealt for one that failed takes its place
            world = world.clone()
            world.apply(option)
            left = self.depth or math.inf
            while not world.over and left > 0:
                world.apply(rng.randrange(len(world.pending.options)))
                left -= 1
            return outcome(world)[0][me]

        def mean(option: int) -> float:  # of the play-outs that worked; none: last
            return total[option] / count[option] if count[option] else -math.inf
        for _ in range(rounds):
            if len(alive) == 1 or dealer.given_up:
                break
            each = max(1, self.playouts // (rounds * len(alive)))
            for option in alive:
                for _ in range(each):
                    slot = k % len(worlds)
                    k += 1
                    reward = dealer.think(lambda world: play_out(world, slot, option), worlds[slot])
                    if reward is not None:
                        total[option] += reward
                        count[option] += 1
            alive.sort(key=lambda i: -mean(i))
            alive = alive[:max(1, math.ceil(len(alive) / 2))]
        top = max(mean(i) for i in alive)
        return rng.choice([i for i in alive if mean(i) == top])
