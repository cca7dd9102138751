"""A time limit on the work a thread does for one purpose: a bot's decision, a replay.

Python cannot stop a thread from outside, so work that may run long checks the clock where it
does a unit of work: every decision taken in a game (`Game.apply`: a search's play-outs, a game
played again) and every world a search bot deals (`PlayerView.world`).
Past the deadline of the thread's `time_limit`, the check raises `OutOfTime`, which the one
who set the limit catches (a server gives a late bot's decision to a random option, and refuses
a replay that takes too long). A thread with no limit pays one attribute read a check.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class _Limits(threading.local):
    deadline: float | None = None  # this thread's (a class default: no missing attribute to raise on)


_limits = _Limits()


class OutOfTime(Exception):
    """The work of a `time_limit` went past its deadline."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Checks in this thread raise OutOfTime once `seconds` have passed (a limit set inside
    another keeps the earlier deadline of the two)."""
    outer = _limits.deadline
    deadline = time.monotonic() + seconds
    _limits.deadline = deadline if outer is None else min(outer, deadline)
    try:
        yield
    finally:
        _limits.deadline = outer


def check() -> None:
    """Raise OutOfTime if this thread's time limit has passed."""
    deadline = _limits.deadline
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime()
