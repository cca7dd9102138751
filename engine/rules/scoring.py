"""A player's score by named parts (`scoring.breakdown`), and the results of a finished game.

The parts tell a player why they won or lost, and a designer which part of the score a rule
changed (`engine simulate` averages each part by seat). A ruleset that writes only parts
scores their sum; one that writes both a `score` and parts must have parts that add up to
it, which every breakdown read checks, so a part left out shows in the first game played.
"""
from __future__ import annotations

import math
import textwrap
from typing import Any, Callable

from ..core.errors import EffectError
from ..core.limits import MAX_SCORE
from ..core.table import Player
from ..core.text import card_text, number_text
from ..lang.builtins import describe
from ..lang.compiler import evaluate


def checked_scores(scores: dict[Player, Any], rules: Any) -> dict[Player, Any]:
    """The game's scores, once each is known to be a number that results can add up and
    average (`engine simulate` sums them over its games): a whole number beyond MAX_SCORE
    would not divide into a mean, and text is no score."""
    for player, value in scores.items():
        t = type(value)
        if t is float or t is int and -MAX_SCORE <= value <= MAX_SCORE:
            continue
        what = (f"a whole number of about {int(abs(value).bit_length() * math.log10(2)) + 1} digits" if t is int
                else describe(value) + (f" ({card_text(value)})" if isinstance(value, str) else ""))
        raise EffectError(f"the score of P{int(player)} is {what}: a score is a number from -{MAX_SCORE:,} "
                          f"to {MAX_SCORE:,}", rules.score_at, "scoring")
    return scores


def _number(value: Any, part: str, player: Any, rules: Any) -> Any:
    if type(value) not in (int, float):
        raise EffectError(f"breakdown part '{part}' is {describe(value)} for P{int(player)}, not a number",
                          rules.breakdown_at, f"breakdown part {part}")
    return value


def sum_of_parts(parts: dict[str, Callable]) -> Callable:
    """The score of a ruleset that writes only its parts: their sum, as a compiled expression
    of `player` (g, env) is called."""
    def score(g: Any, env: dict) -> Any:
        return sum(_number(part(g, env), name, env["player"], g.rules) for name, part in parts.items())
    return score


def breakdown(g: Any, scores: dict[Player, Any] | None = None) -> dict[Player, dict[str, Any]]:
    """Each player's own parts (before team sums), by name in the ruleset's order; empty for
    a ruleset without parts. Parts written beside a `score` are checked to add up to it (to
    `scores`, the game's scores if the caller has them and no teams sum them, else evaluated)."""
    rules = g.rules
    own = scores if scores is not None and g.team_groups() is None else None
    result: dict[Player, dict[str, Any]] = {}
    for p in g.players:
        env = {"player": p}
        parts = {name: _number(evaluate(fn, g, env), name, p, rules) for name, fn in rules.breakdown.items()}
        if rules.breakdown_checked:
            score = own[p] if own is not None else evaluate(rules.score, g, env)
            total = sum(parts.values())
            if not (type(score) in (int, float) and math.isclose(total, score, rel_tol=1e-9, abs_tol=1e-9)):
                raise EffectError(
                    f"the breakdown's parts add up to {number_text(total)} for P{int(p)}, but the score is "
                    f"{number_text(score) if type(score) in (int, float) else describe(score)} ("
                    + ", ".join(f"{name} {number_text(v)}" for name, v in parts.items())
                    + "); make the parts add up to the score, or leave `score` out: it is then their sum",
                    rules.breakdown_at, "scoring breakdown")
        result[p] = parts
    return result


def how_counted(rules: Any, width: int = 78) -> list[str]:
    """How each part of the score is counted, in the words of the parts' `description`s, cut
    to `width`: a line (or a few) a description, after the names of the parts it tells (parts
    counted alike, such as one per company, share it); none for a ruleset without them."""
    told: dict[str, list[str]] = {}
    for name in rules.breakdown:
        if name in rules.breakdown_descriptions:
            told.setdefault(rules.breakdown_descriptions[name], []).append(name)
    if not told:
        return []
    return ["How each part is counted:"] + [
        line for text, parts in told.items()
        for line in textwrap.wrap(f"{', '.join(parts)}: {text}", width, initial_indent="  ",
                                  subsequent_indent="    ", break_on_hyphens=False)]


def results_lines(g: Any, names: dict[int, str]) -> list[str]:
    """A finished game's results as text: a table of each player's parts and score (and own
    score beside the team's, with teams in play), how each part is counted (where the ruleset
    says), then the winners and the seed."""
    scores = g.scores()
    parts = g.breakdown(scores)
    teams = g.team_groups()
    headers = ["player", *g.rules.breakdown, *(["own", "team"] if teams else ["score"])]
    rows = []
    for p in g.players:
        own = [evaluate(g.rules.score, g, {"player": p})] if teams else []
        rows.append([names[int(p)], *(number_text(v) for v in [*parts[p].values(), *own, scores[p]])])
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        return "  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return [line(headers), *(line(r) for r in rows), *how_counted(g.rules),
            "Winner(s): " + ", ".join(names[int(p)] for p in g.winners(scores)), f"Seed: {g.seed}"]
