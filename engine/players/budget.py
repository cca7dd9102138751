"""A bot's time budget for a decision, where a person waits for its answer.

`engine simulate`, `compare` and `cards` give the bots fixed budgets (iterations, worlds, tries)
so that a run reproduces on any machine. A person playing against bots (`engine play`, `engine
serve`) wants an answer quickly instead: there `mcts`, an anytime search, thinks for at most
`--think` seconds a decision and takes its best move so far (or ends sooner, at its fixed
iterations or once more time could not change its choice: a quick decision is not made to
wait for the budget, and none takes longer than it did without one). Greedy and scout bots take
milliseconds by design and keep their budgets. A time budget depends on the machine, so a game
played with one does not reproduce a simulated game: `--think 0` gives the fixed budgets back.
"""
from __future__ import annotations

from typing import Any

# Seconds an mcts decision takes at most where a person waits: with it the median wait between
# a person's decisions is well under 2 s at 3 players in every shipped ruleset (benchmarks/waits.py).
THINK = 0.15
MOST_THINK = 60.0  # a budget beyond a minute a decision is a typo, not a wish
TIMED_KINDS = ("mcts",)  # the bots whose search stops at a deadline with its best move so far


def timed_defaults(defaults: dict[str, dict[str, Any]], seconds: float) -> dict[str, dict[str, Any]]:
    """A ruleset's bot settings (`bots:`) with a time budget of `seconds` a decision for every
    kind in TIMED_KINDS; 0 or less: `defaults` as they are. A seat's own parameters still win
    over these (mcts:ms=500 thinks for half a second)."""
    if seconds <= 0:
        return defaults
    return {**defaults, **{kind: {**defaults.get(kind, {}), "ms": seconds * 1000} for kind in TIMED_KINDS}}


def timed(seats: list[str]) -> bool:
    """Whether a time budget changes how any of `seats` (seat texts, as --seats gives them) plays."""
    return any(seat.split(":", 1)[0].strip() in TIMED_KINDS for seat in seats)
