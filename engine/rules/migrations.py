"""Migrations: the old forms of a ruleset that a deliberate change of the format stopped
reading, each found at its line and rewritten there by `engine validate --fix`.

A ruleset that worked keeps working: a new built-in or a new key must never break one. When a
change has to refuse what was read before (it was a trap), the check that refuses it reports an
`Outdated` problem at the line, naming its migration; `--fix` rewrites that line of the file's
text and nothing else, so comments and layout stay as written (the YAML is never dumped again).
To add one: a Migration in MIGRATIONS (since when, what it did, how it rewrites a line), and
the check reports `Outdated(location, message, migration=NAME)`; a file of the old form goes in the
compatibility corpus (tests/fixtures/compat/old_forms/).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..core.errors import Diagnostic


@dataclass(frozen=True)
class Migration:
    """One deliberate change of the format, and how a line of the old form is written now."""

    name: str
    since: str  # the change that stopped reading the old form: commit and date
    done: str  # what --fix did to the line, in words: "each tab of the indentation made 8 spaces"
    rewrite: Callable[[str], str]  # a line of the file (without its end) -> the line now


def _tabs_to_spaces(line: str) -> str:
    """The indentation of `line` with each tab made 8 spaces: the parser counted a tab as 8
    columns, wherever it stood, so the rule means what it meant before."""
    body = line.lstrip(" \t")
    return line[: len(line) - len(body)].replace("\t", " " * 8) + body


MIGRATIONS = {m.name: m for m in (
    Migration("tabs", "a765f92, 2026-12-01", "each tab of the indentation made 8 spaces, as the "
              "parser counted it", _tabs_to_spaces),
)}


@dataclass(frozen=True)
class Outdated(Diagnostic):
    """A problem that is an old form of the format: `migration` (a name of MIGRATIONS) rewrites
    its line."""

    migration: str = ""

    def __str__(self) -> str:
        return f"{super().__str__()}; `engine validate --fix` does it"


def fix(problems: list[Diagnostic]) -> list[Outdated]:
    """Rewrite, in their files, the lines of the `problems` that are old forms; the ones done.
    A line is rewritten once however many problems it has, and only when it still reads as it
    did (a line whose rewrite changes nothing is left, and stays reported)."""
    done: list[Outdated] = []
    by_file: dict[str, list[Outdated]] = {}
    for p in problems:
        if isinstance(p, Outdated) and p.location.line:
            by_file.setdefault(p.location.file, []).append(p)
    for file, found in by_file.items():
        path = Path(file)
        lines = path.read_bytes().decode("utf-8").split("\n")  # a "\r" stays with its line
        changed = False
        for p in sorted(found, key=lambda p: p.location.line):
            index = p.location.line - 1
            line = lines[index]
            end = "\r" if line.endswith("\r") else ""
            new = MIGRATIONS[p.migration].rewrite(line[: len(line) - len(end)]) + end
            if new != line:
                lines[index], changed = new, True
                done.append(p)
        if changed:
            path.write_bytes("\n".join(lines).encode("utf-8"))
    return done
