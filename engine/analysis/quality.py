"""Game quality: is a game close, decisive, with turns that matter? Measures after Browne's
(PhD thesis, QUT 2008) and Ludii's metrics, from each game's standings round by round.

`StandingsRecorder` keeps those standings while `engine simulate` plays a game (run.py): after
each round, every player's standing by the ruleset's `heuristic` (its score without one), and
at the end the final scores. A round is known without knowing the game: it runs from one run of
decisions of the first player to decide to their next. The recorder only reads the game (it
draws no random number and changes nothing), so a game plays the same with it or without it,
and bots' look-ahead never runs it.

`quality` turns the records into the numbers of the report's quality section (docs/balance.md
defines each). Records of run files written before the standings were recorded still give the
measures that need no standings: first-player advantage, ties and draws, duration.
"""
from __future__ import annotations

import math
from typing import Any

from ..core.errors import EngineError
from ..game.game import Game
from .stats import quartiles, summary, wilson

LONGEST_ROUND = 20  # decisions a player: a round also ends after players x this many (a game
# whose first player never decides again still has rounds)
MAX_POINTS = 128  # standings kept a game at most: a longer game keeps every 2nd, 4th... round
CURVE_POINTS = 21  # the winner's margin is read at 0%, 5%, ... 100% of each game


class StandingsRecorder:
    """Called after each decision of a game (players/loop.py's `after_each`): every player's
    standing each time the first player to decide begins a new run of decisions, or after
    LONGEST_ROUND decisions a player without that."""

    def __init__(self) -> None:
        self.first = self.last = None  # the first player to decide; the one who decided last
        self.rounds = 0
        self.since, self.longest = 0, 0  # decisions since the round began; a round's most
        self.every = 1  # a standing kept every this many rounds
        self.points: list[list[float]] | None = []

    def begin(self, game: Game) -> None:
        """Before the game's first decision."""
        if not game.over:
            self.first = self.last = game.pending.player
            self.rounds, self.longest = 1, LONGEST_ROUND * len(game.players)

    def __call__(self, game: Game) -> None:
        if game.over:
            return
        player = game.pending.player
        self.since += 1
        if player == self.first and self.last != self.first or self.since >= self.longest:
            self.rounds, self.since = self.rounds + 1, 0
            if self.points is not None and (self.rounds - 1) % self.every == 0:
                steps = game.steps  # the rules' steps since the decision: the heuristic's are not theirs
                try:
                    self._keep(game.estimates())
                except (EngineError, TypeError, ValueError, ArithmeticError):  # a heuristic that
                    # fails (or is no finite number) mid-game costs the series, not the game
                    self.points = None
                game.steps = steps
        self.last = player

    def _keep(self, standing: dict[Any, Any]) -> None:
        assert self.points is not None
        self.points.append([_compact(v) for v in standing.values()])
        if len(self.points) == MAX_POINTS:
            self.points, self.every = self.points[1::2], 2 * self.every

    def record(self, final: dict[Any, Any]) -> dict[str, Any]:
        """The record's fields: `rounds`, and `standings` (a list per kept round, in seat
        order, the final scores last), with `standings_every` when rounds were skipped."""
        out: dict[str, Any] = {"rounds": self.rounds}
        try:
            last = [_compact(v) for v in final.values()]
        except (TypeError, ValueError, ArithmeticError):
            return out
        if self.points is not None:
            out["standings"] = self.points + [last]
            if self.every > 1:
                out["standings_every"] = self.every
        return out


def _compact(value: Any) -> float:
    """A standing as a short JSON number: a whole number as is, else to 3 decimals."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"standing {value} is no finite number")
    return int(number) if number.is_integer() else round(number, 3)


# ------------------------------------------------------------------ the measures


def quality(played: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The quality section of a report, over the games that ended (`played`). Measures that
    need standings by round are None when no record has them; `with_standings` counts those
    that have."""
    n, even = len(played), 1 / players
    first = sum(1 / len(r["winners"]) for r in played if r["turn_order"] and r["turn_order"][0] in r["winners"])
    low, high = wilson(first, n)
    shared = sum(1 for r in played if len(r["winners"]) > 1)
    drawn = sum(1 for r in played if len(r["winners"]) == players and players > 1)
    out: dict[str, Any] = {
        "first_player_advantage": {"share": first / n, "advantage": first / n - even,
                                   "low": low - even, "high": high - even},
        "ties": _rate(shared, n), "draws": _rate(drawn, n),
        "decisions": _mean([r["decisions"] for r in played]),
        "with_standings": 0, "rounds": None, "lead_for_good": None, "lead_changes": None,
        "lead_changes_per_round": None, "comebacks": None, "worst_deficit": None, "uncertainty": None,
        "margin_curve": None,
    }
    series = [(r, r["standings"]) for r in played if _usable(r.get("standings"), players)]
    out["with_standings"] = len(series)
    if not series:
        return out
    out["rounds"] = _mean([r["rounds"] for r, _ in series if isinstance(r.get("rounds"), int)])
    changes = [lead_changes(s) for _, s in series]
    out["lead_changes"] = _mean([float(c) for c in changes])
    out["lead_changes_per_round"] = _mean([c / (len(s) - 1) for c, (_, s) in zip(changes, series) if len(s) > 1])
    out["uncertainty"] = _mean([uncertainty(s) for _, s in series], 1.0)
    single = [(int(r["winners"][0][1:]) - 1, s) for r, s in series if len(r["winners"]) == 1]
    if single:
        out["lead_for_good"] = _mean([lead_for_good(s, w) for w, s in single], 1.0)
        deficits = [worst_deficit(s, w) for w, s in single]
        out["comebacks"] = _rate(sum(1 for d in deficits if d > 0), len(single))
        out["worst_deficit"] = _mean(deficits)
        out["margin_curve"] = margin_curve(single)
    return out


def _usable(standings: Any, players: int) -> bool:
    return isinstance(standings, list) and len(standings) > 0 and all(
        isinstance(s, list) and len(s) == players and all(
            isinstance(v, (int, float)) and math.isfinite(v) for v in s) for s in standings)


def _rate(count: int, n: int) -> dict[str, float]:
    low, high = wilson(count, n)
    return {"games": count, "share": count / n if n else 0.0, "low": low, "high": high}


def _mean(values: list[float], most: float = math.inf) -> dict[str, float] | None:
    """A mean with its 95% interval (normal approximation; the mean itself for one value), kept
    within what the measure can be: from 0 (each is a count, a share or a length) to `most`
    (1 for a share): of a few games, the approximation reaches past them."""
    if not values:
        return None
    s = summary(values)
    half = s.half_width if s.n > 1 else 0.0
    return {"mean": s.mean, "low": max(0.0, s.mean - half), "high": min(most, s.mean + half), "games": s.n}


def leaders(standing: list[float]) -> frozenset[int]:
    """The seats (from 0) with the best standing: all of them share a tied lead."""
    best = max(standing)
    return frozenset(i for i, v in enumerate(standing) if v == best)


def lead_changes(series: list[list[float]]) -> int:
    """How many times the leading seats differ from those of the round before."""
    return sum(1 for a, b in zip(series, series[1:]) if leaders(a) != leaders(b))


def lead_for_good(series: list[list[float]], winner: int) -> float:
    """When the winner leads (alone or tied) from then to the end, as a fraction of the game:
    0 from the first round on, 1 only at the end."""
    at = len(series) - 1
    while at > 0 and winner in leaders(series[at - 1]):
        at -= 1
    return at / (len(series) - 1) if len(series) > 1 else 0.0


def worst_deficit(series: list[list[float]], winner: int) -> float:
    """How far the winner stood behind the leader at their worst (0: never behind)."""
    return max(max(s) - s[winner] for s in series)


def uncertainty(series: list[list[float]]) -> float:
    """The entropy of who leads over the game, in units of log(players): each round's lead
    counts 1/k to each of k tied leaders; 0 when one seat leads throughout, 1 when every seat
    leads as long as every other."""
    players = len(series[0])
    if players < 2:
        return 0.0
    time = [0.0] * players
    for s in series:
        top = leaders(s)
        for i in top:
            time[i] += 1 / len(top)
    return -sum(t / len(series) * math.log(t / len(series)) for t in time if t > 0) / math.log(players)


def margin_curve(games: list[tuple[int, list[list[float]]]]) -> list[dict[str, float]]:
    """The winner's standing minus the best other's, read at 0%, 5%, ... 100% of each game
    (the nearest kept round), as mean and quartiles over the games, and the share of games
    whose winner leads there (alone or tied): for the plots of the HTML page."""
    curve = []
    for k in range(CURVE_POINTS):
        margins, leading = [], 0
        for w, s in games:
            at = s[round(k / (CURVE_POINTS - 1) * (len(s) - 1))]
            margins.append(at[w] - max(v for i, v in enumerate(at) if i != w) if len(at) > 1 else 0.0)
            leading += w in leaders(at)
        q1, median, q3 = quartiles(margins)
        curve.append({"at": k / (CURVE_POINTS - 1), "mean": math.fsum(margins) / len(margins),
                      "q1": q1, "median": median, "q3": q3, "winner_leads": leading / len(games)})
    return curve
