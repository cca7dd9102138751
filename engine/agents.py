"""Who decides: every driver gets a player's view and returns an option index.

A random agent, a person at the terminal and a replay all go through `Game.apply`, the
one door for decisions.
"""
from __future__ import annotations

import random
import sys
from typing import Callable, Protocol, TextIO

from .undo import TakeBack
from .view import PlayerView, render


class Agent(Protocol):
    def choose(self, view: PlayerView) -> int:
        """Return the index of one of view.decision['options']."""


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> int:
        return self.rng.randrange(view.option_count)


class QuitGame(Exception):
    """The person at the terminal asked to stop."""


class HumanAgent:
    """A person at the terminal: sees their own view and the numbered options; `u` asks for
    their last decision back (see undo.py), `q` stops the game."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def choose(self, view: PlayerView) -> int:
        decision = view.decision
        self.say("")
        self.say(render(view))
        self.say(f"\n{view.you}: {decision['prompt']}")
        for i, option in enumerate(decision["options"], 1):
            self.say(f"  {i:>2}. {option}")
        n = len(decision["options"])
        while True:
            self.stdout.write(f"Choose 1-{n} (u to undo, q to quit): ")
            self.stdout.flush()
            try:
                line = self.stdin.readline()
            except KeyboardInterrupt:
                raise QuitGame() from None
            if not line:
                raise QuitGame()
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise QuitGame()
            if text.lower() in ("u", "undo"):
                raise TakeBack(self.say)
            if not text:
                self.say("Please type the number of an option.")
                continue
            if not (text.isascii() and text.isdigit()) or len(text) > 9:
                shown = text if len(text) <= 20 else text[:20] + "..."
                if text.isascii() and text.isdigit():
                    self.say(f"{shown} is not an option; type a number from 1 to {n}.")
                else:
                    self.say(f"'{shown}' is not a number; type a number from 1 to {n}.")
                continue
            choice = int(text)
            if not 1 <= choice <= n:
                self.say(f"{choice} is not an option; type a number from 1 to {n}.")
                continue
            return choice - 1


def make_agents(seats: list[str], seed: int, make_human: Callable[[], Agent] = HumanAgent) -> list[Agent]:
    """Agents for the seats; each random agent's seed derives from the game seed and its seat."""
    agents: list[Agent] = []
    for i, kind in enumerate(seats):
        if kind == "random":
            agents.append(RandomAgent(seed * 7919 + i + 1))
        elif kind == "human":
            agents.append(make_human())
        else:
            raise ValueError(f"unknown seat kind '{kind}'; use human or random")
    return agents
