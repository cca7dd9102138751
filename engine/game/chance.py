"""Chance as a decision of nature: where the rules draw at random, a game can wait for the outcome.

The random built-ins (shuffle, random_choice) go through `Game.shuffle` and `Game.pick`. By
default those draw from the game's seeded generator exactly as the built-ins always did (the
same calls, in the same order), so every game of a seed is what it was. A game made with
`chance="explicit"` has an `Explicit` here instead: each draw is one `draw(outcomes)`, and a
draw with more than one outcome the game has not been given stops it (`NeedChance`), with
`Game.chance_decision()` the outcomes and their probabilities, until `Game.apply_chance(i)`.
A shuffle of n cards is n - 1 such draws (which card comes first, then second...), not n!
outcomes: what a solver can walk.

A draw happens inside a compiled stretch of rules, which cannot stop half-way as a `choose`
does. So the game keeps `base`, a copy of itself from before the stretch (before the player's
answer that started it, or before setup), and the outcomes given since; an outcome resumes the
game by running the stretch again from `base` with the outcomes known so far, as a replay of a
player's decisions does. Nothing draws from the generator in this mode, so a replay reaches the
same draw again. Until then the game shows the table as the rules left it at the draw.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class NeedChance(BaseException):
    """Raised by a draw whose outcome is not known yet: the game stops there. A BaseException,
    so that no handler of a rule's faults (`except Exception`) takes it for one."""


@dataclass
class ChanceDecision:
    """What nature decides now: one of `outcomes` (values: the cards that may come next, the
    items of a random_choice), each with its probability."""

    outcomes: list[Any]
    probabilities: list[float]


@dataclass
class Explicit:
    """A game's explicit chance: where the running stretch began (`base`; `answer`, the option of
    the player's decision that started it, None for setup), the outcomes given since (`feed`),
    how many of them this run has used, and the decision it waits for, if any."""

    base: Any = None
    answer: int | None = None
    feed: list[int] = field(default_factory=list)
    used: int = 0
    pending: ChanceDecision | None = None

    def copy(self) -> Explicit:
        """A copy for a copy of the game (`base` is never changed once taken: it is shared)."""
        return Explicit(self.base, self.answer, list(self.feed), self.used, self.pending)

    def draw(self, outcomes: list[Any]) -> int:
        """The index of the outcome drawn among `outcomes` (all alike likely): the next one
        given, else stop the game for one."""
        if len(outcomes) == 1:
            return 0
        if self.used < len(self.feed):
            self.used += 1
            drawn = self.feed[self.used - 1]
            if drawn >= len(outcomes):
                raise ValueError(f"chance outcome {drawn} is not one of the {len(outcomes)} of this draw")
            return drawn
        self.pending = ChanceDecision(list(outcomes), [1.0 / len(outcomes)] * len(outcomes))
        raise NeedChance


def shuffle(chance: Explicit, cards: list) -> None:
    """Shuffle `cards` in place as n - 1 draws: which of those left comes at each place, first
    place first."""
    for i in range(len(cards) - 1):
        j = i + chance.draw(cards[i:])
        cards[i], cards[j] = cards[j], cards[i]


def pick(chance: Explicit, values: list) -> Any:
    """One of `values`, as chance draws it."""
    return values[chance.draw(values)]
