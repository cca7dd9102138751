"""The static type check of a ruleset's rules (engine/lang/types.py), given what the loader
knows: where each rule is written, what names it starts with, and what those names are."""
from __future__ import annotations

from typing import Any, Callable

from lark import Tree

from ..core.errors import Diagnostic, Location
from ..core.table import Card
from ..lang.compiler import Names
from ..lang.types import NUMBER, Checker, Rule, T


def check_types(data: dict, compiled: list[tuple[tuple, str, list[str], str]],
                trees: dict[tuple, Tree | None], names: Names, cards: list[Card],
                where: Callable[[tuple], Callable[[int, int], Location]], at: Callable[[tuple], Location],
                other_problems: bool = False) -> list[Diagnostic]:
    """The type problems of every rule compiled (each `(path, start, params, rule)`), parsed
    into `trees` by (path, start); `where(path)` places a line and column of a rule's text.
    With `other_problems` found already, which cards go where is not worked out (a mistake
    could hide a move), so no property is reported missing: no cascade from another error."""
    rules: list[Rule] = []
    seen: set = set()
    for path, start, params, rule in compiled:
        tree = trees.get((path, "expression" if start in ("expression", "function") else "program"))
        if tree is None:
            continue
        given = _given(data, path, params)
        once = (at(path), start, tuple(params), repr(given.get("card")))  # a table's rows share their rules
        if once in seen:
            continue
        seen.add(once)
        result = ("function", path[1]) if path[0] == "functions" else \
            ("procedure", path[1]) if path[0] == "procedures" else None
        if isinstance(given.get("value"), tuple) and path[-1] == "value":  # what a modifier makes its function give
            result = given["value"]
        rules.append(Rule((path, start), tree, given, where(path), rule, result))
    declared = {n: c for n, c in (data.get("counters") or {}).items() if isinstance(c, dict)}
    counters = {n: c.get("initial", 0) for n, c in declared.items()}
    written = {n for n, c in declared.items() if "initial" in c}
    kinds = {k: dict(v.get("properties") or {}) for k, v in (data.get("card_kinds") or {}).items()}
    boards = {b: dict(v.get("properties") or {}) for b, v in (data.get("boards") or {}).items()}
    starts: dict[str, set[str]] = {}
    for card in cards:
        if card.start is not None:
            starts.setdefault(card.start, set()).add(card.kind)
    try:
        return Checker(names, counters, kinds, boards, starts, written, not other_problems).check(rules)
    except RecursionError:  # a rule nested too deeply: the compiler has said so
        return []


def _given(data: dict, path: tuple, params: list[str]) -> dict[str, Any]:
    """The types of the names a rule starts with: unknown, but a card's own `card`, a
    modifier's `value` (its function's result), the scoring's `player`, a board's `place`."""
    given: dict[str, Any] = dict.fromkeys(params)
    holder = path[0] in ("card_kinds", "cards") and len(path) > 3 and path[2] in ("triggers", "modifiers")
    if holder and params.count("card") == 1:
        kind = path[1] if path[0] == "card_kinds" else _at(data, path[:2]).get("kind")
        given["card"] = T("card", frozenset({kind})) if isinstance(kind, str) else T("card")
    if holder and path[2] == "modifiers" and params.count("value") == 1:
        given["value"] = ("function", _at(data, path[:-1]).get("modify"))
    if path[0] == "scoring" and params == ["player"]:
        given["player"] = NUMBER
    if path[0] == "boards" and params == ["place"]:
        given["place"] = T("place", path[1])
    return given


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data
