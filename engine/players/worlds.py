"""The worlds a bot thinks in during one decision, and what a rule that fails in one of them does.

A world (`PlayerView.world`) deals anew what its player has not seen, so a rule that is right in
every real game can fail there: a hidden card that stood for state ("did they use this card
this turn") was dealt to someone else, and `first()` of an empty list fails. That says nothing
about the real game, which must not fail for it. So a bot does its work in a world through
`Worlds.think`: where the rules fail, the world is dropped, counted, and the work is done again
in a new one, dealt from the bot's own generator. After `MOST_FAILED` failures in a row a
decision stops dealing, and the bot decides with what it learnt from the worlds that worked (at
random where none did), so that every decision ends. A rule that fails in the real game
(`Game.apply` by the loop) is reported as ever: this module never sees it.

`tally` counts the worlds of this process and those that failed, with the first failure; the
analysis workers add their processes' counts to it (analysis/workers.py), an isolated seat its
child's (isolation.py), and the command says once at its end how many failed (`summary`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from ..core.errors import EffectError, EngineError, IllegalMove
from ..game.game import Game

T = TypeVar("T")

MOST_FAILED = 16  # failed worlds in a row after which a decision deals no more
MOST_COUNTED = 1 << 62  # more worlds than any process deals: a count past it is no count
DOCS = 'docs/python-api.md, "When the rules fail in a world"'


@dataclass
class Tally:
    """Worlds dealt through `Worlds` in this process (and those other processes added), how many
    the rules failed in, and the first failure this process saw or was told of (where and what)."""

    worlds: int = 0
    failed: int = 0
    first: str = ""

    def copy(self) -> Tally:
        return Tally(self.worlds, self.failed, self.first)

    def since(self, before: Tally) -> dict[str, Any]:
        """What was counted after `before`, as plain data (to send to another process); empty
        when no world was dealt. The first failure goes with it when it is one of them (when
        nothing had failed before)."""
        if self.worlds == before.worlds and self.failed == before.failed:
            return {}
        first = self.first if self.failed > before.failed and not before.failed else ""
        return {"worlds": self.worlds - before.worlds, "failed": self.failed - before.failed,
                **({"first": first} if first else {})}

    def add(self, counted: Any) -> None:
        """Add what another process counted (`since`). An isolated agent's process may send
        anything: what is not such counts is left out, and a failure's words are cut short."""
        if not isinstance(counted, dict):
            return
        worlds, failed, first = counted.get("worlds", 0), counted.get("failed", 0), counted.get("first", "")
        if not all(type(n) is int and 0 <= n <= MOST_COUNTED for n in (worlds, failed)) or type(first) is not str:
            return
        self.worlds += worlds
        self.failed += failed
        if not self.first and first:
            self.first = "".join(c for c in first[:300] if c.isprintable())


tally = Tally()


def failure(exc: EngineError) -> str:
    """A rule's failure in a few words: where it is and what failed."""
    if isinstance(exc, EffectError):
        where = f"{exc.location}: " if exc.location else ""
        return f"{where}{exc.message}" + (f" (in {exc.rule})" if exc.rule else "")
    return str(exc)


def summary(before: Tally | None = None) -> str | None:
    """The line a run ends with when the rules failed in worlds since `before` (None: ever in this
    process); None when they did not."""
    counted = tally.since(before or Tally())
    if not counted.get("failed"):
        return None
    first = counted.get("first") or tally.first
    return (f"the rules failed in {counted['failed']:,} of {counted['worlds']:,} imagined worlds "
            f"(the bots dropped them and thought on in others): first at {first}; a rule relies on "
            f"something its player cannot know ({DOCS})")


class Worlds:
    """The worlds of one decision of a bot: each dealt from `view` by a seed of `rng`, the bot's
    generator, so that its decisions stay reproducible."""

    __slots__ = ("view", "rng", "failed")

    def __init__(self, view: Any, rng: Any):
        self.view, self.rng = view, rng
        self.failed = 0  # worlds that failed in a row

    @property
    def given_up(self) -> bool:
        """Whether this decision has stopped dealing worlds: MOST_FAILED failed in a row."""
        return self.failed >= MOST_FAILED

    def deal(self) -> Game:
        """A new world of the view."""
        tally.worlds += 1
        return self.view.world(self.rng.getrandbits(63), log=False)

    def think(self, work: Callable[[Game], T], world: Game | None = None,
              dropped: Callable[[], None] | None = None) -> T | None:
        """What `work` makes of a new world (or of `world`, at first). Where a rule fails in it,
        the world is dropped (`dropped` undoes what the work had kept of it) and counted, and the
        work is done again in a new world. None once the decision has given up: decide with the
        worlds that worked. A bot's own mistake (an option that is not legal) is no rule's
        failure, and goes on as an error."""
        while not self.given_up:
            try:
                result = work(world if world is not None else self.deal())
            except IllegalMove:
                raise
            except EngineError as exc:
                world = None
                self.failed += 1
                tally.failed += 1
                if not tally.first:
                    tally.first = failure(exc)
                if dropped is not None:
                    dropped()
                continue
            self.failed = 0
            return result
        return None
