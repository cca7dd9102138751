"""Checks of a ruleset, with its extension files, that its schema cannot express.

Each finds a mistake that used to load without a word and show only in play (two entries
making the same card, a trigger taking more or fewer parameters than its event is emitted
with) or that ended in a traceback (a label template reaching into a value).
"""
from __future__ import annotations

import re
import string
from collections import defaultdict
from typing import Any, Callable

from lark import Tree

from ..core.errors import Diagnostic, Location, suggest
from ..core.table import Card
from ..lang.compiler import string_value
from .shadowing import Note
from .yamlload import MergedSourceMap, SourceMap

COPIES = "for several copies of one card, write one entry with `count: N`"
MAX_LABEL_WIDTH = 1000


def _place(here: Location, there: Location) -> str:
    """Where `there` is, said from `here`: its line, or its file and line."""
    return f"line {there.line}" if there.file == here.file else f"{there.file}:{there.line}"


def duplicate_cards(cards: list[Card], smap: SourceMap | MergedSourceMap) -> list[Diagnostic]:
    """Two entries of one kind that make the same card: the same name shown the same way (a
    name may repeat when the label tells the cards apart), or, unnamed, the same properties.
    Copies of a card come from one entry's `count:`; each repeat is reported at its entry."""
    problems = []
    first: dict[tuple, int] = {}
    for card in cards:
        if card.index and cards[card.index - 1].entry == card.entry:
            continue  # a copy made by `count:`
        key: tuple[Any, ...] = (card.kind, "name", card.name, card.label) if card.name else \
            (card.kind, "properties", repr(sorted(card.props.items())))
        if key not in first:
            first[key] = card.entry
            continue
        if card.name:
            here = smap.at(("cards", card.entry, "name"))
            there = smap.at(("cards", first[key], "name"))
            message = (f"the card '{card.name}' of kind '{card.kind}' is already an entry at {_place(here, there)}; "
                       f"{COPIES}; cards that differ need different names (or a label that tells them apart)")
        else:
            here, there = smap.at(("cards", card.entry)), smap.at(("cards", first[key]))
            message = (f"this entry repeats the one at {_place(here, there)} (the same kind and properties); "
                       f"{COPIES}")
        if here.file != there.file:
            message += f"; to replace a card of {there.file}, add its name to remove_cards"
        problems.append(Diagnostic(here, message))
    return problems


def shared_names(cards: list[Card], smap: SourceMap | MergedSourceMap) -> list[Note]:
    """A note for two cards of different kinds that share a name and are shown alike: nothing a
    person types (`i NAME`, `--card NAME`) or reads (the log) tells them apart. Not an error:
    the rules themselves tell them apart by kind."""
    notes = []
    first: dict[tuple[str, str], Card] = {}
    for card in cards:
        if not card.name:
            continue
        key = (card.name, card.label)
        other = first.setdefault(key, card)
        if other.kind == card.kind:
            continue
        here, there = smap.at(("cards", card.entry, "name")), smap.at(("cards", other.entry, "name"))
        notes.append(Note(here, f"the card '{card.name}' of kind '{card.kind}' has the name and label of the "
                                f"card of kind '{other.kind}' at {_place(here, there)}: a person cannot tell "
                                "them apart (`i NAME`, `--card NAME`, the log); give one another name or a "
                                "label that tells them apart", strict=False))
    return notes


Emit = tuple[str | None, int, Location]  # the event (None: not written as a string), arguments, where


def emits(tree: Tree, where: Callable[[int, int], Location]) -> list[Emit]:
    """Every `emit(...)` in a rule's tree; `where` turns a line and column of its text into a place."""
    found = []
    for node in tree.iter_subtrees():
        callee, args = (node.children + [None, None])[:2] if node.data == "call" else (None, None)
        if not (isinstance(callee, Tree) and callee.data == "name" and str(callee.children[0]) == "emit"):
            continue
        items = [] if args is None else args.children if args.data == "arguments" else [args]
        if not items:  # no event at all: a wrong number of arguments, reported by the compiler
            continue
        first, token = items[0], callee.children[0]
        event = string_value(first.children[0]) if isinstance(first, Tree) and first.data == "string" else None
        found.append((event, len(items) - 1, where(token.line, token.column)))
    return found


def trigger_arity(triggers: list[tuple[tuple, dict]], emitted: list[Emit],
                  smap: SourceMap | MergedSourceMap) -> list[Diagnostic]:
    """Each trigger (its path and entry) whose parameters do not match every `emit` of its event,
    reported where the trigger is written; and a trigger on an event no rule emits, when every
    `emit` names its event as a string (otherwise it might be emitted under a computed name)."""
    by_event: dict[str, list[tuple[int, Location]]] = defaultdict(list)
    for event, count, where in emitted:
        if event is not None:
            by_event[event].append((count, where))
    computed = any(event is None for event, _, _ in emitted)
    problems = []
    for path, t in triggers:
        event, params = t["on"], t.get("params", [])
        here = smap.at(path + (("params",) if "params" in t else ("on",)))
        if event not in by_event:
            if not computed:
                problems.append(Diagnostic(smap.at(path + ("on",)),
                                           f"no rule emits the event '{event}'{suggest(event, by_event)}, so this "
                                           f"trigger never runs; a rule emits it with emit(\"{event}\", ...)"))
            continue
        wrong = [(count, where) for count, where in by_event[event] if count != len(params)]
        if wrong:
            places = "; ".join(f"with {count} argument(s) at {_place(here, where)}:{where.column}"
                               for count, where in wrong[:3]) + ("; ..." if len(wrong) > 3 else "")
            named = f" ({', '.join(params)})" if params else ""
            problems.append(Diagnostic(here, f"the trigger on '{event}' has {len(params)} parameter(s){named}, "
                                             f"but '{event}' is emitted {places}; `params:` names one "
                                             "parameter for each argument after the event's name"))
    return problems


def template_problem(template: str, fields: list[str]) -> str | None:
    """What is wrong with a label template, or None: each `{...}` names one of `fields` plainly
    (no `.attribute` or `[index]`, which reach into Python values), with at most a format spec
    without nested fields or widths over MAX_LABEL_WIDTH."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:
        return f"{exc} (a literal brace is written twice: '{{{{' or '}}}}')"
    for _, field, spec, _ in parts:
        if field is None:
            continue
        if not field.isidentifier():
            return (f"'{{{field}}}' is not a plain field; write {{property}}, {{name}} or {{kind}}, "
                    "with a format if you like ({rank:02d})")
        if field not in fields:
            return f"'{{{field}}}' is none of its fields{suggest(field, fields)}; they are: {', '.join(fields)}"
        if "{" in (spec or "") or any(int(n) > MAX_LABEL_WIDTH for n in re.findall(r"\d+", spec or "")):
            return f"the format '{spec}' of '{{{field}}}' has a nested field or a width over {MAX_LABEL_WIDTH}"
    return None
