"""The terminal a person plays at: its size, colour where it can, and paging.

With `rich` installed (the `terminal` extra) and a terminal to draw on, lines are coloured by
it; else, or with `--plain`, they are written as they are. Output that is not a terminal (a
file, a pipe, a test) gets no escape codes, no paging and no limit of height or width.
"""
from __future__ import annotations

import shutil
from typing import TextIO

from .screen import Line

CLEAR = "\033[H\033[2J"  # to the top and clear the screen (its scrollback stays)


class Terminal:
    """Where a person reads and types: `stdin` and `stdout`, drawn plainly or with rich."""

    def __init__(self, stdin: TextIO, stdout: TextIO, plain: bool = False):
        self.stdin, self.stdout = stdin, stdout
        self.is_tty = _isatty(stdout)
        # Paging waits for Enter: only when a person types, not when moves come from a file.
        self.interactive = self.is_tty and _isatty(stdin)
        self.console = None
        # A line typed at a "more" prompt that is a command rather than Enter or q: it stops the
        # paging and is the person's next answer (`answer`), not lost.
        self.typed: str | None = None
        if self.is_tty and not plain:
            try:
                from rich.console import Console
            except ImportError:
                pass
            else:
                self.console = Console(file=stdout, highlight=False, soft_wrap=True)

    def size(self) -> tuple[int | None, int | None]:
        """(width, height) to lay a screen out in; None where there is no limit (no terminal,
        or, for the height, nobody to page for)."""
        if not self.is_tty:
            return None, None
        columns, lines = shutil.get_terminal_size()
        return max(columns, 40), (max(lines, 12) if self.interactive else None)

    def clear(self) -> None:
        if self.is_tty:
            self.stdout.write(CLEAR)

    def show(self, lines: list[Line]) -> None:
        if self.console is not None:
            from rich.text import Text
            for line in lines:
                self.console.print(Text(line.text, style=line.style))
        else:
            self.stdout.write("".join(line.text + "\n" for line in lines))
        self.stdout.flush()

    def say(self, text: str) -> None:
        self.show([Line(t) for t in text.split("\n")])

    def page(self, lines: list[Line], more: bool = False) -> None:
        """Show `lines` a screenful at a time, waiting for Enter between (q stops), and after
        the last too if `more` is to follow on a new screen; all at once where nobody pages.
        Anything else typed there stops the paging too, and is kept in `typed` for the prompt
        that follows: a person who types an option or a command at the pager has it done."""
        _, height = self.size()
        if height is None or (len(lines) < height and not more):
            self.show(lines)
            return
        step = height - 1
        for start in range(0, len(lines), step):
            self.show(lines[start:start + step])
            if start + step < len(lines) or more:
                self.stdout.write(f"-- more ({min(start + step, len(lines))} of {len(lines)} lines): Enter, q to stop -- ")
                self.stdout.flush()
                try:
                    answer = self.stdin.readline()
                except KeyboardInterrupt:  # Ctrl-C stops the paging, as q does
                    answer = "q"
                if answer.strip().lower() in ("q", "quit"):
                    return
                if answer.strip():
                    self.typed = answer.strip()
                    return

    def answer(self, prompt: str) -> str | None:
        """What was typed at the pager (`typed`), shown after `prompt` as if typed there, and
        forgotten; None if nothing was."""
        typed, self.typed = self.typed, None
        if typed is not None:
            self.stdout.write(f"{prompt}{typed}\n")
            self.stdout.flush()
        return typed


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
