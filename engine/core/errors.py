"""Errors the engine reports to users, each with a place in a file.

Every failure a user can cause ends in one of these classes, so the CLI can print
`FILE:LINE:COL: error: message` and never a traceback.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Location:
    """A place in a source file; line and column count from 1."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column or 1}"
        return self.file


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a ruleset, with where it is."""

    location: Location
    message: str
    excerpt: str = ""  # the lines of the file that show the place, for a person to see (YAML syntax)

    def __str__(self) -> str:
        return f"{self.location}: error: {self.message}" + (f"\n{self.excerpt}" if self.excerpt else "")


class EngineError(Exception):
    """Base of every error meant for the user."""


class RulesetError(EngineError):
    """A ruleset (or an added card file) is invalid; holds every problem found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.location.file, d.location.line, d.location.column)
        )
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class EffectError(EngineError):
    """A rule failed while the game ran (division by zero, a runaway loop...)."""

    def __init__(self, message: str, location: Location | None = None, rule: str = ""):
        self.message = message
        self.location = location
        self.rule = rule
        where = f"{location}: " if location else ""
        what = f" (in {rule})" if rule else ""
        super().__init__(f"{where}error: {message}{what}")


class IllegalMove(EngineError):
    """A decision that is not among the legal options; the game is unchanged."""


class SaveError(EngineError):
    """A saved game that cannot be read or replayed."""


def suggest(name: str, candidates: Iterable[str]) -> str:
    """Return ' (did you mean 'x'?)' for the nearest candidate, or ''."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
