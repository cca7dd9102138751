"""Progress of a simulation on a terminal: games done, games a second and time left.

With `rich` installed (the `terminal` extra) a bar drawn by it; else one line rewritten in place.
Nothing is drawn when there is no terminal to draw on: progress is for people, not for logs.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TextIO

REDRAW_EVERY = 0.1  # seconds between redraws: drawing costs more than a game


@contextmanager
def progress_display(stream: TextIO | None, total: int, done: int = 0) -> Iterator[Callable[[], None]]:
    """A function to call once a game, drawing progress on `stream` (None: nothing) towards
    `total` games, `done` of them before this run (not counted in the rate)."""
    if stream is None:
        yield lambda: None
        return
    try:
        import rich.progress
        from rich.console import Console
    except ImportError:
        rich = None
    if rich is not None and stream.isatty():
        with _rich_bar(rich.progress, Console(file=stream), total, done) as advance:
            yield advance
        return
    plain = _Plain(stream, total, done)
    try:
        yield plain.advance
    finally:
        plain.draw()
        stream.write("\n")
        stream.flush()


@contextmanager
def _rich_bar(progress: Any, console: Any, total: int, done: int) -> Iterator[Callable[[], None]]:
    """rich's bar, its columns as the plain line's: games done, games a second, time left, both
    from the games of this run over its whole time (as the plain line's). rich's own estimate
    reads the last 30 seconds, and games come back from worker processes a chunk at a time: a
    chunk of 25 games arriving at once read as 25 games in a millisecond, and a time left of
    seconds for a run of half an hour."""
    def rate(task: Any) -> float:
        elapsed = task.elapsed or 0.0
        return (task.completed - done) / elapsed if elapsed > 0 else 0.0

    class Rate(progress.ProgressColumn):
        def render(self, task: Any) -> Any:
            return progress.Text(f"{rate(task):.1f} games/s", style="progress.data.speed")

    class Left(progress.ProgressColumn):
        def render(self, task: Any) -> Any:
            speed = rate(task)
            if task.finished or speed <= 0:
                return progress.Text("-:--:--" if not task.finished else "0:00:00", style="progress.remaining")
            return progress.Text(_clock((task.total - task.completed) / speed), style="progress.remaining")

    columns = (progress.BarColumn(), progress.MofNCompleteColumn(), progress.TextColumn("games"), Rate(), Left())
    # Redrawn here, not by rich's own thread: a process without threads can start its workers
    # the fast way (see workers.py).
    with progress.Progress(*columns, console=console, auto_refresh=False) as bar:
        task = bar.add_task("games", total=total, completed=done)
        drawn = time.perf_counter()

        def advance() -> None:
            nonlocal drawn
            bar.advance(task)
            if time.perf_counter() - drawn >= REDRAW_EVERY:
                bar.refresh()
                drawn = time.perf_counter()
        yield advance


class _Plain:
    """`\\r  412/1000 games, 35.2 games/s, 17s left`, redrawn at most every REDRAW_EVERY seconds."""

    def __init__(self, stream: TextIO, total: int, done: int):
        self.stream, self.total, self.done, self.start_done = stream, total, done, done
        self.started = self.drawn = time.perf_counter()

    def advance(self) -> None:
        self.done += 1
        if time.perf_counter() - self.drawn >= REDRAW_EVERY or self.done == self.total:
            self.draw()

    def draw(self) -> None:
        self.drawn = time.perf_counter()
        elapsed = self.drawn - self.started
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        left = f", {(self.total - self.done) / rate:.0f}s left" if rate > 0 and self.done < self.total else ""
        self.stream.write(f"\r  {self.done}/{self.total} games, {rate:.1f} games/s{left}")
        self.stream.flush()


@contextmanager
def status_display(stream: TextIO | None) -> Iterator[Callable[..., None]]:
    """A function `show(line, force=False)` that redraws one status line on `stream` (None:
    nothing) from `line()`, a function made to be called only when the line is drawn (at most
    every REDRAW_EVERY seconds, unless forced): for runs whose progress is not a count of games
    towards a total (a run that stops when it knows, analysis/sequential.py)."""
    if stream is None:
        yield lambda line, force=False: None
        return
    drawn = [0.0, 0]

    def show(line: Callable[[], str], force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - drawn[0] < REDRAW_EVERY:
            return
        text = line()
        stream.write("\r  " + text + " " * max(0, drawn[1] - len(text)))
        stream.flush()
        drawn[0], drawn[1] = now, len(text)
    try:
        yield show
    finally:
        stream.write("\n")
        stream.flush()


def _clock(seconds: float) -> str:
    """`1:02:03`: hours, minutes and seconds, as rich shows a time."""
    whole = int(round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
