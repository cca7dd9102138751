"""The ruleset's names that hide a built-in of the effect language.

A name a ruleset defines (a function, procedure, constant, counter, zone, a parameter or a local)
means what the ruleset says wherever it is visible: the compiler looks it up before the
built-ins. So a built-in added to the language later never breaks a game that used the name
already. Hiding one is no mistake, only worth saying when asked (`engine validate --strict`):
these notes say it, at the name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from lark import Token, Tree

from ..core.errors import Diagnostic, Location
from ..lang.builtins import REGISTRY
from ..lang.compiler import SPECIAL_NAMES

_WHAT = {"constants": "constant", "boards": "board", "counters": "counter", "zones": "zone",
         "functions": "function", "procedures": "procedure"}


@dataclass(frozen=True)
class Note(Diagnostic):
    """Not a problem: something `validate` tells about a ruleset that loads (with `--strict`
    only, unless `strict` is false)."""

    strict: bool = True

    def __str__(self) -> str:
        return f"{self.location}: note: {self.message}"


def _hidden(name: str) -> str:
    """How the built-in `name` is shown: its signature, or the bare name."""
    return REGISTRY[name].signature if name in REGISTRY else name


def hides(name: str) -> bool:
    """Whether `name` is also a built-in name of the language."""
    return name in REGISTRY or name in SPECIAL_NAMES


def global_notes(data: dict, triggers: list[tuple[tuple, dict]],
                 at: Callable[[tuple, bool], Location]) -> list[Note]:
    """A note for each global name of the ruleset (`data`, as loaded) and each parameter of its
    functions, procedures and `triggers` (each with its path) that hides a built-in; `at` places
    a path of the data in the files (True: at the key)."""
    notes = []
    holders = []
    for section, what in _WHAT.items():
        for name, entry in (data.get(section) or {}).items():
            if hides(name):
                notes.append(Note(at((section, name), True), f"your {what} '{name}' hides the "
                                  f"built-in {_hidden(name)}"))
            holders.append(((section, name), entry, f"{what} {name}"))
    holders += [(path, entry, f"trigger {entry.get('on')}") for path, entry in triggers]
    for path, entry, what in holders:
        params = entry.get("params") if isinstance(entry, dict) else None
        for i, param in enumerate(params if isinstance(params, list) else []):
            if isinstance(param, str) and hides(param):
                notes.append(Note(at(path + ("params", i), False), f"parameter '{param}' of {what} "
                                  f"hides the built-in {_hidden(param)}"))
    return notes


def _bound(tree: Tree) -> Iterator[Token]:
    """Each name a rule binds for itself: `let`, `for`, a comprehension's and a `->`'s variable."""
    for node in tree.iter_subtrees():
        if node.data in ("let_stmt", "for_stmt", "comp_clause", "lambda_expr"):
            token = node.children[0]
            if isinstance(token, Token):
                yield token


def local_notes(trees: dict[tuple, Tree], where: Callable[[tuple, int, int], Location]) -> list[Note]:
    """A note for each local of the rules (`trees`, by the path of their text) named like a
    built-in; `where` places a line and column of a rule's text in the files."""
    notes = []
    for path, tree in trees.items():
        for token in _bound(tree):
            name = str(token)
            if hides(name):
                notes.append(Note(where(path, token.line, token.column), f"local '{name}' hides "
                                  f"the built-in {_hidden(name)}"))
    return notes
