"""A sign at the terminal that the bots are deciding: who decides now, and for how long the
bots have been at it.

Bots of `engine play` may take a minute between two screens, one short decision after another;
a screen that shows nothing meanwhile looks hung. Once the bots have been deciding for a moment,
a line says which one decides and counts the seconds since they began, and is rubbed out each
time one has chosen, so that the screens that follow are as before. Only on a terminal: output
to a file or a pipe gets nothing.
"""
from __future__ import annotations

import threading
import time
from typing import TextIO

from ..game.view import PlayerView
from .agents import Agent

DELAY = 0.5  # seconds of bots deciding before the line appears: a quick reply shows nothing
GAP = 0.2  # a bot that starts within this of the last one's end goes on the same run of decisions


class BotClock:
    """When the bots' current run of decisions began, shared by the bots of a game."""

    def __init__(self) -> None:
        self.since = 0.0
        self.last_end = -GAP

    def start(self) -> float:
        now = time.monotonic()
        if now - self.last_end > GAP:  # a person (or nobody) decided in between: a new run
            self.since = now
        return self.since


class Thinking:
    """`agent`, with the line on `stream` (a terminal) while it decides."""

    def __init__(self, agent: Agent, stream: TextIO, clock: BotClock, delay: float = DELAY, every: float = 1.0):
        self.agent, self.stream, self.clock, self.delay, self.every = agent, stream, clock, delay, every

    def choose(self, view: PlayerView) -> int:
        since = self.clock.start()
        done = threading.Event()
        shown: list[int] = []  # the lengths of the lines written, to rub them out

        def tick() -> None:
            if done.wait(max(0.0, since + self.delay - time.monotonic())):
                return
            while True:
                line = f"{view.you} is thinking... {time.monotonic() - since:.0f} s"
                self.stream.write("\r" + line.ljust(max(shown, default=0)))
                self.stream.flush()
                shown.append(len(line))
                if done.wait(self.every):
                    return

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            return self.agent.choose(view)
        finally:
            done.set()
            ticker.join()
            if shown:
                self.stream.write("\r" + " " * max(shown) + "\r")
                self.stream.flush()
            self.clock.last_end = time.monotonic()
