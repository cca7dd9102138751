"""Taking back a decision at the terminal, without learning anything by it.

Before each decision of a person, the driver keeps a copy of the game and what that person
could see. Undo puts the game back at their previous decision, unless a card they could not
see has been shown to them since (on the table or in a log line): deciding again knowing it
would not be fair, so undo is refused and says why. It is refused too when it would take
back another person's decision (two people at one terminal).

The history holds few copies of the game, whatever the game's length: one of the position at
its first mark, and one for each of the last KEPT_COPIES marks. An older mark is reached from
the first copy by taking again the decisions after it, as a save is replayed.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.table import Card
from ..core.text import Text, face_down
from ..game.game import Game


class TakeBack(Exception):
    """Raised by a person's agent to ask for their last decision back; `reply` tells them
    what came of it."""

    def __init__(self, reply):
        super().__init__("undo")
        self.reply = reply


KEPT_COPIES = 4  # the last marks that keep a copy of the game (an undo or two is taken at once)


@dataclass
class Mark:
    player: int
    decisions: int
    game: Game | None  # a copy of the game at this mark, for the first and the last KEPT_COPIES
    seen: frozenset[int]
    log_length: int


def _seen(game: Game, player: int) -> frozenset[int]:
    return frozenset(c.id for c in game.table.cards if game.table.can_see(c, player))


class UndoHistory:
    """The positions at which the people among the players (`humans`) decided."""

    def __init__(self, humans: set[int]):
        self.humans = humans
        self.marks: list[Mark] = []

    def mark(self, game: Game) -> None:
        """Called before every decision; keeps a copy when a person is to decide."""
        player = game.pending.player
        if player not in self.humans:
            return
        if self.marks and self.marks[-1].decisions == len(game.decisions):
            self.marks.pop()  # asked again at the same point (after a refused undo)
        self.marks.append(Mark(player, len(game.decisions), game.clone(), _seen(game, player), len(game.log)))
        if len(self.marks) > KEPT_COPIES + 1:
            self.marks[-KEPT_COPIES - 1].game = None  # the first mark keeps its copy: the others are replayed from it

    def _put_back(self, game: Game, mark: Mark) -> None:
        """Put `game` back at `mark`: its copy, or the first mark's and the decisions after it."""
        if mark.game is not None:
            game.restore(mark.game)
            return
        first, decisions = self.marks[0], list(game.decisions)
        game.restore(first.game)
        for index in decisions[first.decisions:mark.decisions]:
            game.apply(index)

    def take_back(self, game: Game) -> str:
        """Put `game` back at its deciding person's previous decision; say what happened."""
        player = game.pending.player
        current = len(self.marks) - 1
        previous = next((i for i in range(current - 1, -1, -1) if self.marks[i].player == player), None)
        if previous is None:
            return "There is no decision of yours to take back yet."
        others = sorted({m.player for m in self.marks[previous + 1:current]} - {player})
        if others:
            return (f"Undo refused: it would also take back the decision of "
                    f"{', '.join(f'P{int(p)}' for p in others)}.")
        revealed = self._revealed(game, player, self.marks[previous])
        if revealed:
            return (f"Undo refused: since your last decision you have seen {', '.join(revealed)}, "
                    "which you could not see before; deciding again knowing it would not be fair.")
        self._put_back(game, self.marks[previous])
        del self.marks[previous:]
        return "Took back your last decision."

    @staticmethod
    def _revealed(game: Game, player: int, mark: Mark) -> list[str]:
        """The cards shown to `player` since `mark` that they could not see then (a card concealed
        from them since reads as its back: they must remember it)."""
        now = set(_seen(game, player))
        for entry in game.log[mark.log_length:]:
            for v, who in entry.parts:
                if who is None or player in who:
                    now.update(c.id for c in ([v] if type(v) is Card else v.cards() if type(v) is Text else []))
        new = sorted(now - mark.seen)
        cards = [game.table.cards[i - 1] for i in new]
        return [face_down(c) if game.table.unshown(c, player) else c.label for c in cards]
