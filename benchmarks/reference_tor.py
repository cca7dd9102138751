"""Trick of the Rails written by hand: the yardstick of the speed benchmark (benchmarks/speed.py).

The same game as rulesets/trick_of_the_rails.yaml with its default options (standard lane, no
teams, a random first leader), for 3 to 5 players, as one would write a fast simulator without
an engine: ints and lists, no logs, no views. Players pick uniformly among the legal options
with `rng.randrange(len(options))`, as the engine's random agents do.

    python benchmarks/reference_tor.py                # games per second of the simulator
    python benchmarks/reference_tor.py --check        # the same game as the engine's?

`--check` plays engine games (fixed seeds, random decisions), deals the simulator the engine's
starting position (hands, railways, lane, first leader: the only random events of the game),
then feeds both the same decisions. At every decision the deciding player and the options, in
order, must be the same (cards by identity); at the end the railways, locomotives, shares,
scores and the number of decisions.

Cards: railway card `c` (0-49, the ruleset's order) is number `c % 10 + 1` of company `c // 10`
(B&O, C&O, ERIE, NYC, PRR). A railway is the list of the station values of its cards, front to
back; only values count for profits. Lane entries are tuples: ("E", company) for an Exchange or
a railway card that filled a Reservation (both give a share of their company), ("C", value) for
a City, ("L", group, distance, cost) for a Locomotive and ("R",) for a Reservation.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent

COMPANIES = ("B&O", "C&O", "ERIE", "NYC", "PRR")
ENDS = ("front", "back")
FRONT, BACK = 0, 1
# Station values of the railway cards 1-10 of each company, in company order.
VALUES = (10, 10, 10, 20, 20, 20, 20, 30, 30, 40,
          40, 30, 30, 20, 20, 20, 20, 10, 10, 10,
          30, 20, 20, 10, 30, 10, 20, 20, 40, 10,
          20, 20, 30, 10, 20, 40, 10, 20, 30, 10,
          10, 20, 20, 30, 40, 30, 20, 20, 10, 10)
STATION = 10
CITIES = (20, 30, 40)
INFINITY = 1_000  # longer than any railway
# (group, distance, cost) in lane order; the 6 and infinity are one group, placed in one trick.
LOCOMOTIVES = ((1, 3, 40), (2, 4, 50), (3, 5, 60), (4, 6, 70), (4, INFINITY, 80))
HAND_SIZE = {3: 15, 4: 11, 5: 9}
LANE_LAYOUT = {3: "ECECECELELRLRLR", 4: "ECELELELELR", 5: "ELELELELE"}

ALL_COMPANIES = list(range(len(COMPANIES)))
BOTH_ENDS = [FRONT, BACK]

# choose(player, options) -> index of the option taken; asked only when there are two or more.
Chooser = Callable[[int, list[int]], int]


@dataclass
class Deal:
    """The random part of a game, fixed at setup; seats are 0-based."""

    hands: list[list[int]]      # railway cards, in hand order
    railways: list[list[int]]   # by company: station values, front to back
    lane: list[tuple]           # left to right
    leader: int


def deal(rng: random.Random, players: int) -> Deal:
    """Shuffle and deal as the ruleset's setup does (its own order of random draws)."""
    deck = list(range(50))
    rng.shuffle(deck)
    size = HAND_SIZE[players]
    hands = [deck[i * size:(i + 1) * size] for i in range(players)]
    railways = [[STATION] for _ in COMPANIES]
    for c in deck[players * size:]:
        railways[c // 10].append(VALUES[c])
    exchanges = list(range(len(COMPANIES)))
    rng.shuffle(exchanges)
    cities = list(CITIES)
    rng.shuffle(cities)
    locomotives = list(LOCOMOTIVES)
    lane: list[tuple] = []
    for slot in LANE_LAYOUT[players]:
        if slot == "E":
            lane.append(("E", exchanges.pop(0)))
        elif slot == "C":
            lane.append(("C", cities.pop(0)))
        elif slot == "R":
            lane.append(("R",))
        else:
            group = locomotives[0][0]
            while locomotives and locomotives[0][0] == group:
                lane.append(("L",) + locomotives.pop(0))
    return Deal(hands, railways, lane, rng.randrange(players))


def best_window(values: list[int], length: int) -> int:
    """The largest sum of `length` consecutive values; all of them if the list is not longer."""
    if length >= len(values):
        return sum(values)
    window = best = sum(values[:length])
    for i in range(length, len(values)):
        window += values[i] - values[i - length]
        if window > best:
            best = window
    return best


def play(d: Deal, choose: Chooser) -> tuple[list[int], int, list, list[list[int]]]:
    """Play the game from deal `d` (changed in place) to its end. Returns the scores by seat, the
    number of decisions, the locomotive of each company ((distance, cost) or None) and the
    shares of each seat by company."""
    players = len(d.hands)
    hands, railways, lane = d.hands, d.railways, d.lane
    locomotive: list[tuple[int, int] | None] = [None] * len(COMPANIES)
    shares = [[0] * len(COMPANIES) for _ in range(players)]
    leader = d.leader
    decisions = 0

    def pick(player: int, options: list[int]) -> int:
        nonlocal decisions
        if len(options) == 1:
            return options[0]
        decisions += 1
        return options[choose(player, options)]

    def place_locomotive(winner: int, loco: tuple) -> None:
        free = [k for k in ALL_COMPANIES if locomotive[k] is None]
        locomotive[pick(winner, free)] = (loco[2], loco[3])

    for _ in range(HAND_SIZE[players]):
        # Play the trick: follow the led company if you can.
        played = [0] * players
        led = -1
        for i in range(players):
            p = (leader + i) % players
            hand = hands[p]
            options = [c for c in hand if c // 10 == led] if led >= 0 else hand
            card = pick(p, options or hand)
            hand.remove(card)
            played[p] = card
            if led < 0:
                led = card // 10
        winner = max((p for p in range(players) if played[p] // 10 == led), key=played.__getitem__)

        head = lane.pop(0)
        if head[0] == "E":
            # Exchange (or a railway card in the lane): a share for the winner; the winner's card
            # fills the leftmost Reservation or leaves the game; the others keep theirs as shares.
            shares[winner][head[1]] += 1
            if ("R",) in lane:
                lane[lane.index(("R",))] = ("E", played[winner] // 10)
            for p in range(players):
                if p != winner:
                    shares[p][played[p] // 10] += 1
        else:
            if head[0] == "C":
                company = pick(winner, ALL_COMPANIES)
                if pick(winner, BOTH_ENDS) == FRONT:
                    railways[company].insert(0, head[1])
                else:
                    railways[company].append(head[1])
            else:
                place_locomotive(winner, head)
                while lane and lane[0][0] == "L" and lane[0][1] == head[1]:
                    place_locomotive(winner, lane.pop(0))
            # From the winner clockwise, each played card goes to an end of its railway.
            for i in range(players):
                p = (winner + i) % players
                card = played[p]
                if pick(p, BOTH_ENDS) == FRONT:
                    railways[card // 10].insert(0, VALUES[card])
                else:
                    railways[card // 10].append(VALUES[card])
        leader = winner

    share_value = [0 if loco is None else max(0, best_window(railway, loco[0]) - loco[1])
                   for railway, loco in zip(railways, locomotive)]
    scores = [sum(n * v for n, v in zip(held, share_value)) for held in shares]
    return scores, decisions, locomotive, shares


def play_random(seed: int, players: int = 4) -> tuple[list[int], int]:
    """One game dealt and played at random from `seed`: (scores by seat, decisions)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    scores, decisions, _, _ = play(deal(rng, players), lambda player, options: randrange(len(options)))
    return scores, decisions


# ---------------------------------------------------------------- the check against the engine

def deal_from_engine(game) -> Deal:
    """The simulator's deal read from an engine game's table after setup."""
    from engine.core.table import Player
    t = game.table
    hands = [[c.index for c in t.cards_in(t.zones["hand"][Player(p)])] for p in range(1, len(game.players) + 1)]
    railways = [[c.props["value"] for c in t.cards_in(t.zones["railway"][k])] for k in COMPANIES]
    lane: list[tuple] = []
    for c in t.cards_in(t.zones["lane"]):
        if c.kind == "exchange":
            lane.append(("E", COMPANIES.index(c.props["company"])))
        elif c.kind == "city":
            lane.append(("C", c.props["value"]))
        elif c.kind == "locomotive":
            distance = c.props["distance"]
            lane.append(("L", c.props["group"], INFINITY if distance == float("inf") else distance, c.props["cost"]))
        else:
            lane.append(("R",))
    return Deal(hands, railways, lane, int(t.counters["leader"]) - 1)


def check_game(rs, players: int, seed: int) -> int:
    """Play engine game `seed` and the simulator side by side with the same random decisions;
    raise AssertionError at the first difference. Returns the number of decisions."""
    from engine.core.table import Card, Player
    from engine.game.game import Game
    game = Game(rs, players, rs.resolve_options({}, players), seed)
    for c in game.table.cards[:50]:   # the simulator's card numbers are the ruleset's
        assert (c.props["company"], c.props["number"], c.props["value"]) == (
            COMPANIES[c.index // 10], c.index % 10 + 1, VALUES[c.index]), c
    rng = random.Random(seed)

    def as_number(option) -> int:
        if isinstance(option, Card):
            assert option.kind == "railway", option
            return option.index
        return COMPANIES.index(option) if option in COMPANIES else ENDS.index(option)

    def choose(player: int, options: list[int]) -> int:
        where = f"seed {seed}, decision {len(game.decisions) + 1}"
        assert not game.over, f"{where}: the engine's game is over, the simulator asks"
        assert game.pending.player == player + 1, f"{where}: engine asks {game.pending.player}, simulator P{player + 1}"
        engine_options = [as_number(o) for o in game.pending.options]
        assert engine_options == options, f"{where}: options {engine_options} (engine) != {options}"
        index = rng.randrange(len(options))
        game.apply(index)
        return index

    d = deal_from_engine(game)
    scores, decisions, locomotive, shares = play(d, choose)
    assert game.over, f"seed {seed}: the simulator's game is over, the engine asks"
    t = game.table
    assert d.railways == [[c.props["value"] for c in t.cards_in(t.zones["railway"][k])] for k in COMPANIES], seed
    engine_locos = [t.cards_in(t.zones["locomotive"][k]) for k in COMPANIES]
    assert [(loc[0].props["cost"] if loc else None) for loc in engine_locos] == [
        (loco[1] if loco else None) for loco in locomotive], seed
    engine_shares = [[0] * len(COMPANIES) for _ in range(players)]
    for p in range(players):
        for c in t.cards_in(t.zones["shares"][Player(p + 1)]):
            engine_shares[p][COMPANIES.index(c.props["company"])] += 1
    assert engine_shares == shares, f"seed {seed}: shares {engine_shares} (engine) != {shares}"
    engine_scores = game.scores()
    assert [engine_scores[Player(p + 1)] for p in range(players)] == scores, f"seed {seed}: {engine_scores} != {scores}"
    assert len(game.decisions) == decisions, seed
    return decisions


def check(games: int = 20, players: tuple[int, ...] = (4, 3, 5)) -> int:
    """Check `games` engine games for each player count; returns the decisions compared."""
    from engine.rules.ruleset import load_ruleset
    rs = load_ruleset(ROOT / "rulesets" / "trick_of_the_rails.yaml")
    return sum(check_game(rs, n, seed) for n in players for seed in range(1, games + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the engine, decision by decision")
    parser.add_argument("--games", type=int, default=None, help="games (default: 20 per player count to check, 20000 to time)")
    parser.add_argument("--players", type=int, default=4, help="players when timing (default 4)")
    args = parser.parse_args()
    if args.check:
        sys.path.insert(0, str(ROOT))
        games = args.games or 20
        decisions = check(games)
        print(f"reference agrees with the engine: {games} games each for 4, 3 and 5 players, {decisions} decisions")
        return 0
    games = args.games or 20_000
    started = time.perf_counter()
    decisions = sum(play_random(seed, args.players)[1] for seed in range(games))
    elapsed = time.perf_counter() - started
    print(f"{games} games, {args.players} players: {games / elapsed:.0f} games/s, {decisions / elapsed:.0f} decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
