"""Bots that think ahead: one-step look-ahead (`greedy`) and Monte Carlo tree search (`mcts`).

Both work for every ruleset through the game interface alone (legal actions, apply, clone,
scores, the ruleset's `heuristic`), and both look ahead only in worlds from
`PlayerView.world(seed)`: games their player cannot tell from the real one, with the cards
they have not seen dealt again and chance of their own. So they never read what their player
may not know, and with hidden information the search is information-set MCTS in the manner of
Cowling, Powley and Whitehouse (2012): a new world every iteration, one tree over all of them,
a move's statistics counted only when it was available. They think in worlds through
`Worlds.think` (worlds.py): a world where a rule fails is dropped for another, and leaves
nothing in the tree.

Each agent draws its worlds' seeds from its own generator, seeded at creation: the same seed
and the same views give the same decisions.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any

from ..core.values import frozen
from ..game.game import Game
from ..game.view import PlayerView
from .worlds import Worlds


def standing(values: dict[Any, Any]) -> dict[Any, float]:
    """Each player's share of the others they are ahead of (a tie counts half), from 0 to 1: a
    reward that does not depend on the scale of a ruleset's scores."""
    players = list(values)
    if len(players) < 2:
        return {p: 1.0 for p in players}
    return {p: sum(1.0 if values[p] > values[q] else 0.5 if values[p] == values[q] else 0.0
                   for q in players if q != p) / (len(players) - 1) for p in players}


def outcome(world: Game) -> tuple[dict[Any, float], dict[Any, float]]:
    """Each player's rank reward and value: by the final scores (and tiebreak) when the game is
    over, else by the ruleset's heuristic."""
    if not world.over:
        values = world.estimates()
        return standing(values), values
    scores = world.scores()
    winners = set(world.winners(scores))
    # The winners (tiebreak included) are ahead of everyone; the others rank by score.
    return standing({p: (p in winners, s) for p, s in scores.items()}), scores


class GreedyAgent:
    """Looks ahead to the end of its player's run of decisions: each option is played on through
    the decisions its player takes next (the rest of a turn: which card, onto which car, paid
    with what...), `tries` times at random, and judged by the best outcome, by the heuristic of
    its player against the best of the others'. Ties are broken at random.

    Judging an option by the position right after it alone is blind in a game where an action
    takes several decisions: nothing changes until the last one, so the bot would pick the
    first step of every action at random (and then, say, remove its own cars). So is it in a
    simultaneous step (`choose_each`): nothing changes until all have answered, so the others'
    answers in it are played on at random too."""

    def __init__(self, seed: int, worlds: int = 1, tries: int = 8, steps: int = 40):
        self.rng = random.Random(seed)
        self.worlds = max(1, int(worlds))
        self.tries = max(1, int(tries))
        self.steps = max(0, int(steps))

    def choose(self, view: PlayerView) -> int:
        n = view.option_count
        if n <= 1:
            return 0
        me = view.player
        totals = [0.0] * n
        worlds = Worlds(view, self.rng)
        for _ in range(self.worlds):
            judged = worlds.think(lambda world: [self._judge_option(world, i, me) for i in range(n)])
            if judged is None:
                break  # the rules failed in every world of late: judge by those that worked (if any)
            totals = [t + j for t, j in zip(totals, judged)]
        best = max(totals)
        return self.rng.choice([i for i, t in enumerate(totals) if t == best])

    def _judge_option(self, world: Game, i: int, me: Any) -> float:
        """Option `i` in `world`, judged by the best of its tries."""
        step = world.together.start if world.together is not None else None  # the step answered in
        after = world.clone()
        after.apply(i)
        if after.over or after.pending.player != me and not _inside(after, step):
            return self._judge(after, me)  # nothing more of ours to play out
        best = -math.inf
        for _ in range(self.tries):
            line = after.clone()
            self._play_on(line, me, step)
            best = max(best, self._judge(line, me))
        return best

    def _play_on(self, world: Game, me: Any, step: int | None = None) -> None:
        """Random decisions of `me` while it is their turn to decide, and of anyone in the
        simultaneous step that began after `step` decisions (at most `steps` in all)."""
        for _ in range(self.steps):
            if world.over or world.pending.player != me and not _inside(world, step):
                return
            world.apply(self.rng.randrange(len(world.pending.options)))

    @staticmethod
    def _judge(world: Game, me: Any) -> float:
        values = world.estimates() if not world.over else world.scores()
        others = [v for p, v in values.items() if p != me]
        return values[me] - (max(others) if others else 0)


def _inside(world: Game, step: int | None) -> bool:
    """Whether `world` is still in the simultaneous step that began after `step` decisions."""
    return step is not None and world.together is not None and world.together.start == step


class _Node:
    """A node of the search tree: the move that led here, by whom, and its statistics."""

    __slots__ = ("player", "children", "answers", "visits", "reward", "value", "available")

    def __init__(self, player: Any = None):
        self.player = player
        self.children: dict[Any, _Node] = {}
        self.answers: dict[int, dict[Any, _Node]] | None = None  # by player, a step begun here
        self.visits = 0
        self.reward = 0.0  # sum of the mover's rank rewards, each from 0 to 1
        self.value = 0.0  # sum of the mover's own scores (or heuristic estimates)
        self.available = 0


class MctsAgent:
    """UCT Monte Carlo tree search over worlds its player cannot tell from the real game.

    Each iteration takes a new world, walks down the tree (UCB1 among the moves available in
    that world), adds one node, plays random moves for at most `depth` decisions (0: to the
    end) and scores the result: by the final ranking if the game is over, else by the
    ruleset's heuristic. `iterations` bounds the work (reproducible); `ms`, if given, also
    bounds the time per decision (then results depend on the machine's speed): an anytime
    search, which a person's game gives a time budget (budget.py). The search stops early once
    the most visited move leads the next by more than the iterations left (of `iterations`, or
    those the time left allows at the pace so far): the choice (the most visited move) can no
    longer change.

    In a simultaneous step (`choose_each`) the engine asks its players one after the other, but
    none may know another's answer: in the tree, each player's answers of a step are kept at the
    node where the step began, one table per player (decoupled UCT), so that an answer is never
    chosen knowing those given before it; the step's joint answer leads on to the next node.

    The reward of a move is its mover's rank among the players (0 last, 1 first), so the scale
    of a game's scores does not matter. But a player whose rank cannot change is then
    indifferent to its own score: one far behind or far ahead takes a loan that costs points as
    readily as not. `score_weight` mixes in that much of the mover's own score, scaled between
    the lowest and highest values seen in this search (as MuZero scales its values)."""

    def __init__(self, seed: int, iterations: int = 200, depth: int = 20, c: float = 0.7,
                 ms: float | None = None, score_weight: float = 0.0):
        self.rng = random.Random(seed)
        self.iterations = max(1, int(iterations))
        self.depth = max(0, int(depth))
        self.c = float(c)
        self.ms = float(ms) if ms is not None else None
        self.score_weight = min(1.0, max(0.0, float(score_weight)))
        self._low, self._high = math.inf, -math.inf  # the values seen in this decision's search
        # What the iteration under way counted in the tree, to undo if its world is dropped.
        self._steps: list[tuple[dict[Any, _Node], Any]] = []  # the children whose `available` it raised
        self._added: tuple[dict[Any, _Node], Any] | None = None  # the node it added

    def choose(self, view: PlayerView) -> int:
        n = view.option_count
        if n <= 1:
            return 0
        root = _Node()
        self._low, self._high = math.inf, -math.inf
        began = time.perf_counter()
        deadline = began + self.ms / 1000 if self.ms is not None else None
        worlds = Worlds(view, self.rng)
        for done in range(1, self.iterations + 1):
            if worlds.think(lambda world: self._iterate(root, world), dropped=self._forget) is None:
                break  # the rules failed in every world of late: choose by the iterations that worked
            left = self.iterations - done
            if deadline is not None:
                now = time.perf_counter()
                if now > deadline:
                    break
                # The iterations the time left allows at the pace so far (twice it, to be safe).
                left = min(left, math.ceil(2 * done * (deadline - now) / max(now - began, 1e-9)))
            if self._settled(root, n, left):
                break
        # The root's moves are the options of the view, the same in every world: keyed by index.
        visits = [root.children[i].visits if i in root.children else 0 for i in range(n)]
        best = max(visits)
        return self.rng.choice([i for i, v in enumerate(visits) if v == best])

    @staticmethod
    def _settled(root: _Node, n: int, left: int) -> bool:
        """Whether the most visited of the root's `n` moves leads every other by more than the
        `left` iterations: then no other can catch it up, and the choice is made."""
        moves = [child for key, child in root.children.items() if type(key) is int]  # not a step's joint answers
        if len(moves) < n:
            return False
        first, second = sorted((child.visits for child in moves), reverse=True)[:2]
        return first - second > left

    def _iterate(self, root: _Node, world: Game) -> bool:
        rng, node, path = self.rng, root, []
        steps = self._steps = []
        self._added = None
        step_at, step, joint = None, None, []  # the node where the world's open step began, its start, its answers
        while not world.over:
            options = world.pending.options
            if len(options) == 1:  # a forced move is not a choice: no node for it
                world.apply(0)
                continue
            if step_at is None and world.together is not None:
                step_at, step, joint = node, world.together.start, []
            # Below the root a move is known by what it is (the same card in every world),
            # at the root by its index (the view's options, in every world).
            keys = range(len(options)) if node is root else [frozen(o) for o in options]
            if step_at is None or node is root:
                children = node.children
            else:  # an answer in a step: its player's table at the step's node, whatever came before it
                tables = step_at.answers = step_at.answers or {}
                children = tables.setdefault(int(world.pending.player), {})
            untried = [i for i, k in enumerate(keys) if k not in children]
            for k in keys:
                if k in children:
                    children[k].available += 1
            steps.append((children, keys))
            if untried:
                i = rng.choice(untried)
                child = children[keys[i]] = _Node(world.pending.player)
                child.available = 1
                self._added = (children, keys[i])
                world.apply(i)
                path.append(child)
                break
            c = self.c
            best_i, best_u = 0, -math.inf
            for i, k in enumerate(keys):
                child = children[k]
                u = self._mean(child) + c * math.sqrt(math.log(child.available) / child.visits)
                if u > best_u:
                    best_i, best_u = i, u
            chosen = children[keys[best_i]]
            world.apply(best_i)
            path.append(chosen)
            if step_at is None:
                node = chosen
                continue
            joint.append(keys[best_i])
            if node is root and len(joint) == 1:
                node = chosen  # the root's own answer: the step goes on below it
            if world.together is None or world.together.start != step:  # the step is over: its joint answer
                node = node.children.setdefault(("together", tuple(joint)), _Node())
                step_at = None
        steps = 0
        while not world.over and (self.depth == 0 or steps < self.depth):
            world.apply(rng.randrange(len(world.pending.options)))
            steps += 1
        reward, value = outcome(world)
        if self.score_weight:
            self._low = min(self._low, *value.values())
            self._high = max(self._high, *value.values())
        for node in path:
            node.visits += 1
            node.reward += reward[node.player]
            node.value += float(value[node.player])
        return True

    def _forget(self) -> None:
        """Undo what an iteration whose world was dropped had counted: the node it added, and
        the moves it found available (the iteration had not yet counted a visit; a step's joint
        node it made stays, unvisited: no move leads to it but that joint answer)."""
        if self._added is not None:
            children, key = self._added
            del children[key]
        for children, keys in self._steps:
            for k in keys:
                if k in children:
                    children[k].available -= 1

    def _mean(self, node: _Node) -> float:
        """The node's mean reward: its rank, mixed with its scaled own value by `score_weight`."""
        rank = node.reward / node.visits
        w = self.score_weight
        if not w:
            return rank
        spread = self._high - self._low
        scaled = (node.value / node.visits - self._low) / spread if spread > 0 else 0.5
        return (1 - w) * rank + w * scaled
